"""HTTP front: routing, authentication, access control, faults, request log, control endpoints."""

from __future__ import annotations

import html
import json
import os
import re
import signal
import socket
import ssl
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from . import control, persist
from .cache import CACHED_PATHS, AnswerCache, Entry, compile_answer
from .dialect import Dialect
from .faults import Faults
from .handlers import ROUTER, Ctx
from .seed import build_example, build_initial
from .state import Record, State
from .tokens import hash_token, is_well_formed
from .util import CLOCK, NO_BODY, ApiError, DropConnection, now

JSON_TYPE = "application/json; charset=UTF-8"
LONG = 1 << 16  # a body this long is not joined to the headers to be sent (see RequestHandler._send)
TOKEN_PATH = re.compile(r"^.*/api/users/.*/tokens.*$")
WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")
# control calls that touch only the request log, never the account: they keep the rendered answers (the bench clears
# the log before every play, which would otherwise make each play's first read of a large list render it again)
LOG_CONTROLS = frozenset((("DELETE", "/_emulator/requests"),))
ANONYMOUS = {"id": "", "role": "", "is_service_user": False, "is_blocked": False}  # the caller of a public endpoint


@dataclass
class Reply:
    """An answer to send, or an instruction to misbehave (drop, truncate)."""

    status: int = 200
    body: bytes = b""
    content_type: str = JSON_TYPE
    headers: dict[str, str] = field(default_factory=dict)
    drop: bool = False
    truncate: bool = False
    framed: bool = False  # a truncated body sent with its own length: the transfer completes, the JSON is cut


def json_reply(status: int, payload: Any) -> Reply:
    if payload is NO_BODY:
        return Reply(status=status, body=b"", content_type=JSON_TYPE)
    return Reply(status=status, body=(json.dumps(payload) + "\n").encode())


def _duplicated(reply: Reply, index: int) -> Reply:
    """A 200 list answer with its item ``index`` listed twice (the copy right after it); any other answer as it is."""
    if reply.status != 200 or reply.content_type != JSON_TYPE:
        return reply
    try:
        items = json.loads(reply.body)
    except ValueError:
        return reply
    if not isinstance(items, list) or not -len(items) <= index < len(items):
        return reply
    index %= len(items)
    items.insert(index + 1, items[index])
    return Reply(status=reply.status, body=(json.dumps(items) + "\n").encode(), content_type=reply.content_type,
                 headers=dict(reply.headers))


def go_json(payload: Any) -> bytes:
    """JSON as Go's encoding/json writes it: UTF-8 as it is, <, > and & escaped (\\u003c...), as in HTML."""
    text = json.dumps(payload, ensure_ascii=False)
    for char in "<>&\u2028\u2029":
        text = text.replace(char, "\\u%04x" % ord(char))
    return (text + "\n").encode()


def echo_reply(status: int, form: str, raw_body: bytes) -> Reply:
    """An error answer that quotes the request body as it came (a proxy's or a server's error page may): in the JSON
    answer's message (``message``), in a JSON answer without a message (``object``), in a plain-text page, or
    HTML-escaped in an HTML page (``html``: a proxy's)."""
    quoted = "could not handle the request: " + raw_body.decode(errors="replace")
    if form == "text":
        return Reply(status=status, body=quoted.encode(), content_type="text/plain; charset=utf-8")
    if form == "html":
        page = "<html><body><h1>%d Bad Gateway</h1><p>%s</p></body></html>" % (status, html.escape(quoted))
        return Reply(status=status, body=page.encode(), content_type="text/html; charset=utf-8")
    payload = {"message": quoted, "code": status} if form == "message" else {"error": quoted, "code": status}
    return Reply(status=status, body=go_json(payload))


def error_reply(error: ApiError) -> Reply:
    return json_reply(error.status, {"message": error.message, "code": error.status})


class App:
    """The emulator: one account's state, the dialect, faults and the request log."""

    def __init__(self, token: str, dialect: str = "seed", seed_size: str | None = None, idp: bool | None = None,
                 geo: bool = True, seed: int = 1, example: bool = False, state_file: str | None = None,
                 rate_limit: tuple[float, int] | None = None, fresh: bool = False) -> None:
        if not is_well_formed(token):
            raise ValueError("--token must be a well-formed personal access token")
        self.token = token
        self.dialect = Dialect(dialect)
        self.seed_size = seed_size
        # a self-hosted v0.27 server has no identity provider unless one is configured; the spec's has one
        self.idp = (not self.dialect.netbird) if idp is None else idp
        self.geo = geo
        self.seed = seed
        self.example = example
        self.fresh = fresh  # no account yet (a v0.77 server before its setup, POST /api/setup): reset returns to that
        self.faults = Faults()
        # peer status changes waiting for a request (POST /_emulator/peer-status with "before"): (method, path, updates)
        self.scheduled: list[tuple[str, str, Any]] = []
        # v0.77's PAT rate limiting (NB_API_RATE_LIMITING_ENABLED): off unless asked (--rate-limit, /_emulator/config)
        self.startup_rate_limit = rate_limit
        self.rate_limiter: RateLimiter | None = RateLimiter(*rate_limit) if rate_limit else None
        self.requests: list[Record] = []
        self.answers = AnswerCache()  # list reads, forgotten on every change (cache.py)
        # --state-file: the account is loaded from it when it exists, and written to it after every change
        self.state_file = state_file
        if state_file and os.path.exists(state_file):
            self.state = self._load(state_file, token)
        else:
            self.state = self._fresh_state()
            try:
                self.save()
            except OSError as exc:  # its directory is missing or not writable
                raise persist.StateFileError(f"state file {state_file}: cannot be written: {exc.strerror or exc}") from None

    def _load(self, state_file: str, token: str) -> State:
        """The account kept in the state file, refused with a StateFileError naming the file and what is wrong."""
        try:
            kept = persist.stored_dialect(state_file)
            if kept is not None and kept != self.dialect.name:
                raise persist.StateFileError(
                    f"state file {state_file}: the account was made in the dialect {kept}, not {self.dialect.name} "
                    f"(leave --dialect out, or give --dialect {kept})")
            self.state = persist.load(state_file, token)
            self._check_loaded(state_file)
            return persist.load(state_file, token)  # as kept: the check's reads touched last_used and the like
        except persist.StateFileError:
            raise
        except Exception as exc:  # pylint: disable=broad-exception-caught  # damage no check above foresaw
            raise persist.StateFileError(f"state file {state_file}: damaged: {type(exc).__name__}: {exc}; the file is "
                                         f"left as it is") from None

    def _fresh_state(self) -> State:
        state = State(seed=self.seed, idp=self.idp, geo=self.geo, xid_keys=self.dialect.current)
        if self.fresh:
            return state
        build_initial(state, self.token, self.seed_size, dialect=self.dialect.name, seed=self.seed)
        if self.example:
            build_example(state)
        return state

    def _check_loaded(self, state_file: str) -> None:
        """Every list the owner can read (GET of each path without a parameter) answers from the loaded account:
        a damaged account is refused here, before the server answers 500 and writes it back."""
        for pattern, methods in ROUTER.routes:
            path = pattern.pattern.strip("^$")
            handler = next((handler for handler, dialects in methods.get("GET", []) if self.dialect.name in dialects),
                           None)
            if handler is None or "(?P<" in path or "\\" in path:
                continue
            try:
                with self.state.lock:
                    caller = self._authenticate(f"Token {self.token}")
                    json_reply(200, handler(Ctx(self.state, self.dialect, caller, {}, {}, b"")))
            except (ApiError, DropConnection):
                continue
            except Exception as exc:  # pylint: disable=broad-exception-caught
                raise persist.StateFileError(f"state file {state_file}: damaged: GET {path} cannot be answered from "
                                             f"it ({type(exc).__name__}: {exc}); the file is left as it is") from None

    def save(self) -> None:
        """Write the account to the state file, if there is one (a no-op otherwise)."""
        if self.state_file:
            with self.state.lock:
                persist.save(self.state, self.token, self.state_file, self.dialect.name)

    def reset(self) -> None:
        fresh = self._fresh_state()
        with self.state.lock:
            self.state = fresh
            self.answers.forget()
            self.requests.clear()
            self.faults.clear()
            self.scheduled.clear()
            self.rate_limiter = RateLimiter(*self.startup_rate_limit) if self.startup_rate_limit else None
            CLOCK.offset = 0.0
        self.save()

    # /api ------------------------------------------------------------------------
    def handle_api(self, method: str, target: str, headers: Any, raw_body: bytes) -> tuple[Reply, float]:
        """Answer one /api request; returns the reply and a delay to apply before sending it."""
        parts = urlsplit(target)
        path, query = parts.path, parts.query
        entry: Record = {"method": method, "path": path, "query": query, "status": None, "fault": None,
                         "body": _log_body(raw_body)}
        with self.state.lock:
            self.requests.append(entry)
            fault = self.faults.next(method, path)
            due = [item for item in self.scheduled if item[:2] == (method, path)]
            for item in due:
                self.scheduled.remove(item)
                control.apply_status(self, item[2])
            if due:
                self.answers.forget()
        delay = 0.0
        if fault is not None:
            entry["fault"] = fault["kind"]
            delay = float(fault.get("delay", 0.0))
            early = self._fault_reply(fault, raw_body)
            if early is not None:
                entry["status"] = early.status if not early.drop else None
                return early, delay
        reply = self._api(method, path, query, headers, raw_body)
        if method in WRITE_METHODS and reply.status != 500:  # a handler that broke down may have left half a change
            self.save()
        if fault is not None and fault.get("duplicate"):
            reply = _duplicated(reply, fault["index"])
        if fault is not None and fault.get("truncated"):
            reply.truncate = True
            reply.framed = bool(fault.get("framed"))
        if fault is not None and fault.get("drop"):
            reply.drop = True  # "after": the request was applied, the answer is lost
        entry["status"] = None if reply.drop else reply.status
        return reply, delay

    @staticmethod
    def _fault_reply(fault: dict[str, Any], raw_body: bytes = b"") -> Reply | None:
        if fault.get("drop") and not fault.get("after"):
            return Reply(drop=True)
        status = fault.get("status")
        if status is None:
            return None
        body = fault.get("body")
        if fault.get("echo"):
            reply = echo_reply(status, fault["echo"], raw_body)
        elif body is None:
            reply = json_reply(status, {"message": f"injected fault {status}", "code": status})
        else:
            reply = Reply(status=status, body=str(body).encode(), content_type=fault.get("content_type", "text/html"))
        if status == 429 or "retry_after" in fault:
            reply.headers["Retry-After"] = str(fault.get("retry_after", 1))
        return reply

    def _api(self, method: str, path: str, query: str, headers: Any, raw_body: bytes) -> Reply:
        if "//" in path or "/./" in path or "/../" in path or path.endswith(("/.", "/..")):
            return Reply(status=301, headers={"Location": _clean(path)}, content_type="text/html")
        found = ROUTER.match(path, self.dialect.name)
        if found is None:
            return Reply(status=404, body=b"404 page not found\n", content_type="text/plain; charset=utf-8")
        methods, params = found
        if method == "OPTIONS":
            if headers.get("Access-Control-Request-Method"):
                return Reply(status=200, content_type="text/plain", headers={
                    "Access-Control-Allow-Origin": "*",
                    "Access-Control-Allow-Methods": headers.get("Access-Control-Request-Method"),
                })
            method = "GET"
        handler = methods.get(method)
        if handler is None:
            if self.dialect.current:  # v0.77's router answers a known path's other methods as an unknown path
                return Reply(status=404, body=b"404 page not found\n", content_type="text/plain; charset=utf-8")
            return Reply(status=405, content_type="text/plain")
        try:
            with self.state.lock:
                try:
                    self._rate_limit(headers)
                    if getattr(handler, "public", False):  # answered to anyone, as the instance's setup is
                        caller = ANONYMOUS
                    else:
                        caller = self._authenticate(headers.get("Authorization", ""))
                        if self.dialect.current:
                            _current_access_control(caller, method, path)
                        else:
                            self._access_control(caller, method, path)
                    if method == "GET" and path in CACHED_PATHS:
                        kept = self._kept_answer(handler, caller, params, path, query, raw_body)
                    else:
                        kept = None
                        ctx = Ctx(self.state, self.dialect, caller, params, parse_qs(query, keep_blank_values=True),
                                  raw_body)
                        payload = handler(ctx)
                finally:
                    if method != "GET":  # a write, even a refused or failed one, may have changed something
                        self.answers.forget()
            if kept is not None:  # a new order, when one is due, is drawn here, outside the state lock
                return Reply(status=200, body=kept.answer(self.dialect.shuffle_rng))
            # a handler marked with another success status answers with it (a domain validation's 202, as v0.77.1)
            return json_reply(getattr(handler, "answer_status", 200), payload)
        except ApiError as error:
            return error_reply(error)
        except DropConnection:
            return Reply(drop=True)
        except Exception:  # pylint: disable=broad-exception-caught
            traceback.print_exc(file=sys.stderr)
            return error_reply(ApiError(500, "internal server error"))

    def _kept_answer(self, handler: Any, caller: Record, params: dict[str, str], path: str, query: str,
                     raw_body: bytes) -> Entry:
        """The answer of a list read from the answer cache, rendered and kept when it is not there (the caller holds
        the state lock)."""
        key = (path, query, str(caller["id"]))
        entry = self.answers.get(key)
        if entry is None:
            generation = self.answers.generation
            dialect = self.dialect.deferring()
            self.state.changes_at = None
            ctx = Ctx(self.state, dialect, caller, params, parse_qs(query, keep_blank_values=True), raw_body)
            payload = handler(ctx)
            entry = self.answers.keep(key, compile_answer(payload, dialect.deferred or []), self.state.changes_at,
                                      generation)
        return entry

    def _rate_limit(self, headers: Any) -> None:
        """v0.77 counts PAT requests per token before it checks them; Terraform's are exempt."""
        limiter = self.rate_limiter
        if limiter is None or "terraform" in str(headers.get("User-Agent", "")).lower():
            return
        parts = str(headers.get("Authorization", "")).split(" ")
        scheme = parts[0].lower()
        if len(parts) == 2 and (scheme == "token" or (scheme == "bearer" and parts[1].startswith("nbp_"))):
            if not limiter.allow(parts[1]):
                raise ApiError(429, "too many requests")

    def _authenticate(self, header: str) -> Record:
        state = self.state
        if not header:
            raise ApiError(401, "no valid authentication provided")
        parts = header.split(" ")
        scheme = parts[0].lower()
        if scheme not in ("token", "bearer"):
            raise ApiError(401, "no valid authentication provided")
        if len(parts) != 2:
            raise ApiError(401, "token invalid")
        token = parts[1]
        if scheme == "bearer" and not token.startswith("nbp_"):
            raise ApiError(401, "token invalid")  # no JWT issuer is configured here
        if not is_well_formed(token) or state.account is None:
            raise ApiError(401, "token invalid")
        token_id = state.token_by_hash.get(hash_token(token))
        record = state.tokens.get(token_id or "")
        if record is None or now() > record["expiration_date"]:
            raise ApiError(401, "token invalid")
        user = state.users.get(record["user_id"])
        if user is None:
            raise ApiError(401, "invalid jwt")
        record["last_used"] = now()  # shown only by the token reads, which the answer cache leaves out
        if user["last_login"] is not None:
            user["last_login"] = None  # PAT requests reset last_login on real servers
            self.answers.forget()
        return user

    @staticmethod
    def _access_control(user: Record, method: str, path: str) -> None:
        if user["is_blocked"]:
            raise ApiError(403, "the user has no access to the api or is blocked")
        if method in WRITE_METHODS and user["role"] not in ("admin", "owner") and not TOKEN_PATH.match(path):
            raise ApiError(403, "only users with admin power can perform this operation")

    # /_emulator ------------------------------------------------------------------
    def handle_control(self, method: str, target: str, raw_body: bytes) -> Reply:
        path = urlsplit(target).path
        try:
            body = json.loads(raw_body.decode() or "null") if raw_body else None
        except ValueError:
            return json_reply(400, {"message": "control body must be JSON", "code": 400})
        try:
            status, payload = control.dispatch(self, method, path, body)
        except ApiError as error:
            return error_reply(error)
        except (ValueError, TypeError, KeyError) as exc:
            return json_reply(400, {"message": str(exc), "code": 400})
        finally:
            if method != "GET" and (method, path) not in LOG_CONTROLS:
                with self.state.lock:
                    self.answers.forget()
        if method in WRITE_METHODS:
            self.save()
        return json_reply(status, payload)


class RateLimiter:
    """A token bucket per PAT, as v0.77's API rate limiter: `rpm` requests a minute, bursts of `burst`."""

    def __init__(self, rpm: float, burst: int) -> None:
        if rpm <= 0 or burst <= 0:
            raise ValueError("rate limit: requests per minute and burst must be positive")
        self.rpm = float(rpm)
        self.burst = int(burst)
        self.buckets: dict[str, tuple[float, float]] = {}  # token -> (tokens left, monotonic time)

    def allow(self, token: str) -> bool:
        moment = time.monotonic()
        left, then = self.buckets.get(token, (float(self.burst), moment))
        left = min(float(self.burst), left + (moment - then) * self.rpm / 60.0)
        if left < 1.0:
            self.buckets[token] = (left, moment)
            return False
        self.buckets[token] = (left - 1.0, moment)
        return True

    def describe(self) -> dict[str, Any]:
        return {"rpm": self.rpm, "burst": self.burst}


# v0.77 permissions by role: path prefix -> module; network_admin writes these modules, auditor reads all
NETWORK_ADMIN_WRITES = ("/api/networks", "/api/groups", "/api/dns", "/api/policies", "/api/routes",
                        "/api/posture-checks")


def _current_access_control(user: Record, method: str, path: str) -> None:
    """v0.77: role permissions (owner, admin: all; network_admin: network modules; auditor: reads only;
    user, billing_admin: their own tokens); a refusal is 403 `permission denied`."""
    if user["is_blocked"]:
        raise ApiError(403, "user is blocked")
    if user.get("pending_approval"):
        raise ApiError(403, "user is pending approval")
    if method not in WRITE_METHODS or user["role"] in ("admin", "owner") or TOKEN_PATH.match(path):
        return
    if user["role"] == "network_admin" and path.startswith(NETWORK_ADMIN_WRITES):
        return
    raise ApiError(403, "permission denied")


def _log_body(raw_body: bytes) -> Any:
    if not raw_body:
        return None
    try:
        return json.loads(raw_body.decode())
    except ValueError:
        return raw_body.decode(errors="replace")


def _clean(path: str) -> str:
    parts: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if parts:
                parts.pop()
            continue
        parts.append(part)
    return "/" + "/".join(parts)


class RequestHandler(BaseHTTPRequestHandler):
    """Speaks HTTP/1.1 with keep-alive; every answer carries a Content-Length."""

    protocol_version = "HTTP/1.1"
    # TCP_NODELAY, as Go's net/http (the real servers) sets it: headers and body are two writes, and
    # with Nagle's algorithm every answer on a kept-alive connection waited 40 ms for a delayed ACK
    disable_nagle_algorithm = True
    server: EmulatorServer

    def log_message(self, format: str, *args: Any) -> None:  # pylint: disable=redefined-builtin
        """Quiet: the request log is at /_emulator/requests."""

    def _read_body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def _handle(self) -> None:
        app = self.server.app
        raw_body = self._read_body()
        delay = 0.0
        if self.path.startswith("/api"):
            reply, delay = app.handle_api(self.command, self.path, self.headers, raw_body)
        elif self.path.startswith("/_emulator"):
            reply = app.handle_control(self.command, self.path, raw_body)
        else:
            reply = Reply(status=404, body=b"404 page not found\n", content_type="text/plain; charset=utf-8")
        if delay:
            time.sleep(delay)
        self._send(reply)

    def _send(self, reply: Reply) -> None:
        if reply.drop:
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        body = reply.body
        if reply.truncate and reply.framed:
            body = body[:len(body) // 2]
        length = len(body)
        lines = [f"{self.protocol_version} {reply.status} {self.responses.get(reply.status, ('',))[0]}",
                 f"Server: {self.version_string()}", f"Date: {self.date_time_string(time.time() + CLOCK.offset)}",
                 f"Content-Type: {reply.content_type}", f"Content-Length: {length}"]
        lines.extend(f"{name}: {value}" for name, value in reply.headers.items())
        if reply.truncate and not reply.framed:
            lines.append("Connection: close")
            self.close_connection = True
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") if self.request_version != "HTTP/0.9" else b""
        if self.command == "HEAD":
            body = b""
        elif reply.truncate and not reply.framed:
            body = body[:length // 2]
        if len(body) < LONG:
            self.connection.sendall(head + body)
        else:  # not copied into one string with the headers: a kept list answer is sent as it is kept
            self.connection.sendall(head)
            self.connection.sendall(body)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_HEAD = _handle


class EmulatorServer(ThreadingHTTPServer):
    """A threading HTTP(S) server bound to one App."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, app: App, host: str = "127.0.0.1", port: int = 0,
                 tls_cert: str | None = None, tls_key: str | None = None) -> None:
        super().__init__((host, port), RequestHandler)
        self.app = app
        self.scheme = "http"
        if tls_cert:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(tls_cert, tls_key)
            # handshake in the request thread, so a silent client cannot block accept()
            self.socket = context.wrap_socket(self.socket, server_side=True, do_handshake_on_connect=False)
            self.scheme = "https"

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"{self.scheme}://{host}:{port}"


def serve(server: EmulatorServer, announce: str) -> int:
    """Serve until SIGTERM or SIGINT, after printing `announce` (flushed); then keep the state and return 0."""
    stop = threading.Event()

    def on_signal(_signum: int, _frame: object) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    print(announce, flush=True)
    while not stop.wait(0.5):
        pass
    server.shutdown()
    server.server_close()
    server.app.save()
    return 0
