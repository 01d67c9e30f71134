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

from ansible_collections.nms.overlay.plugins.module_utils._registry import all_sections, register, sections
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

RESOURCES = register((
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
), {
    # kinds referred to by name whose objects live under a parent (a network's resources): their resolver list is the
    # account-wide one, which servers that have them answer (a group's resources name them)
    'network_resources': (NetworkModule.path + NetworkResourceModule.sub_path, NetworkResourceModule),
})

# network_state's sections: (key, class) of each kind a description holds at its top, in the order they are applied;
# and of every kind it handles, nested ones after their parent (deletions run in the reverse order)
SECTIONS = sections()
ALL_SECTIONS = all_sections()
