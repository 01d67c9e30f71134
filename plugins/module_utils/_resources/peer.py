# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Peers: configured, regrouped or deleted, never created (the peer module and network_state); the helpers that
peer_info and the peers inventory share are in _peers."""

from __future__ import annotations

import random

from ansible_collections.nms.overlay.plugins.module_utils._access import builtin_all_group
from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._compare import id_list, ref_id, the_account
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._peers import (
    MEMBERSHIP_BACKOFF, MEMBERSHIP_TRIES, PEER_ANSWER_FIELDS, PEER_REQUEST_FIELDS, bare_ip, normalise_peer, same_hostname,
)
from ansible_collections.nms.overlay.plugins.module_utils._resource import MAX_SETTLE, Field, UpdateOnly
from ansible_collections.nms.overlay.plugins.module_utils._resources.group import ALL_GROUP, group_body
from ansible_collections.nms.overlay.plugins.module_utils._time import monotonic, sleep


def _peer_model():
    from ansible_collections.nms.overlay.plugins.module_utils._models_peers import PeerOptions
    return PeerOptions


# members only today's servers (v0.77) answer with, which no PUT takes: not sent back (their
# inactivity_expiration_enabled is a request field: see fields)
CURRENT_PEER_ANSWER_FIELDS = ('created_at', 'ephemeral', 'extra_dns_labels', 'local_flags', 'disapproval_reason')


class PeerModule(UpdateOnly):
    """Configure, regroup or delete one peer; peers are never created (they join with setup keys)."""

    path = '/peers'
    what = 'peer'
    kind = 'peers'
    result_key = 'peer'
    read_only = PEER_ANSWER_FIELDS + CURRENT_PEER_ANSWER_FIELDS
    model = staticmethod(_peer_model)
    fields = dict(
        name=Field(),
        ssh_enabled=Field('bool', norm=bool),
        login_expiration_enabled=Field('bool', norm=bool),
        approval_required=Field('bool', norm=bool),
        inactivity_expiration_enabled=Field('bool', norm=bool, requires='v0.77'),
        # finds the peer, or with id or hostname sets its address (v0.77): see address_to_set
        ip=Field(norm=bare_ip),
    )
    options = dict(
        hostname=dict(type='str'),
        groups=dict(type='list', elements='str'),
        groups_mode=dict(type='str', default='exact', choices=['exact', 'add', 'remove']),
    )
    shape = staticmethod(normalise_peer)
    not_creatable = ('Peers cannot be created through the API: a machine joins the network with a setup key (see '
                     'nms.overlay.setup_key), then this module can configure it')
    group_plan = approval_wanted = None
    approval_sent = False
    mutually_exclusive = (('id', 'hostname'),)
    required_one_of = (('id', 'name', 'hostname', 'ip'),)

    # -- identity ----------------------------------------------------------------------------------
    def validate_options(self):
        from ansible_collections.nms.overlay.plugins.module_utils._models import validate
        data = {key: self.params[key] for key in ('id', 'name', 'hostname', 'ip', 'groups')
                if self.params.get(key) is not None}
        validate(self.model(), data)
        if self.address_to_set() is not None:
            from ansible_collections.nms.overlay.plugins.module_utils._models_peers import check_new_address
            check_new_address(self.address_to_set())

    def address_to_set(self):
        """The address the task gives the peer: ip with id or hostname (alone, ip finds the peer), or None."""
        return self.params.get('ip') if self.lookup_key() != 'ip' else None

    def check_server_accepts(self):
        super().check_server_accepts()
        if self.address_to_set() is not None and not self.resolver.server.current:
            raise TaskError("option ip: %s cannot change a peer's address (servers can from v0.77 on); given with id "
                            "or hostname, ip is the peer's new address, and alone it finds the peer"
                            % self.resolver.server.describe())

    def desired(self):
        desired = super().desired()
        if self.address_to_set() is None:
            desired.pop('ip', None)
        return desired

    def lookup_key(self):
        for key in ('id', 'hostname', 'ip'):
            if self.params.get(key):
                return key
        return 'name'

    def matches(self, item):
        key = self.lookup_key()
        value = self.params[key]
        if key == 'hostname':
            return same_hostname(item.get('hostname'), value)
        if key == 'ip':
            return bare_ip(item.get('ip')) == bare_ip(value)
        return item.get('name') == value

    def identity_text(self):
        key = self.lookup_key()
        return "%s '%s'" % (key, self.params[key])

    # -- the peer itself ---------------------------------------------------------------------------
    def before_write(self, current_obj, state):
        if state is None or current_obj is None:
            return
        if self.address_to_set() is not None and state.get('ip') != bare_ip(current_obj.get('ip')):
            self.check_address_free(current_obj, state['ip'])
        if current_obj.get('user_id'):
            return
        if state.get('login_expiration_enabled') != bool(current_obj.get('login_expiration_enabled')):
            raise TaskError("login_expiration_enabled: the peer '%s' joined with a setup key, so its login cannot "
                            "expire and the option cannot be changed (only peers added by a user through SSO login "
                            "have a login expiration); leave login_expiration_enabled unset"
                            % current_obj.get('name'))

    def request_body(self, state, current_obj):
        # PUT replaces the peer: every field is sent, current values merged with the user's; today's fields go only
        # to servers that have them, and the address only when the task changes it (v0.77 moves the peer then).
        body = {name: state.get(name) for name in PEER_REQUEST_FIELDS}
        body.update((name, state[name]) for name, field in self.fields.items() if field.requires and name in state)
        if self.address_to_set() is not None:
            body['ip'] = state.get('ip')
        return body

    def check_address_free(self, current_obj, address):
        """Refuse, before any write (and in check mode), an address another peer has (the server refuses it too)."""
        others = [peer for peer in self.resolver.items('peers')
                  if bare_ip(peer.get('ip')) == address and ref_id(peer) != ref_id(current_obj)]
        if others:
            raise TaskError("option ip: %s is the address of the peer '%s' (id %s); the peer '%s' can only get a free "
                            "address" % (address, others[0].get('name'), ref_id(others[0]), current_obj.get('name')))

    def to_result(self, obj):
        return normalise_peer(obj) if isinstance(obj, dict) and obj else {}

    def prepare_update(self, obj, desired):
        # Resolve the groups first, so that an unknown group name fails before any write.
        self.group_plan = self.group_changes(ref_id(obj)) if self.params.get('groups') is not None else None
        wanted = self.approval_wanted = desired.get('approval_required')
        if wanted is not None and wanted != bool(obj.get('approval_required')) and self.ignores_approval(obj):
            # Known from reads: the write would change nothing, so it is not sent (and check mode says so too).
            self.warn('approval_required=%s is not applied: the server does not use peer approval (open-source servers '
                      'ignore approval_required; cloud servers apply it only when peer_approval_enabled is set in the '
                      'account settings); the peer keeps approval_required=%s'
                      % (self.shown(wanted, '%s'), self.shown(bool(obj.get('approval_required')), '%s')))
            del desired['approval_required']
        self.approval_sent = 'approval_required' in desired
        return desired

    def after_update(self, obj, result):
        wanted = self.approval_wanted
        if (result['changed'] and not self.module.check_mode and wanted is not None and self.approval_sent
                and bool(result[self.result_key].get('approval_required')) != wanted):
            self.warn('the server did not apply approval_required=%s (open-source servers ignore it; it works on '
                      'cloud servers only)' % self.shown(wanted, '%s'))
            self.report_what_the_server_kept(obj, result)
        if self.group_plan is not None:
            self.update_groups(ref_id(obj), self.group_plan, result)
        return result

    def ignores_approval(self, obj):
        """Whether the server ignores approval_required, known without writing.

        A server that does not report the field does not know it; a peer that waits for approval shows that
        the server uses it. Otherwise the account tells: peer approval works only when the account's
        ``settings.extra.peer_approval_enabled`` is true (open-source servers never act on it, and new
        accounts there have no ``extra``). One read of the account, only when approval_required would change.
        """
        if 'approval_required' not in obj:
            return True
        if obj.get('approval_required'):
            return False
        try:
            account = the_account(self.client.get('/accounts'))
        except ApiError as exc:
            if exc.status in (401, 403, 404):
                return False  # cannot tell: send it, and report what the server kept
            raise
        if account is None:
            return False
        extra = (account.get('settings') or {}).get('extra') or {}
        return not extra.get('peer_approval_enabled')

    def report_what_the_server_kept(self, obj, result):
        """After a PUT the server partly ignored, report only what it changed: a re-run that asks again
        for an ignored approval_required is then changed=false, not a change on every run."""
        before = self.from_server(obj)
        after = self.from_server(result[self.result_key])
        changed = [name for name in before if before[name] != after[name]]
        result['changed'] = bool(changed)
        if changed:
            result['diff'] = dict(before={k: before[k] for k in changed}, after={k: after[k] for k in changed})
        else:
            result.pop('diff', None)

    # -- groups --------------------------------------------------------------------------------------
    def group_changes(self, peer_id):
        """(groups by id, current ids, ids to add, ids to remove), never touching the All group."""
        groups = {ref_id(group): group for group in self.resolver.items('groups')}
        # the built-in All group (every peer is in it, the server keeps it so), not any group named All
        all_ids, dummy_ambiguous = builtin_all_group(list(groups.values()))
        wanted = [ref for ref in self.params['groups'] if ref not in all_ids and not (ref == ALL_GROUP and all_ids)]
        wanted_ids = set(self.resolver.to_ids('groups', wanted, 'groups')) - all_ids
        current = set(gid for gid, group in groups.items() if peer_id in id_list(group.get('peers'))) - all_ids
        mode = self.params['groups_mode']
        add = wanted_ids - current if mode in ('exact', 'add') else set()
        if mode == 'exact':
            remove = current - wanted_ids
        elif mode == 'remove':
            remove = wanted_ids & current
        else:
            remove = set()
        return groups, current, add, remove

    def update_groups(self, peer_id, plan, result):
        groups, current, add, remove = plan
        if not add and not remove:
            return
        after = (current | add) - remove

        def names(ids):
            return sorted(groups[gid].get('name') or gid for gid in ids)

        diff = result.setdefault('diff', dict(before={}, after={}))
        diff['before']['groups'] = names(current)
        diff['after']['groups'] = names(after)
        result['changed'] = True
        if self.module.check_mode:
            kept = [summary for summary in result[self.result_key].get('groups') or []
                    if ref_id(summary) not in add | remove]
            kept += [{key: groups[gid].get(key) for key in ('id', 'name', 'peers_count', 'issued')} for gid in sorted(add)]
            result[self.result_key]['groups'] = kept
            return
        for gid in sorted(add | remove):
            self.write_membership(groups[gid], peer_id, gid in add)
        peer = self.client.get_object('/peers/%s' % peer_id)
        self.remember(peer)
        result[self.result_key] = self.to_result(peer)

    def write_membership(self, group, peer_id, member):
        """Make the peer a member of the group (member=True) or not, and prove it by reading the group back.

        A group's members are written as a whole list, so a client that read the list before this write and
        writes after it silently undoes it (a lost update). So the list is read fresh before each write and
        read back after it, once a concurrent writer's read-to-write window has passed (as long as this
        client's own read and write took); when the read-back contradicts the write, the write is made again
        on the list read back, after a random pause, at most MEMBERSHIP_TRIES times.
        """
        gid = ref_id(group)
        for attempt in range(1, MEMBERSHIP_TRIES + 1):
            started = monotonic()
            group = self.client.get_object('/groups/%s' % gid)
            members = id_list(group.get('peers'))
            if (peer_id in members) != member:
                members = members + [peer_id] if member else [m for m in members if m != peer_id]
                # the whole group as read, with only its members changed (today's servers keep resources there)
                self.client.put('/groups/%s' % gid, group_body(group, members))
                sleep(min(monotonic() - started, MAX_SETTLE))
                group = self.client.get_object('/groups/%s' % gid)
            if (peer_id in id_list(group.get('peers'))) == member:
                if group.get('id') is not None:
                    self.resolver.replace('groups', group)
                return group
            if attempt < MEMBERSHIP_TRIES:
                sleep(random.uniform(0, min(MEMBERSHIP_BACKOFF * 2 ** (attempt - 1), MAX_SETTLE)))
        raise TaskError("the group '%s' (id %s): %s the peer %s was undone by another client's write of the group's "
                        "members each of %d times (a concurrent writer); the read-back shows it %s"
                        % (group.get('name'), gid, 'adding' if member else 'removing', peer_id, MEMBERSHIP_TRIES,
                           'missing' if member else 'still there'))
