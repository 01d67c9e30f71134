# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""network_state's ``state: rendered``: the requests a description would send to an empty account, worked out offline.

The run is network_state's own check mode (the plan of _network_plan.py and every entry's lifecycle, in order, with
placeholders for what the run creates), talking to OfflineAccount instead of a server: a new account of the NetBird
release asked for, answered from memory. Each write the plan would send is rendered here (method, path, body), the
engine telling it where check mode skips the write (_resource.planned). No request is sent, no token is read,
no connection is made.
"""

from __future__ import annotations

import copy
import json

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError, ShapedReads
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import blanked_secrets, display_name
from ansible_collections.nms.overlay.plugins.module_utils._names import ALL_GROUP
from ansible_collections.nms.overlay.plugins.module_utils._server import PROBE_RELEASE, VERSION_PATH, release_tuple
from ansible_collections.nms.overlay.plugins.module_utils._tables import RESOLVER_TABLE

# the releases the collection is tested with (tests/integration, the real-server kit): the newest is the default
NEWEST_RELEASE = '0.77.1'
OLDEST_RELEASE = '0.27.6'
API_ROOT = '/api'
# what a rendered body shows of a write-only value (a provider's api_key, a sign-in password): that it is sent
SENT_SECRET = '(write-only, sent, not shown)'
# the settings of a new account (what NetBird gives it), per generation: what an update of the account sends back
ACCOUNT_SETTINGS = dict(peer_login_expiration_enabled=True, peer_login_expiration=86400, regular_users_view_blocked=True,
                        groups_propagation_enabled=True, jwt_groups_enabled=False, jwt_groups_claim_name='',
                        jwt_allow_groups=[], extra=dict(peer_approval_enabled=False))
CURRENT_ACCOUNT_SETTINGS = dict(peer_inactivity_expiration_enabled=False, peer_inactivity_expiration=600,
                                routing_peer_dns_resolution_enabled=True, lazy_connection_enabled=False, dns_domain='',
                                auto_update_version='disabled', auto_update_always=False, peer_expose_enabled=False,
                                peer_expose_groups=[], metrics_push_enabled=False, local_mfa_enabled=False)
CURRENT_EXTRA = dict(user_approval_required=False)
AGENT_NETWORK_SETTINGS = dict(access_log_retention_days=30, dedicated=False, enable_log_collection=True,
                              enable_prompt_collection=False, endpoint='', proxy_address='', redact_pii=False)
DEFAULT_POLICY = 'Default'


def existing_id(what, name):
    """The id rendered for an object the empty account has, or the run assumes (a peer): it is the server's."""
    return '(existing %s %s)' % (what, name)


def server_release(value):
    """The release ``server_version`` names ('0.77.1', 'v0.27.6', '0.27'), as X.Y.Z; a clear failure otherwise."""
    text = str(value).strip()
    parts = text.lstrip('v').split('.')
    if len(parts) == 2:
        parts.append('0')
    release = '.'.join(parts)
    if release_tuple(release) is None or len(parts) != 3 or release_tuple(release) < (0, 27, 0):
        raise TaskError("option server_version: %r is not a NetBird release from v0.27 on (such as %s or %s)"
                        % (value, NEWEST_RELEASE, OLDEST_RELEASE))
    return release


class OfflineAccount(ShapedReads):
    """A new, empty account of one NetBird release, in memory: the All group, the Default policy (allow-all), the
    account's, DNS and Agent Network settings as a new account has them, every other list empty; and the objects a
    description refers to but cannot create (peers, the groups of group_memberships), assumed to exist (see
    ``assume``). It answers reads only; every write is rendered (``render``), never sent."""

    def __init__(self, release):
        self.release = release
        self.current = release_tuple(release) >= release_tuple(PROBE_RELEASE)  # older ones have no version probe
        self.requests = []
        self.reads = []  # the reads the plan made (GET paths): answered from memory
        all_id = existing_id('group', ALL_GROUP)
        self.lists = {path: [] for path, dummy_what, dummy_fields in RESOLVER_TABLE.values()}
        self.lists['/groups'] = [dict(id=all_id, name=ALL_GROUP, issued='api', peers=[], peers_count=0,
                                      **(dict(resources=[]) if self.current else {}))]
        rule = dict(name=DEFAULT_POLICY, description='This is a default rule that allows connections between all the resources',
                    enabled=True, action='accept', bidirectional=True, protocol='all',
                    sources=[dict(id=all_id, name=ALL_GROUP)], destinations=[dict(id=all_id, name=ALL_GROUP)])
        if not self.current:
            rule['ports'] = []
        self.lists['/policies'] = [dict(id=existing_id('policy', DEFAULT_POLICY), name=DEFAULT_POLICY, enabled=True,
                                        description=rule['description'], source_posture_checks=[], rules=[rule])]
        settings = copy.deepcopy(ACCOUNT_SETTINGS)
        if self.current:
            settings.update(copy.deepcopy(CURRENT_ACCOUNT_SETTINGS))
            settings['extra'].update(CURRENT_EXTRA)
        self.objects = {'/accounts': [dict(id=existing_id('account', 'id'), settings=settings)],
                        '/dns/settings': dict(disabled_management_groups=[])}
        if self.current:
            self.objects[VERSION_PATH] = dict(management_current_version=release)
            self.objects['/agent-network/settings'] = dict(AGENT_NETWORK_SETTINGS)

    def describe(self):
        return 'an empty account of NetBird v%s' % self.release

    def url_for(self, path):
        return None  # there is no server

    def assume(self, peers=(), groups=()):
        """Peers (by name) the description refers to, and groups (by name) whose members it changes without owning them
        (group_memberships): they cannot be described, so the account is taken to have them."""
        for name in sorted(set(peers)):
            self.lists['/peers'].append(dict(id=existing_id('peer', name), name=name))
        all_group = self.lists['/groups'][0]  # it holds every peer
        all_group.update(peers=[dict(id=peer['id'], name=peer['name']) for peer in self.lists['/peers']],
                         peers_count=len(self.lists['/peers']))
        for name in sorted(set(groups) - {group['name'] for group in self.lists['/groups']}):
            self.lists['/groups'].append(dict(id=existing_id('group', name), name=name, issued='api', peers=[], peers_count=0))

    def get(self, path, query=None):
        self.reads.append(path)
        if path in self.objects:
            return copy.deepcopy(self.objects[path])
        if path in self.lists:
            return copy.deepcopy(self.lists[path])
        if path.startswith('/agent-network/') or path.startswith('/reverse-proxies'):
            return []  # the lists of kinds under them that the resolver table does not hold (providers, clusters)
        if '/(new ' in path:  # under what the run only plans: nothing there yet
            return []
        raise ApiError('GET', path, 404, 'not in an empty account (state=rendered answers reads from memory)')

    def _refuse(self, method, path, *dummy):
        raise TaskError('state=rendered sends no request, but %s %s%s was about to be sent; please report this' % (method, API_ROOT, path))

    def post(self, path, body=None):
        return self._refuse('POST', path)

    def put(self, path, body=None):
        return self._refuse('PUT', path)

    def patch(self, path, body=None):
        return self._refuse('PATCH', path)

    def delete(self, path, body=None):
        return self._refuse('DELETE', path)

    def pause(self, attempt, retry_after=None, cause=None, limited=0.0):
        return 0.0

    def render_planned_write(self, task, method, path, body=None, member=None):
        """Keep one write the plan makes (_resource.planned): its write-only values shown as sent, never
        their values; a membership step as the change to the members the server holds right then."""
        if path is None and task.nested_in:  # under a parent the plan creates, which has no path yet: its placeholder's
            parent, dummy_key, option = task.nested_in
            path = '%s/%s%s' % (RESOLVER_TABLE[parent][0], task.resolver.to_id(parent, task.params[option], option), task.sub_path)
        request = dict(method=method, path=API_ROOT + path)
        name = display_name(task.params, (task.natural_key, 'name', 'email', 'network_id', 'domain')) or self.name_at(path)
        request['resource'] = '%s %s' % (task.what, name) if name else task.what
        if member is not None:
            request['body'] = dict(name=self.name_at(path), **{member['key']: list(member.get('add') or ())})
            request['members'] = dict(add=list(member.get('add') or ()), remove=list(member.get('remove') or ()))
            request['note'] = ('the %s the server holds right before the write (read then, and read back after), with '
                               'members.add added and members.remove taken out' % member['key'])
        elif body is not None:
            request['body'] = masked_body(task, body)
        self.requests.append(request)

    def name_at(self, path):
        item_id = path.rsplit('/', 1)[-1]
        for item in self.lists.get(path.rsplit('/', 1)[0], ()):
            if ref_id(item) == item_id:
                return item.get('name')
        return None


def masked_body(task, body):
    """A request body with the kind's write-only fields and members (task.write_only, task.secret_paths) shown as sent."""
    body = copy.deepcopy(body)
    if not isinstance(body, dict):
        return body
    for name in task.write_only:
        if body.get(name) not in (None, ''):
            body[name] = SENT_SECRET
    for name, paths in task.secret_paths.items():
        if body.get(name) is not None:
            body[name] = blanked_secrets(body[name], paths, SENT_SECRET)
    return body


def request_text(requests):
    """The requests as a reviewer reads them: each its method and path, then its body as indented JSON (keys sorted)."""
    lines = []
    for request in requests:
        lines.append('%s %s  # %s' % (request['method'], request['path'], request['resource']))
        if request.get('note'):
            lines.append('# %s: %s' % (json.dumps(request['members'], sort_keys=True, ensure_ascii=False), request['note']))
        if 'body' in request:
            lines.append(json.dumps(request['body'], indent=2, sort_keys=True, ensure_ascii=False))
        lines.append('')
    return '\n'.join(lines)
