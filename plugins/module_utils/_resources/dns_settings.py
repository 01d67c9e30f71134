# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The account's DNS settings (the dns_settings module, dns_settings_info and network_state)."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._compare import unwrap_items
from ansible_collections.nms.overlay.plugins.module_utils._resource import Field, Settings


def _dns_settings_model():
    from ansible_collections.nms.overlay.plugins.module_utils._models_routing import DnsSettingsOptions
    return DnsSettingsOptions


class DnsSettingsModule(Settings):
    """The account's DNS settings, a singleton that is read and updated only."""

    path = '/dns/settings'
    what = 'DNS settings'
    result_key = 'dns_settings'
    section = 'dns_settings'
    model = staticmethod(_dns_settings_model)
    fields = dict(
        disabled_management_groups=Field('list', ref='groups', many=True),
    )

    def server_fields(self, obj):
        return unwrap_items(obj)

    shape = staticmethod(unwrap_items)  # GET wraps the settings in items (spec) or not (deployed servers)
