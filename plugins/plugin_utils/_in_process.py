# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Run an nms.overlay module inside the controller's task worker when it would run there anyway.

Every module talks to the API over HTTP, so its usual host is the controller itself (``hosts:
localhost`` or ``delegate_to: localhost``). There, starting a Python process, unpacking the module and
importing ``requests`` and ``pydantic`` again costs more than the task's work. When the task would
run on this machine, with this very Python, as this user, the action plugin calls the module's
``main()`` in the worker process that ansible-core forks for the task: the same code, arguments,
environment and result as in a module process. The worker exits after the task, so nothing it
changes outlives the task. Anything else (another host or interpreter, become, async, kept remote
files, or ``nms_overlay_in_process: false``) runs the module as a process, as usual.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import json
import os
import sys
import traceback

from ansible import constants as C
from ansible.module_utils import basic
from ansible.module_utils.parsing.convert_bool import boolean
from ansible.plugins.action import ActionBase
from ansible.plugins.action.normal import ActionModule as NormalAction
from ansible.utils.display import Display
from ansible.utils.vars import merge_hash
from ansible.vars.clean import remove_internal_keys

try:  # ansible-core 2.19 and later: arguments and results travel in a serialization profile
    from ansible.module_utils.common.json import Direction, get_module_encoder
except ImportError:
    Direction = get_module_encoder = None

SWITCH = 'nms_overlay_in_process'
PROFILE = 'legacy'  # the profile of every module without metadata, so the same as a module process
# ansible-core 2.19 parses a result in a serialization profile; earlier versions take no profile
PARSER_TAKES_PROFILE = 'profile' in inspect.signature(ActionBase._parse_returned_data).parameters

display = Display()


def module_import_path(name):
    return 'ansible_collections.nms.overlay.plugins.modules.%s' % name


def action_for(module_name):
    """The action plugin class of one module.

    ansible-core loads an action plugin's class in the main process before it forks the task's
    worker, so the module and what it would import lazily are loaded here once per playbook, and
    every worker starts with them.
    """
    with contextlib.suppress(Exception):  # a module that cannot load fails in its own task, with its own message
        module = importlib.import_module(module_import_path(module_name))
        for value in vars(module).values():
            if isinstance(value, type) and callable(getattr(value, 'preload', None)):
                value.preload()

    return type('ActionModule', (InProcessAction,), {'module_name': module_name})


class InProcessAction(NormalAction):
    """Runs ``module_name`` in this process when that is where it would run anyway; else as the
    ``normal`` action plugin of ansible-core runs every module: as a process."""

    module_name = None

    def run(self, tmp=None, task_vars=None):
        task_vars = task_vars if task_vars is not None else {}
        reason = self.why_not_in_process(task_vars)
        if reason:
            display.vvv('nms.overlay.%s runs as a module process: %s' % (self.module_name, reason))
            return super().run(tmp, task_vars)
        display.vvv('nms.overlay.%s runs in the controller process' % self.module_name)
        result = ActionBase.run(self, tmp, task_vars)  # the checks every action makes, without running the module
        return merge_hash(result, self.run_in_process(task_vars))

    def why_not_in_process(self, task_vars):
        """Why the module must run as a process (a short reason), or '' when it may run here."""
        if not boolean(self._templar.template(task_vars.get(SWITCH, True)), strict=False):
            return '%s is false' % SWITCH
        if self._connection.transport != 'local':
            return 'the connection is %s, not local' % self._connection.transport
        if self._play_context.become:
            return 'become is set'
        if self._task.async_val:
            return 'the task is async'
        if C.DEFAULT_KEEP_REMOTE_FILES:
            return 'remote files are kept'
        interpreter = self.interpreter(task_vars)
        if not interpreter or not same_path(interpreter, sys.executable):
            return 'the Python interpreter is %s, not %s' % (interpreter or 'not yet discovered', sys.executable)
        return ''

    def interpreter(self, task_vars):
        """The Python that would run the module, found as ansible-core finds it (None: not known yet)."""
        host_vars = task_vars.get('ansible_delegated_vars', {}).get(self._task.delegate_to, task_vars) \
            if self._task.delegate_to else task_vars
        configured = self._templar.template(C.config.get_config_value('INTERPRETER_PYTHON', variables=host_vars))
        if configured and not str(configured).startswith('auto'):
            return str(configured)
        return host_vars.get('ansible_facts', {}).get('discovered_interpreter_python')

    def run_in_process(self, task_vars):
        module_args = dict(self._task.args)
        # the name as the task wrote it, as in a module process (messages, syslog)
        self._update_module_args(self._task.action, module_args, task_vars)
        environment = {}
        self._compute_environment_string(environment)
        output, errors, code = run_main(module_import_path(self.module_name), module_args, environment)
        raw = {'rc': code, 'stdout': output, 'stderr': errors}
        data = self._parse_returned_data(raw, PROFILE) if PARSER_TAKES_PROFILE else self._parse_returned_data(raw)
        remove_internal_keys(data)
        return data


def same_path(interpreter, executable):
    """Whether two interpreter paths are the same Python with the same packages.

    Paths are compared as written, not resolved: a virtualenv's python links to the system's, but
    has other packages.
    """
    return os.path.normpath(os.path.abspath(interpreter)) == os.path.normpath(os.path.abspath(executable))


def encoded_arguments(module_args):
    payload = {'ANSIBLE_MODULE_ARGS': module_args}
    if get_module_encoder is None:
        return json.dumps(payload).encode()
    return json.dumps(payload, cls=get_module_encoder(PROFILE, Direction.CONTROLLER_TO_MODULE)).encode()


def masked(text, secrets):
    for secret in secrets:
        text = text.replace(str(secret), '********')
    return text


def run_main(import_path, module_args, environment):
    """Run a module's main() with these arguments and environment; return its stdout, stderr and exit code."""
    saved_environment = dict(os.environ)
    os.environ.update({str(name): str(value) for name, value in environment.items()})
    basic._ANSIBLE_ARGS = encoded_arguments(module_args)  # pylint: disable=protected-access
    if hasattr(basic, '_ANSIBLE_PROFILE'):
        basic._ANSIBLE_PROFILE = PROFILE  # pylint: disable=protected-access
    output, errors = io.StringIO(), io.StringIO()
    code = 0
    try:
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(errors):
            importlib.import_module(import_path).main()
    except SystemExit as exit_:
        if exit_.code is None or isinstance(exit_.code, int):
            code = exit_.code or 0
        else:  # sys.exit('text'): Python prints the text to stderr and exits with 1
            code = 1
            errors.write('%s\n' % exit_.code)
    except Exception as exc:  # pylint: disable=broad-exception-caught
        # what a crashing module process reports, with the traceback, but never the API token
        code = 1
        secrets = [value for value in (module_args.get('api_token'), os.environ.get('NMS_API_TOKEN')) if value]
        output = io.StringIO(json.dumps({'failed': True,
                                         'msg': masked('MODULE FAILURE: %s: %s' % (type(exc).__name__, exc), secrets),
                                         'exception': masked(traceback.format_exc(), secrets)}))
    finally:
        basic._ANSIBLE_ARGS = None  # pylint: disable=protected-access
        os.environ.clear()
        os.environ.update(saved_environment)
    return output.getvalue(), errors.getvalue(), code
