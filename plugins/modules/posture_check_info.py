#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: posture_check_info
short_description: List posture checks
version_added: 1.0.0
description:
  - Returns all posture checks, or the one with a given O(id) or O(name).
  - Network ranges are returned as a flat list, also from servers that nest them.
seealso:
  - module: nms.overlay.posture_check
  - module: nms.overlay.policy_info
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.by_id_or_name]
'''

EXAMPLES = r'''
- name: List every posture check
  nms.overlay.posture_check_info:
  register: all_checks

- name: Show the names of the posture checks
  ansible.builtin.debug:
    msg: "{{ all_checks.posture_checks | map(attribute='name') | list }}"

- name: Read one posture check by name
  nms.overlay.posture_check_info:
    name: recent-client
  register: recent
'''

RETURN = r'''
posture_checks:
  description: The posture checks found, also when filtered to one. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: Id of the posture check.
      type: str
      sample: cpc1n4ug6lnn4g9hqv7l0
    name:
      description: Name of the posture check.
      type: str
      sample: recent-client
    description:
      description: Description of the posture check.
      type: str
      sample: Client 0.25 or later
    checks:
      description:
        - The configured members only (C(nb_version_check), C(os_version_check), C(geo_location_check),
          C(peer_network_range_check), and on servers from v0.28.0 on C(process_check), whose C(processes) have
          C(linux_path), C(mac_path) and C(windows_path), V("") where a process has none).
          C(peer_network_range_check.ranges) is always a flat list.
      type: dict
      sample:
        nb_version_check:
          min_version: 0.25.0
        geo_location_check:
          action: allow
          locations: [{country_code: DE, city_name: Berlin}]
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.posture_check import PostureCheckModule


class PostureCheckInfoModule(InfoModule):
    resource = PostureCheckModule


if __name__ == '__main__':
    PostureCheckInfoModule.main()
