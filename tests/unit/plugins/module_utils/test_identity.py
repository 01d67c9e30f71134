# -*- coding: utf-8 -*-
"""Unit tests of the identity area: helpers, options models and the module classes with a scripted client."""

from __future__ import annotations

import datetime

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._resources import setup_key as keys
from ansible_collections.nms.overlay.plugins.module_utils._resources import token as tokens
from ansible_collections.nms.overlay.plugins.module_utils import _time as times
from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resources.account_settings import AccountSettingsModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.setup_key import SetupKeyModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.token import TokenModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.user import UserModule
from ansible_collections.nms.overlay.plugins.module_utils._models import OptionsError
from ansible_collections.nms.overlay.plugins.module_utils._resource import MAX_SETTLE
from tests.support import fakes
from tests.support.fakes import engine as make

UTC = datetime.timezone.utc


def iso(moment):
    return moment.strftime('%Y-%m-%dT%H:%M:%S.%fZ')


def in_days(days):
    return iso(datetime.datetime.now(UTC) + datetime.timedelta(days=days))


# -- helpers ----------------------------------------------------------------------------------------
@pytest.mark.parametrize('value, seconds', [
    (86400, 86400), ('86400', 86400), ('30d', 2592000), ('12h', 43200), ('1w', 604800), ('1d12h', 129600),
    (' 2D ', 172800), ('90m', 5400), ('45s', 45), (3600.0, 3600), (None, None),
])
def test_parse_duration(value, seconds):
    assert times.parse_duration(value) == seconds


@pytest.mark.parametrize('value', ['soon', '1y', '12 hours', '-1d', True, ''])
def test_parse_duration_rejects(value):
    with pytest.raises(ValueError):
        times.parse_duration(value)
    assert times.duration_norm(value) == value  # left for validation to report


def test_parse_time_handles_nanoseconds_offsets_and_garbage():
    moment = times.parse_time('2024-05-01T10:00:00.123456789Z')
    assert moment == datetime.datetime(2024, 5, 1, 10, 0, 0, 123456, tzinfo=UTC)
    assert times.parse_time('2024-05-01T12:00:00+02:00') == datetime.datetime(2024, 5, 1, 10, tzinfo=UTC)
    assert times.parse_time('yesterday') is None
    assert times.parse_time(None) is None


def test_token_days_from_dates():
    token = {'created_at': '2024-05-01T10:00:00Z', 'expiration_date': '2024-05-31T10:00:00.5Z'}
    assert tokens.token_days(token) == 30
    # a daylight saving change on the server (local time) shifts by an hour: still 30 days
    assert tokens.token_days({'created_at': '2024-03-01T10:00:00Z', 'expiration_date': '2024-03-31T09:00:00Z'}) == 30
    assert tokens.token_days({'created_at': '0001-01-01T00:00:00Z', 'expiration_date': '2024-03-31T09:00:00Z'}) is None
    assert tokens.token_days({}) is None


def test_plain_token_value_accepts_both_shapes_and_never_echoes_the_secret():
    assert tokens.plain_token_value('nbp_x') == 'nbp_x'
    assert tokens.plain_token_value({'token': 'nbp_y'}) == 'nbp_y'
    with pytest.raises(TaskError) as err:
        tokens.plain_token_value({'a': 'nbp_secret1', 'b': 'nbp_secret2'})
    assert 'nbp_secret' not in str(err.value)


def test_public_setup_key_hides_the_value_unless_revealed():
    key = {'id': 123, 'key': 'SECRET', 'auto_groups': None}
    assert keys.public_setup_key(key) == {'id': '123', 'auto_groups': []}
    assert keys.public_setup_key(key, reveal=True)['key'] == 'SECRET'
    assert key['key'] == 'SECRET'  # the input is not changed


@pytest.mark.parametrize('key, state', [
    ({'expires': in_days(1)}, 'valid'),
    ({'expires': in_days(-1), 'revoked': True}, 'expired'),
    ({'expires': in_days(1), 'revoked': True}, 'revoked'),
    ({'expires': in_days(1), 'type': 'one-off', 'usage_limit': 0, 'used_times': 1}, 'overused'),
    ({'expires': in_days(1), 'type': 'reusable', 'usage_limit': 0, 'used_times': 50}, 'valid'),
    ({'expires': in_days(1), 'type': 'reusable', 'usage_limit': 2, 'used_times': 2}, 'overused'),
    ({'type': 'reusable'}, 'valid'),
])
def test_key_state(key, state):
    assert keys.key_state(key) == state


def test_setup_key_valid_prefers_the_server_flag():
    assert keys.setup_key_valid({'valid': False, 'state': 'valid'}) is False
    assert keys.setup_key_valid({'state': 'valid'}) is True
    assert keys.setup_key_valid({'state': 'revoked'}) is False


def test_lifetime_floor_and_remaining_seconds():
    now = datetime.datetime.now(UTC)
    key = {'expires': iso(now + datetime.timedelta(days=30)), 'updated_at': iso(now - datetime.timedelta(days=2))}
    assert abs(keys.lifetime_floor(key) - 32 * 86400) < 5
    zero = dict(key, updated_at='0001-01-01T00:00:00Z')
    assert abs(keys.lifetime_floor(zero) - 30 * 86400) < 5
    assert keys.lifetime_floor({}) is None
    assert abs(keys.remaining_seconds(key) - 30 * 86400) < 5
    assert keys.remaining_seconds({'expires': in_days(-3)}) == 86400
    assert keys.remaining_seconds({'expires': in_days(900)}) == 31536000


# -- options models -----------------------------------------------------------------------------------
def model(name):
    from ansible_collections.nms.overlay.plugins.module_utils import _models_identity
    return getattr(_models_identity, name)


@pytest.mark.parametrize('name, data, message', [
    ('UserOptions', {'email': 'nope'}, "option email: 'nope' is not an email address"),
    ('UserOptions', {'name': ''}, 'option name: must not be empty'),
    ('UserOptions', {'auto_groups': ['ok', ' ']}, 'option auto_groups[1]: must not be empty'),
    ('TokenOptions', {'expires_in': 0}, 'option expires_in: must be between 1 and 365 days; 0 was given'),
    ('TokenOptions', {'expires_in': 366}, 'option expires_in: must be between 1 and 365 days; 366 was given'),
    ('SetupKeyOptions', {'expires_in': '12h'},
     'option expires_in: must be between 86400 and 31536000 seconds (1 to 365 days); 43200 was given'),
    ('SetupKeyOptions', {'expires_in': 'later'}, "option expires_in: 'later' is not a number of seconds"),
    ('SetupKeyOptions', {'usage_limit': -2}, 'option usage_limit: must be 0 (unlimited) or a positive number'),
    ('AccountSettingsOptions', {'peer_login_expiration': 59},
     'option peer_login_expiration: must be between 3600 and 15552000 seconds (1 hour to 180 days); 59 was given'),
    ('AccountSettingsOptions', {'jwt_allow_groups': ['']}, 'option jwt_allow_groups[0]: must not be empty'),
])
def test_models_name_the_option_and_the_rule(name, data, message):
    from ansible_collections.nms.overlay.plugins.module_utils._models import validate
    with pytest.raises(OptionsError) as err:
        validate(model(name), data)
    assert str(err.value).startswith(message), str(err.value)


def test_models_accept_good_values():
    from ansible_collections.nms.overlay.plugins.module_utils._models import validate
    assert validate(model('SetupKeyOptions'), {'expires_in': '30d', 'usage_limit': 0}).expires_in == 2592000
    assert validate(model('TokenOptions'), {'expires_in': 365, 'name': 'x'}).expires_in == 365
    assert validate(model('AccountSettingsOptions'), {'peer_login_expiration': '180d'}).peer_login_expiration == 15552000
    assert validate(model('UserOptions'), {'email': 'a@example.com'}).email == 'a@example.com'


# -- module classes with a scripted client ----------------------------------------------------------
class FakeClient(fakes.FakeClient):
    def writes(self):  # this file's tests name a write by its method and path
        return [call[:2] for call in super().writes()]


def failing_first(handler, *failures):
    """A route handler that raises the given errors first, then answers like handler."""
    pending = list(failures)

    def answer(body):
        if pending:
            raise pending.pop(0)
        return handler(body)
    return answer


OWNER = {'id': 'owner-user', 'email': 'owner@example.com', 'name': 'Owner', 'role': 'owner', 'status': 'active',
         'auto_groups': [], 'is_current': True, 'is_service_user': False, 'is_blocked': False}
BOT = {'id': 'bot-1', 'email': '', 'name': 'bot', 'role': 'admin', 'status': 'active', 'auto_groups': None,
       'is_current': False, 'is_service_user': True, 'is_blocked': False}
INVITED = {'id': 'idp-1', 'email': 'alice@example.com', 'name': 'Alice', 'role': 'user', 'status': 'invited',
           'auto_groups': ['g1'], 'is_current': False, 'is_service_user': False, 'is_blocked': False}
GROUPS = [{'id': 'g1', 'name': 'ops'}, {'id': 'g2', 'name': 'dev'}]


def user_client(*users):
    return FakeClient({'/users': list(users), '/groups': GROUPS,
                       ('PUT', '/users/bot-1'): lambda body: dict(BOT, **body),
                       ('POST', '/users'): lambda body: dict(body, id='new-user', status='active'),
                       ('POST', '/users/idp-1/invite'): {},
                       ('DELETE', '/users/bot-1'): {}})


def test_user_without_role_keeps_the_role():
    client = user_client(OWNER, BOT)
    result = make(UserModule, client, name='bot', auto_groups=['ops']).run()
    assert result['changed'] is True
    assert client.calls[-1] == ('PUT', '/users/bot-1', {'role': 'admin', 'auto_groups': ['g1'], 'is_blocked': False})
    assert result['diff'] == {'before': {'auto_groups': []}, 'after': {'auto_groups': ['ops']}}  # shown by name
    assert result['user']['role'] == 'admin'


def test_user_unchanged_by_email_any_case_and_auto_groups_never_null():
    client = user_client(OWNER, INVITED)
    result = make(UserModule, client, email='ALICE@example.com', role='user', auto_groups=['ops']).run()
    assert result['changed'] is False and client.writes() == []
    assert result['invitation_sent'] is False
    bot = make(UserModule, user_client(BOT), name='bot').run()
    assert bot['user']['auto_groups'] == []


def test_user_resend_invitation_only_for_invited_and_never_in_check_mode():
    client = user_client(INVITED)
    checked = make(UserModule, client, check_mode=True, email='alice@example.com', resend_invitation=True).run()
    assert checked['changed'] is False and client.writes() == []
    sent = make(UserModule, client, email='alice@example.com', resend_invitation=True).run()
    assert sent['changed'] is True and sent['invitation_sent'] is True
    assert client.writes() == [('POST', '/users/idp-1/invite')]
    active = make(UserModule, user_client(OWNER), email='owner@example.com', resend_invitation=True).run()
    assert active['changed'] is False


def test_user_create_service_user_and_blocked_needs_a_second_call():
    client = user_client(OWNER)
    client.routes[('PUT', '/users/new-user')] = lambda body: dict(body, id='new-user', is_blocked=True)
    result = make(UserModule, client, name='robot', is_service_user=True, role='user', is_blocked=True).run()
    assert result['changed'] is True
    assert client.calls[1] == ('POST', '/users', {'name': 'robot', 'role': 'user', 'auto_groups': [],
                                                  'is_service_user': True})
    assert client.writes() == [('POST', '/users'), ('PUT', '/users/new-user')]
    assert result['user']['is_blocked'] is True


@pytest.mark.parametrize('params, message', [
    ({'name': 'x', 'role': 'user'}, 'to create a service user set is_service_user: true'),
    ({'name': 'x', 'is_service_user': True}, 'option role is required to create the user'),
    ({'email': 'x@example.com', 'role': 'user'}, 'option name is required to create the user'),
    ({'name': 'x', 'is_service_user': True, 'role': 'owner'}, 'a new user cannot be the owner'),
    ({'email': 'x@example.com', 'is_service_user': True}, 'option email: service users have no email'),
    ({'name': 'x', 'is_service_user': False}, 'option email: a regular user is found by email'),
    ({'email': 'owner@example.com', 'state': 'absent'}, 'is the account owner and cannot be deleted'),
])
def test_user_refusals(params, message):
    client = user_client(OWNER)
    with pytest.raises(TaskError) as err:
        make(UserModule, client, **params).run()
    assert message in str(err.value)
    assert client.writes() == []


def test_user_cannot_delete_itself_and_ambiguous_names_fail(clock):
    me = dict(BOT, is_current=True)
    with pytest.raises(TaskError, match='cannot delete itself'):
        make(UserModule, user_client(me), name='bot', state='absent').run()
    assert clock.waits == []
    twin = dict(BOT, id='bot-2')
    with pytest.raises(TaskError, match=r"matches 2 users \(ids: bot-1, bot-2\)"):
        make(UserModule, user_client(BOT, twin), name='bot', role='user').run()
    assert clock.waited > MAX_SETTLE  # both stayed longer than a racing run keeps its own copy


def test_user_delete_and_again():
    client = user_client(BOT)
    gone = make(UserModule, client, name='bot', state='absent').run()
    assert gone['changed'] is True and client.writes() == [('DELETE', '/users/bot-1')]
    again = make(UserModule, user_client(), name='bot', state='absent').run()
    assert again == {'changed': False, 'user': {}, 'invitation_sent': False}


TOKEN = {'id': 't1', 'name': 'ci', 'created_at': '2024-05-01T10:00:00Z', 'expiration_date': '2024-05-31T10:00:00Z',
         'created_by': 'owner-user'}


def token_client(tokens, plain='nbp_NEW'):
    return FakeClient({'/users': [OWNER, BOT], '/users/bot-1/tokens': tokens,
                       ('POST', '/users/bot-1/tokens'): lambda body: {
                           'plain_token': plain, 'personal_access_token': dict(TOKEN, id='t2', name=body['name'])},
                       ('DELETE', '/users/bot-1/tokens/t1'): {}})


def test_token_rerun_is_unchanged_and_a_new_lifetime_only_warns():
    client = token_client([TOKEN])
    same = make(TokenModule, client, user='bot', name='ci', expires_in=30)
    assert same.run() == {'changed': False, 'token': TOKEN}
    other = make(TokenModule, client, user='bot', name='ci', expires_in=90)
    assert other.run()['changed'] is False
    assert other.module.warnings == ["expires_in cannot change after the token is created: the existing value 30 is "
                                     "kept, not 90; use rotate: true to replace the token"]
    assert client.writes() == []


def test_token_null_list_create_returns_the_value_once():
    client = token_client(None, plain={'token': 'nbp_VALUE'})
    result = make(TokenModule, client, user='bot-1', name='new', expires_in=5).run()
    assert result['plain_token'] == 'nbp_VALUE'
    assert 'nbp_VALUE' not in repr(result['token']) and 'nbp_VALUE' not in repr(result['diff'])
    assert [c for c in client.calls if c[0] == 'POST'] == [('POST', '/users/bot-1/tokens', {'name': 'new', 'expires_in': 5})]
    assert client.calls[-1] == ('GET', '/users/bot-1/tokens', None)  # listed again: no concurrent copy (names may repeat)


def test_token_rotate_creates_then_deletes_and_check_mode_writes_nothing():
    client = token_client([TOKEN])
    checked = make(TokenModule, client, check_mode=True, user='bot', name='ci', rotate=True).run()
    assert checked['changed'] is True and 'plain_token' not in checked and client.writes() == []
    result = make(TokenModule, client, user='bot', name='ci', rotate=True).run()
    assert result['plain_token'] == 'nbp_NEW' and result['replaced_id'] == 't1'
    assert client.writes() == [('POST', '/users/bot-1/tokens'), ('DELETE', '/users/bot-1/tokens/t1')]
    assert [c[2] for c in client.calls if c[0] == 'POST'] == [{'name': 'ci', 'expires_in': 30}]


def test_token_rotate_after_a_refused_create_sends_it_again_and_never_takes_the_old_token_for_the_new():
    client = token_client([TOKEN])
    route = ('POST', '/users/bot-1/tokens')
    client.routes[route] = failing_first(client.routes[route], ApiError('POST', route[1], 503, 'down'))
    result = make(TokenModule, client, user='bot', name='ci', rotate=True, retries=2).run()
    assert result['plain_token'] == 'nbp_NEW' and result['replaced_id'] == 't1' and result['token']['id'] == 't2'
    assert client.writes() == [route, route, ('DELETE', '/users/bot-1/tokens/t1')]


def test_token_unknown_user_fails_naming_the_option():
    with pytest.raises(TaskError, match="user: no user with the id or email or name 'ghost'"):
        make(TokenModule, token_client([]), user='ghost', name='x', expires_in=1).run()


def setup_key(**fields):
    key = {'id': 77, 'key': 'SECRET-KEY', 'name': 'servers', 'type': 'reusable', 'expires': in_days(30),
           'updated_at': iso(datetime.datetime.now(UTC)), 'valid': True, 'revoked': False, 'used_times': 0,
           'state': 'valid', 'auto_groups': ['g1'], 'usage_limit': 0, 'ephemeral': False}
    key.update(fields)
    return key


def key_client(*keys):
    created = setup_key(id=99, key='NEW-SECRET', auto_groups=[])

    def answer(base, body, ignored):
        # like the server: expires_in is never stored as such, revoked is ignored on create
        return dict(base, **{k: v for k, v in body.items() if k not in ignored})

    return FakeClient({'/setup-keys': list(keys), '/groups': GROUPS,
                       ('POST', '/setup-keys'): lambda body: answer(created, body, ('expires_in', 'revoked')),
                       ('PUT', '/setup-keys/77'): lambda body: answer(setup_key(), body, ('expires_in',)),
                       ('PUT', '/setup-keys/99'): lambda body: answer(created, body, ('expires_in',))})


def test_setup_key_fixed_fields_warn_and_the_value_is_never_shown_after_create():
    client = key_client(setup_key())
    module = make(SetupKeyModule, client, name='servers', type='one-off', ephemeral=True, usage_limit=None,
                  expires_in='1d', auto_groups=['ops'])
    result = module.run()
    assert result['changed'] is False and client.writes() == []
    assert 'key' not in result['setup_key'] and result['setup_key']['id'] == '77'
    text = ' '.join(module.module.warnings)
    for option in ('type', 'ephemeral', 'expires_in'):
        assert '%s cannot change' % option in text
    assert 'SECRET' not in text
    longer = make(SetupKeyModule, key_client(setup_key()), name='servers', expires_in='60d')
    assert longer.run()['changed'] is False and longer.module.warnings == []


def test_setup_key_create_reveals_once_and_revokes_in_a_second_call():
    client = key_client()
    result = make(SetupKeyModule, client, name='new', type='reusable', revoked=True).run()
    assert result['setup_key']['key'] == 'NEW-SECRET'
    assert client.writes() == [('POST', '/setup-keys'), ('PUT', '/setup-keys/99')]
    assert client.calls[1][2] == {'name': 'new', 'type': 'reusable', 'expires_in': 2592000, 'revoked': True,
                                  'auto_groups': [], 'usage_limit': 0, 'ephemeral': False}
    assert result['setup_key']['revoked'] is True


@pytest.mark.parametrize('answered', ['A616D****', '', None])
def test_setup_key_create_answer_without_a_whole_value_shows_none_and_says_so(answered):
    # a masked value (today's servers mask keys in every read) is never shown or kept as the key
    client = FakeClient({'/setup-keys': [], '/groups': GROUPS,
                         ('POST', '/setup-keys'): lambda body: dict(body, id='d1a2b3c4e5f6g7h8i9j0', key=answered)})
    module = make(SetupKeyModule, client, name='new', type='reusable')
    result = module.run()
    assert result['changed'] is True and 'key' not in result['setup_key']
    assert [w for w in module.module.warnings if "the setup key 'new' was created (id d1a2b3c4e5f6g7h8i9j0); the answer to "
            "the creation request did not carry the value" in w and 'create a new one to get a value' in w]
    assert client.writes() == [('POST', '/setup-keys')]


def test_setup_key_absent_on_v027_revokes_and_clears_the_auto_groups_and_again_changes_nothing():
    # a numeric id: a v0.27 server, which has no DELETE for setup keys
    client = key_client(setup_key())
    result = make(SetupKeyModule, client, name='servers', state='absent').run()
    assert result['changed'] is True and client.writes() == [('PUT', '/setup-keys/77')]
    assert result['revoked_only'] is True
    assert result['diff'] == {'before': {'auto_groups': ['g1'], 'revoked': False}, 'after': {'auto_groups': [], 'revoked': True}}
    body = client.calls[-1][2]
    assert body['revoked'] is True and body['auto_groups'] == [] and 86000 < body['expires_in'] <= 30 * 86400
    # a key revoked earlier that still lists a group: its groups are cleared (they could never be deleted otherwise)
    revoked = setup_key(revoked=True, valid=False, state='revoked')
    client = key_client(revoked)
    assert make(SetupKeyModule, client, name='servers', revoked=True, auto_groups=['ops']).run()['changed'] is False
    assert client.writes() == []
    result = make(SetupKeyModule, client, name='servers', state='absent').run()
    assert result['changed'] is True and client.calls[-1][2]['auto_groups'] == []
    # revoked without groups: nothing left to do
    client = key_client(setup_key(revoked=True, valid=False, state='revoked', auto_groups=[]))
    result = make(SetupKeyModule, client, name='servers', state='absent').run()
    assert result['changed'] is False and result['revoked_only'] is True and client.writes() == []


def test_setup_key_absent_deletes_where_the_server_can():
    # today's servers give xid ids and have DELETE /setup-keys/{id}
    key = setup_key(id='d1a2b3c4e5f6g7h8i9j0', key='A616D****')
    client = FakeClient({'/setup-keys': [key], '/groups': GROUPS})
    result = make(SetupKeyModule, client, name='servers', state='absent').run()
    assert result['changed'] is True and 'revoked_only' not in result
    assert client.writes() == [('DELETE', '/setup-keys/d1a2b3c4e5f6g7h8i9j0')]


def test_setup_key_check_mode_predicts_state():
    client = key_client(setup_key())
    result = make(SetupKeyModule, client, check_mode=True, name='servers', revoked=True).run()
    assert (result['setup_key']['state'], result['setup_key']['valid']) == ('revoked', False)
    created = make(SetupKeyModule, client, check_mode=True, name='x', type='one-off').run()
    assert created['setup_key']['usage_limit'] == 1 and created['setup_key']['state'] == 'valid'
    assert client.writes() == []


def test_setup_key_replace_invalid(clock):
    used = setup_key(type='one-off', usage_limit=1, used_times=1, valid=False, state='overused')
    client = key_client(used)
    result = make(SetupKeyModule, client, name='servers', replace_invalid=True).run()
    assert result['replaced_id'] == '77' and result['setup_key']['key'] == 'NEW-SECRET'
    assert client.writes() == [('POST', '/setup-keys'), ('PUT', '/setup-keys/77')]
    assert client.calls[1][2]['type'] == 'one-off' and client.calls[1][2]['auto_groups'] == ['g1']
    assert client.calls[2][2]['revoked'] is True
    assert 'SECRET-KEY' not in repr(result)

    # revoked keys of the name are set aside; two live ones are ambiguous
    live = setup_key(id=5)
    client = key_client(setup_key(revoked=True, valid=False, state='revoked'), live)
    assert make(SetupKeyModule, client, name='servers', replace_invalid=True).run()['changed'] is False
    client = key_client(setup_key(), setup_key(id=5))
    waited = clock.waited
    with pytest.raises(TaskError, match=r'matches 2 setup keys that are not revoked \(ids: 5, 77\)'):
        make(SetupKeyModule, client, name='servers', replace_invalid=True).run()
    assert clock.waited - waited > MAX_SETTLE  # both stayed longer than a racing run keeps its own copy


def test_setup_key_replacement_whose_answer_was_lost_is_read_back_and_a_rerun_keeps_it():
    used = setup_key(type='one-off', usage_limit=1, used_times=1, valid=False, state='overused')
    client = key_client(used)
    made = dict(setup_key(id=99, key='NEW-SECRET', type='one-off', usage_limit=1))

    def create_then_lose_the_answer(body):
        client.routes['/setup-keys'].append(made)
        raise ApiError('POST', '/setup-keys', None, 'the connection was closed before an answer arrived')
    client.routes[('POST', '/setup-keys')] = create_then_lose_the_answer
    client.routes[('PUT', '/setup-keys/77')] = lambda body: dict(used, revoked=True)
    result = make(SetupKeyModule, client, name='servers', replace_invalid=True, retries=3).run()
    assert result['replaced_id'] == '77' and result['setup_key']['id'] == '99'
    assert client.writes() == [('POST', '/setup-keys'), ('PUT', '/setup-keys/77')]

    # a run that stopped before revoking the old key: the valid key of the two live ones is the replacement
    client = key_client(used, made)
    again = make(SetupKeyModule, client, name='servers', replace_invalid=True).run()
    assert again['changed'] is False and again['setup_key']['id'] == '99' and client.writes() == []


def test_setup_key_option_conflicts():
    client = key_client()
    with pytest.raises(TaskError, match=r'option usage_limit: 3 is not valid for a one-off key, which is used once'):
        make(SetupKeyModule, client, name='x', type='one-off', usage_limit=3).run()
    assert client.writes() == []
    with pytest.raises(TaskError, match='options replace_invalid and revoked=true contradict'):
        make(SetupKeyModule, key_client(), name='x', replace_invalid=True, revoked=True).run()


SETTINGS = {'peer_login_expiration_enabled': True, 'peer_login_expiration': 86400, 'regular_users_view_blocked': True,
            'groups_propagation_enabled': True, 'jwt_groups_enabled': False, 'jwt_groups_claim_name': '',
            'jwt_allow_groups': None, 'future_member': 'kept'}


def account_client(settings=None):
    account = {'id': 'acc1', 'settings': dict(settings or SETTINGS)}
    return FakeClient({'/accounts': [account], ('PUT', '/accounts/acc1'): lambda body: dict(account, **body),
                       ('DELETE', '/accounts/acc1'): {}})


def test_account_settings_send_the_full_object_without_extra_when_unset():
    client = account_client()
    result = make(AccountSettingsModule, client, peer_login_expiration='2d').run()
    assert result['changed'] is True and result['account_id'] == 'acc1'
    body = client.calls[-1][2]['settings']
    assert body == dict(SETTINGS, peer_login_expiration=172800, jwt_allow_groups=[])
    assert 'extra' not in body
    assert make(AccountSettingsModule, account_client(), peer_approval_enabled=False).run()['changed'] is False


def test_account_settings_extra_always_carries_peer_approval():
    client = account_client(dict(SETTINGS, extra={'peer_approval_enabled': True}))
    make(AccountSettingsModule, client, jwt_allow_groups=['b', 'a']).run()
    body = client.calls[-1][2]['settings']
    assert body['extra'] == {'peer_approval_enabled': True} and body['jwt_allow_groups'] == ['a', 'b']
    client = account_client()
    make(AccountSettingsModule, client, peer_approval_enabled=True).run()
    assert client.calls[-1][2]['settings']['extra'] == {'peer_approval_enabled': True}


def test_account_delete_needs_the_matching_id():
    client = account_client()
    with pytest.raises(TaskError, match='option confirm_account_id is required with state=absent'):
        make(AccountSettingsModule, client, state='absent').run()
    with pytest.raises(TaskError, match="'acc2' is not the id of this account; nothing was deleted"):
        make(AccountSettingsModule, client, state='absent', confirm_account_id='acc2').run()
    checked = make(AccountSettingsModule, client, check_mode=True, state='absent', confirm_account_id='acc1').run()
    assert checked['changed'] is True and client.writes() == []
    make(AccountSettingsModule, client, state='absent', confirm_account_id='acc1').run()
    assert client.writes() == [('DELETE', '/accounts/acc1')]


def test_account_find_needs_exactly_one():
    client = FakeClient({'/accounts': []})
    with pytest.raises(ApiError, match='the answer is a list of 0 items where exactly one account was expected'):
        make(AccountSettingsModule, client, jwt_groups_enabled=True).run()
    client = FakeClient({'/accounts': 'ok'})
    with pytest.raises(ApiError, match='the answer is a string where exactly one account was expected'):
        make(AccountSettingsModule, client, jwt_groups_enabled=True).run()


# -- review fixes ---------------------------------------------------------------------------------------
def test_user_check_mode_placeholder_names_the_service_user():
    client = user_client(OWNER)
    result = make(UserModule, client, check_mode=True, name='robot', is_service_user=True, role='user').run()
    assert result['user']['id'] == '(new user robot)'
    invite = make(UserModule, client, check_mode=True, email='x@example.com', name='X', role='user').run()
    assert invite['user']['id'] == '(new user x@example.com)'
    assert client.writes() == []


@pytest.mark.parametrize('role, others, blocked, view, reads', [
    # (the second list read, after the create, looks for service users of the same name created meanwhile)
    ('admin', [], True, 'full', ['/users', '/users']),
    ('user', [dict(INVITED, permissions={'dashboard_view': 'blocked'})], False, 'blocked', ['/users', '/users']),
    ('user', [], True, 'blocked', ['/users', '/users', '/accounts']),
    ('user', [], False, 'limited', ['/users', '/users', '/accounts']),
])
def test_user_created_service_user_permissions_are_filled_in(role, others, blocked, view, reads):
    client = user_client(OWNER, *others)
    client.routes[('POST', '/users')] = lambda body: dict(body, id='new-user', status='active',
                                                          permissions={'dashboard_view': ''})
    client.routes['/accounts'] = [{'id': 'acc', 'settings': {'regular_users_view_blocked': blocked}}]
    result = make(UserModule, client, name='robot', is_service_user=True, role=role).run()
    assert result['user']['permissions'] == {'dashboard_view': view}
    assert [p for m, p, dummy in client.calls if m == 'GET'] == reads


def test_token_check_mode_is_shaped_like_the_server_token():
    client = token_client([])
    result = make(TokenModule, client, check_mode=True, user='bot', name='new', expires_in=5).run()
    token = result['token']
    assert 'expires_in' not in token and token['id'] == '(new token new)'
    created = times.parse_time(token['created_at'])
    assert tokens.token_days({'created_at': token['created_at'], 'expiration_date': token['expiration_date']}) == 5
    assert abs((created - datetime.datetime.now(UTC)).total_seconds()) < 60
    assert result['diff']['after'] == {'name': 'new', 'expires_in': 5}


def lose_the_answer(client, made):
    def answer(body):
        client.routes['/users/bot-1/tokens'].append(made)
        raise ApiError('POST', '/users/bot-1/tokens', None, 'the connection was closed before an answer arrived')
    return answer


def test_token_whose_create_answer_was_lost_reports_the_change_and_how_to_get_a_value():
    client = token_client([])
    made = dict(TOKEN, id='t2', name='new')
    client.routes[('POST', '/users/bot-1/tokens')] = lose_the_answer(client, made)
    with pytest.raises(TaskError) as caught:
        make(TokenModule, client, user='bot', name='new', expires_in=5).run()
    message = str(caught.value)
    assert 'the connection was lost after the creation request was sent' in message
    assert "the token 'new' was created (id t2)" in message and 'rotate: true' in message
    assert 'usable plain_token' not in message
    assert caught.value.details['changed'] is True and caught.value.details['token']['id'] == 't2'
    assert client.writes() == [('POST', '/users/bot-1/tokens')]  # never sent twice


def test_token_whose_create_answer_and_read_were_lost_may_exist():
    client = token_client([])
    client.routes[('POST', '/users/bot-1/tokens')] = failing_first(None, ApiError('POST', '/users/bot-1/tokens', None, 'lost'))
    reads = []

    def list_then_fail(body):
        reads.append(body)
        if len(reads) > 1:  # the read after the lost answer
            raise ApiError('GET', '/users/bot-1/tokens', None, 'no answer')
        return []
    client.routes['/users/bot-1/tokens'] = list_then_fail
    with pytest.raises(TaskError, match="the token 'new' may exist now.*rotate: true"):
        make(TokenModule, client, user='bot', name='new', expires_in=5, retries=0).run()


def test_token_answer_without_a_value_still_reports_the_created_token():
    client = token_client([], plain={'a': 'x', 'b': 'y'})
    with pytest.raises(TaskError) as caught:
        make(TokenModule, client, user='bot', name='new', expires_in=5).run()
    assert 'rotate: true' in str(caught.value) and caught.value.details['changed'] is True


def test_setup_key_one_off_diff_and_body_show_usage_limit_one():
    for check_mode in (True, False):
        client = key_client()
        result = make(SetupKeyModule, client, check_mode=check_mode, name='k', type='one-off').run()
        assert result['diff']['after']['usage_limit'] == 1
        assert result['setup_key']['usage_limit'] == 1
    assert [c[2]['usage_limit'] for c in client.calls if c[0] == 'POST'] == [1]


def test_setup_key_check_mode_is_shaped_like_the_server_key():
    client = key_client()
    key = make(SetupKeyModule, client, check_mode=True, name='k', type='reusable', expires_in='2d').run()['setup_key']
    assert 'expires_in' not in key and key['id'] == '(new setup key k)'
    assert 2 * 86400 - 60 < (times.parse_time(key['expires']) - datetime.datetime.now(UTC)).total_seconds() <= 2 * 86400
    assert (key['used_times'], key['state'], key['valid']) == (0, 'valid', True)
    updated = make(SetupKeyModule, key_client(setup_key()), check_mode=True, name='servers', revoked=True).run()
    assert 'expires_in' not in updated['setup_key']


@pytest.mark.parametrize('check_mode', [False, True])
def test_setup_key_replacement_diff_names_old_and_new_key(check_mode):
    used = setup_key(type='one-off', usage_limit=1, used_times=1, valid=False, state='overused')
    result = make(SetupKeyModule, key_client(used), check_mode=check_mode, name='servers', replace_invalid=True).run()
    diff = result['diff']
    assert diff['before_header'] == "setup key 'servers' (id 77, overused, revoked by this task)"
    assert diff['after_header'] == "new setup key 'servers'"
    # the groups by name: their list was read for the names of the result's groups
    assert diff['before'] == {'name': 'servers', 'type': 'one-off', 'usage_limit': 1, 'ephemeral': False,
                              'auto_groups': ['ops']}
    assert diff['after'] == {'name': 'servers', 'type': 'one-off', 'usage_limit': 1, 'ephemeral': False,
                             'auto_groups': ['ops'], 'expires_in': 2592000}
    revoked = setup_key(revoked=True, valid=False, state='revoked')
    again = make(SetupKeyModule, key_client(revoked), check_mode=check_mode, name='servers', replace_invalid=True).run()
    assert again['diff']['before_header'] == "setup key 'servers' (id 77, revoked, already revoked)"


def test_setup_key_whose_create_answer_was_lost_is_read_back_with_its_value():
    client = key_client()
    made = setup_key(id=99, key='0C2A3F2E-0000-4000-8000-00000000ABCD', name='k')

    def lose(body):
        client.routes['/setup-keys'].append(made)
        raise ApiError('POST', '/setup-keys', None, 'the connection was closed before an answer arrived')
    client.routes[('POST', '/setup-keys')] = lose
    module = make(SetupKeyModule, client, name='k', type='reusable')
    result = module.run()
    assert result['changed'] is True and result['setup_key']['key'] == made['key'] and module.module.warnings == []
    masked = setup_key(id=98, key='0C2A3****', name='m')
    client = key_client()

    def lose_masked(body):
        client.routes['/setup-keys'].append(masked)
        raise ApiError('POST', '/setup-keys', None, 'closed')
    client.routes[('POST', '/setup-keys')] = lose_masked
    module = make(SetupKeyModule, client, name='m', type='reusable')
    assert module.run()['changed'] is True
    assert 'the connection was lost' in module.module.warnings[0] and 'revoke it' in module.module.warnings[0]


# -- role changes the server refuses whatever the caller's permissions --------------------------------------
def test_the_calling_user_cannot_change_its_own_role_refused_before_any_write():
    client = FakeClient({'/users': [OWNER, BOT]})
    with pytest.raises(TaskError) as failure:
        make(UserModule, client, email='owner@example.com', role='admin').run()
    assert str(failure.value).startswith("option role: the user email 'owner@example.com' is the one this task acts as, "
                                         "and nobody can change their own role")
    assert [c for c in client.calls if c[0] != 'GET'] == []
    # the same role is no change, and no refusal
    assert make(UserModule, FakeClient({'/users': [OWNER]}), email='owner@example.com', role='owner').run()['changed'] is False


@pytest.mark.parametrize('check_mode', [False, True])
def test_a_service_user_cannot_become_owner_refused_before_any_write(check_mode):
    client = FakeClient({'/users': [OWNER, BOT]})
    with pytest.raises(TaskError) as failure:
        make(UserModule, client, check_mode=check_mode, name='bot', is_service_user=True, role='owner').run()
    assert str(failure.value).startswith("option role: the user service user name 'bot' is a service user, and a service "
                                         "user cannot be the owner")
    assert [c for c in client.calls if c[0] != 'GET'] == []


def forbidden(method, path, message):
    """An answer that fails the request with HTTP 403 and the message."""
    def answer(dummy_body):
        raise ApiError(method, path, 403, message)
    return answer


@pytest.mark.parametrize('message, rule', [
    ("forbidden: admins can't change their role (the token's user lacks the permission for this operation)",
     'nobody can change their own role'),
    ("forbidden: failed to process update for user x: can't update a service user with owner role (the token's user "
     "lacks the permission for this operation)", 'a service user cannot be the owner'),
])
def test_a_403_that_states_a_rule_about_the_request_says_the_rule_not_a_missing_permission(message, rule):
    client = FakeClient({'/users': [OWNER, dict(BOT, role='user')],
                         ('PUT', '/users/bot-1'): forbidden('PUT', '/users/bot-1', message)})
    with pytest.raises(ApiError) as failure:
        make(UserModule, client, name='bot', is_service_user=True, role='admin').run()
    text = str(failure.value)
    assert text.startswith('PUT /users/bot-1 failed with HTTP 403: forbidden: ')
    assert 'lacks the permission' not in text and rule in text
    assert failure.value.status == 403 and failure.value.method == 'PUT'


def test_a_403_about_the_caller_keeps_the_permission_hint():
    message = "forbidden: only owners can add owner role to other users (the token's user lacks the permission for this operation)"
    client = FakeClient({'/users': [OWNER, dict(BOT, is_service_user=False, email='b@example.com')],
                         ('PUT', '/users/bot-1'): forbidden('PUT', '/users/bot-1', message)})
    with pytest.raises(ApiError) as failure:
        make(UserModule, client, email='b@example.com', role='owner').run()
    assert failure.value.message == message


def test_setup_key_whose_create_answer_was_cut_off_is_read_back_and_the_masked_value_never_shown():
    """Issue 18, point 4: HTTP 200 with a body cut off is a create with an unknown outcome, not a failure."""
    masked = setup_key(id=97, key='0C2A3****', name='cut')
    client = key_client()

    def cut_off(body):
        client.routes['/setup-keys'].append(masked)
        raise ApiError('POST', '/setup-keys', 200, 'the answer was cut off after 120 of 240 bytes')
    client.routes[('POST', '/setup-keys')] = cut_off
    module = make(SetupKeyModule, client, name='cut', type='reusable')
    result = module.run()
    assert result['changed'] is True and result['setup_key']['id'] == '97' and 'key' not in result['setup_key']
    warning, = module.module.warnings
    assert 'could not be read (the answer was cut off after 120 of 240 bytes)' in warning and 'revoke it' in warning
    assert [call[0] for call in client.calls].count('POST') == 1
