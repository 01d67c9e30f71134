#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: user_password
short_description: Change the password of the user the task acts as
version_added: 1.0.0
description:
  - Changes the password the user of O(api_token) logs in with on a self-hosted server's embedded identity provider
    (C(PUT /api/users/{id}/password)), from O(old_password) to O(password). The user is the token's own
    (C(GET /api/users/current)); servers let nobody change another user's password, the owner included
    (C(422 users can only change their own password)).
  - Write-only. Servers never show a password, and refuse a change to the same password before they check the old
    one, so nothing tells whether the password is O(password) already without changing it. A re-run after a
    successful change sends the change again, and the server refuses O(old_password) as no longer current;
    O(update_password) says what that means.
  - Check mode sends no write (one read, C(GET /api/users/current)) and reports a change, which it cannot verify.
  - Neither password is ever returned, shown in a diff or in a message.
options:
  password:
    description:
      - The new password.
      - Servers with the embedded identity provider take any length here (unlike the setup, which wants 8 to 72
        characters); choose one that the identity provider's login accepts.
    type: str
    required: true
  old_password:
    description:
      - The current password. Servers require it (C(422 old password is required) without it). Must differ from
        O(password).
    type: str
    required: true
  update_password:
    description:
      - V(once) changes the password while O(old_password) is the current one. When the server refuses O(old_password)
        as incorrect (a re-run after the change), the task reports no change, with a warning that says it could also
        mean a wrong O(old_password).
      - V(always) makes that refusal fail the task, for a play that must prove the change happened in this run.
    type: str
    choices: [once, always]
    default: once
notes:
  - "Needs a server with the embedded identity provider (C(412) otherwise), and a user it knows. A user the server
    had before the identity provider was on (no C(idp_id)) is refused with C(422 failed to update password: failed to
    get user: not found); service users have no password."
seealso:
  - module: nms.overlay.instance
  - module: nms.overlay.user
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: Rotate the owner's password after the setup (the token is the owner's)
  nms.overlay.user_password:
    old_password: "{{ vault_nms_owner_initial_password }}"
    password: "{{ vault_nms_owner_password }}"
'''

RETURN = r'''
user:
  description: The user whose password the task changed (or would change, or found changed already).
  returned: always
  type: dict
  contains:
    id:
      description: Id of the user.
      type: str
      sample: CiRkYzM4ZjlmNC01ODQxLTQ2MWQtYTFjNi1jNzQ0ZDkzNDcxZmMSBWxvY2Fs
    email:
      description: Email of the user.
      type: str
      sample: owner@example.com
    name:
      description: Name of the user.
      type: str
      sample: Owner
password_changed:
  description: Whether this task changed the password (in check mode, whether it would try).
  returned: always
  type: bool
  sample: true
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.user_password import UserPasswordModule


if __name__ == '__main__':
    UserPasswordModule.main()
