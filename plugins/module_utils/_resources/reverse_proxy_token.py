# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Proxy tokens of today's servers (reverse_proxy_token and reverse_proxy_token_info): the account's tokens a
self-hosted NetBird proxy registers with. The plain token is shown once, in the answer to the create."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._client import FLAG, TEXT
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._strategy_secret import SecretOnCreate
from ansible_collections.nms.overlay.plugins.module_utils._time import parse_time
from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy import PROXY_TOKENS, ROOT

VALUE = 'plain_token'
LIFETIME_SLACK = 60  # seconds between a token's creation and its expiry's reckoning (expires_in is the request's)


def public_proxy_token(item):
    """A proxy token as returned to the user: never its plain value (a create's answer carries it)."""
    if not isinstance(item, dict):
        return item
    return {key: value for key, value in item.items() if key != VALUE}


def created_token_value(value, read_back):
    """The plain token of a create's answer; a read never carries it."""
    return None if read_back or not isinstance(value, str) or not value else value


def lifetime(token):
    """The seconds a token was created to last (0: it never expires), or None when its answer does not tell."""
    created, expires = parse_time(token.get('created_at'), strict=True), parse_time(token.get('expires_at'), strict=True)
    if created is None:
        return None
    if expires is None or expires.year < 2:
        return 0
    return int(round((expires - created).total_seconds()))


class ReverseProxyTokenModule(SecretOnCreate):
    """A proxy token: created (its value shown once), rotated (a new one, the old one revoked) or revoked; never
    edited. A create whose value is lost fails, reporting the change: a token without its value is of no use."""

    path = ROOT + '/proxy-tokens'
    what = 'reverse proxy token'
    section = None  # not described by network_state: a secret shown once (as personal access tokens), no desired state
    requires = PROXY_TOKENS
    # its list, create and revoke (no GET or PUT of one)
    api_operations = ('GET /api/reverse-proxies/proxy-tokens', 'POST /api/reverse-proxies/proxy-tokens',
                      'DELETE /api/reverse-proxies/proxy-tokens/{tokenId}')
    list_only = True
    cache_list = True
    model = 'proxies.ReverseProxyTokenOptions'  # a lifetime that is not negative (servers: 400)
    live = staticmethod(lambda item: not item.get('revoked'))  # a revoked token is kept in the list: it is gone
    deleted_stays = 'revoked'  # the server's delete revokes it (a second one answers 200 and changes nothing)
    secret_at = ('result', VALUE)
    secret_section = 'reverse_proxy_tokens'
    secret_value = staticmethod(created_token_value)
    on_lost_value = 'fail'
    value_hint = 'run the task again with rotate: true to get a value (that replaces the token)'
    # plain_token: a string here; a personal access token's create answers it as an object (spec) or a string
    answers = dict(id=None, created_at=TEXT, expires_at=TEXT, last_used=TEXT, revoked=FLAG, plain_token=None)
    fields = dict(  # never edited (see prepare_update)
        name=Field(immutable=True),
        expires_in=Field('int', immutable=True),
    )
    options = dict(rotate=dict(type='bool', default=False))
    shape = staticmethod(public_proxy_token)
    required_one_of = (('id', 'name'),)

    def from_server(self, obj):
        return {'name': obj.get('name'), 'expires_in': lifetime(obj)}

    def prepare_update(self, obj, desired):
        """A token is never edited: a different lifetime is a warning (rotate replaces the token)."""
        wanted, current = desired.get('expires_in'), lifetime(obj)
        if wanted is not None and current is not None and abs(current - wanted) > LIFETIME_SLACK:
            self.warn('expires_in cannot change after the reverse proxy token is created: it was created to last %s, not %s '
                      'seconds; use rotate: true to replace the token' % ('forever' if current == 0 else '%d seconds' % current, wanted))
        return {}

    def replacement_wanted(self, obj):
        return bool(self.params.get('rotate'))
