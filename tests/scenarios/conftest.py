# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The servers the scenarios run against: the emulator and, where the kit is, the real release it imitates.

``servers(generation)`` gives, for ``v0.27`` or ``v0.77``, the emulator in the dialect that imitates it and (when
real servers are on) the real release, each behind a recording proxy (tests/support/realserver.py), each started
once per pytest worker and seeded alike (the real seed's five peers). Scenarios clean up after themselves, so the
servers are never reset: the emulator is treated as the real server must be.

Environment:

``NMS_REAL``            ``1``: the real servers are required (a server that does not start fails the test);
                        ``0``: the emulator only; unset: real servers where the kit is (tests/support/realserver.py).
``NMS_REAL_SERVERS``    the kit's directory (default ``../shared/servers`` beside the checkout).
``NMS_GENERATIONS``     ``v0.27,v0.77`` (default) or one of them.
"""

from __future__ import annotations

import os

import pytest

from tests.support.realserver import DIALECT_OF, SEEDED_PEERS, Recorded, RealServerError, real_mode, start_real_server

GENERATIONS = {"v0.27": "v0.27.6", "v0.77": "v0.77.1"}
WANTED = [g.strip() for g in os.environ.get("NMS_GENERATIONS", "v0.27,v0.77").split(",") if g.strip()]


def pytest_report_header(config):
    on, required, why = real_mode()
    if on:
        return "real NetBird servers: %s (%s)" % (", ".join(GENERATIONS[g] for g in WANTED),
                                                  "required" if required else "kit found")
    return "real NetBird servers: skipped (%s)" % why


class EmulatedServer(Recorded):
    """The emulator behind a recording proxy (the answers' bodies are in the log, as for a real server)."""

    real = False

    def __init__(self, emulator):
        super().__init__(emulator.dialect, emulator.url, emulator.token)
        self.emulator = emulator


@pytest.fixture(scope="session")
def server_pool(emulators):
    """Started servers by (generation, "emulator"|"real"), started on first use, stopped at the end."""
    started = {}

    def get(generation, kind):
        if (generation, kind) not in started:
            release = GENERATIONS[generation]
            if kind == "real":
                try:
                    started[generation, kind] = start_real_server(release)
                except RealServerError as exc:
                    pytest.fail(str(exc), pytrace=False)
            else:
                emulator = emulators.get(DIALECT_OF[release], user="scenarios")  # never reset
                emulator.add_peers(peers=[{"hostname": name, "os": os_name} for name, os_name in SEEDED_PEERS])
                started[generation, kind] = EmulatedServer(emulator)
        return started[generation, kind]

    yield get
    for server in started.values():
        server.stop()


@pytest.fixture(params=WANTED)
def servers(request, server_pool):
    """``[emulator, real server]`` of one generation (the real one only when real servers are on)."""
    generation = request.param
    on, dummy_required, dummy_why = real_mode()
    kinds = ["emulator", "real"] if on else ["emulator"]
    return generation, [server_pool(generation, kind) for kind in kinds]
