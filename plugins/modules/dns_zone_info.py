#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: dns_zone_info
short_description: List custom DNS zones
version_added: 1.0.0
description:
  - Returns all custom DNS zones with their records, or the zone with a given O(id) or O(domain), or the zones
    with a given O(name).
options:
  id:
    description:
      - Return only the zone with this id. An unknown id returns an empty list.
      - Mutually exclusive with O(domain) and O(name).
    type: str
  domain:
    description:
      - Return only the zone of this domain.
      - Mutually exclusive with O(id).
    type: str
seealso:
  - module: nms.overlay.dns_zone
  - module: nms.overlay.dns_record_info
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.by_id_or_name, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: List every zone
  nms.overlay.dns_zone_info:
  register: all_zones

- name: Read one zone by its domain
  nms.overlay.dns_zone_info:
    domain: internal.example.com
  register: internal

- name: Show the names its records give
  ansible.builtin.debug:
    msg: "{{ internal.dns_zones[0].records | map(attribute='name') | list }}"
  when: internal.dns_zones | length > 0
'''

RETURN = r'''
dns_zones:
  description: The zones found, also when filtered to one. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: Id of the zone.
      type: str
      sample: ch8i4ug6lnn4g9hqv7m0
    name:
      description: Name of the zone.
      type: str
      sample: Internal services
    domain:
      description: Domain of the zone.
      type: str
      sample: internal.example.com
    enabled:
      description: Whether the peers resolve the zone.
      type: bool
      sample: true
    enable_search_domain:
      description: Whether the zone's domain is a search domain of the peers.
      type: bool
      sample: false
    distribution_groups:
      description: Ids of the groups whose peers resolve the zone; never null.
      type: list
      elements: str
      sample: [ch8i4ug6lnn4g9hqv7l0]
    records:
      description: The zone's records, each with C(id), C(name), C(type), C(content) and C(ttl); never null.
      type: list
      elements: dict
      sample: [{id: ch8i4ug6lnn4g9hqv7n0, name: db.internal.example.com, type: A, content: 10.0.0.5, ttl: 300}]
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_zone import DnsZoneModule


class DnsZoneInfoModule(InfoModule):
    resource = DnsZoneModule
    filters = ('name',)


if __name__ == '__main__':
    DnsZoneInfoModule.main()
