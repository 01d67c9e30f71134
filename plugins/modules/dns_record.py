#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: dns_record
short_description: Manage records of custom DNS zones
version_added: 1.0.0
description:
  - Creates, updates and deletes a record (A, AAAA or CNAME) of a custom DNS zone (see M(nms.overlay.dns_zone)).
  - A record is found by O(id) when given, otherwise among the records of O(zone) by O(name), O(type) and
    O(content). Several A (or AAAA) records of one name make round-robin DNS, one task per address, and a task
    whose O(content) no record of that name and type has creates another record beside them, never changing
    theirs. A CNAME record, the only record its name may hold, is found by O(name) and O(type) alone, and its
    O(content) is updated in place.
  - To change the content of an A or AAAA record, set O(replace_content=true) (the one record of that name and
    type gets the new content; with several, the task fails and lists their ids) or give its O(id).
  - Without O(content) (to change the O(ttl), or to delete), O(name) and O(type) find the record; where several
    records share them, the task fails and lists their ids.
  - Options left unset keep the server's value.
notes:
  - The server refuses a second record of the same name, type and content, and a CNAME record beside any other
    record of its name. The task refuses both before any write (in check mode too), naming the records in the
    way.
  - In M(nms.overlay.network_state), the records of a zone's entry are told apart the same way, so that several
    A records of one name may be described.
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
      - Finds the A or AAAA record together with O(name) and O(type), unless O(replace_content=true).
      - Required to create a record.
    type: str
  replace_content:
    description:
      - With V(false), O(content) identifies an A or AAAA record, and a task with new content creates another record
        of the name (round robin).
      - With V(true), O(name) and O(type) find the record and O(content) is the value it gets, the way a CNAME
        record is always found and updated. Where one record of that name and type has O(content) already, that
        one is the record; otherwise, where several records share them, the task fails and lists their ids.
    type: bool
    default: false
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

- name: Round robin, one task per address (both records are kept, and a re-run changes nothing)
  nms.overlay.dns_record:
    zone: internal.example.com
    name: web.internal.example.com
    type: A
    content: "{{ item }}"
    ttl: 60
  loop: [10.0.0.21, 10.0.0.22]

- name: Move the database to another address (the one A record of its name gets the new content)
  nms.overlay.dns_record:
    zone: internal.example.com
    name: db.internal.example.com
    type: A
    content: 10.0.0.6
    replace_content: true

- name: Take one address out of the round robin
  nms.overlay.dns_record:
    zone: internal.example.com
    name: web.internal.example.com
    type: A
    content: 10.0.0.22
    state: absent

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

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_record import DnsRecordModule


if __name__ == '__main__':
    DnsRecordModule.main()
