# -*- coding: utf-8 -*-
"""Unit tests of the Agent Network kinds (no HTTP): the settings' bootstrap, the write-only API key, nested limits
compared member by member, the checks before any request, and the refusal of a v0.27 server."""

from __future__ import annotations

import json

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network import overlay, without_none
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network_budget_rule import AgentNetworkBudgetRuleModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network_guardrail import AgentNetworkGuardrailModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network_policy import AgentNetworkPolicyModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network_provider import AgentNetworkProviderModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network_settings import AgentNetworkSettingsModule
from tests.support.fakes import FakeClient, engine

VERSION = {'management_current_version': '0.77.1'}
DEFAULTS = {'access_log_retention_days': 30, 'dedicated': False, 'enable_log_collection': True, 'enable_prompt_collection': False,
            'endpoint': '', 'proxy_address': '', 'redact_pii': False}
SETTINGS = dict(DEFAULTS, endpoint='quiet-heron.eu.proxy.example.com', proxy_address='eu.proxy.example.com')
KEY = 'sk-unit-secret-3a9f'
PROVIDER = {'id': 'p1', 'name': 'OpenAI', 'provider_id': 'openai_api', 'upstream_url': 'https://api.openai.com', 'models': [],
            'identity_header_user_id': '', 'identity_header_groups': '', 'enabled': True, 'skip_tls_verification': False,
            'metadata_disabled': False, 'created_at': 't', 'updated_at': 't'}
LIMITS = {'token_limit': {'enabled': False, 'group_cap': 0, 'user_cap': 0, 'window_seconds': 0},
          'budget_limit': {'enabled': False, 'group_cap_usd': 0, 'user_cap_usd': 0, 'window_seconds': 0}}
POLICY = {'id': 'ainpol_1', 'name': 'p', 'description': '', 'enabled': True, 'source_groups': ['g1'], 'destination_provider_ids': ['p1'],
          'guardrail_ids': [], 'limits': LIMITS}


def client(**routes):
    return FakeClient(dict({'/instance/version': VERSION}, **routes))


def test_settings_are_bootstrapped_with_a_post_of_the_options_set():
    fake = client(**{'/agent-network/settings': dict(DEFAULTS)})
    result = engine(AgentNetworkSettingsModule, fake, proxy_address='eu.proxy.example.com', redact_pii=True).run()
    assert fake.writes() == [('POST', '/agent-network/settings', {'proxy_address': 'eu.proxy.example.com', 'redact_pii': True})]
    assert result['changed'] is True and result['diff']['after'] == {'proxy_address': 'eu.proxy.example.com', 'redact_pii': True}


def test_settings_not_bootstrapped_need_an_address_and_deleting_them_does_nothing():
    fake = client(**{'/agent-network/settings': dict(DEFAULTS)})
    with pytest.raises(TaskError) as failure:
        engine(AgentNetworkSettingsModule, fake, redact_pii=True).run()
    assert 'option proxy_address or endpoint is required' in str(failure.value) and fake.writes() == []
    result = engine(AgentNetworkSettingsModule, fake, state='absent').run()
    assert result['changed'] is False and fake.writes() == []


def test_settings_updates_send_every_field_and_warn_about_a_new_address():
    fake = client(**{'/agent-network/settings': dict(SETTINGS)})
    task = engine(AgentNetworkSettingsModule, fake, proxy_address='us.proxy.example.com', enable_log_collection=False)
    result = task.run()
    body = dict(SETTINGS, enable_log_collection=False)
    del body['dedicated']
    assert fake.writes() == [('PUT', '/agent-network/settings', body)] and result['changed'] is True
    assert any('proxy_address cannot change' in warning for warning in task.module.warnings)


def test_settings_are_not_deleted_while_a_provider_exists():
    fake = client(**{'/agent-network/settings': dict(SETTINGS), '/agent-network/providers': [PROVIDER]})
    with pytest.raises(TaskError) as failure:
        engine(AgentNetworkSettingsModule, fake, state='absent', check_mode=True).run()
    assert "1 Agent Network provider(s) exist (OpenAI)" in str(failure.value) and fake.writes() == []


def test_a_provider_is_created_enabled_with_its_key_which_no_result_shows():
    fake = client(**{'/agent-network/providers': []})
    result = engine(AgentNetworkProviderModule, fake, name='OpenAI', provider_id='openai_api', upstream_url='https://api.openai.com', api_key=KEY).run()
    (method, path, body), = fake.writes()
    assert (method, path) == ('POST', '/agent-network/providers') and body['api_key'] == KEY and body['enabled'] is True
    assert KEY not in json.dumps(result) and result['diff']['after']['api_key'] == '(sent: not shown)'


def test_an_unchanged_provider_sends_nothing_and_an_update_keeps_the_key():
    fake = client(**{'/agent-network/providers': [PROVIDER]})
    assert engine(AgentNetworkProviderModule, fake, name='OpenAI', api_key=KEY).run()['changed'] is False
    assert fake.writes() == []
    engine(AgentNetworkProviderModule, fake, name='OpenAI', api_key=KEY, enabled=False).run()
    (dummy, path, body), = fake.writes()
    assert path == '/agent-network/providers/p1' and 'api_key' not in body and body['enabled'] is False and body['models'] == []


@pytest.mark.parametrize('models, problem', [([{'input_per_1k': 1, 'output_per_1k': 1}], 'models[0].id: is required'),
                                             ([{'id': 'm', 'input_per_1k': -1, 'output_per_1k': 1}], 'models[0].input_per_1k'),
                                             ([{'id': 'm', 'output_per_1k': 1}], 'models[0].input_per_1k: is required'),
                                             ([{'id': 'm', 'input_per_1k': True, 'output_per_1k': 1}],
                                              'models[0].input_per_1k: must be a number of US dollars, at least 0'),
                                             ([{'id': 'm', 'input_per_1k': 1, 'output_per_1k': 1, 'price': 2}],
                                              'models[0].price: is not a known option'),
                                             ([{'id': ' ', 'input_per_1k': 1, 'output_per_1k': 1}], 'models[0].id: must not be empty')])
def test_models_are_checked_before_any_request(models, problem):
    fake = client()
    with pytest.raises(TaskError) as failure:
        engine(AgentNetworkProviderModule, fake, name='x', models=models).run()
    assert problem in str(failure.value) and fake.calls == []


def test_a_policys_limits_are_compared_member_by_member():
    fake = client(**{'/agent-network/policies': [POLICY], '/groups': [{'id': 'g1', 'name': 'eng'}],
                     '/agent-network/providers': [PROVIDER]})
    limits = {'token_limit': {'enabled': None, 'group_cap': None, 'user_cap': 0, 'window_seconds': None}, 'budget_limit': None}
    assert engine(AgentNetworkPolicyModule, fake, name='p', source_groups=['eng'], limits=limits).run()['changed'] is False
    limits['token_limit'].update(enabled=True, user_cap=10, window_seconds=60)
    result = engine(AgentNetworkPolicyModule, fake, name='p', destination_provider_ids=['OpenAI'], limits=limits).run()
    (dummy, dummy_path, body), = fake.writes()
    assert body['limits']['token_limit'] == {'enabled': True, 'group_cap': 0, 'user_cap': 10, 'window_seconds': 60}
    assert body['limits']['budget_limit'] == LIMITS['budget_limit'] and result['changed'] is True


@pytest.mark.parametrize('limits, problem', [
    ({'token_limit': {'group_cap': -1}}, 'option limits.token_limit.group_cap: must not be negative'),
    ({'budget_limit': {'user_cap_usd': -0.5}}, 'option limits.budget_limit.user_cap_usd: must not be negative'),
    ({'token_limit': {'enabled': True, 'window_seconds': 30}},
     'option limits.token_limit.window_seconds: must be at least 60 (one minute) when the limit is enabled'),
])
def test_a_limits_rules_are_the_models_and_checked_before_any_request(limits, problem):
    # a budget rule and a policy share the limits' model; a short window of a disabled limit is no problem
    for kind in (AgentNetworkPolicyModule, AgentNetworkBudgetRuleModule):
        fake = client()
        with pytest.raises(TaskError) as failure:
            engine(kind, fake, name='p', limits=limits).run()
        assert problem in str(failure.value) and fake.calls == []
    fake = client(**{'/agent-network/budget-rules': []})
    result = engine(AgentNetworkBudgetRuleModule, fake, check_mode=True, name='p',
                    limits={'token_limit': {'enabled': False, 'window_seconds': 30}}).run()
    assert result['changed'] is True and fake.writes() == []


def test_a_short_window_is_refused_before_any_request():
    fake = client()
    with pytest.raises(TaskError) as failure:
        engine(AgentNetworkPolicyModule, fake, name='p', limits={'budget_limit': {'enabled': True, 'window_seconds': 59}}).run()
    assert 'option limits.budget_limit.window_seconds: must be at least 60' in str(failure.value) and fake.calls == []


def test_a_guardrail_a_policy_attaches_is_not_deleted():
    guardrail = {'id': 'ainguard_1', 'name': 'Prod', 'description': '', 'checks': {}}
    fake = client(**{'/agent-network/guardrails': [guardrail], '/agent-network/policies': [dict(POLICY, guardrail_ids=['ainguard_1'])]})
    with pytest.raises(TaskError) as failure:
        engine(AgentNetworkGuardrailModule, fake, name='Prod', state='absent').run()
    assert "attached to the Agent Network policy 'p'" in str(failure.value) and fake.writes() == []


def test_a_v027_server_refuses_before_any_other_request():
    fake = FakeClient({'/agent-network/providers': []})
    with pytest.raises(TaskError) as failure:
        engine(AgentNetworkProviderModule, fake, name='x').run()
    assert 'does not have Agent Network resources, which came with NetBird v0.74.0' in str(failure.value)
    assert fake.calls == [('GET', '/instance/version', None)]


def test_nested_helpers():
    assert without_none({'a': None, 'b': {'c': None, 'd': 1}}) == {'b': {'d': 1}}
    assert overlay({'a': {'b': 1, 'c': 2}}, {'a': {'c': 3}}) == {'a': {'b': 1, 'c': 3}}
