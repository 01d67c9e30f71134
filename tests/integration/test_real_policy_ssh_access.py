# -*- coding: utf-8 -*-
"""Issue 46, 13: a policy rule's SSH access (authorized_groups with protocol netbird-ssh) on the real servers
(tests/support/realserver.py; the real-server stage, ``make real``): on v0.77.1 written once by group name, re-run,
previewed and described by network_state with no write, kept by an update that does not set it, its 422 foreseen;
the server's own answers, which the emulator copies; on v0.27.6 refused by name before any write."""

from __future__ import annotations

import pytest

from tests.integration.test_real_servers import connection, started
from tests.support.emulator import writes_of
from tests.support.realserver import RELEASES

pytestmark = pytest.mark.real

RULE = {'name': 'ssh', 'protocol': 'netbird-ssh', 'sources': ['ssh-ops'], 'destinations': ['ssh-web'],
        'authorized_groups': {'ssh-ops': ['root', 'deploy']}}


@pytest.fixture(scope='module', params=RELEASES)
def real_server(request):
    yield from started(request.param)


def policy_task(label='p', name='ssh-access', **rule):
    return {'name': label, 'nms.overlay.policy': {'name': name, 'rules': [dict(RULE, **rule)]}}


def group_id(server, name):
    found = [group['id'] for group in server.ok('GET', '/groups') if group['name'] == name]
    return found[0] if found else server.ok('POST', '/groups', {'name': name, 'peers': []})['id']


def raw_rule(**fields):
    rule = {'name': 'raw', 'enabled': True, 'action': 'accept', 'bidirectional': True, 'protocol': 'netbird-ssh'}
    rule.update(fields)
    return {'name': 'raw-ssh', 'enabled': True, 'description': '', 'rules': [rule]}


def test_ssh_access_on_the_real_server(real_server, run):
    env = connection(real_server)
    ops, devs, web = (group_id(real_server, name) for name in ('ssh-ops', 'ssh-devs', 'ssh-web'))
    real_server.clear_log()
    if real_server.release != 'v0.77.1':
        old = run([policy_task()], env=env)
        msg = old['p']['msg']
        assert old.rc != 0 and 'option rules[0].authorized_groups: ' in msg and 'servers have it from v0.61.0 on' in msg, msg
        assert 'the protocol netbird-ssh' in msg, msg
        assert real_server.writes() == []
        status, answer = real_server.api('POST', '/policies', raw_rule(sources=[ops], destinations=[web]))
        assert status == 422 and 'unknown protocol type: netbird-ssh' in str(answer), (status, answer)
        return

    # the server's own answers (what the emulator copies)
    status, answer = real_server.api('POST', '/policies', raw_rule(
        sources=[ops, devs], destinations=[web], authorized_groups={ops: ['root']}))
    assert status == 422 and 'authorized group for netbird-ssh protocol should be specified for each source group' in str(answer)
    made = real_server.ok('POST', '/policies', raw_rule(
        sources=[ops, devs], destinations=[web], authorized_groups={ops: ['root', 'admin'], devs: []}))
    assert made['rules'][0]['authorized_groups'] == {ops: ['root', 'admin'], devs: []}, made
    assert real_server.ok('GET', '/policies/%s' % made['id'])['rules'][0]['authorized_groups'] == {ops: ['root', 'admin'], devs: []}
    dropped = real_server.ok('POST', '/policies', raw_rule(
        sources=[ops], destinations=[web], protocol='tcp', ports=['22'], authorized_groups={ops: ['root']}))
    assert 'authorized_groups' not in dropped['rules'][0], dropped
    for policy in (made, dropped):
        real_server.ok('DELETE', '/policies/%s' % policy['id'])

    real_server.clear_log()
    check = run([policy_task()], env=env, check=True)
    assert check['p']['changed'] is True and real_server.writes() == []
    first = run([policy_task()], env=env, diff=True)
    assert first.rc == 0, first
    assert writes_of(real_server) == ['POST /api/policies']
    assert first['p']['diff']['after']['rules'][0]['authorized_groups'] == {'ssh-ops': ['deploy', 'root']}
    policy_id = first['p']['policy']['id']
    assert real_server.ok('GET', '/policies/%s' % policy_id)['rules'][0]['authorized_groups'] == {ops: ['deploy', 'root']}

    real_server.clear_log()
    again = run([policy_task(authorized_groups={'ssh-ops': ['root', 'deploy', 'root']})], env=env)
    assert again['p']['changed'] is False, again['p']
    preview = run([policy_task()], env=env, check=True)
    assert preview['p']['changed'] is False
    state = run([{'name': 'n', 'nms.overlay.network_state': {'policies': [dict(name='ssh-access', rules=[RULE])]}}], env=env)
    assert state['n']['changed'] is False, state['n'].get('changes')
    assert real_server.writes() == []

    # an update that does not set it keeps it; a source group left out is refused before the write
    kept = run([{'name': 'd', 'nms.overlay.policy': {'name': 'ssh-access', 'description': 'admins log in'}}], env=env)
    assert kept['d']['changed'] is True and writes_of(real_server) == ['PUT /api/policies/%s' % policy_id]
    assert real_server.ok('GET', '/policies/%s' % policy_id)['rules'][0]['authorized_groups'] == {ops: ['deploy', 'root']}
    real_server.clear_log()
    missing = run([policy_task(sources=['ssh-ops', 'ssh-devs'])], env=env)
    assert missing.rc != 0 and 'missing: ssh-devs' in missing['p']['msg'], missing['p']['msg']
    assert real_server.writes() == []

    gone = run([{'name': 'x', 'nms.overlay.policy': {'name': 'ssh-access', 'state': 'absent'}}], env=env)
    assert gone['x']['changed'] is True
