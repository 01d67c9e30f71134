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
from ansible_collections.nms.overlay.plugins.module_utils._kind import WRITE_ONLY_SHOWN, Field
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy import REVERSE_PROXIES, ROOT, without_empty

MODES = ('http', 'tcp', 'udp', 'tls')
TARGET_TYPES = ('peer', 'host', 'domain', 'subnet', 'cluster')
# what a target's target_id names, by its type: a peer, a network resource (of that type), or a cluster's address
TARGET_KINDS = dict(peer='peers', host='network_resources', domain='network_resources', subnet='network_resources')
# the write-only values of a service's sign-in: servers answer them empty and keep the one they hold for an enabled
# method whose value a request leaves empty
SECRETS = (('password_auth', 'password'), ('pin_auth', 'pin'))
HEADER_VALUE = 'value'
SECRET_BEFORE, SECRET_AFTER = WRITE_ONLY_SHOWN['before'], WRITE_ONLY_SHOWN['after']
ALWAYS, ON_CREATE = 'always', 'on_create'

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
    """A sign-in as compared: methods without empty members (secrets answered empty drop out), SSO groups as a set."""
    auth = without_empty(copy.deepcopy(auth or {}))
    bearer = auth.get('bearer_auth')
    if isinstance(bearer, dict) and 'distribution_groups' in bearer:
        bearer['distribution_groups'] = sorted(id_set(bearer['distribution_groups']))
    return auth


def public_service(item):
    """A service as returned to the user: its sign-in's secrets empty, as servers answer them (a predicted object
    holds the ones sent)."""
    if not isinstance(item, dict) or not isinstance(item.get('auth'), dict):
        return item
    auth = copy.deepcopy(item['auth'])
    for method, secret in SECRETS:
        if isinstance(auth.get(method), dict) and auth[method].get(secret):
            auth[method][secret] = ''
    for header in auth.get('header_auths') or []:
        if isinstance(header, dict) and header.get(HEADER_VALUE):
            header[HEADER_VALUE] = ''
    return dict(item, auth=auth)


def without_secrets(auth, enabled_before):
    """A desired sign-in without the secrets of the methods the server has enabled already (it keeps their values)."""
    auth = copy.deepcopy(auth)
    for method, secret in SECRETS:
        if isinstance(auth.get(method), dict) and method in enabled_before:
            auth[method].pop(secret, None)
    if 'header_auths' in enabled_before:
        for header in auth.get('header_auths') or []:
            header.pop(HEADER_VALUE, None)
    return auth


def masked(diff):
    """A diff whose sign-in secrets show as sent (after) or unreadable (before), never as values."""
    if not isinstance(diff, dict):
        return diff
    diff = copy.deepcopy(diff)
    for side, shown in (('before', SECRET_BEFORE), ('after', SECRET_AFTER)):
        auth = (diff.get(side) or {}).get('auth')
        if not isinstance(auth, dict):
            continue
        for method, secret in SECRETS:
            if isinstance(auth.get(method), dict) and auth[method].get(secret):
                auth[method][secret] = shown
        for header in auth.get('header_auths') or []:
            if isinstance(header, dict) and header.get(HEADER_VALUE):
                header[HEADER_VALUE] = shown
    return diff


class ReverseProxyServiceModule(ResourceModule):
    """A published service: its domain, mode, targets (peers and network resources by name), sign-in and access
    restrictions."""

    path = ROOT + '/services'
    what = 'reverse proxy service'
    requires = REVERSE_PROXIES
    # every operation the modules call (the kind's CRUD: no other)
    api_operations = ('GET /api/reverse-proxies/services', 'POST /api/reverse-proxies/services',
                      'GET /api/reverse-proxies/services/{serviceId}', 'PUT /api/reverse-proxies/services/{serviceId}',
                      'DELETE /api/reverse-proxies/services/{serviceId}')
    cache_list = True
    required_on_create = ('name', 'domain', 'targets')
    answers = dict(id=None, proxy_cluster=TEXT, port_auto_assigned=FLAG, terminated=FLAG, meta=FREE_FORM)
    fields = dict(
        name=Field(),
        domain=Field(),
        mode=Field(dict(type='str', choices=list(MODES))),
        listen_port=Field('int'),
        targets=Field(dict(type='list', elements='dict', options=TARGET_OPTIONS), norm=normal_targets),
        enabled=Field('bool', initial=True),
        pass_host_header=Field('bool'),
        rewrite_redirects=Field('bool'),
        auth=Field(dict(type='dict', options=AUTH_OPTIONS), norm=normal_auth),
        access_restrictions=Field('dict', norm=without_empty),
        private=Field('bool'),
        access_groups=Field('list', ref='groups', many=True),
    )
    options = dict(update_secrets=dict(type='str', choices=[ALWAYS, ON_CREATE], default=ON_CREATE))
    shape = staticmethod(public_service)
    required_one_of = (('id', 'name'),)

    def desired(self):
        """The options, with each target's target_id (by its type) and the SSO groups resolved to ids."""
        wanted = super().desired()
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
        bearer = (wanted.get('auth') or {}).get('bearer_auth')
        if isinstance(bearer, dict) and bearer.get('distribution_groups'):
            bearer['distribution_groups'] = sorted(self.resolver.to_ids('groups', bearer['distribution_groups'],
                                                                        'auth.bearer_auth.distribution_groups'))
        return wanted

    def prepare_update(self, obj, desired):
        """The secrets of a sign-in method the server has on already are sent only with update_secrets=always (they
        cannot be compared; a request without one keeps the value held); turning a method on sends its secret."""
        if 'auth' in desired and self.params.get('update_secrets') != ALWAYS:
            held = normal_auth(obj.get('auth'))
            enabled = set(name for name, method in held.items() if isinstance(method, dict) and method.get('enabled'))
            if any(isinstance(header, dict) and header.get('enabled') for header in held.get('header_auths') or []):
                enabled.add('header_auths')
            desired['auth'] = without_secrets(desired['auth'], enabled)
        return desired

    def finish(self, obj, result):
        if 'diff' in result:
            result['diff'] = masked(result['diff'])
        return result
