# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every resource kind, declared once.

One file per kind in ``_resources`` (``group.py``, ``policy.py``, ...) holds the kind's class: its attributes are the kind's
descriptor (path, nouns, natural key, fields with their options and normalisers, references, strategy), its
few methods what is particular to the kind. This file lists the kinds in dependency order (a kind refers only
to kinds before it, so network_state applies them in this order) and derives from the declarations the
tables other parts use: the resolver's, the usage table and network_state's sections.
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._compare import id_list
from ansible_collections.nms.overlay.plugins.module_utils._resources.group import GroupModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.peer import PeerModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.posture_check import PostureCheckModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.policy import PolicyModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.route import RouteModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.nameserver_group import NameserverGroupModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_settings import DnsSettingsModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_zone import DnsZoneModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_record import DnsRecordModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.setup_key import SetupKeyModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.user import UserModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.token import TokenModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.account_settings import AccountSettingsModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.network import NetworkModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.network_resource import NetworkResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.network_router import NetworkRouterModule

RESOURCES = (
    GroupModule,
    PeerModule,
    PostureCheckModule,
    PolicyModule,
    RouteModule,
    NameserverGroupModule,
    DnsSettingsModule,
    DnsZoneModule,
    DnsRecordModule,
    SetupKeyModule,
    UserModule,
    TokenModule,
    AccountSettingsModule,
    NetworkModule,
    NetworkResourceModule,
    NetworkRouterModule,
)


# kinds referred to by name whose objects live under a parent (a network's resources): their resolver list is the
# account-wide one, which servers that have them answer (a group's resources name them)
LISTED_UNDER_PARENT = {
    'network_resources': ('/networks/resources', NetworkResourceModule.what, (NetworkResourceModule.natural_key,)),
}


def resolver_table():
    """kind -> (list path, noun, fields a reference may match after the id), for every kind referred to by name."""
    table = {cls.kind: (cls.path, cls.what, tuple(cls.lookup or (cls.natural_key,)))
             for cls in RESOURCES if cls.kind and cls.path and not cls.singleton}
    table.update(LISTED_UNDER_PARENT)
    return table


def sections():
    """(key, class) of each kind a network_state description holds at its top, in the order they are applied."""
    return tuple((cls.section, cls) for cls in RESOURCES if cls.section and not nested_in(cls))


def nested_in(cls):
    """(parent section, key in a parent's entry, option naming the parent) of a kind described inside the entries of
    another (a network's resources and routers, a DNS zone's records), else None."""
    return cls.nested_in


def nested_sections(parent):
    """(key in a parent's entry, class) of each kind described inside the entries of the section ``parent``."""
    return tuple((nested_in(cls)[1], cls) for cls in RESOURCES if nested_in(cls) and nested_in(cls)[0] == parent)


def all_sections():
    """(section, class) of every kind network_state handles, nested ones after their parent, in the order they are
    applied (deletions run in the reverse order)."""
    return tuple((cls.section, cls) for cls in RESOURCES if cls.section)


def usage_table():
    """referenced kind -> ((source key, what one of them is called, its name key or None, its references), ...):
    for each kind whose deletion checks what refers to it, every field of another kind that refers to it.
    ``references`` is a function from a referring object (server shape) to {option: ids}."""
    table = {}
    for target in RESOURCES:
        if not target.usage_checked:
            continue
        entries = []
        for cls in RESOURCES:
            if not cls.section or cls.requires:
                # a kind network_state does not describe, or one of today's servers only (a v0.27 server cannot list
                # it): the server is the judge of its references
                continue
            fields = [(name, field) for name, field in cls.fields.items()
                      if field.in_use and (field.ref == target.kind or target.kind in field.item_refs.values())]
            if fields:
                what = 'the %s' % cls.what if cls.singleton else cls.what
                entries.append((cls.section, what, None if cls.singleton else cls.natural_key,
                                _references(target.kind, fields)))
        table[target.kind] = tuple(entries)
    return table


def _references(kind, fields):
    """A function giving an object's references to ``kind`` per option (rules[0].sources for items' keys)."""
    def references(obj):
        found = {}
        for name, field in fields:
            if field.ref == kind:
                found[name] = id_list(obj.get(name))
            value = obj.get(name)
            for index, item in enumerate(value if isinstance(value, list) else []):
                for key, item_kind in field.item_refs.items():
                    if item_kind == kind and isinstance(item, dict):
                        found['%s[%d].%s' % (name, index, key)] = id_list(item.get(key))
        return found
    return references
