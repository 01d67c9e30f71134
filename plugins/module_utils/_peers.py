# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The peer resource (used by the peer module and by network_state) and peer helpers shared with
peer_info and the peers inventory plugin."""

from __future__ import annotations

import random
import time

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError, describe_shape
from ansible_collections.nms.overlay.plugins.module_utils._compare import id_list, ref_id, the_account
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._groups import ALL_GROUP
from ansible_collections.nms.overlay.plugins.module_utils._resource import MAX_SETTLE, Field, ResourceModule

# connection_ip values that mean "no address recorded" (Go prints a nil IP as <nil>)
NO_ADDRESS = ('', '<nil>', None)

# A membership write undone by a concurrent writer is made again at most this many times; pauses between
# tries are random (so that racing clients drift apart) up to MEMBERSHIP_BACKOFF * 2**try seconds, at most MAX_SETTLE.
MEMBERSHIP_TRIES = 10
MEMBERSHIP_BACKOFF = 0.25

# The fields a PUT /peers/{id} carries; the server replaces all of them.
PEER_REQUEST_FIELDS = ('name', 'ssh_enabled', 'login_expiration_enabled', 'approval_required')
# Fields of a peer's answer that are no request fields; a PUT keeps every other field the server sent
# (today's servers reset inactivity_expiration_enabled when a body leaves it out).
PEER_ANSWER_FIELDS = ('id', 'ip', 'connection_ip', 'connected', 'last_seen', 'os', 'kernel_version', 'geoname_id', 'version',
                      'groups', 'user_id', 'hostname', 'ui_version', 'dns_label', 'login_expired', 'last_login', 'country_code',
                      'city_name', 'serial_number', 'accessible_peers', 'accessible_peers_count')


# -- helpers ------------------------------------------------------------------------------------------
def peer_groups(peer):
    """The group summaries of a peer, never null."""
    return list(peer.get('groups') or [])


def normalise_peer(peer):
    """A peer as returned to users: groups (and accessible peers, when present) never null."""
    peer = dict(peer)
    peer['groups'] = peer_groups(peer)
    if 'accessible_peers' in peer:
        peer['accessible_peers'] = list(peer.get('accessible_peers') or [])
    return peer


def is_id(value):
    """Whether a value can be an id: a string or a number (servers send either), never a boolean."""
    return isinstance(value, (str, int)) and not isinstance(value, bool)


def describe_peer(peer):
    """How a message names a peer: by name (when it is text) and id, whatever else is wrong with it."""
    name = peer.get('name')
    ident = ref_id(peer) if is_id(peer.get('id')) else None
    if isinstance(name, str) and name:
        return "the peer '%s'%s" % (name, ' (id %s)' % ident if ident else '')
    return 'the peer with id %s' % ident if ident else 'a peer without an id'


def peer_shape_problem(peer):
    """The first field of a peer (from a server's answer) whose type code relies on is wrong, as
    (field, what is wrong), or None. Other fields may hold any JSON."""
    if not is_id(peer.get('id')):
        return 'id', '%s where a string was expected' % describe_shape(peer.get('id'))
    for field in ('name', 'dns_label', 'hostname', 'ip', 'connection_ip'):
        if not isinstance(peer.get(field), (str, type(None))):
            return field, '%s where a string was expected' % describe_shape(peer.get(field))
    if not isinstance(peer.get('connected'), (bool, type(None))):
        return 'connected', '%s where a boolean was expected' % describe_shape(peer.get('connected'))
    groups = peer.get('groups')
    if groups is not None and not isinstance(groups, list):
        return 'groups', '%s where a list of group objects was expected' % describe_shape(groups)
    for index, summary in enumerate(groups or []):
        field = 'groups[%d]' % index
        if not isinstance(summary, dict):
            return field, '%s where a group object was expected' % describe_shape(summary)
        if not is_id(summary.get('id')):
            return field + '.id', '%s where a string was expected' % describe_shape(summary.get('id'))
        if not isinstance(summary.get('name'), (str, type(None))):
            return field + '.name', '%s where a string was expected' % describe_shape(summary.get('name'))
    return None


def with_accessible_peers(client, peer):
    """A single peer's answer with its accessible peers: v0.27 puts them in the answer, today's servers answer them
    apart (GET /peers/{id}/accessible-peers), read only when the answer lacks them."""
    if not isinstance(peer, dict) or 'accessible_peers' in peer or ref_id(peer) in (None, ''):
        return peer
    return dict(peer, accessible_peers=client.get_list('/peers/%s/accessible-peers' % ref_id(peer)))


def group_matches(summary, ref):
    """Whether a group summary (or group) is the group named or with the id ``ref``."""
    ref = str(ref)
    return ref_id(summary) == ref or summary.get('name') == ref


def in_any_group(peer, refs):
    """Whether the peer belongs to at least one of the groups given by name or id."""
    return any(group_matches(summary, ref) for summary in peer_groups(peer) for ref in refs)


def bare_ip(value):
    """An address without a prefix length, for comparing 100.64.0.5 and 100.64.0.5/16."""
    if value in NO_ADDRESS:
        return None
    return str(value).strip().split('/', 1)[0]


def same_hostname(left, right):
    """Hostnames compare case-insensitively and without a trailing dot."""
    if left is None or right is None:
        return False
    return str(left).lower().rstrip('.') == str(right).lower().rstrip('.')


def os_matches(peer_os, wanted):
    """The os filter: a case-insensitive substring of the peer's os (ubuntu matches Ubuntu 22.04)."""
    return str(wanted).lower() in str(peer_os or '').lower()


def _options_model():
    from ansible_collections.nms.overlay.plugins.module_utils._models_peers import PeerOptions
    return PeerOptions


# -- the resource -------------------------------------------------------------------------------------
class PeerModule(ResourceModule):
    """Configure, regroup or delete one peer; peers are never created (they join with setup keys)."""

    path = '/peers'
    what = 'peer'
    kind = 'peers'
    result_key = 'peer'
    read_only = PEER_ANSWER_FIELDS
    model = staticmethod(_options_model)
    fields = dict(
        name=Field(),
        ssh_enabled=Field(norm=bool),
        login_expiration_enabled=Field(norm=bool),
        approval_required=Field(norm=bool),
    )
    argument_spec = dict(
        name=dict(type='str'),
        hostname=dict(type='str'),
        ip=dict(type='str'),
        ssh_enabled=dict(type='bool'),
        login_expiration_enabled=dict(type='bool'),
        approval_required=dict(type='bool'),
        groups=dict(type='list', elements='str'),
        groups_mode=dict(type='str', default='exact', choices=['exact', 'add', 'remove']),
    )
    mutually_exclusive = (('id', 'hostname', 'ip'),)
    required_one_of = (('id', 'name', 'hostname', 'ip'),)

    # -- identity ----------------------------------------------------------------------------------
    def validate_options(self):
        from ansible_collections.nms.overlay.plugins.module_utils._models import validate
        data = {key: self.params[key] for key in ('id', 'name', 'hostname', 'ip', 'groups')
                if self.params.get(key) is not None}
        validate(self.model(), data)

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

    def ensure_present(self, obj):
        if obj is None:
            raise TaskError('no peer with %s exists. Peers cannot be created through the API: a machine joins the '
                            'network with a setup key (see nms.overlay.setup_key), then this module can configure it'
                            % self.identity_text())
        return self.update_object(obj, self.desired())

    # -- the peer itself ---------------------------------------------------------------------------
    def before_write(self, current_obj, state):
        if state is None or current_obj is None or current_obj.get('user_id'):
            return
        if state.get('login_expiration_enabled') != bool(current_obj.get('login_expiration_enabled')):
            raise TaskError("login_expiration_enabled: the peer '%s' joined with a setup key, so its login cannot "
                            "expire and the option cannot be changed (only peers added by a user through SSO login "
                            "have a login expiration); leave login_expiration_enabled unset"
                            % current_obj.get('name'))

    def request_body(self, state, current_obj):
        # PUT replaces the peer: every field is sent, current values merged with the user's.
        return {name: state.get(name) for name in PEER_REQUEST_FIELDS}

    def to_result(self, obj):
        return normalise_peer(obj) if isinstance(obj, dict) and obj else {}

    def update_object(self, obj, desired):
        # Resolve the groups first, so that an unknown group name fails before any write.
        plan = self.group_changes(ref_id(obj)) if self.params.get('groups') is not None else None
        wanted = desired.get('approval_required')
        if wanted is not None and wanted != bool(obj.get('approval_required')) and self.ignores_approval(obj):
            # Known from reads: the write would change nothing, so it is not sent (and check mode says so too).
            self.warn('approval_required=%s is not applied: the server does not use peer approval (open-source servers '
                      'ignore approval_required; cloud servers apply it only when peer_approval_enabled is set in the '
                      'account settings); the peer keeps approval_required=%s'
                      % (self.shown(wanted, '%s'), self.shown(bool(obj.get('approval_required')), '%s')))
            desired = dict(desired)
            del desired['approval_required']
        result = super().update_object(obj, desired)
        if (result['changed'] and not self.module.check_mode and wanted is not None
                and 'approval_required' in desired
                and bool(result[self.result_key].get('approval_required')) != wanted):
            self.warn('the server did not apply approval_required=%s (open-source servers ignore it; it works on '
                      'cloud servers only)' % self.shown(wanted, '%s'))
            self.report_what_the_server_kept(obj, result)
        if plan is not None:
            self.update_groups(ref_id(obj), plan, result)
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
        all_ids = set(gid for gid, group in groups.items() if group.get('name') == ALL_GROUP)
        wanted = [ref for ref in self.params['groups'] if ref != ALL_GROUP]
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
        # imported here: only a task that regroups a peer needs it
        from ansible_collections.nms.overlay.plugins.module_utils._groups import group_body
        gid = ref_id(group)
        for attempt in range(1, MEMBERSHIP_TRIES + 1):
            started = time.monotonic()
            group = self.client.get_object('/groups/%s' % gid)
            members = id_list(group.get('peers'))
            if (peer_id in members) != member:
                members = members + [peer_id] if member else [m for m in members if m != peer_id]
                # the whole group as read, with only its members changed (today's servers keep resources there)
                self.client.put('/groups/%s' % gid, group_body(group, members))
                self.sleep(min(time.monotonic() - started, MAX_SETTLE))
                group = self.client.get_object('/groups/%s' % gid)
            if (peer_id in id_list(group.get('peers'))) == member:
                if group.get('id') is not None:
                    self.resolver.replace('groups', group)
                return group
            if attempt < MEMBERSHIP_TRIES:
                self.sleep(random.uniform(0, min(MEMBERSHIP_BACKOFF * 2 ** (attempt - 1), MAX_SETTLE)))
        raise TaskError("the group '%s' (id %s): %s the peer %s was undone by another client's write of the group's "
                        "members each of %d times (a concurrent writer); the read-back shows it %s"
                        % (group.get('name'), gid, 'adding' if member else 'removing', peer_id, MEMBERSHIP_TRIES,
                           'missing' if member else 'still there'))
