# -*- coding: utf-8 -*-
"""nms.overlay.reverse_proxy_* on the emulator: the whole lifecycle of services, domains and proxy tokens on a v0.77
server with a connected proxy (the `current` dialect's default), the real server's refusals once no proxy is
connected, and on a v0.27 server (`netbird`) a refusal after the version probe. Tokens are never in the output."""

from __future__ import annotations

import json

import pytest

from tests.integration import secrets_scan
from tests.reliability.secrets import find_secrets
from tests.support.emulator import make_peers, writes_of

CLUSTER = 'proxy.emulator.test'
DOMAIN = {'domain': 'apps.example.com', 'target_cluster': CLUSTER}
PASSWORD = 'svc-password-5d2a91'
NEW_PASSWORD = 'svc-password-rotated-0e44b7'
PIN = '73915028'
HEADER_VALUE = 'svc-header-value-c2f81d'
SENT, UNREADABLE = '(sent: not shown)', '(write-only: not readable)'


def needs(emulator, dialect):
    if emulator.dialect != dialect:
        pytest.skip('needs the %s dialect' % dialect)
    if dialect == 'current':  # a NetBird proxy connected (the emulator has none by default, as the real test servers)
        emulator.control('POST', '/_emulator/config', {'proxy_clusters': [CLUSTER]})


def task(module, label='t', **options):
    return {'name': label, 'nms.overlay.%s' % module: options}


def test_domain_create_rerun_check_delete(emulator, run):
    needs(emulator, 'current')
    emulator.clear_log()
    check = run([task('reverse_proxy_domain', **DOMAIN)], check=True, diff=True)
    assert check['t']['changed'] is True and emulator.writes() == []
    first = run([task('reverse_proxy_domain', **DOMAIN)])
    assert first.rc == 0, first
    created = first['t']['reverse_proxy_domain']
    assert created['validated'] is False and writes_of(emulator) == ['POST /api/reverse-proxies/domains']
    emulator.clear_log()
    again = run([task('reverse_proxy_domain', **DOMAIN)])
    assert again['t']['changed'] is False and emulator.writes() == []
    moved = run([task('reverse_proxy_domain', domain='apps.example.com', target_cluster='other.example.com')])
    assert moved['t']['changed'] is False and any('target_cluster cannot change' in w for w in moved['t']['warnings'])
    free = run([dict(task('reverse_proxy_domain', domain=CLUSTER, state='absent'), ignore_errors=True)])
    assert 'free domain of a proxy cluster' in free['t']['msg']
    emulator.clear_log()
    gone = run([task('reverse_proxy_domain', domain='apps.example.com', state='absent')])
    assert gone['t']['changed'] is True and writes_of(emulator) == ['DELETE /api/reverse-proxies/domains/%s' % created['id']]
    emulator.clear_log()
    again = run([task('reverse_proxy_domain', domain='apps.example.com', state='absent')])
    assert again['t']['changed'] is False and emulator.writes() == []


def test_domain_validate_asks_until_validated(emulator, run):
    needs(emulator, 'current')
    created = run([task('reverse_proxy_domain', **DOMAIN)])['t']['reverse_proxy_domain']
    emulator.clear_log()
    validate = run([task('reverse_proxy_domain', domain='apps.example.com', validate=True)])
    assert validate['t']['changed'] is True
    assert [(r['method'], r['path']) for r in emulator.requests()][-1] == ('GET', '/api/reverse-proxies/domains/%s/validate' % created['id'])
    validated = run([task('reverse_proxy_domain', domain='apps.example.com', validate=True),
                     {'name': 'info', 'nms.overlay.reverse_proxy_domain_info': {'domain': 'apps.example.com'}}])
    assert validated['t']['changed'] is False and validated['info']['reverse_proxy_domains'][0]['validated'] is True


def test_service_create_rerun_check_update_delete_by_names(emulator, run):
    needs(emulator, 'current')
    peer = {'name': 'monitoring-01'}
    peer['id'] = make_peers(emulator, peer['name'])[peer['name']]
    group = emulator.ok('POST', '/api/groups', {'name': 'rp-admins', 'peers': []})
    service = {'name': 'grafana', 'domain': 'grafana.%s' % CLUSTER,
               'targets': [{'target_id': peer['name'], 'target_type': 'peer', 'protocol': 'http', 'port': 3000}],
               'auth': {'password_auth': {'enabled': True, 'password': PASSWORD}}}
    emulator.clear_log()
    check = run([task('reverse_proxy_service', **service)], check=True, diff=True)
    assert check['t']['changed'] is True and emulator.writes() == []
    assert PASSWORD not in str(check.results)
    first = run([task('reverse_proxy_service', **service)], diff=True, ansible=True)
    assert first.rc == 0, first
    created = first['t']['reverse_proxy_service']
    assert writes_of(emulator) == ['POST /api/reverse-proxies/services']
    sent = emulator.writes()[0]['body']
    assert sent['targets'][0]['target_id'] == peer['id'] and sent['auth']['password_auth']['password'] == PASSWORD
    assert created['proxy_cluster'] == CLUSTER and created['auth']['password_auth'] == {'enabled': True, 'password': ''}
    assert first['t']['diff']['after']['auth']['password_auth']['password'] == '(sent: not shown)'
    assert PASSWORD not in first.stdout

    emulator.clear_log()
    again = run([task('reverse_proxy_service', **service)])
    assert again.rc == 0, again
    assert again['t']['changed'] is False and emulator.writes() == []

    sso = {**service, 'auth': {**service['auth'], 'bearer_auth': {'enabled': True, 'distribution_groups': ['rp-admins']}}}
    check = run([task('reverse_proxy_service', **sso)], check=True, diff=True)
    assert check['t']['changed'] is True and emulator.writes() == []
    update = run([task('reverse_proxy_service', **sso)], diff=True)
    assert update.rc == 0, update
    assert writes_of(emulator) == ['PUT /api/reverse-proxies/services/%s' % created['id']]
    body = emulator.writes()[0]['body']
    assert body['auth']['bearer_auth']['distribution_groups'] == [group['id']]
    assert 'password' not in body['auth']['password_auth']  # on_create: the server keeps the password it holds
    emulator.clear_log()
    assert run([task('reverse_proxy_service', **sso)])['t']['changed'] is False and emulator.writes() == []
    # the sign-in groups first: their list's All group names the target's peer, which needs no request of its own
    assert [r['path'] for r in emulator.requests()] == [
        '/api/instance/version', '/api/reverse-proxies/services', '/api/groups']

    info = run([{'name': 'info', 'nms.overlay.reverse_proxy_service_info': {'name': 'grafana'}}])
    assert [item['id'] for item in info['info']['reverse_proxy_services']] == [created['id']]

    emulator.clear_log()
    gone = run([task('reverse_proxy_service', name='grafana', state='absent')])
    assert gone['t']['changed'] is True and writes_of(emulator) == ['DELETE /api/reverse-proxies/services/%s' % created['id']]
    emulator.clear_log()
    again = run([task('reverse_proxy_service', name='grafana', state='absent')])
    assert again['t']['changed'] is False and emulator.writes() == []


def assert_hidden(result, *secrets):
    """No sign-in secret in the run's output (ansible-playbook's, scanned task by task as the secrets scan does),
    nor in any task's result."""
    if not result.in_process:
        leaks = secrets_scan.output_leaks(result.stdout, [secrets_scan.Secret('sign-in secret', value) for value in secrets])
        assert leaks == [], leaks
    assert find_secrets(json.dumps(result.results, default=repr), list(secrets)) == []


def sent_auth(emulator):
    """The sign-in of the one write the log holds, with the service's path."""
    (write,) = emulator.writes()
    return write['method'], write['path'], write['body']['auth']


def test_sign_in_secrets_are_sent_on_create_when_turned_on_and_when_asked_never_shown(emulator, run):
    needs(emulator, 'current')
    peer = 'monitoring-02'
    make_peers(emulator, peer)
    service = {'name': 'metrics', 'domain': 'metrics.%s' % CLUSTER,
               'targets': [{'target_id': peer, 'target_type': 'peer', 'protocol': 'http', 'port': 9090}],
               'auth': {'password_auth': {'enabled': True, 'password': PASSWORD}}}
    emulator.clear_log()
    check = run([task('reverse_proxy_service', **service)], check=True, diff=True)
    assert check['t']['changed'] is True and emulator.writes() == []
    assert check['t']['diff']['after']['auth']['password_auth']['password'] == SENT
    assert check['t']['reverse_proxy_service']['auth']['password_auth']['password'] == ''
    assert_hidden(check, PASSWORD)

    first = run([task('reverse_proxy_service', **service)], diff=True, ansible=True)
    assert first.rc == 0, first
    path = '/api/reverse-proxies/services/%s' % first['t']['reverse_proxy_service']['id']
    assert sent_auth(emulator) == ('POST', '/api/reverse-proxies/services', service['auth'])
    assert first['t']['diff']['after']['auth']['password_auth']['password'] == SENT and SENT in first.stdout
    assert_hidden(first, PASSWORD)

    emulator.clear_log()
    again = run([task('reverse_proxy_service', **service)], diff=True, ansible=True)
    assert again.rc == 0, again
    assert again['t']['changed'] is False and not again['t'].get('diff'), again['t'].get('diff')
    assert emulator.writes() == [] and {r['method'] for r in emulator.requests()} == {'GET'}
    assert_hidden(again, PASSWORD)

    # pin_auth turned on, and a header check new on the server: their secrets are sent, the password the server holds is not
    with_pin = {**service, 'auth': {**service['auth'], 'pin_auth': {'enabled': True, 'pin': PIN},
                                    'header_auths': [{'header': 'X-Metrics-Key', 'value': HEADER_VALUE}]}}
    emulator.clear_log()
    pin = run([task('reverse_proxy_service', **with_pin)], diff=True)
    assert pin.rc == 0, pin
    method, where, auth = sent_auth(emulator)
    assert (method, where) == ('PUT', path) and auth['password_auth'] == {'enabled': True}
    assert auth['pin_auth'] == {'enabled': True, 'pin': PIN}
    assert auth['header_auths'] == [{'enabled': True, 'header': 'X-Metrics-Key', 'value': HEADER_VALUE}]
    diff = pin['t']['diff']
    assert diff['before'] == {'auth': {'password_auth': {'enabled': True}}}
    assert diff['after']['auth']['pin_auth'] == {'enabled': True, 'pin': SENT}
    assert diff['after']['auth']['header_auths'][0]['value'] == SENT
    assert_hidden(pin, PASSWORD, PIN, HEADER_VALUE)
    emulator.clear_log()
    assert run([task('reverse_proxy_service', **with_pin)])['t']['changed'] is False and emulator.writes() == []

    # update_secret=always: every secret sent again, changed, the diff saying so without a value
    rotated = {**with_pin, 'auth': {**with_pin['auth'], 'password_auth': {'enabled': True, 'password': NEW_PASSWORD}}}
    check = run([task('reverse_proxy_service', update_secret='always', **rotated)], check=True, diff=True)
    assert check['t']['changed'] is True and emulator.writes() == []
    always = run([task('reverse_proxy_service', update_secret='always', **rotated)], diff=True, ansible=True)
    assert always.rc == 0, always
    method, where, auth = sent_auth(emulator)
    assert (method, where) == ('PUT', path) and auth['password_auth']['password'] == NEW_PASSWORD
    assert auth['pin_auth']['pin'] == PIN and auth['header_auths'][0]['value'] == HEADER_VALUE
    diff = always['t']['diff']
    assert always['t']['changed'] is True
    assert diff['before']['auth']['password_auth'] == {'enabled': True, 'password': UNREADABLE}
    assert diff['after']['auth']['password_auth'] == {'enabled': True, 'password': SENT}
    assert diff['before']['auth']['header_auths'][0]['value'] == UNREADABLE
    assert_hidden(always, PASSWORD, NEW_PASSWORD, PIN, HEADER_VALUE)

    # the name earlier releases gave the option
    emulator.clear_log()
    alias = run([task('reverse_proxy_service', update_secrets='always', **service)], diff=True, ansible=True)
    assert alias.rc == 0, alias
    method, where, auth = sent_auth(emulator)
    assert alias['t']['changed'] is True and auth == service['auth']  # the pin and the header check left out: off
    assert_hidden(alias, PASSWORD, PIN, HEADER_VALUE)
    emulator.clear_log()
    assert run([task('reverse_proxy_service', update_secrets='on_create', **service)])['t']['changed'] is False
    assert emulator.writes() == []


def test_token_lifecycle_never_shows_the_token(emulator, run, tmp_path):
    needs(emulator, 'current')
    use = {'name': 'use', 'no_log': True, 'ansible.builtin.copy': {
        'dest': str(tmp_path / 'token'), 'mode': '0600', 'content': '{{ tok.plain_token }}'}}
    emulator.clear_log()
    check = run([task('reverse_proxy_token', name='office')], check=True)
    assert check['t']['changed'] is True and emulator.writes() == []
    first = run([dict(task('reverse_proxy_token', name='office'), register='tok'), use], ansible=True)
    assert first.rc == 0, first
    token = (tmp_path / 'token').read_text()
    assert token.startswith('nbx_') and len(token) == 40 and token not in first.stdout
    assert writes_of(emulator) == ['POST /api/reverse-proxies/proxy-tokens']
    emulator.clear_log()
    again = run([task('reverse_proxy_token', name='office')])
    assert again['t']['changed'] is False and emulator.writes() == [] and token not in str(again.results)
    listed = run([{'name': 'info', 'nms.overlay.reverse_proxy_token_info': {'name': 'office'}}])
    assert token not in str(listed.results) and listed['info']['reverse_proxy_tokens'][0]['revoked'] is False
    token_id = listed['info']['reverse_proxy_tokens'][0]['id']
    emulator.clear_log()
    gone = run([task('reverse_proxy_token', name='office', state='absent')])
    assert gone['t']['changed'] is True and writes_of(emulator) == ['DELETE /api/reverse-proxies/proxy-tokens/%s' % token_id]
    emulator.clear_log()
    again = run([task('reverse_proxy_token', name='office', state='absent')])
    assert again['t']['changed'] is False and emulator.writes() == []


def token_writes_after_a_revoke(server, run, tmp_path, env=None):
    """A name whose only token was revoked gets one new token (kept, its value shown once), then no write; a second
    rotate replaces the live token only; the revoked ones are already gone for state=absent. Shared with the real
    server's test (tests/integration/test_real_reverse_proxy.py)."""
    use = {'name': 'use', 'no_log': True, 'ansible.builtin.copy': {
        'dest': str(tmp_path / 'token'), 'mode': '0600', 'content': '{{ tok.plain_token }}'}}
    path = '/api/reverse-proxies/proxy-tokens'

    def listed():
        return [item for item in server.ok('GET', path) if item['name'] == 'site-b']

    assert run([task('reverse_proxy_token', name='site-b')], env=env)['t']['changed'] is True
    first = listed()[0]
    assert run([task('reverse_proxy_token', name='site-b', state='absent')], env=env)['t']['changed'] is True
    assert [item['revoked'] for item in listed()] == [True]

    server.clear_log()
    check = run([task('reverse_proxy_token', name='site-b')], env=env, check=True, diff=True)
    assert check['t']['changed'] is True and check['t']['diff']['after']['name'] == 'site-b' and server.writes() == []
    server.clear_log()
    again = run([dict(task('reverse_proxy_token', name='site-b'), register='tok'), use], env=env, ansible=True)
    assert again.rc == 0, again
    value = (tmp_path / 'token').read_text()
    assert value.startswith('nbx_') and len(value) == 40 and value not in again.stdout
    assert writes_of(server) == ['POST %s' % path]  # one create, kept: no delete
    assert 'another run' not in again.stdout and '[WARNING]' not in again.stdout
    tokens = listed()
    assert sorted(item['revoked'] for item in tokens) == [False, True]
    live = [item for item in tokens if not item['revoked']][0]
    server.clear_log()
    rerun = run([task('reverse_proxy_token', name='site-b')], env=env)
    assert rerun['t']['changed'] is False and server.writes() == [] and not rerun['t'].get('warnings')
    assert rerun['t']['reverse_proxy_token']['id'] == live['id'] and 'plain_token' not in rerun['t']

    for turn in range(2):  # each rotate: a new token, the live one revoked (never the new one, for an older revoked id)
        server.clear_log()
        rotated = run([task('reverse_proxy_token', name='site-b', rotate=True)], env=env)
        assert rotated['t']['changed'] is True and rotated['t']['replaced_id'] == live['id'] and not rotated['t'].get('warnings')
        assert writes_of(server) == ['POST %s' % path, 'DELETE %s/%s' % (path, live['id'])]
        tokens = listed()
        assert len(tokens) == 3 + turn and [item['id'] for item in tokens if not item['revoked']] == [rotated['t']['reverse_proxy_token']['id']]
        live = rotated['t']['reverse_proxy_token']

    server.clear_log()  # a revoked token named by id: already gone for state=absent; state=present refuses it
    gone = run([task('reverse_proxy_token', id=first['id'], state='absent')], env=env)
    assert gone['t']['changed'] is False and server.writes() == []
    refused = run([dict(task('reverse_proxy_token', id=first['id']), ignore_errors=True)], env=env)
    assert refused['t']['failed'] is True and server.writes() == []
    assert refused['t']['msg'] == ('the reverse proxy token with id %s is revoked, and a revoked reverse proxy token cannot be '
                                   'used again; create a new one by name instead' % first['id'])


def test_a_name_whose_token_was_revoked_gets_one_new_token(emulator, run, tmp_path):
    needs(emulator, 'current')
    token_writes_after_a_revoke(emulator, run, tmp_path)


def test_without_a_connected_proxy_services_and_domains_are_refused_as_the_real_server_does(emulator, run):
    needs(emulator, 'current')
    peer = {'name': 'monitoring-01'}
    peer['id'] = make_peers(emulator, peer['name'])[peer['name']]
    listed = run([{'name': 'info', 'nms.overlay.reverse_proxy_cluster_info': {}}])
    assert [item['address'] for item in listed['info']['reverse_proxy_clusters']] == [CLUSTER]
    emulator.clear_log()
    removed = run([task('reverse_proxy_cluster', address=CLUSTER)])
    assert removed['t']['changed'] is True and writes_of(emulator) == ['DELETE /api/reverse-proxies/clusters/%s' % CLUSTER]
    emulator.clear_log()
    assert run([task('reverse_proxy_cluster', address=CLUSTER)])['t']['changed'] is False and emulator.writes() == []
    result = run([dict(task('reverse_proxy_service', label='s', name='s', domain='app.example.com', targets=[
        {'target_id': peer['name'], 'target_type': 'peer', 'protocol': 'http', 'port': 80}]), ignore_errors=True),
        dict(task('reverse_proxy_domain', label='d', **DOMAIN), ignore_errors=True)])
    assert result['s']['msg'] == ('POST %s/api/reverse-proxies/services failed with HTTP 412: could not derive cluster from domain '
                                  'app.example.com: no proxy clusters available' % emulator.url)
    assert result['d']['msg'] == 'POST %s/api/reverse-proxies/domains failed with HTTP 500: internal server error' % emulator.url


def test_a_v027_server_refuses_every_module_after_the_version_probe(emulator, run):
    needs(emulator, 'netbird')
    tasks = [dict(task('reverse_proxy_service', label='s', name='grafana'), ignore_errors=True),
             dict(task('reverse_proxy_domain', label='d', **DOMAIN), ignore_errors=True),
             dict(task('reverse_proxy_token', label='k', name='office'), ignore_errors=True),
             dict(task('reverse_proxy_cluster', label='c', address=CLUSTER), ignore_errors=True)]
    tasks += [{'name': module, 'ignore_errors': True, 'nms.overlay.%s' % module: {}} for module in (
        'reverse_proxy_service_info', 'reverse_proxy_domain_info', 'reverse_proxy_token_info', 'reverse_proxy_cluster_info')]
    emulator.clear_log()
    result = run(tasks)
    for name in ('s', 'd', 'k', 'c', 'reverse_proxy_service_info', 'reverse_proxy_domain_info', 'reverse_proxy_token_info',
                 'reverse_proxy_cluster_info'):
        feature = 'reverse proxy tokens, which came with NetBird v0.71.0' if name in ('k', 'reverse_proxy_token_info') else \
            'reverse proxies, which came with NetBird v0.65.0'  # tokens came later than the rest
        assert 'does not have %s' % feature in result[name]['msg'], name
    assert [(r['method'], r['path']) for r in emulator.requests()] == [('GET', '/api/instance/version')] * 8
