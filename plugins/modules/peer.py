#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: peer
short_description: Configure, regroup and delete peers of the overlay network
version_added: 1.0.0
description:
  - Renames a peer, switches its SSH server and login (and, on servers from v0.30.2 on, inactivity)
    expiration, moves it to another overlay address (v0.77), sets the groups it belongs to, or deletes it.
  - Peers cannot be created through the API. A machine joins the network with a setup key (see
    M(nms.overlay.setup_key)); this module then configures the peer. A peer that does not exist
    fails with O(state=present) and is left alone with O(state=absent).
  - The peer is found by O(id) or O(hostname), else by O(ip), else by O(name). A O(hostname), O(ip)
    or O(name) that matches several peers fails and lists their ids.
  - Options left unset keep the server's value. The server replaces the whole peer on every update,
    so the module always sends the current values merged with the options you set.
options:
  id:
    description:
      - Id of the peer to manage.
      - Mutually exclusive with O(hostname).
    type: str
  hostname:
    description:
      - Find the peer by the hostname its machine reported (case-insensitive).
      - Mutually exclusive with O(id).
    type: str
  ip:
    description:
      - Address of the peer inside the overlay network, for example V(100.64.0.5).
      - Alone (or with O(name)), it finds the peer, on every server.
      - With O(id) or O(hostname), the peer gets this address, an IPv4 address without a prefix length.
        Servers have that from v0.77 on; on an older server such a task fails before any change. The
        address must be in the account's overlay network range and free - another peer's address fails
        before any write, an address outside the range is refused by the server (its message is shown).
        Changing it moves the peer in the overlay network (its connections are set up again).
    type: str
  ipv6:
    description:
      - The peer's new IPv6 overlay address, for example V(fd00:1234:5678::15), sent only when it differs from the
        peer's address. The server takes it only in the account's IPv6 range
        (O(nms.overlay.account_settings#module:network_range_v6)) and for a peer of one of the
        O(nms.overlay.account_settings#module:ipv6_enabled_groups); its refusal (412 or 422) is shown.
      - Servers have it from v0.71.0 on; on an older server a task that sets it fails before any change.
    type: str
  name:
    description:
      - Name of the peer.
      - With O(id), O(hostname) or O(ip), the peer is renamed to this name. Alone, it finds the peer
        (and so never renames it).
      - The peer's DNS label follows its name.
    type: str
  ssh_enabled:
    description:
      - Whether the peer runs the built-in SSH server.
    type: bool
  login_expiration_enabled:
    description:
      - Whether the peer's login expires (after the account's C(peer_login_expiration)).
      - Only peers added by a user through SSO login have a login that can expire. For a peer that
        joined with a setup key the value is always V(false); asking for V(true) fails before any write.
    type: bool
  inactivity_expiration_enabled:
    description:
      - Whether the peer's session expires after a time without activity (after the account's
        C(peer_inactivity_expiration), see M(nms.overlay.account_settings)).
      - Like O(login_expiration_enabled), only peers added by a user through SSO login have one; for a
        peer that joined with a setup key the server refuses a change (its message is shown).
      - Leave it unset to keep the server's value.
      - Servers have it from v0.30.2 on; on an older server a task that sets it fails before any change.
    type: bool
  approval_required:
    description:
      - Whether the peer waits for an administrator's approval (cloud servers only).
      - Open-source servers of both generations (v0.27 and v0.77) approve every peer, so they always show
        V(false) and ignore it in updates. The module finds that out by reading, never by writing. When the
        value would change, it reads the account (one request) and applies O(approval_required) only when
        the account has peer approval enabled (C(settings.extra.peer_approval_enabled), see
        M(nms.overlay.account_settings)), or when the peer already waits for approval. Otherwise it warns,
        sends no update for it and reports V(changed=false), on every run and in check mode alike.
    type: bool
  groups:
    description:
      - Groups of the peer, as group names or ids.
      - With O(groups_mode=exact), the peer ends up in exactly these groups; V([]) takes it out of
        every group. With V(add) or V(remove), only these groups change.
      - The built-in C(All) group holds every peer and cannot be edited; it is ignored here and never
        changed.
      - Leave it unset to keep the peer's groups.
      - Every name must match exactly one group; an unknown or ambiguous name fails before any write.
      - The module changes membership by updating the groups (each group is sent its full list of
        peers with this peer added or removed). As another client writing the same group at the same
        time (other forks of the play, the C(enroll) role on many hosts) may undo such a write, the
        tasks of one machine read and write a group's peers in turn, under a lock of that group (in a
        private directory of the user in the temporary directory). Against writers elsewhere the module
        reads each group before and after its write and writes again when the read shows the change
        undone, up to 10 times; it then fails naming the group, and never reports a membership that
        its own read contradicts.
    type: list
    elements: str
  groups_mode:
    description:
      - How O(groups) is applied. V(exact) sets the complete list, V(add) only adds the peer to these
        groups, V(remove) only takes it out of them.
      - Has no effect without O(groups).
    type: str
    choices: [exact, add, remove]
    default: exact
  state:
    description:
      - V(present) configures the peer; V(absent) deletes it.
      - Deleting a peer removes it from every group and disables the routes that use it as their
        single routing peer. The machine can join again only with a setup key.
    type: str
    choices: [present, absent]
    default: present
  only_if_inactive_for:
    description:
      - With O(state=absent), delete the peer only while it is still stale. A duration in seconds, or such as
        V(30d), V(12h), V(1w) or V(1d12h), as the O(nms.overlay.peer_info#module:inactive_for) that listed it.
      - The peer is stale when it is not connected and its C(last_seen) is older than this (or it has no
        C(last_seen) to go by), the rule of O(nms.overlay.peer_info#module:inactive_for). It is judged on the read of
        the peer the task makes right before its C(DELETE), so a peer that connected, or was seen, since a list
        was made is not deleted. The task then reports V(changed=false), the peer as read, and why in
        RV(kept_because) (also in C(msg)); check mode judges it the same way. What is left is the time between
        that read and the C(DELETE), one request.
      - C(last_seen) is stamped by the server's clock. The age is judged at the earlier of two times, the
        server's (the C(Date) of its answer to that read) and this controller's, so that neither clock running
        ahead of the other makes a peer stale sooner. A server's answer without a C(Date) leaves the
        controller's clock.
      - A peer already gone is nothing to delete (V(changed=false), an empty RV(peer)).
      - A value that is not a duration, a negative one, or one given without O(state=absent) fails naming this
        option before any request.
      - The playbook C(nms.overlay.cleanup_stale_peers) deletes each peer it lists so.
    type: raw
seealso:
  - module: nms.overlay.peer_info
  - module: nms.overlay.setup_key
  - module: nms.overlay.group
  - plugin: nms.overlay.peers
    plugin_type: inventory
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource]
'''

EXAMPLES = r'''
- name: Enable SSH on the peer whose machine is called web-1
  nms.overlay.peer:
    hostname: web-1
    ssh_enabled: true

- name: Rename the peer with the overlay address 100.64.0.10
  nms.overlay.peer:
    ip: 100.64.0.10
    name: web-1-frankfurt

- name: Give the peer web-1 the overlay address 100.64.0.20 (servers from v0.77 on)
  nms.overlay.peer:
    hostname: web-1
    ip: 100.64.0.20

- name: Put the peer in exactly the groups servers and monitoring
  nms.overlay.peer:
    name: web-1-frankfurt
    groups:
      - servers
      - monitoring

- name: Add the peer to the backup group, keeping its other groups
  nms.overlay.peer:
    name: web-1-frankfurt
    groups: [backup]
    groups_mode: add

- name: Delete a peer that left the network
  nms.overlay.peer:
    hostname: old-build-host
    state: absent

- name: Delete the peer, unless it connected or was seen in the last 30 days
  nms.overlay.peer:
    id: chacbco6lnnbn6cg5s90
    state: absent
    only_if_inactive_for: 30d
  register: stale_peer

- name: Say why it was kept
  ansible.builtin.debug:
    msg: "{{ stale_peer.kept_because }}"
  when: stale_peer.kept_because is defined
'''

RETURN = r'''
peer:
  description:
    - The peer after the change. In check mode, the peer as it would be.
    - Empty after O(state=absent) when there was nothing to delete; otherwise the deleted peer, or the peer
      O(only_if_inactive_for) kept, as read.
  returned: always
  type: dict
  contains:
    id:
      description: Id of the peer.
      type: str
      sample: chacbco6lnnbn6cg5s90
    name:
      description: Name of the peer.
      type: str
      sample: web-1
    hostname:
      description: Hostname reported by the peer's machine.
      type: str
      sample: web-1
    ip:
      description: Address of the peer inside the overlay network.
      type: str
      sample: 100.64.0.10
    connection_ip:
      description: Public address the peer connected from (V(<nil>) or empty when unknown).
      type: str
      sample: 203.0.113.7
    dns_label:
      description: DNS name of the peer in the overlay network (a label or a fully qualified name).
      type: str
      sample: web-1.netbird.selfhosted
    connected:
      description: Whether the peer is connected now.
      type: bool
      sample: true
    os:
      description: Operating system of the peer.
      type: str
      sample: Linux 22.04
    ssh_enabled:
      description: Whether the SSH server is enabled.
      type: bool
      sample: true
    login_expiration_enabled:
      description: Whether the peer's login expires.
      type: bool
      sample: false
    approval_required:
      description: Whether the peer waits for approval.
      type: bool
      sample: false
    user_id:
      description: Id of the user who added the peer; empty for peers that joined with a setup key.
      type: str
      sample: ""
    groups:
      description: Groups of the peer, each with C(id), C(name) and C(peers_count) (and C(resources_count) on v0.77 servers); never null.
      type: list
      elements: dict
      sample: [{id: ch8i4ug6lnn4g9hqv7l0, name: All, peers_count: 3}]
    last_seen:
      description: When the peer was last seen.
      type: str
      sample: "2026-01-10T08:00:00.000000Z"
    login_expired:
      description: Whether the peer's login has expired.
      type: bool
      sample: false
    last_login:
      description: When the peer's user last logged in (zero time for peers that joined with a setup key).
      type: str
      sample: "0001-01-01T00:00:00Z"
    version:
      description: Version of the peer's agent.
      type: str
      sample: 0.27.6
    ui_version:
      description: Version of the peer's desktop UI (empty when it has none).
      type: str
      sample: ""
    kernel_version:
      description: Kernel version of the peer's machine.
      type: str
      sample: 6.1.0-18-amd64
    serial_number:
      description: Serial number of the peer's machine (empty when unknown).
      type: str
      sample: ""
    geoname_id:
      description: GeoNames id of the city the peer connected from (V(0) when unknown).
      type: int
      sample: 2925533
    country_code:
      description: ISO 3166-1 alpha-2 code of the country the peer connected from (empty when unknown).
      type: str
      sample: DE
    city_name:
      description: City the peer connected from (empty when unknown).
      type: str
      sample: Frankfurt am Main
    accessible_peers_count:
      description: Number of peers this peer can reach by policy.
      type: int
      returned: when the peer was read from the list of peers (for example after O(state=absent))
      sample: 2
    accessible_peers:
      description: Peers this peer can reach by policy, each with C(id), C(name), C(ip), C(dns_label) and C(user_id); never null.
      type: list
      elements: dict
      returned: when the peer was read or written on its own
      sample: [{id: chacbco6lnnbn6cg5s91, name: db-1, ip: 100.64.0.11, dns_label: db-1.netbird.selfhosted, user_id: ""}]
    created_at:
      description:
        - When the peer was added.
      returned: by servers that have it (v0.77)
      type: str
      sample: "2026-01-10T07:55:00.000000Z"
    ipv6:
      description:
        - IPv6 address of the peer inside the overlay network.
        - Only when IPv6 is on for the peer's groups.
      returned: by servers that have it (v0.77)
      type: str
      sample: "fd00:4e42:ab12::1"
    inactivity_expiration_enabled:
      description:
        - Whether the peer's session expires after a time without activity (peers added by a user only).
        - O(inactivity_expiration_enabled) sets it.
      returned: by servers that have it (v0.77)
      type: bool
      sample: false
    ephemeral:
      description:
        - Whether the peer is ephemeral (removed after some time offline).
      returned: by servers that have it (v0.77)
      type: bool
      sample: false
    extra_dns_labels:
      description:
        - Extra DNS labels of the peer.
      returned: by servers that have it (v0.77)
      type: list
      elements: str
      sample: []
    local_flags:
      description:
        - Settings of the peer's agent, as it reports them (C(rosenpass_enabled), C(rosenpass_permissive),
          C(server_ssh_allowed), C(disable_client_routes), C(disable_server_routes), C(disable_dns),
          C(disable_firewall), C(block_lan_access), C(block_inbound), C(lazy_connection_enabled)).
      returned: by servers that have it (v0.77)
      type: dict
      sample: {rosenpass_enabled: false, server_ssh_allowed: false, disable_dns: false, block_inbound: false}
    disapproval_reason:
      description:
        - Why the peer waits for approval (cloud servers only).
      returned: by servers that have it (v0.77)
      type: str
      sample: ""
kept_because:
  description:
    - Why the peer was not deleted after all - O(only_if_inactive_for) found it connected, or seen within that
      duration, on the read right before the C(DELETE).
  returned: when O(only_if_inactive_for) kept the peer
  type: str
  sample: >-
    the peer 'build-7' (id chacbco6lnnbn6cg5s90) is connected now: not deleted, as only_if_inactive_for=30d deletes
    the peer only while it is not connected and not seen for that long
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.peer import PeerModule


if __name__ == '__main__':
    PeerModule.main()
