# -*- coding: utf-8 -*-
"""Issue 46, item 10: network_state's group_memberships, peers added to or taken out of a group the description does
not own (it stays as the server has it otherwise: never created, deleted or pruned), in both dialects."""

from __future__ import annotations

import pytest

from tests.support.emulator import make_group, make_peers, writes_of


def state_task(name='network', **description):
    return {'name': name, 'nms.overlay.network_state': description}


def members(emulator, group_id):
    status, group = emulator.api('GET', '/api/groups/%s' % group_id)
    assert status == 200, group
    return sorted(p['name'] for p in group.get('peers') or [])


def test_memberships_add_and_remove_without_owning_the_group(emulator, run):
    peers = make_peers(emulator, 'web-1', 'web-2', 'db-1', 'theirs')
    ops = make_group(emulator, 'ops', [peers['theirs'], peers['db-1']])
    emulator.clear_log()
    description = dict(groups=[{'name': 'servers', 'peers': ['web-1']}],
                       group_memberships=[{'group': 'ops', 'peers': ['web-1', 'web-2']},
                                          {'group': 'All', 'peers': ['web-1']}],
                       prune=True)
    # the All group holds every peer: adding to it is no change
    planned = run([state_task(**description)], check=True, diff=True)
    assert planned.rc == 0, planned
    result = planned['network']
    assert result['summary']['groups'] == {'would_create': 1, 'would_update': 1, 'would_delete': 0, 'unchanged': 1}
    assert [c['name'] for c in result['changes']] == ['servers', 'ops']
    assert {'before_header': 'group ops', 'after_header': 'group ops', 'before': {'peers': []},
            'after': {'peers': ['web-1', 'web-2']}} in result['diff']
    assert emulator.writes() == []

    emulator.clear_log()
    done = run([state_task(**description)])
    assert done['network']['changed'] is True, done
    assert writes_of(emulator) == ['POST /api/groups', 'PUT /api/groups/%s' % ops['id']]
    # prune kept ops, which the description does not own but names
    assert members(emulator, ops['id']) == ['db-1', 'theirs', 'web-1', 'web-2']

    emulator.clear_log()
    again = run([state_task(**description)])
    assert again['network']['changed'] is False, again
    assert emulator.writes() == []

    emulator.clear_log()
    removed = run([state_task(group_memberships=[{'group': 'ops', 'peers': ['db-1', 'web-9'], 'mode': 'remove'}])],
                  diff=True)
    assert removed.rc != 0  # web-9 is no peer: refused before any write
    assert 'web-9' in removed['network']['msg']
    assert emulator.writes() == []
    removed = run([state_task(group_memberships=[{'group': 'ops', 'peers': ['db-1'], 'mode': 'remove'}])])
    assert removed['network']['changed'] is True
    assert members(emulator, ops['id']) == ['theirs', 'web-1', 'web-2']


@pytest.mark.parametrize('memberships, words', [
    ([{'group': 'nowhere', 'peers': ['web-1']}], "group_memberships[0] (nowhere): no group named 'nowhere' exists"),
    ([{'group': 'servers', 'peers': ['web-1']}], "group_memberships[0] (servers): the group 'servers' is described under groups"),
    ([{'group': 'ops', 'peers': ['web-1'], 'mode': 'set'}], 'value of mode must be one of: add, remove, got: set found in group_memberships'),
    ([{'group': 'ops', 'peers': ['web-1'], 'colour': 'red'}], 'colour'),
    ([{'peers': ['web-1']}], 'group'),
    (['ops'], 'group_memberships'),
    ([{'group': 'ops', 'peers': ['web-1']}, {'group': 'ops', 'peers': ['web-1'], 'mode': 'remove'}],
     'describe the same group'),
])
def test_bad_memberships_fail_before_any_write(emulator, run, memberships, words):
    make_peers(emulator, 'web-1')
    make_group(emulator, 'ops')
    emulator.clear_log()
    result = run([state_task(groups=[{'name': 'servers'}], group_memberships=memberships)])
    assert result.rc != 0, result
    assert words in result['network']['msg'], result['network']['msg']
    assert emulator.writes() == []
