# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Peers: configured, regrouped or deleted, never created (the peer module and network_state); the helpers that
peer_info and the peers inventory share are in _peers."""

from __future__ import annotations

import ipaddress

from ansible_collections.nms.overlay.plugins.module_utils._names import ALL_GROUP, builtin_all_group
from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError, FLAG, LIST, OBJECT, TEXT
from ansible_collections.nms.overlay.plugins.module_utils._compare import id_list, ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import OptionsError, TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field, check_with_model, load_model
from ansible_collections.nms.overlay.plugins.module_utils._peers import (
    PEER_ANSWERS, PEER_REQUEST_FIELDS, bare_ip, inactive_seconds, normalise_peer, peer_groups, same_hostname, still_active,
)
from ansible_collections.nms.overlay.plugins.module_utils._resource import UpdateOnly
from ansible_collections.nms.overlay.plugins.module_utils._server import refused_release
from ansible_collections.nms.overlay.plugins.module_utils._resources.group import GroupModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.account_settings import account_of
from ansible_collections.nms.overlay.plugins.module_utils._time import http_time, wall_time


# members only today's servers (v0.77) answer with, which no PUT takes: not sent back (their
# inactivity_expiration_enabled is a request field: see fields)
CURRENT_PEER_ANSWERS = dict(created_at=TEXT, ephemeral=FLAG, extra_dns_labels=LIST, local_flags=OBJECT, disapproval_reason=TEXT)
# the options the peer model checks (identity keys and groups are no request fields)
CHECKED_OPTIONS = ('id', 'name', 'hostname', 'ip', 'groups')
ADDRESS_RELEASE = 'v0.53.0'  # the first that changes a peer's address (NetBird commit beb66208a; docs/compatibility.md)
# the first releases that refuse (412) to delete a peer a network router routes through (NetBird commit 684501fd3), or
# that a reverse-proxy service targets (commit f53155562, with the reverse proxies); ingress ports, the third such
# refusal, are cloud-only (open-source servers have none to list)
ROUTER_LINK_RELEASE = 'v0.45.2'
PROXY_LINK_RELEASE = 'v0.65.0'


def ipv6_norm(value):
    """An IPv6 address in its compressed form (fd00:0::1 and fd00::1 are one address), None when absent."""
    text = bare_ip(value)
    if text is None:
        return None
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return text


# -- identity ----------------------------------------------------------------------------------------
def lookup_key(task):
    """The option that finds the peer: id, hostname, ip (alone), else name."""
    for key in ('id', 'hostname', 'ip'):
        if task.params.get(key):
            return key
    return 'name'


def address_to_set(task):
    """The address the task gives the peer: ip with id or hostname (alone, ip finds the peer), or None."""
    return task.params.get('ip') if lookup_key(task) != 'ip' else None


def check_address_free(task, current_obj, address):
    """Refuse, before any write (and in check mode), an address another peer has (the server refuses it too)."""
    others = [peer for peer in task.resolver.items('peers')
              if bare_ip(peer.get('ip')) == address and ref_id(peer) != ref_id(current_obj)]
    if others:
        raise TaskError("option ip: %s is the address of the peer '%s' (id %s); the peer '%s' can only get a free "
                        "address" % (address, others[0].get('name'), ref_id(others[0]), current_obj.get('name')))


# -- what keeps a peer from being deleted ---------------------------------------------------------------
def readable_list(task, path):
    """The list at ``path``, or [] where the token may not read it (or the server lacks it): the DELETE then tells."""
    try:
        return task.client.get_list(path)
    except ApiError as exc:
        if exc.status in (401, 403, 404):
            return []
        raise


def delete_links(task, peer):
    """Why the server would refuse (412) to delete the peer, read before any write (and in check mode), or None:
    the reverse-proxy services that target it and the network routers whose routing peer it is, each named with its
    network. Only servers of the releases that refuse are asked (one GET of each list, the networks only when a
    router names the peer). A peer answered without today's members (v0.27) comes from a server older than both: the
    server is not asked its release then."""
    server, peer_id = task.resolver.server, ref_id(peer)
    links = []
    if not any(name in peer for name in CURRENT_PEER_ANSWERS):
        return None
    if server.has_release(PROXY_LINK_RELEASE):
        links += ["the reverse-proxy service '%s' (id %s) targets it" % (service.get('name') or service.get('domain'), ref_id(service))
                  for service in readable_list(task, '/reverse-proxies/services')
                  if any(isinstance(target, dict) and target.get('target_id') == peer_id for target in service.get('targets') or ())]
    if server.has_release(ROUTER_LINK_RELEASE):
        routers = [ref_id(router) for router in readable_list(task, '/networks/routers') if isinstance(router, dict)
                   and router.get('peer') == peer_id]
        if routers:
            network_of = {str(router_id): network for network in task.resolver.items('networks')
                          for router_id in id_list(network.get('routers'))}
            links += ["the network router %s of the network '%s' routes through it" % (
                router_id, (network_of.get(router_id) or {}).get('name', '(unknown)')) for router_id in routers]
    if not links:
        return None
    return ("the peer '%s' (id %s) cannot be deleted while it is linked (the server refuses, 412): %s; remove or "
            "retarget those first; nothing was deleted" % (peer.get('name'), peer_id, '; '.join(links)))


# -- a deletion only while the peer is stale (only_if_inactive_for) -------------------------------------
def stale_condition(task):
    """only_if_inactive_for in seconds, or None when unset; a bad value, or one given without state=absent, fails
    naming the option (before any request)."""
    value = task.params.get('only_if_inactive_for')
    if value is None:
        return None
    if task.params.get('state') != 'absent':
        raise OptionsError('option only_if_inactive_for: only with state=absent, where it deletes the peer only while '
                           'it is stale (not connected, and not seen for that long)')
    return inactive_seconds(value, 'only_if_inactive_for')


def judged_time(client):
    """(the time a peer's staleness is judged at, the clock it is on): the earlier of this controller's clock and the
    server's (the Date of its latest answer, the read that found the peer, on the clock that stamps last_seen), so
    that neither clock running ahead of the other makes a peer stale sooner."""
    mine, theirs = wall_time(), http_time(client.answer_date)
    if theirs is None:
        return mine, "this controller's clock (the server's answer had no Date)"
    return (theirs, "the server's clock") if theirs <= mine else (mine, "this controller's clock")


# -- approval ------------------------------------------------------------------------------------------
def ignores_approval(task, obj):
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
        account = account_of(task)
    except ApiError as exc:
        if exc.status in (401, 403, 404):
            return False  # cannot tell: send it, and report what the server kept
        raise
    if account is None:
        return False
    extra = (account.get('settings') or {}).get('extra') or {}
    return not extra.get('peer_approval_enabled')


def report_what_the_server_kept(task, obj, result):
    """After a PUT the server partly ignored, report only what it changed (and the group memberships written): a
    re-run that asks again for an ignored approval_required is then changed=false, not a change on every run."""
    before = task.from_server(obj)
    after = task.from_server(result[task.result_key])
    changed = [name for name in before if before[name] != after[name]]
    diff = result.pop('diff', None) or {}
    groups = {side: {key: value for key, value in (diff.get(side) or {}).items() if key == 'groups'} for side in ('before', 'after')}
    result['changed'] = bool(changed or groups['after'])
    if result['changed']:
        result['diff'] = dict(before=dict({k: before[k] for k in changed}, **groups['before']),
                              after=dict({k: after[k] for k in changed}, **groups['after']))


# -- groups --------------------------------------------------------------------------------------------
def group_changes(task, peer_id):
    """(groups by id, current ids, ids to add, ids to remove), never touching the All group."""
    groups = {ref_id(group): group for group in task.resolver.items('groups')}
    # the built-in All group (every peer is in it, the server keeps it so), not any group named All
    all_ids, dummy_ambiguous = builtin_all_group(list(groups.values()))
    wanted = [ref for ref in task.params['groups'] if ref not in all_ids and not (ref == ALL_GROUP and all_ids)]
    wanted_ids = set(task.resolver.to_ids('groups', wanted, 'groups')) - all_ids
    current = set(gid for gid, group in groups.items() if peer_id in id_list(group.get('peers'))) - all_ids
    mode = task.params['groups_mode']
    add = wanted_ids - current if mode in ('exact', 'add') else set()
    if mode == 'exact':
        remove = current - wanted_ids
    elif mode == 'remove':
        remove = wanted_ids & current
    else:
        remove = set()
    return groups, current, add, remove


def membership_steps(task, plan, peer_id, obj):
    """The follow-up steps that regroup the peer: a PUT of each group it joins or leaves (planned in check mode),
    then a read of the peer as the writes left it. Each carries the groups' diff and the peer as planned."""
    groups, current, add, remove = plan
    after = (current | add) - remove

    def names(ids):
        return sorted(groups[gid].get('name') or gid for gid in ids)

    kept = [summary for summary in peer_groups(obj) if ref_id(summary) not in add | remove]
    kept += [{key: groups[gid].get(key) for key in ('id', 'name', 'peers_count', 'issued')} for gid in sorted(add)]
    step = dict(expect=dict(obj, groups=kept), use_answer=False, before=dict(groups=names(current)), after=dict(groups=names(after)))
    steps = [dict(step, member=dict(path='%s/%s' % (GroupModule.path, gid), key='peers', member_id=peer_id, member=gid in add,
                                    read_only=GroupModule.read_only, noun=GroupModule.what, kind=GroupModule.kind))
             for gid in sorted(add | remove)]
    return steps + [dict(step, method='GET', path='%s/%s' % (task.path, peer_id), use_answer=True)]


class PeerModule(UpdateOnly):
    """Configure, regroup or delete one peer; peers are never created (they join with setup keys)."""

    path = '/peers'
    what = 'peer'
    kind = 'peers'
    section = None           # network_state does not describe peers: they join with setup keys
    # its groups' member lists (membership_steps), and what links a peer to delete (delete_links)
    api_operations = ('PUT /api/groups/{groupId}', 'GET /api/networks/routers', 'GET /api/networks',
                      'GET /api/reverse-proxies/services')
    answers = dict(PEER_ANSWERS, **CURRENT_PEER_ANSWERS)
    model = 'peers.PeerOptions'
    fields = dict(
        name=Field(),
        ssh_enabled=Field('bool', norm=bool),
        login_expiration_enabled=Field('bool', norm=bool),
        approval_required=Field('bool', norm=bool),
        inactivity_expiration_enabled=Field('bool', norm=bool, requires='v0.77'),
        # finds the peer, or with id or hostname sets its address (v0.77): see address_to_set
        ip=Field(norm=bare_ip),
        # the peer's IPv6 overlay address (v0.71.0 on): sent only when the task changes it (see request_body)
        ipv6=Field(norm=ipv6_norm, requires='v0.77'),
    )
    options = dict(
        hostname=dict(type='str'),
        groups=dict(type='list', elements='str'),
        groups_mode=dict(type='str', default='exact', choices=['exact', 'add', 'remove']),
        only_if_inactive_for=dict(type='raw'),
    )
    shape = staticmethod(normalise_peer)
    not_creatable = ('no {what} with {identity} exists. Peers cannot be created through the API: a machine joins the '
                     'network with a setup key (see nms.overlay.setup_key), then this module can configure it')
    # the group memberships to write, and the approval_required the task asks for and whether it is sent
    # (and only_if_inactive_for in seconds)
    task_state = dict(group_plan=None, approval_wanted=None, approval_sent=False, stale_after=None)
    mutually_exclusive = (('id', 'hostname'),)
    required_one_of = (('id', 'name', 'hostname', 'ip'),)

    # -- identity ----------------------------------------------------------------------------------
    def check_options(self):
        self.stale_after = stale_condition(self)
        check_with_model(self, CHECKED_OPTIONS)
        if address_to_set(self) is not None:
            check_new_address, dummy = load_model('peers.check_new_address')  # a rule of the peers' models
            check_new_address(address_to_set(self))
        if self.params.get('ipv6') is not None:
            check_new_ipv6, dummy = load_model('peers.check_new_ipv6')
            check_new_ipv6(self.params['ipv6'])

    def check_server(self):
        super().check_server()
        release = refused_release(self.resolver.server, ADDRESS_RELEASE) if address_to_set(self) is not None else None
        if release:
            raise TaskError("option ip: %s cannot change a peer's address (servers can from %s); given with id "
                            "or hostname, ip is the peer's new address, and alone it finds the peer"
                            % (self.resolver.server.describe(), release))

    def desired(self):
        desired = super().desired()
        if address_to_set(self) is None:
            desired.pop('ip', None)
        return desired

    def matches(self, item):
        key = lookup_key(self)
        value = self.params[key]
        if key == 'hostname':
            return same_hostname(item.get('hostname'), value)
        if key == 'ip':
            return bare_ip(item.get('ip')) == bare_ip(value)
        return item.get('name') == value

    def identity_text(self):
        key = lookup_key(self)
        return "%s '%s'" % (key, self.params[key])

    def kept_from_delete(self, obj):
        """With only_if_inactive_for, why the peer just read (right before its DELETE) is no longer stale, or None."""
        if self.stale_after is None:
            return None
        why = still_active(obj, self.stale_after, *judged_time(self.client))
        if why is None:
            return None
        return ('%s: not deleted, as only_if_inactive_for=%s deletes the peer only while it is not connected and not '
                'seen for that long' % (why, self.params['only_if_inactive_for']))

    # -- the peer itself ---------------------------------------------------------------------------
    def prepare_update(self, obj, desired):
        # Resolve the groups first, so that an unknown group name fails before any write.
        self.group_plan = group_changes(self, ref_id(obj)) if self.params.get('groups') is not None else None
        wanted = self.approval_wanted = desired.get('approval_required')
        if wanted is not None and wanted != bool(obj.get('approval_required')) and ignores_approval(self, obj):
            # Known from reads: the write would change nothing, so it is not sent (and check mode says so too).
            self.warn('approval_required=%s is not applied: the server does not use peer approval (open-source servers '
                      'ignore approval_required; cloud servers apply it only when peer_approval_enabled is set in the '
                      'account settings); the peer keeps approval_required=%s'
                      % (self.shown(wanted, '%s'), self.shown(bool(obj.get('approval_required')), '%s')))
            del desired['approval_required']
        self.approval_sent = 'approval_required' in desired
        return desired

    def before_write(self, current_obj, state):
        if state is None and current_obj is not None:
            refusal = delete_links(self, current_obj)
            if refusal:
                raise TaskError(refusal)
        if state is None or current_obj is None:
            return
        if address_to_set(self) is not None and state.get('ip') != bare_ip(current_obj.get('ip')):
            check_address_free(self, current_obj, state['ip'])
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
        if address_to_set(self) is not None:
            body['ip'] = state.get('ip')
        # the server checks an ipv6 sent (the account's IPv6 range and groups) even when it is the peer's own: sent
        # only when the task changes it, so that an unrelated update never fails on it
        if self.params.get('ipv6') is None or ipv6_norm(state.get('ipv6')) == ipv6_norm((current_obj or {}).get('ipv6')):
            body.pop('ipv6', None)
        return body

    def follow_ups(self, before, state, obj):
        """The group memberships the task changes (see membership_steps)."""
        plan = self.group_plan
        if plan is None or not (plan[2] or plan[3]):
            return ()
        return membership_steps(self, plan, ref_id(before if before is not None else obj), obj)

    def to_result(self, obj):
        return normalise_peer(obj) if isinstance(obj, dict) and obj else {}

    def finish(self, obj, result):
        wanted = self.approval_wanted
        if (result['changed'] and not self.module.check_mode and wanted is not None and self.approval_sent
                and bool(result[self.result_key].get('approval_required')) != wanted):
            self.warn('the server did not apply approval_required=%s (open-source servers ignore it; it works on '
                      'cloud servers only)' % self.shown(wanted, '%s'))
            report_what_the_server_kept(self, obj, result)
        return result
