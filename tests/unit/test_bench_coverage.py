# -*- coding: utf-8 -*-
"""`make bench` covers every module: each has an unchanged task (tests/bench/bench.py UNCHANGED) or is listed as
having none, with the reason (NOT_MEASURED), which the page shows. A module added without either fails here rather
than stopping `make bench`."""

from __future__ import annotations

import ast
import importlib.util
import os

import pytest
import yaml

from tests.bench import bench


def string_constants(path, body=lambda tree: tree.body):
    """{name: text} of the string constants a Python file assigns (at the top, or in the body ``body`` picks)."""
    with open(path, encoding='utf-8') as handle:
        tree = ast.parse(handle.read())
    return {target.id: node.value.value for node in body(tree) if isinstance(node, ast.Assign)
            for target in node.targets if isinstance(target, ast.Name) and isinstance(node.value, ast.Constant)}


def in_classes(tree):
    return [node for cls in tree.body if isinstance(cls, ast.ClassDef) for node in cls.body]


def fragment_documents():
    """{fragment name: its YAML} of the collection's doc fragments (nms.overlay.module, nms.overlay.module.resource...)."""
    found = {}
    for file_name in os.listdir(os.path.join(bench.REPO, 'plugins', 'doc_fragments')):
        if not file_name.endswith('.py'):  # __pycache__, where Python keeps compiled files
            continue
        stem = file_name[:-3]
        for name, text in string_constants(os.path.join(bench.REPO, 'plugins', 'doc_fragments', file_name), in_classes).items():
            found['nms.overlay.%s' % stem if name == 'DOCUMENTATION' else 'nms.overlay.%s.%s' % (stem, name.lower())] = text
    return found


FRAGMENTS = fragment_documents()


def documented_options(module):
    """The options a module's DOCUMENTATION lists, its doc fragments' included."""
    document = yaml.safe_load(string_constants(os.path.join(bench.REPO, 'plugins', 'modules', module + '.py'))['DOCUMENTATION'])
    options = set(document.get('options') or {})
    for fragment in document.get('extends_documentation_fragment') or []:
        options |= set(yaml.safe_load(FRAGMENTS[fragment]).get('options') or {})
    return options


def test_every_module_has_an_unchanged_task_or_a_reason_for_none():
    modules = set(bench.modules_of_collection())
    assert len(modules) > 60  # the listing found the modules
    neither = modules - set(bench.UNCHANGED) - set(bench.NOT_MEASURED)
    assert not neither, 'add an unchanged task to UNCHANGED (and what it needs to SETUP), or the reason to NOT_MEASURED: %s' % sorted(neither)
    assert not set(bench.UNCHANGED) & set(bench.NOT_MEASURED)
    assert not (set(bench.UNCHANGED) | set(bench.NOT_MEASURED)) - modules, 'entries of modules the collection does not have'
    assert bench.measured_modules() == sorted(bench.UNCHANGED)
    assert all(reason.strip() for reason in bench.NOT_MEASURED.values())


@pytest.mark.parametrize('module', sorted(bench.UNCHANGED))
def test_an_unchanged_task_gives_only_options_of_its_module(module):
    dialect, args = bench.UNCHANGED[module]
    assert dialect in (bench.NETBIRD, bench.CURRENT)
    assert not set(args or {}) - documented_options(module)


def test_the_setup_makes_what_unchanged_tasks_of_its_dialect_find():
    shared = {'group'}  # made on both servers: the tasks of the current dialect name the same group
    for dialect, modules in bench.SETUP.items():
        assert len(modules) == len(set(modules)), dialect
        assert [m for m in modules if m not in bench.UNCHANGED] == []
        assert [m for m in modules if bench.UNCHANGED[m][0] != dialect and m not in shared] == []
    current = bench.SETUP[bench.CURRENT]
    providers = [m for m in current if m.startswith('agent_network_') and m != 'agent_network_settings']
    assert current.index('agent_network_settings') < min(current.index(m) for m in providers)  # bootstrapped first


def test_a_module_not_measured_is_refused_with_its_reason(capsys):
    with pytest.raises(SystemExit) as exc:  # before any emulator starts
        bench.main(['--sizes', 'S', '--modules', 'group,peer_job', '--output', os.devnull])
    assert exc.value.code == 2
    error = capsys.readouterr().err
    assert 'peer_job (%s)' % bench.NOT_MEASURED['peer_job'] in error and "'group'" not in error


def test_the_page_lists_the_modules_not_measured_with_their_reason():
    section = bench.not_measured_section(bench.NOT_MEASURED)
    for module, reason in bench.NOT_MEASURED.items():
        assert '- `%s`: %s.' % (module, reason) in section


def floor_module():
    """tests/bench/library/requests_floor_module.py, the module process floors' module, loaded as a module."""
    path = os.path.join(bench.REPO, 'tests', 'bench', 'library', 'requests_floor_module.py')
    spec = importlib.util.spec_from_file_location('requests_floor_module', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pydantic_floor_validates_its_options_with_a_model_that_has_a_rule():
    model = floor_module().options_model()
    assert model.model_validate({'paths': ['/api/groups']}).paths == ['/api/groups']
    with pytest.raises(ValueError, match='every path starts with /'):  # pydantic's ValidationError is a ValueError
        model.model_validate({'paths': ['api/groups']})


def test_every_floor_of_the_bench_is_a_task_its_plugin_paths_hold():
    for label, ways in bench.FLOORS.values():
        assert label
        action, dummy = ways['controller']
        module, dummy = ways['process']
        assert os.path.isfile(os.path.join(bench.FLOOR_ACTIONS, action + '.py'))
        assert os.path.isfile(os.path.join(bench.FLOOR_LIBRARY, module + '.py'))
