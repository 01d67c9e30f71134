# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Reverse-proxy services of today's servers (reverse_proxy_service and reverse_proxy_service_info): an internal
service (a peer, a network resource) published under a domain by the account's proxy cluster, with its sign-in
(password, PIN, SSO groups, header values) and access restrictions."""

from __future__ import annotations

import copy

from ansible_collections.nms.overlay.plugins.module_utils._client import FLAG, FREE_FORM, TEXT
from ansible_collections.nms.overlay.plugins.module_utils._compare import id_set
from ansible_collections.nms.overlay.plugins.module_utils._kind import UPDATE_SECRET_OPTION, Field
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy import REVERSE_PROXIES, ROOT, without_empty

MODES = ('http', 'tcp', 'udp', 'tls')
TARGET_TYPES = ('peer', 'host', 'domain', 'subnet', 'cluster')
# what a target's target_id names, by its type: a peer, a network resource (of that type), or a cluster's address
TARGET_KINDS = dict(peer='peers', host='network_resources', domain='network_resources', subnet='network_resources')
# the write-only members of a service's sign-in (servers answer them empty, and keep the value they hold for an
# enabled method whose value a request leaves empty; header values by the header's name)
SIGN_IN_SECRETS = ('password_auth.password', 'pin_auth.pin', 'header_auths[header].value')

TARGET_OPTIONS = dict(
    target_id=dict(type='str', required=True),
    target_type=dict(type='str', required=True, choices=list(TARGET_TYPES)),
    protocol=dict(type='str', required=True, choices=['http', 'https', 'tcp', 'udp']),
    port=dict(type='int', required=True),
    host=dict(type='str'),
    path=dict(type='str'),
    enabled=dict(type='bool', default=True),
    options=dict(type='dict'),
)
AUTH_OPTIONS = dict(
    password_auth=dict(type='dict', no_log=False, options=dict(enabled=dict(type='bool', required=True), password=dict(type='str', no_log=True))),
    pin_auth=dict(type='dict', options=dict(enabled=dict(type='bool', required=True), pin=dict(type='str', no_log=True))),
    bearer_auth=dict(type='dict', options=dict(enabled=dict(type='bool', required=True), distribution_groups=dict(type='list', elements='str'))),
    link_auth=dict(type='dict', options=dict(enabled=dict(type='bool', required=True))),
    header_auths=dict(type='list', elements='dict', options=dict(
        enabled=dict(type='bool', default=True), header=dict(type='str', required=True), value=dict(type='str', no_log=True))),
)


def normal_targets(targets):
    """Targets as compared: in order, without empty members; a host only where servers use it (subnet targets)."""
    shown = []
    for target in without_empty(copy.deepcopy(targets or [])):
        if not isinstance(target, dict):
            shown.append(target)
            continue
        if target.get('target_type') != 'subnet':
            target.pop('host', None)
        target.setdefault('enabled', False)  # without_empty drops a disabled target's false
        shown.append(target)
    return shown


def normal_auth(auth):
    """A sign-in as compared: the methods that are on (one off is as one left out, and holds no secret in use),
    without empty members (secrets answered empty drop out), SSO groups as a set, each header check with its
    enabled flag (a check that is off keeps its value on the server)."""
    auth = without_empty({name: method for name, method in copy.deepcopy(auth or {}).items()
                          if not isinstance(method, dict) or method.get('enabled')})
    bearer = auth.get('bearer_auth')
    if isinstance(bearer, dict) and 'distribution_groups' in bearer:
        bearer['distribution_groups'] = sorted(id_set(bearer['distribution_groups']))
    for header in auth.get('header_auths') or []:
        if isinstance(header, dict):
            header.setdefault('enabled', False)  # without_empty drops a disabled check's false
    return auth


class ReverseProxyServiceModule(ResourceModule):
    """A published service: its domain, mode, targets (peers and network resources by name), sign-in and access
    restrictions."""

    path = ROOT + '/services'
    what = 'reverse proxy service'
    section = 'reverse_proxy_services'
    requires = REVERSE_PROXIES
    # every operation the modules call (the kind's CRUD: no other)
    api_operations = ('GET /api/reverse-proxies/services', 'POST /api/reverse-proxies/services',
                      'GET /api/reverse-proxies/services/{serviceId}', 'PUT /api/reverse-proxies/services/{serviceId}',
                      'DELETE /api/reverse-proxies/services/{serviceId}')
    cache_list = True
    model = 'proxies.ReverseProxyServiceOptions'  # ports in 0..65535 (targets 1..65535), a DNS name (servers take any)
    required_on_create = ('name', 'domain', 'targets')
    answers = dict(id=None, proxy_cluster=TEXT, port_auto_assigned=FLAG, terminated=FLAG, meta=FREE_FORM)
    fields = dict(
        name=Field(),
        domain=Field(),
        mode=Field(dict(type='str', choices=list(MODES)), server_default='http'),
        listen_port=Field('int', server_default=0),
        targets=Field(dict(type='list', elements='dict', options=TARGET_OPTIONS), norm=normal_targets),
        enabled=Field('bool', initial=True),
        pass_host_header=Field('bool', server_default=False),
        rewrite_redirects=Field('bool', server_default=False),
        auth=Field(dict(type='dict', options=AUTH_OPTIONS), norm=normal_auth, write_only=SIGN_IN_SECRETS),
        access_restrictions=Field('dict', norm=without_empty),
        private=Field('bool'),
        access_groups=Field('list', ref='groups', many=True),
    )
    # the engine's option for write-only values, under the name earlier releases gave it too
    options = dict(update_secret={**UPDATE_SECRET_OPTION, 'aliases': ['update_secrets']})
    required_one_of = (('id', 'name'),)

    def desired(self):
        """The options, with each target's target_id (by its type) and the SSO groups resolved to ids."""
        wanted = super().desired()
        # the groups first: their list's All group then names the peers of targets too (_resolve.every_one)
        bearer = (wanted.get('auth') or {}).get('bearer_auth')
        if isinstance(bearer, dict) and bearer.get('distribution_groups'):
            bearer['distribution_groups'] = sorted(self.resolver.to_ids('groups', bearer['distribution_groups'],
                                                                        'auth.bearer_auth.distribution_groups'))
        targets = self.params.get('targets')
        if targets is not None:
            resolved = []
            for index, target in enumerate(targets):
                target = dict(target)
                kind = TARGET_KINDS.get(target.get('target_type'))
                if kind and target.get('target_id'):
                    target['target_id'] = self.resolver.to_id(kind, target['target_id'], 'targets[%d].target_id' % index)
                resolved.append(target)
            wanted['targets'] = normal_targets(resolved)
        return wanted

    def described(self, options, obj, name_of):
        """The options an export describes the service with: its targets and sign-in groups by name, as a task gives
        them (desired's inverse)."""
        targets = []
        for target in options.get('targets') or []:
            kind = TARGET_KINDS.get(target.get('target_type'))
            targets.append(dict(target, target_id=name_of(kind, target['target_id'])) if kind and target.get('target_id') else target)
        if 'targets' in options:
            options = dict(options, targets=targets)
        bearer = (options.get('auth') or {}).get('bearer_auth')
        if isinstance(bearer, dict) and bearer.get('distribution_groups'):
            named = sorted((name_of('groups', group) for group in bearer['distribution_groups']), key=str)
            options = dict(options, auth=dict(options['auth'], bearer_auth=dict(bearer, distribution_groups=named)))
        return options
