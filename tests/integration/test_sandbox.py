# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 21, point 2: a sandbox a user can keep, run from the installed artifact.

The collection is built with ansible-galaxy and installed into a fresh directory, as a user does;
the sandbox is started from there (tests/emulator/sandbox.py, as docs/getting-started.md says), its
export lines are pasted into a module run of that installed collection, and it is stopped with SIGINT
and SIGTERM. With --state-file, what a module created is still there after a restart.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import pytest

from tests.emulator import persist
from tests.emulator.server import App
from tests.emulator.tokens import make_token
from tests.integration.conftest import REPO_ROOT

BIN = os.path.dirname(sys.executable)
EXPORT = re.compile(r"^export (NMS_API_URL|NMS_API_TOKEN)=(\S+)$", re.MULTILINE)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The collection as a user gets it: `ansible-galaxy collection build`, then `install -p DIR`."""
    dist = tmp_path_factory.mktemp("dist")
    target = tmp_path_factory.mktemp("installed")
    # without this session's ANSIBLE_COLLECTIONS_PATH (tests/conftest.py), where the collection is "installed" already
    env = {key: value for key, value in os.environ.items() if not key.startswith("ANSIBLE_")}
    env["ANSIBLE_HOME"] = str(tmp_path_factory.mktemp("ansible-home"))
    galaxy = os.path.join(BIN, "ansible-galaxy")
    for command in ([galaxy, "collection", "build", "--output-path", str(dist), REPO_ROOT],
                    [galaxy, "collection", "install", "--offline", "--force", "-p", str(target), str(dist / "*")]):
        if command[-1].endswith("*"):
            command[-1] = str(next(dist.iterdir()))
        result = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env, check=False)
        assert result.returncode == 0, result.stdout + result.stderr
    return str(target)


class Sandbox:
    """The sandbox command of the installed collection, started from a directory outside the repository."""

    def __init__(self, installed, workdir, *args):
        script = os.path.join(installed, "ansible_collections", "nms", "overlay", "tests", "emulator", "sandbox.py")
        env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH",)}
        env["PYTHONUNBUFFERED"] = "1"
        self.out_path = os.path.join(workdir, "sandbox-%d.out" % time.monotonic_ns())
        with open(self.out_path, "wb") as out:
            self.process = subprocess.Popen(  # pylint: disable=consider-using-with
                [sys.executable, script, *args], cwd=workdir, stdin=subprocess.DEVNULL, stdout=out,
                stderr=subprocess.STDOUT, env=env)
        self.exports = self._wait_for_exports()

    def output(self):
        with open(self.out_path, encoding="utf-8", errors="replace") as handle:
            return handle.read()

    def _wait_for_exports(self):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            text = self.output()
            if "stop with Ctrl-C" in text:
                return dict(EXPORT.findall(text))
            if self.process.poll() is not None:
                pytest.fail("the sandbox exited with %s before it was ready:\n%s" % (self.process.returncode, text))
            time.sleep(0.05)
        self.process.kill()
        pytest.fail("the sandbox printed no exports within 30 s:\n%s" % self.output())
        return None

    def stop(self, signum):
        self.process.send_signal(signum)
        try:
            returncode = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            pytest.fail("the sandbox did not stop within 10 s of signal %s" % signum)
        return returncode, self.output()


@pytest.fixture
def start(installed, tmp_path):
    started = []

    def _start(*args):
        sandbox = Sandbox(installed, str(tmp_path), *args)
        started.append(sandbox)
        return sandbox

    yield _start
    for sandbox in started:
        if sandbox.process.poll() is None:
            sandbox.process.kill()
            sandbox.process.wait(timeout=10)


def module_run(run, installed, sandbox, tasks):
    env = dict(sandbox.exports, ANSIBLE_COLLECTIONS_PATH=installed)
    return run(tasks, env=env, verbosity=0)


GROUPS = {"name": "groups", "nms.overlay.group_info": {}, "register": "found"}


@pytest.mark.parametrize("dialect", ["netbird", "seed"])
def test_sandbox_prints_exports_a_module_works_with_and_stops_on_sigint(run, installed, start, dialect):
    sandbox = start("--dialect", dialect)
    assert set(sandbox.exports) == {"NMS_API_URL", "NMS_API_TOKEN"}
    assert sandbox.exports["NMS_API_URL"].startswith("http://127.0.0.1:")
    result = module_run(run, installed, sandbox, [GROUPS])
    assert result.rc == 0, result
    names = sorted(group["name"] for group in result["groups"]["groups"])
    assert names == ["All", "developers", "servers"]  # the example content
    returncode, output = sandbox.stop(signal.SIGINT)
    assert returncode == 0, output
    assert "sandbox: stopped" in output and "Traceback" not in output


def test_empty_sandbox_has_only_the_new_account(run, installed, start):
    sandbox = start("--empty")
    result = module_run(run, installed, sandbox, [GROUPS])
    assert [group["name"] for group in result["groups"]["groups"]] == ["All"]


def test_state_file_keeps_the_account_across_a_restart(run, installed, start, tmp_path):
    state_file = str(tmp_path / "sandbox.json")
    first = start("--state-file", state_file)
    created = module_run(run, installed, first, [{"name": "create", "nms.overlay.group": {"name": "kept", "peers": []}}])
    assert created["create"]["changed"], created
    returncode, output = first.stop(signal.SIGTERM)
    assert returncode == 0 and "Traceback" not in output, output
    assert oct(os.stat(state_file).st_mode & 0o777) == "0o600"

    second = start("--state-file", state_file)
    assert second.exports["NMS_API_TOKEN"] == first.exports["NMS_API_TOKEN"]  # the exports stay valid but the URL
    again = module_run(run, installed, second, [GROUPS, {"name": "create", "nms.overlay.group": {"name": "kept",
                                                                                                 "peers": []}}])
    assert "kept" in [group["name"] for group in again["groups"]["groups"]]
    assert not again["create"]["changed"], again
    assert "loaded" in second.output()


def test_state_file_is_written_on_every_change(run, installed, start, tmp_path):
    """A sandbox that is killed (no shutdown) keeps what was done before."""
    state_file = str(tmp_path / "sandbox.json")
    first = start("--state-file", state_file, "--empty")
    module_run(run, installed, first, [{"name": "create", "nms.overlay.group": {"name": "before-kill", "peers": []}}])
    first.process.kill()
    first.process.wait(timeout=10)
    assert [name for name in os.listdir(str(tmp_path)) if name.endswith(".tmp")] == []
    second = start("--state-file", state_file)
    result = module_run(run, installed, second, [GROUPS])
    assert sorted(group["name"] for group in result["groups"]["groups"]) == ["All", "before-kill"]


def test_a_broken_state_file_is_refused_naming_it(installed, tmp_path):
    state_file = tmp_path / "broken.json"
    state_file.write_text("{not json", encoding="utf-8")
    script = os.path.join(installed, "ansible_collections", "nms", "overlay", "tests", "emulator", "sandbox.py")
    result = subprocess.run([sys.executable, script, "--state-file", str(state_file)], capture_output=True, text=True,
                            timeout=60, check=False, cwd=str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.startswith("sandbox: state file %s: cannot be read" % state_file), result.stderr
    assert "Traceback" not in result.stderr


def test_state_file_keeps_the_dialect_across_a_restart(run, installed, start, tmp_path):
    """The account of a current (v0.77) sandbox is still served as v0.77 after a restart without --dialect; a
    --dialect that differs from the kept one is refused, naming both, and the file is left as it is."""
    state_file = tmp_path / "sandbox.json"
    first = start("--dialect", "current", "--empty", "--state-file", str(state_file))
    returncode, output = first.stop(signal.SIGTERM)
    assert returncode == 0, output

    second = start("--state-file", str(state_file))
    assert "(dialect current)" in second.output(), second.output()
    networks = module_run(run, installed, second, [{"name": "networks", "nms.overlay.network_info": {}}])
    assert networks.rc == 0, networks  # a v0.27 (netbird) server has no Networks: the task would fail
    assert networks["networks"]["networks"] == []
    returncode, output = second.stop(signal.SIGTERM)
    assert returncode == 0, output

    kept = state_file.read_bytes()
    refused = subprocess.run([sys.executable, _script(installed), "--state-file", str(state_file), "--dialect", "netbird"],
                             capture_output=True, text=True, timeout=60, check=False, cwd=str(tmp_path))
    assert refused.returncode == 2, refused
    assert refused.stderr == ("sandbox: state file %s: the account was made in the dialect current, not netbird (leave "
                              "--dialect out, or give --dialect current)\n" % state_file), refused.stderr
    assert state_file.read_bytes() == kept


def _script(installed):
    return os.path.join(installed, "ansible_collections", "nms", "overlay", "tests", "emulator", "sandbox.py")


def _damage(data, how):
    """The state file's JSON with one kind of damage a disk, an editor or a bad copy leaves."""
    state = data["state"]
    group_id = next(iter(state["groups"]))
    if how == "groups not an object":
        state["groups"] = "groups"
    elif how == "a group not an object":
        state["groups"][group_id] = 5
    elif how == "a group without its name":
        del state["groups"][group_id]["name"]
    elif how == "a bad timestamp":
        token = next(iter(state["tokens"].values()))
        token["expiration_date"] = {"$datetime": "tomorrow"}
    elif how == "no id generator":
        del data["rng"]
    elif how == "an unknown dialect":
        data["dialect"] = "v9"
    elif how == "a dialect not text":
        data["dialect"] = ["current"]
    elif how == "a malformed owner token":
        data["owner_token"] = MALFORMED_TOKEN
    elif how == "an owner token not text":
        data["owner_token"] = 5
    elif how == "format true":
        data["format"] = True  # equal to 1 in Python, yet no format number
    elif how == "state a list":
        data["state"] = [state]
    elif how == "a bad timestamp in an added collection":
        state["proxy_tokens"] = {"t1": {"id": "t1", "created_at": {"$datetime": "tomorrow"}}}
    elif how == "a bad set in an added collection":
        state["proxy_tokens"] = {"t1": {"id": "t1", "ids": {"$set": 5}}}
    elif how == "a record nested too deeply":  # JSON reads it; decoding it goes deeper than Python may
        state["proxy_tokens"] = {"t1": {"id": "t1", "nested": _too_deep()}}
    elif how == "an id generator not one":
        data["rng"] = "x"
    return data


def _too_deep():
    """Lists nested as deep as this Python's JSON reads and writes, but deeper than the state file's decoding goes."""
    for depth in range(500, 20000, 50):
        try:
            value = json.loads(json.dumps(json.loads("[" * depth + "]" * depth)))
        except RecursionError:
            break
        try:
            persist._decode(value)  # pylint: disable=protected-access
        except RecursionError:
            return value
    pytest.skip("this Python's JSON cannot hold lists nested deeper than the decoding goes")
    return None


MALFORMED_TOKEN = "nbp_" + "A" * 36  # the right length, a wrong checksum
DAMAGE = {  # how -> what the line says after the file's name
    "groups not an object": "damaged: groups is str, not dict",
    "a group not an object": "damaged: groups[",
    "a group without its name": "damaged: GET /api/peers cannot be answered from it (KeyError: 'name')",
    "a bad timestamp": "damaged: ValueError: Invalid isoformat string: 'tomorrow'",
    "no id generator": "damaged: lacks 'rng'",
    "an unknown dialect": "damaged: its dialect 'v9' is none of seed, netbird, current",
    "a dialect not text": "damaged: its dialect ['current'] is none of seed, netbird, current",
    "a malformed owner token": "damaged: its owner token is not a well-formed personal access token (nbp_ and 36 characters "
                               "whose last 6 are the checksum)",
    "an owner token not text": "holds no owner token",
    "format true": "not a state file of this emulator (format 1)",
    "state a list": "not a state file of this emulator (format 1)",
    "a bad timestamp in an added collection": "damaged: ValueError: Invalid isoformat string: 'tomorrow'",
    "a bad set in an added collection": "damaged: TypeError: 'int' object is not iterable",
    "a record nested too deeply": "damaged: RecursionError: maximum recursion depth exceeded",
    "an id generator not one": "damaged: ValueError: state with version x passed to Random.setstate() of version 3",
}


def refused(installed, tmp_path, state_file, how, **kwargs):
    """The sandbox's answer to a state file it must refuse: exit 2, one line naming the file, nothing started, the file
    left as it is."""
    before = (state_file.read_bytes(), os.stat(state_file).st_mtime_ns) if state_file.is_file() else None
    try:
        result = subprocess.run([kwargs.pop("python", sys.executable), kwargs.pop("script", _script(installed)),
                                 "--state-file", str(state_file)], capture_output=True, text=True, timeout=30,
                                check=False, cwd=str(tmp_path), **kwargs)
    except subprocess.TimeoutExpired as exc:
        pytest.fail("the sandbox started on a damaged state file (%s) instead of refusing it:\n%s" % (how, exc.stdout))
    assert result.returncode == 2, result
    assert result.stderr.startswith("sandbox: state file %s: " % state_file), result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.stdout == ""
    if before is not None:
        assert (state_file.read_bytes(), os.stat(state_file).st_mtime_ns) == before
    return result.stderr[len("sandbox: state file %s: " % state_file):-1]


@pytest.mark.parametrize("how", sorted(DAMAGE))
def test_a_damaged_state_file_is_refused_in_one_line_and_left_as_it_is(installed, tmp_path, how):
    """Refused before the server starts, with one line naming the file and the damage: no traceback, no server that
    answers 500 and then writes the damaged account back. A malformed owner token is named as such, never shown."""
    state_file = tmp_path / "damaged.json"
    App(make_token(), dialect="current", example=True, state_file=str(state_file))
    state_file.write_text(json.dumps(_damage(json.loads(state_file.read_text(encoding="utf-8")), how)),
                          encoding="utf-8")
    said = refused(installed, tmp_path, state_file, how)
    assert said.startswith(DAMAGE[how]) and MALFORMED_TOKEN not in said, said


@pytest.mark.parametrize("content, said", [
    (b"", "cannot be read: not JSON (Expecting value: line 1 column 1 (char 0))"),
    (b'{"format": 1, "state": {}', "cannot be read: not JSON (Expecting ',' delimiter: line 1 column 26 (char 25))"),
    (b"\xff\xfe{}", "cannot be read: not UTF-8 text (invalid start byte at byte 0)"),
    (b"[" * 100000 + b"]" * 100000, "cannot be read: its JSON is nested too deeply"),
], ids=["empty", "cut off", "not UTF-8", "nested too deeply"])
def test_a_state_file_that_is_no_json_is_refused_in_one_line(installed, tmp_path, content, said):
    state_file = tmp_path / "state.json"
    state_file.write_bytes(content)
    assert refused(installed, tmp_path, state_file, said).startswith(said)


def test_an_unreadable_state_file_is_refused_in_one_line(installed, tmp_path):
    """A directory, and a file the sandbox's user may not read (as root, the sandbox runs as nobody for that: the
    repository's sandbox.py with a Python nobody can run, since the installed copy is in a directory of root's)."""
    directory = tmp_path / "dir.json"
    directory.mkdir()
    assert refused(installed, tmp_path, directory, "a directory") == "cannot be read: Is a directory"

    shared = tempfile.mkdtemp(prefix="nms-sandbox-")
    try:
        os.chmod(shared, 0o755)
        state_file = pathlib.Path(shared) / "state.json"
        App(make_token(), state_file=str(state_file))
        os.chmod(state_file, 0o000 if os.geteuid() else 0o600)
        kwargs = {}
        if os.geteuid() == 0:
            python = next((path for path in (sys.executable, "/usr/bin/python3", "/usr/local/bin/python3")
                           if _runs_as_nobody(path)), None)
            if python is None:
                pytest.skip("no Python the user nobody can run")
            kwargs = dict(python=python, script=os.path.join(REPO_ROOT, "tests", "emulator", "sandbox.py"),
                          preexec_fn=_nobody)
        assert refused(installed, pathlib.Path(shared), state_file, "unreadable", **kwargs) == "cannot be read: Permission denied"
    finally:
        shutil.rmtree(shared)


def _nobody():
    os.setgid(65534)
    os.setuid(65534)


def _runs_as_nobody(python):
    try:
        return subprocess.run([python, "-c", "import json"], preexec_fn=_nobody, capture_output=True, timeout=30,
                              check=False).returncode == 0
    except OSError:
        return False


def test_a_state_file_that_cannot_be_written_is_refused_in_one_line(installed, tmp_path):
    state_file = tmp_path / "missing" / "state.json"
    assert refused(installed, tmp_path, state_file, "no directory") == "cannot be written: No such file or directory"
