# -*- coding: utf-8 -*-
"""network_state's sections of the reverse proxy and the Agent Network with an in-memory v0.77 server: what prune
leaves alone (a proxy cluster's free domain), a singleton deleted with the deletions, an empty singleton describing
nothing, references a kind resolves in its own hook checked before any write, and what the export describes."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._network import NetworkStateModule
from ansible_collections.nms.overlay.plugins.module_utils._network_plan import protected
from tests.support.fakes import engine
from tests.unit.plugins.module_utils.test_network import CurrentServer, Server, options, reconcile

CLUSTER = 'proxy.example.com'
SETTINGS = '/agent-network/settings'
UNSET_LIMITS = {'token_limit': {'enabled': False, 'window_seconds': 0, 'group_cap': 0, 'user_cap': 0},
                'budget_limit': {'enabled': False, 'window_seconds': 0, 'group_cap_usd': 0, 'user_cap_usd': 0}}


class ProxyServer(CurrentServer):
    """A v0.77 server with a connected proxy cluster (its free domain listed) and the Agent Network."""

    def __init__(self):
        super().__init__()
        self.items.update({
            '/reverse-proxies/domains': [{'id': 'd-free', 'domain': CLUSTER, 'type': 'free', 'validated': True}],
            '/reverse-proxies/services': [], '/identity-providers': [],
            '/agent-network/providers': [], '/agent-network/guardrails': [], '/agent-network/policies': [],
            '/agent-network/budget-rules': []})
        self.settings = {'endpoint': '', 'proxy_address': '', 'enable_log_collection': True, 'enable_prompt_collection': False,
                         'redact_pii': False, 'access_log_retention_days': 30, 'dedicated': False}

    def get(self, path, query=None):
        if path == SETTINGS:
            self.calls.append(('GET', path))
            return dict(self.settings)
        return super().get(path, query)

    def delete(self, path):
        if path == SETTINGS:
            self.calls.append(('DELETE', path))
            self.settings = dict(self.settings, endpoint='', proxy_address='')
            return {}
        return super().delete(path)


def gathered(server):
    module = engine(NetworkStateModule, server, False, options(state='gathered'))
    return module.run()['gathered'], module.module.warnings


def test_prune_leaves_the_free_domain_of_a_cluster_alone():
    assert protected('reverse_proxy_domains', {'domain': CLUSTER, 'type': 'free'})
    assert not protected('reverse_proxy_domains', {'domain': 'apps.example.com', 'type': 'custom'})
    assert not protected('reverse_proxy_domains', {'domain': 'apps.example.com'})  # the type not answered: custom
    server = ProxyServer()
    server.items['/reverse-proxies/domains'].append({'id': 'd-old', 'domain': 'old.example.com', 'type': 'custom', 'target_cluster': CLUSTER})
    result = reconcile(server, groups=[{'name': 'a'}], reverse_proxy_domains=[], prune=True)
    assert [(c['kind'], c['name'], c['action'], c['pruned']) for c in result['changes']] == [
        ('groups', 'a', 'created', False), ('reverse_proxy_domains', 'old.example.com', 'deleted', True)]
    assert [item['id'] for item in server.items['/reverse-proxies/domains']] == ['d-free']


def test_settings_described_absent_are_deleted_with_the_deletions_after_the_providers():
    server = ProxyServer()
    server.settings.update(endpoint='a1.eu.proxy.example.com', proxy_address='eu.proxy.example.com')
    server.items['/agent-network/providers'].append({'id': 'pr-1', 'name': 'OpenAI', 'provider_id': 'openai_api',
                                                     'upstream_url': 'https://api.openai.com', 'enabled': True})
    result = reconcile(server, agent_network_settings={'state': 'absent'}, agent_network_providers=[{'name': 'OpenAI', 'state': 'absent'}])
    assert server.writes() == [('DELETE', '/agent-network/providers/pr-1'), ('DELETE', SETTINGS)]
    assert [(c['kind'], c['action']) for c in result['changes']] == [('agent_network_providers', 'deleted'), ('agent_network_settings', 'deleted')]
    server.calls.clear()
    assert reconcile(server, agent_network_settings={'state': 'absent'})['changed'] is False
    assert server.writes() == []


def test_an_empty_singleton_describes_nothing_even_on_a_server_without_its_kind():
    server = Server()  # v0.27: no Agent Network
    result = reconcile(server, groups=[{'name': 'a'}], agent_network_settings={}, agent_network_providers=[])
    assert result['changed'] is True and server.writes() == [('POST', '/groups')]
    assert not [path for dummy, path in server.calls if path.startswith('/agent-network')]


def test_a_service_target_naming_nothing_is_refused_before_any_write():
    server = ProxyServer()
    service = {'name': 'grafana', 'domain': 'grafana.%s' % CLUSTER,
               'targets': [{'target_id': 'no-such-peer', 'target_type': 'peer', 'protocol': 'http', 'port': 3000}]}
    module = engine(NetworkStateModule, server, False, options(groups=[{'name': 'a'}], reverse_proxy_services=[service]))
    with pytest.raises(TaskError) as failure:
        module.run()
    message = str(failure.value)
    assert message.startswith("nothing was changed: reverse_proxy_services[0] (grafana): "), message
    assert "targets[0].target_id: no peer with the id or name 'no-such-peer'" in message, message
    assert server.writes() == []


def test_a_service_target_the_description_creates_is_found_before_the_first_write():
    server = ProxyServer()
    network = {'name': 'office', 'resources': [{'name': 'wiki', 'address': 'wiki.office.lan', 'groups': ['a']}]}
    service = {'name': 'wiki', 'domain': 'wiki.%s' % CLUSTER,
               'targets': [{'target_id': 'wiki', 'target_type': 'domain', 'protocol': 'https', 'port': 443}]}
    result = reconcile(server, check_mode=True, groups=[{'name': 'a'}], networks=[network], reverse_proxy_services=[service])
    assert ('reverse_proxy_services', 'wiki', 'created') in [(c['kind'], c['name'], c['action']) for c in result['changes']]
    assert server.writes() == []


def test_an_export_of_the_agent_network_and_the_reverse_proxy():
    server = ProxyServer()
    # not bootstrapped yet: no settings to describe (applying defaults could not bootstrap them)
    exported, warnings = gathered(server)
    assert 'agent_network_settings' not in exported and exported['reverse_proxy_domains'] == [] and warnings == []
    group = server.post('/groups', {'name': 'engineering'})
    server.settings.update(endpoint='label.eu.proxy.example.com', proxy_address='eu.proxy.example.com')
    server.items['/reverse-proxies/domains'].append({'id': 'd-1', 'domain': 'apps.example.com', 'type': 'custom', 'target_cluster': CLUSTER,
                                                     'validated': False})
    server.items['/agent-network/providers'].append({
        'id': 'pr-1', 'name': 'OpenAI', 'provider_id': 'openai_api', 'upstream_url': 'https://api.openai.com', 'enabled': True,
        'models': [{'id': 'gpt-5.4-mini', 'input_per_1k': 0.00075, 'output_per_1k': 0.0045}], 'extra_values': {},
        'identity_header_user_id': '', 'identity_header_groups': '', 'skip_tls_verification': False, 'metadata_disabled': False})
    server.items['/agent-network/guardrails'].append({'id': 'gr-1', 'name': 'Production', 'description': '', 'checks': {
        'model_allowlist': {'enabled': True, 'models': ['b', 'a']}, 'prompt_capture': {'enabled': False, 'redact_pii': False}}})
    server.items['/agent-network/policies'].append({
        'id': 'po-1', 'name': 'engineering to OpenAI', 'description': '', 'enabled': True, 'source_groups': [group['id']],
        'destination_provider_ids': ['pr-1'], 'guardrail_ids': ['gr-1'], 'limits': UNSET_LIMITS})
    server.calls.clear()
    exported, warnings = gathered(server)
    assert server.writes() == [] and warnings == []
    # the address the bootstrap took (the endpoint was allocated beneath the proxy address), with the toggles
    assert exported['agent_network_settings'] == {'proxy_address': 'eu.proxy.example.com', 'enable_log_collection': True,
                                                  'enable_prompt_collection': False, 'redact_pii': False, 'access_log_retention_days': 30}
    assert exported['reverse_proxy_domains'] == [{'domain': 'apps.example.com', 'target_cluster': CLUSTER}]  # not the free one
    # no API key (never answered); every other field, what servers give an option left unset too (pinned)
    assert exported['agent_network_providers'] == [{
        'name': 'OpenAI', 'provider_id': 'openai_api', 'upstream_url': 'https://api.openai.com',
        'models': [{'id': 'gpt-5.4-mini', 'input_per_1k': 0.00075, 'output_per_1k': 0.0045}], 'extra_values': {},
        'identity_header_user_id': '', 'identity_header_groups': '', 'enabled': True, 'skip_tls_verification': False,
        'metadata_disabled': False}]
    # checks and limits never set too, as servers answer them
    assert exported['agent_network_guardrails'] == [{'name': 'Production', 'description': '', 'checks': {
        'model_allowlist': {'enabled': True, 'models': ['a', 'b']}, 'prompt_capture': {'enabled': False, 'redact_pii': False}}}]
    assert exported['agent_network_policies'] == [{'name': 'engineering to OpenAI', 'description': '', 'enabled': True,
                                                   'source_groups': ['engineering'], 'destination_provider_ids': ['OpenAI'],
                                                   'guardrail_ids': ['Production'], 'limits': UNSET_LIMITS}]

    # a dedicated endpoint is described as the endpoint (the proxy address is the endpoint then)
    server.settings.update(endpoint='ai.example.com', proxy_address='ai.example.com', dedicated=True)
    exported, dummy = gathered(server)
    assert exported['agent_network_settings']['endpoint'] == 'ai.example.com' and 'proxy_address' not in exported['agent_network_settings']


def test_the_secrets_a_description_holds_are_known_for_masking():
    """Ansible masks the values of no_log options only: a section is a list of dictionaries without suboptions."""
    service = {'name': 'grafana', 'domain': 'grafana.%s' % CLUSTER, 'targets': [],
               'auth': {'password_auth': {'enabled': True, 'password': 'pass-1'}, 'pin_auth': {'enabled': True, 'pin': '4711'},
                        'header_auths': [{'header': 'X-Key', 'value': 'header-1'}]}}
    params = options(agent_network_providers=[{'name': 'OpenAI', 'api_key': 'key-1'}, {'name': 'other'}], reverse_proxy_services=[service],
                     identity_providers=[{'name': 'corp', 'client_secret': 'secret-1'}], groups=[{'name': 'not-a-secret'}],
                     networks=[{'name': 'office', 'resources': [{'name': 'lan'}]}])
    assert NetworkStateModule.secret_values(params) == {'key-1', 'pass-1', '4711', 'header-1', 'secret-1'}
    assert NetworkStateModule.secret_values(options()) == set()
