# -*- coding: utf-8 -*-
"""The event source nms.overlay.audit_events without a server: its arguments, its position (ids by the server's clock,
bounded seen ids) and state file, and that it imports only the standard library (it runs in ansible-rulebook's Python,
where neither ansible-core nor the collection's requirements need to be)."""

from __future__ import annotations

import ast
import datetime
import importlib.util
import json
import os
import re
import sys

import pytest
import yaml

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLUGIN = os.path.join(REPO_ROOT, "extensions", "eda", "plugins", "event_source", "audit_events.py")
UTC = datetime.timezone.utc
TOKEN = "nbp_" + "s3cret" * 6


def _load():
    spec = importlib.util.spec_from_file_location("nms_overlay_audit_events_unit", PLUGIN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


plugin = _load()
GOOD = {"api_url": "https://nms.example.com/api", "api_token": TOKEN}


def at(seconds):
    return datetime.datetime(2026, 1, 10, 8, 0, 0, tzinfo=UTC) + datetime.timedelta(seconds=seconds)


def test_imports_only_the_standard_library():
    tree = ast.parse(open(PLUGIN, encoding="utf-8").read())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    assert names <= set(sys.stdlib_module_names) | {"__future__"}, names
    assert plugin.DOCUMENTATION.lstrip().startswith("---") and "nms.overlay.audit_events" in plugin.EXAMPLES


def test_the_documentation_is_yaml_and_names_every_argument():
    documentation = yaml.safe_load(plugin.DOCUMENTATION)
    assert set(documentation["options"]) == set(plugin.ARGS)
    assert yaml.safe_load(plugin.EXAMPLES)[0]["sources"][0]["nms.overlay.audit_events"]


def test_options_defaults_and_the_environment():
    options = plugin.Options({}, environ={"NMS_API_URL": "http://127.0.0.1:8080/api/", "NMS_API_TOKEN": TOKEN},
                             now=at(0))
    assert (options.api_url, options.api_token) == ("http://127.0.0.1:8080", TOKEN)
    assert (options.interval, options.timeout, options.start) == (10, 30, at(0))
    assert options.validate_certs is True and options.state_file is None
    options = plugin.Options(dict(GOOD, api_url="https://other.example.com", start="-1h", timeout="2m", interval="5",
                                  validate_certs="false", activity_code="peer.*"), environ={"NMS_API_URL": "x"},
                             now=at(3600))
    assert options.api_url == "https://other.example.com"  # the argument wins over the environment
    assert (options.start, options.timeout, options.interval, options.validate_certs) == (at(0), 120, 5, False)
    assert options.activity_code == ["peer.*"]
    assert plugin.Options(dict(GOOD, start="2026-01-10T08:00:00.123456789Z")).start == at(0.123456)
    assert plugin.Options(dict(GOOD, start="2026-01-10")).start == at(-8 * 3600)


@pytest.mark.parametrize("args, message", [
    ({}, "api_url: not set (set api_url or the environment variable NMS_API_URL)"),
    ({"api_url": "https://nms.example.com"}, "api_token: not set"),
    (dict(GOOD, api_token=TOKEN + "\n"), "api_token: the token has spaces"),
    (dict(GOOD, api_url="https://user:%s@nms.example.com" % TOKEN), "api_url: '(hidden)' is not an http(s) URL"),
    (dict(GOOD, api_url="nms.example.com"), "api_url: 'nms.example.com' is not an http(s) URL"),
    (dict(GOOD, interval=-1), "interval: -1 must be greater than 0"),
    (dict(GOOD, timeout=True), "timeout: True is not a number of seconds"),
    (dict(GOOD, timeout="a while"), "timeout: 'a while' is not a number of seconds"),
    (dict(GOOD, overlap=60), "unknown argument(s) overlap"),
    (dict(GOOD, validate_certs="maybe"), "validate_certs: 'maybe' is not a boolean"),
    (dict(GOOD, start="tomorrow"), "start: 'tomorrow' is neither an ISO 8601 time stamp"),
    (dict(GOOD, ca_path="/nonexistent/ca.pem"), "ca_path: /nonexistent/ca.pem does not exist"),
    (dict(GOOD, activity_code=[1]), "activity_code: [1] is not a list"),
    (dict(GOOD, target_id=["x"]), "target_id: ['x'] is not a string"),
    (dict(GOOD, api_tokn="x"), "unknown argument(s) api_tokn"),
])
def test_bad_arguments_raise_a_value_error_naming_the_argument(args, message):
    with pytest.raises(ValueError) as info:
        plugin.Options(args, environ={})
    assert str(info.value).startswith(message), str(info.value)
    assert TOKEN not in str(info.value) and "s3cret" not in str(info.value)


def test_filters_as_event_info_applies_them():
    options = plugin.Options(dict(GOOD, activity_code=["peer.*", "group.add"], initiator_email="Owner@Example.com",
                                  target_id="t1"))
    event = {"activity_code": "peer.rename", "initiator_email": "owner@example.com", "target_id": "t1"}
    assert options.keep(event)
    assert not options.keep(dict(event, activity_code="group.delete"))
    assert not options.keep(dict(event, initiator_email="other@example.com"))
    assert not options.keep(dict(event, target_id="t2"))
    assert plugin.Options(dict(GOOD, initiator_id="sys")).keep({"initiator_id": "sys"})


def test_events_are_normalised_like_event_info_s():
    event, moment = plugin.normalise({"id": 7, "timestamp": "2026-01-10T08:00:01Z", "activity_code": "x",
                                      "meta": {"ok": True, "n": 3.0, "l": ["a", "b"], "none": None}})
    assert event["id"] == "7" and moment == at(1)
    assert event["meta"] == {"ok": "true", "n": "3", "l": "[a b]", "none": "<nil>"}
    assert plugin.normalise({"id": 1, "timestamp": "yesterday"}) is None
    assert plugin.normalise({"timestamp": "2026-01-10T08:00:01Z"}) is None
    assert plugin.normalise(["not", "an", "event"]) is None


def test_the_start_rules_take_the_first_answer_by_the_server_s_clock():
    assert plugin.Options(GOOD).start_rule == ("now",)
    assert plugin.Options(dict(GOOD, start="-30m")).start_rule == ("ago", 1800.0)
    assert plugin.Options(dict(GOOD, start="2026-01-10T08:00:00Z")).start_rule == ("at", at(0))
    server_now = at(3600)
    assert plugin.Position(("now",)).before_start("1", at(7200), server_now)  # all the first answer lists
    ago = plugin.Position(("ago", 60))
    assert ago.before_start("1", at(3539), server_now) and not ago.before_start("2", at(3540), server_now)
    since = plugin.Position(("at", at(10)))
    assert since.before_start("1", at(9), server_now) and not since.before_start("2", at(7200), server_now)
    # a state file of version 1: below its floor only the ids up to its top id are old (a higher one was stored
    # after its last poll, whatever its time stamp)
    v1 = plugin.Position(("v1", at(100), 41))
    assert v1.before_start("41", at(99), server_now) and not v1.before_start("42", at(0), server_now)
    assert not v1.before_start("7", at(100), server_now)
    assert not plugin.Position(None).before_start("1", at(0), server_now)  # after the first answer: by id alone


def test_the_position_knows_ids_whatever_their_time_stamps():
    position = plugin.Position(None)
    for event_id in ("1", "2", "3"):
        assert position.is_new(event_id)
        position.take(event_id)
    position.settle({"1", "2", "3"}, 3)
    assert not position.is_new("2") and position.top_id == 3 and position.is_new("4")
    # an id no longer listed is still known: an answer that lists it again does not bring it back
    position.settle({"2", "3"}, 3)
    assert not position.is_new("1") and position.seen == {"1", "2", "3"}


def test_the_ids_remembered_are_bounded_by_the_answer_and_gone_limit(monkeypatch):
    monkeypatch.setattr(plugin, "GONE_LIMIT", 3)
    position = plugin.Position(None)
    for number in range(1, 11):
        position.take(str(number))
    position.settle({str(number) for number in range(6, 11)}, 10)  # the answer lists 6..10: 1..5 are gone
    # the listed ones always, and the 3 highest of those gone
    assert sorted(position.seen, key=int) == [str(number) for number in range(3, 11)]
    position.take("x")  # an id that is no number sorts above the numbers, and is listed
    position.settle({"x"} | {str(number) for number in range(8, 11)}, 10)
    assert sorted(position.seen, key=lambda key: (not key.isdigit(), int(key) if key.isdigit() else 0)) \
        == ["5", "6", "7", "8", "9", "10", "x"]


def test_the_state_file_round_trip_is_atomic_and_holds_no_token(tmp_path):
    path = tmp_path / "position.json"
    options = plugin.Options(dict(GOOD, state_file=str(path)), now=at(0))
    position, resumed = plugin.load_position(options)
    assert not resumed and position.pending == ("now",)
    plugin.save_position(options, position)  # before the first answer was taken: nothing to resume from
    assert not path.exists()
    position.pending = None
    for event_id in [str(n) for n in range(1, 10001) if n != 500] + ["007", "abc"]:
        position.take(event_id)
    position.settle(set(position.seen), 10000)
    plugin.save_position(options, position)
    assert os.listdir(str(tmp_path)) == ["position.json"]
    text = path.read_text(encoding="utf-8")
    assert TOKEN not in text and len(text) < 200, text  # 10,001 ids as two ranges and two strings
    saved = json.loads(text)
    assert saved == {"version": 2, "api_url": "https://nms.example.com", "top_id": 10000,
                     "seen": [[1, 499], [501, 10000], "007", "abc"]}
    again, resumed = plugin.load_position(plugin.Options(dict(GOOD, state_file=str(path), start="-1h")))
    assert resumed and again.seen == position.seen and again.top_id == 10000 and again.pending is None
    for damage, why in (({"version": 2}, "seen missing"), ({"version": 2, "seen": [[5, 1]]}, "seen holds [5, 1]"),
                        ({"version": 2, "seen": [[0, 10 ** 9]]}, "seen holds [0, 1000000000]"),
                        ({"version": 2, "seen": [], "top_id": "9"}, "top_id is not a number"),
                        ({"version": 3, "seen": []}, "not a state file of version 1 or 2")):
        path.write_text(json.dumps(damage), encoding="utf-8")
        with pytest.raises(ValueError, match=r"state_file: .* is damaged \(%s" % re.escape(why)):
            plugin.load_position(options)


def test_a_state_file_of_version_1_is_resumed_and_written_as_version_2(tmp_path):
    path = tmp_path / "position.json"
    path.write_text(json.dumps({"version": 1, "api_url": "https://nms.example.com", "watermark": "2026-01-10T08:01:40Z",
                                "floor": "2026-01-10T08:00:40Z", "top_id": 41,
                                "seen": {"40": "2026-01-10T08:01:00Z", "41": "2026-01-10T08:01:40Z"}}),
                    encoding="utf-8")
    position, resumed = plugin.load_position(plugin.Options(dict(GOOD, state_file=str(path))))
    assert resumed and position.pending == ("v1", at(40), 41) and position.seen == {"40", "41"}
    path.write_text(json.dumps({"version": 1, "watermark": "x", "floor": "y", "seen": {}}), encoding="utf-8")
    with pytest.raises(ValueError, match=r"state_file: .* is damaged \(watermark, floor or seen missing\)"):
        plugin.load_position(plugin.Options(dict(GOOD, state_file=str(path))))


def test_the_server_s_clock_is_read_from_its_date_header():
    assert plugin._server_time("Sat, 10 Jan 2026 08:00:00 GMT") == at(0)  # pylint: disable=protected-access
    assert plugin._server_time(None) is None and plugin._server_time("soon") is None  # pylint: disable=protected-access


def test_a_failure_is_logged_once_until_it_changes_or_five_minutes_pass(caplog):
    source = plugin.AuditEventSource.__new__(plugin.AuditEventSource)
    source.options = plugin.Options(GOOD)
    source.client = plugin.Client(source.options)
    source.failing = None
    for moment in (0, 10, 20):
        source.failed(plugin.PollError("GET x failed with HTTP 503: busy (token %s)" % TOKEN), moment)
    source.failed(plugin.PollError("GET x: no answer"), 30)
    source.failed(plugin.PollError("GET x: no answer"), 30 + plugin.REPEAT_ERROR_SECONDS)
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 3, messages
    assert "(token (hidden))" in messages[0] and TOKEN not in " ".join(messages)
    assert "(4 polls in a row)" in messages[1] and "(5 polls in a row)" in messages[2]
