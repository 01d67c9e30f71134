# -*- coding: utf-8 -*-
"""Issue 46, 12, on the real v0.77.1 (tests/support/realserver.py; the real-server stage, ``make real``): the server
refuses (412) to delete a seeded peer a network router routes through, with the message the emulator gives too; the
peer module names the router and its network before any write, in check mode too, and deletes nothing. On v0.27.6
(no routers) the deletion reads no links."""

from __future__ import annotations

import pytest

from tests.integration.test_real_servers import connection, started

pytestmark = pytest.mark.real

PEER = 'real-peer-1'
LINK_READS = [('GET', '/api/instance/version'), ('GET', '/api/reverse-proxies/services'), ('GET', '/api/networks/routers')]


@pytest.fixture(scope='module')
def server():
    yield from started('v0.77.1')


def requests_of(server):
    return [(item['method'], item['path']) for item in server.requests()]


def test_a_peer_a_router_routes_through_is_named_and_kept_on_the_real_server(server, run):
    network = server.ok('POST', '/networks', {'name': "branch's LAN"})
    router = server.ok('POST', '/networks/%s/routers' % network['id'],
                       {'peer': PEER, 'peer_groups': [], 'metric': 9999, 'masquerade': True, 'enabled': True})
    try:
        # the server's own refusal, word for word what the emulator answers
        status, answer = server.api('DELETE', '/peers/%s' % PEER)
        assert (status, answer.get('message')) == (412, 'peer is linked to a network router: %s' % router['id']), answer
        expected = ("the peer '%s' (id %s) cannot be deleted while it is linked (the server refuses, 412): the network "
                    "router %s of the network '%s' routes through it; remove or retarget those first; nothing was "
                    "deleted" % (server.ok('GET', '/peers/%s' % PEER)['name'], PEER, router['id'], network['name']))
        for check in (True, False):
            server.clear_log()
            result = run([{'name': 'delete', 'nms.overlay.peer': {'id': PEER, 'state': 'absent'}}],
                         env=connection(server), check=check)
            assert result.rc != 0
            assert result['delete']['msg'] == expected, result['delete']['msg']
            assert server.writes() == []
            assert requests_of(server) == [('GET', '/api/peers/%s' % PEER)] + LINK_READS + [('GET', '/api/networks')]
        assert server.ok('GET', '/peers/%s' % PEER)['id'] == PEER
    finally:
        server.ok('DELETE', '/networks/%s' % network['id'])
