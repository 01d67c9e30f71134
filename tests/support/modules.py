# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The collection's module files as the tests read them (without importing them, but for ``engine_of``)."""

from __future__ import annotations

import ast
import importlib
import os

import yaml

MODULES_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                           'plugins', 'modules')


def doc_of(module, name):
    """A module's DOCUMENTATION, EXAMPLES or RETURN (``name``) as YAML data, read from its source without
    importing it."""
    with open(os.path.join(MODULES_DIR, module + '.py'), encoding='utf-8') as handle:
        tree = ast.parse(handle.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, 'id', None) == name for t in node.targets):
            return yaml.safe_load(node.value.value)
    raise AssertionError('%s has no %s' % (module, name))


def documentation(module, connection=True):
    """A module's DOCUMENTATION as ansible-doc shows it: with the options, attributes and notes of the collection's
    fragment variants it names (its own entries first, and winning). ``connection=False`` leaves out the base fragment
    (the connection options and attributes every module shares)."""
    from ansible_collections.nms.overlay.plugins.doc_fragments.module import ModuleDocFragment
    doc = doc_of(module, 'DOCUMENTATION')
    for name in doc.pop('extends_documentation_fragment', []):
        if name == 'nms.overlay.module' and not connection:
            continue
        variant = 'DOCUMENTATION' if name == 'nms.overlay.module' else name.rsplit('.', 1)[1].upper()
        fragment = yaml.safe_load(getattr(ModuleDocFragment, variant))
        for key in ('options', 'attributes'):
            merged = dict(doc.get(key) or {})
            merged.update((option, value) for option, value in (fragment.get(key) or {}).items() if option not in merged)
            if merged:
                doc[key] = merged
        doc['notes'] = (doc.get('notes') or []) + (fragment.get('notes') or [])
    return doc


def examples_of(module):
    """The EXAMPLES tasks of a module."""
    return doc_of(module, 'EXAMPLES')


def engine_of(module):
    """The engine class (an NmsModule) of a module, as its action plugin runs it (this one imports the plugin)."""
    return importlib.import_module('ansible_collections.nms.overlay.plugins.action.%s' % module).ActionModule.engine


def example_network(dialect=None):
    """The example network as the build_network playbook holds it; with a dialect, as the playbook builds it on that
    server: the office LAN as a route on v0.27, as a Network (with a DNS zone) on a v0.77 server (``current``)."""
    import copy
    with open(os.path.join(os.path.dirname(os.path.dirname(MODULES_DIR)), 'playbooks', 'build_network.yml'),
              encoding='utf-8') as handle:
        play_vars = yaml.safe_load(handle)[0]['vars']
    example = copy.deepcopy(play_vars['nms_example_network'])
    if dialect is None:
        return example
    extra = play_vars['nms_example_office_network' if dialect == 'current' else 'nms_example_office_route']
    for kind, items in extra.items():
        example[kind] = example.get(kind, []) + copy.deepcopy(items)  # the playbook's list_merge='append'
    return example
