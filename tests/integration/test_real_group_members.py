# -*- coding: utf-8 -*-
"""Issue 46, item 10, on the real v0.27.6 and v0.77.1 (``make real``): group's peers_mode add and remove, and
network_state's group_memberships, write only the delta (one PUT), keep the members others put in the group, and a
re-run writes nothing."""

from __future__ import annotations

import pytest

from tests.integration.test_real_servers import connection, started
from tests.support.emulator import writes_of
from tests.support.realserver import RELEASES

pytestmark = pytest.mark.real


@pytest.fixture(scope='module', params=RELEASES)
def server(request):
    yield from started(request.param)


def members(server, group_id):
    return sorted(p['name'] for p in server.ok('GET', '/groups/%s' % group_id).get('peers') or [])


def test_peers_mode_and_group_memberships_on_the_real_server(server, run):  # pylint: disable=redefined-outer-name
    env = connection(server)
    peers = sorted(server.ok('GET', '/peers'), key=lambda peer: peer['name'])
    first, second, third = [peer['name'] for peer in peers[:3]]
    group = server.ok('POST', '/groups', {'name': 'members-ops', 'peers': [peers[0]['id']]})
    try:
        add = {'name': 'add', 'nms.overlay.group': {'name': 'members-ops', 'peers': [first, second], 'peers_mode': 'add'}}
        server.clear_log()
        done = run([add], env=env, diff=True)
        assert done.rc == 0, done
        assert done['add']['changed'] is True
        assert done['add']['diff']['after'] == {'peers': [second]} and done['add']['diff']['before'] == {'peers': []}
        assert writes_of(server) == ['PUT /api/groups/%s' % group['id']]
        assert members(server, group['id']) == sorted([first, second])

        server.clear_log()
        again = run([add], env=env)
        assert again['add']['changed'] is False and server.writes() == []

        server.clear_log()
        state = {'name': 'state', 'nms.overlay.network_state': {
            'group_memberships': [{'group': 'members-ops', 'peers': [third]},
                                  {'group': 'members-ops-2', 'peers': [third]}]}}
        refused = run([state], env=env)
        assert refused.rc != 0 and "no group named 'members-ops-2' exists" in refused['state']['msg']
        assert server.writes() == []
        state['nms.overlay.network_state']['group_memberships'].pop()
        joined = run([state], env=env)
        assert joined['state']['changed'] is True, joined
        assert writes_of(server) == ['PUT /api/groups/%s' % group['id']]
        assert members(server, group['id']) == sorted([first, second, third])

        server.clear_log()
        removed = run([{'name': 'remove', 'nms.overlay.group': {
            'name': 'members-ops', 'peers': [first, third], 'peers_mode': 'remove'}}], env=env)
        assert removed['remove']['changed'] is True
        assert writes_of(server) == ['PUT /api/groups/%s' % group['id']]
        assert members(server, group['id']) == [second]
    finally:
        server.api('DELETE', '/groups/%s' % group['id'])
