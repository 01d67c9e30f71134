#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: network_resource_info
short_description: List the resources of a network
version_added: 1.0.0
description:
  - Returns the resources of a network, all of them or the one with a given O(id) or O(name).
options:
  network:
    description:
      - The network whose resources are listed, as a network name or id. An unknown network fails.
    type: str
    required: true
seealso:
  - module: nms.overlay.network_resource
  - module: nms.overlay.network_info
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.by_id_or_name, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: List the resources of the office network
  nms.overlay.network_resource_info:
    network: office
  register: office_resources

- name: Show each resource's address
  ansible.builtin.debug:
    msg: "{{ office_resources.network_resources | items2dict(key_name='name', value_name='address') }}"
'''

RETURN = r'''
network_resources:
  description: The resources found, also when filtered to one. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
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
      description: The address as the server shows it.
      type: str
      sample: 192.168.10.20/32
    type:
      description: What the address is, V(host), V(subnet) or V(domain).
      type: str
      sample: host
    groups:
      description: The groups of the resource (each with C(id) and C(name)); never null.
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
from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule


class NetworkResourceInfoModule(InfoModule):
    resource = NetworkResourceModule
    plural = 'network_resources'


if __name__ == '__main__':
    NetworkResourceInfoModule.main()
