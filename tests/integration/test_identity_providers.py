# -*- coding: utf-8 -*-
"""nms.overlay.identity_provider and identity_provider_info: on a v0.77 server (the `current` dialect, with the
embedded identity provider as the real seeded v0.77.1 runs with --idp) every step of the lifecycle, the client secret
sent and never shown; on a v0.27 server (`netbird`) a refusal after the version probe."""

from __future__ import annotations

import pytest

from tests.support.emulator import writes_of

ISSUER = 'http://127.0.0.1:8080/oauth2'  # the embedded identity provider's own issuer, the one the server reaches
SECRET = 'idp-client-secret-8c1f0e'
ROTATED = 'idp-client-secret-rotated-77a2'
PROVIDER = {'name': 'Own issuer', 'type': 'oidc', 'issuer': ISSUER, 'client_id': 'cid', 'client_secret': SECRET}


def needs(emulator, dialect):
    if emulator.dialect != dialect:
        pytest.skip('needs the %s dialect' % dialect)


def task(**options):
    return {'name': 'idp', 'nms.overlay.identity_provider': options}


def test_create_rerun_check_update_rotate_delete(emulator, run):
    needs(emulator, 'current')
    first = run([task(**PROVIDER)], diff=True)
    assert first.rc == 0, first
    created = first['idp']['identity_provider']
    assert first['idp']['changed'] is True and created['issuer'] == ISSUER and 'client_secret' not in created
    assert writes_of(emulator) == ['POST /api/identity-providers']
    assert emulator.writes()[0]['body']['client_secret'] == SECRET  # sent on create
    assert first['idp']['diff']['after']['client_secret'] == '(sent: not shown)'

    emulator.clear_log()
    again = run([task(**PROVIDER)])
    assert again.rc == 0, again
    assert again['idp']['changed'] is False and emulator.writes() == []

    check = run([task(**{**PROVIDER, 'client_id': 'cid2'})], check=True, diff=True)
    assert check.rc == 0, check
    assert check['idp']['changed'] is True and check['idp']['diff'] == {'before': {'client_id': 'cid'}, 'after': {'client_id': 'cid2'}}
    assert emulator.writes() == []

    update = run([task(**{**PROVIDER, 'client_id': 'cid2'})])
    assert update.rc == 0, update
    assert writes_of(emulator) == ['PUT /api/identity-providers/%s' % created['id']]
    assert 'client_secret' not in emulator.writes()[0]['body']  # on_create: the server keeps the secret it holds

    emulator.clear_log()
    rotate = run([task(name='Own issuer', client_secret=ROTATED, update_secret='always')], diff=True, ansible=True)
    assert rotate.rc == 0, rotate
    assert rotate['idp']['changed'] is True
    assert rotate['idp']['diff'] == {'before': {'client_secret': '(write-only: not readable)'}, 'after': {'client_secret': '(sent: not shown)'}}
    assert emulator.writes()[0]['body']['client_secret'] == ROTATED
    assert ROTATED not in rotate.stdout and SECRET not in rotate.stdout

    renamed = run([task(id=created['id'], name='Company SSO', type='zitadel')])
    assert renamed.rc == 0, renamed
    assert renamed['idp']['identity_provider']['name'] == 'Company SSO' and renamed['idp']['identity_provider']['type'] == 'oidc'
    assert any('type cannot change' in warning for warning in renamed['idp']['warnings'])

    info = run([{'name': 'one', 'nms.overlay.identity_provider_info': {'name': 'Company SSO'}},
                {'name': 'all', 'nms.overlay.identity_provider_info': {}}])
    assert info.rc == 0, info
    assert [item['id'] for item in info['one']['identity_providers']] == [created['id']] and len(info['all']['identity_providers']) == 1

    emulator.clear_log()
    gone = run([task(name='Company SSO', state='absent')])
    assert gone.rc == 0, gone
    assert gone['idp']['changed'] is True and writes_of(emulator) == ['DELETE /api/identity-providers/%s' % created['id']]
    emulator.clear_log()
    again = run([task(name='Company SSO', state='absent')])
    assert again.rc == 0, again
    assert again['idp']['changed'] is False and emulator.writes() == []


def test_an_issuer_the_server_cannot_reach_fails_with_the_servers_message(emulator, run):
    needs(emulator, 'current')
    result = run([dict(task(**{**PROVIDER, 'issuer': 'https://sso.example.com'}), ignore_errors=True)])
    failed = result['idp']
    assert failed['failed'] is True and failed['status'] == 422
    assert failed['msg'].startswith('POST %s/api/identity-providers failed with HTTP 422: identity provider issuer is unreachable' % emulator.url)
    assert emulator.writes()[0]['status'] == 422 and SECRET not in failed['msg']


def test_without_the_embedded_identity_provider_its_own_issuer_is_unreachable(emulator, run):
    needs(emulator, 'current')
    emulator.control('POST', '/_emulator/config', {'idp': False})  # the plain seeded v0.77.1
    result = run([dict(task(**PROVIDER), ignore_errors=True)])
    assert result['idp']['msg'].rstrip() == ('POST %s/api/identity-providers failed with HTTP 422: identity provider issuer is '
                                             'unreachable: 404 not found: 404 page not found' % emulator.url)


def test_a_v027_server_refuses_both_modules_after_the_version_probe(emulator, run):
    needs(emulator, 'netbird')
    emulator.clear_log()
    result = run([dict(task(**PROVIDER), ignore_errors=True),
                  {'name': 'info', 'ignore_errors': True, 'nms.overlay.identity_provider_info': {}}])
    for name in ('idp', 'info'):
        assert 'does not have identity providers, which came with NetBird v0.62.0' in result[name]['msg']
    assert [(r['method'], r['path']) for r in emulator.requests()] == [('GET', '/api/instance/version')] * 2
