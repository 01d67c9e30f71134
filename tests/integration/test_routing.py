# -*- coding: utf-8 -*-
"""nms.overlay.route, nameserver_group, dns_settings and their info modules, in both dialects."""

from __future__ import annotations

import pytest

from tests.support.emulator import make_group, make_peers, writes_of
from tests.support.modules import examples_of


def ids(refs):
    """The ids of group references as results show them ([{id, name}])."""
    return [ref['id'] for ref in refs]


def routes_named(emulator, network_id):
    status, routes = emulator.api('GET', '/api/routes')
    assert status == 200, routes
    return [r for r in routes if r['network_id'] == network_id]


def nameserver_groups_named(emulator, name):
    status, items = emulator.api('GET', '/api/dns/nameservers')
    assert status == 200, items
    return [n for n in items if n['name'] == name]


def dns_settings(emulator):
    status, body = emulator.api('GET', '/api/dns/settings')
    assert status == 200, body
    return body.get('items', body)


# -- route -------------------------------------------------------------------------------------------
def test_route_create_rerun_update_check_delete(emulator, run):
    peers = make_peers(emulator, 'router-1')
    servers = make_group(emulator, 'servers')
    emulator.clear_log()
    task = {'name': 'route', 'nms.overlay.route': {
        'network_id': 'office-lan', 'network': '192.168.10.5/24', 'peer': 'router-1', 'groups': ['servers'],
        'description': 'Office LAN'}}
    first = run([task])
    assert first.rc == 0, first
    assert first['route']['changed'] is True
    created = first['route']['route']
    assert created['network'] == '192.168.10.0/24' and created['peer'] == peers['router-1']
    assert created['peer_groups'] == [] and created['groups'] == [{'id': servers['id'], 'name': 'servers'}]
    assert (created['metric'], created['masquerade'], created['enabled']) == (9999, True, True)
    assert writes_of(emulator) == ['POST /api/routes']
    body = emulator.writes()[0]['body']
    assert 'peer_groups' not in body and body['network'] == '192.168.10.0/24'

    # Again, the network with other host bits, the group by id and the peer by id: no change, no write.
    emulator.clear_log()
    again = run([{'name': 'route', 'nms.overlay.route': {
        'network_id': 'office-lan', 'network': '192.168.10.77/24', 'peer': peers['router-1'],
        'groups': [servers['id']], 'description': 'Office LAN'}}])
    assert again.rc == 0, again
    assert again['route']['changed'] is False
    assert emulator.writes() == []
    # the groups first: their All group names the routing peer, so the peers need no request of their own
    assert [r['path'] for r in emulator.requests()] == ['/api/groups', '/api/routes']

    # Update with --diff: only the changed fields, and the whole route in the PUT.
    emulator.clear_log()
    update = run([{'name': 'route', 'nms.overlay.route': {
        'network_id': 'office-lan', 'peer': 'router-1', 'metric': 100, 'masquerade': False}}], diff=True)
    assert update['route']['changed'] is True
    assert update['route']['diff'] == {'before': {'metric': 9999, 'masquerade': True},
                                       'after': {'metric': 100, 'masquerade': False}}
    assert writes_of(emulator) == ['PUT /api/routes/%s' % created['id']]
    put = emulator.writes()[0]['body']
    assert put['description'] == 'Office LAN' and put['groups'] == [servers['id']] and 'peer_groups' not in put
    stored = routes_named(emulator, 'office-lan')[0]
    assert (stored['metric'], stored['masquerade'], stored['description']) == (100, False, 'Office LAN')

    # Check mode: changed and predicted, nothing sent.
    emulator.clear_log()
    check = run([{'name': 'route', 'nms.overlay.route': {
        'network_id': 'office-lan', 'peer': 'router-1', 'enabled': False}}], check=True, diff=True)
    assert check['route']['changed'] is True
    assert check['route']['route']['enabled'] is False
    assert check['route']['diff'] == {'before': {'enabled': True}, 'after': {'enabled': False}}
    assert emulator.writes() == []
    assert routes_named(emulator, 'office-lan')[0]['enabled'] is True

    # Delete, then delete again.
    emulator.clear_log()
    gone = run([
        {'name': 'delete', 'nms.overlay.route': {'network_id': 'office-lan', 'peer': 'router-1', 'state': 'absent'}},
        {'name': 'delete again', 'nms.overlay.route': {'network_id': 'office-lan', 'peer': 'router-1',
                                                       'state': 'absent'}},
    ], diff=True)
    assert gone['delete']['changed'] is True
    assert gone['delete']['diff']['after'] == {}
    assert gone['delete again']['changed'] is False
    assert writes_of(emulator) == ['DELETE /api/routes/%s' % created['id']]
    assert routes_named(emulator, 'office-lan') == []


def test_route_check_mode_create_sends_nothing(emulator, run):
    make_peers(emulator, 'router-1')
    make_group(emulator, 'routers')
    make_group(emulator, 'servers')
    emulator.clear_log()
    result = run([
        {'name': 'by peer', 'nms.overlay.route': {'network_id': 'a', 'network': '10.1.0.0/16', 'peer': 'router-1',
                                                  'groups': ['servers']}},
        {'name': 'by groups', 'nms.overlay.route': {'network_id': 'b', 'network': '10.2.0.0/16',
                                                    'peer_groups': ['routers'], 'groups': ['servers']}},
    ], check=True, diff=True)
    assert result.rc == 0, result
    assert result['by peer']['changed'] is True and result['by groups']['changed'] is True
    assert result['by peer']['diff']['before'] == {}
    assert result['by peer']['diff']['after']['network'] == '10.1.0.0/16'
    assert 'peer' not in result['by groups']['route']
    assert emulator.writes() == []


def test_ha_routes_sharing_a_network_id_are_managed_independently(emulator, run):
    peers = make_peers(emulator, 'router-1', 'router-2')
    make_group(emulator, 'servers')
    emulator.clear_log()
    base = {'network_id': 'office-lan', 'network': '192.168.10.0/24', 'groups': ['servers']}
    result = run([
        {'name': 'one', 'nms.overlay.route': dict(base, peer='router-1')},
        {'name': 'two', 'nms.overlay.route': dict(base, peer='router-2', metric=200)},
        {'name': 'one again', 'nms.overlay.route': dict(base, peer='router-1')},
        {'name': 'disable two', 'nms.overlay.route': {'network_id': 'office-lan', 'peer': 'router-2',
                                                      'enabled': False}},
    ])
    assert result.rc == 0, result
    assert [result[n]['changed'] for n in ('one', 'two', 'one again', 'disable two')] == [True, True, False, True]
    one, two = result['one']['route'], result['two']['route']
    assert one['id'] != two['id']
    assert writes_of(emulator) == ['POST /api/routes', 'POST /api/routes', 'PUT /api/routes/%s' % two['id']]
    stored = {r['peer']: r for r in routes_named(emulator, 'office-lan')}
    assert stored[peers['router-1']]['enabled'] is True and stored[peers['router-1']]['metric'] == 9999
    assert stored[peers['router-2']]['enabled'] is False and stored[peers['router-2']]['metric'] == 200

    # network_id alone matches both: the task fails listing their ids, and writes nothing.
    emulator.clear_log()
    ambiguous = run([{'name': 'ambiguous', 'nms.overlay.route': {'network_id': 'office-lan', 'enabled': True}},
                     {'name': 'ambiguous delete', 'nms.overlay.route': {'network_id': 'office-lan', 'state': 'absent'},
                      'ignore_errors': True}],
                    play={'ignore_errors': True})
    for name in ('ambiguous', 'ambiguous delete'):
        msg = ambiguous[name]['msg']
        assert ambiguous[name]['failed'] is True
        assert "network_id 'office-lan' matches 2 routes (ids: %s)" % ', '.join(sorted([one['id'], two['id']])) in msg
    assert emulator.writes() == []

    # The id chooses one; deleting one routing peer's route leaves the other.
    emulator.clear_log()
    by_id = run([
        {'name': 'by id', 'nms.overlay.route': {'id': one['id'], 'description': 'primary'}},
        {'name': 'delete two', 'nms.overlay.route': {'network_id': 'office-lan', 'peer': 'router-2',
                                                     'state': 'absent'}},
    ])
    assert by_id.rc == 0, by_id
    assert by_id['by id']['route']['description'] == 'primary'
    assert writes_of(emulator) == ['PUT /api/routes/%s' % one['id'], 'DELETE /api/routes/%s' % two['id']]
    assert [r['id'] for r in routes_named(emulator, 'office-lan')] == [one['id']]


def test_route_by_peer_groups_and_switching_the_routing_peer(emulator, run):
    peers = make_peers(emulator, 'router-1', 'router-2')
    routers = make_group(emulator, 'routers', [peers['router-2']])
    edge = make_group(emulator, 'edge')
    servers = make_group(emulator, 'servers')
    emulator.clear_log()
    result = run([
        {'name': 'create', 'nms.overlay.route': {'network_id': 'dc', 'network': '10.20.0.0/16',
                                                 'peer_groups': ['routers', 'edge'], 'groups': ['servers']}},
        {'name': 'same set, other order', 'nms.overlay.route': {'network_id': 'dc', 'peer_groups': ['edge', 'routers'],
                                                                'groups': [servers['id']]}},
    ])
    assert result.rc == 0, result
    assert result['create']['changed'] is True and result['same set, other order']['changed'] is False
    created = result['create']['route']
    assert created['peer'] == '' and sorted(ids(created['peer_groups'])) == sorted([routers['id'], make_id(emulator, 'edge')])
    assert writes_of(emulator) == ['POST /api/routes']
    assert 'peer' not in emulator.writes()[0]['body']

    # Switching to a single routing peer needs the id; the PUT carries peer only.
    emulator.clear_log()
    switch = run([{'name': 'switch', 'nms.overlay.route': {'id': created['id'], 'peer': 'router-1'}}], diff=True)
    assert switch['switch']['changed'] is True
    # peer "" as the route has it (never null); the peer by name (its list was read to resolve it), the
    # peer groups by name too (the group list was read once, for the names of the result's groups)
    assert switch['switch']['diff'] == {'before': {'peer': '', 'peer_groups': ['edge', 'routers']},
                                        'after': {'peer': 'router-1', 'peer_groups': []}}
    assert switch['switch']['route']['peer_groups'] == []
    assert switch['switch']['route']['groups'] == [{'id': servers['id'], 'name': 'servers'}]
    assert sorted(r['path'] for r in emulator.requests()) == ['/api/groups', '/api/peers', '/api/routes/%s' % created['id'],
                                                              '/api/routes/%s' % created['id']]
    assert writes_of(emulator) == ['PUT /api/routes/%s' % created['id']]
    assert 'peer_groups' not in emulator.writes()[0]['body']
    stored = routes_named(emulator, 'dc')[0]
    assert stored['peer'] == peers['router-1'] and (stored.get('peer_groups') or []) == []

    # And back to peer groups, in check mode and then for real: the diff has peer "" like the route, not null.
    for check in (True, False):
        emulator.clear_log()
        back = run([{'name': 'back', 'nms.overlay.route': {'id': created['id'], 'peer_groups': ['routers']}}],
                   check=check, diff=True)
        assert back['back']['changed'] is True
        assert back['back']['diff'] == {'before': {'peer': peers['router-1'], 'peer_groups': []},
                                        'after': {'peer': '', 'peer_groups': ['routers']}}
        assert back['back']['route']['peer'] == '' and ids(back['back']['route']['peer_groups']) == [routers['id']]
        assert writes_of(emulator) == ([] if check else ['PUT /api/routes/%s' % created['id']])
    assert routes_named(emulator, 'dc')[0]['peer'] == ''


def make_id(emulator, group_name):
    status, groups = emulator.api('GET', '/api/groups')
    assert status == 200
    return [g['id'] for g in groups if g['name'] == group_name][0]


def test_route_options_fail_before_any_request(emulator, run):
    emulator.clear_log()
    bad = {
        'long id': {'network_id': 'x' * 41, 'peer': 'p'},
        'metric low': {'network_id': 'n', 'metric': 0},
        'metric high': {'network_id': 'n', 'metric': 10000},
        'no prefix': {'network_id': 'n', 'network': '10.0.0.1'},
        'bad network': {'network_id': 'n', 'network': '10.0.0.300/24'},
        'both': {'network_id': 'n', 'peer': 'p', 'peer_groups': ['g']},
        'no groups': {'network_id': 'n', 'groups': []},
        'no peer groups': {'network_id': 'n', 'peer_groups': []},
        'no identity': {'peer': 'p'},
    }
    result = run([{'name': name, 'nms.overlay.route': args, 'ignore_errors': True} for name, args in bad.items()])
    expected = {
        'long id': 'option network_id: must be at most 40 characters long',
        'metric low': 'option metric: must be at least 1',
        'metric high': 'option metric: must be at most 9999',
        'no prefix': 'option network: must be a CIDR range with a prefix length',
        'bad network': 'option network: must be a CIDR range such as',
        'both': 'parameters are mutually exclusive: peer|peer_groups',
        'no groups': 'option groups: must list at least 1 item',
        'no peer groups': 'option peer_groups: must list at least 1 item',
        'no identity': 'one of the following is required: id, network_id',
    }
    for name, text in expected.items():
        assert result[name]['failed'] is True, name
        assert result[name]['msg'].startswith(text), (name, result[name]['msg'])
        assert 'should' not in result[name]['msg'] and 'after validation' not in result[name]['msg'], name
    assert emulator.requests() == []

    # Rules that need the server's data fail after the reads, before any write.
    make_group(emulator, 'servers')
    emulator.clear_log()
    late = run([
        {'name': 'no routing peer', 'nms.overlay.route': {'network_id': 'n', 'network': '10.0.0.0/8',
                                                          'groups': ['servers']}, 'ignore_errors': True},
        {'name': 'no network', 'nms.overlay.route': {'network_id': 'n', 'peer_groups': ['servers'],
                                                     'groups': ['servers']}, 'ignore_errors': True},
    ])
    assert late['no routing peer']['msg'].startswith(
        "option peer or option peer_groups is required to create the route network_id 'n'")
    assert late['no network']['msg'].startswith("option network or option domains is required to create the route "
                                                "network_id 'n'")
    assert emulator.writes() == []


# -- fields of today's servers (v0.77) ------------------------------------------------------------------
TODAYS_ROUTE_OPTIONS = ('domains', 'keep_route', 'access_control_groups', 'skip_auto_apply')


def test_a_domain_route_with_todays_fields_on_a_current_server(emulator, run):
    if emulator.dialect != 'current':
        pytest.skip('needs the current dialect (a v0.77.1 server)')
    peers = make_peers(emulator, 'router-1')
    servers, admins = make_group(emulator, 'servers'), make_group(emulator, 'admins')
    emulator.clear_log()
    args = {'network_id': 'saas', 'domains': ['Example.com', '*.example.com'], 'peer': 'router-1',
            'groups': ['servers'], 'keep_route': True, 'access_control_groups': ['admins'], 'skip_auto_apply': False}
    first = run([{'name': 'route', 'nms.overlay.route': args}])
    assert first.rc == 0, first
    created = first['route']['route']
    assert first['route']['changed'] is True and writes_of(emulator) == ['POST /api/routes']
    body = emulator.writes()[0]['body']
    assert 'network' not in body and sorted(body['domains']) == ['*.example.com', 'example.com']
    assert (body['keep_route'], body['access_control_groups'], body['skip_auto_apply'], body['peer']) == (
        True, [admins['id']], False, peers['router-1'])
    assert (created['network'], created['network_type']) == ('192.0.2.0/32', 'Domain')
    assert sorted(created['domains']) == ['*.example.com', 'example.com']
    assert created['keep_route'] is True and ids(created['access_control_groups']) == [admins['id']]

    # Again, domains in another order and case, the group by id: nothing to do, no write.
    emulator.clear_log()
    again = run([{'name': 'route', 'nms.overlay.route': dict(
        args, domains=['*.EXAMPLE.com', 'example.com'], access_control_groups=[admins['id']])}])
    assert again.rc == 0, again
    assert again['route']['changed'] is False and emulator.writes() == []

    # Check mode with --diff: the change planned and shown, references by name, nothing sent.
    emulator.clear_log()
    check = run([{'name': 'route', 'nms.overlay.route': {
        'network_id': 'saas', 'peer': 'router-1', 'keep_route': False, 'access_control_groups': ['servers'],
        'domains': ['example.com']}}], check=True, diff=True)
    assert check.rc == 0, check
    assert check['route']['changed'] is True and emulator.writes() == []
    assert check['route']['diff'] == {
        'before': {'keep_route': True, 'access_control_groups': ['admins'], 'domains': ['*.example.com', 'example.com']},
        'after': {'keep_route': False, 'access_control_groups': ['servers'], 'domains': ['example.com']}}
    assert check['route']['route']['keep_route'] is False
    assert ids(check['route']['route']['access_control_groups']) == [servers['id']]

    # An update that sets none of them keeps them all (v0.77 resets what a PUT leaves out).
    emulator.clear_log()
    update = run([{'name': 'route', 'nms.overlay.route': {'network_id': 'saas', 'peer': 'router-1', 'metric': 10}}])
    assert update.rc == 0, update
    assert writes_of(emulator) == ['PUT /api/routes/%s' % created['id']]
    put = emulator.writes()[0]['body']
    assert 'network' not in put and put['keep_route'] is True and put['access_control_groups'] == [admins['id']]
    stored = routes_named(emulator, 'saas')[0]
    assert (stored['metric'], stored['keep_route'], stored['access_control_groups']) == (10, True, [admins['id']])
    assert sorted(stored['domains']) == ['*.example.com', 'example.com']

    # The domain route becomes a network route (by id), and its fields stay.
    emulator.clear_log()
    switch = run([{'name': 'route', 'nms.overlay.route': {'id': created['id'], 'network': '10.5.0.0/16'}}], diff=True)
    assert switch.rc == 0, switch
    assert switch['route']['diff'] == {'before': {'network': '192.0.2.0/32', 'domains': ['*.example.com', 'example.com']},
                                       'after': {'network': '10.5.0.0/16', 'domains': []}}
    put = emulator.writes()[0]['body']
    assert put['network'] == '10.5.0.0/16' and 'domains' not in put and put['keep_route'] is True
    stored = routes_named(emulator, 'saas')[0]
    assert (stored['network'], stored['network_type'], stored['domains']) == ('10.5.0.0/16', 'IPv4', None)


def test_todays_route_options_are_refused_by_a_v027_server_before_any_write(emulator, run):
    if emulator.dialect != 'netbird':
        pytest.skip('needs the netbird dialect (a v0.27.6 server)')
    make_peers(emulator, 'router-1')
    make_group(emulator, 'servers')
    emulator.clear_log()
    values = {'domains': ['example.com'], 'keep_route': True, 'access_control_groups': ['servers'],
              'skip_auto_apply': True}
    result = run([{'name': option, 'ignore_errors': True, 'nms.overlay.route': {
        'network_id': 'n', 'peer': 'router-1', 'groups': ['servers'], option: value}}
        for option, value in values.items()])
    for option in values:
        assert result[option]['failed'] is True, option
        assert result[option]['msg'] == ('option %s: this server (v0.27: it has no GET /api/instance/version) does not '
                                         'have it (servers have it from %s on)'
                                         % (option, {'domains': 'v0.28.0', 'keep_route': 'v0.28.0', 'access_control_groups': 'v0.30.0',
                                                     'skip_auto_apply': 'v0.55.0'}[option]))
    # one request per task, the question which server this is; no write, no other read
    assert [(r['method'], r['path']) for r in emulator.requests()] == [('GET', '/api/instance/version')] * len(values)


def test_route_info(emulator, run):
    peers = make_peers(emulator, 'router-1', 'router-2')
    servers = make_group(emulator, 'servers')
    created = []
    for peer in ('router-1', 'router-2'):
        status, item = emulator.api('POST', '/api/routes', {
            'network_id': 'office-lan', 'network': '192.168.10.0/24', 'peer': peers[peer], 'groups': [servers['id']],
            'description': '', 'enabled': True, 'masquerade': True, 'metric': 10})
        assert status == 200, item
        created.append(item)
    status, other = emulator.api('POST', '/api/routes', {
        'network_id': 'dc', 'network': '10.20.0.0/16', 'peer_groups': [servers['id']], 'groups': [servers['id']],
        'description': '', 'enabled': True, 'masquerade': True, 'metric': 10})
    assert status == 200, other
    emulator.clear_log()
    result = run([
        {'name': 'all', 'nms.overlay.route_info': {}},
        {'name': 'ha', 'nms.overlay.route_info': {'network_id': 'office-lan'}},
        {'name': 'by id', 'nms.overlay.route_info': {'id': other['id']}},
        {'name': 'unknown id', 'nms.overlay.route_info': {'id': 'nope'}},
        {'name': 'unknown name', 'nms.overlay.route_info': {'network_id': 'nope'}},
    ])
    assert result.rc == 0, result
    assert len(result['all']['routes']) == 3
    assert sorted(r['id'] for r in result['ha']['routes']) == sorted(r['id'] for r in created)
    assert [r['id'] for r in result['by id']['routes']] == [other['id']]
    assert result['by id']['routes'][0]['peer'] == ''
    for item in result['all']['routes']:
        assert isinstance(item['peer_groups'], list)  # never missing, also where the server omits it
    assert result['unknown id']['routes'] == [] and result['unknown name']['routes'] == []
    assert writes_of(emulator) == []


# -- nameserver_group -------------------------------------------------------------------------------
def test_nameserver_group_create_rerun_update_check_delete(emulator, run):
    servers = make_group(emulator, 'servers')
    emulator.clear_log()
    task = {'name': 'ns', 'nms.overlay.nameserver_group': {
        'name': 'corp-dns', 'nameservers': [{'ip': '10.0.0.53'}, {'ip': '2001:DB8::0053', 'port': 5353}],
        'domains': ['Corp.Example.com.', 'example.internal'], 'search_domains_enabled': True, 'groups': ['servers']}}
    first = run([task])
    assert first.rc == 0, first
    assert first['ns']['changed'] is True
    created = first['ns']['nameserver_group']
    assert created['nameservers'] == [{'ip': '10.0.0.53', 'ns_type': 'udp', 'port': 53},
                                      {'ip': '2001:db8::53', 'ns_type': 'udp', 'port': 5353}]
    assert sorted(created['domains']) == ['corp.example.com', 'example.internal']
    assert (created['primary'], created['enabled'], created['description']) == (False, True, '')
    assert writes_of(emulator) == ['POST /api/dns/nameservers']

    emulator.clear_log()
    again = run([task])
    assert again['ns']['changed'] is False
    assert emulator.writes() == []
    assert sorted(r['path'] for r in emulator.requests()) == ['/api/dns/nameservers', '/api/groups']

    # A task with the name only reads its list, and the groups, whose names its result shows.
    emulator.clear_log()
    keep = run([{'name': 'keep', 'nms.overlay.nameserver_group': {'name': 'corp-dns'}}])
    assert keep['keep']['changed'] is False
    assert [r['path'] for r in emulator.requests()] == ['/api/dns/nameservers', '/api/groups']
    assert keep['keep']['nameserver_group']['groups'] == [{'id': servers['id'], 'name': 'servers'}]

    # Update to a primary group with --diff; the nameserver order matters.
    emulator.clear_log()
    update = run([{'name': 'ns', 'nms.overlay.nameserver_group': {
        'name': 'corp-dns', 'primary': True, 'domains': [], 'search_domains_enabled': False,
        'nameservers': [{'ip': '2001:db8::53', 'port': 5353}, {'ip': '10.0.0.53'}]}}], diff=True)
    assert update['ns']['changed'] is True
    diff = update['ns']['diff']
    assert sorted(diff['before']) == ['domains', 'nameservers', 'primary', 'search_domains_enabled']
    assert diff['after']['primary'] is True and diff['after']['domains'] == []
    assert writes_of(emulator) == ['PUT /api/dns/nameservers/%s' % created['id']]
    assert emulator.writes()[0]['body']['groups'] == [servers['id']]
    assert update['ns']['nameserver_group']['domains'] == []
    stored = nameserver_groups_named(emulator, 'corp-dns')[0]
    assert stored['primary'] is True and stored['nameservers'][0]['ip'] == '2001:db8::53'

    # Check mode.
    emulator.clear_log()
    check = run([{'name': 'ns', 'nms.overlay.nameserver_group': {'name': 'corp-dns', 'enabled': False}}],
                check=True, diff=True)
    assert check['ns']['changed'] is True and check['ns']['nameserver_group']['enabled'] is False
    assert check['ns']['diff'] == {'before': {'enabled': True}, 'after': {'enabled': False}}
    assert emulator.writes() == []

    # Rename by id, then delete twice.
    emulator.clear_log()
    gone = run([
        {'name': 'rename', 'nms.overlay.nameserver_group': {'id': created['id'], 'name': 'public-dns'}},
        {'name': 'delete', 'nms.overlay.nameserver_group': {'name': 'public-dns', 'state': 'absent'}},
        {'name': 'delete again', 'nms.overlay.nameserver_group': {'name': 'public-dns', 'state': 'absent'}},
    ])
    assert [gone[n]['changed'] for n in ('rename', 'delete', 'delete again')] == [True, True, False]
    assert writes_of(emulator) == ['PUT /api/dns/nameservers/%s' % created['id'],
                                   'DELETE /api/dns/nameservers/%s' % created['id']]
    assert nameserver_groups_named(emulator, 'public-dns') == []


def test_nameserver_group_check_mode_create(emulator, run):
    make_group(emulator, 'servers')
    emulator.clear_log()
    result = run([{'name': 'ns', 'nms.overlay.nameserver_group': {
        'name': 'new', 'nameservers': [{'ip': '1.1.1.1'}], 'primary': True, 'groups': ['servers']}}],
        check=True, diff=True)
    assert result.rc == 0, result
    assert result['ns']['changed'] is True and result['ns']['diff']['before'] == {}
    assert result['ns']['diff']['after']['primary'] is True
    assert emulator.writes() == []
    assert nameserver_groups_named(emulator, 'new') == []


def test_nameserver_group_rules_fail_before_any_request(emulator, run):
    emulator.clear_log()
    bad = {
        'primary with domains': {'name': 'x', 'primary': True, 'domains': ['example.com']},
        'no domains without primary': {'name': 'x', 'primary': False, 'domains': []},
        'search without domains': {'name': 'x', 'primary': True, 'domains': [], 'search_domains_enabled': True},
        'long name': {'name': 'n' * 41},
        'no nameservers': {'name': 'x', 'nameservers': []},
        'four nameservers': {'name': 'x', 'nameservers': [{'ip': '10.0.0.%d' % i} for i in range(4)]},
        'bad ip': {'name': 'x', 'nameservers': [{'ip': 'dns.example.com'}]},
        'bad port': {'name': 'x', 'nameservers': [{'ip': '10.0.0.1', 'port': 70000}]},
        'bad domain': {'name': 'x', 'domains': ['localhost']},
        'no groups': {'name': 'x', 'groups': []},
    }
    result = run([{'name': n, 'nms.overlay.nameserver_group': a, 'ignore_errors': True} for n, a in bad.items()])
    expected = {
        'primary with domains': 'option primary: may be true only when domains is empty',
        'no domains without primary': 'option domains: may be empty only when primary is true, but primary is false',
        'search without domains': 'option search_domains_enabled: may be true only when domains is not empty',
        'long name': 'option name: must be at most 40 characters long',
        'no nameservers': 'option nameservers: must list at least 1 item',
        'four nameservers': 'option nameservers: must list at most 3 items',
        'bad ip': 'option nameservers[0].ip: must be an IPv4 or IPv6 address',
        'bad port': 'option nameservers[0].port: must be at most 65535',
        'no groups': 'option groups: must list at least 1 item',
        'bad domain': "option domains: 'localhost' is not a domain name",
    }
    for name, text in expected.items():
        assert result[name]['failed'] is True, name
        assert result[name]['msg'].startswith(text), (name, result[name]['msg'])
    assert emulator.requests() == []


def test_nameserver_group_rules_on_the_merged_state_write_nothing(emulator, run):
    servers = make_group(emulator, 'servers')
    status, item = emulator.api('POST', '/api/dns/nameservers', {
        'name': 'corp-dns', 'description': '', 'nameservers': [{'ip': '10.0.0.53', 'ns_type': 'udp', 'port': 53}],
        'groups': [servers['id']], 'enabled': True, 'primary': False, 'domains': ['example.com'],
        'search_domains_enabled': True})
    assert status == 200, item
    emulator.clear_log()
    result = run([
        {'name': 'primary', 'nms.overlay.nameserver_group': {'name': 'corp-dns', 'primary': True},
         'ignore_errors': True},
        {'name': 'create without domains', 'nms.overlay.nameserver_group': {
            'name': 'new', 'nameservers': [{'ip': '1.1.1.1'}], 'groups': ['servers']}, 'ignore_errors': True},
    ])
    assert result['primary']['msg'].startswith('option primary: may be true only when domains is empty')
    assert 'merged with the values of the nameserver group on the server' in result['primary']['msg']
    assert result['create without domains']['msg'].startswith('option domains: may be empty only when primary is true')
    assert emulator.writes() == []


def test_nameserver_group_rename_onto_another_name_fails_before_any_write(emulator, run):
    servers = make_group(emulator, 'servers')
    made = {}
    for name in ('corp-dns', 'lab-dns'):
        status, item = emulator.api('POST', '/api/dns/nameservers', {
            'name': name, 'description': '', 'nameservers': [{'ip': '10.0.0.53', 'ns_type': 'udp', 'port': 53}],
            'groups': [servers['id']], 'enabled': True, 'primary': False, 'domains': ['example.com'],
            'search_domains_enabled': False})
        assert status == 200, item
        made[name] = item['id']
    for check in (True, False):
        emulator.clear_log()
        result = run([{'name': 'rename', 'nms.overlay.nameserver_group': {'id': made['lab-dns'], 'name': 'corp-dns'},
                       'ignore_errors': True}], check=check)
        assert result['rename']['failed'] is True
        assert result['rename']['msg'] == (
            "option name: cannot rename the nameserver group 'lab-dns' (id %s) to 'corp-dns': the nameserver group with "
            "id %s already has that name, and nameserver group names must be unique" % (made['lab-dns'], made['corp-dns']))
        assert emulator.writes() == []
        # the rename costs one list read of its own kind
        assert [r['path'] for r in emulator.requests()] == ['/api/dns/nameservers/%s' % made['lab-dns'], '/api/dns/nameservers']
    assert len(nameserver_groups_named(emulator, 'lab-dns')) == 1


def test_nameserver_group_info(emulator, run):
    servers = make_group(emulator, 'servers')
    status, item = emulator.api('POST', '/api/dns/nameservers', {
        'name': 'public-dns', 'description': 'd', 'nameservers': [{'ip': '1.1.1.1', 'ns_type': 'udp', 'port': 53}],
        'groups': [servers['id']], 'enabled': True, 'primary': True, 'domains': [], 'search_domains_enabled': False})
    assert status == 200, item
    result = run([
        {'name': 'all', 'nms.overlay.nameserver_group_info': {}},
        {'name': 'by name', 'nms.overlay.nameserver_group_info': {'name': 'public-dns'}},
        {'name': 'by id', 'nms.overlay.nameserver_group_info': {'id': item['id']}},
        {'name': 'unknown', 'nms.overlay.nameserver_group_info': {'id': 'nope'}},
    ])
    assert result.rc == 0, result
    assert [n['name'] for n in result['all']['nameserver_groups']] == ['public-dns']
    for name in ('by name', 'by id'):
        found = result[name]['nameserver_groups']
        assert [n['id'] for n in found] == [item['id']]
        assert found[0]['domains'] == [] and found[0]['groups'] == [{'id': servers['id'], 'name': 'servers'}]
    assert result['unknown']['nameserver_groups'] == []


# -- dns_settings ------------------------------------------------------------------------------------
def test_dns_settings_both_response_shapes(emulator, run):
    status, raw = emulator.api('GET', '/api/dns/settings')
    assert status == 200
    # Deployed servers send the settings bare; the spec wraps them in items (tests/reliability/test_seed_conformance.py).
    assert ('items' in raw) is (emulator.dialect == 'seed')
    unmanaged = make_group(emulator, 'unmanaged')
    other = make_group(emulator, 'other')
    emulator.clear_log()
    result = run([
        {'name': 'read', 'nms.overlay.dns_settings_info': {}},
        {'name': 'set', 'nms.overlay.dns_settings': {'disabled_management_groups': ['unmanaged']}},
        {'name': 'read again', 'nms.overlay.dns_settings_info': {}},
    ], diff=True)
    assert result.rc == 0, result
    assert result['read']['dns_settings'] == {'disabled_management_groups': []}
    assert result['set']['changed'] is True
    # the diff names the group (the list read to resolve it); the result keeps the id
    assert result['set']['diff'] == {'before': {'disabled_management_groups': []},
                                     'after': {'disabled_management_groups': ['unmanaged']}}
    assert result['set']['dns_settings'] == {'disabled_management_groups': [unmanaged['id']]}
    assert result['read again']['dns_settings'] == {'disabled_management_groups': [unmanaged['id']]}
    assert [(w['method'], w['path'], w['body']) for w in emulator.writes()] == [
        ('PUT', '/api/dns/settings', {'disabled_management_groups': [unmanaged['id']]})]

    # Unchanged: one read of the settings and one of the groups, no write.
    emulator.clear_log()
    again = run([{'name': 'set', 'nms.overlay.dns_settings': {'disabled_management_groups': [unmanaged['id']]}},
                 {'name': 'no options', 'nms.overlay.dns_settings': {}}])
    assert again['set']['changed'] is False and again['no options']['changed'] is False
    assert emulator.writes() == []
    assert [r['path'] for r in emulator.requests()] == ['/api/dns/settings', '/api/groups', '/api/dns/settings']

    # Check mode.
    emulator.clear_log()
    check = run([{'name': 'set', 'nms.overlay.dns_settings': {'disabled_management_groups': ['other', 'unmanaged']}}],
                check=True)
    assert check['set']['changed'] is True
    assert check['set']['dns_settings'] == {'disabled_management_groups': sorted([other['id'], unmanaged['id']])}
    assert emulator.writes() == []
    assert dns_settings(emulator) == {'disabled_management_groups': [unmanaged['id']]}

    # Clear, and an unknown group fails before any write.
    emulator.clear_log()
    clear = run([
        {'name': 'clear', 'nms.overlay.dns_settings': {'disabled_management_groups': []}},
        {'name': 'unknown', 'nms.overlay.dns_settings': {'disabled_management_groups': ['nope']},
         'ignore_errors': True},
        {'name': 'empty', 'nms.overlay.dns_settings': {'disabled_management_groups': ['']}, 'ignore_errors': True},
    ])
    assert clear['clear']['changed'] is True and clear['clear']['dns_settings'] == {'disabled_management_groups': []}
    assert clear['unknown']['msg'] == "disabled_management_groups: no group with the id or name 'nope'"
    assert clear['empty']['msg'].startswith('option disabled_management_groups[0]: must not be empty')
    assert [(w['method'], w['body']) for w in emulator.writes()] == [('PUT', {'disabled_management_groups': []})]
    assert dns_settings(emulator) == {'disabled_management_groups': []}


# -- the documentation examples ----------------------------------------------------------------------
@pytest.mark.parametrize('modules', [('route', 'route_info'), ('nameserver_group', 'nameserver_group_info'),
                                     ('dns_settings', 'dns_settings_info')])
def test_examples_run_unchanged(emulator, run, modules):
    """Every task of the modules' EXAMPLES runs against the emulator as written."""
    peers = make_peers(emulator, 'router-1', 'router-2')
    make_group(emulator, 'servers')
    make_group(emulator, 'routers', [peers['router-1'], peers['router-2']])
    make_group(emulator, 'unmanaged')
    tasks = [task for module in modules for task in examples_of(module)]
    if emulator.dialect != 'current':  # older servers refuse the examples of today's options (tested above)
        tasks = [task for task in tasks if not set(task.get('nms.overlay.route') or {}) & set(TODAYS_ROUTE_OPTIONS)]
    result = run(tasks)
    assert result.rc == 0, result
    assert not result.failed
    assert len(result.results) == len(tasks)
    assert result.changed  # the examples do something


def test_a_routing_peer_counts_as_linux_by_what_its_agent_reports(emulator, run):
    # real agents report "Debian GNU/Linux 12" as os text; the server judges by the agent's own OS (linux)
    peers = emulator.add_peers(peers=[{'hostname': 'gw-debian', 'os': 'Debian GNU/Linux 12'},
                                      {'hostname': 'laptop', 'os': 'Windows 11'}])
    assert len(peers) == 2
    make_group(emulator, 'lan')
    result = run([
        {'name': 'debian', 'nms.overlay.route': {'network_id': 'lan', 'network': '10.9.0.0/24', 'peer': 'gw-debian',
                                                 'groups': ['lan']}},
        {'name': 'windows', 'ignore_errors': True, 'nms.overlay.route': {
            'network_id': 'lan2', 'network': '10.8.0.0/24', 'peer': 'laptop', 'groups': ['lan']}},
    ])
    assert result['debian']['changed'] is True, result['debian'].get('msg')
    if emulator.dialect == 'current':  # v0.77 accepts routing peers of any OS
        assert result['windows']['changed'] is True, result['windows'].get('msg')
        return
    assert result['windows']['failed'] is True
    assert 'non-linux peers are non supported as network routes' in result['windows']['msg']
