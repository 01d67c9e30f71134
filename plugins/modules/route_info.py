#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: route_info
short_description: List network routes
version_added: 1.0.0
description:
  - Returns all routes, the route with a given O(id), or the routes with a given O(network_id)
    (several routes share one O(network_id) when a network has more than one routing peer).
options:
  id:
    description:
      - Return only the route with this id. An unknown id returns an empty list.
      - Mutually exclusive with O(network_id).
    type: str
  network_id:
    description:
      - Return only the routes with this network identifier (the name of the route).
      - Mutually exclusive with O(id).
    type: str
seealso:
  - module: nms.overlay.route
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module]
'''

EXAMPLES = r'''
- name: List every route
  nms.overlay.route_info:
  register: all_routes

- name: Read the routes of a high-availability network
  nms.overlay.route_info:
    network_id: office-lan
  register: office_lan

- name: Show the routing peers of that network
  ansible.builtin.debug:
    msg: "{{ office_lan.routes | map(attribute='peer') | list }}"
'''

RETURN = r'''
routes:
  description: The routes found, also when filtered to one. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: Id of the route.
      type: str
      sample: chacdk86lnnboviihd70
    network_id:
      description: Name of the route; shared by the routes of a high-availability network.
      type: str
      sample: office-lan
    description:
      description: Description of the route.
      type: str
      sample: Office LAN
    network:
      description: The routed network, masked to its network address (V(192.0.2.0/32) for a domain route).
      type: str
      sample: 192.168.10.0/24
    network_type:
      description: V(IPv4) or V(IPv6) (V(Domain) for a domain route).
      type: str
      sample: IPv4
    peer:
      description: Id of the routing peer; empty when routing peer groups route the network.
      type: str
      sample: chacbco6lnnbn6cg5s90
    peer_groups:
      description:
        - The routing peer groups, each with its id and name (as a policy's rules show their groups); never null,
          empty when one peer routes the network.
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
      sample: []
    groups:
      description:
        - The distribution groups, each with its id and name (as a policy's rules show their groups).
      type: list
      elements: dict
      contains:
        id:
          description: Id of the group.
          type: str
          sample: chacdk86lnnboviihd7g
        name:
          description: Name of the group (null when the group is unknown).
          type: str
          sample: servers
      sample: [{id: chacdk86lnnboviihd7g, name: servers}]
    metric:
      description: Priority, the lowest number wins.
      type: int
      sample: 9999
    masquerade:
      description: Whether the routing peer masquerades the traffic.
      type: bool
      sample: true
    enabled:
      description: Whether the route is in use.
      type: bool
      sample: true
    domains:
      description:
        - Domains the route resolves dynamically, instead of a C(network); never null, V([]) for a network
          route and on servers without domain routes (before v0.77).
        - A domain route's C(network) is the placeholder V(192.0.2.0/32).
      returned: always
      type: list
      elements: str
      sample: [example.com]
    keep_route:
      description:
        - Whether a domain route keeps the addresses a domain no longer resolves to.
      returned: by servers that have it (v0.77)
      type: bool
      sample: false
    skip_auto_apply:
      description:
        - Whether an exit node route (V(0.0.0.0/0)) is left for the clients to choose instead of applied.
      returned: by servers that have it (v0.77)
      type: bool
      sample: false
    access_control_groups:
      description:
        - The groups whose policies control access through the route, each with its id and name (as a policy's
          rules show their groups); never null, V([]) when the route has none and on servers without them (before
          v0.77).
      returned: always
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
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resolve import with_group_names
from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.route import RouteModule


class RouteInfoModule(InfoModule):
    resource = RouteModule

    def to_result(self, item):
        # group references as [{id, name}], as the kind's module returns them (the groups listed once)
        return with_group_names(super().to_result(item), self.resource.group_fields, self.resolver)


if __name__ == '__main__':
    RouteInfoModule.main()
