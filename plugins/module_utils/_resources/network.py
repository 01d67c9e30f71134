# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Networks of today's servers (the network module and network_info); their resources and routers live under one."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._resolve import find_unique, kind_table
from ansible_collections.nms.overlay.plugins.module_utils._resource import Field, ResourceModule

NETWORKS = 'Networks'  # what a v0.27 server lacks (named when it refuses these modules)


def planned(item_id):
    """Whether an id is the placeholder check mode gives an object it only plans (ResourceModule.placeholder): nothing
    lives under such an object yet, and the server knows no such path."""
    return isinstance(item_id, str) and item_id.startswith('(new ')


def network_result(item):
    """A network as returned to the user: its lists of ids never null (servers answer a network without
    resources with null)."""
    if not isinstance(item, dict) or not item:
        return item
    result = dict(item)
    for name in ('routers', 'resources', 'policies'):
        result[name] = result.get(name) or []
    return result


def network_path(module, option='network'):
    """/networks/{id} of the network the option ``option`` names (an id or a name; one list read per task)."""
    return '/networks/%s' % module.resolver.to_id('networks', module.params[option], option)


class InNetwork:
    """What the kinds that live under a network share (its resources, its routers): their path is under the network
    that the option ``network`` names, and nothing is left to delete under a network that does not exist (deleting a
    network deletes its resources and routers)."""

    @classmethod
    def list_path(cls, task):
        return network_path(task) + cls.sub_path

    @property
    def path(self):
        return self.list_path(self)

    def list_items(self):
        if planned(self.resolver.to_id('networks', self.params['network'], 'network')):
            return []  # a network check mode only plans has no resources or routers yet
        return super().list_items()

    def find(self):
        if self.params.get('state') == 'absent':
            dummy_path, what, names = kind_table()['networks']
            if find_unique(self.resolver.items('networks'), self.params['network'], names, what, 'network') is None:
                return None
        return super().find()


class NetworkModule(ResourceModule):
    path = '/networks'
    what = 'network'
    kind = section = 'networks'  # network_state describes its resources and routers inside each network's entry
    result_key = 'network'
    requires = NETWORKS
    # what the server derives from the network's resources, routers and policies: never sent
    read_only = ('id', 'routers', 'resources', 'routing_peers_count', 'policies')
    fields = dict(
        name=Field(),
        description=Field(initial=''),
    )
    required_one_of = (('id', 'name'),)
    shape = staticmethod(network_result)
