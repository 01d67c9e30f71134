# -*- coding: utf-8 -*-
"""Unit tests of the reverse-proxy kinds (no HTTP): names for ids by a target's type, write-only sign-in secrets, the
domain's validation request, the cluster's refusal of a shared one, the proxy token's value, and a v0.27 server's
refusal after the version probe."""

from __future__ import annotations

import json

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import WRITE_ONLY_SHOWN, masked_write_only, without_held_secrets
from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy import without_empty
from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy_cluster import ReverseProxyClusterModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy_domain import ReverseProxyDomainModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy_service import ReverseProxyServiceModule, normal_targets
from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy_token import ReverseProxyTokenModule, lifetime
from ansible_collections.nms.overlay.plugins.modules.reverse_proxy_cluster_info import ReverseProxyClusterInfoModule
from ansible_collections.nms.overlay.plugins.modules.reverse_proxy_domain_info import ReverseProxyDomainInfoModule
from ansible_collections.nms.overlay.plugins.modules.reverse_proxy_service_info import ReverseProxyServiceInfoModule
from ansible_collections.nms.overlay.plugins.modules.reverse_proxy_token_info import ReverseProxyTokenInfoModule
from tests.support.fakes import FakeClient, engine

VERSION = {'management_current_version': '0.77.1'}
PASSWORD = 'pw-31c9f'
PIN = '480913'
HEADER_VALUE = 'hv-7c1e2a'
SENT, UNREADABLE = WRITE_ONLY_SHOWN['after'], WRITE_ONLY_SHOWN['before']
PATHS = ReverseProxyServiceModule.secret_paths['auth']
PEERS = [{'id': 'p1', 'name': 'web'}]
RESOURCES = [{'id': 'r1', 'name': 'wiki', 'type': 'host'}]
GROUPS = [{'id': 'g1', 'name': 'admins'}]
TARGET = {'target_id': 'web', 'target_type': 'peer', 'protocol': 'http', 'port': 3000, 'enabled': True}
SERVICE = {'id': 's1', 'name': 'grafana', 'domain': 'g.apps.example.com', 'mode': 'http', 'listen_port': 0, 'enabled': True,
           'targets': [{'target_id': 'p1', 'target_type': 'peer', 'protocol': 'http', 'port': 3000, 'host': '', 'enabled': True,
                        'options': {'proxy_protocol': False}}],
           'pass_host_header': False, 'rewrite_redirects': False, 'proxy_cluster': 'proxy.example.com',
           'auth': {'password_auth': {'enabled': True, 'password': ''}}, 'meta': {'status': 'active', 'created_at': '2026-01-01T00:00:00Z'}}
CREATE = dict(name='grafana', domain='g.apps.example.com', targets=[TARGET], auth={'password_auth': {'enabled': True, 'password': PASSWORD}})


def current(**lists):
    answers = {'/instance/version': VERSION, '/peers': PEERS, '/networks/resources': RESOURCES, '/groups': GROUPS}
    answers.update(lists)
    return FakeClient(answers)


@pytest.mark.parametrize('cls, params', [
    (ReverseProxyServiceModule, CREATE), (ReverseProxyDomainModule, dict(domain='a.example.com', target_cluster='p')),
    (ReverseProxyTokenModule, dict(name='t')), (ReverseProxyClusterModule, dict(address='p')),
    (ReverseProxyServiceInfoModule, {}), (ReverseProxyDomainInfoModule, {}), (ReverseProxyTokenInfoModule, {}),
    (ReverseProxyClusterInfoModule, {}),
])
def test_a_v027_server_refuses_every_module_after_the_version_probe(cls, params):
    client = FakeClient({})
    with pytest.raises(TaskError) as failure:
        engine(cls, client, **params).run()
    tokens = cls in (ReverseProxyTokenModule, ReverseProxyTokenInfoModule)  # they came later than the rest
    assert ('does not have reverse proxy tokens, which came with NetBird v0.71.0' if tokens else
            'does not have reverse proxies, which came with NetBird v0.65.0') in str(failure.value)
    assert client.calls == [('GET', '/instance/version', None)]


def test_a_service_is_created_with_ids_for_the_names_and_its_password_never_shown(clock):
    client = current(**{'/reverse-proxies/services': []})
    targets = [TARGET, dict(TARGET, target_id='wiki', target_type='host', protocol='https', port=443)]
    result = engine(ReverseProxyServiceModule, client, **dict(CREATE, targets=targets)).run()
    body = client.writes()[0][2]
    assert [t['target_id'] for t in body['targets']] == ['p1', 'r1'] and body['auth']['password_auth']['password'] == PASSWORD
    assert body['enabled'] is True  # created enabled unless told otherwise
    assert result['diff']['after']['auth']['password_auth']['password'] == SENT
    assert PASSWORD not in json.dumps(result)


def test_an_unchanged_service_is_left_alone_though_its_password_cannot_be_compared():
    client = current(**{'/reverse-proxies/services': [SERVICE]})
    result = engine(ReverseProxyServiceModule, client, **CREATE).run()
    assert result['changed'] is False and client.writes() == []


def test_an_update_keeps_the_password_held_unless_update_secret_is_always():
    client = current(**{'/reverse-proxies/services': [SERVICE]})
    result = engine(ReverseProxyServiceModule, client, **dict(CREATE, pass_host_header=True)).run()
    (method, path, body), = client.writes()
    assert (method, path) == ('PUT', '/reverse-proxies/services/s1') and body['pass_host_header'] is True
    assert body['auth'] == {'password_auth': {'enabled': True}} and 'meta' not in body and 'proxy_cluster' not in body
    assert result['diff'] == {'before': {'pass_host_header': False}, 'after': {'pass_host_header': True}}
    client = current(**{'/reverse-proxies/services': [SERVICE]})
    result = engine(ReverseProxyServiceModule, client, update_secret='always', **CREATE).run()
    assert result['changed'] is True and client.writes()[0][2]['auth']['password_auth']['password'] == PASSWORD
    assert result['diff'] == {'before': {'auth': {'password_auth': {'enabled': True, 'password': UNREADABLE}}},
                              'after': {'auth': {'password_auth': {'enabled': True, 'password': SENT}}}}
    assert PASSWORD not in json.dumps(result)


def test_update_secrets_is_an_alias_of_the_engines_update_secret():
    spec = ReverseProxyServiceModule.full_argument_spec()
    assert spec['update_secret']['aliases'] == ['update_secrets'] and 'update_secrets' not in spec
    assert spec['update_secret']['default'] == 'on_create' and spec['update_secret']['choices'] == ['always', 'on_create']
    assert all(spec['auth']['options'][method]['options'][secret]['no_log'] is True
               for method, secret in (('password_auth', 'password'), ('pin_auth', 'pin')))
    assert spec['auth']['options']['header_auths']['options']['value']['no_log'] is True


def test_sso_groups_by_name_and_a_new_method_sends_its_secret():
    client = current(**{'/reverse-proxies/services': [dict(SERVICE, auth={})]})
    auth = {'password_auth': {'enabled': True, 'password': PASSWORD}, 'bearer_auth': {'enabled': True, 'distribution_groups': ['admins']}}
    result = engine(ReverseProxyServiceModule, client, **dict(CREATE, auth=auth)).run()
    sent = client.writes()[0][2]['auth']
    assert sent['bearer_auth']['distribution_groups'] == ['g1'] and sent['password_auth']['password'] == PASSWORD
    # a method new on the server: the diff shows the secret sent, and no unreadable one before (there was none)
    assert result['diff']['after']['auth']['password_auth'] == {'enabled': True, 'password': SENT}
    assert 'password_auth' not in result['diff']['before'].get('auth', {})
    assert PASSWORD not in json.dumps(result)


def test_turning_a_method_on_sends_its_secret_and_one_on_already_does_not():
    held = dict(SERVICE, auth={'password_auth': {'enabled': True, 'password': ''}, 'pin_auth': {'enabled': False, 'pin': ''}})
    client = current(**{'/reverse-proxies/services': [held]})
    auth = {'password_auth': {'enabled': True, 'password': PASSWORD}, 'pin_auth': {'enabled': True, 'pin': PIN}}
    result = engine(ReverseProxyServiceModule, client, **dict(CREATE, auth=auth)).run()
    sent = client.writes()[0][2]['auth']
    assert sent == {'password_auth': {'enabled': True}, 'pin_auth': {'enabled': True, 'pin': PIN}}
    assert result['diff'] == {'before': {'auth': {'password_auth': {'enabled': True}}},
                              'after': {'auth': {'password_auth': {'enabled': True}, 'pin_auth': {'enabled': True, 'pin': SENT}}}}
    assert PIN not in json.dumps(result) and PASSWORD not in json.dumps(result)


def test_a_method_turned_off_sends_no_secret_and_a_rerun_changes_nothing():
    held = dict(SERVICE, auth={'password_auth': {'enabled': False, 'password': ''}})
    client = current(**{'/reverse-proxies/services': [held]})
    auth = {'password_auth': {'enabled': False, 'password': PASSWORD}}
    result = engine(ReverseProxyServiceModule, client, **dict(CREATE, auth=auth)).run()
    assert result['changed'] is False and client.writes() == []


def test_a_header_value_is_sent_for_a_new_header_only():
    held = dict(SERVICE, auth={'header_auths': [{'enabled': True, 'header': 'X-Key', 'value': ''}]})
    client = current(**{'/reverse-proxies/services': [held]})
    headers = [{'enabled': True, 'header': 'X-New', 'value': HEADER_VALUE}, {'enabled': True, 'header': 'X-Key', 'value': 'kept-value-1'}]
    result = engine(ReverseProxyServiceModule, client, **dict(CREATE, auth={'header_auths': headers})).run()
    sent = client.writes()[0][2]['auth']['header_auths']
    assert sent == [{'enabled': True, 'header': 'X-New', 'value': HEADER_VALUE}, {'enabled': True, 'header': 'X-Key'}]
    assert result['diff']['after']['auth']['header_auths'][0]['value'] == SENT and HEADER_VALUE not in json.dumps(result)
    client = current(**{'/reverse-proxies/services': [held]})
    assert engine(ReverseProxyServiceModule, client, **dict(CREATE, auth={'header_auths': headers[1:]})).run()['changed'] is False
    assert client.writes() == []


def test_check_mode_plans_without_a_write_and_its_predicted_service_holds_no_secret(clock):
    client = current(**{'/reverse-proxies/services': []})
    result = engine(ReverseProxyServiceModule, client, check_mode=True, **CREATE).run()
    assert result['changed'] is True and client.writes() == []
    assert result['reverse_proxy_service']['auth'] == {'password_auth': {'enabled': True, 'password': ''}}
    assert PASSWORD not in json.dumps(result)


def test_a_target_name_two_peers_share_is_ambiguous():
    client = current(**{'/reverse-proxies/services': [], '/peers': PEERS + [{'id': 'p2', 'name': 'web'}]})
    with pytest.raises(TaskError) as failure:
        engine(ReverseProxyServiceModule, client, **CREATE).run()
    assert 'p1' in str(failure.value) and 'p2' in str(failure.value) and client.writes() == []


def test_targets_compare_without_what_servers_add():
    assert normal_targets(SERVICE['targets']) == [{'target_id': 'p1', 'target_type': 'peer', 'protocol': 'http', 'port': 3000, 'enabled': True}]
    assert normal_targets([dict(TARGET, enabled=False)])[0]['enabled'] is False
    assert without_empty({'a': {'b': None, 'c': ''}, 'd': [1]}) == {'d': [1]}


def test_the_result_and_diff_never_hold_a_secret():
    shown = ReverseProxyServiceModule.result_shape(
        dict(SERVICE, auth={'pin_auth': {'enabled': True, 'pin': PIN}, 'header_auths': [{'header': 'X', 'value': 'v'}]}))
    assert shown['auth'] == {'pin_auth': {'enabled': True, 'pin': ''}, 'header_auths': [{'header': 'X', 'value': ''}]}
    diff = masked_write_only({'before': {}, 'after': {'auth': {'header_auths': [{'header': 'X', 'value': 'v'}]}}}, (), {'auth': PATHS})
    assert diff['after']['auth']['header_auths'][0]['value'] == SENT
    before = {'auth': {'pin_auth': {'enabled': True, 'pin': 'answered'}}}
    assert masked_write_only({'before': before, 'after': {}}, (), {'auth': PATHS})['before']['auth']['pin_auth']['pin'] == UNREADABLE
    assert before['auth']['pin_auth']['pin'] == 'answered'  # masks a copy: the diff's values may be the request's


def test_the_send_rule_of_nested_secrets():
    wanted = {'password_auth': {'enabled': True, 'password': PASSWORD}, 'pin_auth': {'enabled': True, 'pin': PIN},
              'header_auths': [{'enabled': True, 'header': 'A', 'value': 'a-value'}, {'enabled': True, 'header': 'B', 'value': 'b-value'}]}
    held = {'password_auth': {'enabled': True, 'password': ''}, 'pin_auth': {'enabled': False, 'pin': ''},
            'header_auths': [{'enabled': False, 'header': 'A', 'value': ''}, {'enabled': True, 'header': 'B', 'value': ''}]}
    kept = without_held_secrets(wanted, held, PATHS)
    assert kept == {'password_auth': {'enabled': True}, 'pin_auth': {'enabled': True, 'pin': PIN},
                    'header_auths': [{'enabled': True, 'header': 'A', 'value': 'a-value'}, {'enabled': True, 'header': 'B'}]}
    assert wanted['password_auth']['password'] == PASSWORD  # the desired value itself is left as it was
    assert without_held_secrets(wanted, None, PATHS) == wanted  # nothing on the server: every secret is sent
    off = {'pin_auth': {'enabled': False, 'pin': PIN}}
    assert without_held_secrets(off, {}, PATHS) == {'pin_auth': {'enabled': False}}  # a method left off needs none


def test_a_domain_not_validated_gets_a_validation_request_and_a_validated_one_none():
    domain = {'id': 'd1', 'domain': 'a.example.com', 'type': 'custom', 'validated': False, 'target_cluster': 'p'}
    client = current(**{'/reverse-proxies/domains': [domain], '/reverse-proxies/domains/d1/validate': {}})
    result = engine(ReverseProxyDomainModule, client, domain='a.example.com', validate=True).run()
    assert result['changed'] is True and ('GET', '/reverse-proxies/domains/d1/validate', None) in client.calls
    client = current(**{'/reverse-proxies/domains': [dict(domain, validated=True)]})
    result = engine(ReverseProxyDomainModule, client, domain='a.example.com', validate=True).run()
    assert result['changed'] is False and len(client.calls) == 2


def test_check_mode_plans_a_domain_and_its_validation_without_a_request():
    client = current(**{'/reverse-proxies/domains': []})
    result = engine(ReverseProxyDomainModule, client, check_mode=True, domain='a.example.com', target_cluster='p', validate=True).run()
    assert result['changed'] is True and client.writes() == []
    assert all(call[1] != '/reverse-proxies/domains/(new reverse proxy domain a.example.com)/validate' for call in client.calls)


def test_a_free_domain_and_a_shared_cluster_are_refused_before_any_write():
    client = current(**{'/reverse-proxies/domains': [{'id': 'f', 'domain': 'p.example.com', 'type': 'free', 'validated': True}]})
    with pytest.raises(TaskError, match='free domain'):
        engine(ReverseProxyDomainModule, client, domain='p.example.com', state='absent').run()
    client = current(**{'/reverse-proxies/clusters': [{'id': 'c', 'address': 'eu.proxy.netbird.io', 'type': 'shared'}]})
    with pytest.raises(TaskError, match='shared one'):
        engine(ReverseProxyClusterModule, client, address='eu.proxy.netbird.io').run()
    assert client.writes() == []


def test_a_cluster_is_removed_by_its_address():
    client = current(**{'/reverse-proxies/clusters': [{'id': 'c', 'address': 'proxy.example.com', 'type': 'account'}]})
    result = engine(ReverseProxyClusterModule, client, address='proxy.example.com').run()
    assert result['changed'] is True and client.writes() == [('DELETE', '/reverse-proxies/clusters/proxy.example.com', None)]


def test_a_token_is_returned_beside_its_record_and_a_revoked_one_is_not_found(clock):
    value = 'nbx_' + 'a' * 36
    client = current(**{'/reverse-proxies/proxy-tokens': [{'id': 'old', 'name': 't', 'revoked': True, 'created_at': '2026-01-01T00:00:00Z'}]})
    created = {'id': 'k1', 'name': 't', 'revoked': False, 'plain_token': value, 'created_at': '2026-01-01T00:00:00Z'}
    client.routes[('POST', '/reverse-proxies/proxy-tokens')] = created
    result = engine(ReverseProxyTokenModule, client, name='t').run()
    assert result['plain_token'] == value and 'plain_token' not in result['reverse_proxy_token']


def test_a_token_lifetime_is_read_from_its_dates():
    assert lifetime({'created_at': '2026-01-01T00:00:00Z', 'expires_at': '2026-01-01T01:00:00Z'}) == 3600
    assert lifetime({'created_at': '2026-01-01T00:00:00Z'}) == 0
