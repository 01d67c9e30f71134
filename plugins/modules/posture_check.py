#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: posture_check
short_description: Manage posture checks that gate the source peers of policies
version_added: 1.0.0
description:
  - Creates, updates and deletes a posture check. A policy lists posture checks in its
    C(source_posture_checks); only source peers that pass them get the policy's access.
  - A posture check is found by O(id) when given, otherwise by O(name).
  - Options left unset keep the server's value. Of O(checks), the members you give replace the server's
    members of the same name and the members you leave out stay as they are, unless O(checks_mode=replace).
  - Every value is checked before any request, and a failure names the option, for example
    C(checks.geo_location_check.locations[0].country_code). Version strings must look like V(0.25.0),
    V(v1.2.3) or V(6.5.11-rc1); country codes are 2 letters (sent upper-case); network ranges are CIDRs
    (compared by network, so V(10.1.2.3/8) equals V(10.0.0.0/8)).
  - Deleting a posture check that a policy uses fails before the delete, naming the policy.
options:
  id:
    description:
      - Id of the posture check. Needed to rename one; otherwise O(name) finds it.
    type: str
  name:
    description:
      - Name of the posture check. Names are unique on the server. Required to create one.
    type: str
  description:
    description:
      - Description of the posture check. A new one gets an empty description when unset.
    type: str
  checks:
    description:
      - What a peer must satisfy. Give at least one member. Required to create a posture check.
      - A member you give replaces that member as a whole (for example an O(checks.os_version_check)
        with only O(checks.os_version_check.linux) drops a minimum Windows version).
    type: dict
    suboptions:
      nb_version_check:
        description:
          - Minimum version of the client software.
        type: dict
        suboptions:
          min_version:
            description:
              - Lowest client version that passes, for example V(0.25.0).
            type: str
            required: true
      os_version_check:
        description:
          - Minimum operating system versions. A peer whose operating system is not listed fails.
          - Give at least one operating system.
        type: dict
        suboptions:
          android:
            description: Minimum Android version.
            type: dict
            suboptions:
              min_version:
                description: Lowest Android version that passes, for example V(13).
                type: str
                required: true
          darwin:
            description: Minimum macOS version.
            type: dict
            suboptions:
              min_version:
                description: Lowest macOS version that passes, for example V(14.2.1).
                type: str
                required: true
          ios:
            description: Minimum iOS version.
            type: dict
            suboptions:
              min_version:
                description: Lowest iOS version that passes, for example V(17.0).
                type: str
                required: true
          linux:
            description: Minimum Linux kernel version.
            type: dict
            suboptions:
              min_kernel_version:
                description: Lowest kernel version that passes, for example V(5.10.0).
                type: str
                required: true
          windows:
            description: Minimum Windows kernel version.
            type: dict
            suboptions:
              min_kernel_version:
                description: Lowest Windows kernel version that passes, for example V(10.0.19045).
                type: str
                required: true
      geo_location_check:
        description:
          - Where peers may or may not be. Needs the server's geo database.
        type: dict
        suboptions:
          action:
            description:
              - V(allow) passes only peers in one of the locations; V(deny) fails them.
            type: str
            required: true
            choices: [allow, deny]
          locations:
            description:
              - The locations, at least one. Order does not matter.
            type: list
            elements: dict
            required: true
            suboptions:
              country_code:
                description:
                  - ISO 3166-1 alpha-2 country code such as V(DE); sent upper-case.
                type: str
                required: true
              city_name:
                description:
                  - English city name such as V(Berlin); without it the whole country matches.
                type: str
      peer_network_range_check:
        description:
          - Networks the peer's local addresses may or may not be in.
        type: dict
        suboptions:
          action:
            description:
              - V(allow) passes only peers in one of the ranges; V(deny) fails them.
            type: str
            required: true
            choices: [allow, deny]
          ranges:
            description:
              - CIDR ranges, at least one, for example V(192.168.0.0/16). Order does not matter.
            type: list
            elements: str
            required: true
      process_check:
        description:
          - Processes that must be running on the peer. A peer passes when every listed process runs, at the path
            given for its operating system; a process without a path for the peer's operating system fails it.
          - Servers have it from v0.28.0 on; on an older server a task that sets it fails before any change.
        type: dict
        suboptions:
          processes:
            description:
              - The processes, at least one. Order does not matter.
            type: list
            elements: dict
            required: true
            suboptions:
              linux_path:
                description: Path of the process's executable on Linux, for example V(/usr/bin/netbird).
                type: str
              mac_path:
                description: Path of the process's executable on macOS.
                type: str
              windows_path:
                description: Path of the process's executable on Windows.
                type: str
  checks_mode:
    description:
      - V(merge) changes only the members of O(checks) that you give.
      - V(replace) makes O(checks) the complete set of members, removing the ones you leave out.
    type: str
    choices: [merge, replace]
    default: merge
  state:
    description:
      - V(present) creates or updates the posture check; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
seealso:
  - module: nms.overlay.posture_check_info
  - module: nms.overlay.policy
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource]
'''

EXAMPLES = r'''
# The connection comes from NMS_API_URL and NMS_API_TOKEN (or module_defaults).
- name: Require a recent client and a recent kernel
  nms.overlay.posture_check:
    name: recent-client
    description: Client 0.25 or later, Linux kernel 5.10 or later
    checks:
      nb_version_check:
        min_version: 0.25.0
      os_version_check:
        linux:
          min_kernel_version: 5.10.0

- name: Also require peers to be in Germany; the version checks stay as they are
  nms.overlay.posture_check:
    name: recent-client
    checks:
      geo_location_check:
        action: allow
        locations:
          - country_code: de

- name: Only office networks, nothing else
  nms.overlay.posture_check:
    name: office-networks
    checks_mode: replace
    checks:
      peer_network_range_check:
        action: allow
        ranges:
          - 192.168.0.0/16
          - 10.20.0.0/16

- name: Require the NetBird agent to run on the peer (servers from v0.28.0 on)
  nms.overlay.posture_check:
    name: agent-running
    checks:
      process_check:
        processes:
          - linux_path: /usr/bin/netbird
            mac_path: /Applications/NetBird.app/Contents/MacOS/netbird

- name: Delete a posture check (fails while a policy uses it)
  nms.overlay.posture_check:
    name: office-networks
    state: absent
'''

RETURN = r'''
posture_check:
  description:
    - The posture check after the change. In check mode, the posture check as it would be.
    - Empty after O(state=absent) when there was nothing to delete; otherwise the deleted posture check.
  returned: always
  type: dict
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
        - The configured members only. C(peer_network_range_check.ranges) is always a flat list.
        - C(process_check) (servers from v0.28.0 on) lists C(processes), each with C(linux_path), C(mac_path) and
          C(windows_path) as the server answers them (V("") where a process has no path).
      type: dict
      sample:
        nb_version_check:
          min_version: 0.25.0
        peer_network_range_check:
          action: allow
          ranges: [192.168.0.0/16]
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.posture_check import PostureCheckModule


if __name__ == '__main__':
    PostureCheckModule.main()
