# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Identity and onboarding: users, personal access tokens, setup keys and the account settings.

The resource classes here are used by the user, token, setup_key and account_settings modules and
by network_state. Everything that touches a secret (a setup key value, a token value) goes through
this file, so that the rule "shown once, by the create that makes it" is written once.
"""

from __future__ import annotations

import datetime
import re

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError, describe_shape
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id, str_set, the_account, unwrap_items
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resource import Field, ResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._time import parse_time

DURATION_UNITS = {'s': 1, 'm': 60, 'h': 3600, 'd': 86400, 'w': 604800}
_DURATION_PART = re.compile(r'(\d+)\s*([smhdw])', re.IGNORECASE)
_DURATION_WHOLE = re.compile(r'^\s*(?:\d+\s*[smhdw]\s*)+$', re.IGNORECASE)

# Setup key members that are never shown after the create that made the key.
SETUP_KEY_SECRET = 'key'


def parse_duration(value):
    """Seconds from an integer or a string such as ``86400``, ``30d``, ``12h``, ``1w`` or ``1d12h``.

    Raises ValueError with a message for the user when the value is not a duration.
    """
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError('must be a number of seconds or a duration such as 30d, 12h or 1w, not a boolean')
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    text = str(value).strip()
    if re.match(r'^\d+$', text):
        return int(text)
    if _DURATION_WHOLE.match(text):
        return sum(int(num) * DURATION_UNITS[unit.lower()] for num, unit in _DURATION_PART.findall(text))
    raise ValueError("'%s' is not a number of seconds or a duration such as 30d, 12h or 1w" % text)


def duration_norm(value):
    """Field normaliser: durations as seconds; values that do not parse are left for validation."""
    try:
        return parse_duration(value)
    except ValueError:
        return value


def lower(value):
    return value.lower() if isinstance(value, str) else value


def now():
    return datetime.datetime.now(datetime.timezone.utc)


# -- personal access tokens ------------------------------------------------------------------
def token_days(token):
    """The expires_in (days) a token was created with: its expiration minus its creation date."""
    created = parse_time(token.get('created_at'), strict=True)
    expires = parse_time(token.get('expiration_date'), strict=True)
    if created is None or expires is None or created.year < 2:
        return None
    return int(round((expires - created).total_seconds() / 86400.0))


def plain_token_value(value):
    """The token string of a creation response: a string, or an object carrying one string member."""
    if isinstance(value, str) and value:
        return value
    if isinstance(value, dict):
        strings = [v for v in value.values() if isinstance(v, str) and v]
        if len(strings) == 1:
            return strings[0]
    # never put the value itself into the message: it may be the secret
    raise TaskError('the server answered the token creation without a usable plain_token (expected a string or an '
                    'object with one string member); the token may exist now: check it with nms.overlay.token_info')


def zero_time():
    return '0001-01-01T00:00:00Z'


def iso_time(moment):
    """A timestamp the way the server writes it (UTC, RFC 3339)."""
    return moment.strftime('%Y-%m-%dT%H:%M:%S.%fZ')


def lost_value_message(what, option_hint, answer_lost, unreadable=None):
    """Why a created secret cannot be shown: its create answer was lost, could not be read (``unreadable``, the
    client's error) or carried no value."""
    if unreadable is not None:
        how = 'the answer to the creation request (which carries the value) could not be read (%s)' % unreadable.message
    elif answer_lost:
        how = 'the connection was lost after the creation request was sent, so its answer (which carries the value) never arrived'
    else:
        how = 'the answer to the creation request did not carry the value'
    return '%s; %s, and the value is only ever shown in that answer; %s' % (what, how, option_hint)


def tokens_path(module, option='user'):
    """/users/{id}/tokens for the user named by ``option`` (an id, email or service user name)."""
    user_id = module.resolver.to_id('users', module.params[option], option)
    return '/users/%s/tokens' % user_id


# -- setup keys ---------------------------------------------------------------------------------
def setup_key_valid(key):
    """Whether a setup key can still enroll a peer (the server's ``valid``, else its ``state``)."""
    valid = key.get('valid')
    if isinstance(valid, bool):
        return valid
    return key.get('state') == 'valid'


def public_setup_key(key, reveal=False):
    """A setup key as shown to the user: ids as strings, groups never null, the value removed.

    ``reveal`` keeps the value: only the result of the create that made the key sets it.
    """
    if not isinstance(key, dict):
        return key
    result = dict(key)
    if 'id' in result and result['id'] is not None:
        result['id'] = ref_id(result['id'])
    if result.get('auto_groups') is None:
        result['auto_groups'] = []
    if not reveal:
        result.pop(SETUP_KEY_SECRET, None)
    return result


def remaining_seconds(key, low=86400, high=31536000):
    """The time a key has left, within the bounds the API accepts for expires_in (a PUT needs one)."""
    expires = parse_time(key.get('expires'), strict=True)
    if expires is None:
        return low
    seconds = int((expires - now()).total_seconds())
    return max(low, min(high, seconds))


def key_state(key):
    """The state a setup key has by its fields: the first of expired, revoked, overused, else valid."""
    expires = parse_time(key.get('expires'), strict=True)
    if expires is not None and now() > expires:
        return 'expired'
    if key.get('revoked'):
        return 'revoked'
    limit = 1 if key.get('type') == 'one-off' else (key.get('usage_limit') or 0)
    if limit > 0 and (key.get('used_times') or 0) >= limit:
        return 'overused'
    return 'valid'


def lifetime_floor(key):
    """Seconds a key lived at least from its creation to its expiry (None when the dates are unknown).

    The server reports ``expires`` and ``updated_at`` (the creation time until the key is changed), so
    ``expires - updated_at`` is never more than the expires_in the key was created with.
    """
    expires = parse_time(key.get('expires'), strict=True)
    if expires is None:
        return None
    start = parse_time(key.get('updated_at'), strict=True)
    if start is None or start.year < 2 or start > expires:
        start = now()
    return int((expires - start).total_seconds())


def _options_model(name):
    def load():
        from ansible_collections.nms.overlay.plugins.module_utils import _models_identity
        return getattr(_models_identity, name)
    return load


def _text(value):
    return value or ''


# -- users ----------------------------------------------------------------------------------------
class UserModule(ResourceModule):
    """A service user, or a regular user invited by email; role, auto groups and blocked state."""

    path = '/users'
    what = 'user'
    kind = 'users'
    result_key = 'user'
    natural_key = 'email'
    read_only = ('id', 'status', 'last_login', 'is_current', 'issued', 'permissions')
    list_only = True       # the API has no GET /users/{id}
    required_on_create = ()
    model = staticmethod(_options_model('UserOptions'))
    fields = dict(
        email=Field(norm=lower, immutable=True),
        name=Field(immutable=True),
        is_service_user=Field(norm=bool, immutable=True),
        role=Field(norm=lower),
        auto_groups=Field(ref='groups', many=True, initial=[]),
        is_blocked=Field(norm=bool, initial=False),
    )
    argument_spec = dict(
        email=dict(type='str'),
        name=dict(type='str'),
        is_service_user=dict(type='bool'),
        role=dict(type='str', choices=['owner', 'admin', 'user']),
        auto_groups=dict(type='list', elements='str'),
        is_blocked=dict(type='bool'),
        resend_invitation=dict(type='bool', default=False),
    )
    required_one_of = (('id', 'email', 'name'),)

    def validate_options(self):
        super().validate_options()
        params = self.params
        if params.get('is_service_user') and params.get('email'):
            raise TaskError('option email: service users have no email; find a service user by name or id')
        if params.get('is_service_user') is False and not params.get('email') and not params.get('id'):
            raise TaskError('option email: a regular user is found by email (or id), not by name; give email')

    def matches(self, item):
        email = self.params.get('email')
        if email:
            return bool(item.get('email')) and item['email'].lower() == email.lower()
        return bool(item.get('is_service_user')) and item.get('name') == self.params.get('name')

    def natural_key_is_unique(self):
        """Servers refuse a second user of an email (409); service users' names may repeat."""
        return self.natural_key == 'email' and bool(self.params.get('email'))

    def identity_text(self):
        if self.params.get('id'):
            return "id '%s'" % self.params['id']
        if self.params.get('email'):
            return "email '%s'" % self.params['email']
        return "service user name '%s'" % self.params.get('name')

    def create(self, desired):
        desired = dict(desired)
        service = desired.get('is_service_user')
        if service is None:
            if not desired.get('email'):
                raise TaskError('the user %s does not exist; to create a service user set is_service_user: true, '
                                'to invite a regular user give email' % self.identity_text())
            service = desired['is_service_user'] = False
        if not desired.get('role'):
            raise TaskError('option role is required to create the user %s' % self.identity_text())
        if not desired.get('name'):
            raise TaskError('option name is required to create the user %s' % self.identity_text())
        if not service and not desired.get('email'):
            raise TaskError('option email is required to invite the regular user %s' % self.identity_text())
        if desired['role'] == 'owner':
            raise TaskError('option role: a new user cannot be the owner; create it as admin and transfer the '
                            'ownership with a second task')
        if service:
            self.natural_key = 'name'  # a service user is known by its name (check mode's placeholder id)
        return super().create(desired)

    def after_create(self, created, state):
        if state.get('is_blocked') and isinstance(created, dict) and not created.get('is_blocked'):
            # the create request has no is_blocked: block in a second call
            body = self.update_body(state, created)
            updated = self.client.put('%s/%s' % (self.path, ref_id(created)), body)
            return updated if isinstance(updated, dict) and updated else dict(created, **body)
        return created

    def request_body(self, state, current_obj):
        if current_obj is None:
            body = dict(name=state.get('name') or '', role=state['role'], auto_groups=state.get('auto_groups') or [],
                        is_service_user=bool(state.get('is_service_user')))
            if not body['is_service_user']:
                body['email'] = state.get('email')
            return body
        return dict(role=state.get('role'), auto_groups=state.get('auto_groups') or [],
                    is_blocked=bool(state.get('is_blocked')))

    def before_write(self, current_obj, state):
        if current_obj is None:
            return
        if state is not None:
            self.check_role_change(current_obj, state.get('role'))
            return
        if current_obj.get('role') == 'owner':
            raise TaskError('the user %s is the account owner and cannot be deleted; transfer the ownership first'
                            % self.identity_text())
        if current_obj.get('is_current'):
            raise TaskError('the user %s is the one this task acts as and cannot delete itself' % self.identity_text())

    def check_role_change(self, current_obj, role):
        """Refuse, before any write, the role changes servers refuse whatever the caller's permissions."""
        if role in (None, current_obj.get('role')):
            return
        if current_obj.get('is_current'):
            raise TaskError("option role: the user %s is the one this task acts as, and nobody can change their own role "
                            "(servers refuse it, for the owner too: \"admins can't change their role\"); to hand the "
                            "ownership over, give another user the role owner" % self.identity_text())
        if role == 'owner' and current_obj.get('is_service_user'):
            raise TaskError("option role: the user %s is a service user, and a service user cannot be the owner (servers "
                            "refuse it: \"can't update a service user with owner role\")" % self.identity_text())

    def to_result(self, obj):
        result = super().to_result(obj)
        if isinstance(result, dict) and result.get('auto_groups') is None:
            result['auto_groups'] = []
        permissions = result.get('permissions') if isinstance(result, dict) else None
        if isinstance(permissions, dict) and not permissions.get('dashboard_view') and result.get('role'):
            # the server's create answer for a service user leaves it empty; a read says what it is
            result['permissions'] = dict(permissions, dashboard_view=self.dashboard_view(result))
        return result

    def dashboard_view(self, user):
        """What the server reports as permissions.dashboard_view for this user: full for admins and owners;
        for role user, blocked or limited by the account's regular_users_view_blocked (read from another
        user of role user in the list this task read, else from the account)."""
        if user.get('role') in ('admin', 'owner'):
            return 'full'
        for other in self.resolver.cached('users') or []:
            view = (other.get('permissions') or {}).get('dashboard_view')
            if other.get('role') == 'user' and view in ('limited', 'blocked'):
                return view
        try:
            account = the_account(self.client.get('/accounts'))
        except ApiError:
            return ''
        settings = account.get('settings') if isinstance(account, dict) else None
        if not isinstance(settings, dict):
            return ''
        return 'blocked' if settings.get('regular_users_view_blocked') else 'limited'

    def ensure_present(self, obj):
        result = super().ensure_present(obj)
        result['invitation_sent'] = False
        if not self.params.get('resend_invitation') or obj is None:
            return result
        if obj.get('is_service_user') or obj.get('is_blocked') or obj.get('status') != 'invited':
            return result
        if not self.module.check_mode:
            self.client.post('%s/%s/invite' % (self.path, ref_id(obj)))
            result['changed'] = True
            result['invitation_sent'] = True
        return result

    def ensure_absent(self, obj):
        result = super().ensure_absent(obj)
        result['invitation_sent'] = False
        return result


# -- personal access tokens ---------------------------------------------------------------------
class TokenModule(ResourceModule):
    """A personal access token of a user: created, rotated or deleted, never edited."""

    what = 'token'
    result_key = 'token'
    required_on_create = ('name', 'expires_in')
    model = staticmethod(_options_model('TokenOptions'))
    fields = dict(
        name=Field(),
        expires_in=Field(),
    )
    argument_spec = dict(
        user=dict(type='str', required=True),
        name=dict(type='str'),
        expires_in=dict(type='int'),
        rotate=dict(type='bool', default=False),
    )
    required_one_of = (('id', 'name'),)

    def __init__(self, module=None):
        super().__init__(module)
        self._plain = None
        self._read_back = None   # why the created token had to be read back (the answer was lost or empty)
        self._absent = False     # the last read after a lost answer found no token

    def find(self):
        self.path = tokens_path(self)
        return super().find()

    def from_server(self, obj):
        return {'name': obj.get('name'), 'expires_in': token_days(obj)}

    def to_result(self, obj):
        result = super().to_result(obj)
        if isinstance(result, dict) and 'expires_in' in result:
            # a predicted token (check mode): shaped like the server's, which stores the expiration date
            days = result.pop('expires_in')
            moment = now()
            result.setdefault('created_at', iso_time(moment))
            if isinstance(days, int):
                result.setdefault('expiration_date', iso_time(moment + datetime.timedelta(days=days)))
        return result

    def post_once(self, body):
        self._read_back = None
        self._absent = False
        try:
            return super().post_once(body)
        except ApiError as exc:
            if self._read_back == 'lost' and not self._absent:
                # the answer was lost and the read that should tell whether the token was made failed too
                raise TaskError(lost_value_message(
                    "the token '%s' may exist now" % body.get('name'), 'check with nms.overlay.token_info; if it '
                    'exists, run the task again with rotate: true to get a value (that replaces the token)', True,
                    self.unreadable_answer)
                    + ' (%s)' % exc, status=exc.status, method=exc.method, path=exc.path) from None
            raise

    def find_again(self):
        if self._read_back is None:
            self._read_back = 'lost'
        self._absent = False
        found = super().find_again()
        self._absent = found is None
        return found

    def read_back_create(self, answer):
        self._read_back = 'empty'
        return super().read_back_create(answer)

    def after_create(self, created, state):
        if self._read_back is not None and isinstance(created, dict) and not (
                'plain_token' in created or 'personal_access_token' in created):
            # the created token was found by a read: the value was in the answer that did not come
            token = self.to_result(created) if isinstance(created, dict) else {}
            hint = ('run the task again with rotate: true to get a value (that replaces the token)' if self.replacing is None
                    else 'the old token (id %s) is deleted as asked; run the task again with rotate: true to get a value'
                    % ref_id(self.replacing))
            if self.replacing is not None:
                self.delete(self.replacing)
            raise TaskError(lost_value_message("the token '%s' was created (id %s)" % (state.get('name'), ref_id(created)),
                                               hint, self._read_back == 'lost', self.unreadable_answer),
                            changed=True, token=token)
        created = created if isinstance(created, dict) else {}
        try:
            self._plain = plain_token_value(created.get('plain_token'))
        except TaskError as exc:
            token = created.get('personal_access_token')
            if not isinstance(token, dict) or token.get('id') is None:
                raise
            raise TaskError('%s; the token was created (id %s): run the task again with rotate: true to get a value'
                            % (exc, ref_id(token)), changed=True, token=self.to_result(token)) from None
        return created.get('personal_access_token') or {}

    def discard_copy(self, obj):
        self._plain = None  # the value of a token deleted as a concurrent copy is of no use
        super().discard_copy(obj)

    def create(self, desired):
        result = super().create(desired)
        if self.module.check_mode:
            result[self.result_key] = self.to_result(result[self.result_key])
        if self._plain is not None:
            result['plain_token'] = self._plain
            self._plain = None
        return result

    def update_object(self, obj, desired):
        if self.params.get('rotate'):
            return self.rotate(obj, desired)
        current = self.from_server(obj)
        for name in ('name', 'expires_in'):
            if name in desired and current.get(name) is not None and current[name] != desired[name]:
                self.warn('%s cannot change after the token is created: the existing value %s is kept, not %s; '
                          'use rotate: true to replace the token' % (name, self.shown(current[name]), self.shown(desired[name])))
        return {'changed': False, self.result_key: self.to_result(obj)}

    def rotate(self, obj, desired):
        """A new token with the same name (and lifetime unless expires_in says otherwise), then the old one goes."""
        current = self.from_server(obj)
        wanted = {name: value for name, value in current.items() if value is not None}
        wanted.update(desired)
        self.replacing = obj
        try:
            result = self.create(wanted)
        finally:
            self.replacing = None
        old_id = ref_id(obj)
        result['replaced_id'] = old_id
        result['diff'] = dict(before=current, after=result['diff']['after'],
                              before_header="token '%s' (id %s), deleted by this task" % (obj.get('name'), old_id),
                              after_header="new token '%s'" % wanted.get('name'))
        if not self.module.check_mode:
            self.delete(obj)
        return result


# -- setup keys -----------------------------------------------------------------------------------
DEFAULT_KEY_EXPIRES_IN = 30 * 86400
SETUP_KEY_BODY = ('name', 'type', 'expires_in', 'revoked', 'auto_groups', 'usage_limit', 'ephemeral')
LIFETIME_SLACK = 300  # seconds of clock difference tolerated when comparing expires_in with the expiry date


class SetupKeyModule(ResourceModule):
    """A setup key; state=absent revokes it, because the API cannot delete keys."""

    path = '/setup-keys'
    what = 'setup key'
    kind = 'setup_keys'
    result_key = 'setup_key'
    read_only = ('id', SETUP_KEY_SECRET, 'expires', 'valid', 'used_times', 'last_used', 'state', 'updated_at')
    required_on_create = ('name', 'type')
    model = staticmethod(_options_model('SetupKeyOptions'))
    fields = dict(
        name=Field(),
        type=Field(immutable=True),
        expires_in=Field(norm=duration_norm, immutable=True, initial=DEFAULT_KEY_EXPIRES_IN),
        usage_limit=Field(immutable=True, initial=0),
        ephemeral=Field(norm=bool, immutable=True, initial=False),
        auto_groups=Field(ref='groups', many=True, initial=[]),
        revoked=Field(norm=bool, initial=False),
    )
    argument_spec = dict(
        name=dict(type='str'),
        type=dict(type='str', choices=['one-off', 'reusable']),
        expires_in=dict(type='raw'),
        auto_groups=dict(type='list', elements='str'),
        usage_limit=dict(type='int'),
        ephemeral=dict(type='bool'),
        revoked=dict(type='bool'),
        replace_invalid=dict(type='bool', default=False),
    )
    required_one_of = (('id', 'name'),)

    def __init__(self, module=None):
        super().__init__(module)
        self._revealed = None
        self._read_back = False   # the created key was found by a read (its create answer was lost or empty)
        self._value_lost = False  # ... and that read did not show its value

    def validate_options(self):
        super().validate_options()
        params = self.params
        if params.get('type') == 'one-off' and params.get('usage_limit') not in (None, 1):
            raise TaskError('option usage_limit: a one-off key is used once, so the server always sets usage_limit to 1; '
                            'leave usage_limit unset or use type reusable')
        if params.get('replace_invalid') and params.get('revoked'):
            raise TaskError('options replace_invalid and revoked=true contradict each other: replace_invalid makes a '
                            'usable key, revoked=true makes it unusable')

    # -- finding ---------------------------------------------------------------------------------
    def find(self):
        """By id or name; revoked keys of the name are set aside (they are dead: replaced keys, concurrent copies)."""
        params = self.params
        if params.get('id'):
            return super().find()
        live = self.matching_items(live=lambda item: not item.get('revoked'))
        found = live or [item for item in self.list_items() if self.matches(item)]
        if not live and not (params.get('replace_invalid') or params.get('state') == 'absent'):
            return self.only_one(found)  # only revoked keys: which one is meant, the id tells
        valid = [item for item in live if setup_key_valid(item)]
        if len(live) > 1 and len(valid) == 1 and params.get('replace_invalid'):
            # a replacement whose old key was left unrevoked (the run stopped in between): the valid one is it
            return valid[0]
        if len(live) > 1:
            raise TaskError("name '%s' matches %d setup keys that are not revoked (ids: %s); give the id to choose one"
                            % (params.get('name'), len(live), ', '.join(sorted(ref_id(i) for i in live))))
        if live:
            return live[0]
        return found[0] if found else None

    def may_replace(self, item):
        return not item.get('revoked')

    # -- shapes ----------------------------------------------------------------------------------
    def from_server(self, obj):
        current = super().from_server(obj)
        current['expires_in'] = None  # the server reports the expiry date only
        return current

    def request_body(self, state, current_obj):
        body = {name: state.get(name) for name in SETUP_KEY_BODY}
        body['auto_groups'] = body['auto_groups'] or []
        body['revoked'] = bool(body['revoked'])
        body['ephemeral'] = bool(body['ephemeral'])
        if body['usage_limit'] is None:
            body['usage_limit'] = 0
        if body['expires_in'] is None:
            body['expires_in'] = remaining_seconds(current_obj or {})  # required in a PUT, ignored there
        return body

    def to_result(self, obj):
        reveal = self._revealed is not None and isinstance(obj, dict) and ref_id(obj) == self._revealed
        result = public_setup_key(obj, reveal=reveal)
        if isinstance(result, dict) and 'expires_in' in result:
            # a predicted key (check mode) is shaped like the server's, which stores the expiry date instead
            seconds = result.pop('expires_in')
            if 'expires' not in result and isinstance(seconds, int):
                result['expires'] = iso_time(now() + datetime.timedelta(seconds=seconds))
        if self.module.check_mode and isinstance(result, dict) and result:
            for name, value in (('used_times', 0), ('last_used', zero_time()), ('updated_at', iso_time(now()))):
                result.setdefault(name, value)
            result['state'] = key_state(result)  # predicted: the key was not written
            result['valid'] = result['state'] == 'valid'
        return result

    # -- lifecycle -------------------------------------------------------------------------------
    def update_object(self, obj, desired):
        wanted = desired.pop('expires_in', None)
        floor = lifetime_floor(obj)
        if isinstance(wanted, int) and floor is not None and wanted < floor - LIFETIME_SLACK:
            self.warn('expires_in cannot change after the setup key is created: the key expires at %s, later than '
                      '%s seconds after its creation; the expiry date is kept; replace the key to change it'
                      % (self.shown(obj.get('expires'), '%s'), self.shown(wanted, '%d')))
        return super().update_object(obj, desired)

    def create(self, desired):
        if desired.get('type') == 'one-off':
            desired = dict(desired, usage_limit=1)  # what the server holds for a one-off key, whatever is sent
        result = super().create(desired)
        if self.module.check_mode:
            result[self.result_key] = self.to_result(result[self.result_key])
        return result

    def find_again(self):
        self._read_back = True
        return super().find_again()

    def post_once(self, body):
        self._read_back = False
        created = super().post_once(body)
        value = created.get(SETUP_KEY_SECRET) if isinstance(created, dict) else None
        self._value_lost = self._read_back and isinstance(created, dict) and (
            not isinstance(value, str) or len(value) < 36 or '*' in value)
        if self._value_lost:
            # found by a read after a lost, unreadable or empty create answer, and this server masks values in reads
            self.warn(lost_value_message("the setup key %s was created (id %s)" % (self.shown(body.get('name'), "'%s'"), ref_id(created)),
                                         'revoke it (state: absent) and create a new one to get a value', True,
                                         self.unreadable_answer))
        return created

    def after_create(self, created, state):
        if isinstance(created, dict):
            # a masked value read back is no value: the result shows none rather than the mask
            self._revealed = None if self._value_lost else ref_id(created)
            if state.get('revoked') and not created.get('revoked'):
                # the API ignores revoked on create: revoke in a second call
                updated = self.client.put('%s/%s' % (self.path, ref_id(created)), self.update_body(state, created))
                if isinstance(updated, dict) and updated:
                    return dict(updated, key=created.get('key'))
        return created

    discarded = 'revoked'

    def discard_copy(self, obj):
        """A concurrent copy is revoked, as state=absent does (the API of v0.27 cannot delete keys)."""
        self.client.put('%s/%s' % (self.path, ref_id(obj)), self.request_body(dict(self.from_server(obj), revoked=True), obj))

    def ensure_absent(self, obj):
        """Delete the key where the server can (today's servers); on a v0.27 server, which cannot, revoke it and clear
        its auto groups (a group that any key lists, a revoked one too, cannot be deleted)."""
        if obj is None:
            return {'changed': False, self.result_key: {}}
        if self.can_delete(obj):
            return super().ensure_absent(obj)
        result = self.update_object(obj, {'revoked': True, 'auto_groups': []})
        result['revoked_only'] = True
        return result

    def can_delete(self, obj):
        """Whether the server deletes setup keys: today's servers do (their key ids are not numbers, v0.27's are), so
        the key's own answer tells, without a request."""
        current = not str(ref_id(obj)).isdigit()
        self.resolver.server.learn(current)
        return current

    def ensure_present(self, obj):
        if obj is not None and self.params.get('replace_invalid') and not setup_key_valid(obj):
            return self.replace(obj)
        return super().ensure_present(obj)

    def replace(self, old):
        """A fresh key under the same name; the old one is revoked unless it already is."""
        current = self.from_server(old)
        state = {name: value for name, value in current.items() if value is not None}
        state.update(revoked=False, expires_in=DEFAULT_KEY_EXPIRES_IN)
        state.update(self.desired())
        if state.get('type') == 'one-off':
            state['usage_limit'] = 1
        elif current.get('type') == 'one-off' and self.params.get('usage_limit') is None:
            state['usage_limit'] = 0  # a reusable replacement of a one-off key: unlimited unless told
        self.before_write(None, state)
        body = self.request_body(state, None)
        old_id = ref_id(old)
        # the diff: the old key's managed fields -> the new key's; the headers say which key is which
        fate = 'already revoked' if old.get('revoked') else 'revoked by this task'
        old_state = old.get('state') or key_state(old)
        diff = dict(before={name: value for name, value in current.items() if value is not None and name != 'revoked'},
                    after={name: value for name, value in state.items() if name != 'revoked'},
                    before_header="setup key '%s' (id %s, %s, %s)" % (old.get('name'), old_id, old_state, fate),
                    after_header="new setup key '%s'" % state.get('name'))
        result = {'changed': True, 'replaced_id': old_id, 'diff': diff}
        if self.module.check_mode:
            result[self.result_key] = self.to_result(dict(body, id='(new %s %s)' % (self.what, state.get('name'))))
            return result
        self.replacing = old
        try:
            created = self.post_once(body)
        finally:
            self.replacing = None
        self._revealed = None if self._value_lost else ref_id(created)
        self.remember(created)
        if not old.get('revoked'):
            revoked = self.client.put('%s/%s' % (self.path, old_id), self.update_body(dict(current, revoked=True), old))
            if isinstance(revoked, dict) and revoked:
                self.remember(revoked)
        result[self.result_key] = self.to_result(created)
        return result


# -- the account ----------------------------------------------------------------------------------
ACCOUNT_SETTINGS = ('peer_login_expiration_enabled', 'peer_login_expiration', 'regular_users_view_blocked',
                    'groups_propagation_enabled', 'jwt_groups_enabled', 'jwt_groups_claim_name', 'jwt_allow_groups')


class AccountSettingsModule(ResourceModule):
    """The settings of the one account (PUT replaces them all), or the deletion of the account."""

    path = '/accounts'
    what = 'account'
    result_key = 'account_settings'
    singleton = True
    model = staticmethod(_options_model('AccountSettingsOptions'))
    fields = dict(
        peer_login_expiration_enabled=Field(norm=bool),
        peer_login_expiration=Field(norm=duration_norm),
        regular_users_view_blocked=Field(norm=bool),
        groups_propagation_enabled=Field(norm=bool),
        jwt_groups_enabled=Field(norm=bool),
        jwt_groups_claim_name=Field(norm=_text),
        jwt_allow_groups=Field(norm=str_set),
        peer_approval_enabled=Field(norm=bool),
    )
    argument_spec = dict(
        peer_login_expiration_enabled=dict(type='bool'),
        peer_login_expiration=dict(type='raw'),
        regular_users_view_blocked=dict(type='bool'),
        groups_propagation_enabled=dict(type='bool'),
        jwt_groups_enabled=dict(type='bool'),
        jwt_groups_claim_name=dict(type='str'),
        jwt_allow_groups=dict(type='list', elements='str'),
        peer_approval_enabled=dict(type='bool'),
        confirm_account_id=dict(type='str'),
        state=dict(type='str', default='present', choices=['present', 'absent']),
    )

    def validate_options(self):
        super().validate_options()
        if self.params.get('state') == 'absent' and not self.params.get('confirm_account_id'):
            raise TaskError('option confirm_account_id is required with state=absent: deleting the account removes '
                            'everything in it; give the account id (see nms.overlay.account_info) to confirm')

    def find(self):
        data = unwrap_items(self.client.get(self.path))
        account = the_account(data)
        if account is None:
            what = 'a list of %d items' % len(data) if isinstance(data, list) else describe_shape(data)
            raise self.client.answer_error('GET', self.path, 'the answer is %s where exactly one account was expected' % what)
        return account

    def from_server(self, obj):
        settings = dict(obj.get('settings') or {})
        settings['peer_approval_enabled'] = (settings.get('extra') or {}).get('peer_approval_enabled')
        return {name: field.normalise(settings.get(name)) for name, field in self.fields.items()}

    def request_body(self, state, current_obj):
        settings = dict((current_obj or {}).get('settings') or {})  # keeps members this module does not know
        for name in ACCOUNT_SETTINGS:
            settings[name] = state.get(name)
        settings['jwt_allow_groups'] = list(settings.get('jwt_allow_groups') or [])
        if 'extra' in settings or self.params.get('peer_approval_enabled') is not None:
            extra = dict(settings.get('extra') or {})
            extra['peer_approval_enabled'] = bool(state.get('peer_approval_enabled'))  # never send extra without it
            settings['extra'] = extra
        return {'settings': settings}

    def update_path(self, obj):
        return '%s/%s' % (self.path, ref_id(obj))

    def to_result(self, obj):
        settings = dict((obj or {}).get('settings') or {})
        settings['jwt_allow_groups'] = list(settings.get('jwt_allow_groups') or [])
        return settings

    def run(self):
        self.validate_options()
        obj = self.find()
        if self.params.get('state') == 'absent':
            result = self.delete_account(obj)
        else:
            result = self.update_object(obj, self.desired())
        result['account_id'] = ref_id(obj)
        return result

    def delete_account(self, obj):
        if self.params['confirm_account_id'] != ref_id(obj):
            raise TaskError("option confirm_account_id: '%s' is not the id of this account; nothing was deleted"
                            % self.params['confirm_account_id'])
        result = {'changed': True, self.result_key: self.to_result(obj),
                  'diff': dict(before=self.from_server(obj), after={})}
        if not self.module.check_mode:
            self.client.delete('%s/%s' % (self.path, ref_id(obj)))
        return result
