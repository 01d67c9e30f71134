#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: agent_network_provider
short_description: Manage the AI providers of the Agent Network
version_added: 1.0.0
description:
  - Creates, updates and deletes an Agent Network provider (C(/api/agent-network/providers)), an upstream AI
    provider or gateway of the server's catalog (see nms.overlay.agent_network_catalog_info), its URL, the models it
    exposes with their prices, and the API key the gateway sends it.
  - A provider is found by O(id) when given, otherwise by O(name). A name several providers share fails and lists
    their ids.
  - Options left unset keep the server's value (the update sends every field, as servers reset those a request
    leaves out).
  - The API key is write-only, see O(api_key) and O(update_secret).
options:
  id:
    description: Id of the provider. Needed to rename one; otherwise O(name) finds it.
    type: str
  name:
    description: Display name of the provider. Servers do not keep these names unique. Required to create one.
    type: str
  provider_id:
    description:
      - The catalog id of the upstream provider, such as V(openai_api), V(anthropic_api), V(bedrock_api),
        V(litellm_proxy) or V(custom). Required to create one. Servers refuse an id their catalog does not have.
    type: str
  upstream_url:
    description: The full upstream URL (with C(http://) or C(https://) and a host) the gateway forwards to. Required to create one.
    type: str
  api_key:
    description:
      - The upstream provider's API key. Required to create one; sent then.
      - "Write-only: servers seal it and never answer it, so it cannot be compared. On an existing provider it is sent
        only with O(update_secret=always); otherwise the server keeps the key it holds."
      - "Never shown in the result, a diff or a warning (the diff says C((sent: not shown)) where it is sent)."
    type: str
  update_secret:
    description:
      - V(on_create) sends O(api_key) only when the provider is created, so that a re-run changes nothing.
      - V(always) sends it on every run that finds the provider, which then reports C(changed) every time (the
        server cannot tell whether it differs). Use it once to rotate the key, or in a play that rotates it.
    type: str
    choices: [always, on_create]
    default: on_create
  models:
    description:
      - The models the provider exposes, in order, each with its prices per 1000 tokens in US dollars. An empty list
        allows every catalog model at catalog prices.
      - Each item has C(id) (the model id, required), C(input_per_1k) and C(output_per_1k) (required), and optionally
        C(cached_input_per_1k), C(cache_read_per_1k), C(cache_creation_per_1k) (left out, NetBird's default rate).
    type: list
    elements: dict
  extra_values:
    description:
      - Values of the catalog's extra headers by header name (a gateway's routing header, such as
        C(x-portkey-config)). The map replaces the one the server holds; an empty value drops that header.
    type: dict
  identity_header_user_id:
    description: Header the gateway stamps with the caller's identity (gateways whose catalog entry lets it be chosen); empty turns it off.
    type: str
  identity_header_groups:
    description: Header the gateway stamps with the caller's groups (gateways whose catalog entry lets it be chosen); empty turns it off.
    type: str
  enabled:
    description:
      - Whether the provider is enabled. A provider this module creates is enabled unless V(false) is given (real
        v0.77.1 servers disable a provider whose create does not say).
    type: bool
  skip_tls_verification:
    description: Whether the gateway skips verifying the upstream's TLS certificate (self-hosted gateways).
    type: bool
  metadata_disabled:
    description: Whether the gateway stops sending the caller's user and group to the upstream as request metadata.
    type: bool
  state:
    description:
      - V(present) creates or updates the provider; V(absent) deletes it. Servers refuse to delete a provider an Agent
        Network policy names (422 C(provider is in use by ... policies)); the task fails with that message.
    type: str
    choices: [present, absent]
    default: present
seealso:
  - module: nms.overlay.agent_network_provider_info
  - module: nms.overlay.agent_network_catalog_info
  - module: nms.overlay.agent_network_policy
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource, nms.overlay.module.converge, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: Let agents call OpenAI through the gateway (connection from NMS_API_URL and NMS_API_TOKEN)
  nms.overlay.agent_network_provider:
    name: OpenAI
    provider_id: openai_api
    upstream_url: https://api.openai.com
    api_key: "{{ vault_openai_api_key }}"
    models:
      - id: gpt-5.4-mini
        input_per_1k: 0.00075
        output_per_1k: 0.0045

- name: Rotate the API key (reports changed on every run with update_secret=always)
  nms.overlay.agent_network_provider:
    name: OpenAI
    api_key: "{{ vault_openai_new_api_key }}"
    update_secret: always

- name: Remove the provider
  nms.overlay.agent_network_provider:
    name: OpenAI
    state: absent
'''

RETURN = r'''
agent_network_provider:
  description:
    - The provider after the change; in check mode, as it would be. Never holds the API key.
    - Empty after O(state=absent) when there was nothing to delete; otherwise the deleted provider.
  returned: always
  type: dict
  contains:
    id:
      description:
        - Id of the provider.
        - In check mode, a provider that would be created has the placeholder C((new Agent Network provider <name>)).
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

from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network_provider import AgentNetworkProviderModule


if __name__ == '__main__':
    AgentNetworkProviderModule.main()
