# -*- coding: utf-8 -*-
"""Issue 46, item 10: nms.overlay.group with peers_mode add and remove, through real HTTP in both dialects: only the
delta is written, on the member list as the server has it right before the write, and proved by a read-back."""

from __future__ import annotations

import threading
import time

from tests.support.emulator import make_group, make_peers, writes_of


def group_of(emulator, group_id):
    status, group = emulator.api('GET', '/api/groups/%s' % group_id)
    assert status == 200, group
    return group


def member_names(group):
    return sorted(p['name'] for p in group.get('peers') or [])


def test_add_and_remove_change_only_the_named_peers(emulator, run):
    peers = make_peers(emulator, 'web-1', 'web-2', 'db-1', 'odd peer/é')
    group = make_group(emulator, 'ops', [peers['web-1']])
    emulator.clear_log()
    add = {'name': 'add', 'nms.overlay.group': {'name': 'ops', 'peers': ['web-2', 'odd peer/é', 'web-1'], 'peers_mode': 'add'}}

    # check mode: the delta planned and shown, nothing written
    planned = run([add], check=True, diff=True)
    assert planned.rc == 0, planned
    assert planned['add']['changed'] is True
    assert planned['add']['diff'] == {'before': {'peers': []}, 'after': {'peers': ['odd peer/é', 'web-2']}}
    assert member_names(planned['add']['group']) == ['odd peer/é', 'web-1', 'web-2']
    assert planned['add']['group']['peers_count'] == 3
    assert emulator.writes() == []

    emulator.clear_log()
    done = run([add], diff=True)
    assert done['add']['changed'] is True
    assert done['add']['diff'] == {'before': {'peers': []}, 'after': {'peers': ['odd peer/é', 'web-2']}}
    assert writes_of(emulator) == ['PUT /api/groups/%s' % group['id']]
    assert member_names(group_of(emulator, group['id'])) == ['odd peer/é', 'web-1', 'web-2']
    assert member_names(done['add']['group']) == ['odd peer/é', 'web-1', 'web-2']

    # adding peers already there: unchanged, no write, one read (the list)
    emulator.clear_log()
    again = run([add], diff=True)
    assert again['add']['changed'] is False
    assert not any((again['add'].get('diff') or {}).values())
    assert emulator.writes() == []
    assert [r['method'] + ' ' + r['path'] for r in emulator.requests()] == ['GET /api/groups']

    # remove one present and one absent peer: only the present one leaves
    emulator.clear_log()
    remove = {'name': 'remove', 'nms.overlay.group': {'name': 'ops', 'peers': ['web-1', 'db-1'], 'peers_mode': 'remove'}}
    removed = run([remove], diff=True)
    assert removed['remove']['changed'] is True
    assert removed['remove']['diff'] == {'before': {'peers': ['web-1']}, 'after': {'peers': []}}
    assert writes_of(emulator) == ['PUT /api/groups/%s' % group['id']]
    assert member_names(group_of(emulator, group['id'])) == ['odd peer/é', 'web-2']
    emulator.clear_log()
    assert run([remove])['remove']['changed'] is False
    assert emulator.writes() == []


def test_a_new_group_takes_the_peers_to_add_and_none_to_remove(emulator, run):
    make_peers(emulator, 'web-1')
    emulator.clear_log()
    made = run([{'name': 'add', 'nms.overlay.group': {'name': 'g-add', 'peers': ['web-1'], 'peers_mode': 'add'}},
                {'name': 'remove', 'nms.overlay.group': {'name': 'g-remove', 'peers': ['web-1'], 'peers_mode': 'remove'}}])
    assert made['add']['changed'] and made['remove']['changed']
    assert writes_of(emulator) == ['POST /api/groups', 'POST /api/groups']
    assert member_names(made['add']['group']) == ['web-1']
    assert made['remove']['group']['peers'] == []


def test_an_unknown_peer_fails_before_any_write(emulator, run):
    make_peers(emulator, 'web-1')
    make_group(emulator, 'ops')
    emulator.clear_log()
    result = run([{'name': 'bad', 'nms.overlay.group': {'name': 'ops', 'peers': ['web-1', 'nobody'], 'peers_mode': 'add'}}])
    assert result['bad'].get('failed'), result
    assert 'nobody' in result['bad']['msg']
    assert emulator.writes() == []


def test_a_bad_mode_fails_naming_the_option(emulator, run):
    result = run([{'name': 'bad', 'nms.overlay.group': {'name': 'ops', 'peers': [], 'peers_mode': 'set'}}])
    assert result['bad'].get('failed'), result
    assert 'peers_mode' in result['bad']['msg']
    assert emulator.writes() == []


def _after_first(emulator, method, path, action):
    """Run ``action`` once the first request ``method path`` has been answered (its answer held by a delay fault)."""
    def wait_then_act():
        deadline = time.monotonic() + 30
        while not any(r['method'] == method and r['path'] == path for r in emulator.requests()) and time.monotonic() < deadline:
            time.sleep(0.02)
        action()

    thread = threading.Thread(target=wait_then_act)
    thread.start()
    return thread


def test_a_peer_added_by_another_client_after_the_plan_is_kept(emulator, run):
    """The group changes between the task's list and its write: the write applies the delta to the list read right
    before it, so the other client's peer stays."""
    peers = make_peers(emulator, 'web-1', 'web-2', 'theirs')
    group = make_group(emulator, 'ops', [peers['web-1']])
    emulator.clear_log()
    emulator.set_faults({'queue': [{'delay': 0.6, 'method': 'GET', 'path': '/api/groups'}]})
    other = _after_first(emulator, 'GET', '/api/groups', lambda: emulator.ok(
        'PUT', '/api/groups/%s' % group['id'], {'name': 'ops', 'peers': [peers['web-1'], peers['theirs']]}))
    result = run([{'name': 'add', 'nms.overlay.group': {'name': 'ops', 'peers': ['web-2'], 'peers_mode': 'add'}}])
    other.join()
    assert result['add']['changed'] is True, result
    assert member_names(group_of(emulator, group['id'])) == ['theirs', 'web-1', 'web-2']
    # the task's own write is one PUT (the other client's is the first)
    assert len([w for w in emulator.writes() if w['method'] == 'PUT']) == 2


def test_a_write_undone_by_a_concurrent_writer_is_made_again(emulator, run):
    """Another client with an older read replaces the list right after the task's PUT: the read-back sees the added
    peer missing, and the delta is applied again to the list as that client left it (its peer kept)."""
    peers = make_peers(emulator, 'web-1', 'web-2', 'theirs')
    group = make_group(emulator, 'ops', [peers['web-1']])
    emulator.clear_log()
    path = '/api/groups/%s' % group['id']
    emulator.set_faults({'queue': [{'delay': 0.6, 'method': 'PUT', 'path': path}]})
    other = _after_first(emulator, 'PUT', path, lambda: emulator.ok(
        'PUT', path, {'name': 'ops', 'peers': [peers['web-1'], peers['theirs']]}))
    result = run([{'name': 'add', 'nms.overlay.group': {'name': 'ops', 'peers': ['web-2'], 'peers_mode': 'add'}}])
    other.join()
    assert result['add']['changed'] is True, result
    assert member_names(group_of(emulator, group['id'])) == ['theirs', 'web-1', 'web-2']
    puts = [w for w in emulator.writes() if w['method'] == 'PUT']
    assert len(puts) == 3, puts  # the task's, the other client's, the task's again
    assert member_names(result['add']['group']) == ['theirs', 'web-1', 'web-2']
