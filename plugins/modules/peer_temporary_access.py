#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: peer_temporary_access
short_description: Give a WireGuard key temporary access to one peer
version_added: 1.0.0
description:
  - Creates a temporary access peer (C(POST /api/peers/{id}/temporary-access)), what the dashboard's browser SSH and
    RDP clients use. The server adds an ephemeral peer named O(name) for the WireGuard public key O(wg_pub_key), and
    one policy per rule of O(rules) (named C(Temporary access policy for peer <name>)) that lets it reach O(peer), and
    nothing else. A machine that holds the key's private half then connects as that peer without a setup key.
  - The server deletes the temporary peer, and its policies with it, after the peer disconnects. O(state=absent)
    deletes it sooner (C(DELETE /api/peers/{id}), which deletes its policies too).
  - Idempotent by O(name) and O(peer). The server shows neither a peer's public key nor any mark of a temporary peer,
    so the module finds the one it made by its name and by the policies that join it to O(peer) (one
    C(GET /api/peers), and one C(GET /api/policies) when a peer has that name). When it exists, nothing is sent
    (V(changed=false)). Its rules cannot change (the server has no update); different O(rules) make a warning, and
    the peer keeps its rules; delete it and create it again to change them. Several temporary peers of that name with
    access to O(peer) fail the task, listing their ids.
  - The WireGuard public key is no secret, and nothing this module returns is one.
options:
  peer:
    description:
      - The peer to give access to, as a peer name or id. An unknown or ambiguous name fails before any write.
    type: str
    required: true
  name:
    description:
      - Name (and hostname) of the temporary peer. The server makes its DNS label unique (C(<name>-<a>-<b>)).
    type: str
    required: true
  wg_pub_key:
    description:
      - WireGuard public key of the machine that is to connect (base64, as C(wg pubkey) prints it).
      - 32 bytes in standard base64 (44 characters ending in V(=)), checked before any request (servers make the peer of
        any text, which no agent can then use).
      - Required with O(state=present). A key the server knows already (of any peer) is refused with
        C(412 peer has been already registered).
    type: str
  rules:
    description:
      - What the temporary peer may reach on O(peer), each V(tcp/PORT), V(udp/PORT), V(tcp/START-END),
        V(udp/START-END) (ports 1 to 65535), V(icmp) or V(all). Order and case do not matter.
      - Required with O(state=present), with at least one rule. A rule of another form is refused before any
        request (servers answer it with a bare C(500) after making the peer).
    type: list
    elements: str
  state:
    description:
      - V(present) creates the temporary access unless it exists; V(absent) deletes the temporary peer and its policies.
    type: str
    choices: [present, absent]
    default: present
notes:
  - Servers accept any text as O(wg_pub_key); a value that is not a WireGuard key makes a peer nothing can connect as.
seealso:
  - module: nms.overlay.peer
  - module: nms.overlay.policy
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: Let the support laptop reach web-1 over SSH until it disconnects
  nms.overlay.peer_temporary_access:
    peer: web-1
    name: support-laptop
    wg_pub_key: "{{ lookup('ansible.builtin.file', 'support-laptop.pub') }}"
    rules:
      - tcp/22
  register: access

- name: Take the access back now
  nms.overlay.peer_temporary_access:
    peer: web-1
    name: support-laptop
    state: absent
'''

RETURN = r'''
temporary_access:
  description:
    - The temporary access peer (in check mode, as it would be). Empty after O(state=absent) when there was nothing to
      delete; otherwise the deleted one.
  returned: always
  type: dict
  contains:
    id:
      description:
        - Id of the temporary peer.
        - In check mode, a peer that would be created has the placeholder C((new peer <name>)).
      type: str
      sample: dc483n5qmd2qglc9epo0
    name:
      description: Name of the temporary peer.
      type: str
      sample: support-laptop
    rules:
      description: What it may reach on the peer, as O(rules) writes them.
      type: list
      elements: str
      sample: [tcp/22]
    peer:
      description: Id of the peer it may reach.
      type: str
      sample: chacbco6lnnbn6cg5s90
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.peer_temporary_access import PeerTemporaryAccessModule


if __name__ == '__main__':
    PeerTemporaryAccessModule.main()
