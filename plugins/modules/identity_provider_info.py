#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: identity_provider_info
short_description: List the identity providers of a self-hosted server
version_added: 1.0.0
description:
  - Returns all identity providers, or the one with a given O(id) or O(name). Client secrets are never answered.
seealso:
  - module: nms.overlay.identity_provider
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.by_id_or_name, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: List every identity provider
  nms.overlay.identity_provider_info:
  register: providers

- name: Show their issuers
  ansible.builtin.debug:
    msg: "{{ providers.identity_providers | map(attribute='issuer') | list }}"
'''

RETURN = r'''
identity_providers:
  description: The identity providers found, also when filtered to one. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: Id of the identity provider.
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

from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.identity_provider import IdentityProviderModule


class IdentityProviderInfoModule(InfoModule):
    resource = IdentityProviderModule


if __name__ == '__main__':
    IdentityProviderInfoModule.main()
