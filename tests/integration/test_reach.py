# -*- coding: utf-8 -*-
"""network_state's reach prediction (reach_changes) through real HTTP against the emulator, both dialects: check mode
predicts, the run makes it true (the reach the server's state then gives differs from the reach before by exactly
the prediction), the requests it costs, and an unchanged run that costs nothing more."""

from __future__ import annotations

import json

from ansible_collections.nms.overlay.plugins.module_utils._reach import reach_difference
from tests.support.emulator import make_peers, writes_of as writes

HOSTS = ('laptop-ana', 'db-1', 'web-1', 'ops-1')
GROUPS = [{'name': 'developers', 'peers': ['laptop-ana']}, {'name': 'db', 'peers': ['db-1']},
          {'name': 'web', 'peers': ['web-1']}, {'name': 'ops', 'peers': ['ops-1']}]
DEV_DB = {'name': 'developers to db', 'rules': [{'name': 'pg', 'bidirectional': False, 'protocol': 'tcp', 'ports': ['5432'],
                                                 'sources': ['developers'], 'destinations': ['db']}]}
DEV_WEB = {'name': 'developers to web', 'rules': [{'name': 'ssh', 'bidirectional': False, 'protocol': 'tcp',
                                                   'ports': ['22', '443'], 'sources': ['developers'], 'destinations': ['web']}]}
OPS_WEB = {'name': 'ops to web', 'rules': [{'name': 'all', 'protocol': 'all', 'sources': ['ops'], 'destinations': ['web']}]}
# the change: a policy added, one removed, one narrowed
CHANGE = dict(groups=GROUPS, default_policy='disable',
              policies=[dict(DEV_DB, state='absent'), OPS_WEB,
                        dict(DEV_WEB, rules=[dict(DEV_WEB['rules'][0], ports=['22'])])])
EXPECTED = ['laptop-ana loses db-1 tcp 5432', 'laptop-ana loses web-1 tcp 443', 'ops-1 gains web-1 all', 'web-1 gains ops-1 all']


def state_task(name='network', **description):
    return {'name': name, 'nms.overlay.network_state': description}


def server_state(emulator):
    """The lists reach depends on, as the server answers them now."""
    return {kind: emulator.ok('GET', '/api/' + kind) for kind in ('policies', 'groups', 'peers', 'routes')}


def gets(emulator):
    return sorted(r['path'].split('?')[0] for r in emulator.requests() if r['method'] == 'GET')


def setup(emulator, run):
    make_peers(emulator, *HOSTS)
    result = run([state_task(groups=GROUPS, policies=[DEV_DB, DEV_WEB], default_policy='disable')])
    assert result.rc == 0, result['network']
    emulator.clear_log()


def test_check_mode_says_who_gains_and_who_loses_reach_and_the_run_makes_it_true(emulator, run):
    setup(emulator, run)
    before = server_state(emulator)
    emulator.clear_log()
    preview = run([state_task(**CHANGE)], check=True, diff=True)['network']
    assert writes(emulator) == []
    assert [item['line'] for item in preview['reach_changes']] == EXPECTED
    lost = preview['reach_changes'][1]
    assert (lost['peer'], lost['change'], lost['kind'], lost['target'], lost['before'], lost['after']) == (
        'laptop-ana', 'loses', 'peer', 'web-1', 'tcp 22, 443', 'tcp 22')
    assert lost['traffic'] == {'tcp': ['443'], 'udp': [], 'icmp': False, 'other': False}
    assert preview['diff'][-1] == {
        'before_header': 'reach of the peers', 'after_header': 'reach of the peers',
        'before': 'laptop-ana -> db-1 (peer): tcp 5432\nlaptop-ana -> web-1 (peer): tcp 22, 443\n'
                  'ops-1 -> web-1 (peer): nothing\nweb-1 -> ops-1 (peer): nothing\n',
        'after': 'laptop-ana -> db-1 (peer): nothing\nlaptop-ana -> web-1 (peer): tcp 22\n'
                 'ops-1 -> web-1 (peer): all\nweb-1 -> ops-1 (peer): all\n'}
    assert 'network_state: reach: ' + '; '.join(EXPECTED) in preview['progress']
    # what it cost: the run's own reads (the peers among them: the groups name them), and the routes once, for reach
    check_reads = gets(emulator)
    emulator.clear_log()
    without = run([state_task(reach=False, **CHANGE)], check=True)['network']
    assert 'reach_changes' not in without
    assert sorted(check_reads) == sorted(gets(emulator) + ['/api/routes'])

    emulator.clear_log()
    applied = run([state_task(**CHANGE)])['network']
    assert applied['changed'] is True
    assert applied['reach_changes'] == preview['reach_changes']
    # the server's state now: the reach it gives differs from the reach before by exactly the prediction
    assert [item['line'] for item in reach_difference(before, server_state(emulator))] == EXPECTED


def test_a_run_that_changes_no_reach_kind_reads_nothing_more(emulator, run):
    setup(emulator, run)
    unchanged = run([state_task(groups=GROUPS, policies=[DEV_DB, DEV_WEB], default_policy='disable')])['network']
    assert unchanged['changed'] is False
    assert unchanged['reach_changes'] == []
    reads = gets(emulator)
    emulator.clear_log()
    assert 'reach_changes' not in run([state_task(groups=GROUPS, policies=[DEV_DB, DEV_WEB], default_policy='disable',
                                                  reach=False)])['network']
    assert reads == gets(emulator)
    assert '/api/routes' not in reads
    # a change of a kind reach does not depend on: no read for reach either
    emulator.clear_log()
    other = run([state_task(groups=GROUPS, setup_keys=[{'name': 'ci', 'type': 'reusable', 'auto_groups': ['web']}])],
                check=True)['network']
    assert other['changed'] is True and other['reach_changes'] == []
    assert '/api/routes' not in gets(emulator)


def test_a_membership_change_and_a_new_group_move_reach(emulator, run):
    setup(emulator, run)
    before = server_state(emulator)
    change = dict(groups=[dict(GROUPS[0], peers=['laptop-ana', 'ops-1']), GROUPS[1], {'name': 'admins', 'peers': ['web-1']}],
                  policies=[{'name': 'admins to db', 'rules': [{'name': 'pg', 'bidirectional': False, 'protocol': 'udp',
                                                                'ports': ['5432', '5433'], 'sources': ['admins'],
                                                                'destinations': ['db']}]}])
    preview = run([state_task(**change)], check=True)['network']
    expected = ['ops-1 gains db-1 tcp 5432', 'ops-1 gains web-1 tcp 22, 443', 'web-1 gains db-1 udp 5432-5433']
    assert [item['line'] for item in preview['reach_changes']] == expected
    assert run([state_task(**change)])['network']['reach_changes'] == preview['reach_changes']
    assert [item['line'] for item in reach_difference(before, server_state(emulator))] == expected


def test_bad_reach_peer_limit_and_a_limit_exceeded(emulator, run):
    setup(emulator, run)
    result = run([state_task(reach_peer_limit=2, **CHANGE)], check=True)['network']
    assert 'reach_changes' not in result
    assert any('reach: not worked out for 4 peers, more than reach_peer_limit (2)' in w for w in result['warnings'])
    emulator.clear_log()
    bad = run([state_task(reach_peer_limit=-1, **CHANGE)])['network']
    assert bad['failed'] is True and bad['msg'] == (
        'option reach_peer_limit: must be 0 or more (the most peers for which reach is worked out), got -1')
    assert writes(emulator) == []


def test_the_drift_report_says_who_would_gain_and_who_would_lose_reach(emulator, run, tmp_path):
    setup(emulator, run)
    markdown, data = tmp_path / 'drift.md', tmp_path / 'drift.json'
    result = run([], playbook='nms.overlay.drift_report', verbosity=0, extra_vars={
        'network_description': CHANGE, 'nms_drift_report_markdown': str(markdown), 'nms_drift_report_json': str(data)})
    assert result.rc != 0  # drift
    report = json.loads(data.read_text(encoding='utf-8'))
    assert [item['line'] for item in report['reach'] or []] == EXPECTED, report['message']
    assert len(report['diff']) == report['changes_count']  # the reach is not one of the changes' diffs
    assert report['message'].endswith('; reach: %s, ... (3 peers, 4 in all)' % ', '.join(EXPECTED[:3]))
    text = markdown.read_text(encoding='utf-8')
    assert '## Who would gain and who would lose reach' in text
    assert '| laptop-ana | lose | web-1 (peer) | tcp 443 | tcp 22, 443 | tcp 22 |' in text
    assert '| ops-1 | gain | web-1 (peer) | all | nothing | all |' in text
    assert writes(emulator) == []
