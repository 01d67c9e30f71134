# -*- coding: utf-8 -*-
"""Unit tests of the peer resource and helpers with a scripted client (no HTTP)."""

from __future__ import annotations

import copy
import types

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError, ShapedReads
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._peers import (
    bare_ip, describe_peer, in_any_group, normalise_peer, os_matches, peer_shape_problem, same_hostname,
)
from ansible_collections.nms.overlay.plugins.module_utils._resource import MAX_SETTLE
from ansible_collections.nms.overlay.plugins.module_utils import _store as peer_resource
from ansible_collections.nms.overlay.plugins.module_utils._resources.peer import PeerModule
from tests.support import fakes
from tests.support.fakes import engine


def peer(pid, name, ip, user_id='', **extra):
    data = dict(id=pid, name=name, hostname=name, ip=ip, user_id=user_id, ssh_enabled=False,
                login_expiration_enabled=bool(user_id), approval_required=False, groups=None, connected=True, os='linux')
    data.update(extra)
    return data


class FakeServer(fakes.FakeClient):
    def __init__(self, current=False):
        super().__init__()
        self.current = current  # a v0.77 server: GET /instance/version answers, peers have today's fields
        self.peers = {
            'p1': peer('p1', 'web-1', '100.64.0.10'),
            'p2': peer('p2', 'db-1', '100.64.0.11'),
            'p3': peer('p3', 'laptop', '100.64.0.12', user_id='u1'),
        }
        self.groups = {
            'gall': {'id': 'gall', 'name': 'All', 'peers': [{'id': p, 'name': p} for p in self.peers]},
            'g1': {'id': 'g1', 'name': 'servers', 'peers': [{'id': 'p2', 'name': 'db-1'}]},
            'g2': {'id': 'g2', 'name': 'backup', 'peers': None},
        }
        self.account = {'id': 'acc', 'settings': {'peer_login_expiration': 86400}}  # open source: no extra
        if current:
            for item in self.peers.values():
                item['inactivity_expiration_enabled'] = False

    def render(self, pid):
        data = copy.deepcopy(self.peers[pid])
        data['groups'] = [{'id': g['id'], 'name': g['name']} for g in self.groups.values()
                          if pid in [m['id'] if isinstance(m, dict) else m for m in g['peers'] or []]] or None
        return data

    def get(self, path, query=None):
        self.calls.append(('GET', path))
        if path == '/peers':
            return [self.render(pid) for pid in self.peers]
        if path == '/groups':
            return copy.deepcopy(list(self.groups.values()))
        if path == '/accounts':
            return [copy.deepcopy(self.account)]
        if path == '/instance/version' and self.current:
            return {'management_current_version': '0.77.1'}
        if path.startswith('/groups/'):
            return copy.deepcopy(self.groups[path.rsplit('/', 1)[1]])
        pid = path.rsplit('/', 1)[1]
        if pid not in self.peers:
            raise ApiError('GET', path, 404, 'not found')
        return self.render(pid)

    def put(self, path, body):
        self.calls.append(('PUT', path, body))
        kind, oid = path.strip('/').split('/')
        if kind == 'groups':
            self.groups[oid] = dict(self.groups[oid], name=body['name'], peers=[{'id': p} for p in body['peers']])
            return copy.deepcopy(self.groups[oid])
        self.peers[oid].update(name=body['name'], ssh_enabled=body['ssh_enabled'],
                               login_expiration_enabled=body['login_expiration_enabled'])
        if self.current:
            self.peers[oid].update(inactivity_expiration_enabled=body.get('inactivity_expiration_enabled', False))
            if body.get('ip') is not None:
                self.peers[oid]['ip'] = body['ip']
        if self.account['settings'].get('extra', {}).get('peer_approval_enabled'):  # a cloud server applies it
            self.peers[oid]['approval_required'] = body['approval_required']
        return self.render(oid)

    def delete(self, path):
        self.calls.append(('DELETE', path))
        del self.peers[path.rsplit('/', 1)[1]]
        return {}


def run(server, check_mode=False, **options):
    instance = engine(PeerModule, server, check_mode, **options)
    return instance.run(), instance.module


def test_helpers():
    assert bare_ip('100.64.0.5/16') == '100.64.0.5' and bare_ip('<nil>') is None and bare_ip('') is None
    assert same_hostname('Web-1.', 'web-1') and not same_hostname(None, 'x')
    assert os_matches('Ubuntu 22.04', 'ubuntu 22') and not os_matches(None, 'linux')
    data = {'groups': [{'id': 'g1', 'name': 'servers'}]}
    assert in_any_group(data, ['servers']) and in_any_group(data, ['g1']) and not in_any_group(data, ['x'])
    assert normalise_peer({'groups': None, 'accessible_peers': None}) == {'groups': [], 'accessible_peers': []}
    assert 'accessible_peers' not in normalise_peer({'groups': None})


SERVER_PEER = {'id': 'p1', 'name': 'web', 'dns_label': 'web.netbird.selfhosted', 'hostname': 'web', 'ip': '100.64.0.1',
               'connection_ip': '<nil>', 'connected': True, 'groups': [{'id': 'g1', 'name': 'All'}], 'os': 'linux'}


@pytest.mark.parametrize('change, problem', [
    ({}, None),
    ({'groups': None, 'name': None, 'connected': None, 'id': 7, 'os': {'deep': [1, 2]}}, None),
    ({'groups': 3}, ('groups', 'a number where a list of group objects was expected')),
    ({'groups': ['x']}, ('groups[0]', 'a string where a group object was expected')),
    ({'groups': [{'id': True, 'name': 'x'}]}, ('groups[0].id', 'a boolean where a string was expected')),
    ({'groups': [{'id': 'g', 'name': ['x']}]}, ('groups[0].name', 'a list where a string was expected')),
    ({'name': 5}, ('name', 'a number where a string was expected')),
    ({'dns_label': []}, ('dns_label', 'a list where a string was expected')),
    ({'ip': {}}, ('ip', 'an object where a string was expected')),
    ({'connected': 'yes'}, ('connected', 'a string where a boolean was expected')),
    ({'id': None}, ('id', 'null where a string was expected')),
])
def test_peer_shape_problem_names_the_first_wrong_field(change, problem):
    assert peer_shape_problem(dict(SERVER_PEER, **change)) == problem


def test_describe_peer_names_it_whatever_is_wrong():
    assert describe_peer(SERVER_PEER) == "the peer 'web' (id p1)"
    assert describe_peer(dict(SERVER_PEER, name=5)) == 'the peer with id p1'
    assert describe_peer(dict(SERVER_PEER, id=[])) == "the peer 'web'"
    assert describe_peer({}) == 'a peer without an id'


def test_update_by_hostname_sends_the_whole_peer():
    server = FakeServer()
    result, dummy = run(server, hostname='WEB-1', ssh_enabled=True)
    assert result['changed'] is True
    assert result['diff'] == {'before': {'ssh_enabled': False}, 'after': {'ssh_enabled': True}}
    assert server.writes() == [('PUT', '/peers/p1', {'name': 'web-1', 'ssh_enabled': True,
                                                     'login_expiration_enabled': False, 'approval_required': False})]
    assert result['peer']['groups'] == [{'id': 'gall', 'name': 'All'}]


def test_unchanged_reads_only_the_peer_list():
    server = FakeServer()
    result, dummy = run(server, name='web-1', ssh_enabled=False)
    assert result['changed'] is False
    assert server.calls == [('GET', '/peers')]


def test_rename_by_ip_and_by_id():
    server = FakeServer()
    result, dummy = run(server, ip='100.64.0.11/16', name='db-2')
    assert result['changed'] is True and server.peers['p2']['name'] == 'db-2'
    server.calls = []
    result, dummy = run(server, id='p2', name='db-2')
    assert result['changed'] is False and server.calls == [('GET', '/peers/p2')]


def test_missing_peer_says_peers_join_with_setup_keys():
    with pytest.raises(TaskError, match=r"no peer with hostname 'nope' exists\. Peers cannot be created through the API"):
        run(FakeServer(), hostname='nope', ssh_enabled=True)
    with pytest.raises(TaskError, match="no peer with id 'zz' exists"):
        run(FakeServer(), id='zz')


def test_ambiguous_name_lists_ids():
    server = FakeServer()
    server.peers['p4'] = peer('p4', 'web-1', '100.64.0.13')
    with pytest.raises(TaskError, match=r"name 'web-1' matches 2 peers \(ids: p1, p4\)"):
        run(server, name='web-1')


def test_login_expiration_of_a_setup_key_peer_fails_before_a_write():
    server = FakeServer()
    with pytest.raises(TaskError, match="login_expiration_enabled: the peer 'web-1' joined with a setup key"):
        run(server, name='web-1', login_expiration_enabled=True)
    assert server.writes() == []
    result, dummy = run(server, name='laptop', login_expiration_enabled=False)
    assert result['changed'] is True


@pytest.mark.parametrize('mode, groups, expected', [
    ('exact', ['servers', 'g2'], ['All', 'backup', 'servers']),
    ('exact', [], ['All']),
    ('add', ['backup'], ['All', 'backup', 'servers']),
    ('remove', ['servers', 'All'], ['All']),
])
def test_groups_modes(mode, groups, expected):
    server = FakeServer()
    server.groups['g1']['peers'].append({'id': 'p1', 'name': 'web-1'})
    result, dummy = run(server, name='web-1', groups=groups, groups_mode=mode)
    names = sorted(g['name'] for g in result['peer']['groups'])
    assert names == expected
    assert all(c[1].startswith('/groups/') for c in server.writes())
    assert 'gall' not in str(server.writes())  # the All group is never written
    # The other members stay in the groups.
    assert 'p2' in [m['id'] for m in server.groups['g1']['peers']]


def test_groups_unchanged_and_check_mode():
    server = FakeServer()
    result, dummy = run(server, name='db-1', groups=['servers'])
    assert result['changed'] is False and server.writes() == []
    assert [c[1] for c in server.calls] == ['/peers', '/groups']
    result, dummy = run(server, check_mode=True, name='db-1', groups=['backup'], ssh_enabled=True)
    assert result['changed'] is True and server.writes() == []
    assert result['diff'] == {'before': {'ssh_enabled': False, 'groups': ['servers']},
                              'after': {'ssh_enabled': True, 'groups': ['backup']}}
    assert sorted(g['name'] for g in result['peer']['groups']) == ['All', 'backup']


def test_unknown_group_fails_before_a_write():
    server = FakeServer()
    with pytest.raises(TaskError, match="groups: no group with the id or name 'nope'"):
        run(server, name='web-1', ssh_enabled=True, groups=['nope'])
    assert server.writes() == []


def test_invalid_options_name_the_option():
    with pytest.raises(TaskError, match="option ip: 'abc' is not an IP address"):
        run(FakeServer(), ip='abc')
    with pytest.raises(TaskError, match='option groups.0.: String should have at least 1 character|option groups'):
        run(FakeServer(), name='web-1', groups=[''])


def test_delete_and_delete_again():
    server = FakeServer()
    result, dummy = run(server, name='web-1', state='absent')
    assert result['changed'] is True and result['peer']['id'] == 'p1'
    assert server.writes() == [('DELETE', '/peers/p1')]
    result, dummy = run(server, name='web-1', state='absent')
    assert result == {'changed': False, 'peer': {}}


def test_approval_required_ignored_by_the_server_warns():
    server = FakeServer()
    result, shim = run(server, name='web-1', approval_required=True)
    assert result['changed'] is False and 'diff' not in result
    assert any('approval_required=True' in w for w in shim.warnings)
    result, shim = run(server, name='web-1', approval_required=True, ssh_enabled=True)
    assert result['changed'] is True
    assert result['diff'] == {'before': {'ssh_enabled': False}, 'after': {'ssh_enabled': True}}


@pytest.mark.parametrize('check_mode', [False, True])
def test_approval_required_ignored_is_known_by_reading_and_never_written(check_mode):
    server = FakeServer()
    result, shim = run(server, check_mode=check_mode, name='web-1', approval_required=True)
    assert result['changed'] is False and 'diff' not in result
    assert server.writes() == []
    assert [c[1] for c in server.calls] == ['/peers', '/accounts']  # one read of the account, no write
    assert len(shim.warnings) == 1 and 'approval_required=True is not applied' in shim.warnings[0]
    # with another change, only that change is sent and reported
    result, shim = run(server, check_mode=check_mode, name='web-1', approval_required=True, ssh_enabled=True)
    assert result['changed'] is True
    assert result['diff'] == {'before': {'ssh_enabled': False}, 'after': {'ssh_enabled': True}}
    assert result['peer']['approval_required'] is False
    if not check_mode:
        assert server.writes()[-1][2]['approval_required'] is False


def test_approval_required_applied_where_the_account_uses_peer_approval():
    server = FakeServer()
    server.account['settings']['extra'] = {'peer_approval_enabled': True}
    result, shim = run(server, name='web-1', approval_required=True)
    assert result['changed'] is True and shim.warnings == []
    assert server.writes() == [('PUT', '/peers/p1', {'name': 'web-1', 'ssh_enabled': False,
                                                     'login_expiration_enabled': False, 'approval_required': True})]
    # a pending peer shows the server uses approval: approving it needs no read of the account
    server.calls = []
    result, shim = run(server, name='web-1', approval_required=False)
    assert result['changed'] is True and [c[1] for c in server.calls] == ['/peers', '/peers/p1']


def test_approval_required_unknown_to_the_server_is_not_sent():
    server = FakeServer()
    del server.peers['p1']['approval_required']
    result, shim = run(server, name='web-1', approval_required=True)
    assert result['changed'] is False and server.writes() == [] and [c[1] for c in server.calls] == ['/peers']
    assert 'is not applied' in shim.warnings[0]


def test_a_single_peer_gets_its_accessible_peers_from_where_the_server_keeps_them():
    from ansible_collections.nms.overlay.plugins.module_utils._peers import with_accessible_peers

    class Reads(ShapedReads):
        def __init__(self):
            self.paths = []

        def get(self, path, query=None):
            self.paths.append(path)
            return [{'id': 'p2', 'name': 'db-1'}]

    client = Reads()
    # v0.27: in the peer's own answer, no request
    assert with_accessible_peers(client, {'id': 'p1', 'accessible_peers': []}, '/peers') == {'id': 'p1', 'accessible_peers': []}
    assert client.paths == []
    # today's servers: a request of its own
    assert with_accessible_peers(client, {'id': 'p1'}, '/peers') == {'id': 'p1', 'accessible_peers': [{'id': 'p2', 'name': 'db-1'}]}
    assert client.paths == ['/peers/p1/accessible-peers']


class RacingServer(FakeServer):
    """Another client, which read the member list before this one wrote it, writes its own list right after
    each of this one's group writes (the first ``undo`` of them): a lost update, seen only by reading back. Each
    request takes ``takes`` seconds on ``clock``."""

    def __init__(self, undo, other_list=('p2',), clock=None, takes=0.25):
        super().__init__()
        self.undo = undo
        self.other_list = [{'id': pid} for pid in other_list]
        self.clock = clock
        self.takes = takes

    def get(self, path, query=None):
        if self.clock is not None:
            self.clock.advance(self.takes)
        return super().get(path, query)

    def put(self, path, body):
        if self.clock is not None:
            self.clock.advance(self.takes)
        answer = super().put(path, body)
        if path.startswith('/groups/') and self.undo:
            self.undo -= 1
            oid = path.rsplit('/', 1)[1]
            self.groups[oid]['peers'] = copy.deepcopy(self.other_list)
        return answer


@pytest.mark.parametrize('undo', [1, 3])
def test_group_write_undone_by_a_concurrent_writer_is_made_again(undo, clock):
    server = RacingServer(undo, clock=clock)
    result, dummy = run(server, name='web-1', groups=['servers'], groups_mode='add')
    assert result['changed'] is True
    assert [m['id'] for m in server.groups['g1']['peers']] == ['p2', 'p1']
    puts = [c for c in server.writes() if c[1] == '/groups/g1']
    assert len(puts) == undo + 1 and all(c[2]['peers'] == ['p2', 'p1'] for c in puts)
    assert {'id': 'g1', 'name': 'servers'} in result['peer']['groups']
    # each write is read back once as long as its read and write took (2 requests of 0.25 s) has passed; between
    # the tries a random pause of at most 0.25 s, 0.5 s, 1 s ... (MEMBERSHIP_BACKOFF * 2 ** (try - 1))
    settles, pauses = clock.waits[0::2], clock.waits[1::2]
    assert settles == pytest.approx([0.5] * (undo + 1)) and len(pauses) == undo
    assert all(0 <= pause <= 0.25 * 2 ** n for n, pause in enumerate(pauses))


def test_removal_undone_by_a_concurrent_writer_is_made_again():
    server = RacingServer(1, other_list=('p2', 'p1'))
    server.groups['g1']['peers'] = [{'id': 'p2'}, {'id': 'p1'}]
    result, dummy = run(server, name='web-1', groups=['servers'], groups_mode='remove')
    assert result['changed'] is True and [m['id'] for m in server.groups['g1']['peers']] == ['p2']
    assert len(server.writes()) == 2


def test_group_write_always_undone_fails_naming_the_group(clock, monkeypatch):
    ranges = []

    def longest(low, high):
        ranges.append((low, high))
        return high

    monkeypatch.setattr(peer_resource, 'random', types.SimpleNamespace(uniform=longest))
    server = RacingServer(100, clock=clock)
    with pytest.raises(TaskError) as failure:
        run(server, name='web-1', groups=['servers'], groups_mode='add')
    message = str(failure.value)
    assert "the group 'servers' (id g1)" in message and 'p1' in message and 'concurrent' in message
    assert len(server.writes()) == 10
    # the pauses between the 10 tries: random, up to a bound that doubles from 0.25 s to at most MAX_SETTLE
    assert ranges == [(0, bound) for bound in (0.25, 0.5, 1.0, 2.0, MAX_SETTLE, MAX_SETTLE, MAX_SETTLE, MAX_SETTLE, MAX_SETTLE)]
    assert clock.waits[1::2] == [bound for dummy, bound in ranges] and clock.waits[0::2] == [0.5] * 10


# -- fields of today's servers (v0.77) --------------------------------------------------------------------
def test_inactivity_expiration_is_sent_when_set_and_kept_when_not():
    server = FakeServer(current=True)
    result, dummy = run(server, hostname='laptop', inactivity_expiration_enabled=True)
    assert result['diff'] == {'before': {'inactivity_expiration_enabled': False}, 'after': {'inactivity_expiration_enabled': True}}
    assert server.writes()[0][2]['inactivity_expiration_enabled'] is True
    assert result['peer']['inactivity_expiration_enabled'] is True
    server.calls = []
    result, dummy = run(server, hostname='laptop', ssh_enabled=True)  # a PUT that leaves it out would reset it
    body = server.writes()[0][2]
    assert body['inactivity_expiration_enabled'] is True and 'ip' not in body
    assert server.peers['p3']['inactivity_expiration_enabled'] is True
    server.calls = []
    result, dummy = run(server, hostname='laptop', inactivity_expiration_enabled=True)
    assert result['changed'] is False and server.writes() == []


def test_a_v027_peer_update_sends_no_field_of_todays_servers():
    server = FakeServer()
    run(server, id='p3', ssh_enabled=True)
    assert set(server.writes()[0][2]) == {'name', 'ssh_enabled', 'login_expiration_enabled', 'approval_required'}


@pytest.mark.parametrize('options, option', [({'inactivity_expiration_enabled': True}, 'inactivity_expiration_enabled'),
                                             ({'ip': '100.64.0.20'}, 'ip')])
def test_todays_peer_options_are_refused_by_a_v027_server_before_any_write(options, option):
    server = FakeServer()
    with pytest.raises(TaskError) as info:
        run(server, id='p1', **options)
    assert str(info.value).startswith('option %s: this server (v0.27: it has no GET /api/instance/version) ' % option)
    assert server.calls == [('GET', '/instance/version')]


def test_ip_with_id_or_hostname_moves_the_peer_and_alone_finds_it():
    server = FakeServer(current=True)
    result, dummy = run(server, hostname='web-1', ip='100.64.0.20')
    assert result['changed'] is True
    assert result['diff'] == {'before': {'ip': '100.64.0.10'}, 'after': {'ip': '100.64.0.20'}}
    assert server.writes()[0][2]['ip'] == '100.64.0.20' and result['peer']['ip'] == '100.64.0.20'
    server.calls = []
    result, dummy = run(server, id='p1', ip='100.64.0.20')
    assert result['changed'] is False and server.writes() == []
    # alone, ip finds the peer (on any server) and is never sent
    server.calls = []
    result, dummy = run(server, ip='100.64.0.20', name='web-2')
    assert result['changed'] is True and 'ip' not in server.writes()[0][2]
    old = FakeServer()
    result, dummy = run(old, ip='100.64.0.10', ssh_enabled=True)
    assert result['changed'] is True and 'ip' not in old.writes()[0][2]


@pytest.mark.parametrize('check_mode', [False, True])
def test_an_address_another_peer_has_fails_before_any_write(check_mode):
    server = FakeServer(current=True)
    with pytest.raises(TaskError) as info:
        run(server, check_mode=check_mode, id='p1', ip='100.64.0.11')
    assert str(info.value) == ("option ip: 100.64.0.11 is the address of the peer 'db-1' (id p2); the peer 'web-1' can "
                               "only get a free address")
    assert server.writes() == []


@pytest.mark.parametrize('value', ['100.64.0.20/16', 'fd00::1', 'web-2'])
def test_a_new_address_must_be_an_ipv4_address(value):
    server = FakeServer(current=True)
    with pytest.raises(TaskError) as info:
        run(server, id='p1', ip=value)
    assert "is not an IPv4 address such as 100.64.0.15" in str(info.value) or "is not an IP address" in str(info.value)
    assert str(info.value).startswith('option ip: ') and server.calls == []
