# -*- coding: utf-8 -*-
"""Issue 44, 1, on the real v0.27.6 and v0.77.1 (tests/support/realserver.py; the real-server stage, ``make real``): a
real NetBird agent (../shared/servers/realagent.py) joins with a setup key and leaves; peer_info lists its peer as
stale; the agent connects again; the peer module with only_if_inactive_for, reading the peer right before its
DELETE, keeps it (the server says it is connected, and then that it was just seen, on the server's own clock) and
deletes it only once it is stale by then."""

from __future__ import annotations

import time

import pytest

from tests.integration.test_real_servers import connection, started
from tests.support.realagents import Agents
from tests.support.realserver import RELEASES

pytestmark = pytest.mark.real

HOST = 'stale-h1'


@pytest.fixture(params=RELEASES)
def agent_server(request):
    """A real server of its own: the test joins, deletes and leaves behind an agent's peer."""
    yield from started(request.param)


def delete_task(peer_id, duration):
    return [{'name': 'delete', 'nms.overlay.peer': {'id': peer_id, 'state': 'absent', 'only_if_inactive_for': duration}}]


def test_a_peer_whose_agent_connects_again_after_the_list_is_not_deleted(agent_server, run, tmp_path):
    server, env = agent_server, connection(agent_server)
    key = server.ok('POST', '/api/setup-keys', {
        'name': 'stale', 'type': 'reusable', 'expires_in': 86400, 'auto_groups': [], 'usage_limit': 0})['key']
    key_file = tmp_path / 'key'
    key_file.write_text(key)
    agents = Agents(server)
    agents.up(HOST, key_file=key_file)
    agents.down(HOST)
    agents.peer(HOST, connected=False)
    time.sleep(3)

    # the list: the agent left more than 2 s ago, its peer is stale
    listed = run([{'name': 'list', 'nms.overlay.peer_info': {'inactive_for': '2s', 'hostname': HOST}}], env=env)
    assert listed.rc == 0, listed
    peers = listed['list']['peers']
    assert [(peer['hostname'], peer['connected']) for peer in peers] == [(HOST, False)], peers
    peer_id = peers[0]['id']

    # the agent connects again before the deletion: the read right before the DELETE finds it connected
    agents.up(HOST, key_file=key_file)
    agents.peer(HOST)
    server.clear_log()
    kept = run(delete_task(peer_id, '2s'), env=env)['delete']
    assert kept['changed'] is False, kept
    assert kept['kept_because'].startswith("the peer '%s' (id %s) is connected now: not deleted" % (HOST, peer_id)), kept
    assert [(r['method'], r['path']) for r in server.requests()] == [('GET', '/api/peers/%s' % peer_id)]

    # it leaves again: just seen by the server (its last_seen), on the server's clock or ours, whichever is earlier
    agents.down(HOST)
    agents.peer(HOST, connected=False)
    seen = run(delete_task(peer_id, '1h'), env=env)['delete']
    assert seen['changed'] is False, seen
    assert "was last seen at %s, " % seen['peer']['last_seen'] in seen['kept_because'], seen
    assert "before the time on the server's clock" in seen['kept_because'] or \
        "before the time on this controller's clock" in seen['kept_because'], seen
    assert server.writes() == []

    # stale once more, by both clocks: deleted, the peer gone from the list
    time.sleep(3)
    server.clear_log()
    deleted = run(delete_task(peer_id, '2s'), env=env, diff=True)['delete']
    assert deleted['changed'] is True and 'kept_because' not in deleted, deleted
    assert [(r['method'], r['path']) for r in server.writes()] == [('DELETE', '/api/peers/%s' % peer_id)]
    assert HOST not in [peer['hostname'] for peer in server.ok('GET', '/api/peers')]
    again = run(delete_task(peer_id, '2s'), env=env)['delete']
    assert again['changed'] is False and again['peer'] == {}, again
