#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: group
short_description: Manage groups of peers
version_added: 1.0.0
description:
  - Creates, updates and deletes a group of peers in the overlay network.
  - A group is found by O(id) when given, otherwise by O(name). A name shared by several groups fails
    and lists their ids.
  - Options left unset keep the server's value. In particular, a task without O(peers) never changes
    the group's members.
  - The built-in C(All) group holds every peer and cannot be changed or deleted; trying to fails
    before any write.
options:
  id:
    description:
      - Id of the group. Needed to rename a group; otherwise O(name) finds it.
    type: str
  name:
    description:
      - Name of the group. Group names are unique on the server.
      - Required to create a group.
    type: str
  peers:
    description:
      - The peers of the group, as peer names or ids. Order does not matter.
      - With O(peers_mode=exact), the complete set of peers in the group; V([]) removes every peer from the group.
        With V(add) or V(remove), only these peers join or leave it, and the group's other members stay as they are.
      - Leave it unset to keep the current members.
      - Every name must match exactly one peer; an unknown or ambiguous name fails before any write.
    type: list
    elements: str
  peers_mode:
    description:
      - How O(peers) is applied, as O(nms.overlay.peer#module:groups_mode) applies a peer's groups. V(exact) sets the
        complete list. V(add) only adds these peers (those already in the group are no change, and a re-run writes
        nothing); V(remove) only takes them out (those not in it are no change). A group created with V(add) holds
        these peers, one created with V(remove) none.
      - The API takes a group's members only as a whole list. With V(add) and V(remove) the module reads the group
        right before its write and applies only the change to the members the server has then (peers someone else
        added meanwhile stay). The tasks of one machine (the forks of a play, module processes, several playbooks)
        read and write a group's members in turn, under a lock of that group in a private directory of the user in
        the temporary directory, so none of them undoes another's change. For writers elsewhere it reads the group
        back once their read and write could have passed; when that read shows the change undone (another client
        wrote an older list), it applies the change again to the list read back, up to 10 times, and then fails
        naming the group. So concurrent tasks adding different peers to one group (forks of a play, several
        controllers) all end with their peers in it.
        A client that writes a whole list without reading it back (the web interface, for one) can still lose a
        peer this module added in the moment between its read and its write, as the API has no conditional write.
      - With V(add) or V(remove), the diff shows only the peers that join (C(after)) and leave (C(before)).
      - Has no effect without O(peers).
    type: str
    choices: [exact, add, remove]
    default: exact
    version_added: 1.0.0
  resources:
    description:
      - The complete set of network resources in the group (see M(nms.overlay.network_resource)), as resource names
        or ids. Order does not matter. Resource names are unique in the account, across its networks.
      - V([]) takes every resource out of the group. Leave it unset to keep the group's resources as they are.
      - A network resource's O(nms.overlay.network_resource#module:groups) and a group's resources are one
        thing on the server (the resource is in the groups whose resources list it). Manage it from one side only.
      - Every name must match exactly one network resource; an unknown name fails before any write.
      - Servers have it from v0.35.0 on; on an older server a task that sets it fails before any change.
    type: list
    elements: str
  state:
    description:
      - V(present) creates or updates the group; V(absent) deletes it.
      - Deleting a group that a policy rule, a route (its O(nms.overlay.route#module:groups) or
        O(nms.overlay.route#module:peer_groups)), a nameserver group, a setup key (also a revoked one), a
        user's auto groups or the DNS settings use fails before any write, naming each user of the group.
        Check mode fails the same way. The server itself does not check a route's peer groups, nor the
        O(nms.overlay.policy#module:rules[].authorized_groups) of a policy rule, which count as uses too.
      - Servers from v0.77 on also refuse to delete a group that holds network resources, so that fails before
        any write (in check mode too), naming them; set O(resources=[]) first.
    type: str
    choices: [present, absent]
    default: present
seealso:
  - module: nms.overlay.group_info
  - module: nms.overlay.peer
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource]
'''

EXAMPLES = r'''
- name: Ensure the servers group exists with two peers (connection from NMS_API_URL and NMS_API_TOKEN)
  nms.overlay.group:
    name: servers
    peers:
      - web-1
      - db-1

- name: Add two peers to the ops group, keeping its other members (a re-run changes nothing)
  nms.overlay.group:
    name: ops
    peers:
      - web-1
      - db-1
    peers_mode: add

- name: Take a peer out of the ops group, keeping its other members
  nms.overlay.group:
    name: ops
    peers:
      - web-1
    peers_mode: remove

- name: Ensure a group exists without touching its members, with explicit connection options
  nms.overlay.group:
    api_url: "{{ nms_api_url }}"
    api_token: "{{ nms_api_token }}"
    name: developers

- name: Rename a group, found by its id
  nms.overlay.group:
    id: ch8i4ug6lnn4g9hqv7l0
    name: backend

- name: Ensure the office group holds the office network's resources (servers from v0.35.0 on)
  nms.overlay.group:
    name: office-routers
    resources:
      - office-lan

- name: Remove a group
  nms.overlay.group:
    name: old-servers
    state: absent
'''

RETURN = r'''
group:
  description:
    - The group after the change. In check mode, the group as it would be (its C(peers) and
      C(peers_count) as they would be).
    - Empty after O(state=absent) when there was nothing to delete; otherwise the deleted group.
  returned: always
  type: dict
  contains:
    id:
      description: Id of the group.
      type: str
      sample: ch8i4ug6lnn4g9hqv7l0
    name:
      description: Name of the group.
      type: str
      sample: servers
    peers_count:
      description: Number of peers in the group.
      type: int
      sample: 2
    issued:
      description: Who made the group (V(api), V(jwt) or V(integration)).
      type: str
      sample: api
    peers:
      description: The peers of the group, each with C(id) and C(name).
      type: list
      elements: dict
      sample: [{id: cgr1, name: web-1}, {id: cgr2, name: db-1}]
    resources_count:
      description:
        - Number of network resources in the group.
      returned: by servers that have it (v0.77)
      type: int
      sample: 1
    resources:
      description:
        - The network resources in the group, each with C(id) and C(type) (V(host), V(subnet), V(domain) or V(peer));
          V([]) when it has none, also from a server that does not have them (before v0.77).
        - Set by O(resources); when that is unset, the module keeps them as they are.
      returned: always
      type: list
      elements: dict
      sample: [{id: d0cnlvuvb2ls73e2m5dg, type: subnet}]
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.group import GroupModule


if __name__ == '__main__':
    GroupModule.main()
