# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Routes to networks behind routing peers (the route module, route_info and network_state)."""

from __future__ import annotations

import ipaddress

from ansible_collections.nms.overlay.plugins.module_utils._client import TEXT
from ansible_collections.nms.overlay.plugins.module_utils._compare import cidr, id_set, lower_set, ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resolve import find_unique, named_result
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._tables import RESOLVER_TABLE

NO_MATCH = object()
# the network a v0.77 server gives a domain route (and shows in its answers)
DOMAIN_NETWORK = '192.0.2.0/32'


def optional_id(value):
    """A single reference that a server sends as "" when there is none (a route's peer when peer groups are
    used): "" for none, as in the route's results, so that the diff shows what the route shows."""
    return ref_id(value) or ''


def route_result(item):
    """A route as returned to the user: peer "" rather than missing or null (its lists: see result_shape)."""
    return dict(item, peer=item.get('peer') or '') if item else item


def identity_ref(task, kind, value, option):
    """The id of a routing peer or group in a task's identity; NO_MATCH for an unknown one when deleting."""
    if task.params.get('state') != 'absent':
        return task.resolver.to_id(kind, value, option)
    dummy_path, what, names = RESOLVER_TABLE[kind]
    item = find_unique(task.resolver.items(kind), value, names, what, option)
    return NO_MATCH if item is None else ref_id(item)


def routing_key(task):
    """(peer id, sorted peer group ids) from a task's options (worked out once per task); None for what the task
    does not give."""
    if task._key is None:
        peer, groups = task.params.get('peer'), task.params.get('peer_groups')
        peer_id = identity_ref(task, 'peers', peer, 'peer') if peer else None
        group_ids = None
        if groups is not None:
            group_ids = [identity_ref(task, 'groups', g, 'peer_groups') for g in groups]
            group_ids = NO_MATCH if NO_MATCH in group_ids else id_set(group_ids)
        task._key = (peer_id, group_ids)
    return task._key


class RouteModule(ResourceModule):
    """A route, found by id or by network_id with its routing peer (or set of peer groups)."""

    path = '/routes'
    what = 'route'
    kind = 'routes'
    natural_key = 'network_id'
    answers = dict(id=None, network_type=TEXT)
    model = 'routing.RouteOptions'
    required_on_create = ('network_id', 'groups')  # and network or domains: see before_write
    fields = dict(
        network_id=Field(),
        description=Field(initial=''),
        network=Field(norm=cidr),
        # the server lower-cases domains; order and duplicates do not matter
        domains=Field('list', norm=lower_set, many=True, requires='v0.77'),
        peer=Field(norm=optional_id, ref='peers'),
        groups=Field('list', ref='groups', many=True),
        peer_groups=Field('list', ref='groups', many=True),
        metric=Field('int', initial=9999),
        masquerade=Field('bool', initial=True),
        enabled=Field('bool', initial=True),
        keep_route=Field('bool', requires='v0.77', server_default=False),
        access_control_groups=Field('list', ref='groups', many=True, requires='v0.77'),
        skip_auto_apply=Field('bool', requires='v0.77', server_default=False),
    )
    shape = staticmethod(route_result)
    mutually_exclusive = (('peer', 'peer_groups'), ('network', 'domains'))
    required_one_of = (('id', 'network_id'),)

    # what a task keeps: its routing key (see routing_key), and what the last request body carried ('peer' or
    # 'peer_groups') and whether it was a create's (for a planned route's result)
    task_state = dict(_key=None, _routed_by=None, _creating=False)

    def matches(self, item):
        if item.get('network_id') != self.params.get('network_id'):
            return False
        peer, groups = routing_key(self)
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
            desired['peer'] = ''
        # ... and a network or domains (whose route shows the server's placeholder network)
        if desired.get('domains'):
            desired['network'] = DOMAIN_NETWORK
        elif desired.get('network'):
            desired['domains'] = []
        return desired

    def before_write(self, current_obj, state):
        if state is None:
            return
        if current_obj is None and not state.get('network') and not state.get('domains'):
            raise TaskError('option network or option domains is required to create the route %s: a route leads to a '
                            'network range or to domains' % self.identity_text())
        if state.get('peer') or state.get('peer_groups'):
            return
        if current_obj is None:
            raise TaskError('option peer or option peer_groups is required to create the route %s: a route needs '
                            'a routing peer or routing peer groups' % self.identity_text())
        raise TaskError('the route %s has no routing peer (its peer was deleted): set option peer or option '
                        'peer_groups to update it' % self.identity_text())

    def request_body(self, state, current_obj):
        # POST and PUT need exactly one of the keys peer and peer_groups (an empty one counts as set), and on v0.77
        # exactly one of network and domains; fields of today's servers go only to servers that have them.
        body = dict(state)
        if body.get('domains'):
            body.pop('network', None)
        else:
            body.pop('domains', None)
        self._creating = current_obj is None
        if body.get('peer'):
            body.pop('peer_groups', None)
            self._routed_by = 'peer'
        else:
            body.pop('peer', None)
            self._routed_by = 'peer_groups'
        return body

    def check_options(self):
        super().check_options()
        network = self.params.get('network')
        if network and cidr(network) != str(network).strip():
            try:
                exact = str(ipaddress.ip_network(str(network).strip(), strict=True))
            except ValueError:
                exact = None  # host bits set: the server keeps the network address only
            if exact is None:
                self.warn("option network: %s has host bits set; the server stores the network address, so %s is sent "
                          "and compared; write %s to silence this warning" % (network, cidr(network), cidr(network)))

    def finish(self, obj, result):
        # group references by name, in the task's final result only (a task that fails reads no group list for it)
        return named_result(self, result)

    def to_result(self, obj):
        result = super().to_result(obj)
        if not result or not self.module.check_mode or self._routed_by is None:
            return result
        unused = 'peer_groups' if self._routed_by == 'peer' else 'peer'
        if self._creating:
            result.pop(unused, None)  # a planned route shows the body it would send: one of peer and peer_groups
        else:
            result[unused] = [] if unused == 'peer_groups' else ''  # an update clears the other
        return result
