# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The collection uses only what ansible-core documents for plugin and module authors.

Every ``ansible.*`` name the plugins import, every attribute they read of an imported ansible-core
module object (``C.config``), and every private (``_name``) member of ansible-core's plugin base
classes they use must be in the allowlists below. Internals (``ansible.vars``, ``ansible.executor``,
the globals of ``ansible.module_utils.basic``) change between releases and broke the collection on
ansible-core 2.21: adding to these lists needs a reason that holds for every version we support.
"""

from __future__ import annotations

import ast
import importlib.util
import os

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLUGINS = os.path.join(REPO_ROOT, 'plugins')

# what the collection may import from ansible-core
IMPORTS = {
    'ansible.constants',                                    # config values: C.config.get_config_value
    'ansible.errors.AnsibleActionFail',
    'ansible.errors.AnsibleError',
    'ansible.errors.AnsibleLookupError',                    # a lookup's failure, as lookup plugins raise it
    'ansible.errors.AnsibleParserError',
    'ansible.inventory.group.to_safe_group_name',           # documented for constructed group names
    'ansible.module_utils.basic.AnsibleModule',
    'ansible.module_utils.basic.env_fallback',
    'ansible.module_utils.basic.missing_required_lib',
    'ansible.module_utils.common.arg_spec.ArgumentSpecValidator',
    'ansible.module_utils.common.validation.check_type_dict',
    'ansible.module_utils.errors.UnsupportedError',
    'ansible.module_utils.parsing.convert_bool.boolean',
    'ansible.plugins.action.ActionBase',
    'ansible.plugins.inventory.BaseInventoryPlugin',
    'ansible.plugins.inventory.Cacheable',
    'ansible.plugins.inventory.Constructable',
    'ansible.plugins.lookup.LookupBase',
    'ansible.template.trust_as_template',                   # 2.19+ (import guarded): inventory values that are no templates
    'ansible.utils.display.Display',
    'ansible.utils.unsafe_proxy.wrap_var',                  # results of server data are never templates
}

# attributes read of an imported ansible-core module object
MODULE_ATTRIBUTES = {
    'C.config.get_config_value',
    'C.DEFAULT_KEEP_REMOTE_FILES',
}

# writes to ansible-core's module globals: none (a failed inventory source stops the run with a SystemExit)
WRITES = set()

# the private members of ansible-core's base classes that their documentation gives plugin authors
BASE_MEMBERS = {
    'ActionBase': {'_task', '_connection', '_play_context', '_templar', '_execute_module',
                   '_supports_check_mode', '_supports_async'},
    'BaseInventoryPlugin': {'_read_config_data', '_cache', '_set_composite_vars', '_add_host_to_composed_groups',
                            '_add_host_to_keyed_groups', '_options'},
}


def plugin_files():
    for folder, dummy_dirs, files in os.walk(PLUGINS):
        for name in files:
            if name.endswith('.py'):
                yield os.path.join(folder, name)


def parse(path):
    with open(path, encoding='utf-8') as handle:
        return ast.parse(handle.read(), path)


def imported_names(tree):
    """{local name: full dotted ansible-core name} of one file, and the full names imported."""
    local = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split('.')[0] == 'ansible':
                    local[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom) and (node.module or '').split('.')[0] == 'ansible':
            for alias in node.names:
                local[alias.asname or alias.name] = '%s.%s' % (node.module, alias.name)
    return local


def dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return '.'.join(reversed(parts))
    return None


def own_members(trees):
    """Names the collection itself defines as methods or ``self.`` attributes (not ansible-core's)."""
    names = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                names.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == 'self':
                        names.add(target.attr)
    return names


def is_module(full_name):
    try:
        return importlib.util.find_spec(full_name) is not None
    except (ImportError, ValueError):
        return False


def scan(tree, own):
    """What one file uses of ansible-core: 'import X', 'attribute C.x.y', 'member _x', 'write basic._X'."""
    local = imported_names(tree)
    found = ['import ' + name for name in local.values()]
    modules = {name for name, full in local.items() if is_module(full)}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        name = dotted(node)
        if name and name.split('.', maxsplit=1)[0] in modules:
            found.append(('write ' if isinstance(node.ctx, ast.Store) else 'attribute ') + name)
        if isinstance(node.value, ast.Name) and node.value.id == 'self' and node.attr.startswith('_') \
                and not node.attr.startswith('__') and node.attr not in own:
            found.append('member ' + node.attr)
    return found


def uses():
    """(file, what) for every ansible-core name or member a plugin file uses."""
    trees = {path: parse(path) for path in plugin_files()}
    own = own_members(trees.values())
    return [(os.path.relpath(path, REPO_ROOT), what) for path, tree in trees.items() for what in scan(tree, own)]


def longest_attribute_chains(found):
    """Only the longest ``attribute`` chain of each expression (C.config and C.config.get_config_value)."""
    attributes = {what for dummy, what in found if what.startswith('attribute ')}
    return [(where, what) for where, what in found
            if not (what.startswith('attribute ') and any(other.startswith(what + '.') for other in attributes))]


def allowed_uses():
    return ({'import ' + name for name in IMPORTS} | {'attribute ' + name for name in MODULE_ATTRIBUTES}
            | {'member ' + name for members in BASE_MEMBERS.values() for name in members}
            | {'write ' + name for name in WRITES})


def test_only_allowlisted_ansible_core_interfaces_are_used():
    found = longest_attribute_chains(uses())
    allowed = allowed_uses()
    outside = sorted('%s: %s' % pair for pair in found if pair[1] not in allowed)
    assert not outside, 'ansible-core interfaces outside the allowlist:\n' + '\n'.join(outside)
    # the scan sees what it must: a sample of each kind
    kinds = {what.split(' ')[0] for dummy, what in found}
    assert {'import', 'attribute', 'member'} <= kinds


def test_the_scan_catches_internals():
    """The check above can fail: internals of every kind, written as the old in-process runner had them."""
    source = '''
from ansible import constants as C
from ansible.module_utils import basic
from ansible.vars.clean import remove_internal_keys
from ansible.plugins.action import ActionBase

class Action(ActionBase):
    def run(self, tmp=None, task_vars=None):
        basic._ANSIBLE_ARGS = b'{}'
        self._update_module_args('x', {}, task_vars)
        self._task.args
        return C.DEFAULT_DEBUG or self._parse_returned_data({})
'''
    found = set(scan(ast.parse(source), own={'run'}))
    allowed = allowed_uses()
    assert found - allowed == {
        'import ansible.module_utils.basic', 'import ansible.vars.clean.remove_internal_keys',
        'write basic._ANSIBLE_ARGS', 'member _update_module_args', 'member _parse_returned_data', 'attribute C.DEFAULT_DEBUG'}
    assert found & allowed == {'import ansible.constants', 'import ansible.plugins.action.ActionBase', 'member _task'}
