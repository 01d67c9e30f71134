#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: nameserver_group
short_description: Manage DNS nameserver groups
version_added: 1.0.0
description:
  - Creates, updates and deletes a nameserver group, the DNS servers that peers of some groups use,
    for every domain (a primary group) or for some match domains.
  - A nameserver group is found by O(id) when given, otherwise by O(name). A name shared by several
    nameserver groups fails and lists their ids.
  - Options left unset keep the server's value on an update. When a nameserver group is created,
    unset options take these values - O(description=""), O(enabled=true), O(primary=false),
    O(domains=[]), O(search_domains_enabled=false).
  - 'The rules of the API are checked before any request, on the options of the task, and again on
    the options merged with the server''s values before a write: O(primary=true) only with no
    O(domains); no O(domains) only with O(primary=true); O(search_domains_enabled=true) only with
    O(domains). A failure names the option and the rule.'
options:
  id:
    description:
      - Id of the nameserver group. Needed to rename it; otherwise O(name) finds it.
    type: str
  name:
    description:
      - Name of the nameserver group, 1 to 40 characters, unique on the server.
      - Required unless O(id) is given.
    type: str
  description:
    description:
      - Free-text description. V("") when a nameserver group is created without it.
    type: str
  nameservers:
    description:
      - The nameservers, 1 to 3, in the order the peers query them. Compared in order.
      - Required to create a nameserver group. Leave it unset to keep the current nameservers.
    type: list
    elements: dict
    suboptions:
      ip:
        description:
          - IPv4 or IPv6 address of the nameserver, compared by value.
        type: str
        required: true
      ns_type:
        description:
          - Protocol of the nameserver. The API knows only V(udp).
        type: str
        choices: [udp]
        default: udp
      port:
        description:
          - Port of the nameserver, 1 to 65535.
        type: int
        default: 53
  groups:
    description:
      - The peer groups that use this nameserver group, as group names or ids; at least one.
        Order does not matter.
      - Required to create a nameserver group. Leave it unset to keep the current groups.
      - An unknown group name fails before any change, naming the closest existing group names. The result
        shows the groups as RV(nameserver_group.groups), each with its id and name.
    type: list
    elements: str
  domains:
    description:
      - Match domains resolved by these nameservers, such as V(example.com). Compared as a set,
        without regard to case or a trailing dot; sent lower-case without the trailing dot.
      - Must be empty when O(primary=true); may be empty only when O(primary=true).
      - Each domain must be a name of at least two labels of letters, digits and inner hyphens, such
        as V(corp.example.com); this is checked before any request.
    type: list
    elements: str
  primary:
    description:
      - Whether these nameservers resolve every domain. Only with no O(domains).
      - V(false) when a nameserver group is created without it.
    type: bool
  search_domains_enabled:
    description:
      - Whether the O(domains) are also used as DNS search domains. Only with O(domains).
      - V(false) when a nameserver group is created without it.
    type: bool
  enabled:
    description:
      - Whether the nameserver group is in use.
      - V(true) when a nameserver group is created without it.
    type: bool
  state:
    description:
      - V(present) creates or updates the nameserver group; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
seealso:
  - module: nms.overlay.nameserver_group_info
  - module: nms.overlay.dns_settings
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource]
'''

EXAMPLES = r'''
- name: Resolve the internal domains with two company DNS servers, for every peer
  nms.overlay.nameserver_group:
    name: corp-dns
    description: Company resolvers
    nameservers:
      - ip: 10.0.0.53
      - ip: 10.0.1.53
        port: 5353
    domains:
      - corp.example.com
      - example.internal
    search_domains_enabled: true
    groups:
      - All

- name: Use a public resolver for all domains on the servers group
  nms.overlay.nameserver_group:
    name: public-dns
    nameservers:
      - ip: 1.1.1.1
      - ip: 2606:4700:4700::1111
    primary: true
    groups:
      - servers

- name: Disable a nameserver group without touching anything else
  nms.overlay.nameserver_group:
    name: public-dns
    enabled: false

- name: Remove a nameserver group
  nms.overlay.nameserver_group:
    name: public-dns
    state: absent
'''

RETURN = r'''
nameserver_group:
  description:
    - The nameserver group after the change. In check mode, the group as it would be (on create,
      the request body).
    - Empty after O(state=absent) when there was nothing to delete; otherwise the deleted group.
  returned: always
  type: dict
  contains:
    id:
      description: Id of the nameserver group.
      type: str
      sample: ch8i4ug6lnn4g9hqv7m0
    name:
      description: Name of the nameserver group.
      type: str
      sample: corp-dns
    description:
      description: Description of the nameserver group.
      type: str
      sample: Company resolvers
    nameservers:
      description: The nameservers, in order, each with C(ip), C(ns_type) and C(port).
      type: list
      elements: dict
      sample: [{ip: 10.0.0.53, ns_type: udp, port: 53}]
    groups:
      description:
        - The peer groups that use the nameserver group, each with its id and name (as a policy's rules show their
          groups); never null.
      type: list
      elements: dict
      contains:
        id:
          description: Id of the group.
          type: str
          sample: ch8i4ug6lnn4g9hqv7l0
        name:
          description: Name of the group (null when the group is unknown).
          type: str
          sample: servers
      sample: [{id: ch8i4ug6lnn4g9hqv7l0, name: servers}]
    domains:
      description: The match domains; never null, empty for a primary group.
      type: list
      elements: str
      sample: [corp.example.com]
    primary:
      description: Whether the nameservers resolve every domain.
      type: bool
      sample: false
    search_domains_enabled:
      description: Whether the domains are also search domains.
      type: bool
      sample: true
    enabled:
      description: Whether the nameserver group is in use.
      type: bool
      sample: true
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.nameserver_group import NameserverGroupModule


if __name__ == '__main__':
    NameserverGroupModule.main()
