# -*- coding: utf-8 -*-
# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The access report, the export and the drift report of a big network (issue 43, item 5), timed from outside.

An emulator account (netbird dialect) is seeded with a bare ``requests`` loop, not through the collection: BIG is 1,000
groups, 2,000 policies, 500 peers (each in three groups beside All), 50 routes and 5 posture checks, drawn from a fixed
seed (``seed``). Then, each ``repeats`` times, interleaved:

- ``ansible-playbook nms.overlay.access_report`` (its default limits: the pair-by-pair list, no peer-by-peer part at
  500 peers), ``nms.overlay.export_network``, and ``nms.overlay.drift_report`` of that export after a few changes made
  on the server (``drift``);
- the reads of each: the GETs the emulator logged during the playbook, sent again with one ``requests`` session and
  nothing else.

Each playbook's figures: wall seconds, CPU seconds and peak resident memory of ``ansible-playbook`` and the processes
it waited for (``os.wait4``), and the load average before it. ``python -m tests.bench.access_report [--repeats 3]
[--mid]`` prints them; ``make bench`` puts them in docs/performance.md (``section``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import requests

from tests.support.emulator import READ_METHODS, start_emulator

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CALLBACKS = os.path.join(REPO, 'tests', 'bench', 'callback')
BIG = dict(groups=1000, policies=2000, peers=500, routes=50, posture_checks=5)
MID = dict(groups=60, policies=120, peers=40, routes=8, posture_checks=3)  # the golden test's (tests/unit/test_access_report_golden.py)
SEED = 7
TARGETS = dict(access_report=10.0, export=2.0, drift=2.0)  # seconds; × the reads; × the reads
PLAYS = ('access_report', 'export', 'drift')
PROTOCOLS = (('tcp', 6), ('udp', 2), ('all', 1), ('icmp', 1))
PORTS = ('22', '80', '443', '5432', '6379', '8080', '9090', '53', '3000', '25')  # v0.27 takes no port ranges


def network(sizes, seed=SEED):
    """The seed's network as data (names, never ids): {'groups': [{name, peers: [peer indexes]}], 'policies': [...],
    'routes': [...], 'posture_checks': [...]}. Policy i has one rule (one in four has two), 1 to 3 source and
    destination groups, tcp mostly, one in twenty a drop rule, one in twenty disabled, one in ten a posture check."""
    rng = random.Random(seed)
    groups = ['grp-%04d' % index for index in range(sizes['groups'])]
    members = {name: [] for name in groups}
    for peer in range(sizes['peers']):
        for name in rng.sample(groups, min(3, len(groups))):
            members[name].append(peer)
    checks = [{'name': 'agent-%d' % index, 'checks': {'nb_version_check': {'min_version': '0.%d.0' % (20 + index)}}}
              for index in range(sizes['posture_checks'])]
    weighted = [protocol for protocol, weight in PROTOCOLS for dummy in range(weight)]
    policies = []
    for index in range(sizes['policies']):
        rules = []
        for number in range(2 if index % 4 == 0 else 1):
            protocol = rng.choice(weighted)
            ports = sorted(rng.sample(PORTS, rng.randint(1, 3))) if protocol in ('tcp', 'udp') else []
            rules.append(dict(name='rule-%d' % number, description='', enabled=index % 37 != 5,
                              action='drop' if index % 20 == 3 else 'accept',
                              bidirectional=protocol in ('all', 'icmp') or rng.random() < 0.5, protocol=protocol, ports=ports,
                              sources=rng.sample(groups, rng.randint(1, 3)), destinations=rng.sample(groups, rng.randint(1, 3))))
        policies.append(dict(name='pol-%04d' % index, description='policy %d' % index, enabled=index % 20 != 7, rules=rules,
                             source_posture_checks=[checks[index % len(checks)]['name']] if checks and index % 10 == 1 else []))
    routes = [dict(network_id='net-%03d' % index, network='10.%d.%d.0/24' % (index // 250, index % 250), peer=index % sizes['peers'],
                   groups=rng.sample(groups, 2), access_control_groups=rng.sample(groups, 1) if index % 3 == 0 else [])
              for index in range(sizes['routes'])]
    return dict(groups=[dict(name=name, peers=members[name]) for name in groups], policies=policies, routes=routes,
                posture_checks=checks)


class Loop:
    """One ``requests`` session as the seeded owner."""

    def __init__(self, emulator):
        self.url = emulator.url
        self.session = requests.Session()
        self.session.headers.update({'Authorization': 'Token %s' % emulator.token, 'Accept': 'application/json'})

    def call(self, method, path, body=None):
        answer = self.session.request(method, self.url + path, json=body, timeout=120)
        if answer.status_code >= 400:
            raise AssertionError('%s %s -> %d: %s (sent %s)' % (method, path, answer.status_code, answer.text[:500], json.dumps(body)[:500]))
        return answer.json() if answer.content else None


def seed(emulator, sizes, seed_number=SEED):
    """The network of ``network(sizes, seed_number)`` on the emulator's account, with a bare requests loop."""
    data = network(sizes, seed_number)
    loop = Loop(emulator)
    peer_ids = emulator.add_peers(count=sizes['peers'])['ids']
    checks = {check['name']: loop.call('POST', '/api/posture-checks', check)['id'] for check in data['posture_checks']}
    groups = {group['name']: loop.call('POST', '/api/groups', {'name': group['name'], 'peers': [peer_ids[i] for i in group['peers']]})['id']
              for group in data['groups']}
    for policy in data['policies']:
        body = dict(policy, source_posture_checks=[checks[name] for name in policy['source_posture_checks']],
                    rules=[dict(rule, sources=[groups[g] for g in rule['sources']], destinations=[groups[g] for g in rule['destinations']])
                           for rule in policy['rules']])
        loop.call('POST', '/api/policies', body)
    for route in data['routes']:
        loop.call('POST', '/api/routes', dict(route, peer=peer_ids[route['peer']], groups=[groups[g] for g in route['groups']],
                                              access_control_groups=[groups[g] for g in route['access_control_groups']],
                                              description='', enabled=True, masquerade=True, metric=9999))
    return data


def drift(emulator, count=10):
    """Changes made by hand on the server, for the drift report: ``count`` policies get another port on their first
    rule, and a group loses a peer."""
    loop = Loop(emulator)
    policies = sorted(loop.call('GET', '/api/policies'), key=lambda p: p['name'])
    changed = 0
    for policy in policies:
        rule = (policy.get('rules') or [{}])[0]
        if changed >= count or rule.get('protocol') != 'tcp':
            continue
        body = dict(policy, source_posture_checks=[c['id'] if isinstance(c, dict) else c for c in policy.get('source_posture_checks') or []],
                    rules=[dict(r, sources=[g['id'] for g in r.get('sources') or []], destinations=[g['id'] for g in r.get('destinations') or []],
                                ports=list(r.get('ports') or []) + (['7777'] if number == 0 else []))
                           for number, r in enumerate(policy['rules'])])
        loop.call('PUT', '/api/policies/%s' % policy['id'], body)
        changed += 1
    group = sorted((g for g in loop.call('GET', '/api/groups') if g['name'] != 'All' and g.get('peers')), key=lambda g: g['name'])[0]
    loop.call('PUT', '/api/groups/%s' % group['id'], {'name': group['name'], 'peers': [p['id'] for p in group['peers'][1:]]})


def environment(emulator, workdir, record):
    collections = os.path.join(workdir, 'collections')
    link = os.path.join(collections, 'ansible_collections', 'nms', 'overlay')
    if not os.path.exists(link):
        os.makedirs(os.path.dirname(link))
        os.symlink(REPO, link)
    env = {k: v for k, v in os.environ.items() if not k.startswith(('ANSIBLE_', 'NMS_')) and k != 'PYTHONDONTWRITEBYTECODE'}
    env.update(NMS_API_URL=emulator.url, NMS_API_TOKEN=emulator.token, ANSIBLE_COLLECTIONS_PATH=collections,
               ANSIBLE_LOCALHOST_WARNING='False', ANSIBLE_INVENTORY_UNPARSED_WARNING='False', ANSIBLE_NOCOLOR='1',
               ANSIBLE_PYTHON_INTERPRETER=sys.executable, ANSIBLE_LOCAL_TEMP=os.path.join(workdir, 'tmp'),
               ANSIBLE_CALLBACK_PLUGINS=CALLBACKS, ANSIBLE_CALLBACKS_ENABLED='benchtimer', NMS_BENCH_FILE=record)
    return env


def command(play, workdir, peers):  # pylint: disable=unused-argument
    """The ansible-playbook command of one play, and the return codes that count as success."""
    playbook = os.path.join(os.path.dirname(sys.executable), 'ansible-playbook')
    if play == 'access_report':
        # the default limits: 1,000 groups list who reaches whom pair by pair, 500 peers are over the peer-by-peer limit
        # (250); worked out for every peer the report has 249,500 peer rows, hours of templating (docs/performance.md)
        return [playbook, 'nms.overlay.access_report', '-e', 'nms_access_report_json=access.json'], (0,)
    if play == 'export':
        return [playbook, 'nms.overlay.export_network', '-e', 'nms_export_file=network.yml'], (0,)
    # rc 2: the drift report's failure when the network drifted (it did: see drift)
    return [playbook, 'nms.overlay.drift_report', '-e', 'nms_drift_description_file=%s' % os.path.join(workdir, 'golden-network.yml')], (0, 2)


def run_play(emulator, workdir, play, peers):
    """One ansible-playbook of ``play``: wall and CPU seconds, peak RSS (MiB) of it and the processes it waited for,
    the load average before, its GETs as the emulator logged them, the tasks' seconds (benchtimer)."""
    record = os.path.join(workdir, 'record-%s.json' % play)
    argv, good = command(play, workdir, peers)
    emulator.clear_log()
    load = os.getloadavg()[0]
    started = time.perf_counter()
    with open(os.path.join(workdir, 'out-%s.txt' % play), 'w', encoding='utf-8') as out:
        process = subprocess.Popen(  # pylint: disable=consider-using-with
            argv, cwd=workdir, env=environment(emulator, workdir, record), stdout=out, stderr=subprocess.STDOUT)
        dummy_pid, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in good:
        with open(os.path.join(workdir, 'out-%s.txt' % play), encoding='utf-8') as handle:
            raise AssertionError('%s failed (rc %d):\n%s' % (play, process.returncode, handle.read()[-6000:]))
    gets = [(entry['path'], entry.get('query') or '') for entry in emulator.requests() if entry['method'].upper() in READ_METHODS]
    with open(record, encoding='utf-8') as handle:
        tasks = {entry['task']: entry['seconds'] for entry in json.load(handle)}
    return dict(wall=wall, cpu=usage.ru_utime + usage.ru_stime, maxrss_mib=usage.ru_maxrss / 1024.0, load=load, gets=gets,
                tasks=tasks, rc=process.returncode)


def bare_reads(emulator, gets):
    """Seconds of the same GETs with one requests session and nothing else (answers parsed as JSON, as clients do)."""
    loop = Loop(emulator)
    started = time.perf_counter()
    for path, query in gets:  # as the playbook got them (a 404 of a probe too)
        answer = loop.session.get(loop.url + path + ('?' + query if query else ''), timeout=120)
        if answer.ok and answer.content:
            answer.json()
    return time.perf_counter() - started


def measure(workdir, sizes=None, repeats=3):
    """Seed an emulator, then ``repeats`` rounds of the three plays and their reads: the figures, medians first."""
    sizes = sizes or BIG
    emulator = start_emulator('netbird', workdir, timeout=120)
    runs = {play: [] for play in PLAYS}
    try:
        emulator.timeout = 300
        started = time.perf_counter()
        seed(emulator, sizes)
        seeded = time.perf_counter() - started
        # the description the drift report compares with: the export before the drift
        run_play(emulator, workdir, 'export', sizes['peers'])
        os.replace(os.path.join(workdir, 'network.yml'), os.path.join(workdir, 'golden-network.yml'))
        drift(emulator)
        for dummy_round in range(repeats):
            for play in PLAYS:
                figures = run_play(emulator, workdir, play, sizes['peers'])
                figures['reads'] = bare_reads(emulator, figures['gets'])
                runs[play].append(figures)
    finally:
        emulator.stop()
    result = dict(sizes=dict(sizes), seed_seconds=seeded, repeats=repeats, plays={})
    for play, figures in runs.items():
        def med(key, figures=figures):
            return statistics.median(f[key] for f in figures)
        tasks = {}
        for name in figures[0]['tasks']:
            tasks[name] = statistics.median(f['tasks'].get(name, 0.0) for f in figures)
        result['plays'][play] = dict(
            wall=med('wall'), cpu=med('cpu'), maxrss_mib=med('maxrss_mib'), reads=med('reads'), walls=[f['wall'] for f in figures],
            loads=[f['load'] for f in figures], requests=len(figures[0]['gets']), ratio=med('wall') / med('reads'),
            tasks=dict(sorted(tasks.items(), key=lambda item: -item[1])[:4]))
    return result


def report_figures(result):
    """The figures as docs/performance.json keeps them (measure's result holds no output nor request log)."""
    return dict(result, targets=TARGETS)


def verdict(play, figures):
    if play == 'access_report':
        return 'met' if figures['wall'] <= TARGETS[play] else 'missed'
    return 'met' if figures['ratio'] <= TARGETS[play] else 'missed'


def section(result):
    """docs/performance.md's section of item 5 (bench.py's page)."""
    sizes = result['sizes']
    rows = []
    labels = dict(access_report='access report (`nms.overlay.access_report`, default limits)',
                  export='export (`nms.overlay.export_network`)', drift='drift report (`nms.overlay.drift_report`, 11 changes)')
    for play in PLAYS:
        f = result['plays'][play]
        target = '<= %g s' % TARGETS[play] if play == 'access_report' else '<= %g x the reads' % TARGETS[play]
        rows.append('| %s | %.2f | %.2f | %.0f | %d GETs, %.2f s | %.1f | %s | %s |' % (
            labels[play], f['wall'], f['cpu'], f['maxrss_mib'], f['requests'], f['reads'], f['ratio'], target, verdict(play, f)))
    return ('## 6. The access report, the export and the drift report of a big network\n\n'
            '%d groups, %d policies, %d peers (each in 3 groups beside All), %d routes, %d posture checks on an emulator account '
            '(`netbird` dialect), seeded by a bare `requests` loop (tests/bench/access_report.py). Each playbook is one '
            '`ansible-playbook`, timed from outside; CPU and peak memory are those of `ansible-playbook` and the processes it '
            'waited for (`os.wait4`); the reads are the GETs the emulator logged during the playbook, sent again with one '
            '`requests` session. Medians of %d interleaved rounds.\n\n'
            '| playbook | wall s | CPU s | peak RSS MiB | reads | ÷ reads | target | met/missed |\n|---|---|---|---|---|---|---|---|\n%s' % (
                sizes['groups'], sizes['policies'], sizes['peers'], sizes['routes'], sizes['posture_checks'], result['repeats'], '\n'.join(rows)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--repeats', type=int, default=3)
    parser.add_argument('--mid', action='store_true', help='the mid-size network (MID) instead of BIG')
    for key in BIG:
        parser.add_argument('--' + key.replace('_', '-'), dest=key, type=int, default=None)
    args = parser.parse_args(argv)
    sizes = dict(MID if args.mid else BIG)
    sizes.update({key: getattr(args, key) for key in BIG if getattr(args, key) is not None})
    print('load average %s' % open('/proc/loadavg', encoding='utf-8').read().strip(), flush=True)
    with tempfile.TemporaryDirectory(prefix='nms-access-bench-') as workdir:
        result = measure(workdir, sizes, args.repeats)
    print(json.dumps(result, indent=1))
    print(section(result))
    return 0


if __name__ == '__main__':
    sys.exit(main())
