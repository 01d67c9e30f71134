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


def stored_rule(emulator, name='ssh-access'):
    return [policy for policy in emulator.ok('GET', '/api/policies') if policy['name'] == name][0]['rules'][0]


@pytest.mark.dialects('current')
def test_ssh_access_is_written_once_by_name_and_settles(emulator, run):
    ops = make_group(emulator, 'ops')['id']
    make_group(emulator, 'web')
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

    # a change of the users: the diff names the group
    emulator.clear_log()
    changed = run([policy_task(authorized_groups={'ops': []})], diff=True)
    assert changed['p']['changed'] is True, changed['p'].get('msg')
    assert changed['p']['diff']['before']['rules'][0]['authorized_groups'] == {'ops': ['deploy', 'root']}
    assert changed['p']['diff']['after']['rules'][0]['authorized_groups'] == {'ops': []}
    assert stored_rule(emulator)['authorized_groups'] == {ops: []}


@pytest.mark.dialects('current')
def test_the_servers_refusals_are_foreseen_before_any_write(emulator, run):
    make_group(emulator, 'ops')
    make_group(emulator, 'devs')
    make_group(emulator, 'web')
    emulator.clear_log()
    # a source group left out of authorized_groups: the server answers 422; the task names the group first
    missing = run([policy_task(sources=['ops', 'devs'])])
    msg = missing['p']['msg']
    assert missing.rc != 0 and 'option rules[0].authorized_groups' in msg and 'missing: devs' in msg, msg
    # another protocol: the server would drop it silently, so the task would never settle
    tcp = run([policy_task(protocol='tcp', ports=['22'])])
    msg = tcp['p']['msg']
    assert tcp.rc != 0 and 'option rules[0].authorized_groups: only with protocol netbird-ssh' in msg, msg
    # an unknown group, a user list that is no list, an empty local user
    unknown = run([policy_task(authorized_groups={'ops': ['root'], 'nobody here': ['root']})])
    assert unknown.rc != 0 and "nobody here" in unknown['p']['msg'] and 'authorized_groups' in unknown['p']['msg'], unknown['p']['msg']
    shape = run([policy_task(authorized_groups={'ops': 'root'})])
    assert shape.rc != 0 and 'rules[0].authorized_groups' in shape['p']['msg'], shape['p']['msg']
    blank = run([policy_task(authorized_groups={'ops': ['']})])
    assert blank.rc != 0 and 'rules[0].authorized_groups' in blank['p']['msg'], blank['p']['msg']
    assert emulator.writes() == []
    for result in (missing, tcp, unknown, shape, blank):
        assert 'Traceback' not in str(result['p'].get('msg')), result['p']


@pytest.mark.dialects('current')
def test_the_emulator_answers_as_v0771_does(emulator):
    """What the collection foresees, sent as is: the server's own answers (NetBird v0.77.1 policies_handler.go)."""
    ops, devs, web = (make_group(emulator, name)['id'] for name in ('ops', 'devs', 'web'))
    rule = {'name': 'ssh', 'enabled': True, 'action': 'accept', 'bidirectional': True, 'protocol': 'netbird-ssh',
            'sources': [ops, devs], 'destinations': [web], 'authorized_groups': {ops: ['root']}}
    body = {'name': 'raw', 'enabled': True, 'description': '', 'rules': [rule]}
    status, answer = emulator.api('POST', '/api/policies', body)
    assert status == 422 and 'authorized group for netbird-ssh protocol should be specified for each source group' in str(answer)
    # another protocol drops it silently; no map, or an empty one, is no SSH access list (answered without the key)
    made = emulator.ok('POST', '/api/policies', dict(body, rules=[dict(rule, protocol='tcp', ports=['22'])]))
    assert 'authorized_groups' not in made['rules'][0]
    made = emulator.ok('POST', '/api/policies', dict(body, rules=[dict(rule, authorized_groups={})]))
    assert 'authorized_groups' not in made['rules'][0]
    # kept in the order sent, an empty list of users too
    made = emulator.ok('POST', '/api/policies', dict(body, rules=[dict(rule, authorized_groups={ops: ['root', 'admin'], devs: []})]))
    assert made['rules'][0]['authorized_groups'] == {ops: ['root', 'admin'], devs: []}
    assert emulator.ok('GET', '/api/policies/%s' % made['id'])['rules'][0]['authorized_groups'] == {ops: ['root', 'admin'], devs: []}


@pytest.mark.dialects('current')
def test_a_changed_protocol_drops_what_it_cannot_hold(emulator, run):
    make_group(emulator, 'ops')
    make_group(emulator, 'web')
    assert run([policy_task()])['p']['changed'] is True
    emulator.clear_log()
    tcp = {'name': 'ssh-access', 'rules': [{'name': 'ssh', 'protocol': 'tcp', 'ports': ['22'], 'sources': ['ops'], 'destinations': ['web']}]}
    moved = run([{'name': 't', 'nms.overlay.policy': tcp}])
    assert moved['t']['changed'] is True, moved['t'].get('msg')
    assert 'authorized_groups' not in emulator.writes()[0]['body']['rules'][0]
    emulator.clear_log()
    assert run([{'name': 't', 'nms.overlay.policy': tcp}])['t']['changed'] is False
    assert emulator.writes() == []


@pytest.mark.dialects('netbird')
def test_an_older_server_refuses_it_by_name(emulator, run):
    make_group(emulator, 'ops')
    make_group(emulator, 'web')
    emulator.clear_log()
    old = run([policy_task()])
    msg = old['p']['msg']
    assert old.rc != 0 and 'option rules[0].authorized_groups: ' in msg and 'servers have it from v0.61.0 on' in msg, msg
    assert 'option rules[0].protocol: ' in msg and 'the protocol netbird-ssh' in msg, msg
    plain = run([{'name': 'p', 'nms.overlay.policy': {'name': 'ssh-access', 'rules': [
        {'name': 'ssh', 'protocol': 'netbird-ssh', 'sources': ['ops'], 'destinations': ['web']}]}}])
    assert plain.rc != 0 and 'servers have it from v0.61.0 on' in plain['p']['msg'], plain['p']['msg']
    assert emulator.writes() == []
    assert [entry['path'] for entry in emulator.requests()] == ['/api/instance/version'] * 2
    # what the server itself says (the collection's refusal stands in front of it)
    status, answer = emulator.api('POST', '/api/policies', {'name': 'raw', 'enabled': True, 'rules': [{
        'name': 'r', 'enabled': True, 'action': 'accept', 'bidirectional': True, 'protocol': 'netbird-ssh',
        'sources': [], 'destinations': []}]})
    assert status == 422 and 'unknown protocol type: netbird-ssh' in str(answer)
    # network_state: before its first write (the groups it would create first are not made)
    emulator.clear_log()
    state = run([{'name': 'n', 'nms.overlay.network_state': SSH_DESCRIPTION}])
    msg = state['n']['msg']
    assert state.rc != 0 and 'authorized_groups' in msg and 'servers have it from v0.61.0 on' in msg, msg
    assert emulator.writes() == []


SSH_DESCRIPTION = {
    'groups': [{'name': 'ssh admins'}, {'name': 'ssh hosts'}, {'name': 'ssh auditors'}],
    'policies': [{'name': 'admins ssh', 'rules': [{
        'name': 'ssh', 'protocol': 'netbird-ssh', 'sources': ['ssh admins'], 'destinations': ['ssh hosts'],
        'authorized_groups': {'ssh admins': ['ubuntu', 'root'], 'ssh auditors': []}}]}],
}


@pytest.mark.dialects('current')
def test_network_state_builds_it_with_the_groups_it_creates_and_exports_it_by_name(emulator, run):
    emulator.clear_log()
    preview = run([{'name': 'n', 'nms.overlay.network_state': SSH_DESCRIPTION}], check=True)
    assert preview['n']['changed'] is True, preview['n'].get('msg')
    assert emulator.writes() == []
    built = run([{'name': 'n', 'nms.overlay.network_state': SSH_DESCRIPTION}])
    assert built['n']['changed'] is True, built['n'].get('msg')
    ids = {group['name']: group['id'] for group in emulator.ok('GET', '/api/groups')}
    assert stored_rule(emulator, 'admins ssh')['authorized_groups'] == {ids['ssh admins']: ['root', 'ubuntu'], ids['ssh auditors']: []}
    emulator.clear_log()
    again = run([{'name': 'n', 'nms.overlay.network_state': SSH_DESCRIPTION}])
    assert again['n']['changed'] is False, again['n'].get('changes')
    assert emulator.writes() == []
    exported = run([{'name': 'e', 'nms.overlay.network_state': {'state': 'gathered'}}])['e']['gathered']
    rule = [policy for policy in exported['policies'] if policy['name'] == 'admins ssh'][0]['rules'][0]
    assert rule['authorized_groups'] == {'ssh admins': ['root', 'ubuntu'], 'ssh auditors': []}, rule
    # the group the rule names cannot go while the rule names it (the server would leave a dangling id)
    gone = run([{'name': 'g', 'nms.overlay.group': {'name': 'ssh auditors', 'state': 'absent'}}])
    assert gone.rc != 0 and "policy 'admins ssh' (rules[0].authorized_groups)" in gone['g']['msg'], gone['g']['msg']
    assert emulator.writes() == []


@pytest.mark.dialects('current')
def test_network_state_checks_its_groups_before_the_first_write(emulator, run):
    emulator.clear_log()
    wrong = dict(SSH_DESCRIPTION, policies=[dict(SSH_DESCRIPTION['policies'][0], rules=[dict(
        SSH_DESCRIPTION['policies'][0]['rules'][0], authorized_groups={'ssh admins': ['root'], 'ssh admin': ['root']})])])
    result = run([{'name': 'n', 'nms.overlay.network_state': wrong}])
    msg = result['n']['msg']
    assert result.rc != 0 and "'ssh admin'" in msg and 'authorized_groups' in msg, msg
    assert emulator.writes() == []
