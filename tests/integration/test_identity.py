# -*- coding: utf-8 -*-
"""nms.overlay.user, token, setup_key, account_settings and their info modules, in both dialects."""

from __future__ import annotations

import datetime

from tests.support.emulator import writes_of as writes
from tests.support.modules import examples_of

ACCOUNT_SETTINGS = ('peer_login_expiration_enabled', 'peer_login_expiration', 'regular_users_view_blocked',
                    'groups_propagation_enabled', 'jwt_groups_enabled', 'jwt_groups_claim_name', 'jwt_allow_groups')


def user_named(emulator, name):
    found = [u for u in emulator.ok('GET', '/api/users') if u['name'] == name]
    assert len(found) == 1, found
    return found[0]


def service_user(emulator, name, role='user', auto_groups=()):
    body = {'name': name, 'role': role, 'auto_groups': list(auto_groups), 'is_service_user': True}
    return emulator.ok('POST', '/api/users', body)


def group(emulator, name):
    return emulator.ok('POST', '/api/groups', {'name': name, 'peers': []})


def setup_keys(emulator, name=None):
    return [k for k in emulator.ok('GET', '/api/setup-keys') if name is None or k['name'] == name]


def seconds_left(key):
    expires = datetime.datetime.fromisoformat(key['expires'].replace('Z', '+00:00')[:19] + '+00:00')
    return (expires - datetime.datetime.now(datetime.timezone.utc)).total_seconds()


# -- user -------------------------------------------------------------------------------------------
def test_service_user_lifecycle(emulator, run):
    ops = group(emulator, 'ops')
    dev = group(emulator, 'dev')
    emulator.clear_log()
    task = {'name': 'bot', 'nms.overlay.user': {'name': 'ci-bot', 'is_service_user': True, 'role': 'user',
                                                'auto_groups': ['ops']}}
    first = run([task], diff=True)
    assert first.rc == 0, first
    assert first['bot']['changed'] is True
    created = first['bot']['user']
    assert created['is_service_user'] is True and created['role'] == 'user' and created['auto_groups'] == [ops['id']]
    assert first['bot']['diff']['before'] == {}
    assert first['bot']['diff']['after']['auto_groups'] == ['ops']  # shown by name
    assert writes(emulator) == ['POST /api/users']

    # The same task again (the group given by id this time): no change, one list of users and one of groups.
    emulator.clear_log()
    again = run([{'name': 'bot', 'nms.overlay.user': {'name': 'ci-bot', 'is_service_user': True, 'role': 'user',
                                                      'auto_groups': [ops['id']]}}])
    assert again['bot']['changed'] is False
    assert writes(emulator) == []
    assert sorted(r['path'] for r in emulator.requests()) == ['/api/groups', '/api/users']

    # Role change, then a task without role leaves the admin an admin.
    emulator.clear_log()
    promote = run([{'name': 'promote', 'nms.overlay.user': {'name': 'ci-bot', 'is_service_user': True, 'role': 'admin'}},
                   {'name': 'no role', 'nms.overlay.user': {'name': 'ci-bot', 'is_service_user': True}},
                   {'name': 'groups only', 'nms.overlay.user': {'name': 'ci-bot', 'auto_groups': ['dev', 'ops']}}],
                  diff=True)
    assert promote['promote']['changed'] is True
    assert promote['promote']['diff'] == {'before': {'role': 'user'}, 'after': {'role': 'admin'}}
    assert promote['no role']['changed'] is False
    assert promote['no role']['user']['role'] == 'admin'
    assert promote['groups only']['changed'] is True
    assert promote['groups only']['user']['role'] == 'admin'
    assert writes(emulator) == ['PUT /api/users/%s' % created['id']] * 2
    put_bodies = [w['body'] for w in emulator.writes()]
    assert put_bodies[0] == {'role': 'admin', 'auto_groups': [ops['id']], 'is_blocked': False}
    assert sorted(put_bodies[1]['auto_groups']) == sorted([ops['id'], dev['id']])
    assert put_bodies[1]['role'] == 'admin'
    assert user_named(emulator, 'ci-bot')['role'] == 'admin'

    # Block (keeps role and groups), re-run unchanged, unblock, empty the groups.
    emulator.clear_log()
    block = run([{'name': 'block', 'nms.overlay.user': {'name': 'ci-bot', 'is_blocked': True}},
                 {'name': 'block again', 'nms.overlay.user': {'name': 'ci-bot', 'is_blocked': True}}])
    assert block['block']['changed'] is True and block['block']['user']['status'] == 'blocked'
    assert block['block again']['changed'] is False
    assert len(emulator.writes()) == 1
    bot = user_named(emulator, 'ci-bot')
    assert bot['is_blocked'] is True and bot['role'] == 'admin' and len(bot['auto_groups']) == 2
    unblock = run([{'name': 'unblock', 'nms.overlay.user': {'name': 'ci-bot', 'is_blocked': False, 'auto_groups': []}}])
    assert unblock['unblock']['changed'] is True
    bot = user_named(emulator, 'ci-bot')
    assert bot['is_blocked'] is False and bot['auto_groups'] == [] and bot['role'] == 'admin'

    # Found by id; the name cannot change: a warning, no write.
    emulator.clear_log()
    by_id = run([{'name': 'by id', 'nms.overlay.user': {'id': created['id'], 'name': 'other-name', 'role': 'admin'}}])
    assert by_id['by id']['changed'] is False
    assert any('name cannot change' in w for w in by_id['by id'].get('warnings', []))
    assert writes(emulator) == []

    # Delete, delete again.
    emulator.clear_log()
    gone = run([{'name': 'delete', 'nms.overlay.user': {'name': 'ci-bot', 'is_service_user': True, 'state': 'absent'}},
                {'name': 'again', 'nms.overlay.user': {'name': 'ci-bot', 'is_service_user': True, 'state': 'absent'}}])
    assert gone['delete']['changed'] is True and gone['again']['changed'] is False
    assert gone['again']['user'] == {}
    assert writes(emulator) == ['DELETE /api/users/%s' % created['id']]


def test_user_check_mode_sends_no_write(emulator, run):
    bot = service_user(emulator, 'bot', role='user')
    emulator.clear_log()
    result = run([
        {'name': 'create', 'nms.overlay.user': {'name': 'new-bot', 'is_service_user': True, 'role': 'user'}},
        {'name': 'invite', 'nms.overlay.user': {'email': 'x@example.com', 'name': 'X', 'role': 'user'}},
        {'name': 'update', 'nms.overlay.user': {'name': 'bot', 'role': 'admin', 'is_blocked': True}},
        {'name': 'delete', 'nms.overlay.user': {'name': 'bot', 'state': 'absent'}},
    ], check=True, diff=True)
    assert result.rc == 0, result
    assert [result[n]['changed'] for n in ('create', 'invite', 'update', 'delete')] == [True] * 4
    assert result['update']['diff'] == {'before': {'role': 'user', 'is_blocked': False},
                                        'after': {'role': 'admin', 'is_blocked': True}}
    assert result['update']['user']['role'] == 'admin'
    assert emulator.writes() == []
    assert user_named(emulator, 'bot')['role'] == 'user' and bot['id']


def test_invite_regular_user_and_resend(emulator, run):
    group(emulator, 'developers')
    emulator.clear_log()
    invite = {'email': 'alice@example.com', 'name': 'Alice', 'role': 'user', 'auto_groups': ['developers']}
    first = run([{'name': 'invite', 'nms.overlay.user': invite},
                 {'name': 'again', 'nms.overlay.user': dict(invite, email='ALICE@example.com')}])
    assert first.rc == 0, first
    assert first['invite']['changed'] is True and first['invite']['invitation_sent'] is False
    alice = first['invite']['user']
    invited = emulator.dialect != 'current'  # v0.77's embedded identity provider makes the user active at once
    assert alice['status'] == ('invited' if invited else 'active') and alice['email'] == 'alice@example.com'
    assert first['again']['changed'] is False
    assert writes(emulator) == ['POST /api/users']
    assert emulator.writes()[0]['body']['is_service_user'] is False

    # resend: check mode sends nothing and reports no change; a real run sends one.
    emulator.clear_log()
    resend = {'name': 'resend', 'nms.overlay.user': {'email': 'alice@example.com', 'resend_invitation': True}}
    checked = run([resend], check=True)
    assert checked['resend']['changed'] is False and checked['resend']['invitation_sent'] is False
    assert emulator.writes() == []
    sent = run([resend])
    assert sent['resend']['changed'] is invited and sent['resend']['invitation_sent'] is invited
    assert writes(emulator) == (['POST /api/users/%s/invite' % alice['id']] if invited else [])

    # An active user gets no invitation, and nothing changes.
    emulator.clear_log()
    active = run([{'name': 'owner', 'nms.overlay.user': {'email': 'owner@example.com', 'resend_invitation': True}}])
    assert active['owner']['changed'] is False and active['owner']['invitation_sent'] is False
    assert emulator.writes() == []

    # Block by email without a role: the role stays user.
    block = run([{'name': 'block', 'nms.overlay.user': {'email': 'alice@example.com', 'is_blocked': True}}])
    assert block['block']['changed'] is True
    assert block['block']['user']['role'] == 'user' and block['block']['user']['is_blocked'] is True

    # Deleting a regular user by email.
    gone = run([{'name': 'delete', 'nms.overlay.user': {'email': 'alice@example.com', 'state': 'absent'}}])
    assert gone['delete']['changed'] is True
    assert [u for u in emulator.ok('GET', '/api/users') if u['email'] == 'alice@example.com'] == []


def test_user_created_blocked_and_seeded_admin_stays_admin(emulator, run):
    seeded = emulator.add_user('admin@example.com', name='Ada', role='admin')
    emulator.clear_log()
    result = run([
        {'name': 'blocked bot', 'nms.overlay.user': {'name': 'b', 'is_service_user': True, 'role': 'user',
                                                     'is_blocked': True}},
        {'name': 'ada', 'nms.overlay.user': {'email': 'admin@example.com', 'auto_groups': []}},
    ])
    assert result.rc == 0, result
    assert result['blocked bot']['user']['is_blocked'] is True
    assert [w['method'] for w in emulator.writes()] == ['POST', 'PUT']
    assert result['ada']['changed'] is False and result['ada']['user']['role'] == 'admin'
    ada_id = seeded['id'] if 'id' in seeded else seeded['user']['id']
    assert result['ada']['user']['id'] == ada_id


def test_user_refusals_fail_before_any_write(emulator, run):
    service_user(emulator, 'twin')
    service_user(emulator, 'twin')
    service_user(emulator, 'bot')
    admin = emulator.add_user('adm@example.com', name='Adm', role='admin', token=True)
    emulator.clear_log()
    tasks = [
        # rules about the target, which servers answer with 403 whatever the caller's permissions
        ('own role', {'email': 'owner@example.com', 'role': 'admin'}, 'is the one this task acts as, and nobody can change '
                                                                      'their own role'),
        ('service owner', {'name': 'bot', 'is_service_user': True, 'role': 'owner'}, 'a service user cannot be the owner'),
        ('owner', {'email': 'owner@example.com', 'state': 'absent'}, 'is the account owner and cannot be deleted'),
        ('new owner', {'name': 'x', 'is_service_user': True, 'role': 'owner'}, 'a new user cannot be the owner'),
        ('no role', {'name': 'x', 'is_service_user': True}, 'option role is required'),
        ('no kind', {'name': 'x', 'role': 'user'}, 'set is_service_user: true'),
        ('bad email', {'email': 'not-an-email', 'role': 'user'}, "option email: 'not-an-email' is not an email address"),
        ('svc email', {'email': 'a@b.c', 'is_service_user': True}, 'option email: service users have no email'),
        ('twin', {'name': 'twin', 'role': 'admin'}, "name 'twin' matches 2 users"),
        ('bad role', {'name': 'x', 'role': 'boss'}, 'value of role must be one of'),
        ('unknown group', {'name': 'x', 'is_service_user': True, 'role': 'user', 'auto_groups': ['nope']},
         "auto_groups: no group with the id or name 'nope'"),
    ]
    result = run([{'name': n, 'nms.overlay.user': args, 'ignore_errors': True} for n, args, dummy in tasks])
    for name, dummy, message in tasks:
        assert result[name]['failed'] is True, name
        assert message in result[name]['msg'], (name, result[name]['msg'])
    assert emulator.writes() == []

    # An admin cannot delete itself: refused before the write.
    self_delete = run([{'name': 'self', 'nms.overlay.user': {'email': 'adm@example.com', 'state': 'absent'}}],
                      env={'NMS_API_TOKEN': admin['token']})
    assert self_delete['self']['failed'] is True
    assert 'cannot delete itself' in self_delete['self']['msg']
    assert emulator.writes() == []


def test_user_info(emulator, run):
    bot = service_user(emulator, 'bot')
    emulator.add_user('bob@example.com', name='Bob', role='user', status='invited')
    emulator.clear_log()
    result = run([
        {'name': 'all', 'nms.overlay.user_info': {}},
        {'name': 'service', 'nms.overlay.user_info': {'service_user': True}},
        {'name': 'regular', 'nms.overlay.user_info': {'service_user': False}},
        {'name': 'email', 'nms.overlay.user_info': {'email': 'BOB@example.com'}},
        {'name': 'id', 'nms.overlay.user_info': {'id': bot['id']}},
        {'name': 'name', 'nms.overlay.user_info': {'name': 'nobody'}},
    ])
    assert result.rc == 0, result
    assert sorted(u['name'] for u in result['all']['users']) == ['Bob', 'Owner', 'bot']
    assert [u['name'] for u in result['service']['users']] == ['bot']
    assert sorted(u['name'] for u in result['regular']['users']) == ['Bob', 'Owner']
    assert [u['status'] for u in result['email']['users']] == ['invited']
    assert [u['id'] for u in result['id']['users']] == [bot['id']]
    assert result['name']['users'] == []
    queries = [r['query'] for r in emulator.requests()]
    assert any('service_user=true' in str(q) for q in queries)


# -- token ------------------------------------------------------------------------------------------
def test_token_lifecycle(emulator, run):
    bot = service_user(emulator, 'ci-bot', role='admin')
    emulator.clear_log()
    task = {'name': 'token', 'nms.overlay.token': {'user': 'ci-bot', 'name': 'pipeline', 'expires_in': 30}}
    first = run([task])
    assert first.rc == 0, first
    assert first['token']['changed'] is True
    plain = first['token']['plain_token']
    assert plain.startswith('nbp_') and len(plain) == 40
    token = first['token']['token']
    assert token['name'] == 'pipeline' and 'plain_token' not in token
    assert writes(emulator) == ['POST /api/users/%s/tokens' % bot['id']]
    status, dummy = emulator.api('GET', '/api/groups', token=plain)
    assert status == 200  # the value works

    # Re-runs are unchanged, show no value, and read the users and the tokens once each.
    emulator.clear_log()
    again = run([task])
    assert again['token']['changed'] is False
    assert 'plain_token' not in again['token']
    assert writes(emulator) == []
    assert [r['path'] for r in emulator.requests()] == ['/api/users', '/api/users/%s/tokens' % bot['id']]

    # A different lifetime is a warning, not a change.
    longer = run([{'name': 'longer', 'nms.overlay.token': {'user': bot['id'], 'name': 'pipeline', 'expires_in': 90}}])
    assert longer['longer']['changed'] is False
    assert any('expires_in cannot change' in w for w in longer['longer']['warnings'])
    assert writes(emulator) == []

    # Rotate: a new value, the old one stops working.
    emulator.clear_log()
    rotated = run([{'name': 'rotate', 'nms.overlay.token': {'user': 'ci-bot', 'name': 'pipeline', 'rotate': True}}],
                  diff=True)
    assert rotated['rotate']['changed'] is True
    new_plain = rotated['rotate']['plain_token']
    assert new_plain != plain
    assert rotated['rotate']['replaced_id'] == token['id']
    assert rotated['rotate']['diff']['after'] == {'name': 'pipeline', 'expires_in': 30}
    assert writes(emulator) == ['POST /api/users/%s/tokens' % bot['id'],
                                'DELETE /api/users/%s/tokens/%s' % (bot['id'], token['id'])]
    assert emulator.api('GET', '/api/groups', token=plain)[0] == 401
    assert emulator.api('GET', '/api/groups', token=new_plain)[0] == 200

    # token_info, by name and by id.
    new_id = rotated['rotate']['token']['id']
    info = run([{'name': 'all', 'nms.overlay.token_info': {'user': 'ci-bot'}},
                {'name': 'by id', 'nms.overlay.token_info': {'user': 'ci-bot', 'id': new_id}},
                {'name': 'unknown id', 'nms.overlay.token_info': {'user': 'ci-bot', 'id': 'nope'}},
                {'name': 'by name', 'nms.overlay.token_info': {'user': 'ci-bot', 'name': 'pipeline'}}])
    assert [t['id'] for t in info['all']['tokens']] == [new_id]
    assert [t['id'] for t in info['by id']['tokens']] == [new_id]
    assert info['unknown id']['tokens'] == []
    assert [t['name'] for t in info['by name']['tokens']] == ['pipeline']

    # Delete by id, then again by name: unchanged.
    emulator.clear_log()
    gone = run([{'name': 'delete', 'nms.overlay.token': {'user': 'ci-bot', 'id': new_id, 'state': 'absent'}},
                {'name': 'again', 'nms.overlay.token': {'user': 'ci-bot', 'name': 'pipeline', 'state': 'absent'}}])
    assert gone['delete']['changed'] is True and gone['again']['changed'] is False
    assert writes(emulator) == ['DELETE /api/users/%s/tokens/%s' % (bot['id'], new_id)]
    empty = run([{'name': 'none', 'nms.overlay.token_info': {'user': 'ci-bot'}}])
    assert empty['none']['tokens'] == []  # null from netbird servers


def test_token_check_mode_and_own_tokens(emulator, run):
    emulator.clear_log()
    checked = run([{'name': 'create', 'nms.overlay.token': {'user': 'owner@example.com', 'name': 'mine',
                                                            'expires_in': 7}}], check=True, diff=True)
    assert checked['create']['changed'] is True
    assert 'plain_token' not in checked['create']
    assert checked['create']['diff']['after'] == {'name': 'mine', 'expires_in': 7}
    assert emulator.writes() == []
    created = run([{'name': 'create', 'nms.overlay.token': {'user': 'owner@example.com', 'name': 'mine',
                                                            'expires_in': 7}}])
    assert created['create']['changed'] is True
    emulator.clear_log()
    checked = run([{'name': 'rotate', 'nms.overlay.token': {'user': 'owner-user', 'name': 'mine', 'rotate': True}},
                   {'name': 'delete', 'nms.overlay.token': {'user': 'owner-user', 'name': 'mine', 'state': 'absent'}}],
                  check=True)
    assert checked['rotate']['changed'] is True and checked['delete']['changed'] is True
    assert 'plain_token' not in checked['rotate']
    assert emulator.writes() == []


def test_token_validation(emulator, run):
    emulator.clear_log()
    tasks = [
        ('zero', {'user': 'owner-user', 'name': 't', 'expires_in': 0}, 'option expires_in: must be between 1 and 365 days'),
        ('too long', {'user': 'owner-user', 'name': 't', 'expires_in': 366}, 'option expires_in: must be between 1 and 365'),
        ('empty name', {'user': 'owner-user', 'name': ' ', 'expires_in': 3}, 'option name: must not be empty'),
    ]
    result = run([{'name': n, 'nms.overlay.token': args, 'ignore_errors': True} for n, args, dummy in tasks])
    for name, dummy, message in tasks:
        assert result[name]['failed'] is True
        assert result[name]['msg'].startswith(message), result[name]['msg']
    assert emulator.requests() == []
    result = run([
        {'name': 'no lifetime', 'nms.overlay.token': {'user': 'owner-user', 'name': 't'}, 'ignore_errors': True},
        {'name': 'no user', 'nms.overlay.token': {'user': 'ghost', 'name': 't', 'expires_in': 3}, 'ignore_errors': True},
    ])
    assert 'option expires_in is required to create the token' in result['no lifetime']['msg']
    assert result['no user']['msg'] == "user: no user with the id or email or name 'ghost'"
    assert emulator.writes() == []


# -- setup key --------------------------------------------------------------------------------------
def test_setup_key_lifecycle(emulator, run):
    servers = group(emulator, 'servers')
    emulator.clear_log()
    args = {'name': 'servers', 'type': 'reusable', 'expires_in': '30d', 'usage_limit': 10, 'ephemeral': True,
            'auto_groups': ['servers']}
    first = run([{'name': 'key', 'nms.overlay.setup_key': args}], diff=True)
    assert first.rc == 0, first
    created = first['key']['setup_key']
    assert first['key']['changed'] is True
    assert len(created['key']) == 36 and created['key'] == created['key'].upper()
    assert created['state'] == 'valid' and created['valid'] is True
    assert isinstance(created['id'], str)
    assert (created['usage_limit'], created['ephemeral'], created['auto_groups']) == (10, True, [{'id': servers['id'], 'name': 'servers'}])
    assert 29 * 86400 < seconds_left(created) <= 30 * 86400
    assert writes(emulator) == ['POST /api/setup-keys']
    assert emulator.writes()[0]['body'] == {'name': 'servers', 'type': 'reusable', 'expires_in': 2592000, 'revoked': False,
                                            'auto_groups': [servers['id']], 'usage_limit': 10, 'ephemeral': True}
    assert 'key' not in first['key']['diff']['after']

    # Re-run: unchanged, no value shown, one list of keys and one of groups.
    emulator.clear_log()
    again = run([{'name': 'key', 'nms.overlay.setup_key': dict(args, auto_groups=[servers['id']], expires_in=2592000)}])
    assert again['key']['changed'] is False
    assert 'key' not in again['key']['setup_key']
    assert again['key'].get('warnings') is None
    assert writes(emulator) == []
    assert sorted(r['path'] for r in emulator.requests()) == ['/api/groups', '/api/setup-keys']

    # Fields fixed at creation: warnings, never a change (and again on the next run: never a perpetual change).
    fixed = dict(args, type='one-off', usage_limit=None, ephemeral=False, expires_in='1d')
    del fixed['usage_limit']
    for dummy in range(2):
        emulator.clear_log()
        warned = run([{'name': 'fixed', 'nms.overlay.setup_key': fixed}])
        assert warned['fixed']['changed'] is False
        text = ' '.join(warned['fixed']['warnings'])
        for option in ('type', 'ephemeral', 'expires_in'):
            assert '%s cannot change' % option in text, text
        assert writes(emulator) == []
    longer_args = {'name': 'servers', 'expires_in': 40 * 86400, 'usage_limit': 5}
    longer = run([{'name': 'longer', 'nms.overlay.setup_key': longer_args}])
    assert longer['longer']['changed'] is False
    assert [w for w in longer['longer']['warnings'] if 'usage_limit cannot change' in w]
    assert not [w for w in longer['longer']['warnings'] if 'expires_in' in w]  # cannot be told from elapsed time

    # Groups change; rename by id.
    emulator.clear_log()
    change = run([{'name': 'groups', 'nms.overlay.setup_key': {'name': 'servers', 'auto_groups': []}},
                  {'name': 'rename', 'nms.overlay.setup_key': {'id': created['id'], 'name': 'web'}}], diff=True)
    assert change['groups']['diff'] == {'before': {'auto_groups': [servers['id']]}, 'after': {'auto_groups': []}}
    assert 'key' not in change['rename']['setup_key'] and 'key' not in change['groups']['setup_key']
    if emulator.dialect == 'current':
        # v0.77 takes only revoked and auto_groups in an update: the rename is not sent, and the task says so
        assert change['rename']['changed'] is False and change['rename']['setup_key']['name'] == 'servers'
        assert [w for w in change['rename']['warnings'] if w.startswith(
            "name cannot change after the setup key is created on this server (a current release)")], change['rename'].get('warnings')
        assert writes(emulator) == ['PUT /api/setup-keys/%s' % created['id']]
        name = 'servers'
    else:
        assert change['rename']['setup_key']['name'] == 'web'
        assert writes(emulator) == ['PUT /api/setup-keys/%s' % created['id']] * 2
        name = 'web'

    # Revoke; a re-run by id without revoked keeps it revoked (by name, a new key would be created: see
    # test_keys_routes_names.py); un-revoke.
    emulator.clear_log()
    revoke = run([{'name': 'revoke', 'nms.overlay.setup_key': {'name': name, 'revoked': True}},
                  {'name': 'rerun', 'nms.overlay.setup_key': {'id': created['id'], 'type': 'reusable', 'auto_groups': []}},
                  {'name': 'rerun revoked', 'nms.overlay.setup_key': {'name': name, 'revoked': True}}])
    assert revoke['revoke']['changed'] is True
    assert (revoke['revoke']['setup_key']['state'], revoke['revoke']['setup_key']['valid']) == ('revoked', False)
    assert revoke['rerun']['changed'] is False and revoke['rerun']['setup_key']['revoked'] is True
    assert revoke['rerun revoked']['changed'] is False
    assert len(emulator.writes()) == 1
    assert setup_keys(emulator, name)[0]['revoked'] is True
    unrevoke = run([{'name': 'unrevoke', 'ignore_errors': emulator.dialect == 'current',
                     'nms.overlay.setup_key': {'name': name, 'revoked': False}}])
    if emulator.dialect == 'current':  # v0.77 never un-revokes a key, and says so
        assert unrevoke['unrevoke']['failed'] is True
        assert "can't un-revoke a revoked setup key" in unrevoke['unrevoke']['msg']
    else:
        assert unrevoke['unrevoke']['changed'] is True and unrevoke['unrevoke']['setup_key']['state'] == 'valid'

    # state=absent revokes (the v0.27 API cannot delete keys; v0.77 deletes them); again is unchanged.
    emulator.clear_log()
    gone = run([{'name': 'absent', 'nms.overlay.setup_key': {'name': name, 'state': 'absent'}},
                {'name': 'again', 'nms.overlay.setup_key': {'name': name, 'state': 'absent'}},
                {'name': 'unknown', 'nms.overlay.setup_key': {'name': 'nope', 'state': 'absent'}}])
    assert gone['absent']['changed'] is True and gone['absent']['setup_key']['revoked'] is True
    assert gone['again']['changed'] is False and gone['unknown']['changed'] is False
    assert gone['unknown']['setup_key'] == {}
    if emulator.dialect == 'current':
        assert writes(emulator) == ['DELETE /api/setup-keys/%s' % created['id']] and setup_keys(emulator, name) == []
        return
    assert writes(emulator) == ['PUT /api/setup-keys/%s' % created['id']]
    assert emulator.writes()[0]['body']['revoked'] is True


def test_setup_key_check_mode_sends_no_write(emulator, run):
    emulator.ok('POST', '/api/setup-keys', {'name': 'old', 'type': 'reusable', 'expires_in': 86400, 'revoked': False,
                                            'auto_groups': [], 'usage_limit': 0})
    emulator.clear_log()
    result = run([
        {'name': 'create', 'nms.overlay.setup_key': {'name': 'new', 'type': 'one-off', 'revoked': True}},
        {'name': 'revoke', 'nms.overlay.setup_key': {'name': 'old', 'revoked': True}},
        {'name': 'absent', 'nms.overlay.setup_key': {'name': 'old', 'state': 'absent'}},
    ], check=True, diff=True)
    assert result.rc == 0, result
    assert [result[n]['changed'] for n in ('create', 'revoke', 'absent')] == [True] * 3
    assert result['revoke']['setup_key']['state'] == 'revoked' and result['revoke']['setup_key']['valid'] is False
    assert result['create']['setup_key']['state'] == 'revoked'
    assert 'key' not in result['create']['setup_key'] and 'key' not in result['revoke']['setup_key']
    assert emulator.writes() == []
    assert setup_keys(emulator, 'new') == []


def test_setup_key_created_revoked_and_durations(emulator, run):
    emulator.clear_log()
    result = run([
        {'name': 'revoked', 'nms.overlay.setup_key': {'name': 'r', 'type': 'reusable', 'revoked': True,
                                                      'expires_in': 86400}},
        {'name': 'week', 'nms.overlay.setup_key': {'name': 'w', 'type': 'one-off', 'expires_in': '1w'}},
        {'name': 'mixed', 'nms.overlay.setup_key': {'name': 'm', 'type': 'reusable', 'expires_in': '1d12h'}},
        {'name': 'default', 'nms.overlay.setup_key': {'name': 'd', 'type': 'reusable'}},
    ])
    assert result.rc == 0, result
    assert result['revoked']['setup_key']['revoked'] is True and result['revoked']['setup_key']['key']
    assert [w['method'] for w in emulator.writes()][:2] == ['POST', 'PUT']
    bodies = [w['body'] for w in emulator.writes() if w['method'] == 'POST']
    assert [b['expires_in'] for b in bodies] == [86400, 604800, 129600, 2592000]
    assert result['week']['setup_key']['usage_limit'] == 1
    assert bodies[1]['usage_limit'] == 1  # what the server holds for a one-off key

    bad = [
        ('short', {'name': 'x', 'type': 'reusable', 'expires_in': '12h'},
         'option expires_in: must be between 86400 and 31536000 seconds (1 to 365 days); 43200 was given'),
        ('long', {'name': 'x', 'type': 'reusable', 'expires_in': '400d'}, 'option expires_in: must be between'),
        ('words', {'name': 'x', 'type': 'reusable', 'expires_in': 'soon'}, "option expires_in: 'soon' is not a number"),
        ('negative', {'name': 'x', 'type': 'reusable', 'usage_limit': -1}, 'option usage_limit: must be 0 (unlimited)'),
        ('one-off limit', {'name': 'x', 'type': 'one-off', 'usage_limit': 5},
         'option usage_limit: 5 is not valid for a one-off key, which is used once'),
        ('contradiction', {'name': 'x', 'replace_invalid': True, 'revoked': True}, 'options replace_invalid and revoked'),
        ('no type', {'name': 'x'}, 'option type is required to create the setup key'),
    ]
    emulator.clear_log()
    failed = run([{'name': n, 'nms.overlay.setup_key': args, 'ignore_errors': True} for n, args, dummy in bad])
    for name, dummy, message in bad:
        assert failed[name]['failed'] is True, name
        assert failed[name]['msg'].startswith(message), (name, failed[name]['msg'])
    assert emulator.writes() == []


def test_setup_key_replace_invalid(emulator, run):
    group(emulator, 'hosts')
    emulator.clear_log()
    task = {'name': 'key', 'nms.overlay.setup_key': {'name': 'host-1', 'type': 'one-off', 'expires_in': '2d',
                                                     'auto_groups': ['hosts'], 'replace_invalid': True}}
    first = run([task])
    assert first['key']['changed'] is True
    old = first['key']['setup_key']
    again = run([task])
    assert again['key']['changed'] is False and 'key' not in again['key']['setup_key']

    emulator.enroll(old['key'], 'host-1')  # the one-off key is used up now
    emulator.clear_log()
    checked = run([task], check=True)
    assert checked['key']['changed'] is True and checked['key']['replaced_id'] == old['id']
    assert emulator.writes() == []
    replaced = run([task])
    assert replaced['key']['changed'] is True
    new = replaced['key']['setup_key']
    assert replaced['key']['replaced_id'] == old['id'] and new['id'] != old['id']
    assert new['key'] and new['key'] != old['key'] and new['state'] == 'valid'
    assert new['type'] == 'one-off' and len(new['auto_groups']) == 1
    assert writes(emulator) == ['POST /api/setup-keys', 'PUT /api/setup-keys/%s' % old['id']]
    states = {str(k['id']): k['state'] for k in setup_keys(emulator, 'host-1')}
    assert states == {old['id']: 'revoked', new['id']: 'valid'}
    assert emulator.enroll(new['key'], 'host-2')['hostname'] == 'host-2'

    # Revoked and used up keys of the name are set aside: a fresh key, no write to the revoked ones.
    emulator.clear_log()
    third = run([task])
    assert third['key']['changed'] is True and third['key']['replaced_id'] == new['id']
    emulator.clear_log()
    emulator.ok('PUT', '/api/setup-keys/%s' % third['key']['setup_key']['id'],
                {'name': 'host-1', 'type': 'one-off', 'expires_in': 86400, 'revoked': True, 'auto_groups': [], 'usage_limit': 1})
    emulator.clear_log()
    fourth = run([task])
    assert fourth['key']['changed'] is True
    assert writes(emulator) == ['POST /api/setup-keys']

    # Without replace_invalid too, revoked keys of the name are set aside (issue 18: concurrent copies are revoked):
    # the one live key is found, unchanged
    emulator.clear_log()
    plain_task = {'name': 'plain', 'nms.overlay.setup_key': {'name': 'host-1'}}
    plain = run([plain_task])
    assert plain['plain']['changed'] is False and plain['plain']['setup_key']['id'] == fourth['key']['setup_key']['id']
    assert emulator.writes() == []
    # two live keys of the name are ambiguous and fail listing the ids
    emulator.ok('POST', '/api/setup-keys', {'name': 'host-1', 'type': 'reusable', 'expires_in': 86400,
                                            'revoked': False, 'auto_groups': [], 'usage_limit': 0})
    emulator.clear_log()
    plain = run([plain_task])
    assert plain['plain']['failed'] is True
    assert "name 'host-1' matches 2 setup keys that are not revoked" in plain['plain']['msg']
    assert emulator.writes() == []


def test_setup_key_info_never_shows_values(emulator, run):
    created = [emulator.ok('POST', '/api/setup-keys', {'name': name, 'type': 'reusable', 'expires_in': 86400,
                                                       'revoked': False, 'auto_groups': [], 'usage_limit': 0})
               for name in ('a', 'b')]
    emulator.ok('PUT', '/api/setup-keys/%s' % created[1]['id'],
                {'name': 'b', 'type': 'reusable', 'expires_in': 86400, 'revoked': True, 'auto_groups': [], 'usage_limit': 0})
    result = run([
        {'name': 'all', 'nms.overlay.setup_key_info': {}},
        {'name': 'valid', 'nms.overlay.setup_key_info': {'valid': True}},
        {'name': 'invalid', 'nms.overlay.setup_key_info': {'valid': False}},
        {'name': 'id', 'nms.overlay.setup_key_info': {'id': str(created[0]['id'])}},
        {'name': 'name', 'nms.overlay.setup_key_info': {'name': 'b'}},
        {'name': 'unknown', 'nms.overlay.setup_key_info': {'id': '12345'}},
    ], verbosity=3, ansible=True)  # ansible=True: the output at -vvv is checked
    assert result.rc == 0, result
    assert sorted(k['name'] for k in result['all']['setup_keys']) == ['a', 'b']
    assert [k['name'] for k in result['valid']['setup_keys']] == ['a']
    assert [k['name'] for k in result['invalid']['setup_keys']] == ['b']
    assert [k['id'] for k in result['id']['setup_keys']] == [str(created[0]['id'])]
    assert [k['state'] for k in result['name']['setup_keys']] == ['revoked']
    assert result['unknown']['setup_keys'] == []
    for res in result.results:
        assert all('key' not in k for k in res['setup_keys'])
    for key in created:
        assert key['key'] not in result.stdout


def test_setup_key_one_off_diff_shows_what_the_server_holds(emulator, run):
    task = {'name': 'k', 'nms.overlay.setup_key': {'name': 'k', 'type': 'one-off'}}
    emulator.clear_log()
    checked = run([task], check=True, diff=True)
    real = run([task], diff=True)
    for result in (checked['k'], real['k']):
        assert result['diff']['after']['usage_limit'] == 1
        assert result['setup_key']['usage_limit'] == 1
        assert 'expires_in' not in result['setup_key']
    assert emulator.writes()[0]['body']['usage_limit'] == 1
    assert setup_keys(emulator, 'k')[0]['usage_limit'] == 1
    # the check-mode key is shaped like the created one: an expiry date, a placeholder id
    predicted, created = checked['k']['setup_key'], real['k']['setup_key']
    assert predicted['id'] == '(new setup key k)'
    # v0.77 adds allow_extra_dns_labels, which no option sets: check mode, which does not ask what the server is, leaves it out
    answered_only = {'allow_extra_dns_labels'} if emulator.dialect == 'current' else set()
    assert set(predicted) == set(created) - {'key'} - answered_only
    assert abs(seconds_left(predicted) - seconds_left(created)) < 120


def test_setup_key_replacement_diff_shows_old_and_new_key(emulator, run):
    task = {'name': 'key', 'nms.overlay.setup_key': {'name': 'host-1', 'type': 'one-off', 'replace_invalid': True}}
    old = run([task])['key']['setup_key']
    emulator.enroll(old['key'], 'host-1')  # used up
    checked = run([task], check=True, diff=True)
    replaced = run([task], diff=True)
    for result in (checked['key'], replaced['key']):
        diff = result['diff']
        assert diff['before_header'] == "setup key 'host-1' (id %s, overused, revoked by this task)" % old['id']
        assert diff['after_header'] == "new setup key 'host-1'"
        # a v0.77 key's allow_extra_dns_labels goes to its replacement too
        carried = {'allow_extra_dns_labels': False} if emulator.dialect == 'current' else {}
        assert diff['before'] == dict({'name': 'host-1', 'type': 'one-off', 'usage_limit': 1, 'ephemeral': False,
                                       'auto_groups': []}, **carried)
        assert diff['after'] == dict(diff['before'], expires_in=2592000)
    assert checked['key']['setup_key']['id'] == '(new setup key host-1)'
    # an old key that is revoked already says so
    emulator.ok('PUT', '/api/setup-keys/%s' % replaced['key']['setup_key']['id'],
                {'name': 'host-1', 'type': 'one-off', 'expires_in': 86400, 'revoked': True, 'auto_groups': [], 'usage_limit': 1})
    again = run([task], check=True, diff=True)
    header = again['key']['diff']['before_header']
    assert header.startswith("setup key 'host-1' (id ") and header.endswith(', revoked, already revoked)'), header


def test_setup_key_lost_create_answer_is_read_back(emulator, run):
    emulator.set_faults({'queue': [{'drop': True, 'after': True, 'method': 'POST'}]})
    emulator.clear_log()
    result = run([{'name': 'key', 'nms.overlay.setup_key': {'name': 'lost', 'type': 'reusable'}}])
    assert result.rc == 0, result
    assert result['key']['changed'] is True
    keys = setup_keys(emulator, 'lost')
    assert writes(emulator) == ['POST /api/setup-keys']  # never sent twice
    if emulator.dialect == 'current':
        # v0.77 masks the value in every read (ABCDE****): the key read back has no value, never the mask, and the task
        # says that it is lost
        assert len(keys) == 1 and keys[0]['key'].endswith('****')
        assert 'key' not in result['key']['setup_key'] and result['key']['setup_key']['id'] == keys[0]['id']
        assert [w for w in result['key']['warnings'] if 'create a new one to get a value' in w], result['key'].get('warnings')
        return
    assert len(keys) == 1 and result['key']['setup_key']['key'] == keys[0]['key']  # this server shows it in reads


def test_token_lost_create_answer(emulator, run):
    emulator.set_faults({'queue': [{'drop': True, 'after': True, 'method': 'POST'}]})
    emulator.clear_log()
    task = {'name': 'token', 'nms.overlay.token': {'user': 'owner@example.com', 'name': 'dropped', 'expires_in': 5},
            'ignore_errors': True}
    lost = run([task])
    result = lost['token']
    assert result['failed'] is True and result['changed'] is True
    assert 'the connection was lost after the creation request was sent' in result['msg']
    assert 'rotate: true' in result['msg'] and 'usable plain_token' not in result['msg']
    tokens = emulator.ok('GET', '/api/users/owner-user/tokens')
    made = [t for t in tokens if t['name'] == 'dropped']
    assert len(made) == 1 and result['token']['id'] == made[0]['id']
    assert [w for w in writes(emulator) if w.startswith('POST')] == ['POST /api/users/owner-user/tokens']
    # as told: rotate to get a value
    rotated = run([{'name': 'rotate', 'nms.overlay.token': {'user': 'owner@example.com', 'name': 'dropped',
                                                            'rotate': True}}])
    assert rotated['rotate']['plain_token'].startswith('nbp_')
    assert [t['name'] for t in emulator.ok('GET', '/api/users/owner-user/tokens')].count('dropped') == 1


def test_user_service_user_create_check_mode_id_and_permissions(emulator, run):
    emulator.clear_log()
    task = {'name': 'bot', 'nms.overlay.user': {'name': 'perm-bot', 'is_service_user': True, 'role': 'user'}}
    checked = run([task], check=True)
    assert checked['bot']['user']['id'] == '(new user perm-bot)'
    admin = {'name': 'admin', 'nms.overlay.user': {'name': 'adm-bot', 'is_service_user': True, 'role': 'admin'}}
    created = run([task, admin])
    if emulator.dialect == 'current':  # v0.77's user answers carry no permissions: none are made up
        assert 'permissions' not in user_named(emulator, 'perm-bot')
        assert 'permissions' not in created['bot']['user'] and 'permissions' not in created['admin']['user']
        return
    read = user_named(emulator, 'perm-bot')['permissions']
    assert created['bot']['user']['permissions'] == read == {'dashboard_view': 'blocked'}  # new accounts block role user
    assert created['admin']['user']['permissions'] == {'dashboard_view': 'full'}


# -- account ----------------------------------------------------------------------------------------
# the account settings a v0.77 server adds to v0.27's
CURRENT_SETTINGS = ('peer_inactivity_expiration_enabled', 'peer_inactivity_expiration', 'peer_expose_enabled',
                    'peer_expose_groups', 'routing_peer_dns_resolution_enabled', 'lazy_connection_enabled', 'dns_domain')


def test_account_settings_every_option(emulator, run):
    account = emulator.ok('GET', '/api/accounts')[0]
    emulator.clear_log()
    args = {'peer_login_expiration_enabled': False, 'peer_login_expiration': '12h', 'regular_users_view_blocked': False,
            'groups_propagation_enabled': False, 'jwt_groups_enabled': True, 'jwt_groups_claim_name': 'groups',
            'jwt_allow_groups': ['eng', 'ops'], 'peer_approval_enabled': True}
    first = run([{'name': 'settings', 'nms.overlay.account_settings': args}], diff=True)
    assert first.rc == 0, first
    assert first['settings']['changed'] is True
    assert first['settings']['account_id'] == account['id']
    assert first['settings']['diff']['before'] == {
        'peer_login_expiration_enabled': True, 'peer_login_expiration': 86400, 'regular_users_view_blocked': True,
        'groups_propagation_enabled': True, 'jwt_groups_enabled': False, 'jwt_groups_claim_name': '',
        'jwt_allow_groups': [], 'peer_approval_enabled': False}
    assert first['settings']['diff']['after']['peer_login_expiration'] == 43200
    assert writes(emulator) == ['PUT /api/accounts/%s' % account['id']]
    # PUT replaces the settings: every member the server sent goes back unchanged but those set (left out, v0.77's
    # would be reset), and so do the account's other members (v0.77: created_at, domain, onboarding...)
    if emulator.dialect == 'current':
        assert set(CURRENT_SETTINGS) <= set(account['settings']), account
    changed = {'peer_login_expiration_enabled': False, 'peer_login_expiration': 43200,
               'regular_users_view_blocked': False, 'groups_propagation_enabled': False, 'jwt_groups_enabled': True,
               'jwt_groups_claim_name': 'groups', 'jwt_allow_groups': ['eng', 'ops'],
               'extra': dict(account['settings'].get('extra') or {}, peer_approval_enabled=True)}
    assert emulator.writes()[0]['body'] == dict({k: v for k, v in account.items() if k not in ('id', 'settings')},
                                                settings=dict(account['settings'], **changed))
    settings = emulator.ok('GET', '/api/accounts')[0]['settings']
    assert settings['peer_login_expiration'] == 43200 and settings['extra']['peer_approval_enabled'] is True
    if emulator.dialect != 'current':  # v0.77's extra has more members, each false or empty unless sent
        assert settings['extra'] == {'peer_approval_enabled': True}

    # Again (the groups in another order, the duration in seconds): unchanged, one request.
    emulator.clear_log()
    again = run([{'name': 'settings', 'nms.overlay.account_settings': dict(
        args, peer_login_expiration=43200, jwt_allow_groups=['ops', 'eng'])}])
    assert again['settings']['changed'] is False
    assert writes(emulator) == []
    assert len(emulator.requests()) == 1

    # One member: the full object is sent, every other member keeps its value.
    emulator.clear_log()
    one = run([{'name': 'one', 'nms.overlay.account_settings': {'regular_users_view_blocked': True}}], diff=True)
    assert one['one']['diff'] == {'before': {'regular_users_view_blocked': False},
                                  'after': {'regular_users_view_blocked': True}}
    body = emulator.writes()[0]['body']['settings']
    assert body == dict(settings, regular_users_view_blocked=True)
    assert one['one']['account_settings']['jwt_allow_groups'] == ['eng', 'ops']


def test_account_settings_keep_extra_away_when_unset(emulator, run):
    """An account without extra settings (a v0.27 PUT without them drops them; v0.77 keeps them when left out)."""
    account = emulator.ok('GET', '/api/accounts')[0]
    emulator.ok('PUT', '/api/accounts/%s' % account['id'],
                {'settings': {key: value for key, value in account['settings'].items() if key != 'extra'}})
    extra = emulator.ok('GET', '/api/accounts')[0]['settings'].get('extra')
    assert (extra is None) is (emulator.dialect == 'netbird'), extra
    emulator.clear_log()
    result = run([{'name': 'exp', 'nms.overlay.account_settings': {'peer_login_expiration': 7200}},
                  {'name': 'no approval', 'nms.overlay.account_settings': {'peer_approval_enabled': False}}])
    assert result.rc == 0, result
    assert result['exp']['changed'] is True and result['no approval']['changed'] is False
    sent = emulator.writes()[0]['body']['settings']
    if extra is None:
        assert 'extra' not in sent  # netbird servers panic on extra without the member
    else:
        assert sent['extra'] == extra  # sent back as the server has it
    assert len(emulator.writes()) == 1


def test_account_settings_check_mode_and_validation(emulator, run):
    emulator.clear_log()
    checked = run([{'name': 'check', 'nms.overlay.account_settings': {'peer_login_expiration_enabled': False}}],
                  check=True, diff=True)
    assert checked['check']['changed'] is True
    assert checked['check']['account_settings']['peer_login_expiration_enabled'] is False
    assert emulator.writes() == []
    emulator.clear_log()
    bad = run([
        {'name': 'short', 'nms.overlay.account_settings': {'peer_login_expiration': 60}, 'ignore_errors': True},
        {'name': 'long', 'nms.overlay.account_settings': {'peer_login_expiration': '181d'}, 'ignore_errors': True},
        {'name': 'empty group', 'nms.overlay.account_settings': {'jwt_allow_groups': ['']}, 'ignore_errors': True},
    ])
    assert bad['short']['msg'].startswith('option peer_login_expiration: must be between 3600 and 15552000 seconds')
    assert bad['long']['msg'].startswith('option peer_login_expiration: must be between')
    assert bad['empty group']['msg'].startswith('option jwt_allow_groups[0]: must not be empty')
    assert emulator.requests() == []


def test_account_cannot_be_deleted_without_confirmation(emulator, run):
    account_id = emulator.ok('GET', '/api/accounts')[0]['id']
    emulator.clear_log()
    result = run([
        {'name': 'no confirmation', 'nms.overlay.account_settings': {'state': 'absent'}, 'ignore_errors': True},
        {'name': 'wrong id', 'nms.overlay.account_settings': {'state': 'absent', 'confirm_account_id': 'other'},
         'ignore_errors': True},
    ])
    assert result['no confirmation']['failed'] is True
    assert result['no confirmation']['msg'].startswith('option confirm_account_id is required with state=absent')
    assert result['wrong id']['failed'] is True
    assert result['wrong id']['msg'] == "option confirm_account_id: 'other' is not the id of this account; nothing was deleted"
    assert emulator.writes() == []

    checked = run([{'name': 'delete', 'nms.overlay.account_settings': {'state': 'absent', 'confirm_account_id': account_id}}],
                  check=True, diff=True)
    assert checked['delete']['changed'] is True and checked['delete']['diff']['after'] == {}
    assert emulator.writes() == []
    assert emulator.api('GET', '/api/accounts')[0] == 200

    deleted = run([{'name': 'delete', 'nms.overlay.account_settings': {'state': 'absent',
                                                                       'confirm_account_id': account_id}}])
    assert deleted['delete']['changed'] is True and deleted['delete']['account_id'] == account_id
    assert writes(emulator) == ['DELETE /api/accounts/%s' % account_id]
    assert emulator.api('GET', '/api/accounts')[0] == 401  # the account and its tokens are gone


def test_account_info(emulator, run):
    result = run([{'name': 'info', 'nms.overlay.account_info': {}}])
    assert result.rc == 0, result
    accounts = result['info']['accounts']
    assert len(accounts) == 1
    assert accounts[0]['id'] == emulator.ok('GET', '/api/accounts')[0]['id']
    assert set(ACCOUNT_SETTINGS) <= set(accounts[0]['settings'])


# -- examples ---------------------------------------------------------------------------------------
def test_examples_run_unchanged(emulator, run, tmp_path):
    """Every task of the modules' EXAMPLES runs against the emulator as written."""
    for name in ('servers', 'developers', 'engineering', 'operations'):
        group(emulator, name)
    service_user(emulator, 'ci-bot', role='admin')
    tasks = []
    for module in ('token', 'token_info', 'setup_key', 'setup_key_info', 'account_settings', 'account_info',
                   'user_info', 'user'):
        tasks.extend(examples_of(module))
    if emulator.dialect == 'current':
        for email in ('bob@example.com', 'mallory@example.com'):  # users who joined by domain matching and wait
            emulator.add_user(email, pending_approval=True, is_blocked=True)
    else:  # the examples of v0.77's options fail before any change on v0.27 (tested above)
        tasks = [task for task in tasks if '(v0.77 servers)' not in task['name'] and 'approval' not in str(task)]
    result = run(tasks)
    assert result.rc == 0, result
    assert not result.failed
    assert emulator.api('GET', '/api/accounts')[0] == 200  # the delete example did not delete
    assert 'Delete the account and everything in it (cannot be undone)' not in [
        r['task'] for r in result.results if not r.get('skipped')]

    # With the confirmation given by a person, the deletion example deletes the account.
    account_id = emulator.ok('GET', '/api/accounts')[0]['id']
    delete = [t for t in examples_of('account_settings') if t['name'].startswith('Delete the account')]
    assert len(delete) == 1
    gone = run(delete, extra_vars={'confirm_account_id': account_id})
    assert gone.rc == 0, gone
    assert emulator.api('GET', '/api/accounts')[0] == 401
    assert tmp_path


def test_an_invite_without_an_identity_provider_fails_with_the_servers_reason(emulator, run):
    emulator.control('POST', '/_emulator/config', {'idp': False})  # a self-hosted server without one (netbird's default)
    emulator.clear_log()
    result = run([{'name': 'invite', 'ignore_errors': True, 'nms.overlay.user': {
        'email': 'alice@example.com', 'name': 'Alice', 'role': 'user'}}])
    assert result['invite']['failed'] is True
    assert result['invite']['msg'] == 'POST %s/api/users failed with HTTP 412: idp manager must be enabled to send user invites' % emulator.url
    assert result['invite']['status'] == 412 and result['invite']['changed'] is False
    assert [u['email'] for u in emulator.api('GET', '/api/users')[1] if u['email'] == 'alice@example.com'] == []


# -- options of today's servers (v0.77) -------------------------------------------------------------
V027_REFUSAL = 'this server (v0.27: it has no GET /api/instance/version)'


def only_the_version_was_asked(emulator):
    assert [(r['method'], r['path']) for r in emulator.requests()] == [('GET', '/api/instance/version')]


def test_setup_key_allow_extra_dns_labels(emulator, run):
    task = {'name': 'key', 'nms.overlay.setup_key': {'name': 'web-pool', 'type': 'reusable', 'allow_extra_dns_labels': True}}
    emulator.clear_log()
    if emulator.dialect != 'current':
        refused = run([dict(task, ignore_errors=True)])
        assert refused['key']['failed'] is True
        assert refused['key']['msg'] == ('option allow_extra_dns_labels: %s does not have it (servers have it from v0.37.0 on)'
                                         % V027_REFUSAL)
        only_the_version_was_asked(emulator)
        return
    checked = run([task], check=True, diff=True)
    assert checked['key']['changed'] is True and checked['key']['diff']['after']['allow_extra_dns_labels'] is True
    assert emulator.writes() == []
    first = run([task])
    assert first['key']['changed'] is True and first['key']['setup_key']['allow_extra_dns_labels'] is True
    assert writes(emulator) == ['POST /api/setup-keys'] and emulator.writes()[0]['body']['allow_extra_dns_labels'] is True
    assert setup_keys(emulator, 'web-pool')[0]['allow_extra_dns_labels'] is True
    emulator.clear_log()
    again = run([task, {'name': 'other', 'nms.overlay.setup_key': {'name': 'plain', 'type': 'reusable'}}])
    assert again['key']['changed'] is False and writes(emulator) == ['POST /api/setup-keys']
    assert 'allow_extra_dns_labels' not in emulator.writes()[0]['body']  # unset: never sent
    assert again['other']['setup_key']['allow_extra_dns_labels'] is False  # the server's default


def test_user_roles_of_current_servers(emulator, run):
    bot = service_user(emulator, 'reporter')
    emulator.clear_log()
    task = {'name': 'role', 'nms.overlay.user': {'name': 'reporter', 'is_service_user': True, 'role': 'auditor'}}
    if emulator.dialect != 'current':
        refused = run([dict(task, ignore_errors=True)])
        assert refused['role']['msg'] == ("option role: %s does not have the role 'auditor' (servers have it from v0.43.0 on); "
                                          "its roles are owner, admin, user" % V027_REFUSAL)
        only_the_version_was_asked(emulator)
        return
    checked = run([task], check=True, diff=True)
    assert checked['role']['changed'] is True and checked['role']['diff'] == {'before': {'role': 'user'},
                                                                              'after': {'role': 'auditor'}}
    assert emulator.writes() == []
    changed = run([task])
    assert changed['role']['user']['role'] == 'auditor'
    assert writes(emulator) == ['PUT /api/users/%s' % bot['id']]
    emulator.clear_log()
    assert run([task])['role']['changed'] is False and emulator.writes() == []


def test_user_approval(emulator, run):
    bob = emulator.add_user('bob@example.com', pending_approval=True, is_blocked=True)
    mallory = emulator.add_user('mallory@example.com', pending_approval=True, is_blocked=True)
    approve = {'name': 'approve', 'nms.overlay.user': {'email': 'bob@example.com', 'approval': 'approved'}}
    reject = {'name': 'reject', 'nms.overlay.user': {'email': 'mallory@example.com', 'approval': 'rejected',
                                                     'state': 'absent'}}
    emulator.clear_log()
    if emulator.dialect != 'current':
        for task in (approve, reject):
            emulator.clear_log()
            refused = run([dict(task, ignore_errors=True)])
            assert refused[task['name']]['msg'] == ('option approval: %s does not have it (servers have it from '
                                                    'v0.56.0 on)' % V027_REFUSAL)
            only_the_version_was_asked(emulator)
        return
    checked = run([approve, reject], check=True, diff=True)
    assert checked['approve']['changed'] is True and checked['reject']['changed'] is True
    assert checked['approve']['diff']['after'] == {'pending_approval': False, 'is_blocked': False}
    assert checked['reject']['diff']['after'] == {}
    assert emulator.writes() == []
    done = run([approve, reject])
    assert done['approve']['user']['pending_approval'] is False and done['approve']['user']['status'] == 'active'
    assert writes(emulator) == ['POST /api/users/%s/approve' % bob['id'], 'DELETE /api/users/%s/reject' % mallory['id']]
    assert user_named(emulator, 'bob')['pending_approval'] is False
    assert [u for u in emulator.ok('GET', '/api/users') if u['email'] == 'mallory@example.com'] == []
    emulator.clear_log()
    again = run([approve, reject])
    assert again['approve']['changed'] is False and again['reject']['changed'] is False and emulator.writes() == []
    # a user who waits for nothing is never rejected (deleted)
    emulator.clear_log()
    refused = run([{'name': 'reject', 'ignore_errors': True, 'nms.overlay.user': {
        'email': 'bob@example.com', 'approval': 'rejected', 'state': 'absent'}}])
    assert refused['reject']['msg'].startswith("option approval: the user email 'bob@example.com' is not waiting for approval")
    assert emulator.writes() == []


def test_account_settings_of_current_servers(emulator, run):
    account = emulator.ok('GET', '/api/accounts')[0]
    args = {'peer_inactivity_expiration_enabled': True, 'peer_inactivity_expiration': '2h',
            'routing_peer_dns_resolution_enabled': False, 'dns_domain': 'corp.example.com',
            'lazy_connection_enabled': True, 'user_approval_required': True}
    task = {'name': 'settings', 'nms.overlay.account_settings': args}
    emulator.clear_log()
    if emulator.dialect != 'current':
        refused = run([dict(task, ignore_errors=True)])
        assert refused['settings']['msg'] == '; '.join(
            'option %s: %s does not have it (servers have it from %s on)' % (name, V027_REFUSAL, {
                'peer_inactivity_expiration_enabled': 'v0.30.2', 'peer_inactivity_expiration': 'v0.30.2',
                'routing_peer_dns_resolution_enabled': 'v0.35.0', 'dns_domain': 'v0.42.0',
                'lazy_connection_enabled': 'v0.45.2', 'user_approval_required': 'v0.56.0'}[name])
            for name in args)
        only_the_version_was_asked(emulator)
        return
    checked = run([task], check=True, diff=True)
    assert checked['settings']['changed'] is True and emulator.writes() == []
    assert checked['settings']['diff']['after'] == dict(args, peer_inactivity_expiration=7200)
    first = run([task])
    assert first['settings']['changed'] is True
    assert writes(emulator) == ['PUT /api/accounts/%s' % account['id']]
    settings = emulator.ok('GET', '/api/accounts')[0]['settings']
    assert (settings['peer_inactivity_expiration_enabled'], settings['peer_inactivity_expiration'],
            settings['routing_peer_dns_resolution_enabled'], settings['dns_domain'], settings['lazy_connection_enabled'],
            settings['extra']['user_approval_required']) == (True, 7200, False, 'corp.example.com', True, True)
    # the settings v0.77 requires that the task did not set went back as the server had them
    assert settings['peer_expose_enabled'] == account['settings']['peer_expose_enabled']
    emulator.clear_log()
    again = run([task, {'name': 'other', 'nms.overlay.account_settings': {'regular_users_view_blocked': False}}])
    assert again['settings']['changed'] is False
    body = emulator.writes()[0]['body']['settings']  # the other task's PUT keeps every v0.77 setting
    assert body['dns_domain'] == 'corp.example.com' and body['extra']['user_approval_required'] is True
    assert body['peer_inactivity_expiration'] == 7200 and len(emulator.writes()) == 1
    # a domain the server refuses is refused before any request
    emulator.clear_log()
    bad = run([{'name': 'bad', 'ignore_errors': True, 'nms.overlay.account_settings': {'dns_domain': '*.example.com'}}])
    assert bad['bad']['msg'].startswith("option dns_domain: '*.example.com' is not a domain name")
    assert emulator.requests() == []
