#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: token_info
short_description: List the personal access tokens of a user
version_added: 1.0.0
description:
  - Returns the token records of a user, all of them or the ones with a given O(id) or O(name).
  - Token values are never returned; the server keeps only their hashes.
  - Users read their own tokens; admins also read the tokens of service users.
options:
  user:
    description:
      - The user owning the tokens, as a user id, an email (regular users) or a name (service users).
    type: str
    required: true
seealso:
  - module: nms.overlay.token
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.by_id_or_name]
'''

EXAMPLES = r'''
- name: List the tokens of the owner
  nms.overlay.token_info:
    user: owner@example.com
  register: owner_tokens

- name: Show when each token expires
  ansible.builtin.debug:
    msg: "{{ owner_tokens.tokens | items2dict(key_name='name', value_name='expiration_date') }}"
'''

RETURN = r'''
tokens:
  description: The tokens found (their records, never their values). Empty when nothing matches.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: Id of the token.
      type: str
      sample: ch8i54g6lnn4g9hqv7n0
    name:
      description: Name of the token.
      type: str
      sample: pipeline
    expiration_date:
      description: When the token expires.
      type: str
      sample: "2024-08-01T10:00:00Z"
    created_by:
      description: Id of the user who created the token.
      type: str
      sample: 0b5e4c4e-8c3f-4f8f-9f5b-1f0f4b8c2a11
    created_at:
      description: When the token was created.
      type: str
      sample: "2024-05-03T10:00:00Z"
    last_used:
      description: When the token was last used (absent or zero time when never used).
      type: str
      sample: "2024-05-04T08:00:00Z"
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.token import TokenModule


class TokenInfoModule(InfoModule):
    resource = TokenModule
    api_operations = ('GET /api/users/{userId}/tokens', 'GET /api/users/{userId}/tokens/{tokenId}')  # under the user
    argument_spec = dict(
        user=dict(type='str', required=True),
        id=dict(type='str'),
        name=dict(type='str'),
    )


if __name__ == '__main__':
    TokenInfoModule.main()
