# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Setup keys, which machines join the network with (the setup_key module, setup_key_info and network_state)."""

from __future__ import annotations

import datetime

from ansible_collections.nms.overlay.plugins.module_utils._compare import known_bool, ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resolve import named_result
from ansible_collections.nms.overlay.plugins.module_utils._resource import Field, SecretOnCreate, lost_value_message
from ansible_collections.nms.overlay.plugins.module_utils._time import duration_norm, iso_time, now, parse_time, zero_time

# Setup key members that are never shown after the create that made the key.
SETUP_KEY_SECRET = 'key'
# the group references a setup key result shows as [{id, name}]
GROUP_FIELDS = ('auto_groups',)


def _setup_key_model():
    from ansible_collections.nms.overlay.plugins.module_utils._models_identity import SetupKeyOptions
    return SetupKeyOptions


def setup_key_valid(key):
    """Whether a setup key can still enroll a peer (the server's ``valid``, else its ``state``)."""
    valid = key.get('valid')
    if isinstance(valid, bool):
        return valid
    return key.get('state') == 'valid'


def usable_value(value, read_back=False):
    """Whether a setup key value a create produced is one a peer can enroll with: a today's server masks values in
    every read (``ABCDE****``), and a mask is never shown or kept as a key. A value read back (the create answer was
    lost) counts only when it is whole (36 characters, the length of the keys servers make)."""
    return isinstance(value, str) and bool(value) and '*' not in value and not (read_back and len(value) < 36)


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
    groups (a group that any key lists, a revoked one too, cannot be deleted)."""

    path = '/setup-keys'
    what = 'setup key'
    kind = section = 'setup_keys'
    result_key = 'setup_key'
    secret_at = ('object', SETUP_KEY_SECRET)
    secret_section = 'setup_keys'
    read_only = ('id', SETUP_KEY_SECRET, 'expires', 'valid', 'used_times', 'last_used', 'state', 'updated_at')
    required_on_create = ('name', 'type')
    model = staticmethod(_setup_key_model)
    fields = dict(
        name=Field(),
        type=Field(dict(type='str', choices=['one-off', 'reusable']), immutable=True),
        expires_in=Field('raw', norm=duration_norm, immutable=True, initial=DEFAULT_KEY_EXPIRES_IN),
        usage_limit=Field('int', immutable=True, initial=0),
        ephemeral=Field('bool', norm=bool, immutable=True, initial=False),
        auto_groups=Field('list', ref='groups', many=True, initial=[]),
        revoked=Field('bool', norm=bool, initial=False),
        # v0.77: fixed at creation (its PUT takes only revoked and auto_groups); never sent unless set
        allow_extra_dns_labels=Field('bool', norm=known_bool, immutable=True, requires='v0.77'),
    )
    options = dict(
        replace_invalid=dict(type='bool', default=False),
    )
    shape = staticmethod(public_setup_key)
    group_fields = GROUP_FIELDS  # results show these as [{id, name}] (with_group_names)
    required_one_of = (('id', 'name'),)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._revealed = None
        self._read_back = False   # the created key was found by a read (its create answer was lost or empty)
        self._value_lost = False  # ... and that read did not show its value
        self._revoked_aside = []  # revoked keys of the name a present task set aside to create a live key
        self._others = []  # the other keys of the name (revoked ones) that state=absent removes with the one found

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
        named = [item for item in self.list_items() if self.matches(item)]
        found = live or named
        absent = params.get('state') == 'absent'
        if not live and not absent and not params.get('replace_invalid'):
            if found and params.get('revoked') is None:
                # only revoked keys of the name (a v0.27 server revokes the keys it cannot delete): a task that wants
                # a key and says nothing of revoked gets a new, usable one, as after a deletion on today's servers
                self._revoked_aside = found
                return None
            return self.only_one(found)  # only revoked keys: which one is meant, the id tells
        valid = [item for item in live if setup_key_valid(item)]
        if len(live) > 1 and len(valid) == 1 and params.get('replace_invalid'):
            # a replacement whose old key was left unrevoked (the run stopped in between): the valid one is it
            return valid[0]
        if len(live) > 1:
            raise TaskError("name '%s' matches %d setup keys that are not revoked (ids: %s); give the id to choose one"
                            % (params.get('name'), len(live), ', '.join(sorted(ref_id(i) for i in live))))
        chosen = live[0] if live else (found[0] if found else None)
        if absent and chosen is not None:
            # state=absent removes every key of the name in one run: the revoked ones too (replace_invalid leaves
            # them), deleted where the server can, else (v0.27) with their auto groups cleared
            self._others = [item for item in named if ref_id(item) != ref_id(chosen)]
        return chosen

    def may_replace(self, item):
        return not item.get('revoked')

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

    def finish(self, obj, result):
        # group references by name, in the task's final result only (a task that fails reads no group list for it)
        return named_result(self, result)

    # -- lifecycle -------------------------------------------------------------------------------
    def prepare_update(self, obj, desired):
        if desired.get('name') is not None and desired['name'] != obj.get('name') and self.held_by_current_server(obj):
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
        if desired.get('type') == 'one-off':
            desired = dict(desired, usage_limit=1)  # what the server holds for a one-off key, whatever is sent
        if self._revoked_aside and desired.get('type') is None:
            raise TaskError("option type is required to create the setup key %s: the only setup keys of that name are "
                            "revoked (ids: %s), so a new key is created; give the id (and revoked) to change a revoked "
                            "key instead" % (self.identity_text(), ', '.join(sorted(ref_id(i) for i in self._revoked_aside))))
        return super().new_state(desired)

    def ensure_absent(self, obj):
        result = super().ensure_absent(obj)
        removed = []
        for other in self._others:
            done = super().ensure_absent(other)  # deleted, or (v0.27) its auto groups cleared if it has any
            if done.get('changed'):
                removed.append(ref_id(other))
                if not result.get('changed'):
                    result.update(changed=True, diff=done.get('diff'))
                    result.setdefault(self.result_key, done.get(self.result_key))
        if removed and isinstance(result.get('diff'), dict):
            ids = sorted([ref_id(obj)] + removed) if obj is not None else sorted(removed)
            header = "setup keys '%s' (ids %s)" % (self.params.get('name'), ', '.join(ids))
            result['diff'] = dict(result['diff'], before_header=header, after_header=header)
        return result

    def find_again(self):
        self._read_back = True
        return super().find_again()

    def post_once(self, body):
        self._read_back = False
        created = super().post_once(body)
        value = created.get(SETUP_KEY_SECRET) if isinstance(created, dict) else None
        self._value_lost = isinstance(created, dict) and not usable_value(value, self._read_back)
        if self._value_lost:
            # a create answer without a whole value, or found by a read after a lost, unreadable or empty create answer
            # on a server that masks values in reads: the result shows no value rather than the mask
            self.warn(lost_value_message("the setup key %s was created (id %s)" % (self.shown(body.get('name'), "'%s'"), ref_id(created)),
                                         'revoke it (state: absent) and create a new one to get a value', self._read_back,
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

    retired_as = 'revoked'
    retired = dict(revoked=True, auto_groups=[])

    def held_by_current_server(self, obj):
        """Whether the key is on a today's server (v0.77): their key ids are not numbers, v0.27's are, so the key's own
        answer tells, without a request."""
        current = not str(ref_id(obj)).isdigit()
        self.resolver.server.learn(current)
        return current

    def can_delete(self, obj):
        """Whether the server deletes setup keys: today's servers do."""
        return self.held_by_current_server(obj)

    def replacement_wanted(self, obj):
        return bool(self.params.get('replace_invalid')) and not setup_key_valid(obj)

    def replace(self, old):
        """A fresh key under the same name; the old one is revoked unless it already is."""
        current = self.from_server(old)
        state = {name: value for name, value in current.items() if value is not None}
        state.update(revoked=False, expires_in=created_lifetime(old))  # the old key's lifetime, unless told
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
