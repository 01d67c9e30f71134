#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: dns_record_info
short_description: List records of a custom DNS zone
version_added: 1.0.0
description:
  - Returns the records of a custom DNS zone, all of them, the record with a given O(id), or the records with a
    given O(name) and/or O(type).
options:
  zone:
    description:
      - The zone whose records to list, as a zone id, domain or name. An unknown zone fails.
    type: str
    required: true
  id:
    description:
      - Return only the record with this id. An unknown id returns an empty list.
      - Mutually exclusive with O(name) and O(type).
    type: str
  name:
    description:
      - Return only the records with this fully qualified name.
      - Mutually exclusive with O(id).
    type: str
  type:
    description:
      - Return only the records of this type.
      - Mutually exclusive with O(id).
    type: str
    choices: [A, AAAA, CNAME]
seealso:
  - module: nms.overlay.dns_record
  - module: nms.overlay.dns_zone_info
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.by_id_or_name, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: List the records of the internal zone
  nms.overlay.dns_record_info:
    zone: internal.example.com
  register: internal_records

- name: Read the A records of one name
  nms.overlay.dns_record_info:
    zone: internal.example.com
    name: db.internal.example.com
    type: A
  register: db

- name: Show their addresses
  ansible.builtin.debug:
    msg: "{{ db.dns_records | map(attribute='content') | list }}"
'''

RETURN = r'''
dns_records:
  description: The records found, also when filtered to one. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: Id of the record.
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

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_record import DnsRecordModule


class DnsRecordInfoModule(InfoModule):
    resource = DnsRecordModule
    filters = ('type',)


if __name__ == '__main__':
    DnsRecordInfoModule.main()
