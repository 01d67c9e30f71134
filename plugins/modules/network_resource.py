#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: network_resource
short_description: Manage the resources of a network (hosts, subnets, domains)
version_added: 1.0.0
description:
  - Creates, updates and deletes a resource of a network, a host, a subnet or a domain that peers reach
    through the network's routers. Policies give access to it through the groups it belongs to.
  - A resource is found in the network O(network) by O(id) when given, otherwise by O(name).
  - Options left unset keep the server's value. In particular, a task without O(groups) never changes the
    resource's groups.
options:
  network:
    description:
      - The network the resource belongs to, as a network name or id.
      - With O(state=absent), a network that does not exist has no resources left to delete (deleting a
        network deletes its resources), so the task changes nothing.
    type: str
    required: true
  id:
    description:
      - Id of the resource. Needed to rename a resource; otherwise O(name) finds it.
    type: str
  name:
    description:
      - Name of the resource. Servers keep resource names unique in the whole account, across networks.
        A create, or a rename, onto the name of another network's resource fails before any write (in check
        mode too), naming that resource and its network (one read of the account's resources, only then).
      - Required to create a resource.
    type: str
  description:
    description:
      - Description of the resource. A new resource without it has an empty description.
    type: str
  address:
    description:
      - What the resource is. An IP address (V(10.0.0.1), a host, stored as V(10.0.0.1/32)), a subnet
        (V(10.0.0.0/24); a prefix is kept with its host bits, as the server keeps it), or a domain
        (V(example.com), V(*.example.com)). The server derives the resource's C(type) from it.
      - Required to create a resource. Anything else fails before any request.
    type: str
  groups:
    description:
      - The complete set of groups the resource belongs to, as group names or ids. Order does not matter.
      - V([]) takes the resource out of every group. Leave it unset to keep its groups; a new resource without
        it belongs to no group.
      - Every name must match exactly one group; an unknown or ambiguous name fails before any write.
    type: list
    elements: str
  enabled:
    description:
      - Whether the resource is enabled. A new resource without it is enabled.
    type: bool
  state:
    description:
      - V(present) creates or updates the resource; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
seealso:
  - module: nms.overlay.network_resource_info
  - module: nms.overlay.network
  - module: nms.overlay.network_router
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: Ensure the office file server is a resource of the office network, in the servers group
  nms.overlay.network_resource:
    network: office
    name: file-server
    address: 192.168.10.20
    groups:
      - servers

- name: Ensure the whole office subnet is a resource, disabled for now
  nms.overlay.network_resource:
    network: office
    name: office-lan
    address: 192.168.10.0/24
    enabled: false

- name: Ensure the intranet domains are a resource
  nms.overlay.network_resource:
    network: office
    name: intranet
    address: "*.intranet.example.com"
    description: Every intranet site

- name: Remove a resource
  nms.overlay.network_resource:
    network: office
    name: old-printer
    state: absent
'''

RETURN = r'''
network_resource:
  description:
    - The resource after the change. In check mode, the resource as it would be (its C(groups) as the ids it
      would send, and no C(type) when it would be created).
    - Empty after O(state=absent) when there was nothing to delete; otherwise the deleted resource.
  returned: always
  type: dict
  contains:
    id:
      description: Id of the resource.
      type: str
      sample: chacdk86lnnboviihd7g
    name:
      description: Name of the resource.
      type: str
      sample: file-server
    description:
      description: Description of the resource.
      type: str
      sample: The office file server
    address:
      description: The address as the server shows it (a host with its prefix length, V(192.168.10.20/32)).
      type: str
      sample: 192.168.10.20/32
    type:
      description: What the address is, V(host), V(subnet) or V(domain).
      type: str
      sample: host
    groups:
      description: The groups of the resource (each with C(id), C(name) and the server's other summary fields).
      type: list
      elements: dict
      sample: [{id: ch8i4ug6lnn4g9hqv7l0, name: servers, peers_count: 2}]
    enabled:
      description: Whether the resource is enabled.
      type: bool
      sample: true
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.network_resource import NetworkResourceModule


if __name__ == '__main__':
    NetworkResourceModule.main()
