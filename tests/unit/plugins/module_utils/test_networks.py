# -*- coding: utf-8 -*-
"""Unit tests of the network, network_resource and network_router kinds and their info modules (no HTTP)."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._models import OptionsError
from ansible_collections.nms.overlay.plugins.module_utils._resource import MAX_SETTLE
from ansible_collections.nms.overlay.plugins.module_utils._resources.network import NetworkModule, network_result
from ansible_collections.nms.overlay.plugins.module_utils._resources.network_resource import (
    NetworkResourceModule, resource_address, resource_result,
)
from ansible_collections.nms.overlay.plugins.module_utils._resources.network_router import NetworkRouterModule, router_result
from ansible_collections.nms.overlay.plugins.modules.network_info import NetworkInfoModule
from ansible_collections.nms.overlay.plugins.modules.network_resource_info import NetworkResourceInfoModule
from ansible_collections.nms.overlay.plugins.modules.network_router_info import NetworkRouterInfoModule
from tests.support.fakes import FakeClient, engine

VERSION = {'management_current_version': '0.77.1'}
NETWORK = {'id': 'n1', 'name': 'office', 'description': 'LAN', 'routers': ['r1'], 'resources': ['s1'],
           'routing_peers_count': 1, 'policies': []}
GROUPS = [{'id': 'g1', 'name': 'servers', 'peers_count': 0}, {'id': 'g2', 'name': 'admins', 'peers_count': 0}]
PEERS = [{'id': 'p1', 'name': 'gw-1'}, {'id': 'p2', 'name': 'gw-2'}]
RESOURCE = {'id': 's1', 'name': 'files', 'description': '', 'type': 'host', 'address': '10.0.0.1/32',
            'groups': [{'id': 'g1', 'name': 'servers', 'peers_count': 0}], 'enabled': True}
ROUTER = {'id': 'r1', 'peer': 'p1', 'peer_groups': None, 'metric': 9999, 'masquerade': True, 'enabled': True}


def current(**routes):
    """A v0.77 server holding the office network, two groups, two peers, and ``routes``."""
    answers = {'/instance/version': VERSION, '/networks': [NETWORK], '/groups': GROUPS, '/peers': PEERS,
               '/networks/n1/resources': [RESOURCE], '/networks/n1/routers': [ROUTER]}
    answers.update({key.replace('__', '/'): value for key, value in routes.items()})
    return FakeClient(answers)


# -- a v0.27 server --------------------------------------------------------------------------------
@pytest.mark.parametrize('cls, params', [
    (NetworkModule, dict(name='office')),
    (NetworkResourceModule, dict(network='office', name='files', address='10.0.0.1')),
    (NetworkRouterModule, dict(network='office', peer='gw-1')),
    (NetworkInfoModule, {}),
    (NetworkResourceInfoModule, dict(network='office')),
    (NetworkRouterInfoModule, dict(network='office')),
])
def test_a_v027_server_refuses_every_network_module_after_one_request(cls, params):
    client = FakeClient({'/networks': [NETWORK]})  # an unrouted GET is a 404, as v0.27 answers /instance/version
    with pytest.raises(TaskError) as failure:
        engine(cls, client, **params).run()
    assert 'does not have Networks, which came with NetBird v0.35.0' in str(failure.value)
    assert client.calls == [('GET', '/instance/version', None)]


# -- normalisation and options -------------------------------------------------------------------------
def test_a_resource_address_is_compared_as_the_server_shows_it():
    assert resource_address('10.0.0.1') == '10.0.0.1/32'
    assert resource_address(' 10.0.0.1/32 ') == '10.0.0.1/32'
    assert resource_address('10.0.0.5/24') == '10.0.0.5/24'  # servers keep the host bits of a prefix
    assert resource_address('2001:DB8::1') == '2001:db8::1/128'
    assert resource_address('*.example.com') == '*.example.com'
    assert resource_address(None) is None


def test_results_never_hold_null_lists():
    assert network_result(dict(NETWORK, resources=None, policies=None))['resources'] == []
    assert resource_result(dict(RESOURCE, groups=None))['groups'] == []
    assert router_result(ROUTER)['peer_groups'] == [] and router_result(dict(ROUTER, peer=None))['peer'] == ''


@pytest.mark.parametrize('address', ['10.0.0.0/33', 'not a domain', 'http://example.com', '-bad-.example.com'])
def test_a_bad_resource_address_fails_naming_the_option_before_any_request(address):
    client = current()
    with pytest.raises(OptionsError) as failure:
        engine(NetworkResourceModule, client, network='office', name='files', address=address).run()
    assert str(failure.value).startswith("option address: must be an IP address (10.0.0.1), a subnet (10.0.0.0/24) or a domain")
    assert client.calls == []


def test_a_router_metric_out_of_bounds_fails_naming_the_option_before_any_request():
    client = current()
    with pytest.raises(OptionsError) as failure:
        engine(NetworkRouterModule, client, network='office', peer='gw-1', metric=0).run()
    assert str(failure.value) == 'option metric: must be at least 1'
    assert client.calls == []


def test_an_unknown_network_fails_naming_the_option():
    client = current()
    with pytest.raises(TaskError) as failure:
        engine(NetworkResourceModule, client, network='lab', name='files', address='10.0.0.1').run()
    assert str(failure.value) == "network: no network with the id or name 'lab'"
    assert client.writes() == []


# -- network ---------------------------------------------------------------------------------------
def test_a_network_update_keeps_what_the_task_does_not_manage_and_sends_no_answer_only_field():
    client = current(__networks=[dict(NETWORK, future='kept')])
    result = engine(NetworkModule, client, name='office', description='Head office').run()
    assert result['changed'] is True and result['diff'] == {'before': {'description': 'LAN'}, 'after': {'description': 'Head office'}}
    assert client.writes() == [('PUT', '/networks/n1', {'name': 'office', 'description': 'Head office', 'future': 'kept'})]


def test_a_new_network_has_an_empty_description():
    client = current(__networks=[])
    result = engine(NetworkModule, client, name='lab').run()
    assert client.writes() == [('POST', '/networks', {'name': 'lab', 'description': ''})]
    assert result['network']['routers'] == [] and result['network']['resources'] == []


# -- network resource --------------------------------------------------------------------------------
def test_a_resource_is_created_under_the_named_network_with_group_ids():
    client = current(__networks__n1__resources=[])
    result = engine(NetworkResourceModule, client, network='office', name='files', address='10.0.0.1',
                    groups=['servers', 'g2']).run()
    assert result['changed'] is True
    assert client.writes() == [('POST', '/networks/n1/resources', {
        'name': 'files', 'description': '', 'address': '10.0.0.1/32', 'groups': ['g1', 'g2'], 'enabled': True})]


def test_a_resource_as_the_server_shows_it_is_unchanged():
    client = current()
    result = engine(NetworkResourceModule, client, network='n1', name='files', address='10.0.0.1', groups=['servers'],
                    enabled=True).run()
    assert result['changed'] is False and client.writes() == []
    assert result['network_resource'] == RESOURCE


def test_a_resource_update_sends_every_field_but_the_type_and_keeps_unknown_ones():
    client = current(__networks__n1__resources=[dict(RESOURCE, future='kept')])
    result = engine(NetworkResourceModule, client, network='office', name='files', address='10.0.0.0/24').run()
    assert result['diff'] == {'before': {'address': '10.0.0.1/32'}, 'after': {'address': '10.0.0.0/24'}}
    assert client.writes() == [('PUT', '/networks/n1/resources/s1', {
        'name': 'files', 'description': '', 'address': '10.0.0.0/24', 'groups': ['g1'], 'enabled': True, 'future': 'kept'})]


def test_a_resource_diff_shows_groups_by_name():
    client = current()
    result = engine(NetworkResourceModule, client, network='office', name='files', groups=['admins']).run()
    assert result['diff'] == {'before': {'groups': ['servers']}, 'after': {'groups': ['admins']}}


def test_a_resource_id_of_another_network_is_not_found_in_this_one():
    client = current()
    result = engine(NetworkResourceModule, client, network='office', id='elsewhere', state='absent').run()
    assert result == {'changed': False, 'network_resource': {}} and client.writes() == []
    assert ('GET', '/networks/n1/resources/elsewhere', None) not in client.calls  # a bare 500 on a v0.77 server


def test_a_resource_of_a_network_that_is_gone_is_absent_already():
    client = current(__networks=[])
    result = engine(NetworkResourceModule, client, network='office', name='files', state='absent').run()
    assert result['changed'] is False and client.writes() == []


def test_a_resource_is_deleted_and_check_mode_only_says_so():
    client = current()
    planned = engine(NetworkResourceModule, client, check_mode=True, network='office', name='files', state='absent').run()
    assert planned['changed'] is True and client.writes() == []
    deleted = engine(NetworkResourceModule, client, network='office', name='files', state='absent').run()
    assert deleted['changed'] is True and client.writes() == [('DELETE', '/networks/n1/resources/s1', None)]


# -- network router ----------------------------------------------------------------------------------
def test_a_router_is_found_by_its_peer_name_and_updated_with_one_of_peer_and_peer_groups():
    client = current()
    result = engine(NetworkRouterModule, client, network='office', peer='gw-1', metric=10).run()
    assert result['diff'] == {'before': {'metric': 9999}, 'after': {'metric': 10}}
    assert client.writes() == [('PUT', '/networks/n1/routers/r1', {'peer': 'p1', 'peer_groups': [], 'metric': 10,
                                                                   'masquerade': True, 'enabled': True})]


def test_a_router_of_other_peer_groups_is_another_router():
    client = current(__networks__n1__routers=[ROUTER, dict(ROUTER, id='r2', peer='', peer_groups=['g1', 'g2'])])
    same = engine(NetworkRouterModule, client, network='office', peer_groups=['admins', 'servers']).run()
    assert same['changed'] is False and same['network_router']['id'] == 'r2'
    other = engine(NetworkRouterModule, client, network='office', peer_groups=['servers']).run()
    assert other['changed'] is True
    assert client.writes() == [('POST', '/networks/n1/routers', {'peer': '', 'peer_groups': ['g1'], 'metric': 9999,
                                                                 'masquerade': True, 'enabled': True})]


def test_a_router_asked_disabled_is_disabled_right_after_its_creation():
    """v0.77 creates every router enabled, whatever the request says."""
    client = current(__networks__n1__routers=[])
    client.routes[('POST', '/networks/n1/routers')] = lambda body: dict(body, id='r9', enabled=True, peer_groups=None)
    result = engine(NetworkRouterModule, client, network='office', peer='gw-2', enabled=False).run()
    assert client.writes() == [
        ('POST', '/networks/n1/routers', {'peer': 'p2', 'peer_groups': [], 'metric': 9999, 'masquerade': True,
                                          'enabled': False}),
        ('PUT', '/networks/n1/routers/r9', {'peer': 'p2', 'peer_groups': [], 'metric': 9999, 'masquerade': True,
                                            'enabled': False})]
    assert result['network_router']['enabled'] is False


def test_a_router_of_an_unknown_peer_is_absent_already():
    client = current()
    result = engine(NetworkRouterModule, client, network='office', peer='gone', state='absent').run()
    assert result['changed'] is False and client.writes() == []


def test_a_router_identity_names_the_network(clock):
    client = current(__networks__n1__routers=[ROUTER, dict(ROUTER, id='r2')])
    with pytest.raises(TaskError) as failure:
        engine(NetworkRouterModule, client, network='office', peer='gw-1').run()
    assert str(failure.value) == ("with peer 'gw-1' in the network 'office' matches 2 network routers (ids: r1, r2); "
                                  "give the id to choose one")
    assert clock.waited > MAX_SETTLE  # both stayed longer than a racing run keeps its own copy


# -- info modules ------------------------------------------------------------------------------------
def test_the_info_modules_list_under_the_named_network():
    client = current()
    assert engine(NetworkInfoModule, client, name='office').run() == {'changed': False, 'networks': [NETWORK]}
    resources = engine(NetworkResourceInfoModule, client, network='office', name='files').run()
    assert resources == {'changed': False, 'network_resources': [RESOURCE]}
    routers = engine(NetworkRouterInfoModule, client, network='office', id='r1').run()
    assert routers == {'changed': False, 'network_routers': [router_result(ROUTER)]}
    assert engine(NetworkRouterInfoModule, client, network='office', id='r2').run()['network_routers'] == []
    assert client.writes() == [] and ('GET', '/networks/n1/routers/r1', None) not in client.calls
