# -*- coding: utf-8 -*-
"""Unit tests of the action plugin: where a module runs, and how its engine runs in the worker."""

from __future__ import annotations

import os
import sys
from unittest import mock

import pytest

from ansible.errors import AnsibleActionFail
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._task import NmsModule
from ansible_collections.nms.overlay.plugins.plugin_utils import _in_process
from ansible_collections.nms.overlay.plugins.plugin_utils._in_process import (
    AS_PROCESS, IN_PROCESS, InProcessAction, action_for, same_python, shared_unsafe,
)
from ansible_collections.nms.overlay.plugins.plugin_utils._plain import plain_data
from ansible.utils.unsafe_proxy import wrap_var

try:  # ansible-core 2.19 and later tag texts (trusted, or where they were read); earlier ones mark them unsafe
    from ansible.template import trust_as_template
except ImportError:
    trust_as_template = None


class FakeEngine(NmsModule):
    """An engine whose behaviour the test picks with the option ``do``; it never makes a request."""

    argument_spec = dict(do=dict(type='str', default='ok'), count=dict(type='int'), secret=dict(type='str', no_log=True),
                         nested=dict(type='dict', options=dict(key=dict(type='str', no_log=True))))
    seen = []

    def run(self):
        FakeEngine.seen.append(self.module)
        do = self.params['do']
        if do == 'warn':
            self.warn('a warning of this item only')
        if do == 'fail':
            raise TaskError('it failed', hint='details')
        if do == 'crash':
            raise RuntimeError('boom with %s' % self.params['secret'])
        return {'changed': False, 'env': os.environ.get('NMS_FAKE_ENV'), 'check': self.module.check_mode,
                'diff_mode': self.module.diff, 'echo': self.params['secret'], 'nested': self.params['nested']}


TOKEN = 'nbp_secret_token_for_tests'


def make_action(args=None, transport='local', become=False, async_val=0, delegate_to=None, check_mode=False,
                environment=None, action='nms.overlay.fake', engine=None):
    task = mock.MagicMock(async_val=async_val, delegate_to=delegate_to, check_mode=check_mode, diff=False, no_log=False,
                          environment=environment, action=action,
                          args=dict({'api_url': 'http://127.0.0.1:9', 'api_token': TOKEN}, **(args or {})))
    connection = mock.MagicMock(transport=transport)
    play_context = mock.MagicMock(become=become)
    templar = mock.MagicMock()
    templar.template.side_effect = lambda value: value
    action_class = action_for(engine or FakeEngine)
    return action_class(task, connection, play_context, loader=mock.MagicMock(), templar=templar,
                        shared_loader_obj=mock.MagicMock())


def test_run_here_returns_the_engine_result_with_the_invocation_masked(monkeypatch):
    monkeypatch.setenv('ANSIBLE_INJECT_INVOCATION', 'true')  # ansible-core 2.21 shows arguments only when asked
    result = make_action({'secret': 'hunter2-value', 'nested': {'key': 'nested-secret'}}, check_mode=True).run_here()
    assert result['changed'] is False and result['check'] is True and result['diff_mode'] is False
    assert result['echo'] == 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER'
    assert result['nested'] == {'key': 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER'}
    assert 'hunter2-value' not in repr(result) and 'nested-secret' not in repr(result) and TOKEN not in repr(result)
    assert result['invocation']['module_args']['do'] == 'ok'
    assert result['invocation']['module_args']['api_token'] == 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER'


def test_a_result_is_masked_when_a_secret_occurs_in_it_and_left_whole_when_none_does(monkeypatch):
    """mask_values rebuilds the whole result: it runs when a secret occurs in it, also as JSON escapes it (a value
    with quotes and backslashes), and not at all for a result without one (the invocation's token masked apart)."""
    monkeypatch.setenv('ANSIBLE_INJECT_INVOCATION', 'true')
    calls = []
    real = _in_process.mask_values

    def recording(value, secrets):
        calls.append(value)
        return real(value, secrets)

    monkeypatch.setattr(_in_process, "mask_values", recording)
    tricky = 'se"cr\\et-value'
    result = make_action({'secret': tricky}).run_here()
    assert result['echo'] == 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER' and tricky not in repr(result)
    assert result['invocation']['module_args']['api_token'] == 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER'
    assert any(isinstance(value, dict) and 'echo' in value for value in calls)  # the result itself was masked
    calls[:] = []
    result = make_action({'do': 'ok'}).run_here()  # no secret in the result: only the invocation is masked
    assert result['echo'] is None and TOKEN not in repr(result)
    assert result['invocation']['module_args']['api_token'] == 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER'
    assert not any(isinstance(value, dict) and 'echo' in value for value in calls)


def test_the_invocation_follows_inject_invocation_where_ansible_core_has_it(monkeypatch):
    monkeypatch.setenv('ANSIBLE_INJECT_INVOCATION', 'false')
    try:
        setting = _in_process.C.config.get_config_value('INJECT_INVOCATION')
    except _in_process.AnsibleError:
        setting = None  # before ansible-core 2.21 a module always shows its arguments
    result = make_action().run_here({})
    assert ('invocation' in result) is (setting is None)


def test_nothing_crosses_from_one_run_to_the_next():
    """A loop runs each item with a new action in the same worker: warnings must not carry over."""
    first = make_action({'do': 'warn'}).run_here()
    second = make_action({'do': 'ok'}).run_here()
    assert first['warnings'] == ['a warning of this item only']
    assert 'warnings' not in second
    assert FakeEngine.seen[-1] is not FakeEngine.seen[-2]


def test_the_task_environment_applies_during_the_run_and_is_restored(monkeypatch):
    monkeypatch.setenv('NMS_FAKE_ENV', 'before')
    monkeypatch.delenv('NMS_FAKE_NEW', raising=False)
    environment = [{'NMS_FAKE_ENV': 'from-play'}, {}, {'NMS_FAKE_ENV': 'from-task', 'NMS_FAKE_NEW': 1}]
    assert make_action(environment=environment).run_here()['env'] == 'from-task'
    assert os.environ['NMS_FAKE_ENV'] == 'before'
    assert 'NMS_FAKE_NEW' not in os.environ


def test_the_connection_options_fall_back_to_the_task_environment(monkeypatch):
    monkeypatch.delenv('NMS_API_TOKEN', raising=False)
    monkeypatch.setenv('ANSIBLE_INJECT_INVOCATION', 'true')
    action = make_action(environment=[{'NMS_API_TOKEN': 'from-env-token'}])
    del action._task.args['api_token']  # pylint: disable=protected-access
    result = action.run_here()
    assert 'failed' not in result
    assert result['invocation']['module_args']['api_token'] == 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER'


def test_a_task_error_is_a_failed_result_with_its_details():
    result = make_action({'do': 'fail'}).run_here()
    assert result['failed'] is True and result['msg'] == 'it failed' and result['hint'] == 'details'


def test_a_crash_is_a_failed_result_with_the_traceback_and_no_secret():
    result = make_action({'do': 'crash', 'secret': TOKEN}).run_here()
    assert result['failed'] is True
    assert result['msg'] == 'MODULE FAILURE: RuntimeError: boom with ********'
    assert 'Traceback' in result['exception'] and 'RuntimeError' in result['exception']
    assert TOKEN not in repr(result)


def test_bad_options_fail_naming_the_module_as_the_task_wrote_it():
    result = make_action({'bogus': 1}, action='nms.overlay.fake').run_here()
    assert result['failed'] is True
    assert result['msg'].startswith('Unsupported parameters for (nms.overlay.fake) module: bogus.')
    result = make_action({'count': 'many', 'secret': 'many'}).run_here()
    assert result['failed'] is True and 'count' in result['msg'] and 'many' not in result['msg']


def test_a_non_dictionary_for_suboptions_fails_before_anything_runs():
    action = make_action({'nested': [1, 2]})
    with mock.patch.object(InProcessAction, 'run_here') as run_here, \
            mock.patch.object(InProcessAction, '_execute_module') as execute_module:
        with pytest.raises(AnsibleActionFail, match=r'option nested: must be a dictionary of its suboptions \(key\)'):
            action.run(task_vars=dict(HERE))
    run_here.assert_not_called()
    execute_module.assert_not_called()


def test_run_takes_one_way_and_marks_the_result_unsafe():
    with mock.patch.object(InProcessAction, '_execute_module', return_value={'changed': True}) as execute_module:
        result = make_action().run(task_vars=dict(HERE))
        execute_module.assert_not_called()
        assert result['changed'] is False and result['check'] is False
        result = make_action().run(task_vars=dict(HERE, nms_overlay_in_process=False))
        execute_module.assert_called_once()
        assert execute_module.call_args.kwargs['module_name'] == 'nms.overlay.fake'
        assert result['changed'] is True


def exact_types(value):
    """Every value's type in ``value``, walked (dict keys too), as (path, type name) for the ones not exactly plain."""
    found = []

    def walk(item, path):
        if type(item) is dict:  # pylint: disable=unidiomatic-typecheck
            for key, child in item.items():
                walk(key, path + '.key')
                walk(child, '%s.%s' % (path, key))
        elif isinstance(item, (list, tuple)):
            if type(item) is not list:  # pylint: disable=unidiomatic-typecheck
                found.append((path, type(item).__name__))
            for index, child in enumerate(item):
                walk(child, '%s[%d]' % (path, index))
        elif type(item) not in (str, int, float, bool, type(None)):
            found.append((path, type(item).__name__))
    walk(value, '')
    return found


class Counted(int):
    """An int of another type, as ansible-core 2.19 and later tag numbers read from a file."""


def marked(text):
    """A text of ansible-core's own type: tagged on 2.19 and later, unsafe before."""
    return trust_as_template(text) if trust_as_template else wrap_var(text)


def test_plain_data_gives_plain_types_the_same_values_and_leaves_other_kinds():
    marker = object()
    given = {marked('name'): marked('web'), 'rules': ({'ports': [marked('22')], 'n': Counted(3)},),
             'ratio': 0.5, 'on': True, 'none': None, 'other': marker}
    plain = plain_data(given)
    assert plain == {'name': 'web', 'rules': [{'ports': ['22'], 'n': 3}], 'ratio': 0.5, 'on': True, 'none': None,
                     'other': marker}
    assert exact_types(plain) == [('.other', 'object')] and plain['other'] is marker
    assert len(exact_types(given)) == 6  # the test's input is not plain: 3 texts, a tuple, an int and the object


def test_the_engine_runs_in_process_on_plain_options():
    """ansible-core's texts (unsafe, or tagged on 2.19 and later) are copied the slow way by every deepcopy of the
    options' check (ArgumentSpecValidator, network_state's each entry): the engine gets them plain."""
    action = make_action({'do': marked('ok'), 'nested': {marked('key'): marked('a secret')}})
    with mock.patch.object(InProcessAction, 'run_here', return_value={'changed': False}) as run_here:
        action.run(task_vars=dict(HERE))
    args = run_here.call_args.args[1]
    assert exact_types(action._task.args)  # pylint: disable=protected-access  # (the mock task's: what the test gave)
    assert args['do'] == 'ok' and args['nested'] == {'key': 'a secret'} and exact_types(args) == []


def test_action_for_preloads_the_engine_class(monkeypatch):
    from ansible_collections.nms.overlay.plugins.module_utils._resources.policy import PolicyModule
    preloaded = []
    monkeypatch.setattr(PolicyModule, 'preload', classmethod(preloaded.append))
    action = action_for(PolicyModule)
    assert action.engine is PolicyModule and issubclass(action, InProcessAction)
    assert preloaded == [PolicyModule]


class _Node:
    """An object a weak reference can watch."""


def test_action_for_freezes_what_the_tasks_workers_inherit():
    """Objects that exist when ansible-core loads the action plugin (before it forks a task's worker) are frozen out of
    the garbage collector's walks, which would copy their memory pages in every worker: a reference cycle made before
    survives a collection until it is unfrozen."""
    import gc  # pylint: disable=import-outside-toplevel
    import weakref  # pylint: disable=import-outside-toplevel
    gc.unfreeze()
    gc.disable()  # no collection of its own between the cycle's making and the freeze
    try:
        node = _Node()
        node.itself = node  # only the collector frees a cycle
        watched = weakref.ref(node)
        del node
        action_for(FakeEngine)
        assert gc.get_freeze_count() > 0
        gc.collect()
        assert watched() is not None  # frozen: the collection left it
        gc.unfreeze()
        gc.collect()
        assert watched() is None  # unfrozen, the same collection frees it
    finally:
        gc.unfreeze()
        gc.enable()


def test_every_module_has_an_action_plugin_for_its_engine():
    import importlib
    modules_dir = os.path.join(os.path.dirname(_in_process.__file__), '..', 'modules')
    names = sorted(name[:-3] for name in os.listdir(modules_dir) if name.endswith('.py') and name != '__init__.py')
    assert len(names) >= 25
    for name in names:
        module = importlib.import_module('ansible_collections.nms.overlay.plugins.modules.%s' % name)
        action = importlib.import_module('ansible_collections.nms.overlay.plugins.action.%s' % name).ActionModule
        assert issubclass(action, InProcessAction), name
        assert action.engine is getattr(module, ''.join(part.title() for part in name.split('_')) + 'Module'), name


def test_every_action_plugin_is_one_text_and_no_link():
    """plugins/action holds copies of one text that reads its module from the name it is imported by; no link, which
    antsibull-docs takes for an alias of the linked file (the docs site then has no module pages)."""
    action_dir = os.path.join(os.path.dirname(_in_process.__file__), '..', 'action')
    paths = [os.path.join(action_dir, name) for name in os.listdir(action_dir) if name.endswith('.py')]
    assert len(paths) >= 25
    assert not [path for path in paths if os.path.islink(path)]
    texts = set()
    for path in paths:
        with open(path, encoding='utf-8') as handle:
            texts.add(handle.read())
    assert len(texts) == 1 and 'ActionModule = action_named(__name__)' in texts.pop()


def test_action_named_refuses_a_name_outside_the_action_plugins():
    with pytest.raises(ImportError, match=r'plugins\.plugin_utils\.copy is no action plugin of nms\.overlay'):
        _in_process.action_named('ansible_collections.nms.overlay.plugins.plugin_utils.copy')


def test_action_named_preloads_the_engine_the_name_gives(monkeypatch):
    from ansible_collections.nms.overlay.plugins.module_utils._resources.policy import PolicyModule
    preloaded = []
    monkeypatch.setattr(PolicyModule, 'preload', classmethod(preloaded.append))
    action = _in_process.action_named('ansible_collections.nms.overlay.plugins.action.policy')
    assert action.engine is PolicyModule and preloaded == [PolicyModule]


def test_action_named_says_which_class_a_module_file_lacks(monkeypatch):
    """A module file whose engine class is named otherwise fails at once, naming the file and the class."""
    import sys
    import types
    fake = types.ModuleType('ansible_collections.nms.overlay.plugins.modules.widget_info')
    fake.WidgetModule = FakeEngine  # not WidgetInfoModule
    monkeypatch.setitem(sys.modules, fake.__name__, fake)
    with pytest.raises(ImportError, match=r'plugins/modules/widget_info\.py has no WidgetInfoModule, the engine class'):
        _in_process.action_named('ansible_collections.nms.overlay.plugins.action.widget_info')


def test_preload_loads_the_options_model_only_where_there_is_one(monkeypatch):
    from ansible_collections.nms.overlay.plugins.module_utils import _kind
    from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule
    loaded = []
    real = _kind.load_model

    def recording(name):
        loaded.append(name)
        return real(name)

    class WithModel(ResourceModule):
        model = 'access.PolicyOptions'

    monkeypatch.setattr(_kind, 'load_model', recording)
    WithModel.preload()
    ResourceModule.preload()  # no model: nothing to load
    assert loaded == ['access.PolicyOptions']
    assert real('access.PolicyOptions')[0].__name__ == 'PolicyOptions'  # the pydantic model class itself


HERE = {'ansible_python_interpreter': sys.executable}


@pytest.mark.parametrize('action_kw, task_vars, where, reason', [
    ({}, HERE, IN_PROCESS, "the Python interpreter is this controller's"),
    ({}, dict(HERE, nms_overlay_in_process=False), AS_PROCESS, 'nms_overlay_in_process is false'),
    ({}, dict(HERE, nms_overlay_in_process='no'), AS_PROCESS, 'nms_overlay_in_process is false'),
    ({'transport': 'ssh'}, HERE, AS_PROCESS, 'the connection is ssh, not local'),
    ({'become': True}, HERE, AS_PROCESS, 'become is set'),
    ({'async_val': 30}, HERE, AS_PROCESS, 'the task is async'),
    ({}, {'ansible_python_interpreter': '/usr/bin/python3-other'}, AS_PROCESS, 'the Python interpreter is /usr/bin/python3-other'),
    ({}, {'ansible_python_interpreter': 'auto'}, AS_PROCESS, 'the Python interpreter is not yet discovered'),
    ({}, {'ansible_python_interpreter': 'auto', 'ansible_facts': {'discovered_interpreter_python': sys.executable}},
     IN_PROCESS, "the Python interpreter is this controller's"),
    ({'delegate_to': 'api-host'}, dict(HERE, ansible_delegated_vars={'api-host': {'ansible_python_interpreter': '/opt/py'}}),
     AS_PROCESS, 'the Python interpreter is /opt/py'),
    ({'delegate_to': 'localhost'}, {'ansible_python_interpreter': '/opt/py', 'ansible_delegated_vars': {'localhost': HERE}},
     IN_PROCESS, "the Python interpreter is this controller's"),
])
def test_where_to_run(action_kw, task_vars, where, reason):
    found_where, found_reason = make_action(**action_kw).where_to_run(task_vars)
    assert found_where == where and found_reason.startswith(reason)


def test_kept_remote_files_run_as_a_module_process(monkeypatch):
    monkeypatch.setattr(_in_process.C, 'DEFAULT_KEEP_REMOTE_FILES', True)
    assert make_action().where_to_run(HERE) == (AS_PROCESS, 'remote files are kept')


def make_venv(root, base_binary):
    """A directory laid out as `python -m venv` makes it: pyvenv.cfg and bin/python3.x linked to the base."""
    bin_dir = root / 'bin'
    bin_dir.mkdir(parents=True)
    (root / 'pyvenv.cfg').write_text('home = %s\n' % os.path.dirname(base_binary))
    (bin_dir / 'python3.x').symlink_to(base_binary)
    (bin_dir / 'python3').symlink_to('python3.x')
    (bin_dir / 'python').symlink_to('python3.x')
    return bin_dir


def test_same_python_knows_a_venv_under_its_other_names(tmp_path):
    base = os.path.realpath(sys.executable)
    bin_dir = make_venv(tmp_path / 'venv', base)
    venv = str(tmp_path / 'venv')
    # running on venv/bin/python3, configured venv/bin/python: one interpreter
    assert same_python(str(bin_dir / 'python'), str(bin_dir / 'python3'), venv, '/base')
    assert same_python(str(bin_dir / 'python3.x'), str(bin_dir / 'python3'), venv, '/base')
    assert same_python(str(bin_dir / '..' / 'bin' / 'python'), str(bin_dir / 'python3'), venv, '/base')
    # the base Python has other packages than the venv, in both directions
    assert not same_python(base, str(bin_dir / 'python3'), venv, '/base')
    assert not same_python(str(bin_dir / 'python'), base, '/base', '/base')
    # a link to the venv's python from outside the venv starts the base Python (no pyvenv.cfg beside it)
    outside = tmp_path / 'elsewhere'
    outside.mkdir()
    (outside / 'py').symlink_to(bin_dir / 'python')
    assert not same_python(str(outside / 'py'), str(bin_dir / 'python3'), venv, '/base')
    assert same_python(str(outside / 'py'), base, '/base', '/base')
    # another venv over the same base is another Python
    other = make_venv(tmp_path / 'other', base)
    assert not same_python(str(other / 'python'), str(bin_dir / 'python3'), venv, '/base')
    assert not same_python(str(tmp_path / 'missing' / 'python'), str(bin_dir / 'python3'), venv, '/base')


def test_same_python_looks_a_bare_name_up_on_path(tmp_path, monkeypatch):
    bin_dir = make_venv(tmp_path / 'venv', os.path.realpath(sys.executable))
    monkeypatch.setenv('PATH', str(bin_dir))
    assert same_python('python', str(bin_dir / 'python3'), str(tmp_path / 'venv'), '/base')


def test_network_state_preloads_every_kind_it_reconciles(monkeypatch):
    # every kind: the nested ones too (a network's resources and routers, a DNS zone's records)
    from ansible_collections.nms.overlay.plugins.module_utils._network import ORDER, NetworkStateModule
    preloaded = []
    for dummy_kind, resource_cls in ORDER:
        monkeypatch.setattr(resource_cls, 'preload', classmethod(preloaded.append))
    NetworkStateModule.preload()
    assert preloaded == [resource_cls for dummy_kind, resource_cls in ORDER]


class SecretsEngine(FakeEngine):
    """A module that may create a secret (it takes created_secrets_file, as setup_key, token and network_state do)."""

    argument_spec = dict(FakeEngine.argument_spec, created_secrets_file=dict(type='path'), state=dict(type='str'))


def test_a_relative_secrets_file_is_taken_in_the_directory_ansible_playbook_runs_in(monkeypatch, tmp_path):
    """Issue 28, point 3: one rule both ways; variables and ~ expanded first, as a path option is."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv('NMS_KEYS_DIR', '/srv/keys')
    local = make_action(engine=SecretsEngine)
    assert local.creates_secrets is True and make_action().creates_secrets is False
    assert local.controller_paths({'created_secrets_file': 'keys.json'}) == {'created_secrets_file': str(tmp_path / 'keys.json')}
    # absolute once expanded: left for the module, which expands it (never joined to the working directory)
    assert local.controller_paths({'created_secrets_file': '$NMS_KEYS_DIR/k.json'}) == {'created_secrets_file': '$NMS_KEYS_DIR/k.json'}
    assert local.controller_paths({'created_secrets_file': '/abs/k.json'}) == {'created_secrets_file': '/abs/k.json'}
    with pytest.raises(AnsibleActionFail, match=r'option created_secrets_file: a relative path \(keys.json\).*absolute path'):
        make_action(engine=SecretsEngine, transport='ssh').controller_paths({'created_secrets_file': 'keys.json'})
    # a module that creates no secret keeps its options as they are
    assert make_action().controller_paths({'created_secrets_file': 'keys.json'}) == {'created_secrets_file': 'keys.json'}


def test_a_relative_ca_path_is_taken_in_the_directory_ansible_playbook_runs_in(monkeypatch, tmp_path):
    """Issue 44, item 11: the same rule for ca_path on the controller (a module process there starts in the playbook's
    directory); on another host, the path is that host's, as given."""
    monkeypatch.chdir(tmp_path)
    assert make_action().controller_paths({'ca_path': 'ca.pem'}) == {'ca_path': str(tmp_path / 'ca.pem')}
    assert make_action(engine=SecretsEngine).controller_paths({'ca_path': 'ca.pem', 'created_secrets_file': 'k.json'}) == {
        'ca_path': str(tmp_path / 'ca.pem'), 'created_secrets_file': str(tmp_path / 'k.json')}
    assert make_action().controller_paths({'ca_path': '/etc/ca.pem'}) == {'ca_path': '/etc/ca.pem'}
    assert make_action().controller_paths({'ca_path': ''}) == {'ca_path': ''}  # AWX's empty value: unset
    assert make_action(transport='ssh').controller_paths({'ca_path': 'ca.pem'}) == {'ca_path': 'ca.pem'}


def test_async_is_refused_only_where_a_value_may_be_created():
    with pytest.raises(AnsibleActionFail, match='async: nms.overlay.fake may create'):
        make_action({'state': 'present'}, engine=SecretsEngine, async_val=10).refuse_async_secrets()
    make_action({'state': 'absent'}, engine=SecretsEngine, async_val=10).refuse_async_secrets()
    make_action(async_val=10).refuse_async_secrets()


@pytest.mark.skipif(not _in_process.RESULTS_WRAPPED_BY_CORE, reason='ansible-core 2.19 and later mark no text unsafe: '
                                                                    'the result is returned as it is (make oldest runs it)')
def test_shared_unsafe_marks_every_text_once_and_shares_it():
    from ansible.utils.unsafe_proxy import AnsibleUnsafe
    peers = [{'id': 'p%d' % index, 'name': 'peer-%d' % index, 'os': 'linux', 'ssh_enabled': False, 'geoname_id': index,
              'groups': [{'id': 'g-all', 'name': 'All'}], 'extra': None} for index in range(3)]
    result = {'changed': False, 'peers': peers, 'msg': '{{ lookup("pipe", "id") }}'}
    shared = shared_unsafe(result)
    assert shared == result  # the same values...
    texts = []
    pending = [shared]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            texts.extend(value)
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
        elif isinstance(value, str):
            texts.append(value)
        else:
            assert not isinstance(value, AnsibleUnsafe) and (value is None or isinstance(value, (bool, int)))
    assert texts and all(isinstance(text, AnsibleUnsafe) for text in texts)  # ...every text (keys too) never rendered
    # one object per distinct text, however many places hold it
    assert shared['peers'][0]['os'] is shared['peers'][2]['os']
    assert next(iter(shared['peers'][0])) is next(iter(shared['peers'][1]))
    assert shared['peers'][0]['groups'][0]['name'] is shared['peers'][1]['groups'][0]['name']
    assert len({id(text) for text in texts}) == len(set(texts))


def test_shared_unsafe_leaves_a_result_too_deep_to_walk_to_ansible_core():
    deep = []
    for dummy in range(sys.getrecursionlimit() + 10):
        deep = [deep]
    result = {'changed': False, 'rules': deep}
    assert shared_unsafe(result) is result


def test_the_options_validator_is_made_once_per_engine_before_the_fork(monkeypatch):
    """action_for (run before ansible-core forks a task's worker) makes the engine's validator; the tasks' runs reuse it
    and never derive the options again (which copied a whole argument spec twice per task)."""
    class CountedEngine(FakeEngine):
        derived = 0

        @classmethod
        def validation(cls):
            cls.derived += 1
            return super().validation()
    monkeypatch.setenv('ANSIBLE_INJECT_INVOCATION', 'true')
    action = make_action(engine=CountedEngine)
    assert CountedEngine.derived == 1  # in action_for, before any task
    for count in range(3):
        assert action.run_here(args={'api_url': 'http://127.0.0.1:9', 'api_token': TOKEN, 'count': count})['changed'] is False
    make_action(engine=CountedEngine)  # another task of the same module
    assert CountedEngine.derived == 1
