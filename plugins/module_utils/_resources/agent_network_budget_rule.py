# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Agent Network budget rules (agent_network_budget_rule and its info module): an account-wide ceiling of tokens
or spend for groups and users (none named: every caller), over every policy.

Real v0.77.1 servers (tests/integration/test_real_agent_network.py): names need not be unique; group and user ids
are taken unchecked; a create without ``enabled`` enables the rule, a PUT without it disables it (PUT replaces every
field); an enabled limit needs a window of at least 60 s (422).
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network import (
    AGENT_NETWORK, BASE, LIMITS_SPEC, WithLimits, nested, with_timestamps,
)


class AgentNetworkBudgetRuleModule(WithLimits, ResourceModule):
    """An Agent Network budget rule: target groups and users, limits."""

    path = BASE + '/budget-rules'
    what = 'Agent Network budget rule'
    kind = 'agent_network_budget_rules'
    requires = AGENT_NETWORK
    api_operations = ('GET /api/agent-network/budget-rules', 'POST /api/agent-network/budget-rules',
                      'GET /api/agent-network/budget-rules/{ruleId}', 'PUT /api/agent-network/budget-rules/{ruleId}',
                      'DELETE /api/agent-network/budget-rules/{ruleId}')
    answers = with_timestamps({})
    fields = dict(
        name=Field(),
        enabled=Field('bool', initial=True),
        target_groups=Field('list', ref='groups', many=True, initial=[]),
        target_users=Field('list', ref='users', many=True, initial=[]),
        limits=Field(LIMITS_SPEC, norm=nested, initial={}),
    )
    required_one_of = (('id', 'name'),)
