# -*- coding: utf-8 -*-
# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A big first build (issue 43, item 4): ``network_state`` creating many groups, policies, routes and setup keys on an
empty emulator account (netbird dialect), timed from outside and compared with a bare ``requests`` loop that sends the
same writes to a fresh emulator in the same run; then the unchanged re-run.

``build(emulator, workdir, sizes)`` runs the first build and the re-run through ``ansible-playbook`` and returns their
seconds and request logs; ``bare_loop(emulator, sizes)`` the loop's seconds and requests. ``measure(workdir, sizes)``
does both on fresh emulators. ``python -m tests.bench.big_build [--groups 500 --policies 1000 --routes 200 --keys 200]``
prints the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import requests

from tests.support.emulator import READ_METHODS, start_emulator

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# issue 43, item 4: the big case (make bench) and the size of the integration test
BIG = dict(groups=500, policies=1000, routes=200, setup_keys=200)
SMALL = dict(groups=50, policies=100, routes=20, setup_keys=20)
KINDS = ('groups', 'policies', 'routes', 'setup_keys')
PATHS = dict(groups='/api/groups', policies='/api/policies', routes='/api/routes', setup_keys='/api/setup-keys')
# the collection's MAX_SETTLE (plugins/module_utils/_create.py; this runs outside its import path): the longest wait a
# run's creates of names servers let repeat make, once a run (test_network_state_big_build holds the two equal)
MAX_SETTLE = 3.0
PEER = 'web-1'  # the one peer of the account (added after each reset): every route's routing peer


def names(kind, count):
    return ['big-%s-%04d' % (kind.replace('_', '-'), index) for index in range(count)]


def description(sizes):
    """The network_state options: policy i allows group i % groups to group (i + 1) % groups, route i goes through the
    seed's peer to 10.(i // 250).(i % 250).0/24, setup key i puts its peers in group i % groups."""
    groups = names('groups', sizes['groups'])
    return dict(
        groups=[{'name': name} for name in groups],
        policies=[{'name': name, 'rules': [{'name': 'ssh', 'action': 'accept', 'protocol': 'tcp', 'ports': ['22'],
                                           'sources': [groups[i % len(groups)]], 'destinations': [groups[(i + 1) % len(groups)]]}]}
                  for i, name in enumerate(names('policies', sizes['policies']))],
        routes=[{'network_id': name, 'network': '10.%d.%d.0/24' % (i // 250, i % 250), 'peer': PEER,
                 'groups': [groups[i % len(groups)]]} for i, name in enumerate(names('routes', sizes['routes']))],
        setup_keys=[{'name': name, 'type': 'reusable', 'auto_groups': [groups[i % len(groups)]]}
                    for i, name in enumerate(names('setup_keys', sizes['setup_keys']))],
    )


def playbook(path, sizes, secrets_file):
    options = dict(description(sizes), created_secrets_file=secrets_file)
    play = [{'hosts': 'localhost', 'connection': 'local', 'gather_facts': False,
             'tasks': [{'name': 'big build', 'nms.overlay.network_state': options}]}]
    with open(path, 'w', encoding='utf-8') as handle:
        json.dump(play, handle)  # JSON is YAML


def ansible_playbook(emulator, workdir, path, python=sys.executable):
    """Run the playbook at default verbosity; returns (seconds, output, rc)."""
    collections = os.path.join(workdir, 'collections')
    link = os.path.join(collections, 'ansible_collections', 'nms', 'overlay')
    if not os.path.exists(link):
        os.makedirs(os.path.dirname(link))
        os.symlink(REPO, link)
    env = {k: v for k, v in os.environ.items() if not k.startswith(('ANSIBLE_', 'NMS_'))}
    env.update(NMS_API_URL=emulator.url, NMS_API_TOKEN=emulator.token, ANSIBLE_COLLECTIONS_PATH=collections,
               ANSIBLE_LOCALHOST_WARNING='False', ANSIBLE_INVENTORY_UNPARSED_WARNING='False', ANSIBLE_NOCOLOR='1',
               ANSIBLE_PYTHON_INTERPRETER=python, ANSIBLE_LOCAL_TEMP=os.path.join(workdir, 'tmp'))
    command = [os.path.join(os.path.dirname(python), 'ansible-playbook'), '-i', 'localhost,', path]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=workdir, env=env, capture_output=True, text=True, timeout=3600, check=False)
    return time.perf_counter() - started, done.stdout + done.stderr, done.returncode


def counted(log):
    """{'reads': {path: n}, 'writes': {(method, path prefix): n}} of an emulator request log."""
    reads, writes = {}, {}
    for entry in log:
        path = entry['path']
        if entry['method'].upper() in READ_METHODS:
            reads[path] = reads.get(path, 0) + 1
        else:
            base = '/'.join(path.split('/')[:3])
            key = '%s %s' % (entry['method'].upper(), base)
            writes[key] = writes.get(key, 0) + 1
    return dict(reads=reads, writes=writes)


def fresh(emulator):
    """An empty account again, with the one peer the routes go through."""
    emulator.reset()
    emulator.control('POST', '/_emulator/peers', {'peers': [{'hostname': PEER, 'os': 'linux'}]})
    emulator.clear_log()


def build(emulator, workdir, sizes, python=sys.executable):
    """The first build and the unchanged re-run on ``emulator`` (fresh first): their seconds, outputs and requests;
    and the seconds of an empty play (the same ansible-playbook with no task), what any run costs before its task."""
    fresh(emulator)
    path = os.path.join(workdir, 'big-build.json')
    playbook(path, sizes, os.path.join(workdir, 'created-secrets.json'))
    empty = os.path.join(workdir, 'empty.json')
    with open(empty, 'w', encoding='utf-8') as handle:
        json.dump([{'hosts': 'localhost', 'connection': 'local', 'gather_facts': False, 'tasks': []}], handle)
    figures = {'empty': dict(seconds=ansible_playbook(emulator, workdir, empty, python)[0])}
    for run in ('first', 'again'):
        emulator.clear_log()
        seconds, output, rc = ansible_playbook(emulator, workdir, path, python)
        if rc != 0:
            raise AssertionError('the %s run of the big build failed (rc %d):\n%s' % (run, rc, output[-6000:]))
        figures[run] = dict(seconds=seconds, output=output, requests=counted(emulator.requests()))
    return figures


def bare_loop(emulator, sizes):
    """The same creates as the build sends, with ``requests`` alone (one session, no checks but the status): seconds and
    requests. The bodies are the ones the modules send on the netbird dialect, with the ids the loop's own creates got."""
    fresh(emulator)
    peers = emulator.ok('GET', '/api/peers')
    peer_id = [peer['id'] for peer in peers if peer['name'] == PEER][0]
    session = requests.Session()
    session.headers.update({'Authorization': 'Token %s' % emulator.token, 'Accept': 'application/json'})
    url = emulator.url
    emulator.clear_log()
    started = time.perf_counter()

    def post(path, body):
        answer = session.post(url + path, json=body, timeout=30)
        answer.raise_for_status()
        return answer.json()

    group_ids = [post('/api/groups', {'name': name, 'peers': []})['id'] for name in names('groups', sizes['groups'])]
    count = len(group_ids)
    for i, name in enumerate(names('policies', sizes['policies'])):
        post('/api/policies', {'name': name, 'description': '', 'enabled': True, 'rules': [{
            'name': 'ssh', 'description': '', 'enabled': True, 'action': 'accept', 'bidirectional': True, 'protocol': 'tcp',
            'ports': ['22'], 'sources': [group_ids[i % count]], 'destinations': [group_ids[(i + 1) % count]]}]})
    for i, name in enumerate(names('routes', sizes['routes'])):
        post('/api/routes', {'network_id': name, 'network': '10.%d.%d.0/24' % (i // 250, i % 250), 'peer': peer_id,
                             'groups': [group_ids[i % count]], 'description': '', 'enabled': True, 'masquerade': True,
                             'metric': 9999})
    for i, name in enumerate(names('setup_keys', sizes['setup_keys'])):
        post('/api/setup-keys', {'name': name, 'type': 'reusable', 'expires_in': 86400 * 30, 'revoked': False,
                                 'auto_groups': [group_ids[i % count]], 'usage_limit': 0})
    seconds = time.perf_counter() - started
    return dict(seconds=seconds, requests=counted(emulator.requests()))


def measure(workdir, sizes, python=sys.executable):
    """The big build, its re-run and the bare loop, each on a fresh account of one emulator (netbird dialect)."""
    emulator = start_emulator('netbird', workdir)
    try:
        emulator.timeout = 120
        loop = bare_loop(emulator, sizes)
        figures = build(emulator, workdir, sizes, python)
    finally:
        emulator.stop()
    figures['bare'] = loop
    figures['sizes'] = dict(sizes)
    figures['ratio'] = figures['first']['seconds'] / loop['seconds']
    return figures


def report_figures(figures):
    """The figures as docs/performance.json keeps them (no output): seconds, requests, sizes and the ratio."""
    kept = {run: dict(seconds=figures[run]['seconds'], requests=figures[run]['requests']) for run in ('first', 'again', 'bare')}
    return dict(kept, sizes=figures['sizes'], ratio=figures['ratio'], rerun_ratio=figures['again']['seconds'] / figures['bare']['seconds'],
                empty_play=figures['empty']['seconds'], least=least_build(figures))


def least_build(figures):
    """What no network_state first build can go below, in seconds: an empty play, the loop's writes and one settle
    window (the wait a run's creates of names servers let repeat need once, see _create.Settling)."""
    return figures['empty']['seconds'] + figures['bare']['seconds'] + MAX_SETTLE


def section(figures, target):
    """docs/performance.md's section of the big first build (bench.py's page)."""
    def requests(run, which):
        counts = figures[run]['requests'][which]
        return ', '.join('%s %d' % (path, count) for path, count in sorted(counts.items())) or 'none'
    sizes = ', '.join('%d %s' % (figures['sizes'][kind], kind.replace('_', ' ')) for kind in KINDS)
    verdict = 'met' if figures['ratio'] <= target else 'missed'
    rows = [
        '| the first build (`network_state`, `ansible-playbook` from outside) | %.2f | %s | %s | %.1f | <= %g x the loop | %s |' % (
            figures['first']['seconds'], requests('first', 'reads'), requests('first', 'writes'), figures['ratio'], target, verdict),
        '| the unchanged re-run | %.2f | %s | %s | %.1f |  |  |' % (
            figures['again']['seconds'], requests('again', 'reads'), requests('again', 'writes'), figures['rerun_ratio']),
        '| *baseline: the same POSTs with a bare `requests` loop* | %.2f |  | %s | 1 |  |  |' % (
            figures['bare']['seconds'], requests('bare', 'writes')),
        '| *an empty play (`ansible-playbook`, no task)* | %.2f |  |  | %.1f |  |  |' % (
            figures['empty_play'], figures['empty_play'] / figures['bare']['seconds']),
    ]
    least = ('\n\nNo `network_state` run can go below an empty play, the loop\'s writes and one settle window (%g s, the wait '
             'that creates of names servers let repeat need once a run past its first %g s): %.2f s here, %.1f x the loop. The first build takes '
             '%.2f x that.' % (MAX_SETTLE, MAX_SETTLE / 2, figures['least'], figures['least'] / figures['bare']['seconds'],
                               figures['first']['seconds'] / figures['least']))
    return ('## 5. A big first build ÷ a bare `requests` loop\n\n'
            '%s on an empty account (emulator, `netbird` dialect), by one `network_state` task '
            '(tests/bench/big_build.py), then the same task again; the baseline sends the same creates with one '
            '`requests` session and nothing else, to a fresh account of the same emulator. Policies, routes and setup keys '
            'converge with concurrent runs once a run (one settle window after the last create of them, one list read of '
            'each such kind).'
            '\n\n| run | s | reads | writes | ÷ loop | target | met/missed |\n|---|---|---|---|---|---|---|\n%s%s' % (
                sizes, '\n'.join(rows), least))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    for kind in KINDS:
        parser.add_argument('--' + kind.replace('_', '-'), dest=kind, type=int, default=BIG[kind])
    args = parser.parse_args(argv)
    sizes = {kind: getattr(args, kind) for kind in KINDS}
    with tempfile.TemporaryDirectory(prefix='nms-big-build-') as workdir:
        figures = measure(workdir, sizes)
    for run in ('first', 'again'):
        print('%s run: %.2f s, requests %s' % (run, figures[run]['seconds'], json.dumps(figures[run]['requests'], sort_keys=True)))
        print('\n'.join(line for line in figures[run]['output'].splitlines() if 'network_state:' in line or 'changed=' in line))
    print('bare loop: %.2f s, requests %s' % (figures['bare']['seconds'], json.dumps(figures['bare']['requests'], sort_keys=True)))
    print('ratio first build / bare loop: %.2f' % figures['ratio'])
    print('empty play: %.2f s; least a first build can take (empty play + loop + one settle window): %.2f s, first build / that: %.2f'
          % (figures['empty']['seconds'], least_build(figures), figures['first']['seconds'] / least_build(figures)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
