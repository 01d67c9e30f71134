# -*- coding: utf-8 -*-
"""The small reads of issue 31 against the real NetBird v0.27.6 and v0.77.1 (the real-server stage, ``make real``):
every network's routers, the reverse proxy's access log and the current user on v0.77.1, each one request after the
version probe; v0.27.6 refuses each after the probe, before any other request."""

from __future__ import annotations

import pytest

from tests.integration.test_real_servers import connection, started
from tests.support.realserver import RELEASES

pytestmark = pytest.mark.real

PROBE = ('GET', '/api/instance/version')


@pytest.fixture(scope='module')
def real_v077():
    yield from started(RELEASES[1])


@pytest.fixture(scope='module')
def real_v027():
    yield from started(RELEASES[0])


def reads(server):
    return [(r['method'], r['path']) for r in server.requests()]


def test_every_networks_routers_the_proxy_log_and_the_current_user(real_v077, run):
    real_server = real_v077
    peers = real_server.ok('GET', '/peers')
    routers = []
    for index, name in enumerate(('reads-office', 'reads-lab')):
        network = real_server.ok('POST', '/networks', {'name': name, 'description': ''})
        routers.append(real_server.ok('POST', '/networks/%s/routers' % network['id'], {
            'peer': peers[index]['id'], 'metric': 100, 'masquerade': True, 'enabled': True})['id'])
    owner = [user for user in real_server.ok('GET', '/users') if user.get('is_current')][0]
    real_server.clear_log()
    tasks = [{'name': 'routers', 'nms.overlay.network_router_info': {}},
             {'name': 'proxy', 'nms.overlay.event_info': {'log': 'proxy', 'since': '-1d'}},
             {'name': 'me', 'nms.overlay.user_info': {'current': True}}]
    result = run(tasks, env=connection(real_server))
    assert result.rc == 0, result
    assert sorted(router['id'] for router in result['routers']['network_routers']) == sorted(routers)
    # the real server answers a router of one peer with peer_groups null: the module gives []
    assert all(router['peer_groups'] == [] for router in result['routers']['network_routers'])
    # no proxy is connected to the test server: its access log is empty (one page)
    assert result['proxy']['events'] == [] and result['proxy']['log_size'] == 0
    assert [user['id'] for user in result['me']['users']] == [owner['id']]
    assert reads(real_server) == [PROBE, ('GET', '/api/networks/routers'), PROBE, ('GET', '/api/events/proxy'),
                                  PROBE, ('GET', '/api/users/current')]


@pytest.mark.parametrize('module, options, words', [
    ('network_router_info', {}, 'does not have Networks, which came with NetBird v0.35.0'),
    ('event_info', {'log': 'proxy'}, "does not have the reverse proxy's access log"),
    ('user_info', {'current': True}, 'option current: this server (v0.27: it has no GET /api/instance/version) does not have it'),
])
def test_v027_refuses_each_read_after_the_version_probe_only(real_v027, run, module, options, words):
    real_v027.clear_log()
    result = run([{'name': 'task', 'nms.overlay.' + module: options}], env=connection(real_v027))
    assert result['task']['failed'] and words in result['task']['msg'], result['task']['msg']
    assert reads(real_v027) == [PROBE]
