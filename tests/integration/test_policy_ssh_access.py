# -*- coding: utf-8 -*-
"""Issue 46, 13: a policy rule's SSH access (authorized_groups, with protocol netbird-ssh; NetBird v0.61.0 on), by group
name, on the emulator's two dialects: created once and re-run unchanged (local users compared as a set), kept by an
update that does not set it, the server's refusals foreseen before any write, an older server refused by name."""

from __future__ import annotations

import pytest

from tests.support.emulator import make_group, writes_of

RULE = {'name': 'ssh', 'protocol': 'netbird-ssh', 'sources': ['ops'], 'destinations': ['web'],
        'authorized_groups': {'ops': ['root', 'deploy']}}


def policy_task(label='p', name='ssh-access', **rule):
    return {'name': label, 'nms.overlay.policy': {'name': name, 'rules': [dict(RULE, **rule)]}}


def needs_current(emulator):
    if emulator.dialect != 'current':
        pytest.skip('needs the current dialect (a v0.77.1 server)')


def stored_rule(emulator, name='ssh-access'):
    return [policy for policy in emulator.ok('GET', '/api/policies') if policy['name'] == name][0]['rules'][0]


def test_ssh_access_is_written_once_by_name_and_settles(emulator, run):
    needs_current(emulator)
    ops, web = make_group(emulator, 'ops')['id'], make_group(emulator, 'web')['id']
    emulator.clear_log()
    planned = run([policy_task()], check=True, diff=True)
    assert planned['p']['changed'] is True, planned['p'].get('msg')
    assert emulator.writes() == []
    assert planned['p']['diff']['after']['rules'][0]['authorized_groups'] == {'ops': ['deploy', 'root']}

    made = run([policy_task()])
    assert made['p']['changed'] is True, made['p'].get('msg')
    assert writes_of(emulator) == ['POST /api/policies']
    assert emulator.writes()[0]['body']['rules'][0]['authorized_groups'] == {ops: ['deploy', 'root']}
    assert made['p']['policy']['rules'][0]['authorized_groups'] == {ops: ['deploy', 'root']}
    assert stored_rule(emulator)['authorized_groups'] == {ops: ['deploy', 'root']}

    # the same users in another order, twice over, and the group by id: nothing to do
    emulator.clear_log()
    again = run([policy_task(authorized_groups={ops: ['root', 'deploy', 'root']})], diff=True)
    assert again['p']['changed'] is False, again['p'].get('diff')
    assert emulator.writes() == []
    check = run([policy_task()], check=True)
    assert check['p']['changed'] is False and emulator.writes() == []

    # the same through network_state
    described = {'policies': [{'name': 'ssh-access', 'rules': [dict(RULE, authorized_groups={'ops': ['deploy', 'root']})]}]}
    state = run([{'name': 'n', 'nms.overlay.network_state': described}])
    assert state['n']['changed'] is False, state['n'].get('changes')
    assert emulator.writes() == []

    # an update that does not set it sends back what the server holds
    described_only = {'name': 'ssh-access', 'description': 'admins log in', 'rules': [
        {'name': 'ssh', 'sources': ['ops'], 'destinations': ['web']}]}
    emulator.clear_log()
    kept = run([{'name': 'd', 'nms.overlay.policy': described_only}])
    assert kept['d']['changed'] is True, kept['d'].get('msg')
    assert writes_of(emulator) == ['PUT /api/policies/%s' % kept['d']['policy']['id']]
    assert emulator.writes()[0]['body']['rules'][0]['authorized_groups'] == {ops: ['deploy', 'root']}
    assert stored_rule(emulator)['authorized_groups'] == {ops: ['deploy', 'root']}
    del web

    # a change of the users: the diff names the group
    emulator.clear_log()
    changed = run([policy_task(authorized_groups={'ops': []})], diff=True)
    assert changed['p']['changed'] is True, changed['p'].get('msg')
    assert changed['p']['diff']['before']['rules'][0]['authorized_groups'] == {'ops': ['deploy', 'root']}
    assert changed['p']['diff']['after']['rules'][0]['authorized_groups'] == {'ops': []}
    assert stored_rule(emulator)['authorized_groups'] == {ops: []}
