# -*- coding: utf-8 -*-
"""Issue 46, 13, on the real v0.77.1 and v0.27.6 (the real-server stage, ``make real``): the account settings the
module took no option for are set by group names on v0.77.1, a re-run is unchanged, every other setting goes back as
the server answered it; v0.27.6 refuses them before any write."""

from __future__ import annotations

import pytest

from tests.integration.test_real_servers import connection, started

pytestmark = pytest.mark.real

GROUP = "ops 'v6' team"
OPTIONS = {'network_range_v6': 'fd00:1234:5678::/64', 'ipv6_enabled_groups': [GROUP], 'peer_expose_enabled': True,
           'peer_expose_groups': [GROUP], 'auto_update_version': '0.77.1', 'auto_update_always': True,
           'metrics_push_enabled': True}


@pytest.fixture(scope='module', params=['v0.77.1', 'v0.27.6'])
def server(request):
    yield from started(request.param)


def settings_task(**options):
    return {'name': 'settings', 'nms.overlay.account_settings': options}


def test_the_new_settings_on_the_real_servers(server, run):
    env = connection(server)
    if server.dialect != 'v0.77.1':
        server.clear_log()
        refused = run([settings_task(metrics_push_enabled=True)], env=env)
        assert refused.rc != 0 and 'option metrics_push_enabled: ' in refused['settings']['msg']
        assert 'servers have it from v0.74.0 on' in refused['settings']['msg'] and server.writes() == []
        return
    group = server.ok('POST', '/groups', {'name': GROUP, 'peers': []})
    before = server.ok('GET', '/accounts')[0]['settings']
    server.clear_log()
    first = run([settings_task(**OPTIONS)], env=env, diff=True)
    assert first.rc == 0, first
    writes = server.writes()
    assert len(writes) == 1 and writes[0]['method'] == 'PUT', writes
    sent = writes[0]['request']['settings']
    untouched = {key: value for key, value in before.items() if key not in OPTIONS}
    assert {key: sent.get(key) for key in untouched} == untouched
    after = server.ok('GET', '/accounts')[0]['settings']
    assert after['ipv6_enabled_groups'] == [group['id']] and after['peer_expose_groups'] == [group['id']]
    assert {key: after[key] for key in OPTIONS if 'groups' not in key} == {
        key: value for key, value in OPTIONS.items() if 'groups' not in key}
    server.clear_log()
    again = run([settings_task(**OPTIONS)], env=env)
    assert again.rc == 0 and again['settings']['changed'] is False and server.writes() == []


def test_a_peers_ipv6_on_the_real_servers(server, run):
    """After the settings above (an IPv6 range and group): the seeded peer in that group gets its new IPv6 address;
    a re-run is unchanged; v0.27.6 refuses the option before any write."""
    env = connection(server)
    task = {'name': 'v6', 'nms.overlay.peer': {'id': 'real-peer-1', 'ipv6': 'fd00:1234:5678::99'}}
    server.clear_log()
    if server.dialect != 'v0.77.1':
        refused = run([task], env=env)
        assert refused.rc != 0 and 'servers have it from v0.71.0 on' in refused['v6']['msg'] and server.writes() == []
        return
    group = [item for item in server.ok('GET', '/groups') if item['name'] == GROUP][0]
    server.ok('PUT', '/groups/%s' % group['id'], {'name': GROUP, 'peers': ['real-peer-1']})
    server.clear_log()
    first = run([task], env=env, diff=True)
    assert first.rc == 0, first
    assert [(item['method'], item['path']) for item in server.writes()] == [('PUT', '/api/peers/real-peer-1')]
    assert server.writes()[0]['request']['ipv6'] == 'fd00:1234:5678::99'
    assert first['v6']['peer']['ipv6'] == 'fd00:1234:5678::99'
    assert server.ok('GET', '/peers/real-peer-1')['ipv6'] == 'fd00:1234:5678::99'
    server.clear_log()
    again = run([task], env=env)
    assert again.rc == 0 and again['v6']['changed'] is False and server.writes() == []
    outside = run([{'name': 'v6', 'nms.overlay.peer': {'id': 'real-peer-1', 'ipv6': 'fd00:9999::1'}}], env=env)
    msg = outside['v6']['msg']
    assert outside.rc != 0 and 'PUT' in msg and '422' in msg and 'ip fd00:9999::1 is not within the account ipv6 range' in msg, msg
