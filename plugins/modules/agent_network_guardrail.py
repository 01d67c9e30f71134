#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


DOCUMENTATION = r'''
module: agent_network_guardrail
short_description: Manage the guardrails of Agent Network policies
version_added: 1.0.0
description:
  - Creates, updates and deletes an Agent Network guardrail (C(/api/agent-network/guardrails)), a model allowlist
    and prompt capture that policies apply.
  - A guardrail is found by O(id) when given, otherwise by O(name). A name several guardrails share fails and lists their ids.
  - Servers delete a guardrail a policy applies and leave its id in the policy; this module refuses that deletion
    instead, before any write, naming the policies.
options:
  id:
    description: Id of the guardrail. Needed to rename one; otherwise O(name) finds it.
    type: str
  name:
    description: Name of the guardrail. Servers do not keep these names unique. Required to create one.
    type: str
  description:
    description: What the guardrail is for.
    type: str
  checks:
    description:
      - The checks. Only the members given are compared and changed; the others keep the server's values (a new
        guardrail's checks are off).
    type: dict
    suboptions:
      model_allowlist:
        description: Requests for any model but these are denied.
        type: dict
        suboptions:
          enabled:
            description: Whether the allowlist applies.
            type: bool
          models:
            description: The allowed catalog model ids (compared as a set).
            type: list
            elements: str
      prompt_capture:
        description: Capture of requests and answers (the settings' O(nms.overlay.agent_network_settings#module:enable_prompt_collection) must be on too).
        type: dict
        suboptions:
          enabled:
            description: Whether prompts are captured.
            type: bool
          redact_pii:
            description: Whether captured prompts have personal data redacted.
            type: bool
  state:
    description:
      - V(present) creates or updates it; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
seealso:
  - module: nms.overlay.agent_network_guardrail_info
  - module: nms.overlay.agent_network_policy
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource, nms.overlay.module.converge, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: Allow small models only (connection from NMS_API_URL and NMS_API_TOKEN)
  nms.overlay.agent_network_guardrail:
    name: Production
    checks:
      model_allowlist:
        enabled: true
        models: [gpt-5.4-mini, claude-haiku-4-5]
'''

RETURN = r'''
agent_network_guardrail:
  description:
    - The guardrail after the change; in check mode, as it would be.
    - Empty after O(state=absent) when there was nothing to delete; otherwise the deleted one.
  returned: always
  type: dict
  contains:
    id:
      description:
        - Id of the guardrail.
        - In check mode, one that would be created has the placeholder C((new Agent Network guardrail <name>)).
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

from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network_guardrail import AgentNetworkGuardrailModule


if __name__ == '__main__':
    AgentNetworkGuardrailModule.main()
