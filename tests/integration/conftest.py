# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Integration-test harness: run tasks of the collection against the API emulator (or a real server).

Fixtures (see docs/dev/interfaces.md):

``emulator``
    A running ``tests.emulator`` process, parametrised over the dialects ``netbird`` (a v0.27.6 server) and
    ``current`` (a v0.77.1 server); env ``NMS_EMULATOR_DIALECTS`` (default ``netbird,current``) changes the list
    (``seed``, the spec read literally, which no real server speaks, is tested where it matters in
    tests/reliability/test_seed_conformance.py). One process per test module and dialect; its state is reset
    before every test. Methods talk to it over 127.0.0.1 with ``urllib`` only. Note that ``emulator.api(...)``
    calls go through ``/api`` and so appear in the request log: call ``emulator.clear_log()`` after setting up
    state.

``run``
    ``run(tasks, check=False, diff=False, verbosity=None, env=None, extra_vars=None, inventory=None,
    hosts="localhost", play=None, timeout=600, playbook=None, python=None, ansible=False)`` runs a one-play task
    list and returns a :class:`PlayResult`: ``result[task name]`` is the task's result as the recorder callback
    (plugins/callback/recorder.py) writes it, ``result.rc`` the exit code ansible-playbook has. When the test also
    uses ``emulator``, ``NMS_API_URL`` / ``NMS_API_TOKEN`` point at it.

    How it runs: a task list made only of plain calls of nms.overlay modules runs **in process**, through the
    entry the action plugin uses for a local task (tests/support/inprocess.py ``run_module``, which calls
    plugins/plugin_utils/_in_process.py ``run_engine``), about 30 times faster than ``ansible-playbook``.
    Plain means: every task is ``{<nms.overlay.X>: {args}}`` with at most the keys name, register,
    ignore_errors, check_mode and diff (ignore_errors, check_mode, diff as booleans); no Jinja (``{{``, ``{%``,
    ``{#``) anywhere; ``hosts`` localhost; no ``inventory``, ``playbook``, ``python`` or ``play``; ``env`` only
    sets or removes ``NMS_*`` variables (the task's environment); no ``nms_overlay_in_process`` extra var. What
    ansible-playbook does with the results is followed: tasks in order; ``check``/``diff`` play-wide, a task's
    own ``check_mode``/``diff`` first; a failed task ends the play (rc 2) unless it has ``ignore_errors``; each
    recorded result has the keys the recorder callback writes, and ``invocation`` only where this ansible-core
    injects it. Other ``extra_vars`` are an error there: nothing would use them.

    Anything else runs ``ansible-playbook`` of this virtualenv (or of ``python``'s) as a one-play playbook, at
    ``-vvvv`` unless ``verbosity`` says otherwise (env ``NMS_INTEGRATION_VERBOSITY`` changes the default).
    ``ansible=True`` forces that: for tests of Ansible's own part (output and callbacks, roles and playbooks,
    loops and templating, ``no_log``, the inventory command line, a module as a process). Only such a run has
    output: ``result.stdout`` / ``result.text`` of an in-process run fail, saying to pass ``ansible=True``.
    ``result.in_process`` tells which way it went. Env ``NMS_INTEGRATION_IN_PROCESS=0`` runs everything through
    ansible-playbook (to compare both ways).

    After every run, both ways, the output (in process: each task's recorded result, as that task's output)
    and the request logs of the test's emulators are scanned for secrets (tests/integration/secrets_scan.py):
    the API token never shows, a setup key or token value only in the output of the task that created it, and
    no secret is in a request URL. A leak fails the test, naming the secret's kind and where it showed, never
    the secret. Every successful result is also checked against its module's RETURN (return_contract.py).
    The terminal summary says how many runs went which way.

    Where modules run inside ansible-playbook: in the controller's worker for these local tasks (the default,
    see plugins/plugin_utils/_in_process.py) unless a test sets ``nms_overlay_in_process: false``; the module
    process path is covered by test_in_process.py and by one play per module in test_matrix.py.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import subprocess
import sys
import time

import pytest
import yaml

from tests.integration import return_contract, secrets_scan
from tests.support import emulator as support
from tests.support.emulator import REPO_ROOT, Emulator
from tests.support.inprocess import run_module

CALLBACK_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plugins", "callback")
BIN_DIR = os.path.dirname(sys.executable)

DIALECTS = [d.strip() for d in os.environ.get("NMS_EMULATOR_DIALECTS", "netbird,current").split(",") if d.strip()]
# -vvvv shows every module's arguments and result: what the secrets scan needs to see
DEFAULT_VERBOSITY = int(os.environ.get("NMS_INTEGRATION_VERBOSITY", "4"))


# --------------------------------------------------------------------------------------------
# Emulator (the client is tests/support/emulator.py)


class ScannedEmulator(Emulator):
    """The emulator client that also remembers the setup key and token values it was answered, for the
    secrets scan (tests/integration/secrets_scan.py)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seen_secrets = {}  # {value: kind}: setup key and token values answered since the reset

    def remember(self, data):
        """Note the setup key and token values in ``data`` (they exist from now on)."""
        self.seen_secrets.update(secrets_scan.secrets_in(data))

    def known_secrets(self):
        """``{value: kind}`` of every setup key value the emulator holds and every token value seen."""
        known = dict(self.seen_secrets)
        for key in (self.state() or {}).get("setup_keys") or []:
            if isinstance(key, dict) and key.get("key"):
                known[key["key"]] = secrets_scan.SETUP_KEY
        return known

    def reset(self):
        super().reset()
        self.seen_secrets = {}


def running_emulator(dialect, workdir, extra_args=()):
    """An emulator for the integration tests, for a ``with`` block (tests/support/emulator.py running_emulator):
    with an identity provider in every dialect (invites work; a test takes it away with POST /_emulator/config)
    and the secrets scan's memory."""
    return support.running_emulator(dialect, workdir, extra_args=["--idp"] + list(extra_args), cls=ScannedEmulator)


def pytest_configure(config):
    config.addinivalue_line("markers", "dialects(*names): the test runs only against these emulator dialects (what it "
                                       "proves does not depend on the server: Ansible's part, tried once)")


def pytest_collection_modifyitems(config, items):
    """Leave out the dialects a test's ``dialects`` marker does not name."""
    kept, dropped = [], []
    for item in items:
        marker = item.get_closest_marker("dialects")
        dialect = getattr(getattr(item, "callspec", None), "params", {}).get("emulator_process")
        (dropped if marker and dialect and dialect not in marker.args else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@pytest.fixture(scope="session", params=DIALECTS)
def emulator_process(request, emulators):
    """The worker's emulator of a dialect (tests/conftest.py ``emulators``), as running_emulator above starts it
    (use the ``emulator`` fixture in tests)."""
    return emulators.get(request.param, extra_args=["--idp"], cls=ScannedEmulator)


@pytest.fixture
def emulator(request, emulator_process):
    """The module's emulator for the current dialect, reset to the initial seed.

    At the end of the test, no request the test made it send carries a secret in its URL (this also
    covers what ``run`` does not run, such as ansible-inventory).
    """
    emulator_process.reset()
    yield emulator_process
    if emulator_process.process.poll() is None:
        secrets = secrets_scan.classify([emulator_process.token], emulator_process.known_secrets(), {}, [])
        leaks = secrets_scan.url_leaks(emulator_process.requests(), secrets)
        if leaks:
            pytest.fail(secrets_scan.report(request.node.nodeid, "request log at the end of the test", leaks),
                        pytrace=False)


# --------------------------------------------------------------------------------------------
# Results


NO_OUTPUT = ("this run went in process (plain nms.overlay tasks), so it has no ansible-playbook output; pass "
             "ansible=True to run(...) to check Ansible's own output")


class PlayResult:
    """Outcome of one run: ``ansible-playbook``'s, or the in-process one (``in_process``: no output then)."""

    def __init__(self, rc, stdout, results, command, in_process=False):
        self.rc = rc
        self._stdout = stdout
        self.results = results
        self.command = command
        self.in_process = in_process

    @property
    def stdout(self):
        """ansible-playbook's output (an in-process run has none: AssertionError)."""
        if self.in_process:
            raise AssertionError(NO_OUTPUT)
        return self._stdout

    def _tail(self):
        """The end of the output, or in process a short text of every task's result (for messages)."""
        if not self.in_process:
            return self._stdout[-4000:]
        lines = ["(in process) %s" % json.dumps({key: record.get(key) for key in ("task", "changed", "failed", "msg")},
                                                default=repr) for record in self.results]
        return "\n".join(lines)[-4000:]

    def __getitem__(self, name):
        matches = [r for r in self.results if r.get("task") == name]
        if not matches:
            raise KeyError("no task named %r; tasks: %r\n%s" % (name, self.task_names, self._tail()))
        return matches[-1]

    def __contains__(self, name):
        return any(r.get("task") == name for r in self.results)

    def all(self, name):
        """Every result of the task named ``name`` (one per host)."""
        return [r for r in self.results if r.get("task") == name]

    @property
    def text(self):
        """stdout with every run of white space one space: ansible-core 2.16 wraps warnings."""
        return " ".join(self.stdout.split())

    @property
    def task_names(self):
        return [r.get("task") for r in self.results]

    @property
    def failed(self):
        return [r for r in self.results if r.get("failed")]

    @property
    def changed(self):
        return [r for r in self.results if r.get("changed")]

    def __repr__(self):
        how = " in process" if self.in_process else ""
        return "<PlayResult%s rc=%s tasks=%r>\n%s" % (how, self.rc, self.task_names, self._tail())


@pytest.fixture(scope="session")
def bytecode_cache(tmp_path_factory):
    """One bytecode cache for every module process of the session's runs (plugins/module_utils/_bytecode.py): each
    run has a HOME of its own, where the default cache would be compiled anew; test_in_process tests the default."""
    return tmp_path_factory.mktemp("bytecode")


@pytest.fixture(scope="session")
def collections_dir(tmp_path_factory):
    """A directory holding ``ansible_collections/nms/overlay`` -> repository root (symlink)."""
    base = tmp_path_factory.mktemp("collections")
    (base / "ansible_collections" / "nms").mkdir(parents=True)
    os.symlink(REPO_ROOT, str(base / "ansible_collections" / "nms" / "overlay"))
    return str(base)


def _load_tasks(tasks):
    if isinstance(tasks, str):
        tasks = yaml.safe_load(tasks)
    if isinstance(tasks, dict):
        tasks = [tasks]
    if not isinstance(tasks, list):
        raise TypeError("tasks must be a list of task dicts or a YAML string holding one")
    return tasks


# --------------------------------------------------------------------------------------------
# Which way a run goes, and the in-process run


PREFIX = "nms.overlay."
PLAIN_KEYS = frozenset(("name", "register", "ignore_errors", "check_mode", "diff"))
SWITCH = "nms_overlay_in_process"
IN_PROCESS_ENABLED = os.environ.get("NMS_INTEGRATION_IN_PROCESS", "1").strip().lower() not in ("0", "false", "no", "")
# how many runs went which way, and their seconds: {way: [runs, seconds]} (see pytest_terminal_summary)
RUN_COUNTS = collections.defaultdict(lambda: [0, 0.0])
FALLBACKS = collections.Counter()  # why runs went through ansible-playbook (ansible=True, Jinja, ...)
# the seconds of ansible-playbook runs by test file: where the stage's time goes (issue 43, item 6)
PLAYBOOK_SECONDS = collections.Counter()


class Step:
    """One plain task of an in-process run."""

    def __init__(self, task, action):
        self.name = task.get("name") or action  # ansible-core names an unnamed task after its action
        self.action = action  # as the task wrote it (the recorder's "action")
        self.module = action[len(PREFIX):]
        self.args = task[action] if task[action] is not None else {}
        self.ignore_errors = task.get("ignore_errors", False)
        self.check_mode = task.get("check_mode")
        self.diff = task.get("diff")


def _module_exists(name):
    return name.isidentifier() and os.path.isfile(os.path.join(REPO_ROOT, "plugins", "modules", name + ".py")) \
        and os.path.isfile(os.path.join(REPO_ROOT, "plugins", "action", name + ".py"))


def _plain_step(task):
    """A :class:`Step` for a plain call of an nms.overlay module, or the reason it is not one (a str)."""
    if not isinstance(task, dict):
        return "a task is not a dictionary"
    others = [str(key) for key in task if key not in PLAIN_KEYS]
    if not others:
        return "a task without an action"
    if len(others) > 1:  # name the keys that are not the module's (or all, when none or several are)
        modules = [key for key in others if key.startswith(PREFIX)]
        return "task keys %s" % ", ".join(sorted(key for key in others if len(modules) != 1 or key not in modules))
    action = others[0]
    if not (isinstance(action, str) and action.startswith(PREFIX) and _module_exists(action[len(PREFIX):])):
        # a short name resolves to an nms.overlay module only under the play's collections keyword (play=...)
        return "the action %s" % action
    if not isinstance(task[action], (dict, type(None))):
        return "free-form arguments"
    for key in ("ignore_errors", "check_mode", "diff"):
        if key in task and not isinstance(task[key], bool):
            return "%s is not a boolean" % key
    if not isinstance(task.get("name", ""), str) or not isinstance(task.get("register", ""), str):
        return "a name or register that is not a string"
    return Step(task, action)


def _plan(tasks, hosts, inventory, play, playbook, python, extra_vars, env):
    """``([Step], None)`` for a task list that runs in process, ``(None, reason)`` for one that needs ansible-playbook."""
    given = (("playbook", playbook), ("inventory", inventory), ("play", play), ("python", python))
    others = [(what, value) for what, value in given if value is not None]
    if others:
        return None, "%s=" % others[0][0]
    if hosts != "localhost":
        return None, "hosts=%s" % hosts
    if extra_vars and not isinstance(extra_vars, os.PathLike) and SWITCH in extra_vars:
        return None, "the extra var %s" % SWITCH
    outside = sorted(str(key) for key in env or {} if not str(key).startswith("NMS_"))
    if outside:
        return None, "env sets %s" % outside[0]
    if not tasks:
        return None, "no task"
    text = json.dumps(tasks, default=repr)
    if any(mark in text for mark in ("{{", "{%", "{#")):
        return None, "Jinja"
    steps = []
    for task in tasks:
        step = _plain_step(task)
        if isinstance(step, str):
            return None, step
        steps.append(step)
    return steps, None


@contextlib.contextmanager
def _process_as_ansible_playbook_would(workdir, home):
    """The process as a task worker of ``run``'s ansible-playbook would be: no NMS_* variable but those the
    task's environment sets, HOME and the working directory of the run; all restored at the end."""
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    for key in [key for key in os.environ if key.startswith("NMS_")]:
        del os.environ[key]
    os.environ.update(HOME=str(home), PWD=str(workdir))
    os.chdir(str(workdir))
    try:
        yield
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)


def _injects_invocation():
    """Whether this ansible-core adds ``invocation`` to a result (from 2.21 only when INJECT_INVOCATION is on)."""
    # pylint: disable=import-outside-toplevel
    from ansible_collections.nms.overlay.plugins.plugin_utils._in_process import injects_invocation
    with _without(("ANSIBLE_INJECT_INVOCATION",)):  # run strips ANSIBLE_* from ansible-playbook's environment
        return injects_invocation({})


@contextlib.contextmanager
def _without(names):
    saved = {name: os.environ.pop(name) for name in names if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


def _record(step, result):
    """The result as the recorder callback writes it after ansible-playbook's task executor, and the module's
    own output (what a module process prints) for the secrets scan."""
    output = (result.get("_stdout") or "") + (result.get("_stderr") or "")
    data = {key: value for key, value in result.items() if key not in ("_rc", "_stdout", "_stderr")}
    if "uncaught" in data:  # raised past the engine: the action plugin's exception, a failed task in ansible-core
        trace = data.pop("uncaught")
        data.update(failed=True, msg="in-process run raised: %s" % trace.strip().splitlines()[-1], exception=trace)
    if not _injects_invocation():
        data.pop("invocation", None)
    failed = bool(data.get("failed", False))
    if failed:
        data.setdefault("changed", False)  # as ansible-core's task executor
    record = dict(data)
    record.update(
        task=step.name,
        action=step.action,
        host="localhost",
        outcome="failed" if failed else "ok",
        changed=bool(data.get("changed", False)),
        failed=failed,
        skipped=bool(data.get("skipped", False)),
        unreachable=False,
        msg=data.get("msg"),
        diff=data.get("diff"),
    )
    return record, output


def _run_in_process(steps, check, diff, environment, workdir, home):
    """``(rc, records, output)`` of the steps, as ansible-playbook would run them on localhost. ``output`` holds,
    per task, a ``TASK [name]`` line and the task's recorded result and module output (for the secrets scan)."""
    records, output, rc = [], [], 0
    for step in steps:
        check_mode = check if step.check_mode is None else step.check_mode
        task_diff = diff if step.diff is None else step.diff
        with _process_as_ansible_playbook_would(workdir, home):
            result = run_module(step.module, json.loads(json.dumps(step.args)), check_mode=check_mode, diff=task_diff,
                                environment=environment, cwd=workdir)
        record, printed = _record(step, result)
        records.append(record)
        if record.get("_ansible_no_log"):
            # what ansible-playbook shows of a result the action plugin hides (the record is what register gets)
            printed, shown = "", {"censored": "(hidden: the result holds a created secret)", "changed": record["changed"]}
        else:
            shown = record
        output.append("TASK [%s] %s\n%s\n%s\n" % (step.name, "*" * 20, json.dumps(shown, default=repr), printed))
        if record["failed"] and not step.ignore_errors:
            rc = 2  # ansible-playbook: a host failed, the play ends for it
            break
    return rc, records, "".join(output)


# --------------------------------------------------------------------------------------------
# The run fixture


@pytest.fixture
def run(request, tmp_path, collections_dir, bytecode_cache):
    """Return ``run(tasks, ...)`` -> :class:`PlayResult` (see the module docstring)."""
    counter = [0]

    def _run(tasks, check=False, diff=False, verbosity=None, env=None, extra_vars=None,
             inventory=None, hosts="localhost", play=None, timeout=600, playbook=None, python=None, ansible=False):
        counter[0] += 1
        workdir = tmp_path / ("run%d" % counter[0])
        home = workdir / "home"
        local_tmp = workdir / "tmp"
        for path in (home, local_tmp):
            path.mkdir(parents=True)
        task_list = _load_tasks(tasks)

        api_env = {}
        if "emulator" in request.fixturenames:
            emu = request.getfixturevalue("emulator")
            api_env.update(NMS_API_URL=emu.url, NMS_API_TOKEN=emu.token)
        base_env = _with_env(api_env, env)  # what the task sees of NMS_* (and of env's other variables)

        emulators = _emulators_of(request)
        never = [emu.token for emu in emulators] + [base_env.get("NMS_API_TOKEN")]
        known = {}
        for emu in emulators:
            known.update(emu.known_secrets())

        steps, reason = _plan(task_list, hosts, inventory, play, playbook, python, extra_vars, env)
        if ansible:
            reason = "ansible=True"
        elif not IN_PROCESS_ENABLED:
            reason = "NMS_INTEGRATION_IN_PROCESS=0"
        started = time.monotonic()
        if reason is None:
            if extra_vars:
                raise AssertionError(
                    "run(...) of plain nms.overlay tasks goes in process, where nothing uses extra_vars %s: drop "
                    "them, or pass ansible=True to run ansible-playbook" % sorted(extra_vars))
            environment = {key: value for key, value in base_env.items() if key.startswith("NMS_")}
            rc, results, stdout = _run_in_process(steps, check, diff, environment, workdir, home)
            result = PlayResult(rc, stdout, results, ["(in process)"] + [s.action for s in steps], in_process=True)
            way = "in process"
        else:
            playbook_env = dict({"NMS_OVERLAY_BYTECODE_CACHE": str(bytecode_cache)}, **(env or {}))  # the test's wins
            result = _run_ansible_playbook(request, workdir, home, local_tmp, collections_dir, task_list, api_env,
                                           playbook_env, check, diff, verbosity, extra_vars, inventory, hosts, play,
                                           timeout, playbook, python)
            way = "ansible-playbook"
            FALLBACKS[reason] += 1
        elapsed = time.monotonic() - started
        if way == "ansible-playbook":
            PLAYBOOK_SECONDS[request.node.path.name] += elapsed
        RUN_COUNTS[way][0] += 1
        RUN_COUNTS[way][1] += elapsed
        label = "run #%d (%s)" % (counter[0], way)
        _scan_secrets(request, label, result._stdout, result.results, emulators, never, known)  # pylint: disable=protected-access
        broken = [problem for record in result.results for problem in return_contract.violations(record)]
        if broken:
            pytest.fail(return_contract.report(request.node.nodeid, label, broken), pytrace=False)
        return result

    return _run


def _with_env(variables, env):
    """``variables`` with ``env`` applied: a value sets the variable, None removes it."""
    variables = dict(variables)
    for key, value in (env or {}).items():
        if value is None:
            variables.pop(key, None)
        else:
            variables[key] = str(value)
    return variables


def _run_ansible_playbook(request, workdir, home, local_tmp, collections_dir, task_list, api_env, env, check, diff,
                          verbosity, extra_vars, inventory, hosts, play, timeout, playbook, python):
    """A one-play playbook of ``task_list`` (or the collection's ``playbook``) run by ``ansible-playbook``."""
    # python= runs another virtualenv's ansible-playbook, with that Python as the interpreter
    python = python or sys.executable
    bin_dir = os.path.dirname(python)
    play_dict = {
        "name": request.node.name,
        "hosts": hosts,
        "gather_facts": False,
        "connection": "local",
        "vars": {"ansible_python_interpreter": python},
        "tasks": task_list,
    }
    if play:
        play_dict.update(play)
    playbook_file = workdir / "playbook.yml"
    playbook_file.write_text(yaml.safe_dump([play_dict], sort_keys=False), encoding="utf-8")
    config = workdir / "ansible.cfg"
    config.write_text("[defaults]\n", encoding="utf-8")
    results_file = workdir / "results.json"

    # playbook= runs a playbook of the collection (e.g. "nms.overlay.build_network") instead
    cmd = [os.path.join(bin_dir, "ansible-playbook"), playbook or str(playbook_file)]
    if check:
        cmd.append("--check")
    if diff:
        cmd.append("--diff")
    if verbosity is None:
        verbosity = DEFAULT_VERBOSITY
    if verbosity:
        cmd.append("-" + "v" * int(verbosity))
    if isinstance(extra_vars, os.PathLike):  # a file of variables, as `-e @network.yml` loads it (!unsafe and all)
        cmd.extend(["-e", "@%s" % extra_vars])
    elif extra_vars:
        vars_file = workdir / "extra_vars.json"
        vars_file.write_text(json.dumps(extra_vars), encoding="utf-8")
        cmd.extend(["-e", "@%s" % vars_file])
    if inventory is not None:
        if isinstance(inventory, dict):  # {file name: content}
            for name, content in inventory.items():
                inv = workdir / name
                inv.write_text(content if isinstance(content, str) else yaml.safe_dump(content),
                               encoding="utf-8")
                cmd.extend(["-i", str(inv)])
        else:
            cmd.extend(["-i", str(inventory)])

    run_env = {k: v for k, v in os.environ.items()
               if not k.startswith(("ANSIBLE_", "NMS_")) and k not in ("PYTHONPATH",)}
    run_env.update({
        "HOME": str(home),
        "PWD": str(workdir),  # ansible-playbook runs in workdir, as a shell that cd'ed there says
        "ANSIBLE_CONFIG": str(config),
        "ANSIBLE_COLLECTIONS_PATH": collections_dir,
        "ANSIBLE_COLLECTIONS_SCAN_SYS_PATH": "False",
        "ANSIBLE_CALLBACK_PLUGINS": CALLBACK_DIR,
        "ANSIBLE_CALLBACKS_ENABLED": "recorder",
        "NMS_OVERLAY_RECORDER_FILE": str(results_file),
        "ANSIBLE_NOCOLOR": "1",
        "ANSIBLE_FORCE_COLOR": "0",
        "ANSIBLE_LOCALHOST_WARNING": "False",
        "ANSIBLE_INVENTORY_UNPARSED_WARNING": "False",
        "ANSIBLE_LOCAL_TEMP": str(local_tmp),
        "ANSIBLE_REMOTE_TEMP": str(local_tmp / "remote"),
        "ANSIBLE_PYTHON_INTERPRETER": python,
        "ANSIBLE_RETRY_FILES_ENABLED": "False",
        "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
    })
    run_env = _with_env(dict(run_env, **api_env), env)  # the emulator's NMS_API_URL / NMS_API_TOKEN, then the test's env
    proc = subprocess.run(cmd, cwd=str(workdir), env=run_env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout, check=False)
    stdout = proc.stdout.decode("utf-8", errors="replace")
    results = []
    if results_file.exists():
        results = json.loads(results_file.read_text(encoding="utf-8"))
    return PlayResult(proc.returncode, stdout, results, cmd)


def _emulators_of(request):
    """The emulators the test uses (``emulator`` and any other fixture that started one)."""
    found = []
    for value in request.node.funcargs.values():
        if all(hasattr(value, name) for name in ("token", "url", "requests", "known_secrets", "process")) \
                and value not in found and value.process.poll() is None:
            found.append(value)
    return found


def _scan_secrets(request, label, stdout, results, emulators, never, known):
    """Fail the test when a secret shows where it must not (see tests/integration/secrets_scan.py)."""
    created = secrets_scan.secrets_in(results)
    created.update((value, secrets_scan.PAT) for value in secrets_scan.pats_in(stdout))
    logs = []
    for emu in emulators:
        created.update(emu.known_secrets())
        logs.extend(emu.requests())
    created.update(secrets_scan.write_only_in(logs))
    secrets = secrets_scan.classify(never, known, created, results)
    leaks = secrets_scan.output_leaks(stdout, secrets) + secrets_scan.url_leaks(logs, secrets)
    for emu in emulators:  # what this run created exists before the next one
        if hasattr(emu, "remember"):
            emu.seen_secrets.update((s.value, s.kind) for s in secrets if s.kind != secrets_scan.API_TOKEN)
    if leaks:
        pytest.fail(secrets_scan.report(request.node.nodeid, label, leaks), pytrace=False)


# --------------------------------------------------------------------------------------------
# How many runs went which way (each xdist worker hands its figures to the controller)


COUNTS_KEY = "nms_integration_runs"


def pytest_sessionfinish(session):
    if hasattr(session.config, "workeroutput"):  # an xdist worker
        counts = {"runs": dict(RUN_COUNTS), "fallbacks": dict(FALLBACKS), "playbook_seconds": dict(PLAYBOOK_SECONDS)}
        session.config.workeroutput[COUNTS_KEY] = json.dumps(counts)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):  # pylint: disable=unused-argument
    data = json.loads(getattr(node, "workeroutput", {}).get(COUNTS_KEY) or "{}")
    for way, (runs, seconds) in (data.get("runs") or {}).items():
        RUN_COUNTS[way][0] += runs
        RUN_COUNTS[way][1] += seconds
    FALLBACKS.update(data.get("fallbacks") or {})
    PLAYBOOK_SECONDS.update(data.get("playbook_seconds") or {})


def pytest_terminal_summary(terminalreporter, config):
    if hasattr(config, "workeroutput") or not RUN_COUNTS:
        return
    terminalreporter.section("integration runs")
    for way in sorted(RUN_COUNTS):
        runs, seconds = RUN_COUNTS[way]
        terminalreporter.write_line("%s: %d runs, %.1f s (%.2f s per run)" % (way, runs, seconds, seconds / max(runs, 1)))
    if FALLBACKS:
        terminalreporter.write_line("ansible-playbook runs by reason:")
        for reason, runs in FALLBACKS.most_common():
            terminalreporter.write_line("  %5d  %s" % (runs, reason))
    if PLAYBOOK_SECONDS:
        terminalreporter.write_line("ansible-playbook seconds by test file (the 12 most):")
        for name, seconds in PLAYBOOK_SECONDS.most_common(12):
            terminalreporter.write_line("  %7.1f  %s" % (seconds, name))
