#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: setup_key
short_description: Manage setup keys that enroll peers
version_added: 1.0.0
description:
  - Creates setup keys, changes their name, auto groups and revoked state, deletes them (or revokes them, on a
    v0.27 server, which cannot delete keys), and replaces keys that can no longer enroll a peer.
  - A key is found by O(id) when given, otherwise by O(name). Setup key names are not unique on the
    server; a name shared by several keys fails and lists their ids (give O(id) then). Revoked keys of the
    name are set aside when a key of the name is not revoked (replacing leaves such keys behind), and with
    O(replace_invalid=true); O(state=absent) removes every key of the name; when every key of the name is revoked
    and O(revoked) is not given, O(state=present) creates a new usable key (see O(state)).
  - The key value is returned only by the task that creates the key, as RV(setup_key.key), and that result is hidden
    from Ansible's output (screen, log, AWX job events) while C(register) gets it whole (see
    O(return_created_secrets)). No later task, diff or warning shows it, even though some servers send it on every
    read. Register the result to use the value, or write it to O(created_secrets_file).
  - O(type), O(expires_in), O(usage_limit) and O(ephemeral) are fixed when the key is created. A
    different value for an existing key is reported as a warning and never changes anything; use
    O(replace_invalid) or a new key to change them. The server reports only the expiry date, not the
    O(expires_in) a key was created with, so for O(expires_in) the warning comes when the key expires
    later than O(expires_in) after its creation allows (a shorter lifetime cannot be told apart from
    time that has passed).
  - Options left unset keep the server's value; a revoked key stays revoked unless O(revoked=false)
    or O(replace_invalid=true) is given.
  - A one-off key enrolls one peer; the server holds V(usage_limit=1) for it, and the module sends and
    shows that.
notes:
  - A copy of a key that concurrent runs created is removed the way O(state=absent) removes a key (deleted,
    or revoked on a v0.27 server).
options:
  id:
    description:
      - Id of the setup key (a number on v0.27 servers, a string such as V(d0cnlvuvb2ls73e2m5e0) on v0.77; given as
        a string or an integer). Needed to rename a key.
    type: str
  name:
    description:
      - Name of the setup key. Required to create a key.
      - A v0.77 server cannot rename a key (an update takes only O(revoked) and O(auto_groups)), so there a new
        name for an existing key is not sent, and the task warns that the name is kept.
    type: str
  type:
    description:
      - V(one-off) keys enroll a single peer, V(reusable) keys enroll up to O(usage_limit) peers.
      - Required to create a key; fixed afterwards.
    type: str
    choices: [one-off, reusable]
  expires_in:
    description:
      - Lifetime of a new key, in seconds (86400 to 31536000, that is 1 to 365 days), or as a duration
        such as V(30d), V(12h), V(1w) or V(1d12h) (units C(s), C(m), C(h), C(d), C(w)).
      - Used when the key is created; defaults to 30 days then. Fixed afterwards.
    type: raw
  auto_groups:
    description:
      - Groups (names or ids) that peers enrolled with this key join. Order does not matter; V([])
        removes every group. Left unset, the current groups are kept (none for a new key).
      - An unknown group name fails before any change, naming the closest existing group names.
      - The result shows them as RV(setup_key.auto_groups), each group with its id and name.
    type: list
    elements: str
  usage_limit:
    description:
      - How many peers a V(reusable) key may enroll; V(0) means unlimited (the default for a new key).
      - A V(one-off) key is always limited to one use; leave this unset for it (V(0) and V(1) are taken, and the key
        holds V(1)). A V(one-off) key with a limit above V(1) is refused before any request, on every server
        (NetBird v0.77.1 refuses it with 422; older servers silently held V(1)).
      - Fixed when the key is created.
    type: int
  ephemeral:
    description:
      - Whether peers enrolled with the key are ephemeral (removed when they stay offline).
      - Fixed when the key is created; V(false) for a new key when unset.
    type: bool
  allow_extra_dns_labels:
    description:
      - Whether peers enrolled with the key may add extra DNS labels to their name (the agent's
        C(--extra-dns-labels)), so that several peers answer one name.
      - Fixed when the key is created; the server's default (V(false)) for a new key when unset.
      - Servers have it from v0.37.0 on; on an older server a task that sets it fails before any change.
    type: bool
  revoked:
    description:
      - V(true) revokes the key, V(false) makes a revoked key usable again. Left unset, the current
        state is kept.
    type: bool
  replace_invalid:
    description:
      - When the key found is expired, revoked or used up, create a fresh key with the same name (and
        the old key's settings, except where options say otherwise) and revoke the old key if it is not
        revoked yet. The result then holds the new key with its value, and RV(replaced_id).
      - The new key's lifetime (O(expires_in)) is, unless O(expires_in) is given, the old key's as far as the
        server's dates tell, since it reports no O(expires_in), only the expiry date and the date of the key's
        last change (C(updated_at)), so it is the time from the old key's last change to its expiry, in whole days when
        within 5 minutes of them, between 1 and 365 days. That is the old key's whole lifetime when it was never
        changed after its creation (an expired or used-up key usually), and less when it was (renamed,
        regrouped, or revoked, a revoke being a change); 30 days when the dates are missing.
      - The old key stays on the server, revoked, under the same name (until O(state=absent) removes it
        with the others of the name).
      - The diff shows the old key's settings (its name, id and state in the header) and the new key's.
      - Useful to hand out a working key for every enrollment run.
      - Cannot be combined with O(revoked=true).
    type: bool
    default: false
  state:
    description:
      - V(present) creates or updates the key. When every key of the O(name) is revoked (a v0.27 server
        revokes the keys it cannot delete, so a key described again after O(state=absent) is in this case)
        and O(revoked) is not given, those keys are set aside and a new, usable key is created (its value in
        the result, or in network_state's C(created_secrets_file)); O(type) is then required as for any new
        key. To change a revoked key itself, give its O(id) (or O(revoked)); on v0.27 O(revoked=false)
        makes it usable again, a v0.77 server refuses that.
      - V(absent) deletes the key where the server can (today's servers). A v0.27 server cannot delete setup
        keys, so there the key is revoked and its auto groups are cleared (the server refuses to delete a group
        that any key lists, a revoked key too); RV(revoked_only) then says so. Which server it is, the key's id
        tells (v0.27 gives numeric ids), so no request is added. A revoked key keeps its name, so it still counts
        for the name lookup described above; a revoked key without auto groups is left as it is.
      - Found by O(name), V(absent) removes every key of that name in one run, the revoked ones too (such as
        the old keys O(replace_invalid) leaves), deleted where the server can, else (v0.27) revoked with their
        auto groups cleared. A re-run then changes nothing. Found by O(id), only that key is removed.
    type: str
    choices: [present, absent]
    default: present
seealso:
  - module: nms.overlay.setup_key_info
  - module: nms.overlay.group
extends_documentation_fragment:
  - nms.overlay.module
  - nms.overlay.module.resource
  - nms.overlay.module.converge
  - nms.overlay.module.created_secrets
'''

EXAMPLES = r'''
- name: Create a reusable key for the servers group, valid for 30 days
  nms.overlay.setup_key:
    name: servers
    type: reusable
    expires_in: 30d
    usage_limit: 10
    auto_groups:
      - servers
    created_secrets_file: created-secrets.json  # only you can read it; in the directory ansible-playbook runs in
  register: servers_key

- name: Get a one-off key for a new host, replacing the previous one once it has been used
  nms.overlay.setup_key:
    name: host-web-1
    type: one-off
    expires_in: 1d
    replace_invalid: true
    created_secrets_file: created-secrets.json
  register: host_key  # host_key.setup_key.key: hand it to the host with no_log (the nms.overlay.enroll role does)

- name: A key for web servers that share the name web.<domain> (v0.77 servers)
  nms.overlay.setup_key:
    name: web-pool
    type: reusable
    allow_extra_dns_labels: true

- name: Retire the servers key (deleted; a v0.27 server cannot delete keys, so there it is revoked)
  nms.overlay.setup_key:
    name: servers
    state: absent
'''

RETURN = r'''
setup_key:
  description:
    - The setup key after the change. In check mode, the key as it would be.
    - Empty after O(state=absent) when no key was found.
  returned: always
  type: dict
  contains:
    id:
      description:
        - Id of the key, as a string.
        - In check mode, a key that would be created has the placeholder C((new setup key <name>)).
      type: str
      sample: "2934723911"
    key:
      description:
        - The key value that a peer enrolls with.
        - Only in the result of the task that created the key (including a replacement), unless
          O(return_created_secrets=false). That result is hidden from Ansible's output; C(register) gets it.
      type: str
      returned: when the task created the key
      sample: A2C8E62B-38F5-4553-B31E-DD66C696CEBB
    name:
      description: Name of the key.
      type: str
      sample: servers
    type:
      description: V(one-off) or V(reusable).
      type: str
      sample: reusable
    expires:
      description: When the key expires (in check mode, predicted from O(expires_in) for a key that would be created).
      type: str
      sample: "2024-06-01T10:00:00Z"
    valid:
      description: Whether the key can enroll a peer (not expired, not revoked, not used up).
      type: bool
      sample: true
    state:
      description: V(valid), V(expired), V(revoked) or V(overused).
      type: str
      sample: valid
    revoked:
      description: Whether the key is revoked.
      type: bool
      sample: false
    used_times:
      description: How many peers enrolled with the key.
      type: int
      sample: 0
    last_used:
      description: When a peer last enrolled with the key.
      type: str
      sample: "0001-01-01T00:00:00Z"
    auto_groups:
      description:
        - The groups that enrolled peers join, each with its id and name (as a policy's rules show their
          groups); never null.
      type: list
      elements: dict
      contains:
        id:
          description: Id of the group.
          type: str
          sample: ch8i4ug6lnn4g9hqv7m0
        name:
          description: Name of the group (null when the group is unknown).
          type: str
          sample: servers
      sample: [{id: ch8i4ug6lnn4g9hqv7m0, name: servers}]
    usage_limit:
      description: How many peers the key may enroll; V(0) means unlimited.
      type: int
      sample: 10
    ephemeral:
      description: Whether enrolled peers are ephemeral.
      type: bool
      sample: false
    updated_at:
      description: When the key was last changed.
      type: str
      sample: "2024-05-01T10:00:00Z"
    allow_extra_dns_labels:
      description:
        - Whether peers that enroll with the key may add extra DNS labels.
      returned: by servers that have it (v0.77)
      type: bool
      sample: false
revoked_only:
  description:
    - V(true) when O(state=absent) found the key on a server that cannot delete setup keys (v0.27), so the key
      was revoked and its auto groups cleared (or already was) instead of deleted.
  returned: when O(state=absent) found a key the server cannot delete
  type: bool
  sample: true
replaced_id:
  description: Id of the key that O(replace_invalid) replaced (and revoked if it was not revoked yet).
  returned: when a key was replaced
  type: str
  sample: "1209433012"
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.setup_key import SetupKeyModule


if __name__ == '__main__':
    SetupKeyModule.main()
