# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 10, item 3: a bad answer from the server is a clear failure naming method, path and status.

The emulator's fault queue replaces the answer to one request: HTTP 500 (JSON), an HTML error
page, a body that is not JSON, JSON cut in the middle, a transfer cut short, an empty body, JSON of
the wrong shape (a string where a list or an object belongs), no answer within the timeout, a
dropped connection. For every module (its first EXAMPLES task that
sends a request) the fault hits its first request; for the group module also its POST. Asserted:
a failure (never a traceback, never a success built on garbage) whose message starts with
``METHOD URL failed`` (the full URL, issue 18), names the HTTP status when there was one, says what was wrong, and
carries neither the token nor raw HTML.
"""

from __future__ import annotations

import pytest

from tests.reliability.conftest import connection_of
from tests.reliability.harness import (
    API_ERROR_RE, FIGURES, STRESS, assert_clean_end, describe, example_args, module_names, run_module, seed_world,
)
from tests.reliability.secrets import assert_no_secrets

HTML = "<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>nginx</p></body></html>"
TIMEOUT = 0.5

# kind -> (fault, expected status in the message or None, words the message must contain)
FAULTS = {
    "http-500": ({"status": 500}, 500, ["injected fault 500"]),
    "html-page": ({"status": 500, "body": HTML, "content_type": "text/html"}, 500, ["Bad Gateway"]),
    "not-json": ({"status": 200, "body": "Service temporarily unavailable", "content_type": "text/plain"}, 200,
                 ["not valid JSON", "Service temporarily unavailable"]),
    "cut-json": ({"status": 200, "body": '[{"id": "ch8i4ug6lnn4g9hqv7l0", "na', "content_type": "application/json"},
                 200, ["not valid JSON"]),
    "cut-transfer": ({"truncated": True}, 200, ["cut off"]),
    "empty-body": ({"status": 200, "body": "", "content_type": "application/json"}, 200, ["empty"]),
    "wrong-shape": ({"status": 200, "body": '"ok"', "content_type": "application/json"}, 200, ["the answer is a string"]),
    "timeout": ({"delay": TIMEOUT * 3}, None, ["timeout"]),
    "dropped": ({"drop": True}, None, ["connection"]),
}
# (a POST whose answer is late was applied: the engine reads back and finds it, see the test below)
POST_FAULTS = ("http-500", "html-page", "not-json", "cut-json", "cut-transfer", "empty-body", "wrong-shape", "dropped")
_FIRST = {}


def first_requesting_example(name, emu):
    """The first EXAMPLES task of the module that sends at least one request (checked once)."""
    if name not in _FIRST:
        _FIRST[name] = None
        for title, args in example_args(name):
            emu.reset()
            seed_world(emu)
            run_module(name, dict(connection_of(emu), **args))
            if emu.requests():
                _FIRST[name] = (title, args)
                break
    return _FIRST[name]


def check_failure(name, args, result, log, kind, emu, position=0):
    fault, status, words = FAULTS[kind]
    context = "module %s, fault %s: %s\nrequests: %r" % (name, kind, describe(result), log)
    assert_clean_end(name, args, result)
    assert result.get("failed"), "a bad answer was taken as a success: " + context
    msg = result["msg"]
    assert len(log) > position and log[position].get("fault"), "the fault was not used: " + context
    first = log[position]
    match = API_ERROR_RE.search(msg)
    assert match, "the message does not say 'METHOD URL failed': " + context
    assert (match.group(1), match.group(2)) == (first["method"], first["path"][len("/api"):]), \
        "the message names another call than the faulted one: " + context
    if status is None:
        assert match.group(4) is None, context
    else:
        assert match.group(4) == str(status), "the message does not name HTTP %s: %s" % (status, context)
    for word in words:
        assert word.lower() in msg.lower(), "the message does not say %r: %s" % (word, context)
    assert "<html" not in msg.lower() and "<h1>" not in msg.lower(), "raw HTML in the message: " + context
    if "status" in result:  # modules that return the failed call's keys must return the right ones
        assert result["status"] == status, "result key status: " + context
    assert_no_secrets(describe(result), [emu.token])
    del fault


def _kinds():
    kinds = list(FAULTS)
    return kinds if STRESS else [k for k in kinds if k != "timeout"]


@pytest.mark.parametrize("kind", _kinds())
@pytest.mark.parametrize("name", module_names())
def test_first_request_faulted(name, kind, emulator):
    example = first_requesting_example(name, emulator)
    if example is None:
        pytest.skip("no EXAMPLES task of %s sends a request" % name)
    title, task_args = example
    emulator.reset()
    seed_world(emulator)
    emulator.set_faults({"queue": [FAULTS[kind][0]]})
    args = dict(connection_of(emulator, timeout=TIMEOUT), **task_args)
    result = run_module(name, args)
    check_failure(name, args, result, emulator.requests(), kind, emulator)
    FIGURES.setdefault("bad answers", {})["%s/%s" % (name, kind)] = "%r failed: %s" % (title[:40], result["msg"][:150])


@pytest.mark.parametrize("kind", list(FAULTS))
@pytest.mark.parametrize("name", ["group_info", "group"])
def test_timeout_and_faults_on_the_model_modules(name, kind, emulator):
    """group and group_info get every kind (including the timeout) in every run."""
    test_first_request_faulted(name, kind, emulator)


@pytest.mark.parametrize("kind", POST_FAULTS)
def test_create_faulted(kind, emulator):
    """The POST of a create gets the fault (the list before it is answered normally)."""
    emulator.set_faults({"queue": [{"delay": 0.0}, FAULTS[kind][0]]})
    args = dict(connection_of(emulator, timeout=TIMEOUT), name="new-group", peers=[])
    result = run_module("group", args)
    log = emulator.requests()
    assert [entry["method"] for entry in log][:2] == ["GET", "POST"], log
    check_failure("group", args, result, log, kind, emulator, position=1)
    FIGURES.setdefault("bad answers", {})["group POST/%s" % kind] = result["msg"][:150]


def test_create_whose_answer_was_lost_is_read_back_and_reports_a_change(emulator):
    """The POST is applied but its answer comes after the timeout: the engine reads the list back
    (never a second POST), finds the group its own POST made, and so the task changed something."""
    emulator.set_faults({"queue": [{"delay": 0.0}, {"delay": TIMEOUT * 3}]})
    args = dict(connection_of(emulator, timeout=TIMEOUT), name="new-group", peers=[])
    result = run_module("group", args)
    log = emulator.requests()
    context = "%s\nrequests: %r" % (describe(result), log)
    assert_clean_end("group", args, result)
    assert [e["method"] for e in log if e["method"] == "POST"] == ["POST"], "the create was sent twice: " + context
    status, groups = emulator.api("GET", "/groups")
    assert len([g for g in groups if g["name"] == "new-group"]) == 1, groups
    assert not result.get("failed"), "the read-back found the group, yet the task failed: " + context
    assert result.get("changed") is True, "the run created the group but reports changed=false: " + context
