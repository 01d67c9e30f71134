#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: setup_key_info
short_description: List setup keys
version_added: 1.0.0
description:
  - Returns all setup keys, or the keys with a given O(id) or O(name), optionally only the ones that
    can still enroll a peer.
  - Key values are never returned, even when the server sends them; only the task of
    M(nms.overlay.setup_key) that creates a key shows its value.
options:
  valid:
    description:
      - V(true) returns only keys that can enroll a peer, V(false) only expired, revoked or used up keys.
        Left unset, both.
    type: bool
seealso:
  - module: nms.overlay.setup_key
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.by_id_or_name]
'''

EXAMPLES = r'''
- name: List every setup key
  nms.overlay.setup_key_info:
  register: all_keys

- name: List the keys that can still enroll a peer
  nms.overlay.setup_key_info:
    valid: true
  register: usable_keys

- name: Show their names and how often they were used
  ansible.builtin.debug:
    msg: "{{ usable_keys.setup_keys | items2dict(key_name='name', value_name='used_times') }}"
'''

RETURN = r'''
setup_keys:
  description: The setup keys found, without their values. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: Id of the key, as a string.
      type: str
      sample: "2934723911"
    name:
      description: Name of the key.
      type: str
      sample: servers
    type:
      description: V(one-off) or V(reusable).
      type: str
      sample: reusable
    expires:
      description: When the key expires.
      type: str
      sample: "2024-06-01T10:00:00Z"
    valid:
      description: Whether the key can enroll a peer (not expired, not revoked, not used up).
      type: bool
      sample: true
    state:
      description: V(valid), V(expired), V(revoked) or V(overused).
      type: str
      sample: valid
    revoked:
      description: Whether the key is revoked.
      type: bool
      sample: false
    used_times:
      description: How many peers enrolled with the key.
      type: int
      sample: 3
    last_used:
      description: When a peer last enrolled with the key.
      type: str
      sample: "2024-05-02T09:00:00Z"
    auto_groups:
      description:
        - The groups that enrolled peers join, each with its id and name (as a policy's rules show their groups);
          never null.
      type: list
      elements: dict
      contains:
        id:
          description: Id of the group.
          type: str
          sample: ch8i4ug6lnn4g9hqv7m0
        name:
          description: Name of the group (null when the group is unknown).
          type: str
          sample: servers
      sample: [{id: ch8i4ug6lnn4g9hqv7m0, name: servers}]
    usage_limit:
      description: How many peers the key may enroll; V(0) means unlimited.
      type: int
      sample: 10
    ephemeral:
      description: Whether enrolled peers are ephemeral.
      type: bool
      sample: false
    updated_at:
      description: When the key was last changed.
      type: str
      sample: "2024-05-01T10:00:00Z"
    allow_extra_dns_labels:
      description:
        - Whether peers that enroll with the key may add extra DNS labels.
      returned: by servers that have it (v0.77)
      type: bool
      sample: false
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resolve import with_group_names
from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.setup_key import SetupKeyModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.setup_key import setup_key_valid


class SetupKeyInfoModule(InfoModule):
    resource = SetupKeyModule
    argument_spec = dict(
        id=dict(type='str'),
        name=dict(type='str'),
        valid=dict(type='bool'),
    )

    def to_result(self, item):
        # group references as [{id, name}], as the kind's module returns them (the groups listed once)
        return with_group_names(super().to_result(item), self.resource.group_fields, self.resolver)

    def keep(self, item):
        if not super().keep(item):
            return False
        return self.params.get('valid') is None or setup_key_valid(item) == self.params['valid']


if __name__ == '__main__':
    SetupKeyInfoModule.main()
