# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Personal access tokens of users (the token module and token_info)."""

from __future__ import annotations

import datetime

from ansible_collections.nms.overlay.plugins.module_utils._client import OBJECT, TEXT
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._strategy_secret import SecretOnCreate
from ansible_collections.nms.overlay.plugins.module_utils._time import iso_time, now, parse_time
from ansible_collections.nms.overlay.plugins.module_utils._resources.user import UserModule


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
    return '%s/%s/tokens' % (UserModule.path, user_id)


def token_value(value, read_back):
    """The value of a created token: in the create's answer (see plain_token_value), never in a read."""
    return None if read_back else plain_token_value(value)


class TokenModule(SecretOnCreate):
    """A personal access token of a user: created, rotated (a new one, then the old one deleted) or deleted, never
    edited. A create whose value is lost fails, reporting the change: a token without its value is of no use."""

    what = 'token'
    # under the task's user (tokens_path); a token is never edited, so never PUT
    api_operations = ('GET /api/users/{userId}/tokens', 'POST /api/users/{userId}/tokens', 'GET /api/users/{userId}/tokens/{tokenId}',
                      'DELETE /api/users/{userId}/tokens/{tokenId}')
    secret_at = ('result', 'plain_token')
    secret_section = 'tokens'
    # a create answers {plain_token, personal_access_token: the token}
    answers = dict(id=None, created_by=TEXT, created_at=TEXT, expiration_date=TEXT, last_used=TEXT, personal_access_token=OBJECT)
    answer_member = 'personal_access_token'
    secret_value = staticmethod(token_value)
    on_lost_value = 'fail'
    value_hint = 'run the task again with rotate: true to get a value (that replaces the token)'
    required_on_create = ('name', 'expires_in')
    model = 'identity.TokenOptions'
    fields = dict(
        name=Field(),
        expires_in=Field('int'),
    )
    options = dict(
        user=dict(type='str', required=True),
        rotate=dict(type='bool', default=False),
    )
    required_one_of = (('id', 'name'),)

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
