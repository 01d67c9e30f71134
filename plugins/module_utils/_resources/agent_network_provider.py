# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Agent Network providers (agent_network_provider and its info module): an upstream AI provider (a catalog entry
such as openai_api, a URL, models with prices) whose API key servers keep sealed and never answer.

Real v0.77.1 servers (tests/integration/test_real_agent_network.py): names need not be unique; a create without
``enabled`` gives a disabled provider (the spec says enabled); PUT replaces every field (one it leaves out is reset:
models emptied, the provider disabled) but the API key, which a PUT without one (or with an empty one) keeps;
``provider_id`` must be a catalog id (422); a provider a policy names cannot be deleted (422 "provider is in use").
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network import AGENT_NETWORK, BASE, with_timestamps

SECRET = 'api_key'


def public_provider(item):
    """A provider as returned to the user (the engine leaves the API key out: a write-only field)."""
    if not isinstance(item, dict):
        return item
    shown = dict(item)
    shown.setdefault('extra_values', {})  # servers leave the member out when it is empty
    return shown


def model_list(models):
    """Models as servers keep them: in order, the prices left unset left out, numbers as numbers."""
    return [{key: value for key, value in item.items() if value is not None} for item in models or [] if isinstance(item, dict)]


def text_map(values):
    """Extra header values as servers keep them: an empty value is no value."""
    return {str(key): str(value) for key, value in (values or {}).items() if value not in (None, '')}


class AgentNetworkProviderModule(ResourceModule):
    """An Agent Network provider: a catalog provider id, a name, the upstream URL, models, the write-only API key."""

    path = BASE + '/providers'
    what = 'Agent Network provider'
    kind = 'agent_network_providers'  # policies name their destination providers
    requires = AGENT_NETWORK
    api_operations = ('GET /api/agent-network/providers', 'POST /api/agent-network/providers',
                      'GET /api/agent-network/providers/{providerId}', 'PUT /api/agent-network/providers/{providerId}',
                      'DELETE /api/agent-network/providers/{providerId}')
    answers = with_timestamps({})
    required_on_create = ('name', 'provider_id', 'upstream_url', SECRET)
    model = 'proxies.AgentNetworkProviderOptions'  # the upstream a full http(s) URL, models with prices (servers: 422)
    fields = dict(
        name=Field(),
        provider_id=Field(),
        upstream_url=Field(),
        # never answered: sent on create, on an update only with update_secret=always (the engine's write-only field)
        api_key=Field(dict(type='str', no_log=True), write_only=True),
        models=Field(dict(type='list', elements='dict'), norm=model_list),
        extra_values=Field(dict(type='dict'), norm=text_map),
        identity_header_user_id=Field(norm=lambda value: value or ''),
        identity_header_groups=Field(norm=lambda value: value or ''),
        # servers give a created provider enabled=false unless the create says otherwise; the API documents true
        enabled=Field('bool', initial=True),
        skip_tls_verification=Field('bool', server_default=False),
        metadata_disabled=Field('bool', server_default=False),
    )
    shape = staticmethod(public_provider)
    required_one_of = (('id', 'name'),)

    def request_body(self, state, current_obj):
        # a body without the key keeps the one the server holds (real v0.77.1)
        return {name: value for name, value in state.items() if value is not None}
