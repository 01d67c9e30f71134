# -*- coding: utf-8 -*-
"""Unit tests of network_state's state=rendered (plugins/module_utils/_rendered.py): check mode's plan on an empty
account held in memory, each write it would send rendered; no client is made, nothing is sent."""

from __future__ import annotations

import json

import pytest

from ansible_collections.nms.overlay.plugins.module_utils import _task
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._network import NetworkStateModule
from ansible_collections.nms.overlay.plugins.module_utils._rendered import OfflineAccount, server_release
from tests.support.fakes import FakeModule


@pytest.fixture(autouse=True)
def no_client(monkeypatch):
    """A rendered run never makes an HTTP client: making one fails the test."""
    def refused(*args, **kwargs):
        raise AssertionError('state=rendered made an HTTP client')
    monkeypatch.setattr(_task, 'Client', refused)


def render(check_mode=False, **description):
    params = dict(api_url='http://127.0.0.1:9', api_token='nbp_secret_token_value', validate_certs=True, ca_path=None,
                  timeout=5.0, retries=0, prune=False, reach=True, reach_peer_limit=250, return_created_secrets=True)
    params.update({kind: None for kind in NetworkStateModule.argument_spec if kind not in params})
    params.update(state='rendered')
    params.update(description)
    module = FakeModule(params, check_mode=check_mode)
    result = NetworkStateModule.outcome(module)
    result['warnings'] = module.warnings
    return result


def lines(result):
    return ['%s %s' % (request['method'], request['path']) for request in result['requests']]


def test_a_policy_between_new_groups_renders_placeholders_in_order_and_the_same_each_time():
    description = dict(groups=[{'name': 'dev'}, {'name': 'servers', 'peers': ['web-1']}],
                       policies=[{'name': 'ssh', 'rules': [{'name': 'ssh', 'protocol': 'tcp', 'ports': ['22'],
                                                            'sources': ['dev'], 'destinations': ['servers']}]}])
    result = render(**description)
    assert result['changed'] is False and 'failed' not in result
    assert lines(result) == ['POST /api/groups', 'POST /api/groups', 'POST /api/policies']
    assert result['requests'][1] == dict(method='POST', path='/api/groups', resource='group servers',
                                         body=dict(name='servers', peers=['(existing peer web-1)']))
    rule = result['requests'][2]['body']['rules'][0]
    assert (rule['sources'], rule['destinations'], rule['ports']) == (['(new group dev)'], ['(new group servers)'], ['22'])
    assert result['summary']['groups'] == dict(would_create=2, would_update=0, would_delete=0, unchanged=0)
    assert result['msg'].startswith('rendered 3 requests for an empty account of NetBird v0.77.1, nothing sent: groups: '
                                    'would create 2 (dev, servers)')
    # the Default policy of an empty account still allows everything: said as a run would say it
    assert any("the policy 'Default' (All to All, accept)" in warning for warning in result['warnings'])
    assert [line for line in result['progress'] if 'would send' in line] == [
        'network_state: would send POST /api/groups (group dev)', 'network_state: would send POST /api/groups (group servers)',
        'network_state: would send POST /api/policies (policy ssh)']
    again = render(**description)
    assert again['requests'] == result['requests'] and again['rendered'] == result['rendered']
    assert 'nbp_secret_token_value' not in json.dumps(result)


def test_request_shapes_follow_the_release():
    policy = dict(policies=[{'name': 'web', 'rules': [{'name': 'web', 'protocol': 'tcp', 'ports': ['80', '8000-8100'],
                                                       'sources': ['All'], 'destinations': ['All']}]}])
    rule = render(**policy)['requests'][0]['body']['rules'][0]
    assert 'ports' not in rule and rule['port_ranges'] == [{'start': 80, 'end': 80}, {'start': 8000, 'end': 8100}]
    old = render(server_version='v0.27.6', **policy)
    assert old.get('failed') and 'is a port range, and this server (v0.27' in old['msg']
    networks = dict(networks=[{'name': 'lan', 'resources': [{'name': 'printer', 'address': '10.0.0.5/32'}]}])
    assert lines(render(**networks)) == ['POST /api/networks', 'POST /api/networks/(new network lan)/resources']
    refused = render(server_version='0.27', **networks)
    assert refused.get('failed') and 'does not have Networks, which came with NetBird v0.35.0' in refused['msg']


def test_prune_and_default_policy_act_on_the_empty_accounts_default_policy():
    groups = dict(groups=[{'name': 'servers'}], policies=[])
    assert lines(render(prune=True, **groups)) == ['POST /api/groups', 'DELETE /api/policies/(existing policy Default)']
    assert lines(render(prune=True, default_policy='keep', **groups)) == ['POST /api/groups']
    disabled = render(default_policy='disable', **groups)['requests'][1]
    assert disabled['path'] == '/api/policies/(existing policy Default)' and disabled['body']['enabled'] is False
    assert disabled['resource'] == 'policy Default'
    assert disabled['body']['rules'][0]['sources'] == ['(existing group All)']


def test_write_only_values_are_rendered_as_sent_never_their_value():
    result = render(agent_network_settings={'proxy_address': 'proxy.example.com'},
                    agent_network_providers=[{'name': 'OpenAI', 'provider_id': 'openai_api', 'api_key': 'sk-very-secret',
                                              'upstream_url': 'https://api.openai.com'}])
    assert 'failed' not in result, result
    assert lines(result) == ['POST /api/agent-network/settings', 'POST /api/agent-network/providers']
    assert result['requests'][1]['body']['api_key'] == '(write-only, sent, not shown)'
    assert 'sk-very-secret' not in json.dumps(result)


def test_memberships_and_peers_are_taken_to_exist():
    result = render(group_memberships=[{'group': 'team', 'peers': ['web-1']}, {'group': 'All', 'peers': ['web-1']}])
    assert lines(result) == ['PUT /api/groups/(existing group team)']  # All holds every peer already
    request = result['requests'][0]
    assert request['members'] == dict(add=['(existing peer web-1)'], remove=[])
    assert request['body'] == dict(name='team', peers=['(existing peer web-1)'])
    assert 'members.add added' in request['note'] and 'members.add added' in result['rendered']


def test_invalid_descriptions_fail_as_a_run_does_before_anything():
    typo = render(policies=[{'name': 'ssh', 'rules': [{'name': 'ssh', 'port': ['22']}]}])
    assert typo['failed'] and 'policies[0].rules[0]: unknown option port (did you mean ports?)' in typo['msg']
    missing = render(policies=[{'name': 'ssh', 'rules': [{'name': 'ssh', 'sources': ['nope'], 'destinations': ['All']}]}])
    assert missing['failed'] and "policies[0] (ssh): rules[0].sources: no group with the id or name 'nope'" in missing['msg']
    assert render(prune=True)['msg'] == 'prune is refused for an empty network description: it would delete every resource'


def test_server_version_is_checked_and_only_taken_with_rendered():
    assert server_release('v0.27.6') == '0.27.6' and server_release('0.77') == '0.77.0'
    for bad in ('banana', '0.26.0', '1', ''):
        with pytest.raises(TaskError, match='option server_version: .* is not a NetBird release from v0.27 on'):
            server_release(bad)
    present = render(state='present', server_version='0.77.1', groups=[{'name': 'x'}])
    assert present['failed'] and present['msg'] == 'option server_version: only with state=rendered (a server tells its own release)'


def test_the_offline_account_answers_reads_only():
    account = OfflineAccount('0.77.1')
    for method in ('post', 'put', 'delete', 'patch'):
        with pytest.raises(TaskError, match='state=rendered sends no request'):
            getattr(account, method)('/groups', {})
    assert account.get_object('/instance/version') == {'management_current_version': '0.77.1'}
    assert [group['name'] for group in account.get_list('/groups')] == ['All']
    legacy = OfflineAccount('0.27.6')
    with pytest.raises(Exception, match='404'):
        legacy.get_object('/instance/version')
    assert account.url_for('/groups') is None


def test_the_second_write_of_a_create_a_server_answers_otherwise_is_rendered_after_it():
    """Servers create a router enabled and a setup key unrevoked whatever the POST asks, and a user without is_blocked:
    a run then sends a PUT, and the rendered requests show it after the POST (Kind.created_as)."""
    result = render(networks=[{'name': 'lan', 'routers': [{'peer': 'gw-1', 'enabled': False}, {'peer': 'gw-2'}]}],
                    setup_keys=[{'name': 'old', 'type': 'reusable', 'revoked': True}, {'name': 'live', 'type': 'reusable'}],
                    users=[{'name': 'ci', 'is_service_user': True, 'role': 'user', 'is_blocked': True}])
    assert 'failed' not in result, result
    assert lines(result) == [
        'POST /api/networks', 'POST /api/networks/(new network lan)/routers',
        'PUT /api/networks/(new network lan)/routers/(new network router (existing peer gw-1))',
        'POST /api/networks/(new network lan)/routers',
        'POST /api/setup-keys', 'PUT /api/setup-keys/(new setup key old)', 'POST /api/setup-keys',
        'POST /api/users', 'PUT /api/users/(new user ci)'], lines(result)
    disable, revoke, block = result['requests'][2], result['requests'][5], result['requests'][8]
    assert (disable['resource'], disable['body']['enabled']) == ('network router gw-1', False)
    assert (revoke['resource'], revoke['body']['revoked'], revoke['body']['auto_groups']) == ('setup key old', True, [])
    assert (block['resource'], block['body']['is_blocked']) == ('user ci', True)
    assert result['requests'][1]['body']['enabled'] is False  # the POST asks for it too, as a run sends it
    assert result['summary']['network_routers'] == dict(would_create=2, would_update=0, would_delete=0, unchanged=0)
    domain = render(reverse_proxy_domains=[{'domain': 'apps.example.com', 'target_cluster': 'eu.proxy.example.com',
                                            'validate': True}])
    assert lines(domain) == ['POST /api/reverse-proxies/domains',
                             'GET /api/reverse-proxies/domains/(new reverse proxy domain apps.example.com)/validate']


def test_the_tasks_own_check_mode_renders_the_same():
    description = dict(groups=[{'name': 'dev'}], dns_settings={'disabled_management_groups': ['dev']})
    assert render(check_mode=True, **description)['requests'] == render(**description)['requests']
    assert lines(render(**description)) == ['POST /api/groups', 'PUT /api/dns/settings']


def test_sign_in_secrets_inside_a_body_are_masked_and_the_target_peer_is_taken_to_exist():
    result = render(reverse_proxy_services=[{
        'name': 'grafana', 'domain': 'grafana.apps.example.com',
        'targets': [{'target_id': 'monitoring-01', 'target_type': 'peer', 'protocol': 'http', 'port': 3000}],
        'auth': {'password_auth': {'enabled': True, 'password': 'hunter2-secret'},
                 'header_auths': [{'header': 'X-Token', 'value': 'header-secret-value'}]}}])
    assert 'failed' not in result, result
    body = result['requests'][0]['body']
    assert body['targets'][0]['target_id'] == '(existing peer monitoring-01)'
    assert body['auth']['password_auth'] == {'enabled': True, 'password': '(write-only, sent, not shown)'}
    assert body['auth']['header_auths'][0]['value'] == '(write-only, sent, not shown)'
    text = json.dumps(result)
    assert 'hunter2-secret' not in text and 'header-secret-value' not in text


def test_a_no_log_task_shows_no_request_line():
    params = dict(api_url=None, api_token=None, validate_certs=True, ca_path=None, timeout=5.0, retries=0, prune=False,
                  reach=True, reach_peer_limit=250, return_created_secrets=True)
    params.update({kind: None for kind in NetworkStateModule.argument_spec if kind not in params})
    params.update(state='rendered', groups=[{'name': 'secret-team-name'}])
    module = FakeModule(params)
    module.no_log = True
    result = NetworkStateModule.outcome(module)
    assert len(result['requests']) == 1  # the result is Ansible's to hide
    assert not any('secret-team-name' in line for line in result['progress'])
