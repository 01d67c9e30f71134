# -*- coding: utf-8 -*-
# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""`make bench`: measured speed of nms.overlay against the emulator at four account sizes.

Each figure is the median of several runs in one invocation. Prints a table and writes it, with the
targets of the performance issue, to docs/performance.md.

    python -m tests.bench.bench [--sizes S,M,L,XL] [--repeats 5] [--output docs/performance.md]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import yaml

from tests.support.emulator import EmulatorStartError, start_emulator

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.dirname(sys.executable)  # ansible-inventory of this virtualenv
CALLBACKS = os.path.join(REPO, 'tests', 'bench', 'callback')
PEER_INFO_FIELDS = ['name', 'ip']
SEED_TIMEOUT = 900
AS_PROCESS = ' (as a module process)'  # a task with nms_overlay_in_process: false
MODULE_OF_KIND = {
    'groups': 'group', 'posture_checks': 'posture_check', 'policies': 'policy', 'routes': 'route',
    'nameserver_groups': 'nameserver_group', 'dns_settings': 'dns_settings', 'setup_keys': 'setup_key',
    'users': 'user', 'account_settings': 'account_settings',
}


def start(size, workdir):
    """The emulator (netbird dialect) seeded at ``size``, with ``start_seconds`` it took to be ready."""
    started = time.perf_counter()
    try:  # a large seed takes a while
        emulator = start_emulator('netbird', workdir, extra_args=['--seed-size', size], timeout=SEED_TIMEOUT)
    except EmulatorStartError as exc:
        raise SystemExit('the emulator (%s) did not start: %s' % (size, exc)) from exc
    emulator.timeout = 120  # reads of the largest lists
    emulator.start_seconds = time.perf_counter() - started
    return emulator


def ansible_env(emulator, workdir, record, python=sys.executable):
    collections = os.path.join(workdir, 'collections')
    link = os.path.join(collections, 'ansible_collections', 'nms', 'overlay')
    if not os.path.exists(link):
        os.makedirs(os.path.dirname(link))
        os.symlink(REPO, link)
    env = {k: v for k, v in os.environ.items() if not k.startswith(('ANSIBLE_', 'NMS_'))}
    env.update({
        'NMS_API_URL': emulator.url, 'NMS_API_TOKEN': emulator.token,
        'NMS_BENCH_EMULATOR': emulator.url, 'NMS_BENCH_FILE': record,
        'ANSIBLE_COLLECTIONS_PATH': collections, 'ANSIBLE_CALLBACK_PLUGINS': CALLBACKS,
        'ANSIBLE_CALLBACKS_ENABLED': 'benchtimer', 'ANSIBLE_PYTHON_INTERPRETER': python,
        'ANSIBLE_LOCALHOST_WARNING': 'False', 'ANSIBLE_INVENTORY_UNPARSED_WARNING': 'False',
        'ANSIBLE_NOCOLOR': '1', 'PATH': os.path.dirname(python) + os.pathsep + os.environ.get('PATH', ''),
    })
    return env


def run_playbook(emulator, workdir, tasks=None, playbook=None, extra=(), python=sys.executable):
    """Wall seconds of one ansible-playbook run and the per-task records of the benchtimer callback."""
    record = os.path.join(workdir, 'record.json')
    if os.path.exists(record):
        os.remove(record)
    if playbook is None:
        playbook = os.path.join(workdir, 'bench.yml')
        with open(playbook, 'w', encoding='utf-8') as handle:
            yaml.safe_dump([{'name': 'bench', 'hosts': 'localhost', 'connection': 'local', 'gather_facts': False,
                             'tasks': tasks}], handle, sort_keys=False)
    started = time.perf_counter()
    proc = subprocess.run([os.path.join(os.path.dirname(python), 'ansible-playbook'), playbook] + list(extra), cwd=workdir,
                          env=ansible_env(emulator, workdir, record, python), capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit('ansible-playbook failed:\n%s\n%s' % (proc.stdout[-4000:], proc.stderr[-2000:]))
    with open(record, encoding='utf-8') as handle:
        return wall, json.load(handle)


def prepare(emulator):
    """The resources the unchanged tasks look at."""
    peers = emulator.ok('GET', '/api/peers')[:2]
    group = emulator.ok('POST', '/api/groups', {'name': 'bench', 'peers': [p['id'] for p in peers]})
    emulator.ok('POST', '/api/policies', {
        'name': 'bench', 'description': '', 'enabled': True, 'rules': [{
            'name': 'web', 'description': '', 'enabled': True, 'action': 'accept', 'bidirectional': True,
            'protocol': 'tcp', 'ports': ['443'], 'sources': [group['id']], 'destinations': [group['id']]}]})
    emulator.ok('POST', '/api/setup-keys', {'name': 'bench', 'type': 'reusable', 'expires_in': 86400 * 30,
                                            'revoked': False, 'auto_groups': [group['id']], 'usage_limit': 0})
    return [p['name'] for p in peers]


def bench_peer_names(emulator):
    """The peers of the group prepare() made (for a second measurement of the same account)."""
    group = [g for g in emulator.ok('GET', '/api/groups') if g['name'] == 'bench'][0]
    return [peer['name'] for peer in group['peers']]


def ansible_core_of(python):
    code = 'import ansible, sys; print("ansible-core %s, Python %d.%d" % ((ansible.__version__,) + sys.version_info[:2]))'
    return subprocess.run([python, '-c', code], capture_output=True, text=True, check=True).stdout.strip()


def unchanged_tasks(peer_names):
    return {
        'ping': {'ansible.builtin.ping': None},
        'group': {'nms.overlay.group': {'name': 'bench', 'peers': peer_names}},
        'policy': {'nms.overlay.policy': {'name': 'bench', 'enabled': True, 'rules': [{
            'name': 'web', 'action': 'accept', 'protocol': 'tcp', 'ports': ['443'],
            'sources': ['bench'], 'destinations': ['bench']}]}},
        'setup_key': {'nms.overlay.setup_key': {'name': 'bench', 'type': 'reusable', 'auto_groups': ['bench']}},
    }


def measure_unchanged(emulator, workdir, repeats, extra_tasks=None, as_process=False, python=sys.executable):
    """Median seconds and requests of each task; as_process adds each resource task run as a module process."""
    tasks_by_name = unchanged_tasks(prepare(emulator) if python == sys.executable else bench_peer_names(emulator))
    if as_process:
        tasks_by_name.update({name + AS_PROCESS: dict(task, vars={'nms_overlay_in_process': False})
                              for name, task in list(tasks_by_name.items()) if name != 'ping'})
    tasks_by_name.update(extra_tasks or {})
    tasks = []
    for index in range(repeats):
        for name, body in tasks_by_name.items():
            tasks.append(dict(body, name='%s %d' % (name, index)))
    dummy_wall, records = run_playbook(emulator, workdir, tasks, python=python)
    figures = {}
    for name in tasks_by_name:
        rows = [r for r in records if r['task'].rsplit(' ', 1)[0] == name]
        if any(r['failed'] or r['changed'] or r['writes'] for r in rows):
            raise SystemExit('an unchanged %s task failed, changed or wrote: %s' % (name, rows))
        figures[name] = dict(seconds=statistics.median(r['seconds'] for r in rows),
                             requests=statistics.median(r['requests'] for r in rows))
    return figures


def example_network():
    """The example network as build_network describes it to a v0.27 server (the bench's dialect): with the office route."""
    with open(os.path.join(REPO, 'playbooks', 'build_network.yml'), encoding='utf-8') as handle:
        playbook_vars = yaml.safe_load(handle)[0]['vars']
    description = dict(playbook_vars['nms_example_network'])
    for kind, items in playbook_vars['nms_example_office_route'].items():
        description[kind] = list(description.get(kind) or []) + list(items)
    return description


def per_resource_tasks(description):
    tasks = []
    for kind, module in MODULE_OF_KIND.items():
        value = description.get(kind)
        if value is None:
            continue
        for item in ([value] if isinstance(value, dict) else value):
            tasks.append({'name': '%s %s' % (module, item.get('name', item.get('network_id', ''))),
                          'nms.overlay.' + module: item})
    return tasks


def measure_network(emulator, workdir, repeats):
    """The example network from scratch, then re-runs: network_state versus one task per resource."""
    playbook = os.path.join(REPO, 'playbooks', 'build_network.yml')
    build_wall, dummy = run_playbook(emulator, workdir, playbook=playbook)
    state_runs, task_runs = [], []
    for dummy_index in range(repeats):
        state_runs.append(run_playbook(emulator, workdir, playbook=playbook))
        task_runs.append(run_playbook(emulator, workdir, tasks=per_resource_tasks(example_network())))
    for wall, records in state_runs + task_runs:
        if any(r['writes'] or r['changed'] for r in records):
            raise SystemExit('a re-run of the example network wrote or changed: %s' % records)
    state_requests = sum(r['requests'] for r in state_runs[0][1])
    task_requests = sum(r['requests'] for r in task_runs[0][1])

    def task_seconds(runs, name=None):
        return statistics.median(sum(r['seconds'] for r in records if name is None or name in r['task'])
                                 for dummy, records in runs)

    return dict(build=build_wall, state_task=task_seconds(state_runs, 'Reconcile the network'),
                state=statistics.median(w for w, dummy in state_runs), state_requests=state_requests,
                tasks=statistics.median(w for w, dummy in task_runs), task_requests=task_requests,
                state_tasks=task_seconds(state_runs), tasks_tasks=task_seconds(task_runs),
                task_count=len(task_runs[0][1]))


def measure_inventory(emulator, workdir, repeats, options=None):
    inventory = os.path.join(workdir, 'bench.nms.yml')
    with open(inventory, 'w', encoding='utf-8') as handle:
        yaml.safe_dump(dict({'plugin': 'nms.overlay.peers'}, **(options or {})), handle)
    env = ansible_env(emulator, workdir, os.path.join(workdir, 'unused.json'))
    env['ANSIBLE_INVENTORY_ENABLED'] = 'nms.overlay.peers'
    walls = []
    hosts = 0
    for dummy_index in range(repeats):
        started = time.perf_counter()
        proc = subprocess.run([os.path.join(BIN, 'ansible-inventory'), '-i', inventory, '--list'], cwd=workdir, env=env,
                              capture_output=True, text=True, check=False)
        walls.append(time.perf_counter() - started)
        if proc.returncode != 0:
            raise SystemExit('ansible-inventory failed: %s' % proc.stderr[-3000:])
        hosts = len(json.loads(proc.stdout).get('_meta', {}).get('hostvars', {}))
    return dict(seconds=statistics.median(walls), hosts=hosts)


def measure_static_inventory(emulator, workdir, repeats):
    """ansible-core's own cost for as many hosts: a static file with the peers' groups and addresses."""
    groups = {}
    for peer in emulator.ok('GET', '/api/peers'):
        for group in peer.get('groups') or []:
            groups.setdefault(group['name'].replace('-', '_'), {})[peer['name']] = {'ansible_host': peer['ip']}
    path = os.path.join(workdir, 'static.yml')
    with open(path, 'w', encoding='utf-8') as handle:
        json.dump({'all': {'children': {name: {'hosts': hosts} for name, hosts in groups.items()}}}, handle)
    env = ansible_env(emulator, workdir, os.path.join(workdir, 'unused.json'))
    walls = []
    for dummy_index in range(repeats):
        started = time.perf_counter()
        subprocess.run([os.path.join(BIN, 'ansible-inventory'), '-i', path, '--list'], cwd=workdir, env=env,
                       capture_output=True, check=True)
        walls.append(time.perf_counter() - started)
    return statistics.median(walls)


IMPORTS = (('import requests', 'import requests'),
           ('import pydantic and build one model', 'import pydantic\nclass M(pydantic.BaseModel):\n    a: int = 0\nM(a=1)'))


def import_cost(statement, repeats):
    """Seconds a statement adds to a bare interpreter start: the floor every task of a module pays."""
    def best(code):
        walls = []
        for dummy_index in range(max(repeats, 5)):
            started = time.perf_counter()
            subprocess.run([sys.executable, '-c', code], check=True)
            walls.append(time.perf_counter() - started)
        return statistics.median(walls)
    return max(best(statement) - best('pass'), 0.0)


def verdict(value, limit):
    if value <= limit:
        return 'met'
    return 'missed by %.0f%%' % ((value / limit - 1) * 100)


def main(argv=None):
    parser = argparse.ArgumentParser(description='Measure nms.overlay against the emulator at four account sizes')
    parser.add_argument('--sizes', default='S,M,L,XL')
    parser.add_argument('--repeats', type=int, default=5)
    parser.add_argument('--output', default=os.path.join(REPO, 'docs', 'performance.md'))
    parser.add_argument('--compare-python', action='append', default=[],
                        help='at size S, measure the unchanged tasks also with the ansible-playbook of the virtualenv '
                             'of this Python (another ansible-core release)')
    args = parser.parse_args(argv)
    rows, notes = [], []
    with tempfile.TemporaryDirectory(prefix='nms-bench-') as workdir:
        for size in args.sizes.split(','):
            emulator = start(size, workdir)
            try:
                extra = {}
                if size == 'XL':
                    extra['peer_info'] = {'nms.overlay.peer_info': None}
                    extra['peer_info_fields'] = {'nms.overlay.peer_info': {'fields': PEER_INFO_FIELDS}}
                    # the same list through ansible-core's own uri module: what any module returning it costs
                    extra['uri'] = {'ansible.builtin.uri': {'url': emulator.url + '/api/peers', 'return_content': True,
                                                            'headers': {'Authorization': 'Token ' + emulator.token}},
                                    'no_log': True}
                # at S also as module processes: where a task cannot run in the controller's worker
                figures = measure_unchanged(emulator, workdir, args.repeats, extra, as_process=size == 'S')
                core = ansible_core_of(sys.executable)
                for other in args.compare_python if size == 'S' else ():
                    other_core = ansible_core_of(other)
                    for name, figure in measure_unchanged(emulator, workdir, args.repeats, python=other).items():
                        figures['%s [%s]' % (name, other_core)] = figure
                for name, figure in figures.items():
                    release = name[name.index(' ['):] if ' [' in name else ''
                    ping = figures['ping' + release]['seconds']
                    name = name.replace(release, '')
                    release = release or ' [%s]' % core
                    ratio = figure['seconds'] / ping
                    target = ''
                    if size == 'S' and name in ('group', 'policy', 'setup_key'):
                        target = '<= 0.25 x ping: ' + verdict(ratio, 0.25)
                    if size == 'S' and name.replace(AS_PROCESS, '') in ('group', 'policy', 'setup_key') and AS_PROCESS in name:
                        target = '<= 1.25 x ping: ' + verdict(ratio, 1.25)
                    if size == 'L' and name == 'group':
                        target = '<= 1 s: ' + verdict(figure['seconds'], 1.0)
                    if name in ('peer_info', 'peer_info_fields'):
                        target = '<= 2 s: ' + verdict(figure['seconds'], 2.0)
                    label = {'peer_info': 'peer_info (all peers)',
                             'peer_info_fields': 'peer_info (all peers) with fields: [%s]' % ', '.join(PEER_INFO_FIELDS),
                             'uri': 'baseline: ansible.builtin.uri GET /api/peers (same data)'}.get(
                                 name, 'unchanged %s task%s' % (name.replace(AS_PROCESS, ''),
                                                                ', as a module process' if AS_PROCESS in name else ''))
                    if size == 'S':
                        label += release
                    rows.append((size, label,
                                 '%.3f' % figure['seconds'], '%g' % figure['requests'], '%.2f' % ratio, target))
                if size == 'S':
                    net = measure_network(emulator, workdir, args.repeats)
                    speedup = net['tasks_tasks'] / net['state_task']
                    rows.append((size, 'example network from scratch, build_network playbook (wall)', '%.3f' % net['build'],
                                 '', '', ''))
                    seconds = '%.3f / %.3f / %.3f' % (net['state_task'], net['state_tasks'], net['state'])
                    rows.append((size, 'example network re-run, network role: its network_state task / its 3 tasks / '
                                 'whole playbook (wall)', seconds, str(net['state_requests']), '', 'no write: met'))
                    rows.append((size, 'example network re-run, %d tasks, 1 per resource: tasks / whole playbook (wall)'
                                 % net['task_count'], '%.3f / %.3f' % (net['tasks_tasks'], net['tasks']),
                                 str(net['task_requests']), '', 'no write: met'))
                    rows.append((size, 'speed-up of network_state over per-resource tasks: network_state task '
                                 '(the role\'s 3 tasks; whole playbook)',
                                 '%.1f x (%.1f x; %.1f x)' % (speedup, net['tasks_tasks'] / net['state_tasks'], net['tasks'] / net['state']),
                                 '', '',
                                 '>= 5 x: ' + ('met' if speedup >= 5 else 'missed (%.1f x)' % speedup)))
                if size == 'XL':
                    inv = measure_inventory(emulator, workdir, args.repeats)
                    rows.append((size, 'ansible-inventory --list, peers plugin (%d hosts)' % inv['hosts'],
                                 '%.3f' % inv['seconds'], '1', '', '<= 3 s: ' + verdict(inv['seconds'], 3.0)))
                    fields = ['id', 'groups']
                    few = measure_inventory(emulator, workdir, args.repeats, {'peer_fields': fields})
                    rows.append((size, 'ansible-inventory --list, peers plugin with peer_fields: [%s]' % ', '.join(fields),
                                 '%.3f' % few['seconds'], '1', '', '<= 3 s: ' + verdict(few['seconds'], 3.0)))
                    static = measure_static_inventory(emulator, workdir, args.repeats)
                    rows.append((size, 'baseline: ansible-inventory --list, static YAML file of the same hosts, groups '
                                 'and ansible_host only', '%.3f' % static, '0', '', ''))
                notes.append('%s: emulator seeded and ready in %.1f s' % (size, emulator.start_seconds))
            finally:
                emulator.stop()
    for label, statement in IMPORTS:
        rows.append(('-', 'cost of %s in a fresh Python process' % label, '%.3f' % import_cost(statement, args.repeats),
                     '', '', ''))
    header = ('size', 'measurement', 'seconds (median)', 'requests', 'ratio to ping', 'target')
    lines = ['| ' + ' | '.join(header) + ' |', '|' + '---|' * len(header)]
    lines += ['| ' + ' | '.join(row) + ' |' for row in rows]
    table = '\n'.join(lines)
    print(table)
    with open(args.output, 'w', encoding='utf-8') as handle:
        handle.write(PAGE % dict(table=table, repeats=args.repeats, notes='\n'.join('- ' + n for n in notes),
                                 python=sys.version.split()[0], cpus=os.cpu_count()))
    print('\nwritten to %s' % os.path.relpath(args.output, REPO))
    return 0


PAGE = '''# Performance

Measured by `make bench` (`tests/bench/bench.py`) against the bundled emulator in the `netbird` dialect, on
this machine (%(cpus)s CPUs, Python %(python)s). Each figure is the median of %(repeats)s runs in one invocation.
Task figures are wall times of single tasks inside one playbook, next to `ansible.builtin.ping` in the same
playbook; "requests" counts the API requests the task sent (from the emulator's request log). For the example
network, "tasks" is the sum of the tasks' wall times and "whole playbook" the wall time of the
`ansible-playbook` process, which adds about one second of start-up to either way of running it.

Account sizes: S 100 peers, 5 groups; M 1,000 peers, 20 groups, 100 setup keys; L 5,000 peers, 10,000 groups,
10,000 users, 10,000 setup keys; XL 25,000 peers, 50 groups, 500 setup keys.

%(table)s

%(notes)s

How the collection stays fast:

- Tasks that run on the controller (`hosts: localhost`, `delegate_to: localhost`) run their module inside
  the worker process that ansible-core forks for every task (the action plugin of each module,
  `plugins/plugin_utils/_in_process.py`), not in a new Python process. The controller imports the module,
  `requests`, `pydantic` and the models once per playbook, before it forks, so a task pays only for its own
  work. The rows "as a module process" are the same tasks with `nms_overlay_in_process: false`: how they run
  on another host, with another interpreter, with `become` or `async`.
- An unchanged resource task sends one list request of its own kind plus one per referenced kind, and no write.
- `nms.overlay.network_state` reconciles the whole description in one task: one list per kind, then only
  the writes needed.
- In a module process, `pydantic` is imported only by resource modules that validate options; info modules
  and the inventory plugin never import it.
- The inventory plugin's `peer_fields` option keeps only the host variables a play needs; with tens of
  thousands of peers that halves `ansible-inventory`. `peer_info`'s `fields` option does the same for the
  task result.
- The emulator sets `TCP_NODELAY` on its connections, as the Go servers it imitates do. Before it did, every
  answer after the first on a kept-alive connection waited 40 ms for a delayed ACK, and tables before
  this one counted that in every task that sent two requests or more.

Where a target is missed, and why:

- **Unchanged task at size S within 1.25 x ping**: met where the modules usually run, on the controller.
  As a module process it is still missed. A ping task is the floor of every module process (process start,
  `ansible.module_utils.basic`, the controller's work); a resource module adds `requests` (the "cost of
  import requests" row) and, for `policy` and `setup_key`, pydantic to validate options before any request
  (the design's choice: invalid input sends no request).
- **Example network re-run at least 5 x faster with `network_state`**: the ratio is of the `network_state`
  task to the 13 per-resource tasks; the role adds two checking tasks (argument validation, the prune
  guard), shown in brackets. Since the modules run in the worker, every per-resource task costs about
  0.02 s, most of it ansible-core's fixed cost of a task, so the one `network_state` task (9 requests,
  the role's arguments templated) saves less in proportion than it did against 13 processes; in seconds
  both ways are several times faster than before.
- **`peer_info` at XL within 2 s.** The module returns 25,000 peers (about 19 MB of JSON, some 700,000
  values). The baseline row `ansible.builtin.uri` returns the same list with ansible-core's own module and is
  not within 2 s either: the time goes to ansible-core's handling of a large result. Profiled, `exit_json`
  takes about a second (checking every value for no_log values, data tagging, JSON), and the controller
  as much again (converting the result and stripping internal keys once for each callback); the request
  and the collection's own work take a few tenths each. Asking only for the fields a play needs (`fields`)
  is the way to a fast task.
- **`ansible-inventory --list` at XL within 3 s.** The static YAML baseline row shows that ansible-core needs
  more than 3 s for 25,000 hosts before any plugin runs; most of the rest is ansible-core storing and
  printing every host variable, which `peer_fields` reduces.
'''

if __name__ == '__main__':
    sys.exit(main())
