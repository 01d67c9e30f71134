# -*- coding: utf-8 -*-
"""The Agent Network modules on the emulator: on a v0.77 server (the `current` dialect, as the real seeded v0.77.1
answers) create / re-run / check mode / update / delete / delete-again of the settings, providers, guardrails,
policies and budget rules, counting the writes, the API key sent and never shown; on a v0.27 server (`netbird`) the
refusal after the version probe."""

from __future__ import annotations

import json

import pytest

from tests.support.emulator import writes_of

API_KEY = 'sk-test-5e1f2a0d7c94'  # (no 12 characters of it in any URL: the secrets scan searches its fragments)
ROTATED = 'sk-rotated-9b3c61e0f2'
PROVIDER = {'name': 'OpenAI', 'provider_id': 'openai_api', 'upstream_url': 'https://api.openai.com', 'api_key': API_KEY,
            'models': [{'id': 'gpt-5.4-mini', 'input_per_1k': 0.00075, 'output_per_1k': 0.0045}]}
BASE = '/api/agent-network'


def needs(emulator, dialect):
    if emulator.dialect != dialect:
        pytest.skip('needs the %s dialect' % dialect)


def task(module, label='t', /, **options):
    return {'name': label, 'nms.overlay.agent_network_%s' % module: options}


def lifecycle(emulator, run, module, create, update, key, path):
    """create -> re-run (no write) -> check mode (no write) -> update -> delete -> delete again; the object created."""
    first = run([task(module, **create)], diff=True)
    assert first.rc == 0, first
    created = first['t'][key]
    assert first['t']['changed'] is True and writes_of(emulator) == ['POST %s' % path]
    emulator.clear_log()
    again = run([task(module, **create)])
    assert again.rc == 0, again
    assert again['t']['changed'] is False and emulator.writes() == []
    check = run([task(module, **{**create, **update})], check=True, diff=True)
    assert check['t']['changed'] is True and emulator.writes() == []
    changed = run([task(module, **{**create, **update})], diff=True)
    assert changed.rc == 0, changed
    assert changed['t']['changed'] is True and writes_of(emulator) == ['PUT %s/%s' % (path, created['id'])]
    assert changed['t']['diff'] == check['t']['diff']
    emulator.clear_log()
    rerun = run([task(module, **{**create, **update})])
    assert rerun['t']['changed'] is False and emulator.writes() == []
    return created


def delete_twice(emulator, run, module, name, path, item_id):
    emulator.clear_log()
    gone = run([task(module, name=name, state='absent')])
    assert gone.rc == 0, gone
    assert gone['t']['changed'] is True and writes_of(emulator) == ['DELETE %s/%s' % (path, item_id)]
    emulator.clear_log()
    again = run([task(module, name=name, state='absent')])
    assert again['t']['changed'] is False and emulator.writes() == []


def test_settings_bootstrap_rerun_check_update_delete(emulator, run):
    needs(emulator, 'current')
    emulator.clear_log()
    before = run([{'name': 'info', 'nms.overlay.agent_network_settings_info': {}}])
    assert before['info']['agent_network_settings']['endpoint'] == ''
    missing = run([dict(task('settings', access_log_retention_days=7), ignore_errors=True)])
    assert 'option proxy_address or endpoint is required' in missing['t']['msg'] and emulator.writes() == []

    check = run([task('settings', proxy_address='eu.proxy.example.com')], check=True, diff=True)
    assert check['t']['changed'] is True and emulator.writes() == []
    first = run([task('settings', proxy_address='eu.proxy.example.com', access_log_retention_days=7)], diff=True)
    assert first.rc == 0, first
    settings = first['t']['agent_network_settings']
    assert settings['endpoint'].endswith('.eu.proxy.example.com') and settings['access_log_retention_days'] == 7
    assert writes_of(emulator) == ['POST %s/settings' % BASE]
    assert first['t']['diff']['after'] == {'proxy_address': 'eu.proxy.example.com', 'access_log_retention_days': 7}

    emulator.clear_log()
    again = run([task('settings', proxy_address='eu.proxy.example.com', access_log_retention_days=7)])
    assert again['t']['changed'] is False and emulator.writes() == []
    check = run([task('settings', enable_log_collection=False)], check=True, diff=True)
    assert check['t']['diff'] == {'before': {'enable_log_collection': True}, 'after': {'enable_log_collection': False}}
    assert emulator.writes() == []
    update = run([task('settings', enable_log_collection=False)])
    assert update['t']['changed'] is True and writes_of(emulator) == ['PUT %s/settings' % BASE]
    body = emulator.writes()[0]['body']
    assert body['endpoint'] == settings['endpoint'] and body['access_log_retention_days'] == 7  # every field, kept

    emulator.clear_log()
    moved = run([task('settings', proxy_address='us.proxy.example.com')])
    assert moved['t']['changed'] is False and emulator.writes() == []
    assert any('proxy_address cannot change' in warning for warning in moved['t']['warnings'])

    gone = run([task('settings', state='absent')])
    assert gone['t']['changed'] is True and writes_of(emulator) == ['DELETE %s/settings' % BASE]
    emulator.clear_log()
    again = run([task('settings', state='absent')])
    assert again['t']['changed'] is False and emulator.writes() == []


def test_provider_lifecycle_with_a_write_only_api_key(emulator, run):
    needs(emulator, 'current')
    emulator.clear_log()
    created = lifecycle(emulator, run, 'provider', PROVIDER, {'upstream_url': 'https://eu.api.openai.com', 'enabled': False},
                        'agent_network_provider', BASE + '/providers')
    assert 'api_key' not in created and created['enabled'] is True and created['extra_values'] == {}
    stored = emulator.ok('GET', BASE + '/providers/%s' % created['id'])
    assert stored['models'] == PROVIDER['models'] and stored['upstream_url'] == 'https://eu.api.openai.com'

    emulator.clear_log()
    rotate = run([task('provider', name='OpenAI', api_key=ROTATED, update_secret='always')], diff=True, ansible=True)
    assert rotate.rc == 0, rotate
    assert rotate['t']['diff'] == {'before': {'api_key': '(write-only: not readable)'}, 'after': {'api_key': '(sent: not shown)'}}
    assert emulator.writes()[0]['body']['api_key'] == ROTATED
    assert ROTATED not in rotate.stdout and API_KEY not in rotate.stdout
    body = emulator.writes()[0]['body']
    assert body['upstream_url'] == 'https://eu.api.openai.com' and body['models'] == PROVIDER['models']  # kept in the PUT

    info = run([{'name': 'one', 'nms.overlay.agent_network_provider_info': {'name': 'OpenAI'}},
                {'name': 'catalog', 'nms.overlay.agent_network_catalog_info': {'id': 'openai_api'}}])
    assert [item['id'] for item in info['one']['agent_network_providers']] == [created['id']]
    assert [item['id'] for item in info['catalog']['agent_network_catalog']] == ['openai_api']
    assert API_KEY not in json.dumps(info.results)
    delete_twice(emulator, run, 'provider', 'OpenAI', BASE + '/providers', created['id'])


def test_policy_names_its_groups_providers_and_guardrails(emulator, run):
    needs(emulator, 'current')
    group = emulator.ok('POST', '/api/groups', {'name': 'engineering'})
    allowlist = {'model_allowlist': {'enabled': True, 'models': ['gpt-5.4-mini']}}
    setup = run([task('provider', 'p', **PROVIDER), task('guardrail', 'g', name='Production', checks=allowlist)])
    assert setup.rc == 0, setup
    provider, guardrail = setup['p']['agent_network_provider'], setup['g']['agent_network_guardrail']
    emulator.clear_log()
    policy = {'name': 'Engineering to OpenAI', 'source_groups': ['engineering'], 'destination_provider_ids': ['OpenAI'],
              'guardrail_ids': ['Production'], 'limits': {'token_limit': {'enabled': True, 'user_cap': 100000, 'window_seconds': 86400}}}
    created = lifecycle(emulator, run, 'policy', policy, {'limits': {'budget_limit': {'enabled': True, 'user_cap_usd': 5.5, 'window_seconds': 3600}}},
                        'agent_network_policy', BASE + '/policies')
    assert created['source_groups'] == [group['id']] and created['destination_provider_ids'] == [provider['id']]
    assert created['guardrail_ids'] == [guardrail['id']] and created['enabled'] is True
    stored = emulator.ok('GET', BASE + '/policies/%s' % created['id'])
    assert stored['limits']['token_limit'] == {'enabled': True, 'group_cap': 0, 'user_cap': 100000, 'window_seconds': 86400}
    assert stored['limits']['budget_limit'] == {'enabled': True, 'group_cap_usd': 0, 'user_cap_usd': 5.5, 'window_seconds': 3600}

    detach = run([task('policy', name='Engineering to OpenAI', guardrail_ids=[])], check=True, diff=True)
    # a name only where the task read the list: this one resolved no guardrail, so the id shows
    assert detach['t']['diff'] == {'before': {'guardrail_ids': [guardrail['id']]}, 'after': {'guardrail_ids': []}}
    renamed = run([dict(task('policy', name='Engineering to OpenAI', destination_provider_ids=['OpenAI', 'Claude']), ignore_errors=True)])
    assert "destination_provider_ids: no Agent Network provider with the id or name 'Claude'" in renamed['t']['msg']

    emulator.clear_log()
    used = run([dict(task('guardrail', name='Production', state='absent'), ignore_errors=True),
                dict(task('provider', 'p', name='OpenAI', state='absent'), ignore_errors=True)])
    assert "attached to the Agent Network policy 'Engineering to OpenAI'" in used['t']['msg']
    assert used['p']['status'] == 422 and 'provider is in use by 1 policy (engineering to openai)' in used['p']['msg'].lower()
    assert writes_of(emulator) == ['DELETE %s/providers/%s' % (BASE, provider['id'])]  # the server refused it
    delete_twice(emulator, run, 'policy', 'Engineering to OpenAI', BASE + '/policies', created['id'])


def test_guardrail_and_budget_rule_lifecycles(emulator, run):
    needs(emulator, 'current')
    emulator.ok('POST', '/api/groups', {'name': 'engineering'})
    emulator.clear_log()
    guardrail = lifecycle(emulator, run, 'guardrail', {'name': 'Production', 'description': 'small models',
                                                       'checks': {'model_allowlist': {'enabled': True, 'models': ['b', 'a']}}},
                          {'checks': {'prompt_capture': {'enabled': True, 'redact_pii': True}}}, 'agent_network_guardrail', BASE + '/guardrails')
    stored = emulator.ok('GET', BASE + '/guardrails/%s' % guardrail['id'])['checks']
    assert stored == {'model_allowlist': {'enabled': True, 'models': ['a', 'b']}, 'prompt_capture': {'enabled': True, 'redact_pii': True}}
    delete_twice(emulator, run, 'guardrail', 'Production', BASE + '/guardrails', guardrail['id'])

    emulator.clear_log()
    rule = lifecycle(emulator, run, 'budget_rule', {'name': 'Monthly', 'target_groups': ['engineering'],
                                                    'limits': {'budget_limit': {'enabled': True, 'user_cap_usd': 500, 'window_seconds': 2592000}}},
                     {'enabled': False}, 'agent_network_budget_rule', BASE + '/budget-rules')
    assert rule['enabled'] is True and rule['target_users'] == []
    listed = run([{'name': 'info', 'nms.overlay.agent_network_budget_rule_info': {}}])
    assert [item['enabled'] for item in listed['info']['agent_network_budget_rules']] == [False]
    delete_twice(emulator, run, 'budget_rule', 'Monthly', BASE + '/budget-rules', rule['id'])


def test_options_the_server_would_refuse_are_refused_before_any_request(emulator, run):
    needs(emulator, 'current')
    emulator.clear_log()
    result = run([dict(task('policy', name='p', source_groups=['All'], destination_provider_ids=['x'],
                            limits={'token_limit': {'enabled': True, 'window_seconds': 30}}), ignore_errors=True),
                  dict(task('provider', 'p', **{**PROVIDER, 'upstream_url': 'api.openai.com'}), ignore_errors=True),
                  dict(task('settings', 's', proxy_address='a.example.com', endpoint='b.example.com'), ignore_errors=True)])
    assert 'option limits.token_limit.window_seconds: must be at least 60' in result['t']['msg']
    assert 'option upstream_url: must be a full http(s) URL' in result['p']['msg']
    assert 'option endpoint: give it or proxy_address, not both' in result['s']['msg']
    assert emulator.requests() == []


def test_reports_on_an_account_without_traffic(emulator, run):
    needs(emulator, 'current')
    emulator.clear_log()
    result = run([{'name': report, 'nms.overlay.agent_network_report_info': {'report': report}}
                  for report in ('access_logs', 'access_log_sessions', 'usage', 'consumption')])
    assert result.rc == 0, result
    for report in ('access_logs', 'access_log_sessions', 'usage', 'consumption'):
        assert result[report]['agent_network_report'] == [] and result[report]['changed'] is False
    assert result['access_logs']['total_records'] == 0
    filtered = run([{'name': 'logs', 'nms.overlay.agent_network_report_info': {
        'report': 'access_logs', 'decision': 'deny', 'group_id': ['All'], 'start_date': '2026-01-01T00:00:00Z'}}])
    assert filtered.rc == 0, filtered
    logs = [r for r in emulator.requests() if r['path'] == BASE + '/access-logs']
    assert logs and 'decision=deny' in logs[-1]['query'] and 'group_id=' in logs[-1]['query']


@pytest.mark.parametrize('module, options', [('settings', {'proxy_address': 'eu.proxy.example.com'}), ('provider', PROVIDER),
                                             ('policy', {'name': 'p'}), ('guardrail', {'name': 'g'}), ('budget_rule', {'name': 'b'}),
                                             ('provider_info', {}), ('catalog_info', {}), ('report_info', {'report': 'usage'})])
def test_a_v027_server_refuses_every_module_after_the_version_probe(emulator, run, module, options):
    needs(emulator, 'netbird')
    emulator.clear_log()
    result = run([dict(task(module, **options), ignore_errors=True)])
    assert 'does not have Agent Network resources, which came with NetBird v0.74.0' in result['t']['msg']
    assert [(r['method'], r['path']) for r in emulator.requests()] == [('GET', '/api/instance/version')]
