#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: policy_info
short_description: List access policies, or review who reaches whom
version_added: 1.0.0
description:
  - Returns all policies, or the policies with a given O(id) or O(name). Groups and posture checks are
    returned with their names beside their ids.
  - With O(view=access) it also returns RV(access), a flat list of rows saying which group reaches
    which group on which protocol and ports, so access can be reviewed without reading the policies.
  - To see that access as a group-to-group matrix, pass RV(policies) to the filter P(nms.overlay.access_matrix#filter),
    or run the playbook C(nms.overlay.access_report), which writes it as a Markdown table and as an HTML page.
options:
  view:
    description:
      - V(policies) returns RV(policies) only.
      - V(access) returns RV(policies) and RV(access), computed from the enabled rules of the enabled
        policies that were found (all of them, or the one selected by O(id) or O(name)).
    type: str
    choices: [policies, access]
    default: policies
seealso:
  - module: nms.overlay.policy
  - module: nms.overlay.posture_check_info
  - plugin: nms.overlay.access_matrix
    plugin_type: filter
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.by_id_or_name]
'''

EXAMPLES = r'''
- name: List every policy
  nms.overlay.policy_info:
  register: all_policies

- name: Read the Default policy with group names
  nms.overlay.policy_info:
    name: Default
  register: default_policy

- name: Review who reaches whom
  nms.overlay.policy_info:
    view: access
  register: review

- name: Show one line per source, destination, protocol and ports
  ansible.builtin.debug:
    msg: "{{ review.access | map(attribute='source') | zip(review.access | map(attribute='destination')) | list }}"
'''

RETURN = r'''
policies:
  description: The policies found, also when filtered to one. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: Id of the policy.
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
          description: Id of the rule (deployed servers set it to the policy id).
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
            - SSH access of a V(netbird-ssh) rule as the server holds it, user group ids to local users (see
              M(nms.overlay.policy)).
          returned: by servers that have it (v0.61.0 on), when the rule has it
          type: dict
          sample: {cgr3: [root, ubuntu]}
access:
  description:
    - Who reaches whom, from the enabled rules of the enabled policies found. One row per source group,
      destination group and rule; a bidirectional rule gives a row in each direction (one row when both
      ends are the same group). Sorted by source, destination, policy and rule.
    - Posture checks are not applied here; a policy with posture checks grants its access only to the
      source peers that pass them.
  returned: when O(view=access)
  type: list
  elements: dict
  contains:
    source:
      description: Name of the group that starts the traffic (its id when the name is unknown).
      type: str
      sample: developers
    destination:
      description: Name of the group the traffic goes to (its id when the name is unknown).
      type: str
      sample: web-servers
    protocol:
      description: V(all), V(tcp), V(udp), V(icmp) or V(netbird-ssh).
      type: str
      sample: tcp
    ports:
      description: Ports and port ranges; empty means every port.
      type: list
      elements: str
      sample: ['443', '8000-8100']
    action:
      description: V(accept) or V(drop).
      type: str
      sample: accept
    policy:
      description: Name of the policy the row comes from.
      type: str
      sample: developers-to-web
    rule:
      description: Name of the rule the row comes from.
      type: str
      sample: https
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._access import access_rows, policy_result
from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.policy import PolicyModule
from ansible_collections.nms.overlay.plugins.module_utils._names import NameLookup


class PolicyInfoModule(InfoModule):
    resource = PolicyModule
    argument_spec = dict(
        id=dict(type='str'),
        name=dict(type='str'),
        view=dict(type='str', choices=['policies', 'access'], default='policies'),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.names = None

    def to_result(self, item):
        if self.names is None:
            self.names = NameLookup(self.resolver)
        return policy_result(item, self.names)

    def run(self):
        result = super().run()
        if self.params.get('view') == 'access':
            result['access'] = access_rows(result[self.plural])
        return result


if __name__ == '__main__':
    PolicyInfoModule.main()
