# -*- coding: utf-8 -*-
"""Unit tests of the access control helpers, options models and resource classes (no HTTP)."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._task import shape_problem
from ansible_collections.nms.overlay.plugins.module_utils._access import (
    access_rows, check_rules, merge_checks, merge_rule, normalise_checks, policies_using, policy_result, port_set, port_text,
    failed_checks, fails_check, posture_check_result, rule_body, rule_from_server, rules_from_server, version_below,
)
from ansible_collections.nms.overlay.plugins.module_utils._resources.policy import PolicyModule, policy_body
from ansible_collections.nms.overlay.plugins.module_utils._resources.posture_check import PostureCheckModule
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._models import OptionsError, validate
from ansible_collections.nms.overlay.plugins.module_utils._resource import MAX_SETTLE
from ansible_collections.nms.overlay.plugins.module_utils._models_access import PolicyOptions, PostureCheckOptions
from ansible_collections.nms.overlay.plugins.module_utils._network_plan import described_references
from tests.support.fakes import FakeClient, FakeModule, engine


# -- rule normalisation ------------------------------------------------------------------------------
def test_port_text_and_port_set():
    assert port_text(' 080 ') == '80'
    assert port_text('08000-08100') == '8000-8100'
    assert port_text(443) == '443'
    assert port_text('x') == 'x'
    assert port_set(['8000-8100', '443', '080', '80', '22']) == ['22', '80', '443', '8000-8100']
    assert port_set(None) == []


def test_rule_from_server_ignores_the_id_and_normalises_sets():
    server = {'id': 'pol1', 'name': 'r', 'description': None, 'enabled': True, 'action': 'accept',
              'bidirectional': True, 'protocol': 'tcp', 'ports': ['443', '080'],
              'sources': [{'id': 'g2', 'name': 'b'}, {'id': 'g1', 'name': 'a'}], 'destinations': None}
    assert rule_from_server(server) == {
        'name': 'r', 'description': '', 'enabled': True, 'action': 'accept', 'bidirectional': True,
        'protocol': 'tcp', 'ports': ['80', '443'], 'sources': ['g1', 'g2'], 'destinations': []}
    # netbird omits empty ports; ids or summaries compare alike
    assert rule_from_server(dict(server, ports=None, sources=['g1', 'g2'])) == rule_from_server(
        dict(server, sources=[{'id': 'g1'}, {'id': 'g2'}], ports=[]))
    assert rules_from_server(None) == []


def test_rules_are_compared_in_order():
    one = {'name': 'a', 'enabled': True, 'action': 'accept', 'bidirectional': True, 'protocol': 'all', 'sources': ['g1'], 'destinations': ['g2']}
    two = dict(one, name='b')
    assert rules_from_server([one, two]) != rules_from_server([two, one])


SERVER_RULE = rule_from_server({'name': 'r', 'description': 'kept', 'enabled': False, 'action': 'drop', 'bidirectional': False,
                                'protocol': 'tcp', 'ports': ['22'], 'sources': ['g1'], 'destinations': ['g2']})


def user_rule(**values):
    rule = dict.fromkeys(('name', 'description', 'enabled', 'action', 'bidirectional', 'protocol', 'ports', 'sources', 'destinations'))
    rule.update(values)
    return rule


def test_merge_rule_keeps_the_server_values_of_unset_options():
    merged = merge_rule(user_rule(name='r', ports=['2222', '22']), [SERVER_RULE], 0)
    assert merged == dict(SERVER_RULE, ports=['22', '2222'])


def test_merge_rule_new_rule_gets_defaults_and_needs_groups():
    merged = merge_rule(user_rule(name='new', sources=['g2', 'g1'], destinations=['g3']), [SERVER_RULE], 0)
    assert merged == {'name': 'new', 'description': '', 'enabled': True, 'action': 'accept', 'bidirectional': True,
                      'protocol': 'all', 'ports': [], 'sources': ['g1', 'g2'], 'destinations': ['g3']}
    with pytest.raises(TaskError) as err:
        merge_rule(user_rule(name='new'), [], 2)
    assert str(err.value) == 'option rules[2] (new): sources and destinations are required for a new rule'


def test_merge_rule_protocol_all_clears_ports_and_direction():
    merged = merge_rule(user_rule(name='r', protocol='all'), [SERVER_RULE], 0)
    assert merged['ports'] == [] and merged['bidirectional'] is True
    # an explicit value is the user's choice (and then refused by check_rules)
    merged = merge_rule(user_rule(name='r', protocol='icmp', ports=['1'], bidirectional=False), [SERVER_RULE], 0)
    assert merged['ports'] == ['1'] and merged['bidirectional'] is False


def test_merge_rule_with_two_server_rules_of_one_name_uses_defaults():
    merged = merge_rule(user_rule(name='r', sources=['g9'], destinations=['g9']), [SERVER_RULE, SERVER_RULE], 0)
    assert merged['protocol'] == 'all' and merged['description'] == ''


def test_policy_body_always_sends_posture_checks_and_no_rule_id():
    body = policy_body({'name': 'p', 'description': None, 'enabled': True, 'source_posture_checks': None,
                        'rules': [dict(SERVER_RULE, id='x')]})
    assert body['source_posture_checks'] == [] and body['description'] == ''
    assert 'id' not in body['rules'][0]


# -- rule validation messages -----------------------------------------------------------------------
@pytest.mark.parametrize('rule, message', [
    (dict(protocol='all', ports=['80']),
     'option rules[0].ports: not allowed with protocol all, which covers every port; remove them or use protocol tcp or udp'),
    (dict(protocol='icmp', bidirectional=False), 'option rules[0].bidirectional: must be true with protocol icmp'),
    (dict(protocol='udp', bidirectional=False, ports=[]),
     'option rules[0].ports: a one-way (bidirectional false) udp rule needs at least one port'),
])
def test_rule_problems(rule, message):
    with pytest.raises(TaskError) as err:
        check_rules([user_rule(name='r', **rule)])
    assert str(err.value) == message


def test_rule_problems_of_several_rules_are_listed_together():
    with pytest.raises(TaskError) as err:
        check_rules([user_rule(name='a'), user_rule(name='b', protocol='all', ports=['1'], bidirectional=False)])
    assert str(err.value).count('option rules[1].') == 2


def test_unknown_values_are_not_judged():
    check_rules([user_rule(name='a', bidirectional=False), user_rule(name='b', protocol='tcp', bidirectional=False)])
    check_rules([user_rule(name='c', protocol='tcp', ports=['1'], bidirectional=False)])
    check_rules(None)


def policy_error(**options):
    with pytest.raises(OptionsError) as err:
        validate(PolicyOptions, options)
    return str(err.value)


def test_policy_model_messages_name_the_option():
    assert policy_error(rules=[{'name': 'r', 'ports': ['80', '0']}]) == (
        "option rules[0].ports[1]: '0' is not a port in 1..65535 or a range of them like 8000-8100")
    assert policy_error(rules=[{'name': 'r', 'ports': ['9000-8000']}]).startswith("option rules[0].ports[0]: '9000-8000'")
    assert policy_error(rules=[{'name': 'r', 'ports': ['65536']}]).startswith("option rules[0].ports[0]: '65536'")
    assert policy_error(rules=[{'name': 'r', 'sources': ['']}]) == 'option rules[0].sources[0]: must not be empty'
    assert policy_error(rules=[]).startswith('option rules: give at least one rule')
    assert policy_error(name=' ') == 'option name: must not be empty'
    assert policy_error(source_posture_checks=['']).startswith('option source_posture_checks[0]:')
    validate(PolicyOptions, {'rules': [{'name': 'r', 'ports': ['1', '65535', '8000-8100', ' 443 ']}]})


def check_error(checks):
    with pytest.raises(OptionsError) as err:
        validate(PostureCheckOptions, {'checks': checks})
    return str(err.value)


def test_posture_check_model_messages_name_the_option():
    assert check_error({'nb_version_check': {'min_version': '1..2'}}) == (
        "option checks.nb_version_check.min_version: '1..2' is not a version (examples: 0.25.0, v1.2.3, 6.5.11-rc1)")
    assert check_error({'os_version_check': {'ios': {'min_version': ''}}}).startswith(
        "option checks.os_version_check.ios.min_version: '' is not a version")
    assert check_error({'os_version_check': {}}).startswith('option checks.os_version_check: give the minimum version')
    assert check_error({'geo_location_check': {'action': 'allow', 'locations': [{'country_code': 'D1'}]}}).startswith(
        "option checks.geo_location_check.locations[0].country_code: 'D1' is not a 2-letter")
    assert check_error({'geo_location_check': {'action': 'allow', 'locations': []}}) == (
        'option checks.geo_location_check.locations: give at least one location')
    assert check_error({'peer_network_range_check': {'action': 'allow', 'ranges': ['10.0.0.300/8']}}).startswith(
        "option checks.peer_network_range_check.ranges[0]: '10.0.0.300/8' is not a CIDR range")
    assert check_error({}) == ('option checks: give at least one of nb_version_check, os_version_check, '
                               'geo_location_check, peer_network_range_check, process_check')
    for version in ('1', '0.25.0', 'v1.2.3', '6.5.11-rc1', '5.15.0-91-generic', '1.2.3+meta'):
        validate(PostureCheckOptions, {'checks': {'nb_version_check': {'min_version': version}}})


# -- posture check normalisation ------------------------------------------------------------------------
def test_normalise_checks():
    server = {
        'nb_version_check': {'min_version': '0.25.0'},
        'os_version_check': {'linux': {'min_kernel_version': '5.10'}, 'android': None},
        'geo_location_check': {'action': 'allow', 'locations': [{'country_code': 'us'}, {'country_code': 'DE', 'city_name': 'Berlin'}]},
        'peer_network_range_check': {'action': 'deny', 'ranges': [['10.1.2.3/8', '192.168.0.0/16']]},
    }
    assert normalise_checks(server) == {
        'nb_version_check': {'min_version': '0.25.0'},
        'os_version_check': {'linux': {'min_kernel_version': '5.10'}},
        'geo_location_check': {'action': 'allow', 'locations': [{'country_code': 'DE', 'city_name': 'Berlin'}, {'country_code': 'US'}]},
        'peer_network_range_check': {'action': 'deny', 'ranges': ['10.0.0.0/8', '192.168.0.0/16']},
    }
    # the options as Ansible hands them over (unset members None) and flat ranges compare alike
    user = {'nb_version_check': None, 'os_version_check': None, 'geo_location_check': None,
            'peer_network_range_check': {'action': 'deny', 'ranges': ['192.168.0.0/16', '10.0.0.0/8']}}
    assert normalise_checks(user) == {'peer_network_range_check': normalise_checks(server)['peer_network_range_check']}
    assert normalise_checks(None) == {}


def test_merge_checks_keeps_members_left_out():
    current = {'nb_version_check': {'min_version': '1'}, 'os_version_check': {'linux': {'min_kernel_version': '5'}}}
    merged = merge_checks(current, {'os_version_check': {'windows': {'min_kernel_version': '10'}}})
    assert merged == {'nb_version_check': {'min_version': '1'}, 'os_version_check': {'windows': {'min_kernel_version': '10'}}}
    assert current['os_version_check'] == {'linux': {'min_kernel_version': '5'}}


def test_posture_check_result_flattens_ranges():
    result = posture_check_result({'id': 'c', 'checks': {'peer_network_range_check': {'action': 'allow', 'ranges': [['10.0.0.0/8']]}}})
    assert result['checks']['peer_network_range_check']['ranges'] == ['10.0.0.0/8']


def test_policies_using():
    policies = [{'id': 'p1', 'source_posture_checks': ['c1']}, {'id': 'p2', 'source_posture_checks': None},
                {'id': 'p3', 'source_posture_checks': [{'id': 'c1', 'name': 'x'}]}]
    assert [p['id'] for p in policies_using(policies, 'c1')] == ['p1', 'p3']


# -- results and the access view -------------------------------------------------------------------------
class Names:
    @staticmethod
    def group(item_id):
        return {'g1': 'dev', 'g2': 'web'}.get(item_id)

    @staticmethod
    def posture_check(item_id):
        return {'c1': 'recent'}.get(item_id)


def test_policy_result_puts_names_beside_ids():
    result = policy_result({'id': 'p', 'source_posture_checks': None, 'rules': [
        {'id': 'p', 'name': 'r', 'sources': ['g1', {'id': 'g2', 'name': 'web', 'peers_count': 0}], 'destinations': None}]}, Names)
    assert result['source_posture_checks'] == []
    assert result['rules'][0]['sources'] == [{'id': 'g1', 'name': 'dev'}, {'id': 'g2', 'name': 'web'}]
    assert result['rules'][0]['destinations'] == [] and result['rules'][0]['ports'] == []
    result = policy_result({'id': 'p', 'source_posture_checks': ['c1', 'c9'], 'rules': []}, Names)
    assert result['source_posture_checks'] == [{'id': 'c1', 'name': 'recent'}, {'id': 'c9', 'name': None}]


def test_policy_result_lists_the_ranges_a_current_server_sends_apart_in_ports_too():
    ranges = [{'start': 443, 'end': 443}, {'start': 8000, 'end': 8100}]
    result = policy_result({'id': 'p', 'rules': [{'id': 'p', 'name': 'r', 'ports': None, 'port_ranges': ranges}]}, Names)
    assert result['rules'][0]['ports'] == ['443', '8000-8100'] and result['rules'][0]['port_ranges'] == ranges
    # without port_ranges (v0.27), ports as the server holds them, in its order
    assert policy_result({'id': 'p', 'rules': [{'name': 'r', 'ports': ['443', '22']}]}, Names)['rules'][0]['ports'] == ['443', '22']


def test_access_rows():
    dev, web = {'id': 'g1', 'name': 'dev'}, {'id': 'g2', 'name': 'web'}
    policies = [
        {'name': 'p', 'enabled': True, 'rules': [
            {'name': 'https', 'enabled': True, 'action': 'accept', 'bidirectional': False, 'protocol': 'tcp',
             'ports': ['8443', '443'], 'sources': [dev], 'destinations': [web]},
            {'name': 'off', 'enabled': False, 'action': 'accept', 'bidirectional': True, 'protocol': 'all',
             'sources': [dev], 'destinations': [dev]},
            {'name': 'self', 'enabled': True, 'action': 'drop', 'bidirectional': True, 'protocol': 'icmp',
             'sources': [web, {'id': 'g9', 'name': None}], 'destinations': [web]},
        ]},
        {'name': 'disabled', 'enabled': False, 'rules': [
            {'name': 'x', 'enabled': True, 'action': 'accept', 'bidirectional': True, 'protocol': 'all',
             'sources': [web], 'destinations': [dev]}]},
    ]
    rows = [(r['source'], r['destination'], r['protocol'], r['ports'], r['action'], r['rule']) for r in access_rows(policies)]
    assert rows == [
        ('dev', 'web', 'tcp', ['443', '8443'], 'accept', 'https'),
        ('g9', 'web', 'icmp', [], 'drop', 'self'),
        ('web', 'g9', 'icmp', [], 'drop', 'self'),
        ('web', 'web', 'icmp', [], 'drop', 'self'),
    ]
    assert access_rows([]) == []


def test_access_rows_show_the_port_ranges_current_servers_send_apart():
    dev, web = {'id': 'g1', 'name': 'dev'}, {'id': 'g2', 'name': 'web'}
    rule = {'name': 'app', 'enabled': True, 'action': 'accept', 'bidirectional': False, 'protocol': 'tcp', 'ports': ['443'],
            'port_ranges': [{'start': 8000, 'end': 8100}, {'start': 22, 'end': 22}], 'sources': [dev], 'destinations': [web]}
    assert [r['ports'] for r in access_rows([{'name': 'p', 'enabled': True, 'rules': [rule]}])] == [['22', '443', '8000-8100']]


# -- the resource classes with a scripted client -------------------------------------------------------------
def run_class(cls, client, check_mode=False, **params):
    if params.get('rules'):
        params['rules'] = [user_rule(**rule) for rule in params['rules']]
    return engine(cls, client, check_mode, **params).run()


GROUPS = [{'id': 'g1', 'name': 'dev'}, {'id': 'g2', 'name': 'web'}]
POLICY = {'id': 'p1', 'name': 'p', 'description': '', 'enabled': True, 'source_posture_checks': None, 'rules': [
    {'id': 'p1', 'name': 'r', 'description': '', 'enabled': True, 'action': 'accept', 'bidirectional': True, 'protocol': 'tcp',
     'ports': ['443'], 'sources': [{'id': 'g1', 'name': 'dev'}], 'destinations': [{'id': 'g2', 'name': 'web'}]}]}


def test_policy_unchanged_reads_one_list_per_kind():
    client = FakeClient({'/policies': [POLICY], '/groups': GROUPS})
    result = run_class(PolicyModule, client, name='p', rules=[dict(name='r', sources=['g1'], destinations=['web'], ports=['443'])])
    assert result['changed'] is False
    assert client.calls == [('GET', '/policies', None), ('GET', '/groups', None)]


def test_policy_update_puts_the_whole_policy():
    client = FakeClient({'/policies': [POLICY], '/groups': GROUPS, '/posture-checks': [{'id': 'c1', 'name': 'recent'}]})
    result = run_class(PolicyModule, client, name='p', source_posture_checks=['recent'])
    assert result['changed'] is True
    assert result['diff'] == {'before': {'source_posture_checks': []}, 'after': {'source_posture_checks': ['recent']}}
    (method, path, body), = client.writes()
    assert (method, path) == ('PUT', '/policies/p1')
    assert body['rules'] == [{'name': 'r', 'description': '', 'enabled': True, 'action': 'accept', 'bidirectional': True,
                              'protocol': 'tcp', 'ports': ['443'], 'sources': ['g1'], 'destinations': ['g2']}]
    assert result['policy']['source_posture_checks'] == [{'id': 'c1', 'name': 'recent'}]


def test_policy_unknown_names_fail_together_before_any_write():
    client = FakeClient({'/policies': [], '/groups': GROUPS, '/posture-checks': []})
    with pytest.raises(TaskError) as err:
        run_class(PolicyModule, client, name='p', source_posture_checks=['nope'],
                  rules=[dict(name='r', sources=['ghost'], destinations=['web', 'void'])])
    assert str(err.value) == ("source_posture_checks: no posture check with the id or name 'nope'; "
                              "rules[0].sources: no group with the id or name 'ghost'; "
                              "rules[0].destinations: no group with the id or name 'void'")
    assert client.writes() == []


def test_policy_references_include_rule_groups():
    module = PolicyModule(FakeModule(dict(source_posture_checks=['c'], rules=[user_rule(name='r', sources=['a'], destinations=['b'])])))
    assert list(described_references(module.fields, module.params)) == [
        ('posture_checks', 'c', 'source_posture_checks'), ('groups', 'a', 'rules[0].sources'), ('groups', 'b', 'rules[0].destinations')]


def test_policy_create_needs_rules_and_check_mode_predicts_names():
    client = FakeClient({'/policies': [], '/groups': GROUPS})
    with pytest.raises(TaskError) as err:
        run_class(PolicyModule, client, name='p')
    assert str(err.value) == "option rules is required to create the policy name 'p'"
    result = run_class(PolicyModule, client, check_mode=True, name='p', rules=[dict(name='r', sources=['dev'], destinations=['dev'])])
    assert result['changed'] is True
    assert result['policy']['rules'][0]['sources'] == [{'id': 'g1', 'name': 'dev'}]
    assert client.writes() == []


def test_posture_check_delete_refused_while_a_policy_uses_it():
    check = {'id': 'c1', 'name': 'recent', 'description': '', 'checks': {'nb_version_check': {'min_version': '1'}}}
    client = FakeClient({'/posture-checks': [check], '/policies': [dict(POLICY, source_posture_checks=['c1'])]})
    with pytest.raises(TaskError) as err:
        run_class(PostureCheckModule, client, name='recent', state='absent')
    assert "is used by the policy 'p' (id p1)" in str(err.value)
    assert client.writes() == []
    client = FakeClient({'/posture-checks': [check], '/policies': [POLICY]})
    assert run_class(PostureCheckModule, client, name='recent', state='absent')['changed'] is True
    assert client.writes() == [('DELETE', '/posture-checks/c1', None)]


def test_posture_check_merge_and_replace():
    check = {'id': 'c1', 'name': 'recent', 'description': 'd', 'checks': {'nb_version_check': {'min_version': '1'}}}
    geo = {'geo_location_check': {'action': 'allow', 'locations': [{'country_code': 'fr', 'city_name': None}]}}
    client = FakeClient({'/posture-checks': [check]})
    run_class(PostureCheckModule, client, name='recent', checks=geo)
    body = client.writes()[0][2]
    assert body == {'name': 'recent', 'description': 'd', 'checks': {
        'nb_version_check': {'min_version': '1'}, 'geo_location_check': {'action': 'allow', 'locations': [{'country_code': 'FR'}]}}}
    client = FakeClient({'/posture-checks': [check]})
    run_class(PostureCheckModule, client, name='recent', checks=geo, checks_mode='replace')
    assert list(client.writes()[0][2]['checks']) == ['geo_location_check']


def test_shape_problem_names_the_option_ansible_core_would_trip_over():
    spec = PostureCheckModule.full_argument_spec()
    members = 'geo_location_check, nb_version_check, os_version_check, peer_network_range_check, process_check'
    assert shape_problem(spec, {'checks': [1, 2]}).endswith('of its suboptions (%s), not [1, 2]' % members)
    assert shape_problem(spec, {'checks': {'os_version_check': {'linux': 5}}}) == (
        'option checks.os_version_check.linux: must be a dictionary of its suboptions (min_kernel_version), not 5')
    assert shape_problem(spec, {'checks': {'geo_location_check': {'locations': [{'country_code': 'DE'}, True]}}}).startswith(
        'option checks.geo_location_check.locations[1]: must be')
    assert shape_problem(spec, {'checks': 'nb_version_check=x', 'name': 3}) is None  # ansible-core reads k=v text
    assert shape_problem(spec, {'checks': ['a', 'list']}).startswith("option checks: must be a dictionary")
    assert shape_problem(PolicyModule.full_argument_spec(), {'rules': [{'name': 'r'}, 3.5]}).startswith('option rules[1]: must be')
    assert shape_problem(PolicyModule.full_argument_spec(), {'rules': [{'name': 'r'}]}) is None
    assert shape_problem(PolicyModule.full_argument_spec(), {'rules': ['a']}) == (
        "option rules[0]: must be a dictionary of its suboptions (action, authorized_groups, bidirectional, description, destination_resource, "
        "destinations, enabled, name, ports, protocol, source_resource, sources), not 'a'")


def test_shape_problem_refuses_a_nul_character_at_any_depth_naming_where():
    """A module process fails to log such a value to syslog without naming it (issue 18)."""
    spec = PolicyModule.full_argument_spec()
    assert shape_problem(spec, {'name': 'p\x00'}) == 'option name: must not contain a NUL character (\\x00)'
    assert shape_problem(spec, {'name': 'p', 'rules': [{'name': 'r'}, {'name': 'r', 'sources': ['a', 'b\x00']}]}) == (
        'option rules[1].sources[1]: must not contain a NUL character (\\x00)')
    assert shape_problem(spec, {'unknown': {'deep': ['\x00']}}).startswith('option unknown.deep[0]: ')
    assert shape_problem(spec, {'name': 'p', 'description': 'no nul here'}) is None


def test_policy_check_mode_keeps_rule_ids_and_gives_new_rules_the_policy_id():
    server = dict(POLICY, rules=[dict(POLICY['rules'][0], id='rule-r'), dict(POLICY['rules'][0], id='rule-s', name='s')])
    client = FakeClient({'/policies': [server], '/groups': GROUPS})
    result = run_class(PolicyModule, client, check_mode=True, name='p', rules=[
        dict(name='s', ports=['22']),                                # kept by name
        dict(name='renamed', sources=['dev'], destinations=['web']),  # kept by position (the second rule)
        dict(name='new', sources=['dev'], destinations=['web'])])    # new: what servers give it, the policy id
    assert [rule['id'] for rule in result['policy']['rules']] == ['rule-s', 'rule-s', 'p1']
    assert [w for w in client.calls if w[0] != 'GET'] == []
    # the diff names the groups, the result keeps {id, name}
    assert result['diff']['after']['rules'][2]['sources'] == ['dev']
    assert result['policy']['rules'][2]['sources'] == [{'id': 'g1', 'name': 'dev'}]


def test_policy_create_in_check_mode_gives_the_rules_the_placeholder_id():
    client = FakeClient({'/policies': [], '/groups': GROUPS})
    result = run_class(PolicyModule, client, check_mode=True, name='n', rules=[dict(name='r', sources=['dev'], destinations=['g2'])])
    assert result['policy']['id'] == '(new policy n)'
    assert [rule['id'] for rule in result['policy']['rules']] == ['(new policy n)']
    assert result['diff']['after']['rules'][0]['sources'] == ['dev'] and result['diff']['after']['rules'][0]['destinations'] == ['web']


def test_policy_diff_names_groups_from_the_server_object_without_a_group_read():
    client = FakeClient({'/policies': [POLICY]})
    result = run_class(PolicyModule, client, name='p', state='absent')
    assert result['diff']['before']['rules'][0]['sources'] == ['dev']
    assert result['diff']['before']['rules'][0]['destinations'] == ['web']
    assert client.calls == [('GET', '/policies', None), ('DELETE', '/policies/p1', None)]


def test_two_policies_of_one_name_say_policies(clock):
    client = FakeClient({'/policies': [POLICY, dict(POLICY, id='p2')]})
    with pytest.raises(TaskError) as err:
        run_class(PolicyModule, client, name='p', enabled=False)
    assert str(err.value) == "name 'p' matches 2 policies (ids: p1, p2); give the id to choose one"
    assert clock.waited > MAX_SETTLE  # both stayed longer than a racing run keeps its own copy


@pytest.mark.parametrize('check_mode', [False, True])
def test_posture_check_rename_onto_another_name_fails_before_any_write(check_mode):
    checks = [{'id': 'c1', 'name': 'alpha', 'description': '', 'checks': {}},
              {'id': 'c2', 'name': 'beta', 'description': '', 'checks': {}}]
    client = FakeClient({'/posture-checks': checks, '/posture-checks/c2': checks[1]})
    with pytest.raises(TaskError) as err:
        run_class(PostureCheckModule, client, check_mode=check_mode, id='c2', name='alpha')
    assert str(err.value) == ("option name: cannot rename the posture check 'beta' (id c2) to 'alpha': the posture check "
                              "with id c1 already has that name, and posture check names must be unique")
    assert client.calls == [('GET', '/posture-checks/c2', None), ('GET', '/posture-checks', None)]


# -- what the server accepts: port ranges and several rules --------------------------------------------
VERSION = {'management_current_version': '0.77.1', 'management_update_available': False}
RANGE_RULE = dict(name='r', sources=['g1'], destinations=['web'], protocol='tcp', ports=['443', '8000-8100'])


def test_a_port_range_is_refused_before_any_write_on_a_v027_server():
    client = FakeClient({'/policies': [POLICY], '/groups': GROUPS})  # no /instance/version: 404
    with pytest.raises(TaskError) as failure:
        run_class(PolicyModule, client, name='p', rules=[RANGE_RULE])
    assert str(failure.value) == (
        "option rules[0].ports: '8000-8100' is a port range, and this server (v0.27: it has no GET /api/instance/version) "
        "takes single ports only (each in 1..65535); list the ports one by one")
    assert client.writes() == [] and client.calls == [('GET', '/policies', None), ('GET', '/instance/version', None)]


def test_a_task_without_ranges_or_several_rules_never_asks_what_the_server_is():
    client = FakeClient({'/policies': [POLICY], '/groups': GROUPS})
    run_class(PolicyModule, client, name='p', rules=[dict(name='r', sources=['g1'], destinations=['web'], ports=['8080'])])
    assert ('GET', '/instance/version', None) not in client.calls


def test_a_current_server_gets_every_port_of_a_rule_with_a_range_in_port_ranges_and_a_rerun_is_unchanged():
    client = FakeClient({'/policies': [POLICY], '/groups': GROUPS, '/instance/version': VERSION})
    result = run_class(PolicyModule, client, name='p', rules=[RANGE_RULE])
    assert result['changed'] is True
    (dummy_method, dummy_path, body), = client.writes()
    # v0.77 refuses a rule with both ports and port_ranges (422 "specify either individual ports or port ranges,
    # not both"): the single port goes in port_ranges too, as a range of one port
    assert 'ports' not in body['rules'][0]
    assert body['rules'][0]['port_ranges'] == [{'start': 443, 'end': 443}, {'start': 8000, 'end': 8100}]
    # the server's answer: the ranges in port_ranges, no ports; the same task again changes nothing
    stored = dict(POLICY, rules=[dict(POLICY['rules'][0], ports=None,
                                      port_ranges=[{'start': 443, 'end': 443}, {'start': 8000, 'end': 8100}])])
    client = FakeClient({'/policies': [stored], '/groups': GROUPS})
    assert run_class(PolicyModule, client, name='p', rules=[RANGE_RULE])['changed'] is False
    assert client.writes() == [] and ('GET', '/instance/version', None) not in client.calls  # the answer told


def test_rule_body_sends_ports_or_port_ranges_never_both():
    rule = dict(name='r', description='', enabled=True, action='accept', bidirectional=True, protocol='tcp',
                sources=['g1'], destinations=['web'])
    singles = rule_body(dict(rule, ports=['22', '443']), ranges_apart=True)
    assert singles['ports'] == ['22', '443'] and 'port_ranges' not in singles  # a rule without a range: ports only
    ranged = rule_body(dict(rule, ports=['22', '8000-8100']), ranges_apart=True)
    assert 'ports' not in ranged and ranged['port_ranges'] == [{'start': 22, 'end': 22}, {'start': 8000, 'end': 8100}]
    assert rule_body(dict(rule, ports=['22', '8000-8100']))['ports'] == ['22', '8000-8100']  # a v0.27 body, as it is


def test_rule_from_server_reads_port_ranges():
    rule = rule_from_server({'ports': ['22'], 'port_ranges': [{'start': 8000, 'end': 8100}, {'start': 80, 'end': 80}]})
    assert rule['ports'] == ['22', '80', '8000-8100']


def test_several_rules_are_refused_before_any_write_on_a_current_server():
    client = FakeClient({'/policies': [POLICY], '/groups': GROUPS, '/instance/version': VERSION})
    rules = [dict(name='r', sources=['g1'], destinations=['web']), dict(name='s', sources=['g1'], destinations=['dev'])]
    with pytest.raises(TaskError) as failure:
        run_class(PolicyModule, client, name='p', rules=rules)
    assert str(failure.value).startswith('option rules: this server (0.77.1) keeps only the first rule of a policy')
    assert client.writes() == []


TWO_RULES = [dict(name='r', sources=['g1'], destinations=['web'], protocol='all'),
             dict(name='s', sources=['g1', 'g2'], destinations=['dev'], protocol='all')]


def two_rule_policy(second_sources, first_destination='g2'):
    def rule(name, sources, destinations):
        return {'id': 'p1', 'name': name, 'description': '', 'enabled': True, 'action': 'accept', 'bidirectional': True,
                'protocol': 'all', 'sources': sources, 'destinations': destinations}
    return dict(POLICY, rules=[rule('r', [{'id': 'g1'}], [{'id': first_destination}]), rule('s', second_sources, [{'id': 'g1'}])])


@pytest.mark.parametrize('second_sources', [None, [{'id': 'g1'}, {'id': 'g2'}]], ids=['v0.27 answer', 'full answer'])
def test_two_rules_sharing_a_source_converge(second_sources):
    # v0.27 answers the second rule without g1 and g2, which the first rule lists (g1 in its sources, g2 in its
    # destinations): that is the stored policy, no write
    client = FakeClient({'/policies': [two_rule_policy(second_sources)], '/groups': GROUPS})
    result = run_class(PolicyModule, client, name='p', rules=TWO_RULES)
    assert result['changed'] is False and client.writes() == []


def test_two_rules_with_a_real_difference_send_every_source():
    client = FakeClient({'/policies': [two_rule_policy(None, first_destination='g1')], '/groups': GROUPS})
    result = run_class(PolicyModule, client, name='p', rules=TWO_RULES)
    assert result['changed'] is True
    (dummy_method, dummy_path, body), = client.writes()
    assert [rule['sources'] for rule in body['rules']] == [['g1'], ['g1', 'g2']]


def test_a_later_rule_answered_without_sources_is_not_sent_back_as_answered():
    client = FakeClient({'/policies': [two_rule_policy(None)], '/groups': GROUPS})
    with pytest.raises(TaskError) as failure:
        run_class(PolicyModule, client, name='p', description='changed')
    assert str(failure.value).startswith("option rules[1].sources is required to update the policy 'p': the server answers "
                                         "its rule 's' without sources")
    assert client.writes() == []
    # with the sources given, it is sent
    client = FakeClient({'/policies': [two_rule_policy(None)], '/groups': GROUPS})
    run_class(PolicyModule, client, name='p', description='changed', rules=[dict(name='r'), dict(name='s', sources=['g1', 'g2'])])
    assert [rule['sources'] for rule in client.writes()[0][2]['rules']] == [['g1'], ['g1', 'g2']]


# -- today's fields: a group's network resources (v0.77) -------------------------------------------------
from ansible_collections.nms.overlay.plugins.module_utils._resources.group import GroupModule, group_body  # noqa: E402

CURRENT = {'management_current_version': '0.77.1'}
NET_RESOURCES = [{'id': 'res1', 'name': 'office-lan', 'type': 'subnet', 'address': '10.0.0.0/24'},
                 {'id': 'res2', 'name': 'wiki', 'type': 'domain', 'address': 'wiki.example.com'}]
TODAY_GROUP = {'id': 'g1', 'name': 'office', 'issued': 'api', 'peers_count': 0, 'peers': None, 'resources_count': 1,
               'resources': [{'id': 'res1', 'type': 'subnet'}]}


def _group_server(group=None, current=True):
    routes = {'/groups': [group] if group else [], '/networks/resources': NET_RESOURCES, '/peers': []}
    if group:
        routes['/groups/' + group['id']] = group
    if current:
        routes['/instance/version'] = CURRENT
    return FakeClient(routes)


def test_group_resources_are_sent_only_when_set_as_resource_objects():
    server = _group_server()
    engine(GroupModule, server, name='office').run()
    assert server.writes() == [('POST', '/groups', {'name': 'office', 'peers': []})]
    assert ('GET', '/instance/version', None) not in server.calls  # unset: the server is never asked
    server = _group_server()
    engine(GroupModule, server, name='office', resources=['wiki', 'res1']).run()
    assert server.writes() == [('POST', '/groups', {'name': 'office', 'peers': [], 'resources': [
        {'id': 'res1', 'type': 'subnet'}, {'id': 'res2', 'type': 'domain'}]})]


def test_group_resources_compare_as_a_set_and_an_update_keeps_them_when_unset():
    server = _group_server(dict(TODAY_GROUP, resources=[{'id': 'res2', 'type': 'domain'}, {'id': 'res1', 'type': 'subnet'}]))
    assert engine(GroupModule, server, name='office', resources=['office-lan', 'wiki']).run()['changed'] is False
    assert server.writes() == []
    server = _group_server(TODAY_GROUP)
    engine(GroupModule, server, name='office', peers=[]).run()  # peers [] vs null: unchanged, no write
    assert server.writes() == []
    server = _group_server(dict(TODAY_GROUP, name='office'))
    engine(GroupModule, server, id='g1', name='office-2').run()
    assert server.writes() == [('PUT', '/groups/g1', {'name': 'office-2', 'peers': [], 'resources': [{'id': 'res1', 'type': 'subnet'}]})]


def test_group_resources_change_with_a_diff_by_name():
    server = _group_server(TODAY_GROUP)
    result = engine(GroupModule, server, name='office', resources=['wiki']).run()
    assert server.writes() == [('PUT', '/groups/g1', {'name': 'office', 'peers': [], 'resources': [{'id': 'res2', 'type': 'domain'}]})]
    assert result['diff'] == {'before': {'resources': ['office-lan']}, 'after': {'resources': ['wiki']}}
    server = _group_server(TODAY_GROUP)
    engine(GroupModule, server, name='office', resources=[]).run()
    assert server.writes() == [('PUT', '/groups/g1', {'name': 'office', 'peers': [], 'resources': []})]


def test_group_resources_are_refused_by_a_v027_server_before_any_write():
    server = _group_server(current=False)
    with pytest.raises(TaskError) as failure:
        engine(GroupModule, server, name='office', resources=['wiki']).run()
    assert str(failure.value) == ('option resources: this server (v0.27: it has no GET /api/instance/version) does not '
                                  'have it (servers have it from v0.35.0 on)')
    assert server.calls == [('GET', '/instance/version', None)]


def test_a_v027_group_update_sends_no_resources():
    old = {'id': 'g1', 'name': 'office', 'issued': 'api', 'peers_count': 0, 'peers': None}
    server = _group_server(old, current=False)
    result = engine(GroupModule, server, id='g1', name='office-2').run()
    assert server.writes() == [('PUT', '/groups/g1', {'name': 'office-2', 'peers': []})]
    assert result['group']['resources'] == []  # a list field is a list in every result


def test_group_resources_unknown_name_fails_before_any_write():
    server = _group_server(TODAY_GROUP)
    with pytest.raises(TaskError) as failure:
        engine(GroupModule, server, name='office', resources=['nope']).run()
    assert str(failure.value) == "resources: no network resource with the id or name 'nope'"
    assert server.writes() == []


def test_group_body_of_a_peer_regrouping_keeps_the_resources():
    assert group_body(TODAY_GROUP, ['p1']) == {'name': 'office', 'peers': ['p1'], 'resources': [{'id': 'res1', 'type': 'subnet'}]}


# -- today's fields: a posture check's process_check (v0.77) ---------------------------------------------
PROCESS_CHECK = {'id': 'c1', 'name': 'agent-running', 'description': '', 'checks': {
    'process_check': {'processes': [{'linux_path': '/usr/bin/netbird', 'mac_path': '', 'windows_path': ''},
                                    {'linux_path': '', 'mac_path': '/Applications/NetBird.app', 'windows_path': ''}]}}}


def test_normalise_checks_keeps_the_paths_a_process_has_and_compares_processes_as_a_set():
    wanted = normalise_checks({'process_check': {'processes': [{'mac_path': '/Applications/NetBird.app'},
                                                               {'linux_path': '/usr/bin/netbird', 'windows_path': None}]}})
    assert wanted == normalise_checks(PROCESS_CHECK['checks']) == {'process_check': {'processes': [
        {'mac_path': '/Applications/NetBird.app'}, {'linux_path': '/usr/bin/netbird'}]}}


def test_process_check_model_messages_name_the_option():
    with pytest.raises(OptionsError) as failure:
        validate(PostureCheckOptions, {'checks': {'process_check': {'processes': [{'linux_path': ''}]}}})
    assert str(failure.value).startswith('option checks.process_check.processes[0]: give the path of the process on at least one of')
    with pytest.raises(OptionsError) as failure:
        validate(PostureCheckOptions, {'checks': {'process_check': {'processes': []}}})
    assert str(failure.value) == 'option checks.process_check.processes: give at least one process'


def _check_server(check=None, current=True):
    routes = {'/posture-checks': [check] if check else []}
    if current:
        routes['/instance/version'] = CURRENT
    return FakeClient(routes)


def test_process_check_is_sent_when_set_and_an_update_keeps_it_when_unset():
    server = _check_server()
    engine(PostureCheckModule, server, name='agent-running', checks={'process_check': {'processes': [{'linux_path': '/usr/bin/netbird'}]}}).run()
    assert server.writes() == [('POST', '/posture-checks', {'name': 'agent-running', 'description': '', 'checks': {
        'process_check': {'processes': [{'linux_path': '/usr/bin/netbird'}]}}})]
    server = _check_server(PROCESS_CHECK)  # the same processes: no write
    engine(PostureCheckModule, server, name='agent-running', checks={'process_check': {'processes': [
        {'mac_path': '/Applications/NetBird.app'}, {'linux_path': '/usr/bin/netbird'}]}}).run()
    assert server.writes() == []
    server = _check_server(PROCESS_CHECK)
    engine(PostureCheckModule, server, name='agent-running', checks={'nb_version_check': {'min_version': '0.30.0'}}).run()
    assert server.writes()[0][2]['checks'] == {'nb_version_check': {'min_version': '0.30.0'}, 'process_check': {'processes': [
        {'mac_path': '/Applications/NetBird.app'}, {'linux_path': '/usr/bin/netbird'}]}}


def test_process_check_is_refused_by_a_v027_server_before_any_write():
    server = _check_server(current=False)
    with pytest.raises(TaskError) as failure:
        engine(PostureCheckModule, server, name='agent-running', checks={'process_check': {'processes': [{'linux_path': '/x'}]}}).run()
    assert str(failure.value) == ('option checks.process_check: this server (v0.27: it has no GET /api/instance/version) does '
                                  'not have it (servers have it from v0.28.0 on)')
    assert server.calls == [('GET', '/instance/version', None)]
    server = _check_server(current=False)  # other checks never ask what the server is
    engine(PostureCheckModule, server, name='recent', checks={'nb_version_check': {'min_version': '0.30.0'}}).run()
    assert ('GET', '/instance/version', None) not in server.calls


# -- today's fields: a rule's source and destination resources (v0.77) ---------------------------------------
def put_body(server):
    (put,) = [body for method, dummy_path, body in server.writes() if method == 'PUT']
    return put


LAPTOP = {'id': 'p9', 'name': 'laptop', 'dns_label': 'laptop', 'ip': '100.64.0.9'}
DEV_GROUP = {'id': 'g2', 'name': 'developers', 'peers': []}
LAN_RULE = {'name': 'lan', 'protocol': 'all', 'sources': ['developers'], 'destination_resource': 'office-lan'}


def _policy_server(policy=None, current=True, peers=(LAPTOP,)):
    routes = {'/policies': [policy] if policy else [], '/groups': [DEV_GROUP], '/peers': list(peers),
              '/networks/resources': NET_RESOURCES, '/posture-checks': []}
    if current:
        routes['/instance/version'] = CURRENT
    return FakeClient(routes)


def _answered(rule_body_sent, **changes):
    """A policy as v0.77 answers one made of the rule sent: groups as summaries, a side without groups null."""
    rule = dict(rule_body_sent, id='pol1')
    for side in ('sources', 'destinations'):
        rule[side] = [{'id': gid, 'name': 'developers'} for gid in rule.get(side) or []] or None
    return dict({'id': 'pol1', 'name': 'to-lan', 'description': '', 'enabled': True, 'source_posture_checks': [],
                 'rules': [rule]}, **changes)


def test_a_destination_resource_takes_the_place_of_the_destinations():
    server = _policy_server()
    engine(PolicyModule, server, name='to-lan', rules=[LAN_RULE]).run()
    (write,) = server.writes()
    rule = write[2]['rules'][0]
    assert rule['destinationResource'] == {'id': 'res1', 'type': 'subnet'} and 'destinations' not in rule
    assert rule['sources'] == ['g2'] and 'sourceResource' not in rule
    # the same again, against the answer: no write
    policy = _answered(rule)
    server = _policy_server(policy)
    assert engine(PolicyModule, server, name='to-lan', rules=[dict(LAN_RULE, destination_resource='res1')]).run()['changed'] is False
    assert server.writes() == []


def test_a_rule_resource_is_kept_when_unset_and_replaced_by_groups_given():
    policy = _answered(dict(rule_body(merge_rule(dict(LAN_RULE, sources=['g2'], destination_resource={'id': 'res1', 'type': 'subnet'}),
                                                 [], 0))))
    server = _policy_server(policy)
    engine(PolicyModule, server, name='to-lan', description='changed').run()
    rule = put_body(server)['rules'][0]
    # no destinations beside the kept resource: v0.77 refuses a side with both, even an empty list
    assert rule['destinationResource'] == {'id': 'res1', 'type': 'subnet'} and 'destinations' not in rule
    server = _policy_server(policy)
    engine(PolicyModule, server, name='to-lan', rules=[{'name': 'lan', 'destinations': ['developers']}]).run()
    rule = put_body(server)['rules'][0]
    assert rule['destinations'] == ['g2'] and 'destinationResource' not in rule


def test_a_source_resource_names_a_peer():
    server = _policy_server()
    engine(PolicyModule, server, name='from-laptop', rules=[{'name': 'r', 'source_resource': 'laptop',
                                                             'destinations': ['developers']}]).run()
    rule = server.writes()[0][2]['rules'][0]
    assert rule['sourceResource'] == {'id': 'p9', 'type': 'peer'} and 'sources' not in rule


def test_rule_resources_are_refused_by_a_v027_server_before_any_write():
    server = _policy_server(current=False)
    with pytest.raises(TaskError) as failure:
        engine(PolicyModule, server, name='to-lan', rules=[LAN_RULE]).run()
    assert str(failure.value) == ('option rules[0].destination_resource: this server (v0.27: it has no GET '
                                  '/api/instance/version) does not have it (servers have it from v0.35.0 on)')
    assert server.calls == [('GET', '/instance/version', None)]


def test_groups_and_a_resource_on_one_side_fail_before_any_request():
    server = _policy_server()
    with pytest.raises(TaskError) as failure:
        engine(PolicyModule, server, name='to-lan', rules=[dict(LAN_RULE, destinations=['developers'])]).run()
    assert str(failure.value) == ('option rules[0].destination_resource: give destinations or destination_resource, '
                                  'not both (servers refuse a rule with both)')
    assert server.calls == []


def test_a_resource_name_a_peer_and_a_network_resource_share_fails_asking_for_the_id():
    server = _policy_server(peers=(dict(LAPTOP, name='wiki'),))
    with pytest.raises(TaskError) as failure:
        engine(PolicyModule, server, name='to-wiki', rules=[dict(LAN_RULE, destination_resource='wiki')]).run()
    assert str(failure.value) == ("rules[0].destination_resource: 'wiki' names the peer with id p9 and the network "
                                  "resource with id res2; give the id")
    server = _policy_server()
    with pytest.raises(TaskError) as failure:
        engine(PolicyModule, server, name='to-wiki', rules=[dict(LAN_RULE, destination_resource='nope')]).run()
    assert str(failure.value) == "rules[0].destination_resource: no peer or network resource with the id or name 'nope'"
    assert server.writes() == []


@pytest.mark.parametrize('check_mode', [False, True])
def test_a_group_holding_network_resources_is_not_deleted(check_mode):
    server = _group_server(TODAY_GROUP)
    with pytest.raises(TaskError) as failure:
        engine(GroupModule, server, name='office', state='absent', check_mode=check_mode).run()
    assert str(failure.value) == ("the group 'office' (id g1) holds the network resource res1, and servers refuse to delete "
                                  "a group that holds network resources; set its resources to [] first")
    assert server.writes() == []


@pytest.mark.parametrize('version, minimum, below', [
    ('0.27.6', '0.28.0', True), ('v0.27.6', '0.28', True), ('0.77.1', '0.28.0', False), ('0.28.0', 'v0.28.0', False),
    ('0.28', '0.28.0', False), ('development', '0.28.0', None), ('0.28.0-rc1', '0.28.0', None), ('', '0.28.0', None),
    (None, '0.28.0', None), ('0.27.6', 'latest', None)])
def test_version_below(version, minimum, below):
    assert version_below(version, minimum) is below


def test_only_the_agent_release_check_is_judged_and_only_when_the_peer_says_its_release():
    recent = {'id': 'c1', 'name': 'recent', 'checks': {'nb_version_check': {'min_version': '0.28.0'}}}
    located = {'action': 'allow', 'locations': [{'country_code': 'DE'}]}
    both = {'id': 'c2', 'name': 'both', 'checks': {'nb_version_check': {'min_version': '0.28.0'}, 'geo_location_check': located}}
    geo = {'id': 'c3', 'name': 'geo', 'checks': {'geo_location_check': {'action': 'deny', 'locations': [{'country_code': 'DE'}]}}}
    old, new, unknown = {'version': '0.27.6'}, {'version': '0.77.1'}, {'name': 'no version'}
    assert [c['name'] for c in failed_checks(old, [recent, both, geo, None])] == ['recent', 'both']
    assert failed_checks(new, [recent, both, geo]) == [] and failed_checks(unknown, [recent, both]) == []
    assert fails_check(old, {'checks': {'nb_version_check': {'min_version': ''}}}) is False
    assert fails_check(None, recent) is False
