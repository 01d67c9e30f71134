# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Fixtures of every unit test: the fake clock (tests/conftest.py ``clock``), always on."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def fake_clock_always(clock):
    """Every unit test runs on the fake clock (the emulator runs in processes of its own, on the real clock)."""
    return clock
