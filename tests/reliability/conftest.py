# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Fixtures of the reliability tests (tests/reliability, see harness.py).

``emulator``: one emulator process per session (netbird dialect: what deployed servers send),
reset before every test. ``any_emulator``: the netbird and the current dialect (v0.27.6 and v0.77.1), one test each.
``current_emulator``: the current dialect alone, reset (kinds of today's servers).
``seed_emulator_session``: the seed dialect, for the spec's conformance (test_seed_conformance.py). ``connection``: the
connection options of a module pointed at ``emulator`` (short timeout, no retries).
A test of a module of today's servers only (parametrised by ``name``, the module's engine ``requires`` a feature)
gets an emulator of the ``current`` dialect (a v0.77.1 server) instead, once: v0.27 servers refuse the module.

``NMS_STRESS=1`` (``make stress``) or the marker ``stress`` scale the generated tests up.
"""

from __future__ import annotations

import os

import pytest

from tests.reliability.harness import FIGURES
from tests.support.modules import engine_of


def pytest_configure(config):
    config.addinivalue_line("markers", "stress: scaled up by NMS_STRESS=1 (make stress)")


def pytest_terminal_summary(terminalreporter):
    """The figures the tests proved (not shown by xdist workers)."""
    if not FIGURES:
        return
    terminalreporter.section("reliability figures")
    for topic in sorted(FIGURES):
        for item, text in sorted(FIGURES[topic].items()):
            terminalreporter.write_line("%s: %s: %s" % (topic, item, text))


@pytest.fixture(scope="session")
def emulator_session(emulators):
    return emulators.get("netbird")


@pytest.fixture(scope="session")
def seed_emulator_session(emulators):
    return emulators.get("seed")


@pytest.fixture(scope="session")
def current_emulator_session(emulators):
    return emulators.get("current")


def _of_todays_servers(request):
    """Whether the test is parametrised with a module of today's servers only."""
    name = getattr(getattr(request.node, "callspec", None), "params", {}).get("name")
    return bool(name) and bool(engine_of(name).requires)


@pytest.fixture
def current_emulator(current_emulator_session):
    """The emulator in the current dialect (a v0.77.1 server), reset: for kinds of today's servers only."""
    current_emulator_session.reset()
    return current_emulator_session


@pytest.fixture
def emulator(request, emulator_session):
    emu = request.getfixturevalue("current_emulator_session") if _of_todays_servers(request) else emulator_session
    emu.reset()
    return emu


# the dialects of the real server generations; NMS_EMULATOR_DIALECTS narrows them (make oldest: netbird)
ANY_DIALECTS = [d for d in ("netbird", "current")
                if d in os.environ.get("NMS_EMULATOR_DIALECTS", "netbird,current").replace(" ", "").split(",")]


@pytest.fixture(params=ANY_DIALECTS)
def any_emulator(request, emulator_session):
    """The emulator in the dialect of each real server generation (v0.27.6, v0.77.1); a module of today's servers only
    runs once, against ``current``. (The seed dialect, which no real server speaks, has test_seed_conformance.py.)"""
    if request.param == "current" or _of_todays_servers(request):
        if request.param == "netbird":
            pytest.skip("a module of today's servers only: tested once, against the current dialect")
        emu = request.getfixturevalue("current_emulator_session")
    else:
        emu = emulator_session
    emu.reset()
    return emu


def connection_of(emu, **overrides):
    conn = dict(api_url=emu.url, api_token=emu.token, timeout=5.0, retries=0)
    conn.update(overrides)
    return conn
