# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Agent Network guardrails (agent_network_guardrail and its info module): a model allowlist and prompt capture
that policies attach.

Real v0.77.1 servers (tests/integration/test_real_agent_network.py): names need not be unique; the checks default
to off; a guardrail a policy attaches is deleted all the same, and the policy keeps its id: the module refuses that
deletion instead, naming the policies (one list request).
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network import (
    AGENT_NETWORK, BASE, merge_nested, nested, with_timestamps,
)

POLICIES = BASE + '/policies'
CHECKS_SPEC = dict(type='dict', options=dict(
    model_allowlist=dict(type='dict', options=dict(enabled=dict(type='bool'), models=dict(type='list', elements='str'))),
    prompt_capture=dict(type='dict', options=dict(enabled=dict(type='bool'), redact_pii=dict(type='bool'))),
))


def checks_norm(value):
    """Checks as compared: the allowlist's models as a set (sorted)."""
    checks = nested(value)
    allowlist = checks.get('model_allowlist')
    if isinstance(allowlist, dict) and isinstance(allowlist.get('models'), list):
        checks['model_allowlist'] = dict(allowlist, models=sorted(set(allowlist['models'])))
    return checks


class AgentNetworkGuardrailModule(ResourceModule):
    """An Agent Network guardrail: name, description, checks."""

    path = BASE + '/guardrails'
    what = 'Agent Network guardrail'
    kind = 'agent_network_guardrails'  # policies attach guardrails by name
    requires = AGENT_NETWORK
    # its CRUD, and the policies' list a deletion reads (servers leave a deleted guardrail's id in its policies)
    api_operations = ('GET /api/agent-network/guardrails', 'POST /api/agent-network/guardrails',
                      'GET /api/agent-network/guardrails/{guardrailId}', 'PUT /api/agent-network/guardrails/{guardrailId}',
                      'DELETE /api/agent-network/guardrails/{guardrailId}', 'GET /api/agent-network/policies')
    answers = with_timestamps({})
    fields = dict(
        name=Field(),
        description=Field(norm=lambda value: value or ''),
        checks=Field(CHECKS_SPEC, norm=checks_norm, initial={}),
    )
    required_one_of = (('id', 'name'),)

    def merge_desired(self, current, desired):
        merged = merge_nested(('checks',), current, desired)
        if 'checks' in merged:
            merged['checks'] = checks_norm(merged['checks'])
        return merged

    def before_write(self, current_obj, state):
        if state is not None:
            return
        using = sorted(str(item.get('name')) for item in self.client.get_list(POLICIES)
                       if str(current_obj.get('id')) in [str(ref) for ref in item.get('guardrail_ids') or []])
        if using:
            raise TaskError("the %s '%s' is attached to the Agent Network polic%s %s: detach it first (servers delete it and "
                            "leave its id in those policies)" % (self.what, current_obj.get('name'), 'y' if len(using) == 1 else 'ies',
                                                                 ', '.join("'%s'" % name for name in using)))
