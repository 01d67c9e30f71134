# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Make the working tree importable as ``ansible_collections.nms.overlay`` for plain pytest.

The repository root is the collection root, but Python (and Ansible) expect the collection at
``<dir>/ansible_collections/nms/overlay``. This creates such a ``<dir>`` in a temporary
directory, with ``ansible_collections/nms/overlay`` a symlink to the repository root, puts it
first on ``sys.path`` and in ``ANSIBLE_COLLECTIONS_PATH``. Tests then import
``ansible_collections.nms.overlay.plugins...`` exactly as Ansible does.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile

import pytest

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _collections_dir():
    base = tempfile.mkdtemp(prefix="nms-overlay-collections-")
    atexit.register(shutil.rmtree, base, ignore_errors=True)
    namespace_dir = os.path.join(base, "ansible_collections", "nms")
    os.makedirs(namespace_dir)
    os.symlink(REPO_ROOT, os.path.join(namespace_dir, "overlay"))
    return base


COLLECTIONS_DIR = _collections_dir()
sys.path.insert(0, COLLECTIONS_DIR)
if REPO_ROOT not in sys.path:
    sys.path.insert(1, REPO_ROOT)  # for ``import tests.emulator``
os.environ["ANSIBLE_COLLECTIONS_PATH"] = COLLECTIONS_DIR


@pytest.fixture
def clock(monkeypatch):
    """The collection's clock (plugins/module_utils/_time.py ``CLOCK``) as a FakeClock (tests/support/fakes.py): the
    engine's settle and converge waits and the client's retry and back-off pauses pass at once and are recorded in
    ``clock.waits``. Every unit test has it (tests/unit/conftest.py); a reliability test asks for it."""
    from ansible_collections.nms.overlay.plugins.module_utils import _time  # pylint: disable=import-outside-toplevel
    from tests.support.fakes import FakeClock  # pylint: disable=import-outside-toplevel
    fake = FakeClock()
    monkeypatch.setattr(_time, "CLOCK", fake)
    return fake


@pytest.fixture(scope="session")
def emulators(tmp_path_factory):
    """The emulators of this pytest worker (tests/support/emulator.py ``EmulatorPool``): ``emulators.get(dialect,
    extra_args=(), cls=Emulator, user=None)`` starts one on first use; all stop at the end of the session."""
    from tests.support.emulator import EmulatorPool  # pylint: disable=import-outside-toplevel
    pool = EmulatorPool(str(tmp_path_factory.mktemp("emulators")))
    yield pool
    pool.stop()
