#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: nameserver_group_info
short_description: List DNS nameserver groups
version_added: 1.0.0
description:
  - Returns all nameserver groups, or the nameserver group with a given O(id) or O(name).
seealso:
  - module: nms.overlay.nameserver_group
  - module: nms.overlay.dns_settings_info
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.by_id_or_name]
'''

EXAMPLES = r'''
- name: List every nameserver group
  nms.overlay.nameserver_group_info:
  register: all_nameserver_groups

- name: Read one nameserver group by name
  nms.overlay.nameserver_group_info:
    name: corp-dns
  register: corp_dns

- name: Show the addresses of its nameservers
  ansible.builtin.debug:
    msg: "{{ corp_dns.nameserver_groups | map(attribute='nameservers') | flatten | map(attribute='ip') | list }}"
'''

RETURN = r'''
nameserver_groups:
  description: The nameserver groups found, also when filtered to one. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: Id of the nameserver group.
      type: str
      sample: ch8i4ug6lnn4g9hqv7m0
    name:
      description: Name of the nameserver group.
      type: str
      sample: corp-dns
    description:
      description: Description of the nameserver group.
      type: str
      sample: Company resolvers
    nameservers:
      description: The nameservers, in order, each with C(ip), C(ns_type) and C(port).
      type: list
      elements: dict
      sample: [{ip: 10.0.0.53, ns_type: udp, port: 53}]
    groups:
      description:
        - The peer groups that use the nameserver group, each with its id and name (as a policy's rules show their
          groups); never null.
      type: list
      elements: dict
      contains:
        id:
          description: Id of the group.
          type: str
          sample: ch8i4ug6lnn4g9hqv7l0
        name:
          description: Name of the group (null when the group is unknown).
          type: str
          sample: servers
      sample: [{id: ch8i4ug6lnn4g9hqv7l0, name: servers}]
    domains:
      description: The match domains; never null, empty for a primary group.
      type: list
      elements: str
      sample: [corp.example.com]
    primary:
      description: Whether the nameservers resolve every domain.
      type: bool
      sample: false
    search_domains_enabled:
      description: Whether the domains are also search domains.
      type: bool
      sample: true
    enabled:
      description: Whether the nameserver group is in use.
      type: bool
      sample: true
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resolve import with_group_names
from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.nameserver_group import NameserverGroupModule


class NameserverGroupInfoModule(InfoModule):
    resource = NameserverGroupModule

    def to_result(self, item):
        # group references as [{id, name}], as the kind's module returns them (the groups listed once)
        return with_group_names(super().to_result(item), self.resource.group_fields, self.resolver)


if __name__ == '__main__':
    NameserverGroupInfoModule.main()
