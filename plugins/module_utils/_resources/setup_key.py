# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Setup keys, which machines join the network with (the setup_key module, setup_key_info and network_state)."""

from __future__ import annotations

import datetime

from ansible_collections.nms.overlay.plugins.module_utils._client import FLAG, NUMBER, TEXT
from ansible_collections.nms.overlay.plugins.module_utils._compare import known_bool, ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resolve import named_result
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._strategy_secret import SecretOnCreate
from ansible_collections.nms.overlay.plugins.module_utils._time import duration_norm, iso_time, now, parse_time, zero_time

# Setup key members that are never shown after the create that made the key.
SETUP_KEY_SECRET = 'key'


def setup_key_valid(key):
    """Whether a setup key can still enroll a peer (the server's ``valid``, else its ``state``)."""
    valid = key.get('valid')
    if isinstance(valid, bool):
        return valid
    return key.get('state') == 'valid'


def created_key_value(value, read_back=False):
    """The value of a created setup key as a peer enrolls with it, or None: a today's server masks values in every
    read (``ABCDE****``), and a mask is never shown or kept as a key. A value read back (the create answer was lost)
    counts only when it is whole (36 characters, the length of the keys servers make)."""
    usable = isinstance(value, str) and bool(value) and '*' not in value and not (read_back and len(value) < 36)
    return value if usable else None


def held_by_current_server(task, key):
    """Whether the key is on a today's server (v0.77): their key ids are not numbers, v0.27's are, so the key's own
    answer tells, without a request."""
    current = not str(ref_id(key)).isdigit()
    task.resolver.server.learn(current)
    return current


def key_status(key):
    """The state a server object shows (valid, expired, revoked, overused), else the one its fields tell."""
    return key.get('state') or key_state(key)


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


DEFAULT_KEY_EXPIRES_IN = 30 * 86400
LIFETIME_SLACK = 300  # seconds of clock difference tolerated when comparing expires_in with the expiry date
KEY_LIFETIME_BOUNDS = (86400, 31536000)  # the expires_in a server accepts: 1 to 365 days


def created_lifetime(key):
    """The expires_in a key was created with, as far as its dates tell (for a replacement that keeps it): its
    lifetime_floor, which is exact for a key never changed since its creation (its updated_at is then the creation
    time) and shorter for one changed later (renamed, regrouped, revoked); whole days when within LIFETIME_SLACK of
    them (the server's clock and the time between its two dates), within the bounds the API accepts; the 30 days of
    a new key when the dates are unknown."""
    floor = lifetime_floor(key)
    if floor is None:
        return DEFAULT_KEY_EXPIRES_IN
    days = int(round(floor / 86400.0))
    if days >= 1 and abs(floor - days * 86400) <= LIFETIME_SLACK:
        floor = days * 86400
    low, high = KEY_LIFETIME_BOUNDS
    return max(low, min(high, floor))


class SetupKeyModule(SecretOnCreate):
    """A setup key; state=absent deletes it where the server can, else (v0.27) revokes it and clears its auto
    groups (a group that any key lists, a revoked one too, cannot be deleted), with the other keys of its name
    (revoked ones: replaced keys, concurrent copies). A replacement revokes the key it replaces."""

    path = '/setup-keys'
    what = 'setup key'
    kind = 'setup_keys'
    secret_at = ('object', SETUP_KEY_SECRET)
    secret_section = 'setup_keys'
    secret_value = staticmethod(created_key_value)
    value_hint = 'revoke it (state: absent) and create a new one to get a value'
    retired_as = 'revoked'
    retired = dict(revoked=True, auto_groups=[])
    replaced_values = dict(revoked=True)
    # a replacement is the create then the old key's revoke, with no list read between (a second run finds the new
    # key valid and leaves it, see choose)
    replacement_converges = False
    status_of = staticmethod(key_status)
    absent_takes_namesakes = True
    answers = {'id': None, SETUP_KEY_SECRET: TEXT, 'expires': TEXT, 'valid': FLAG, 'used_times': NUMBER, 'last_used': TEXT, 'state': TEXT,
               'updated_at': TEXT}
    required_on_create = ('name', 'type')
    model = 'identity.SetupKeyOptions'
    fields = dict(
        name=Field(),
        type=Field(dict(type='str', choices=['one-off', 'reusable']), immutable=True),
        expires_in=Field('raw', norm=duration_norm, immutable=True, initial=DEFAULT_KEY_EXPIRES_IN),
        usage_limit=Field('int', immutable=True, initial=0),
        ephemeral=Field('bool', norm=bool, immutable=True, initial=False),
        auto_groups=Field('list', ref='groups', many=True, initial=[]),
        revoked=Field('bool', norm=bool, initial=False),
        # v0.77: fixed at creation (its PUT takes only revoked and auto_groups); never sent unless set
        allow_extra_dns_labels=Field('bool', norm=known_bool, immutable=True, requires='v0.77', server_default=False),
    )
    options = dict(
        replace_invalid=dict(type='bool', default=False),
    )
    shape = staticmethod(public_setup_key)
    created_as = dict(revoked=False)  # the API ignores revoked on create (a key asked revoked is then revoked by a PUT)
    required_one_of = (('id', 'name'),)
    task_state = dict(_revoked_aside=[])  # revoked keys of the name a present task set aside to create a live key

    def check_options(self):
        super().check_options()
        params = self.params
        # every server alike, before any request: v0.77.1 refuses (422) a one-off key above 1 use, older ones held 1
        # silently; 0 is taken (the server holds 1)
        if params.get('type') == 'one-off' and (params.get('usage_limit') or 0) > 1:
            raise TaskError('option usage_limit: %d is not valid for a one-off key, which is used once (servers hold '
                            'usage_limit 1 for it; NetBird v0.77.1 refuses a higher limit); leave usage_limit unset or '
                            'use type reusable' % params['usage_limit'])
        if params.get('replace_invalid') and params.get('revoked'):
            raise TaskError('options replace_invalid and revoked=true contradict each other: replace_invalid makes a '
                            'usable key, revoked=true makes it unusable')

    # -- finding ---------------------------------------------------------------------------------
    def live(self, item):
        """Revoked keys of the name are set aside when finding by name: they are dead (replaced keys, concurrent copies)."""
        return not item.get('revoked')

    def choose(self, found):
        """The key of the name among the live ones (``found``); with none, a revoked one only where the task says
        which (state=absent, replace_invalid, or revoked set), else none: a new, usable key is created."""
        params = self.params
        live = bool(found) or self.replacing is not None  # the read after a replacement's create seeks a live key
        if not live:
            found = [item for item in self.list_items() if self.matches(item)]
            if found and (params.get('state') == 'absent' or params.get('replace_invalid')):
                return found[0]  # state=absent removes the others of the name too
            if found and params.get('revoked') is None:
                # only revoked keys of the name (a v0.27 server revokes the keys it cannot delete): a task that wants
                # a key and says nothing of revoked gets a new, usable one, as after a deletion on today's servers
                self._revoked_aside = found
                return None
        elif len(found) > 1 and params.get('replace_invalid') and self.replacing is None:
            valid = [item for item in found if setup_key_valid(item)]
            if len(valid) == 1:
                return valid[0]  # a replacement whose old key was left unrevoked (the run stopped in between)
        if len(found) > 1:
            raise TaskError('%s matches %d setup keys%s (ids: %s); give the id to choose one' % (
                self.identity_text(), len(found), ' that are not revoked' if live else '', ', '.join(sorted(ref_id(i) for i in found))))
        return found[0] if found else None

    # -- shapes ----------------------------------------------------------------------------------
    def from_server(self, obj):
        current = super().from_server(obj)
        current['expires_in'] = None  # the server reports the expiry date only
        return current

    def request_body(self, state, current_obj):
        body = {name: state.get(name) for name in self.fields}
        body['auto_groups'] = body['auto_groups'] or []
        body['revoked'] = bool(body['revoked'])
        body['ephemeral'] = bool(body['ephemeral'])
        if body['usage_limit'] is None:
            body['usage_limit'] = 0
        if body['expires_in'] is None:
            body['expires_in'] = remaining_seconds(current_obj or {})  # required in a PUT, ignored there
        if body['allow_extra_dns_labels'] is None:
            del body['allow_extra_dns_labels']  # a v0.27 server has no such member
        return body

    def to_result(self, obj):
        result = public_setup_key(obj)  # the value only in the result of the create that made it (SecretOnCreate)
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

    def finish(self, obj, result):
        # group references by name, in the task's final result only (a task that fails reads no group list for it)
        return named_result(self, result)

    # -- writes ----------------------------------------------------------------------------------
    def prepare_update(self, obj, desired):
        if desired.get('name') is not None and desired['name'] != obj.get('name') and held_by_current_server(self, obj):
            # a v0.77 server takes only revoked and auto_groups in an update: a name sent would be dropped, every run
            self.warn("name cannot change after the setup key is created on %s, which takes only revoked and auto_groups "
                      "in an update: the existing name %s is kept, not %s; replace the key to change it"
                      % (self.resolver.server.describe(), self.shown(obj.get('name')), self.shown(desired['name'])))
            del desired['name']
        wanted = desired.pop('expires_in', None)
        floor = lifetime_floor(obj)
        if isinstance(wanted, int) and floor is not None and wanted < floor - LIFETIME_SLACK:
            self.warn('expires_in cannot change after the setup key is created: the key expires at %s, later than '
                      '%s seconds after its creation; the expiry date is kept; replace the key to change it'
                      % (self.shown(obj.get('expires'), '%s'), self.shown(wanted, '%d')))
        return desired

    def new_state(self, desired):
        old = self.replacing
        if old is not None:
            # a replacement: usable, with the old key's lifetime unless told
            desired = dict(desired, revoked=False)
            desired.setdefault('expires_in', created_lifetime(old))
            if desired.get('type') != 'one-off' and old.get('type') == 'one-off' and self.params.get('usage_limit') is None:
                desired['usage_limit'] = 0  # a reusable replacement of a one-off key: unlimited unless told
        if desired.get('type') == 'one-off':
            desired = dict(desired, usage_limit=1)  # what the server holds for a one-off key, whatever is sent
        if self._revoked_aside and desired.get('type') is None:
            raise TaskError("option type is required to create the setup key %s: the only setup keys of that name are "
                            "revoked (ids: %s), so a new key is created; give the id (and revoked) to change a revoked "
                            "key instead" % (self.identity_text(), ', '.join(sorted(ref_id(i) for i in self._revoked_aside))))
        return super().new_state(desired)

    def described(self, options, obj, name_of):
        """The lifetime the key was created with (its answers give only the expiry date; see created_lifetime), as
        whole days where it is some, so that the key applied elsewhere lives as long; not described when the answer
        has no creation date to count from."""
        if parse_time(obj.get('updated_at'), strict=True) is None:
            return options
        seconds = created_lifetime(obj)
        lifetime = '%dd' % (seconds // 86400) if seconds % 86400 == 0 else seconds
        return {name: lifetime if name == 'expires_in' else options[name] for name in self.fields
                if name in options or name == 'expires_in'}

    def can_delete(self, obj):
        """Whether the server deletes setup keys: today's servers do."""
        return held_by_current_server(self, obj)

    def replacement_wanted(self, obj):
        return bool(self.params.get('replace_invalid')) and not setup_key_valid(obj)
