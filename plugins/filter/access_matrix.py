# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
name: access_matrix
short_description: Who reaches whom, group to group, from the policies policy_info returns
version_added: 0.1.0
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
  - Rules with action C(drop) are listed in the cells as they are; they are not subtracted from the accepted
    traffic.
  - Disabled policies and disabled rules are not in the matrix; RV(_value.not_in_force) lists them,
    and the enabled rules that name a resource (C(sourceResource) or C(destinationResource), a peer or a network
    resource of current servers) rather than groups on that side.
  - Posture checks are not applied; an entry from a policy with source posture checks names them, since it
    holds only for the source peers that pass them.
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
                  description: Ports and port ranges (C(8000-8100)), sorted; empty means every port.
                  type: list
                  elements: str
                text:
                  description: The protocol and ports as one short text, for example C(tcp 22, 443) or C(all).
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
    allow_all:
      description: Names of the enabled allow-all policies.
      type: list
      elements: str
    in_force:
      description: The enabled rules of the enabled policies, in the policies' order (rules in their order).
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
          description: Names of the source groups.
          type: list
          elements: str
        destinations:
          description: Names of the destination groups.
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
        - Rules not in the matrix, with the keys of RV(_value.in_force) and C(reason), one of C(policy disabled),
          C(rule disabled) or C(names a resource, not groups).
      type: list
      elements: dict
'''

from ansible.errors import AnsibleError
from ansible.utils.unsafe_proxy import wrap_var

from ansible_collections.nms.overlay.plugins.module_utils._access import port_set, rule_ports
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._names import ALL_GROUP, builtin_all_group

PROTOCOL_ORDER = ('all', 'tcp', 'udp', 'icmp')
WITH_PORTS = ('tcp', 'udp')
RESOURCE_KEYS = ('sourceResource', 'destinationResource')
MATRIX_LIMIT = 50


def _text(value):
    return '' if value is None else str(value)


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


def _names(values, lookup=None):
    names = []
    for value in values or []:
        if isinstance(value, dict):
            names.append(_text(value.get('name')) or _text(ref_id(value)))
        else:
            names.append(lookup(value) if lookup else _text(value))
    return names


def _as_policies(data):
    if isinstance(data, dict) and isinstance(data.get('policies'), list):
        data = data['policies']
    if not isinstance(data, list) or not all(isinstance(policy, dict) for policy in data):
        raise AnsibleError('access_matrix: its input must be the list of policies that nms.overlay.policy_info returns '
                           '(its result\'s policies), got %s' % type(data).__name__)
    return data


def _add_entry(cell, action, protocol, ports, allow_all, posture_checks, labels):
    key = (action, allow_all, protocol, tuple(posture_checks))
    entry = cell.get(key)
    if entry is None:
        cell[key] = dict(action=action, protocol=protocol, ports=list(ports), allow_all=allow_all,
                         posture_checks=list(posture_checks), rules=list(labels), any_port=not ports)
        return
    # joined ports: one rule for every port of the protocol makes the entry every port
    entry['any_port'] = entry['any_port'] or not ports
    entry['ports'] = [] if entry['any_port'] else port_set(entry['ports'] + list(ports))
    for label in labels:
        if label not in entry['rules']:
            entry['rules'].append(label)


def _entry_order(entry):
    protocol = entry['protocol']
    rank = PROTOCOL_ORDER.index(protocol) if protocol in PROTOCOL_ORDER else len(PROTOCOL_ORDER)
    return (entry['action'] != 'accept', entry['allow_all'], rank, protocol, entry['posture_checks'])


def _entries(cells):
    """The entries of the cells (each {key: entry} as _add_entry fills them) merged, sorted, with their text."""
    merged = {}
    for cell in cells:
        for entry in cell.values():
            _add_entry(merged, entry['action'], entry['protocol'], entry['ports'], entry['allow_all'],
                       entry['posture_checks'], entry['rules'])
    entries = sorted(merged.values(), key=_entry_order)
    for entry in entries:
        del entry['any_port']
        entry['text'] = traffic_text(entry['protocol'], entry['ports'])
    return entries


def _limit(value):
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = int(_text(value).strip())
        except ValueError:
            value = -1
    if value < 0:
        raise AnsibleError('access_matrix: option matrix_limit: must be a whole number, 0 or more (the most groups '
                           'for which the matrix is built)')
    return value


def access_matrix(policies, groups=None, matrix_limit=MATRIX_LIMIT):
    """The matrix described in DOCUMENTATION, as plain data (strings wrapped so that they are never templated).

    The work grows with the rules (each rule's sources times its destinations) and, for the matrix only, with the
    square of the groups, which ``matrix_limit`` bounds."""
    policies = _as_policies(policies)
    if groups is not None and not isinstance(groups, list):
        raise AnsibleError('access_matrix: option groups: must be the list of groups that nms.overlay.group_info '
                           'returns, or of group names, got %s' % type(groups).__name__)
    matrix_limit = _limit(matrix_limit)
    known = _Groups(groups)
    cells = {}  # (source, destination) as the rules name them (All not spread) -> {key: entry}, in the rules' order
    allow_all, in_force, not_in_force = [], [], []

    def group_name(group_id):
        return known.by_id[group_id]['name'] if group_id in known.by_id else _text(group_id)

    for policy in policies:
        policy_name = _text(policy.get('name')) or _text(policy.get('id'))
        posture_checks = _names(policy.get('source_posture_checks'))
        for rule in policy.get('rules') or []:
            if not isinstance(rule, dict):
                continue
            sources = [key for key in (known.add(ref) for ref in rule.get('sources') or []) if key]
            destinations = [key for key in (known.add(ref) for ref in rule.get('destinations') or []) if key]
            protocol, ports = _text(rule.get('protocol')) or 'all', _ports(rule)
            is_allow_all = (rule.get('action') == 'accept' and protocol == 'all'
                            and any(known.is_all(key) for key in sources) and any(known.is_all(key) for key in destinations))
            line = dict(policy=policy_name, rule=_text(rule.get('name')), action=_text(rule.get('action')),
                        bidirectional=bool(rule.get('bidirectional')), protocol=protocol, ports=ports,
                        text=traffic_text(protocol, ports), sources=[group_name(key) for key in sources],
                        destinations=[group_name(key) for key in destinations], posture_checks=posture_checks,
                        allow_all=is_allow_all, missing_groups=not sources or not destinations)
            reason = ('policy disabled' if not policy.get('enabled') else 'rule disabled' if not rule.get('enabled')
                      else 'names a resource, not groups' if any(isinstance(rule.get(k), dict) and rule.get(k) for k in RESOURCE_KEYS)
                      else None)
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
            for starts, ends in pairs:
                for start in starts:
                    for end in ends:
                        cell = cells.setdefault((start, end), {})
                        _add_entry(cell, line['action'], protocol, ports, is_allow_all, posture_checks, [label])

    ordered = known.ordered()
    position = {group['id']: index for index, group in enumerate(ordered)}
    all_keys = [group['id'] for group in ordered if known.is_all(group['id'])]

    reaches = []
    for start, end in sorted(cells, key=lambda pair: (position[pair[0]], position[pair[1]])):
        reaches.append(dict(source=group_name(start), source_id=start, destination=group_name(end), destination_id=end,
                            entries=_entries([cells[(start, end)]])))

    rows = []
    rows_omitted = len(ordered) > matrix_limit
    if not rows_omitted:
        order = {pair: index for index, pair in enumerate(cells)}  # merged in the rules' order

        def reaching(source, destination):
            """What fills a cell: the rules between the two groups, and those from or to All (which covers every
            group, All included)."""
            starts = set([source] + all_keys)
            ends = set([destination] + all_keys)
            found = [(start, end) for start in starts for end in ends if (start, end) in cells]
            return [cells[pair] for pair in sorted(found, key=order.get)]

        for source in ordered:
            row_cells = []
            for destination in ordered:
                row_cells.append(dict(destination=destination['name'], destination_id=destination['id'],
                                      same_group=source['id'] == destination['id'],
                                      entries=_entries(reaching(source['id'], destination['id']))))
            rows.append(dict(source=source['name'], source_id=source['id'], peers_count=source['peers_count'], cells=row_cells))
    return wrap_var(dict(groups=ordered, rows=rows, rows_omitted=rows_omitted, matrix_limit=matrix_limit, reaches=reaches,
                         all_groups=all_keys, allow_all=allow_all, in_force=in_force, not_in_force=not_in_force))


class FilterModule:
    """nms.overlay's filters."""

    def filters(self):
        return {'access_matrix': access_matrix}
