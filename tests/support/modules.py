# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The collection's module files as the tests read them (without importing them, but for ``requires``)."""

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


def examples_of(module):
    """The EXAMPLES tasks of a module."""
    return doc_of(module, 'EXAMPLES')


def requires(module):
    """What of today's servers a module manages (its engine's ``requires``, such as 'DNS zones'), or None for a
    module that v0.27 servers serve too. Imports the module's action plugin, which names its engine."""
    action = importlib.import_module('ansible_collections.nms.overlay.plugins.action.%s' % module)
    return action.ActionModule.engine.requires
