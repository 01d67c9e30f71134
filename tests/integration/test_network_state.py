# -*- coding: utf-8 -*-
"""nms.overlay.network_state: deletions that references would block, request counts, the key in changes."""

from __future__ import annotations

import pytest

from tests.support.emulator import writes_of as writes
from tests.support.modules import doc_of


def state_task(name='network', **description):
    return {'name': name, 'nms.overlay.network_state': description}


def reads(emulator):
    return sorted(r['path'] for r in emulator.requests() if r['method'] == 'GET')


def groups(emulator):
    status, items = emulator.api('GET', '/api/groups')
    assert status == 200, items
    return {g['name']: g['id'] for g in items}


def enroll(emulator, hostname):
    status, key = emulator.api('POST', '/api/setup-keys', {
        'name': 'enroll', 'type': 'one-off', 'expires_in': 86400, 'auto_groups': [], 'usage_limit': 0, 'revoked': False})
    assert status == 200, key
    return emulator.enroll(key['key'], hostname)['id']


ABC = [{'name': 'a'}, {'name': 'b'}, {'name': 'c'}]
ROUTE = {'network_id': 'n', 'network': '10.1.0.0/16', 'peer': 'web-1', 'groups': ['b']}


@pytest.mark.parametrize('check', [False, True], ids=['run', 'check'])
def test_prune_of_a_group_a_described_route_uses_fails_before_any_write(emulator, run, check):
    enroll(emulator, 'web-1')
    assert run([state_task(groups=ABC)]).rc == 0
    ids = groups(emulator)
    emulator.clear_log()
    result = run([state_task(groups=[{'name': 'a'}], routes=[ROUTE], prune=True)], check=check)
    failed = result['network']
    assert failed['failed'] is True
    assert failed['msg'] == (
        "nothing was changed: this deletion would fail, because groups (b) (id %s) is used by route 'n' (groups); "
        "remove the reference from what uses it (on the server, or in the description), or describe that with state: "
        "absent too" % ids['b'])
    assert 'changes' not in failed
    assert writes(emulator) == []
    assert sorted(groups(emulator)) == ['All', 'a', 'b', 'c']
    status, routes = emulator.api('GET', '/api/routes')
    assert routes == []


def test_prune_lists_every_deletion_that_what_stays_on_the_server_blocks(emulator, run):
    peer = enroll(emulator, 'web-1')
    assert run([state_task(groups=ABC + [{'name': 'd'}, {'name': 'e'}])]).rc == 0
    ids = groups(emulator)
    # none of these kinds is described: they all stay as they are
    assert emulator.api('POST', '/api/setup-keys', {
        'name': 'ci', 'type': 'reusable', 'expires_in': 86400, 'auto_groups': [ids['b']], 'usage_limit': 0,
        'revoked': False})[0] == 200
    user = emulator.add_user('member@example.com')
    assert emulator.api('PUT', '/api/users/' + user['id'], {'role': 'user', 'auto_groups': [ids['c']],
                                                            'is_blocked': False})[0] == 200
    assert emulator.api('PUT', '/api/dns/settings', {'disabled_management_groups': [ids['c']]})[0] == 200
    assert emulator.api('POST', '/api/policies', {
        'name': 'pol', 'description': '', 'enabled': True, 'source_posture_checks': [],
        'rules': [{'name': 'r', 'description': '', 'enabled': True, 'action': 'accept', 'bidirectional': True,
                   'protocol': 'all', 'sources': [ids['a']], 'destinations': [ids['d']]}]})[0] == 200
    # the server does not check a route's peer_groups: network_state does
    assert emulator.api('POST', '/api/routes', {
        'network_id': 'lan', 'description': '', 'network': '10.9.0.0/16', 'metric': 9999, 'masquerade': True,
        'enabled': True, 'groups': [ids['a']], 'peer_groups': [ids['e']]})[0] == 200
    assert peer
    emulator.clear_log()
    for check in (True, False):
        result = run([state_task(groups=[{'name': 'a'}], prune=True)], check=check)
        message = result['network']['msg']
        assert result['network']['failed'] is True
        assert message.startswith('nothing was changed: these deletions would fail, because '), message
        for text in ("groups (b) (id %s) is used by setup key 'ci' (auto_groups)" % ids['b'],
                     "groups (c) (id %s) is used by the DNS settings (disabled_management_groups), "
                     "user 'member@example.com' (auto_groups)" % ids['c'],
                     "groups (d) (id %s) is used by policy 'pol' (rules[0].destinations)" % ids['d'],
                     "groups (e) (id %s) is used by route 'lan' (peer_groups)" % ids['e']):
            assert text in message, message
    assert writes(emulator) == []
    assert sorted(groups(emulator)) == ['All', 'a', 'b', 'c', 'd', 'e']


def test_prune_goes_ahead_when_the_run_leaves_the_group_unused_and_reads_each_kind_once(emulator, run):
    enroll(emulator, 'web-1')
    assert run([state_task(groups=ABC, routes=[ROUTE])]).rc == 0
    ids = groups(emulator)

    # an unchanged re-run with prune: one read per described and referenced kind, no write, as without prune
    emulator.clear_log()
    same = run([state_task(groups=ABC, routes=[ROUTE], prune=True)])
    assert same['network']['changed'] is False
    assert writes(emulator) == []
    assert reads(emulator) == ['/api/groups', '/api/peers', '/api/routes']

    # the route moves to a: b and c can go, and the reads each kind that can use a group once
    emulator.clear_log()
    preview = run([state_task(groups=[{'name': 'a'}], routes=[dict(ROUTE, groups=['a'])], prune=True)], check=True)
    assert preview.rc == 0, preview.stdout
    assert writes(emulator) == []
    emulator.clear_log()
    done = run([state_task(groups=[{'name': 'a'}], routes=[dict(ROUTE, groups=['a'])], prune=True)])
    assert done.rc == 0, done.stdout
    changes = sorted((c['kind'], c['name'], c['action']) for c in done['network']['changes'])
    assert changes == [('groups', 'b', 'deleted'), ('groups', 'c', 'deleted'), ('routes', 'n', 'updated')]
    assert changes == sorted((c['kind'], c['name'], c['action']) for c in preview['network']['changes'])
    assert reads(emulator) == ['/api/dns/nameservers', '/api/dns/settings', '/api/groups', '/api/peers', '/api/policies',
                               '/api/routes', '/api/setup-keys', '/api/users']
    assert sorted(writes(emulator)) == sorted(['PUT /api/routes/' + emulator.api('GET', '/api/routes')[1][0]['id'],
                                               'DELETE /api/groups/' + ids['b'], 'DELETE /api/groups/' + ids['c']])


def test_a_group_described_absent_that_a_later_kind_uses_fails_before_any_write(emulator, run):
    enroll(emulator, 'web-1')
    route = {'network_id': 'n', 'network': '10.1.0.0/16', 'peer_groups': ['b'], 'groups': ['a']}
    made = run([state_task(groups=ABC, routes=[route])])
    assert made.rc == 0, made['network']
    ids = groups(emulator)
    emulator.clear_log()
    result = run([state_task(groups=[{'name': 'new'}, {'name': 'b', 'state': 'absent'}])])
    assert result['network']['failed'] is True
    assert "groups[1] (b) (id %s) is used by route 'n' (peer_groups)" % ids['b'] in result['network']['msg']
    assert writes(emulator) == []


def test_a_created_setup_key_value_is_in_its_change_as_documented(emulator, run):
    returns = doc_of('network_state', 'RETURN')
    changes = returns['changes']
    # the docs say the value is there once, on create, and never in a failure result
    text = ' '.join(changes['description'])
    assert "In a failure result (which Ansible prints in full) it never holds a setup key's value" in text, text
    assert "It never holds a setup key's value" not in text
    assert 'created' in changes['contains']['key']['returned']
    key = {'name': 'ci', 'type': 'reusable', 'expires_in': 86400}
    first = run([state_task(setup_keys=[key])])
    created = first['network']['changes']
    assert [c['kind'] for c in created] == ['setup_keys'] and len(created[0]['key']) >= 16
    again = run([state_task(setup_keys=[key])])
    assert again['network']['changes'] == []


def test_a_server_refusal_part_way_reports_what_was_changed_without_the_key_value(emulator, run):
    """The server may still refuse a deletion the checks allowed (here a queued 400): the failure lists the changes."""
    assert emulator.api('POST', '/api/groups', {'name': 'stray'})[0] == 200
    stray = groups(emulator)['stray']
    emulator.set_faults({'queue': [{'status': 400, 'method': 'DELETE', 'content_type': 'application/json',
                                    'body': '{"message": "refused", "code": 400}'}]})
    key = {'name': 'ci', 'type': 'reusable', 'expires_in': 86400}
    result = run([state_task(groups=[{'name': 'new'}], setup_keys=[key], prune=True)])
    failed = result['network']
    assert failed['failed'] is True and failed['changed'] is True
    assert failed['msg'] == 'groups (stray): DELETE %s/api/groups/%s failed with HTTP 400: refused' % (emulator.url, stray), \
        failed['msg']
    assert failed['method'] == 'DELETE' and failed['status'] == 400
    assert [(c['kind'], c['name'], c['action']) for c in failed['changes']] == [
        ('groups', 'new', 'created'), ('setup_keys', 'ci', 'created')]
    assert all('key' not in change for change in failed['changes'])
    value = [k['key'] for k in emulator.state()['setup_keys'] if k['name'] == 'ci'][0]
    assert value not in result.stdout
