# -*- coding: utf-8 -*-
"""Unit tests of the user_invite kind and user_invite_info (no HTTP): the link's token shown once (create,
regenerate), found by email, no update, an accepted invite, and the refusal of a v0.27 server."""

from __future__ import annotations

import json

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resources.user_invite import UserInviteModule
from ansible_collections.nms.overlay.plugins.modules.user_invite_info import UserInviteInfoModule
from tests.support.fakes import FakeClient, engine

VERSION = {'management_current_version': '0.77.1'}
TOKEN = 'nbi_h8oWTePEubO6Wl3m1p9bMBvxxzKrIF28696L'
NEW_TOKEN = 'nbi_KsqjAsuyHpm4z6KS0HoYh9TVC7EywQ1YrixV'
INVITE = {'id': 'v1', 'email': 'bob@example.com', 'name': 'Bob', 'role': 'user', 'auto_groups': ['g1'],
          'created_at': '2026-01-22T10:00:00Z', 'expires_at': '2026-01-25T10:00:00Z', 'expired': False}
GROUPS = [{'id': 'g1', 'name': 'devs', 'peers_count': 0}]
USERS = [{'id': 'u1', 'email': 'owner@example.com', 'name': 'Owner', 'role': 'owner', 'status': 'active'}]
TASK = dict(email='bob@example.com', name='Bob', role='user', auto_groups=['devs'])


def current(*invites, users=None, routes=None):
    answers = {'/instance/version': VERSION, '/users/invites': list(invites), '/groups': GROUPS, '/users': USERS if users is None else users,
               ('POST', '/users/invites'): lambda body: dict(INVITE, invite_token=TOKEN, **body)}
    answers.update(routes or {})
    return FakeClient(answers)


@pytest.mark.parametrize('cls, params', [(UserInviteModule, TASK), (UserInviteInfoModule, {})])
def test_a_v027_server_refuses_both_modules_after_the_version_probe(cls, params):
    client = FakeClient({'/users/invites': [INVITE]})
    with pytest.raises(TaskError) as failure:
        engine(cls, client, **params).run()
    assert 'does not have invite links, which came with NetBird v0.64.2' in str(failure.value)
    assert client.calls == [('GET', '/instance/version', None)]


def test_create_returns_the_token_once_with_group_names_resolved():
    client = current()
    task = engine(UserInviteModule, client, **TASK)
    result = task.run()
    assert client.writes() == [('POST', '/users/invites', dict(email='bob@example.com', name='Bob', role='user', auto_groups=['g1']))]
    assert result['changed'] is True and result['user_invite']['invite_token'] == TOKEN
    assert UserInviteModule.holds_created_secret(result)
    assert TOKEN not in json.dumps(result['diff'])


def test_expires_in_is_sent_on_create_and_checked_before_any_request():
    client = current()
    engine(UserInviteModule, client, expires_in=7200, **TASK).run()
    assert client.writes()[0][2]['expires_in'] == 7200
    client = current()
    with pytest.raises(TaskError) as failure:
        engine(UserInviteModule, client, expires_in=60, **TASK).run()
    assert 'option expires_in: must be at least 3600' in str(failure.value) and client.calls == []


def test_return_created_secrets_false_leaves_the_token_out(tmp_path):
    path = tmp_path / 'secrets.json'
    result = engine(UserInviteModule, current(), return_created_secrets=False, created_secrets_file=str(path), **TASK).run()
    assert 'invite_token' not in result['user_invite'] and not UserInviteModule.holds_created_secret(result)
    assert json.loads(path.read_text()) == {'user_invites': {'bob@example.com': {'id': 'v1', 'key': TOKEN}}}


def test_check_mode_plans_the_invite_without_a_write_or_a_token():
    client = current()
    result = engine(UserInviteModule, client, check_mode=True, **TASK).run()
    assert client.writes() == [] and result['changed'] is True
    assert result['user_invite']['id'] == '(new user invite bob@example.com)'
    assert 'invite_token' not in result['user_invite']


def test_an_existing_invite_found_by_email_in_any_case_is_left_alone():
    client = current(INVITE)
    result = engine(UserInviteModule, client, **dict(TASK, email='Bob@Example.com')).run()
    assert result['changed'] is False and client.writes() == []
    assert result['user_invite'] == INVITE


def test_an_invite_cannot_change_a_difference_warns_and_writes_nothing():
    client = current(INVITE)
    task = engine(UserInviteModule, client, **dict(TASK, role='admin'))
    assert task.run()['changed'] is False and client.writes() == []
    assert any('role cannot change' in warning for warning in task.module.warnings)


def test_regenerate_makes_a_new_token_shown_once():
    answer = {'invite_token': NEW_TOKEN, 'invite_expires_at': '2026-01-28T10:00:00Z'}
    client = current(INVITE, routes={('POST', '/users/invites/v1/regenerate'): answer})
    result = engine(UserInviteModule, client, regenerate=True, expires_in=7200, email='bob@example.com').run()
    assert client.writes() == [('POST', '/users/invites/v1/regenerate', {'expires_in': 7200})]
    assert result['changed'] is True
    assert result['user_invite'] == dict(INVITE, expires_at='2026-01-28T10:00:00Z', invite_token=NEW_TOKEN)
    assert NEW_TOKEN not in json.dumps(result['diff'])
    assert UserInviteModule.holds_created_secret(result)


def test_regenerate_in_check_mode_writes_nothing():
    client = current(INVITE)
    result = engine(UserInviteModule, client, check_mode=True, regenerate=True, email='bob@example.com').run()
    assert client.writes() == [] and result['changed'] is True
    assert 'invite_token' not in result['user_invite'] and result['diff']['before'] == {'expires_at': INVITE['expires_at']}


def test_an_expired_invite_warns_without_regenerate():
    client = current(dict(INVITE, expired=True))
    task = engine(UserInviteModule, client, email='bob@example.com')
    assert task.run()['changed'] is False
    assert any('regenerate: true makes a new link' in warning for warning in task.module.warnings)


def test_an_accepted_invite_reports_the_user_and_changes_nothing():
    users = USERS + [{'id': 'u2', 'email': 'bob@example.com', 'name': 'Bob', 'role': 'user', 'status': 'active'}]
    client = current(users=users)
    task = engine(UserInviteModule, client, regenerate=True, **TASK)
    result = task.run()
    assert result['changed'] is False and client.writes() == []
    assert result['user_invite'] == {} and result['user'] == dict(id='u2', email='bob@example.com', name='Bob', role='user', status='active')
    assert any('no invite is left' in warning for warning in task.module.warnings)


def test_a_409_for_the_invite_made_meanwhile_is_reconciled():
    reads = []

    def listed(body):
        reads.append(body)
        return [] if len(reads) == 1 else [INVITE]  # another run made it after the first read
    client = current(routes={'/users/invites': listed,
                             ('POST', '/users/invites'): ApiError('POST', '/users/invites', 409, 'invite already exists for this email')})
    result = engine(UserInviteModule, client, **TASK).run()
    assert result['changed'] is False and result['user_invite']['id'] == 'v1'


def test_delete_and_delete_again():
    client = current(INVITE)
    result = engine(UserInviteModule, client, email='bob@example.com', state='absent').run()
    assert client.writes() == [('DELETE', '/users/invites/v1', None)] and result['changed'] is True
    client = current()
    assert engine(UserInviteModule, client, email='bob@example.com', state='absent').run()['changed'] is False
    assert client.writes() == [] and ('GET', '/users', None) not in client.calls


def test_the_owner_role_is_no_choice():
    assert 'owner' not in UserInviteModule.full_argument_spec()['role']['choices']


def test_info_filters_by_email_in_any_case_and_never_shows_a_token():
    client = current(INVITE, dict(INVITE, id='v2', email='carol@example.com', invite_token=TOKEN))
    result = engine(UserInviteInfoModule, client, email='CAROL@example.com').run()
    assert [item['id'] for item in result['user_invites']] == ['v2'] and TOKEN not in json.dumps(result)
