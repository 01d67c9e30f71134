# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Personal access tokens of users (the token module and token_info)."""

from __future__ import annotations

import datetime

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resource import Field, SecretOnCreate, lost_value_message
from ansible_collections.nms.overlay.plugins.module_utils._time import iso_time, now, parse_time


def _token_model():
    from ansible_collections.nms.overlay.plugins.module_utils._models_identity import TokenOptions
    return TokenOptions


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


def tokens_path(module, option='user'):
    """/users/{id}/tokens for the user named by ``option`` (an id, email or service user name)."""
    user_id = module.resolver.to_id('users', module.params[option], option)
    return '/users/%s/tokens' % user_id


class TokenModule(SecretOnCreate):
    """A personal access token of a user: created, rotated or deleted, never edited."""

    what = 'token'
    result_key = 'token'
    secret_at = ('result', 'plain_token')
    secret_section = 'tokens'
    required_on_create = ('name', 'expires_in')
    model = staticmethod(_token_model)
    fields = dict(
        name=Field(),
        expires_in=Field('int'),
    )
    options = dict(
        user=dict(type='str', required=True),
        rotate=dict(type='bool', default=False),
    )
    required_one_of = (('id', 'name'),)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._plain = None
        self._read_back = None   # why the created token had to be read back (the answer was lost or empty)
        self._absent = False     # the last read after a lost answer found no token

    @classmethod
    def list_path(cls, task):
        """The tokens of the task's user (the resolver lists the users once per task)."""
        return tokens_path(task)

    @property
    def path(self):
        return self.list_path(self)

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

    def finish(self, obj, result):
        if self._plain is not None:
            result['plain_token'] = self._plain
            self._plain = None
        return result

    def secret_name(self, obj):
        """Kept as <user>/<token name> in created_secrets_file: token names are per user."""
        return '%s/%s' % (self.params.get('user'), obj.get('name'))

    def prepare_update(self, obj, desired):
        """A token is never edited: a different name or lifetime is a warning (rotate replaces the token)."""
        current = self.from_server(obj)
        for name in ('name', 'expires_in'):
            if name in desired and current.get(name) is not None and current[name] != desired[name]:
                self.warn('%s cannot change after the token is created: the existing value %s is kept, not %s; '
                          'use rotate: true to replace the token' % (name, self.shown(current[name]), self.shown(desired[name])))
        return {}

    def replacement_wanted(self, obj):
        return bool(self.params.get('rotate'))

    def replace(self, old):
        """A new token with the same name (and lifetime unless expires_in says otherwise), then the old one goes."""
        current = self.from_server(old)
        wanted = {name: value for name, value in current.items() if value is not None}
        wanted.update(self.desired())
        self.replacing = old
        try:
            result = self.create(wanted)
        finally:
            self.replacing = None
        old_id = ref_id(old)
        result['replaced_id'] = old_id
        result['diff'] = dict(before=current, after=result['diff']['after'],
                              before_header="token '%s' (id %s), deleted by this task" % (old.get('name'), old_id),
                              after_header="new token '%s'" % wanted.get('name'))
        if not self.module.check_mode:
            self.delete(old)
        return result
