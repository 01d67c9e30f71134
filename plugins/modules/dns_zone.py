#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: dns_zone
short_description: Manage custom DNS zones
version_added: 1.0.0
description:
  - Creates, updates and deletes a custom DNS zone, whose records (managed with M(nms.overlay.dns_record))
    the peers of its distribution groups resolve.
  - A zone is found by O(id) when given, otherwise by O(domain). Servers keep one zone per domain.
  - Options left unset keep the server's value.
  - A zone's domain cannot change after it is created. A different O(domain) for a zone found by O(id) is
    reported as a warning and changes nothing; create a new zone to use another domain.
options:
  id:
    description:
      - Id of the zone. Needed to find a zone by id; otherwise O(domain) finds it.
    type: str
  domain:
    description:
      - The zone's domain, such as V(internal.example.com) (dot-separated labels of letters, digits, hyphens and
        underscores, no trailing dot). It must not be the peers' own DNS domain, under which the server names
        the peers, that is the account's C(dns_domain) setting, or the server's own domain (its C(--dns-domain),
        V(netbird.selfhosted) by default). Servers refuse such a zone; the task refuses it first, before any write
        (in check mode too), after reading the account and the peers (two requests, only when it creates a zone),
        when the account's setting or the peers' names show the domain. While no peer shows the server's own
        domain, V(netbird.selfhosted) gets a warning instead (a server may run with another domain), and the
        server's refusal is the task's failure. A subdomain of it is a valid zone.
      - Required to create a zone. Fixed once the zone exists.
    type: str
  name:
    description:
      - Name of the zone, 1 to 255 characters. Zone names need not be unique.
      - Required to create a zone.
    type: str
  enabled:
    description:
      - Whether the peers resolve the zone.
      - A new zone is enabled unless this says otherwise.
    type: bool
  enable_search_domain:
    description:
      - Whether the zone's domain is a search domain of the peers (short names are tried in it).
      - A new zone gets V(false) unless this says otherwise.
    type: bool
  distribution_groups:
    description:
      - The complete set of groups whose peers resolve the zone, as group names or ids. Order does not matter.
      - At least one group. Required to create a zone; leave it unset to keep the current groups.
      - Every name must match exactly one group; an unknown or ambiguous name fails before any write.
    type: list
    elements: str
  state:
    description:
      - V(present) creates or updates the zone; V(absent) deletes it, with every record it holds.
    type: str
    choices: [present, absent]
    default: present
seealso:
  - module: nms.overlay.dns_zone_info
  - module: nms.overlay.dns_record
  - module: nms.overlay.dns_settings
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: Ensure a zone for internal names, resolved by the peers of two groups
  nms.overlay.dns_zone:
    domain: internal.example.com
    name: Internal services
    distribution_groups:
      - developers
      - servers

- name: Make it a search domain, keeping everything else
  nms.overlay.dns_zone:
    domain: internal.example.com
    enable_search_domain: true

- name: Stop resolving the zone without deleting its records
  nms.overlay.dns_zone:
    domain: internal.example.com
    enabled: false

- name: Delete the zone and its records
  nms.overlay.dns_zone:
    domain: internal.example.com
    state: absent
'''

RETURN = r'''
dns_zone:
  description:
    - The zone after the change. In check mode, the zone as it would be.
    - Empty after O(state=absent) when there was nothing to delete; otherwise the deleted zone.
  returned: always
  type: dict
  contains:
    id:
      description:
        - Id of the zone.
        - In check mode, a zone that would be created has the placeholder C((new DNS zone <domain>)).
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

from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_zone import DnsZoneModule


if __name__ == '__main__':
    DnsZoneModule.main()
