# -*- coding: utf-8 -*-
"""Issue 42, 7, on the real v0.27.6 and v0.77.1 with real agents (tests/support/realagents.py): network_state in
check mode says who gains and who loses reach (reach_changes) before a change that adds one policy, removes one and
narrows one, and the drift report says the same; the run returns the same prediction; then the agents' network maps change by exactly what it predicted
(each agent's peers, ``Agents.reached``, polled for a few seconds while the server sends the new maps)."""

from __future__ import annotations

import concurrent.futures
import time

import pytest

from ansible_collections.nms.overlay.plugins.filter.drift_report import drift_report
from tests.integration.test_real_servers import connection, started
from tests.support.realagents import Agents
from tests.support.realserver import RELEASES

pytestmark = pytest.mark.real

ANA, DB, WEB, OPS = HOSTS = ('reach-ana', 'reach-db', 'reach-web', 'reach-ops')
GROUPS = [{'name': 'developers', 'peers': [ANA]}, {'name': 'db', 'peers': [DB]}, {'name': 'web', 'peers': [WEB]},
          {'name': 'ops', 'peers': [OPS]}]
DEV_DB = {'name': 'developers to db', 'rules': [{'name': 'pg', 'bidirectional': False, 'protocol': 'tcp', 'ports': ['5432'],
                                                 'sources': ['developers'], 'destinations': ['db']}]}
DEV_WEB = {'name': 'developers to web', 'rules': [{'name': 'web', 'bidirectional': False, 'protocol': 'tcp',
                                                   'ports': ['22', '443'], 'sources': ['developers'], 'destinations': ['web']}]}
OPS_WEB = {'name': 'ops to web', 'rules': [{'name': 'all', 'protocol': 'all', 'sources': ['ops'], 'destinations': ['web']}]}
FIRST = dict(groups=GROUPS, policies=[DEV_DB, DEV_WEB], default_policy='disable')
CHANGE = dict(groups=GROUPS, default_policy='disable',
              policies=[dict(DEV_DB, state='absent'), OPS_WEB, dict(DEV_WEB, rules=[dict(DEV_WEB['rules'][0], ports=['22'])])])
PREDICTED = ['%s loses %s tcp 5432' % (ANA, DB), '%s loses %s tcp 443' % (ANA, WEB), '%s gains %s all' % (OPS, WEB),
             '%s gains %s all' % (WEB, OPS)]
MAP_WAIT = 20  # seconds for the server to send the agents their new network maps


@pytest.fixture(scope='module', params=RELEASES)
def agents_server(request):
    """A real server of the release with four agents joined (in parallel); it and its agents stop after the module,
    also when something fails."""
    server = next(started(request.param), None)  # started skips or fails when there is none
    try:
        agents = Agents(server)
        key = server.ok('POST', '/api/setup-keys', {
            'name': 'reach', 'type': 'reusable', 'expires_in': 86400, 'auto_groups': [], 'usage_limit': 0})['key']
        with concurrent.futures.ThreadPoolExecutor(len(HOSTS)) as pool:
            addresses = dict(zip(HOSTS, (found['NB_AGENT_IP'].split('/')[0] for found in pool.map(
                lambda host: agents.up(host, key=key), HOSTS))))
        yield server, agents, addresses
    finally:
        server.stop()  # its agents too


def maps(agents, addresses):
    """{host: the hosts whose peers its network map lists} (other peers of the server left out)."""
    host_of = {address: host for host, address in addresses.items()}
    with concurrent.futures.ThreadPoolExecutor(len(HOSTS)) as pool:
        found = dict(zip(HOSTS, pool.map(agents.reached, HOSTS)))
    return {host: sorted(host_of[a] for a in reached if a in host_of) for host, reached in found.items()}


def maps_once(agents, addresses, expected, started_at):
    """The maps once they are ``expected`` (polled for MAP_WAIT seconds), else the last ones read; and when."""
    while True:
        now = maps(agents, addresses)
        if now == expected or time.monotonic() - started_at > MAP_WAIT:
            return now, time.monotonic() - started_at
        time.sleep(0.5)


def predicted_maps(before, changes):
    """The agents' maps after the change, as the prediction says: a peer lists another when either reaches the other.
    A pair the prediction touches is connected afterwards when a way it names reaches something after; a way it does
    not name keeps what it had, which was something exactly when the pair was connected and no named way reached
    anything before (this test's rules leave no other case)."""
    ways = {}
    for item in changes:
        ways.setdefault(frozenset((item['peer'], item['target'])), {})[(item['peer'], item['target'])] = item
    after = {host: set(peers) for host, peers in before.items()}
    for pair, named in ways.items():
        one, other = sorted(pair)
        was = other in before[one]
        kept = len(named) < 2 and was and all(item['before'] == 'nothing' for item in named.values())
        now = kept or any(item['after'] != 'nothing' for item in named.values())
        for host, peer in ((one, other), (other, one)):
            (after[host].add if now else after[host].discard)(peer)
    return {host: sorted(peers) for host, peers in after.items()}


def test_the_predicted_reach_is_what_the_agents_network_maps_then_show(agents_server, run):
    server, agents, addresses = agents_server
    env = connection(server)
    first = run([{'name': 'first', 'nms.overlay.network_state': FIRST}], env=env)
    assert first.rc == 0, first['first']
    before, dummy = maps_once(agents, addresses, {ANA: [DB, WEB], DB: [ANA], WEB: [ANA], OPS: []}, time.monotonic())
    assert before == {ANA: [DB, WEB], DB: [ANA], WEB: [ANA], OPS: []}

    server.clear_log()
    preview = run([{'name': 'preview', 'nms.overlay.network_state': CHANGE}], env=env, check=True)['preview']
    assert server.writes() == []
    assert [item['line'] for item in preview['reach_changes']] == PREDICTED, preview
    check_reads = sorted(r['path'].split('?')[0] for r in server.requests())
    server.clear_log()
    plain = run([{'name': 'plain', 'nms.overlay.network_state': dict(CHANGE, reach=False)}], env=env, check=True)['plain']
    assert 'reach_changes' not in plain
    # what the prediction costs: one request, the routes (the run reads the groups, peers and policies anyway)
    assert check_reads == sorted([r['path'].split('?')[0] for r in server.requests()] + ['/api/routes'])

    # the drift report (its filter on this check-mode result: the playbook's own run is test_reach.py's, against the
    # emulator, ~20 s an ansible-playbook run on a loaded machine) says the same
    report = drift_report(preview)
    assert report['reach'] == preview['reach_changes'] and report['message'].endswith('(3 peers, 4 in all)')

    expected = predicted_maps(before, preview['reach_changes'])
    assert expected == {ANA: [WEB], DB: [], WEB: [ANA, OPS], OPS: [WEB]}
    applied = run([{'name': 'apply', 'nms.overlay.network_state': CHANGE}], env=env)['apply']
    assert applied['changed'] is True
    assert applied['reach_changes'] == preview['reach_changes']
    after, waited = maps_once(agents, addresses, expected, time.monotonic())
    assert after == expected, 'after %.1f s, the agents show %s, not the predicted %s' % (waited, after, expected)
    print('%s: the agents showed the predicted maps %.1f s after the run' % (server.dialect, waited))

    # the same description again: unchanged, no reach changes, and not one request more than without reach
    server.clear_log()
    again = run([{'name': 'again', 'nms.overlay.network_state': CHANGE}], env=env)['again']
    assert again['changed'] is False and again['reach_changes'] == []
    unchanged_reads = len(server.requests())
    server.clear_log()
    run([{'name': 'again', 'nms.overlay.network_state': dict(CHANGE, reach=False)}], env=env)
    assert unchanged_reads == len(server.requests())
