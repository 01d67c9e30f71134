#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: reverse_proxy_token_info
short_description: List the proxy tokens of the account
version_added: 1.0.0
description:
  - Returns all proxy tokens (revoked ones too), or those with a given O(id) or O(name). Never their values.
seealso:
  - module: nms.overlay.reverse_proxy_token
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.by_id_or_name, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: List the proxy tokens
  nms.overlay.reverse_proxy_token_info:
  register: proxy_tokens

- name: Show the ones in use
  ansible.builtin.debug:
    msg: "{{ proxy_tokens.reverse_proxy_tokens | rejectattr('revoked') | map(attribute='name') | list }}"
'''

RETURN = r'''
reverse_proxy_tokens:
  description: The tokens found, also when filtered to one. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: Id of the token.
      type: str
      sample: d1gk3ub6lnn4g9hqv7n0
    name:
      description: Name of the token.
      type: str
      sample: office-proxy
    created_at:
      description: When the token was created.
      type: str
      sample: "2026-05-03T10:00:00Z"
    expires_at:
      description: When the token expires; absent when it never does.
      type: str
      sample: "2026-06-03T10:00:00Z"
    last_used:
      description: When a proxy last used the token; absent when never.
      type: str
      sample: "2026-05-04T08:00:00Z"
    revoked:
      description: Whether the token is revoked.
      type: bool
      sample: false
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy_token import ReverseProxyTokenModule


class ReverseProxyTokenInfoModule(InfoModule):
    resource = ReverseProxyTokenModule
    plural = 'reverse_proxy_tokens'


if __name__ == '__main__':
    ReverseProxyTokenInfoModule.main()
