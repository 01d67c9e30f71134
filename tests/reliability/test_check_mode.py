# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 10, item 5: in check mode no module writes, for every documented example of every module.

For each module and each EXAMPLES task that calls it (tasks with Jinja are left out), in both
dialects: reset, seed the names the examples use (groups, peers, a service user), run the task's
predecessors of the same EXAMPLES for real (so that "disable the policy" finds the policy), clear
the log, then run the task in check mode. Asserted: a clean end, and no POST/PUT/DELETE in the log.
At least one example of every resource module must report ``changed`` in check mode (so that the
absence of writes is not just an early failure).
"""

from __future__ import annotations

import pytest

from tests.reliability.conftest import connection_of
from tests.reliability.harness import FIGURES, example_args, is_info, module_names, seed_world
from tests.support.inprocess import assert_clean_end, describe, run_module


@pytest.mark.parametrize("name", module_names())
def test_examples_in_check_mode_send_no_write(name, any_emulator):
    emu = any_emulator
    examples = example_args(name)
    if not examples:
        pytest.skip("module %s has no EXAMPLES task without Jinja" % name)
    changed = []
    failed = []
    for index, (title, args) in enumerate(examples):
        emu.reset()
        seed_world(emu)
        for dummy, earlier in examples[:index]:
            run_module(name, dict(connection_of(emu), **earlier))
        emu.clear_log()
        full = dict(connection_of(emu), **args)
        result = run_module(name, full, check_mode=True, diff=True)
        assert_clean_end(name, full, result)
        writes = emu.writes()
        assert not writes, "module %s example %r wrote in check mode: %r\n%s" % (name, title, writes, describe(result))
        if result.get("failed"):
            failed.append((title, result.get("msg")))
        elif result.get("changed"):
            changed.append(title)
    FIGURES.setdefault("check mode", {})["%s/%s" % (name, emu.dialect)] = "%d examples, %d changed, %d failed" % (
        len(examples), len(changed), len(failed))
    # instance sets up a fresh server (POST /api/setup); on a server already set up, as here, it has nothing to change,
    # so no example can report a change in check mode (its check mode on a fresh server: tests/integration/test_instance.py)
    if not is_info(name) and name not in ("account_info", "instance"):
        assert changed, "no example of %s reported a change in check mode (failures: %r)" % (name, failed)
    else:
        assert not changed, "info module %s reported a change" % name
