# -*- coding: utf-8 -*-
"""nms.overlay.network_state's Agent Network and reverse proxy sections against the real seeded NetBird v0.77.1
(tests/support/realserver.py; the real-server stage, ``make real``).

Writes are counted in the request log of the recording proxy between Ansible and the server (realserver.py).

* The Agent Network (settings bootstrapped, a provider with its API key, a guardrail, a policy naming them and a
  group, a budget rule): build, re-run and check mode without a write, an update writing only what changed, the
  export (state=gathered) applied to the same server without a write, prune, and a teardown with every entry absent.
  The API key is sent once and never in ansible-playbook's output at -vvv (tests/integration/secrets_scan.py).
* The reverse proxy: no NetBird proxy can connect in the test kit, so the server refuses a custom domain (500) and a
  service (412); network_state reports the server's answer, and what the description orders before it is all that
  was written.
"""

from __future__ import annotations

import copy

import pytest

from tests.integration import secrets_scan
from tests.integration.test_network_state_proxy_agents import AGENTS, API_KEY, state_task
from tests.integration.test_real_servers import connection, started
from tests.support.emulator import writes_of

pytestmark = pytest.mark.real

BASE = '/api/agent-network'
RP = '/api/reverse-proxies'


@pytest.fixture(scope='module')
def server():
    yield from started('v0.77.1')


def done(result, name='network'):
    return [(c['kind'], c['name'], c['action'], c['pruned']) for c in result[name]['changes']]


def written(server):
    """The writes as ``METHOD /api/path``, without the id a PUT or DELETE names (the settings have none)."""
    return ['%s %s' % (w['method'], w['path'].rsplit('/', 1)[0] if w['method'] in ('PUT', 'DELETE') and not w['path'].endswith('/settings')
                       else w['path']) for w in server.writes()]


def api_key_leaks(result):
    """Where the provider's API key shows in ansible-playbook's output (plain, quoted, escaped, encoded, cut off)."""
    return secrets_scan.output_leaks(result.stdout, [secrets_scan.Secret('provider API key', API_KEY)])


def within(described, exported):
    """Whether an export holds what was described (dictionaries may hold more: the fields it pins besides)."""
    if isinstance(described, dict):
        return isinstance(exported, dict) and all(key in exported and within(value, exported[key]) for key, value in described.items())
    if isinstance(described, list) and described and isinstance(described[0], dict):
        return isinstance(exported, list) and len(exported) == len(described) and all(map(within, described, exported))
    return described == exported


def test_agent_network_sections_build_settle_update_export_prune_and_tear_down(server, run):
    env = connection(server)
    assert server.ok('GET', BASE + '/settings')['endpoint'] == ''  # not bootstrapped yet
    server.clear_log()
    preview = run([state_task(**AGENTS)], env=env, check=True, diff=True)
    assert preview.rc == 0, preview
    assert server.writes() == []

    # built through ansible-playbook at -vvv: the API key is sent, and shown nowhere
    built = run([state_task(**AGENTS)], env=env, diff=True, verbosity=3, ansible=True)
    assert built.rc == 0, built
    assert done(built) == done(preview) == [
        ('groups', 'engineering', 'created', False), ('agent_network_settings', '', 'updated', False),
        ('agent_network_providers', 'OpenAI', 'created', False), ('agent_network_guardrails', 'Production', 'created', False),
        ('agent_network_policies', 'engineering to OpenAI', 'created', False), ('agent_network_budget_rules', 'Monthly', 'created', False)]
    assert writes_of(server) == ['POST /api/groups', 'POST %s/settings' % BASE, 'POST %s/providers' % BASE,
                                 'POST %s/guardrails' % BASE, 'POST %s/policies' % BASE, 'POST %s/budget-rules' % BASE]
    assert all(w['status'] == 200 for w in server.writes()), server.writes()
    assert server.writes()[2]['request']['api_key'] == API_KEY
    assert '"api_key": "(sent: not shown)"' in built.stdout  # the diff at -vvv names it, without its value
    assert api_key_leaks(built) == []
    assert API_KEY not in str(built.results)
    group_id = next(g['id'] for g in server.ok('GET', '/api/groups') if g['name'] == 'engineering')
    provider = server.ok('GET', BASE + '/providers')[0]
    guardrail = server.ok('GET', BASE + '/guardrails')[0]
    policy = server.ok('GET', BASE + '/policies')[0]
    assert policy['source_groups'] == [group_id] and policy['destination_provider_ids'] == [provider['id']]
    assert policy['guardrail_ids'] == [guardrail['id']] and policy['enabled'] is True
    rule = server.ok('GET', BASE + '/budget-rules')[0]
    assert rule['target_groups'] == [group_id] and rule['limits']['budget_limit']['user_cap_usd'] == 50
    settings = server.ok('GET', BASE + '/settings')
    assert settings['endpoint'].endswith('.eu.proxy.example.com') and settings['access_log_retention_days'] == 7

    # the same description again, and in check mode: no write
    server.clear_log()
    again = run([state_task(**AGENTS)], env=env)
    assert again['network']['changed'] is False, again['network']['changes']
    assert run([state_task(**AGENTS)], env=env, check=True)['network']['changed'] is False
    assert server.writes() == []

    # an update: the policy switched off; previewed without a write, then only that policy written
    changed = copy.deepcopy(AGENTS)
    changed['agent_network_policies'][0]['enabled'] = False
    check = run([state_task(**changed)], env=env, check=True, diff=True)
    assert check['network']['changed'] is True and server.writes() == []
    update = run([state_task(**changed)], env=env, diff=True, verbosity=3, ansible=True)
    assert update.rc == 0, update
    assert done(update) == done(check) == [('agent_network_policies', 'engineering to OpenAI', 'updated', False)]
    assert writes_of(server) == ['PUT %s/policies/%s' % (BASE, policy['id'])]
    assert update['network']['diff'] == check['network']['diff']
    assert api_key_leaks(update) == []
    stored = server.ok('GET', BASE + '/policies/%s' % policy['id'])
    assert stored['enabled'] is False and stored['guardrail_ids'] == [guardrail['id']]  # the PUT kept what it did not change

    # the export applied to the same server: nothing to do, nothing written
    server.clear_log()
    gathered = run([state_task('export', state='gathered')], env=env)
    assert gathered.rc == 0, gathered
    exported = gathered['export']['gathered']
    assert server.writes() == []
    # every field written, defaults and what servers give an option left unset too (issue 44): the described ones as described
    assert within(changed['agent_network_policies'], exported['agent_network_policies'])
    assert within(AGENTS['agent_network_guardrails'], exported['agent_network_guardrails'])
    assert exported['agent_network_policies'][0]['description'] == '' and 'limits' in exported['agent_network_policies'][0]
    assert [p['name'] for p in exported['agent_network_providers']] == ['OpenAI'] and API_KEY not in str(exported)
    assert exported['agent_network_settings']['proxy_address'] == 'eu.proxy.example.com'
    applied = run([state_task('apply', **exported)], env=env)
    assert applied.rc == 0, applied
    assert applied['apply']['changed'] is False, applied['apply']['changes']
    assert server.writes() == [], 'the export applied to its own server wrote: %s' % writes_of(server)

    # prune: the budget rule the description no longer names and a guardrail made outside it go (groups not described,
    # so not pruned)
    stray = server.ok('POST', BASE + '/guardrails', {'name': 'stray', 'description': '', 'checks': {}})
    kept = {kind: items for kind, items in changed.items() if kind != 'groups'}
    kept['agent_network_budget_rules'] = []
    server.clear_log()
    pruned_preview = run([state_task(prune=True, **kept)], env=env, check=True)
    assert pruned_preview.rc == 0, pruned_preview
    assert server.writes() == []
    pruned = run([state_task(prune=True, **kept)], env=env)
    assert pruned.rc == 0, pruned
    assert done(pruned) == done(pruned_preview) == [('agent_network_budget_rules', 'Monthly', 'deleted', True),
                                                    ('agent_network_guardrails', 'stray', 'deleted', True)]
    assert writes_of(server) == ['DELETE %s/budget-rules/%s' % (BASE, rule['id']), 'DELETE %s/guardrails/%s' % (BASE, stray['id'])]
    assert server.ok('GET', BASE + '/budget-rules') == [] and [g['name'] for g in server.ok('GET', BASE + '/guardrails')] == ['Production']

    # teardown: every entry absent, in reverse dependency order; then nothing to do
    teardown = {kind: ({'state': 'absent'} if isinstance(items, dict) else [dict(item, state='absent') for item in items])
                for kind, items in changed.items()}
    server.clear_log()
    down = run([state_task(**teardown)], env=env)
    assert down.rc == 0, down
    assert written(server) == ['DELETE %s/policies' % BASE, 'DELETE %s/guardrails' % BASE, 'DELETE %s/providers' % BASE,
                               'DELETE %s/settings' % BASE, 'DELETE /api/groups']
    assert all(w['status'] == 200 for w in server.writes()), server.writes()
    assert server.ok('GET', BASE + '/settings')['endpoint'] == ''
    for path in ('/providers', '/guardrails', '/policies', '/budget-rules'):
        assert server.ok('GET', BASE + path) == [], path
    assert 'engineering' not in [g['name'] for g in server.ok('GET', '/api/groups')]
    server.clear_log()
    again = run([state_task(**teardown)], env=env)
    assert again.rc == 0, again
    assert again['network']['changed'] is False, again['network']['changes']
    assert server.writes() == []


def refusal(result, name='network'):
    """The failed task's result, with the request it names."""
    failed = result[name]
    assert failed['failed'] is True, failed
    return failed


def test_a_custom_domain_is_refused_by_a_server_without_a_proxy_after_what_comes_before_it(server, run):
    env = connection(server)
    described = {'groups': [{'name': 'rp-domain-group'}],
                 'reverse_proxy_domains': [{'domain': 'apps.example.com', 'target_cluster': 'eu.proxy.netbird.io'}],
                 'agent_network_guardrails': [{'name': 'after the domain'}]}
    server.clear_log()
    result = run([state_task(**described)], env=env)
    assert result.rc != 0
    failed = refusal(result)
    assert failed['msg'] == ('reverse_proxy_domains[0] (apps.example.com): POST %s%s/domains failed with HTTP 500: '
                             'internal server error' % (server.url, RP)), failed['msg']
    assert (failed['method'], failed['path'], failed['status']) == ('POST', '/reverse-proxies/domains', 500)
    # the group, ordered before the domains, was created (and said so); nothing ordered after them was sent
    assert failed['changed'] is True and done(result) == [('groups', 'rp-domain-group', 'created', False)]
    # a 500 may hide a create that happened: the engine reads the list back (empty) before each new try
    writes = writes_of(server)
    assert writes[0] == 'POST /api/groups' and set(writes[1:]) == {'POST %s/domains' % RP}, writes
    assert [w['status'] for w in server.writes()[1:]] == [500] * (len(writes) - 1)
    assert server.ok('GET', RP + '/domains') == [] and server.ok('GET', BASE + '/guardrails') == []

    server.clear_log()
    cleanup = run([state_task(groups=[{'name': 'rp-domain-group', 'state': 'absent'}])], env=env)
    assert cleanup['network']['changed'] is True and written(server) == ['DELETE /api/groups']


def test_a_service_is_refused_by_a_server_without_a_proxy_after_what_comes_before_it(server, run):
    env = connection(server)
    peer = server.ok('GET', '/api/peers')[0]
    described = {'groups': [{'name': 'rp-viewers'}],
                 'reverse_proxy_services': [{'name': 'grafana', 'domain': 'app.example.com', 'access_groups': ['rp-viewers'],
                                             'targets': [{'target_id': peer['name'], 'target_type': 'peer', 'protocol': 'http', 'port': 3000}]}],
                 'agent_network_guardrails': [{'name': 'after the service'}]}
    server.clear_log()
    result = run([state_task(**described)], env=env)
    assert result.rc != 0
    failed = refusal(result)
    assert failed['msg'] == ('reverse_proxy_services[0] (grafana): POST %s%s/services failed with HTTP 412: could not derive cluster '
                             'from domain app.example.com: no proxy clusters available' % (server.url, RP)), failed['msg']
    assert (failed['method'], failed['path'], failed['status']) == ('POST', '/reverse-proxies/services', 412)
    assert failed['changed'] is True and done(result) == [('groups', 'rp-viewers', 'created', False)]
    assert writes_of(server) == ['POST /api/groups', 'POST %s/services' % RP]
    sent = server.writes()[1]['request']
    group_id = server.writes()[0]['answer']['id']
    assert sent['targets'][0]['target_id'] == peer['id'] and sent['access_groups'] == [group_id]  # names sent as ids
    assert server.ok('GET', RP + '/services') == [] and server.ok('GET', BASE + '/guardrails') == []

    server.clear_log()
    cleanup = run([state_task(groups=[{'name': 'rp-viewers', 'state': 'absent'}])], env=env)
    assert cleanup['network']['changed'] is True and written(server) == ['DELETE /api/groups']
