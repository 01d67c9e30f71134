# -*- coding: utf-8 -*-
"""Unit tests of user_password (no HTTP): the token's own user, write-only (no password in any result or message),
update_password once / always, check mode, options checked before any request, a v0.27 server's refusal."""

from __future__ import annotations

import json

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resources.user_password import UserPasswordModule
from tests.support.fakes import FakeClient, engine

VERSION = {'management_current_version': '0.77.1'}
ME = {'id': 'u1', 'email': 'owner@example.com', 'name': 'Owner', 'role': 'owner', 'is_current': True}
OLD, NEW = 'correct-horse-9', 'Battery-Staple-7'
PATH = '/users/u1/password'


def server(answer=None):
    routes = {'/instance/version': VERSION, '/users/current': ME}
    if answer is not None:
        routes[('PUT', PATH)] = answer
    return FakeClient(routes)


def incorrect():
    return ApiError('PUT', PATH, 422, 'failed to update password: current password is incorrect')


def test_a_v027_server_refuses_it_after_the_version_probe():
    client = FakeClient({'/users/current': ME})
    with pytest.raises(TaskError, match='does not have password changes'):
        engine(UserPasswordModule, client, password=NEW, old_password=OLD).run()
    assert client.calls == [('GET', '/instance/version', None)]


def test_the_change_goes_to_the_tokens_own_user_and_no_password_is_returned():
    client = server({})
    result = engine(UserPasswordModule, client, password=NEW, old_password=OLD).run()
    assert result == {'changed': True, 'password_changed': True, 'user': {'id': 'u1', 'email': 'owner@example.com', 'name': 'Owner'}}
    assert client.writes() == [('PUT', PATH, {'old_password': OLD, 'new_password': NEW})]
    assert OLD not in json.dumps(result) and NEW not in json.dumps(result)


def test_once_a_rerun_is_no_change_with_a_warning():
    client = server(incorrect())
    task = engine(UserPasswordModule, client, password=NEW, old_password=OLD)
    result = task.run()
    assert result['changed'] is False and result['password_changed'] is False
    assert 'an earlier run changed it already, or old_password is wrong' in task.module.warnings[0]
    assert OLD not in task.module.warnings[0] and NEW not in task.module.warnings[0]


def test_always_fails_on_the_refusal():
    client = server(incorrect())
    with pytest.raises(TaskError, match='old_password is not the password of the user owner@example.com'):
        engine(UserPasswordModule, client, password=NEW, old_password=OLD, update_password='always').run()


def test_another_refusal_fails_as_the_server_words_it():
    client = server(ApiError('PUT', PATH, 422, 'failed to update password: failed to get user: not found'))
    with pytest.raises(ApiError, match='failed to get user'):
        engine(UserPasswordModule, client, password=NEW, old_password=OLD).run()


def test_check_mode_reads_only():
    client = server({})
    result = engine(UserPasswordModule, client, check_mode=True, password=NEW, old_password=OLD).run()
    assert result['changed'] is True and client.writes() == []


@pytest.mark.parametrize('params, message', [
    (dict(password=OLD, old_password=OLD), 'option old_password: must differ from password'),
    (dict(password='', old_password=OLD), 'option password: must not be empty'),
])
def test_options_are_checked_before_any_request(params, message):
    client = server({})
    with pytest.raises(TaskError, match=message):
        engine(UserPasswordModule, client, **params).run()
    assert client.calls == []


def test_both_passwords_are_no_log():
    spec = UserPasswordModule.full_argument_spec()
    assert spec['password']['no_log'] is True and spec['old_password']['no_log'] is True


def test_a_created_user_s_generated_password_hides_the_result():
    # v0.77.1 with the embedded identity provider answers a regular user's create with the password it generated
    from ansible_collections.nms.overlay.plugins.module_utils._resources.user import UserModule
    assert UserModule.holds_created_secret({'changed': True, 'user': {'id': 'u1', 'email': 'a@example.com', 'password': 'Gen3rated!'}})
    assert not UserModule.holds_created_secret({'changed': False, 'user': {'id': 'u1', 'email': 'a@example.com'}})
    assert not UserModule.holds_created_secret({'changed': False, 'user': {}})
