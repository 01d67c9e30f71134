#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: dns_record
short_description: Manage records of custom DNS zones
version_added: 0.1.0
description:
  - Creates, updates and deletes a record (A, AAAA or CNAME) of a custom DNS zone (see M(nms.overlay.dns_zone)).
  - A record is found by O(id) when given, otherwise by O(name) and O(type) among the records of O(zone).
    Where several records share that name and type (round robin), O(content) chooses among them; without
    it, or when none of them has that content, the task fails and lists their ids.
  - Options left unset keep the server's value. One record of a name and type is updated in place, its
    O(content) and O(ttl) included.
notes:
  - The server refuses a second record of the same name, type and content, and a CNAME record beside any other
    record of its name; the task then fails with the server's message.
options:
  zone:
    description:
      - The zone of the record, as a zone id, domain or name.
      - When deleting, an unknown zone means there is no record to delete.
    type: str
    required: true
  id:
    description:
      - Id of the record. Needed to change a record's name or type; otherwise O(name) and O(type) find it.
    type: str
  name:
    description:
      - The record's fully qualified name, the zone's domain itself or a name ending with C(.<domain>), such as
        V(db.internal.example.com); a leading V(*.) makes a wildcard record.
      - Required to create a record.
    type: str
  type:
    description:
      - The record's type. Finds the record together with O(name).
      - Required to create a record.
    type: str
    choices: [A, AAAA, CNAME]
  content:
    description:
      - What the record resolves to, 1 to 255 characters, an IPv4 address for an V(A) record, an IPv6 address
        for an V(AAAA) record, a DNS name for a V(CNAME) record. Addresses compare by value (V(2001:DB8::1) is
        V(2001:db8::1)).
      - Required to create a record.
    type: str
  ttl:
    description:
      - Time to live of the record in seconds, V(0) or more.
      - Required to create a record.
    type: int
  state:
    description:
      - V(present) creates or updates the record; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
seealso:
  - module: nms.overlay.dns_record_info
  - module: nms.overlay.dns_zone
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: Ensure an A record in the internal zone
  nms.overlay.dns_record:
    zone: internal.example.com
    name: db.internal.example.com
    type: A
    content: 10.0.0.5
    ttl: 300

- name: Ensure an alias
  nms.overlay.dns_record:
    zone: internal.example.com
    name: www.internal.example.com
    type: CNAME
    content: web.internal.example.com
    ttl: 3600

- name: Move the database to another address (the one A record of its name is updated)
  nms.overlay.dns_record:
    zone: internal.example.com
    name: db.internal.example.com
    type: A
    content: 10.0.0.6

- name: Delete the alias
  nms.overlay.dns_record:
    zone: internal.example.com
    name: www.internal.example.com
    type: CNAME
    state: absent
'''

RETURN = r'''
dns_record:
  description:
    - The record after the change. In check mode, the record as it would be.
    - Empty after O(state=absent) when there was nothing to delete; otherwise the deleted record.
  returned: always
  type: dict
  contains:
    id:
      description:
        - Id of the record.
        - In check mode, a record that would be created has the placeholder C((new DNS record <name>)).
      type: str
      sample: ch8i4ug6lnn4g9hqv7n0
    name:
      description: Fully qualified name of the record.
      type: str
      sample: db.internal.example.com
    type:
      description: V(A), V(AAAA) or V(CNAME).
      type: str
      sample: A
    content:
      description: What the record resolves to.
      type: str
      sample: 10.0.0.5
    ttl:
      description: Time to live in seconds.
      type: int
      sample: 300
'''

from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_record import DnsRecordModule


if __name__ == '__main__':
    DnsRecordModule.main()
