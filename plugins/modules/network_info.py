#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: network_info
short_description: List networks
version_added: 1.0.0
description:
  - Returns all networks, or the network with a given O(id) or O(name).
seealso:
  - module: nms.overlay.network
  - module: nms.overlay.network_resource_info
  - module: nms.overlay.network_router_info
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.by_id_or_name, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: List every network
  nms.overlay.network_info:
  register: all_networks

- name: Read one network by name
  nms.overlay.network_info:
    name: office
  register: office

- name: Show how many routing peers the office network has
  ansible.builtin.debug:
    msg: "{{ office.networks[0].routing_peers_count }}"
'''

RETURN = r'''
networks:
  description: The networks found, also when filtered to one. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
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
      description: Ids of the network's routers; never null.
      type: list
      elements: str
      sample: [ch8i4ug6lnn4g9hqv7m0]
    resources:
      description: Ids of the network's resources; never null.
      type: list
      elements: str
      sample: [ch8i4ug6lnn4g9hqv7m1]
    routing_peers_count:
      description: Number of routing peers of the network.
      type: int
      sample: 2
    policies:
      description: Ids of the policies whose rules reach a resource of the network; never null.
      type: list
      elements: str
      sample: [ch8i4ug6lnn4g9hqv7m2]
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.network import NetworkModule


class NetworkInfoModule(InfoModule):
    resource = NetworkModule


if __name__ == '__main__':
    NetworkInfoModule.main()
