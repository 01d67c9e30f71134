# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Self-test of the integration harness (conftest.py and the recorder callback)."""

from __future__ import annotations

import json
import os
import sys
import urllib.request

import pytest


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
    }], ansible=True)  # ansible-playbook resolves the module through the collections path
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


# -- the in-process way of run (conftest.py): as ansible-playbook would run the same tasks --------------------------
BOTH_WAYS = [
    {"name": "create", "nms.overlay.group": {"name": "alpha"}, "register": "made"},
    {"name": "preview", "nms.overlay.group": {"name": "beta"}, "check_mode": True, "diff": True},
    {"name": "for real", "nms.overlay.group": {"name": "gamma"}, "check_mode": False, "diff": False},
    {"name": "warned", "nms.overlay.group_info": {"name": "alpha", "validate_certs": False}},
    {"name": "unknown peer", "nms.overlay.group": {"name": "delta", "peers": ["nope"]}, "ignore_errors": True},
    {"name": "unknown option", "nms.overlay.group": {"name": "x", "bogus": 1}, "ignore_errors": True},
    {"name": "bad shape", "nms.overlay.policy": {"name": "p", "rules": ["a"]}, "ignore_errors": True},
    {"nms.overlay.group_info": {"name": "gamma"}},  # no name: named after its action
    {"name": "delete", "nms.overlay.group": {"name": "alpha", "state": "absent"}},
    {"name": "ends the play", "nms.overlay.group": {"name": "delta", "peers": ["nope"]}},
    {"name": "not reached", "nms.overlay.group": {"name": "epsilon"}},
]
# what ansible-core adds by release and the in-process run leaves out: the traceback placeholder of a failure (2.19 on)
# and _ansible_no_log (before 2.19); invocation is in both or in neither (from 2.21 only with INJECT_INVOCATION)
BY_RELEASE = ("exception", "_ansible_no_log")


def comparable(result):
    return [{key: value for key, value in record.items() if key not in BY_RELEASE} for record in result.results]


@pytest.mark.parametrize("check", [False, True], ids=["play", "check-diff-play"])
def test_in_process_records_what_ansible_playbook_records(emulator, run, check):
    """The same plain tasks, in process and through ansible-playbook (the emulator reset between: ids repeat): the
    same recorded results, rc and requests, with play-wide --check --diff and each task's own check_mode and diff."""
    emulator.reset()
    inside = run(BOTH_WAYS, check=check, diff=check)
    assert inside.in_process
    inside_log = [(r["method"], r["path"], r["status"]) for r in emulator.requests()]
    emulator.reset()
    outside = run(BOTH_WAYS, check=check, diff=check, ansible=True)
    assert not outside.in_process
    outside_log = [(r["method"], r["path"], r["status"]) for r in emulator.requests()]

    assert outside.rc == 2 and inside.rc == outside.rc, (inside, outside)
    names = [task.get("name", "nms.overlay.group_info") for task in BOTH_WAYS[:-1]]
    assert inside.task_names == outside.task_names == names
    for mine, theirs in zip(comparable(inside), comparable(outside)):
        assert mine == theirs
    assert inside_log == outside_log
    assert ("POST", "/api/groups", 200) in inside_log  # "for real" writes, also under --check
    assert inside["warned"]["warnings"] == ["validate_certs is false: the server certificate is not verified"]
    assert inside["preview"]["diff"]["after"] == {"name": "beta", "peers": []}


def test_an_in_process_run_has_no_output_but_says_how_to_get_it(emulator, run):
    result = run([{"name": "list", "nms.overlay.group_info": {}}])
    assert result.in_process and result.rc == 0 and result["list"]["groups"]
    for name in ("stdout", "text"):
        with pytest.raises(AssertionError, match="pass ansible=True"):
            getattr(result, name)
    assert "in process" in repr(result) and "'list'" in repr(result)
    with pytest.raises(KeyError, match="no task named"):
        result["other"]  # pylint: disable=pointless-statement


def test_extra_vars_of_an_in_process_run_are_an_error(emulator, run):
    with pytest.raises(AssertionError, match="nothing uses extra_vars"):
        run([{"name": "list", "nms.overlay.group_info": {}}], extra_vars={"unused": 1})


def test_env_of_an_in_process_run_is_the_task_environment(emulator, run):
    """NMS_* variables set or removed by env reach the module; nothing else of the environment changes for good."""
    before = dict(os.environ), os.getcwd()
    result = run([{"name": "list", "nms.overlay.group_info": {}, "ignore_errors": True}],
                 env={"NMS_API_TOKEN": None})
    assert result.in_process and result.rc == 0
    assert result["list"]["msg"] == ("option api_token: it is not set or empty (set api_token or the environment "
                                     "variable NMS_API_TOKEN)")
    moved = run([{"name": "list", "nms.overlay.group_info": {}}], env={"NMS_API_URL": emulator.url + "/"})
    assert moved.rc == 0, moved
    assert (dict(os.environ), os.getcwd()) == before


@pytest.mark.parametrize("tasks, options, reason", [
    ([{"name": "t", "nms.overlay.group_info": {}}], {}, None),
    ([{"nms.overlay.group_info": None, "register": "x", "ignore_errors": False, "check_mode": True, "diff": True}],
     {"env": {"NMS_API_TOKEN": None}}, None),
    ([{"name": "t", "nms.overlay.group_info": {"name": "{{ x }}"}}], {}, "Jinja"),
    ([{"name": "{% raw %}t{% endraw %}", "nms.overlay.group_info": {}}], {}, "Jinja"),
    ([{"name": "t", "nms.overlay.group_info": {}, "loop": [1]}], {}, "task keys loop"),
    ([{"name": "t", "nms.overlay.group_info": {}, "when": True}], {}, "task keys when"),
    ([{"name": "t", "nms.overlay.group_info": {}, "no_log": True}], {}, "task keys no_log"),
    ([{"name": "t", "nms.overlay.group_info": {}, "environment": {}}], {}, "task keys environment"),
    ([{"name": "t", "nms.overlay.group_info": {}, "delegate_to": "localhost"}], {}, "task keys delegate_to"),
    ([{"name": "t", "nms.overlay.group_info": {}, "async": 9}], {}, "task keys async"),
    ([{"name": "t", "nms.overlay.group_info": {}, "ignore_errors": "yes"}], {}, "ignore_errors is not a boolean"),
    ([{"name": "t", "group_info": {}}], {}, "the action group_info"),
    ([{"name": "t", "nms.overlay.no_such_module": {}}], {}, "the action nms.overlay.no_such_module"),
    ([{"name": "t", "ansible.builtin.debug": {"msg": "x"}}], {}, "the action ansible.builtin.debug"),
    ([{"name": "t", "nms.overlay.group_info": "name=x"}], {}, "free-form arguments"),
    ([{"name": "t", "nms.overlay.group_info": {}}], {"hosts": "all"}, "hosts=all"),
    ([{"name": "t", "nms.overlay.group_info": {}}], {"inventory": "hosts"}, "inventory="),
    ([{"name": "t", "nms.overlay.group_info": {}}], {"play": {"collections": ["nms.overlay"]}}, "play="),
    ([{"name": "t", "nms.overlay.group_info": {}}], {"playbook": "nms.overlay.build_network"}, "playbook="),
    ([{"name": "t", "nms.overlay.group_info": {}}], {"python": sys.executable}, "python="),
    ([{"name": "t", "nms.overlay.group_info": {}}], {"extra_vars": {"nms_overlay_in_process": True}},
     "the extra var nms_overlay_in_process"),
    ([{"name": "t", "nms.overlay.group_info": {}}], {"env": {"ANSIBLE_ASYNC_DIR": "/tmp"}},
     "env sets ANSIBLE_ASYNC_DIR"),
    ([], {}, "no task"),
])
def test_which_runs_go_in_process(tasks, options, reason):
    """Only plain calls of nms.overlay modules on localhost run in process; everything else runs ansible-playbook."""
    from tests.integration.conftest import _plan  # pylint: disable=import-outside-toplevel
    args = dict(dict(hosts="localhost", inventory=None, play=None, playbook=None, python=None, extra_vars=None,
                     env=None), **options)
    steps, why = _plan(tasks, **args)
    assert why == reason
    assert (steps is None) is (reason is not None)


def test_in_process_results_are_scanned_for_secrets_and_checked_against_return(emulator, run, monkeypatch):
    """An in-process run gets the checks of an ansible-playbook run: each task's recorded result is that task's output
    for the secrets scan (a created value shows nowhere: the creator's result is hidden as the action plugin hides it,
    and a creator's result that is not hidden leaks), and a result must keep its RETURN."""
    from tests.integration import conftest  # pylint: disable=import-outside-toplevel
    value = "0A1B2C3D-4E5F-6A7B-8C9D-0E1F2A3B4C5D"
    answers = {}

    def fake(name, args, **dummy):  # pylint: disable=unused-argument
        return dict(answers[args.get("name")], _rc=0, _stdout="", _stderr="")

    monkeypatch.setattr(conftest, "run_module", fake)
    unhidden = "9F8E7D6C-5B4A-3F2E-1D0C-B9A8F7E6D5C4"
    answers.update({
        "made": {"changed": True, "setup_key": {"name": "made", "key": value}, "_ansible_no_log": True},
        "bare": {"changed": True, "setup_key": {"name": "bare", "key": unhidden}},
        "shown": {"changed": False, "setup_keys": [{"name": "made", "key": value}]},
        "token": {"changed": False, "setup_keys": [], "msg": "sent %s" % emulator.token},
        "odd": {"changed": False, "setup_keys": [], "not_documented": 1},
    })
    with pytest.raises(pytest.fail.Exception) as leak:
        run([{"name": "make", "nms.overlay.setup_key": {"name": "made"}},
             {"name": "list", "nms.overlay.setup_key_info": {"name": "shown"}}])
    # one leak: the value in the output of 'list'; the creator's result is hidden
    assert str(leak.value).endswith(": 1 leak(s)\n  the setup key value created by task 'make' in the output of "
                                    "task 'list' (line 5, 1 occurrence(s))"), str(leak.value)
    assert value not in str(leak.value)
    with pytest.raises(pytest.fail.Exception) as leak:  # a create result that is not hidden shows its value
        run([{"name": "make bare", "nms.overlay.setup_key": {"name": "bare"}}])
    assert "the setup key value created by task 'make bare' in the output of task 'make bare'" in str(leak.value)
    assert unhidden not in str(leak.value)
    with pytest.raises(pytest.fail.Exception, match="the API token in the output of task 'list'") as leak:
        run([{"name": "list", "nms.overlay.setup_key_info": {"name": "token"}}])
    assert emulator.token not in str(leak.value)
    with pytest.raises(pytest.fail.Exception, match="not_documented is returned but not documented"):
        run([{"name": "list", "nms.overlay.setup_key_info": {"name": "odd"}}])
