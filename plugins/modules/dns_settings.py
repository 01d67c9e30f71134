#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: dns_settings
short_description: Manage the DNS settings of the account
version_added: 1.0.0
description:
  - Sets the DNS settings of the account, a single object that always exists. There is no
    O(ignore:state) option - the settings cannot be created or deleted.
  - Options left unset keep the server's value; a task without options changes nothing.
  - Reads the settings whether the server wraps them in C(items) (as the API specification shows)
    or not (as deployed servers answer).
options:
  disabled_management_groups:
    description:
      - The complete set of groups whose peers get no DNS configuration from the service, as group
        names or ids. Order does not matter.
      - V([]) enables DNS management for every group. Leave it unset to keep the current groups.
      - Every name must match exactly one group; an unknown or ambiguous name fails before any write.
    type: list
    elements: str
notes:
  - A group listed here cannot be deleted until it is removed from this list.
seealso:
  - module: nms.overlay.dns_settings_info
  - module: nms.overlay.nameserver_group
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource]
'''

EXAMPLES = r'''
- name: Let the peers of the unmanaged group keep their own DNS configuration
  nms.overlay.dns_settings:
    disabled_management_groups:
      - unmanaged

- name: Manage DNS on every peer again
  nms.overlay.dns_settings:
    disabled_management_groups: []
'''

RETURN = r'''
dns_settings:
  description: The DNS settings after the change. In check mode, the settings as they would be.
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

from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_settings import DnsSettingsModule


if __name__ == '__main__':
    DnsSettingsModule.main()
