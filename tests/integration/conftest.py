# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Integration-test harness: drive ``ansible-playbook`` against the API emulator.

Fixtures (see docs/dev/interfaces.md):

``emulator``
    A running ``tests.emulator`` process, parametrised over the dialects ``seed``, ``netbird``
    (a v0.27.6 server) and ``current`` (a v0.77.1 server); env ``NMS_EMULATOR_DIALECTS=seed,netbird,current``
    narrows the list. One process per test module and dialect; its state is reset before every
    test. Methods talk to it over 127.0.0.1 with ``urllib`` only. Note that ``emulator.api(...)`` calls go through ``/api`` and
    so appear in the request log: call ``emulator.clear_log()`` after setting up state.

``run``
    ``run(tasks, check=False, diff=False, verbosity=None, env=None, extra_vars=None,
    inventory=None, hosts="localhost", play=None, timeout=600)`` writes a one-play playbook,
    runs it with the ``ansible-playbook`` of this virtualenv and returns a :class:`PlayResult`.
    When the test also uses ``emulator``, ``NMS_API_URL`` / ``NMS_API_TOKEN`` point at it.
    Every play runs at ``-vvvv`` unless ``verbosity`` says otherwise (env
    ``NMS_INTEGRATION_VERBOSITY`` changes the default), and after every run the output and the
    request logs of the test's emulators are scanned for secrets (tests/integration/secrets_scan.py):
    the API token never shows, a setup key or token value only in the output of the task that
    created it, and no secret is in a request URL. A leak fails the test, naming the secret's
    kind and where it showed, never the secret.
    How modules run follows the dialect, so every test covers both ways: against ``seed`` the play
    sets ``nms_overlay_in_process: false`` (each module runs as a process, as on a remote host);
    against ``netbird`` and ``current`` modules run in the controller's worker (the default for local
    tasks, see plugins/plugin_utils/_in_process.py). A test's own ``extra_vars`` can override it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import yaml

from tests.integration import return_contract, secrets_scan
from tests.support import emulator as support
from tests.support.emulator import REPO_ROOT, Emulator

CALLBACK_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plugins", "callback")
BIN_DIR = os.path.dirname(sys.executable)

DIALECTS = [d.strip() for d in os.environ.get("NMS_EMULATOR_DIALECTS", "seed,netbird,current").split(",") if d.strip()]
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


@pytest.fixture(scope="module", params=DIALECTS)
def emulator_process(request, tmp_path_factory):
    """One emulator per test module and dialect (use the ``emulator`` fixture in tests)."""
    workdir = str(tmp_path_factory.mktemp("emulator-%s" % request.param))
    with running_emulator(request.param, workdir) as emu:
        yield emu


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
# ansible-playbook


class PlayResult:
    """Outcome of one ``ansible-playbook`` run."""

    def __init__(self, rc, stdout, results, command):
        self.rc = rc
        self.stdout = stdout
        self.results = results
        self.command = command

    def __getitem__(self, name):
        matches = [r for r in self.results if r.get("task") == name]
        if not matches:
            raise KeyError("no task named %r; tasks: %r\n%s" % (name, self.task_names, self.stdout[-4000:]))
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
        return "<PlayResult rc=%s tasks=%r>\n%s" % (self.rc, self.task_names, self.stdout[-4000:])


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


@pytest.fixture
def run(request, tmp_path, collections_dir):
    """Return ``run(tasks, ...)`` -> :class:`PlayResult` (see the module docstring)."""
    counter = [0]

    def _run(tasks, check=False, diff=False, verbosity=None, env=None, extra_vars=None,
             inventory=None, hosts="localhost", play=None, timeout=600, playbook=None, python=None):
        # python= runs another virtualenv's ansible-playbook, with that Python as the interpreter
        python = python or sys.executable
        bin_dir = os.path.dirname(python)
        playbook_name = playbook
        counter[0] += 1
        workdir = tmp_path / ("run%d" % counter[0])
        home = workdir / "home"
        local_tmp = workdir / "tmp"
        for path in (home, local_tmp):
            path.mkdir(parents=True)

        play_dict = {
            "name": request.node.name,
            "hosts": hosts,
            "gather_facts": False,
            "connection": "local",
            "vars": {"ansible_python_interpreter": python},
            "tasks": _load_tasks(tasks),
        }
        if play:
            play_dict.update(play)
        playbook = workdir / "playbook.yml"
        playbook.write_text(yaml.safe_dump([play_dict], sort_keys=False), encoding="utf-8")
        config = workdir / "ansible.cfg"
        config.write_text("[defaults]\n", encoding="utf-8")
        results_file = workdir / "results.json"

        # playbook= runs a playbook of the collection (e.g. "nms.overlay.build_network") instead
        cmd = [os.path.join(bin_dir, "ansible-playbook"), playbook_name or str(playbook)]
        if check:
            cmd.append("--check")
        if diff:
            cmd.append("--diff")
        if verbosity is None:
            verbosity = DEFAULT_VERBOSITY
        if verbosity:
            cmd.append("-" + "v" * int(verbosity))
        if "emulator" in request.fixturenames and request.getfixturevalue("emulator").dialect == "seed":
            cmd.extend(["-e", "nms_overlay_in_process=false"])
        if extra_vars:
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
        if "emulator" in request.fixturenames:
            emu = request.getfixturevalue("emulator")
            run_env["NMS_API_URL"] = emu.url
            run_env["NMS_API_TOKEN"] = emu.token
        for key, value in (env or {}).items():
            if value is None:
                run_env.pop(key, None)
            else:
                run_env[key] = str(value)

        emulators = _emulators_of(request)
        never = [emu.token for emu in emulators] + [run_env.get("NMS_API_TOKEN")]
        known = {}
        for emu in emulators:
            known.update(emu.known_secrets())

        proc = subprocess.run(cmd, cwd=str(workdir), env=run_env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout, check=False)
        stdout = proc.stdout.decode("utf-8", errors="replace")
        results = []
        if results_file.exists():
            results = json.loads(results_file.read_text(encoding="utf-8"))
        _scan_secrets(request, "run #%d" % counter[0], stdout, results, emulators, never, known)
        broken = [problem for record in results for problem in return_contract.violations(record)]
        if broken:
            pytest.fail(return_contract.report(request.node.nodeid, "run #%d" % counter[0], broken), pytrace=False)
        return PlayResult(proc.returncode, stdout, results, cmd)

    return _run


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
    secrets = secrets_scan.classify(never, known, created, results)
    leaks = secrets_scan.output_leaks(stdout, secrets) + secrets_scan.url_leaks(logs, secrets)
    for emu in emulators:  # what this run created exists before the next one
        if hasattr(emu, "remember"):
            emu.seen_secrets.update((s.value, s.kind) for s in secrets if s.kind != secrets_scan.API_TOKEN)
    if leaks:
        pytest.fail(secrets_scan.report(request.node.nodeid, label, leaks), pytrace=False)
