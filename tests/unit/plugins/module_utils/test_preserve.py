# -*- coding: utf-8 -*-
"""Every update keeps what the task does not manage: a field of the server's answer that the collection does not
know comes back unchanged in the PUT (today's servers reset what a body leaves out). One test per module."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._resources.policy import PolicyModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.posture_check import PostureCheckModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.group import GroupModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.account_settings import AccountSettingsModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.setup_key import SetupKeyModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.user import UserModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.peer import PeerModule
from ansible_collections.nms.overlay.plugins.module_utils._kind import kept_fields
from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_settings import DnsSettingsModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.nameserver_group import NameserverGroupModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.route import RouteModule
from tests.support.fakes import FakeClient, engine

FUTURE = {'nested': [1, {'deep': True}], 'text': 'kept'}


def make(cls, server, **params):
    return engine(cls, server, api_url='http://127.0.0.1:1', api_token='nbp_x', **params)


def put_body(server):
    puts = [body for method, dummy_path, body in server.writes() if method == 'PUT']
    assert len(puts) == 1, server.writes()
    return puts[0]


GROUP = {'id': 'g1', 'name': 'web', 'peers_count': 0, 'issued': 'api', 'peers': None,
         'resources': [{'id': 'res1', 'type': 'host'}], 'future': FUTURE}
PEER = {'id': 'p1', 'name': 'web1', 'ip': '100.64.0.1', 'ssh_enabled': False, 'login_expiration_enabled': False,
        'approval_required': False, 'inactivity_expiration_enabled': True, 'user_id': 'u1', 'hostname': 'web1',
        'groups': [{'id': 'g1', 'name': 'web'}], 'future': FUTURE}


def test_kept_fields_keeps_unknown_fields_items_and_members_but_not_managed_or_answer_only_ones():
    obj = {'id': 'x', 'count': 3, 'name': 'a', 'skipped': 'server', 'future': FUTURE,
           'rules': [{'id': 'r', 'name': 'one', 'extra': 1}, {'name': 'two', 'extra': 2}],
           'checks': {'known': 1, 'process_check': {'p': 1}}}
    body = {'name': 'b', 'rules': [{'name': 'two'}, {'name': 'renamed'}], 'checks': {'known': 2}}
    kept = kept_fields(obj, body, managed={'name': None, 'skipped': None, 'rules': None, 'checks': None},
                       read_only=('id', 'count'), item_fields={'rules': (('id', 'name'), 'name'), 'checks': (('known',), None)})
    assert kept == {'name': 'b', 'future': FUTURE,
                    'rules': [{'name': 'two', 'extra': 2}, {'name': 'renamed'}],
                    'checks': {'known': 2, 'process_check': {'p': 1}}}
    # a rule whose name no server rule has continues the server rule at its position
    assert kept_fields(obj, {'rules': [{'name': 'new'}]}, {'rules': None}, (), {'rules': (('id', 'name'), 'name')})['rules'] == [
        {'name': 'new', 'extra': 1}]


def test_group_peers_keep_resources_and_unknown_fields():
    server = FakeClient({'/groups': [GROUP], '/peers': [PEER]})
    make(GroupModule, server, name='web', peers=['web1']).run()
    body = put_body(server)
    assert body == {'name': 'web', 'peers': ['p1'], 'resources': [{'id': 'res1', 'type': 'host'}], 'future': FUTURE}


def test_peer_rename_keeps_inactivity_expiration_and_unknown_fields():
    server = FakeClient({'/peers': [PEER], '/peers/p1': PEER})
    make(PeerModule, server, id='p1', name='web1').run()  # unchanged: no write
    assert server.writes() == []
    server = FakeClient({'/peers': [PEER], '/peers/p1': PEER})
    make(PeerModule, server, id='p1', name='web-1').run()
    body = put_body(server)
    assert body['name'] == 'web-1' and body['inactivity_expiration_enabled'] is True and body['future'] == FUTURE
    assert 'groups' not in body and 'ip' not in body and 'hostname' not in body


class GroupStore(FakeClient):
    """A server whose groups change with their writes (the peer module reads a group back after writing it)."""

    def put(self, path, body=None):
        answer = super().put(path, body)
        if path.startswith('/groups/'):
            self.routes[path] = dict(answer, peers=[{'id': peer_id} for peer_id in body['peers']])
        return answer


def test_peer_regrouping_keeps_the_group_resources():
    other = {'id': 'g2', 'name': 'db', 'peers': [], 'resources': [{'id': 'res2', 'type': 'subnet'}], 'future': FUTURE}
    member = dict(GROUP, peers=[{'id': 'p1', 'name': 'web1'}])
    server = GroupStore({'/peers': [PEER], '/peers/p1': PEER, '/groups': [member, other], '/groups/g2': other})
    make(PeerModule, server, id='p1', groups=['web', 'db'], groups_mode='exact').run()
    assert put_body(server) == {'name': 'db', 'peers': ['p1'], 'resources': [{'id': 'res2', 'type': 'subnet'}], 'future': FUTURE}


ROUTE = {'id': 'r1', 'network_id': 'lan', 'network': '10.0.0.0/24', 'network_type': 'IPv4', 'description': '',
         'peer': '', 'peer_groups': ['g1'], 'groups': ['g1'], 'metric': 9999, 'masquerade': True, 'enabled': True,
         'keep_route': True, 'access_control_groups': ['g1'], 'future': FUTURE}


def test_route_metric_keeps_keep_route_and_access_control_groups():
    server = FakeClient({'/routes': [ROUTE], '/groups': [GROUP]})
    make(RouteModule, server, network_id='lan', metric=100).run()
    body = put_body(server)
    assert body['metric'] == 100
    assert body['keep_route'] is True and body['access_control_groups'] == ['g1'] and body['future'] == FUTURE
    assert 'peer' not in body and 'network_type' not in body and 'id' not in body


def test_nameserver_group_keeps_unknown_fields():
    nsgroup = {'id': 'n1', 'name': 'dns', 'description': '', 'nameservers': [{'ip': '1.1.1.1', 'ns_type': 'udp', 'port': 53}],
               'groups': ['g1'], 'domains': [], 'primary': True, 'search_domains_enabled': False, 'enabled': True,
               'future': FUTURE}
    server = FakeClient({'/dns/nameservers': [nsgroup]})
    make(NameserverGroupModule, server, name='dns', description='resolvers').run()
    assert put_body(server)['future'] == FUTURE


@pytest.mark.parametrize('wrapped', [False, True], ids=['plain', 'items'])
def test_dns_settings_keep_unknown_fields(wrapped):
    settings = {'disabled_management_groups': [], 'future': FUTURE}
    server = FakeClient({'/dns/settings': {'items': settings} if wrapped else settings, '/groups': [GROUP]})
    make(DnsSettingsModule, server, disabled_management_groups=['web']).run()
    assert put_body(server) == {'disabled_management_groups': ['g1'], 'future': FUTURE}


POLICY = {'id': 'pol1', 'name': 'web', 'description': '', 'enabled': True, 'source_posture_checks': None, 'future': FUTURE,
          'rules': [{'id': 'pol1', 'name': 'web', 'description': '', 'enabled': True, 'action': 'accept',
                     'bidirectional': True, 'protocol': 'all', 'sources': [{'id': 'g1', 'name': 'web'}],
                     'destinations': [{'id': 'g1', 'name': 'web'}], 'authorized_groups': {'g1': ['root']},
                     'sourceResource': {'id': 'res1', 'type': 'host'}}]}


def test_policy_keeps_unknown_fields_and_unknown_rule_fields():
    server = FakeClient({'/policies': [POLICY], '/groups': [GROUP]})
    make(PolicyModule, server, name='web', description='changed').run()
    body = put_body(server)
    assert body['description'] == 'changed' and body['future'] == FUTURE
    rule = body['rules'][0]
    assert rule['authorized_groups'] == {'g1': ['root']} and rule['sourceResource'] == {'id': 'res1', 'type': 'host'}
    assert rule['sources'] == ['g1'] and 'id' not in rule


CHECK = {'id': 'c1', 'name': 'recent', 'description': '', 'future': FUTURE,
         'checks': {'nb_version_check': {'min_version': '0.28.0'}, 'process_check': {'processes': [{'linux_path': '/x'}]}}}


def test_posture_check_keeps_unknown_fields_and_unknown_checks():
    server = FakeClient({'/posture-checks': [CHECK]})
    make(PostureCheckModule, server, name='recent', checks={'nb_version_check': {'min_version': '0.29.0'}}).run()
    body = put_body(server)
    assert body['future'] == FUTURE
    assert body['checks'] == {'nb_version_check': {'min_version': '0.29.0'}, 'process_check': {'processes': [{'linux_path': '/x'}]}}
    # replacing the checks replaces them all, unknown ones too
    server = FakeClient({'/posture-checks': [CHECK]})
    make(PostureCheckModule, server, name='recent', checks={'nb_version_check': {'min_version': '0.29.0'}},
         checks_mode='replace').run()
    assert put_body(server)['checks'] == {'nb_version_check': {'min_version': '0.29.0'}}


KEY = {'id': '1234', 'key': 'A' * 36, 'name': 'servers', 'expires': '2999-01-01T00:00:00Z', 'type': 'reusable',
       'valid': True, 'revoked': False, 'used_times': 0, 'last_used': '0001-01-01T00:00:00Z', 'state': 'valid',
       'auto_groups': [], 'updated_at': '2026-01-01T00:00:00Z', 'usage_limit': 0, 'ephemeral': False,
       'allow_extra_dns_labels': True, 'future': FUTURE}


def test_setup_key_keeps_unknown_fields_and_never_sends_the_key_value():
    server = FakeClient({'/setup-keys': [KEY], '/groups': [GROUP]})
    make(SetupKeyModule, server, name='servers', auto_groups=['web']).run()
    body = put_body(server)
    assert body['auto_groups'] == ['g1'] and body['allow_extra_dns_labels'] is True and body['future'] == FUTURE
    assert 'key' not in body and 'state' not in body


def test_user_keeps_unknown_fields():
    user = {'id': 'u2', 'email': 'a@example.com', 'name': 'a', 'role': 'user', 'status': 'active', 'auto_groups': [],
            'is_current': False, 'is_service_user': False, 'is_blocked': False, 'issued': 'api',
            'permissions': {'dashboard_view': 'limited'}, 'future': FUTURE}
    server = FakeClient({'/users': [user]})
    make(UserModule, server, email='a@example.com', role='admin').run()
    assert put_body(server) == {'role': 'admin', 'auto_groups': [], 'is_blocked': False, 'future': FUTURE}


def test_account_settings_keep_unknown_members_and_fields():
    account = {'id': 'acc', 'future': FUTURE, 'settings': {
        'peer_login_expiration_enabled': True, 'peer_login_expiration': 86400, 'regular_users_view_blocked': True,
        'groups_propagation_enabled': True, 'jwt_groups_enabled': False, 'jwt_groups_claim_name': '',
        'jwt_allow_groups': [], 'peer_inactivity_expiration': 600, 'future': FUTURE}}
    server = FakeClient({'/accounts': [account]})
    make(AccountSettingsModule, server, peer_login_expiration=7200).run()
    body = put_body(server)
    assert body['future'] == FUTURE and body['settings']['future'] == FUTURE
    assert body['settings']['peer_inactivity_expiration'] == 600 and body['settings']['peer_login_expiration'] == 7200
