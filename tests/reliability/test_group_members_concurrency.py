# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 46, item 10: forks adding different peers to one group at once (``group`` with ``peers_mode: add``) and
removing others from it all end with what each asked for, on a quiet machine and on a loaded one (where a fork can
stall seconds between its read and its write). Every answer is held, so that without a lock all forks would read the
member list before any of them writes it; the forks of one machine take turns on the group's lock
(_store.object_lock), so each writes once and none undoes another's (a lost update, which a read-back finds only
while its wait lasts: a loaded CI machine once outlasted it)."""

from __future__ import annotations

import pytest

from tests.reliability.harness import FIGURES
from tests.support.forks import FORKS, all_ok, busy_machine, changed_count, run_forks


# both changes on a quiet machine, the removal (the one a loaded CI machine once broke) on a loaded one as well
@pytest.mark.parametrize("mode, load", [("add", "quiet"), ("remove", "quiet"), ("remove", "loaded")])
def test_ten_forks_change_the_members_of_one_group(any_emulator, tmp_path, mode, load):
    emu = any_emulator
    names = ["racer%d-%s" % (i, side) for i in range(FORKS) for side in "ab"]
    emu.control("POST", "/_emulator/peers", {"peers": [{"hostname": name, "os": "linux"} for name in names + ["stays"]]})
    status, peers = emu.api("GET", "/peers")
    assert status == 200, peers
    ids = {peer["name"]: peer["id"] for peer in peers}
    start = [ids["stays"]] + ([ids[name] for name in names] if mode == "remove" else [])
    status, group = emu.api("POST", "/groups", {"name": "race-ops", "peers": start})
    assert status == 200, group
    with busy_machine(load):
        output, returncode, recap, elapsed = run_forks(emu, tmp_path, (
            "    - name: Change the race group's members\n      nms.overlay.group:\n        name: race-ops\n"
            "        peers: ['{{ inventory_hostname }}-a', '{{ inventory_hostname }}-b']\n        peers_mode: %s\n" % mode))
    status, after = emu.api("GET", "/groups/%s" % group["id"])
    assert status == 200, after
    members = sorted(p["name"] for p in after["peers"] or [])
    puts = [r for r in emu.requests() if r["method"] == "PUT"]
    context = "members %s after %d PUTs\n%s" % (members, len(puts), output[-4000:])
    assert members == sorted(["stays"] + (names if mode == "add" else [])), "lost updates: " + context
    assert returncode == 0 and all_ok(recap), context
    assert changed_count(recap) == FORKS, context
    assert len(puts) == FORKS, "a write was undone (the forks did not take turns): " + context
    # a re-run changes nothing and writes nothing
    emu.clear_log()
    output, returncode, recap, dummy = run_forks(emu, tmp_path, (
        "    - name: Change the race group's members\n      nms.overlay.group:\n        name: race-ops\n"
        "        peers: ['{{ inventory_hostname }}-a', '{{ inventory_hostname }}-b']\n        peers_mode: %s\n" % mode), slow=0.0)
    assert returncode == 0 and all_ok(recap) and changed_count(recap) == 0, output[-4000:]
    assert [r for r in emu.requests() if r["method"] != "GET"] == []
    FIGURES.setdefault("concurrency", {})["group peers_mode %s %s %s" % (mode, emu.dialect, load)] = (
        "%d forks: %d members, %d PUTs, %.1fs" % (FORKS, len(members), len(puts), elapsed))
