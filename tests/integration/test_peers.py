# -*- coding: utf-8 -*-
"""nms.overlay.peer and peer_info through ansible-playbook and real HTTP, in both dialects."""

from __future__ import annotations

import pytest

from tests.support.emulator import make_group, make_peers, writes_of
from tests.support.modules import examples_of


def peer_by_id(emulator, peer_id):
    status, peer = emulator.api('GET', '/api/peers/%s' % peer_id)
    assert status == 200, peer
    return peer


def group_names_of(emulator, peer_id):
    return sorted(g['name'] for g in peer_by_id(emulator, peer_id).get('groups') or [])


def test_update_rerun_and_rename(emulator, run):
    peers = make_peers(emulator, 'web-1', 'web-2')
    emulator.clear_log()
    task = {'name': 'ssh', 'nms.overlay.peer': {'hostname': 'WEB-1', 'ssh_enabled': True}}
    first = run([task], diff=True)
    assert first.rc == 0, first
    assert first['ssh']['changed'] is True
    assert first['ssh']['diff'] == {'before': {'ssh_enabled': False}, 'after': {'ssh_enabled': True}}
    assert first['ssh']['peer']['ssh_enabled'] is True
    assert first['ssh']['peer']['groups'] == [g for g in first['ssh']['peer']['groups'] if g['name'] == 'All']
    assert writes_of(emulator) == ['PUT /api/peers/%s' % peers['web-1']]
    put = emulator.writes()[0]['body']
    # PUT replaces the peer: the current values are sent with the changed one (on v0.77 also the request field it added,
    # and none of the members only its answers have: created_at, ephemeral, extra_dns_labels, local_flags)
    current = {'inactivity_expiration_enabled': False} if emulator.dialect == 'current' else {}
    assert put == dict({'name': 'web-1', 'ssh_enabled': True, 'login_expiration_enabled': False, 'approval_required': False},
                       **current)
    assert peer_by_id(emulator, peers['web-1'])['ssh_enabled'] is True
    assert peer_by_id(emulator, peers['web-2'])['ssh_enabled'] is False

    # The same task again: no write, one list of peers.
    emulator.clear_log()
    again = run([task])
    assert again['ssh']['changed'] is False
    assert emulator.writes() == []
    assert [r['method'] + ' ' + r['path'] for r in emulator.requests()] == ['GET /api/peers']

    # A task that only names the peer changes nothing.
    emulator.clear_log()
    keep = run([{'name': 'keep', 'nms.overlay.peer': {'name': 'web-2'}}])
    assert keep['keep']['changed'] is False
    assert emulator.writes() == []

    # Rename, found by the overlay address; by id the read is one GET of that peer.
    ip = peer_by_id(emulator, peers['web-2'])['ip']
    emulator.clear_log()
    rename = run([{'name': 'rename', 'nms.overlay.peer': {'ip': ip, 'name': 'web-2-fra'}}], diff=True)
    assert rename['rename']['changed'] is True
    assert rename['rename']['diff'] == {'before': {'name': 'web-2'}, 'after': {'name': 'web-2-fra'}}
    assert rename['rename']['peer']['name'] == 'web-2-fra'
    assert rename['rename']['peer']['dns_label'].startswith('web-2-fra')
    assert writes_of(emulator) == ['PUT /api/peers/%s' % peers['web-2']]
    emulator.clear_log()
    by_id = run([{'name': 'by id', 'nms.overlay.peer': {'id': peers['web-2'], 'name': 'web-2-fra', 'ssh_enabled': False}}])
    assert by_id['by id']['changed'] is False
    assert [r['method'] + ' ' + r['path'] for r in emulator.requests()] == ['GET /api/peers/%s' % peers['web-2']]


def test_groups_exact_add_remove(emulator, run):
    peers = make_peers(emulator, 'web-1', 'db-1')
    web = peers['web-1']
    for name in ('servers', 'monitoring', 'backup'):
        make_group(emulator, name, [peers['db-1']])
    emulator.clear_log()
    exact = {'name': 'exact', 'nms.overlay.peer': {'name': 'web-1', 'groups': ['servers', 'monitoring']}}
    first = run([exact], diff=True)
    assert first.rc == 0, first
    assert first['exact']['changed'] is True
    assert first['exact']['diff'] == {'before': {'groups': []}, 'after': {'groups': ['monitoring', 'servers']}}
    assert sorted(g['name'] for g in first['exact']['peer']['groups']) == ['All', 'monitoring', 'servers']
    assert sorted(w['method'] for w in emulator.writes()) == ['PUT', 'PUT']
    assert all(w['path'].startswith('/api/groups/') for w in emulator.writes())
    # The other members of the groups stay.
    assert all(sorted(w['body']['peers']) == sorted([peers['db-1'], web]) for w in emulator.writes())
    assert group_names_of(emulator, web) == ['All', 'monitoring', 'servers']

    # Unchanged: no write; one list of peers and one of groups.
    emulator.clear_log()
    again = run([exact])
    assert again['exact']['changed'] is False
    assert emulator.writes() == []
    assert sorted(r['path'] for r in emulator.requests()) == ['/api/groups', '/api/peers']

    # add keeps the others; an id works like a name; All is never touched.
    backup_id = [g for g in emulator.api('GET', '/api/groups')[1] if g['name'] == 'backup'][0]['id']
    emulator.clear_log()
    add = run([{'name': 'add', 'nms.overlay.peer': {'name': 'web-1', 'groups': [backup_id, 'servers', 'All'],
                                                    'groups_mode': 'add'}}])
    assert add['add']['changed'] is True
    assert writes_of(emulator) == ['PUT /api/groups/%s' % backup_id]
    assert group_names_of(emulator, web) == ['All', 'backup', 'monitoring', 'servers']

    # remove only takes the peer out of the groups named.
    emulator.clear_log()
    remove = run([{'name': 'remove', 'nms.overlay.peer': {'name': 'web-1', 'groups': ['monitoring', 'backup'],
                                                          'groups_mode': 'remove'}},
                  {'name': 'remove again', 'nms.overlay.peer': {'name': 'web-1', 'groups': ['monitoring'],
                                                                'groups_mode': 'remove'}}])
    assert remove['remove']['changed'] is True
    assert remove['remove again']['changed'] is False
    assert len(emulator.writes()) == 2
    assert group_names_of(emulator, web) == ['All', 'servers']
    assert group_names_of(emulator, peers['db-1']) == ['All', 'backup', 'monitoring', 'servers']

    # exact [] leaves only All.
    empty = run([{'name': 'none', 'nms.overlay.peer': {'name': 'web-1', 'groups': []}}])
    assert empty['none']['changed'] is True
    assert group_names_of(emulator, web) == ['All']


def test_a_group_renamed_all_is_a_group_like_any_other(emulator, run):
    """Issue 28, point 6: only the built-in All group is left alone; a group renamed All (or synced under that name)
    gets and loses members like any other (by id: its name is ambiguous). The built-in one holds every peer, so
    more than the renamed one ever does here (as many would make them indistinguishable, and both left alone)."""
    peers = make_peers(emulator, 'web-1', 'db-1', 'app-1')
    renamed = make_group(emulator, 'staff', [peers['db-1']])
    emulator.ok('PUT', '/api/groups/%s' % renamed['id'], {'name': 'All', 'peers': [peers['db-1']]})
    emulator.clear_log()
    add = run([{'name': 'add', 'nms.overlay.peer': {'name': 'web-1', 'groups': [renamed['id']], 'groups_mode': 'add'}}])
    assert add['add']['changed'] is True, add
    assert writes_of(emulator) == ['PUT /api/groups/%s' % renamed['id']]
    emulator.clear_log()
    exact = run([{'name': 'exact', 'nms.overlay.peer': {'name': 'web-1', 'groups': []}}])
    assert exact['exact']['changed'] is True
    assert writes_of(emulator) == ['PUT /api/groups/%s' % renamed['id']]  # out of the renamed one, never the built-in
    built_in = [group for group in emulator.ok('GET', '/api/groups') if group['name'] == 'All' and group['id'] != renamed['id']]
    assert len(built_in) == 1 and peers['web-1'] in [member['id'] if isinstance(member, dict) else member
                                                     for member in built_in[0]['peers'] or []]


def test_check_mode_sends_no_write_and_predicts(emulator, run):
    peers = make_peers(emulator, 'web-1', 'old-host')
    make_group(emulator, 'servers')
    emulator.clear_log()
    result = run([
        {'name': 'update', 'nms.overlay.peer': {'hostname': 'web-1', 'ssh_enabled': True, 'groups': ['servers']}},
        {'name': 'delete', 'nms.overlay.peer': {'hostname': 'old-host', 'state': 'absent'}},
    ], check=True, diff=True)
    assert result.rc == 0, result
    update = result['update']
    assert update['changed'] is True
    assert update['peer']['ssh_enabled'] is True
    assert sorted(g['name'] for g in update['peer']['groups']) == ['All', 'servers']
    assert update['diff']['after'] == {'ssh_enabled': True, 'groups': ['servers']}
    assert result['delete']['changed'] is True
    assert result['delete']['diff']['after'] == {}
    assert emulator.writes() == []
    assert peer_by_id(emulator, peers['web-1'])['ssh_enabled'] is False
    assert emulator.api('GET', '/api/peers/%s' % peers['old-host'])[0] == 200


def test_delete_by_ip_then_again(emulator, run):
    peers = make_peers(emulator, 'old-build-host', 'keep')
    ip = peer_by_id(emulator, peers['old-build-host'])['ip']
    emulator.clear_log()
    result = run([
        {'name': 'delete', 'nms.overlay.peer': {'ip': ip, 'state': 'absent'}},
        {'name': 'delete again', 'nms.overlay.peer': {'ip': ip, 'state': 'absent'}},
    ])
    assert result.rc == 0, result
    assert result['delete']['changed'] is True
    assert result['delete']['peer']['id'] == peers['old-build-host']
    assert result['delete again']['changed'] is False
    assert result['delete again']['peer'] == {}
    assert writes_of(emulator) == ['DELETE /api/peers/%s' % peers['old-build-host']]
    assert emulator.api('GET', '/api/peers/%s' % peers['old-build-host'])[0] == 404
    assert emulator.api('GET', '/api/peers/%s' % peers['keep'])[0] == 200


def test_failures_are_clear_and_write_nothing(emulator, run):
    make_peers(emulator, 'web-1')
    make_peers(emulator, 'twin')
    twins = make_peers(emulator, 'twin')
    emulator.clear_log()
    result = run([
        {'name': 'missing', 'nms.overlay.peer': {'hostname': 'nowhere', 'ssh_enabled': True}, 'ignore_errors': True},
        {'name': 'unknown group', 'nms.overlay.peer': {'hostname': 'web-1', 'ssh_enabled': True,
                                                       'groups': ['servers', 'nope']}, 'ignore_errors': True},
        {'name': 'ambiguous', 'nms.overlay.peer': {'hostname': 'twin', 'ssh_enabled': True}, 'ignore_errors': True},
        {'name': 'expiry', 'nms.overlay.peer': {'hostname': 'web-1', 'login_expiration_enabled': True},
         'ignore_errors': True},
        {'name': 'bad ip', 'nms.overlay.peer': {'ip': 'web-1'}, 'ignore_errors': True},
        {'name': 'two keys', 'nms.overlay.peer': {'id': 'x', 'hostname': 'web-1'}, 'ignore_errors': True},
    ])
    msgs = {name: result[name]['msg'] for name in ('missing', 'unknown group', 'ambiguous', 'expiry', 'bad ip', 'two keys')}
    assert all(result[name]['failed'] for name in msgs)
    assert msgs['missing'].startswith("no peer with hostname 'nowhere' exists. Peers cannot be created through the API")
    assert 'setup key' in msgs['missing']
    assert msgs['unknown group'] == "groups: no group with the id or name 'servers', 'nope'"
    assert "hostname 'twin' matches 2 peers" in msgs['ambiguous'] and twins['twin'] in msgs['ambiguous']
    assert msgs['expiry'].startswith("login_expiration_enabled: the peer 'web-1' joined with a setup key")
    assert msgs['bad ip'].startswith("option ip: 'web-1' is not an IP address")
    assert 'mutually exclusive' in msgs['two keys']
    assert emulator.writes() == []


def test_login_expiration_of_an_sso_peer(emulator, run):
    user = emulator.add_user('dev@example.com', role='user')
    peer = emulator.enroll('', 'laptop', user_id=user['id'])
    emulator.clear_log()
    result = run([{'name': 'expiry', 'nms.overlay.peer': {'hostname': 'laptop', 'login_expiration_enabled': False}},
                  {'name': 'again', 'nms.overlay.peer': {'hostname': 'laptop', 'login_expiration_enabled': False}}])
    assert result.rc == 0, result
    assert result['expiry']['changed'] is True and result['again']['changed'] is False
    assert peer_by_id(emulator, peer['id'])['login_expiration_enabled'] is False
    assert len(emulator.writes()) == 1


def test_approval_required_is_ignored_by_open_source_servers(emulator, run):
    """Open-source servers ignore approval_required: known by reading (the peer and the account), so no run
    sends a write for it, and check mode predicts the real run."""
    peer_id = make_peers(emulator, 'a1')['a1']
    task = {'hostname': 'a1', 'approval_required': True}
    emulator.clear_log()
    checked = run([{'name': 'approval', 'nms.overlay.peer': task}], check=True, diff=True)
    real = run([{'name': 'approval', 'nms.overlay.peer': task}, {'name': 'again', 'nms.overlay.peer': task}], diff=True)
    assert real.rc == 0, real
    for result in (checked['approval'], real['approval'], real['again']):
        assert result['changed'] is False and not (result.get('diff') or {}).get('after'), result.get('diff')
        assert result['peer']['approval_required'] is False
        assert any('approval_required=True is not applied' in w for w in result.get('warnings', [])), result
    assert emulator.writes() == []
    # per task: the list of peers and one read of the account
    assert [r['method'] + ' ' + r['path'] for r in emulator.requests()] == ['GET /api/peers', 'GET /api/accounts'] * 3
    assert peer_by_id(emulator, peer_id)['approval_required'] is False

    # With another change, only that change is sent and reported.
    emulator.clear_log()
    both = run([{'name': 'both', 'nms.overlay.peer': dict(task, ssh_enabled=True)}], diff=True)
    assert both['both']['changed'] is True
    assert both['both']['diff'] == {'before': {'ssh_enabled': False}, 'after': {'ssh_enabled': True}}
    assert [w['body']['approval_required'] for w in emulator.writes()] == [False]


def test_peer_info_unknown_group_fails_naming_it(emulator, run):
    peers = make_peers(emulator, 'web-1')
    make_group(emulator, 'servers', [peers['web-1']])
    make_group(emulator, 'empty')
    emulator.clear_log()
    result = run([{'name': 'typo', 'nms.overlay.peer_info': {'group': 'nogroup'}, 'ignore_errors': True}])
    assert result['typo']['failed'] is True
    assert result['typo']['msg'] == "group: no group with the id or name 'nogroup'"
    assert [r['path'] for r in emulator.requests()] == ['/api/peers', '/api/groups']
    emulator.clear_log()
    found = run([{'name': 'servers', 'nms.overlay.peer_info': {'group': 'servers'}},
                 {'name': 'empty', 'nms.overlay.peer_info': {'group': 'empty'}}])
    assert [p['name'] for p in found['servers']['peers']] == ['web-1']
    assert found['empty']['peers'] == []
    # a group a peer is in needs no list of groups; an empty one needs one to tell it from a typo
    accessible = ['/api/peers/%s/accessible-peers' % peers['web-1']] if emulator.dialect == 'current' else []
    assert [r['path'] for r in emulator.requests()] == ['/api/peers', '/api/peers/%s' % peers['web-1']] + accessible + [
        '/api/peers', '/api/groups']


@pytest.mark.parametrize('how', ['all', 'id', 'name', 'hostname', 'group', 'connected', 'disconnected', 'os', 'none'])
def test_peer_info_filters(emulator, run, how):
    peers = make_peers(emulator, 'web-1', 'db-1')
    group = make_group(emulator, 'servers', [peers['web-1']])
    status, seeded = emulator.control('POST', '/_emulator/peers', {'peers': [
        {'hostname': 'laptop', 'os': 'Windows 11', 'connected': False}]}, expect_ok=False)
    assert status == 200, seeded
    args = {
        'all': {}, 'id': {'id': peers['db-1']}, 'name': {'name': 'db-1'}, 'hostname': {'hostname': 'DB-1'},
        'group': {'group': group['id']}, 'connected': {'connected': True, 'os': 'linux'},
        'disconnected': {'connected': False}, 'os': {'os': 'windows'}, 'none': {'name': 'nope'},
    }[how]
    emulator.clear_log()
    result = run([{'name': 'info', 'nms.overlay.peer_info': args}])
    assert result.rc == 0, result
    found = result['info']['peers']
    names = sorted(p['name'] for p in found)
    expected = {
        'all': ['db-1', 'laptop', 'web-1'], 'id': ['db-1'], 'name': ['db-1'], 'hostname': ['db-1'],
        'group': ['web-1'], 'connected': ['db-1', 'web-1'], 'disconnected': ['laptop'], 'os': ['laptop'], 'none': [],
    }[how]
    assert names == expected
    for peer in found:
        assert isinstance(peer['groups'], list)  # never null
    if len(found) == 1:
        # One peer: read on its own, with the peers it can reach (the Default policy connects All to All).
        reachable = sorted(p['name'] for p in found[0]['accessible_peers'])
        assert reachable == sorted(n for n in ['db-1', 'laptop', 'web-1'] if n != found[0]['name'])
        # a v0.77 server answers the accessible peers apart: one more read, never the same peer twice
        assert len(emulator.requests()) == (1 if how == 'id' else 2) + (emulator.dialect == 'current')
    else:
        assert all('accessible_peers' not in p for p in found)
        assert len(emulator.requests()) == 1


def test_peer_info_fields_keep_only_the_named_fields(emulator, run):
    peers = make_peers(emulator, 'web-1', 'db-1')
    emulator.clear_log()
    result = run([
        {'name': 'few', 'nms.overlay.peer_info': {'fields': ['name', 'ip', 'no_such_field']}},
        {'name': 'one', 'nms.overlay.peer_info': {'name': 'web-1', 'fields': ['groups']}},
        {'name': 'reach', 'nms.overlay.peer_info': {'name': 'web-1', 'fields': ['accessible_peers']}},
    ])
    assert result.rc == 0, result
    few = sorted(result['few']['peers'], key=lambda peer: peer['name'])
    assert [sorted(peer) for peer in few] == [['id', 'ip', 'name'], ['id', 'ip', 'name']]
    assert [(peer['id'], peer['name']) for peer in few] == sorted(
        [(peers['db-1'], 'db-1'), (peers['web-1'], 'web-1')], key=lambda pair: pair[1])
    one = result['one']['peers']
    assert [sorted(peer) for peer in one] == [['groups', 'id']] and isinstance(one[0]['groups'], list)
    assert sorted(result['reach']['peers'][0]) == ['accessible_peers', 'id']
    # one list each; only the task that asks for accessible_peers reads the single peer (and, on a v0.77
    # server, whose single peer answer has none, its accessible-peers list)
    reach = ['/api/peers/%s' % peers['web-1']]
    if emulator.dialect == 'current':
        reach.append('/api/peers/%s/accessible-peers' % peers['web-1'])
    assert [r['path'] for r in emulator.requests()] == ['/api/peers', '/api/peers', '/api/peers'] + reach


def test_examples_run_unchanged(emulator, run):
    """Every task of the peer and peer_info EXAMPLES runs against the emulator as written."""
    make_peers(emulator, 'old-build-host')
    status, seeded = emulator.control('POST', '/_emulator/peers', {'peers': [
        {'hostname': 'web-1', 'ip': '100.64.0.10'}]}, expect_ok=False)
    assert status == 200, seeded
    for name in ('servers', 'monitoring', 'backup'):
        make_group(emulator, name)
    tasks = examples_of('peer') + examples_of('peer_info')
    if emulator.dialect != 'current':  # older servers refuse the examples of today's options (tested below)
        tasks = [task for task in tasks if not sets_todays_options(task.get('nms.overlay.peer') or {})]
    result = run(tasks)
    assert result.rc == 0, result
    assert not result.failed
    web = peer_by_id(emulator, seeded[0]['id'])
    assert web['name'] == 'web-1-frankfurt' and web['ssh_enabled'] is True
    assert sorted(g['name'] for g in web['groups']) == ['All', 'backup', 'monitoring', 'servers']
    assert [p['hostname'] for p in emulator.api('GET', '/api/peers')[1]] == ['web-1']


# -- fields of today's servers (v0.77) --------------------------------------------------------------------
def sets_todays_options(args):
    """Whether peer options set what only today's servers have: inactivity expiration, or a new address (ip with id
    or hostname; alone, ip finds the peer)."""
    return 'inactivity_expiration_enabled' in args or ('ip' in args and ('id' in args or 'hostname' in args))


def free_address(emulator):
    taken = set(p['ip'] for p in emulator.api('GET', '/api/peers')[1])
    return next('100.64.250.%d' % n for n in range(2, 250) if '100.64.250.%d' % n not in taken)


def test_inactivity_expiration_and_address_on_a_current_server(emulator, run):
    if emulator.dialect != 'current':
        pytest.skip('needs the current dialect (a v0.77.1 server)')
    user = emulator.add_user('dev@example.com', role='user')
    laptop = emulator.enroll('', 'laptop', user_id=user['id'])
    web = make_peers(emulator, 'web-1')['web-1']
    assert peer_by_id(emulator, laptop['id'])['inactivity_expiration_enabled'] is True  # v0.77's default for SSO peers
    off = {'name': 'off', 'nms.overlay.peer': {'hostname': 'laptop', 'inactivity_expiration_enabled': False}}
    emulator.clear_log()
    check = run([off], check=True, diff=True)
    assert check['off']['changed'] is True and check['off']['peer']['inactivity_expiration_enabled'] is False
    assert check['off']['diff'] == {'before': {'inactivity_expiration_enabled': True},
                                    'after': {'inactivity_expiration_enabled': False}}
    assert emulator.writes() == []

    first = run([off], diff=True)
    assert first.rc == 0, first
    assert first['off']['changed'] is True and first['off']['diff'] == check['off']['diff']
    assert writes_of(emulator) == ['PUT /api/peers/%s' % laptop['id']]
    assert emulator.writes()[0]['body']['inactivity_expiration_enabled'] is False and 'ip' not in emulator.writes()[0]['body']
    assert peer_by_id(emulator, laptop['id'])['inactivity_expiration_enabled'] is False

    emulator.clear_log()
    again = run([off])
    assert again['off']['changed'] is False and emulator.writes() == []
    # which server this is (a task setting an option of today's servers asks once), then the peers
    assert [r['method'] + ' ' + r['path'] for r in emulator.requests()] == ['GET /api/instance/version', 'GET /api/peers']

    # On again; then an update that leaves it unset keeps it (v0.77 resets what a PUT leaves out).
    emulator.clear_log()
    both = run([{'name': 'on', 'nms.overlay.peer': {'hostname': 'laptop', 'inactivity_expiration_enabled': True}},
                {'name': 'ssh', 'nms.overlay.peer': {'hostname': 'laptop', 'ssh_enabled': True}}])
    assert both.rc == 0, both
    assert [w['body']['inactivity_expiration_enabled'] for w in emulator.writes()] == [True, True]
    assert peer_by_id(emulator, laptop['id'])['inactivity_expiration_enabled'] is True

    # A new address: by hostname; again no write; check mode plans one without writing.
    old, new, later = peer_by_id(emulator, web)['ip'], free_address(emulator), None
    emulator.clear_log()
    move = run([{'name': 'move', 'nms.overlay.peer': {'hostname': 'web-1', 'ip': new}}], diff=True)
    assert move.rc == 0, move
    assert move['move']['diff'] == {'before': {'ip': old}, 'after': {'ip': new}} and move['move']['peer']['ip'] == new
    assert writes_of(emulator) == ['PUT /api/peers/%s' % web] and emulator.writes()[0]['body']['ip'] == new
    assert peer_by_id(emulator, web)['ip'] == new
    emulator.clear_log()
    later = free_address(emulator)
    result = run([{'name': 'again', 'nms.overlay.peer': {'id': web, 'ip': new}},
                  {'name': 'check', 'nms.overlay.peer': {'id': web, 'ip': later}}], check=True)
    assert result['again']['changed'] is False and result['check']['changed'] is True
    assert result['check']['peer']['ip'] == later and emulator.writes() == []

    # Refused: another peer's address (before any write), an address outside the range (by the server, its message shown).
    emulator.clear_log()
    taken = peer_by_id(emulator, laptop['id'])['ip']
    bad = run([{'name': 'taken', 'ignore_errors': True, 'nms.overlay.peer': {'id': web, 'ip': taken}},
               {'name': 'outside', 'ignore_errors': True, 'nms.overlay.peer': {'id': web, 'ip': '10.1.2.3'}}])
    assert bad['taken']['failed'] is True
    assert bad['taken']['msg'] == ("option ip: %s is the address of the peer 'laptop' (id %s); the peer 'web-1' can only "
                                   "get a free address" % (taken, laptop['id']))
    assert bad['outside']['failed'] is True
    assert 'PUT %s/api/peers/%s' % (emulator.url, web) in bad['outside']['msg']
    assert 'update peer ip transaction: ip 10.1.2.3 is not within the account network range' in bad['outside']['msg']
    assert writes_of(emulator) == ['PUT /api/peers/%s' % web]  # only the refused one
    assert peer_by_id(emulator, web)['ip'] == new


def test_todays_peer_options_are_refused_by_a_v027_server_before_any_write(emulator, run):
    if emulator.dialect != 'netbird':
        pytest.skip('needs the netbird dialect (a v0.27.6 server)')
    make_peers(emulator, 'web-1')
    emulator.clear_log()
    result = run([
        {'name': 'inactivity', 'ignore_errors': True,
         'nms.overlay.peer': {'hostname': 'web-1', 'inactivity_expiration_enabled': True}},
        {'name': 'address', 'ignore_errors': True, 'nms.overlay.peer': {'hostname': 'web-1', 'ip': '100.64.250.2'}},
    ])
    assert result['inactivity']['msg'] == ('option inactivity_expiration_enabled: this server (v0.27: it has no GET '
                                           '/api/instance/version) does not have it (servers have it from v0.30.2 on)')
    assert result['address']['msg'].startswith("option ip: this server (v0.27: it has no GET /api/instance/version) "
                                               "cannot change a peer's address (servers can from v0.53.0 on)")
    assert [(r['method'], r['path']) for r in emulator.requests()] == [('GET', '/api/instance/version')] * 2
