#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: network
short_description: Manage networks (remote networks reached through routing peers)
version_added: 1.0.0
description:
  - Creates, updates and deletes a network, the container of resources (hosts, subnets, domains) that peers
    reach through the network's routers. Its resources and routers are managed with
    M(nms.overlay.network_resource) and M(nms.overlay.network_router).
  - A network is found by O(id) when given, otherwise by O(name). A name shared by several networks fails
    and lists their ids.
  - Options left unset keep the server's value.
  - Deleting a network deletes its resources and routers with it (the server does so).
options:
  id:
    description:
      - Id of the network. Needed to rename a network; otherwise O(name) finds it.
    type: str
  name:
    description:
      - Name of the network. Servers do not keep network names unique.
      - Required to create a network.
    type: str
  description:
    description:
      - Description of the network. A new network without it has an empty description.
    type: str
  state:
    description:
      - V(present) creates or updates the network; V(absent) deletes it, with its resources and routers.
    type: str
    choices: [present, absent]
    default: present
seealso:
  - module: nms.overlay.network_info
  - module: nms.overlay.network_resource
  - module: nms.overlay.network_router
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource, nms.overlay.module.converge, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: Ensure the office network exists (connection from NMS_API_URL and NMS_API_TOKEN)
  nms.overlay.network:
    name: office
    description: The office LAN, reached through the office routers

- name: Rename a network, found by its id
  nms.overlay.network:
    id: chacdk86lnnboviihd7g
    name: head-office

- name: Remove a network with its resources and routers
  nms.overlay.network:
    name: old-office
    state: absent
'''

RETURN = r'''
network:
  description:
    - The network after the change. In check mode, the network as it would be.
    - Empty after O(state=absent) when there was nothing to delete; otherwise the deleted network.
  returned: always
  type: dict
  contains:
    id:
      description: Id of the network.
      type: str
      sample: chacdk86lnnboviihd7g
    name:
      description: Name of the network.
      type: str
      sample: office
    description:
      description: Description of the network.
      type: str
      sample: The office LAN
    routers:
      description: Ids of the network's routers.
      type: list
      elements: str
      sample: [ch8i4ug6lnn4g9hqv7m0]
    resources:
      description: Ids of the network's resources.
      type: list
      elements: str
      sample: [ch8i4ug6lnn4g9hqv7m1]
    routing_peers_count:
      description: Number of routing peers of the network (its routers' peers and the peers of their peer groups).
      type: int
      sample: 2
    policies:
      description: Ids of the policies whose rules reach a resource of the network.
      type: list
      elements: str
      sample: [ch8i4ug6lnn4g9hqv7m2]
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.network import NetworkModule


if __name__ == '__main__':
    NetworkModule.main()
