# -*- coding: utf-8 -*-
"""_reach.py: who gains and who loses reach between two states, worked out by the access report's computation."""

from __future__ import annotations

import copy

from ansible_collections.nms.overlay.plugins.filter.drift_report import drift_report
from ansible_collections.nms.overlay.plugins.module_utils._reach import reach_diff, reach_difference

PEERS = [dict(id='p-ana', name='laptop-ana', ip='100.64.0.1', groups=[{'id': 'g-all', 'name': 'All'}]),
         dict(id='p-db', name='db-1', ip='100.64.0.2'), dict(id='p-web', name='web-1', ip='100.64.0.3'),
         dict(id='p-ops', name='Ops-1', ip='100.64.0.4')]


def group(group_id, *peers):
    return dict(id=group_id, name=group_id[2:], peers=[dict(id=peer, name=peer) for peer in peers])


def rule(sources, destinations, protocol='all', ports=(), bidirectional=True, action='accept', **extra):
    return dict(dict(name='r', enabled=True, action=action, bidirectional=bidirectional, protocol=protocol, ports=list(ports),
                     sources=[dict(id=g) for g in sources], destinations=[dict(id=g) for g in destinations]), **extra)


def policy(name, *rules, **extra):
    return dict(dict(id='pol-' + name, name=name, enabled=True, rules=list(rules)), **extra)


GROUPS = [group('g-all', 'p-ana', 'p-db', 'p-web', 'p-ops'), group('g-dev', 'p-ana'), group('g-db', 'p-db'),
          group('g-web', 'p-web'), group('g-ops', 'p-ops')]
BEFORE = dict(peers=PEERS, groups=GROUPS, routes=[], policies=[
    policy('dev-db', rule(['g-dev'], ['g-db'], 'tcp', ['5432'], bidirectional=False)),
    policy('dev-web', rule(['g-dev'], ['g-web'], 'tcp', ['22', '443'], bidirectional=False))])


def lines(before, after, **kwargs):
    return [item['line'] for item in reach_difference(before, after, **kwargs)]


def changed(**lists):
    return dict(copy.deepcopy(BEFORE), **lists)


def test_the_same_state_changes_no_reach():
    assert reach_difference(BEFORE, copy.deepcopy(BEFORE)) == []


def test_a_policy_removed_one_added_and_one_narrowed():
    after = changed(policies=[policy('dev-web', rule(['g-dev'], ['g-web'], 'tcp', ['22'], bidirectional=False)),
                              policy('ops-web', rule(['g-ops'], ['g-web']))])
    found = reach_difference(BEFORE, after)
    # by peer name (case apart), then destination; a loss before a gain
    assert [item['line'] for item in found] == [
        'laptop-ana loses db-1 tcp 5432', 'laptop-ana loses web-1 tcp 443', 'Ops-1 gains web-1 all', 'web-1 gains Ops-1 all']
    assert found[1] == dict(
        peer='laptop-ana', peer_id='p-ana', change='loses', kind='peer', target='web-1', target_id='p-web',
        address='100.64.0.3', traffic=dict(tcp=['443'], udp=[], icmp=False, other=False), text='tcp 443',
        before='tcp 22, 443', after='tcp 22', posture_checks=[], line='laptop-ana loses web-1 tcp 443')
    # and back: the same items the other way round
    assert lines(after, BEFORE) == [
        'laptop-ana gains db-1 tcp 5432', 'laptop-ana gains web-1 tcp 443', 'Ops-1 loses web-1 all', 'web-1 loses Ops-1 all']


def test_a_disabled_policy_or_rule_grants_nothing_and_a_policy_without_enabled_is_in_force():
    off = changed(policies=[dict(BEFORE['policies'][0], enabled=False),
                            policy('dev-web', dict(BEFORE['policies'][1]['rules'][0], enabled=False))])
    assert lines(BEFORE, off) == ['laptop-ana loses db-1 tcp 5432', 'laptop-ana loses web-1 tcp 22, 443']
    created = {key: value for key, value in policy('ops-web', rule(['g-ops'], ['g-db'], 'udp', ['53'], False)).items() if key != 'enabled'}
    assert lines(BEFORE, changed(policies=BEFORE['policies'] + [created])) == ['Ops-1 gains db-1 udp 53']


def test_drop_wins_so_a_drop_rule_takes_reach_away():
    after = changed(policies=BEFORE['policies'] + [policy('no-ssh', rule(['g-dev'], ['g-web'], 'tcp', ['22'], False, 'drop'))])
    assert lines(BEFORE, after) == ['laptop-ana loses web-1 tcp 22']
    allow_all = changed(policies=[policy('Default', rule(['g-all'], ['g-all']))])
    assert lines(BEFORE, allow_all)[:3] == ['db-1 gains laptop-ana all', 'db-1 gains Ops-1 all', 'db-1 gains web-1 all']
    assert 'laptop-ana gains db-1 all except tcp 5432' in lines(BEFORE, allow_all)


def test_membership_comes_from_the_groups_not_from_the_peers_own_list():
    # the planned group no longer holds laptop-ana, whose peer entry still says it is in g-dev
    peers = [dict(PEERS[0], groups=[{'id': 'g-dev'}])] + PEERS[1:]
    before = dict(BEFORE, peers=peers)
    after = dict(before, groups=[group('g-dev', 'p-ops') if g['id'] == 'g-dev' else g for g in GROUPS])
    assert lines(before, after) == ['laptop-ana loses db-1 tcp 5432', 'laptop-ana loses web-1 tcp 22, 443',
                                    'Ops-1 gains db-1 tcp 5432', 'Ops-1 gains web-1 tcp 22, 443']


def test_a_planned_group_and_policy_with_placeholder_ids_and_ports_as_options_give_them():
    after = changed(groups=GROUPS + [dict(id='(new group admins)', name='admins', peers=['p-web'])],
                    policies=BEFORE['policies'] + [dict(name='admins', rules=[dict(
                        name='r', enabled=True, action='accept', bidirectional=False, protocol='udp', ports=['5432-5433'],
                        sources=['(new group admins)'], destinations=['g-db'])])])
    assert lines(BEFORE, after) == ['web-1 gains db-1 udp 5432-5433']


def test_a_route_is_lost_with_the_policy_that_connected_its_client_to_its_routing_peer():
    route = dict(id='r-lan', network_id='lan', network='10.1.0.0/16', enabled=True, peer='p-web', groups=[{'id': 'g-dev'}])
    before = dict(BEFORE, routes=[route])
    after = dict(before, policies=BEFORE['policies'][:1])
    found = reach_difference(before, after)
    assert [item['line'] for item in found] == ['laptop-ana loses web-1 tcp 22, 443', 'laptop-ana loses lan (10.1.0.0/16) all']
    assert (found[1]['kind'], found[1]['target_id'], found[1]['address']) == ('route', 'r-lan', '10.1.0.0/16')


def test_posture_checks_are_named_not_evaluated():
    after = changed(policies=[policy('ops-db', rule(['g-ops'], ['g-db'], 'tcp', ['5432'], False), source_posture_checks=['pc-1'])]
                    + BEFORE['policies'])
    found = reach_difference(BEFORE, after, {'pc-1': 'min version'})
    assert [(item['line'], item['posture_checks']) for item in found] == [('Ops-1 gains db-1 tcp 5432', ['min version'])]


def test_the_diff_gives_each_changed_pair_before_and_after():
    after = changed(policies=BEFORE['policies'][1:] + [policy('ops-web', rule(['g-ops'], ['g-web']))])
    assert reach_diff(reach_difference(BEFORE, after)) == dict(
        before_header='reach of the peers', after_header='reach of the peers',
        before='laptop-ana -> db-1 (peer): tcp 5432\nOps-1 -> web-1 (peer): nothing\nweb-1 -> Ops-1 (peer): nothing\n',
        after='laptop-ana -> db-1 (peer): nothing\nOps-1 -> web-1 (peer): all\nweb-1 -> Ops-1 (peer): all\n')


def test_the_drift_report_lists_the_reach_and_keeps_it_out_of_the_changes_diffs():
    after = changed(policies=BEFORE['policies'][1:])
    reach = reach_difference(BEFORE, after)
    reach[0]['target_id'] = '(new peer x)'
    change = dict(kind='policies', name='dev-db', action='deleted', pruned=False, id='pol-dev-db')
    result = dict(changed=True, changes=[change], summary={'policies': {'would_delete': 1}},
                  diff=[dict(before={'name': 'dev-db'}, after={}), reach_diff(reach)], reach_changes=reach)
    report = drift_report(result)
    assert report['diff'] == [dict(before={'name': 'dev-db'}, after={})]
    assert [item['line'] for item in report['reach']] == ['laptop-ana loses db-1 tcp 5432']
    assert 'target_id' not in report['reach'][0] and report['reach'][0]['peer_id'] == 'p-ana'
    assert report['message'] == ('Drift: 1 change, in policies (would delete 1: dev-db); reach: laptop-ana loses db-1 tcp 5432 '
                                 '(1 peer, 1 in all)')
    # not worked out: null; no reach change: [] and the message as before
    assert drift_report(dict(result, diff=result['diff'][:1], reach_changes=None))['reach'] is None
    quiet = drift_report(dict(result, diff=result['diff'][:1], reach_changes=[]))
    assert quiet['reach'] == [] and quiet['message'] == 'Drift: 1 change, in policies (would delete 1: dev-db)'
    assert drift_report({}, error='boom')['reach'] is None
