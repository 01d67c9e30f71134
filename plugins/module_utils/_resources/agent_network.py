# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the Agent Network kinds share (settings, providers, policies, guardrails, budget rules and the reports):
the feature's name for the refusal of a v0.27 server, the limits option of policies and budget rules, and how their
nested options are compared (only the members the task sets, over the server's values)."""

from __future__ import annotations

import copy

from ansible_collections.nms.overlay.plugins.module_utils._client import TEXT

AGENT_NETWORK = 'Agent Network resources'  # what a v0.27 server lacks (named when it refuses these modules)
BASE = '/agent-network'

_TOKEN_LIMIT = dict(enabled=dict(type='bool'), group_cap=dict(type='int'), user_cap=dict(type='int'), window_seconds=dict(type='int'))
_BUDGET_LIMIT = dict(enabled=dict(type='bool'), group_cap_usd=dict(type='float'), user_cap_usd=dict(type='float'),
                     window_seconds=dict(type='int'))
# the limits of a policy or a budget rule: every member optional (those left unset keep the server's value)
LIMITS_SPEC = dict(type='dict', options=dict(token_limit=dict(type='dict', no_log=False, options=_TOKEN_LIMIT),
                                             budget_limit=dict(type='dict', options=_BUDGET_LIMIT)))


def without_none(value):
    """A nested option without its unset members (Ansible fills unset suboptions with None)."""
    if isinstance(value, dict):
        return {key: without_none(item) for key, item in value.items() if item is not None}
    if isinstance(value, list):
        return [without_none(item) for item in value]
    return value


def nested(value):
    """A nested option (or the server's value of one) as compared: its set members only."""
    return without_none(value or {})


def overlay(current, wanted):
    """``wanted`` (a nested option, unset members left out) over the server's ``current`` value: what the task asks."""
    if not isinstance(wanted, dict) or not isinstance(current, dict):
        return copy.deepcopy(wanted)
    merged = copy.deepcopy(current)
    for key, value in wanted.items():
        merged[key] = overlay(current.get(key), value)
    return merged


def merge_nested(fields, current, desired):
    """The desired values with each nested option in ``fields`` laid over the server's value (merge_desired)."""
    for name in fields:
        if name in desired:
            desired[name] = overlay(current.get(name) or {}, without_none(desired[name]))
    return desired


class WithLimits:
    """The hooks of a kind with a ``limits`` option (policies, budget rules): its rules checked before any request (by
    the model), its members laid over the server's values. A mixin before the engine's class."""

    model = 'proxies.AgentNetworkLimitsOptions'

    def merge_desired(self, current, desired):
        return merge_nested(('limits',), current, desired)


def with_timestamps(answers):
    """The answer-only fields of an Agent Network object: its id and timestamps (and the kind's own)."""
    return dict(dict(id=None, created_at=TEXT, updated_at=TEXT), **answers)
