# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The one client of the API emulator (tests/emulator, see docs/dev/interfaces.md).

``start_emulator(dialect, workdir, ...)`` starts ``python -m tests.emulator`` on 127.0.0.1 and returns an
:class:`Emulator` once it printed its ``ready URL`` line; ``http(...)`` is the one HTTP call the tests make
to it (urllib only). The integration tests (tests/integration/conftest.py), the reliability tests
(tests/reliability) and ``make bench`` (tests/bench/bench.py) all use these.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
START_TIMEOUT = float(os.environ.get("NMS_EMULATOR_START_TIMEOUT", "30"))
HTTP_TIMEOUT = 30
READ_METHODS = ("GET", "HEAD", "OPTIONS")
_RUNS = itertools.count(1)  # names each emulator's output files apart (several may share a workdir)


class EmulatorError(AssertionError):
    """A call that sets up a test's state (a control call, ``ok``) answered with an error status."""


class EmulatorStartError(RuntimeError):
    """The emulator exited, or printed no ready line in time; the message holds its error output."""


def http(method, url, body=None, headers=None, timeout=HTTP_TIMEOUT, context=None):
    """``(status, parsed JSON body or text or None)`` of one call; never raises on HTTP error statuses."""
    data = None
    hdrs = {"Accept": "application/json"}
    if body is not None:
        data = json.dumps(body).encode("utf-8")
        hdrs["Content-Type"] = "application/json"
    hdrs.update(headers or {})
    req = urllib.request.Request(url, data=data, headers=hdrs, method=method.upper())
    try:
        with urllib.request.urlopen(req, timeout=timeout, context=context) as resp:  # noqa: S310 (127.0.0.1 only)
            status, raw = resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        status, raw = exc.code, exc.read()
    if not raw:
        return status, None
    text = raw.decode("utf-8", errors="replace")
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


def make_token():
    from tests.emulator.tokens import make_token as make  # pylint: disable=import-outside-toplevel
    return make()


def _prefixed(prefix, path):
    """``path`` under ``prefix`` (``/api``, ``/_emulator``), whether or not it was given with it."""
    if not path.startswith("/"):
        path = "/" + path
    if path == prefix or path.startswith(prefix + "/"):
        return path
    return prefix + path


class OwnerApi:
    """The API of a server at ``url`` called as its seeded owner (``token``): what the emulator's handle and a
    recorded real server (tests/support/realserver.py) share. ``ssl_context`` verifies an HTTPS server."""

    timeout = HTTP_TIMEOUT  # seconds each call may take
    ssl_context = None
    url = token = None

    def remember(self, data):
        """Told every answer; a subclass notes what it needs of them (the integration tests: secrets)."""

    def api(self, method, path, json=None, token=None):  # pylint: disable=redefined-outer-name
        """Call the API as the seeded owner (or with ``token``) with the body ``json``; return ``(status, body)``.
        ``path`` may be given with or without the ``/api`` prefix; the call is in the request log like any other."""
        headers = {"Authorization": "Token %s" % (token or self.token)}
        status, data = http(method, self.url + _prefixed("/api", path), json, headers=headers, timeout=self.timeout,
                            context=self.ssl_context)
        self.remember(data)
        return status, data

    def ok(self, method, path, body=None, token=None):
        """An API call that must succeed (setting up a test's state) with 200, as the API answers; returns the body."""
        status, data = self.api(method, path, body, token=token)
        if status != 200:
            raise EmulatorError("%s %s -> %s: %r" % (method, path, status, data))
        return data


class Emulator(OwnerApi):
    """Handle on one running emulator process: its control endpoints and the API as the seeded owner."""

    def __init__(self, process, url, token, dialect, stdout_path, stderr_path, ssl_context=None):
        self.process = process
        self.url = url
        self.token = token
        self.dialect = dialect
        self.ssl_context = ssl_context
        self.stdout_path = stdout_path
        self.stderr_path = stderr_path

    def __repr__(self):
        return "<Emulator %s %s pid=%s>" % (self.dialect, self.url, self.process.pid)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)

    # control endpoints (no authentication) --------------------------------------------------
    def control(self, method, path, body=None, expect_ok=True):
        """Call a ``/_emulator/...`` endpoint (``path`` with or without that prefix); return the body, or
        ``(status, body)`` with ``expect_ok=False``."""
        status, data = http(method, self.url + _prefixed("/_emulator", path), body, timeout=self.timeout,
                            context=self.ssl_context)
        self.remember(data)
        if not expect_ok:
            return status, data
        if not 200 <= status < 300:
            raise EmulatorError("%s %s -> %s: %r" % (method, path, status, data))
        return data

    def reset(self):
        self.control("POST", "/_emulator/reset")

    def requests(self):
        """The request log of ``/api`` calls: ``[{"method","path","query","status","fault"}]``."""
        return self.control("GET", "/_emulator/requests") or []

    def writes(self):
        """The entries of the request log that write (not GET, HEAD or OPTIONS)."""
        return [r for r in self.requests() if r.get("method", "").upper() not in READ_METHODS
                and r.get("path", "").startswith("/api")]

    def clear_log(self):
        self.control("DELETE", "/_emulator/requests")

    def set_faults(self, faults):
        return self.control("POST", "/_emulator/faults", faults)

    def enroll(self, setup_key, hostname, **kwargs):
        """Join a peer with a setup key (what an agent does); returns the peer."""
        body = dict(kwargs, setup_key=setup_key, hostname=hostname)
        body.setdefault("os", "linux")
        return self.control("POST", "/_emulator/enroll", body)

    def add_user(self, email="", role="user", token=False, **fields):
        """A user the identity provider knows (name from the email unless given; a service user has no email);
        ``token=True`` also gives it a personal access token, returned with the user."""
        body = dict(fields, email=email, role=role)
        body.setdefault("name", email.split("@")[0])
        body.setdefault("is_service_user", False)
        if token:
            body["token"] = True
        return self.control("POST", "/_emulator/users", body)

    def add_peers(self, count=None, peers=None):
        body = {"peers": peers} if peers is not None else {"count": count or 1}
        return self.control("POST", "/_emulator/peers", body)

    def state(self):
        return self.control("GET", "/_emulator/state")

    # diagnostics -----------------------------------------------------------------------------
    def output(self):
        """What the emulator printed so far (stdout and stderr)."""
        parts = []
        for path in (self.stdout_path, self.stderr_path):
            try:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    parts.append(handle.read())
            except OSError:
                pass
        return "\n".join(parts)


def start_emulator(dialect, workdir, token=None, extra_args=(), ssl_context=None, timeout=START_TIMEOUT,
                   cls=Emulator):
    """Start ``python -m tests.emulator`` in ``dialect`` and return a ``cls`` once it is ready.

    ``extra_args`` go to the emulator (``--idp``, ``--tls-cert``...); ``ssl_context`` is what the client
    trusts when the emulator speaks HTTPS. Raises :class:`EmulatorStartError` with the emulator's error output
    when it exits or stays silent for ``timeout`` seconds.
    """
    token = token or make_token()
    stem = os.path.join(workdir, "emulator-%s-%d" % (dialect, next(_RUNS)))
    stdout_path, stderr_path = stem + ".out", stem + ".err"
    cmd = [sys.executable, "-m", "tests.emulator", "--port", "0", "--token", token, "--dialect", dialect]
    cmd.extend(extra_args)
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        process = subprocess.Popen(  # pylint: disable=consider-using-with
            cmd, cwd=REPO_ROOT, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    emulator = cls(process, None, token, dialect, stdout_path, stderr_path, ssl_context=ssl_context)
    deadline = time.monotonic() + timeout
    while emulator.url is None:
        with open(stdout_path, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if line.startswith("ready ") and line.endswith("\n"):
                    emulator.url = line.split(None, 1)[1].strip().rstrip("/")
                    break
        if emulator.url is None:
            if process.poll() is not None:
                raise EmulatorStartError("emulator (%s) exited with %s before it was ready:\n%s"
                                         % (dialect, process.returncode, emulator.output()))
            if time.monotonic() > deadline:
                emulator.stop()
                raise EmulatorStartError("emulator (%s) printed no 'ready URL' line within %.0fs" % (dialect, timeout))
            time.sleep(0.05)
    return emulator


@contextlib.contextmanager
def running_emulator(dialect, workdir, **options):
    """``start_emulator(dialect, workdir, **options)`` for a ``with`` block (a fixture yields inside it): the
    emulator stops at its end, and one that does not start fails the test with its error output."""
    try:
        emulator = start_emulator(dialect, workdir, **options)
    except EmulatorStartError as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        yield emulator
    finally:
        emulator.stop()


class EmulatorPool:
    """Emulators started on first use and kept until ``stop()``: one per (dialect, options, client class, user). The
    one session fixture ``emulators`` (tests/conftest.py) holds a pool per pytest worker; the fixtures of each test
    directory take their emulators from it (and reset them as their tests need; a ``user`` of its own keeps one
    that nobody else resets)."""

    def __init__(self, workdir):
        self.workdir = workdir
        self.started = {}

    def get(self, dialect, extra_args=(), cls=Emulator, user=None):
        key = (dialect, tuple(extra_args), cls, user)
        emulator = self.started.get(key)
        if emulator is None or emulator.process.poll() is not None:
            try:
                emulator = start_emulator(dialect, self.workdir, extra_args=extra_args, cls=cls)
            except EmulatorStartError as exc:
                pytest.fail(str(exc), pytrace=False)
            self.started[key] = emulator
        return emulator

    def stop(self):
        for emulator in self.started.values():
            emulator.stop()
        self.started.clear()


# --------------------------------------------------------------------------------------------
# A test's starting state, made through the API as the seeded owner


def make_peers(emulator, *hostnames):
    """Enroll peers the way agents do; returns {hostname: peer id}."""
    key = emulator.ok('POST', '/api/setup-keys', {
        'name': 'test-enroll', 'type': 'reusable', 'expires_in': 86400, 'auto_groups': [],
        'usage_limit': 0, 'revoked': False, 'ephemeral': False})
    return {name: emulator.enroll(key['key'], name)['id'] for name in hostnames}


def make_group(emulator, name, peers=()):
    """A group of the peers with the given ids; returns it."""
    return emulator.ok('POST', '/api/groups', {'name': name, 'peers': list(peers)})


def writes_of(emulator):
    """The writes in the request log as ``METHOD /api/path`` lines."""
    return ['%s %s' % (w['method'], w['path']) for w in emulator.writes()]
