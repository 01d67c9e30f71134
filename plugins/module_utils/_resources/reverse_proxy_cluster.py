# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Proxy clusters of today's servers (reverse_proxy_cluster and reverse_proxy_cluster_info): the NetBird proxies
connected to the server, grouped by the address they serve. A proxy connects by itself (with a proxy token); the API
lists the clusters and removes the account's own (self-hosted) ones."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._client import FLAG, NUMBER, TEXT
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._resource import UpdateOnly
from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy import REVERSE_PROXIES, ROOT

OWN = 'account'  # a cluster of the account's own proxies; 'shared' ones are operated for many accounts


class ReverseProxyClusterModule(UpdateOnly):
    """A proxy cluster, found by its address; only removed (its proxies' registrations), never created."""

    path = ROOT + '/clusters'
    what = 'reverse proxy cluster'
    section = None  # not described by network_state: proxies connect by themselves, the API only lists and removes them
    requires = REVERSE_PROXIES
    api_operations = ('GET /api/reverse-proxies/clusters', 'DELETE /api/reverse-proxies/clusters/{clusterAddress}')
    natural_key = 'address'
    unique_names = True      # one cluster per address
    has_id = False           # addressed by its address (its id is one of its proxies')
    list_only = True
    cache_list = True
    states = ('absent',)
    required_on_create = ()
    answers = dict(id=None, type=TEXT, online=FLAG, connected_proxies=NUMBER, supports_custom_ports=FLAG, require_subdomain=FLAG,
                   supports_crowdsec=FLAG, private=FLAG)
    not_creatable = ('no {what} with {identity} exists. Proxy clusters are not created through the API: a NetBird proxy '
                     'connects with a proxy token.')
    fields = dict(address=Field(dict(type='str', required=True), immutable=True))
    argument_spec = dict(state=dict(type='str', choices=['absent'], default='absent'))

    def object_path(self, obj):
        return '%s/%s' % (self.path, obj.get('address'))

    def before_write(self, current_obj, state):
        if current_obj is not None and state is None and current_obj.get('type', OWN) != OWN:
            raise TaskError("the reverse proxy cluster '%s' is a shared one (type %s), operated for many accounts: only the "
                            "account's own clusters (type %s) can be removed" % (current_obj.get('address'), current_obj.get('type'), OWN))
