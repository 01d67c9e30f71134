# -*- coding: utf-8 -*-
"""Issue 46, 13: a policy rule's SSH access (authorized_groups with protocol netbird-ssh): normalised as a map of sets,
merged (kept when unset, dropped with another protocol), sent only when it has an entry, checked as the server checks
it, resolved by group name, a reference of the group it names, refused by servers before v0.61.0 (no HTTP)."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._access import (
    authorized_map, authorized_problems, check_rules, merge_rule, rule_body, rule_from_server,
)
from ansible_collections.nms.overlay.plugins.module_utils._diff import _shown_refs
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._models import OptionsError, validate
from ansible_collections.nms.overlay.plugins.module_utils._models_access import PolicyOptions
from ansible_collections.nms.overlay.plugins.module_utils._network_plan import described_references
from ansible_collections.nms.overlay.plugins.module_utils._resources.policy import PolicyModule
from ansible_collections.nms.overlay.plugins.module_utils._usage import referrers
from tests.support.fakes import FakeClient, FakeModule, engine

SSH_RULE = {'id': 'p1', 'name': 'ssh', 'description': '', 'enabled': True, 'action': 'accept', 'bidirectional': True,
            'protocol': 'netbird-ssh', 'sources': [{'id': 'g1', 'name': 'ops'}], 'destinations': [{'id': 'g2', 'name': 'web'}],
            'authorized_groups': {'g1': ['root', 'deploy']}}
GROUPS = [{'id': 'g1', 'name': 'ops'}, {'id': 'g2', 'name': 'web'}, {'id': 'g3', 'name': 'devs'}]
POLICY = {'id': 'p1', 'name': 'ssh-access', 'description': '', 'enabled': True, 'source_posture_checks': [], 'rules': [SSH_RULE]}
OPTIONS = ('name', 'description', 'enabled', 'action', 'bidirectional', 'protocol', 'ports', 'sources', 'destinations',
           'source_resource', 'destination_resource', 'authorized_groups')


def user_rule(**values):
    rule = dict.fromkeys(OPTIONS)
    rule.update(values)
    return rule


def server(version='0.77.1', policies=None):
    routes = {'/policies': [dict(policy) for policy in policies or []], '/groups': GROUPS, '/posture-checks': []}
    if version is not None:
        routes['/instance/version'] = {'management_current_version': version, 'management_update_available': False}
    return FakeClient(routes)


def run_policy(client, check_mode=False, **params):
    params['rules'] = [user_rule(**rule) for rule in params.get('rules') or []] or None
    return engine(PolicyModule, client, check_mode, **params).run()


def test_authorized_map_is_a_map_of_sets():
    assert authorized_map({'g1': ['root', 'deploy', 'root'], 'g2': []}) == {'g1': ['deploy', 'root'], 'g2': []}
    assert authorized_map(None) == authorized_map([]) == {}
    assert authorized_map({'g1': None}) == {'g1': []}


def test_rule_from_server_holds_authorized_groups_only_when_there_are_some():
    assert rule_from_server(SSH_RULE)['authorized_groups'] == {'g1': ['deploy', 'root']}
    assert rule_from_server(SSH_RULE) == rule_from_server(dict(SSH_RULE, authorized_groups={'g1': ['deploy', 'root', 'deploy']}))
    assert 'authorized_groups' not in rule_from_server(dict(SSH_RULE, authorized_groups=None))
    assert 'authorized_groups' not in rule_from_server(dict(SSH_RULE, authorized_groups={}))


def test_merge_rule_keeps_replaces_or_drops_authorized_groups():
    held = [rule_from_server(SSH_RULE)]
    assert merge_rule(user_rule(name='ssh'), held, 0)['authorized_groups'] == {'g1': ['deploy', 'root']}
    assert merge_rule(user_rule(name='ssh', authorized_groups={'g1': ['admin']}), held, 0)['authorized_groups'] == {'g1': ['admin']}
    assert 'authorized_groups' not in merge_rule(user_rule(name='ssh', authorized_groups={}), held, 0)
    # another protocol the user gives cannot hold it: an unset option does not carry it over
    assert 'authorized_groups' not in merge_rule(user_rule(name='ssh', protocol='tcp', ports=['22']), held, 0)
    odd = [dict(held[0], protocol='all')]  # what a server holds and the user leaves alone is sent back as it is
    assert merge_rule(user_rule(name='ssh', description='x'), odd, 0)['authorized_groups'] == {'g1': ['deploy', 'root']}
    new = merge_rule(user_rule(name='new', protocol='netbird-ssh', sources=['g1'], destinations=['g2']), held, 0)
    assert 'authorized_groups' not in new


def test_rule_body_sends_it_only_with_entries():
    merged = merge_rule(user_rule(name='ssh'), [rule_from_server(SSH_RULE)], 0)
    assert rule_body(merged)['authorized_groups'] == {'g1': ['deploy', 'root']}
    assert 'authorized_groups' not in rule_body(merge_rule(user_rule(name='ssh', authorized_groups={}), [rule_from_server(SSH_RULE)], 0))


def test_the_server_rules_are_checked_first():
    assert authorized_problems(user_rule(name='r', protocol='tcp', authorized_groups={'ops': ['root']}), 0) == [
        'option rules[0].authorized_groups: only with protocol netbird-ssh (servers drop it from a rule of protocol tcp)']
    assert authorized_problems(user_rule(name='r', authorized_groups={'ops': ['root']}), 0) == []  # the protocol kept: judged merged
    assert authorized_problems(user_rule(name='r', protocol='tcp', authorized_groups={}), 0) == []
    check_rules([user_rule(name='r', protocol='netbird-ssh', authorized_groups={'ops': ['root']})])
    rule = merge_rule(user_rule(name='ssh', sources=['g1', 'g3']), [rule_from_server(SSH_RULE)], 0)
    names = {'g3': 'devs'}.get
    assert authorized_problems(rule, 0, {}, names) == [
        'option rules[0].authorized_groups: give each source group of the rule its local users (servers refuse a netbird-ssh '
        'rule whose authorized_groups leaves out a source group); missing: devs']
    assert authorized_problems(dict(rule, sources=['g1']), 0, {}, names) == []
    assert authorized_problems(dict(rule, authorized_groups={}), 0, {}, names) == []  # none: every user of the account
    # what the server holds and the user left unset is sent back, whatever its protocol (a server never answers that)
    odd = dict(rule, protocol='all', sources=['g1'])
    assert authorized_problems(odd, 0, {}, names) == []
    assert authorized_problems(odd, 0, {'authorized_groups': {'ops': []}}, names)[0].endswith('a rule of protocol all)')


@pytest.mark.parametrize('value, problem', [
    ({'ops': 'root'}, 'option rules[0].authorized_groups.ops: must be a list'),
    ({'ops': ['']}, 'option rules[0].authorized_groups.ops[0]: must not be empty'),
    ({'ops': [['root']]}, 'option rules[0].authorized_groups.ops[0]: must be a string'),
])
def test_the_model_checks_the_shape(value, problem):
    with pytest.raises(OptionsError) as err:
        validate(PolicyOptions, {'rules': [{'name': 'r', 'authorized_groups': value}]})
    assert problem in str(err.value)
    validate(PolicyOptions, {'rules': [{'name': 'r', 'authorized_groups': {'ops': [], 'g3': ['root']}}]})


def test_its_groups_are_references_checked_before_the_first_write_and_uses_of_the_group():
    module = PolicyModule(FakeModule(dict(rules=[user_rule(name='r', sources=['ops'], destinations=['web'],
                                                           authorized_groups={'admins': ['root']})])))
    assert ('groups', 'admins', 'rules[0].authorized_groups') in list(described_references(module.fields, module.params))
    found = referrers('groups', 'g1', {'policies': [POLICY]})
    assert [where for dummy, dummy_what, dummy_key, where in found] == [['rules[0].sources', 'rules[0].authorized_groups']]
    assert _shown_refs(type('Names', (), {'show': lambda self, kind, value: {'g1': 'ops'}.get(value, value)})(), 'groups',
                       {'g1': ['root']}) == {'ops': ['root']}


def test_by_name_unchanged_and_kept_by_an_update_that_does_not_set_it():
    client = server(policies=[POLICY])
    rule = dict(name='ssh', protocol='netbird-ssh', sources=['ops'], destinations=['web'], authorized_groups={'ops': ['root', 'deploy']})
    assert run_policy(client, name='ssh-access', rules=[rule])['changed'] is False
    assert client.writes() == []
    result = run_policy(client, name='ssh-access', description='changed')
    assert result['changed'] is True
    assert client.writes()[0][2]['rules'][0]['authorized_groups'] == {'g1': ['deploy', 'root']}


def test_unknown_groups_fail_with_the_others():
    client = server(policies=[POLICY])
    with pytest.raises(TaskError) as err:
        run_policy(client, name='ssh-access', rules=[dict(name='ssh', sources=['ghost'], authorized_groups={'void': []})])
    assert str(err.value) == ("rules[0].sources: no group with the id or name 'ghost'; "
                              "rules[0].authorized_groups: no group with the id or name 'void'")
    assert client.writes() == []


@pytest.mark.parametrize('version', [None, '0.60.9'])
def test_an_older_server_refuses_the_option_and_the_protocol(version):
    client = server(version)
    with pytest.raises(TaskError) as err:
        run_policy(client, name='ssh-access', rules=[dict(name='ssh', protocol='netbird-ssh', sources=['ops'], destinations=['web'],
                                                          authorized_groups={'ops': ['root']})])
    text = str(err.value)
    assert 'option rules[0].authorized_groups: this server (' in text and 'servers have it from v0.61.0 on' in text, text
    assert 'option rules[0].protocol: ' in text and 'does not have the protocol netbird-ssh' in text, text
    assert client.writes() == []


def test_the_first_release_that_has_it_takes_it():
    client = server('0.61.0')
    result = run_policy(client, check_mode=True, name='ssh-access', rules=[dict(
        name='ssh', protocol='netbird-ssh', sources=['ops'], destinations=['web'], authorized_groups={'ops': ['root']})])
    assert result['changed'] is True and client.writes() == []
    assert result['policy']['rules'][0]['authorized_groups'] == {'g1': ['root']}
