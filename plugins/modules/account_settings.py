#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: account_settings
short_description: Manage the settings of the account, or delete the account
version_added: 1.0.0
description:
  - Changes the settings of the one account the token belongs to. Only the options you set change;
    every other setting keeps the server's value (the module sends the complete settings object,
    because the API replaces it).
  - With O(state=absent) and O(confirm_account_id) equal to the account's id, deletes the account
    and everything in it (users, peers, groups, policies, setup keys, tokens). This cannot be undone,
    and the token used by the task stops working too. Without a matching O(confirm_account_id) the
    task fails before any write.
options:
  peer_login_expiration_enabled:
    description:
      - Whether peers added by a user through an interactive login must log in again after
        O(peer_login_expiration).
    type: bool
  peer_login_expiration:
    description:
      - Time after which such peers must log in again, in seconds from 3600 to 15552000 (1 hour to
        180 days), or as a duration such as V(24h), V(7d) or V(2w) (units C(s), C(m), C(h), C(d), C(w)).
    type: raw
  regular_users_view_blocked:
    description:
      - Whether regular users are blocked from viewing most of the network in the dashboard.
    type: bool
  groups_propagation_enabled:
    description:
      - Whether a change of a user's auto groups also moves that user's existing peers.
    type: bool
  jwt_groups_enabled:
    description:
      - Whether groups are read from a claim of the users' JWT (see O(jwt_groups_claim_name)).
    type: bool
  jwt_groups_claim_name:
    description:
      - Name of the JWT claim holding the group names. V("") clears it.
    type: str
  jwt_allow_groups:
    description:
      - Names of the JWT groups whose users may access the system. Order does not matter; V([])
        allows everyone.
    type: list
    elements: str
  peer_approval_enabled:
    description:
      - Whether newly added peers stay pending until an admin approves them (C(settings.extra) in the
        API; effective on servers that support approval).
    type: bool
  peer_inactivity_expiration_enabled:
    description:
      - Whether the session of a peer added by a user through an interactive login expires after
        O(peer_inactivity_expiration) without activity. Left unset, the server's value is kept.
      - Servers have it from v0.30.2 on; on an older server a task that sets it fails before any change.
    type: bool
  peer_inactivity_expiration:
    description:
      - Time without activity after which such a peer's session expires. Seconds, or a duration such as V(30m),
        V(12h) or V(7d); it must be positive.
      - Servers have it from v0.30.2 on; on an older server a task that sets it fails before any change.
    type: raw
  routing_peer_dns_resolution_enabled:
    description:
      - Whether routing peers resolve the DNS names of the routes and network resources they serve.
      - Servers have it from v0.35.0 on; on an older server a task that sets it fails before any change.
    type: bool
  dns_domain:
    description:
      - The account's own DNS domain for peer names (for example V(corp.example.com)); V('') returns to the
        server's domain. It must not be the domain of one of the account's DNS zones (the server refuses it).
      - Servers have it from v0.42.0 on; on an older server a task that sets it fails before any change.
    type: str
  lazy_connection_enabled:
    description:
      - Whether peers connect to each other only when traffic needs it (experimental on the server).
      - Servers have it from v0.45.2 on; on an older server a task that sets it fails before any change.
    type: bool
  user_approval_required:
    description:
      - Whether users who join the account by domain matching wait, blocked, until an administrator approves
        them (see O(nms.overlay.user#module:approval)). C(settings.extra) in the API.
      - Servers have it from v0.56.0 on; on an older server a task that sets it fails before any change.
    type: bool
  network_range:
    description:
      - The account's IPv4 overlay range in CIDR notation, such as V(100.64.0.0/16). A new range gives every peer a
        new address in it; the server checks the range (it refuses a public or a too small one).
      - Servers have it from v0.53.0 on; on an older server a task that sets it fails before any change.
    type: str
  network_range_v6:
    description:
      - The account's IPv6 overlay range in CIDR notation, such as V(fd00:1234:5678::/64).
      - Servers have it from v0.71.0 on; on an older server a task that sets it fails before any change.
    type: str
  ipv6_enabled_groups:
    description:
      - Names (or ids) of the groups whose peers get an IPv6 overlay address; V([]) gives none.
      - Servers have it from v0.71.0 on; on an older server a task that sets it fails before any change.
    type: list
    elements: str
  peer_expose_enabled:
    description:
      - Whether peers may expose local services through the reverse proxy from the command line.
      - Servers have it from v0.66.0 on; on an older server a task that sets it fails before any change.
    type: bool
  peer_expose_groups:
    description:
      - Names (or ids) of the groups whose peers may expose services; V([]) lets every peer, when
        O(peer_expose_enabled) is on.
      - Servers have it from v0.66.0 on; on an older server a task that sets it fails before any change.
    type: list
    elements: str
  auto_update_version:
    description:
      - The agent version peers update to, V(latest), V(disabled), or a version such as V(0.77.1).
      - Servers have it from v0.61.0 on; on an older server a task that sets it fails before any change.
    type: str
  auto_update_always:
    description:
      - Whether agents install updates in the background (otherwise the user confirms them).
      - Servers have it from v0.67.0 on; on an older server a task that sets it fails before any change.
    type: bool
  metrics_push_enabled:
    description:
      - Whether every agent pushes client metrics to the server.
      - Servers have it from v0.74.0 on; on an older server a task that sets it fails before any change.
    type: bool
  local_mfa_enabled:
    description:
      - Whether local users (of the embedded identity provider) log in with a second factor (TOTP).
      - Servers have it from v0.71.0 on; on an older server a task that sets it fails before any change.
    type: bool
  confirm_account_id:
    description:
      - The id of the account, as a confirmation that it must be deleted. Required with
        O(state=absent); read it with M(nms.overlay.account_info).
    type: str
  state:
    description:
      - V(present) updates the settings; V(absent) deletes the whole account (see O(confirm_account_id)).
    type: str
    choices: [present, absent]
    default: present
notes:
  - Only the account owner may delete the account.
  - Settings the module leaves as the server has them (every update sends them back unchanged),
    C(embedded_idp_enabled) and C(local_auth_disabled), which are read-only; C(agent_network_only) and
    C(dashboard_features), which shape only NetBird's dashboard; C(settings.extra)'s C(network_traffic_logs_enabled),
    C(network_traffic_logs_groups) and C(network_traffic_packet_counter_enabled), cloud-only traffic logging that
    open-source servers keep and never act on.
seealso:
  - module: nms.overlay.account_info
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource]
'''

EXAMPLES = r'''
- name: Peers added by users log in again every 24 hours
  nms.overlay.account_settings:
    peer_login_expiration_enabled: true
    peer_login_expiration: 24h

- name: Take groups from the JWT and allow only two of them
  nms.overlay.account_settings:
    jwt_groups_enabled: true
    jwt_groups_claim_name: groups
    jwt_allow_groups:
      - engineering
      - operations

- name: Sessions of user peers end after a week without activity; new users wait for approval (v0.77 servers)
  nms.overlay.account_settings:
    peer_inactivity_expiration_enabled: true
    peer_inactivity_expiration: 7d
    user_approval_required: true

- name: Read the account id
  nms.overlay.account_info:
  register: account

- name: Preview the deletion of the account (check mode sends no write)
  nms.overlay.account_settings:
    state: absent
    confirm_account_id: "{{ account.accounts[0].id }}"
  check_mode: true

# The confirmation should come from a person, not from a lookup: run the playbook with
# -e confirm_account_id=<the id shown by account_info> to really delete the account.
- name: Delete the account and everything in it (cannot be undone)
  nms.overlay.account_settings:
    state: absent
    confirm_account_id: "{{ confirm_account_id }}"
  when: confirm_account_id is defined
'''

RETURN = r'''
account_id:
  description: Id of the account.
  returned: always
  type: str
  sample: ch8i4ug6lnn4g9hqv7kg
account_settings:
  description:
    - The settings after the change. In check mode, the settings as they would be.
    - After O(state=absent), the settings the deleted account had.
  returned: always
  type: dict
  contains:
    peer_login_expiration_enabled:
      description: Whether peer login expiration is on.
      type: bool
      sample: true
    peer_login_expiration:
      description: Seconds until a peer login expires.
      type: int
      sample: 86400
    regular_users_view_blocked:
      description: Whether regular users are blocked from viewing the network.
      type: bool
      sample: true
    groups_propagation_enabled:
      description: Whether user auto group changes move the user's peers.
      type: bool
      sample: true
    jwt_groups_enabled:
      description: Whether groups are read from the JWT.
      type: bool
      sample: false
    jwt_groups_claim_name:
      description: Name of the JWT claim holding the groups.
      type: str
      sample: groups
    jwt_allow_groups:
      description: Names of the JWT groups allowed access; never null.
      type: list
      elements: str
      sample: [engineering]
    extra:
      description:
        - Extra settings, such as C(peer_approval_enabled) and (v0.77) C(user_approval_required); absent when the
          server has none.
      type: dict
      returned: when the server has extra settings
      sample: {peer_approval_enabled: false, user_approval_required: false}
    peer_inactivity_expiration_enabled:
      description:
        - Whether the session of a peer added by a user expires after a time without activity.
      returned: by servers that have it (v0.77)
      type: bool
      sample: false
    peer_inactivity_expiration:
      description:
        - Seconds without activity after which such a peer's session expires.
      returned: by servers that have it (v0.77)
      type: int
      sample: 600
    peer_expose_enabled:
      description:
        - Whether peers may expose local services through the reverse proxy.
        - See O(peer_expose_enabled).
      returned: by servers that have it (v0.77)
      type: bool
      sample: false
    peer_expose_groups:
      description:
        - Ids of the groups whose peers may expose services (empty, all peers).
        - See O(peer_expose_groups).
      returned: by servers that have it (v0.77)
      type: list
      elements: str
      sample: []
    routing_peer_dns_resolution_enabled:
      description:
        - Whether routing peers resolve DNS for the routes they serve.
      returned: by servers that have it (v0.77)
      type: bool
      sample: true
    lazy_connection_enabled:
      description:
        - Whether peers connect lazily (experimental).
      returned: by servers that have it (v0.77)
      type: bool
      sample: false
    dns_domain:
      description:
        - The account's own DNS domain for peer names (empty, the server's domain).
      returned: by servers that have it (v0.77)
      type: str
      sample: ""
    network_range:
      description:
        - The account's overlay network range (CIDR).
        - See O(network_range).
      returned: by servers that have it (v0.77)
      type: str
      sample: 100.64.0.0/16
    network_range_v6:
      description:
        - The account's IPv6 overlay range (CIDR), once it has one.
        - See O(network_range_v6).
      returned: by servers that have it (v0.77), for an account with an IPv6 range
      type: str
      sample: fd00:1234:5678::/64
    ipv6_enabled_groups:
      description:
        - Ids of the groups whose peers get IPv6 overlay addresses (null, none chosen).
        - See O(ipv6_enabled_groups).
      returned: by servers that have it (v0.77)
      type: list
      elements: str
      sample: null
    auto_update_version:
      description:
        - The agent version peers update to (V(latest), V(disabled) or a version).
        - See O(auto_update_version).
      returned: by servers that have it (v0.77)
      type: str
      sample: disabled
    auto_update_always:
      description:
        - Whether agents install updates in the background.
        - See O(auto_update_always).
      returned: by servers that have it (v0.77)
      type: bool
      sample: false
    metrics_push_enabled:
      description:
        - Whether agents push client metrics.
        - See O(metrics_push_enabled).
      returned: by servers that have it (v0.77)
      type: bool
      sample: false
    agent_network_only:
      description:
        - Whether the dashboard shows only the Agent Network.
        - Not an option; the module keeps it as it is.
      returned: by servers that have it (v0.77)
      type: bool
      sample: false
    embedded_idp_enabled:
      description:
        - Whether the server's embedded identity provider is on (read-only).
      returned: by servers that have it (v0.77)
      type: bool
      sample: false
    local_auth_disabled:
      description:
        - Whether email and password logins are off (read-only).
      returned: by servers that have it (v0.77)
      type: bool
      sample: false
    local_mfa_enabled:
      description:
        - Whether local users log in with a second factor (TOTP).
        - See O(local_mfa_enabled).
      returned: by servers that have it (v0.77)
      type: bool
      sample: false
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.account_settings import AccountSettingsModule


if __name__ == '__main__':
    AccountSettingsModule.main()
