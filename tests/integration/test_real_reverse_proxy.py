# -*- coding: utf-8 -*-
"""nms.overlay.reverse_proxy_* against the real NetBird v0.77.1 (tests/support/realserver.py; the real-server stage,
``make real``). No NetBird proxy can connect in the test kit, so the server lists no cluster and refuses services
(412) and domains (500): the modules report its answers. Proxy tokens need no proxy: their whole lifecycle runs here.
"""

from __future__ import annotations

import re

import pytest

from tests.integration.test_real_servers import connection, started
from tests.integration.test_reverse_proxy import token_writes_after_a_revoke
from tests.support.emulator import writes_of

pytestmark = pytest.mark.real

TOKEN_RE = re.compile(r'nbx_[0-9A-Za-z]{36}')


@pytest.fixture(scope='module')
def server():
    yield from started('v0.77.1')


def task(module, label='t', **options):
    return {'name': label, 'nms.overlay.%s' % module: options}


def test_no_cluster_is_listed_and_services_and_domains_are_refused_with_the_servers_message(server, run):
    env = connection(server)
    peer = server.ok('GET', '/api/peers')[0]
    server.clear_log()
    result = run([
        {'name': 'clusters', 'nms.overlay.reverse_proxy_cluster_info': {}},
        dict(task('reverse_proxy_service', label='s', name='grafana', domain='app.example.com', targets=[
            {'target_id': peer['name'], 'target_type': 'peer', 'protocol': 'http', 'port': 3000}]), ignore_errors=True),
        dict(task('reverse_proxy_domain', label='d', domain='apps.example.com', target_cluster='eu.proxy.netbird.io'), ignore_errors=True),
        {'name': 'services', 'nms.overlay.reverse_proxy_service_info': {}},
        {'name': 'domains', 'nms.overlay.reverse_proxy_domain_info': {}},
        dict(task('reverse_proxy_cluster', label='c', address='proxy.example.com')),
    ], env=env)
    assert result['clusters']['reverse_proxy_clusters'] == []
    assert result['s']['msg'] == ('POST %s/api/reverse-proxies/services failed with HTTP 412: could not derive cluster from domain '
                                  'app.example.com: no proxy clusters available' % server.url)
    assert result['d']['msg'] == 'POST %s/api/reverse-proxies/domains failed with HTTP 500: internal server error' % server.url
    assert result['services']['reverse_proxy_services'] == [] and result['domains']['reverse_proxy_domains'] == []
    assert result['c']['changed'] is False  # nothing to remove
    # a 500 may be a create whose answer broke down: the engine reads the list back (nothing was made) before it sends
    # the create again, within the task's retries
    writes = writes_of(server)
    assert writes[0] == 'POST /api/reverse-proxies/services' and set(writes[1:]) == {'POST /api/reverse-proxies/domains'}
    sent = server.writes()[0]['request']
    assert sent['targets'][0]['target_id'] == peer['id']  # the peer named, sent by id


def test_proxy_token_lifecycle_on_the_real_server(server, run, tmp_path):
    env = connection(server)
    use = {'name': 'use', 'no_log': True, 'ansible.builtin.copy': {
        'dest': str(tmp_path / 'token'), 'mode': '0600', 'content': '{{ tok.plain_token }}'}}
    server.clear_log()
    check = run([task('reverse_proxy_token', name='office', expires_in=86400)], env=env, check=True)
    assert check['t']['changed'] is True and server.writes() == []
    first = run([dict(task('reverse_proxy_token', name='office', expires_in=86400), register='tok'), use], env=env, ansible=True)
    assert first.rc == 0, first
    token = (tmp_path / 'token').read_text()
    assert TOKEN_RE.fullmatch(token) and token not in first.stdout
    assert writes_of(server) == ['POST /api/reverse-proxies/proxy-tokens']
    created = [item for item in server.ok('GET', '/api/reverse-proxies/proxy-tokens') if item['name'] == 'office']
    assert len(created) == 1 and 'expires_at' in created[0]

    server.clear_log()
    again = run([task('reverse_proxy_token', name='office', expires_in=86400)], env=env)
    assert again['t']['changed'] is False and server.writes() == [] and not again['t'].get('warnings')

    server.clear_log()
    rotated = run([dict(task('reverse_proxy_token', name='office', rotate=True), register='tok'), use], env=env, ansible=True)
    assert rotated.rc == 0, rotated
    new_token = (tmp_path / 'token').read_text()
    assert TOKEN_RE.fullmatch(new_token) and new_token != token and new_token not in rotated.stdout
    assert writes_of(server) == ['POST /api/reverse-proxies/proxy-tokens', 'DELETE /api/reverse-proxies/proxy-tokens/%s' % created[0]['id']]

    listed = run([{'name': 'info', 'nms.overlay.reverse_proxy_token_info': {'name': 'office'}}], env=env)
    tokens = listed['info']['reverse_proxy_tokens']
    assert sorted(item['revoked'] for item in tokens) == [False, True] and token not in str(listed.results)

    server.clear_log()
    gone = run([task('reverse_proxy_token', name='office', state='absent')], env=env)
    assert gone['t']['changed'] is True and writes_of(server) == ['DELETE /api/reverse-proxies/proxy-tokens/%s'
                                                                  % [item['id'] for item in tokens if not item['revoked']][0]]
    server.clear_log()
    again = run([task('reverse_proxy_token', name='office', state='absent')], env=env)
    assert again['t']['changed'] is False and server.writes() == []
    assert all(item['revoked'] for item in server.ok('GET', '/api/reverse-proxies/proxy-tokens') if item['name'] == 'office')


def test_a_name_whose_token_was_revoked_gets_one_new_token_on_the_real_server(server, run, tmp_path):
    # the real server's delete revokes a token, which stays listed with revoked: true (a second delete answers 200)
    token_writes_after_a_revoke(server, run, tmp_path, env=connection(server))


def test_bad_ports_domains_and_lifetimes_are_refused_before_any_request(server, run):
    """Issue 44, point 8: real v0.77.1 keeps a port as 16 bits (70000 would be 4464) and takes a domain of any text;
    the modules refuse those, and a negative token lifetime (the server's 400), before any request."""
    env = connection(server)
    target = {'target_id': 'real-h1', 'target_type': 'peer', 'protocol': 'tcp', 'port': 5432}
    service = {'name': 'db', 'domain': 'db.example.com', 'mode': 'tcp', 'targets': [target]}
    port_zero, spaced = dict(service), dict(service)
    port_zero['targets'], spaced['domain'] = [dict(target, port=0)], 'db example.com'
    server.clear_log()
    result = run([
        dict(task('reverse_proxy_service', label='listen', **dict(service, listen_port=70000)), ignore_errors=True),
        dict(task('reverse_proxy_service', label='port', **port_zero), ignore_errors=True),
        dict(task('reverse_proxy_service', label='domain', **spaced), ignore_errors=True),
        dict(task('reverse_proxy_domain', label='custom', domain='apps example.com', target_cluster='eu.proxy.netbird.io'),
             ignore_errors=True),
        dict(task('reverse_proxy_token', label='token', name='t', expires_in=-1), ignore_errors=True),
    ], env=env)
    assert result['listen']['msg'] == 'option listen_port: must be at most 65535'
    assert result['port']['msg'] == 'option targets[0].port: must be at least 1'
    assert result['domain']['msg'].startswith("option domain: must be a DNS name such as app.example.com")
    assert result['custom']['msg'].startswith("option domain: must be a DNS name such as app.example.com")
    assert result['token']['msg'] == 'option expires_in: must be at least 0'
    assert server.requests() == []
