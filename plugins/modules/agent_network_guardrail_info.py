#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


DOCUMENTATION = r'''
module: agent_network_guardrail_info
short_description: List the Agent Network guardrails
version_added: 1.0.0
description:
  - Returns all Agent Network guardrails, or the one with a given O(id) or O(name).
seealso:
  - module: nms.overlay.agent_network_guardrail
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.by_id_or_name, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: List every Agent Network guardrail
  nms.overlay.agent_network_guardrail_info:
  register: guardrails
'''

RETURN = r'''
agent_network_guardrails:
  description: The ones found, also when filtered to one. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
  contains:
      id:
        description: Id of the guardrail.
        type: str
        sample: ainguard_dc483gdqmd2poukpvt9g
      name:
        description: Name of the guardrail.
        type: str
        sample: Production
      description:
        description: What the guardrail is for.
        type: str
        sample: Small models only.
      checks:
        description: The checks, C(model_allowlist) (C(enabled), C(models)) and C(prompt_capture) (C(enabled), C(redact_pii)).
        type: dict
        sample: {model_allowlist: {enabled: true, models: [gpt-5.4-mini]}, prompt_capture: {enabled: false, redact_pii: false}}
      created_at:
        description: When it was created.
        type: str
        sample: '2026-04-26T10:30:00Z'
      updated_at:
        description: When it last changed.
        type: str
        sample: '2026-04-26T10:30:00Z'
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network_guardrail import AgentNetworkGuardrailModule


class AgentNetworkGuardrailInfoModule(InfoModule):
    resource = AgentNetworkGuardrailModule


if __name__ == '__main__':
    AgentNetworkGuardrailInfoModule.main()
