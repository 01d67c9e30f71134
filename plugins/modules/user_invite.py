#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: user_invite
short_description: Manage invite links for new users (self-hosted servers with the embedded identity provider)
version_added: 1.0.0
description:
  - Creates an invite link for a new user (C(/api/users/invites)), makes a new link for it on request
    (O(regenerate)), and deletes it. The invitee opens the link, chooses a password and becomes a user of the
    account with the invite's O(role) and O(auto_groups).
  - An invite is found by O(id) when given, otherwise by O(email) (in any letter case). Servers keep one invite per
    email.
  - The link's token is returned only by the task that creates the invite or makes a new link, as
    RV(user_invite.invite_token), and that result is hidden from Ansible's output (screen, log, AWX job events) while
    C(register) gets it whole (see O(return_created_secrets)). No list, later task, diff or warning shows it. Hand
    it to the invitee as C(<dashboard URL>/invite?token=<invite_token>) or as your dashboard words its invite links.
  - Servers cannot change an invite. A different O(name), O(role) or O(auto_groups) for an existing invite is a
    warning and changes nothing; delete the invite (O(state=absent)) and create it again to change them.
  - Once the invitee has accepted, the invite is gone and a user of that email exists. A task with O(state=present)
    then changes nothing, returns an empty RV(user_invite) and that user as RV(user) (a re-run of an onboarding play
    never fails); the user is managed with M(nms.overlay.user) from then on.
  - Only the operator's side of an invite is here. Reading an invite by its token and accepting it
    (C(GET /api/users/invites/{token}), C(POST /api/users/invites/{token}/accept)) is what the invitee does with the
    link, without a token of the account; no module sends them.
  - Servers answer C(412 invite links are only available with embedded identity provider) when they run without
    their embedded identity provider; the task then fails with that message, the method and the full URL. See the
    collection's guide C(docs/identity.md) for what the server needs.
options:
  id:
    description:
      - Id of the invite. Otherwise O(email) finds it.
    type: str
  email:
    description:
      - Email of the person invited. Required to create an invite. Refused before any request unless it looks like an
        email (a V(@) with text on both sides; servers invite any text).
      - An email that already belongs to a user of the account is not invited again (see the description).
    type: str
  name:
    description:
      - Full name of the person invited. Required to create an invite; fixed afterwards.
    type: str
  role:
    description:
      - The role the user will have. Required to create an invite; fixed afterwards.
      - V(owner) cannot be invited; V(network_admin), V(auditor) and V(billing_admin) are roles of today's servers.
    type: str
    choices: [admin, user, network_admin, auditor, billing_admin]
  auto_groups:
    description:
      - Groups (names or ids) the user's peers will join. V([]) for a new invite when unset; fixed afterwards.
      - An unknown group name fails before any change, naming the closest existing group names.
    type: list
    elements: str
  expires_in:
    description:
      - How long the link is valid, in seconds, at least V(3600) (one hour). Servers give 72 hours when unset.
      - Used when the invite is created and when O(regenerate) makes a new link.
    type: int
  regenerate:
    description:
      - Make a new link for an existing invite. The old link stops working, the new token is returned as for a new
        invite, and the link is valid for O(expires_in) again. The task then reports C(changed) on every run.
      - Ignored for an invite this task creates (its link is new) and with O(state=absent).
      - An expired invite is kept as it is without it, with a warning.
    type: bool
    default: false
  state:
    description:
      - V(present) creates the invite when there is none (and no user of that email); V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
notes:
  - With O(created_secrets_file), the link's token is kept under C(user_invites.<email>), with the invite's id.
seealso:
  - module: nms.overlay.user_invite_info
  - module: nms.overlay.user
  - module: nms.overlay.identity_provider
extends_documentation_fragment:
  - nms.overlay.module
  - nms.overlay.module.resource
  - nms.overlay.module.current_servers
  - nms.overlay.module.created_secrets
'''

EXAMPLES = r'''
- name: Invite Alice as an admin whose peers join the developers group
  nms.overlay.user_invite:
    email: alice@example.com
    name: Alice Example
    role: admin
    auto_groups:
      - developers
    created_secrets_file: created-secrets.json  # only you can read it; in the directory ansible-playbook runs in
  register: alice_invite  # alice_invite.user_invite.invite_token: hand it to Alice (with no_log)

- name: Make a new link for Bob, valid for a week (the old link stops working)
  nms.overlay.user_invite:
    email: bob@example.com
    regenerate: true
    expires_in: 604800
  register: bob_invite

- name: Withdraw the invite for Carol
  nms.overlay.user_invite:
    email: carol@example.com
    state: absent
'''

RETURN = r'''
user_invite:
  description:
    - The invite after the change. In check mode, the invite as it would be.
    - Empty after O(state=absent) when there was no invite, and when the invitee has become a user (see RV(user)).
  returned: always
  type: dict
  contains:
    id:
      description:
        - Id of the invite.
        - In check mode, an invite that would be created has the placeholder C((new user invite <email>)).
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
      description: When the invite was created (in check mode, absent for a new invite).
      type: str
      sample: "2026-01-22T10:00:00Z"
    expired:
      description: Whether the link has expired.
      type: bool
      sample: false
    invite_token:
      description:
        - The token of the invite link.
        - Only in the result of the task that created the invite or made a new link (O(regenerate)), unless
          O(return_created_secrets=false). That result is hidden from Ansible's output; C(register) gets it.
      type: str
      returned: when the task created the invite or a new link
      sample: nbi_Xk5Lz9mP2vQwRtYu1aN3bC4dE5fGh0ABC123
user:
  description:
    - The user of O(email), when no invite is left because that user exists (the invite was accepted, or the user
      was created otherwise). Nothing is changed then.
  returned: when O(state=present) finds a user of that email and no invite
  type: dict
  contains:
    id:
      description: Id of the user.
      type: str
      sample: CiRmZWEwZjcwMC00ZjVkLTRjMDQtYjI2Zi00N2M3NjhmMTE1ZTUSBWxvY2Fs
    email:
      description: Email of the user.
      type: str
      sample: alice@example.com
    name:
      description: Name of the user.
      type: str
      sample: Alice Example
    role:
      description: Role of the user.
      type: str
      sample: admin
    status:
      description: Status of the user (V(active), V(invited) or V(blocked)).
      type: str
      sample: active
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.user_invite import UserInviteModule


if __name__ == '__main__':
    UserInviteModule.main()
