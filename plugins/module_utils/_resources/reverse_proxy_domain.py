# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Reverse-proxy domains of today's servers (reverse_proxy_domain and reverse_proxy_domain_info): the custom domains
services are published under, each validated against a proxy cluster (a CNAME to the cluster's address), beside the
free domain each cluster brings."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._client import FLAG, TEXT
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field, planned
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy import REVERSE_PROXIES, ROOT

CUSTOM = 'custom'  # a domain of the account's; 'free' ones come with a cluster and cannot be removed


class ReverseProxyDomainModule(ResourceModule):
    """A custom domain: created for a cluster, validated on request, deleted; servers never change one."""

    path = ROOT + '/domains'
    what = 'reverse proxy domain'
    section = 'reverse_proxy_domains'  # the custom ones: a cluster's free domain comes and goes with the cluster
    requires = REVERSE_PROXIES
    # its list, create and delete (no GET or PUT of one), and the validation it triggers
    api_operations = ('GET /api/reverse-proxies/domains', 'POST /api/reverse-proxies/domains',
                      'DELETE /api/reverse-proxies/domains/{domainId}', 'GET /api/reverse-proxies/domains/{domainId}/validate')
    natural_key = 'domain'
    unique_names = True
    list_only = True
    cache_list = True
    model = 'proxies.ReverseProxyDomainOptions'  # DNS names (servers take any text)
    required_on_create = ('domain', 'target_cluster')
    answers = dict(id=None, validated=FLAG, type=TEXT, supports_custom_ports=FLAG, require_subdomain=FLAG, supports_crowdsec=FLAG,
                   supports_private=FLAG)
    fields = dict(
        # no request changes a domain: a different value for an existing one is a warning
        domain=Field(immutable=True),
        target_cluster=Field(immutable=True),
    )
    options = dict(validate=dict(type='bool', default=False))
    required_one_of = (('id', 'domain'),)

    def follow_ups(self, before, state, obj):
        """validate: ask the server to check the domain's CNAME again, while it is not validated (the check runs in the
        background: a later read tells its outcome)."""
        if not self.params.get('validate') or self.params.get('state') == 'absent' or obj.get('validated'):
            return []
        if obj.get('type', CUSTOM) != CUSTOM:
            return []
        shown = obj.get('domain') or state.get('domain')
        return [dict(method='GET', path='%s/%s/validate' % (self.path, obj.get('id')), use_answer=False,
                     before={} if planned(obj.get('id')) else {'validated': False}, after={'validation': 'requested for %s' % shown})]

    def before_write(self, current_obj, state):
        if current_obj is not None and state is None and current_obj.get('type', CUSTOM) != CUSTOM:
            raise TaskError("the reverse proxy domain '%s' is the free domain of a proxy cluster (type %s); only custom "
                            "domains can be deleted" % (current_obj.get('domain'), current_obj.get('type')))
