#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: user_info
short_description: List users and service users
version_added: 1.0.0
description:
  - Returns all users, or the users with a given O(id), O(email) or O(name), optionally only service
    users or only regular users.
  - Admins and service users see every user; a regular user sees only itself.
  - With O(current=true), returns the user the task acts as (the owner of O(api_token)), read with one request
    (C(GET /api/users/current)).
options:
  current:
    description:
      - Return only the user the task acts as, read on its own (no list of users is read).
      - Needs a server from v0.41.1 on; an older server refuses the task after one request (the version probe),
        before any other.
      - Cannot be combined with O(id), O(email), O(name) or O(service_user).
    type: bool
    default: false
    version_added: 1.0.0
  id:
    description:
      - Return only the user with this id. An unknown id returns an empty list.
    type: str
  email:
    description:
      - Return only the user with this email (case does not matter).
    type: str
  name:
    description:
      - Return only the users with this name.
    type: str
  service_user:
    description:
      - V(true) returns only service users, V(false) only regular users. Left unset, both.
    type: bool
seealso:
  - module: nms.overlay.user
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module]
'''

EXAMPLES = r'''
- name: List every user
  nms.overlay.user_info:
  register: all_users

- name: List the service users
  nms.overlay.user_info:
    service_user: true
  register: service_users

- name: Read the owner by email
  nms.overlay.user_info:
    email: owner@example.com
  register: owner

- name: Show the role of the owner
  ansible.builtin.debug:
    msg: "{{ owner.users[0].role }}"

- name: Read the user this playbook acts as (v0.77 servers)
  nms.overlay.user_info:
    current: true
  register: me

- name: Stop unless the token is an admin's (v0.77 servers)
  ansible.builtin.assert:
    that: me.users[0].role in ['owner', 'admin']
'''

RETURN = r'''
users:
  description: The users found, also when filtered to one. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: Id of the user.
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
      description: Role (V(owner), V(admin) or V(user)).
      type: str
      sample: user
    status:
      description: V(active), V(invited) or V(blocked).
      type: str
      sample: active
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
      sample: true
    issued:
      description: How the user was made (V(api) or V(integration)).
      type: str
      sample: api
    idp_id:
      description: The user's id in the server's identity provider (V(local) for the embedded one); today's servers only.
      type: str
      returned: when the server has it
      sample: local
    last_login:
      description: Time of the last login.
      type: str
      sample: "2024-05-01T10:00:00Z"
    permissions:
      description: Permissions of the user, such as C(dashboard_view).
      type: dict
      sample: {dashboard_view: full}
    pending_approval:
      description:
        - Whether the user waits for an administrator's approval (users who joined by domain matching).
      returned: by servers that have it (v0.77)
      type: bool
      sample: false
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.user import UserModule
from ansible_collections.nms.overlay.plugins.module_utils._task import refuse_newer_options


CURRENT_PATH = '/users/current'  # the caller itself (v0.77)
FILTERS = ('id', 'email', 'name', 'service_user')


class UserInfoModule(InfoModule):
    resource = UserModule
    api_operations = ('GET /api/users/current',)
    argument_spec = dict(
        current=dict(type='bool', default=False),
        id=dict(type='str'),
        email=dict(type='str'),
        name=dict(type='str'),
        service_user=dict(type='bool'),
    )
    mutually_exclusive = ()

    def fetch(self):
        if self.params.get('current'):
            given = [name for name in FILTERS if self.params.get(name) is not None]
            if given:
                raise TaskError('option current: cannot be combined with %s (the user the task acts as is one user)'
                                % ', '.join('option %s' % name for name in given))
            refuse_newer_options(self, {'current': 'v0.77'})  # the version probe: a v0.27 server gets no other request
            return [self.client.get_object(CURRENT_PATH)]
        wanted = self.params.get('service_user')
        if wanted is None:
            return super().fetch()
        query = {'service_user': 'true' if wanted else 'false'}
        items = self.client.get_list(self.path, query=query)
        # a regular user sees only itself whatever the filter says: filter here too
        return [item for item in items if bool(item.get('is_service_user')) == wanted]

    def keep(self, item):
        params = self.params
        if params.get('id') and ref_id(item) != params['id']:
            return False
        if params.get('email') and (item.get('email') or '').lower() != params['email'].lower():
            return False
        return params.get('name') is None or item.get('name') == params['name']


if __name__ == '__main__':
    UserInfoModule.main()
