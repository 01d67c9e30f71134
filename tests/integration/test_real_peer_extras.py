# -*- coding: utf-8 -*-
"""Issue 31, peers and users, on the real v0.77.1 (tests/support/realserver.py; the real-server stage, ``make real``):
peer_temporary_access's whole lifecycle on the seeded server with the embedded identity provider (``--idp``);
peer_job refused as the server refuses every job of the seeded peers (their agents are v0.27.6: remote jobs need
v0.64.0), peer_job_info's empty list; user_password's change, re-run and refusals on a fresh server set up with a
password (``--fresh``), and the seeded owner, whom the identity provider does not know."""

from __future__ import annotations

import pytest

from tests.integration.test_real_servers import connection, started
from tests.support.emulator import http, writes_of

pytestmark = pytest.mark.real

KEY = 'n0r3pL4c3h0ld3rK3yAAAAAAAAAAAAAAAAAAAAAAAAA='
OLD, NEW = 'correct-horse-9', 'Battery-Staple-7'


@pytest.fixture(scope='module')
def idp_server():
    yield from started('v0.77.1', '--idp')


@pytest.fixture(scope='module')
def fresh_server():
    server = next(started('v0.77.1', '--fresh'), None)
    if server is None:
        pytest.fail('no fresh real server', pytrace=False)
    owner = {'email': 'owner@example.com', 'name': 'Owner', 'password': OLD, 'create_pat': True, 'pat_expire_in': 1}
    status, answer = http('POST', server.url + '/api/setup', owner)
    if status != 200:
        server.stop()
        pytest.fail('the setup of the fresh server failed: %s %r' % (status, answer), pytrace=False)
    server.token = answer['personal_access_token']
    yield server
    server.stop()


def access(**options):
    return {'name': 'access', 'nms.overlay.peer_temporary_access': options}


def test_temporary_access_lifecycle_on_the_real_server(idp_server, run):
    env = connection(idp_server)
    task = dict(peer='real-h1', name='laptop', wg_pub_key=KEY, rules=['tcp/22', 'udp/53-60'])
    idp_server.clear_log()
    check = run([access(**task)], env=env, check=True)
    assert check['access']['changed'] is True and idp_server.writes() == []
    first = run([access(**task)], env=env, diff=True)
    assert first.rc == 0, first
    created = first['access']['temporary_access']
    assert created['rules'] == ['tcp/22', 'udp/53-60'] and created['peer'] == 'real-peer-1'
    assert writes_of(idp_server) == ['POST /api/peers/real-peer-1/temporary-access']
    peer = idp_server.ok('GET', '/peers/%s' % created['id'])
    assert peer['ephemeral'] is True and peer['name'] == 'laptop'

    idp_server.clear_log()
    again = run([access(**task)], env=env)
    assert again['access']['changed'] is False and again['access']['temporary_access']['id'] == created['id']
    other = run([access(**{**task, 'rules': ['tcp/443']})], env=env)
    assert other['access']['changed'] is False and 'keeps its rules' in other['access']['warnings'][0]
    assert idp_server.writes() == []

    bad = run([dict(access(**{**task, 'name': 'other', 'rules': ['tcp']}), ignore_errors=True)], env=env)
    assert "'tcp' is no rule" in bad['access']['msg'] and idp_server.writes() == []  # the server would answer 500, peer made
    taken = run([dict(access(**{**task, 'name': 'other'}), ignore_errors=True)], env=env)
    assert taken['access']['status'] == 412 and 'peer has been already registered' in taken['access']['msg']

    idp_server.clear_log()
    gone = run([access(peer='real-h1', name='laptop', state='absent')], env=env)
    assert gone['access']['changed'] is True and writes_of(idp_server) == ['DELETE /api/peers/%s' % created['id']]
    assert not [p for p in idp_server.ok('GET', '/policies') if p['name'] == 'Temporary access policy for peer laptop']
    idp_server.clear_log()
    again = run([access(peer='real-h1', name='laptop', state='absent')], env=env)
    assert again['access']['changed'] is False and idp_server.writes() == []


def test_peer_jobs_are_refused_for_the_seeded_agents(idp_server, run):
    env = connection(idp_server)
    idp_server.clear_log()
    result = run([{'name': 'info', 'nms.overlay.peer_job_info': {'peer': 'real-h2'}},
                  {'name': 'check', 'check_mode': True, 'nms.overlay.peer_job': {'peer': 'real-h2'}},
                  {'name': 'job', 'ignore_errors': True, 'nms.overlay.peer_job': {'peer': 'real-h2', 'anonymize': True}}], env=env)
    assert result['info']['jobs'] == [] and result['check']['changed'] is True
    assert result['job']['status'] == 412
    assert result['job']['msg'].endswith('peer version 0.27.6 does not meet the minimum required version 0.64.0 for remote jobs')
    assert writes_of(idp_server) == ['POST /api/peers/real-peer-2/jobs']


def test_user_password_on_the_real_server(fresh_server, run):
    env = connection(fresh_server)
    task = {'name': 'password', 'ignore_errors': True, 'nms.overlay.user_password': {'old_password': OLD, 'password': NEW}}
    fresh_server.clear_log()
    check = run([task], env=env, check=True)
    assert check['password']['changed'] is True and fresh_server.writes() == []
    first = run([task], env=env)
    assert first['password']['changed'] is True and first['password']['user']['email'] == 'owner@example.com'
    assert writes_of(fresh_server) == ['PUT /api/users/%s/password' % first['password']['user']['id']]
    again = run([task], env=env)
    assert again['password']['changed'] is False and 'an earlier run changed it already' in again['password']['warnings'][0]
    strict = run([dict(task, **{'nms.overlay.user_password': dict(old_password=OLD, password=NEW, update_password='always')})], env=env)
    assert strict['password']['failed'] is True and 'current password is incorrect' in strict['password']['msg']
    back = run([dict(task, **{'nms.overlay.user_password': dict(old_password=NEW, password=OLD)})], env=env)
    assert back['password']['changed'] is True
    for result in (check, first, again, strict, back):
        assert OLD not in str(result.results) and NEW not in str(result.results)


def test_user_password_of_a_user_the_identity_provider_does_not_know(idp_server, run):
    result = run([{'name': 'password', 'ignore_errors': True, 'nms.overlay.user_password': {'old_password': OLD, 'password': NEW}}],
                 env=connection(idp_server))
    assert result['password']['status'] == 422
    assert result['password']['msg'].endswith('failed to update password: failed to get user: not found')


@pytest.mark.parametrize('key', ['not-a-key', '!' * 43 + '=', KEY[4:]], ids=['not base64', '44 characters not base64', 'too short'])
def test_a_key_that_is_no_wireguard_key_is_refused_before_any_request(idp_server, run, key):
    """Issue 44, point 8: real v0.77.1 makes the temporary peer of any text as its WireGuard key (a peer no agent can
    use); the module refuses it before any request, naming the option and the rule."""
    env = connection(idp_server)
    idp_server.clear_log()
    bad = run([dict(access(peer='real-h1', name='bad-key', wg_pub_key=key, rules=['tcp/22']), ignore_errors=True)], env=env)
    assert bad['access']['msg'].startswith("option wg_pub_key: must be a WireGuard public key (32 bytes in standard base64: 44 "
                                           "characters ending in '=', as wg pubkey prints it), not '%s'" % key)
    assert idp_server.requests() == []
    assert [peer['name'] for peer in idp_server.ok('GET', '/peers') if peer['name'] == 'bad-key'] == []  # nothing was made
