# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The figures of issue 29 ("A small engine"), kept: each test fails when one grows back.

- no import cycle among the collection's files, and no import inside a function but the documented lazy ones;
- no class of module_utils over 250 lines, ResourceModule with at most 20 methods of its own;
- a kind defines only the hooks the engine names (``Kind.HOOKS``), never a step of the lifecycle;
- no strategy (UpdateOnly, Settings, SecretOnCreate, CreateOnly) redefines a step of the CRUD lifecycle (issue 45);
- no block of six or more lines of code written twice in plugins/;
- at most 40 distinct functions of the collection run by an unchanged task, 49 by a rename;
- every resource write sent by the store (_store.py) or the client, nowhere else.
"""

from __future__ import annotations

import ast
import collections
import functools
import inspect
import os
import re
import sys
import threading
import types
import uuid

import pytest

from ansible_collections.nms.overlay.plugins.module_utils import _create, _kind, _kinds, _network_plan, _resource
from ansible_collections.nms.overlay.plugins.module_utils._tables import MODEL_OPTIONS
from tests.support.emulator import make_peers
from ansible_collections.nms.overlay.plugins.plugin_utils._in_process import run_engine, task_environment
from tests.support.inprocess import run_module
from tests.support.modules import engine_of

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
PLUGINS = os.path.join(REPO_ROOT, 'plugins')
PACKAGE = 'ansible_collections.nms.overlay'

# 250 until issue 43, 4: ResourceModule.matching looks a long list up in its index (3 lines); 284 since issue 45, 3:
# the steps read what the strategies declare (where they replace, retire, take namesakes, refuse to create or change),
# where SecretOnCreate redefined 7 steps, CreateOnly 3, UpdateOnly and Settings one each (the engine's files: -22 lines)
MAX_CLASS_LINES = 284
MAX_ENGINE_METHODS = 20
MAX_FUNCTIONS_UNCHANGED = 40  # 34 in issue 29; + the answer check without places (_fits), the read by name (_named) and
# the no_log values found by the function network_state's described secrets share (no_log_values, once a loop of run_engine);
# + a group's prepare_update (issue 46, 10: peers_mode), which leaves out follow-ups and merge_desired when nothing changes;
# + mask_values (issue 46, 16: ansible-core 2.22 deprecates the remove_values the action plugin masked with)
# + url_problem (issue 45, 5: the http(s) URL rule written once, api_url's check and the URL options' alike)
# a rename also + send and put_object (issue 45, 4: every write through the store, _store.py)
MAX_FUNCTIONS_RENAME = 49
MIN_REPEATED_LINES = 6

MODEL_AREAS = ('access', 'dns_zones', 'identity', 'networks', 'peers', 'proxies', 'routing')
# The imports inside a function that are allowed: (file, function, imported module or names) -> why it is lazy.
LAZY_IMPORTS = {
    ('plugins/module_utils/_kind.py', 'load_model', PACKAGE + '.plugins.module_utils._models'):
        "the options models import pydantic (third-party, about half a ping in a module process), loaded only by a task "
        "whose kind validates with a model",
}
LAZY_IMPORTS.update({
    ('plugins/module_utils/_kind.py', 'load_model', PACKAGE + '.plugins.module_utils: _models_' + area):
        "a task imports its own kind's area of models only (one statement each, so that ansible-core packs them all)"
    for area in MODEL_AREAS})
LAZY_IMPORTS.update({
    ('plugins/module_utils/_client.py', 'Client.__init__', 'urllib3'):
        "third-party, needed only to silence the insecure-request warning when validate_certs is false",
    ('plugins/module_utils/_client.py', 'Client.__init__', 'urllib3.exceptions'):
        "third-party, needed only to silence the insecure-request warning when validate_certs is false",
})
# (The inventory plugin's ansible.template is a version-gated import at module level: try/except ImportError.)

# code objects that are parts of a function rather than functions of their own (Python 3.12 and later inline
# comprehensions anyway); lambdas count
COMPREHENSIONS = frozenset(('<genexpr>', '<listcomp>', '<dictcomp>', '<setcomp>'))


def relative(path):
    return os.path.relpath(os.path.realpath(path), REPO_ROOT).replace(os.sep, '/')


def plugin_files():
    found = []
    for folder, dirs, files in os.walk(PLUGINS):
        dirs[:] = sorted(d for d in dirs if d != '__pycache__')
        found.extend(os.path.join(folder, name) for name in sorted(files) if name.endswith('.py'))
    return found


@functools.lru_cache(maxsize=None)
def parsed(path):
    with open(path, encoding='utf-8') as stream:
        text = stream.read()
    return text, ast.parse(text, path)


# -- imports --------------------------------------------------------------------------------------------------------

def module_file(dotted):
    """The file under plugins/ of a module of the collection (a package: its __init__.py), or None."""
    if not dotted.startswith(PACKAGE + '.plugins'):
        return None
    base = os.path.join(REPO_ROOT, *dotted[len(PACKAGE) + 1:].split('.'))
    for candidate in (base + '.py', os.path.join(base, '__init__.py')):
        if os.path.isfile(candidate):
            return candidate
    return None


def dotted_name(path):
    parts = relative(path)[:-len('.py')].split('/')
    if parts[-1] == '__init__':
        parts.pop()
    return '.'.join([PACKAGE] + parts)


def imported_modules(path, node):
    """The full names of the modules an import statement of ``path`` names (for ``from x import y``: x.y where that is
    a module of the collection, else x)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ''
    if node.level:
        package = dotted_name(path).split('.')
        if not path.endswith('__init__.py'):
            package.pop()
        package = package[:len(package) - node.level + 1]
        base = '.'.join(package + ([base] if base else []))
    names = []
    for alias in node.names:
        child = '%s.%s' % (base, alias.name)
        names.append(child if module_file(child) else base)
    return names


def import_graph():
    """{file: {imported file: line of the first import}} for the collection's imports of its own files."""
    graph = {}
    for path in plugin_files():
        edges = graph.setdefault(path, {})
        for node in ast.walk(parsed(path)[1]):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for name in imported_modules(path, node):
                    target = module_file(name)
                    if target and target != path:
                        edges.setdefault(target, node.lineno)
    return graph


def strongly_connected(graph):
    """The groups of files that import one another in a circle (Tarjan's algorithm, without recursion)."""
    index, low, on_stack, stack, groups = {}, {}, set(), [], []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(graph.get(target, ()))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(group)
    return groups


def one_cycle(graph, group):
    """A shortest circle through the first file of ``group`` by path (breadth first inside the group)."""
    members = set(group)
    start = min(group)
    previous = {start: None}
    queue = collections.deque([start])
    while queue:
        node = queue.popleft()
        for target in sorted(graph[node]):
            if target == start:
                chain = [node]
                while previous[chain[-1]] is not None:
                    chain.append(previous[chain[-1]])
                return list(reversed(chain)) + [start]
            if target in members and target not in previous:
                previous[target] = node
                queue.append(target)
    return [start]


def test_no_import_cycle_among_the_collections_files():
    graph = import_graph()
    groups = strongly_connected(graph)
    described = []
    for group in groups:
        cycle = one_cycle(graph, group)
        steps = ' -> '.join('%s:%d' % (relative(a), graph[a][b]) for a, b in zip(cycle, cycle[1:]))
        described.append('%d files import one another in a circle (%s), such as: %s -> %s'
                         % (len(group), ', '.join(sorted(relative(path) for path in group)), steps, relative(cycle[-1])))
    assert not described, '\n'.join(described)


def functions_with_imports(path):
    """(qualified name of the function, line, imported module) of every import inside a function or method."""
    found = []

    def visit(node, scope, in_function):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                visit(child, scope + [child.name], in_function or not isinstance(child, ast.ClassDef))
            elif isinstance(child, ast.Lambda):
                visit(child, scope + ['<lambda>'], True)
            else:
                if in_function and isinstance(child, (ast.Import, ast.ImportFrom)):
                    # the module as written (``from . import x`` keeps its dots), and for ``from package import
                    # modules`` the names too: allowing a lazy import of the models allows no other file
                    names = ([alias.name for alias in child.names] if isinstance(child, ast.Import)
                             else ['.' * child.level + (child.module or '') + (
                                 ': ' + ', '.join(sorted(alias.name for alias in child.names))
                                 if (child.module or '').endswith('module_utils') else '')])
                    found.extend(('.'.join(scope), child.lineno, name) for name in names)
                visit(child, scope, in_function)

    visit(parsed(path)[1], [], False)
    return found


def test_no_import_inside_a_function_but_the_documented_lazy_ones():
    unexpected, used = [], set()
    for path in plugin_files():
        for function, line, module in functions_with_imports(path):
            key = (relative(path), function, module)
            if key in LAZY_IMPORTS:
                used.add(key)
            else:
                unexpected.append('%s:%d: %s imports %s' % (key[0], line, function, module))
    stale = ['%s: %s no longer imports %s: remove it from LAZY_IMPORTS' % key for key in LAZY_IMPORTS if key not in used]
    assert not unexpected + stale, '\n'.join(
        ['imports inside a function (import at the top of the file; a lazy import of a third-party library needs an '
         'entry in LAZY_IMPORTS with its reason):'] + unexpected + stale)


# -- classes --------------------------------------------------------------------------------------------------------

def test_no_class_of_module_utils_is_longer_than_250_lines():
    long_ones = []
    for path in plugin_files():
        if not relative(path).startswith('plugins/module_utils/'):
            continue
        for node in ast.walk(parsed(path)[1]):
            if isinstance(node, ast.ClassDef):
                first = min([node.lineno] + [decorator.lineno for decorator in node.decorator_list])
                length = node.end_lineno - first + 1
                if length > MAX_CLASS_LINES:
                    long_ones.append('%s:%d: class %s has %d lines' % (relative(path), first, node.name, length))
    assert not long_ones, 'classes longer than %d lines:\n%s' % (MAX_CLASS_LINES, '\n'.join(long_ones))


def is_method(value):
    """Whether a class attribute is a method or a property (rather than data)."""
    return isinstance(value, (types.FunctionType, classmethod, staticmethod, property, functools.partialmethod))


def test_the_engine_has_at_most_20_methods():
    """ResourceModule with every base it runs on below NmsModule (the create protocol, the declaration base): their
    methods but the hooks a kind may define (Kind.HOOKS, whose defaults are declarations), at most 20 in all."""
    hooks = set(_kind.Kind.HOOKS)
    chain = [cls for cls in _resource.ResourceModule.__mro__ if issubclass(cls, _kind.Kind)]
    assert {cls.__name__ for cls in chain} >= {'ResourceModule', 'CreateOnce', 'Kind'}, chain
    methods = sorted(set('%s.%s' % (cls.__name__, name) for cls in chain for name, value in vars(cls).items()
                         if is_method(value) and name not in hooks))
    assert len(methods) <= MAX_ENGINE_METHODS, 'the engine has %d methods (at most %d): %s' % (
        len(methods), MAX_ENGINE_METHODS, ', '.join(methods))


# -- kinds ----------------------------------------------------------------------------------------------------------

def defined_in_resources(cls):
    path = getattr(sys.modules.get(cls.__module__), '__file__', None) or ''
    return '/plugins/module_utils/_resources/' in path.replace(os.sep, '/')


def defined_in_class(cls, value):
    """Whether a class attribute is a method or property written in the class's body; a module-level function set as
    data (a kind's ``shape = staticmethod(public_setup_key)``) is not."""
    function = value
    if isinstance(value, (classmethod, staticmethod)):
        function = value.__func__
    elif isinstance(value, property):
        function = value.fget
    elif isinstance(value, functools.partialmethod):
        function = value.func
    return isinstance(function, types.FunctionType) and function.__qualname__.startswith(cls.__qualname__ + '.')


def kind_classes():
    """Every kind class and each base of one that a file under _resources defines (a mixin such as InNetwork)."""
    found = []
    for kind in _kinds.RESOURCES:
        for cls in kind.__mro__:
            if defined_in_resources(cls) and cls not in found:
                found.append(cls)
    return found


def test_a_kind_defines_only_hooks():
    """A kind declares data and the hooks of Kind.HOOKS; a method of its own (a helper, __init__, a step of the
    lifecycle) is an offender, and so is a name the engine defines as a method set to anything else (``find = ...``)."""
    hooks = set(_kind.Kind.HOOKS)
    classes = kind_classes()
    assert len(classes) >= len(_kinds.RESOURCES) >= 16
    offenders = []
    for cls in classes:
        engine_methods = set()
        for base in cls.__mro__[1:]:
            if base is not object and not defined_in_resources(base):
                engine_methods.update(name for name, value in vars(base).items() if defined_in_class(base, value))
        where = '%s.%%s (%s)' % (cls.__name__, relative(inspect.getfile(cls)))
        for name, value in vars(cls).items():
            if name in hooks:
                continue
            if defined_in_class(cls, value):
                offenders.append(where % name + ': a method that is no hook')
            elif name in engine_methods:
                offenders.append(where % name + ': replaces a method of the engine')
    assert not offenders, 'kinds define what is not in Kind.HOOKS (make it a module-level function, or data):\n' + \
        '\n'.join(offenders)


# -- repeated code --------------------------------------------------------------------------------------------------

PUNCTUATION_RE = re.compile(r'^[\s()\[\]{},:;.]*$')
DOCUMENTATION_NAMES = frozenset(('DOCUMENTATION', 'EXAMPLES', 'RETURN'))


def skipped_lines(tree):
    """Lines that are no code for this check: imports, docstrings and the modules' DOCUMENTATION/EXAMPLES/RETURN."""
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            skipped.update(range(node.lineno, node.end_lineno + 1))
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in DOCUMENTATION_NAMES for t in node.targets):
            skipped.update(range(node.lineno, node.end_lineno + 1))
        elif isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                skipped.update(range(first.lineno, first.end_lineno + 1))
    return skipped


def code_lines(path):
    """[(line number, text with white space folded)] of the lines of code of a file."""
    text, tree = parsed(path)
    skipped = skipped_lines(tree)
    lines = []
    for number, line in enumerate(text.splitlines(), 1):
        folded = ' '.join(line.split())
        if number in skipped or not folded or folded.startswith('#') or PUNCTUATION_RE.match(folded):
            continue
        lines.append((number, folded))
    return lines


def repeated_blocks(files, size=MIN_REPEATED_LINES):
    """Pairs of places with ``size`` or more identical lines of code: [(lines, (file, first, last), (file, first,
    last))], longest first. Two places in one file must not overlap."""
    code = {path: code_lines(path) for path in files}
    places = collections.defaultdict(list)
    for path, lines in code.items():
        for start in range(len(lines) - size + 1):
            places[tuple(text for dummy, text in lines[start:start + size])].append((path, start))
    matches = set()
    for found in places.values():
        for index, first in enumerate(found):
            for second in found[index + 1:]:
                if first[0] != second[0] or second[1] - first[1] >= size:
                    matches.add((first, second))
    blocks = []
    for (path_a, a), (path_b, b) in sorted(matches):
        if ((path_a, a - 1), (path_b, b - 1)) in matches:
            continue  # inside a longer block, reported from its start
        length = size
        while ((path_a, a + length - size + 1), (path_b, b + length - size + 1)) in matches:
            length += 1
        lines_a, lines_b = code[path_a], code[path_b]
        blocks.append((length, (relative(path_a), lines_a[a][0], lines_a[a + length - 1][0]),
                       (relative(path_b), lines_b[b][0], lines_b[b + length - 1][0])))
    return sorted(blocks, key=lambda block: (-block[0], block[1], block[2]))


def test_repeated_blocks_finds_a_repeated_block(tmp_path):
    body = ''.join('    total += %d\n' % n for n in range(7))
    one, two = tmp_path / 'one.py', tmp_path / 'two.py'
    one.write_text('import os\n\n\ndef a(total):\n    """A."""\n%s    return total\n' % body)
    two.write_text('def b(total):\n    # the same\n%s    return total + 1\n' % body)
    blocks = repeated_blocks([str(one), str(two)])
    assert [(length, a[1:], b[1:]) for length, a, b in blocks] == [(7, (6, 12), (3, 9))]


def test_no_block_of_six_lines_is_repeated_in_plugins():
    files = [path for path in plugin_files() if not relative(path).startswith('plugins/doc_fragments/')]
    blocks = repeated_blocks(files)
    for length, (path_a, first_a, last_a), (path_b, first_b, last_b) in blocks:
        print('%d lines: %s:%d-%d ~ %s:%d-%d' % (length, path_a, first_a, last_a, path_b, first_b, last_b))
    assert not blocks, '%d blocks of %d or more lines of code are written twice (printed above): %s' % (
        len(blocks), MIN_REPEATED_LINES, '; '.join('%s:%d ~ %s:%d' % (a[0], a[1], b[0], b[1]) for dummy, a, b in blocks))


# -- functions a task runs ------------------------------------------------------------------------------------------

@pytest.fixture
def fake_clock_always():
    """The real clock here (this overrides tests/unit/conftest.py's fake one): a task runs the collection's clock."""
    return None


@pytest.fixture
def netbird(emulators):
    """The worker's netbird emulator, shared with other tests (not reset: this test's names are its own)."""
    return emulators.get('netbird')


def functions_run(name, args, environment):
    """(result, the distinct functions of the collection the task ran: {(file, line, name)}), counted with a profiler
    in this thread and in the threads the task starts (the client reads each answer in one), from the engine's entry
    on: run_engine, what the action plugin calls once it has checked the options' shapes (as the issue's baseline of
    69 and 84 was counted; the action plugin's own steps around it are no part of the lifecycle)."""
    plugins = PLUGINS + os.sep
    seen = set()
    real_paths = {}  # co_filename: its real path (the collection is imported through a link to this tree)

    def profile(frame, event, dummy_arg):
        code = frame.f_code
        if event == 'call' and code.co_name not in COMPREHENSIONS:
            path = real_paths.get(code.co_filename)
            if path is None:
                path = real_paths[code.co_filename] = os.path.realpath(code.co_filename)
            if path.startswith(plugins):
                seen.add((relative(path), code.co_firstlineno, code.co_name))

    engine = engine_of(name)
    with task_environment(environment):
        threading.setprofile(profile)
        sys.setprofile(profile)
        try:
            result = run_engine(engine, dict(args), 'nms.overlay.%s' % name)
        finally:
            sys.setprofile(None)
            threading.setprofile(None)
    return result, seen


def listed(seen):
    return '\n'.join('  %s:%d %s' % item for item in sorted(seen))


def test_a_task_runs_few_functions_of_the_collection(netbird):
    environment = {'NMS_API_URL': netbird.url, 'NMS_API_TOKEN': netbird.token}
    tag = uuid.uuid4().hex[:8]
    make_peers(netbird, 'arch-a-' + tag, 'arch-b-' + tag)
    group = {'name': 'arch-' + tag, 'peers': ['arch-a-' + tag, 'arch-b-' + tag]}
    created = run_module('group', group, environment=environment)
    assert created.get('changed') is True and not created.get('failed'), created
    run_module('group', group, environment=environment)  # what a first run imports is not the task's work

    result, unchanged = functions_run('group', group, environment)
    assert result.get('changed') is False and not result.get('failed'), result

    group_id = created['group']['id']
    renamed = run_module('group', {'id': group_id, 'name': 'arch-renamed-' + tag}, environment=environment)
    assert renamed.get('changed') is True and not renamed.get('failed'), renamed
    result, rename = functions_run('group', {'id': group_id, 'name': 'arch-again-' + tag}, environment)
    assert result.get('changed') is True and not result.get('failed'), result

    problems = []
    if len(unchanged) > MAX_FUNCTIONS_UNCHANGED:
        problems.append('an unchanged group task runs %d functions of the collection (at most %d):\n%s'
                        % (len(unchanged), MAX_FUNCTIONS_UNCHANGED, listed(unchanged)))
    if len(rename) > MAX_FUNCTIONS_RENAME:
        problems.append('a rename runs %d functions of the collection (at most %d):\n%s'
                        % (len(rename), MAX_FUNCTIONS_RENAME, listed(rename)))
    print('unchanged: %d functions, rename: %d' % (len(unchanged), len(rename)))
    assert not problems, '\n'.join(problems)


def test_every_answer_field_has_one_type_declared_by_the_kinds():
    """The answer types are the kinds' declarations (fields and ``answers``) and those of the modules that read other
    answers: a name means one type wherever it is declared, and the old global table's fields are all there."""
    from ansible_collections.nms.overlay.plugins.module_utils._client import FLAG, FREE_FORM, LIST, NUMBER, OBJECT, TEXT
    from ansible_collections.nms.overlay.plugins.module_utils._kinds import JSON_TYPES, answer_types
    from tests.support.modules import engine_of
    declared = collections.defaultdict(set)
    sources = [(cls.__name__, dict(cls.answers)) for cls in _kinds.RESOURCES]
    sources += [(name, dict(engine_of(name).answers)) for name in ('event_info', 'location_info')]

    def options(owner, name, spec):
        kind = JSON_TYPES.get(spec.get('type', 'str'))
        if kind:
            declared[name].add((kind, owner))
        for sub_name, sub_spec in (spec.get('options') or {}).items():
            options(owner, sub_name, sub_spec)

    for cls in _kinds.RESOURCES:
        for name, field in cls.fields.items():
            options(cls.__name__, name, dict(field.spec, type=field.answer) if field.answer else field.spec)
    for owner, answers in sources:
        for name, kind in answers.items():
            if kind:
                declared[name].add((kind, owner))
    conflicts = {name: sorted(pairs) for name, pairs in declared.items() if len(set(kind for kind, dummy in pairs)) > 1}
    assert not conflicts, conflicts
    types = dict(answer_types(), **engine_of('event_info').answers, **engine_of('location_info').answers)
    # every field the collection's one global table typed before the kinds declared them keeps its type
    before = dict(
        {name: TEXT for name in (
            'name', 'description', 'email', 'role', 'status', 'issued', 'ip', 'connection_ip', 'os', 'kernel_version',
            'version', 'user_id', 'hostname', 'ui_version', 'dns_label', 'country_code', 'country_name', 'city_name',
            'serial_number', 'action', 'protocol', 'network', 'network_id', 'network_type', 'peer', 'type', 'state',
            'key', 'activity', 'activity_code', 'initiator_id', 'initiator_email', 'initiator_name', 'target_id',
            'created_by', 'created_at', 'expiration_date', 'expires', 'last_login', 'last_seen', 'last_used',
            'updated_at', 'timestamp', 'ns_type', 'jwt_groups_claim_name', 'min_version', 'min_kernel_version',
            'dashboard_view')},
        **{name: NUMBER for name in (
            'peers_count', 'accessible_peers_count', 'geoname_id', 'metric', 'usage_limit', 'used_times', 'expires_in',
            'port', 'peer_login_expiration')},
        **{name: FLAG for name in (
            'connected', 'ssh_enabled', 'login_expiration_enabled', 'login_expired', 'approval_required', 'enabled',
            'bidirectional', 'masquerade', 'primary', 'search_domains_enabled', 'revoked', 'valid', 'ephemeral',
            'is_current', 'is_service_user', 'is_blocked', 'peer_login_expiration_enabled', 'regular_users_view_blocked',
            'groups_propagation_enabled', 'jwt_groups_enabled', 'peer_approval_enabled')},
        **{name: LIST for name in (
            'groups', 'peers', 'accessible_peers', 'rules', 'sources', 'destinations', 'ports', 'source_posture_checks',
            'auto_groups', 'peer_groups', 'nameservers', 'domains', 'jwt_allow_groups', 'disabled_management_groups',
            'locations', 'ranges')},
        **{name: OBJECT for name in (
            'permissions', 'settings', 'extra', 'checks', 'nb_version_check', 'os_version_check',
            'geo_location_check', 'peer_network_range_check', 'personal_access_token', 'android', 'darwin', 'ios',
            'linux', 'windows')},
        meta=FREE_FORM,
    )
    assert {name: types.get(name) for name in before} == before
    assert 'id' not in types  # ids are numbers on some servers, text on others: not checked


def test_every_module_of_a_kind_imports_its_own_kind_only():
    """A module file imports its kind from its own file in _resources, never _kinds (which imports every kind): a module
    process compiles what it imports, and the tables a task needs of the other kinds are in _tables.py."""
    offenders = []
    for path in plugin_files():
        if not relative(path).startswith(('plugins/modules/', 'plugins/inventory/', 'plugins/action/')):
            continue
        for node in ast.walk(parsed(path)[1]):
            if isinstance(node, ast.ImportFrom) and (node.module or '').endswith(('._kinds', '._registry')):
                offenders.append('%s:%d imports %s' % (relative(path), node.lineno, node.module))
    assert not offenders, '\n'.join(offenders)


def test_the_tables_are_what_the_declarations_give():
    """_tables.py (the resolver's table, the answers' types, the usage table) is written from the kinds' declarations by
    `make tables`; it must not fall behind them."""
    with open(os.path.join(REPO_ROOT, 'plugins', 'module_utils', '_tables.py'), encoding='utf-8') as handle:
        written = handle.read()
    assert written == _kinds.tables_source(), 'plugins/module_utils/_tables.py differs from the declarations: run make tables'


# issue 45, item 5: the kinds that checked options by hand check them with their options model, like every other
MODEL_CHECKED = ('identity_provider', 'agent_network_provider', 'user_invite', 'instance', 'peer_job', 'user_password',
                 'peer_temporary_access', 'agent_network_settings', 'agent_network_policy', 'agent_network_budget_rule')


@pytest.mark.parametrize('module', MODEL_CHECKED)
def test_a_kind_checks_its_options_with_its_model_not_by_hand(module):
    """No class of the kind's chain in the kinds' files defines check_options (the engine's check_with_model runs),
    and the kind names a model that the tables hold."""
    cls = engine_of(module)
    by_hand = [base.__name__ for base in cls.__mro__ if defined_in_resources(base) and 'check_options' in vars(base)]
    assert by_hand == [], '%s check options by hand' % by_hand
    assert cls.model in MODEL_OPTIONS


# issue 45, item 4: one write seam
WRITE_METHODS = ('post', 'put', 'delete', 'patch', 'request')
WRITE_SEAM = ('plugins/module_utils/_store.py', 'plugins/module_utils/_client.py')


def client_writes(tree):
    """(line, source) of each call in ``tree`` that sends a write through a client without the store: a client's
    post/put/delete/patch/request, or a method of a client taken by a name that is not written out (getattr)."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in WRITE_METHODS and 'client' in ast.unparse(func.value):
            found.append((node.lineno, ast.unparse(node)))
        elif isinstance(func, ast.Name) and func.id == 'getattr' and node.args and 'client' in ast.unparse(node.args[0]):
            name = node.args[1] if len(node.args) > 1 else None
            if not (isinstance(name, ast.Constant) and name.value not in WRITE_METHODS):
                found.append((node.lineno, ast.unparse(node)))
    return found


def test_every_resource_write_goes_through_the_store():
    offenders = []
    for path in plugin_files():
        where = relative(path)
        if where in WRITE_SEAM:
            continue
        offenders += ['%s:%d %s' % (where, line, text) for line, text in client_writes(parsed(path)[1])]
    assert offenders == [], 'writes sent around the store (_store.send):\n  ' + '\n  '.join(offenders)


@pytest.mark.parametrize('source', ['task.client.put(path, body)', 'self.client.delete(self.object_path(obj))',
                                    "getattr(self.client, step['method'].lower())(path, body)",
                                    'self.client.request("POST", path, body)'])
def test_the_write_seam_check_finds_a_write_around_the_store(source):
    assert [text for dummy, text in client_writes(ast.parse(source))]
    assert client_writes(ast.parse('self.client.get_object(path); getattr(task.client, "render_planned_write", None)')) == []


# -- one lifecycle -----------------------------------------------------------------------------------------------------

def crud_steps():
    """The steps of the CRUD lifecycle: the methods ResourceModule and its create protocol write, but the hooks."""
    hooks = set(_kind.Kind.HOOKS)
    return {name for cls in (_resource.ResourceModule, _create.CreateOnce) for name, value in vars(cls).items()
            if is_method(value) and name not in hooks and not name.startswith('__')}


def steps_redefined(classes):
    """``Class.step`` for each step of the lifecycle a class below ResourceModule defines again (as a method or data)."""
    steps = crud_steps()
    return sorted('%s.%s' % (cls.__qualname__, name) for cls in classes for name in vars(cls) if name in steps)


def classes_below(base):
    found, todo = [], list(base.__subclasses__())
    while todo:
        cls = todo.pop()
        if cls not in found and cls.__module__.startswith(PACKAGE + '.plugins.'):
            found.append(cls)
            todo.extend(cls.__subclasses__())
    return found


def test_no_strategy_redefines_a_step_of_the_lifecycle():
    """The CRUD path is written once: a strategy (or a kind) changes what a step does through the data and hooks the
    step reads (``not_creatable``, ``updatable``, ``replace``, ``retired``, ``take_created``, ``report``...)."""
    assert {'run', 'find', 'present', 'absent', 'create', 'update', 'delete', 'post_once', 'converge'} <= crud_steps()
    classes = classes_below(_resource.ResourceModule)
    names = {cls.__name__ for cls in classes}
    assert {'UpdateOnly', 'Settings', 'SecretOnCreate', 'CreateOnly', 'GroupMembership'} <= names, names
    assert _network_plan.GroupMembership in classes
    assert steps_redefined(classes) == []


def test_the_redefinition_check_finds_a_redefined_step():
    class Retiring(_resource.UpdateOnly):
        def delete(self, obj):
            return 'kept'

    class Finding(_resource.Settings):
        find = None

    assert steps_redefined([Retiring, Finding]) == [
        'test_the_redefinition_check_finds_a_redefined_step.<locals>.Finding.find',
        'test_the_redefinition_check_finds_a_redefined_step.<locals>.Retiring.delete']


def test_a_settings_kind_with_state_absent_says_how_its_deletion_is_confirmed():
    """Settings has no absent of its own: a singleton of it that offers state=absent (the account) must declare
    confirm_delete, or the engine's absent would delete it unconfirmed."""
    settings = [cls for cls in classes_below(_resource.Settings) if cls in _kinds.RESOURCES]
    assert len(settings) >= 2, settings
    deletable = [cls for cls in settings if 'absent' in (cls.full_argument_spec().get('state') or {}).get('choices', ())]
    assert [cls.__name__ for cls in deletable] == ['AccountSettingsModule']
    assert [cls.__name__ for cls in deletable if cls.confirm_delete is None] == []
