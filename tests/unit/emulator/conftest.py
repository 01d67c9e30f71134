"""Fixtures: emulator processes (one per dialect and test module) with the tests' emulator client."""

from __future__ import annotations

import atexit
import http.client
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, ContextManager, Iterator
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.support import emulator as support  # noqa: E402  pylint: disable=wrong-import-position

WORKDIR = tempfile.mkdtemp(prefix="nms-emulator-tests-")  # the emulators' output files
atexit.register(shutil.rmtree, WORKDIR, ignore_errors=True)


class Response:
    """Status, decoded body (JSON when possible) and headers of one answer."""

    def __init__(self, status: int, raw: bytes, headers: dict[str, str]) -> None:
        self.status = status
        self.raw = raw
        self.headers = headers
        try:
            self.body: Any = json.loads(raw.decode()) if raw else None
        except ValueError:
            self.body = raw.decode(errors="replace")

    def __repr__(self) -> str:
        return f"Response({self.status}, {self.raw[:300]!r})"


class Emulator(support.Emulator):
    """The tests' emulator client (tests/support/emulator.py) plus the raw HTTP these tests look at: status,
    headers and bytes of any request, and a few creators."""

    @property
    def netbird(self) -> bool:
        return self.dialect == "netbird"

    @property
    def host(self) -> str:
        return urlsplit(self.url).hostname or "127.0.0.1"

    @property
    def port(self) -> int:
        return urlsplit(self.url).port or 80

    def raw(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None) -> Response:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return Response(response.status, response.read(), dict(response.getheaders()))
        finally:
            connection.close()

    def call(self, method: str, path: str, json_body: Any = None, token: str | None = None,
             headers: dict[str, str] | None = None) -> Response:
        all_headers = {"Authorization": f"Token {token or self.token}", "Accept": "application/json"}
        all_headers.update(headers or {})
        body = None
        if json_body is not None:
            body = json.dumps(json_body).encode()
            all_headers["Content-Type"] = "application/json"
        return self.raw(method, path, body, all_headers)

    # convenience creators ----------------------------------------------------------
    def group(self, name: str, peers: list[str] | None = None) -> dict[str, Any]:
        return self.ok("POST", "/api/groups", {"name": name, "peers": peers or []})

    def setup_key(self, name: str = "key", **fields: Any) -> dict[str, Any]:
        body = {"name": name, "type": "reusable", "expires_in": 86400, "revoked": False, "auto_groups": [],
                "usage_limit": 0}
        body.update(fields)
        return self.ok("POST", "/api/setup-keys", body)

    def all_group(self) -> dict[str, Any]:
        return next(g for g in self.ok("GET", "/api/groups") if g["name"] == "All")

    def events(self, code: str | None = None) -> list[dict[str, Any]]:
        events = self.ok("GET", "/api/events")
        return [e for e in events if code is None or e["activity_code"] == code]


def start_emulator(dialect: str = "seed", *extra: str, token: str | None = None) -> Emulator:
    """An emulator process; raises RuntimeError (EmulatorStartError) when it does not start."""
    return support.start_emulator(dialect, WORKDIR, token, extra, cls=Emulator)


def running(dialect: str, *extra: str) -> ContextManager[Emulator]:
    """An emulator process for a module's fixture (stopped at the end)."""
    return support.running_emulator(dialect, WORKDIR, extra_args=extra, cls=Emulator)


def process_fixture(dialect: str, *extra: str) -> Any:
    """A fixture: one emulator process in ``dialect`` per test module."""
    @pytest.fixture(scope="module")
    def process() -> Iterator[Emulator]:
        with running(dialect, *extra) as emulator:
            yield emulator
    return process


@pytest.fixture(scope="module", params=["seed", "netbird"])
def emulator_process(request: pytest.FixtureRequest) -> Iterator[Emulator]:
    with running(request.param, "--idp") as emulator:  # invites work in both; see test_identity_provider_by_dialect
        yield emulator


@pytest.fixture()
def emu(emulator_process: Emulator) -> Emulator:
    """A freshly reset emulator, in both dialects."""
    emulator_process.reset()
    return emulator_process


netbird_process = process_fixture("netbird", "--idp")
seed_process = process_fixture("seed")


@pytest.fixture()
def nb(netbird_process: Emulator) -> Emulator:
    """A freshly reset emulator in the netbird dialect only."""
    netbird_process.reset()
    return netbird_process


@pytest.fixture()
def sd(seed_process: Emulator) -> Emulator:
    """A freshly reset emulator in the seed dialect only."""
    seed_process.reset()
    return seed_process


current_process = process_fixture("current", "--idp")


@pytest.fixture()
def cur(current_process: Emulator) -> Emulator:
    """A freshly reset emulator in the current (v0.77) dialect only."""
    current_process.reset()
    return current_process
