# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Identity providers of today's servers (the identity_provider module and identity_provider_info): the OIDC
providers users sign in with, beside the server's embedded one."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule

IDENTITY_PROVIDERS = 'identity providers'  # what a v0.27 server lacks (named when it refuses these modules)
PROVIDER_TYPES = ('oidc', 'zitadel', 'entra', 'google', 'okta', 'pocketid', 'microsoft', 'adfs')


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
        # never answered: sent on create, on an update only with update_secret=always (the engine's write-only field)
        client_secret=Field(dict(type='str', no_log=True), write_only=True),
    )
    required_one_of = (('id', 'name'),)
    # the issuer a full http(s) URL (the server reads its /.well-known/openid-configuration)
    model = 'identity.IdentityProviderOptions'

    def request_body(self, state, current_obj):
        # a secret left out of a PUT keeps the one the server holds (real v0.77.1), as does an empty one
        return {name: state[name] for name in self.fields if state.get(name) is not None}
