# -*- coding: utf-8 -*-
"""The event source nms.overlay.audit_events (extensions/eda/plugins/event_source/audit_events.py) driven with an
asyncio.Queue against the emulator, both dialects: each event once, oldest first, from the start, across restarts
(state file), late events however late, skewed server clocks, an id listed twice, over the 10,000 events a list holds,
failed polls.

The plugin is loaded from its file, as ansible-rulebook loads it (no Ansible import). The second part runs
ansible-rulebook itself (of ``make eda-venv``, NMS_EDA_BIN) with the example rulebooks of extensions/eda/rulebooks:
a change (an agent joining, a playbook) and the rulebook's reaction, observed within a timeout. ``make eda`` runs this
file and test_real_eda.py; ``make integration`` leaves them out.
"""

from __future__ import annotations

import asyncio
import datetime
import http.server
import importlib.util
import json
import logging
import os
import shutil
import signal
import subprocess
import threading
import time

import pytest
import yaml

from tests.support.emulator import REPO_ROOT, make_peers

SOURCES = os.path.join(REPO_ROOT, "extensions", "eda", "plugins", "event_source")
PLUGIN = os.path.join(SOURCES, "audit_events.py")
INTERVAL = 0.1


def load_plugin(name="audit_events"):
    spec = importlib.util.spec_from_file_location("nms_overlay_%s" % name, os.path.join(SOURCES, "%s.py" % name))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


audit_events = load_plugin()
peer_status = load_plugin("peer_status")


def source_args(emulator, **args):
    return dict(dict(api_url=emulator.url, api_token=emulator.token, interval=INTERVAL), **args)


class Running:
    """The source as a task of its own loop, in a ``with`` block: ``act(...)`` runs blocking calls (the test's API
    calls) in a thread meanwhile, ``polls(n)`` waits until n more polls have been made, ``events`` is what was put on
    the queue; the end of the block cancels the source, as ansible-rulebook does when it stops."""

    def __init__(self, args, make=None):
        self.args = args
        self.make = make or audit_events.main  # make(queue, args): the source's coroutine
        self.events = []

    async def _collect(self, queue):
        while True:
            self.events.append(await queue.get())

    async def start(self):
        self.queue = asyncio.Queue()
        self.task = asyncio.create_task(self.make(self.queue, self.args))
        self.collector = asyncio.create_task(self._collect(self.queue))
        await asyncio.sleep(0)

    async def polls(self, source_requests, count):
        """Wait until ``count`` more polls are done: one request more has reached the server (``source_requests``
        counts them), since the source makes its next request only after it handled the answer to the last one."""
        target = source_requests() + count + 1
        deadline = time.monotonic() + POLLS_TIMEOUT
        while time.monotonic() < deadline:
            if self.task.done():
                self.task.result()  # raises what the source raised
                raise AssertionError("the source ended")
            if source_requests() >= target:
                await asyncio.sleep(0.01)
                return
            await asyncio.sleep(0.02)
        raise AssertionError("the source made no %d polls in time" % count)

    async def stop(self):
        self.task.cancel()
        try:
            await self.task
        except asyncio.CancelledError:
            pass
        await asyncio.sleep(0)
        self.collector.cancel()
        try:
            await self.collector
        except asyncio.CancelledError:
            pass
        while not self.queue.empty():
            self.events.append(self.queue.get_nowait())


def codes_names(events):
    return [(event["audit"]["activity_code"], event["audit"]["meta"].get("name")) for event in events]


def event_polls(emulator):
    """The polls that reached the server (v0.27's first poll asks /api/events/audit first, which answers 404)."""
    return len([r for r in emulator.requests() if r["path"].startswith("/api/events") and r["status"] != 404])


ARRIVAL_TIMEOUT = 30
# at most this long Running.polls waits for its polls (on a loaded machine a poll every 0.3 s can stall seconds)
POLLS_TIMEOUT = 60


def drive(emulator, args, steps, polls=3, arrivals=(), make=None, counter=None):
    """Start the source, then for each step: run it (a function of the emulator, in a thread) and wait for ``polls``
    polls. ``arrivals``: for each step, how many events must be on the queue before those polls start (a real server
    stores its events a little later; waited for up to ARRIVAL_TIMEOUT seconds, poll by poll). Returns the events put
    on the queue. ``make`` and ``counter``: another source (Running) and what counts its polls (audit_events' by
    default, counted in the server's request log)."""
    counter = counter or (lambda: event_polls(emulator))

    async def scenario():
        running = Running(args, make)
        await running.start()
        try:
            await running.polls(counter, 1)
            for step, count in zip(steps, list(arrivals) + [0] * len(steps)):
                await asyncio.to_thread(step, emulator)
                deadline = time.monotonic() + ARRIVAL_TIMEOUT
                while len(running.events) < count and time.monotonic() < deadline:
                    await running.polls(counter, 1)
                await running.polls(counter, polls)
        finally:
            await running.stop()
        return running.events
    return asyncio.run(scenario())


def group(name):
    return lambda emulator: emulator.ok("POST", "/api/groups", {"name": name, "peers": []})


def test_each_new_event_once_oldest_first_from_now(emulator):
    emulator.ok("POST", "/api/groups", {"name": "before-start", "peers": []})
    emulator.clear_log()
    events = drive(emulator, source_args(emulator), [group("g1"), group("g2"), group("g3")])
    assert codes_names(events) == [("group.add", "g1"), ("group.add", "g2"), ("group.add", "g3")]
    ids = [event["audit"]["id"] for event in events]
    assert all(isinstance(i, str) for i in ids) and ids == sorted(ids, key=int)
    # the log's path found once: v0.27 has only /api/events, /api/events/audit answers 404 there (one request)
    paths = [r["path"] for r in emulator.requests() if r["path"].startswith("/api/events")]
    if emulator.dialect == "current":
        assert set(paths) == {"/api/events/audit"}, paths
    else:
        assert paths[0] == "/api/events/audit" and set(paths[1:]) == {"/api/events"}, paths
        assert [r["status"] for r in emulator.requests() if r["path"] == "/api/events/audit"] == [404]
    assert len(paths) >= 10  # 3 steps x 3 polls: every event came once although every poll listed it again


def test_filters_like_event_info(emulator):
    peers = {}

    def enroll(emu):
        peers.update(make_peers(emu, "web-1"))
        emu.ok("POST", "/api/groups", {"name": "servers", "peers": []})
        emu.ok("PUT", "/api/peers/%s" % peers["web-1"],
               {"name": "web-1-fra", "ssh_enabled": False, "login_expiration_enabled": False})
    events = drive(emulator, source_args(emulator, activity_code=["peer.*", "setupkey.peer.*"]), [enroll])
    joined = "peer.setupkey.add" if emulator.dialect == "current" else "setupkey.peer.add"  # v0.77 renamed it
    assert [e["audit"]["activity_code"] for e in events] == [joined, "peer.rename"]
    assert events[1]["audit"]["target_id"] == peers["web-1"]
    assert events[1]["audit"]["meta"]["name"] == "web-1-fra"
    emulator.reset()
    events = drive(emulator, source_args(emulator, initiator_email="OWNER@example.com", activity_code="group.*"),
                   [group("a")])
    assert codes_names(events) == [("group.add", "a")]
    events = drive(emulator, source_args(emulator, target_id="nothing-has-this-id"), [group("b")])
    assert events == []


def test_start_time_is_honoured(emulator):
    emulator.ok("POST", "/api/groups", {"name": "old", "peers": []})
    emulator.ok("POST", "/api/groups", {"name": "newer", "peers": []})
    log = emulator.ok("GET", "/api/events")
    newer = [e for e in log if e["meta"].get("name") == "newer"][0]
    events = drive(emulator, source_args(emulator, start=newer["timestamp"]), [group("after")])
    assert codes_names(events) == [("group.add", "newer"), ("group.add", "after")]
    events = drive(emulator, source_args(emulator, start="-1h", activity_code=["group.add"]), [])
    assert codes_names(events) == [("group.add", n) for n in ("old", "newer", "after")]


def test_no_loss_and_no_duplicate_across_restarts(emulator, tmp_path):
    state = tmp_path / "position.json"
    args = source_args(emulator, state_file=str(state), activity_code=["group.add"])
    first = drive(emulator, args, [group("r1"), group("r2")])
    assert codes_names(first) == [("group.add", "r1"), ("group.add", "r2")]
    saved = json.loads(state.read_text(encoding="utf-8"))
    assert saved["version"] == 2 and emulator.token not in state.read_text(encoding="utf-8")
    # while the source is down
    for name in ("down1", "down2"):
        emulator.ok("POST", "/api/groups", {"name": name, "peers": []})
    # start=now is for a first run only: the state file says where to go on
    second = drive(emulator, dict(args, start="now"), [group("r3")])
    assert codes_names(second) == [("group.add", n) for n in ("down1", "down2", "r3")]
    third = drive(emulator, args, [])
    assert third == []
    assert not [name for name in os.listdir(str(tmp_path)) if name != "position.json"]  # no temporary file left


def _seed(timestamp=None, count=1, code="group.add", name="late"):
    def step(emulator):
        body = {"count": count, "activity_code": code, "meta": {"name": name}}
        if timestamp is not None:
            body["timestamp"] = timestamp
        emulator.control("POST", "/_emulator/events", body)
    return step


def test_an_event_stored_late_is_delivered_once_however_late(emulator, caplog):
    """Servers store events asynchronously: one may show up behind newer ones, with an older time stamp. However much
    older (here ten minutes), its id is new, so it is delivered, once."""
    now = datetime.datetime.now(datetime.timezone.utc)
    a_little_before = (now - datetime.timedelta(seconds=5)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    long_before = (now - datetime.timedelta(minutes=10)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    caplog.set_level(logging.WARNING)
    events = drive(emulator, source_args(emulator, start="-1m"),
                   [group("on-time"), _seed(a_little_before, name="late"), _seed(long_before, name="later")])
    assert codes_names(events) == [("group.add", "on-time"), ("group.add", "late"), ("group.add", "later")]
    # the listing has the late ones below on-time, as servers sort by time stamp
    listed = [e["meta"].get("name") for e in emulator.ok("GET", "/api/events")]
    assert listed.index("on-time") < listed.index("late") < listed.index("later")
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def clock(offset):
    """A step that sets the server's clock ``offset`` seconds ahead of the machine's (behind when negative)."""
    return lambda emulator: emulator.control("POST", "/_emulator/config", {"clock_offset": offset})


def test_a_server_clock_90_s_behind_loses_nothing_at_the_start(emulator, caplog):
    """The start is the server's: ``now`` is what its log lists at the first poll, ``-1m`` the last minute of its
    clock (its Date header); the controller's clock plays no part."""
    caplog.set_level(logging.WARNING)
    emulator.control("POST", "/_emulator/config", {"clock_offset": -90})
    emulator.ok("POST", "/api/groups", {"name": "before-start", "peers": []})
    events = drive(emulator, source_args(emulator), [group("g1"), group("g2")])
    assert codes_names(events) == [("group.add", "g1"), ("group.add", "g2")]
    stamps = [audit_events.parse_time(event["audit"]["timestamp"]) for event in events]
    behind = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=80)
    assert all(stamp < behind for stamp in stamps), stamps  # the emulator's clock was behind
    # a start before now counts back on the server's clock: the event stamped 30 s ago by it is in the last minute
    emulator.reset()
    emulator.control("POST", "/_emulator/config", {"clock_offset": -90})
    emulator.ok("POST", "/api/groups", {"name": "in-the-last-minute", "peers": []})
    _seed((datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=90 + 120)).strftime(
        "%Y-%m-%dT%H:%M:%S.%fZ"), name="two-minutes-ago")(emulator)
    events = drive(emulator, source_args(emulator, start="-1m"), [group("g3")])
    assert codes_names(events) == [("group.add", "in-the-last-minute"), ("group.add", "g3")]
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_one_event_stamped_an_hour_ahead_loses_no_later_event(emulator, caplog):
    """A server clock an hour ahead for one event, then set right: the later events, stamped an hour earlier than
    that one, are new all the same."""
    caplog.set_level(logging.WARNING)
    events = drive(emulator, source_args(emulator),
                   [clock(3600), group("ahead"), clock(0), group("after1"), group("after2")])
    assert codes_names(events) == [("group.add", "ahead"), ("group.add", "after1"), ("group.add", "after2")]
    stamps = [audit_events.parse_time(event["audit"]["timestamp"]) for event in events]
    assert stamps[0] - stamps[1] > datetime.timedelta(minutes=59), stamps
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_an_answer_that_lists_an_event_twice_delivers_it_once(emulator, caplog):
    caplog.set_level(logging.INFO)
    for name in ("d1", "d2"):
        emulator.ok("POST", "/api/groups", {"name": name, "peers": []})
    # the first poll's answer lists its newest event twice (on v0.27 the first GET is the 404 of /api/events/audit)
    emulator.set_faults({"queue": [{"duplicate": True, "index": 0, "method": "GET"}] * 2})
    events = drive(emulator, source_args(emulator, start="-1m", activity_code=["group.add"]), [group("d3")])
    assert codes_names(events) == [("group.add", "d1"), ("group.add", "d2"), ("group.add", "d3")]
    assert [r["path"] for r in emulator.requests() if r["fault"] == "duplicate" and r["status"] == 200][:1] \
        == ["/api/events/audit" if emulator.dialect == "current" else "/api/events"], emulator.requests()
    assert any("listed 1 event(s) a second time" in r.getMessage() for r in caplog.records)


def test_a_restart_between_polls_with_a_clock_that_jumped(emulator, tmp_path):
    """Across a restart with the state file: an event stamped an hour ahead, then events (while the source is down,
    and after) stamped an hour before it, and an answer that lists one of them twice: each delivered once."""
    state = tmp_path / "position.json"
    args = source_args(emulator, state_file=str(state), activity_code=["group.add"])
    first = drive(emulator, args, [group("r1"), clock(3600), group("ahead"), clock(0)])
    assert codes_names(first) == [("group.add", "r1"), ("group.add", "ahead")]
    for name in ("down1", "down2"):  # while the source is down
        emulator.ok("POST", "/api/groups", {"name": name, "peers": []})
    emulator.set_faults({"queue": [{"duplicate": True, "index": 1, "method": "GET"}] * 2})
    second = drive(emulator, dict(args, start="now"), [group("r2")])
    assert codes_names(second) == [("group.add", n) for n in ("down1", "down2", "r2")]
    assert drive(emulator, args, []) == []
    saved = json.loads(state.read_text(encoding="utf-8"))
    assert saved["version"] == 2 and emulator.token not in state.read_text(encoding="utf-8")


def test_a_state_file_of_version_1_is_resumed(emulator, tmp_path):
    """A state file of an earlier version (watermark, floor, the ids above the floor): what it delivered stays
    delivered, an event stored after its last poll is new even when stamped below its floor; then it is version 2."""
    for name in ("old", "delivered"):
        emulator.ok("POST", "/api/groups", {"name": name, "peers": []})
    listed = {e["meta"].get("name"): e for e in emulator.ok("GET", "/api/events") if e["activity_code"] == "group.add"}
    floor = audit_events.parse_time(listed["delivered"]["timestamp"])
    state = tmp_path / "position.json"
    state.write_text(json.dumps({
        "version": 1, "api_url": emulator.url, "top_id": int(listed["delivered"]["id"]),
        "watermark": audit_events.iso(floor), "floor": audit_events.iso(floor),
        "seen": {listed["delivered"]["id"]: audit_events.iso(floor)}}), encoding="utf-8")
    _seed((floor - datetime.timedelta(minutes=10)).strftime("%Y-%m-%dT%H:%M:%S.%fZ"), name="stored-late")(emulator)
    events = drive(emulator, source_args(emulator, state_file=str(state), activity_code=["group.add"]), [group("next")])
    assert codes_names(events) == [("group.add", "stored-late"), ("group.add", "next")]
    assert json.loads(state.read_text(encoding="utf-8"))["version"] == 2


def test_over_the_10000_events_a_list_holds(emulator, tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    state = tmp_path / "position.json"
    args = source_args(emulator, state_file=str(state), start="-1h", interval=0.3)
    # 10,500 events: the list holds the newest 10,000; every one of them is delivered once, oldest first
    emulator.control("POST", "/_emulator/events", {"count": 10500, "meta": {"name": "bulk"}})
    first = drive(emulator, args, [], polls=2)
    ids = [int(event["audit"]["id"]) for event in first]
    assert len(ids) == 10000 and len(set(ids)) == 10000 and ids == sorted(ids), (len(ids), ids[:3])
    assert any("the most a list holds" in r.getMessage() for r in caplog.records)
    assert not any("events were lost" in r.getMessage() for r in caplog.records)
    caplog.clear()
    # while the source is down, more than a list holds: the ones no longer listed are reported lost, by id
    top = max(ids)
    emulator.control("POST", "/_emulator/events", {"count": 10003, "meta": {"name": "bulk2"}})
    second = drive(emulator, args, [group("after")], polls=2)
    again = [int(event["audit"]["id"]) for event in second]
    assert len(again) == 10001 and not set(again) & set(ids) and again == sorted(again)
    lost = [r.getMessage() for r in caplog.records if "events were lost" in r.getMessage()]
    assert len(lost) == 1 and "ids %d to %d" % (top + 1, top + 3) in lost[0], lost
    # the ids remembered: those listed and the 10,000 highest of those no longer listed, as ranges
    seen = json.loads(state.read_text(encoding="utf-8"))["seen"]
    assert sum(last - first + 1 for first, last in seen) <= 20000 and len(state.read_text(encoding="utf-8")) < 300


def test_a_failed_poll_is_logged_once_and_tried_again(emulator, caplog):
    caplog.set_level(logging.INFO)
    faults = [dict(kind=kind, method="GET") for kind in ("503", "503", "503", "truncated")]

    def failing(emu):
        emu.set_faults({"queue": faults})
        emu.ok("POST", "/api/groups", {"name": "through", "peers": []})  # the faults wait for GETs

    events = drive(emulator, source_args(emulator, start="-1m", activity_code=["group.add"]), [failing], polls=6)
    assert codes_names(events) == [("group.add", "through")]
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 2, errors  # the 503 once (three polls), the truncated answer once
    assert "HTTP 503" in errors[0] and emulator.token not in " ".join(errors)
    assert any("polls work again after 4 failed" in r.getMessage() for r in caplog.records)


def test_bad_arguments_name_the_argument(emulator, tmp_path):
    good = source_args(emulator)
    cases = [
        (dict(good, api_url="ftp://x"), "api_url"),
        (dict(good, api_token=""), "api_token"),
        (dict(good, interval=0), "interval"),
        (dict(good, timeout="soon"), "timeout"),
        (dict(good, start="yesterday"), "start"),
        (dict(good, interval="-5"), "interval"),
        (dict(good, overlap=60), "unknown argument(s) overlap"),
        (dict(good, state_file=str(tmp_path / "missing" / "f.json")), "state_file"),
        (dict(good, initiator_id="a", initiator_email="b@example.com"), "initiator_id, initiator_email"),
        (dict(good, activity_codes=["x"]), "unknown argument(s) activity_codes"),
    ]
    for args, name in cases:
        with pytest.raises(ValueError) as info:
            asyncio.run(audit_events.main(asyncio.Queue(), args))
        assert str(info.value).startswith(name), (name, str(info.value))
        assert emulator.token not in str(info.value)
    (tmp_path / "damaged.json").write_text("{", encoding="utf-8")
    with pytest.raises(ValueError, match="state_file: .* cannot be read"):
        asyncio.run(audit_events.main(asyncio.Queue(), dict(good, state_file=str(tmp_path / "damaged.json"))))
    assert emulator.requests() == []


# --------------------------------------------------------------------------------------------
# ansible-rulebook for real

RULEBOOKS = os.path.join(REPO_ROOT, "extensions", "eda", "rulebooks")
REACTION_TIMEOUT = 90


def eda_bin():
    """The directory of ansible-rulebook (and of the ansible-playbook its actions run). Without it or without Java the
    test fails in CI (CI=true) and is skipped elsewhere."""
    directory = os.environ.get("NMS_EDA_BIN") or os.path.join(REPO_ROOT, ".build", "eda-venv", "bin")
    problems = []
    if not os.access(os.path.join(directory, "ansible-rulebook"), os.X_OK):
        problems.append("no ansible-rulebook in %s (make eda-venv makes it)" % directory)
    java_home = os.environ.get("JAVA_HOME")
    if not shutil.which("java") and not (java_home and os.access(os.path.join(java_home, "bin", "java"), os.X_OK)):
        problems.append("no Java runtime (java on PATH or JAVA_HOME), which ansible-rulebook needs (Debian: "
                        "default-jre-headless)")
    if problems:
        message = "; ".join(problems)
        if os.environ.get("CI", "").strip().lower() in ("true", "1", "yes"):
            pytest.fail("CI: %s" % message, pytrace=False)
        pytest.skip(message)
    return directory


class Webhook:
    """A webhook on 127.0.0.1 that keeps the JSON bodies POSTed to it."""

    def __init__(self):
        self.bodies = []
        hook = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):  # pylint: disable=arguments-differ
                pass

            def do_POST(self):  # pylint: disable=invalid-name
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                hook.bodies.append(json.loads(raw.decode("utf-8")))
                self.send_response(204)
                self.end_headers()

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d/hook" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def webhooks():
    """The ``webhook`` fixture's body (test_real_eda.py has the fixture too)."""
    hook = Webhook()
    yield hook
    hook.stop()


@pytest.fixture
def webhook():
    yield from webhooks()


class Rulebook:
    """``ansible-rulebook -r nms.overlay.NAME`` as a process of its own (a session: stopped with its children), against
    the server ``server`` (an emulator or a real one) with the rulebook variables ``variables``."""

    def __init__(self, bin_dir, collections_dir, workdir, name, server, variables):
        self.workdir = str(workdir)
        os.makedirs(self.workdir, exist_ok=True)
        inventory = os.path.join(self.workdir, "inventory.yml")
        with open(inventory, "w", encoding="utf-8") as handle:
            yaml.safe_dump({"all": {"hosts": {"localhost": {
                "ansible_connection": "local", "ansible_python_interpreter": os.path.join(bin_dir, "python")}}}},
                handle)
        var_file = os.path.join(self.workdir, "vars.yml")
        with open(var_file, "w", encoding="utf-8") as handle:
            yaml.safe_dump(dict({"nms_eda_interval": 1}, **variables), handle)
        env = {key: value for key, value in os.environ.items() if not key.startswith(("ANSIBLE_", "NMS_"))}
        env.update(PATH=bin_dir + os.pathsep + env.get("PATH", ""), ANSIBLE_COLLECTIONS_PATH=collections_dir,
                   ANSIBLE_LOCAL_TEMP=os.path.join(self.workdir, "tmp"), NMS_API_URL=server.url,
                   NMS_API_TOKEN=server.token, PYTHONUNBUFFERED="1", ANSIBLE_FORCE_COLOR="0", NO_COLOR="1")
        self.output_path = os.path.join(self.workdir, "ansible-rulebook.out")
        self.token = server.token
        with open(self.output_path, "wb") as out:
            self.process = subprocess.Popen(  # pylint: disable=consider-using-with
                [os.path.join(bin_dir, "ansible-rulebook"), "-r", "nms.overlay.%s" % name, "-i", inventory,
                 "-e", var_file, "-E", "NMS_API_URL,NMS_API_TOKEN", "-v"],
                cwd=self.workdir, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True)

    def output(self):
        with open(self.output_path, encoding="utf-8", errors="replace") as handle:
            return handle.read()

    def wait_for(self, what, check, timeout=REACTION_TIMEOUT):
        """Wait until ``check()`` is true; fail with ansible-rulebook's output when it ends first or time runs out."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if check():
                return
            if self.process.poll() is not None:
                pytest.fail("ansible-rulebook ended (exit %s) before %s:\n%s"
                            % (self.process.returncode, what, self.output()[-6000:]), pytrace=False)
            time.sleep(0.2)
        pytest.fail("no %s within %ss; ansible-rulebook's output:\n%s" % (what, timeout, self.output()[-6000:]),
                    pytrace=False)

    def wait_ready(self, ready="the audit log is "):
        """Until the source made its first poll (it then delivers only what happens from now on): until ``ready``, what
        the source logs then, shows in the output."""
        self.wait_for("first poll of the source", lambda: ready in self.output(), timeout=60)

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        assert self.token not in self.output(), "the API token shows in ansible-rulebook's output"


def rulebooks(tmp_path, collections_dir):
    """The ``rulebook`` fixture's body (test_real_eda.py has the fixture too)."""
    bin_dir = eda_bin()
    started = []

    def start(name, server, ready="the audit log is ", **variables):
        book = Rulebook(bin_dir, collections_dir, tmp_path / ("rulebook%d" % len(started)), name, server, variables)
        started.append(book)
        book.wait_ready(ready)
        return book

    yield start
    for book in started:
        book.stop()


@pytest.fixture
def rulebook(tmp_path, collections_dir):
    """``rulebook(name, server, **variables)`` starts one (waiting for its first poll); all stop at the end."""
    yield from rulebooks(tmp_path, collections_dir)


def test_example_rulebooks_are_valid_for_ansible_rulebook(collections_dir):
    """Every example rulebook passes ansible-rulebook's schema and its parser (conditions, the source found in the
    collection), with the ansible-rulebook of make eda-venv."""
    bin_dir = eda_bin()
    names = sorted(name for name in os.listdir(RULEBOOKS) if name.endswith(".yml"))
    assert len(names) == 6, names
    script = """
import json, os, sys, yaml, jsonschema, ansible_rulebook
from ansible_rulebook.conf import settings
from ansible_rulebook.rules_parser import parse_rule_sets
settings.ansible_galaxy_path = os.path.join(os.path.dirname(sys.executable), "ansible-galaxy")
root = os.path.dirname(ansible_rulebook.__file__)
schema = json.load(open(os.path.join(root, "schema", "ruleset_schema.json")))
for path in sys.argv[1:]:
    data = yaml.safe_load(open(path))
    jsonschema.validate(data, schema)
    rulesets = parse_rule_sets(data, {"nms_eda_trusted_emails": "@example[.]com$", "nms_eda_webhook_url": "http://x"})
    print(os.path.basename(path), [rule.name for ruleset in rulesets for rule in ruleset.rules])
"""
    done = subprocess.run([os.path.join(bin_dir, "python"), "-c", script] + [os.path.join(RULEBOOKS, n) for n in names],
                          env=dict(os.environ, ANSIBLE_COLLECTIONS_PATH=collections_dir), capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(done.stdout.splitlines()) == 6, done.stdout


def test_name_new_peers_renames_a_peer_that_joined(emulator, rulebook):
    book = rulebook("name_new_peers", emulator)
    key = emulator.ok("POST", "/api/setup-keys", {"name": "Web Servers", "type": "reusable", "expires_in": 86400,
                                                  "auto_groups": [], "usage_limit": 0, "revoked": False,
                                                  "ephemeral": False})
    peer = emulator.enroll(key["key"], "web-1")
    emulator.clear_log()

    def renamed():
        return emulator.ok("GET", "/api/peers/%s" % peer["id"])["name"] == "web-servers-web-1"
    book.wait_for("rename of the new peer", renamed)
    time.sleep(3)  # three more polls: the event is acted on once
    puts = [r for r in emulator.writes() if r["path"].startswith("/api/peers/")]
    assert [r["method"] for r in puts] == ["PUT"], emulator.writes()


def group_members(server):
    """{group name: sorted names of its peers} of a server (an emulator or a real one)."""
    return {g["name"]: sorted(p["name"] for p in g.get("peers") or []) for g in server.ok("GET", "/api/groups")}


@pytest.mark.dialects("netbird")  # both dialects record a join alike; the real servers' codes: test_real_eda.py
def test_group_new_peers_puts_each_peer_that_joined_into_its_hostname_s_group(emulator, rulebook):
    book = rulebook("group_new_peers", emulator, nms_eda_group_prefix="hosts-")
    fleet = emulator.ok("POST", "/api/groups", {"name": "fleet", "peers": []})
    key = emulator.ok("POST", "/api/setup-keys", {"name": "fleet", "type": "reusable", "expires_in": 86400,
                                                  "auto_groups": [fleet["id"]], "usage_limit": 0, "revoked": False,
                                                  "ephemeral": False})
    for host in ("web-1", "web-02"):
        emulator.enroll(key["key"], host)
    emulator.clear_log()
    book.wait_for("both peers in hosts-web", lambda: group_members(emulator).get("hosts-web") == ["web-02", "web-1"])
    time.sleep(3)  # three more polls: each event is acted on once
    assert group_members(emulator)["fleet"] == ["web-02", "web-1"]  # the key's auto group kept
    assert [r["path"] for r in emulator.writes() if r["method"] == "POST"] == ["/api/groups"]  # made once


@pytest.mark.dialects("current")
def test_approve_pending_users_lets_in_a_trusted_user_only(emulator, rulebook):
    book = rulebook("approve_pending_users", emulator, nms_eda_trusted_emails="@example[.]com$")
    users = {}
    for email in ("alice@example.com", "mallory@example.org"):
        user = emulator.add_user(email=email, pending_approval=True, is_blocked=True)
        users[email] = user["id"]
        # what the server records when a user joins by domain matching
        emulator.control("POST", "/_emulator/events", {"activity_code": "user.join", "initiator_id": user["id"],
                                                       "target_id": user["id"]})

    def pending():
        return {u["email"]: u.get("pending_approval") for u in emulator.ok("GET", "/api/users") if u["email"] in users}
    book.wait_for("approval of alice", lambda: pending().get("alice@example.com") is False)
    time.sleep(3)
    assert pending() == {"alice@example.com": False, "mallory@example.org": True}
    approvals = [r["path"] for r in emulator.writes() if r["path"].endswith("/approve")]
    assert approvals == ["/api/users/%s/approve" % users["alice@example.com"]], emulator.writes()


@pytest.mark.dialects("netbird")
def test_alert_on_a_policy_made_by_a_playbook(emulator, rulebook, run):
    book = rulebook("alert_on_policy_and_dns_changes", emulator)
    made = run([{"name": "Make a policy", "nms.overlay.group": {"name": "eda-ops"}},
                {"name": "Policy", "nms.overlay.policy": {"name": "eda ops to ops", "rules": [{
                    "name": "ops", "sources": ["eda-ops"], "destinations": ["eda-ops"], "bidirectional": True,
                    "protocol": "all", "action": "accept"}]}}], ansible=True)
    assert made.rc == 0, made
    book.wait_for("alert", lambda: "ALERT Policy added (policy.add): eda ops to ops" in book.output())
    assert "group.add" not in book.output().split("ALERT", 1)[1]  # filtered out by the source


@pytest.mark.dialects("current")
def test_forward_to_webhook_posts_each_event_of_a_playbook_once(emulator, rulebook, run, webhook, tmp_path):
    state = tmp_path / "position.json"
    book = rulebook("forward_to_webhook", emulator, nms_eda_webhook_url=webhook.url, nms_eda_state_file=str(state))
    made = run([{"name": "Group", "nms.overlay.group": {"name": "eda-made"}}], ansible=True)
    assert made.rc == 0, made

    def posted():
        return [(b.get("activity_code"), b.get("meta", {}).get("name")) for b in webhook.bodies]
    book.wait_for("POST of the group.add event", lambda: ("group.add", "eda-made") in posted())
    time.sleep(3)
    assert posted() == [("group.add", "eda-made")], posted()
    assert json.loads(state.read_text(encoding="utf-8"))["seen"]


# --------------------------------------------------------------------------------------------
# nms.overlay.peer_status against the emulator

def drive_peers(server, args, steps, polls=3, arrivals=()):
    """``drive`` for nms.overlay.peer_status: its polls counted by its own client (a test's or an agent helper's GET
    /api/peers reaches the server's log too)."""
    made = {}

    def make(queue, arguments):
        made["source"] = peer_status.PeerStatusSource(peer_status.Options(arguments))
        return made["source"].run(queue)
    return drive(server, args, steps, polls, arrivals, make=make,
                 counter=lambda: made["source"].client.requests if made else 0)


def changes(events):
    return [(event["peer_status"]["change"], event["peer_status"]["name"]) for event in events]


def status(**peers):
    """A step: the server records these peers' connected (True/False) or approval (a dict), as agents do."""
    def step(emulator):
        items = [dict({"id": peer_id}, **(value if isinstance(value, dict) else {"connected": value}))
                 for peer_id, value in peers.items()]
        emulator.control("POST", "/_emulator/peer-status", {"peers": items})
    return step


def test_peer_status_delivers_each_connect_disconnect_and_approval_once(emulator):
    """Peers that connect, disconnect, join (connected), wait for approval and are approved, a rename and a deletion:
    each change once, whatever the polls in between list again; the rename and the deletion are no change."""
    ids = make_peers(emulator, "web-1", "web-2", "db-1")
    status(**{ids["db-1"]: False})(emulator)
    steps = [status(**{ids["web-1"]: False}),
             status(**{ids["db-1"]: True}),
             lambda emu: make_peers(emu, "web-3"),
             lambda emu: emu.ok("PUT", "/api/peers/%s" % ids["web-2"],
                                {"name": "web-2-fra", "ssh_enabled": False, "login_expiration_enabled": False}),
             status(**{ids["web-2"]: False}),
             lambda emu: emu.ok("DELETE", "/api/peers/%s" % ids["db-1"]),
             status(**{ids["web-1"]: {"approval_required": True}}),
             status(**{ids["web-1"]: {"approval_required": False, "connected": True}})]
    events = drive_peers(emulator, source_args(emulator), steps)
    assert changes(events) == [("disconnected", "web-1"), ("connected", "db-1"), ("connected", "web-3"),
                               ("disconnected", "web-2-fra"), ("approval_required", "web-1"), ("connected", "web-1"),
                               ("approved", "web-1")], changes(events)
    event = events[0]["peer_status"]
    assert event["id"] == ids["web-1"] and event["connected"] is False and "All" in event["groups"]
    assert {r["path"] for r in emulator.requests() if r["method"] == "GET"} == {"/api/peers"}


def test_peer_status_loses_no_change_to_a_failed_poll_and_repeats_none(emulator, caplog):
    """A 503 three times, then an answer cut short, while a peer disconnects: the change comes once, with the first
    poll that works; each failure is logged once, without the token."""
    caplog.set_level(logging.INFO)
    ids = make_peers(emulator, "web-1")

    def failing(emu):
        emu.set_faults({"queue": [dict(kind=kind, method="GET", path="/api/peers")
                                  for kind in ("503", "503", "503", "truncated")]})
        status(**{ids["web-1"]: False})(emu)
    events = drive_peers(emulator, source_args(emulator), [failing], polls=6)
    assert changes(events) == [("disconnected", "web-1")]
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 2 and "HTTP 503" in errors[0] and emulator.token not in " ".join(errors), errors
    assert any("polls work again after 4 failed" in r.getMessage() for r in caplog.records)


def test_peer_status_resumes_from_its_state_file(emulator, tmp_path):
    state = tmp_path / "peers.json"
    ids = make_peers(emulator, "web-1", "web-2")
    args = source_args(emulator, state_file=str(state))
    assert changes(drive_peers(emulator, args, [status(**{ids["web-1"]: False})])) == [("disconnected", "web-1")]
    status(**{ids["web-2"]: False, ids["web-1"]: True})(emulator)  # while the source is down
    again = drive_peers(emulator, args, [status(**{ids["web-2"]: True})])
    assert changes(again) == [("connected", "web-1"), ("disconnected", "web-2"), ("connected", "web-2")] or \
        changes(again) == [("disconnected", "web-2"), ("connected", "web-1"), ("connected", "web-2")], changes(again)
    assert drive_peers(emulator, args, []) == []
    assert emulator.token not in state.read_text(encoding="utf-8")


def test_bad_peer_status_arguments_name_the_argument_before_any_request(emulator):
    for args, name in ((dict(source_args(emulator), changes=["online"]), "changes"),
                       (dict(source_args(emulator), activity_code=["peer.*"]), "unknown argument(s) activity_code")):
        with pytest.raises(ValueError) as info:
            asyncio.run(peer_status.main(asyncio.Queue(), args))
        assert str(info.value).startswith(name), str(info.value)
    assert emulator.requests() == []


@pytest.mark.dialects("current")
def test_report_peer_status_tells_each_change_once(emulator, rulebook):
    """The example rulebook with ansible-rulebook: a peer that joins, one that disconnects, one waiting for approval,
    each told once (three more polls later, still once)."""
    ids = make_peers(emulator, "web-1")
    book = rulebook("report_peer_status", emulator, ready="the peers of ")
    joined = make_peers(emulator, "web-2")
    status(**{ids["web-1"]: False})(emulator)
    status(**{joined["web-2"]: {"approval_required": True}})(emulator)
    lines = ["PEER web-2 (", ") connected", "PEER web-1 (", "disconnected, last seen", "waits for approval"]
    book.wait_for("the three changes told", lambda: all(part in book.output() for part in lines))
    time.sleep(3)
    told = [line for line in book.output().splitlines() if "PEER " in line and "msg" not in line]
    assert sorted(line.split("PEER ", 1)[1].split(" (")[0] + " " + line.rsplit(")", 1)[1].split(",")[0].strip()
                  for line in told) == ["web-1 disconnected", "web-2 connected", "web-2 waits for approval"], told
