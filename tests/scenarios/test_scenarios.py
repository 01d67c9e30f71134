# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every module's scenario (scenarios.py) on the emulator and on the real server it imitates, and the shapes of
their answers compared (shapes.py).

A scenario runs first against the emulator, then against the real release; each step's checks hold on both. Then
every exchange of the two recordings must agree in requests, statuses, answer shapes and error messages, apart from
shapes.ALLOWED.
"""

from __future__ import annotations

import os

import pytest

from tests.scenarios import shapes
from tests.scenarios.scenarios import SCENARIOS
from tests.support.inprocess import assert_clean_end, describe, run_module

MODULES_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                           "plugins", "modules")


class Recording:
    """Runs a scenario's tasks against one server and keeps each step's exchanges."""

    def __init__(self, server, generation):
        self.server = server
        self.generation = generation
        self.steps = []

    def step(self, name, module, args, check=False, diff=False, changed=None, writes=None, failed=False):
        """Run one task; check ``changed`` (True/False), ``writes`` (False: none) and ``failed``; return the result."""
        self.server.clear_log()
        result = run_module(module, args, check_mode=check, diff=diff,
                            environment={"NMS_API_URL": self.server.url, "NMS_API_TOKEN": self.server.token})
        log = self.server.requests()
        self.steps.append((name, log))
        where = "%s on %r, step %r: %s %r" % (module, self.server, name, "check mode" if check else "", args)
        assert_clean_end(module, args, result)
        assert bool(result.get("failed")) is failed, "%s\n%s" % (where, describe(result))
        if changed is not None:
            assert result["changed"] is changed, "%s: changed is %s\n%s" % (where, result["changed"], describe(result))
        written = [w["method"] + " " + w["path"] for w in self.server.writes()]
        if writes is False or check:
            assert written == [], "%s wrote %s" % (where, written)
        elif writes:
            assert written, "%s wrote nothing" % where
        if diff and changed:
            diffs = result.get("diff") if isinstance(result.get("diff"), list) else [result.get("diff")]
            assert any(d and d["before"] != d["after"] for d in diffs), "%s: no diff\n%s" % (where, describe(result))
        return result

    def find(self, scenario, expected):
        module, args, key, dummy = scenario.info
        result = self.step("info", module, args, changed=False, writes=False)
        found = result[key]
        if expected is not None:
            assert isinstance(found, list) and len(found) == expected, "%s found %r" % (module, found)
        else:
            assert found is not None, describe(result)
        return result


def lifecycle_crud(run, scenario):
    run.step("create (check mode)", scenario.module, scenario.present, check=True, changed=True)
    created = run.step("create", scenario.module, scenario.present, diff=True, changed=True, writes=True)
    for diff in created["diff"] if isinstance(created["diff"], list) else [created["diff"]]:
        assert diff["before"] in ({}, None, ""), "a create shows something before it: %s" % describe(created)
    run.step("re-run", scenario.module, scenario.present, changed=False, writes=False)
    if scenario.update:
        run.step("update (check mode)", scenario.module, scenario.updated, check=True, diff=True, changed=True)
        run.step("update", scenario.module, scenario.updated, diff=True, changed=True, writes=True)
        run.step("update re-run", scenario.module, scenario.updated, changed=False, writes=False)
    if scenario.info:
        run.find(scenario, scenario.info[3])
    run.step("delete (check mode)", scenario.module, scenario.delete, check=True, changed=True)
    run.step("delete", scenario.module, scenario.delete, diff=True, changed=True, writes=True)
    run.step("delete again", scenario.module, scenario.delete, changed=False, writes=False)


def lifecycle_settings(run, scenario):
    run.step("change (check mode)", scenario.module, scenario.present, check=True, diff=True, changed=True)
    run.step("change", scenario.module, scenario.present, diff=True, changed=True, writes=True)
    run.step("re-run", scenario.module, scenario.present, changed=False, writes=False)
    run.step("change back", scenario.module, scenario.restore, diff=True, changed=True, writes=True)
    run.step("change back re-run", scenario.module, scenario.restore, changed=False, writes=False)


def lifecycle_read(run, scenario):
    run.find(scenario, scenario.info[3])


def lifecycle_absent(run, scenario):
    """For a module whose objects the plain seeded real server cannot make: removing one that does not exist."""
    run.step("absent (check mode)", scenario.module, scenario.present, check=True, changed=False)
    run.step("absent", scenario.module, scenario.present, diff=True, changed=False, writes=False)
    if scenario.info:
        run.find(scenario, scenario.info[3])


def lifecycle_preview(run, scenario):
    """For a module the plain seeded real server refuses (a ``probe`` shows the refusal): check mode only."""
    run.step("preview (check mode)", scenario.module, scenario.present, check=True, changed=True)
    if scenario.info:
        run.find(scenario, scenario.info[3])


def lifecycle_refused(run, scenario):
    """A module the plain seeded real server refuses even to read for: failed (the shapes compare the message), no write."""
    run.step("refused", scenario.module, scenario.present, failed=True, writes=False)
    if scenario.info:
        module, args, dummy_key, dummy_count = scenario.info
        run.step("info refused", module, args, failed=True, writes=False)


def lifecycle_probe(run, scenario):
    for method, path, body in scenario.calls:
        run.server.clear_log()
        run.server.api(method, path, body)
        run.steps.append(("%s %s" % (method, path), run.server.requests()))


LIFECYCLES = {"crud": lifecycle_crud, "settings": lifecycle_settings, "read": lifecycle_read, "probe": lifecycle_probe,
              "absent": lifecycle_absent, "preview": lifecycle_preview, "refused": lifecycle_refused}


def play(scenario, server, generation):
    run = Recording(server, generation)
    if scenario.today_only and generation == "v0.27":
        refused = run.step("refused", scenario.module, scenario.present, failed=True, writes=False)
        assert "v0.27" in refused["msg"] or "server" in refused["msg"], describe(refused)
        return run.steps
    made = []
    try:
        for module, args in scenario.needs:
            run.step("needs %s" % module, module, args)
            made.append((module, args))
        LIFECYCLES[scenario.lifecycle](run, scenario)
    finally:
        server.clear_log()
        for module, args in reversed(made):
            key = {k: v for k, v in args.items() if k in ("name", "domain", "user")}
            run_module(module, dict(key, state="absent"),
                       environment={"NMS_API_URL": server.url, "NMS_API_TOKEN": server.token})
    return run.steps


@pytest.mark.parametrize("scenario", SCENARIOS, ids=repr)
def test_scenario(scenario, servers):
    generation, targets = servers
    recordings = [(server, play(scenario, server, generation)) for server in targets]
    if len(recordings) < 2:
        return
    (dummy, emulated), (real, recorded) = recordings
    found = shapes.differences(real.release, emulated, recorded)
    assert not found, "the emulator (%s) answers unlike the real %s:\n  %s" % (
        targets[0].dialect, real.release, "\n  ".join(found))


def test_every_module_has_a_scenario():
    modules = sorted(name[:-3] for name in os.listdir(MODULES_DIR) if name.endswith(".py") and name != "__init__.py")
    covered = {s.module for s in SCENARIOS if s.lifecycle != "probe"} | {s.info[0] for s in SCENARIOS if s.info}
    assert [m for m in modules if m not in covered] == []
