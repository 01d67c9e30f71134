# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The collection's one documentation fragment: with either variant it documents the connection options and every
attribute, and each module names it with the one variant that fits it."""

from __future__ import annotations

import os

import pytest
import yaml

from ansible_collections.nms.overlay.plugins.doc_fragments.module import ModuleDocFragment
from ansible_collections.nms.overlay.plugins.module_utils._task import connection_argument_spec
from tests.support.modules import MODULES_DIR, doc_of

MODULES = sorted(name[:-3] for name in os.listdir(MODULES_DIR) if name.endswith('.py') and name != '__init__.py')


@pytest.mark.parametrize('variant, check_mode', [('RESOURCE', 'without sending any write'), ('INFO_MODULE', 'Reads only')])
def test_each_variant_holds_the_connection_options_and_every_attribute(variant, check_mode):
    doc = yaml.safe_load(ModuleDocFragment.DOCUMENTATION)
    doc['attributes'].update(yaml.safe_load(getattr(ModuleDocFragment, variant))['attributes'])  # as ansible-doc merges them
    assert sorted(doc['options']) == sorted(connection_argument_spec())
    assert sorted(doc['attributes']) == ['action', 'action_group', 'check_mode', 'diff_mode']
    assert check_mode in doc['attributes']['check_mode']['description']
    assert doc['notes']


@pytest.mark.parametrize('module', MODULES)
def test_each_module_names_the_one_variant_that_fits_it(module):
    variant = 'info_module' if module.endswith('_info') else 'resource'
    assert doc_of(module, 'DOCUMENTATION')['extends_documentation_fragment'] == ['nms.overlay.module', 'nms.overlay.module.%s' % variant]
