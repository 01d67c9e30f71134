#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: agent_network_settings
short_description: Bootstrap, update or delete the account's Agent Network settings
version_added: 1.0.0
description:
  - Manages the account's Agent Network gateway settings (C(/api/agent-network/settings)), the endpoint AI agents call
    and whether access logs and prompts are collected.
  - Servers answer default settings with an empty endpoint until the settings are bootstrapped. The first task that
    sets O(proxy_address) or O(endpoint) bootstraps them (C(POST)); later tasks update them (C(PUT), every field sent,
    the ones the task does not set as the server holds them).
  - When tasks on many hosts bootstrap the settings at once (a task without C(run_once)), one bootstrap wins; the
    others are answered C(409 already bootstrapped), read the settings again and reconcile with them (an update where
    their options differ). Only the host whose bootstrap won reports C(changed) when all set the same options.
  - The endpoint and the proxy address are fixed once assigned. A different value is a warning and changes nothing;
    delete the settings (O(state=absent)) and bootstrap them again to change them, which allocates a new endpoint.
options:
  proxy_address:
    description:
      - The address of the proxy cluster to allocate the endpoint beneath (the server picks a label, the endpoint
        becomes C(<label>.<proxy_address>)). One of O(proxy_address) and O(endpoint) is required to bootstrap.
      - Mutually exclusive with O(endpoint).
    type: str
  endpoint:
    description:
      - A host name to claim as the account's own (dedicated) endpoint, served by a proxy that declares exactly that
        address. Mutually exclusive with O(proxy_address).
    type: str
  enable_log_collection:
    description: Whether each request's access-log entry is kept. Servers default to V(true).
    type: bool
  enable_prompt_collection:
    description: Master switch of prompt capture (a guardrail must also enable it). Servers default to V(false).
    type: bool
  redact_pii:
    description: Whether captured prompts have personal data redacted. Servers default to V(false).
    type: bool
  access_log_retention_days:
    description: Days access-log entries are kept; 0 or less keeps them for ever. Servers default to 30.
    type: int
  state:
    description:
      - V(present) bootstraps or updates the settings. V(absent) deletes them, releasing the endpoint; nothing is sent
        when they are not bootstrapped.
      - Servers refuse the deletion while any Agent Network provider exists; the task then fails before any write,
        naming the providers.
    type: str
    choices: [present, absent]
    default: present
notes:
  - Bootstrapping needs no connected proxy (the endpoint may be claimed before its proxy exists); traffic flows only
    once a NetBird proxy serves the endpoint. See the collection's guide C(docs/agent-network.md).
seealso:
  - module: nms.overlay.agent_network_settings_info
  - module: nms.overlay.agent_network_provider
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource, nms.overlay.module.converge, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: Bootstrap the Agent Network beneath the proxy cluster (connection from NMS_API_URL and NMS_API_TOKEN)
  nms.overlay.agent_network_settings:
    proxy_address: eu.proxy.example.com
    access_log_retention_days: 14

- name: Stop collecting access logs
  nms.overlay.agent_network_settings:
    enable_log_collection: false

- name: Release the endpoint (after every provider is deleted)
  nms.overlay.agent_network_settings:
    state: absent
'''

RETURN = r'''
agent_network_settings:
  description:
    - The settings after the change; in check mode, as they would be (a bootstrap's endpoint is then a placeholder).
    - After O(state=absent), the deleted settings, or empty when there were none.
  returned: always
  type: dict
  contains:
    endpoint:
      description: The host name agents call; empty before the bootstrap.
      type: str
      sample: brave-otter.eu.proxy.example.com
    proxy_address:
      description: The proxy cluster's address (equal to the endpoint for a dedicated one); empty before the bootstrap.
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

from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network_settings import AgentNetworkSettingsModule


if __name__ == '__main__':
    AgentNetworkSettingsModule.main()
