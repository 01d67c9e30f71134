# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Adding a module is a checklist that fails at once (issue 45, item 8): one test names, for every module, each place it
is missing from, all in one run, in place of one failure at a time in stages that run late (the matrix in the
integration stage, the bench in make bench). CONTRIBUTING.md ("Adding a module") lists the same places."""

from __future__ import annotations

import ast
import os

import yaml

from ansible_collections.nms.overlay.plugins.plugin_utils._in_process import engine_class_name
from tests.scenarios.scenarios import SCENARIOS

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ACTION_MODEL = 'group'  # every action plugin is a copy of this module's, byte for byte (no link: antsibull-docs)


def read(*parts):
    with open(os.path.join(REPO, *parts), encoding='utf-8') as handle:
        return handle.read()


def assigned(path, name):
    """The value assigned to ``name`` at the top of a file, read without importing it (a test module of another stage
    registers markers and fixtures of its own): a literal, or the keys of a dict display."""
    for node in ast.parse(read(*path.split('/'))).body:
        if isinstance(node, ast.Assign) and any(getattr(target, 'id', None) == name for target in node.targets):
            if isinstance(node.value, ast.Dict):
                return [ast.literal_eval(key) for key in node.value.keys]
            return ast.literal_eval(node.value)
    raise AssertionError('%s assigns no %s' % (path, name))


def modules():
    return sorted(name[:-3] for name in os.listdir(os.path.join(REPO, 'plugins', 'modules'))
                  if name.endswith('.py') and not name.startswith('_'))


class Collection:
    """What the places hold, read once."""

    def __init__(self):
        self.action_dir = os.path.join(REPO, 'plugins', 'action')
        self.action_group = yaml.safe_load(read('meta', 'runtime.yml'))['action_groups']['all']
        self.readme_rows = [line for line in read('README.md').splitlines() if line.startswith('| `nms.overlay.')]
        self.compatibility_rows = [line.split('|')[1].strip() for line in read('docs', 'compatibility.md').splitlines()
                                   if line.startswith('| `nms.overlay.')]
        self.scenarios = {s.module for s in SCENARIOS} | {s.info[0] for s in SCENARIOS if s.info}
        matrix = 'tests/integration/test_matrix.py'
        self.matrix = {task['name'] for name in ('EVERY_MODULE', 'TODAYS_MODULES')
                       for task in yaml.safe_load(assigned(matrix, name))}
        self.bench = set(assigned('tests/bench/bench.py', 'UNCHANGED')) | set(assigned('tests/bench/bench.py', 'NOT_MEASURED'))
        self.changelog = read('CHANGELOG.rst') + ''.join(
            read('changelogs', 'fragments', name) for name in os.listdir(os.path.join(REPO, 'changelogs', 'fragments')))

    def action_plugin(self, module):
        path = os.path.join(self.action_dir, module + '.py')
        return (os.path.isfile(path) and not os.path.islink(path)
                and read('plugins', 'action', module + '.py') == read('plugins', 'action', ACTION_MODEL + '.py'))

    def engine_class(self, module):
        """The module's file runs the class its action plugin looks for (action_named in _in_process.py)."""
        path = os.path.join(REPO, 'plugins', 'modules', module + '.py')
        return os.path.exists(path) and '%s.main()' % engine_class_name(module) in read('plugins', 'modules', module + '.py')

    def readme(self, module):
        return any('`nms.overlay.%s`' % module in row or '`%s`' % module in row for row in self.readme_rows)


# place: (where a contributor adds the module, whether it is there)
PLACES = {
    'action plugin': ('plugins/action/MODULE.py, a copy (not a link) of plugins/action/%s.py '
                      '(cp plugins/action/%s.py plugins/action/MODULE.py)' % (ACTION_MODEL, ACTION_MODEL),
                      lambda c, m: c.action_plugin(m)),
    'engine class': ('plugins/modules/MODULE.py runs its engine class by the name its action plugin looks for '
                     '(<Module>Module.main(), as the others)', lambda c, m: c.engine_class(m)),
    'action group': ('meta/runtime.yml action_groups.all', lambda c, m: m in c.action_group),
    'README': ('the README\'s table of modules', lambda c, m: c.readme(m)),
    'compatibility page': ('docs/compatibility.md (NMS_WRITE_COMPATIBILITY=1 pytest tests/unit/test_compatibility.py)',
                           lambda c, m: '`nms.overlay.%s`' % m in c.compatibility_rows),
    'scenario': ('tests/scenarios/scenarios.py (a Scenario of it, or an info= of one)', lambda c, m: m in c.scenarios),
    'matrix': ('tests/integration/test_matrix.py (EVERY_MODULE, or TODAYS_MODULES for a module of today\'s servers)',
               lambda c, m: m in c.matrix),
    'bench': ('tests/bench/bench.py (UNCHANGED, or NOT_MEASURED with the reason)', lambda c, m: m in c.bench),
    'changelog': ('a changelog fragment naming it (changelogs/fragments), until a release puts it in CHANGELOG.rst',
                  lambda c, m: m in c.changelog),
}


def missing(collection, names):
    """{module: [where to add it, for each place it is missing from]}."""
    found = {}
    for module in names:
        lacking = [where for dummy, (where, present) in PLACES.items() if not present(collection, module)]
        if lacking:
            found[module] = [where.replace('MODULE', module) for where in lacking]
    return found


def test_every_module_is_in_every_place():
    lacking = missing(Collection(), modules())
    assert lacking == {}, 'modules missing from places every module is in:\n' + '\n'.join(
        '- %s: %s' % (module, '; '.join(places)) for module, places in sorted(lacking.items()))


def test_a_new_module_is_told_every_place_at_once():
    """A module that is nowhere yet (only its file) is told each place in one run, naming its files."""
    lacking = missing(Collection(), ['widget'])
    assert list(lacking) == ['widget'] and len(lacking['widget']) == len(PLACES) == 9
    assert lacking['widget'][0] == ('plugins/action/widget.py, a copy (not a link) of plugins/action/group.py '
                                    '(cp plugins/action/group.py plugins/action/widget.py)')
    assert lacking['widget'][1].startswith('plugins/modules/widget.py runs its engine class')


def test_a_module_in_some_places_is_told_only_the_others():
    collection = Collection()
    collection.scenarios.add('widget')
    collection.bench.add('widget')
    collection.action_group.append('widget')
    places = missing(collection, ['widget'])['widget']
    assert len(places) == len(PLACES) - 3
    assert not any(where.startswith(('tests/scenarios', 'tests/bench', 'meta/runtime.yml')) for where in places)
