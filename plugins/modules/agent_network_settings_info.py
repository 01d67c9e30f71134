#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: agent_network_settings_info
short_description: Read the account's Agent Network settings
version_added: 1.0.0
description:
  - Returns the account's Agent Network gateway settings. Before they are bootstrapped, servers answer the default
    values with an empty endpoint and proxy address.
seealso:
  - module: nms.overlay.agent_network_settings
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: Read the Agent Network settings
  nms.overlay.agent_network_settings_info:
  register: gateway

- name: Show the endpoint agents call
  ansible.builtin.debug:
    msg: "{{ gateway.agent_network_settings.endpoint or 'not bootstrapped' }}"
'''

RETURN = r'''
agent_network_settings:
  description: The settings, as nms.overlay.agent_network_settings returns them.
  returned: always
  type: dict
  contains:
    endpoint:
      description: The host name agents call; empty before the bootstrap.
      type: str
      sample: brave-otter.eu.proxy.example.com
    proxy_address:
      description: The proxy cluster's address; empty before the bootstrap.
      type: str
      sample: eu.proxy.example.com
    dedicated:
      description: Whether a proxy dedicated to the account serves the endpoint.
      type: bool
      sample: false
    enable_log_collection:
      description: Whether access-log entries are kept.
      type: bool
      sample: true
    enable_prompt_collection:
      description: Whether prompt capture is switched on.
      type: bool
      sample: false
    redact_pii:
      description: Whether captured prompts have personal data redacted.
      type: bool
      sample: false
    access_log_retention_days:
      description: Days access-log entries are kept.
      type: int
      sample: 30
    created_at:
      description: When the settings were bootstrapped (absent before).
      type: str
      sample: '2026-04-26T10:30:00Z'
    updated_at:
      description: When the settings last changed (absent before the bootstrap).
      type: str
      sample: '2026-04-26T10:30:00Z'
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network_settings import AgentNetworkSettingsModule


class AgentNetworkSettingsInfoModule(InfoModule):
    resource = AgentNetworkSettingsModule
    argument_spec = {}

    def run(self):
        self.check_generation()
        return {'changed': False, 'agent_network_settings': self.to_result(self.client.get_object(self.path))}


if __name__ == '__main__':
    AgentNetworkSettingsInfoModule.main()
