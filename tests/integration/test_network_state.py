# -*- coding: utf-8 -*-
"""nms.overlay.network_state: deletions that references would block, request counts, the key in changes."""

from __future__ import annotations

import copy

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
    assert preview.rc == 0, preview
    assert writes(emulator) == []
    emulator.clear_log()
    done = run([state_task(groups=[{'name': 'a'}], routes=[dict(ROUTE, groups=['a'])], prune=True)])
    assert done.rc == 0, done
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
    result = run([state_task(groups=[{'name': 'new'}], setup_keys=[key], prune=True)], ansible=True)  # output checked
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


# -- networks (with resources and routers) and DNS zones (with records) ---------------------------------------------
NET_GROUPS = [{'name': 'office'}, {'name': 'lan'}]
NETWORK = {'name': 'office', 'description': 'the office LAN',
           'resources': [{'name': 'office-lan', 'address': '192.168.10.0/24', 'groups': ['lan']}],
           'routers': [{'peer': 'gw-1', 'metric': 100}]}
ZONE = {'name': 'Office', 'domain': 'office.example.com', 'distribution_groups': ['office'],
        'records': [{'name': 'printer.office.example.com', 'type': 'A', 'content': '192.168.10.20', 'ttl': 300}]}


def listed(emulator, path, key='name'):
    status, items = emulator.api('GET', path)
    assert status == 200, items
    return {item[key]: item for item in items or []}


def done(result):
    return sorted((c['kind'], c['name'], c['action'], c['pruned']) for c in result['network']['changes'])


def test_networks_and_dns_zones_build_settle_change_prune_and_tear_down(emulator, run):
    if emulator.dialect != 'current':
        pytest.skip('Networks and DNS zones exist on servers after v0.27 (refused: see the next test)')
    gateway = enroll(emulator, 'gw-1')
    described = dict(groups=NET_GROUPS, networks=[NETWORK], dns_zones=[ZONE])

    # a preview first: nested entries are planned under their parent's placeholder, nothing is written or read there
    emulator.clear_log()
    preview = run([state_task(**described)], check=True, diff=True)
    assert preview.rc == 0, preview
    assert writes(emulator) == []
    assert not [r['path'] for r in emulator.requests() if '(new' in r['path']], emulator.requests()
    headers = [d['before_header'] for d in preview['network']['diff']]
    assert 'network resource office-lan' in headers and 'DNS record printer.office.example.com' in headers, headers

    built = run([state_task(**described)])
    assert built.rc == 0, built
    assert done(built) == done(preview) == sorted([
        ('groups', 'office', 'created', False), ('groups', 'lan', 'created', False),
        ('networks', 'office', 'created', False), ('network_resources', 'office-lan', 'created', False),
        ('network_routers', 'gw-1', 'created', False), ('dns_zones', 'office.example.com', 'created', False),
        ('dns_records', 'printer.office.example.com', 'created', False)])
    network = listed(emulator, '/api/networks')['office']
    resources = listed(emulator, '/api/networks/%s/resources' % network['id'])
    assert resources['office-lan']['groups'][0]['id'] == groups(emulator)['lan']
    routers = emulator.api('GET', '/api/networks/%s/routers' % network['id'])[1]
    assert [(r['peer'], r['metric']) for r in routers] == [(gateway, 100)]
    zone = listed(emulator, '/api/dns/zones', key='domain')['office.example.com']
    assert [r['content'] for r in emulator.api('GET', '/api/dns/zones/%s/records' % zone['id'])[1]] == ['192.168.10.20']

    # the same description again: no write
    emulator.clear_log()
    again = run([state_task(**described)])
    assert again['network']['changed'] is False, again['network']['changes']
    assert writes(emulator) == []

    # one resource's address changes: one PUT, under its network, with its diff
    moved = copy.deepcopy(described)
    moved['networks'][0]['resources'][0]['address'] = '192.168.11.0/24'
    emulator.clear_log()
    update = run([state_task(**moved)], diff=True)
    assert writes(emulator) == ['PUT /api/networks/%s/resources/%s' % (network['id'], resources['office-lan']['id'])]
    assert update['network']['diff'] == [{'before_header': 'network resource office-lan', 'after_header': 'network resource office-lan',
                                          'before': {'address': '192.168.10.0/24'}, 'after': {'address': '192.168.11.0/24'}}]

    # prune: what the described network and zone hold beyond their lists goes, with the undescribed zone; the routers,
    # which the description no longer lists, stay
    assert emulator.api('POST', '/api/networks/%s/resources' % network['id'], {
        'name': 'stray', 'address': '10.9.9.9', 'groups': [groups(emulator)['lan']], 'enabled': True})[0] == 200
    assert emulator.api('POST', '/api/dns/zones', {'name': 'Lab', 'domain': 'lab.example.com',
                                                   'distribution_groups': [groups(emulator)['office']]})[0] == 200
    del moved['networks'][0]['routers']
    emulator.clear_log()
    pruned_preview = run([state_task(prune=True, **moved)], check=True)
    assert writes(emulator) == []
    pruned = run([state_task(prune=True, **moved)])
    assert pruned.rc == 0, pruned
    assert done(pruned) == done(pruned_preview) == [
        ('dns_zones', 'lab.example.com', 'deleted', True), ('network_resources', 'stray', 'deleted', True)]
    assert sorted(listed(emulator, '/api/networks/%s/resources' % network['id'])) == ['office-lan']
    assert len(emulator.api('GET', '/api/networks/%s/routers' % network['id'])[1]) == 1
    assert sorted(listed(emulator, '/api/dns/zones', key='domain')) == ['office.example.com']

    # teardown: each item absent; the network and the zone go with what is in them, before the groups they use
    teardown = {kind: [dict(item, state='absent') for item in items] for kind, items in moved.items()}
    emulator.clear_log()
    down = run([state_task(**teardown)])
    assert down.rc == 0, down
    assert [w.split('/')[2] for w in writes(emulator)] == ['dns', 'networks', 'groups', 'groups']
    assert listed(emulator, '/api/networks') == {} and listed(emulator, '/api/dns/zones') == {}
    assert sorted(groups(emulator)) == ['All']
    emulator.clear_log()
    assert run([state_task(**teardown)])['network']['changed'] is False
    assert writes(emulator) == []


def test_networks_and_dns_zones_are_refused_by_a_v027_server_before_any_request_but_its_version(emulator, run):
    if emulator.dialect == 'current':
        pytest.skip('a v0.77 server has Networks and DNS zones (see the test before)')
    emulator.clear_log()
    result = run([state_task(groups=NET_GROUPS, networks=[NETWORK], dns_zones=[ZONE])], check=True)
    refused = result['network']
    assert refused['failed'] is True
    assert refused['msg'] == (
        'nothing was changed: networks[0] (office): this server (v0.27: it has no GET /api/instance/version) does not '
        'have Networks, which came with NetBird v0.35.0; upgrade the server to v0.64.2 or later (the first release that '
        'answers GET /api/instance/version) to manage them; dns_zones[0] (office.example.com): this server (v0.27: it '
        'has no GET /api/instance/version) does not have DNS zones, which came with NetBird v0.63.0; upgrade the server '
        'to v0.64.2 or later (the first release that answers GET /api/instance/version) to manage them'), refused['msg']
    assert [r['path'] for r in emulator.requests()] == ['/api/instance/version']
    # empty lists are nothing to do there, also with prune
    built = run([state_task(groups=NET_GROUPS, networks=[], dns_zones=[], prune=True)])
    assert built.rc == 0, built
    assert sorted(groups(emulator)) == ['All', 'lan', 'office']
    assert not [r['path'] for r in emulator.requests() if r['path'].startswith(('/api/networks', '/api/dns/zones'))]
