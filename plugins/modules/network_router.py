#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: network_router
short_description: Manage the routers of a network (its routing peers)
version_added: 1.0.0
description:
  - Creates, updates and deletes a router of a network, one routing peer (O(peer)) or the peers of routing
    peer groups (O(peer_groups)) through which other peers reach the network's resources.
  - A router has no name. It is found in the network O(network) by O(id) when given, otherwise by its routing
    peer (O(peer)) or its exact set of peer groups (O(peer_groups)), as a route is. Several routers of that peer
    or set of groups fail and list their ids.
  - Options left unset keep the server's value. A router is either one peer or peer groups; setting one of
    them on an existing router (found by O(id)) clears the other.
  - Servers create every router enabled; a router created with O(enabled=false) is disabled by a second request
    right after its creation.
options:
  network:
    description:
      - The network the router belongs to, as a network name or id.
      - With O(state=absent), a network that does not exist has no routers left to delete (deleting a network
        deletes its routers), so the task changes nothing.
    type: str
    required: true
  id:
    description:
      - Id of the router. Needed to change its routing peer or peer groups; otherwise O(peer) or O(peer_groups)
        finds it.
    type: str
  peer:
    description:
      - The routing peer, as a peer name or id. Mutually exclusive with O(peer_groups).
      - One of O(peer) and O(peer_groups) is required to create a router.
    type: str
  peer_groups:
    description:
      - 'The routing peer groups, as group names or ids: every peer of these groups routes. Order does not matter.'
      - Mutually exclusive with O(peer). Must list at least one group.
    type: list
    elements: str
  metric:
    description:
      - Route metric, from 1 to 9999; the lowest has the highest priority. A new router without it has 9999.
    type: int
  masquerade:
    description:
      - Whether the routing peers masquerade the traffic to the network's resources. A new router without it
        masquerades.
    type: bool
  enabled:
    description:
      - Whether the router is enabled. A new router without it is enabled.
    type: bool
  state:
    description:
      - V(present) creates or updates the router; V(absent) deletes it.
      - With O(state=absent), an unknown O(peer) or O(peer_groups) name means there is no such router, so the
        task changes nothing.
    type: str
    choices: [present, absent]
    default: present
seealso:
  - module: nms.overlay.network_router_info
  - module: nms.overlay.network
  - module: nms.overlay.network_resource
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource, nms.overlay.module.converge, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: Ensure the office network is routed by the peer office-gw
  nms.overlay.network_router:
    network: office
    peer: office-gw
    metric: 100

- name: Ensure the office network is also routed by the peers of the office-routers group, without masquerade
  nms.overlay.network_router:
    network: office
    peer_groups:
      - office-routers
    masquerade: false

- name: Remove the router of the peer office-gw
  nms.overlay.network_router:
    network: office
    peer: office-gw
    state: absent
'''

RETURN = r'''
network_router:
  description:
    - The router after the change. In check mode, the router as it would be.
    - Empty after O(state=absent) when there was nothing to delete; otherwise the deleted router.
  returned: always
  type: dict
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
      description: Ids of the routing peer groups; V([]) for a router of one peer.
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

from ansible_collections.nms.overlay.plugins.module_utils._resources.network_router import NetworkRouterModule


if __name__ == '__main__':
    NetworkRouterModule.main()
