# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
name: access_matrix
short_description: Who reaches what, group to group and peer by peer, from policies, routes and Networks
version_added: 1.0.0
author:
  - nms.overlay contributors (@nms-overlay)
description:
  - Turns the policies that M(nms.overlay.policy_info) returns into a matrix of groups, with one row per source group,
    one column per destination group, each cell listing the protocols and ports on which the peers of the row's
    group reach the peers of the column's group. The playbook C(nms.overlay.access_report) renders it as a
    Markdown table and as an HTML page.
  - Only enabled rules of enabled policies fill the matrix. A bidirectional rule fills the cell from its sources
    to its destinations and the cell back; a one-way rule only the first.
  - The group C(All) holds every peer, so a rule from (or to) C(All) fills the row (or column) of every group.
    A rule to another group does not fill the column C(All), which stands for every peer.
  - C(All) is the account's built-in group, not any group of that name (a renamed group, or one synced from an
    identity provider, may be called C(All) too). With O(groups) as M(nms.overlay.group_info) returns them, it is
    the group named C(All), issued by the API, that holds the most peers (servers add every peer to it); when
    several such groups hold as many peers, each is taken for it (RV(_value.all_groups) lists them). Without
    O(groups), or with group names only, any group named C(All) is taken for it.
  - The matrix (RV(_value.rows)) has a cell for every pair of groups, so it grows with the square of the number of
    groups; it is built for at most O(matrix_limit) groups. RV(_value.reaches) says who reaches whom for any number
    of groups, one item per pair of groups a rule names (C(All) not spread over the other groups).
  - A rule of an allow-all policy (accept, protocol C(all), sources and destinations both C(All)) is marked
    (RV(_value.rows[].cells[].entries[].allow_all)), since while such a policy is enabled the other accept rules
    restrict nothing.
  - Drop wins over accept, as NetBird's agents apply it (their firewalls put drop rules before accept rules), so what a
    rule with action C(drop) matches is taken out of what the accept rules let through, in the cells and peer by
    peer. The drop entries stay in the cells, to say what is stopped.
  - Every enabled rule of an enabled policy is in force, also one that names a resource (C(sourceResource) or
    C(destinationResource), a peer or a network resource of current servers) in place of groups; such a rule
    fills no cell of the matrix (it names no group on that side) and shows peer by peer.
  - Disabled policies and disabled rules are not in force; RV(_value.not_in_force) lists them.
  - Posture checks are judged only where the API shows what they test. A peer whose agent release (C(version) of
    O(peers)) is below a check's C(nb_version_check) minimum fails it, and servers then leave that peer out of the
    rules of every policy with the check among its source posture checks, both ways (RV(_value.peers[].posture_failed)
    names the checks it fails). The other checks (operating system, location, network range, process) depend on
    what only the agent reports; the access is the access of peers that pass them, and what holds only for them is
    marked, with the checks' names.
  - With O(peers) (and O(routes), O(networks)), RV(_value.peers) says for every peer what it reaches, worked out
    as the management server works out each peer's firewall rules. A peer reaches another peer on what the enabled
    rules with the one among their sources (groups, or C(sourceResource)) and the other among their destinations
    let through, and the way back for a bidirectional rule; a peer in several groups gets the union.
    It reaches a network resource (the resources of a destination group, or the C(destinationResource)) that is
    enabled, on the rule's protocol and ports, when the resource's network has an enabled router with a routing
    peer other than itself. It reaches a route (enabled) when it is in one of the route's distribution groups
    (C(groups)), is not one of the routing peers of the route's network, and a rule connects it with one of the
    route's routing peers (C(peer), or the peers of C(peer_groups)); on every protocol when the route has no
    C(access_control_groups) (always on v0.27 servers), otherwise on what the enabled rules of the enabled policies
    that have an access control group among a rule's destinations let through to their source peers.
  - RV(_value.peers[].connects) lists the peers of each peer's network map, those that its agent lists in
    C(netbird status), that is the peers an enabled rule of an enabled policy connects with it, either way (a one-way rule
    gives both ends an entry), whatever the rule's action and ports (a drop rule too, so also peers it reaches on
    nothing), without the sources that fail a posture check as above; on current servers also the routing peers of
    the networks whose resources it reaches, and for a routing peer the peers that reach its network's resources.
    Seen so with real v0.27.6 and v0.77.1 agents. A peer whose login expired is not listed (servers send it apart,
    offline).
  - A cell of the matrix gives first what the rules grant the row's group as such (the rules that name both
    groups, C(All) spread), then, in RV(_value.rows[].cells[].members), what some of the row's peers reach among
    the column's peers and resources beyond that, through their other groups, with the names of those peers.
positional: groups
options:
  _input:
    description:
      - The list RV(nms.overlay.policy_info#module:policies) (rules with C(sources) and C(destinations) as
        C({id, name}), or as ids), or that module's whole registered result.
    type: raw
    required: true
  groups:
    description:
      - The groups to show, the list RV(nms.overlay.group_info#module:groups) (dicts with C(id), C(name) and
        C(peers_count)) or group names.
      - Without it the matrix has only the groups the policies name; with it, also the groups no policy names
        (an empty row and column).
    type: list
    elements: raw
  peers:
    description:
      - The peers, the list RV(nms.overlay.peer_info#module:peers) (C(id), C(name), C(ip), C(groups)). Group
        membership is taken from O(groups)' C(peers) and from the peers' C(groups).
      - Without it there is no peer-by-peer access (RV(_value.peers) empty) and the cells have no C(members).
    type: list
    elements: dict
  routes:
    description:
      - The routes, the list RV(nms.overlay.route_info#module:routes).
    type: list
    elements: dict
  networks:
    description:
      - The Networks of a current server, each a dict with C(id), C(name), C(resources) (the list
        RV(nms.overlay.network_resource_info#module:network_resources) of the network) and C(routers) (the list
        RV(nms.overlay.network_router_info#module:network_routers) of the network). Leave it out for a v0.27 server.
    type: list
    elements: dict
  posture_checks:
    description:
      - The posture checks, the list RV(nms.overlay.posture_check_info#module:posture_checks), for their names where
        a policy gives ids only.
    type: list
    elements: dict
  peer_limit:
    description:
      - The most peers for which the access is worked out peer by peer (the work grows with the square of the peers).
        With more, RV(_value.peers) is empty and RV(_value.peers_omitted) true.
    type: int
    default: 250
  matrix_limit:
    description:
      - The most groups for which RV(_value.rows) is built (a cell for every pair of groups, 2,500 cells for 50
        groups). With more groups, RV(_value.rows) is empty and RV(_value.rows_omitted) true; RV(_value.reaches)
        holds who reaches whom.
      - V(0) never builds it.
    type: int
    default: 50
seealso:
  - module: nms.overlay.policy_info
  - module: nms.overlay.group_info
  - module: nms.overlay.peer_info
  - module: nms.overlay.route_info
  - module: nms.overlay.network_resource_info
  - module: nms.overlay.network_router_info
'''

EXAMPLES = r'''
- name: Read the policies
  nms.overlay.policy_info:
  register: policy_list

- name: Read the groups, so that groups without access show too
  nms.overlay.group_info:
  register: group_list

- name: Who reaches the servers, and on what
  ansible.builtin.debug:
    msg: >-
      {% set matrix = policy_list.policies | nms.overlay.access_matrix(group_list.groups) %}
      {% for row in matrix.rows %}{% for cell in row.cells if cell.destination == 'servers' and cell.entries %}
      {{ row.source }}: {{ cell.entries | map(attribute='text') | join('; ') }}
      {% endfor %}{% endfor %}

- name: Read the peers
  nms.overlay.peer_info:
  register: peer_list

- name: What each peer reaches (a v0.27 server, which has no Networks)
  ansible.builtin.debug:
    msg: >-
      {% for peer in (policy_list.policies | nms.overlay.access_matrix(group_list.groups, peers=peer_list.peers)).peers %}
      {{ peer.name }}: {{ peer.reaches | map(attribute='name') | join(', ') }}
      {% endfor %}

- name: Fail while an allow-all policy is enabled
  ansible.builtin.assert:
    that: (policy_list.policies | nms.overlay.access_matrix).allow_all | length == 0
    fail_msg: An allow-all policy is enabled; the other policies restrict nothing
'''

RETURN = r'''
_value:
  description: The matrix, the allow-all policies and the rules in force and not in force.
  type: dict
  contains:
    groups:
      description:
        - The groups of the rows and of the columns, in that order, C(All) first, then by name.
      type: list
      elements: dict
      contains:
        id:
          description: Id of the group (its name when only the name is known).
          type: str
        name:
          description: Name of the group (its id when the name is unknown).
          type: str
        peers_count:
          description: Number of peers, when O(groups) gave it; else null.
          type: int
    all_groups:
      description:
        - Ids of the groups taken for the account's built-in C(All) group; more than one when groups named C(All)
          cannot be told apart (see the description).
      type: list
      elements: str
    rows_omitted:
      description: Whether RV(_value.rows) was left empty because there are more groups than O(matrix_limit).
      type: bool
    matrix_limit:
      description: The O(matrix_limit) the matrix was built with.
      type: int
    reaches:
      description:
        - Who reaches whom, one item per pair of groups that a rule in force names, in the order of
          RV(_value.groups) (source, then destination), with C(All) as the rules name it (every peer), not spread
          over the other groups. Its size grows with the rules, not with the square of the groups.
      type: list
      elements: dict
      contains:
        source:
          description: Name of the source group.
          type: str
        source_id:
          description: Id of the source group.
          type: str
        destination:
          description: Name of the destination group.
          type: str
        destination_id:
          description: Id of the destination group.
          type: str
        entries:
          description: What reaches, as in RV(_value.rows[].cells[].entries).
          type: list
          elements: dict
    rows:
      description:
        - One row per source group, in the order of RV(_value.groups); empty when there are more groups than
          O(matrix_limit).
      type: list
      elements: dict
      contains:
        source:
          description: Name of the source group.
          type: str
        source_id:
          description: Id of the source group.
          type: str
        peers_count:
          description: Number of peers of the source group, or null.
          type: int
        cells:
          description: One cell per destination group, in the order of RV(_value.groups).
          type: list
          elements: dict
          contains:
            destination:
              description: Name of the destination group.
              type: str
            destination_id:
              description: Id of the destination group.
              type: str
            same_group:
              description: Whether source and destination are the same group (the diagonal).
              type: bool
            entries:
              description:
                - What reaches, empty when nothing does. Accept before drop, own rules before allow-all ones,
                  then by protocol (V(all), V(tcp), V(udp), V(icmp)); entries of one action, protocol and
                  origin are merged, their ports joined.
              type: list
              elements: dict
              contains:
                action:
                  description: V(accept) or V(drop).
                  type: str
                protocol:
                  description: V(all), V(tcp), V(udp) or V(icmp).
                  type: str
                ports:
                  description:
                    - Ports and port ranges (C(8000-8100)), sorted; empty means every port. For an accept entry, without
                      what the drop entries of the cell stop.
                  type: list
                  elements: str
                text:
                  description:
                    - The protocol and ports as one short text, for example C(tcp 22, 443), C(all) or, for an accept
                      entry of which a drop entry stops a part, C(all except tcp 22).
                  type: str
                allow_all:
                  description: Whether the entry comes from an allow-all policy.
                  type: bool
                posture_checks:
                  description: Names of the source posture checks of the policies the entry comes from.
                  type: list
                  elements: str
                rules:
                  description: The policies and rules the entry comes from, each as C(policy / rule).
                  type: list
                  elements: str
            members:
              description:
                - What some peers of the row's group reach among the peers and resources of the column's group beyond
                  what RV(_value.rows[].cells[].entries) grant the group, through other groups they are in; null when
                  nothing (or without O(peers)).
              type: dict
              contains:
                text:
                  description: That traffic as one short text.
                  type: str
                traffic:
                  description: That traffic, as in RV(_value.peers[].reaches[].traffic).
                  type: dict
                peers:
                  description: Names of the row's peers that reach it.
                  type: list
                  elements: str
    peers:
      description:
        - Every peer of O(peers), by name, with what it reaches; empty without O(peers) or with more than
          O(peer_limit) peers.
      type: list
      elements: dict
      contains:
        id:
          description: Id of the peer.
          type: str
        name:
          description: Name of the peer.
          type: str
        ip:
          description: Overlay address of the peer.
          type: str
        groups:
          description: Names of the peer's groups.
          type: list
          elements: str
        reaches:
          description: What the peer reaches, peers first, then network resources, then routes, each by name.
          type: list
          elements: dict
          contains:
            kind:
              description: V(peer), V(resource) (a network resource) or V(route).
              type: str
            id:
              description: Id of the peer, resource or route.
              type: str
            name:
              description: Its name (a route's network identifier and address).
              type: str
            address:
              description: Its address (a peer's overlay address, a resource's address, a route's network).
              type: str
            network:
              description: The network of a resource; V("") otherwise.
              type: str
            traffic:
              description:
                - What gets through, after the drop rules, as C(tcp) and C(udp) (port ranges, C(1-65535) for every
                  port), C(icmp) and C(other) (other IP protocols, which only protocol C(all) covers).
              type: dict
            text:
              description: That traffic as one short text (C(all), C(tcp 22, 443), C(all except tcp 22)).
              type: str
            posture_checks:
              description: Names of the posture checks that the part in RV(_value.peers[].reaches[].posture_text) needs.
              type: list
              elements: str
            posture_text:
              description: The part of the traffic that only a source peer passing posture checks gets; V("") for none.
              type: str
            rules:
              description: The policies and rules (and route) it comes from.
              type: list
              elements: str
        connects:
          description:
            - The peers of the peer's network map, by name, which its agent lists in C(netbird status --json)
              (see the description above); the peers it reaches or that reach it, and those that a rule connects with
              it on nothing (drop rules) or that route its traffic to a network resource.
          type: list
          elements: dict
          contains:
            id:
              description: Id of the other peer.
              type: str
            name:
              description: Name of the other peer.
              type: str
            ip:
              description: Overlay address of the other peer.
              type: str
            traffic:
              description:
                - Whether something gets through, one way or the other (the other peer is in RV(_value.peers[].reaches)
                  of this one, or this one in its). False for a link of drop rules only, or of a network's routing
                  peer and a peer that reaches its resources.
              type: bool
            rules:
              description: The policies and rules that connect them (C(routing peer of NETWORK (policy / rule)) for a network's router).
              type: list
              elements: str
        posture_failed:
          description:
            - Names of the posture checks of O(posture_checks) that the peer fails on what the API shows of it (its agent
              release below a C(nb_version_check) minimum); the rules of policies with such a check leave it out.
          type: list
          elements: str
    peers_omitted:
      description: Whether RV(_value.peers) was left empty because there are more peers than O(peer_limit).
      type: bool
    peer_limit:
      description: The O(peer_limit) used.
      type: int
    peer_count:
      description: The number of peers given.
      type: int
    routes:
      description: The routes and network resources, routes first, with who reaches them.
      type: list
      elements: dict
      contains:
        kind:
          description: V(route) or V(resource).
          type: str
        id:
          description: Its id.
          type: str
        name:
          description: A route's network identifier and address, or a resource's name and address.
          type: str
        network:
          description: The network of a resource; V("") for a route.
          type: str
        enabled:
          description: Whether it is enabled.
          type: bool
        routing:
          description:
            - Its routing peers (C(name (peer))) and routing peer groups; for a resource, those of its network's enabled
              routers.
          type: list
          elements: str
        groups:
          description: A route's distribution groups; a resource's groups.
          type: list
          elements: str
        access_control_groups:
          description: A route's access control groups (empty on v0.27 servers, and for resources).
          type: list
          elements: str
        reached_by:
          description: Names of the peers that reach it.
          type: list
          elements: str
    allow_all:
      description: Names of the enabled allow-all policies.
      type: list
      elements: str
    in_force:
      description:
        - The enabled rules of the enabled policies, in the policies' order (rules in their order), those that name
          a resource too.
      type: list
      elements: dict
      contains:
        policy:
          description: Name of the policy.
          type: str
        rule:
          description: Name of the rule.
          type: str
        action:
          description: V(accept) or V(drop).
          type: str
        bidirectional:
          description: Whether the rule also lets the destinations reach the sources.
          type: bool
        protocol:
          description: The protocol.
          type: str
        ports:
          description: Ports and port ranges; empty means every port.
          type: list
          elements: str
        text:
          description: The protocol and ports as one short text.
          type: str
        sources:
          description: Names of the source groups, or of the rule's C(sourceResource), as C(name (peer)).
          type: list
          elements: str
        destinations:
          description:
            - Names of the destination groups, or of the rule's C(destinationResource), as C(name (peer)) or
              C(name (resource of network)).
          type: list
          elements: str
        posture_checks:
          description: Names of the policy's source posture checks.
          type: list
          elements: str
        allow_all:
          description: Whether the rule makes its policy an allow-all policy.
          type: bool
        missing_groups:
          description:
            - Whether the server's answer names no group among the rule's sources or among its destinations, so that
              the rule fills no cell.
            - v0.27 servers answer a policy's later rules without the source groups an earlier rule of the same policy
              names, although they enforce them; such a rule may reach more than the matrix shows.
          type: bool
    not_in_force:
      description:
        - The rules of disabled policies and the disabled rules, with the keys of RV(_value.in_force) and C(reason),
          C(policy disabled) or C(rule disabled).
      type: list
      elements: dict
'''

from ansible.errors import AnsibleError
from ansible.utils.unsafe_proxy import wrap_var

from ansible_collections.nms.overlay.plugins.module_utils._access import port_set, rule_ports
from ansible_collections.nms.overlay.plugins.module_utils._access_peers import (  # the peer-by-peer part, shared with network_state
    NOTHING, _Reach, _names, _ranges_list, _resource_ref, _text, rule_traffic, traffic_data, traffic_empty, traffic_minus,
    traffic_union, traffic_words,
)
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._names import ALL_GROUP, builtin_all_group

# Whether wrap_var leaves a plain text as it is (ansible-core 2.19 on: it only takes the template trust away, which
# only tagged texts carry); before, it makes every text an AnsibleUnsafeText, and _unsafe is wrap_var itself.
PLAIN_TEXTS_KEPT = type(wrap_var('text')) is str  # pylint: disable=unidiomatic-typecheck
PLAIN = (str, int, float, bool, type(None))


def _unsafe(value):
    """wrap_var(value), without its cost per plain text, number and container where wrap_var keeps plain texts: the
    result's dicts and lists are new ones, its plain texts and numbers the same, and anything else (a tagged text) goes
    through wrap_var. 500 peers worked out peer by peer give 11 million values: wrap_var took 80 % of the filter."""
    kind = type(value)
    if kind in PLAIN:
        return value
    if kind is dict:
        return {_unsafe(key): _unsafe(item) for key, item in value.items()}
    if kind is list:
        return [_unsafe(item) for item in value]
    return wrap_var(value)


PROTOCOL_ORDER = ('all', 'tcp', 'udp', 'icmp')
WITH_PORTS = ('tcp', 'udp')
RESOURCE_KEYS = ('sourceResource', 'destinationResource')
MATRIX_LIMIT = 50
PEER_LIMIT = 250


class _Groups:
    """The groups of the matrix by id, from the groups given and the groups the rules name."""

    def __init__(self, groups):
        self.by_id = {}
        self.name_only = set()
        given = [group for group in groups or [] if isinstance(group, dict)]
        for group in groups or []:
            if isinstance(group, dict):
                self.add(group, group.get('peers_count'))
            elif group is not None:
                self.name_only.add(self.add({'name': group}))
            else:
                raise AnsibleError('access_matrix: option groups: each entry must be a group (a dict with id and name) '
                                   'or a group name, got null')
        # the built-in All group, told from other groups named All by the groups' list; without it, by name
        self.all_ids = builtin_all_group(given)[0] or None

    def add(self, ref, peers_count=None):
        """The key of a group reference ({id, name}, an id, or a name alone), added when new."""
        if isinstance(ref, dict):
            group_id, name = _text(ref_id(ref)), _text(ref.get('name'))
        else:
            group_id, name = _text(ref), ''
        key = group_id or name
        if not key:
            return None
        known = self.by_id.setdefault(key, {'id': key, 'name': name or key, 'peers_count': None})
        if name and known['name'] == key:
            known['name'] = name
        if peers_count is not None:
            known['peers_count'] = peers_count
        return key

    def is_all(self, key):
        if self.all_ids is not None:
            return key in self.all_ids
        return self.by_id[key]['name'] == ALL_GROUP

    def ordered(self):
        """Every group once (a group given by name only is left out when a rule names it with its id)."""
        named = {group['name'] for key, group in self.by_id.items() if key not in self.name_only}
        groups = [group for key, group in self.by_id.items() if key not in self.name_only or group['name'] not in named]
        return sorted(groups, key=lambda g: (not self.is_all(g['id']), g['name'].casefold(), g['name'], g['id']))


def _ports(rule):
    """A tcp or udp rule's ports and port ranges; none for the protocols that cover every port."""
    return rule_ports(rule) if rule.get('protocol') in WITH_PORTS else []


def traffic_text(protocol, ports):
    """'tcp 22, 443', 'tcp any port', 'all', 'icmp'."""
    protocol = _text(protocol) or 'all'
    if protocol not in WITH_PORTS:
        return protocol
    return '%s %s' % (protocol, ', '.join(ports) if ports else 'any port')


def _as_policies(data):
    if isinstance(data, dict) and isinstance(data.get('policies'), list):
        data = data['policies']
    if not isinstance(data, list) or not all(isinstance(policy, dict) for policy in data):
        raise AnsibleError('access_matrix: its input must be the list of policies that nms.overlay.policy_info returns '
                           '(its result\'s policies), got %s' % type(data).__name__)
    return data


def _as_list(value, option, key):
    if value is None:
        return []
    if isinstance(value, dict) and isinstance(value.get(key), list):
        value = value[key]
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise AnsibleError('access_matrix: option %s: must be a list of dicts (%s), got %s' % (option, key, type(value).__name__))
    return value


def _add_entry(cell, action, protocol, ports, allow_all, posture_checks, labels, traffic):
    key = (action, allow_all, protocol, tuple(posture_checks))
    entry = cell.get(key)
    if entry is None:
        cell[key] = dict(action=action, protocol=protocol, ports=list(ports), allow_all=allow_all,
                         posture_checks=list(posture_checks), rules=list(labels), any_port=not ports, traffic=traffic)
        return
    # joined ports: one rule for every port of the protocol makes the entry every port
    entry['any_port'] = entry['any_port'] or not ports
    entry['ports'] = [] if entry['any_port'] else port_set(entry['ports'] + list(ports))
    entry['traffic'] = traffic_union(entry['traffic'], traffic)
    for label in labels:
        if label not in entry['rules']:
            entry['rules'].append(label)


def _entry_order(entry):
    protocol = entry['protocol']
    rank = PROTOCOL_ORDER.index(protocol) if protocol in PROTOCOL_ORDER else len(PROTOCOL_ORDER)
    return (entry['action'] != 'accept', entry['allow_all'], rank, protocol, entry['posture_checks'])


def _entries(cells):
    """The entries of the cells (each {key: entry} as _add_entry fills them) merged, sorted, with their text.

    Drop wins: what a drop entry of the cell covers is taken out of the accept entries (an accept entry left with
    nothing is left out); the drop entries stay, so that the cell says what is stopped."""
    merged = {}
    for cell in cells:
        for entry in cell.values():
            _add_entry(merged, entry['action'], entry['protocol'], entry['ports'], entry['allow_all'],
                       entry['posture_checks'], entry['rules'], entry['traffic'])
    dropped = NOTHING
    for entry in merged.values():
        if entry['action'] != 'accept':
            dropped = traffic_union(dropped, entry['traffic'])
    entries = []
    for entry in sorted(merged.values(), key=_entry_order):
        del entry['any_port']
        traffic = entry.pop('traffic')
        entry['text'] = traffic_text(entry['protocol'], entry['ports'])
        if entry['action'] == 'accept':
            left = traffic_minus(traffic, dropped)
            if traffic_empty(left):
                continue
            if left != traffic:
                entry['ports'] = _ranges_list(left[0] or left[1]) if entry['protocol'] in WITH_PORTS else []
                entry['text'] = traffic_words(left)
        entries.append(entry)
    return entries, dropped


def _limit(value, option='matrix_limit', what='groups for which the matrix is built'):
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = int(_text(value).strip())
        except ValueError:
            value = -1
    if value < 0:
        raise AnsibleError('access_matrix: option %s: must be a whole number, 0 or more (the most %s)' % (option, what))
    return value


def _membership_extras(reach, groups, found, group_cells, rows_wanted):
    """For each pair of groups, what some members reach beyond what the rules give the groups as such.

    (source group, destination group) -> (traffic, [source peer names]); only for pairs whose union of members'
    access is more than the group-level accepted traffic."""
    extras = {}
    if not rows_wanted:
        return extras
    members = {group['id']: reach.group_peers.get(group['id'], set()) & set(reach.peers) for group in groups}
    targets = {group['id']: ({('peer', peer) for peer in members[group['id']]}
                             | {('resource', res) for res in reach.group_resources.get(group['id'], set()) if res in reach.resources})
               for group in groups}
    by_source = {}
    for source, reaches in found.items():
        by_source[source] = {(item['kind'], item['id']): item['value'] for item in reaches}
    for start in groups:
        for end in groups:
            union, who = NOTHING, []
            for source in sorted(members[start['id']], key=lambda p: reach.peers[p]['name']):
                reached = by_source.get(source, {})
                mine = NOTHING
                for target in targets[end['id']]:
                    if target in reached:
                        mine = traffic_union(mine, reached[target])
                extra = traffic_minus(mine, group_cells.get((start['id'], end['id']), NOTHING))
                if not traffic_empty(extra):
                    union = traffic_union(union, extra)
                    who.append(reach.peers[source]['name'])
            if who:
                extras[(start['id'], end['id'])] = (union, who)
    return extras


def access_matrix(policies, groups=None, matrix_limit=MATRIX_LIMIT, peers=None, routes=None, networks=None,
                  posture_checks=None, peer_limit=PEER_LIMIT):
    """The matrix described in DOCUMENTATION, as plain data (strings wrapped so that they are never templated).

    The work grows with the rules (each rule's sources times its destinations) and, for the matrix only, with the
    square of the groups, which ``matrix_limit`` bounds; peer by peer, with the rules' peers, which ``peer_limit``
    bounds."""
    policies = _as_policies(policies)
    if groups is not None and not isinstance(groups, list):
        raise AnsibleError('access_matrix: option groups: must be the list of groups that nms.overlay.group_info '
                           'returns, or of group names, got %s' % type(groups).__name__)
    matrix_limit = _limit(matrix_limit)
    peer_limit = _limit(peer_limit, 'peer_limit', 'peers for which access is worked out peer by peer')
    peer_list = _as_list(peers, 'peers', 'peers')
    route_list = _as_list(routes, 'routes', 'routes')
    network_list = _as_list(networks, 'networks', 'networks')
    check_list = _as_list(posture_checks, 'posture_checks', 'posture_checks')
    posture_by_id = {_text(ref_id(check)): _text(check.get('name')) for check in check_list}
    known = _Groups(groups)
    cells = {}  # (source, destination) as the rules name them (All not spread) -> {key: entry}, in the rules' order
    allow_all, in_force, not_in_force = [], [], []
    resource_names = {}
    for network in network_list:
        for resource in network.get('resources') or []:
            if isinstance(resource, dict):
                resource_names[_text(ref_id(resource))] = '%s (resource of %s)' % (_text(resource.get('name')), _text(network.get('name')))
    peer_names = {_text(ref_id(peer)): _text(peer.get('name')) for peer in peer_list}

    def group_name(group_id):
        return known.by_id[group_id]['name'] if group_id in known.by_id else _text(group_id)

    def resource_name(resource):
        resource_id = _text(ref_id(resource))
        if resource.get('type') == 'peer':
            return '%s (peer)' % (peer_names.get(resource_id) or _text(resource.get('name')) or resource_id)
        return resource_names.get(resource_id) or '%s (resource)' % (_text(resource.get('name')) or resource_id)

    for policy in policies:
        policy_name = _text(policy.get('name')) or _text(policy.get('id'))
        posture = _names(policy.get('source_posture_checks'), lambda value: posture_by_id.get(_text(value)) or _text(value))
        for rule in policy.get('rules') or []:
            if not isinstance(rule, dict):
                continue
            ends = {}
            for side, resource_key in (('sources', 'sourceResource'), ('destinations', 'destinationResource')):
                resource = _resource_ref(rule, resource_key)
                ends[side] = [] if resource is not None else [key for key in (known.add(ref) for ref in rule.get(side) or []) if key]
                ends[side + '_names'] = [resource_name(resource)] if resource is not None else [group_name(key) for key in ends[side]]
            sources, destinations = ends['sources'], ends['destinations']
            protocol, ports = _text(rule.get('protocol')) or 'all', _ports(rule)
            is_allow_all = (rule.get('action') == 'accept' and protocol == 'all'
                            and any(known.is_all(key) for key in sources) and any(known.is_all(key) for key in destinations))
            line = dict(policy=policy_name, rule=_text(rule.get('name')), action=_text(rule.get('action')),
                        bidirectional=bool(rule.get('bidirectional')), protocol=protocol, ports=ports,
                        text=traffic_text(protocol, ports), sources=ends['sources_names'],
                        destinations=ends['destinations_names'], posture_checks=posture,
                        allow_all=is_allow_all, missing_groups=not ends['sources_names'] or not ends['destinations_names'])
            reason = 'policy disabled' if not policy.get('enabled') else 'rule disabled' if not rule.get('enabled') else None
            if reason:
                not_in_force.append(dict(line, reason=reason))
                continue
            in_force.append(line)
            if is_allow_all and policy_name not in allow_all:
                allow_all.append(policy_name)
            pairs = [(sources, destinations)]
            if rule.get('bidirectional'):
                pairs.append((destinations, sources))
            label = '%s / %s' % (policy_name, line['rule'])
            traffic = rule_traffic(rule)
            for starts, stops in pairs:
                for start in starts:
                    for end in stops:
                        cell = cells.setdefault((start, end), {})
                        _add_entry(cell, line['action'], protocol, ports, is_allow_all, posture, [label], traffic)

    ordered = known.ordered()
    position = {group['id']: index for index, group in enumerate(ordered)}
    all_keys = [group['id'] for group in ordered if known.is_all(group['id'])]

    reaches = []
    for start, end in sorted(cells, key=lambda pair: (position[pair[0]], position[pair[1]])):
        reaches.append(dict(source=group_name(start), source_id=start, destination=group_name(end), destination_id=end,
                            entries=_entries([cells[(start, end)]])[0]))

    # peer by peer, when the peers were given and are not too many
    peers_omitted = len(peer_list) > peer_limit
    peer_rows, found, reach = [], {}, None
    if peer_list and not peers_omitted:
        reach = _Reach(policies, [group for group in groups or [] if isinstance(group, dict)], peer_list, route_list,
                       network_list, lambda value: posture_by_id.get(_text(value)) or _text(value), check_list)
        reach.compute()
        found = reach.results()
        linked = reach.connects(found)
        for peer_id in sorted(reach.peers, key=lambda p: (reach.peers[p]['name'].casefold(), reach.peers[p]['name'], p)):
            peer = reach.peers[peer_id]
            peer_rows.append(dict(id=peer_id, name=peer['name'], ip=peer['ip'],
                                  groups=sorted((reach.group_names.get(g, g) for g in peer['groups']), key=lambda n: (n.casefold(), n)),
                                  reaches=[{key: value for key, value in item.items() if key != 'value'} for item in found.get(peer_id, [])],
                                  connects=linked.get(peer_id, []), posture_failed=peer['failed_names']))

    rows = []
    rows_omitted = len(ordered) > matrix_limit
    if not rows_omitted:
        order = {pair: index for index, pair in enumerate(cells)}  # merged in the rules' order

        def reaching(source, destination):
            """What fills a cell: the rules between the two groups, and those from or to All (which covers every
            group, All included)."""
            starts = set([source] + all_keys)
            ends = set([destination] + all_keys)
            pairs = [(start, end) for start in starts for end in ends if (start, end) in cells]
            return [cells[pair] for pair in sorted(pairs, key=order.get)]

        group_level, built = {}, []
        for source in ordered:
            for destination in ordered:
                entries, dropped = _entries(reaching(source['id'], destination['id']))
                accepted = NOTHING
                for cell in reaching(source['id'], destination['id']):
                    for entry in cell.values():
                        if entry['action'] == 'accept':
                            accepted = traffic_union(accepted, entry['traffic'])
                group_level[(source['id'], destination['id'])] = traffic_minus(accepted, dropped)
                built.append((source, destination, entries))
        extras = _membership_extras(reach, ordered, found, group_level, bool(found)) if reach else {}
        row_cells = []
        for source, destination, entries in built:
            extra = extras.get((source['id'], destination['id']))
            row_cells.append(dict(destination=destination['name'], destination_id=destination['id'],
                                  same_group=source['id'] == destination['id'], entries=entries,
                                  members=dict(text=traffic_words(extra[0]), traffic=traffic_data(extra[0]), peers=extra[1]) if extra else None))
            if len(row_cells) == len(ordered):
                rows.append(dict(source=source['name'], source_id=source['id'], peers_count=source['peers_count'], cells=row_cells))
                row_cells = []
    route_rows = _route_rows(route_list, network_list, reach, found, known, peer_names)
    unsafe = _unsafe if PLAIN_TEXTS_KEPT else wrap_var
    return unsafe(dict(groups=ordered, rows=rows, rows_omitted=rows_omitted, matrix_limit=matrix_limit, reaches=reaches,
                       all_groups=all_keys, allow_all=allow_all, in_force=in_force, not_in_force=not_in_force,
                       peers=peer_rows, peers_omitted=peers_omitted, peer_limit=peer_limit, peer_count=len(peer_list),
                       routes=route_rows))


def _route_rows(routes, networks, reach, found, known, peer_names):
    """Routes and network resources: where they lead, through which peers, for whom, and who reaches them."""
    reached_by = {}
    for source, items in found.items():
        for item in items:
            if item['kind'] != 'peer':
                reached_by.setdefault((item['kind'], item['id']), []).append(reach.peers[source]['name'])

    def group_names(values):
        return sorted((known.by_id[_text(ref_id(v))]['name'] if _text(ref_id(v)) in known.by_id else _text(ref_id(v)) for v in values or []),
                      key=lambda n: (n.casefold(), n))

    def routing(item):
        names = ['%s (peer)' % (peer_names.get(_text(item.get('peer'))) or _text(item.get('peer')))] if _text(item.get('peer')) else []
        return names + group_names(item.get('peer_groups'))

    rows = []
    for route in routes:
        route_id = _text(ref_id(route))
        rows.append(dict(kind='route', id=route_id, name=_Reach.route_name(route), network='', enabled=bool(route.get('enabled')),
                         routing=routing(route), groups=group_names(route.get('groups')),
                         access_control_groups=group_names(route.get('access_control_groups')),
                         reached_by=sorted(reached_by.get(('route', route_id), []), key=lambda n: (n.casefold(), n))))
    for network in networks:
        routers = [router for router in network.get('routers') or [] if isinstance(router, dict)]
        routing_names = sorted({name for router in routers if router.get('enabled', True) for name in routing(router)})
        for resource in network.get('resources') or []:
            if not isinstance(resource, dict):
                continue
            resource_id = _text(ref_id(resource))
            rows.append(dict(kind='resource', id=resource_id, name='%s (%s)' % (_text(resource.get('name')), _text(resource.get('address'))),
                             network=_text(network.get('name')), enabled=bool(resource.get('enabled', True)), routing=routing_names,
                             groups=group_names(resource.get('groups')), access_control_groups=[],
                             reached_by=sorted(reached_by.get(('resource', resource_id), []), key=lambda n: (n.casefold(), n))))
    rows.sort(key=lambda r: (r['kind'] != 'route', r['network'].casefold(), r['name'].casefold(), r['id']))
    return rows


class FilterModule:
    """nms.overlay's filters."""

    def filters(self):
        return {'access_matrix': access_matrix}
