# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Routers of a network: a routing peer or routing peer groups (the network_router module and network_router_info).

A router is found as a route is, by its routing peer or its set of peer groups (there is no name), so it takes the
route's handling of those two options: setting one clears the other.
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._resources.network import NETWORKS, InNetwork
from ansible_collections.nms.overlay.plugins.module_utils._resources.route import RouteModule, optional_id


def router_result(item):
    """A network router as returned to the user: peer "" and peer_groups [] rather than missing or null."""
    if not isinstance(item, dict) or not item:
        return item
    return dict(item, peer=item.get('peer') or '', peer_groups=item.get('peer_groups') or [])


class NetworkRouterModule(InNetwork, RouteModule):
    """A router of the network the option ``network`` names, found by id or by its routing peer (or peer groups):
    the route's ``matches`` finds it (a router has no network_id, nor does the task)."""

    sub_path = '/routers'
    what = 'network router'
    kind = None               # nothing refers to a router
    section = 'network_routers'
    nested_in = ('networks', 'routers', 'network')  # network_state: a network's entry lists them under routers
    natural_key = 'peer'
    requires = NETWORKS
    list_only = True          # a GET by id of another network's router is a bare 500: look in the network's list
    answers = {'id': None}    # not a route's: a router has no network_type
    created_as = dict(enabled=True)  # whatever the create asks (a router asked disabled is then disabled by a PUT)
    required_on_create = ()   # peer or peer_groups: before_write says which
    model = 'networks.NetworkRouterOptions'
    fields = dict(
        peer=Field(norm=optional_id, ref='peers', initial=''),
        peer_groups=Field('list', ref='groups', many=True, initial=[]),
        metric=Field('int', initial=9999),
        masquerade=Field('bool', initial=True),
        enabled=Field('bool', initial=True),
    )
    options = dict(
        network=dict(type='str', required=True),
    )
    required_one_of = (('id', 'peer', 'peer_groups'),)
    mutually_exclusive = (('peer', 'peer_groups'),)  # a router has no network nor domains
    shape = staticmethod(router_result)

    def identity_text(self):
        if self.params.get('id'):
            return "id '%s' in the network '%s'" % (self.params['id'], self.params['network'])
        if self.params.get('peer'):
            return "with peer '%s' in the network '%s'" % (self.params['peer'], self.params['network'])
        return "with peer_groups %s in the network '%s'" % (', '.join(self.params.get('peer_groups') or []), self.params['network'])

    def request_body(self, state, current_obj):
        # Both keys, the unused one empty (a route's server wants one key only): v0.77 checks that exactly one is
        # non-empty, and a router stored without peer_groups holds null there, which the emulator's network list
        # cannot count (a 500)
        return dict(state)

    def before_write(self, current_obj, state):
        if state is None or state.get('peer') or state.get('peer_groups'):
            return
        raise TaskError('the network router %s has no routing peer (its peer was deleted): set option peer or option '
                        'peer_groups to update it' % self.identity_text())
