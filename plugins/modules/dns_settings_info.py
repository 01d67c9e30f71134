#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: dns_settings_info
short_description: Read the DNS settings of the account
version_added: 1.0.0
description:
  - Returns the DNS settings of the account, a single object that always exists.
  - Reads the settings whether the server wraps them in C(items) or not.
seealso:
  - module: nms.overlay.dns_settings
  - module: nms.overlay.nameserver_group_info
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module]
'''

EXAMPLES = r'''
- name: Read the DNS settings
  nms.overlay.dns_settings_info:
  register: dns

- name: Show the groups whose peers get no DNS configuration
  ansible.builtin.debug:
    msg: "{{ dns.dns_settings.disabled_management_groups }}"
'''

RETURN = r'''
dns_settings:
  description: The DNS settings.
  returned: always
  type: dict
  contains:
    disabled_management_groups:
      description: Ids of the groups whose DNS management is disabled; never null.
      type: list
      elements: str
      sample: [ch8i4ug6lnn4g9hqv7l0]
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_settings import DnsSettingsModule


class DnsSettingsInfoModule(InfoModule):
    resource = DnsSettingsModule
    argument_spec = {}

    def run(self):
        return {'changed': False, 'dns_settings': self.to_result(self.client.get_object(self.path))}


if __name__ == '__main__':
    DnsSettingsInfoModule.main()
