# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The action plugin of every nms.overlay module: run the module's engine in the controller's task
worker when the task would run the module on this machine with this very Python anyway.

Every module talks to the API over HTTP, so its usual host is the controller itself (``hosts:
localhost`` or ``delegate_to: localhost``). There, starting a Python process, unpacking the module and
importing ``requests`` and ``pydantic`` again costs more than the task's work. So the action plugin
validates the task's options itself (ansible-core's ArgumentSpecValidator, the one AnsibleModule
uses), hands the engine a TaskContext instead of an AnsibleModule, and returns the engine's result
as a dict. Anything else (another host or interpreter, become, async, kept remote files, or
``nms_overlay_in_process: false``) runs the module as a process through ``_execute_module``, as
ansible-core's own ``normal`` action does.

Only what ansible-core documents for action plugins is used: ``ActionBase.run``,
``_execute_module``, the task, play context, connection and templar an action is given, ``Display``,
and public functions of ``ansible.module_utils`` (tests/unit/test_public_interfaces.py keeps it so).
Nothing is kept between tasks or loop items: each run gets a new TaskContext, and the environment
the task sets is restored when the run ends.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import importlib
import os
import shutil
import json
import sys
import traceback

from ansible import constants as C
from ansible.errors import AnsibleActionFail, AnsibleError
from ansible.module_utils.common.arg_spec import ArgumentSpecValidator
from ansible.module_utils.errors import UnsupportedError
from ansible.module_utils.parsing.convert_bool import boolean
from ansible.plugins.action import ActionBase
from ansible.utils.display import Display
from ansible.utils.unsafe_proxy import wrap_var

from ansible_collections.nms.overlay.plugins.module_utils._secrets import OPTION as SECRETS_FILE
from ansible_collections.nms.overlay.plugins.module_utils._secrets import mask_secrets, mask_values, no_log_values
from ansible_collections.nms.overlay.plugins.module_utils._task import TaskContext, shape_problem
from ansible_collections.nms.overlay.plugins.plugin_utils._paths import controller_path, expanded
from ansible_collections.nms.overlay.plugins.plugin_utils._plain import plain_data

try:  # ansible-core 2.19 and later never render what a plugin returns unless it is marked trusted
    from ansible.template import trust_as_template  # noqa: F401  pylint: disable=unused-import
    RESULTS_WRAPPED_BY_CORE = False
except ImportError:  # earlier ones mark every text of an action's result unsafe (wrap_var) as they get it
    RESULTS_WRAPPED_BY_CORE = True

SWITCH = 'nms_overlay_in_process'
CA_PATH_VARIABLE = 'NMS_API_CA_PATH'  # ca_path's fallback (module_utils/_task.py): a relative one is taken here too

display = Display()


ACTION_PACKAGE = 'ansible_collections.nms.overlay.plugins.action'
MODULES_PACKAGE = 'ansible_collections.nms.overlay.plugins.modules'


def engine_class_name(module):
    """The name of a module's engine class in its file, plugins/modules/<module>.py: peer_info's is PeerInfoModule."""
    return ''.join(part.title() for part in module.split('_')) + 'Module'


def action_named(plugin):
    """The action plugin class for ``plugin``, the import name of the action plugin file that asks for it.

    Every plugins/action/<module>.py is the same text, which asks with its own __name__: ansible-core imports each by
    the plugin's name, so the name says which module's engine to run.
    """
    package, dummy, module = plugin.rpartition('.')
    if package != ACTION_PACKAGE:
        raise ImportError('%s is no action plugin of nms.overlay (%s.<module>)' % (plugin, ACTION_PACKAGE))
    source = importlib.import_module('%s.%s' % (MODULES_PACKAGE, module))
    engine = getattr(source, engine_class_name(module), None)
    if engine is None:
        raise ImportError('plugins/modules/%s.py has no %s, the engine class its action plugin runs'
                          % (module, engine_class_name(module)))
    return action_for(engine)


def action_for(engine):
    """The action plugin class of the module whose engine class is ``engine`` (an NmsModule).

    ansible-core loads an action plugin's class in the main process before it forks the task's
    worker, so what the engine imports lazily is loaded here once per playbook, and every worker
    starts with it.
    """
    engine.preload()
    # made before the fork, once per playbook, not in every task's worker: the Python this is, the options' validator
    running_python()
    spec = options_validator(engine)[0]
    # Every task's worker is a fork of this process. The garbage collector of a worker walks the objects it inherited
    # (ansible-core's, and the modules and models just loaded) and so touches, and copies, the memory pages that hold
    # them: 6 to 8 ms of each task in the controller (docs/performance.md). Frozen, the collector leaves them alone.
    # Each of the collection's action plugins freezes once, when ansible-core first loads it (at most once a module
    # a playbook uses): what is alive then stays until the process ends, where most of it lives anyway (ansible-core's
    # playbook, inventory and plugins); what is made after the last freeze is collected as before.
    gc.freeze()
    return type('ActionModule', (InProcessAction,), {'engine': engine, 'creates_secrets': SECRETS_FILE in spec})


class InProcessAction(ActionBase):
    """Runs the module's engine in this process when that is where it would run anyway; else runs the
    module as a process, as ansible-core's ``normal`` action runs every module."""

    engine = None
    creates_secrets = False  # the module takes created_secrets_file (set by action_for)
    _supports_check_mode = True
    _supports_async = True

    def run(self, tmp=None, task_vars=None):
        task_vars = task_vars if task_vars is not None else {}
        result = super().run(tmp, task_vars)
        del tmp  # no effect since ansible-core 2.7
        spec = options_validator(self.engine)[0]
        problem = shape_problem(spec, self._task.args, strict=self.engine.strict_texts)
        if problem:
            # ansible-core's own check of such a value raises a TypeError or shows the token: name the option
            raise AnsibleActionFail(problem)
        where, reason = self.where_to_run(task_vars)
        display.vvv('%s runs %s: %s' % (self._task.action, where, reason))
        self.refuse_async_secrets()
        args = self.controller_paths(self._task.args)
        if where == AS_PROCESS:
            result.update(self._execute_module(module_name=self._task.action, module_args=args, task_vars=task_vars,
                                               wrap_async=self._task.async_val))
            return self.hide_created_secret(result)
        # as a module process gets them (JSON): ansible-core's tagged or unsafe texts are copied the slow way by each
        # deepcopy of the options' check (ArgumentSpecValidator, network_state's each entry): 3,000 policies read
        # from a file took 16 s to copy on a loaded machine, plain 0.4 s
        result.update(self.run_here(task_vars, plain_data(args)))
        # Server data is never a template: ansible-core wraps every action's result as it gets it before 2.19
        # (TaskExecutor._execute) and renders no plugin's result from 2.19 on. Before 2.19 the result is wrapped here
        # first all the same, each distinct text once (see shared_unsafe).
        result = self.hide_created_secret(result)
        return shared_unsafe(result) if RESULTS_WRAPPED_BY_CORE else result

    def controller_paths(self, args):
        """The task's options with a relative created_secrets_file and ca_path (or NMS_API_CA_PATH, when ca_path is not set)
        made absolute (_paths.controller_path):
        relative to the directory ansible-playbook runs in, whether the module runs in this process or as a module
        process on this machine (which ansible-core starts in the playbook's directory). A module that runs on another
        host needs an absolute created_secrets_file (the file is the controller's), and takes ca_path on that host."""
        names = (SECRETS_FILE, 'ca_path') if self.creates_secrets else ('ca_path',)
        given = {name: args[name] for name in names if isinstance(args.get(name), str) and args[name]}
        if self._connection.transport == 'local':
            fallback = None
            if 'ca_path' not in given and 'ca_path' in options_validator(self.engine)[0]:
                fallback = dict(os.environ, **self.environment()).get(CA_PATH_VARIABLE)
            if fallback:
                # the option's fallback (the task's environment, else the controller's), which the module would take
                # in the playbook's directory as a module process
                given['ca_path'] = fallback
            relative = {name: controller_path(path) for name, path in given.items() if not os.path.isabs(expanded(path))}
            return dict(args, **relative) if relative else args
        if SECRETS_FILE in given and not os.path.isabs(expanded(given[SECRETS_FILE])):
            raise AnsibleActionFail('option %s: a relative path (%s) is taken in the directory ansible-playbook runs in, '
                                    'on the controller, but this task runs the module on another host (connection %s): '
                                    'give an absolute path' % (SECRETS_FILE, given[SECRETS_FILE], self._connection.transport))
        return args

    def refuse_async_secrets(self):
        """A module that may create a secret refuses async (unless it only removes): ansible-core hands an async job's
        final result to the callbacks unhidden and keeps it in the job's file."""
        if self._task.async_val and self.creates_secrets and self._task.args.get('state') != 'absent':
            raise AnsibleActionFail('async: %s may create a setup key, token or invite link whose value the server shows once, and '
                                    'ansible-core shows the result of an async task to every callback and keeps it in '
                                    'the job file: run the task without async' % self._task.action)

    def hide_created_secret(self, result):
        """See hide_created_secret below; the hidden result's warnings are shown here (a hidden result shows none)."""
        if self.engine.holds_created_secret and self.engine.holds_created_secret(result):
            display.v('%s: the result holds a value the task created, shown only once by the server: it is hidden from '
                      'the output; register the result to use it, or set created_secrets_file' % self._task.action)
            # the task's no_log too: before ansible-core 2.19 a loop's whole result reaches the callbacks (minimal,
            # json, AWX's) hidden only when its task has no_log, whatever each item says
            self._task.no_log = True
        return hide_created_secret(self.engine, result, show_warning=display.warning)

    # -- where --------------------------------------------------------------------------------------------
    def where_to_run(self, task_vars):
        """(IN_PROCESS or AS_PROCESS, the reason in a few words)."""
        if not boolean(self._templar.template(task_vars.get(SWITCH, True)), strict=False):
            return AS_PROCESS, '%s is false' % SWITCH
        if self._connection.transport != 'local':
            return AS_PROCESS, 'the connection is %s, not local' % self._connection.transport
        if self._play_context.become:
            return AS_PROCESS, 'become is set'
        if self._task.async_val:
            return AS_PROCESS, 'the task is async'
        if C.DEFAULT_KEEP_REMOTE_FILES:
            return AS_PROCESS, 'remote files are kept'
        interpreter = self.interpreter(task_vars)
        if not interpreter:
            return AS_PROCESS, 'the Python interpreter is not yet discovered'
        if not same_python(interpreter, sys.executable, sys.prefix, sys.base_prefix):
            return AS_PROCESS, 'the Python interpreter is %s, not this controller\'s %s' % (interpreter, sys.executable)
        if interpreter == sys.executable:
            return IN_PROCESS, 'the Python interpreter is this controller\'s'
        return IN_PROCESS, 'the Python interpreter %s is this controller\'s %s' % (interpreter, sys.executable)

    def interpreter(self, task_vars):
        """The Python that would run the module, found as ansible-core finds it (None: not known yet)."""
        host_vars = task_vars.get('ansible_delegated_vars', {}).get(self._task.delegate_to, task_vars) \
            if self._task.delegate_to else task_vars
        configured = self._templar.template(C.config.get_config_value('INTERPRETER_PYTHON', variables=host_vars))
        if configured and not str(configured).startswith('auto'):
            return str(configured)
        return host_vars.get('ansible_facts', {}).get('discovered_interpreter_python')

    # -- in this process ----------------------------------------------------------------------------------
    def run_here(self, task_vars=None, args=None):
        """The engine's result for this task, run in this process with the task's options (``args``, else the task's
        own) and environment."""
        with task_environment(self.environment()):
            return run_engine(self.engine, self._task.args if args is None else args, self._task.action, check_mode=bool(self._task.check_mode),
                              diff=bool(self._task.diff), no_log=bool(self._task.no_log),
                              invocation=injects_invocation(task_vars or {}),
                              on_progress=display.display)  # shown as it comes

    def environment(self):
        """The task's ``environment:`` with its templates rendered (block and play values first)."""
        layers = self._task.environment
        final = {}
        for layer in layers if isinstance(layers, list) else [layers]:
            if not layer:
                continue
            values = self._templar.template(layer)
            if not isinstance(values, dict):
                raise AnsibleActionFail('environment must be a dictionary, not %s' % type(values).__name__)
            final.update(values)
        return {str(name): str(value) for name, value in final.items()}


IN_PROCESS = 'in the controller process'
AS_PROCESS = 'as a module process'


def run_engine(engine, args, action, check_mode=False, diff=False, no_log=False, invocation=True, on_progress=None):
    """What a module process would report for these options: validated as AnsibleModule validates them,
    run by the engine (an NmsModule class) with a new TaskContext, secrets masked. ``action`` names the
    module in ansible-core's message for unknown options; ``invocation`` adds the options to the result;
    ``on_progress`` is given each progress line as it comes (a module process can only return them)."""
    spec, validator = options_validator(engine)
    checked = validator.validate(args)
    params = checked.validated_parameters
    # the values of the options marked no_log (suboptions too), as AnsibleModule masks them in results
    secrets = no_log_values(spec, params)
    if engine.secret_values is not None:
        secrets |= engine.secret_values(params)  # texts already, empty values left out (see _secrets.no_log_values)
    if checked.error_messages:
        message = checked.errors.msg
        if isinstance(checked.errors[0], UnsupportedError):
            message = 'Unsupported parameters for (%s) module: %s' % (action, message)
        return {'failed': True, 'msg': mask_values(message, secrets)}
    task = TaskContext(params, check_mode=check_mode, diff=diff, no_log=no_log, on_progress=on_progress, no_log_values=secrets)
    try:
        result = engine.outcome(task)
    except Exception as exc:  # pylint: disable=broad-exception-caught
        # what a crashing module process reports: the exception and its traceback (secrets masked below)
        result = {'failed': True, 'msg': mask_secrets('MODULE FAILURE: %s: %s' % (type(exc).__name__, exc), secrets),
                  'exception': traceback.format_exc()}
    if task.warnings:
        result['warnings'] = list(task.warnings)
    # every secret (and any text holding one) masked, as AnsibleModule masks a result; mask_values rebuilds the whole
    # result, so only when a secret occurs in it at all (its text, or its text as JSON escapes it)
    try:
        text = json.dumps(result, ensure_ascii=False)
    except (TypeError, ValueError):
        text = None
    if text is None or any(secret in text or json.dumps(secret, ensure_ascii=False)[1:-1] in text for secret in secrets):
        result = mask_values(result, secrets)
    if invocation:
        # as AnsibleModule reports it: the options the module ran with (the token among them), secrets masked
        result['invocation'] = {'module_args': mask_values(params, secrets)}
    return result


@functools.lru_cache(maxsize=None)
def options_validator(engine):
    """(the options of ``engine``, their ArgumentSpecValidator): made once per engine and process, and read only after
    that (a validator is made for many validations; making one copies the whole spec)."""
    validation = engine.validation()
    spec = validation.pop('argument_spec')
    return spec, ArgumentSpecValidator(spec, **validation)


def shared_unsafe(result):
    """``result`` with every text marked unsafe as wrap_var marks it, each distinct text wrapped once and shared by all
    its places. ansible-core then leaves the texts as they are when it wraps the result (three times); wrapped there,
    every place would get an object of its own, which the garbage collector tracks: 25,000 peers made 1.25 million,
    seconds of collection and of sending the result to the controller. A result nested too deeply to walk is left for
    ansible-core to wrap."""
    wrapped = {}

    def shared(value):
        if isinstance(value, str):
            found = wrapped.get(value)
            if found is None:
                found = wrapped[value] = wrap_var(value)
            return found
        if isinstance(value, dict):
            return {shared(key): shared(item) for key, item in value.items()}
        if isinstance(value, list):
            return [shared(item) for item in value]
        return value  # numbers, booleans, None (a module's result holds no other kind: it is JSON)
    try:
        return shared(result)
    except RecursionError:
        return result


def hide_created_secret(engine, result, show_warning=None):
    """A result holding a value the task created (a setup key's, a token's: the server shows it once) is hidden from
    every callback (the screen, the log, AWX job events) as ansible-core hides a no_log task's result, while
    ``register`` gets it whole. Its warnings, which a hidden result would not show, go to ``show_warning`` instead
    (None: they stay in the result)."""
    if engine.holds_created_secret and engine.holds_created_secret(result):
        if show_warning is not None:
            for warning in result.pop('warnings', None) or ():
                show_warning(warning)
        result['_ansible_no_log'] = True
    return result


def injects_invocation(task_vars):
    """Whether a module's result shows its arguments: from ansible-core 2.21 only when the INJECT_INVOCATION
    setting is on, before that always."""
    try:
        return bool(C.config.get_config_value('INJECT_INVOCATION', variables=task_vars))
    except AnsibleError:  # a release without the setting
        return True


@contextlib.contextmanager
def task_environment(values):
    """os.environ with the task's environment added, as a module process would see it, then restored."""
    if not values:  # most tasks set none: nothing to restore
        yield
        return
    # only the names the task sets, and whatever the run itself set: rewriting the whole environment costs a millisecond
    saved = dict(os.environ)
    os.environ.update(values)
    try:
        yield
    finally:
        for name in set(os.environ) - set(saved):
            del os.environ[name]
        for name, value in saved.items():
            if os.environ.get(name) != value:
                os.environ[name] = value


def python_identity(path):
    """What makes a Python interpreter path the same Python with the same packages as another.

    The binary (all links followed) and the virtual environment: Python takes its environment from
    a ``pyvenv.cfg`` beside the path as invoked or one directory up, before following links, so a
    venv's ``python`` and ``python3`` are one Python, and a link to it from outside the venv is not.
    """
    path = os.path.abspath(path)
    venv = None
    for folder in (os.path.dirname(path), os.path.dirname(os.path.dirname(path))):
        if os.path.isfile(os.path.join(folder, 'pyvenv.cfg')):
            venv = os.path.realpath(folder)
            break
    return os.path.realpath(path), venv


def same_python(interpreter, executable, prefix, base_prefix):
    """Whether ``interpreter`` (a path, or a name looked up on PATH) is the running Python: same binary,
    same virtual environment (``prefix``/``base_prefix`` of the running one, as in ``sys``)."""
    if interpreter == executable:  # the same path is the same Python (ansible_playbook_python, a localhost's default)
        return True
    if not os.path.isabs(interpreter):
        interpreter = shutil.which(interpreter) or interpreter
    if not os.path.exists(interpreter):
        return False
    binary, venv = python_identity(interpreter)
    return (binary, venv) == running_python(executable, prefix, base_prefix)


@functools.lru_cache(maxsize=None)
def running_python(executable=sys.executable, prefix=sys.prefix, base_prefix=sys.base_prefix):
    """The binary (links followed) and the virtual environment (None: none) of the running Python, in the terms of
    python_identity; cached, and first asked before the fork (action_for), so that no task's worker resolves links."""
    return os.path.realpath(executable), os.path.realpath(prefix) if prefix != base_prefix else None
