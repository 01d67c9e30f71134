# -*- coding: utf-8 -*-
"""nms.overlay.network, network_resource, network_router and their info modules: on a v0.77 server (the `current`
dialect) every step of their lifecycle; on a v0.27 server (`netbird`) a refusal before any write."""

from __future__ import annotations

import pytest

from tests.support.emulator import make_group, make_peers, writes_of
from tests.support.modules import examples_of

REFUSAL = ('does not have Networks, which came with NetBird v0.35.0; upgrade the server to v0.64.2 or later (the first release '
           'that answers GET /api/instance/version) to manage them')


def needs(emulator, dialect):
    if emulator.dialect != dialect:
        pytest.skip('needs the %s dialect' % dialect)


def make_network(emulator, name='office', description=''):
    return emulator.ok('POST', '/api/networks', {'name': name, 'description': description})


def listed(emulator, path):
    status, items = emulator.api('GET', path)
    assert status == 200, items
    return items


# -- network ---------------------------------------------------------------------------------------
def test_network_create_rerun_check_diff_update_delete(emulator, run):
    needs(emulator, 'current')
    task = {'name': 'network', 'nms.overlay.network': {'name': 'office', 'description': 'Office LAN'}}
    first = run([task])
    assert first.rc == 0, first
    created = first['network']['network']
    assert first['network']['changed'] is True and created['name'] == 'office'
    assert (created['routers'], created['resources'], created['policies']) == ([], [], [])
    assert writes_of(emulator) == ['POST /api/networks']

    emulator.clear_log()
    again = run([task])
    assert again.rc == 0, again
    assert again['network']['changed'] is False and emulator.writes() == []

    emulator.clear_log()
    check = run([{'name': 'network', 'nms.overlay.network': {'name': 'office', 'description': 'Head office'}}],
                check=True, diff=True)
    assert check.rc == 0, check
    assert check['network']['changed'] is True and check['network']['network']['description'] == 'Head office'
    assert check['network']['diff'] == {'before': {'description': 'Office LAN'}, 'after': {'description': 'Head office'}}
    assert emulator.writes() == []

    emulator.clear_log()
    rename = run([{'name': 'network', 'nms.overlay.network': {'id': created['id'], 'name': 'head-office'}}], diff=True)
    assert rename.rc == 0, rename
    assert rename['network']['diff'] == {'before': {'name': 'office'}, 'after': {'name': 'head-office'}}
    assert writes_of(emulator) == ['PUT /api/networks/%s' % created['id']]
    assert emulator.writes()[0]['body'] == {'name': 'head-office', 'description': 'Office LAN'}  # kept

    info = run([{'name': 'info', 'nms.overlay.network_info': {'name': 'head-office'}},
                {'name': 'all', 'nms.overlay.network_info': {}}])
    assert info.rc == 0, info
    assert [n['id'] for n in info['info']['networks']] == [created['id']]
    assert info['info']['networks'][0]['description'] == 'Office LAN' and len(info['all']['networks']) == 1

    emulator.clear_log()
    gone = {'name': 'network', 'nms.overlay.network': {'name': 'head-office', 'state': 'absent'}}
    delete = run([gone])
    assert delete.rc == 0, delete
    assert delete['network']['changed'] is True and writes_of(emulator) == ['DELETE /api/networks/%s' % created['id']]
    emulator.clear_log()
    again = run([gone])
    assert again.rc == 0, again
    assert again['network']['changed'] is False and emulator.writes() == []
    assert listed(emulator, '/api/networks') == []


# -- network resource --------------------------------------------------------------------------------
def test_network_resource_create_rerun_check_diff_update_delete(emulator, run):
    needs(emulator, 'current')
    network = make_network(emulator)
    servers, admins = make_group(emulator, 'servers'), make_group(emulator, 'admins')
    emulator.clear_log()
    task = {'name': 'resource', 'nms.overlay.network_resource': {
        'network': 'office', 'name': 'files', 'address': '10.0.0.1', 'groups': ['servers']}}
    first = run([task])
    assert first.rc == 0, first
    created = first['resource']['network_resource']
    assert first['resource']['changed'] is True
    assert (created['address'], created['type'], created['enabled']) == ('10.0.0.1/32', 'host', True)
    assert [g['id'] for g in created['groups']] == [servers['id']]
    path = '/api/networks/%s/resources' % network['id']
    assert writes_of(emulator) == ['POST ' + path]

    # again, the network by id and the address as the server shows it: no change, no write
    emulator.clear_log()
    again = run([{'name': 'resource', 'nms.overlay.network_resource': {
        'network': network['id'], 'name': 'files', 'address': '10.0.0.1/32', 'groups': [servers['id']]}}])
    assert again.rc == 0, again
    assert again['resource']['changed'] is False and emulator.writes() == []

    emulator.clear_log()
    check = run([{'name': 'resource', 'nms.overlay.network_resource': {
        'network': 'office', 'name': 'files', 'enabled': False}}], check=True, diff=True)
    assert check.rc == 0, check
    assert check['resource']['changed'] is True and check['resource']['network_resource']['enabled'] is False
    assert emulator.writes() == [] and listed(emulator, path)[0]['enabled'] is True

    emulator.clear_log()
    update = run([{'name': 'resource', 'nms.overlay.network_resource': {
        'network': 'office', 'name': 'files', 'address': 'files.example.com', 'groups': ['admins', 'servers'],
        'description': 'File server'}}], diff=True)
    assert update.rc == 0, update
    assert update['resource']['diff'] == {
        'before': {'description': '', 'address': '10.0.0.1/32', 'groups': ['servers']},
        'after': {'description': 'File server', 'address': 'files.example.com', 'groups': ['admins', 'servers']}}
    assert writes_of(emulator) == ['PUT %s/%s' % (path, created['id'])]
    stored = listed(emulator, path)[0]
    assert (stored['type'], stored['enabled']) == ('domain', True)
    assert sorted(g['id'] for g in stored['groups']) == sorted([servers['id'], admins['id']])

    info = run([{'name': 'info', 'nms.overlay.network_resource_info': {'network': 'office', 'name': 'files'}},
                {'name': 'by_id', 'nms.overlay.network_resource_info': {'network': 'office', 'id': created['id']}}])
    assert info.rc == 0, info
    assert [r['address'] for r in info['info']['network_resources']] == ['files.example.com']
    assert [r['id'] for r in info['by_id']['network_resources']] == [created['id']]

    bad = run([{'name': 'bad', 'nms.overlay.network_resource': {'network': 'office', 'name': 'x', 'address': 'no such thing'}}])
    assert bad['bad']['failed'] and bad['bad']['msg'].startswith('option address: must be an IP address')

    emulator.clear_log()
    gone = {'name': 'resource', 'nms.overlay.network_resource': {'network': 'office', 'name': 'files', 'state': 'absent'}}
    delete = run([gone])
    assert delete.rc == 0, delete
    assert delete['resource']['changed'] is True and writes_of(emulator) == ['DELETE %s/%s' % (path, created['id'])]
    emulator.clear_log()
    again = run([gone])
    assert again.rc == 0, again
    assert again['resource']['changed'] is False and emulator.writes() == []


def test_a_resource_name_another_network_has_is_refused_before_any_write(emulator, run):
    """Servers keep resource names unique across all networks (v0.77.1 refuses at write time, 422): a create, or a
    rename, onto the name of another network's resource fails before any write, in check mode too."""
    needs(emulator, 'current')
    office, lab = make_network(emulator, 'office'), make_network(emulator, 'lab')
    files = emulator.ok('POST', '/api/networks/%s/resources' % office['id'],
                        {'name': 'files', 'address': '10.0.0.1', 'groups': [], 'enabled': True})
    printer = emulator.ok('POST', '/api/networks/%s/resources' % lab['id'],
                          {'name': 'printer', 'address': '10.1.0.9', 'groups': [], 'enabled': True})
    message = ("option name: 'files' is the name of the network resource with id %s in the network 'office' (id %s), "
               "and servers keep resource names unique across all the networks of the account; give this resource "
               "another name" % (files['id'], office['id']))
    for check in (True, False):
        emulator.clear_log()
        result = run([{'name': 'create', 'ignore_errors': True, 'nms.overlay.network_resource': {
                      'network': 'lab', 'name': 'files', 'address': '10.1.0.1'}},
                      {'name': 'rename', 'nms.overlay.network_resource': {'network': 'lab', 'name': 'printer'}},
                      {'name': 'rename by id', 'nms.overlay.network_resource': {
                          'network': 'lab', 'id': listed(emulator, '/api/networks/%s/resources' % lab['id'])[0]['id'],
                          'name': 'files'}}], check=check)
        assert result['create']['failed'] is True and result['create']['msg'] == message
        assert result['rename']['changed'] is False
        assert result['rename by id']['failed'] is True and result['rename by id']['msg'] == message
        assert emulator.writes() == []
    # network_state refuses it before its first write (the group it would create first included)
    emulator.clear_log()
    state = run([{'name': 'n', 'nms.overlay.network_state': {
        'groups': [{'name': 'lab-hosts'}],
        'networks': [{'name': 'lab', 'resources': [{'name': 'files', 'address': '10.1.0.1', 'groups': ['lab-hosts']}]},
                     {'name': 'new', 'resources': [{'name': 'printer', 'address': '10.2.0.1'}]}]}}])
    assert state['n']['msg'].startswith('nothing was changed: networks[0].resources[0] (files): ' + message), state['n']['msg']
    assert ("; networks[1].resources[0] (printer): option name: 'printer' is the name of the network resource with id %s "
            "in the network 'lab' (id %s)" % (printer['id'], lab['id'])) in state['n']['msg']
    assert emulator.writes() == []
    # the server refuses the same create itself (what the task predicts)
    status, answer = emulator.api('POST', '/api/networks/%s/resources' % lab['id'],
                                  {'name': 'files', 'address': '10.1.0.1', 'groups': [], 'enabled': True})
    assert (status, answer['message']) == (422, 'failed to create network resource: resource with name files already exists')


# -- network router ----------------------------------------------------------------------------------
def test_network_router_create_rerun_check_diff_update_delete(emulator, run):
    needs(emulator, 'current')
    network = make_network(emulator)
    peers = make_peers(emulator, 'gw-1', 'gw-2')
    routers = make_group(emulator, 'routers', [peers['gw-2']])
    emulator.clear_log()
    path = '/api/networks/%s/routers' % network['id']
    task = {'name': 'router', 'nms.overlay.network_router': {
        'network': 'office', 'peer': 'gw-1', 'metric': 100, 'enabled': False}}
    first = run([task])
    assert first.rc == 0, first
    created = first['router']['network_router']
    assert first['router']['changed'] is True
    assert (created['peer'], created['metric'], created['enabled']) == (peers['gw-1'], 100, False)
    # the server creates every router enabled: a second request disables it
    assert writes_of(emulator) == ['POST ' + path, 'PUT %s/%s' % (path, created['id'])]
    assert listed(emulator, path)[0]['enabled'] is False

    emulator.clear_log()
    again = run([{'name': 'router', 'nms.overlay.network_router': {
        'network': network['id'], 'peer': peers['gw-1'], 'metric': 100, 'enabled': False}}])
    assert again.rc == 0, again
    assert again['router']['changed'] is False and emulator.writes() == []

    # by name: the routing peer is read by name once, for finding the router and for its desired state alike
    emulator.clear_log()
    again = run([task])
    assert again['router']['changed'] is False and emulator.writes() == []
    assert [r['path'] + ('?' + r['query'] if r['query'] else '') for r in emulator.requests()] == [
        '/api/instance/version', '/api/networks', path, '/api/peers?name=gw-1']

    emulator.clear_log()
    check = run([{'name': 'router', 'nms.overlay.network_router': {
        'network': 'office', 'peer': 'gw-1', 'masquerade': False}}], check=True, diff=True)
    assert check.rc == 0, check
    assert check['router']['diff'] == {'before': {'masquerade': True}, 'after': {'masquerade': False}}, check['router']
    assert emulator.writes() == []

    # by id, the router moves to peer groups: the peer is cleared; the diff names the groups (their list was read), the
    # peer by its id (the task read no peer list, and a diff costs no request)
    emulator.clear_log()
    update = run([{'name': 'router', 'nms.overlay.network_router': {
        'network': 'office', 'id': created['id'], 'peer_groups': ['routers']}}], diff=True)
    assert update.rc == 0, update
    assert update['router']['diff'] == {'before': {'peer': peers['gw-1'], 'peer_groups': []},
                                        'after': {'peer': '', 'peer_groups': ['routers']}}
    assert writes_of(emulator) == ['PUT %s/%s' % (path, created['id'])]
    stored = listed(emulator, path)[0]
    assert (stored['peer'], stored['peer_groups'], stored['metric'], stored['enabled']) == ('', [routers['id']], 100, False)

    info = run([{'name': 'info', 'nms.overlay.network_router_info': {'network': 'office'}}])
    assert info.rc == 0, info
    assert [(r['id'], r['peer_groups']) for r in info['info']['network_routers']] == [(created['id'], [routers['id']])]

    emulator.clear_log()
    gone = {'name': 'router',
            'nms.overlay.network_router': {'network': 'office', 'peer_groups': ['routers'], 'state': 'absent'}}
    delete = run([gone])
    assert delete.rc == 0, delete
    assert delete['router']['changed'] is True and writes_of(emulator) == ['DELETE %s/%s' % (path, created['id'])]
    emulator.clear_log()
    again = run([gone])
    assert again.rc == 0, again
    assert again['router']['changed'] is False and emulator.writes() == []


# -- a v0.27 server ----------------------------------------------------------------------------------
@pytest.mark.parametrize('module, options', [
    ('network', {'name': 'office'}),
    ('network_info', {}),
    ('network_resource', {'network': 'office', 'name': 'files', 'address': '10.0.0.1'}),
    ('network_resource_info', {'network': 'office'}),
    ('network_router', {'network': 'office', 'peer': 'gw-1'}),
    ('network_router_info', {'network': 'office'}),
])
def test_a_v027_server_refuses_the_network_modules_before_any_write(emulator, run, module, options):
    needs(emulator, 'netbird')
    emulator.clear_log()
    result = run([{'name': 'task', 'nms.overlay.' + module: options}])
    assert result['task']['failed'] and result['task']['msg'].endswith(REFUSAL), result['task']['msg']
    assert [(r['method'], r['path']) for r in emulator.requests()] == [('GET', '/api/instance/version')]


# -- the documentation examples ----------------------------------------------------------------------
def test_examples_run_unchanged(emulator, run):
    """Every task of the modules' EXAMPLES runs against a v0.77 server as written (but the ones naming an id from
    the docs, which cannot exist here)."""
    needs(emulator, 'current')
    make_peers(emulator, 'office-gw', 'router-2')
    make_group(emulator, 'servers')
    make_group(emulator, 'office-routers')
    old = make_network(emulator, 'old-office')
    emulator.ok('POST', '/api/networks/%s/routers' % old['id'], {'peer_groups': [make_group(emulator, 'old')['id']],
                                                                 'metric': 9999, 'masquerade': True, 'enabled': True})
    modules = ('network', 'network_info', 'network_resource', 'network_resource_info', 'network_router',
               'network_router_info')
    tasks = [task for module in modules for task in examples_of(module) if 'chacdk86lnnboviihd7g' not in str(task)]
    result = run(tasks)
    assert result.rc == 0, result
    assert not result.failed and len(result.results) == len(tasks)
    assert result.changed
    assert [n['name'] for n in listed(emulator, '/api/networks')] == ['office']  # old-office went, routers and all
