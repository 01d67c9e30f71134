# -*- coding: utf-8 -*-
"""The built-in All group and the allow-all policies as the default_policy option and the access report judge them
(issue "Safe by default", points 6 and 7): unit tests of _access, no HTTP."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._access import (
    allow_all_rules_as_held, as_answered, grants_everything, is_allow_all_policy,
)
from ansible_collections.nms.overlay.plugins.module_utils._names import builtin_all_group

BUILT_IN = {'id': 'g-all', 'name': 'All', 'issued': 'api', 'peers_count': 5}
RENAMED = {'id': 'g-team', 'name': 'All', 'issued': 'api', 'peers_count': 1}
SYNCED = {'id': 'g-idp', 'name': 'All', 'issued': 'jwt', 'peers_count': 5}
OTHER = {'id': 'g-web', 'name': 'web', 'issued': 'api', 'peers_count': 5}


@pytest.mark.parametrize('groups, ids, ambiguous', [
    ([OTHER, BUILT_IN], {'g-all'}, False),
    ([RENAMED, BUILT_IN], {'g-all'}, False),  # the most peers, whatever the order
    ([BUILT_IN, SYNCED], {'g-all'}, False),  # never a group from an identity provider
    ([dict(BUILT_IN, peers_count=None, peers=[{'id': 'p1'}]), dict(RENAMED, peers_count=None, peers=None)], {'g-all'}, False),
    ([dict(BUILT_IN, issued=None)], {'g-all'}, False),  # an answer without issued
    ([dict(SYNCED)], {'g-idp'}, False),  # only such groups: the one named All
    ([dict(BUILT_IN, peers_count=1), RENAMED], {'g-all', 'g-team'}, True),  # as many peers: cannot be told apart
    ([OTHER], set(), False),
    ([], set(), False),
])
def test_the_built_in_all_group_is_told_by_what_the_server_shows_not_by_its_name(groups, ids, ambiguous):
    assert builtin_all_group(groups) == (ids, ambiguous)


def rule(sources, destinations, name='r', protocol='all', action='accept'):
    return dict(name=name, enabled=True, action=action, bidirectional=True, protocol=protocol, ports=[],
                sources=sources, destinations=destinations)


def policy(*rules):
    return dict(id='p', name='p', enabled=True, source_posture_checks=None, rules=list(rules))


ALL = {'id': 'g-all', 'name': 'All'}
TEAM = {'id': 'g-team', 'name': 'All'}
WEB = {'id': 'g-web', 'name': 'web'}


def test_a_policy_among_the_peers_of_a_group_renamed_all_is_no_allow_all():
    among = policy(rule([TEAM], [TEAM]))
    ids = builtin_all_group([BUILT_IN, RENAMED])[0]
    assert not is_allow_all_policy(among, ids) and not grants_everything(among, ids)
    assert is_allow_all_policy(policy(rule([ALL], [ALL])), ids)


@pytest.mark.parametrize('answered, allow_all_only', [
    # v0.27 answers the second rule without the All group the first lists: all or nothing, so an allow-all
    (policy(rule([ALL], [ALL]), rule(None, [ALL], name='again')), True),
    (policy(rule([ALL], [ALL]), rule([], [ALL], name='again')), True),
    # the first rule lists web too: the hidden sources may be web alone, which is no allow-all
    (policy(rule([ALL, WEB], [ALL]), rule(None, [ALL], name='again')), False),
    # a hidden rule that is not accept, protocol all, to All
    (policy(rule([ALL], [ALL]), rule(None, [ALL], name='again', protocol='tcp')), False),
    (policy(rule([ALL], [ALL]), rule(None, [WEB], name='again')), False),
    (policy(rule([ALL], [ALL]), rule(None, [ALL], name='again', action='drop')), False),
    # a first rule without sources hides nothing
    (policy(rule(None, [ALL])), False),
])
def test_a_later_rule_answered_without_its_sources_counts_only_when_it_can_hold_nothing_but_all(answered, allow_all_only):
    assert is_allow_all_policy(answered, {'g-all'}) is allow_all_only


def test_the_rules_sent_to_disable_such_a_policy_give_the_hidden_sources_back():
    answered = policy(rule([ALL], [ALL], name='Default'), rule(None, [ALL], name='again'))
    sent = allow_all_rules_as_held(answered, {'g-all'})
    assert [(r['name'], r['sources'], r['destinations'], r['protocol']) for r in sent] == [
        ('Default', ['g-all'], ['g-all'], 'all'), ('again', ['g-all'], ['g-all'], 'all')]
    assert all(r['source_resource'] is None and r['destination_resource'] is None for r in sent)
    assert allow_all_rules_as_held(policy(rule([ALL], [ALL])), {'g-all'}) is None  # nothing hidden: the server's rules


def test_v027_answers_leave_out_a_group_an_earlier_rule_lists_on_either_side():
    rules = [dict(sources=['web'], destinations=['db']), dict(sources=['web', 'db'], destinations=['web']),
             dict(sources=['ops'], destinations=['web'])]
    assert [r['sources'] for r in as_answered(rules)] == [['web'], [], ['ops']]


def test_a_rule_answered_without_sources_is_not_sent_without_them_when_it_moves_first():
    """v0.27 answers the second rule without the groups the first lists on either side; moved first and sent back as
    answered, it would lose its sources in the store."""
    from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
    from ansible_collections.nms.overlay.plugins.module_utils._resources.policy import PolicyModule
    from tests.support.fakes import FakeClient, engine

    def answered(name, sources, destinations):
        return {'id': 'p1', 'name': name, 'description': '', 'enabled': True, 'action': 'accept', 'bidirectional': True,
                'protocol': 'all', 'sources': sources, 'destinations': destinations}
    stored = {'id': 'p1', 'name': 'p', 'description': '', 'enabled': True, 'source_posture_checks': None,
              'rules': [answered('https', [{'id': 'g1'}], [{'id': 'g2'}]), answered('db', None, [{'id': 'g3'}])]}
    client = FakeClient({'/policies': [stored], '/groups': [{'id': 'g1', 'name': 'dev'}, {'id': 'g2', 'name': 'web'},
                                                            {'id': 'g3', 'name': 'db'}]})
    with pytest.raises(TaskError, match=r"option rules\[0\]\.sources is required to update the policy 'p'"):
        engine(PolicyModule, client, name='p', rules=[dict(name='db'), dict(name='https')]).run()
    assert client.writes() == []
