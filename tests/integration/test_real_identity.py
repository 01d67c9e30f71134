# -*- coding: utf-8 -*-
"""nms.overlay.identity_provider and user_invite (and their info modules) against the real NetBird v0.77.1
(tests/support/realserver.py; the real-server stage, ``make real``).

With the embedded identity provider (``--idp``): create / re-run / check mode / update / delete / delete again of
both. The only issuer such a server reaches inside its network namespace is its own (http://127.0.0.1:8080/oauth2).
The plain seeded server (no embedded identity provider) refuses both, and the modules report its answer: invites
412, an identity provider 422 (its issuer is unreachable there).
"""

from __future__ import annotations

import re

import pytest

from tests.integration.test_real_servers import connection, started
from tests.support.emulator import writes_of

pytestmark = pytest.mark.real

ISSUER = 'http://127.0.0.1:8080/oauth2'
SECRET = 'real-idp-secret-4f1d2c'
PROVIDER = {'name': 'Own issuer', 'type': 'oidc', 'issuer': ISSUER, 'client_id': 'cid', 'client_secret': SECRET}
INVITE = {'email': 'bob@example.com', 'name': 'Bob', 'role': 'user', 'auto_groups': ['All']}
TOKEN_RE = re.compile(r'nbi_[0-9A-Za-z]{36}')


@pytest.fixture(scope='module')
def idp_server():
    yield from started('v0.77.1', '--idp')


@pytest.fixture(scope='module')
def plain_server():
    yield from started('v0.77.1')


def provider(**options):
    return {'name': 'idp', 'nms.overlay.identity_provider': options}


def invite(**options):
    return {'name': 'invite', 'register': 'invite', 'nms.overlay.user_invite': options}


def test_identity_provider_lifecycle_on_the_real_server(idp_server, run):
    env = connection(idp_server)
    idp_server.clear_log()
    first = run([provider(**PROVIDER)], env=env, diff=True)
    assert first.rc == 0, first
    created = first['idp']['identity_provider']
    assert first['idp']['changed'] is True and created['issuer'] == ISSUER and 'client_secret' not in created
    assert writes_of(idp_server) == ['POST /api/identity-providers']
    assert SECRET not in str(first.results)

    idp_server.clear_log()
    again = run([provider(**PROVIDER)], env=env)
    assert again['idp']['changed'] is False and idp_server.writes() == []

    check = run([provider(**{**PROVIDER, 'client_id': 'cid2'})], env=env, check=True, diff=True)
    assert check['idp']['changed'] is True and check['idp']['diff']['after'] == {'client_id': 'cid2'}
    assert idp_server.writes() == []

    update = run([provider(**{**PROVIDER, 'client_id': 'cid2'})], env=env)
    assert update.rc == 0, update
    assert writes_of(idp_server) == ['PUT /api/identity-providers/%s' % created['id']]
    assert idp_server.ok('GET', '/api/identity-providers/%s' % created['id'])['client_id'] == 'cid2'

    idp_server.clear_log()
    rotate = run([provider(name='Own issuer', client_secret='rotated-secret-9e8d', update_secret='always')], env=env, diff=True)
    assert rotate['idp']['changed'] is True and writes_of(idp_server) == ['PUT /api/identity-providers/%s' % created['id']]
    assert 'rotated-secret-9e8d' not in str(rotate.results)

    idp_server.clear_log()
    listed = run([{'name': 'info', 'nms.overlay.identity_provider_info': {'name': 'Own issuer'}}], env=env)
    assert [item['id'] for item in listed['info']['identity_providers']] == [created['id']]

    gone = run([provider(name='Own issuer', state='absent')], env=env)
    assert gone['idp']['changed'] is True and writes_of(idp_server) == ['DELETE /api/identity-providers/%s' % created['id']]
    idp_server.clear_log()
    again = run([provider(name='Own issuer', state='absent')], env=env)
    assert again['idp']['changed'] is False and idp_server.writes() == []
    assert idp_server.ok('GET', '/api/identity-providers') == []


def test_an_unreachable_issuer_is_the_real_servers_422(idp_server, run):
    result = run([dict(provider(**{**PROVIDER, 'issuer': 'https://sso.example.com'}), ignore_errors=True)], env=connection(idp_server))
    assert result['idp']['status'] == 422
    assert result['idp']['msg'].startswith('POST %s/api/identity-providers failed with HTTP 422: identity provider issuer is '
                                           'unreachable' % idp_server.url)


def test_user_invite_lifecycle_on_the_real_server(idp_server, run, tmp_path):
    env = connection(idp_server)
    use = {'name': 'use', 'no_log': True, 'ansible.builtin.copy': {
        'dest': str(tmp_path / 'token'), 'mode': '0600', 'content': '{{ invite.user_invite.invite_token }}'}}
    idp_server.clear_log()
    first = run([invite(**INVITE), use], env=env, diff=True, ansible=True)
    assert first.rc == 0, first
    token = (tmp_path / 'token').read_text()
    assert TOKEN_RE.fullmatch(token) and token not in first.stdout
    assert writes_of(idp_server) == ['POST /api/users/invites']
    created = idp_server.ok('GET', '/api/users/invites')[0]
    assert created['email'] == 'bob@example.com' and len(created['auto_groups']) == 1

    idp_server.clear_log()
    again = run([invite(**INVITE)], env=env)
    assert again['invite']['changed'] is False and idp_server.writes() == []

    check = run([invite(email='bob@example.com', regenerate=True)], env=env, check=True)
    assert check['invite']['changed'] is True and idp_server.writes() == []

    kept = run([invite(**{**INVITE, 'role': 'admin'})], env=env)  # servers cannot change an invite
    assert kept['invite']['changed'] is False and idp_server.writes() == []

    regenerated = run([invite(email='bob@example.com', regenerate=True, expires_in=7200), use], env=env, ansible=True)
    assert regenerated.rc == 0, regenerated
    new_token = (tmp_path / 'token').read_text()
    assert TOKEN_RE.fullmatch(new_token) and new_token != token and new_token not in regenerated.stdout
    assert writes_of(idp_server) == ['POST /api/users/invites/%s/regenerate' % created['id']]

    idp_server.clear_log()
    gone = run([invite(email='bob@example.com', state='absent')], env=env)
    assert gone['invite']['changed'] is True and writes_of(idp_server) == ['DELETE /api/users/invites/%s' % created['id']]
    idp_server.clear_log()
    again = run([invite(email='bob@example.com', state='absent')], env=env)
    assert again['invite']['changed'] is False and idp_server.writes() == []


def test_an_accepted_invite_leaves_a_user_and_a_re_run_changes_nothing(idp_server, run, tmp_path):
    env = connection(idp_server)
    use = {'name': 'use', 'no_log': True, 'ansible.builtin.copy': {
        'dest': str(tmp_path / 'token'), 'mode': '0600', 'content': '{{ invite.user_invite.invite_token }}'}}
    task = invite(email='carol@example.com', name='Carol', role='user')
    assert run([task, use], env=env, ansible=True).rc == 0
    token = (tmp_path / 'token').read_text()
    idp_server.ok('POST', '/api/users/invites/%s/accept' % token, {'password': 'Secret-Passw0rd'})  # the invitee's side
    idp_server.clear_log()
    again = run([task], env=env)
    assert again['invite']['changed'] is False and again['invite']['user_invite'] == {}
    assert again['invite']['user']['email'] == 'carol@example.com' and idp_server.writes() == []


def test_the_plain_server_refuses_both_and_the_modules_say_why(plain_server, run):
    env = connection(plain_server)
    plain_server.clear_log()
    result = run([dict(invite(**{**INVITE, 'auto_groups': []}), ignore_errors=True),
                  {'name': 'invites', 'ignore_errors': True, 'nms.overlay.user_invite_info': {}},
                  dict(provider(**PROVIDER), ignore_errors=True)], env=env)
    for name in ('invite', 'invites'):
        assert result[name]['msg'] == ('GET %s/api/users/invites failed with HTTP 412: invite links are only available with '
                                       'embedded identity provider' % plain_server.url)
    # the server's own text ends with a line break ("404 page not found\n")
    assert result['idp']['msg'].rstrip() == ('POST %s/api/identity-providers failed with HTTP 422: identity provider issuer is '
                                             'unreachable: 404 not found: 404 page not found' % plain_server.url)
    assert SECRET not in result['idp']['msg']
    assert plain_server.ok('GET', '/api/identity-providers') == []


def test_a_regular_user_s_generated_password_is_never_shown(idp_server, run):
    """With the embedded identity provider, v0.77.1 answers a regular user's create with the password it generated:
    the task's result holds it (register it to use it), hidden from Ansible's output."""
    env = connection(idp_server)
    task = {'name': 'gen', 'nms.overlay.user': {'email': 'generated-password@example.com', 'name': 'Gen', 'role': 'user'},
            'register': 'gen'}
    held = {'name': 'held', 'ansible.builtin.assert': {'that': ['gen.user.password | length > 0'], 'quiet': True}}
    result = run([task, held], env=env, ansible=True, verbosity=3)
    assert result.rc == 0, result
    created = [r for r in idp_server.requests() if r['method'] == 'POST' and r['path'].rstrip('/').endswith('/users')]
    generated = created[-1]['answer'].get('password') if created and isinstance(created[-1]['answer'], dict) else None
    assert generated, 'the server answered the create without a password: %r' % created
    assert generated not in result.stdout


@pytest.mark.parametrize('in_process', [True, False], ids=['controller', 'module process'])
def test_an_invite_of_a_bad_email_is_refused_before_any_request(idp_server, run, in_process):
    """Issue 44, point 8: real v0.77.1 invites 'nobody' (an invite for an email without @) and the text of a list; the
    module refuses both, and a lifetime under an hour, before any request, naming the option and the rule."""
    env = connection(idp_server)
    idp_server.clear_log()
    tasks = [dict(invite(**{**INVITE, 'email': 'nobody'}), name='no_at', ignore_errors=True),
             dict(invite(**{**INVITE, 'email': ['a@example.com']}), name='a_list', ignore_errors=True),
             dict(invite(**{**INVITE, 'expires_in': 60}), name='short', ignore_errors=True)]
    result = run(tasks, env=env, ansible=not in_process, extra_vars=None if in_process else {'nms_overlay_in_process': False})
    assert result['no_at']['msg'] == "option email: 'nobody' is not an email address"
    assert result['a_list']['msg'] == "option email: must be a string, not a list (['a@example.com'])"
    assert result['short']['msg'] == 'option expires_in: must be at least 3600 (one hour, in seconds); 60 was given'
    assert idp_server.requests() == []
    assert idp_server.ok('GET', '/api/users/invites') == []  # nothing was made
