# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Self-test of the integration harness (conftest.py and the recorder callback)."""

from __future__ import annotations

import json
import os
import sys
import urllib.request


def test_recorder_records_every_task_in_order(run):
    result = run([
        {"name": "say hello", "ansible.builtin.debug": {"msg": "hello"}},
        {"name": "set a fact", "ansible.builtin.set_fact": {"answer": 42}},
        {"name": "skip me", "ansible.builtin.debug": {"msg": "never"}, "when": False},
        {"name": "which python", "ansible.builtin.command": "{{ ansible_playbook_python }} -c 'import sys; print(sys.executable)'",
         "changed_when": False},
        {"name": "interpreter", "ansible.builtin.debug": {"var": "ansible_python_interpreter"}},
    ])
    assert result.rc == 0, result
    assert result.task_names == ["say hello", "set a fact", "skip me", "which python", "interpreter"]
    assert result["say hello"]["msg"] == "hello"
    assert result["say hello"]["changed"] is False
    assert result["say hello"]["failed"] is False
    assert result["set a fact"]["ansible_facts"] == {"answer": 42}
    assert result["skip me"]["skipped"] is True
    assert result["which python"]["stdout"] == sys.executable
    assert result["interpreter"]["ansible_python_interpreter"] == sys.executable
    assert "hello" in result.stdout
    assert "PLAY RECAP" in result.stdout


def test_failure_is_recorded_and_rc_is_nonzero(run):
    result = run("""
- name: boom
  ansible.builtin.fail:
    msg: expected failure
- name: not reached
  ansible.builtin.debug:
    msg: unreachable
""")
    assert result.rc == 2, result
    assert result.task_names == ["boom"]
    assert result["boom"]["failed"] is True
    assert result["boom"]["msg"] == "expected failure"
    assert result.failed == [result["boom"]]


def test_check_and_diff_plumbing(run, tmp_path):
    target = tmp_path / "file.txt"
    target.write_text("old\n", encoding="utf-8")
    tasks = [{"name": "write file", "ansible.builtin.copy": {"dest": str(target), "content": "new\n"}}]

    checked = run(tasks, check=True, diff=True)
    assert checked.rc == 0, checked
    assert checked["write file"]["changed"] is True
    diff = checked["write file"]["diff"]
    diff = diff[0] if isinstance(diff, list) else diff
    assert diff["before"] == "old\n"
    assert diff["after"] == "new\n"
    assert target.read_text(encoding="utf-8") == "old\n", "check mode must not write"

    applied = run(tasks)
    assert applied["write file"]["changed"] is True
    assert applied["write file"].get("diff") in (None, [], {})
    assert target.read_text(encoding="utf-8") == "new\n"

    again = run(tasks)
    assert again["write file"]["changed"] is False


def test_extra_vars_env_verbosity_and_isolation(run):
    result = run(
        [
            {"name": "vars", "ansible.builtin.debug": {"msg": "{{ greeting }} {{ lookup('ansible.builtin.env', 'NMS_HARNESS_PROBE') }}"}},
            {"name": "no api env without emulator", "ansible.builtin.debug": {"msg": "{{ lookup('ansible.builtin.env', 'NMS_API_URL') | default('', true) }}"}},
            {"name": "check mode flag", "ansible.builtin.debug": {"var": "ansible_check_mode"}},
        ],
        extra_vars={"greeting": "hi"},
        env={"NMS_HARNESS_PROBE": "there"},
        verbosity=4,
        check=True,
    )
    assert result.rc == 0, result
    assert result["vars"]["msg"] == "hi there"
    assert result["no api env without emulator"]["msg"] == ""
    assert result["check mode flag"]["ansible_check_mode"] is True
    assert "ansible-playbook [core" in result.stdout  # -vvvv prints the version banner


def test_collection_is_on_the_collections_path(run, collections_dir):
    link = os.path.join(collections_dir, "ansible_collections", "nms", "overlay")
    assert os.path.isfile(os.path.join(link, "galaxy.yml"))
    # a module of the collection is resolved through the symlink and runs: nothing listens on
    # port 9, so it fails with its own connection error, not with "couldn't resolve module"
    result = run([{
        "name": "collection module",
        "nms.overlay.group_info": {"api_url": "http://127.0.0.1:9", "api_token": "nbp_" + "0" * 36, "retries": 0},
    }])
    assert "couldn't resolve module" not in result.stdout, result
    assert result["collection module"]["failed"] is True
    assert result["collection module"]["action"] == "nms.overlay.group_info"
    assert "connection" in result["collection module"]["msg"].lower(), result


def test_emulator_fixture_starts_resets_and_logs(emulator, run):
    assert emulator.url.startswith("http://127.0.0.1:")
    assert emulator.token.startswith("nbp_")
    assert emulator.requests() == []

    status, body = emulator.api("GET", "/api/groups")
    assert status == 200, body
    status, _body = emulator.api("GET", "/users", token="nbp_" + "x" * 36)
    assert status == 401
    log = emulator.requests()
    assert [(r["method"], r["path"], r["status"]) for r in log] == [
        ("GET", "/api/groups", 200),
        ("GET", "/api/users", 401),
    ]
    assert emulator.writes() == []

    result = run([{
        "name": "call the api with the env the harness sets",
        # the Authorization header would be printed at -vvvv, which the secrets scan rejects
        "no_log": True,
        "ansible.builtin.uri": {
            "url": "{{ lookup('ansible.builtin.env', 'NMS_API_URL') }}/api/groups",
            "headers": {"Authorization": "Token {{ lookup('ansible.builtin.env', 'NMS_API_TOKEN') }}"},
        },
    }])
    assert result.rc == 0, result
    assert len(emulator.requests()) == 3

    emulator.clear_log()
    assert emulator.requests() == []


def test_emulator_is_reset_before_each_test(emulator):
    # the previous test left 3 logged requests; reset clears them
    assert emulator.requests() == []
    with urllib.request.urlopen(emulator.url + "/_emulator/state", timeout=10) as resp:  # noqa: S310
        assert resp.status == 200
        json.loads(resp.read())
