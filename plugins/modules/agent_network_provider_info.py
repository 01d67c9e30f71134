#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


DOCUMENTATION = r'''
module: agent_network_provider_info
short_description: List the AI providers of the Agent Network
version_added: 1.0.0
description:
  - Returns all Agent Network providers, or the one with a given O(id) or O(name). API keys are never answered.
  - The catalog of provider types a server offers is read by nms.overlay.agent_network_catalog_info.
seealso:
  - module: nms.overlay.agent_network_provider
  - module: nms.overlay.agent_network_catalog_info
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.by_id_or_name, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: List every Agent Network provider
  nms.overlay.agent_network_provider_info:
  register: providers

- name: Show their upstream URLs
  ansible.builtin.debug:
    msg: "{{ providers.agent_network_providers | map(attribute='upstream_url') | list }}"
'''

RETURN = r'''
agent_network_providers:
  description: The providers found, also when filtered to one. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
  contains:
      id:
        description: Id of the provider.
        type: str
        sample: dc483clqmd2poukpvsug
      name:
        description: Display name.
        type: str
        sample: OpenAI
      provider_id:
        description: The catalog id of the upstream provider.
        type: str
        sample: openai_api
      upstream_url:
        description: The upstream URL.
        type: str
        sample: https://api.openai.com
      models:
        description: The models exposed, with their prices per 1000 tokens (the cache prices only where set).
        type: list
        elements: dict
        sample: [{id: gpt-5.4-mini, input_per_1k: 0.00075, output_per_1k: 0.0045}]
      extra_values:
        description: Values of the catalog's extra headers by header name (empty when none).
        type: dict
        sample: {}
      identity_header_user_id:
        description: Header stamped with the caller's identity (empty when off).
        type: str
        sample: ''
      identity_header_groups:
        description: Header stamped with the caller's groups (empty when off).
        type: str
        sample: ''
      enabled:
        description: Whether the provider is enabled.
        type: bool
        sample: true
      skip_tls_verification:
        description: Whether the upstream's certificate is not verified.
        type: bool
        sample: false
      metadata_disabled:
        description: Whether identity metadata is not sent upstream.
        type: bool
        sample: false
      created_at:
        description: When the provider was created.
        type: str
        sample: '2026-04-26T10:30:00Z'
      updated_at:
        description: When the provider last changed.
        type: str
        sample: '2026-04-26T10:30:00Z'
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network_provider import AgentNetworkProviderModule


class AgentNetworkProviderInfoModule(InfoModule):
    resource = AgentNetworkProviderModule


if __name__ == '__main__':
    AgentNetworkProviderInfoModule.main()
