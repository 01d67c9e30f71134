# -*- coding: utf-8 -*-
"""The small reads of issue 31 through ansible-playbook and real HTTP: every network's routers, the reverse proxy's
access log, the current user; on v0.27 each is refused after the version probe, before any other request."""

from __future__ import annotations

import pytest

from tests.support.emulator import make_peers
from tests.support.modules import examples_of

PROBE = ('GET', '/api/instance/version')


def reads(emulator):
    return [(r['method'], r['path']) for r in emulator.requests()]


def networks_with_routers(emulator):
    """Two networks with a router each (one of a peer, one of peer groups)."""
    peers = make_peers(emulator, 'gw-1', 'gw-2')
    status, group = emulator.api('POST', '/api/groups', {'name': 'gateways', 'peers': [peers['gw-2']]})
    assert status == 200, group
    routers = []
    for name, router in (('office', {'peer': peers['gw-1']}), ('lab', {'peer_groups': [group['id']]})):
        status, network = emulator.api('POST', '/api/networks', {'name': name, 'description': ''})
        assert status == 200, network
        body = dict(dict(peer='', peer_groups=[], metric=9999, masquerade=True, enabled=True), **router)
        status, made = emulator.api('POST', '/api/networks/%s/routers' % network['id'], body)
        assert status == 200, made
        routers.append(made['id'])
    emulator.clear_log()
    return routers


@pytest.mark.dialects('current')
def test_every_networks_routers_in_one_request(emulator, run):
    routers = networks_with_routers(emulator)
    result = run([{'name': 'all', 'nms.overlay.network_router_info': {}},
                  {'name': 'one', 'nms.overlay.network_router_info': {'id': routers[1]}}])
    assert result.rc == 0, result
    assert sorted(router['id'] for router in result['all']['network_routers']) == sorted(routers)
    assert [router['id'] for router in result['one']['network_routers']] == [routers[1]]
    assert all(router['peer_groups'] is not None for router in result['all']['network_routers'])
    # each task: the version probe (Networks are today's), then the account-wide list
    assert reads(emulator) == [PROBE, ('GET', '/api/networks/routers')] * 2


@pytest.mark.dialects('current')
def test_the_proxy_log_of_a_server_without_a_proxy_is_empty(emulator, run):
    result = run([{'name': 'proxy', 'nms.overlay.event_info': {'log': 'proxy', 'since': '-1d', 'limit': 10}}])
    assert result.rc == 0, result
    assert result['proxy']['events'] == [] and result['proxy']['log_size'] == 0 and result['proxy']['log_oldest'] == ''
    requests = emulator.requests()
    assert [(r['method'], r['path']) for r in requests] == [PROBE, ('GET', '/api/events/proxy')]
    assert 'page_size=100' in requests[1]['query'] and 'start_date=' in requests[1]['query']


@pytest.mark.dialects('current')
def test_the_current_user_is_one_read(emulator, run):
    status, robot = emulator.api('POST', '/api/users', {'name': 'robot', 'role': 'admin', 'is_service_user': True, 'auto_groups': []})
    assert status == 200, robot
    status, token = emulator.api('POST', '/api/users/%s/tokens' % robot['id'], {'name': 'ci', 'expires_in': 30})
    assert status == 200, token
    emulator.clear_log()
    result = run([{'name': 'owner', 'nms.overlay.user_info': {'current': True}}])
    as_robot = run([{'name': 'robot', 'nms.overlay.user_info': {'current': True}}], env={'NMS_API_TOKEN': token['plain_token']})
    assert result.rc == 0 and as_robot.rc == 0, (result, as_robot)
    assert [user['role'] for user in result['owner']['users']] == ['owner']
    assert [user['id'] for user in as_robot['robot']['users']] == [robot['id']]
    assert reads(emulator) == [PROBE, ('GET', '/api/users/current')] * 2


@pytest.mark.dialects('netbird')
@pytest.mark.parametrize('module, options, words', [
    ('network_router_info', {}, 'does not have Networks, which came with NetBird v0.35.0'),
    ('event_info', {'log': 'proxy'}, "does not have the reverse proxy's access log, which came with NetBird v0.65.0; "
                                     "upgrade the server to v0.65.0 or later to read it"),
    ('user_info', {'current': True}, 'option current: this server (v0.27: it has no GET /api/instance/version) does not have it '
                                     '(servers have it from v0.41.1 on)'),
])
def test_a_v027_server_refuses_the_reads_after_the_version_probe_only(emulator, run, module, options, words):
    emulator.clear_log()
    result = run([{'name': 'task', 'nms.overlay.' + module: options}])
    assert result['task']['failed'] and words in result['task']['msg'], result['task']['msg']
    assert reads(emulator) == [PROBE]


@pytest.mark.dialects('current')
def test_the_new_examples_run_unchanged(emulator, run):
    networks_with_routers(emulator)
    tasks = [task for module in ('event_info', 'user_info', 'network_router_info') for task in examples_of(module)
             if '(v0.77 servers)' in task['name'] or 'every network' in task['name'] or 'disabled ones' in task['name']]
    assert len(tasks) == 6
    result = run(tasks)
    assert result.rc == 0, result
    assert not result.failed
