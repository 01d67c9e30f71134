#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: policy
short_description: Manage access policies and their rules
version_added: 1.0.0
description:
  - Creates, updates and deletes an access policy. A policy's rules let peers of source groups reach
    peers of destination groups; posture checks may gate the source peers.
  - A policy is found by O(id) when given, otherwise by O(name). A name shared by several policies
    fails and lists their ids.
  - Options left unset keep the server's value. A task without O(rules) never changes the rules, one
    without O(source_posture_checks) never changes the posture checks.
  - O(rules) is the complete, ordered list of rules. Rules are compared in order, with the rule ids
    that the server generates ignored and ports, sources and destinations compared as sets, so a
    re-run with the same rules reports no change and sends no write.
  - Names of groups and posture checks are resolved to ids with one list request per kind. An unknown
    name fails before any write and the message names it.
  - The rules are checked before any request the way the server checks them (protocol V(all) and
    V(icmp) take no ports and must be bidirectional; a one-way V(tcp) or V(udp) rule needs ports),
    and the failure names the rule and the option, for example C(rules[1].ports).
options:
  id:
    description:
      - Id of the policy. Needed to rename a policy; otherwise O(name) finds it.
    type: str
  name:
    description:
      - Name of the policy. Policy names need not be unique on the server, but this module refuses
        to guess between policies of one name.
      - Required to create a policy.
    type: str
  description:
    description:
      - Description of the policy. A new policy gets an empty description when unset.
    type: str
  enabled:
    description:
      - Whether the policy is in force. A new policy is enabled when unset.
    type: bool
  source_posture_checks:
    description:
      - The complete set of posture checks, as names or ids, that source peers must pass. Order does
        not matter.
      - V([]) removes every posture check from the policy. Leave it unset to keep the current ones.
    type: list
    elements: str
  rules:
    description:
      - The complete, ordered list of rules of the policy. Required to create a policy.
      - A rule option left unset keeps the value of the server rule with the same O(rules[].name) (when
        exactly one exists). For a new rule the defaults below apply; sources and destinations have
        no default.
      - Several rules depend on the server. A v0.27 server stores them all but leaves a source group out of a
        later rule's answer when an earlier rule of the policy lists it; the module compares with that in mind, so a
        re-run sends no write. Today's servers keep only the first rule of a policy (they give every rule one id),
        so there several rules are refused before any write. One rule per policy works everywhere.
      - When the server answers a later rule without sources, an update of the policy needs that rule's
        O(rules[].sources), because sending the rule back as answered could drop a source group the server stores.
    type: list
    elements: dict
    suboptions:
      name:
        description:
          - Name of the rule; also what matches a rule to the server's rule of the same name.
        type: str
        required: true
      description:
        description:
          - Description of the rule. A new rule gets an empty description when unset.
        type: str
      enabled:
        description:
          - Whether the rule is in force. A new rule is enabled (V(true)) when unset.
        type: bool
      action:
        description:
          - Whether the rule accepts or drops the traffic. A new rule gets V(accept) when unset.
        type: str
        choices: [accept, drop]
      bidirectional:
        description:
          - Whether the rule also applies from destinations to sources. A new rule gets V(true) when unset.
          - Must be V(true) with protocol V(all) or V(icmp). V(false) with V(tcp) or V(udp) needs O(rules[].ports).
        type: bool
      protocol:
        description:
          - Traffic the rule applies to. A new rule gets V(all) when unset.
          - Setting V(all) or V(icmp) without O(rules[].ports) and O(rules[].bidirectional) also removes the
            ports and makes the rule bidirectional, as those protocols require.
          - V(netbird-ssh) is SSH through NetBird's own SSH server on the destination peers, with O(rules[].authorized_groups)
            saying who may log in as which local user. It needs a server from v0.61.0 on (the release that brought it with
            O(rules[].authorized_groups)); an older server, v0.27 among them, fails the task before any write.
        type: str
        choices: [all, tcp, udp, icmp, netbird-ssh]
      ports:
        description:
          - Ports (V(443)) or port ranges (V(8000-8100)), each within 1..65535. Order does not matter.
          - A range of one port (V(9000-9000)) is that port (V(9000)). It is compared, sent and returned as the
            port, as servers read it back, so a re-run changes nothing, and a v0.27 server takes it.
          - Port ranges need a current server (one that has C(GET /api/instance/version)); they are sent there
            in the rule's C(port_ranges). A v0.27 server takes single ports only, so a range fails before any write,
            naming the option. The module asks the server what it is (one request per task) only when a rule has a
            range or the policy several rules.
          - Only with protocol V(tcp) or V(udp). V([]) removes every port. A new rule has none when unset.
        type: list
        elements: str
      sources:
        description:
          - Source groups, as names or ids. Order does not matter. Required for a new rule without
            O(rules[].source_resource).
          - Given, they replace a source resource the rule has.
        type: list
        elements: str
      destinations:
        description:
          - Destination groups, as names or ids. Order does not matter. Required for a new rule without
            O(rules[].destination_resource).
          - Given, they replace a destination resource the rule has.
        type: list
        elements: str
      source_resource:
        description:
          - One peer (or network resource), by name or id, as the rule's source in place of O(rules[].sources);
            the two cannot both be given. A v0.77 server applies a source resource only when it is a peer.
          - The name must match exactly one peer or network resource; a name both a peer and a network resource
            have fails, asking for the id.
          - Left unset, the rule keeps the source resource it has (unless O(rules[].sources) is given).
          - Servers have it from v0.35.0 on; on an older server a task that sets it fails before any change.
        type: str
      destination_resource:
        description:
          - One peer or network resource (see M(nms.overlay.network_resource)), by name or id, as the rule's
            destination in place of O(rules[].destinations); the two cannot both be given.
          - The name must match exactly one peer or network resource, as for O(rules[].source_resource).
          - Left unset, the rule keeps the destination resource it has (unless O(rules[].destinations) is given).
          - Servers have it from v0.35.0 on; on an older server a task that sets it fails before any change.
        type: str
      authorized_groups:
        description:
          - "SSH access of a O(rules[].protocol=netbird-ssh) rule, a mapping of user groups (by name or id) to the local
            users of the destination peers that the group's users may log in as, for example C({admins: [root, ubuntu]}).
            An empty list (C({admins: []})) lets them log in as any local user."
          - Order and repeats of the local users do not matter (servers compare them as a set); the groups are
            resolved like O(rules[].sources), and an unknown group fails before any write.
          - Servers keep it only with protocol V(netbird-ssh); with another protocol it fails before any request.
            A rule that has it must name each of its O(rules[].sources) groups in it, or the server refuses it, so
            the task fails before any write, naming the groups left out. Without it a V(netbird-ssh) rule lets
            every user of the account log in as any local user.
          - V({}) removes it. Left unset, the rule keeps what the server holds (dropped only when
            O(rules[].protocol) changes to another protocol, which cannot hold it).
          - Servers have it from v0.61.0 on; on an older server a task that sets it fails before any change.
        type: dict
  state:
    description:
      - V(present) creates or updates the policy; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
notes:
  - Deployed servers silently drop unknown group ids from rules; this module resolves every group
    first, so an unknown name or id fails before the write instead.
seealso:
  - module: nms.overlay.policy_info
  - module: nms.overlay.posture_check
  - module: nms.overlay.group
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource, nms.overlay.module.converge]
'''

EXAMPLES = r'''
# The connection comes from NMS_API_URL and NMS_API_TOKEN (or module_defaults).
- name: Make the groups and the posture check that the policies below refer to
  nms.overlay.group:
    name: "{{ item }}"
  loop:
    - developers
    - web-servers

- name: Require a recent client
  nms.overlay.posture_check:
    name: recent-client
    checks:
      nb_version_check:
        min_version: 0.25.0

- name: Let developers reach the web servers on HTTPS and 8080
  nms.overlay.policy:
    name: developers-to-web
    description: Developers reach the web servers
    rules:
      - name: https
        protocol: tcp
        ports:
          - "443"
          - "8080"
        sources:
          - developers
        destinations:
          - web-servers

- name: Gate the same policy with the posture check, keeping its rules
  nms.overlay.policy:
    name: developers-to-web
    source_posture_checks:
      - recent-client

- name: Disable the policy without changing anything else
  nms.overlay.policy:
    name: developers-to-web
    enabled: false

- name: A one-way rule that drops DNS traffic from developers to the web servers
  nms.overlay.policy:
    name: no-dns-to-web
    rules:
      - name: drop-dns
        action: drop
        protocol: udp
        bidirectional: false
        ports:
          - "53"
        sources:
          - developers
        destinations:
          - web-servers

- name: Let developers reach one network resource (servers from v0.35.0 on)
  nms.overlay.policy:
    name: developers-to-office-lan
    rules:
      - name: office-lan
        protocol: all
        sources:
          - developers
        destination_resource: office-lan

- name: Let developers log in to the web servers over NetBird SSH as deploy or ubuntu (servers from v0.61.0 on)
  nms.overlay.policy:
    name: developers-ssh
    rules:
      - name: ssh
        protocol: netbird-ssh
        sources:
          - developers
        destinations:
          - web-servers
        authorized_groups:
          developers:
            - deploy
            - ubuntu

- name: Remove a policy
  nms.overlay.policy:
    name: no-dns-to-web
    state: absent
'''

RETURN = r'''
policy:
  description:
    - The policy after the change. In check mode, the policy as it would be.
    - Empty after O(state=absent) when there was nothing to delete; otherwise the deleted policy.
  returned: always
  type: dict
  contains:
    id:
      description:
        - Id of the policy.
        - In check mode, a policy still to be created has the placeholder C((new policy NAME)).
      type: str
      sample: ch8i4ug6lnn4g9hqv7l0
    name:
      description: Name of the policy.
      type: str
      sample: developers-to-web
    description:
      description: Description of the policy.
      type: str
      sample: Developers reach the web servers
    enabled:
      description: Whether the policy is in force.
      type: bool
      sample: true
    source_posture_checks:
      description: Posture checks of the source peers, each with C(id) and C(name); never null.
      type: list
      elements: dict
      sample: [{id: cpc1, name: recent-client}]
    rules:
      description: The rules in order.
      type: list
      elements: dict
      contains:
        id:
          description:
            - Id of the rule (deployed servers set it to the policy id).
            - In check mode, the id of the server rule it keeps (the rule of the same name, else the rule at its
              position), else the policy's id, which for a policy still to be created is the placeholder
              C((new policy NAME)).
          type: str
          sample: ch8i4ug6lnn4g9hqv7l0
        name:
          description: Name of the rule.
          type: str
          sample: https
        description:
          description: Description of the rule.
          type: str
          sample: ''
        enabled:
          description: Whether the rule is in force.
          type: bool
          sample: true
        action:
          description: V(accept) or V(drop).
          type: str
          sample: accept
        bidirectional:
          description: Whether the rule applies in both directions.
          type: bool
          sample: true
        protocol:
          description: V(all), V(tcp), V(udp), V(icmp) or V(netbird-ssh).
          type: str
          sample: tcp
        ports:
          description: Ports and port ranges; never missing.
          type: list
          elements: str
          sample: ['443', '8000-8100']
        port_ranges:
          description:
            - The rule's port ranges as the server holds them, each with C(start) and C(end) (a single port has both
              equal); C(ports) lists them too, written like V(8000-8100).
          returned: by servers that have it (v0.77), when the rule has port ranges
          type: list
          elements: dict
          sample: [{start: 8000, end: 8100}]
        sources:
          description: Source groups, each with C(id) and C(name); never null.
          type: list
          elements: dict
          sample: [{id: cgr1, name: developers}]
        destinations:
          description: Destination groups, each with C(id) and C(name); never null.
          type: list
          elements: dict
          sample: [{id: cgr2, name: web-servers}]
        sourceResource:
          description:
            - The rule's source resource in place of its sources, with C(id) and C(type) (V(peer), or V(host),
              V(subnet) or V(domain) for a network resource).
          returned: by servers that have it (v0.77), when the rule has one
          type: dict
          sample: {id: cgr1peer, type: peer}
        destinationResource:
          description:
            - The rule's destination resource in place of its destinations, with C(id) and C(type).
          returned: by servers that have it (v0.77), when the rule has one
          type: dict
          sample: {id: d0cnlvuvb2ls73e2m5dg, type: subnet}
        authorized_groups:
          description:
            - SSH access of a V(netbird-ssh) rule as the server holds it, user group ids to local users.
          returned: by servers that have it (v0.61.0 on), when the rule has it
          type: dict
          sample: {cgr3: [root, ubuntu]}
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.policy import PolicyModule


if __name__ == '__main__':
    PolicyModule.main()
