# -*- coding: utf-8 -*-
"""The event source nms.overlay.peer_status with a fake client (scripted answers of GET /api/peers): each change of a
peer's connection or approval once, whatever an answer does (a 5xx, an answer that is no list, a peer left out or
listed twice, a rename, a deletion, time stamps from clocks that disagree), across a restart with its state file and
a cancellation in the middle of a poll's changes; its arguments; that it shares audit_events.py's code."""

from __future__ import annotations

import ast
import asyncio
import importlib.util
import json
import logging
import os
import sys

import pytest
import yaml

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCES = os.path.join(REPO_ROOT, "extensions", "eda", "plugins", "event_source")
PLUGIN = os.path.join(SOURCES, "peer_status.py")
TOKEN = "nbp_" + "s3cret" * 6


def _load():
    spec = importlib.util.spec_from_file_location("nms_overlay_peer_status_unit", PLUGIN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


plugin = _load()
GOOD = {"api_url": "https://nms.example.com/api", "api_token": TOKEN}


def peer(peer_id, connected=True, name=None, approval=False, last_seen="2026-01-10T08:00:00Z", groups=("All",)):
    return {"id": peer_id, "name": name or peer_id, "hostname": peer_id, "ip": "100.64.0.1", "dns_label": peer_id,
            "connected": connected, "last_seen": last_seen, "approval_required": approval, "os": "linux",
            "version": "0.77.1", "user_id": "", "groups": [{"id": g.lower(), "name": g} for g in groups]}


class FakeClient:
    """Answers GET /api/peers from a list: a list of peers, an exception (raised), or anything else (returned)."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.paths = []

    def get(self, path):
        self.paths.append(path)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    def scrub(self, text):
        return str(text).replace(TOKEN, "(hidden)")


def source(answers, **args):
    made = plugin.PeerStatusSource(plugin.Options(dict(GOOD, **args), environ={}))
    made.client = FakeClient(answers)
    return made


def polls(made, count, queue=None):
    """``count`` polls as run() makes them (a PollError logged and the next poll made): the changes of each."""
    queue = queue or asyncio.Queue()

    async def scenario():
        seen = []
        for dummy in range(count):
            try:
                answer = await asyncio.to_thread(made.poll)
            except plugin.shared.PollError as exc:
                made.failed(exc, 0.0)
                seen.append(None)
                continue
            await made.deliver(queue, *answer)
            batch = []
            while not queue.empty():
                event = queue.get_nowait()["peer_status"]
                batch.append((event["change"], event["name"]))
            seen.append(batch)
        return seen
    return asyncio.run(scenario())


def test_imports_only_the_standard_library_and_shares_audit_events_code():
    tree = ast.parse(open(PLUGIN, encoding="utf-8").read())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    assert names <= set(sys.stdlib_module_names) | {"__future__"}, names
    # the connection, the client, the poll loop and the state file are audit_events.py's, not copies
    assert issubclass(plugin.Options, plugin.shared.SourceOptions)
    assert issubclass(plugin.PeerStatusSource, plugin.shared.Poller)
    defined = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    assert not defined & {"Client", "SourceOptions", "Poller", "write_state", "read_state", "_NoRedirect"}, defined
    documentation = yaml.safe_load(plugin.DOCUMENTATION)
    assert set(documentation["options"]) == set(plugin.ARGS)
    assert documentation["options"]["changes"]["choices"] == list(plugin.CHANGES)
    assert yaml.safe_load(plugin.EXAMPLES)[0]["sources"][0]["nms.overlay.peer_status"]


def test_a_change_is_delivered_once_and_the_first_poll_learns():
    made = source([[peer("a"), peer("b", False)], [peer("a"), peer("b", False)], [peer("a", False), peer("b")],
                   [peer("a", False), peer("b")], [peer("a", False), peer("b")]])
    assert polls(made, 5) == [[], [], [("disconnected", "a"), ("connected", "b")], [], []]
    assert made.client.paths == ["/api/peers"] * 5


def test_new_peers_a_deleted_one_and_one_that_comes_back():
    made = source([[peer("a")],
                   [peer("a"), peer("new", True), peer("quiet", False)],  # a joins connected, one never connected
                   [peer("a"), peer("quiet", True)],                      # new deleted: nothing; quiet connects
                   [peer("a"), peer("quiet", True), peer("new", True)],   # new listed again as it was: nothing
                   [peer("a"), peer("quiet", True), peer("new", False)]])
    assert polls(made, 5) == [[], [("connected", "new")], [("connected", "quiet")], [], [("disconnected", "new")]]


def test_a_failed_poll_loses_no_change_and_repeats_none(caplog):
    caplog.set_level(logging.INFO)
    made = source([[peer("a")], plugin.shared.PollError("GET https://nms.example.com/api/peers failed with HTTP 503"),
                   {"message": "not a list"}, [peer("a", False)], [peer("a", False)]])
    assert polls(made, 5) == [[], None, None, [("disconnected", "a")], []]
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 2 and "HTTP 503" in errors[0] and "list of peers" in errors[1], errors


def test_an_answer_that_leaves_a_peer_out_or_lists_it_twice():
    """A peer left out of an answer (cut short at a page, a server's bug) is remembered: listed again unchanged it is
    nothing, changed it is one change; one listed twice counts once (its first item)."""
    made = source([[peer("a"), peer("b")], [peer("b")], [peer("a"), peer("b")], [peer("b")],
                   [peer("a", False), peer("a", True), peer("b")]])
    assert polls(made, 5) == [[], [], [], [], [("disconnected", "a")]]


def test_a_rename_is_the_same_peer_and_clocks_decide_nothing():
    made = source([[peer("a", name="web-1", last_seen="2026-01-10T08:00:00Z")],
                   [peer("a", name="web-1-fra", last_seen="2031-01-01T00:00:00Z")],   # renamed, a clock ahead
                   [peer("a", name="web-1-fra", last_seen="2001-01-01T00:00:00Z")],   # a clock set back
                   [peer("a", False, name="web-1-fra", last_seen="2001-01-01T00:00:01Z"),
                    peer("b", True, last_seen="1999-01-01T00:00:00Z"), peer("c", True, last_seen="not a time")]])
    # one poll's changes in the order of last_seen (order only; a bad one first), then id
    assert polls(made, 4) == [[], [], [], [("connected", "c"), ("connected", "b"), ("disconnected", "web-1-fra")]]


def test_approval_and_the_changes_filter():
    made = source([[peer("a", False)], [peer("a", False, approval=True)], [peer("a", True, approval=False)],
                   [peer("a", False)]], changes=["approval_required", "approved"])
    assert polls(made, 4) == [[], [("approval_required", "a")], [("approved", "a")], []]
    assert made.position.listed == {"a": (False, False)}  # the changes filtered out are taken all the same


def test_report_initial_and_items_that_are_no_peers(caplog):
    caplog.set_level(logging.WARNING)
    odd = peer("a", False)
    odd["connected"] = "yes"
    made = source([[peer("a"), peer("b", False, approval=True), peer("c", False), {"id": 7}, "x"],
                   [odd, peer("b", False, approval=True), peer("c", False)], [peer("a"), peer("c", False)]],
                  report_initial=True)
    assert polls(made, 3) == [[("connected", "a"), ("approval_required", "b")], [], []]
    assert any("have no id or no connected status" in r.getMessage() for r in caplog.records)


def test_a_restart_with_the_state_file_delivers_what_happened_meanwhile_once(tmp_path):
    state = tmp_path / "peers.json"
    first = source([[peer("a"), peer("b", False)], [peer("a", False), peer("b", False)]], state_file=str(state))
    assert polls(first, 2) == [[], [("disconnected", "a")]]
    saved = state.read_text(encoding="utf-8")
    assert TOKEN not in saved and json.loads(saved)["peers"] == {"a": [False, False], "b": [False, False]}
    # while it was down: b connected, a still down, c joined and went
    second = source([[peer("a", False), peer("b", True)], [peer("a", False), peer("b", True)]], state_file=str(state))
    assert polls(second, 2) == [[("connected", "b")], []]
    third = source([[peer("a", False), peer("b", True)]], state_file=str(state))
    assert polls(third, 1) == [[]]
    assert os.listdir(str(tmp_path)) == ["peers.json"]


def test_a_source_cancelled_while_it_delivers_delivers_the_rest_next_time(tmp_path):
    state = tmp_path / "peers.json"
    made = source([[peer("a"), peer("b")], [peer("a", False), peer("b", False)]], state_file=str(state))
    assert polls(made, 1) == [[]]

    class Stopping(asyncio.Queue):
        """ansible-rulebook stopping the source while it puts the second change on the queue."""
        def __init__(self):
            super().__init__()
            self.puts = 0

        async def put(self, item):
            self.puts += 1
            if self.puts == 2:
                raise asyncio.CancelledError
            await super().put(item)

    queue = Stopping()

    async def interrupted():
        answer = await asyncio.to_thread(made.poll)
        with pytest.raises(asyncio.CancelledError):
            await made.deliver(queue, *answer)
        made.save()  # what run() does as it ends
    asyncio.run(interrupted())
    assert queue.get_nowait()["peer_status"]["name"] == "a" and queue.empty()
    again = source([[peer("a", False), peer("b", False)]], state_file=str(state))
    assert polls(again, 1) == [[("disconnected", "b")]]


def test_the_peers_no_longer_listed_are_remembered_up_to_a_limit(monkeypatch):
    monkeypatch.setattr(plugin, "GONE_LIMIT", 2)
    made = source([[peer("a"), peer("b"), peer("c")], [], [peer("a"), peer("b"), peer("c")]])
    assert polls(made, 3) == [[], [], [("connected", "a")]]  # a was forgotten (the oldest), b and c were known


def test_bad_arguments_and_state_files_name_what_is_wrong(tmp_path):
    cases = [({"changes": ["up"]}, "changes"), ({"changes": []}, "changes"), ({"report_initial": "maybe"},
             "report_initial"), ({"interval": 0}, "interval"), ({"start": "now"}, "unknown argument(s) start"),
             ({"api_url": "ftp://x"}, "api_url")]
    for args, name in cases:
        with pytest.raises(ValueError) as info:
            plugin.Options(dict(GOOD, **args), environ={})
        assert str(info.value).startswith(name), (args, str(info.value))
    audit_state = tmp_path / "audit.json"
    audit_state.write_text(json.dumps({"version": 2, "api_url": "https://nms.example.com", "top_id": 1, "seen": []}))
    damaged = tmp_path / "damaged.json"
    damaged.write_text(json.dumps({"version": 1, "source": "nms.overlay.peer_status", "api_url": "x",
                                   "peers": {"a": [True]}, "gone": []}))
    for path, why in ((audit_state, "not a state file of nms.overlay.peer_status"), (damaged, "peer 'a'")):
        with pytest.raises(ValueError, match="state_file: .*%s" % why):
            plugin.PeerStatusSource(plugin.Options(dict(GOOD, state_file=str(path)), environ={}))
