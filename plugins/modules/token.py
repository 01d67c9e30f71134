#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: token
short_description: Manage personal access tokens of users
version_added: 1.0.0
description:
  - Creates, rotates and deletes personal access tokens of a user or a service user.
  - A token is found by O(id) when given, otherwise by O(name) among the tokens of O(user). A name
    shared by several tokens of the user fails and lists their ids.
  - The token value is returned only by the task that creates it, as RV(plain_token), and that result is hidden
    from Ansible's output (screen, log, AWX job events) while C(register) gets it whole (see
    O(return_created_secrets)). No later task shows it. Register the result to use the value, or write it to
    O(created_secrets_file).
  - Tokens cannot be edited. A different O(expires_in) for an existing token (or a different O(name)
    for a token found by O(id)) is reported as a warning and changes nothing; O(rotate=true) replaces
    the token explicitly.
  - Users manage their own tokens; admins also manage the tokens of service users.
  - When the connection is lost after the creation request was sent, or its success answer cannot be read
    (cut off in transfer), the value (which only that answer carries) is lost. The task then fails saying so, with V(changed=true) and RV(token) when a read
    shows the token was created (or saying that it may exist when that read fails too); run it again
    with O(rotate=true) to get a value.
options:
  user:
    description:
      - The user owning the token, as a user id, an email (regular users) or a name (service users).
    type: str
    required: true
  id:
    description:
      - Id of the token.
    type: str
  name:
    description:
      - Name of the token. Required to create a token.
    type: str
  expires_in:
    description:
      - Lifetime of a new token in days, from 1 to 365. Required to create a token.
    type: int
  rotate:
    description:
      - Replace an existing token with a new one of the same name (the new token is created first,
        then the old one is deleted). The result holds the new value in RV(plain_token).
      - Every run with V(true) rotates again, so use it on demand or with a condition.
      - A token that does not exist yet is simply created.
    type: bool
    default: false
  state:
    description:
      - V(present) creates the token when it does not exist; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
seealso:
  - module: nms.overlay.token_info
  - module: nms.overlay.user
extends_documentation_fragment:
  - nms.overlay.module
  - nms.overlay.module.resource
  - nms.overlay.module.converge
  - nms.overlay.module.created_secrets
'''

EXAMPLES = r'''
- name: Create a token for the ci-bot service user, its value also kept in a file only you can read
  nms.overlay.token:
    user: ci-bot
    name: pipeline
    expires_in: 90
    created_secrets_file: created-secrets.json  # in the directory ansible-playbook runs in
  register: ci_token

- name: Use the new value in a later task (api_token is never shown; another module would need no_log)
  nms.overlay.user_info:
    api_token: "{{ ci_token.plain_token }}"
    service_user: true
  when: ci_token.plain_token is defined

- name: Rotate the token
  nms.overlay.token:
    user: ci-bot
    name: pipeline
    expires_in: 90
    rotate: true
  register: rotated

- name: Delete the token
  nms.overlay.token:
    user: ci-bot
    name: pipeline
    state: absent
'''

RETURN = r'''
token:
  description:
    - The token record (never its value). In check mode, the token as it would be.
    - Empty after O(state=absent) when there was nothing to delete; otherwise the deleted token.
  returned: always
  type: dict
  contains:
    id:
      description:
        - Id of the token.
        - In check mode, a token that would be created has the placeholder C((new token <name>)).
      type: str
      sample: ch8i54g6lnn4g9hqv7n0
    name:
      description: Name of the token.
      type: str
      sample: pipeline
    expiration_date:
      description: When the token expires (in check mode, predicted from O(expires_in) for a token that would be created).
      type: str
      sample: "2024-08-01T10:00:00Z"
    created_by:
      description: Id of the user who created the token (not predicted in check mode).
      type: str
      sample: 0b5e4c4e-8c3f-4f8f-9f5b-1f0f4b8c2a11
    created_at:
      description: When the token was created.
      type: str
      sample: "2024-05-03T10:00:00Z"
    last_used:
      description: When the token was last used (absent or zero time when never used).
      type: str
      sample: "0001-01-01T00:00:00Z"
plain_token:
  description:
    - "The token value, to send as C(Authorization: Token <value>)."
    - Only in the result of the task that created the token (including a rotation), unless
      O(return_created_secrets=false). That result is hidden from Ansible's output; C(register) gets it.
  returned: when the task created the token
  type: str
  sample: nbp_9999EUDNdkeusjentDLSJEn1902u84390W6W
replaced_id:
  description: Id of the token that O(rotate) deleted.
  returned: when a token was rotated
  type: str
  sample: ch8i54g6lnn4g9hqv7m0
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.token import TokenModule


if __name__ == '__main__':
    TokenModule.main()
