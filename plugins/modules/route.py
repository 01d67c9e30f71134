#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: route
short_description: Manage network routes served by routing peers
version_added: 1.0.0
description:
  - Creates, updates and deletes a route of the overlay network, a network range (or, on servers from
    v0.77 on, the addresses some domains resolve to) that peers reach through a routing peer or through
    the peers of routing peer groups.
  - A route is found by O(id) when given. Otherwise it is found by O(network_id) together with its
    routing O(peer), or together with the set of its O(peer_groups); with neither of those, by
    O(network_id) alone. Several routes that share one O(network_id) with different routing peers
    (a high-availability route) are so managed independently, one task per routing peer.
  - A match of more than one route fails and lists their ids; give O(id) to choose one.
  - Changing the routing peer of an existing route needs its O(id) (otherwise the new peer names another route).
  - Options left unset keep the server's value on an update. When a route is created, unset options
    take these values - O(description=""), O(enabled=true), O(masquerade=true), O(metric=9999).
  - The server replaces the whole route on an update, so the module sends the current route merged
    with the options of the task (fields of v0.77 servers included, whether the task sets them or not).
options:
  id:
    description:
      - Id of the route. Needed to change the routing O(peer) or O(peer_groups) of a route, or to
        choose one of several routes that match.
    type: str
  network_id:
    description:
      - Name of the route, 1 to 40 characters. Routes that share it form a high-availability route.
      - Required unless O(id) is given, and required to create a route.
    type: str
  description:
    description:
      - Free-text description of the route. V("") when a route is created without it.
    type: str
  network:
    description:
      - The routed network range in CIDR notation, IPv4 or IPv6.
      - Compared by value; the server stores the network address, so V(10.0.0.5/24) is V(10.0.0.0/24).
        A range with host bits set, such as V(10.50.0.1/16), is normalised to its network address
        (V(10.50.0.0/16)), which is sent and compared, and the task warns saying so (a re-run of it changes
        nothing).
      - Creating a route needs O(network) or O(domains). Cannot be used together with O(domains); setting
        it on a domain route (with O(id)) makes it a network route.
    type: str
  domains:
    description:
      - Domains whose addresses the route leads to, resolved by the routing peer, in place of a O(network),
        for example V(example.com) or V(*.example.com); 1 to 32 domains. Compared as a set, without case.
      - Cannot be used together with O(network); setting it on a network route (with O(id)) makes it a
        domain route. The server shows a domain route's C(network) as the placeholder V(192.0.2.0/32).
      - Servers have it from v0.28.0 on; on an older server a task that sets it fails before any change.
    type: list
    elements: str
  keep_route:
    description:
      - Whether the route keeps an address after a domain no longer resolves to it. It matters for domain
        routes (O(domains)); the server stores it for network routes too.
      - Leave it unset to keep the server's value (V(false) for a new route).
      - Servers have it from v0.28.0 on; on an older server a task that sets it fails before any change.
    type: bool
  access_control_groups:
    description:
      - Groups, as group names or ids, whose access policies control the traffic through the route. Order
        does not matter; V([]) removes them. Such a group cannot be deleted while the route uses it.
      - Leave it unset to keep the server's value (none for a new route).
      - Servers have it from v0.30.0 on; on an older server a task that sets it fails before any change.
    type: list
    elements: str
  skip_auto_apply:
    description:
      - Whether an exit node route (O(network=0.0.0.0/0)) is left for each client to choose instead of being
        applied automatically. The server stores it for other routes too.
      - Leave it unset to keep the server's value (V(false) for a new route).
      - Servers have it from v0.55.0 on; on an older server a task that sets it fails before any change.
    type: bool
  peer:
    description:
      - The routing peer, as a peer name or id. A v0.27 server takes only a Linux peer (one whose agent reports a
        Linux system) and refuses others; a v0.77 server takes peers of any system.
      - Cannot be used together with O(peer_groups). Creating a route needs one of them.
      - Part of the identity of the route when given (see the description).
    type: str
  peer_groups:
    description:
      - Groups whose peers route the network, as group names or ids. Order does not matter.
      - Cannot be used together with O(peer). Creating a route needs one of them.
      - Part of the identity of the route when given (see the description).
    type: list
    elements: str
  groups:
    description:
      - The distribution groups, as group names or ids - the peers of these groups receive the route.
        Order does not matter; at least one group.
      - Required to create a route. Leave it unset to keep the current groups.
    type: list
    elements: str
  metric:
    description:
      - Priority of the route among routes to the same network, 1 to 9999; the lowest number wins.
      - V(9999) when a route is created without it.
    type: int
  masquerade:
    description:
      - Whether the routing peer masquerades the traffic to the network.
      - V(true) when a route is created without it.
    type: bool
  enabled:
    description:
      - Whether the route is in use.
      - V(true) when a route is created without it.
    type: bool
  state:
    description:
      - V(present) creates or updates the route; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
notes:
  - A v0.27 server refuses a route whose routing peer is not a Linux peer (v0.77 accepts one), and servers
    refuse a route to a network that a member of the same O(peer_groups) already routes; the server's message
    is shown.
  - An unknown group or peer name fails before any change, naming the closest existing names.
seealso:
  - module: nms.overlay.route_info
  - module: nms.overlay.group
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource, nms.overlay.module.converge]
'''

EXAMPLES = r'''
- name: Route the office LAN through one routing peer, for the servers group
  nms.overlay.route:
    network_id: office-lan
    description: Office LAN
    network: 192.168.10.0/24
    peer: router-1
    groups:
      - servers

- name: Add a second routing peer for the same network (high availability, a route of its own)
  nms.overlay.route:
    network_id: office-lan
    description: Office LAN (backup)
    network: 192.168.10.0/24
    peer: router-2
    metric: 200
    groups:
      - servers

- name: Route a data-centre network through every peer of the routers group
  nms.overlay.route:
    network_id: dc-net
    network: 10.20.0.0/16
    peer_groups:
      - routers
    groups:
      - servers
    masquerade: false

- name: Route the addresses of the company's SaaS domains through a routing peer (servers from v0.28.0 on)
  nms.overlay.route:
    network_id: saas
    domains:
      - example.com
      - "*.example.com"
    keep_route: true
    peer: router-1
    groups:
      - servers
    access_control_groups:
      - servers

- name: Disable the backup route without touching anything else
  nms.overlay.route:
    network_id: office-lan
    peer: router-2
    enabled: false

- name: Remove the backup route
  nms.overlay.route:
    network_id: office-lan
    peer: router-2
    state: absent
'''

RETURN = r'''
route:
  description:
    - The route after the change. In check mode, the route as it would be (on create, the request body).
    - Empty after O(state=absent) when there was nothing to delete; otherwise the deleted route.
  returned: always
  type: dict
  contains:
    id:
      description: Id of the route.
      type: str
      sample: chacdk86lnnboviihd70
    network_id:
      description: Name of the route.
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
      description: Id of the routing peer; empty when O(peer_groups) route the network.
      type: str
      sample: chacbco6lnnbn6cg5s90
    peer_groups:
      description:
        - The routing peer groups, each with its id and name (as a policy's rules show their groups); never null,
          empty when one O(peer) routes the network.
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

from ansible_collections.nms.overlay.plugins.module_utils._resources.route import RouteModule


if __name__ == '__main__':
    RouteModule.main()
