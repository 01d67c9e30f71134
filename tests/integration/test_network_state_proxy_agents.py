# -*- coding: utf-8 -*-
"""nms.overlay.network_state with the reverse proxy (custom domains, services) and the Agent Network (settings,
providers, guardrails, policies, budget rules) on the emulator: build from a description in dependency order, re-run
and check mode without a write, update, write-only secrets sent once and never shown, prune, teardown with every
entry absent; and a v0.27 server refusing these sections before any write (empty ones pass)."""

from __future__ import annotations

import copy

import pytest

from tests.support.emulator import make_peers, writes_of

CLUSTER = 'proxy.emulator.test'
API_KEY = 'sk-network-state-api-key-6c1d0e'
ROTATED = 'sk-network-state-rotated-7a2b19'
PASSWORD = 'svc-network-state-pass-3f81'
BASE = '/api/agent-network'
RP = '/api/reverse-proxies'

AGENTS = {
    'groups': [{'name': 'engineering'}],
    'agent_network_settings': {'proxy_address': 'eu.proxy.example.com', 'access_log_retention_days': 7},
    'agent_network_providers': [{'name': 'OpenAI', 'provider_id': 'openai_api', 'upstream_url': 'https://api.openai.com',
                                 'api_key': API_KEY, 'models': [{'id': 'gpt-5.4-mini', 'input_per_1k': 0.00075, 'output_per_1k': 0.0045}]}],
    'agent_network_guardrails': [{'name': 'Production', 'checks': {'model_allowlist': {'enabled': True, 'models': ['gpt-5.4-mini']}}}],
    'agent_network_policies': [{'name': 'engineering to OpenAI', 'source_groups': ['engineering'], 'destination_provider_ids': ['OpenAI'],
                                'guardrail_ids': ['Production']}],
    'agent_network_budget_rules': [{'name': 'Monthly', 'target_groups': ['engineering'],
                                    'limits': {'budget_limit': {'enabled': True, 'user_cap_usd': 50, 'window_seconds': 2592000}}}],
}


def state_task(name='network', **description):
    return {'name': name, 'nms.overlay.network_state': description}


def needs(emulator, dialect):
    if emulator.dialect != dialect:
        pytest.skip('needs the %s dialect' % dialect)


def written(emulator):
    """The writes as ``METHOD /api/path``, without the id a PUT or DELETE names."""
    return ['%s %s' % (w['method'], w['path'].rsplit('/', 1)[0] if w['method'] in ('PUT', 'DELETE') and not w['path'].endswith('/settings')
                       else w['path']) for w in emulator.writes()]


def done(result, name='network'):
    return [(c['kind'], c['name'], c['action'], c['pruned']) for c in result[name]['changes']]


@pytest.mark.dialects('current')
def test_agent_network_builds_settles_updates_prunes_and_tears_down(emulator, run):
    needs(emulator, 'current')
    emulator.clear_log()
    preview = run([state_task(**AGENTS)], check=True, diff=True)
    assert preview.rc == 0, preview
    assert emulator.writes() == []

    built = run([state_task(**AGENTS)], diff=True, ansible=True)
    assert built.rc == 0, built
    # the settings' bootstrap changes the object servers answer with defaults until then: 'updated'
    assert done(built) == done(preview) == [
        ('groups', 'engineering', 'created', False), ('agent_network_settings', '', 'updated', False),
        ('agent_network_providers', 'OpenAI', 'created', False), ('agent_network_guardrails', 'Production', 'created', False),
        ('agent_network_policies', 'engineering to OpenAI', 'created', False), ('agent_network_budget_rules', 'Monthly', 'created', False)]
    # in dependency order: groups, the settings' bootstrap, providers and guardrails before the policy naming them
    assert writes_of(emulator) == ['POST /api/groups', 'POST %s/settings' % BASE, 'POST %s/providers' % BASE,
                                   'POST %s/guardrails' % BASE, 'POST %s/policies' % BASE, 'POST %s/budget-rules' % BASE]
    sent = emulator.writes()[2]['body']
    assert sent['api_key'] == API_KEY  # sent on create, never shown
    assert API_KEY not in built.stdout
    group = emulator.ok('GET', '/api/groups')
    group_id = next(g['id'] for g in group if g['name'] == 'engineering')
    provider = emulator.ok('GET', BASE + '/providers')[0]
    guardrail = emulator.ok('GET', BASE + '/guardrails')[0]
    policy = emulator.ok('GET', BASE + '/policies')[0]
    assert policy['source_groups'] == [group_id] and policy['destination_provider_ids'] == [provider['id']]
    assert policy['guardrail_ids'] == [guardrail['id']]
    assert emulator.ok('GET', BASE + '/budget-rules')[0]['target_groups'] == [group_id]
    provider_diff = next(d for d in built['network']['diff'] if d['after_header'] == 'Agent Network provider OpenAI')
    assert provider_diff['after']['api_key'] == '(sent: not shown)'

    # the same description again: no write (the API key is not compared: on_create), in check mode neither
    emulator.clear_log()
    again = run([state_task(**AGENTS)])
    assert again['network']['changed'] is False, again['network']['changes']
    assert run([state_task(**AGENTS)], check=True)['network']['changed'] is False
    assert writes_of(emulator) == []

    # a new key is sent only with the entry's update_secret: always; a policy switched off
    changed = copy.deepcopy(AGENTS)
    changed['agent_network_providers'][0]['api_key'] = ROTATED
    emulator.clear_log()
    assert run([state_task(**changed)])['network']['changed'] is False and writes_of(emulator) == []
    changed['agent_network_providers'][0]['update_secret'] = 'always'
    changed['agent_network_policies'][0]['enabled'] = False
    check = run([state_task(**changed)], check=True, diff=True)
    assert check['network']['changed'] is True and writes_of(emulator) == []
    update = run([state_task(**changed)], diff=True, ansible=True)
    assert update.rc == 0, update
    assert sorted(writes_of(emulator)) == sorted(['PUT %s/providers/%s' % (BASE, provider['id']), 'PUT %s/policies/%s' % (BASE, policy['id'])])
    assert emulator.writes()[0]['body']['api_key'] == ROTATED
    assert ROTATED not in update.stdout and API_KEY not in update.stdout
    assert done(update) == [('agent_network_providers', 'OpenAI', 'updated', False),
                            ('agent_network_policies', 'engineering to OpenAI', 'updated', False)]
    assert update['network']['diff'] == check['network']['diff']

    # prune: what the description does not name goes (policies before the guardrails they attach)
    stray_guardrail = emulator.ok('POST', BASE + '/guardrails', {'name': 'stray', 'description': '', 'checks': {}})
    stray_rule = emulator.ok('POST', BASE + '/budget-rules', {'name': 'stray rule', 'enabled': True, 'target_groups': [], 'target_users': [],
                                                              'limits': {}})
    changed['agent_network_providers'][0].pop('update_secret')
    emulator.clear_log()
    pruned_preview = run([state_task(prune=True, **changed)], check=True)
    assert writes_of(emulator) == []
    pruned = run([state_task(prune=True, **changed)])
    assert pruned.rc == 0, pruned
    assert done(pruned) == done(pruned_preview) == [('agent_network_budget_rules', 'stray rule', 'deleted', True),
                                                    ('agent_network_guardrails', 'stray', 'deleted', True)]
    assert writes_of(emulator) == ['DELETE %s/budget-rules/%s' % (BASE, stray_rule['id']), 'DELETE %s/guardrails/%s' % (BASE, stray_guardrail['id'])]

    # teardown: every entry absent (the settings too), in reverse dependency order; then nothing to do
    teardown = {kind: ({'state': 'absent'} if isinstance(items, dict) else [dict(item, state='absent') for item in items])
                for kind, items in changed.items()}
    emulator.clear_log()
    down = run([state_task(**teardown)])
    assert down.rc == 0, down
    assert written(emulator) == ['DELETE %s/budget-rules' % BASE, 'DELETE %s/policies' % BASE, 'DELETE %s/guardrails' % BASE,
                                 'DELETE %s/providers' % BASE, 'DELETE %s/settings' % BASE, 'DELETE /api/groups']
    assert emulator.ok('GET', BASE + '/settings')['endpoint'] == ''
    emulator.clear_log()
    assert run([state_task(**teardown)])['network']['changed'] is False
    assert writes_of(emulator) == []


def reverse_proxy(emulator):
    """A connected proxy, a peer, a network with a resource; the description publishing them."""
    emulator.control('POST', '/_emulator/config', {'proxy_clusters': [CLUSTER]})
    make_peers(emulator, 'monitoring-01')
    return {
        'groups': [{'name': 'rp-admins'}, {'name': 'wiki-readers'}],
        'networks': [{'name': 'office', 'resources': [{'name': 'wiki', 'address': 'wiki.office.lan', 'groups': ['wiki-readers']}]}],
        'reverse_proxy_domains': [{'domain': 'apps.example.com', 'target_cluster': CLUSTER}],
        'reverse_proxy_services': [
            {'name': 'grafana', 'domain': 'grafana.apps.example.com',
             'targets': [{'target_id': 'monitoring-01', 'target_type': 'peer', 'protocol': 'http', 'port': 3000}],
             'auth': {'password_auth': {'enabled': True, 'password': PASSWORD},
                      'bearer_auth': {'enabled': True, 'distribution_groups': ['rp-admins']}}},
            {'name': 'wiki', 'domain': 'wiki.%s' % CLUSTER,
             'targets': [{'target_id': 'wiki', 'target_type': 'domain', 'protocol': 'https', 'port': 443}],
             'access_groups': ['wiki-readers']},
        ],
    }


@pytest.mark.dialects('current')
def test_reverse_proxy_services_and_domains_build_settle_update_prune_and_tear_down(emulator, run):
    needs(emulator, 'current')
    described = reverse_proxy(emulator)
    emulator.clear_log()
    preview = run([state_task(**described)], check=True, diff=True)
    assert preview.rc == 0, preview
    assert writes_of(emulator) == []
    assert PASSWORD not in str(preview.results)

    built = run([state_task(**described)], diff=True, ansible=True)
    assert built.rc == 0, built
    assert done(built) == done(preview)
    # the domain before the services published under it, the network resource before the service that targets it
    writes = writes_of(emulator)
    assert [w for w in writes if w.startswith('POST %s' % RP)] == ['POST %s/domains' % RP] + ['POST %s/services' % RP] * 2
    assert writes.index('POST /api/networks') < writes.index('POST %s/domains' % RP)
    assert PASSWORD not in built.stdout
    services = {s['name']: s for s in emulator.ok('GET', RP + '/services')}
    peer = next(p['id'] for p in emulator.ok('GET', '/api/peers') if p['name'] == 'monitoring-01')
    groups = {g['name']: g['id'] for g in emulator.ok('GET', '/api/groups')}
    resource = emulator.ok('GET', '/api/networks/resources')[0]
    assert services['grafana']['targets'][0]['target_id'] == peer
    assert services['grafana']['auth']['bearer_auth']['distribution_groups'] == [groups['rp-admins']]
    assert services['wiki']['targets'][0]['target_id'] == resource['id'] and services['wiki']['access_groups'] == [groups['wiki-readers']]
    sent = [w['body'] for w in emulator.writes() if w['path'] == RP + '/services']
    assert sent[0]['auth']['password_auth']['password'] == PASSWORD

    emulator.clear_log()
    again = run([state_task(**described)])
    assert again['network']['changed'] is False, again['network']['changes']
    assert run([state_task(**described)], check=True)['network']['changed'] is False
    assert writes_of(emulator) == []

    # an update: the port changes; the password (the method stays on) is not sent again
    moved = copy.deepcopy(described)
    moved['reverse_proxy_services'][0]['targets'][0]['port'] = 3001
    emulator.clear_log()
    update = run([state_task(**moved)], diff=True)
    assert update.rc == 0, update
    assert writes_of(emulator) == ['PUT %s/services/%s' % (RP, services['grafana']['id'])]
    assert 'password' not in emulator.writes()[0]['body']['auth']['password_auth']
    assert PASSWORD not in str(update.results)

    # prune: an undescribed service and custom domain go, the cluster's free domain stays
    stray = emulator.ok('POST', RP + '/services', {'name': 'stray', 'domain': 'stray.%s' % CLUSTER, 'enabled': True, 'targets': [
        {'target_id': peer, 'target_type': 'peer', 'protocol': 'http', 'port': 80, 'enabled': True}]})
    other = emulator.ok('POST', RP + '/domains', {'domain': 'other.example.com', 'target_cluster': CLUSTER})
    emulator.clear_log()
    pruned_preview = run([state_task(prune=True, **moved)], check=True)
    assert writes_of(emulator) == []
    pruned = run([state_task(prune=True, **moved)])
    assert pruned.rc == 0, pruned
    assert done(pruned) == done(pruned_preview) == [('reverse_proxy_services', 'stray', 'deleted', True),
                                                    ('reverse_proxy_domains', 'other.example.com', 'deleted', True)]
    assert writes_of(emulator) == ['DELETE %s/services/%s' % (RP, stray['id']), 'DELETE %s/domains/%s' % (RP, other['id'])]
    assert sorted(d['domain'] for d in emulator.ok('GET', RP + '/domains')) == ['apps.example.com', CLUSTER]

    # teardown: services before their domain, the network and the groups they name last
    teardown = {kind: [dict(item, state='absent') for item in items] for kind, items in moved.items()}
    emulator.clear_log()
    down = run([state_task(**teardown)])
    assert down.rc == 0, down
    assert written(emulator) == ['DELETE %s/services' % RP] * 2 + ['DELETE %s/domains' % RP, 'DELETE /api/networks'] + ['DELETE /api/groups'] * 2
    assert emulator.ok('GET', RP + '/services') == []
    emulator.clear_log()
    assert run([state_task(**teardown)])['network']['changed'] is False
    assert writes_of(emulator) == []


@pytest.mark.dialects('current')
def test_a_reference_a_service_names_is_checked_before_any_write(emulator, run):
    needs(emulator, 'current')
    described = reverse_proxy(emulator)
    described['reverse_proxy_services'][1]['targets'][0]['target_id'] = 'no-such-resource'
    emulator.clear_log()
    result = run([state_task(**described)])
    assert result['network']['failed'] is True
    assert result['network']['msg'].startswith('nothing was changed: reverse_proxy_services[1] (wiki): '), result['network']['msg']
    assert "no-such-resource" in result['network']['msg']
    assert writes_of(emulator) == []


@pytest.mark.dialects('netbird')
def test_a_v027_server_refuses_these_sections_before_any_write_and_passes_empty_ones(emulator, run):
    needs(emulator, 'netbird')
    emulator.clear_log()
    result = run([state_task(groups=[{'name': 'engineering'}], agent_network_settings={'proxy_address': 'eu.proxy.example.com'},
                             agent_network_policies=AGENTS['agent_network_policies'],
                             reverse_proxy_domains=[{'domain': 'apps.example.com', 'target_cluster': CLUSTER}])], check=True)
    refused = result['network']
    assert refused['failed'] is True
    for where, feature in (('reverse_proxy_domains[0] (apps.example.com)', 'reverse proxies'), ('agent_network_settings', 'Agent Network resources'),
                           ('agent_network_policies[0] (engineering to OpenAI)', 'Agent Network resources')):
        assert '%s: this server (v0.27: it has no GET /api/instance/version) does not have %s' % (
            where, feature) in refused['msg'], refused['msg']
    assert [r['path'] for r in emulator.requests()] == ['/api/instance/version']
    # empty sections are nothing to do there, also with prune
    empty = {kind: ({} if kind == 'agent_network_settings' else []) for kind in AGENTS if kind != 'groups'}
    built = run([state_task(groups=[{'name': 'engineering'}], reverse_proxy_domains=[], reverse_proxy_services=[], prune=True, **empty)])
    assert built.rc == 0, built
    assert writes_of(emulator) == ['POST /api/groups']
    assert not [r['path'] for r in emulator.requests() if r['path'].startswith((BASE, RP))]
