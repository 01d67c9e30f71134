# -*- coding: utf-8 -*-
"""nms.overlay.user_invite and user_invite_info: on a v0.77 server (the `current` dialect, with the embedded identity
provider) every step of the lifecycle, the link's token in `register` only, never in the output; an accepted invite;
the refusal of a server without the embedded identity provider (412) and of a v0.27 server."""

from __future__ import annotations

import re

import pytest

from tests.support.emulator import make_group, writes_of

TOKEN_RE = re.compile(r'nbi_[0-9A-Za-z]{36}')
INVITE = {'email': 'bob@example.com', 'name': 'Bob', 'role': 'user', 'auto_groups': ['devs']}


def needs(emulator, dialect):
    if emulator.dialect != dialect:
        pytest.skip('needs the %s dialect' % dialect)


def task(**options):
    return {'name': 'invite', 'register': 'invite', 'nms.overlay.user_invite': options}


def shown_tokens(result):
    """The invite tokens in ansible-playbook's output, beside the one the play shows on purpose (none here)."""
    return TOKEN_RE.findall(result.stdout)


def used(tmp_path, name):
    """A task that writes what register got of the invite (its token, its id) into a file, as a play hands it on."""
    content = '{{ invite.user_invite.id }} {{ invite.user_invite.invite_token }}'
    return {'name': 'use', 'no_log': True, 'ansible.builtin.copy': {'dest': str(tmp_path / name), 'mode': '0600', 'content': content}}


def test_create_rerun_check_regenerate_delete(emulator, run, tmp_path):
    needs(emulator, 'current')
    group = make_group(emulator, 'devs')
    emulator.clear_log()
    first = run([task(**INVITE), used(tmp_path, 'first')], diff=True, ansible=True)
    assert first.rc == 0, first
    invite_id, token = (tmp_path / 'first').read_text().split()
    assert TOKEN_RE.fullmatch(token)  # register has it
    assert shown_tokens(first) == [] and 'censored' in first.stdout
    assert writes_of(emulator) == ['POST /api/users/invites']
    created = emulator.ok('GET', '/api/users/invites')[0]
    assert created['id'] == invite_id and created['auto_groups'] == [group['id']] and created['role'] == 'user'

    emulator.clear_log()
    again = run([task(**INVITE)])
    assert again.rc == 0, again
    assert again['invite']['changed'] is False and emulator.writes() == [] and 'invite_token' not in again['invite']['user_invite']

    check = run([task(**{**INVITE, 'regenerate': True})], check=True, diff=True)
    assert check.rc == 0, check
    assert check['invite']['changed'] is True and emulator.writes() == []
    assert 'invite_token' not in check['invite']['user_invite']

    changed_role = run([task(**{**INVITE, 'role': 'admin'})])
    assert changed_role.rc == 0, changed_role
    assert changed_role['invite']['changed'] is False and emulator.writes() == []
    assert any('role cannot change' in warning for warning in changed_role['invite']['warnings'])

    emulator.clear_log()
    regenerated = run([task(email='bob@example.com', regenerate=True, expires_in=7200), used(tmp_path, 'new')], ansible=True)
    assert regenerated.rc == 0, regenerated
    new_id, new_token = (tmp_path / 'new').read_text().split()
    assert TOKEN_RE.fullmatch(new_token) and new_token != token and new_id == invite_id
    assert shown_tokens(regenerated) == []
    assert writes_of(emulator) == ['POST /api/users/invites/%s/regenerate' % created['id']]
    assert emulator.writes()[0]['body'] == {'expires_in': 7200}

    info = run([{'name': 'info', 'nms.overlay.user_invite_info': {'email': 'BOB@example.com'}}])
    assert info.rc == 0, info
    assert [item['id'] for item in info['info']['user_invites']] == [created['id']]
    assert 'invite_token' not in info['info']['user_invites'][0]

    emulator.clear_log()
    gone = run([task(email='bob@example.com', state='absent')])
    assert gone.rc == 0, gone
    assert gone['invite']['changed'] is True and writes_of(emulator) == ['DELETE /api/users/invites/%s' % created['id']]
    emulator.clear_log()
    again = run([task(email='bob@example.com', state='absent')])
    assert again.rc == 0, again
    assert again['invite']['changed'] is False and emulator.writes() == []


def test_an_accepted_invite_is_no_failure_on_a_re_run(emulator, run):
    needs(emulator, 'current')
    first = run([task(email='carol@example.com', name='Carol', role='user')])
    token = first['invite']['user_invite']['invite_token']
    emulator.ok('POST', '/api/users/invites/%s/accept' % token, {'password': 'Secret-Passw0rd'})  # the invitee's side
    emulator.clear_log()
    again = run([task(email='carol@example.com', name='Carol', role='user')])
    assert again.rc == 0, again
    assert again['invite']['changed'] is False and again['invite']['user_invite'] == {}
    assert again['invite']['user']['email'] == 'carol@example.com' and again['invite']['user']['status'] == 'active'
    assert emulator.writes() == []


def test_without_the_embedded_identity_provider_the_servers_412_is_reported(emulator, run):
    needs(emulator, 'current')
    emulator.control('POST', '/_emulator/config', {'idp': False})  # the plain seeded v0.77.1
    result = run([dict(task(**{**INVITE, 'auto_groups': []}), ignore_errors=True),
                  {'name': 'info', 'ignore_errors': True, 'nms.overlay.user_invite_info': {}}])
    for name in ('invite', 'info'):
        assert result[name]['msg'] == ('GET %s/api/users/invites failed with HTTP 412: invite links are only available '
                                       'with embedded identity provider' % emulator.url)
        assert result[name]['status'] == 412
    assert emulator.writes() == []


def test_a_v027_server_refuses_both_modules_after_the_version_probe(emulator, run):
    needs(emulator, 'netbird')
    emulator.clear_log()
    result = run([dict(task(**INVITE), ignore_errors=True),
                  {'name': 'info', 'ignore_errors': True, 'nms.overlay.user_invite_info': {}}])
    for name in ('invite', 'info'):
        assert 'does not have invite links, which came with NetBird v0.64.2' in result[name]['msg']
    assert [(r['method'], r['path']) for r in emulator.requests()] == [('GET', '/api/instance/version')] * 2
