# -*- coding: utf-8 -*-
"""Stale peers on the real v0.27.6 and v0.77.1 with real agents (tests/support/realserver.py, realagents.py; the
real-server stage, ``make real``).

Issue 44, 1: a real NetBird agent (../shared/servers/realagent.py) joins with a setup key and leaves; peer_info lists
its peer as stale; the agent connects again; the peer module with only_if_inactive_for, reading the peer right before
its DELETE, keeps it (the server says it is connected, and then that it was just seen, on the server's own clock) and
deletes it only once it is stale by then.

Issue 42, 4: the cleanup_stale_peers playbook finds and deletes the peers of stopped agents and the kit's seeded
peers (never connected), never a connected agent's, and never one whose agent comes back between the preview and
the run, or after the run listed it."""

from __future__ import annotations

import concurrent.futures
import contextlib
import datetime
import re
import time
import urllib.parse

import pytest

from tests.integration.test_real_servers import connection, started
from tests.integration.test_stale_peers import CHECK_TASK, DELETE_TASK, PLAYBOOK, preview_of
from tests.support.realagents import Agents
from tests.support.realserver import RELEASES, SEEDED_PEERS, RecordingProxy

pytestmark = pytest.mark.real

HOST = 'stale-h1'


@pytest.fixture(scope='module', params=RELEASES)
def agent_server(request):
    """One real server per release for the file; each test joins agents of hostnames of its own, and deletes peers."""
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


# -- the cleanup_stale_peers playbook with real agents -----------------------------------------------------------------
STOPPED = ('stale-a1', 'stale-a2')  # their agents stop for good: the stale peers a cleanup is for
RETURNING = 'stale-b1'              # leaves (netbird down) and comes back
CONNECTED = 'stale-c1'              # stays connected throughout: never listed, never deleted
INACTIVE = '2s'


def join_at_once(agents, hosts, key_file):
    """The hosts' agents join together, as a fleet does (realagent.py serialises only its own set-up)."""
    with concurrent.futures.ThreadPoolExecutor(len(hosts)) as pool:
        for done in [pool.submit(agents.up, host, key_file=key_file) for host in hosts]:
            done.result()
    return {host: agents.peer(host) for host in hosts}


@contextlib.contextmanager
def after_first(server, method, path, action):
    """``action()`` once, when the server has answered the first ``method path`` a client sends through the recording
    proxy and before that answer goes back: what happens on the network while the client still works from what it read.
    Use in a ``with``; the proxy records as before once the block ends."""
    proxy, fired = server.proxy, []

    def record(verb, target, *args, **kwargs):
        RecordingProxy.record(proxy, verb, target, *args, **kwargs)
        if not fired and verb == method and urllib.parse.urlsplit(target).path == path:
            fired.append(target)
            action()
    proxy.record = record
    try:
        yield fired
    finally:
        del proxy.record


def seen(text):
    """A last_seen as a datetime (servers write 0 to 9 digits of fraction)."""
    return datetime.datetime.fromisoformat(re.sub(r'(\.\d{1,6})\d*', r'\1', text).replace('Z', '+00:00'))


def test_cleanup_deletes_the_stopped_agents_peers_and_keeps_one_that_comes_back(agent_server, run, tmp_path):
    """The kit's seeded peers (real-h1..h4, real-win1) never connect: their last_seen is the moment the server was
    seeded, before any agent joined, so a cleanup finds them with the stopped agents. A connected agent is never listed.
    An agent that comes back between the preview and the confirmed run makes the code another list's: nothing is
    deleted. Once it has left again the code is good again, and when it comes back after the run listed it (the
    recording proxy holds the list's answer until the agent is connected), the run keeps it, says why, and deletes the
    others."""
    server, env = agent_server, connection(agent_server)
    joined = datetime.datetime.now(datetime.timezone.utc)
    key = server.ok('POST', '/api/setup-keys', {
        'name': 'cleanup', 'type': 'reusable', 'expires_in': 86400, 'auto_groups': [], 'usage_limit': 0})['key']
    key_file = tmp_path / 'key'
    key_file.write_text(key)
    agents = Agents(server)
    peers = join_at_once(agents, STOPPED + (RETURNING, CONNECTED), key_file)
    for host in STOPPED:
        agents.stop(host)
    agents.down(RETURNING)
    for host in STOPPED + (RETURNING,):
        agents.peer(host, connected=False)
    time.sleep(2.1)
    server.clear_log()

    # the preview (check mode): the seeded peers and the agents that left, each with the last_seen that makes it stale
    preview = run([], playbook=PLAYBOOK, check=True, extra_vars={'nms_stale_inactive_for': INACTIVE}, env=env)
    assert preview.rc == 0, preview
    code, listed = preview_of(preview)
    why = '\n'.join('%(name)s last_seen %(last_seen)s' % peer for peer in listed)
    seeded = sorted(name for name, dummy in SEEDED_PEERS)
    stale = seeded + sorted(STOPPED + (RETURNING,))
    assert code and [peer['name'] for peer in listed] == stale, why
    by_name = {peer['name']: peer for peer in listed}
    assert len({by_name[name]['last_seen'] for name in seeded}) == 1, why  # seeded all at once
    assert all(seen(by_name[name]['last_seen']) < joined for name in seeded), why
    assert all(seen(by_name[name]['last_seen']) >= joined - datetime.timedelta(seconds=1)
               for name in STOPPED + (RETURNING,)), why
    assert preview[DELETE_TASK]['skipped'] is True and server.writes() == [], preview

    # the agent comes back before the run: the run finds another list, refuses the code, deletes nothing
    agents.up(RETURNING, key_file=key_file)
    agents.peer(RETURNING)
    server.clear_log()
    refused = run([], playbook=PLAYBOOK, extra_vars={'nms_stale_inactive_for': INACTIVE, 'nms_stale_confirm': code},
                  env=env)
    assert refused.rc != 0, refused
    new_code, now_listed = preview_of(refused)
    assert [peer['name'] for peer in now_listed] == seeded + sorted(STOPPED) and new_code != code, now_listed
    assert 'is not the code of the stale peers found now (%s)' % new_code in refused[CHECK_TASK]['msg']
    assert DELETE_TASK not in refused and server.writes() == []

    # it leaves again (the list is the preview's again), and comes back once the run has listed it
    agents.down(RETURNING)
    agents.peer(RETURNING, connected=False)
    time.sleep(2.1)
    server.clear_log()
    started = time.monotonic()
    with after_first(server, 'GET', '/api/peers', lambda: (
            agents.up(RETURNING, key_file=key_file), agents.peer(RETURNING))) as fired:
        confirmed = run([], playbook=PLAYBOOK, env=env,
                        extra_vars={'nms_stale_inactive_for': INACTIVE, 'nms_stale_confirm': code})
    assert fired and confirmed.rc == 0, confirmed
    results = {item['item']['name']: item for item in confirmed[DELETE_TASK]['results']}
    assert sorted(results) == stale
    kept = results[RETURNING]
    assert kept['changed'] is False and kept['kept_because'].startswith(
        "the peer '%s' (id %s) is connected now: not deleted" % (RETURNING, peers[RETURNING]['id'])), kept
    assert [name for name in stale if results[name]['changed']] == [name for name in stale if name != RETURNING]
    deleted = sorted(by_name[name]['id'] for name in stale if name != RETURNING)
    assert sorted(r['path'].rsplit('/', 1)[-1] for r in server.writes()) == deleted
    assert {r['method'] for r in server.writes()} == {'DELETE'}
    assert confirmed['Report the listed peers that were not deleted']['msg'] == [
        '1 of the %d peers listed was not deleted:' % len(stale), kept['kept_because']]
    left = {peer['name']: peer['connected'] for peer in server.ok('GET', '/api/peers')}
    assert left == {RETURNING: True, CONNECTED: True}, left
    assert time.monotonic() - started < 60
