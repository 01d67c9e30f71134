# -*- coding: utf-8 -*-
"""Issue 46, 4: a mistyped key of a network description stops the run before any request with one line naming
the key, where it is and the closest known one, instead of ansible-core's dump of the whole argument spec. The
role checks the description's own keys (its argument spec takes the description as raw data for that reason);
network_state and the single modules check every nested option."""

from __future__ import annotations

import pytest
import yaml

from ansible_collections.nms.overlay.plugins.module_utils._network_plan import KINDS
from tests.support.emulator import REPO_ROOT


def role(description):
    return {'roles': [{'role': 'nms.overlay.network', 'vars': {'network_description': description}}]}


@pytest.mark.parametrize('description, message', [
    ({'polices': [{'name': 'x'}]}, 'unknown key polices at network_description (did you mean policies?). Nothing was changed.'),
    ({'groups': [], 'dns_setting': {}}, 'unknown key dns_setting at network_description (did you mean dns_settings or dns_zones?)'),
    ({'colours': []}, 'unknown key colours at network_description (the keys are account_settings, '),
    (['groups'], 'network_description must be a dictionary of the network by kind (groups, policies, ...), not list.'),
])
def test_the_role_names_a_mistyped_key_before_any_request(emulator, run, description, message):
    emulator.clear_log()
    result = run([], play=role(description))
    assert result.rc != 0, result
    assert message in result.stdout, result.stdout
    assert 'argument_spec_data' not in result.stdout  # ansible-core's dump of the spec, several kilobytes
    assert emulator.requests() == []


@pytest.mark.parametrize('description, message', [
    ({'policies': [{'name': 'p', 'rules': [{'name': 'r', 'port': 22, 'sources': ['a'], 'destinations': ['a']}]}]},
     'the network description is invalid, nothing was changed: policies[0].rules[0]: unknown option port (did you mean '
     'ports?)'),
    ({'groups': [{'name': 'ok'}, {'nme': 'x'}]},
     'the network description is invalid, nothing was changed: groups[1]: unknown option nme (did you mean name?)'),
    ({'networks': [{'name': 'n', 'resources': [{'name': 'x', 'adress': '10.0.0.1'}]}]},
     'networks[0].resources[0]: unknown option adress (did you mean address?)'),
])
def test_the_role_names_a_mistyped_option_of_an_item_by_its_place(emulator, run, description, message):
    if 'networks' in description and emulator.dialect == 'netbird':
        pytest.skip('Networks are servers after v0.27')
    emulator.clear_log()
    result = run([], play=role(description))
    assert result.rc != 0, result
    assert message in result.stdout, result.stdout
    assert 'Supported parameters include' not in result.stdout
    assert [r for r in emulator.requests() if r['method'] != 'GET'] == []


def test_a_single_module_names_a_mistyped_nested_option_by_its_place(emulator, run):
    emulator.clear_log()
    result = run([{'name': 'policy', 'nms.overlay.policy': {
        'name': 'p', 'rules': [{'name': 'r', 'ports': ['22'], 'sources': ['a'], 'destinations': ['a']},
                               {'name': 'r2', 'protocl': 'tcp', 'sources': ['a'], 'destinations': ['a']}]}}])
    assert result['policy']['failed'] is True
    assert result['policy']['msg'] == 'rules[1]: unknown option protocl (did you mean protocol?)', result['policy']
    assert emulator.requests() == []


def test_the_roles_known_keys_are_network_states_sections():
    with open(REPO_ROOT + '/roles/network/tasks/main.yml', encoding='utf-8') as handle:
        tasks = yaml.safe_load(handle)
    check = next(task for task in tasks if task['name'] == 'Refuse an unknown key in the description')
    assert sorted(check['vars']['network_known_keys']) == sorted([kind for kind, dummy in KINDS] + ['default_policy', 'group_memberships'])


def test_the_role_passes_group_memberships_to_network_state(emulator, run):
    # a group the description does not own gets one peer more through the role, its other peer kept; the re-run writes
    # nothing (the role knows the key: it is no "unknown key")
    from tests.support.emulator import make_group, make_peers, writes_of  # pylint: disable=import-outside-toplevel
    peers = make_peers(emulator, 'role-web-1', 'role-web-2')
    group = make_group(emulator, 'role-owned-elsewhere', [peers['role-web-1']])
    description = {'group_memberships': [{'group': 'role-owned-elsewhere', 'peers': ['role-web-2'], 'mode': 'add'}]}
    emulator.clear_log()
    first = run([], play=role(description))
    assert first.rc == 0, first.stdout
    assert writes_of(emulator) == ['PUT /api/groups/%s' % group['id']], emulator.writes()
    members = emulator.ok('GET', '/api/groups/%s' % group['id'])['peers']
    assert sorted(peer['id'] if isinstance(peer, dict) else peer for peer in members) == sorted(peers.values())
    emulator.clear_log()
    again = run([], play=role(description))
    assert again.rc == 0 and writes_of(emulator) == [], (again.stdout, emulator.writes())
