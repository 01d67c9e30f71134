# -*- coding: utf-8 -*-
# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Enrolment near the plainest play (issue 43, item 3): 8 real NetBird agents (tests/support/realagents.py) joining a
real v0.77.1 server with ``forks: 8``, every play timed from outside, in rounds of the same run:

- **bare joins**: the 8 agents' ``netbird up --setup-key-file`` in parallel, each with a key made before (untimed);
- **minimal play**: builtin modules only: ``uri`` makes a one-off key per host, ``copy`` writes it 0600, ``command``
  runs ``netbird up`` and ``netbird status --json``;
- **status play**: ``command`` runs ``netbird status --json`` on each joined host;
- **role**: the ``nms.overlay.enroll_hosts`` playbook (the ``enroll`` role) on the same 8 hosts, which also names each
  peer and sets its groups and removes its used key;
- **role re-run**: the same playbook again, every host joined.

Ratios: role ÷ minimal play (target 1.25), re-run ÷ status play (target 1.2). Before every play that joins, each host's
agent is stopped, its state removed, its peer and the bench's keys deleted, and its daemon started again (untimed), so
that every join starts from a running daemon that has not joined, as on a host with the agent installed. The
``enroltimer`` callback records each task's start and every host's result: the tasks each host ran (skipped ones left
out) and where the time went; the real server's recording proxy the requests of each play.

``python -m tests.bench.enrolment [--repeats 3] [--compare-python PY]`` prints the figures; ``make bench`` puts them in
docs/performance.md through :func:`measure` and :func:`section`.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import yaml

from tests.support.realagents import Agents
from tests.support.realserver import kit, start_real_server

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CALLBACKS = os.path.join(REPO, 'tests', 'bench', 'callback')
RELEASE = 'v0.77.1'
HOSTS = ['bench-e%d' % index for index in range(1, 9)]
FORKS = 8
GROUP = 'bench-enrolled'
KEY_PREFIX = 'bench-min'
TARGETS = dict(role=1.25, rerun=1.2)
PLAYS = ('bare', 'minimal', 'status', 'role', 'rerun')
LABELS = dict(bare='8 bare joins in parallel (`netbird up`, no Ansible)',
              minimal='minimal play: `uri` makes the key, `copy` writes it 0600, `command` runs `netbird up` and `status`',
              status='status play: `command` runs `netbird status --json`',
              role='the `enroll` role (`nms.overlay.enroll_hosts`), hosts not joined',
              rerun='the `enroll` role again, every host joined')


# what the profile showed, and what the role does about it (docs/performance.md's enrolment section)
EXPLAINED = (
    'With 8 hosts every task costs each host a worker process, skipped or not, and every command on a host a module '
    'process: the time is in the agents\' own commands and in the number of tasks. The role once ran 18 tasks a host on '
    'a first run (a key file made, written and removed: tempfile, copy, file; `up`, then `status` in a task of its own; '
    'set_fact after each status; an include for each step) and 6 on a re-run, besides the skipped ones: 1.73 × the '
    'plainest plays in issue 43, 2.41 and 3.31 × in this bench on the loaded machine. Now a joined '
    'host whose peer is as the variables say runs the argument check, `status --json` and a skipped include, and the '
    'peers are read once for all hosts (`run_once`, one `GET /api/peers`); a host that joins gets its key on the '
    'agent\'s standard input (`--setup-key-file /dev/stdin`: no file, no tempfile, copy or file task), runs `up` and '
    '`status --json` in one process, and the controller makes the key, removes it and sets the peer\'s name and groups '
    '(three API tasks the minimal play does not have, but for the key). The address and the daemon\'s state are '
    'variables that follow the registered status (vars/main.yml), not set_fact tasks.')


class BenchError(RuntimeError):
    """A play of the enrolment bench failed."""


def minimal_play(command):
    """The plainest play that enrols a host: builtin modules, one one-off key per host."""
    up = command + ['up', '--management-url', '{{ management_url }}', '--setup-key-file', '{{ key_file }}',
                    '--hostname', '{{ inventory_hostname }}']
    return [{'name': 'minimal enrolment', 'hosts': 'nms_enroll', 'gather_facts': False, 'vars': {
        'key_file': "{{ key_dir }}/{{ inventory_hostname }}.key"}, 'tasks': [
        {'name': 'make a one-off key', 'ansible.builtin.uri': {
            'url': "{{ lookup('ansible.builtin.env', 'NMS_API_URL') }}/api/setup-keys", 'method': 'POST',
            'headers': {'Authorization': "Token {{ lookup('ansible.builtin.env', 'NMS_API_TOKEN') }}"},
            'body_format': 'json', 'body': {'name': KEY_PREFIX + '-{{ inventory_hostname }}', 'type': 'one-off',
                                            'expires_in': 86400, 'auto_groups': [], 'usage_limit': 0}},
         'delegate_to': 'localhost', 'register': 'made', 'no_log': True},
        {'name': 'write it 0600', 'ansible.builtin.copy': {'content': '{{ made.json.key }}', 'dest': '{{ key_file }}',
                                                           'mode': '0600'}, 'no_log': True},
        {'name': 'join', 'ansible.builtin.command': {'argv': up}},
        {'name': 'status', 'ansible.builtin.command': {'argv': command + ['status', '--json']}, 'changed_when': False},
    ]}]


def status_play(command):
    return [{'name': 'status', 'hosts': 'nms_enroll', 'gather_facts': False, 'tasks': [
        {'name': 'status', 'ansible.builtin.command': {'argv': command + ['status', '--json']}, 'changed_when': False}]}]


class Bench:
    """The plays of the enrolment bench on one real server, in ``workdir``."""

    def __init__(self, workdir, server):
        self.workdir, self.server = workdir, server
        self.agents = Agents(server)
        self.command = self.agents.command()
        self.key_dir = os.path.join(workdir, 'keys')
        os.makedirs(self.key_dir, exist_ok=True)
        variables = {'ansible_connection': 'local', 'ansible_become': False, 'enroll_install_agent': False,
                     'enroll_agent_command': self.command, 'enroll_management_url': server.upstream_url,
                     'management_url': server.upstream_url, 'key_dir': self.key_dir, 'enroll_groups': [GROUP]}
        self.inventory = self.write('hosts.yml', {'nms_enroll': {'hosts': {host: {} for host in HOSTS}, 'vars': variables}})
        self.paths = dict(minimal=self.write('minimal.yml', minimal_play(self.command)),
                          status=self.write('status.yml', status_play(self.command)))
        collections = os.path.join(workdir, 'collections')
        link = os.path.join(collections, 'ansible_collections', 'nms', 'overlay')
        if not os.path.exists(link):
            os.makedirs(os.path.dirname(link))
            os.symlink(REPO, link)
        self.collections = collections
        if not [g for g in server.ok('GET', '/api/groups') if g['name'] == GROUP]:
            server.ok('POST', '/api/groups', {'name': GROUP, 'peers': []})

    def write(self, name, data):
        path = os.path.join(self.workdir, name)
        with open(path, 'w', encoding='utf-8') as handle:
            yaml.safe_dump(data, handle, sort_keys=False)
        return path

    # --- the hosts, not joined again --------------------------------------------------------------------------------
    def reset(self):
        """Every host's agent stopped and its state removed, its peers and the bench's keys deleted, then each daemon
        started again (``status``), not joined."""
        handles = [self.agents.handle(host) for host in HOSTS if os.path.isdir(self.agents.handle(host))]
        with concurrent.futures.ThreadPoolExecutor(FORKS) as pool:
            list(pool.map(lambda handle: self.agents.run('stop', handle, check=False), handles))
        for peer in self.server.ok('GET', '/api/peers'):
            if peer.get('hostname') in HOSTS:
                self.server.ok('DELETE', '/api/peers/%s' % peer['id'])
        for key in self.server.ok('GET', '/api/setup-keys'):
            if key.get('name', '').startswith((KEY_PREFIX, 'enroll-bench-e')):
                self.server.api('DELETE', '/api/setup-keys/%s' % key['id'])
        for name in os.listdir(self.key_dir):
            os.remove(os.path.join(self.key_dir, name))
        with concurrent.futures.ThreadPoolExecutor(FORKS) as pool:
            list(pool.map(lambda host: subprocess.run(self.agents.command(host) + ['status'], capture_output=True,
                                                      check=False, timeout=120), HOSTS))

    # --- the plays --------------------------------------------------------------------------------------------------
    def bare(self):
        """The 8 joins alone, in parallel, with keys made before: seconds, no Ansible."""
        files = {}
        for host in HOSTS:
            made = self.server.ok('POST', '/api/setup-keys', {'name': '%s-%s' % (KEY_PREFIX, host), 'type': 'one-off',
                                                              'expires_in': 86400, 'auto_groups': [], 'usage_limit': 0})
            files[host] = os.path.join(self.key_dir, host + '.key')
            with open(os.open(files[host], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 'w', encoding='utf-8') as handle:
                handle.write(made['key'])
        self.server.clear_log()

        def join(host):
            return subprocess.run(self.agents.command(host) + ['up', '--management-url', self.server.upstream_url,
                                                               '--setup-key-file', files[host], '--hostname', host],
                                  capture_output=True, text=True, check=False, timeout=300)
        started = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(FORKS) as pool:
            done = list(pool.map(join, HOSTS))
        seconds = time.perf_counter() - started
        failed = [(host, d.returncode, d.stderr[-500:]) for host, d in zip(HOSTS, done) if d.returncode != 0]
        if failed:
            raise BenchError('bare joins failed: %s' % failed)
        return dict(seconds=seconds, tasks=1.0, requests=0.0, profile=[])

    def playbook(self, key, python):
        """One ``ansible-playbook`` of the play ``key`` with ``python``'s virtualenv: seconds, tasks and requests per
        host, and the tasks that took the longest."""
        path = self.paths.get(key) or 'nms.overlay.enroll_hosts'
        record = os.path.join(self.workdir, 'record.json')
        if os.path.exists(record):
            os.remove(record)
        env = {k: v for k, v in os.environ.items() if not k.startswith(('ANSIBLE_', 'NMS_')) and k != 'PYTHONDONTWRITEBYTECODE'}
        env.update(NMS_API_URL=self.server.url, NMS_API_TOKEN=self.server.token, NMS_BENCH_FILE=record,
                   ANSIBLE_COLLECTIONS_PATH=self.collections, ANSIBLE_CALLBACK_PLUGINS=CALLBACKS,
                   ANSIBLE_CALLBACKS_ENABLED='enroltimer', ANSIBLE_FORKS=str(FORKS), ANSIBLE_PYTHON_INTERPRETER=python,
                   ANSIBLE_LOCALHOST_WARNING='False', ANSIBLE_NOCOLOR='1', ANSIBLE_HOST_KEY_CHECKING='False',
                   ANSIBLE_LOCAL_TEMP=os.path.join(self.workdir, 'tmp'),
                   PATH=os.path.dirname(python) + os.pathsep + os.environ.get('PATH', ''))
        command = [os.path.join(os.path.dirname(python), 'ansible-playbook'), '-i', self.inventory, path]
        self.server.clear_log()
        started = time.perf_counter()
        done = subprocess.run(command, cwd=self.workdir, env=env, capture_output=True, text=True, check=False, timeout=900)
        seconds = time.perf_counter() - started
        if done.returncode != 0:
            raise BenchError('%s (%s) failed:\n%s\n%s' % (key, python, done.stdout[-6000:], done.stderr[-2000:]))
        log = self.server.requests()
        with open(record, encoding='utf-8') as handle:
            recorded = json.load(handle)
        changed = sum(1 for r in recorded['results'] if r['status'] == 'changed')
        if key == 'rerun' and changed:
            raise BenchError('the re-run changed %d results:\n%s' % (changed, done.stdout[-6000:]))
        ran = [r for r in recorded['results'] if r['status'] != 'skipped']
        return dict(seconds=seconds, tasks=len(ran) / len(HOSTS), requests=len(log) / len(HOSTS),
                    request_kinds=kinds(log), tasks_run=sorted({r['task'] for r in ran}), profile=profile(recorded))

    def round(self, pythons, figures):
        """Every play once: bare joins, then for each python the minimal play and the status play, the role and its
        re-run (every join after a reset)."""
        self.reset()
        figures.setdefault('bare', []).append(self.bare())
        for python in pythons:
            mine = figures.setdefault(python, {})
            for keys in (('minimal', 'status'), ('role', 'rerun')):
                self.reset()
                for key in keys:
                    mine.setdefault(key, []).append(self.playbook(key, python))


def kinds(log):
    """{"METHOD /api/path": count} of a request log, ids replaced by {id}."""
    found = {}
    for entry in log:
        path = re.sub(r'^(/api/[^/]+)/[^/]+', r'\1/{id}', entry['path'])
        key = '%s %s' % (entry['method'].upper(), path)
        found[key] = found.get(key, 0) + 1
    return dict(sorted(found.items()))


def profile(recorded):
    """[(task, seconds)] of each task's wall time in the play (from its start to the next task's start), longest
    first: with the linear strategy a task ends when its last host's result is in."""
    tasks = recorded['tasks']
    ends = [t['start'] for t in tasks[1:]] + [recorded['end']]
    walls = {}
    for task, end in zip(tasks, ends):
        walls[task['task']] = walls.get(task['task'], 0.0) + end - task['start']
    return sorted(walls.items(), key=lambda item: -item[1])


def median(values):
    return statistics.median(values)


def summary(runs):
    """The median seconds of a play's runs, with the tasks, requests and profile of its median run."""
    ordered = sorted(runs, key=lambda run: run['seconds'])
    middle = ordered[(len(ordered) - 1) // 2]
    return dict(middle, seconds=median([run['seconds'] for run in runs]), all_seconds=[run['seconds'] for run in runs])


def measure(workdir, pythons, repeats=3):
    """The figures of the enrolment bench (see the module docstring), or None without the real-server kit."""
    directory, why = kit()
    if directory is None:
        return dict(skipped=why)
    loads = [list(os.getloadavg())]
    server = start_real_server(RELEASE)
    try:
        bench = Bench(workdir, server)
        figures = {}
        for index in range(repeats):
            started = time.perf_counter()
            bench.round(pythons, figures)
            loads.append(list(os.getloadavg()))
            print('enrolment: round %d of %d in %.0f s, load %s' % (index + 1, repeats, time.perf_counter() - started,
                                                                    ' '.join('%.2f' % v for v in loads[-1])), flush=True)
    finally:
        server.stop()
    report = dict(release=RELEASE, hosts=len(HOSTS), forks=FORKS, repeats=repeats, loads=loads, targets=TARGETS,
                  bare=summary(figures['bare']), pythons={})
    for python in pythons:
        plays = {key: summary(figures[python][key]) for key in ('minimal', 'status', 'role', 'rerun')}
        plays['ratio_role'] = plays['role']['seconds'] / plays['minimal']['seconds']
        plays['ratio_rerun'] = plays['rerun']['seconds'] / plays['status']['seconds']
        # the ratios of each round, whose median says how steady they are
        plays['ratios_role'] = [r['seconds'] / m['seconds'] for r, m in zip(figures[python]['role'], figures[python]['minimal'])]
        plays['ratios_rerun'] = [r['seconds'] / m['seconds'] for r, m in zip(figures[python]['rerun'], figures[python]['status'])]
        report['pythons'][python] = plays
    return report


def verdicts(report):
    """{measure: {python: 'met'|'missed'}} of the two ratios, for bench.py's verdicts."""
    found = {}
    for python, plays in (report.get('pythons') or {}).items():
        for key in ('role', 'rerun'):
            found.setdefault('enrolment ' + key, {})[python] = 'met' if plays['ratio_' + key] <= TARGETS[key] else 'missed'
    return found


def section(report, pairs):
    """docs/performance.md's enrolment section; ``pairs``: bench.py's versions ({python, label})."""
    if report.get('skipped'):
        return '## 7. Enrolment near the plainest play\n\nNot measured: %s.' % report['skipped']
    labels = {pair['python']: pair['label'] for pair in pairs}
    header = ['play'] + [labels.get(p, p) for p in report['pythons']] + ['tasks per host', 'requests per host']
    first = next(iter(report['pythons'].values()))
    rows = [[LABELS['bare'], ] + ['%.2f s' % report['bare']['seconds']] * len(report['pythons']) + ['-', '0']]
    for key in ('minimal', 'status', 'role', 'rerun'):
        rows.append([LABELS[key]] + ['%.2f s' % plays[key]['seconds'] for plays in report['pythons'].values()]
                    + ['%g' % first[key]['tasks'], '%g' % first[key]['requests']])
    for key, over, target in (('role', 'minimal', 'role'), ('rerun', 'status', 'rerun')):
        values = [plays['ratio_' + key] for plays in report['pythons'].values()]
        rows.append(['**%s ÷ %s** (target <= %g)' % (key.replace('rerun', 're-run'), over, TARGETS[target])]
                    + ['**%.2f** (%s)' % (v, 'met' if v <= TARGETS[target] else 'missed') for v in values] + ['', ''])
    lines = ['| ' + ' | '.join(header) + ' |', '|' + '---|' * len(header)] + ['| ' + ' | '.join(row) + ' |' for row in rows]
    requests = '; '.join('%s: %s' % (key, ', '.join('%s %g' % (k, v / report['hosts']) for k, v in first[key]['request_kinds'].items()))
                         for key in ('minimal', 'role', 'rerun'))

    def top(key, count):
        return '; '.join('%s %.2f s' % (name.replace('nms.overlay.enroll : ', ''), seconds)
                         for name, seconds in first[key]['profile'][:count])
    rounds = '; '.join('%s: role ÷ minimal %s, re-run ÷ status %s' % (
        labels.get(p, p), ' '.join('%.2f' % v for v in plays['ratios_role']), ' '.join('%.2f' % v for v in plays['ratios_rerun']))
        for p, plays in report['pythons'].items())
    loads = ', '.join('/'.join('%.2f' % v for v in load[:1]) for load in report['loads'])
    return ('## 7. Enrolment near the plainest play\n\n'
            '%d real agents (tests/support/realagents.py) join a real %s with `forks: %d`, every play timed from outside '
            '(tests/bench/enrolment.py); medians of %d rounds, each with every play. Before each play that joins, the agents '
            'are stopped, their state and peers removed and their daemons started again (untimed). Tasks per host leave out '
            'skipped ones; requests per host are the real server\'s (through the recording proxy). Load average (1 min) at '
            'the start and after each round: %s.\n\n%s\n\nThe ratios of each round: %s.\n\nRequests per host: %s.\n\n'
            'Where the time goes (each task from its start to the next one\'s, the median run of the first version): the '
            'role: %s; its re-run: %s.\n\n%s' % (
                report['hosts'], report['release'], report['forks'], report['repeats'], loads, '\n'.join(lines), rounds,
                requests, top('role', 8), top('rerun', 4), EXPLAINED))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--repeats', type=int, default=3)
    parser.add_argument('--compare-python', action='append', default=[])
    parser.add_argument('--json', default=None, help='write the figures there')
    args = parser.parse_args(argv)
    pythons = [sys.executable] + [os.path.abspath(p) for p in args.compare_python]
    with tempfile.TemporaryDirectory(prefix='nms-enrol-') as workdir:
        report = measure(workdir, pythons, args.repeats)
    if args.json:
        with open(args.json, 'w', encoding='utf-8') as handle:
            json.dump(report, handle, indent=1)
    print(section(report, [dict(python=p, label=p) for p in pythons]))
    for python, plays in report.get('pythons', {}).items():
        print('\n%s: role %s, re-run %s' % (python, ' '.join('%.2f' % v for v in plays['ratios_role']),
                                            ' '.join('%.2f' % v for v in plays['ratios_rerun'])))
        for key in ('role', 'rerun'):
            print('%s profile: %s' % (key, ', '.join('%s %.2f' % item for item in plays[key]['profile'][:12])))
    return 0


if __name__ == '__main__':
    sys.exit(main())
