#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: network_router_info
short_description: List the routers of a network, or of every network
version_added: 1.0.0
description:
  - Returns the routers of a network, all of them or the one with a given O(id).
  - Without O(network), returns the routers of every network of the account, read with one request
    (C(GET /api/networks/routers)). The server's answer does not say which network holds each router; the
    C(routers) of each network that M(nms.overlay.network_info) returns do.
options:
  network:
    description:
      - The network whose routers are listed, as a network name or id. An unknown network fails.
      - Unset, the routers of every network are listed.
    type: str
  id:
    description:
      - Return only the router with this id. An unknown id returns an empty list.
    type: str
seealso:
  - module: nms.overlay.network_router
  - module: nms.overlay.network_info
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: List the routers of the office network
  nms.overlay.network_router_info:
    network: office
  register: office_routers

- name: Show the routing peers of the office network
  ansible.builtin.debug:
    msg: "{{ office_routers.network_routers | map(attribute='peer') | select | list }}"

- name: List the routers of every network
  nms.overlay.network_router_info:
  register: all_routers

- name: Show the disabled ones
  ansible.builtin.debug:
    msg: "{{ all_routers.network_routers | rejectattr('enabled') | map(attribute='id') | list }}"
'''

RETURN = r'''
network_routers:
  description: The routers found, also when filtered to one. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: Id of the router.
      type: str
      sample: chacdk86lnnboviihd7g
    peer:
      description: Id of the routing peer; V("") for a router of peer groups.
      type: str
      sample: chacbco6lnnbn6cg5s91
    peer_groups:
      description: Ids of the routing peer groups; V([]) for a router of one peer, never null.
      type: list
      elements: str
      sample: [ch8i4ug6lnn4g9hqv7l0]
    metric:
      description: Route metric.
      type: int
      sample: 9999
    masquerade:
      description: Whether the routing peers masquerade the traffic.
      type: bool
      sample: true
    enabled:
      description: Whether the router is enabled.
      type: bool
      sample: true
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.network import NetworkModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.network_router import NetworkRouterModule
from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule


class NetworkRouterInfoModule(InfoModule):
    resource = NetworkRouterModule
    plural = 'network_routers'
    argument_spec = dict(  # a router has no name: found by id only
        network=dict(type='str'),
        id=dict(type='str'),
    )
    # without a network: every network's routers, in one list
    api_operations = ('GET /api/networks/routers',)

    @property
    def path(self):
        if self.params.get('network') is None:
            return NetworkModule.path + NetworkRouterModule.sub_path
        return super().path


if __name__ == '__main__':
    NetworkRouterInfoModule.main()
