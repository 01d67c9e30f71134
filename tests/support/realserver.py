# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Real NetBird management servers for the tests, behind a recording proxy.

The kit is ``../shared/servers`` beside the checkout (``realserver.py`` starts a seeded v0.27.6 or v0.77.1 in a
network namespace of its own in 1 to 3 seconds); ``NMS_REAL_SERVERS`` names another directory holding it.
:func:`kit` says where it is, or why there is none. Where the kit exists, a server that does not start is a
failure (:func:`start_real_server` raises), never a skip.

A :class:`RealServer` has the interface the tests use of an emulator (tests/support/emulator.py): ``url``,
``token``, ``dialect`` (the release, ``v0.27.6``), ``api``/``ok``, ``requests``/``writes``/``clear_log``. The
request log comes from :class:`RecordingProxy`, a small HTTP proxy on 127.0.0.1 in the test process that
forwards every call to the server and keeps method, path, query, status and both bodies: the tests count
requests with it, and the scenario tests compare the shapes of the answers with the emulator's (shapes.py).
The proxy can also stand in for a reverse proxy whose error page quotes the request body (``echo_failures``).
"""

from __future__ import annotations

import contextlib
import http.client
import http.server
import json
import os
import subprocess
import sys
import threading
import time
import urllib.parse

from tests.emulator.server import echo_reply
from tests.support.emulator import READ_METHODS, REPO_ROOT, OwnerApi

KIT_VARIABLE = "NMS_REAL_SERVERS"
DEFAULT_KIT = os.path.join(os.path.dirname(REPO_ROOT), "shared", "servers")
RELEASES = ("v0.27.6", "v0.77.1")
# the emulator dialect that imitates each release
DIALECT_OF = {"v0.27.6": "netbird", "v0.77.1": "current"}
# what the seeded servers hold (realserver.py): the emulator gets the same peers for a like-for-like comparison
SEEDED_PEERS = (("real-h1", "linux"), ("real-h2", "linux"), ("real-h3", "linux"), ("real-h4", "linux"),
                ("real-win1", "windows"))
START_TIMEOUT = 120


class RealServerError(RuntimeError):
    """The kit exists but a server did not start (a failure, never a skip)."""


def kit():
    """``(directory, None)`` of the real-server kit, or ``(None, why there is none)``."""
    named = os.environ.get(KIT_VARIABLE)
    directory = named or DEFAULT_KIT
    script = os.path.join(directory, "realserver.py")
    if os.path.isfile(script):
        return directory, None
    if named:
        return None, "%s=%s holds no realserver.py" % (KIT_VARIABLE, named)
    return None, "no real NetBird servers: %s does not exist (set %s to the kit's directory)" % (DEFAULT_KIT, KIT_VARIABLE)


def real_mode():
    """Whether tests use the real servers: ``(on, required, why not)``. ``NMS_REAL=1``: required (a server that does
    not start fails); ``NMS_REAL=0``: off; unset: on where the kit is."""
    setting = os.environ.get("NMS_REAL", "").strip().lower()
    directory, why = kit()
    if setting in ("0", "false", "no", "off"):
        return False, False, "NMS_REAL=%s" % setting
    if setting in ("1", "true", "yes", "on"):
        return True, True, None
    return directory is not None, False, why


class RecordingProxy:
    """Forwards HTTP calls from 127.0.0.1:``port`` to ``target`` and logs each exchange; ``slow``: seconds each answer
    is held after the server gave it (as the emulator's slow fault, so that concurrent clients all read first).

    ``echo_failures``: ``[(method, status, form), ...]``, consumed in order, the first each time a request of its
    method comes: that request is still relayed (the server applies it, the log keeps its real answer, and
    ``echoed``: the status sent instead), then answered ``status`` with an error page quoting the request body as a
    reverse proxy's may (``form``: the emulator's echo forms, ``message`` a JSON message as Go writes it, ``object``,
    ``text``, ``html`` the body HTML-escaped; tests/emulator/server.py echo_reply)."""

    def __init__(self, target):
        parsed = urllib.parse.urlsplit(target)
        self.host, self.target_port = parsed.hostname, parsed.port
        self.slow = 0.0
        self.echo_failures = []
        self.log = []
        self.lock = threading.Lock()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # pylint: disable=arguments-differ
                pass

            def relay(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
                connection = http.client.HTTPConnection(proxy.host, proxy.target_port, timeout=60)
                try:
                    connection.request(self.command, self.path, body=body, headers=headers)
                    answer = connection.getresponse()
                    raw = answer.read()
                    status, answer_headers = answer.status, answer.getheaders()
                finally:
                    connection.close()
                echo = proxy.echo_failure(self.command)
                proxy.record(self.command, self.path, body, status, raw, echoed=echo and echo[0])
                if echo:
                    reply = echo_reply(echo[0], echo[1], body or b"")
                    status, raw = reply.status, reply.body
                    answer_headers = [("Content-Type", reply.content_type)]
                if proxy.slow:
                    time.sleep(proxy.slow)
                self.send_response(status)
                for name, value in answer_headers:
                    if name.lower() not in ("content-length", "connection", "transfer-encoding", "date", "server"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = relay

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def echo_failure(self, method):
        """``(status, form)`` of the next echo failure if it is for ``method`` (consumed), else None."""
        with self.lock:
            if self.echo_failures and self.echo_failures[0][0] == method:
                return self.echo_failures.pop(0)[1:]
        return None

    def record(self, method, target, body, status, raw, echoed=None):
        parts = urllib.parse.urlsplit(target)
        entry = {"method": method, "path": parts.path, "query": parts.query, "status": status,
                 "request": _json_or_text(body), "answer": _json_or_text(raw)}
        if echoed:
            entry["echoed"] = echoed
        with self.lock:
            self.log.append(entry)

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def _json_or_text(raw):
    if not raw:
        return None
    text = raw.decode("utf-8", errors="replace")
    try:
        return json.loads(text)
    except ValueError:
        return text


class Recorded(OwnerApi):
    """A server (an emulator or a real one) reached through a :class:`RecordingProxy`: ``url`` is the proxy's, and
    ``requests()`` its log, with both bodies (``request``, ``answer``) besides what the emulator logs."""

    timeout = 60

    def __init__(self, dialect, upstream_url, token):
        self.dialect = dialect
        self.upstream_url = upstream_url
        self.token = token
        self.proxy = RecordingProxy(upstream_url)
        self.url = self.proxy.url

    def __repr__(self):
        return "<%s %s %s>" % (type(self).__name__, self.dialect, self.upstream_url)

    def stop(self):
        self.proxy.stop()

    # the request log (the proxy's) ------------------------------------------------------------
    def requests(self):
        with self.proxy.lock:
            return [dict(entry) for entry in self.proxy.log]

    def writes(self):
        return [r for r in self.requests() if r["method"].upper() not in READ_METHODS and r["path"].startswith("/api")]

    def clear_log(self):
        with self.proxy.lock:
            del self.proxy.log[:]

    # the API as the seeded owner: OwnerApi's calls, through the proxy (so in the log like any other call)


class RealServer(Recorded):
    """One started real server (see the module docstring); ``stop()`` ends it. ``dialect`` is its release."""

    real = True

    def __init__(self, release, server_url, token, directory, script):
        super().__init__(release, server_url, token)
        self.release = release
        self.directory = directory
        self.script = script

    def stop(self):
        super().stop()
        if os.path.isdir(os.path.join(self.directory, "agents")):  # its agents first: realagent.py's clean way
            subprocess.run([sys.executable, os.path.join(os.path.dirname(self.script), "realagent.py"), "stop-all",
                            self.directory], capture_output=True, check=False, timeout=120)
        subprocess.run([sys.executable, self.script, "stop", self.directory], capture_output=True, check=False,
                       timeout=60)


def start_real_server(release, *options, environment=None):
    """Start a seeded real server of ``release`` (``options``: ``--idp``, ``--fresh``) behind a recording proxy;
    ``environment``: NetBird's own settings for it (the server inherits realserver.py's environment)."""
    directory, why = kit()
    if directory is None:
        raise RealServerError(why)
    script = os.path.join(directory, "realserver.py")
    try:
        done = subprocess.run([sys.executable, script, "start", release] + list(options), capture_output=True,
                              text=True, timeout=START_TIMEOUT, check=False, env=dict(os.environ, **(environment or {})))
    except subprocess.TimeoutExpired as exc:
        raise RealServerError("real server %s did not start within %ss" % (release, START_TIMEOUT)) from exc
    printed = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
    if done.returncode != 0 or "NMS_API_URL" not in printed:
        raise RealServerError("real server %s did not start (exit %s):\n%s\n%s"
                              % (release, done.returncode, done.stdout[-2000:], done.stderr[-4000:]))
    return RealServer(release, printed["NMS_API_URL"], printed.get("NMS_API_TOKEN", ""), printed["NMS_REAL_DIR"],
                      script)


@contextlib.contextmanager
def running_real_server(release, *options):
    """:func:`start_real_server` for a ``with`` block: the server stops at its end."""
    server = start_real_server(release, *options)
    try:
        yield server
    finally:
        server.stop()
