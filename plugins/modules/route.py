#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: route
short_description: Manage network routes served by routing peers
version_added: 0.1.0
description:
  - Creates, updates and deletes a route of the overlay network, a network range that peers reach
    through a routing peer or through the peers of routing peer groups.
  - A route is found by O(id) when given. Otherwise it is found by O(network_id) together with its
    routing O(peer), or together with the set of its O(peer_groups); with neither of those, by
    O(network_id) alone. Several routes that share one O(network_id) with different routing peers
    (a high-availability route) are so managed independently, one task per routing peer.
  - A match of more than one route fails and lists their ids; give O(id) to choose one.
  - Changing the routing peer of an existing route needs its O(id) (otherwise the new peer names another route).
  - Options left unset keep the server's value on an update. When a route is created, unset options
    take these values - O(description=""), O(enabled=true), O(masquerade=true), O(metric=9999).
  - The server replaces the whole route on an update, so the module sends the current route merged
    with the options of the task.
author:
  - nms.overlay contributors
extends_documentation_fragment:
  - nms.overlay.connection
  - nms.overlay.attributes
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
      - Required to create a route.
    type: str
  peer:
    description:
      - The routing peer, as a peer name or id. It must be a Linux peer.
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
  - The server refuses a route whose routing peer is not a Linux peer, and a route to a network that
    a member of the same O(peer_groups) already routes; its message is shown.
seealso:
  - module: nms.overlay.route_info
  - module: nms.overlay.group
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
      description: The routed network, masked to its network address.
      type: str
      sample: 192.168.10.0/24
    network_type:
      description: V(IPv4) or V(IPv6).
      type: str
      sample: IPv4
    peer:
      description: Id of the routing peer; empty when O(peer_groups) route the network.
      type: str
      sample: chacbco6lnnbn6cg5s90
    peer_groups:
      description: Ids of the routing peer groups; never null, empty when one O(peer) routes the network.
      type: list
      elements: str
      sample: []
    groups:
      description: Ids of the distribution groups.
      type: list
      elements: str
      sample: [chacdk86lnnboviihd7g]
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
'''

from ansible_collections.nms.overlay.plugins.module_utils._compare import cidr, id_set
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resource import Field, ResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._routing import optional_id


def _options_model():
    from ansible_collections.nms.overlay.plugins.module_utils._models_routing import RouteOptions
    return RouteOptions


class RouteModule(ResourceModule):
    path = '/routes'
    what = 'route'
    kind = 'routes'
    result_key = 'route'
    natural_key = 'network_id'
    model = staticmethod(_options_model)
    required_on_create = ('network_id', 'network', 'groups')
    fields = dict(
        network_id=Field(),
        description=Field(initial=''),
        network=Field(norm=cidr),
        peer=Field(norm=optional_id, ref='peers'),
        peer_groups=Field(ref='groups', many=True),
        groups=Field(ref='groups', many=True),
        metric=Field(initial=9999),
        masquerade=Field(initial=True),
        enabled=Field(initial=True),
    )
    argument_spec = dict(
        network_id=dict(type='str'),
        description=dict(type='str'),
        network=dict(type='str'),
        peer=dict(type='str'),
        peer_groups=dict(type='list', elements='str'),
        groups=dict(type='list', elements='str'),
        metric=dict(type='int'),
        masquerade=dict(type='bool'),
        enabled=dict(type='bool'),
    )
    mutually_exclusive = (('peer', 'peer_groups'),)
    required_one_of = (('id', 'network_id'),)

    _routed_by = None   # the routing key of the last request body, for the check-mode result
    _key = None

    def routing_key(self):
        """The resolved peer id and peer group id set the user gave (None for those not given)."""
        if self._key is None:
            peer, groups = self.params.get('peer'), self.params.get('peer_groups')
            self._key = (
                self.resolve('peer', self.fields['peer'], peer) if peer else None,
                id_set(self.resolve('peer_groups', self.fields['peer_groups'], groups)) if groups is not None else None,
            )
        return self._key

    def matches(self, item):
        if item.get('network_id') != self.params.get('network_id'):
            return False
        peer, groups = self.routing_key()
        if peer is not None:
            return optional_id(item.get('peer')) == peer
        if groups is not None:
            return id_set(item.get('peer_groups')) == groups
        return True

    def identity_text(self):
        text = super().identity_text()
        if self.params.get('id'):
            return text
        if self.params.get('peer'):
            return "%s with peer '%s'" % (text, self.params['peer'])
        if self.params.get('peer_groups') is not None:
            return '%s with peer_groups %s' % (text, ', '.join(self.params['peer_groups']))
        return text

    def merge_desired(self, current, desired):
        # A route has one routing peer or peer groups: setting one clears the other.
        if desired.get('peer'):
            desired['peer_groups'] = []
        elif desired.get('peer_groups'):
            desired['peer'] = None
        return desired

    def before_write(self, current_obj, state):
        if state is not None and not state.get('peer') and not state.get('peer_groups'):
            raise TaskError('option peer or option peer_groups is required to create the route %s: a route needs '
                            'a routing peer or routing peer groups' % self.identity_text())

    def request_body(self, state, current_obj):
        # PUT and POST need exactly one of the keys peer and peer_groups (an empty one counts as set).
        body = dict(state)
        if body.get('peer'):
            body.pop('peer_groups', None)
            self._routed_by = 'peer'
        else:
            body.pop('peer', None)
            self._routed_by = 'peer_groups'
        return body

    def to_result(self, obj):
        result = super().to_result(obj)
        if not isinstance(result, dict) or not result:
            return result
        for name in ('groups', 'peer_groups'):
            result[name] = result.get(name) or []
        result['peer'] = result.get('peer') or ''
        if self.module.check_mode and self._routed_by == 'peer':
            result['peer_groups'] = []
        elif self.module.check_mode and self._routed_by == 'peer_groups':
            result['peer'] = ''
        return result


def main():
    RouteModule.main()


if __name__ == '__main__':
    main()
