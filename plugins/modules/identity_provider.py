#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: identity_provider
short_description: Manage the identity providers users sign in with (self-hosted servers)
version_added: 1.0.0
description:
  - Creates, updates and deletes an identity provider of a self-hosted server (C(/api/identity-providers)), an
    OpenID Connect provider (generic OIDC, Zitadel, Entra, Google, Okta, PocketID, Microsoft or ADFS) that users
    sign in with beside the server's embedded identity provider.
  - An identity provider is found by O(id) when given, otherwise by O(name). A name shared by several providers
    fails and lists their ids.
  - Options left unset keep the server's value.
  - The server checks the provider before it accepts it, on create and on update. It reads
    C(<issuer>/.well-known/openid-configuration), so the server (not the machine Ansible runs on) must reach the
    issuer, and the issuer the document names must be O(issuer) exactly (a trailing C(/) counts). Otherwise it
    answers C(422 identity provider issuer is unreachable) or C(422 identity provider issuer does not match), and
    the task fails with that message, the method and the full URL.
  - The client secret is write-only, see O(client_secret) and O(update_secret).
notes:
  - A server started without its embedded identity provider lists no identity providers and cannot reach an issuer
    of its own; see the collection's guide C(docs/identity.md).
options:
  id:
    description:
      - Id of the identity provider. Needed to rename one; otherwise O(name) finds it.
    type: str
  name:
    description:
      - Name of the identity provider, shown on the sign-in page. Servers do not keep these names unique.
      - Required to create one.
    type: str
  type:
    description:
      - The kind of provider. Required to create one.
      - Fixed after creation, as servers refuse to change it. A different value for an existing provider is a warning
        and changes nothing; delete the provider and create it again to change it.
    type: str
    choices: [oidc, zitadel, entra, google, okta, pocketid, microsoft, adfs]
  issuer:
    description:
      - The OpenID Connect issuer URL, such as V(https://accounts.google.com). Required to create one.
      - A full http(s) URL (a scheme and a host, no blank), checked before any request.
      - Compared as written. The server refuses an issuer that differs from the one the provider's discovery document
        names, even by a trailing C(/).
    type: str
  client_id:
    description:
      - The OAuth2 client id the server signs users in with. Required to create one.
    type: str
  client_secret:
    description:
      - The OAuth2 client secret. Sent when the provider is created.
      - "Write-only: servers never answer it, so it cannot be compared. On an existing provider it is sent only with
        O(update_secret=always); otherwise it is not sent and the server keeps the secret it holds (a request
        without one, or with an empty one, keeps it)."
      - "Never shown in the result, a diff or a warning (the diff says C((sent: not shown)) where it is sent)."
    type: str
  update_secret:
    description:
      - V(on_create) sends O(client_secret) only when the provider is created, so that a re-run changes nothing.
      - V(always) sends it on every run that finds the provider, which then reports C(changed) every time (the
        server cannot tell whether it differs). Use it once to rotate the secret, or in a play that rotates it.
    type: str
    choices: [always, on_create]
    default: on_create
  state:
    description:
      - V(present) creates or updates the identity provider; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
seealso:
  - module: nms.overlay.identity_provider_info
  - module: nms.overlay.user_invite
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource, nms.overlay.module.converge, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: Let users sign in with the company's OIDC provider (connection from NMS_API_URL and NMS_API_TOKEN)
  nms.overlay.identity_provider:
    name: Company SSO
    type: oidc
    issuer: https://sso.example.com
    client_id: netbird
    client_secret: "{{ vault_sso_client_secret }}"

- name: Rotate the client secret (reports changed on every run with update_secret=always)
  nms.overlay.identity_provider:
    name: Company SSO
    client_secret: "{{ vault_sso_new_client_secret }}"
    update_secret: always

- name: Remove the provider
  nms.overlay.identity_provider:
    name: Company SSO
    state: absent
'''

RETURN = r'''
identity_provider:
  description:
    - The identity provider after the change. In check mode, the provider as it would be. Never holds the client
      secret.
    - Empty after O(state=absent) when there was nothing to delete; otherwise the deleted provider.
  returned: always
  type: dict
  contains:
    id:
      description:
        - Id of the identity provider.
        - In check mode, a provider that would be created has the placeholder C((new identity provider <name>)).
      type: str
      sample: ch8i4ug6lnn4g9hqv7l0
    name:
      description: Name of the identity provider.
      type: str
      sample: Company SSO
    type:
      description: The kind of provider.
      type: str
      sample: oidc
    issuer:
      description: The OpenID Connect issuer URL.
      type: str
      sample: https://sso.example.com
    client_id:
      description: The OAuth2 client id.
      type: str
      sample: netbird
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.identity_provider import IdentityProviderModule


if __name__ == '__main__':
    IdentityProviderModule.main()
