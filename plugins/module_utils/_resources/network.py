# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Networks of today's servers (the network module and network_info); their resources and routers live under one."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._client import LIST, NUMBER
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._resolve import find_unique
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field, planned
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._tables import RESOLVER_TABLE

NETWORKS = 'Networks'  # what a v0.27 server lacks (named when it refuses these modules)


def network_result(item):
    """A network as returned to the user: its lists of ids never null (servers answer a network without
    resources with null)."""
    if not isinstance(item, dict) or not item:
        return item
    result = dict(item)
    for name in ('routers', 'resources', 'policies'):
        result[name] = result.get(name) or []
    return result


def under_network(task, sub_path, network_id=None):
    """The path of a list (``sub_path``) in the network the task names (``network_id``, when the caller resolved it),
    also in one check mode only plans (its placeholder's: where a planned write goes once the network has its id)."""
    if network_id is None:
        network_id = task.resolver.to_id('networks', task.params['network'], 'network')
    return '%s/%s%s' % (NetworkModule.path, network_id, sub_path)


class InNetwork:
    """What the kinds that live under a network share (its resources, its routers): their path is under the network
    that the option ``network`` names, and nothing is left to delete under a network that does not exist (deleting a
    network deletes its resources and routers)."""

    @classmethod
    def list_path(cls, task):
        network_id = task.resolver.to_id('networks', task.params['network'], 'network')
        if planned(network_id):
            return None  # a network check mode only plans has no resources or routers yet
        return under_network(task, cls.sub_path, network_id)

    def object_path(self, obj):
        """Under the network, also a planned one (the write that corrects a router just created in it, see created_as)."""
        return '%s/%s' % (under_network(self, self.sub_path), ref_id(obj))

    @property
    def path(self):
        return self.list_path(self)

    def without_parent(self):
        if self.params.get('state') != 'absent':
            return False
        dummy_path, what, names = RESOLVER_TABLE['networks']
        return find_unique(self.resolver.items('networks'), self.params['network'], names, what, 'network') is None


class NetworkModule(ResourceModule):
    path = '/networks'
    what = 'network'
    kind = 'networks'  # network_state describes its resources and routers inside each network's entry
    requires = NETWORKS
    # what the server derives from the network's resources, routers and policies: never sent
    answers = dict(id=None, routers=LIST, resources=LIST, routing_peers_count=NUMBER, policies=LIST)
    fields = dict(
        name=Field(),
        description=Field(initial=''),
    )
    required_one_of = (('id', 'name'),)
    shape = staticmethod(network_result)
