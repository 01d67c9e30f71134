#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


DOCUMENTATION = r'''
module: agent_network_policy_info
short_description: List the Agent Network policies
version_added: 1.0.0
description:
  - Returns all Agent Network policies, or the one with a given O(id) or O(name). References are ids.
seealso:
  - module: nms.overlay.agent_network_policy
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.by_id_or_name, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: List every Agent Network policy
  nms.overlay.agent_network_policy_info:
  register: policies
'''

RETURN = r'''
agent_network_policies:
  description: The ones found, also when filtered to one. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
  contains:
      id:
        description: Id of the policy.
        type: str
        sample: ainpol_dc483glqmd2poukpvtd0
      name:
        description: Name of the policy.
        type: str
        sample: Engineering to OpenAI
      description:
        description: What the policy is for.
        type: str
        sample: Engineers call OpenAI under the production guardrail.
      enabled:
        description: Whether the policy applies.
        type: bool
        sample: true
      source_groups:
        description: Ids of the groups whose members may call the providers.
        type: list
        elements: str
        sample: [ch8vp3o6lnna9hg0sd8g]
      destination_provider_ids:
        description: Ids of the providers they may call.
        type: list
        elements: str
        sample: [dc483clqmd2poukpvsug]
      guardrail_ids:
        description: Ids of the guardrails the policy applies.
        type: list
        elements: str
        sample: []
      limits:
        description: The token and spend caps, each with C(enabled) and C(window_seconds) (0 when never set).
        type: dict
        sample: {token_limit: {enabled: true, group_cap: 1000000, user_cap: 100000, window_seconds: 86400},
                 budget_limit: {enabled: false, group_cap_usd: 0, user_cap_usd: 0, window_seconds: 0}}
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
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network_policy import AgentNetworkPolicyModule


class AgentNetworkPolicyInfoModule(InfoModule):
    resource = AgentNetworkPolicyModule


if __name__ == '__main__':
    AgentNetworkPolicyInfoModule.main()
