#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: user_invite_info
short_description: List the pending invite links for new users
version_added: 1.0.0
description:
  - Returns every pending invite, or the one with a given O(id) or O(email). Accepted invites are no longer listed
    (their invitee is a user then, see M(nms.overlay.user_info)).
  - Never returns an invite's token, which servers show only to the task that makes it (M(nms.overlay.user_invite)).
  - Servers without the embedded identity provider answer C(412 invite links are only available with embedded
    identity provider); the task then fails with that message.
options:
  id:
    description:
      - Return only the invite with this id. An unknown id returns an empty list.
      - Mutually exclusive with O(email).
    type: str
  email:
    description:
      - Return only the invite for this email (in any letter case).
      - Mutually exclusive with O(id).
    type: str
seealso:
  - module: nms.overlay.user_invite
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: List the pending invites
  nms.overlay.user_invite_info:
  register: invites

- name: Name the invites whose link has expired
  ansible.builtin.debug:
    msg: "{{ invites.user_invites | selectattr('expired') | map(attribute='email') | list }}"
'''

RETURN = r'''
user_invites:
  description: The invites found, also when filtered to one. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: Id of the invite.
      type: str
      sample: d5p7eedra0h0lt6f59hg
    email:
      description: Email of the person invited.
      type: str
      sample: alice@example.com
    name:
      description: Full name of the person invited.
      type: str
      sample: Alice Example
    role:
      description: The role the user will have.
      type: str
      sample: admin
    auto_groups:
      description: Ids of the groups the user's peers will join.
      type: list
      elements: str
      sample: [ch8i4ug6lnn4g9hqv7m0]
    expires_at:
      description: When the link stops working.
      type: str
      sample: "2026-01-25T10:00:00Z"
    created_at:
      description: When the invite was created.
      type: str
      sample: "2026-01-22T10:00:00Z"
    expired:
      description: Whether the link has expired.
      type: bool
      sample: false
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._compare import lower
from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.user_invite import UserInviteModule


class UserInviteInfoModule(InfoModule):
    resource = UserInviteModule

    def keep(self, item):
        if self.params.get('id') and item.get('id') != self.params['id']:
            return False
        return self.params.get('email') is None or lower(item.get('email')) == lower(self.params['email'])


if __name__ == '__main__':
    UserInviteInfoModule.main()
