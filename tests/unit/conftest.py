# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Fixtures of every unit test: the fake clock."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils import _time
from tests.support.fakes import FakeClock


@pytest.fixture(autouse=True)
def clock(monkeypatch):
    """The collection's clock is a FakeClock (tests/support/fakes.py) in every unit test: the engine's settle and
    converge waits and the client's retry and back-off pauses pass at once and are recorded in ``clock.waits``.
    (The emulator runs in processes of its own, on the real clock.)"""
    fake = FakeClock()
    monkeypatch.setattr(_time, 'CLOCK', fake)
    return fake
