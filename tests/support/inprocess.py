# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Run a module inside pytest, as its action plugin runs it in the controller (the one in-process runner).

``run_module(name, args)`` goes through the same entry the action plugin uses for a local task
(plugins/plugin_utils/_in_process.py ``run_engine``), after the action plugin's own check of the options'
shapes; ``environment`` is the task's ``environment:`` (``NMS_API_URL`` / ``NMS_API_TOKEN`` of the server
under test), set only while the module runs. The reliability tests, the integration tests' ``run`` fixture
and the scenario tests (tests/scenarios) all use it; anything raised past the engine is returned as
``{"uncaught": traceback}``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
import traceback

from tests.support.modules import engine_of


_SCRATCH = {}


def scratch_directory(server=None):
    """A temporary directory of this process for each server: the working directory of a run that no caller chose (an
    example's relative created_secrets_file lands there, never in the checkout the tests run from; one file per
    server, as the modules require of a secrets file)."""
    if server not in _SCRATCH:
        _SCRATCH[server] = tempfile.mkdtemp(prefix='nms-run-module-')
    return _SCRATCH[server]


def run_module(name, args, check_mode=False, diff=False, no_log=False, environment=None, cwd=None):
    """Run one module with ``args`` as its action plugin runs it in the controller; return its result.

    First the action plugin's own check of the options' shapes (made whichever way a module runs), then
    the engine with the options validated as AnsibleModule validates them. Keys added here: ``_rc`` (the
    exit code a module process would have: 1 failed, 0 otherwise), ``_stdout`` (what was printed, then
    the result as JSON, as a module process prints it), ``_stderr``. When anything raised past the engine,
    the result is ``{"uncaught": traceback text, ...}``. The module runs in ``cwd`` (the directory ansible-playbook
    would run in), by default a scratch directory.
    """
    # pylint: disable=import-outside-toplevel
    from ansible_collections.nms.overlay.plugins.module_utils._task import shape_problem
    from ansible_collections.nms.overlay.plugins.plugin_utils._in_process import (
        hide_created_secret, run_engine, task_environment,
    )
    engine = engine_of(name)
    out = io.StringIO()
    err = io.StringIO()
    try:
        where = _chdir(scratch_directory(repr(args.get('api_url'))) if cwd is None else cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), task_environment(environment or {}), where:
            spec = engine.validation()['argument_spec']
            problem = shape_problem(spec, args, strict=engine.strict_texts)
            if problem:
                result = {"failed": True, "msg": problem}
            else:
                result = hide_created_secret(engine, run_engine(engine, dict(args), "nms.overlay.%s" % name,
                                                                check_mode=check_mode, diff=diff, no_log=no_log))
    except BaseException:  # pylint: disable=broad-except
        return {"uncaught": traceback.format_exc(), "_stdout": out.getvalue(), "_stderr": err.getvalue(),
                "failed": True}
    result = json.loads(json.dumps(result))  # as a module process hands it over: plain JSON types
    result["_rc"] = 1 if result.get("failed") else 0
    result["_stdout"] = out.getvalue() + json.dumps({k: v for k, v in result.items() if not k.startswith("_")})
    result["_stderr"] = err.getvalue()
    return result


@contextlib.contextmanager
def _chdir(path):
    saved = os.getcwd()
    os.chdir(str(path))
    try:
        yield
    finally:
        os.chdir(saved)


def describe(result):
    """A short text of a result for assertion messages."""
    keep = {k: v for k, v in result.items() if k not in ("_stdout", "invocation")}
    return json.dumps(keep, indent=1, default=str)[:3000]


def assert_clean_end(name, args, result):
    """The run ended in exit_json or fail_json, not in an exception or a traceback."""
    context = "module %s with %r" % (name, args)
    assert "uncaught" not in result, "%s raised instead of failing:\n%s" % (context, result["uncaught"])
    assert "exception" not in result, "%s failed with a traceback:\n%s" % (context, result["exception"])
    assert "Traceback (most recent call last)" not in result.get("msg", ""), "%s: %s" % (context, describe(result))
    if result.get("failed"):
        assert result.get("_rc") == 1, "%s: fail_json exit code %r" % (context, result.get("_rc"))
        assert isinstance(result.get("msg"), str) and result["msg"].strip(), "%s: no msg: %s" % (context, describe(result))
    else:
        assert result.get("_rc") == 0, "%s: exit code %r: %s" % (context, result.get("_rc"), describe(result))
