#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: user
short_description: Manage users and service users, and resend invitations
version_added: 1.0.0
description:
  - Creates service users, invites regular users by email, changes their role, auto groups and
    blocked state, resends invitations and deletes users.
  - A user is found by O(id) when given; otherwise a regular user by O(email) and a service user by
    O(name) (with O(is_service_user=true)). A name shared by several service users fails and lists
    their ids.
  - Options left unset keep the server's value. In particular, a task without O(role) never changes
    the user's role, and a task without O(auto_groups) never changes its groups.
  - The API cannot rename a user or change its email; a different O(name) or O(email) for a user found
    by O(id) is reported as a warning and not changed.
options:
  id:
    description:
      - Id of the user (a UUID for service users, the identity provider's subject for regular users).
    type: str
  email:
    description:
      - Email of a regular user. Finds the user (case does not matter) and is the invitation's target
        when the user does not exist yet.
      - Service users have no email.
    type: str
  name:
    description:
      - Name of the user.
      - Finds a service user (together with O(is_service_user=true)) and is required to create one.
      - Required to invite a regular user; the identity provider keeps it afterwards.
    type: str
  is_service_user:
    description:
      - V(true) for a service user (a non-human user that acts through tokens), V(false) for a regular
        user who logs in through the identity provider.
      - Required to create a user without O(email). Cannot change after creation.
    type: bool
  role:
    description:
      - Role of the user. Required to create a user; left unset, an existing user's role is kept.
      - V(owner) cannot be given to a new user. Giving V(owner) to an existing user transfers the
        ownership when the caller is the owner (the caller becomes V(admin)).
      - Servers refuse, whatever the caller's permissions, a change of the caller's own role (the owner's too) and
        V(owner) for a service user; the module refuses both before any write, naming the rule.
      - V(network_admin) (manages networks, routes and DNS), V(auditor) (reads everything, changes nothing) and
        V(billing_admin) are roles of servers from v0.77 on; on an older server a task that gives one of them fails
        before any change.
    type: str
    choices: [owner, admin, user, network_admin, auditor, billing_admin]
  auto_groups:
    description:
      - Groups (names or ids) that peers registered by this user join automatically. Order does not
        matter; V([]) removes every group. Left unset, the current groups are kept.
    type: list
    elements: str
  is_blocked:
    description:
      - V(true) blocks the user (its peers must log in again and its tokens stop working),
        V(false) unblocks it. Left unset, the current state is kept.
    type: bool
  resend_invitation:
    description:
      - Resend the invitation email of an existing regular user whose status is C(invited).
      - The task reports a change only when an invitation is sent, so never in check mode and never for
        active or blocked users or service users. A user created by the same task already got one.
    type: bool
    default: false
  approval:
    description:
      - Decides on a user who waits for approval (C(pending_approval); users who join by domain matching wait when
        the account's O(nms.overlay.account_settings#module:user_approval_required) is set).
      - V(approved) lets the user in (it is unblocked), after any other change the task makes. A user who waits
        for nothing (approved before, or never pending) is left as it is (no change), so the task can run again.
      - V(rejected), with O(state=absent), turns the user away, and the server deletes it. It deletes only a user who
        waits for approval; for any other user the task fails before any change. A user who is gone already is no
        change.
      - Servers have it from v0.56.0 on; on an older server a task that sets it fails before any change.
    type: str
    choices: [approved, rejected]
  state:
    description:
      - V(present) creates or updates the user; V(absent) deletes it.
      - Deleting a regular user also deletes the peers it registered. The owner and the calling user
        cannot be deleted; the task fails before any write.
    type: str
    choices: [present, absent]
    default: present
notes:
  - Inviting regular users needs an identity provider on the server; without one the server refuses
    the invitation (HTTP 412).
  - Service users may share a name, so concurrent creates of one converge as described below; the server refuses
    a second user of an email (409), which the module reconciles with the existing user.
seealso:
  - module: nms.overlay.user_info
  - module: nms.overlay.token
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource, nms.overlay.module.converge]
'''

EXAMPLES = r'''
- name: Create a service user for automation
  nms.overlay.user:
    name: ci-bot
    is_service_user: true
    role: admin

- name: Invite a regular user whose peers join the developers group
  nms.overlay.user:
    email: alice@example.com
    name: Alice
    role: user
    auto_groups:
      - developers

- name: Block a user, keeping its role and groups
  nms.overlay.user:
    email: alice@example.com
    is_blocked: true

- name: Resend the invitation if Alice has not accepted it yet
  nms.overlay.user:
    email: alice@example.com
    resend_invitation: true

- name: Let in a user who joined by domain matching and waits for approval (v0.77 servers)
  nms.overlay.user:
    email: bob@example.com
    approval: approved
    auto_groups:
      - developers

- name: Turn away a user who waits for approval; an approved user would make the task fail instead
  nms.overlay.user:
    email: mallory@example.com
    approval: rejected
    state: absent

- name: Remove the service user
  nms.overlay.user:
    name: ci-bot
    is_service_user: true
    state: absent
'''

RETURN = r'''
user:
  description:
    - The user after the change. In check mode, the user as it would be.
    - Empty after O(state=absent) when there was nothing to delete; otherwise the deleted user.
  returned: always
  type: dict
  contains:
    id:
      description:
        - Id of the user.
        - In check mode, a user that would be created has the placeholder C((new user <email>)) for an
          invited user and C((new user <name>)) for a service user.
      type: str
      sample: 0b5e4c4e-8c3f-4f8f-9f5b-1f0f4b8c2a11
    email:
      description: Email of the user (empty for service users).
      type: str
      sample: alice@example.com
    name:
      description: Name of the user.
      type: str
      sample: Alice
    role:
      description: Role (V(owner), V(admin) or V(user); from v0.77 on also V(network_admin), V(auditor) or V(billing_admin)).
      type: str
      sample: user
    status:
      description: V(active), V(invited) or V(blocked).
      type: str
      sample: invited
    auto_groups:
      description: Ids of the groups that peers registered by the user join; never null.
      type: list
      elements: str
      sample: [ch8i4ug6lnn4g9hqv7m0]
    is_service_user:
      description: Whether the user is a service user.
      type: bool
      sample: false
    is_blocked:
      description: Whether the user is blocked.
      type: bool
      sample: false
    is_current:
      description: Whether the user is the one the module acts as.
      type: bool
      sample: false
    issued:
      description: How the user was made (V(api) or V(integration)).
      type: str
      sample: api
    idp_id:
      description: The user's id in the server's identity provider (V(local) for the embedded one); today's servers only.
      type: str
      returned: when the server has it
      sample: local
    password:
      description:
        - The password a server with the embedded identity provider generated for a regular user it created, in the
          result of the task that created the user only; that result is then hidden from Ansible's output (register
          it to use the value).
      type: str
      returned: when the task created a regular user on such a server
      sample: Gen3rated-Pa55
    last_login:
      description: Time of the last login.
      type: str
      sample: "2024-05-01T10:00:00Z"
    permissions:
      description:
        - Permissions of the user. C(dashboard_view) is V(full) for admins and owners; for role V(user) it
          is V(blocked) when the account's C(regular_users_view_blocked) is set, else V(limited).
        - Not predicted in check mode for a user that would be created.
      type: dict
      sample: {dashboard_view: limited}
    pending_approval:
      description:
        - Whether the user waits for an administrator's approval (users who joined by domain matching); see
          O(approval).
      returned: by servers that have it (v0.77)
      type: bool
      sample: false
invitation_sent:
  description: Whether this task resent an invitation (O(resend_invitation)).
  returned: always
  type: bool
  sample: false
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.user import UserModule


if __name__ == '__main__':
    UserModule.main()
