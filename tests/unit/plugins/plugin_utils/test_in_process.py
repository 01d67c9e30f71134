# -*- coding: utf-8 -*-
"""Unit tests of the in-process runner: when a module may run in the worker, and how it runs there."""

from __future__ import annotations

import json
import os
import sys
import types
from unittest import mock

import pytest

from ansible.module_utils import basic
from ansible_collections.nms.overlay.plugins.plugin_utils import _in_process
from ansible_collections.nms.overlay.plugins.plugin_utils._in_process import (
    InProcessAction, action_for, run_main, same_path,
)

FAKE = 'nms_overlay_fake_module'


@pytest.fixture
def fake_module(monkeypatch):
    """A module named FAKE whose behaviour the test picks with the option ``do``."""
    module = types.ModuleType(FAKE)

    def main():
        ansible = basic.AnsibleModule(argument_spec=dict(do=dict(type='str', default='ok'),
                                                         secret=dict(type='str', no_log=True),
                                                         api_token=dict(type='str', no_log=True)),
                                      supports_check_mode=True)
        do = ansible.params['do']
        if do == 'fail':
            ansible.fail_json(msg='it failed')
        if do == 'crash':
            raise RuntimeError('boom with %s' % ansible.params['secret'])
        if do == 'exit-none':
            sys.exit()
        if do == 'exit-text':
            sys.exit('a plain exit message')
        if do == 'stderr':
            sys.stderr.write('noise on stderr\n')
        ansible.exit_json(changed=False, env=os.environ.get('NMS_FAKE_ENV'), check=ansible.check_mode,
                          echo=ansible.params['secret'])

    module.main = main
    monkeypatch.setitem(sys.modules, FAKE, module)
    return FAKE


def result_of(output):
    return json.loads(output)


def test_run_main_returns_the_result_and_exit_code(fake_module):
    output, dummy_errors, code = run_main(fake_module, {'_ansible_check_mode': True}, {})
    result = result_of(output)
    assert code == 0
    assert result['changed'] is False and result['check'] is True


def test_run_main_masks_no_log_values_like_a_module_process(fake_module):
    output, dummy_errors, dummy_code = run_main(fake_module, {'secret': 'hunter2-value'}, {})
    assert 'hunter2-value' not in output
    assert result_of(output)['echo'] == 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER'


def test_run_main_applies_the_task_environment_and_restores_it(fake_module, monkeypatch):
    monkeypatch.setenv('NMS_FAKE_ENV', 'before')
    monkeypatch.delenv('NMS_FAKE_NEW', raising=False)
    output, dummy_errors, dummy_code = run_main(fake_module, {}, {'NMS_FAKE_ENV': 'from-task', 'NMS_FAKE_NEW': 'task only'})
    assert result_of(output)['env'] == 'from-task'
    assert os.environ['NMS_FAKE_ENV'] == 'before'
    assert 'NMS_FAKE_NEW' not in os.environ
    assert basic._ANSIBLE_ARGS is None  # pylint: disable=protected-access


def test_run_main_reports_fail_json_with_exit_code_1(fake_module):
    output, dummy_errors, code = run_main(fake_module, {'do': 'fail'}, {})
    assert code == 1
    assert result_of(output)['failed'] is True and result_of(output)['msg'] == 'it failed'


def test_run_main_turns_a_crash_into_a_failed_result_with_the_traceback(fake_module):
    output, dummy_errors, code = run_main(fake_module, {'do': 'crash', 'secret': 'tok-123', 'api_token': 'tok-123'}, {})
    result = result_of(output)
    assert code == 1
    assert result['failed'] is True
    assert result['msg'] == 'MODULE FAILURE: RuntimeError: boom with ********'
    assert 'Traceback' in result['exception'] and "raise RuntimeError('boom with %s'" in result['exception']
    assert 'tok-123' not in output


def test_run_main_treats_a_bare_exit_as_success(fake_module):
    dummy_output, dummy_errors, code = run_main(fake_module, {'do': 'exit-none'}, {})
    assert code == 0


def test_run_main_keeps_stderr_and_the_text_of_sys_exit_like_a_process(fake_module):
    output, errors, code = run_main(fake_module, {'do': 'stderr'}, {})
    assert code == 0 and result_of(output)['changed'] is False
    assert errors == 'noise on stderr\n'
    output, errors, code = run_main(fake_module, {'do': 'exit-text'}, {})
    assert (output, errors, code) == ('', 'a plain exit message\n', 1)


def test_same_path_compares_paths_as_written(tmp_path):
    assert same_path(sys.executable, os.path.join(os.path.dirname(sys.executable), '.', os.path.basename(sys.executable)))
    venv_python = tmp_path / 'python'
    venv_python.symlink_to(sys.executable)
    # a virtualenv's python links to the same binary but has other packages
    assert not same_path(str(venv_python), sys.executable)


def test_action_for_preloads_the_module_class(monkeypatch):
    from ansible_collections.nms.overlay.plugins.module_utils._access import PolicyModule
    preloaded = []
    monkeypatch.setattr(PolicyModule, 'preload', classmethod(preloaded.append))
    action = action_for('policy')
    assert action.module_name == 'policy' and issubclass(action, InProcessAction)
    assert preloaded == [PolicyModule]


def test_preload_loads_the_options_model_only_where_there_is_one():
    from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule
    loaded = []

    class WithModel(ResourceModule):
        model = staticmethod(lambda: loaded.append('model'))

    WithModel.preload()
    ResourceModule.preload()  # no model: nothing to load
    assert loaded == ['model']


def make_action(transport='local', become=False, async_val=0, delegate_to=None):
    task = mock.MagicMock(async_val=async_val, delegate_to=delegate_to, args={})
    connection = mock.MagicMock(transport=transport)
    play_context = mock.MagicMock(become=become)
    templar = mock.MagicMock()
    templar.template.side_effect = lambda value: value
    action = InProcessAction(task, connection, play_context, loader=mock.MagicMock(), templar=templar,
                             shared_loader_obj=mock.MagicMock())
    action.module_name = 'group'
    return action


HERE = {'ansible_python_interpreter': sys.executable}


@pytest.mark.parametrize('action_kw, task_vars, reason', [
    ({}, HERE, ''),
    ({}, dict(HERE, nms_overlay_in_process=False), 'nms_overlay_in_process is false'),
    ({}, dict(HERE, nms_overlay_in_process='no'), 'nms_overlay_in_process is false'),
    ({'transport': 'ssh'}, HERE, 'the connection is ssh, not local'),
    ({'become': True}, HERE, 'become is set'),
    ({'async_val': 30}, HERE, 'the task is async'),
    ({}, {'ansible_python_interpreter': '/usr/bin/python3-other'}, 'the Python interpreter is /usr/bin/python3-other'),
    ({}, {'ansible_python_interpreter': 'auto'}, 'the Python interpreter is not yet discovered'),
    ({}, {'ansible_python_interpreter': 'auto', 'ansible_facts': {'discovered_interpreter_python': sys.executable}}, ''),
    ({'delegate_to': 'api-host'}, dict(HERE, ansible_delegated_vars={'api-host': {'ansible_python_interpreter': '/opt/py'}}),
     'the Python interpreter is /opt/py'),
    ({'delegate_to': 'localhost'}, {'ansible_python_interpreter': '/opt/py', 'ansible_delegated_vars': {'localhost': HERE}}, ''),
])
def test_why_not_in_process(action_kw, task_vars, reason):
    found = make_action(**action_kw).why_not_in_process(task_vars)
    assert found.startswith(reason) and bool(found) == bool(reason)


def test_kept_remote_files_run_as_a_module_process(monkeypatch):
    monkeypatch.setattr(_in_process.C, 'DEFAULT_KEEP_REMOTE_FILES', True)
    assert make_action().why_not_in_process(HERE) == 'remote files are kept'


def test_network_state_preloads_every_kind_it_reconciles(monkeypatch):
    from ansible_collections.nms.overlay.plugins.module_utils._network import KINDS, NetworkStateModule
    preloaded = []
    for dummy_kind, resource_cls in KINDS:
        monkeypatch.setattr(resource_cls, 'preload', classmethod(preloaded.append))
    NetworkStateModule.preload()
    assert preloaded == [resource_cls for dummy_kind, resource_cls in KINDS]
