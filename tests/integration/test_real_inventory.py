# -*- coding: utf-8 -*-
"""Issue 42, 2, on the real v0.27.6 and v0.77.1 (tests/support/realserver.py; the real-server stage, ``make real``):
the nms.overlay.peers inventory plugin lists the peers of real NetBird agents (tests/support/realagents.py) that
joined, connected or not, with their overlay address, OS, agent version and groups; an agent that left (``down``)
and one that was stopped show as disconnected."""

from __future__ import annotations

import pytest

from tests.integration.test_inventory import EXAMPLE, inventory
from tests.integration.test_real_servers import connection, started
from tests.support.realagents import Agents
from tests.support.realserver import RELEASES

pytestmark = pytest.mark.real

GROUP = 'inv-web'
HOSTS = ('inv-up', 'inv-down', 'inv-stopped')


@pytest.fixture(scope='module', params=RELEASES)
def joined(request):
    """A real server of its own per release, with three agents that joined: one connected, one that left (``down``),
    one stopped; yields the server and the peers as the server lists them."""
    for server in started(request.param):
        group = server.ok('POST', '/api/groups', {'name': GROUP, 'peers': []})
        key = server.ok('POST', '/api/setup-keys', {'name': 'inv', 'type': 'reusable', 'expires_in': 86400,
                                                    'auto_groups': [group['id']], 'usage_limit': 0})['key']
        agents = Agents(server)
        for host in HOSTS:
            agents.up(host, key=key)
        agents.down('inv-down')
        agents.stop('inv-stopped')
        peers = {host: agents.peer(host, connected=host == 'inv-up') for host in HOSTS}
        yield server, peers


def test_the_inventory_lists_the_joined_agents_connected_or_not(joined, tmp_path, collections_dir):
    server, peers = joined
    server.clear_log()
    inv = inventory(tmp_path, collections_dir, EXAMPLE, env=connection(server))
    assert inv.rc == 0, inv.output
    assert [r['method'] + ' ' + r['path'] for r in server.requests()] == ['GET /api/peers']
    assert server.token not in inv.output
    version = server.release[1:]  # the agents are of the server's release
    for host, peer in peers.items():
        name = peer['dns_label']
        assert name.startswith(host + '.'), peer
        hostvars = inv.hostvars[name]
        assert hostvars['ansible_host'] == peer['ip'] and hostvars['nms_ip'] == peer['ip'], hostvars
        assert hostvars['nms_hostname'] == host and hostvars['nms_name'] == host
        assert hostvars['nms_os'] == peer['os'] and 'Linux' in hostvars['nms_os'], hostvars['nms_os']
        assert hostvars['nms_version'] == version, hostvars['nms_version']
        assert sorted(g['name'] for g in hostvars['nms_groups']) == ['All', GROUP], hostvars['nms_groups']
        assert hostvars['nms_connected'] is (host == 'inv-up'), (host, hostvars['nms_connected'])
        assert name in inv.hosts_of(GROUP.replace('-', '_')) and name in inv.hosts_of('All')
    labels = {host: peer['dns_label'] for host, peer in peers.items()}
    assert labels['inv-up'] in inv.hosts_of('state_connected')
    assert {labels['inv-down'], labels['inv-stopped']} <= set(inv.hosts_of('state_disconnected'))
    assert labels['inv-up'] not in inv.hosts_of('state_disconnected')
