# -*- coding: utf-8 -*-
"""The Agent Network modules against the real seeded NetBird v0.77.1 (tests/support/realserver.py; the real-server
stage, ``make real``): create / re-run / check mode / update / delete / delete again of the settings, a provider, a
guardrail, a policy and a budget rule, counting the writes in the server's request log; the API key never shown; the
server's own refusals (a provider a policy names, settings while a provider exists) and the empty reports of a server
no agent traffic went through (no NetBird proxy can connect to the test machine's server).
"""

from __future__ import annotations

import json

import pytest

from tests.integration.test_real_servers import connection, started
from tests.support.emulator import writes_of
from tests.support.forks import LOADS, RACE_SETTINGS, all_ok, assert_one_bootstrap, busy_machine, changed_count, run_forks

pytestmark = pytest.mark.real

BASE = '/api/agent-network'
API_KEY = 'sk-real-agent-network-71c0de'
PROVIDER = {'name': 'OpenAI', 'provider_id': 'openai_api', 'upstream_url': 'https://api.openai.com', 'api_key': API_KEY,
            'models': [{'id': 'gpt-5.4-mini', 'input_per_1k': 0.00075, 'output_per_1k': 0.0045}]}


@pytest.fixture(scope='module')
def server():
    yield from started('v0.77.1')


def task(module, label='t', /, **options):
    return {'name': label, 'nms.overlay.agent_network_%s' % module: options}


def lifecycle(server, run, env, module, create, update, key, path):
    """create -> re-run (no write) -> check mode (no write) -> update -> re-run; the object created."""
    server.clear_log()
    first = run([task(module, **create)], env=env, diff=True)
    assert first.rc == 0, first
    created = first['t'][key]
    assert first['t']['changed'] is True and writes_of(server) == ['POST %s' % path]
    server.clear_log()
    again = run([task(module, **create)], env=env)
    assert again['t']['changed'] is False and server.writes() == []
    check = run([task(module, **dict(create, **update))], env=env, check=True, diff=True)
    assert check['t']['changed'] is True and server.writes() == []
    changed = run([task(module, **dict(create, **update))], env=env, diff=True)
    assert changed.rc == 0, changed
    assert changed['t']['changed'] is True and writes_of(server) == ['PUT %s/%s' % (path, created['id'])]
    assert changed['t']['diff'] == check['t']['diff']
    server.clear_log()
    rerun = run([task(module, **dict(create, **update))], env=env)
    assert rerun['t']['changed'] is False and server.writes() == []
    return created


def delete_twice(server, run, env, module, name, path):
    server.clear_log()
    gone = run([task(module, name=name, state='absent')], env=env)
    assert gone.rc == 0, gone
    assert gone['t']['changed'] is True and [w.rsplit('/', 1)[0] for w in writes_of(server)] == ['DELETE %s' % path]
    server.clear_log()
    again = run([task(module, name=name, state='absent')], env=env)
    assert again['t']['changed'] is False and server.writes() == []


def test_settings_bootstrap_update_delete_on_the_real_server(server, run):
    env = connection(server)
    assert server.ok('GET', BASE + '/settings')['endpoint'] == ''  # defaults before the bootstrap
    server.clear_log()
    check = run([task('settings', proxy_address='eu.proxy.example.com')], env=env, check=True)
    assert check['t']['changed'] is True and server.writes() == []
    first = run([task('settings', proxy_address='eu.proxy.example.com', access_log_retention_days=7)], env=env)
    assert first.rc == 0, first
    settings = first['t']['agent_network_settings']
    assert settings['endpoint'].endswith('.eu.proxy.example.com') and settings['access_log_retention_days'] == 7
    assert writes_of(server) == ['POST %s/settings' % BASE]

    server.clear_log()
    again = run([task('settings', proxy_address='eu.proxy.example.com', access_log_retention_days=7)], env=env)
    assert again['t']['changed'] is False and server.writes() == []
    update = run([task('settings', enable_log_collection=False, redact_pii=True)], env=env, diff=True)
    assert update['t']['changed'] is True and writes_of(server) == ['PUT %s/settings' % BASE]
    assert update['t']['diff']['after'] == {'enable_log_collection': False, 'redact_pii': True}
    stored = server.ok('GET', BASE + '/settings')
    assert stored['endpoint'] == settings['endpoint'] and stored['access_log_retention_days'] == 7 and stored['redact_pii'] is True

    server.clear_log()
    gone = run([task('settings', state='absent')], env=env)
    assert gone['t']['changed'] is True and writes_of(server) == ['DELETE %s/settings' % BASE]
    server.clear_log()
    again = run([task('settings', state='absent')], env=env)
    assert again['t']['changed'] is False and server.writes() == []
    assert server.ok('GET', BASE + '/settings')['endpoint'] == ''


def test_provider_guardrail_policy_and_budget_rule_on_the_real_server(server, run):
    env = connection(server)
    provider = lifecycle(server, run, env, 'provider', PROVIDER, {'upstream_url': 'https://eu.api.openai.com'},
                         'agent_network_provider', BASE + '/providers')
    assert provider['enabled'] is True and 'api_key' not in provider
    stored = server.ok('GET', BASE + '/providers/%s' % provider['id'])
    assert stored['models'] == PROVIDER['models'] and stored['enabled'] is True  # the PUT kept what it did not change

    server.clear_log()
    rotate = run([task('provider', name='OpenAI', api_key='sk-real-rotated-0c2b', update_secret='always')], env=env, diff=True)
    assert rotate['t']['changed'] is True and writes_of(server) == ['PUT %s/providers/%s' % (BASE, provider['id'])]
    assert API_KEY not in json.dumps(rotate.results) and 'sk-real-rotated-0c2b' not in json.dumps(rotate.results)

    guardrail = lifecycle(server, run, env, 'guardrail', {'name': 'Production', 'checks': {'model_allowlist': {'enabled': True, 'models': ['gpt-5.4-mini']}}},
                          {'checks': {'prompt_capture': {'enabled': True}}}, 'agent_network_guardrail', BASE + '/guardrails')
    policy = lifecycle(server, run, env, 'policy', {'name': 'All to OpenAI', 'source_groups': ['All'], 'destination_provider_ids': ['OpenAI'],
                                                    'guardrail_ids': ['Production']},
                       {'limits': {'token_limit': {'enabled': True, 'user_cap': 100000, 'window_seconds': 86400}}},
                       'agent_network_policy', BASE + '/policies')
    assert policy['destination_provider_ids'] == [provider['id']] and policy['guardrail_ids'] == [guardrail['id']]
    rule = lifecycle(server, run, env, 'budget_rule', {'name': 'Monthly', 'target_groups': ['All'],
                                                       'limits': {'budget_limit': {'enabled': True, 'user_cap_usd': 50, 'window_seconds': 2592000}}},
                     {'enabled': False}, 'agent_network_budget_rule', BASE + '/budget-rules')
    assert server.ok('GET', BASE + '/budget-rules/%s' % rule['id'])['limits']['budget_limit']['user_cap_usd'] == 50

    server.clear_log()
    refused = run([dict(task('provider', name='OpenAI', state='absent'), ignore_errors=True),
                   dict(task('guardrail', 'g', name='Production', state='absent'), ignore_errors=True),
                   dict(task('settings', 's', state='absent'), ignore_errors=True)], env=env)
    # the real server's refusal, with its message; the guardrail and the settings are refused before any write
    assert refused['t']['status'] == 422 and 'provider is in use by 1 policy (all to openai)' in refused['t']['msg'].lower()
    assert "attached to the Agent Network policy 'All to OpenAI'" in refused['g']['msg']
    assert writes_of(server) == ['DELETE %s/providers/%s' % (BASE, provider['id'])]

    info = run([{'name': 'providers', 'nms.overlay.agent_network_provider_info': {}},
                {'name': 'catalog', 'nms.overlay.agent_network_catalog_info': {}}], env=env)
    assert [item['id'] for item in info['providers']['agent_network_providers']] == [provider['id']]
    assert {'openai_api', 'anthropic_api', 'custom'} <= {entry['id'] for entry in info['catalog']['agent_network_catalog']}
    assert API_KEY not in json.dumps(info.results)

    delete_twice(server, run, env, 'policy', 'All to OpenAI', BASE + '/policies')
    delete_twice(server, run, env, 'budget_rule', 'Monthly', BASE + '/budget-rules')
    delete_twice(server, run, env, 'guardrail', 'Production', BASE + '/guardrails')
    delete_twice(server, run, env, 'provider', 'OpenAI', BASE + '/providers')


def test_reports_of_a_server_without_agent_traffic(server, run):
    env = connection(server)
    server.clear_log()
    result = run([{'name': report, 'nms.overlay.agent_network_report_info': {'report': report}}
                  for report in ('access_logs', 'access_log_sessions', 'usage', 'consumption')]
                 + [{'name': 'bad', 'ignore_errors': True, 'nms.overlay.agent_network_report_info': {'report': 'access_logs', 'start_date': 'yesterday'}}],
                 env=env)
    for report in ('access_logs', 'access_log_sessions', 'usage', 'consumption'):
        assert result[report]['agent_network_report'] == []
    assert result['access_logs']['total_records'] == 0 and result['access_logs']['page_size'] == 100
    assert result['bad']['status'] == 422 and 'invalid start_date' in result['bad']['msg']
    assert server.writes() == []


@pytest.mark.parametrize('load', LOADS)
def test_ten_forks_bootstrap_the_settings_on_the_real_server(server, tmp_path, load):
    """Issue 44, defect 7, on the real server: ten forks bootstrapping the settings at once (every answer held 1 s by
    the recording proxy, so that all read them before any bootstraps): the real v0.77.1 answers all POSTs but one 409
    'already bootstrapped', and each of those forks reads the settings again and converges on them; a re-run
    changes nothing. Quiet and on a loaded machine."""
    assert server.ok('GET', BASE + '/settings')['endpoint'] == ''
    server.clear_log()
    try:
        with busy_machine(load):
            output, returncode, recap, dummy = run_forks(server, tmp_path, RACE_SETTINGS, slow=1.0)
        posts, refused = assert_one_bootstrap(server, output, returncode, recap)
        assert 'already bootstrapped' in refused[0]['answer']['message']  # the real server's words, as the emulator's
        output, returncode, recap, dummy = run_forks(server, tmp_path, RACE_SETTINGS, slow=0.0)
        assert returncode == 0 and all_ok(recap) and changed_count(recap) == 0, output[-4000:]
    finally:
        server.api('DELETE', BASE + '/settings')  # as the other tests of this server expect: not bootstrapped
