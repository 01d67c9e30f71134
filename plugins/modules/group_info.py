#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: group_info
short_description: List groups of peers
version_added: 1.0.0
description:
  - Returns all groups, or the group with a given O(id) or O(name).
seealso:
  - module: nms.overlay.group
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.by_id_or_name]
'''

EXAMPLES = r'''
- name: List every group
  nms.overlay.group_info:
  register: all_groups

- name: Read one group by name
  nms.overlay.group_info:
    name: servers
  register: servers

- name: Show the peers of the servers group
  ansible.builtin.debug:
    msg: "{{ servers.groups[0].peers | map(attribute='name') | list }}"
'''

RETURN = r'''
groups:
  description: The groups found, also when filtered to one. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: Id of the group.
      type: str
      sample: ch8i4ug6lnn4g9hqv7l0
    name:
      description: Name of the group.
      type: str
      sample: servers
    peers_count:
      description: Number of peers in the group.
      type: int
      sample: 2
    issued:
      description: Who made the group (V(api), V(jwt) or V(integration)).
      type: str
      sample: api
    peers:
      description: The peers of the group, each with C(id) and C(name); never null.
      type: list
      elements: dict
      sample: [{id: cgr1, name: web-1}]
    resources_count:
      description:
        - Number of network resources in the group.
      returned: by servers that have it (v0.77)
      type: int
      sample: 1
    resources:
      description:
        - The network resources in the group, each with C(id) and C(type) (V(host), V(subnet), V(domain) or V(peer));
          V([]) when it has none, also from a server that does not have them (before v0.77).
      returned: always
      type: list
      elements: dict
      sample: [{id: d0cnlvuvb2ls73e2m5dg, type: subnet}]
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.group import GroupModule


class GroupInfoModule(InfoModule):
    resource = GroupModule


if __name__ == '__main__':
    GroupInfoModule.main()
