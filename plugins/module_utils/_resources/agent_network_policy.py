# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Agent Network policies (agent_network_policy and its info module): which groups may call which providers,
under which guardrails and limits. Groups, providers and guardrails are named, the server keeps ids.

Real v0.77.1 servers (tests/integration/test_real_agent_network.py): names need not be unique; at least one source
group and one provider (422); a provider id must exist (422), while group and guardrail ids are taken unchecked (a
deleted guardrail stays listed); PUT replaces every field (``enabled`` left out turns the policy off); an enabled limit
needs a window of at least 60 s (422); a group a policy names cannot be deleted (400 "group has been linked to agent
network policy").
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network import (
    AGENT_NETWORK, BASE, LIMITS_SPEC, WithLimits, nested, with_timestamps,
)


class AgentNetworkPolicyModule(WithLimits, ResourceModule):
    """An Agent Network policy: source groups, destination providers, guardrails, limits."""

    path = BASE + '/policies'
    what = 'Agent Network policy'
    kind = 'agent_network_policies'
    requires = AGENT_NETWORK
    api_operations = ('GET /api/agent-network/policies', 'POST /api/agent-network/policies',
                      'GET /api/agent-network/policies/{policyId}', 'PUT /api/agent-network/policies/{policyId}',
                      'DELETE /api/agent-network/policies/{policyId}')
    answers = with_timestamps({})
    required_on_create = ('name', 'source_groups', 'destination_provider_ids')
    fields = dict(
        name=Field(),
        description=Field(norm=lambda value: value or ''),
        enabled=Field('bool', initial=True),
        source_groups=Field('list', ref='groups', many=True),
        destination_provider_ids=Field('list', ref='agent_network_providers', many=True),
        guardrail_ids=Field('list', ref='agent_network_guardrails', many=True, initial=[]),
        limits=Field(LIMITS_SPEC, norm=nested),
    )
    required_one_of = (('id', 'name'),)
