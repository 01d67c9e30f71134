# -*- coding: utf-8 -*-
"""What each way of running a task imports (issue 30), counted by an audit hook (tests/support/import_audit), not timed.

- In the controller, every import of the collection, pydantic and requests happens in the main process, before it forks
  a task's worker: a worker that imports one of them again pays for it on every task.
- A module process imports its own kind and what that kind's file imports at its top, plus its own area of options
  models (and pydantic) when its task sets an option its kind's model has a rule for beyond non-empty text; never
  another kind's declaration, nor _kinds, which imports them all: a module process compiles every file it imports.
"""

from __future__ import annotations

import ast
import collections
import os

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._tables import MODEL_OPTIONS
from tests.support.emulator import make_peers
from tests.support.modules import engine_of

pytestmark = pytest.mark.dialects('netbird')

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AUDIT_DIR = os.path.join(REPO, 'tests', 'support', 'import_audit')
PACKAGE = 'ansible_collections.nms.overlay'
MAX_FILES = 23  # of the collection's own, packages aside, in any of the module processes below (today 18 to 22)


def unchanged_tasks(peer_names):
    """Tasks of several kinds of module, each unchanged on the second run: (module, options)."""
    return [
        ('group', {'name': 'audit', 'peers': peer_names}),
        ('policy', {'name': 'audit', 'enabled': True, 'rules': [{
            'name': 'web', 'action': 'accept', 'protocol': 'tcp', 'ports': ['443'], 'sources': ['audit'],
            'destinations': ['audit']}]}),
        ('setup_key', {'name': 'audit', 'type': 'reusable', 'auto_groups': ['audit']}),  # names only: no pydantic
        ('user', {'name': 'audit-bot', 'is_service_user': True, 'role': 'user'}),  # a name only: no pydantic
        ('peer', {'name': peer_names[0], 'ssh_enabled': True}),  # a peer named, no address: no pydantic
        ('token', {'user': 'audit-bot', 'name': 'audit', 'expires_in': 30}),  # a lifetime has a rule: pydantic
        ('route', {'network_id': 'audit', 'network': '10.9.0.0/24', 'peer_groups': ['audit'], 'groups': ['audit']}),
        ('peer_info', {'fields': ['name', 'ip']}),
        ('group_info', {'name': 'audit'}),
        ('account_settings', {'peer_login_expiration_enabled': True}),
    ]


def audited_run(run, emulator, tmp_path, tasks, in_process):
    """The unchanged tasks run again (no write), with (origin pid, pid, script, module) of every import the audit saw."""
    log = tmp_path / ('imports-%s.log' % ('in-process' if in_process else 'process'))
    steps = [{'name': module, 'nms.overlay.' + module: options, 'register': module} for module, options in tasks]
    emulator.clear_log()
    result = run(steps, ansible=True, extra_vars={'nms_overlay_in_process': in_process},
                 env={'PYTHONPATH': AUDIT_DIR, 'NMS_IMPORT_AUDIT': str(log)})
    assert result.rc == 0, result
    assert all(result[module]['changed'] is False for module, dummy in tasks), result
    assert not emulator.writes()
    lines = [line.split(' ', 3) for line in log.read_text(encoding='utf-8').splitlines()]
    return result, [(int(origin), int(pid), script, module) for origin, pid, script, module in lines]


@pytest.fixture
def tasks(emulator, run):
    make_peers(emulator, 'audit-a', 'audit-b')
    peers = [peer['name'] for peer in emulator.ok('GET', '/api/peers')[:2]]
    tasks = unchanged_tasks(peers)
    first = run([{'nms.overlay.' + module: options} for module, options in tasks])
    assert first.rc == 0, first
    return tasks


def test_a_task_in_the_controller_imports_nothing_after_the_fork(emulator, run, tmp_path, tasks):
    dummy_result, imports = audited_run(run, emulator, tmp_path, tasks, in_process=True)
    before_fork = {module for origin, pid, dummy, module in imports if origin == pid}
    # the audit sees the controller import the kinds of the modules and the libraries (ansible-core loads the action
    # plugins themselves without the import system)
    assert {PACKAGE + '.plugins.module_utils._resources.group', PACKAGE + '.plugins.module_utils._resources.policy', 'pydantic',
            'requests'} <= before_fork
    after_fork = sorted({module for origin, pid, dummy, module in imports if origin != pid})
    assert after_fork == [], 'imported in a task worker, after the fork (so once per task): %s' % after_fork


def source_of(module):
    """The file of one of the collection's Python modules."""
    return os.path.join(REPO, *module[len(PACKAGE) + 1:].split('.')) + '.py'


def top_level_closure(module):
    """The collection's files a Python file imports at its top (not inside functions), transitively."""
    seen, pending = set(), [module]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        path = source_of(name)
        if not os.path.exists(path):
            continue
        seen.add(name)
        with open(path, encoding='utf-8') as handle:
            tree = ast.parse(handle.read())
        for node in tree.body:  # top-level statements only (a try: import ... too)
            for child in ast.walk(node) if isinstance(node, (ast.Try, ast.If)) else [node]:
                if isinstance(child, ast.ImportFrom) and (child.module or '').startswith(PACKAGE):
                    pending.append(child.module)
                    pending.extend('%s.%s' % (child.module, alias.name) for alias in child.names)
    return seen


def test_a_module_process_imports_only_what_its_task_uses(emulator, run, tmp_path, tasks):
    dummy_result, imports = audited_run(run, emulator, tmp_path, tasks, in_process=False)
    # a module process starts as AnsiballZ_<module>.py (its script changes once the module runs): imports by process
    module_of = {pid: script[len('AnsiballZ_'):-len('.py')] for origin, pid, script, dummy in imports
                 if script.startswith('AnsiballZ_') and origin == pid}
    by_module = collections.defaultdict(set)
    for origin, pid, script, name in imports:
        if pid in module_of:
            by_module[module_of[pid]].add(name)
    assert sorted(by_module) == sorted(module for module, dummy in tasks)  # every task ran as a module process
    problems = []
    for module, imported in sorted(by_module.items()):
        own = {name for name in imported if name.startswith(PACKAGE + '.')}
        allowed = top_level_closure('%s.plugins.modules.%s' % (PACKAGE, module))
        # a task that sets an option its kind's model has a rule for (beyond non-empty text) loads its area of models
        # and pydantic to validate the options; any other task checks its texts without them
        model = getattr(engine_of(module), 'model', None)
        options = dict(tasks)[module]
        model_area = model.partition('.')[0] if model and any(name in options for name in MODEL_OPTIONS[model][1]) else ''
        if model_area:
            allowed |= top_level_closure('%s.plugins.module_utils._models_%s' % (PACKAGE, model_area))
        extra = sorted(name for name in own - allowed if not os.path.isdir(source_of(name)[:-len('.py')]))  # packages aside
        if extra:
            problems.append('%s imports what its file does not import at its top: %s' % (module, extra))
        if PACKAGE + '.plugins.module_utils._kinds' in own:
            problems.append('%s imports _kinds (every kind)' % module)
        if ('pydantic' in imported) != bool(model_area):
            problems.append('%s %s pydantic' % (module, 'imports' if 'pydantic' in imported else 'does not import'))
        files = [name for name in own if not os.path.isdir(source_of(name)[:-len('.py')])]
        if len(files) > MAX_FILES:
            problems.append('%s imports %d files of the collection (at most %d)' % (module, len(files), MAX_FILES))
    assert not problems, '\n'.join(problems)
