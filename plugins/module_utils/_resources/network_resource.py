# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Resources of a network: a host, a subnet or a domain (the network_resource module and network_resource_info)."""

from __future__ import annotations

import ipaddress

from ansible_collections.nms.overlay.plugins.module_utils._client import TEXT
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resolve import ResolveError, find_unique
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field, planned
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_zone import unreadable_as
from ansible_collections.nms.overlay.plugins.module_utils._resources.network import NETWORKS, InNetwork
from ansible_collections.nms.overlay.plugins.module_utils._tables import RESOLVER_TABLE


def resource_address(value):
    """A resource's address as servers show it: an address gets its full prefix (10.0.0.1 -> 10.0.0.1/32), a
    prefix keeps its host bits (servers keep 10.0.0.5/24 as given), a domain stays as it is."""
    if value in (None, ''):
        return value
    text = str(value).strip()
    try:
        interface = ipaddress.ip_interface(text)
    except ValueError:
        return text
    prefix = interface.network.prefixlen if '/' in text else interface.max_prefixlen
    return '%s/%d' % (interface.ip, prefix)


def resource_result(item):
    """A network resource as returned to the user: groups never null."""
    if not isinstance(item, dict) or not item:
        return item
    return dict(item, groups=item.get('groups') or [])


def network_of(task, item):
    """The network a resource of the account's list is in, for a message (from the networks' lists of resource ids,
    which the task has read to find its own network)."""
    for network in task.resolver.items('networks'):
        if ref_id(item) in [ref_id(value) for value in network.get('resources') or []]:
            return "the network '%s' (id %s)" % (network.get('name'), ref_id(network))
    return 'another network'


class NetworkResourceModule(InNetwork, ResourceModule):
    """A resource of the network the option ``network`` names, found by id or by name."""

    sub_path = '/resources'
    what = 'network resource'
    section = 'network_resources'
    nested_in = ('networks', 'resources', 'network')  # network_state: a network's entry lists them under resources
    also_listed = 'network_resources'  # the account-wide list, where a policy's rule and a group find it
    requires = NETWORKS
    list_only = True          # a GET by id of another network's resource is a bare 500: look in the network's list
    cache_list = True         # finding the resource and checking its name share the network's list
    # servers keep resource names unique in the account and say so on create and on rename (422): a create that
    # meets another run's resource of the name reconciles with it, and concurrent creates leave no copies to converge
    unique_names = True
    exists_answers = {422: 'already exists'}
    answers = dict(id=None, type=TEXT)  # the type follows the address
    required_on_create = ('name', 'address')
    model = 'networks.NetworkResourceOptions'
    fields = dict(
        name=Field(),
        description=Field(initial=''),
        address=Field(norm=resource_address),
        groups=Field('list', ref='groups', many=True, initial=[]),
        enabled=Field('bool', initial=True),
    )
    options = dict(
        network=dict(type='str', required=True),
    )
    required_one_of = (('id', 'name'),)
    shape = staticmethod(resource_result)

    def check_server(self):
        """Servers keep resource names unique across every network of the account and refuse, at write time (422), a
        create or a rename onto a name another network's resource has: refused here first, before any write
        (network_state: before its first), in check mode too. The account's resources are read only when the task's
        network holds no resource of the name (a create, or a rename)."""
        super().check_server()
        name = self.params.get('name')
        if not name:
            return
        self.listed = None  # network_state asks before its first write and again when it applies the entry
        dummy_path, what, names = RESOLVER_TABLE['networks']
        try:
            network = find_unique(self.resolver.items('networks'), self.params['network'], names, what, 'network')
        except ResolveError:
            return  # an ambiguous network: finding the resource says so
        # a network still to be made (network_state) holds nothing yet
        own = self.list_items() if network is not None and not planned(ref_id(network)) else []
        if any(isinstance(item, dict) and item.get('name') == name for item in own):
            return  # the resource itself (or, for a rename, one the engine's rename check names)
        own_ids = set(ref_id(item) for item in own if isinstance(item, dict))
        listed = unreadable_as([], lambda: self.resolver.items('network_resources'))
        taken = [item for item in listed if isinstance(item, dict) and item.get('name') == name
                 and ref_id(item) not in own_ids and not planned(ref_id(item))]
        if taken:
            item = taken[0]
            raise TaskError("option name: '%s' is the name of the network resource with id %s in %s, and servers keep "
                            "resource names unique across all the networks of the account; give this resource another "
                            "name" % (name, ref_id(item), network_of(self, item)))
