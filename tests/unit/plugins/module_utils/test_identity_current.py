# -*- coding: utf-8 -*-
"""The options of today's servers (v0.77) on the identity modules: setup keys' allow_extra_dns_labels, the roles and
the approval of users, the account settings v0.77 adds. Each is sent only when set, kept by updates, and refused by
a v0.27 server before any write (after one GET /instance/version), naming the option."""

from __future__ import annotations

import re

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resources.account_settings import AccountSettingsModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.setup_key import SetupKeyModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.user import ROLE_RELEASES, UserModule
from ansible_collections.nms.overlay.plugins.module_utils._models import OptionsError
from tests.support.fakes import FakeClient, engine as make

VERSION = {'/instance/version': {'management_current_version': '0.77.1', 'management_update_available': False}}
GROUPS = [{'id': 'g1', 'name': 'ops'}]


def only_the_version_was_asked(client):
    assert client.calls == [('GET', '/instance/version', None)]


# -- setup keys ---------------------------------------------------------------------------------------
def current_key(**fields):
    key = {'id': 'd1a2b3c4e5f6g7h8i9j0', 'key': 'A616D****', 'name': 'servers', 'type': 'reusable',
           'expires': '2099-01-01T00:00:00Z', 'updated_at': '2026-01-01T00:00:00Z', 'valid': True, 'revoked': False,
           'used_times': 0, 'state': 'valid', 'auto_groups': ['g1'], 'usage_limit': 0, 'ephemeral': False,
           'allow_extra_dns_labels': True}
    key.update(fields)
    return key


def key_server(*keys):
    routes = dict(VERSION)
    routes.update({'/setup-keys': list(keys), '/groups': GROUPS,
                   ('POST', '/setup-keys'): lambda body: dict(current_key(id='e1', key='A616D-0000-0000-0000-000000000000'), **body)})
    return FakeClient(routes)


def test_setup_key_sends_allow_extra_dns_labels_only_when_set():
    server = key_server()
    result = make(SetupKeyModule, server, name='new', type='reusable', allow_extra_dns_labels=True).run()
    assert result['changed'] is True and result['setup_key']['allow_extra_dns_labels'] is True
    posts = [body for method, path, body in server.writes() if method == 'POST']
    assert posts[0]['allow_extra_dns_labels'] is True
    server = key_server()
    make(SetupKeyModule, server, name='new', type='reusable').run()
    assert 'allow_extra_dns_labels' not in server.writes()[0][2]
    assert ('GET', '/instance/version', None) not in server.calls  # unset: the server is not asked


def test_setup_key_update_keeps_allow_extra_dns_labels_and_a_different_value_only_warns():
    server = key_server(current_key())
    make(SetupKeyModule, server, name='servers', revoked=True).run()
    assert server.writes()[0][2]['allow_extra_dns_labels'] is True and server.writes()[0][2]['revoked'] is True
    server = key_server(current_key())
    module = make(SetupKeyModule, server, name='servers', allow_extra_dns_labels=False)
    assert module.run()['changed'] is False and server.writes() == []
    assert [w for w in module.module.warnings if w.startswith('allow_extra_dns_labels cannot change after the setup key')]
    assert make(SetupKeyModule, key_server(current_key()), name='servers', allow_extra_dns_labels=True).run()['changed'] is False


def test_setup_key_allow_extra_dns_labels_refused_by_v027_before_any_write():
    server = FakeClient({'/setup-keys': [], '/groups': GROUPS})
    with pytest.raises(TaskError) as err:
        make(SetupKeyModule, server, name='new', type='reusable', allow_extra_dns_labels=True).run()
    assert str(err.value) == ('option allow_extra_dns_labels: this server (v0.27: it has no GET /api/instance/version) '
                              'does not have it (servers have it from v0.37.0 on)')
    only_the_version_was_asked(server)


# -- users --------------------------------------------------------------------------------------------
PENDING = {'id': 'idp-9', 'email': 'bob@example.com', 'name': 'Bob', 'role': 'user', 'status': 'blocked',
           'auto_groups': [], 'is_current': False, 'is_service_user': False, 'is_blocked': True,
           'pending_approval': True, 'issued': 'api'}
ACTIVE = dict(PENDING, id='idp-8', email='carol@example.com', name='Carol', status='active', is_blocked=False,
              pending_approval=False)


def user_server(*users, current=True):
    routes = dict(VERSION) if current else {}
    routes.update({'/users': [dict(u) for u in users], '/groups': GROUPS,
                   ('POST', '/users/idp-9/approve'): dict(PENDING, status='active', is_blocked=False, pending_approval=False),
                   ('PUT', '/users/idp-9'): lambda body: dict(PENDING, **body)})
    return FakeClient(routes)


@pytest.mark.parametrize('role', ['network_admin', 'auditor', 'billing_admin'])
def test_roles_of_current_servers(role):
    server = user_server(ACTIVE)
    server.routes[('PUT', '/users/idp-8')] = lambda body: dict(ACTIVE, **body)
    result = make(UserModule, server, email='carol@example.com', role=role).run()
    assert result['changed'] is True and server.writes()[0][2]['role'] == role
    legacy = user_server(ACTIVE, current=False)
    with pytest.raises(TaskError) as err:
        make(UserModule, legacy, email='carol@example.com', role=role).run()
    assert str(err.value) == ("option role: this server (v0.27: it has no GET /api/instance/version) does not have the role "
                              "'%s' (servers have it from %s on); its roles are owner, admin, user" % (role, ROLE_RELEASES[role]))
    only_the_version_was_asked(legacy)


def test_roles_of_every_server_ask_nothing_more():
    server = user_server(ACTIVE, current=False)
    assert make(UserModule, server, email='carol@example.com', role='user').run()['changed'] is False
    assert ('GET', '/instance/version', None) not in server.calls


def test_approval_approved_lets_a_pending_user_in_once():
    server = user_server(PENDING)
    result = make(UserModule, server, email='bob@example.com', approval='approved').run()
    assert result['changed'] is True
    assert server.writes() == [('POST', '/users/idp-9/approve', None)]
    assert result['diff'] == {'before': {'pending_approval': True, 'is_blocked': True},
                              'after': {'pending_approval': False, 'is_blocked': False}}
    assert result['user']['pending_approval'] is False and result['user']['status'] == 'active'
    # approved already (or never pending): nothing to do
    again = user_server(dict(PENDING, status='active', is_blocked=False, pending_approval=False))
    assert make(UserModule, again, email='bob@example.com', approval='approved').run()['changed'] is False
    assert again.writes() == []


def test_approval_approved_with_other_changes_and_in_check_mode():
    server = user_server(PENDING)
    result = make(UserModule, server, email='bob@example.com', approval='approved', auto_groups=['ops'],
                  is_blocked=False).run()
    assert [(m, p) for m, p, b in server.writes()] == [('PUT', '/users/idp-9'), ('POST', '/users/idp-9/approve')]
    assert server.writes()[0][2]['auto_groups'] == ['g1']
    assert result['diff'] == {'before': {'auto_groups': [], 'pending_approval': True, 'is_blocked': True},
                              'after': {'auto_groups': ['ops'], 'pending_approval': False, 'is_blocked': False}}
    server = user_server(PENDING)
    checked = make(UserModule, server, check_mode=True, email='bob@example.com', approval='approved').run()
    assert checked['changed'] is True and server.writes() == []
    assert checked['user']['pending_approval'] is False and checked['user']['status'] == 'active'


def test_approval_rejected_deletes_only_a_pending_user():
    server = user_server(PENDING)
    result = make(UserModule, server, email='bob@example.com', approval='rejected', state='absent').run()
    assert result['changed'] is True and server.writes() == [('DELETE', '/users/idp-9/reject', None)]
    assert result['diff']['after'] == {}
    gone = user_server()
    assert make(UserModule, gone, email='bob@example.com', approval='rejected', state='absent').run()['changed'] is False
    checked = user_server(PENDING)
    assert make(UserModule, checked, check_mode=True, email='bob@example.com', approval='rejected',
                state='absent').run()['changed'] is True
    assert checked.writes() == []
    active = user_server(ACTIVE)
    with pytest.raises(TaskError, match="option approval: the user email 'carol@example.com' is not waiting for approval"):
        make(UserModule, active, email='carol@example.com', approval='rejected', state='absent').run()
    assert active.writes() == []


@pytest.mark.parametrize('params, message', [
    ({'approval': 'rejected'}, 'option approval: rejected turns the user away, which deletes it; give state: absent'),
    ({'approval': 'approved', 'state': 'absent'}, 'option approval: approved lets the user in, which state: absent'),
    ({'approval': 'approved', 'is_blocked': True}, 'options approval: approved and is_blocked: true contradict'),
])
def test_approval_option_conflicts_fail_before_any_request(params, message):
    server = user_server(PENDING)
    with pytest.raises(TaskError, match=message):
        make(UserModule, server, email='bob@example.com', **params).run()
    assert server.calls == []


@pytest.mark.parametrize('params', [{'approval': 'approved'}, {'approval': 'rejected', 'state': 'absent'}])
def test_approval_refused_by_v027_before_any_write(params):
    server = user_server(PENDING, current=False)
    with pytest.raises(TaskError) as err:
        make(UserModule, server, email='bob@example.com', **params).run()
    assert str(err.value) == ('option approval: this server (v0.27: it has no GET /api/instance/version) does not have it '
                              '(servers have it from v0.56.0 on)')
    only_the_version_was_asked(server)


# -- account settings ---------------------------------------------------------------------------------
# what a v0.77 server answers: the settings it requires in a PUT, and extra with every member
CURRENT_SETTINGS = {
    'peer_login_expiration_enabled': True, 'peer_login_expiration': 86400, 'regular_users_view_blocked': True,
    'groups_propagation_enabled': True, 'jwt_groups_enabled': False, 'jwt_groups_claim_name': '', 'jwt_allow_groups': [],
    'peer_inactivity_expiration_enabled': True, 'peer_inactivity_expiration': 3600, 'peer_expose_enabled': True,
    'peer_expose_groups': ['g1'], 'routing_peer_dns_resolution_enabled': True, 'lazy_connection_enabled': False,
    'dns_domain': 'corp.example.com', 'auto_update_version': 'latest',
    'extra': {'peer_approval_enabled': False, 'user_approval_required': True, 'network_traffic_logs_enabled': True,
              'network_traffic_logs_groups': ['g1'], 'network_traffic_packet_counter_enabled': False}}
LEGACY_SETTINGS = {name: value for name, value in CURRENT_SETTINGS.items()
                   if name in ('peer_login_expiration_enabled', 'peer_login_expiration', 'regular_users_view_blocked',
                               'groups_propagation_enabled', 'jwt_groups_enabled', 'jwt_groups_claim_name',
                               'jwt_allow_groups')}


def account_server(settings, current=True):
    account = {'id': 'acc1', 'settings': settings}
    routes = dict(VERSION) if current else {}
    routes.update({'/accounts': [account], ('PUT', '/accounts/acc1'): lambda body: dict(account, **body)})
    return FakeClient(routes)


def put_settings(server):
    puts = [body for method, dummy_path, body in server.writes() if method == 'PUT']
    assert len(puts) == 1, server.writes()
    return puts[0]['settings']


def test_account_settings_an_update_sends_back_every_setting_v077_requires():
    server = account_server(dict(CURRENT_SETTINGS))
    make(AccountSettingsModule, server, regular_users_view_blocked=False).run()
    assert put_settings(server) == dict(CURRENT_SETTINGS, regular_users_view_blocked=False)
    assert ('GET', '/instance/version', None) not in server.calls  # no option of today's servers: not asked


@pytest.mark.parametrize('option, value, sent', [
    ('peer_inactivity_expiration_enabled', False, {'peer_inactivity_expiration_enabled': False}),
    ('peer_inactivity_expiration', '2h', {'peer_inactivity_expiration': 7200}),
    ('routing_peer_dns_resolution_enabled', False, {'routing_peer_dns_resolution_enabled': False}),
    ('dns_domain', 'office.example.com', {'dns_domain': 'office.example.com'}),
    ('dns_domain', '', {'dns_domain': ''}),
    ('lazy_connection_enabled', True, {'lazy_connection_enabled': True}),
    ('user_approval_required', False, {'extra': dict(CURRENT_SETTINGS['extra'], user_approval_required=False)}),
])
def test_account_settings_of_current_servers(option, value, sent):
    server = account_server(dict(CURRENT_SETTINGS))
    result = make(AccountSettingsModule, server, **{option: value}).run()
    assert result['changed'] is True and put_settings(server) == dict(CURRENT_SETTINGS, **sent)
    # the value the server has already: no write
    same = account_server(dict(CURRENT_SETTINGS, **sent))
    assert make(AccountSettingsModule, same, **{option: value}).run()['changed'] is False and same.writes() == []
    # refused by v0.27 before any write
    legacy = account_server(dict(LEGACY_SETTINGS), current=False)
    with pytest.raises(TaskError) as err:
        make(AccountSettingsModule, legacy, **{option: value}).run()
    assert str(err.value) == ('option %s: this server (v0.27: it has no GET /api/instance/version) does not have it '
                              '(servers have it from %s on)' % (option, {
                                  'peer_inactivity_expiration_enabled': 'v0.30.2', 'peer_inactivity_expiration': 'v0.30.2',
                                  'routing_peer_dns_resolution_enabled': 'v0.35.0', 'dns_domain': 'v0.42.0',
                                  'lazy_connection_enabled': 'v0.45.2', 'user_approval_required': 'v0.56.0'}[option]))
    only_the_version_was_asked(legacy)


def test_account_settings_of_current_servers_are_never_sent_to_v027():
    server = account_server(dict(LEGACY_SETTINGS), current=False)
    make(AccountSettingsModule, server, peer_login_expiration='2d').run()
    assert put_settings(server) == dict(LEGACY_SETTINGS, peer_login_expiration=172800)


def test_account_settings_check_mode_and_diff_of_current_settings():
    server = account_server(dict(CURRENT_SETTINGS))
    result = make(AccountSettingsModule, server, check_mode=True, peer_inactivity_expiration='1d',
                  user_approval_required=False).run()
    assert result['changed'] is True and server.writes() == []
    assert result['diff'] == {'before': {'peer_inactivity_expiration': 3600, 'user_approval_required': True},
                              'after': {'peer_inactivity_expiration': 86400, 'user_approval_required': False}}


@pytest.mark.parametrize('option, value, message', [
    ('peer_inactivity_expiration', 0, 'option peer_inactivity_expiration: must be a positive duration'),
    ('peer_inactivity_expiration', 'soon', "option peer_inactivity_expiration: 'soon' is not a number of seconds"),
    ('dns_domain', '*.example.com', "option dns_domain: '*.example.com' is not a domain name"),
    ('dns_domain', 'bad domain', "option dns_domain: 'bad domain' is not a domain name"),
])
def test_account_settings_option_rules_fail_before_any_request(option, value, message):
    server = account_server(dict(CURRENT_SETTINGS))
    with pytest.raises(OptionsError, match=re.escape(message)):
        make(AccountSettingsModule, server, **{option: value}).run()
    assert server.calls == []


@pytest.mark.parametrize('key, writes, done', [
    # a v0.77 key (its id is no number): deleted, as state=absent deletes it
    (current_key(id='d1a2b3c4e5f6g7h8i9j0'), [('DELETE', '/setup-keys/d1a2b3c4e5f6g7h8i9j0', None)], 'deleted'),
    # a v0.27 key: revoked and holding no group, as state=absent leaves it (that API cannot delete keys)
    (current_key(id='17', allow_extra_dns_labels=None), [('PUT', '/setup-keys/17', 'revoked, no groups')], 'revoked'),
])
def test_a_concurrent_copy_of_a_setup_key_goes_as_state_absent_makes_it_go(key, writes, done):
    server = key_server(key)
    assert make(SetupKeyModule, server, name='servers').delete(key) == done  # the warning's word for it
    sent = [(method, path, body if body is None else 'revoked, no groups' if body['revoked'] and body['auto_groups'] == [] else body)
            for method, path, body in server.writes()]
    assert sent == writes
