# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Resources of a network: a host, a subnet or a domain (the network_resource module and network_resource_info)."""

from __future__ import annotations

import ipaddress

from ansible_collections.nms.overlay.plugins.module_utils._resource import Field, ResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.network import NETWORKS, InNetwork


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


def _resource_model():
    from ansible_collections.nms.overlay.plugins.module_utils._models_networks import NetworkResourceOptions
    return NetworkResourceOptions


class NetworkResourceModule(InNetwork, ResourceModule):
    """A resource of the network the option ``network`` names, found by id or by name."""

    sub_path = '/resources'
    what = 'network resource'
    section = 'network_resources'
    nested_in = ('networks', 'resources', 'network')  # network_state: a network's entry lists them under resources
    result_key = 'network_resource'
    requires = NETWORKS
    list_only = True          # a GET by id of another network's resource is a bare 500: look in the network's list
    # servers keep resource names unique in the account and say so on create and on rename (422): a create that
    # meets another run's resource of the name reconciles with it, and no check of renames is needed here
    exists_answers = {422: 'already exists'}
    read_only = ('id', 'type')  # the type follows the address
    required_on_create = ('name', 'address')
    model = staticmethod(_resource_model)
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

    def natural_key_is_unique(self):
        return True  # concurrent creates of a name cannot leave copies to converge on (see exists_answers)
