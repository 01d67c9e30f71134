# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The wait of a membership write before its read-back (plugins/module_utils/_store.py ``write_members``), proved
directly: as long as this client's own read and write took, SETTLE_FLOOR at least, MAX_SETTLE at most, and the read-back
only after it. A read-back that came too soon would miss a concurrent writer's lost update and call the write done; the
other tests see the wait only through the engine, where a fast fake server makes the floor every wait there is."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._store import MAX_SETTLE
from ansible_collections.nms.overlay.plugins.module_utils._store import SETTLE_FLOOR, write_members

GROUP_PATH = '/groups/g1'


class TimedGroupServer:
    """One group on a server whose reads and writes each take ``takes`` seconds on the fake clock. ``events`` is what
    happened in order: ('get', path), ('put', path) and ('sleep', seconds) for each wait the clock recorded in
    between (the clock tells its waits, not when they came, so each call first puts the waits since the last one)."""

    root = 'https://nms.example'

    def __init__(self, clock, takes):
        self.clock, self.takes = clock, takes
        self.group = {'id': 'g1', 'name': 'dev', 'peers': []}
        self.events, self.waits_told = [], 0

    def tell_waits(self):
        """Put the clock's waits since the last call into ``events``, before the call about to be recorded."""
        self.events.extend(('sleep', seconds) for seconds in self.clock.waits[self.waits_told:])
        self.waits_told = len(self.clock.waits)

    def get_object(self, path):
        self.tell_waits()
        self.events.append(('get', path))
        self.clock.advance(self.takes)
        return dict(self.group, peers=list(self.group['peers']))

    def put(self, path, body):
        self.tell_waits()
        self.events.append(('put', path))
        self.clock.advance(self.takes)
        self.group = dict(body, id='g1')
        return dict(self.group)


class FakeTask:
    """What write_members asks of the running task: its client, its resolver (unused: no ``kind`` is given) and what
    it manages, for messages."""

    def __init__(self, client):
        self.client, self.resolver, self.what = client, None, 'the peer p1'


def add_peer(clock, takes):
    """Add the peer p1 to the group on a server whose every request takes ``takes`` seconds; the server, whose events
    end with the waits after the last call, and the group as read back."""
    server = TimedGroupServer(clock, takes)
    group = write_members(FakeTask(server), GROUP_PATH, 'peers', ['p1'], [], ('id',), 'group')
    server.tell_waits()
    return server, group


def test_a_fast_read_and_write_still_wait_the_settle_floor(clock):
    # the read and the write took 0.02 s: a concurrent writer's read-to-write window is not this client's own, so
    # the read-back waits the floor, not the 0.02 s, else it comes before that writer's undoing PUT lands
    server, group = add_peer(clock, takes=0.01)
    took = 2 * server.takes
    assert group['peers'] == ['p1']
    assert clock.waits == [pytest.approx(SETTLE_FLOOR)]
    assert clock.waits[0] >= SETTLE_FLOOR and clock.waits[0] > took


def test_a_slow_read_and_write_wait_as_long_as_they_took(clock):
    # 1.2 s from the read to the end of the write: above the floor, below MAX_SETTLE, so the wait is what it took
    server, _group = add_peer(clock, takes=0.6)
    assert SETTLE_FLOOR < 2 * server.takes < MAX_SETTLE
    assert clock.waits == [pytest.approx(1.2)]


def test_a_very_slow_read_and_write_wait_max_settle_at_most(clock):
    # 10 s from the read to the end of the write (a stalled server): the wait stops at MAX_SETTLE
    _server, _group = add_peer(clock, takes=5.0)
    assert clock.waits == [MAX_SETTLE]


@pytest.mark.parametrize('takes', [0.01, 0.6, 5.0])
def test_the_read_back_comes_after_the_wait(clock, takes):
    # the object is read, the members written, then the wait, and only then the read-back; and nothing after it
    server, _group = add_peer(clock, takes)
    assert [event[0] for event in server.events] == ['get', 'put', 'sleep', 'get']
    assert [event[1] for event in server.events if event[0] != 'sleep'] == [GROUP_PATH] * 3
