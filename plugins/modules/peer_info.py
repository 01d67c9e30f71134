#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: peer_info
short_description: List the peers of the overlay network
version_added: 1.0.0
description:
  - Returns all peers, or the peers that pass every filter given.
  - When the result is one peer (by O(id), or filters that leave exactly one), that peer is read on its
    own and also carries C(accessible_peers), the peers it can reach by policy. Today's servers answer those
    apart (C(GET /api/peers/{id}/accessible-peers)), which is then read too.
options:
  id:
    description:
      - Return only the peer with this id. An unknown id returns an empty list.
    type: str
  name:
    description:
      - Return only the peers with exactly this name.
    type: str
  hostname:
    description:
      - Return only the peers whose machine reported this hostname (case-insensitive).
    type: str
  group:
    description:
      - Return only the peers in this group, given by name or id.
      - A name or id that matches no group fails naming it (an empty group returns an empty list).
    type: str
  connected:
    description:
      - V(true) returns only connected peers, V(false) only disconnected ones. Unset returns both.
    type: bool
  os:
    description:
      - Return only the peers whose operating system contains this text, ignoring case. For example
        V(linux) matches C(Linux 6.1) and V(ubuntu 22) matches C(Ubuntu 22.04).
    type: str
  inactive_for:
    description:
      - Return only the stale peers, those not seen for longer than this. A duration in seconds, or such as
        V(30d), V(12h), V(1w) or V(1d12h) (units C(s), C(m), C(h), C(d), C(w)).
      - A peer is kept when it is not connected now (C(connected) is not V(true)) and its C(last_seen) is older
        than the time of the task minus this duration. A connected peer is never kept, however old its
        C(last_seen), because servers stamp C(last_seen) when a peer connects or disconnects, so a peer that has
        stayed connected for weeks has an old one.
      - A peer that is not connected and has no C(last_seen) to go by is kept, whatever the duration. That is a
        peer never seen (the zero time C(0001-01-01T00:00:00Z)), or one whose C(last_seen) is missing or not an
        RFC 3339 time stamp.
      - Combines with the other filters (O(group), O(os), O(name)...); with O(connected=true) nothing is kept.
      - A value that is not a duration, or a negative one, fails naming this option before any request.
      - The playbook C(nms.overlay.cleanup_stale_peers) lists the peers this option keeps and, once confirmed,
        deletes exactly those.
    type: raw
  fields:
    description:
      - Return only these fields of each peer, for example V(id), V(name), V(ip), V(groups). C(id) is
        always returned. Unset returns every field.
      - With thousands of peers, fewer fields make the task noticeably faster, because Ansible handles
        every value of the result.
      - A field the server does not send for a peer is left out of that peer. C(accessible_peers) is read
        (one more request) only for a single peer, and only when this option is unset or names it.
    type: list
    elements: str
    version_added: 1.0.0
seealso:
  - module: nms.overlay.peer
  - plugin: nms.overlay.peers
    plugin_type: inventory
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module]
'''

EXAMPLES = r'''
- name: List every peer
  nms.overlay.peer_info:
  register: all_peers

- name: List the connected Linux peers of the servers group
  nms.overlay.peer_info:
    group: servers
    connected: true
    os: linux
  register: servers

- name: Read one peer by hostname, with the peers it can reach
  nms.overlay.peer_info:
    hostname: web-1
  register: web

- name: List the peers of the servers group not seen for 30 days (and not connected now)
  nms.overlay.peer_info:
    group: servers
    inactive_for: 30d
    fields: [name, last_seen]
  register: stale

- name: List the name and overlay address of every peer, and nothing else
  nms.overlay.peer_info:
    fields: [name, ip]
  register: addresses

- name: Show who web-1 can reach
  ansible.builtin.debug:
    msg: "{{ web.peers[0].accessible_peers | map(attribute='name') | list }}"
  when: web.peers | length == 1
'''

RETURN = r'''
peers:
  description: The peers found, also when filtered to one. Empty when nothing matches. With O(fields), only those fields and C(id).
  returned: always
  type: list
  elements: dict
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
      description: DNS name of the peer in the overlay network.
      type: str
      sample: web-1.netbird.selfhosted
    connected:
      description: Whether the peer is connected now.
      type: bool
      sample: true
    last_seen:
      description: When the peer was last seen.
      type: str
      sample: "2026-01-10T08:00:00.000000Z"
    os:
      description: Operating system of the peer.
      type: str
      sample: Linux 22.04
    version:
      description: Version of the peer's agent.
      type: str
      sample: 0.27.6
    ssh_enabled:
      description: Whether the SSH server is enabled.
      type: bool
      sample: false
    login_expiration_enabled:
      description: Whether the peer's login expires.
      type: bool
      sample: false
    login_expired:
      description: Whether the peer's login has expired.
      type: bool
      sample: false
    user_id:
      description: Id of the user who added the peer; empty for peers that joined with a setup key.
      type: str
      sample: ""
    approval_required:
      description: Whether the peer waits for an administrator's approval (always V(false) on open-source servers).
      type: bool
      sample: false
    last_login:
      description: When the peer's user last logged in (zero time for peers that joined with a setup key).
      type: str
      sample: "0001-01-01T00:00:00Z"
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
    groups:
      description: Groups of the peer, each with C(id), C(name) and C(peers_count) (and C(resources_count) on v0.77 servers); never null.
      type: list
      elements: dict
      sample: [{id: ch8i4ug6lnn4g9hqv7l0, name: All, peers_count: 3}]
    accessible_peers_count:
      description: Number of peers this peer can reach (in lists of several peers).
      type: int
      returned: when the result holds several peers
      sample: 2
    accessible_peers:
      description: Peers this peer can reach by policy, each with C(id), C(name), C(ip), C(dns_label) and C(user_id); never null.
      type: list
      elements: dict
      returned: when the result is one peer
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
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._peers import (
    group_matches, in_any_group, inactive_seconds, is_inactive, normalise_peer, os_matches, peer_groups, same_hostname,
    with_accessible_peers,
)
from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.peer import PeerModule
from ansible_collections.nms.overlay.plugins.module_utils._time import wall_time


class PeerInfoModule(InfoModule):
    resource = PeerModule
    api_operations = ('GET /api/peers/{peerId}/accessible-peers',)  # one peer's, where its answer lacks them
    argument_spec = dict(
        id=dict(type='str'),
        name=dict(type='str'),
        hostname=dict(type='str'),
        group=dict(type='str'),
        connected=dict(type='bool'),
        os=dict(type='str'),
        inactive_for=dict(type='raw'),
        fields=dict(type='list', elements='str'),
    )
    mutually_exclusive = ()
    # (inactive_for in seconds, the task's time in seconds since the epoch), set by run() before any request
    inactivity = None

    def keep(self, item):
        params = self.params
        if not super().keep(item):
            return False
        if params.get('hostname') is not None and not same_hostname(item.get('hostname'), params['hostname']):
            return False
        if params.get('group') is not None and not in_any_group(item, [params['group']]):
            return False
        if params.get('connected') is not None and bool(item.get('connected')) != params['connected']:
            return False
        if self.inactivity is not None and not is_inactive(item, *self.inactivity):
            return False
        return params.get('os') is None or os_matches(item.get('os'), params['os'])

    def check_inactive_for(self):
        """inactive_for in seconds with the task's time, or None when unset; a bad value fails naming the option."""
        seconds = inactive_seconds(self.params.get('inactive_for'))
        return None if seconds is None else (seconds, wall_time())

    def check_group(self, items):
        """An unknown (or ambiguous) group fails naming it: a typo must not read as an empty group.

        The group summaries of the peers usually show it; only when no peer is in a group of that name or id
        is the list of groups read (once) to tell an empty group from an unknown one.
        """
        ref = self.params.get('group')
        if ref is None:
            return
        matching = set(ref_id(summary) for item in items for summary in peer_groups(item) if group_matches(summary, ref))
        if len(matching) != 1:
            self.resolver.to_id('groups', ref, 'group')

    def run(self):
        self.inactivity = self.check_inactive_for()
        fetched = self.fetch()
        self.check_group(fetched)
        items = [item for item in fetched if self.keep(item)]
        fields = self.params.get('fields')
        if len(items) == 1 and 'accessible_peers' not in items[0] and (fields is None or 'accessible_peers' in fields):
            # One peer: read it on its own for its accessible peers (unless it was: found by id), and those apart
            # where the server answers them apart (today's servers).
            try:
                alone = items[0] if self.params.get('id') else self.client.get_object('%s/%s' % (self.path, ref_id(items[0])))
                items = [with_accessible_peers(self.client, alone, PeerModule.path)]
            except ApiError as exc:
                if exc.status != 404:  # deleted in between: nothing to return
                    raise
                items = []
        peers = [normalise_peer(item) for item in items]
        if fields is not None:
            wanted = set(fields) | {'id'}
            peers = [{key: value for key, value in peer.items() if key in wanted} for peer in peers]
        return {'changed': False, self.plural: peers}


if __name__ == '__main__':
    PeerInfoModule.main()
