# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""pydantic is imported only where options are validated (issue 9): checked in a fresh interpreter."""

from __future__ import annotations

import json
import subprocess
import sys

from ansible_collections.nms.overlay.plugins.module_utils import _resource

COLLECTIONS_ROOT = _resource.__file__.split('/ansible_collections/', maxsplit=1)[0]

PROBE = '''
import importlib, json, sys
sys.path.insert(0, %r)
from ansible_collections.nms.overlay.plugins.inventory import peers
seen = {}
for name in ('group', 'group_info', 'peer_info', 'policy_info', 'event_info', 'dns_settings', 'policy'):
    # what the controller does when it loads the action plugin
    importlib.import_module('ansible_collections.nms.overlay.plugins.action.' + name)
    seen[name] = 'pydantic' in sys.modules
print(json.dumps(seen))
''' % COLLECTIONS_ROOT


def test_pydantic_is_loaded_only_by_a_module_that_validates_options():
    output = subprocess.run([sys.executable, '-c', PROBE], capture_output=True, text=True, check=True).stdout
    seen = json.loads(output.splitlines()[-1])
    # the inventory plugin, group, the info modules and dns_settings (whose model holds texts only) leave it alone;
    # policy's preload loads its model
    assert seen == {'group': False, 'group_info': False, 'peer_info': False, 'policy_info': False,
                    'event_info': False, 'dns_settings': False, 'policy': True}


CHECK_PROBE = '''
import json, sys, types
sys.path.insert(0, %r)
from ansible_collections.nms.overlay.plugins.module_utils._kind import check_with_model
from ansible_collections.nms.overlay.plugins.module_utils._resources.user import UserModule
seen = {}
for case, params in (('names', {'name': 'bot', 'auto_groups': ['ops']}), ('email', {'email': 'bot@example.com'})):
    engine = types.SimpleNamespace(model=UserModule.model, fields=UserModule.fields, natural_key=UserModule.natural_key,
                                   options=UserModule.options, params=params)
    check_with_model(engine)
    seen[case] = 'pydantic' in sys.modules
print(json.dumps(seen))
''' % COLLECTIONS_ROOT


def test_a_task_loads_pydantic_only_when_it_sets_an_option_with_a_rule_beyond_non_empty_text():
    output = subprocess.run([sys.executable, '-c', CHECK_PROBE], capture_output=True, text=True, check=True).stdout
    # a user's name and groups are checked as texts; its email has a rule of the model, which loads pydantic
    assert json.loads(output.splitlines()[-1]) == {'names': False, 'email': True}
