# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The access report's peer-by-peer computation: what each peer reaches (peers, network resources, routes) on which
traffic, as the management server works out each peer's firewall rules. The access_matrix filter (the access report)
and network_state's reach prediction (_reach.py) both call it. No third-party imports.
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._access import failed_checks, rule_ports
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id

TOP_PORT = 65535
KIND_ORDER = ('peer', 'resource', 'route')


def _text(value):
    return '' if value is None else str(value)


# -- traffic: what a rule lets through, as sets that can be joined and taken away --------------------------------
# (tcp intervals, udp intervals, icmp, other protocols); intervals are sorted, merged (start, end) port pairs.

FULL = ((1, TOP_PORT),)
NOTHING = ((), (), False, False)
EVERYTHING = (FULL, FULL, True, True)


def _merge(intervals):
    merged = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return tuple(merged)


def _cut(intervals, taken):
    left = []
    for start, end in intervals:
        pieces = [(start, end)]
        for cut_start, cut_end in taken:
            pieces = [piece for low, high in pieces
                      for piece in ((low, min(high, cut_start - 1)), (max(low, cut_end + 1), high)) if piece[0] <= piece[1]]
        left.extend(pieces)
    return _merge(left)


def traffic_union(first, second):
    return (_merge(first[0] + second[0]), _merge(first[1] + second[1]), first[2] or second[2], first[3] or second[3])


def traffic_minus(first, second):
    return (_cut(first[0], second[0]), _cut(first[1], second[1]), first[2] and not second[2], first[3] and not second[3])


def traffic_empty(traffic):
    return not (traffic[0] or traffic[1] or traffic[2] or traffic[3])


def _port_intervals(ports):
    intervals = []
    for port in ports:
        start, dummy, end = str(port).partition('-')
        if start.isdigit() and (end or start).isdigit():
            intervals.append((int(start), int(end or start)))
    return _merge(intervals)


def rule_traffic(rule):
    """What one rule's protocol and ports cover (netbird-ssh of current servers is tcp, as they apply it)."""
    protocol = _text(rule.get('protocol')) or 'all'
    if protocol == 'all':
        return EVERYTHING
    if protocol == 'icmp':
        return ((), (), True, False)
    ports = _port_intervals(rule_ports(rule)) or FULL
    if protocol == 'udp':
        return ((), ports, False, False)
    return (ports, (), False, False)


def _ranges_text(intervals):
    return ', '.join(str(start) if start == end else '%s-%s' % (start, end) for start, end in intervals)


def _ranges_list(intervals):
    return [str(start) if start == end else '%s-%s' % (start, end) for start, end in intervals]


def _parts_text(traffic):
    parts = []
    for name, intervals in (('tcp', traffic[0]), ('udp', traffic[1])):
        if intervals:
            parts.append('%s %s' % (name, 'any port' if intervals == FULL else _ranges_text(intervals)))
    if traffic[2]:
        parts.append('icmp')
    if traffic[3]:
        parts.append('other protocols')
    return ', '.join(parts)


def traffic_words(traffic):
    """'all', 'tcp 22, 443', 'tcp any port, icmp', 'all except tcp 22'; '' for nothing."""
    if traffic == EVERYTHING:
        return 'all'
    if traffic[3]:
        return 'all except %s' % _parts_text(traffic_minus(EVERYTHING, traffic))
    return _parts_text(traffic)


def traffic_data(traffic):
    """The traffic as plain data: tcp and udp port ranges (['1-65535'] for every port), icmp, other protocols."""
    return dict(tcp=_ranges_list(traffic[0]), udp=_ranges_list(traffic[1]), icmp=traffic[2], other=traffic[3])


def _names(values, lookup=None):
    names = []
    for value in values or []:
        if isinstance(value, dict):
            names.append(_text(value.get('name')) or _text(ref_id(value)))
        else:
            names.append(lookup(value) if lookup else _text(value))
    return names


def _resource_ref(rule, key):
    """A rule's sourceResource or destinationResource ({id, type}), or None."""
    value = rule.get(key)
    if isinstance(value, dict) and _text(ref_id(value)):
        return value
    return None


# -- peer by peer ----------------------------------------------------------------------------------------------

class _Grants:
    """What one source reaches at one destination: accept and drop grants, each (traffic, posture checks, label)."""

    def __init__(self):
        self.accept, self.drop = [], []

    def add(self, action, traffic, posture, label):
        (self.accept if action == 'accept' else self.drop).append((traffic, tuple(posture), label))

    def result(self):
        """(effective traffic, the part of it that holds only for sources passing posture checks, their names,
        the labels of the accept grants that give something)."""
        dropped = NOTHING
        for traffic, dummy, dummy_label in self.drop:
            dropped = traffic_union(dropped, traffic)
        everything, unconditional, checks, labels = NOTHING, NOTHING, [], []
        for traffic, posture, label in self.accept:
            left = traffic_minus(traffic, dropped)
            if traffic_empty(left):
                continue
            everything = traffic_union(everything, left)
            if not posture:
                unconditional = traffic_union(unconditional, left)
            if label not in labels:
                labels.append(label)
        conditional = traffic_minus(everything, unconditional)
        if not traffic_empty(conditional):
            for traffic, posture, dummy in self.accept:
                if posture and not traffic_empty(traffic_minus(traffic_minus(traffic, dropped), traffic_minus(traffic, conditional))):
                    checks.extend(name for name in posture if name not in checks)
        return everything, conditional, checks, labels


class _Reach:
    """Who reaches what, peer by peer, as the servers compute it for the peers' firewalls (see DOCUMENTATION)."""

    def __init__(self, policies, groups, peers, routes, networks, posture_names, posture_checks=()):
        self.peers = {}
        for peer in peers:
            peer_id = _text(ref_id(peer))
            if peer_id:
                failed = failed_checks(peer, posture_checks)
                self.peers[peer_id] = dict(id=peer_id, name=_text(peer.get('name')) or peer_id, ip=_text(peer.get('ip')),
                                           groups=set(), failed={_text(ref_id(check)) for check in failed},
                                           failed_names=sorted((_text(check.get('name')) for check in failed), key=lambda n: (n.casefold(), n)))
        self.group_peers, self.group_resources, self.group_names = {}, {}, {}
        for group in groups:
            group_id = _text(ref_id(group))
            self.group_names[group_id] = _text(group.get('name')) or group_id
            members = self.group_peers.setdefault(group_id, set())
            for member in group.get('peers') or []:
                members.add(_text(ref_id(member)))
            for member in group.get('resources') or []:
                target = self.group_peers if isinstance(member, dict) and member.get('type') == 'peer' else self.group_resources
                target.setdefault(group_id, set()).add(_text(ref_id(member)))
        for peer in peers:
            for group in peer.get('groups') or []:
                self.group_peers.setdefault(_text(ref_id(group)), set()).add(_text(ref_id(peer)))
        for group_id, members in self.group_peers.items():
            for member in members:
                if member in self.peers:
                    self.peers[member]['groups'].add(group_id)
        self.resources, self.network_routers = {}, {}
        for network in networks:
            network_id = _text(ref_id(network))
            routing = set()
            for router in network.get('routers') or []:
                if isinstance(router, dict) and router.get('enabled', True):
                    routing |= self._router_peers(router)
            self.network_routers[network_id] = routing
            for resource in network.get('resources') or []:
                if not isinstance(resource, dict):
                    continue
                resource_id = _text(ref_id(resource))
                self.resources[resource_id] = dict(id=resource_id, name=_text(resource.get('name')) or resource_id,
                                                   address=_text(resource.get('address')), network=_text(network.get('name')),
                                                   network_id=network_id, enabled=bool(resource.get('enabled', True)))
                for group in resource.get('groups') or []:
                    self.group_resources.setdefault(_text(ref_id(group)), set()).add(resource_id)
        self.routes = [route for route in routes if isinstance(route, dict)]
        self.policies = policies
        self.posture_names = posture_names
        self.grants = {}  # (source peer, kind, destination id) -> _Grants
        self.connected = set()  # pairs of peers an enabled rule connects (either way, drop rules too)
        self.links = {}  # pair of peers -> labels: what puts each into the other's network map

    def _router_peers(self, item):
        found = set()
        if _text(item.get('peer')):
            found.add(_text(ref_id(item.get('peer')) if isinstance(item.get('peer'), dict) else item.get('peer')))
        for group in item.get('peer_groups') or []:
            found |= self.group_peers.get(_text(ref_id(group)), set())
        return found

    def _peers_of(self, rule, groups_key, resource_key, checks=()):
        """The peers of one side of a rule; of its source groups (``checks``: the policy's posture check ids) without
        the peers known to fail one of them, which servers leave out of the rule altogether (both ways)."""
        resource = _resource_ref(rule, resource_key)
        if resource is not None:
            if resource.get('type') == 'peer':
                return {_text(ref_id(resource))} & set(self.peers)
            return set()
        found = set()
        for group in rule.get(groups_key) or []:
            found |= self.group_peers.get(_text(ref_id(group)), set())
        return {peer for peer in found & set(self.peers) if not self.peers[peer]['failed'] & set(checks)}

    @staticmethod
    def _check_ids(policy):
        return [_text(ref_id(check)) if isinstance(check, dict) else _text(check) for check in policy.get('source_posture_checks') or []]

    def _link(self, first, second, label):
        labels = self.links.setdefault(frozenset((first, second)), [])
        if label not in labels:
            labels.append(label)

    def _resources_of(self, rule):
        resource = _resource_ref(rule, 'destinationResource')
        if resource is not None:
            return {_text(ref_id(resource))} & set(self.resources) if resource.get('type') != 'peer' else set()
        found = set()
        for group in rule.get('destinations') or []:
            found |= self.group_resources.get(_text(ref_id(group)), set())
        return found & set(self.resources)

    def _grant(self, source, kind, target, action, traffic, posture, label):
        self.grants.setdefault((source, kind, target), _Grants()).add(action, traffic, posture, label)

    def compute(self):
        enabled = []
        for policy in self.policies:
            if not policy.get('enabled'):
                continue
            posture = _names(policy.get('source_posture_checks'), self.posture_names)
            policy_name = _text(policy.get('name')) or _text(ref_id(policy))
            for rule in policy.get('rules') or []:
                if isinstance(rule, dict) and rule.get('enabled'):
                    enabled.append((policy, rule, posture, '%s / %s' % (policy_name, _text(rule.get('name')))))
        for policy, rule, posture, label in enabled:
            action, traffic = _text(rule.get('action')) or 'accept', rule_traffic(rule)
            sources = self._peers_of(rule, 'sources', 'sourceResource', self._check_ids(policy))
            destinations = self._peers_of(rule, 'destinations', 'destinationResource')
            for source in sources:
                for destination in destinations:
                    if source == destination:
                        continue
                    self.connected.add(frozenset((source, destination)))
                    self._link(source, destination, label)
                    self._grant(source, 'peer', destination, action, traffic, posture, label)
                    if rule.get('bidirectional'):
                        self._grant(destination, 'peer', source, action, traffic, posture, label)
            # sorted: a pair's labels come in this order, and the report must not change from run to run (sets of
            # texts are ordered by each process's hash seed)
            for resource_id in sorted(self._resources_of(rule)):
                resource = self.resources[resource_id]
                if not resource['enabled']:
                    continue
                for source in sorted(sources):
                    routers = self.network_routers.get(resource['network_id'], set()) - {source}
                    if routers:
                        self._grant(source, 'resource', resource_id, action, traffic, posture, label)
                    for router in sorted(routers & set(self.peers)):
                        # current servers give a source of a resource its network's routing peers, and them the source
                        self._link(source, router, 'routing peer of %s (%s)' % (resource['network'], label))
        self._routes(enabled)

    def _routes(self, enabled):
        ha_routers = {}
        for route in self.routes:
            ha_routers.setdefault(self._ha_key(route), set()).update(self._router_peers(route))
        for route in self.routes:
            if not route.get('enabled'):
                continue
            route_id = _text(ref_id(route))
            routers = self._router_peers(route)
            clients = set()
            for group in route.get('groups') or []:
                clients |= self.group_peers.get(_text(ref_id(group)), set())
            clients = (clients & set(self.peers)) - ha_routers[self._ha_key(route)]
            clients = {client for client in clients if any(frozenset((client, router)) in self.connected for router in routers)}
            access_groups = {_text(ref_id(group)) for group in route.get('access_control_groups') or []}
            label = 'route %s' % self.route_name(route)
            if not access_groups:
                for client in clients:
                    self._grant(client, 'route', route_id, 'accept', EVERYTHING, (), label)
                continue
            # the rules of every enabled policy of which a rule has an access control group among its destinations
            chosen = {id(policy) for policy, rule, dummy, dummy_label in enabled
                      if access_groups & {_text(ref_id(group)) for group in rule.get('destinations') or []}}
            for policy, rule, posture, rule_label in enabled:
                if id(policy) not in chosen:
                    continue
                sources = self._peers_of(rule, 'sources', 'sourceResource', self._check_ids(policy))
                for client in clients & sources:
                    self._grant(client, 'route', route_id, _text(rule.get('action')) or 'accept', rule_traffic(rule), posture,
                                '%s (%s)' % (rule_label, label))

    @staticmethod
    def _ha_key(route):
        return (_text(route.get('network_id')), _text(route.get('network')), tuple(route.get('domains') or []))

    @staticmethod
    def route_name(route):
        address = _text(route.get('network')) if not route.get('domains') else ', '.join(route.get('domains'))
        return '%s (%s)' % (_text(route.get('network_id')) or _text(ref_id(route)), address)

    def results(self):
        """{source peer: [reach]} in the order of the destinations' kinds and names."""
        routes = {_text(ref_id(route)): route for route in self.routes}
        found = {}
        for (source, kind, target), grants in self.grants.items():
            everything, conditional, checks, labels = grants.result()
            if traffic_empty(everything):
                continue
            if kind == 'peer':
                name, address, network = self.peers[target]['name'], self.peers[target]['ip'], ''
            elif kind == 'resource':
                resource = self.resources[target]
                name, address, network = resource['name'], resource['address'], resource['network']
            else:
                name, address, network = self.route_name(routes[target]), _text(routes[target].get('network')), ''
            found.setdefault(source, []).append(dict(
                kind=kind, id=target, name=name, address=address, network=network, traffic=traffic_data(everything),
                text=traffic_words(everything), posture_checks=checks, posture_text=traffic_words(conditional), rules=labels,
                value=everything))
        for reaches in found.values():
            reaches.sort(key=lambda r: (KIND_ORDER.index(r['kind']), r['name'].casefold(), r['name'], r['id']))
        return found

    def connects(self, found):
        """{peer: [peer its network map lists]}: each with ``traffic`` (whether something gets through one way or the
        other, after the drop rules) and the rules (or networks) that put it there."""
        reached = {(source, item['id']) for source, items in found.items() for item in items if item['kind'] == 'peer'}
        result = {}
        for pair, labels in self.links.items():
            first, second = sorted(pair)
            for one, other in ((first, second), (second, first)):
                result.setdefault(one, []).append(dict(
                    id=other, name=self.peers[other]['name'], ip=self.peers[other]['ip'], rules=list(labels),
                    traffic=(one, other) in reached or (other, one) in reached))
        for items in result.values():
            items.sort(key=lambda r: (r['name'].casefold(), r['name'], r['id']))
        return result
