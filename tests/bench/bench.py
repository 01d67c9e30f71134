# -*- coding: utf-8 -*-
# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""`make bench`: the ratios of issue 30 ("Fast everywhere"), each to a baseline measured in the same run.

1. An unchanged task of every module in the controller: (play of 10 identical tasks - empty play) / 10, divided by
   the same for ``ansible.builtin.ping``. The few modules that have no unchanged task (NOT_MEASURED) are listed with
   the reason instead.
2. The same with every task run as a module process (``nms_overlay_in_process: false``).
3. At size XL: ``peer_info`` of all peers / ``ansible.builtin.uri`` of the same list; an unchanged ``group`` task at
   XL / the same task at S; the inventory plugin / a static YAML inventory of the same hosts (tests/bench/inventory.py).
4. The emulator serving a list / a static file server of the same JSON, at S and XL (tests/bench/serving.py).
5. With XL: a big first build (500 groups, 1,000 policies, 200 routes, 200 setup keys) by network_state / a bare
   ``requests`` loop of the same creates, and its unchanged re-run (tests/bench/big_build.py).
6. With XL: the access report, the export and the drift report of 1,000 groups, 2,000 policies and 500 peers, in
   seconds and ÷ their reads sent with ``requests`` alone (tests/bench/access_report.py).

Every play runs as its own ``ansible-playbook`` and is timed from outside; the figures are medians of interleaved
repeats (round 1: every play once, in a fixed order, for every virtualenv; round 2: the same...). Writes
docs/performance.md (its "Where the time goes" section is kept) and the raw figures as docs/performance.json.

    python -m tests.bench.bench [--sizes S,XL] [--repeats 3] [--modules group,policy] [--compare-python PY]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time

import yaml

from tests.bench import access_report, big_build, enrolment
from tests.bench.inventory import inventory_env, inventory_speed
from tests.bench.serving import list_speed
from tests.support.emulator import EmulatorStartError, start_emulator

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CALLBACKS = os.path.join(REPO, 'tests', 'bench', 'callback')
# the floors: the reads of an unchanged task and nothing else, with requests (action/requests_floor.py in the
# controller, library/requests_floor_module.py as a module process); and the same after validating the options with
# the smallest pydantic model (action/pydantic_floor.py, the module with options_model), what a kind that validates
# with pydantic cannot go below. {floor: (label, {way: (task, extra options)})}
FLOOR_ACTIONS = os.path.join(REPO, 'tests', 'bench', 'action')
FLOOR_LIBRARY = os.path.join(REPO, 'tests', 'bench', 'library')
FLOORS = {
    'floor': ('only the reads, with requests', {'controller': ('requests_floor', {}),
                                                'process': ('requests_floor_module', {})}),
    'pydantic_floor': ('the reads after an options model, with requests and pydantic', {
        'controller': ('pydantic_floor', {}), 'process': ('requests_floor_module', {'options_model': True})}),
}
FLOOR_PATHS = ['/api/groups']  # what an unchanged group task with peers reads (the All group names the peers)
SEED_TIMEOUT = 900
TASKS_PER_PLAY = 10
NETBIRD, CURRENT = 'netbird', 'current'  # v0.27 servers; today's (v0.77), for the modules of later features
SWITCH = 'nms_overlay_in_process'
PROCESS_LINE = 'runs as a module process: %s is false' % SWITCH  # what plugins/plugin_utils/_in_process.py shows at -vvv
CONTROLLER_LINE = 'runs in the controller process'
WHERE_BEGIN, WHERE_END = '<!-- where-the-time-goes -->', '<!-- /where-the-time-goes -->'

# controller and process: a module's unchanged task ÷ the floor it is held to (the pydantic floor when its task
# validates with pydantic, see floor_of), in the same way and run (issue 43, items 1 and 2)
TARGETS = dict(controller=1.15, process=1.15, peer_info_uri=0.8, group_xl_s=3.0, inventory=1.1, serving=0.5, big_build=1.5)

PEERS = ['peer-00000', 'peer-00001']  # seeded at every size
GROUP = {'name': 'bench', 'peers': PEERS}
POLICY = {'name': 'bench', 'enabled': True, 'rules': [{
    'name': 'web', 'action': 'accept', 'protocol': 'tcp', 'ports': ['443'], 'sources': ['bench'], 'destinations': ['bench']}]}
STATE = {  # network_state's small description
    'groups': [{'name': 'bench-state-a'}, {'name': 'bench-state-b'}],
    'policies': [{'name': 'bench-state', 'enabled': True, 'rules': [{
        'name': 'ssh', 'action': 'accept', 'protocol': 'tcp', 'ports': ['22'],
        'sources': ['bench-state-a'], 'destinations': ['bench-state-b']}]}],
}

PROXY_CLUSTER = 'proxy.example.com'  # a connected NetBird proxy of the current dialect's emulator (it has none by itself)
ISSUER = 'http://127.0.0.1:8080/oauth2'  # the issuer the emulator's embedded identity provider answers as reachable
AGENT_PROVIDER = {'name': 'bench-openai', 'provider_id': 'openai_api', 'upstream_url': 'https://api.openai.com',
                  'api_key': 'bench-not-a-key', 'models': [{'id': 'gpt-5.4-mini', 'input_per_1k': 0.00075, 'output_per_1k': 0.0045}]}
BUDGET = {'budget_limit': {'enabled': True, 'user_cap_usd': 50, 'window_seconds': 2592000}}

# module -> (dialect, the arguments of its unchanged task). Resource modules find what SETUP made; info modules read
# with the arguments a play typically gives them. Modules of what a v0.27 server lacks (Networks, DNS zones, identity
# providers, invites, the reverse proxy, the Agent Network, peer jobs and temporary access, the instance's setup)
# refuse the netbird dialect before any request, or after the version probe: they run against the current dialect.
UNCHANGED = {
    'group': (NETBIRD, GROUP),
    'posture_check': (NETBIRD, {'name': 'bench', 'checks': {'nb_version_check': {'min_version': '0.25.0'}}}),
    'policy': (NETBIRD, POLICY),
    'setup_key': (NETBIRD, {'name': 'bench', 'type': 'reusable', 'expires_in': '30d', 'auto_groups': ['bench']}),
    'user': (NETBIRD, {'name': 'bench-bot', 'is_service_user': True, 'role': 'admin'}),
    'token': (NETBIRD, {'user': 'bench-bot', 'name': 'bench', 'expires_in': 90}),
    'route': (NETBIRD, {'network_id': 'bench-lan', 'description': 'bench', 'network': '192.168.10.0/24',
                        'peer': PEERS[0], 'groups': ['bench']}),
    'nameserver_group': (NETBIRD, {'name': 'bench-dns', 'nameservers': [{'ip': '10.0.0.53'}],
                                   'domains': ['bench.example.com'], 'groups': ['bench']}),
    'dns_settings': (NETBIRD, {'disabled_management_groups': []}),
    'account_settings': (NETBIRD, {'peer_login_expiration_enabled': True, 'peer_login_expiration': '24h'}),
    'peer': (NETBIRD, {'name': 'peer-00002', 'ssh_enabled': True}),
    'network_state': (NETBIRD, STATE),
    'account_info': (NETBIRD, None),
    'dns_settings_info': (NETBIRD, None),
    'event_info': (NETBIRD, {'since': '-7d', 'limit': 20}),
    'group_info': (NETBIRD, {'name': 'bench'}),
    'location_info': (NETBIRD, None),
    'nameserver_group_info': (NETBIRD, {'name': 'bench-dns'}),
    'peer_info': (NETBIRD, {'group': 'bench'}),
    'policy_info': (NETBIRD, {'name': 'bench'}),
    'posture_check_info': (NETBIRD, {'name': 'bench'}),
    'route_info': (NETBIRD, {'network_id': 'bench-lan'}),
    'setup_key_info': (NETBIRD, {'name': 'bench'}),
    'token_info': (NETBIRD, {'user': 'bench-bot'}),
    'user_info': (NETBIRD, {'name': 'bench-bot'}),
    'network': (CURRENT, {'name': 'bench-office', 'description': 'bench'}),
    'network_resource': (CURRENT, {'network': 'bench-office', 'name': 'bench-server', 'address': '192.168.10.20',
                                   'groups': ['bench']}),
    'network_router': (CURRENT, {'network': 'bench-office', 'peer': PEERS[0], 'metric': 100}),
    'dns_zone': (CURRENT, {'domain': 'bench.example.com', 'name': 'bench', 'distribution_groups': ['bench']}),
    'dns_record': (CURRENT, {'zone': 'bench.example.com', 'name': 'db.bench.example.com', 'type': 'A',
                             'content': '10.0.0.5', 'ttl': 300}),
    'network_info': (CURRENT, {'name': 'bench-office'}),
    'network_resource_info': (CURRENT, {'network': 'bench-office'}),
    'network_router_info': (CURRENT, {'network': 'bench-office'}),
    'dns_zone_info': (CURRENT, {'domain': 'bench.example.com'}),
    'dns_record_info': (CURRENT, {'zone': 'bench.example.com'}),
    'instance': (CURRENT, None),  # a server set up already: the status read
    'identity_provider': (CURRENT, {'name': 'bench-sso', 'type': 'oidc', 'issuer': ISSUER, 'client_id': 'bench',
                                    'client_secret': 'bench-not-a-secret'}),
    'identity_provider_info': (CURRENT, None),
    'user_invite': (CURRENT, {'email': 'bench@example.com', 'name': 'Bench', 'role': 'user', 'auto_groups': ['bench']}),
    'user_invite_info': (CURRENT, {'email': 'bench@example.com'}),
    'peer_temporary_access': (CURRENT, {'peer': PEERS[0], 'name': 'bench-laptop',
                                        'wg_pub_key': 'YmVuY2gtbm90LWEtcmVhbC13aXJlZ3VhcmQta2V5AAA=', 'rules': ['tcp/22']}),
    'peer_job_info': (CURRENT, {'peer': PEERS[0]}),
    'reverse_proxy_domain': (CURRENT, {'domain': 'apps.bench.example.com', 'target_cluster': PROXY_CLUSTER}),
    'reverse_proxy_service': (CURRENT, {'name': 'bench-grafana', 'domain': 'grafana.' + PROXY_CLUSTER, 'targets': [
        {'target_id': PEERS[0], 'target_type': 'peer', 'protocol': 'http', 'port': 3000}],
        'auth': {'bearer_auth': {'enabled': True, 'distribution_groups': ['bench']}}}),
    'reverse_proxy_token': (CURRENT, {'name': 'bench-proxy'}),
    'reverse_proxy_cluster': (CURRENT, {'address': 'retired.' + PROXY_CLUSTER, 'state': 'absent'}),  # gone already
    'reverse_proxy_domain_info': (CURRENT, {'domain': 'apps.bench.example.com'}),
    'reverse_proxy_service_info': (CURRENT, None),
    'reverse_proxy_token_info': (CURRENT, {'name': 'bench-proxy'}),
    'reverse_proxy_cluster_info': (CURRENT, None),
    'agent_network_settings': (CURRENT, {'proxy_address': PROXY_CLUSTER, 'access_log_retention_days': 14}),
    'agent_network_provider': (CURRENT, AGENT_PROVIDER),
    'agent_network_guardrail': (CURRENT, {'name': 'bench-production', 'checks': {
        'model_allowlist': {'enabled': True, 'models': ['gpt-5.4-mini']}}}),
    'agent_network_policy': (CURRENT, {'name': 'bench-engineering', 'source_groups': ['bench'],
                                       'destination_provider_ids': ['bench-openai'], 'guardrail_ids': ['bench-production'],
                                       'limits': BUDGET}),
    'agent_network_budget_rule': (CURRENT, {'name': 'bench-ceiling', 'limits': BUDGET}),
    'agent_network_settings_info': (CURRENT, None),
    'agent_network_provider_info': (CURRENT, None),
    'agent_network_guardrail_info': (CURRENT, None),
    'agent_network_policy_info': (CURRENT, None),
    'agent_network_budget_rule_info': (CURRENT, None),
    'agent_network_catalog_info': (CURRENT, {'id': 'openai_api'}),
    'agent_network_report_info': (CURRENT, {'report': 'usage', 'granularity': 'week'}),
}
# modules with no task that leaves the server as it is without a write: not measured, the reason on the page
NOT_MEASURED = {
    'peer_job': 'an action: each task submits a new job to the agent; only a re-run while the same job is still pending '
                '(an agent that has not connected since) writes nothing, which is no state a play keeps',
    'user_password': 'write-only: servers show no password, so every run sends the change (PUT), and a re-run learns it was '
                     'done only from the refusal of the old password',
}
# what the unchanged tasks find, made by the collection's own tasks before any measurement (in this order)
SETUP = {
    NETBIRD: ['group', 'posture_check', 'policy', 'setup_key', 'user', 'token', 'route', 'nameserver_group',
              'dns_settings', 'account_settings', 'peer', 'network_state'],
    CURRENT: ['group', 'network', 'network_resource', 'network_router', 'dns_zone', 'dns_record', 'identity_provider',
              'user_invite', 'peer_temporary_access', 'reverse_proxy_domain', 'reverse_proxy_service', 'reverse_proxy_token',
              'agent_network_settings',  # bootstrapped before any provider
              'agent_network_provider', 'agent_network_guardrail', 'agent_network_policy', 'agent_network_budget_rule'],
}
SETUP_EXTRA = {m: {'return_created_secrets': True} for m in ('setup_key', 'token', 'user_invite', 'reverse_proxy_token')}


class BenchError(SystemExit):
    """The bench cannot give a figure: a play failed, or an unchanged task changed, failed or wrote."""


def modules_of_collection():
    return sorted(name[:-3] for name in os.listdir(os.path.join(REPO, 'plugins', 'modules'))
                  if name.endswith('.py') and not name.startswith('_'))


def measured_modules():
    """Every module of the collection but those with no unchanged task (NOT_MEASURED)."""
    return [m for m in modules_of_collection() if m not in NOT_MEASURED]


def start(size, workdir, dialect=NETBIRD):
    """The emulator seeded at ``size``, with ``start_seconds`` it took to be ready."""
    started = time.perf_counter()
    # today's servers with the embedded identity provider (as the real v0.77.1 of the tests): invites and identity
    # providers need it
    extra = ['--seed-size', size] + (['--idp'] if dialect == CURRENT else [])
    try:  # a large seed takes a while
        emulator = start_emulator(dialect, workdir, extra_args=extra, timeout=SEED_TIMEOUT)
    except EmulatorStartError as exc:
        raise BenchError('the emulator (%s, %s) did not start: %s' % (dialect, size, exc)) from exc
    emulator.timeout = 120  # reads of the largest lists
    if dialect == CURRENT:  # the reverse proxy's services and domains need a connected proxy, as on a real server
        emulator.control('POST', '/_emulator/config', {'proxy_clusters': [PROXY_CLUSTER]})
    emulator.start_seconds = time.perf_counter() - started
    emulator.size = size
    return emulator


def ansible_env(emulator, workdir, record, python, count_requests=False):
    collections = os.path.join(workdir, 'collections')
    link = os.path.join(collections, 'ansible_collections', 'nms', 'overlay')
    if not os.path.exists(link):
        os.makedirs(os.path.dirname(link))
        os.symlink(REPO, link)
    env = {k: v for k, v in compiling_environ().items() if not k.startswith(('ANSIBLE_', 'NMS_'))}
    env.update({
        'NMS_API_URL': emulator.url, 'NMS_API_TOKEN': emulator.token, 'NMS_BENCH_FILE': record,
        'ANSIBLE_COLLECTIONS_PATH': collections, 'ANSIBLE_CALLBACK_PLUGINS': CALLBACKS,
        'ANSIBLE_ACTION_PLUGINS': FLOOR_ACTIONS, 'ANSIBLE_LIBRARY': FLOOR_LIBRARY,
        'ANSIBLE_CALLBACKS_ENABLED': 'benchtimer', 'ANSIBLE_PYTHON_INTERPRETER': python,
        'ANSIBLE_LOCALHOST_WARNING': 'False', 'ANSIBLE_INVENTORY_UNPARSED_WARNING': 'False',
        'ANSIBLE_NOCOLOR': '1', 'PATH': os.path.dirname(python) + os.pathsep + os.environ.get('PATH', ''),
    })
    if count_requests:  # per-task request counts: slower, so only in checking runs
        env['NMS_BENCH_EMULATOR'] = emulator.url
    return env


def compiling_environ():
    """This environment without PYTHONDONTWRITEBYTECODE: a user's controller keeps the compiled files of the packages it
    imports (requests, pydantic, the floors here), where such a setting would have every play compile them again."""
    return {k: v for k, v in os.environ.items() if k != 'PYTHONDONTWRITEBYTECODE'}


def compile_floors(python):
    """Compile the floors' files for ``python`` once, as their first use would. Not the collection's: ansible-core's
    collection loader compiles them from source on every run (it reads no compiled files), and a module process gets
    sources, so compiled copies would change nothing."""
    subprocess.run([python, '-m', 'compileall', '-q', os.path.join(REPO, 'tests', 'bench')], check=True, env=compiling_environ())


def versions_of(python):
    code = 'import ansible, sys; print(ansible.__version__, "%d.%d" % sys.version_info[:2])'
    core, version = subprocess.run([python, '-c', code], capture_output=True, text=True, check=True).stdout.split()
    return dict(python=python, core=core, python_version=version,
                label='ansible-core %s / Python %s' % (core, version), short='%s / %s' % (core.rsplit('.', 1)[0], version))


def task(module, args, name, process=False):
    body = {'name': name, module if '.' in module else 'nms.overlay.' + module: args}
    if process:
        body['vars'] = {SWITCH: False}
    return body


class Play:
    """One playbook the bench times: its file, the emulator its tasks talk to, how many tasks it has and whether
    they must leave the server as it was."""

    def __init__(self, workdir, key, emulator, tasks, unchanged=True):
        self.key, self.emulator, self.count, self.unchanged = key, emulator, len(tasks), unchanged
        self.path = os.path.join(workdir, 'plays', key.replace('/', '_').replace('@', '_') + '.yml')
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        with open(self.path, 'w', encoding='utf-8') as handle:
            yaml.safe_dump([{'name': 'bench', 'hosts': 'localhost', 'connection': 'local', 'gather_facts': False,
                             'tasks': tasks}], handle, sort_keys=False)


class Runner:
    """Runs the plays of one bench, in its working directory."""

    def __init__(self, workdir):
        self.workdir = workdir

    def run(self, play, python, verbosity=0, count_requests=False):
        """Seconds of one ``ansible-playbook`` of ``play`` with ``python``'s virtualenv, its per-task records and the
        emulator's request log of the play. Stops the bench if the play failed or an unchanged task changed, failed
        or wrote."""
        record = os.path.join(self.workdir, 'record.json')
        if os.path.exists(record):
            os.remove(record)
        play.emulator.clear_log()
        command = [os.path.join(os.path.dirname(python), 'ansible-playbook'), play.path] + (['-' + 'v' * verbosity] if verbosity else [])
        env = ansible_env(play.emulator, self.workdir, record, python, count_requests)
        started = time.perf_counter()
        proc = subprocess.run(command, cwd=self.workdir, env=env, capture_output=True, text=True, check=False)
        seconds = time.perf_counter() - started
        if proc.returncode != 0:
            raise BenchError('ansible-playbook of %s (%s) failed:\n%s\n%s' % (play.key, python, proc.stdout[-4000:], proc.stderr[-2000:]))
        with open(record, encoding='utf-8') as handle:
            records = json.load(handle)
        log = play.emulator.requests()
        if len(records) != play.count:
            raise BenchError('%s: %d task results for %d tasks: %s' % (play.key, len(records), play.count, records))
        if play.unchanged:
            bad = [r for r in records if r['changed'] or r['failed'] or r.get('writes')]
            writes = [r for r in log if r['method'] not in ('GET', 'HEAD', 'OPTIONS')]
            if bad or writes:
                raise BenchError('%s (%s): an unchanged task changed, failed or wrote: %s %s' % (play.key, python, bad, writes))
        return seconds, records, log, proc.stdout


def interleaved(runner, plays, pythons, repeats, label):
    """{python: {play key: [seconds of each round]}}: round after round, every play once with every python."""
    walls = {python: {play.key: [] for play in plays} for python in pythons}
    for round_index in range(repeats):
        started = time.perf_counter()
        for python in pythons:
            for play in plays:
                seconds, dummy_records, log, dummy_out = runner.run(play, python)
                walls[python][play.key].append(seconds)
                play.requests = len(log) / play.count if play.count else 0
        print('%s: round %d of %d in %.0f s' % (label, round_index + 1, repeats, time.perf_counter() - started), flush=True)
    return walls


def median(values):
    return statistics.median(values)


def excess(walls, key, baseline='empty'):
    """Median seconds of a play minus the median of the baseline play."""
    return median(walls[key]) - median(walls[baseline])


def setup(runner, emulator, dialect, python, modules=None):
    """Make what the unchanged tasks find; a first run may change."""
    names = [m for m in SETUP[dialect] if modules is None or m in modules]
    tasks = [dict(task(m, dict(UNCHANGED[m][1] or {}, **SETUP_EXTRA.get(m, {})), 'set up ' + m), no_log=m in SETUP_EXTRA)
             for m in names]
    runner.run(Play(runner.workdir, 'setup-%s-%s' % (dialect, emulator.size), emulator, tasks, unchanged=False), python)


def check_unchanged(runner, emulators, modules, python):
    """Each module's unchanged task once in each way, with its requests counted per task: {module: {way: requests}}."""
    requests = {}
    for dialect, emulator in emulators.items():
        names = [m for m in modules if UNCHANGED[m][0] == dialect]
        if not names:
            continue
        tasks = [task(m, UNCHANGED[m][1], '%s %s' % (m, way), process=way == 'process')
                 for m in names for way in ('controller', 'process')]
        dummy, records, dummy_log, dummy_out = runner.run(Play(runner.workdir, 'check-' + dialect, emulator, tasks), python,
                                                          count_requests=True)
        for record in records:
            module, way = record['task'].split()
            requests.setdefault(module, {})[way] = record['requests']
    return requests


def prove_process(runner, emulator, module, python):
    """Run ``module``'s unchanged task at -vvv both ways: as a module process, the collection's line and ansible-core's
    AnsiballZ_<module>.py are in the output; in the controller, the other line and no AnsiballZ file."""
    args = UNCHANGED[module][1]
    found = {}
    for way in ('process', 'controller'):
        play = Play(runner.workdir, 'proof-%s-%s' % (module, way), emulator, [task(module, args, module, way == 'process')])
        dummy, dummy_records, dummy_log, out = runner.run(play, python, verbosity=3)
        line = PROCESS_LINE if way == 'process' else CONTROLLER_LINE
        lines = [text.strip() for text in out.splitlines() if line in text]
        ansiballz = [text.strip() for text in out.splitlines() if 'AnsiballZ_%s.py' % module in text]
        if not lines or bool(ansiballz) != (way == 'process'):
            raise BenchError('-vvv of %s %s (%s): expected %r %s AnsiballZ_%s.py, got:\n%s'
                             % (module, way, python, line, 'and' if way == 'process' else 'without', module, out[-4000:]))
        found[way] = dict(line=lines[0], ansiballz=ansiballz[0] if ansiballz else None)
    return found


def verdict(value, limit, at_least=False):
    if value is None:
        return 'not measured'
    met = value >= limit if at_least else value <= limit
    return 'met' if met else 'missed'


# run in a Python of its own for each module: whether importing its action plugin (what ansible-core does before the
# fork) imports pydantic, and whether its unchanged task sets an option its model has a rule for (a module process
# loads pydantic only then: _kind.check_with_model); network_state checks each entry with its kind's model
PYDANTIC_PROBE = """
import importlib, json, sys
sys.path.insert(0, sys.argv[1])
module, args = sys.argv[2], json.loads(sys.argv[3])
action = importlib.import_module('ansible_collections.nms.overlay.plugins.action.' + module)
controller = 'pydantic' in sys.modules
from ansible_collections.nms.overlay.plugins.module_utils._tables import MODEL_OPTIONS
engine = action.ActionModule.engine
model = getattr(engine, 'model', None)
ruled = (MODEL_OPTIONS.get(model) or ((), tuple(getattr(engine, 'fields', ()))))[1] if model else ()
process = module == 'network_state' or any(args.get(name) is not None for name in ruled)
print(json.dumps(dict(controller=controller, process=process)))
"""


def pydantic_modules(modules, python, workdir):
    """{way: the modules whose unchanged task needs pydantic that way}, each found in a Python of its own
    (PYDANTIC_PROBE): in the controller those whose action plugin has pydantic imported once ansible-core has loaded
    it, before the task's fork; as a module process those whose task sets an option its model has a rule for."""
    collections = os.path.join(workdir, 'collections')
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=collections)
    found = {'controller': [], 'process': []}
    for module in modules:
        proc = subprocess.run([python, '-c', PYDANTIC_PROBE, collections, module, json.dumps(UNCHANGED[module][1] or {})],
                              env=env, capture_output=True, text=True, check=False)
        try:
            needs = json.loads(proc.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            raise BenchError('probing the action plugin of %s failed:\n%s' % (module, proc.stderr[-2000:])) from None
        for way, needed in needs.items():
            if needed:
                found[way].append(module)
    return found


def floor_of(module, data, way):
    """The floor a module is held to that way: the pydantic floor when its task needs pydantic, else the floor."""
    return 'pydantic_floor' if module in data.get('pydantic_modules', {}).get(way, ()) else 'floor'


def measure_modules(runner, emulators, modules, pythons, repeats):
    """Measures 1 and 2 for ``modules``: {'controller'|'process': {module: {python: ratio}}}, plus what backs them."""
    plays = [Play(runner.workdir, 'empty', emulators[NETBIRD], []),
             Play(runner.workdir, 'ping', emulators[NETBIRD],
                  [task('ansible.builtin.ping', None, 'ping %d' % i) for i in range(TASKS_PER_PLAY)])]
    plays += [Play(runner.workdir, '%s@%s' % (floor, way), emulators[NETBIRD],
                   [{'name': '%s %d' % (floor, i), ways[way][0]: dict(ways[way][1], paths=FLOOR_PATHS)}
                    for i in range(TASKS_PER_PLAY)])
              for floor, (dummy, ways) in FLOORS.items() for way in ('controller', 'process')]
    for module in modules:
        dialect, args = UNCHANGED[module]
        for way in ('controller', 'process'):
            plays.append(Play(runner.workdir, '%s@%s' % (module, way), emulators[dialect],
                              [task(module, args, '%s %d' % (module, i), way == 'process') for i in range(TASKS_PER_PLAY)]))
    walls = interleaved(runner, plays, pythons, repeats, 'S: %d plays' % len(plays))
    result = dict(walls=walls, baseline={}, controller={}, process={}, requests={p.key: p.requests for p in plays[2:]},
                  pydantic_modules=pydantic_modules(modules, pythons[0], runner.workdir), **{floor: {} for floor in FLOORS})
    for python in pythons:
        ping = excess(walls[python], 'ping')
        result['baseline'][python] = dict(empty_play=median(walls[python]['empty']), ping_task=ping / TASKS_PER_PLAY)
        for floor in FLOORS:
            for way in ('controller', 'process'):
                result[floor].setdefault(way, {})[python] = excess(walls[python], '%s@%s' % (floor, way)) / ping
        for module in modules:
            for way in ('controller', 'process'):
                task_seconds = excess(walls[python], '%s@%s' % (module, way))
                ratio = task_seconds / ping
                result[way].setdefault(module, {})[python] = dict(
                    ratio=ratio, task=task_seconds / TASKS_PER_PLAY, floor_ratio=ratio / result[floor_of(module, result, way)][way][python])
    return result


def measure_xl(runner, small, large, pythons, repeats):
    """Measure 3's playbook ratios: {python: {...}} from single-task plays minus the empty play."""
    uri = {'url': large.url + '/api/peers', 'return_content': True,
           'headers': {'Authorization': 'Token ' + large.token}}
    plays = [Play(runner.workdir, 'xl-empty', large, []),
             Play(runner.workdir, 'group@S', small, [task('group', GROUP, 'group at S')]),
             Play(runner.workdir, 'group@XL', large, [task('group', GROUP, 'group at XL')]),
             Play(runner.workdir, 'peer_info@XL', large, [task('peer_info', None, 'peer_info at XL')]),
             Play(runner.workdir, 'uri@XL', large, [dict(task('ansible.builtin.uri', uri, 'uri at XL'), no_log=True)])]
    walls = interleaved(runner, plays, pythons, repeats, 'XL: %d plays' % len(plays))
    figures = {}
    for python in pythons:
        seconds = {p.key: excess(walls[python], p.key, 'xl-empty') for p in plays[1:]}
        figures[python] = dict(seconds=seconds, peer_info_uri=seconds['peer_info@XL'] / seconds['uri@XL'],
                               group_xl_s=seconds['group@XL'] / seconds['group@S'])
    return dict(walls=walls, figures=figures, requests={p.key: p.requests for p in plays[1:]})


def machine():
    try:
        with open('/proc/cpuinfo', encoding='utf-8') as handle:
            model = [line.split(':', 1)[1].strip() for line in handle if line.startswith('model name')][:1]
    except OSError:
        model = []
    return dict(cpus=os.cpu_count(), cpu=model[0] if model else platform.processor(), system=platform.platform(),
                load_at_start=list(os.getloadavg()))


# --- the page ---------------------------------------------------------------------------------------------------------

def kept_where_the_time_goes(path):
    """The lead's text between the where-the-time-goes markers of the page as it is, or a marked placeholder."""
    try:
        with open(path, encoding='utf-8') as handle:
            text = handle.read()
    except OSError:
        text = ''
    found = re.search(re.escape(WHERE_BEGIN) + r'\n?(.*?)\n?' + re.escape(WHERE_END), text, re.S)
    if found and found.group(1).strip():
        return found.group(1).strip('\n')
    return '*To be written after profiling: where the time of each measure goes (left as is by `make bench`).*'


def table(header, rows):
    lines = ['| ' + ' | '.join(header) + ' |', '|' + '---|' * len(header)]
    return '\n'.join(lines + ['| ' + ' | '.join(str(cell) for cell in row) + ' |' for row in rows])


def fmt(value, digits=2):
    return '-' if value is None else '%.*f' % (digits, value)


def overall(values, limit, pairs, at_least=False):
    missed = [pair['short'] for pair, value in zip(pairs, values) if value is not None and verdict(value, limit, at_least) != 'met']
    if all(value is None for value in values):
        return 'not measured'
    return 'missed on ' + ', '.join(missed) if missed else 'met'


def module_table(data, way, pairs):
    """A module's unchanged task ÷ the floor it is held to, per pair (its ratio to ping beside it); the floors and
    baselines above them in seconds and as ratios to ping."""
    limit = TARGETS[way]
    header = (['module', 'server', 'requests per task', 'held to'] + ['%s: ÷ floor (÷ ping)' % pair['label'] for pair in pairs]
              + ['target', 'met/missed'])
    rows = [['*baseline: empty play, s*', '', '', ''] + [fmt(data['baseline'][p['python']]['empty_play'], 3) for p in pairs] + ['', ''],
            ['*baseline: ping, s per task*', '', '', ''] + [fmt(data['baseline'][p['python']]['ping_task'], 3) for p in pairs] + ['', '']]
    for name, (label, ways) in FLOORS.items():
        floor = data.get(name, {}).get(way)
        if floor:
            task_name, options = ways[way]
            shown = ', '.join([task_name] + ['%s: %s' % (key, str(value).lower()) for key, value in options.items()])
            rows.append(['*floor: %s (%s)*' % (label, shown), 'v0.27 (netbird)', '%g' % data['requests']['%s@%s' % (name, way)], '']
                        + ['1 (%s)' % fmt(floor[p['python']]) for p in pairs] + ['', ''])
    for module, by_python in data[way].items():
        values = [by_python[p['python']].get('floor_ratio') for p in pairs]
        server = 'v0.77 (current)' if UNCHANGED[module][0] == CURRENT else 'v0.27 (netbird)'
        held = 'pydantic floor' if floor_of(module, data, way) == 'pydantic_floor' else 'floor'
        rows.append(['`%s`' % module, server, '%g' % data['requests']['%s@%s' % (module, way)], held]
                    + ['%s (%s)' % (fmt(v), fmt(by_python[p['python']]['ratio'])) for v, p in zip(values, pairs)]
                    + ['<= %g x %s' % (limit, held), overall(values, limit, pairs)])
    return table(header, rows)


def xl_table(xl, inventory, pairs):
    header = ['measure'] + [pair['label'] for pair in pairs] + ['target', 'met/missed']
    rows = []

    def row(label, values, key):
        rows.append([label] + [fmt(v) for v in values] + ['<= %g' % TARGETS[key], overall(values, TARGETS[key], pairs)])
    if xl:
        figures = [xl['figures'].get(p['python']) for p in pairs]
        row('`peer_info` of all 25,000 peers ÷ `ansible.builtin.uri` GET /api/peers (return_content, no_log)',
            [f and f['peer_info_uri'] for f in figures], 'peer_info_uri')
        row('unchanged `group` task with two peers at XL ÷ the same task at S', [f and f['group_xl_s'] for f in figures], 'group_xl_s')
        for label, key in (('`peer_info` at XL, s', 'peer_info@XL'), ('`uri` at XL, s', 'uri@XL'),
                           ('`group` at XL, s', 'group@XL'), ('`group` at S, s', 'group@S')):
            rows.append(['*%s*' % label] + [fmt(f and f['seconds'][key], 3) for f in figures] + ['', ''])
    if inventory:
        values = [inventory.get(p['python'], {}).get('ratio') for p in pairs]
        row('`ansible-inventory --list` with the `nms.overlay.peers` plugin ÷ a static YAML inventory of the same hosts, '
            'groups and variables (%s hosts)' % next(iter(inventory.values()))['hosts'], values, 'inventory')
        for label, key in (('plugin, s', 'plugin_seconds'), ('static YAML, s', 'static_seconds')):
            rows.append(['*%s*' % label] + [fmt(inventory.get(p['python'], {}).get(key), 3) for p in pairs] + ['', ''])
    return table(header, rows)


def serving_table(serving):
    header = ['size', 'emulator, requests/s', 'static file server, requests/s', 'bytes', 'ratio', 'target', 'met/missed']
    rows = [[size, fmt(f['emulator_rps'], 1), fmt(f['static_rps'], 1), f['bytes'], fmt(f['ratio'], 3),
             '>= %g' % TARGETS['serving'], verdict(f['ratio'], TARGETS['serving'], at_least=True)]
            for size, f in serving.items()]
    return table(header, rows)


def not_measured_section(reasons):
    """The modules measures 1 and 2 leave out, each with the reason it has no unchanged task."""
    rows = ['- `%s`: %s.' % (module, reason) for module, reason in sorted(reasons.items())]
    return ('### Modules not in 1 and 2\n\nNo task of these leaves the server as it was without a write, so they have no '
            'unchanged task to time:\n\n%s' % '\n'.join(rows or ['- (none)']))


def short_paths(line):
    """A -vvv line with its temporary paths cut to their last part."""
    return re.sub(r'/\S*/', '.../', line)


def page(report, where):
    pairs = report['pairs']
    proof = '\n'.join('  - %s: `%s` and `%s`' % (pair['label'], found['process']['line'], short_paths(found['process']['ansiballz']))
                      for pair, found in ((pair, report['proof'].get(pair['python'])) for pair in pairs) if found)
    sections = []
    if report.get('modules'):
        sections.append('## 1. An unchanged task in the controller ÷ its floor\n\n'
                        'Ratio: (play of %d unchanged tasks − empty play) ÷ (play of %d floor tasks − empty play), in the same '
                        'run; a module whose task needs pydantic (its action plugin has pydantic imported before the fork) is '
                        'held to the pydantic floor. In brackets, each ÷ (play of %d '
                        '`ansible.builtin.ping` − empty play).\n\n%s'
                        % (TASKS_PER_PLAY, TASKS_PER_PLAY, TASKS_PER_PLAY, module_table(report['modules'], 'controller', pairs)))
        sections.append('## 2. The same task as a module process ÷ its floor\n\n'
                        'Every task with `vars: {%s: false}`, held to the floors of a module process (the pydantic floor where '
                        'the task sets an option its model has a rule for: a module process loads pydantic only then); the '
                        'same baselines.\n\n%s'
                        % (SWITCH, module_table(report['modules'], 'process', pairs)))
        sections.append(not_measured_section(report.get('not_measured') or {}))
    if report.get('xl') or report.get('inventory'):
        sections.append('## 3. The largest accounts: XL (25,000 peers)\n\nOne task per play; each figure (play with the task − '
                        'empty play), medians. The inventory figure is tests/bench/inventory.py\'s: `ansible-inventory --list` '
                        'with the plugin ÷ the same with a static YAML file of the same hosts, groups and variables.\n\n%s'
                        % xl_table(report.get('xl'), report.get('inventory'), pairs))
    if report.get('serving'):
        sections.append('## 4. The emulator serving `GET /api/peers` ÷ a static file server of the same JSON\n\n'
                        'Requests per second of each for %g s (tests/bench/serving.py): what the emulator itself adds to '
                        'the XL figures.\n\n%s' % (report['serving_seconds'], serving_table(report['serving'])))
    if report.get('big_build'):
        sections.append(big_build.section(report['big_build'], TARGETS['big_build']))
    if report.get('access_report'):
        sections.append(access_report.section(report['access_report']))
    if report.get('enrolment'):
        sections.append(enrolment.section(report['enrolment'], pairs))
    versions = ', '.join(p['label'] for p in pairs)
    m = report['machine']
    return PAGE.format(
        tasks=TASKS_PER_PLAY, repeats=report['repeats'], cpus=m['cpus'], cpu=m['cpu'], system=m['system'],
        load=', '.join('%.2f' % value for value in m['load_at_start']), date=report['date'], versions=versions,
        switch=SWITCH, proof=proof or '  - (not run: the run had no size S)', command=report['command'], sections='\n\n'.join(sections),
        where_begin=WHERE_BEGIN, where_end=WHERE_END, where=where)


PAGE = '''# Performance

Measured by `make bench` (`tests/bench/bench.py`, raw figures in `docs/performance.json`) on {date}:

```text
{command}
```

Every figure is a ratio to a baseline measured in the same run, which holds from one machine to another better
than seconds do.

## Method

- Every play is its own `ansible-playbook` run (`hosts: localhost`, `connection: local`, `gather_facts: false`),
  timed from outside. The **empty play** has the same header and no tasks.
- **Per-task cost** = (play of {tasks} identical tasks − empty play) ÷ {tasks}. A module's ratio is its per-task cost
  ÷ the per-task cost of `ansible.builtin.ping` (which always runs as a module process).
- **Unchanged**: resource modules find what a setup play made before any measurement, with the same arguments; info
  modules read with typical arguments (`docs/performance.json`, `unchanged_tasks`, has them all); `network_state` is
  given a small description it already applied. The bench stops with an error if one of these tasks changes, fails or
  writes: the `benchtimer` callback reports each task's result, and the emulator's request log of each play must hold
  no write. "Requests per task" is that log's count ÷ {tasks}.
- **In the controller** is how the tasks run by default on `localhost`. **As a module process** is the same task
  with `vars: {{{switch}: false}}`, as it runs on another host, with `become`, another interpreter or `async`.
  Every run checks that it really is a module process: at `-vvv` the task shows the collection's line and
  ansible-core's `AnsiballZ_<module>.py`, and the same task in the controller shows neither:
{proof}
- **The floor** of each way is measured the same way: a task that only reads the list an unchanged `group` task
  reads (`GET /api/groups`, whose All group names the peers) with `requests` and returns, and nothing else: in the
  controller an action plugin that imports `requests` before the fork (`tests/bench/action/requests_floor.py`), as a
  module process a small module (`tests/bench/library/requests_floor_module.py`). Where the floor itself misses a
  target, no module that keeps `requests` can meet it. The **pydantic floor** makes the same reads after validating its
  options with the smallest pydantic model (one option, one rule): in the controller pydantic is imported and the model
  built before the fork (`tests/bench/action/pydantic_floor.py`), as the collection's action plugins preload a kind's
  models; as a module process the same module imports pydantic when given `options_model: true`. Where it misses a
  target, no module whose task validates its options with pydantic can meet it.
- **Medians of interleaved repeats**: {repeats} round(s); in each, every play once in a fixed order, for each
  virtualenv in turn. At S: empty play, ping, the four floors, then each module in the controller and as a module process. At XL:
  empty play, `group` at S, `group` at XL, `peer_info`, `uri`.
- **Servers**: the emulator in the `netbird` dialect (a v0.27 server) at size S (100 peers, 5 groups) for every module
  it serves. The modules of what a v0.27 server lacks (Networks, DNS zones, identity providers, invites, the reverse
  proxy, the Agent Network, peer jobs and temporary access, the instance's setup) refuse it; they run against the
  `current` dialect (v0.77, with a connected proxy cluster), marked so. XL: 25,000 peers, 50 groups, 500 setup keys,
  `netbird` dialect.
- **Compiled files**: `PYTHONDONTWRITEBYTECODE` is left out of the plays' environment and the floors' files are
  compiled once before the first play (`compileall`, for each Python), as a controller keeps any package's compiled
  files after its first use. In the controller the collection's own files are compiled on every run all the same:
  ansible-core's collection loader compiles a collection's Python files from source each time it imports them (it
  reads no compiled files). A module process gets sources, and keeps their compiled code in the user's cache
  (`~/.cache/nms.overlay/bytecode`, docs/where-modules-run.md), which the first plays fill, as a user's first tasks do.
- Machine: {cpus} CPUs, shared with other work (seconds vary more than the ratios do):
  {cpu}, {system}, load average {load} at the start.
- Versions: {versions}.

{sections}

## Where the time goes

{where_begin}
{where}
{where_end}
'''


def main(argv=None):
    parser = argparse.ArgumentParser(description='Measure the ratios of issue 30 against the emulator')
    parser.add_argument('--sizes', default='S,XL', help='S: every module and the serving ratio; XL: the large-account ratios')
    parser.add_argument('--repeats', type=int, default=3)
    parser.add_argument('--modules', default='', help='comma-separated modules to measure at S (default: every module)')
    parser.add_argument('--output', default=os.path.join(REPO, 'docs', 'performance.md'))
    parser.add_argument('--json', default=None, help='the raw figures (default: the output with .json)')
    parser.add_argument('--serving-seconds', type=float, default=3.0)
    parser.add_argument('--no-enrolment', dest='enrolment', action='store_false',
                        help='leave out the enrolment with real agents (tests/bench/enrolment.py; it needs the real-server kit)')
    parser.add_argument('--compare-python', action='append', default=[],
                        help='also measure with the ansible-playbook of the virtualenv of this Python (another ansible-core)')
    args = parser.parse_args(argv)
    sizes = [s.strip() for s in args.sizes.split(',') if s.strip()]
    unknown = [s for s in sizes if s not in ('S', 'XL')]
    modules = [m.strip() for m in args.modules.split(',') if m.strip()] or measured_modules()
    excluded = ['%s (%s)' % (m, NOT_MEASURED[m]) for m in modules if m in NOT_MEASURED]
    missing = [m for m in modules if m not in UNCHANGED and m not in NOT_MEASURED]
    if unknown or missing or excluded:
        parser.error('unknown sizes %s, modules without an unchanged task %s, modules not measured by design %s'
                     % (unknown, missing, excluded))
    pythons = [sys.executable] + [os.path.abspath(p) for p in args.compare_python]
    for python in pythons:
        compile_floors(python)
    pairs = [versions_of(python) for python in pythons]
    report = dict(date=datetime.date.today().isoformat(), machine=machine(), repeats=args.repeats, sizes=sizes,
                  command='python -m tests.bench.bench ' + ' '.join(argv if argv is not None else sys.argv[1:]),
                  pairs=pairs, targets=TARGETS, tasks_per_play=TASKS_PER_PLAY, proof={}, serving={},
                  serving_seconds=args.serving_seconds, unchanged_tasks={m: dict(zip(('server', 'arguments'), UNCHANGED[m]))
                                                                         for m in modules},
                  not_measured=NOT_MEASURED)
    report['command'] = re.sub(r'--compare-python \S+/(\.venv[^/]*)/bin/python', r'--compare-python \1/bin/python', report['command'])
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix='nms-bench-') as workdir:
        runner = Runner(workdir)
        emulators = {}
        try:
            dialects = [NETBIRD] + ([CURRENT] if 'S' in sizes and any(UNCHANGED[m][0] == CURRENT for m in modules) else [])
            for dialect in dialects:
                emulators[dialect] = start('S', workdir, dialect)
                setup(runner, emulators[dialect], dialect, sys.executable, None if 'S' in sizes else ['group'])
            if 'S' in sizes:
                report['requests'] = {}
                for python in pythons:
                    report['requests'][python] = check_unchanged(runner, emulators, modules, python)
                    proof_module = 'group' if 'group' in modules else modules[0]
                    report['proof'][python] = prove_process(runner, emulators[UNCHANGED[proof_module][0]], proof_module, python)
                report['modules'] = measure_modules(runner, emulators, modules, pythons, args.repeats)
                report['serving']['S'] = list_speed(emulators[NETBIRD].url, emulators[NETBIRD].token,
                                                    seconds=args.serving_seconds)
            if 'XL' in sizes:
                large = emulators['XL'] = start('XL', workdir)
                setup(runner, large, NETBIRD, sys.executable, ['group'])
                report['xl'] = measure_xl(runner, emulators[NETBIRD], large, pythons, args.repeats)
                report['inventory'] = {}
                for python in pythons:
                    report['inventory'][python] = inventory_speed(
                        large, workdir, inventory_env(workdir, python), repeats=args.repeats,
                        ansible_inventory=os.path.join(os.path.dirname(python), 'ansible-inventory'))
                report['serving']['XL'] = list_speed(large.url, large.token, seconds=args.serving_seconds)
                report['big_build'] = big_build.report_figures(big_build.measure(workdir, big_build.BIG))
                report['access_report'] = access_report.report_figures(access_report.measure(workdir, access_report.BIG, args.repeats))
            if args.enrolment:
                report['enrolment'] = enrolment.measure(workdir, pythons, args.repeats)
        finally:
            for emulator in emulators.values():
                emulator.stop()
    report['seconds'] = time.perf_counter() - started
    report['verdicts'] = verdicts(report)
    text = page(report, kept_where_the_time_goes(args.output))
    with open(args.output, 'w', encoding='utf-8') as handle:
        handle.write(text)
    json_path = args.json or os.path.splitext(args.output)[0] + '.json'
    with open(json_path, 'w', encoding='utf-8') as handle:
        handle.write(without_machine_paths(json.dumps(report, indent=1, sort_keys=True)) + '\n')
    print(text)
    print('written to %s and %s in %.0f s' % (args.output, json_path, report['seconds']))
    return 0


def without_machine_paths(text):
    """Paths of this machine (the virtualenvs', the temporary files' of the -vvv proof) relative to the repository or
    shortened: docs/performance.json is part of the repository and points nowhere outside it."""
    return re.sub(r'/(?:tmp|root)/[^\s"]*/', '.../', text.replace(REPO + os.sep, ''))


def verdicts(report):
    """{measure: {python: 'met'|'missed'}} of every ratio measured, for a reader of the JSON."""
    found = {}
    modules = report.get('modules') or {}
    for way in ('controller', 'process'):
        for module, by_python in modules.get(way, {}).items():
            for python, figure in by_python.items():
                found.setdefault('%s %s' % (way, module), {})[python] = verdict(figure.get('floor_ratio'), TARGETS[way])
    for python, figure in ((report.get('xl') or {}).get('figures') or {}).items():
        for key in ('peer_info_uri', 'group_xl_s'):
            found.setdefault(key, {})[python] = verdict(figure[key], TARGETS[key])
    for python, figure in (report.get('inventory') or {}).items():
        found.setdefault('inventory', {})[python] = verdict(figure['ratio'], TARGETS['inventory'])
    for size, figure in report.get('serving', {}).items():
        found['serving ' + size] = verdict(figure['ratio'], TARGETS['serving'], at_least=True)
    if report.get('big_build'):
        found['big_build'] = verdict(report['big_build']['ratio'], TARGETS['big_build'])
    for play, figures in ((report.get('access_report') or {}).get('plays') or {}).items():
        found['access_report ' + play] = access_report.verdict(play, figures)
    found.update(enrolment.verdicts(report.get('enrolment') or {}))
    return found


if __name__ == '__main__':
    sys.exit(main())
