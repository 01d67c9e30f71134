# -*- coding: utf-8 -*-
"""Issue 46, 12: v0.77.1 refuses (412) to delete a peer that a network router routes through or that a reverse-proxy
service targets; nms.overlay.peer state=absent (and so cleanup_stale_peers and offboard_user) names the router and its
network, or the service, before any write and in check mode. The emulator answers the real server's 412 itself."""

from __future__ import annotations

import json

import pytest

from tests.support.emulator import make_peers

CLUSTER = 'proxy.emulator.test'
NETWORK = "office's LAN: 10/8 \"main\""  # odd characters survive into the message
LINK_READS = [('GET', '/api/instance/version'), ('GET', '/api/reverse-proxies/services'), ('GET', '/api/networks/routers')]


def needs_current(emulator):
    if emulator.dialect != 'current':
        pytest.skip('needs the current dialect (a v0.77.1 server): v0.27 has no routers nor proxies')


def routed(emulator, peer_id):
    network = emulator.ok('POST', '/api/networks', {'name': NETWORK})
    router = emulator.ok('POST', '/api/networks/%s/routers' % network['id'],
                         {'peer': peer_id, 'peer_groups': [], 'metric': 9999, 'masquerade': True, 'enabled': True})
    return network, router


def test_the_emulator_refuses_like_v0771(emulator):
    needs_current(emulator)
    peers = make_peers(emulator, 'gw-1')
    dummy_network, router = routed(emulator, peers['gw-1'])
    status, answer = emulator.api('DELETE', '/api/peers/%s' % peers['gw-1'])
    assert status == 412, answer
    assert answer['message'] == 'peer is linked to a network router: %s' % router['id']
    assert emulator.api('GET', '/api/peers/%s' % peers['gw-1'])[0] == 200


@pytest.mark.parametrize('check', [True, False], ids=['check', 'run'])
def test_a_peer_a_router_routes_through_is_not_deleted_and_the_router_is_named(emulator, run, check):
    needs_current(emulator)
    peers = make_peers(emulator, 'gw-1', 'spare')
    network, router = routed(emulator, peers['gw-1'])
    emulator.clear_log()
    result = run([{'name': 'delete', 'nms.overlay.peer': {'name': 'gw-1', 'state': 'absent'}}], check=check)
    assert result.rc != 0
    msg = result['delete']['msg']
    assert msg == ("the peer 'gw-1' (id %s) cannot be deleted while it is linked (the server refuses, 412): the network "
                   "router %s of the network '%s' routes through it; remove or retarget those first; nothing was "
                   "deleted" % (peers['gw-1'], router['id'], NETWORK)), msg
    assert emulator.writes() == []
    assert [(r['method'], r['path']) for r in emulator.requests()] == [('GET', '/api/peers')] + LINK_READS + [
        ('GET', '/api/networks')]
    assert emulator.api('GET', '/api/peers/%s' % peers['gw-1'])[0] == 200

    # a router of peer groups is no link (v0.77.1 counts only a router's own peer); once the router moves, it goes
    emulator.ok('PUT', '/api/networks/%s/routers/%s' % (network['id'], router['id']),
                {'peer': peers['spare'], 'peer_groups': [], 'metric': 9999, 'masquerade': True, 'enabled': True})
    emulator.clear_log()
    gone = run([{'name': 'delete', 'nms.overlay.peer': {'name': 'gw-1', 'state': 'absent'}}], check=check)
    assert gone.rc == 0 and gone['delete']['changed'] is True, gone
    assert [(r['method'], r['path']) for r in emulator.requests()][1:] == LINK_READS + (
        [] if check else [('DELETE', '/api/peers/%s' % peers['gw-1'])])


def test_a_peer_a_reverse_proxy_service_targets_is_named_with_the_service(emulator, run):
    needs_current(emulator)
    emulator.control('POST', '/_emulator/config', {'proxy_clusters': [CLUSTER]})
    peers = make_peers(emulator, 'monitoring-01')
    service = emulator.ok('POST', '/api/reverse-proxies/services', {
        'name': 'grafana', 'domain': 'grafana.%s' % CLUSTER, 'enabled': True,
        'targets': [{'target_id': peers['monitoring-01'], 'target_type': 'peer', 'protocol': 'http', 'port': 3000,
                     'enabled': True}]})
    status, answer = emulator.api('DELETE', '/api/peers/%s' % peers['monitoring-01'])
    assert (status, answer['message']) == (412, 'peer %s is in use by proxy %s' % (peers['monitoring-01'], service['id']))
    emulator.clear_log()
    result = run([{'name': 'delete', 'nms.overlay.peer': {'id': peers['monitoring-01'], 'state': 'absent'}}])
    assert result.rc != 0
    assert ("the reverse-proxy service 'grafana' (id %s) targets it" % service['id']) in result['delete']['msg']
    assert emulator.writes() == []


def test_a_bad_answer_of_the_routers_list_is_an_api_error_before_any_write(emulator, run):
    needs_current(emulator)
    peers = make_peers(emulator, 'gw-1')
    emulator.clear_log()
    emulator.set_faults({'queue': [{'path': '/api/networks/routers', 'status': 200, 'body': json.dumps({'id': 'r1'}),
                                    'content_type': 'application/json'}]})
    result = run([{'name': 'delete', 'nms.overlay.peer': {'name': 'gw-1', 'state': 'absent'}}])
    assert result.rc != 0
    msg = result['delete']['msg']
    assert 'GET' in msg and '/api/networks/routers' in msg and 'Traceback' not in str(result.results), msg
    assert emulator.writes() == []


def test_the_world_changing_after_the_check_is_the_servers_412(emulator, run):
    """A router made between the read of the links and the DELETE: the server's own 412 is the task's error, with
    the method, URL, status and message."""
    needs_current(emulator)
    peers = make_peers(emulator, 'gw-1')
    message = 'peer is linked to a network router: d0late'
    emulator.set_faults({'queue': [{'path': '/api/peers/%s' % peers['gw-1'], 'method': 'DELETE', 'status': 412,
                                    'body': json.dumps({'message': message, 'code': 412}),
                                    'content_type': 'application/json'}]})
    result = run([{'name': 'delete', 'nms.overlay.peer': {'id': peers['gw-1'], 'state': 'absent'}}])
    assert result.rc != 0
    msg = result['delete']['msg']
    assert 'DELETE' in msg and '412' in msg and message in msg, msg


def test_a_list_the_token_may_not_read_leaves_the_decision_to_the_delete(emulator, run):
    """A 403 of the services list (a token of a role that may delete peers but not read proxies): the routers are
    still read, and the DELETE tells."""
    needs_current(emulator)
    peers = make_peers(emulator, 'gw-1')
    emulator.clear_log()
    emulator.set_faults({'queue': [{'path': '/api/reverse-proxies/services', 'status': 403}]})
    result = run([{'name': 'delete', 'nms.overlay.peer': {'id': peers['gw-1'], 'state': 'absent'}}])
    assert result.rc == 0 and result['delete']['changed'] is True, result
    assert [(r['method'], r['path']) for r in emulator.requests()][-2:] == [
        ('GET', '/api/networks/routers'), ('DELETE', '/api/peers/%s' % peers['gw-1'])]
