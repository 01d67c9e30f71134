"""make sanity runs ansible-test's Python-dependent tests on every Python the collection claims (issue 46, item 6).

The Makefile's SANITY_PYTHONS must be the Pythons of the README's support table and satisfy tests/config.yml; its
SANITY_MULTI must be every multi-version test of the ansible-test installed here (a new one would otherwise run on
the controller's Python only); a claimed Python that this ansible-test takes as target-only (3.11 on 2.20 and later:
modules and module_utils only) must be the one the oldest run tests as a controller.
"""

import glob
import importlib.metadata
import json
import os
import re

import ansible_test
import pytest

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')
ANSIBLE_TEST = os.path.dirname(ansible_test.__file__)


def read(*parts):
    with open(os.path.join(*parts), encoding='utf-8') as handle:
        return handle.read()


def make_variable(name):
    found = re.search(r'^%s\s*\?=\s*(.*)$' % re.escape(name), read(ROOT, 'Makefile'), re.MULTILINE)
    assert found, 'Makefile sets no %s' % name
    return found.group(1).split()


def version(text):
    return tuple(int(part) for part in text.split('.'))


def constant(name):
    """A tuple of Python versions from ansible-test's constants (a plain literal there)."""
    source = read(ANSIBLE_TEST, '_util', 'target', 'common', 'constants.py')
    found = re.search(r'^%s = \(([^)]*)\)' % name, source, re.MULTILINE)
    assert found, name
    return re.findall(r"'([0-9.]+)'", found.group(1))


def core_only(source):
    """Whether a test checks ansible-core's own sources only (mypy up to ansible-test 2.17: its filter_targets keeps
    lib/ansible/ and test/lib/ansible_test/ paths), so nothing of a collection."""
    return "target.path.startswith('lib/ansible/')" in source and 'data_context().content.is_ansible' not in source


def multi_version_tests():
    """The sanity tests this ansible-test runs once per Python: its SanityMultipleVersion classes (named by their
    file) and its code-smell scripts whose configuration sets multi_version."""
    names = set()
    for path in glob.glob(os.path.join(ANSIBLE_TEST, '_internal', 'commands', 'sanity', '*.py')):
        source = read(path)
        if re.search(r'^class \w+\(SanityMultipleVersion\)', source, re.MULTILINE) and not core_only(source):
            names.add(os.path.basename(path)[:-3].replace('_', '-'))
    for path in glob.glob(os.path.join(ANSIBLE_TEST, '_util', 'controller', 'sanity', 'code-smell', '*.json')):
        if json.loads(read(path)).get('multi_version'):
            names.add(os.path.basename(path)[:-5])
    return names


def test_the_sanity_pythons_are_the_claimed_ones():
    readme = read(ROOT, 'README.md')
    header = re.search(r'^ *\| ansible-core((?: \| Python [0-9.]+)+) \|$', readme, re.MULTILINE)
    assert header, 'README has no support table'
    claimed = re.findall(r'Python ([0-9.]+)', header.group(1))
    assert make_variable('SANITY_PYTHONS') == claimed
    minimum = re.search(r"python_requires:\s*'>=([0-9.]+)'", read(ROOT, 'tests', 'config.yml')).group(1)
    assert min(claimed, key=version) == minimum


def test_every_multi_version_test_runs_on_each_python():
    found = multi_version_tests()
    assert {'compile', 'import'} <= found, found  # the scan itself still finds what it must
    assert set(make_variable('SANITY_MULTI')) == found


def sanity_core():
    """The ansible-core make sanity's ansible-test comes from: requirements-dev.txt's pin (.venv)."""
    return re.search(r'^ansible-core==(\S+)$', read(ROOT, 'requirements-dev.txt'), re.MULTILINE).group(1)


@pytest.mark.skipif(importlib.metadata.version('ansible-core') != sanity_core(),
                    reason='which Pythons are target-only is asked of the ansible-test make sanity runs (.venv)')
def test_a_target_only_python_is_tested_as_a_controller_by_the_oldest_run():
    claimed = make_variable('SANITY_PYTHONS')
    target_only = [python for python in claimed if python in constant('REMOTE_ONLY_PYTHON_VERSIONS')]
    oldest = make_variable('OLDEST_PYTHON_VERSION')
    assert set(target_only) <= set(oldest), target_only
    assert make_variable('SANITY_OLDEST') == ['1']


@pytest.mark.parametrize('python', ['3.11', '3.12', '3.13'])
def test_each_claimed_python_is_one_ansible_test_knows(python):
    assert python in make_variable('SANITY_PYTHONS')
    known = constant('REMOTE_ONLY_PYTHON_VERSIONS') + constant('CONTROLLER_PYTHON_VERSIONS')
    if python not in known:  # ansible-core 2.16 and 2.17 know no 3.13: their range ends before it
        assert version(python) > max(version(known_one) for known_one in known)
