# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Identity providers of today's servers (the identity_provider module and identity_provider_info): the OIDC
providers users sign in with, beside the server's embedded one."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._errors import OptionsError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule

IDENTITY_PROVIDERS = 'identity providers'  # what a v0.27 server lacks (named when it refuses these modules)
PROVIDER_TYPES = ('oidc', 'zitadel', 'entra', 'google', 'okta', 'pocketid', 'microsoft', 'adfs')
SECRET = 'client_secret'
# the client secret is write-only: servers never answer it, so a diff can only say that one is sent
SECRET_BEFORE, SECRET_AFTER = '(write-only: not readable)', '(sent: not shown)'
ALWAYS, ON_CREATE = 'always', 'on_create'


def public_identity_provider(item):
    """An identity provider as returned to the user: never a client secret (a predicted object holds the one sent)."""
    if not isinstance(item, dict):
        return item
    return {key: value for key, value in item.items() if key != SECRET}


def masked_secret(diff):
    """A diff whose client secret, where it is sent, shows as sent, never as its value."""
    if not isinstance(diff, dict):
        return diff
    masked = dict(diff)
    for side, shown in (('before', SECRET_BEFORE), ('after', SECRET_AFTER)):
        values = masked.get(side)
        if isinstance(values, dict) and SECRET in values:
            masked[side] = dict(values, **{SECRET: shown})
    return masked


class IdentityProviderModule(ResourceModule):
    """An identity provider: type, name, issuer, client id, and the client secret servers never answer."""

    path = '/identity-providers'
    what = 'identity provider'
    # no other kind refers to identity providers: no resolver list (its own list is read once per task)
    section = 'identity_providers'
    cache_list = True
    requires = IDENTITY_PROVIDERS
    # every operation the modules call (the kind's CRUD: no other)
    api_operations = ('GET /api/identity-providers', 'POST /api/identity-providers', 'GET /api/identity-providers/{idpId}',
                      'PUT /api/identity-providers/{idpId}', 'DELETE /api/identity-providers/{idpId}')
    required_on_create = ('name', 'type', 'issuer', 'client_id')
    fields = dict(
        name=Field(),
        # servers refuse to change it (500 "connector type change not allowed"): a difference is a warning
        type=Field(dict(type='str', choices=list(PROVIDER_TYPES)), immutable=True),
        issuer=Field(),
        client_id=Field(),
        client_secret=Field(dict(type='str', no_log=True)),
    )
    options = dict(
        update_secret=dict(type='str', choices=[ALWAYS, ON_CREATE], default=ON_CREATE),
    )
    shape = staticmethod(public_identity_provider)
    required_one_of = (('id', 'name'),)

    def check_options(self):
        super().check_options()
        issuer = self.params.get('issuer')
        if issuer is not None and not issuer.startswith(('https://', 'http://')):
            raise OptionsError('option issuer: must be the URL of the OpenID Connect issuer (https://...), whose '
                               '/.well-known/openid-configuration the server reads')

    def from_server(self, obj):
        current = super().from_server(obj)
        del current[SECRET]  # never answered
        return current

    def prepare_update(self, obj, desired):
        """The secret cannot be compared: it is sent on create, and on an update only with update_secret=always
        (which then sends it on every run)."""
        if self.params.get('update_secret') != ALWAYS:
            desired.pop(SECRET, None)
        return desired

    def request_body(self, state, current_obj):
        # a secret left out of a PUT keeps the one the server holds (real v0.77.1), as does an empty one
        return {name: state[name] for name in self.fields if state.get(name) is not None}

    def finish(self, obj, result):
        if 'diff' in result:
            result['diff'] = masked_secret(result['diff'])
        return result
