# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The account's DNS settings (the dns_settings module, dns_settings_info and network_state)."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._compare import unwrap_items
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._resource import Settings


class DnsSettingsModule(Settings):
    """The account's DNS settings, a singleton that is read and updated only."""

    path = '/dns/settings'
    what = 'DNS settings'
    section = 'dns_settings'
    model = 'routing.DnsSettingsOptions'
    fields = dict(
        disabled_management_groups=Field('list', ref='groups', many=True),
    )
    # GET wraps the settings in items (spec) or not (deployed servers): the engine's read of a singleton unwraps them,
    # so updates keep the fields of the settings themselves; results unwrap what a write answered
    shape = staticmethod(unwrap_items)
