#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


DOCUMENTATION = r'''
module: agent_network_policy
short_description: Manage which groups may call which AI providers (Agent Network policies)
version_added: 1.0.0
description:
  - Creates, updates and deletes an Agent Network policy (C(/api/agent-network/policies)), the groups whose members
    may call some Agent Network providers, under guardrails and token or spend limits.
  - A policy is found by O(id) when given, otherwise by O(name). A name several policies share fails and lists their ids.
  - Groups, providers and guardrails are given by name or id and returned as ids; the diff shows names.
  - Options left unset keep the server's value (the update sends every field, as servers reset those a request leaves out).
options:
  id:
    description: Id of the policy. Needed to rename one; otherwise O(name) finds it.
    type: str
  name:
    description: Name of the policy. Servers do not keep these names unique. Required to create one.
    type: str
  description:
    description: What the policy is for.
    type: str
  enabled:
    description: Whether the policy applies. A policy this module creates is enabled unless V(false) is given.
    type: bool
  source_groups:
    description:
      - The groups (names or ids) whose members may call the providers. At least one is required to create one.
    type: list
    elements: str
  destination_provider_ids:
    description:
      - The Agent Network providers (names or ids) the groups may call. At least one is required to create one.
    type: list
    elements: str
  guardrail_ids:
    description: The Agent Network guardrails (names or ids) the policy applies; V([]) detaches them all.
    type: list
    elements: str
  limits:
    description:
      - Token and spend caps. Only the members given are compared and changed; the others keep the server's values.
      - Servers refuse an enabled limit whose window is shorter than 60 seconds, and negative caps; the task refuses
        them before any request.
    type: dict
    suboptions:
      token_limit:
        description: Tokens allowed per window; a cap of 0 is no cap.
        type: dict
        suboptions:
          enabled:
            description: Whether the token cap applies.
            type: bool
          group_cap:
            description: Tokens each group may use in a window.
            type: int
          user_cap:
            description: Tokens each user may use in a window.
            type: int
          window_seconds:
            description: The window, in seconds (at least 60 when enabled).
            type: int
      budget_limit:
        description: US dollars allowed per window; a cap of 0 is no cap.
        type: dict
        suboptions:
          enabled:
            description: Whether the spend cap applies.
            type: bool
          group_cap_usd:
            description: US dollars each group may spend in a window.
            type: float
          user_cap_usd:
            description: US dollars each user may spend in a window.
            type: float
          window_seconds:
            description: The window, in seconds (at least 60 when enabled).
            type: int
  state:
    description:
      - V(present) creates or updates it; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
seealso:
  - module: nms.overlay.agent_network_policy_info
  - module: nms.overlay.agent_network_provider
  - module: nms.overlay.agent_network_guardrail
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource, nms.overlay.module.converge, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: Let engineers call OpenAI under the production guardrail (connection from NMS_API_URL and NMS_API_TOKEN)
  nms.overlay.agent_network_policy:
    name: Engineering to OpenAI
    source_groups: [engineering]
    destination_provider_ids: [OpenAI]
    guardrail_ids: [Production]
    limits:
      budget_limit:
        enabled: true
        user_cap_usd: 50
        window_seconds: 2592000

- name: Remove the policy
  nms.overlay.agent_network_policy:
    name: Engineering to OpenAI
    state: absent
'''

RETURN = r'''
agent_network_policy:
  description:
    - The policy after the change; in check mode, as it would be.
    - Empty after O(state=absent) when there was nothing to delete; otherwise the deleted one.
  returned: always
  type: dict
  contains:
    id:
      description:
        - Id of the policy.
        - In check mode, one that would be created has the placeholder C((new Agent Network policy <name>)).
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

from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network_policy import AgentNetworkPolicyModule


if __name__ == '__main__':
    AgentNetworkPolicyModule.main()
