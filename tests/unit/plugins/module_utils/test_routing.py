# -*- coding: utf-8 -*-
"""Unit tests of the routing and DNS helpers, options models and resource classes (no HTTP)."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._models import OptionsError, validate
from ansible_collections.nms.overlay.plugins.module_utils._models_routing import (
    DnsSettingsOptions, NameserverGroupOptions, RouteOptions,
)
from ansible_collections.nms.overlay.plugins.module_utils._resource import MAX_SETTLE
from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_settings import (
    DnsSettingsModule,
)
from ansible_collections.nms.overlay.plugins.module_utils._resources.nameserver_group import (
    NameserverGroupModule, domain_set, ip_text, nameserver_list, nameserver_rule_problems, rule_message,
)
from ansible_collections.nms.overlay.plugins.module_utils._resources.route import RouteModule, optional_id
from tests.support import fakes
from tests.support.fakes import engine
from tests.support.modules import documentation


# -- normalisation -----------------------------------------------------------------------------------
def test_optional_id_treats_none_as_empty_like_the_route_result():
    assert optional_id('') == ''
    assert optional_id(None) == ''
    assert optional_id({'id': 'p1'}) == 'p1'
    assert optional_id(7) == '7'


def test_ip_text_is_canonical():
    assert ip_text('2001:DB8::0001') == '2001:db8::1'
    assert ip_text(' 10.0.0.1 ') == '10.0.0.1'
    assert ip_text('not-an-ip') == 'not-an-ip'
    assert ip_text(None) == ''


def test_nameserver_list_keeps_order_and_fills_defaults():
    assert nameserver_list([{'ip': '10.0.1.53', 'port': '5353', 'ns_type': 'UDP'}, {'ip': '2606:4700:4700:0::1111'}]) == [
        {'ip': '10.0.1.53', 'ns_type': 'udp', 'port': 5353},
        {'ip': '2606:4700:4700::1111', 'ns_type': 'udp', 'port': 53},
    ]
    assert nameserver_list(None) == []
    first, second = {'ip': '1.1.1.1'}, {'ip': '8.8.8.8'}
    assert nameserver_list([first, second]) != nameserver_list([second, first])


def test_domain_set_ignores_case_order_trailing_dot_and_duplicates():
    assert domain_set(['Example.COM.', 'corp.example.com', 'example.com']) == ['corp.example.com', 'example.com']
    assert domain_set(None) == []


def test_results_never_null():
    assert RouteModule.result_shape({'id': 'r1', 'peer': 'p1', 'groups': None}) == {
        'id': 'r1', 'peer': 'p1', 'peer_groups': [], 'groups': [], 'domains': [], 'access_control_groups': []}
    assert RouteModule.result_shape({}) == {}
    assert NameserverGroupModule.result_shape({'id': 'n', 'domains': None, 'groups': None, 'nameservers': None}) == {
        'id': 'n', 'domains': [], 'groups': [], 'nameservers': []}


@pytest.mark.parametrize('shape', [
    {'items': {'disabled_management_groups': ['g1']}},
    {'disabled_management_groups': ['g1']},
])
def test_dns_settings_both_shapes(shape):
    assert DnsSettingsModule.result_shape(shape) == {'disabled_management_groups': ['g1']}


def test_dns_settings_null_list():
    assert DnsSettingsModule.result_shape({'disabled_management_groups': None}) == {'disabled_management_groups': []}


# -- the three nameserver group rules ----------------------------------------------------------------
def test_rule_primary_only_without_domains():
    problems = nameserver_rule_problems(True, ['example.com'], None)
    assert [p[0] for p in problems] == ['primary']
    assert 'may be true only when domains is empty' in problems[0][1] and 'example.com' in problems[0][1]


def test_rule_no_domains_only_when_primary():
    problems = nameserver_rule_problems(False, [], None)
    assert problems == [('domains', 'may be empty only when primary is true, but primary is false')]


def test_rule_search_domains_only_with_domains():
    assert nameserver_rule_problems(True, [], True) == [
        ('search_domains_enabled', 'may be true only when domains is not empty, but domains is empty')]
    # primary true implies no domains, even when the task does not give them
    assert [p[0] for p in nameserver_rule_problems(True, None, True)] == ['search_domains_enabled']


@pytest.mark.parametrize('primary, domains, search', [
    (True, [], False),
    (False, ['example.com'], True),
    (None, None, None),
    (None, ['example.com'], True),
    (None, [], None),       # primary unknown: checked again on the merged state
    (False, None, None),    # domains unknown: idem
])
def test_rules_accept_valid_or_unknown(primary, domains, search):
    assert nameserver_rule_problems(primary, domains, search) == []


def test_rule_message_names_each_option():
    text = rule_message([('primary', 'x'), ('domains', 'y')], 'merged')
    assert text == 'option primary: x (merged); option domains: y (merged)'


# -- options models ----------------------------------------------------------------------------------
def _error(model, data):
    with pytest.raises(OptionsError) as info:
        validate(model, data)
    return str(info.value)


@pytest.mark.parametrize('data, expected', [
    ({'network_id': 'x' * 41}, 'option network_id: must be at most 40 characters long'),
    ({'network_id': ''}, 'option network_id: must not be empty'),
    ({'metric': 0}, 'option metric: must be at least 1'),
    ({'metric': 10000}, 'option metric: must be at most 9999'),
    ({'network': '10.0.0.1'}, 'option network: must be a CIDR range with a prefix length'),
    ({'network': '10.0.0.300/24'}, 'option network: must be a CIDR range such as'),
    ({'peer': 'r1', 'peer_groups': ['g']}, 'option peer_groups: cannot be set together with peer'),
    ({'groups': []}, 'option groups: must list at least 1 item'),
    ({'peer_groups': [], 'metric': '7'}, 'option peer_groups: must list at least 1 item; option metric: must be a whole number'),
    ({'network': '10.0.0.0/24', 'domains': ['example.com']}, 'option domains: cannot be set together with network'),
    ({'domains': []}, 'option domains: must list at least 1 item'),
    ({'domains': ['d%d.example.com' % n for n in range(33)]}, 'option domains: must list at most 32 items'),
    ({'domains': ['example.com.']}, "option domains: 'example.com.' is not a domain name such as example.com"),
    ({'domains': ['exa mple.com']}, "option domains: 'exa mple.com' is not a domain name"),
    ({'domains': ['*.-bad.com']}, "option domains: '*.-bad.com' is not a domain name"),
    ({'access_control_groups': ['']}, 'option access_control_groups[0]: must not be empty'),
])
def test_route_options_rules(data, expected):
    assert _error(RouteOptions, data).startswith(expected)


def test_route_options_accept_host_bits_and_ipv6():
    validate(RouteOptions, {'network': '10.0.0.5/24', 'metric': 1, 'network_id': 'x' * 40})
    validate(RouteOptions, {'network': '2001:db8::/64', 'metric': 9999})


def test_route_options_accept_the_domains_a_v077_server_takes():
    validate(RouteOptions, {'domains': ['example.com', '*.Example.COM', 'intranet', '_srv.example.com', 'bücher.de'],
                            'keep_route': True, 'access_control_groups': [], 'skip_auto_apply': False})
    validate(RouteOptions, {'domains': ['d%d.example.com' % n for n in range(32)]})


@pytest.mark.parametrize('data, expected', [
    ({'name': 'n' * 41}, 'option name: must be at most 40 characters long'),
    ({'nameservers': []}, 'option nameservers: must list at least 1 item'),
    ({'nameservers': [{'ip': '1.1.1.%d' % i} for i in range(4)]}, 'option nameservers: must list at most 3 items'),
    ({'nameservers': [{'port': 53}]}, 'option nameservers[0].ip: is required'),
    ({'nameservers': [{'ip': '1.1.1.1', 'ns_type': 'tcp'}]}, "option nameservers[0].ns_type: must be 'udp'"),
    ({'nameservers': [{'ip': 'dns.example.com'}]}, 'option nameservers[0].ip: must be an IPv4 or IPv6 address'),
    ({'nameservers': [{'ip': '1.1.1.1', 'port': 0}]}, 'option nameservers[0].port: must be at least 1'),
    ({'domains': ['localhost']}, "option domains: 'localhost' is not a domain name"),
])
def test_nameserver_group_options_rules(data, expected):
    assert _error(NameserverGroupOptions, data).startswith(expected)


def test_nameserver_group_options_accept_trailing_dot_and_defaults():
    model = validate(NameserverGroupOptions, {'domains': ['Example.COM.'], 'nameservers': [{'ip': '::1'}]})
    assert model.nameservers[0].port == 53 and model.nameservers[0].ns_type == 'udp'


def test_dns_settings_options():
    assert _error(DnsSettingsOptions, {'disabled_management_groups': ['']}).startswith(
        'option disabled_management_groups[0]: must not be empty')


# -- resource classes with a scripted client ---------------------------------------------------------
class FakeClient(fakes.FakeClient):
    """Routes, nameserver groups and DNS settings in memory, plus fixed peers and groups."""

    def __init__(self, routes=(), nameservers=(), settings=None, current=False):
        super().__init__()
        self.current = current  # a v0.77 server (GET /instance/version answers) or a v0.27 one
        self.data = {'/routes': {r['id']: dict(r) for r in routes},
                     '/dns/nameservers': {n['id']: dict(n) for n in nameservers}}
        self.settings = settings if settings is not None else {'disabled_management_groups': []}
        self.peers = [{'id': 'p1', 'name': 'router-1'}, {'id': 'p2', 'name': 'router-2'}]
        self.groups = [{'id': 'g1', 'name': 'servers'}, {'id': 'g2', 'name': 'routers'}]

    def get(self, path, query=None):
        self.calls.append(('GET', path))
        if path == '/peers':
            return self.peers
        if path == '/groups':
            return self.groups
        if path == '/dns/settings':
            return self.settings
        if path == '/instance/version':
            if not self.current:
                raise ApiError('GET', path, 404, 'not found')
            return {'management_current_version': '0.77.1'}
        if path in self.data:
            return list(self.data[path].values())
        base, item_id = path.rsplit('/', 1)
        if item_id not in self.data[base]:
            raise ApiError('GET', path, 404, 'not found')
        return self.data[base][item_id]

    def post(self, path, body):
        self.calls.append(('POST', path, body))
        item = dict(body, id='new')
        self.data[path]['new'] = item
        return item

    def put(self, path, body):
        self.calls.append(('PUT', path, body))
        if path == '/dns/settings':
            return dict(body)
        base, item_id = path.rsplit('/', 1)
        item = dict(body, id=item_id)
        self.data[base][item_id] = item
        return item

    def delete(self, path):
        self.calls.append(('DELETE', path))
        base, item_id = path.rsplit('/', 1)
        del self.data[base][item_id]
        return {}


ROUTE_DEFAULTS = dict(id=None, state='present', network_id=None, description=None, network=None, peer=None,
                      peer_groups=None, groups=None, metric=None, masquerade=None, enabled=None, domains=None,
                      keep_route=None, access_control_groups=None, skip_auto_apply=None)
TODAYS_ROUTE_FIELDS = ('domains', 'keep_route', 'access_control_groups', 'skip_auto_apply')
NS_DEFAULTS = dict(id=None, state='present', name=None, description=None, nameservers=None, groups=None,
                   domains=None, primary=None, search_domains_enabled=None, enabled=None)


def route(rid, peer='', peer_groups=None, network_id='office-lan', network='192.168.10.0/24'):
    item = dict(id=rid, network_id=network_id, description='', network=network, network_type='IPv4', peer=peer,
                groups=['g1'], metric=9999, masquerade=True, enabled=True)
    if peer_groups:
        item['peer_groups'] = peer_groups
    return item


def run_class(cls, defaults, client, check_mode=False, **params):
    return engine(cls, client, check_mode, defaults, **params).run()


def test_ha_routes_are_matched_by_routing_peer():
    client = FakeClient(routes=[route('r1', peer='p1'), route('r2', peer='p2')])
    result = run_class(RouteModule, ROUTE_DEFAULTS, client, network_id='office-lan', peer='router-2', metric=200)
    assert result['changed'] is True
    assert client.writes()[0][:2] == ('PUT', '/routes/r2')
    body = client.writes()[0][2]
    assert body['metric'] == 200 and body['peer'] == 'p2' and 'peer_groups' not in body
    assert client.data['/routes']['r1']['metric'] == 9999


def test_route_matched_by_peer_group_set():
    client = FakeClient(routes=[route('r1', peer_groups=['g2', 'g1']), route('r2', peer='p1')])
    result = run_class(RouteModule, ROUTE_DEFAULTS, client, network_id='office-lan', peer_groups=['servers', 'g2'])
    assert result['changed'] is False and result['route']['id'] == 'r1'
    assert client.writes() == []


def test_ambiguous_route_fails_listing_ids(clock):
    client = FakeClient(routes=[route('r1', peer='p1'), route('r2', peer='p2')])
    with pytest.raises(TaskError) as info:
        run_class(RouteModule, ROUTE_DEFAULTS, client, network_id='office-lan', enabled=False)
    assert "network_id 'office-lan' matches 2 routes (ids: r1, r2)" in str(info.value)
    assert client.writes() == []
    assert clock.waited > MAX_SETTLE  # both stayed longer than a racing run keeps its own copy


def test_route_network_compared_by_value():
    client = FakeClient(routes=[route('r1', peer='p1')])
    result = run_class(RouteModule, ROUTE_DEFAULTS, client, network_id='office-lan', peer='router-1',
                       network='192.168.10.77/24')
    assert result['changed'] is False


def test_route_create_needs_a_routing_peer():
    client = FakeClient()
    with pytest.raises(TaskError) as info:
        run_class(RouteModule, ROUTE_DEFAULTS, client, network_id='n', network='10.0.0.0/8', groups=['servers'])
    assert 'option peer or option peer_groups is required to create the route' in str(info.value)
    assert client.writes() == []


def test_route_switch_to_peer_groups_by_id_in_check_mode():
    client = FakeClient(routes=[route('r1', peer='p1')])
    result = run_class(RouteModule, ROUTE_DEFAULTS, client, check_mode=True, id='r1', peer_groups=['routers'])
    assert result['changed'] is True
    # peer "" as in the route (not null); the groups by name (read to resolve them), the peer's id as no peer list was read
    assert result['diff'] == {'before': {'peer': 'p1', 'peer_groups': []}, 'after': {'peer': '', 'peer_groups': ['routers']}}
    assert result['route']['peer'] == '' and result['route']['peer_groups'] == [{'id': 'g2', 'name': 'routers'}]
    assert client.writes() == []


def test_route_absent_with_unknown_peer_is_unchanged():
    client = FakeClient(routes=[route('r1', peer='p1')])
    result = run_class(RouteModule, ROUTE_DEFAULTS, client, network_id='office-lan', peer='gone', state='absent')
    assert result == {'changed': False, 'route': {}}


def test_route_unknown_peer_fails_on_present():
    client = FakeClient()
    with pytest.raises(TaskError) as info:
        run_class(RouteModule, ROUTE_DEFAULTS, client, network_id='n', peer='gone')
    assert str(info.value) == "peer: no peer with the id or name 'gone'"


# -- fields of today's servers (v0.77) --------------------------------------------------------------------
def domain_route(rid='r1', domains=('example.com',), **extra):
    """A domain route as a v0.77 server answers it: the placeholder network, the domains, its own fields."""
    item = dict(route(rid, peer='p1', network='192.0.2.0/32'), network_type='Domain', domains=list(domains),
                keep_route=True, skip_auto_apply=False)
    item.update(extra)
    return item


def test_a_domain_route_is_created_with_domains_and_no_network():
    client = FakeClient(current=True)
    result = run_class(RouteModule, ROUTE_DEFAULTS, client, network_id='docs', domains=['Docs.Example.com', 'example.com'],
                       peer='router-1', groups=['servers'], keep_route=True, access_control_groups=['routers'])
    assert result['changed'] is True
    body = client.writes()[0][2]
    assert client.writes()[0][:2] == ('POST', '/routes')
    assert body['domains'] == ['docs.example.com', 'example.com'] and 'network' not in body
    assert body['keep_route'] is True and body['access_control_groups'] == ['g2'] and body['peer'] == 'p1'
    assert 'skip_auto_apply' not in body  # unset: never sent, the server's default applies
    assert result['diff']['after']['domains'] == ['docs.example.com', 'example.com']


def test_a_route_without_network_or_domains_is_not_created():
    client = FakeClient(current=True)
    with pytest.raises(TaskError) as info:
        run_class(RouteModule, ROUTE_DEFAULTS, client, network_id='n', peer='router-1', groups=['servers'])
    assert str(info.value).startswith("option network or option domains is required to create the route network_id 'n'")
    assert client.writes() == []


def test_a_network_route_sends_no_field_of_todays_servers_the_task_does_not_set():
    client = FakeClient(current=True)
    run_class(RouteModule, ROUTE_DEFAULTS, client, network_id='lan', network='10.0.0.0/24', peer='router-1',
              groups=['servers'])
    body = client.writes()[0][2]
    assert body['network'] == '10.0.0.0/24' and not set(TODAYS_ROUTE_FIELDS) & set(body)
    # an update of a v0.27 route (which has none of them) sends none either
    client = FakeClient(routes=[route('r1', peer='p1')])
    run_class(RouteModule, ROUTE_DEFAULTS, client, network_id='office-lan', peer='router-1', metric=10)
    body = client.writes()[0][2]
    assert body['metric'] == 10 and body['network'] == '192.168.10.0/24' and not set(TODAYS_ROUTE_FIELDS) & set(body)


def test_an_update_of_a_domain_route_keeps_its_domains_and_fields_and_sends_no_network():
    client = FakeClient(routes=[domain_route(access_control_groups=['g2'], skip_auto_apply=True)], current=True)
    run_class(RouteModule, ROUTE_DEFAULTS, client, network_id='office-lan', peer='router-1', metric=10)
    body = client.writes()[0][2]
    # v0.77 refuses a body with both network and domains (its answers carry both)
    assert 'network' not in body and body['domains'] == ['example.com']
    assert (body['keep_route'], body['access_control_groups'], body['skip_auto_apply'], body['metric']) == (True, ['g2'], True, 10)


def test_todays_route_fields_compare_normalised_and_rerun_unchanged():
    client = FakeClient(routes=[domain_route(domains=['b.example.com', 'a.example.com'], access_control_groups=['g2', 'g1'])],
                        current=True)
    result = run_class(RouteModule, ROUTE_DEFAULTS, client, network_id='office-lan', peer='router-1',
                       domains=['A.example.com', 'b.example.com', 'a.example.com'], keep_route=True, skip_auto_apply=False,
                       access_control_groups=['servers', 'routers'])
    assert result['changed'] is False and client.writes() == []


def test_a_network_route_switches_to_domains_by_id():
    client = FakeClient(routes=[dict(route('r1', peer='p1'), domains=None, keep_route=False, skip_auto_apply=False)],
                        current=True)
    result = run_class(RouteModule, ROUTE_DEFAULTS, client, id='r1', domains=['example.com'], keep_route=True)
    assert result['diff'] == {'before': {'network': '192.168.10.0/24', 'domains': [], 'keep_route': False},
                              'after': {'network': '192.0.2.0/32', 'domains': ['example.com'], 'keep_route': True}}
    body = client.writes()[0][2]
    assert 'network' not in body and body['domains'] == ['example.com'] and body['keep_route'] is True
    # ... and back to a network
    client = FakeClient(routes=[domain_route()], current=True)
    run_class(RouteModule, ROUTE_DEFAULTS, client, id='r1', network='10.1.0.0/16')
    body = client.writes()[0][2]
    assert body['network'] == '10.1.0.0/16' and 'domains' not in body and body['keep_route'] is True


@pytest.mark.parametrize('option, value', [('domains', ['example.com']), ('keep_route', False),
                                           ('access_control_groups', ['servers']), ('skip_auto_apply', True)])
def test_todays_route_fields_are_refused_by_a_v027_server_before_any_write(option, value):
    client = FakeClient(routes=[route('r1', peer='p1')])
    with pytest.raises(TaskError) as info:
        run_class(RouteModule, ROUTE_DEFAULTS, client, network_id='office-lan', peer='router-1', **{option: value})
    assert str(info.value) == ('option %s: this server (v0.27: it has no GET /api/instance/version) does not have it '
                               '(servers have it from %s on)' % (option, {
                                   'domains': 'v0.28.0', 'keep_route': 'v0.28.0', 'access_control_groups': 'v0.30.0',
                                   'skip_auto_apply': 'v0.55.0'}[option]))
    assert client.calls == [('GET', '/instance/version')]


def test_route_results_show_todays_lists_as_lists():
    assert RouteModule.result_shape({'id': 'r1', 'domains': None})['domains'] == []
    assert RouteModule.result_shape({'id': 'r1'})['access_control_groups'] == []


def nsgroup(nid='n1', name='corp-dns', primary=False, domains=('example.com',), search=False):
    return dict(id=nid, name=name, description='', nameservers=[{'ip': '10.0.0.53', 'ns_type': 'udp', 'port': 53}],
                groups=['g1'], primary=primary, domains=list(domains), search_domains_enabled=search, enabled=True)


def test_nameserver_rule_fails_before_any_request():
    client = FakeClient()
    with pytest.raises(TaskError) as info:
        run_class(NameserverGroupModule, NS_DEFAULTS, client, name='x', primary=True, domains=['example.com'])
    assert str(info.value).startswith('option primary: may be true only when domains is empty')
    assert client.calls == []


def test_nameserver_rule_on_merged_state_names_the_source():
    client = FakeClient(nameservers=[nsgroup()])
    with pytest.raises(TaskError) as info:
        run_class(NameserverGroupModule, NS_DEFAULTS, client, name='corp-dns', primary=True)
    assert 'option primary: may be true only when domains is empty' in str(info.value)
    assert 'merged with the values of the nameserver group on the server' in str(info.value)
    assert client.writes() == []


def test_nameserver_rule_on_create_defaults():
    client = FakeClient()
    with pytest.raises(TaskError) as info:
        run_class(NameserverGroupModule, NS_DEFAULTS, client, name='x', nameservers=[{'ip': '1.1.1.1'}],
                  groups=['servers'])
    assert str(info.value).startswith('option domains: may be empty only when primary is true')
    assert 'a new nameserver group takes primary false' in str(info.value)
    assert client.writes() == []


def test_nameserver_switch_to_primary_and_compare_normalised():
    client = FakeClient(nameservers=[nsgroup()])
    same = run_class(NameserverGroupModule, NS_DEFAULTS, client, name='corp-dns', domains=['EXAMPLE.com.'],
                     nameservers=[{'ip': '10.0.0.53', 'ns_type': 'udp', 'port': 53}])
    assert same['changed'] is False
    result = run_class(NameserverGroupModule, NS_DEFAULTS, client, name='corp-dns', primary=True, domains=[])
    assert result['changed'] is True
    assert client.writes()[0][2]['domains'] == [] and client.writes()[0][2]['primary'] is True


@pytest.mark.parametrize('shape', ['wrapped', 'plain'])
def test_dns_settings_update_from_both_shapes(shape):
    settings = {'disabled_management_groups': ['g1']}
    client = FakeClient(settings={'items': settings} if shape == 'wrapped' else settings)
    same = run_class(DnsSettingsModule, {}, client, disabled_management_groups=['servers'])
    assert same == {'changed': False, 'dns_settings': {'disabled_management_groups': ['g1']}}
    result = run_class(DnsSettingsModule, {}, client, disabled_management_groups=['routers', 'servers'])
    assert result['changed'] is True
    assert result['dns_settings'] == {'disabled_management_groups': ['g1', 'g2']}
    assert client.writes() == [('PUT', '/dns/settings', {'disabled_management_groups': ['g1', 'g2']})]


def test_dns_settings_check_mode_predicts_without_write():
    client = FakeClient(settings={'items': {'disabled_management_groups': None}})
    result = run_class(DnsSettingsModule, {}, client, check_mode=True, disabled_management_groups=['servers'])
    assert result['changed'] is True
    assert result['diff'] == {'before': {'disabled_management_groups': []}, 'after': {'disabled_management_groups': ['servers']}}
    assert result['dns_settings'] == {'disabled_management_groups': ['g1']}
    assert client.writes() == []


@pytest.mark.parametrize('module', ['policy_info', 'posture_check_info', 'route_info', 'nameserver_group_info'])
def test_info_modules_document_their_mutually_exclusive_options(module):
    import importlib

    code = importlib.import_module('ansible_collections.nms.overlay.plugins.modules.%s' % module)
    options = documentation(module)['options']
    cls = [value for value in vars(code).values() if isinstance(value, type) and value.__module__ == code.__name__][0]
    exclusive = cls.validation()['mutually_exclusive']
    assert exclusive
    for group in exclusive:
        for option in group:
            text = ' '.join(options[option]['description'])
            for other in group:
                if other != option:
                    assert 'Mutually exclusive with O(%s)' % other in text, (module, option)
