# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The collection's one documentation fragment: with either variant it documents the connection options and every
attribute, and each module names it with the one variant that fits it."""

from __future__ import annotations

import os

import pytest
import yaml

from ansible_collections.nms.overlay.plugins.doc_fragments.module import ModuleDocFragment
from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._kind import keeps_unique
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule, Settings, UpdateOnly
from ansible_collections.nms.overlay.plugins.module_utils._task import connection_argument_spec
from tests.support import fakes
from tests.support.modules import MODULES_DIR, doc_of, engine_of

MODULES = sorted(name[:-3] for name in os.listdir(MODULES_DIR) if name.endswith('.py') and name != '__init__.py')


@pytest.mark.parametrize('variant, check_mode', [('RESOURCE', 'without sending any write'), ('INFO_MODULE', 'Reads only')])
def test_each_variant_holds_the_connection_options_and_every_attribute(variant, check_mode):
    doc = yaml.safe_load(ModuleDocFragment.DOCUMENTATION)
    doc['attributes'].update(yaml.safe_load(getattr(ModuleDocFragment, variant))['attributes'])  # as ansible-doc merges them
    assert sorted(doc['options']) == sorted(connection_argument_spec())
    assert sorted(doc['attributes']) == ['action', 'action_group', 'check_mode', 'diff_mode']
    assert check_mode in doc['attributes']['check_mode']['description']
    assert doc['notes']


def test_the_created_secrets_variant_documents_the_options_the_engine_adds():
    from ansible_collections.nms.overlay.plugins.module_utils._secrets import secrets_file_options
    options = yaml.safe_load(ModuleDocFragment.CREATED_SECRETS)['options']
    assert {name: option['type'] for name, option in options.items()} == {
        name: option['type'] for name, option in secrets_file_options().items()}
    assert options['return_created_secrets']['default'] is secrets_file_options()['return_created_secrets']['default']


def documented_behaviours(engine):
    """The variants beyond the first that a module's engine calls for: each documents one engine behaviour."""
    variants = set()
    spec_checks = engine.validation()
    if issubclass(engine, InfoModule) and {'id', 'name'} <= set(spec_checks['argument_spec']) \
            and ['id', 'name'] in [list(pair) for pair in spec_checks['mutually_exclusive']]:
        variants.add('by_id_or_name')
    if issubclass(engine, ResourceModule) and not issubclass(engine, (Settings, UpdateOnly)) \
            and not keeps_unique(fakes.engine(engine, None)):
        variants.add('converge')
    if getattr(engine, 'requires', None):
        variants.add('current_servers')
    if 'created_secrets_file' in spec_checks['argument_spec']:
        variants.add('created_secrets')
    return variants


@pytest.mark.parametrize('module', MODULES)
def test_each_module_names_the_variants_that_fit_it(module):
    fragments = doc_of(module, 'DOCUMENTATION')['extends_documentation_fragment']
    variant = 'info_module' if module.endswith('_info') else 'resource'
    assert fragments[:2] == ['nms.overlay.module', 'nms.overlay.module.%s' % variant]
    assert set(fragments[2:]) == set('nms.overlay.module.%s' % name for name in documented_behaviours(engine_of(module)))


def test_the_id_or_name_filters_are_documented_as_the_engine_checks_them():
    """BY_ID_OR_NAME says that id excludes name; a module whose id excludes more says so in its own doc of id."""
    options = yaml.safe_load(ModuleDocFragment.BY_ID_OR_NAME)['options']
    assert sorted(options) == ['id', 'name'] and 'O(name)' in ' '.join(options['id']['description'])
    users = [module for module in MODULES if 'by_id_or_name' in documented_behaviours(engine_of(module))]
    assert len(users) >= 10
    for module in users:
        excluded = [b for a, b in engine_of(module).validation()['mutually_exclusive'] if a == 'id']
        if excluded != ['name']:
            own_doc = ' '.join(doc_of(module, 'DOCUMENTATION')['options']['id']['description'])
            assert all('O(%s)' % name in own_doc for name in excluded), module


@pytest.mark.parametrize('variant', ['CONVERGE', 'CURRENT_SERVERS'])
def test_a_behaviour_variant_adds_a_note_and_no_option(variant):
    fragment = yaml.safe_load(getattr(ModuleDocFragment, variant))
    assert fragment['options'] == {}
    assert len(fragment['notes']) == 1
