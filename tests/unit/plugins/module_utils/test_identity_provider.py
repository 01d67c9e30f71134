# -*- coding: utf-8 -*-
"""Unit tests of the identity_provider kind and identity_provider_info (no HTTP): the write-only client secret,
the fixed type, names instead of ids, and the refusal of a v0.27 server."""

from __future__ import annotations

import json

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import WRITE_ONLY_SHOWN, masked_write_only, secret_path
from ansible_collections.nms.overlay.plugins.module_utils._resources.identity_provider import IdentityProviderModule
from ansible_collections.nms.overlay.plugins.modules.identity_provider_info import IdentityProviderInfoModule
from tests.support.fakes import FakeClient, engine

VERSION = {'management_current_version': '0.77.1'}
ISSUER = 'http://127.0.0.1:8080/oauth2'
PROVIDER = {'id': 'i1', 'type': 'oidc', 'name': 'Own', 'issuer': ISSUER, 'client_id': 'cid'}
SECRET = 'very-secret-value'
CREATE = dict(name='Own', type='oidc', issuer=ISSUER, client_id='cid', client_secret=SECRET)


def current(*providers):
    return FakeClient({'/instance/version': VERSION, '/identity-providers': list(providers)})


def shows_no_secret(result):
    assert SECRET not in json.dumps(result)


@pytest.mark.parametrize('cls, params', [(IdentityProviderModule, CREATE), (IdentityProviderInfoModule, {})])
def test_a_v027_server_refuses_both_modules_after_the_version_probe(cls, params):
    client = FakeClient({'/identity-providers': [PROVIDER]})
    with pytest.raises(TaskError) as failure:
        engine(cls, client, **params).run()
    assert 'does not have identity providers, which came with NetBird v0.62.0' in str(failure.value)
    assert client.calls == [('GET', '/instance/version', None)]


def test_create_sends_the_secret_and_returns_and_diffs_it_never(clock):
    client = current()
    result = engine(IdentityProviderModule, client, **CREATE).run()
    assert client.writes() == [('POST', '/identity-providers', dict(CREATE))]
    assert result['changed'] is True and result['identity_provider']['id'] == 'new'
    assert result['diff']['after']['client_secret'] == WRITE_ONLY_SHOWN['after']
    shows_no_secret(result)


def test_check_mode_plans_the_create_without_a_write_or_the_secret(clock):
    client = current()
    result = engine(IdentityProviderModule, client, check_mode=True, **CREATE).run()
    assert client.writes() == [] and result['changed'] is True
    assert result['identity_provider']['id'] == '(new identity provider Own)'
    assert 'client_secret' not in result['identity_provider']
    shows_no_secret(result)


def test_an_unchanged_provider_is_left_alone_though_the_secret_cannot_be_compared():
    client = current(PROVIDER)
    result = engine(IdentityProviderModule, client, **CREATE).run()
    assert result['changed'] is False and client.writes() == []
    assert result['identity_provider'] == PROVIDER


def test_an_update_keeps_the_secret_the_server_holds_unless_update_secret_is_always():
    client = current(PROVIDER)
    result = engine(IdentityProviderModule, client, **dict(CREATE, client_id='cid2')).run()
    assert client.writes() == [('PUT', '/identity-providers/i1', dict(type='oidc', name='Own', issuer=ISSUER, client_id='cid2'))]
    assert result['diff'] == {'before': {'client_id': 'cid'}, 'after': {'client_id': 'cid2'}}


def test_update_secret_always_sends_it_every_run_and_masks_both_sides_of_the_diff():
    client = current(PROVIDER)
    result = engine(IdentityProviderModule, client, update_secret='always', **CREATE).run()
    assert client.writes() == [('PUT', '/identity-providers/i1', dict(CREATE))]
    assert result['changed'] is True
    assert result['diff'] == {'before': {'client_secret': WRITE_ONLY_SHOWN['before']}, 'after': {'client_secret': WRITE_ONLY_SHOWN['after']}}
    shows_no_secret(result)


def test_the_type_is_fixed_a_difference_warns_and_writes_nothing():
    client = current(PROVIDER)
    task = engine(IdentityProviderModule, client, **dict(CREATE, type='zitadel'))
    result = task.run()
    assert result['changed'] is False and client.writes() == []
    assert any('type cannot change' in warning for warning in task.module.warnings)


def test_a_name_several_providers_share_is_ambiguous_and_lists_their_ids():
    client = current(PROVIDER, dict(PROVIDER, id='i2'))
    with pytest.raises(TaskError) as failure:
        engine(IdentityProviderModule, client, name='Own').run()
    assert 'ids: i1, i2' in str(failure.value) and client.writes() == []


def test_delete_and_delete_again():
    client = current(PROVIDER)
    result = engine(IdentityProviderModule, client, name='Own', state='absent').run()
    assert client.writes() == [('DELETE', '/identity-providers/i1', None)]
    assert result['changed'] is True and 'client_secret' not in result['diff']['before']
    client = current()
    assert engine(IdentityProviderModule, client, name='Own', state='absent').run()['changed'] is False
    assert client.writes() == []


def test_an_issuer_that_is_no_url_is_refused_before_any_request():
    client = current()
    with pytest.raises(TaskError) as failure:
        engine(IdentityProviderModule, client, **dict(CREATE, issuer='sso.example.com')).run()
    assert 'option issuer' in str(failure.value) and client.calls == []


def test_a_create_without_the_required_fields_names_them():
    with pytest.raises(TaskError) as failure:
        engine(IdentityProviderModule, current(), name='Own', type='oidc').run()
    assert 'options issuer and client_id are required' in str(failure.value)


def test_masked_secret_leaves_a_diff_without_a_secret_as_it_is():
    diff = {'before': {'name': 'a'}, 'after': {'name': 'b'}}
    assert masked_write_only(diff, IdentityProviderModule.write_only) == diff


def test_the_secret_option_is_no_log():
    assert IdentityProviderModule.full_argument_spec()['client_secret']['no_log'] is True


def test_info_lists_and_filters_by_name():
    client = current(PROVIDER, dict(PROVIDER, id='i2', name='Other'))
    result = engine(IdentityProviderInfoModule, client, name='Other').run()
    assert [item['id'] for item in result['identity_providers']] == ['i2']


def test_a_whole_write_only_field_has_no_members_and_keeps_its_plain_option():
    assert IdentityProviderModule.write_only == ('client_secret',) and IdentityProviderModule.secret_paths == {}
    spec = IdentityProviderModule.full_argument_spec()['update_secret']
    assert spec == {'type': 'str', 'choices': ['always', 'on_create'], 'default': 'on_create'}


def test_a_diff_masks_whole_fields_and_members_alike():
    paths = {'auth': (secret_path('password_auth.password'),)}
    diff = {'before': {'client_secret': None, 'auth': {'password_auth': {'enabled': True}}},
            'after': {'client_secret': SECRET, 'auth': {'password_auth': {'enabled': True, 'password': SECRET}}}}
    masked = masked_write_only(diff, ('client_secret',), paths)
    before, after = WRITE_ONLY_SHOWN['before'], WRITE_ONLY_SHOWN['after']
    assert masked == {'before': {'client_secret': before, 'auth': {'password_auth': {'enabled': True, 'password': before}}},
                      'after': {'client_secret': after, 'auth': {'password_auth': {'enabled': True, 'password': after}}}}
    assert diff['after']['auth']['password_auth']['password'] == SECRET  # the diff given is left as it was
    shows_no_secret(masked)


def test_a_secret_path_names_its_holder_and_member():
    assert secret_path('password_auth.password') == ((('password_auth', None),), 'password')
    assert secret_path('header_auths[header].value') == ((('header_auths', 'header'),), 'value')
    assert secret_path('items[].token') == ((('items', ''),), 'token')
    assert secret_path('password') == ((), 'password')
