#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: agent_network_catalog_info
short_description: List the AI provider types the Agent Network offers (its provider catalog)
version_added: 1.0.0
description:
  - Returns the server's catalog of upstream AI providers and gateways (C(/api/agent-network/catalog/providers)),
    the values O(nms.overlay.agent_network_provider#module:provider_id) takes, each with its default host, its models
    and their list prices. The catalog is built into the server and read-only.
options:
  id:
    description: Return only the catalog entry with this id, such as V(openai_api).
    type: str
seealso:
  - module: nms.overlay.agent_network_provider
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: Read the catalog entry of OpenAI
  nms.overlay.agent_network_catalog_info:
    id: openai_api
  register: catalog

- name: Show its models
  ansible.builtin.debug:
    msg: "{{ catalog.agent_network_catalog[0].models | map(attribute='id') | list }}"
'''

RETURN = r'''
agent_network_catalog:
  description: The catalog entries, as the server answers them (also when filtered to one). Empty when nothing matches.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: The catalog id (an Agent Network provider's C(provider_id)).
      type: str
      sample: openai_api
    name:
      description: Display name.
      type: str
      sample: OpenAI API
    description:
      description: Short description.
      type: str
      sample: GPT, Responses API, and Embeddings
    kind:
      description: V(provider) (a vendor's API), V(gateway) (a routing layer such as LiteLLM) or V(custom).
      type: str
      sample: provider
    default_host:
      description: The upstream host suggested for it (empty for gateways and custom endpoints).
      type: str
      sample: api.openai.com
    auth_header_template:
      description: How the gateway sends the API key (C(${API_KEY}) is replaced).
      type: str
      sample: Bearer ${API_KEY}
    default_content_type:
      description: Content type of upstream requests.
      type: str
      sample: application/json
    brand_color:
      description: The colour of its badge in the dashboard.
      type: str
      sample: '#10A37F'
    models:
      description: The catalog's models with their list prices per 1000 tokens and context windows (empty for gateways).
      type: list
      elements: dict
      sample: [{id: gpt-5.4-mini, label: GPT-5.4 Mini, input_per_1k: 0.00075, output_per_1k: 0.0045, context_window: 272000}]
    pricing_surfaces:
      description: Which cache prices apply to its models (V(openai), V(anthropic), V(bedrock)); absent for gateways.
      type: list
      elements: str
      sample: [openai]
    extra_headers:
      description: Extra headers a provider of this type takes values for (its C(extra_values)); absent when none.
      type: list
      elements: dict
      sample: [{name: x-portkey-config}]
    identity_injection:
      description: How the gateway stamps the caller's identity upstream, where this type supports it.
      type: dict
      sample: {header_pair: {customizable: true, end_user_id_header: x-bf-dim-netbird_user_id, tags_header: x-bf-dim-netbird_groups}}
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network import AGENT_NETWORK, BASE
from ansible_collections.nms.overlay.plugins.module_utils._task import NmsModule


class AgentNetworkCatalogInfoModule(NmsModule):
    """The provider catalog: one read."""

    requires = AGENT_NETWORK
    api_operations = ('GET /api/agent-network/catalog/providers',)
    argument_spec = dict(id=dict(type='str'))

    def run(self):
        self.check_generation()
        wanted = self.params.get('id')
        entries = self.client.get_list(BASE + '/catalog/providers')
        return {'changed': False, 'agent_network_catalog': [entry for entry in entries if wanted is None or entry.get('id') == wanted]}


if __name__ == '__main__':
    AgentNetworkCatalogInfoModule.main()
