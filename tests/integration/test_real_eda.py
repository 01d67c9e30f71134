# -*- coding: utf-8 -*-
"""The event source and the example rulebooks against the real NetBird v0.27.6 and v0.77.1 (tests/support/realserver.py,
``make eda`` with the real servers' kit): a playbook makes changes or real agents join (tests/support/realagents.py),
the source delivers each event once, the rulebook reacts, observed within a timeout.

The rulebook harness (ansible-rulebook of ``make eda-venv``, a webhook) is test_eda_source.py's.

What a join makes, seen here on both releases: one event per peer, and nothing else (the setup key's auto groups
record no event, an agent that leaves and comes back none): ``setupkey.peer.add`` on v0.27.6, ``peer.setupkey.add``
on v0.77.1 (the codes changed in v0.39), with the meta ``name`` (the hostname), ``fqdn``, ``ip``, ``created_at``,
``setup_key_name`` (v0.77.1 adds ``location_*``), the setup key's id as initiator and the peer's id as target.
"""

from __future__ import annotations

import json
import time

import pytest

from tests.integration.test_eda_source import changes, codes_names, drive, drive_peers, group, rulebooks, source_args, webhooks
from tests.integration.test_real_servers import RELEASES, started
from tests.integration.test_real_stale_peers import join_at_once
from tests.support.realagents import Agents

pytestmark = pytest.mark.real


@pytest.fixture(scope="module")
def real_v077():
    yield from started("v0.77.1")


@pytest.fixture(scope="module", params=RELEASES)
def real_server(request):
    yield from started(request.param)


@pytest.fixture
def rulebook(tmp_path, collections_dir):
    yield from rulebooks(tmp_path, collections_dir)


@pytest.fixture
def webhook():
    yield from webhooks()


def connection(server):
    return {"NMS_API_URL": server.url, "NMS_API_TOKEN": server.token}


def test_forward_to_webhook_posts_what_a_playbook_changed(real_v077, rulebook, webhook, run, tmp_path):
    state = tmp_path / "position.json"
    book = rulebook("forward_to_webhook", real_v077, nms_eda_webhook_url=webhook.url, nms_eda_state_file=str(state))
    # the audit log's path of v0.77: one request, no fallback
    assert [r["path"] for r in real_v077.requests() if r["path"].startswith("/api/events")][:1] == ["/api/events/audit"]
    peer = sorted(real_v077.ok("GET", "/peers"), key=lambda p: p["name"])[0]
    made = run([{"name": "Group", "nms.overlay.group": {"name": "eda-real"}},
                {"name": "Rename", "nms.overlay.peer": {"id": peer["id"], "name": "eda-renamed"}}],
               env=connection(real_v077), ansible=True)
    assert made.rc == 0, made

    def posted():
        return [(b.get("activity_code"), b.get("meta", {}).get("name")) for b in webhook.bodies]
    book.wait_for("POSTs of the group and the rename",
                  lambda: {("group.add", "eda-real"), ("peer.rename", "eda-renamed")} <= set(posted()))
    time.sleep(3)  # three more polls: each event is posted once
    assert posted() == [("group.add", "eda-real"), ("peer.rename", "eda-renamed")], posted()
    assert [b["target_id"] for b in webhook.bodies if b["activity_code"] == "peer.rename"] == [peer["id"]]
    assert json.loads(state.read_text(encoding="utf-8"))["seen"]


def test_alert_on_a_policy_made_by_a_playbook(real_v077, rulebook, run):
    book = rulebook("alert_on_policy_and_dns_changes", real_v077)
    made = run([{"name": "Group", "nms.overlay.group": {"name": "eda-ops"}},
                {"name": "Policy", "nms.overlay.policy": {"name": "eda ops to ops", "rules": [{
                    "name": "ops", "sources": ["eda-ops"], "destinations": ["eda-ops"], "bidirectional": True,
                    "protocol": "all", "action": "accept"}]}}], env=connection(real_v077), ansible=True)
    assert made.rc == 0, made
    book.wait_for("alert", lambda: "ALERT Policy added (policy.add): eda ops to ops" in book.output())


def test_the_source_delivers_each_event_once_by_id_across_a_restart(real_server, tmp_path):
    """The source itself (a queue, no rulebook) against v0.27.6 and v0.77.1: the start is what the first poll lists,
    a restart between polls with the state file delivers what happened while it was down and nothing twice, and the
    state file holds the ids as ranges. (The servers' clocks cannot be set here: the emulator plays those.)"""
    state = tmp_path / "position.json"
    args = source_args(real_server, state_file=str(state), activity_code=["group.add"], interval=0.3)
    real_server.ok("POST", "/groups", {"name": "eda-before-start", "peers": []})
    first = drive(real_server, args, [group("eda-r1")], polls=3)
    assert codes_names(first) == [("group.add", "eda-r1")]
    for name in ("eda-down1", "eda-down2"):
        real_server.ok("POST", "/groups", {"name": name, "peers": []})
    second = drive(real_server, dict(args, start="-1d"), [group("eda-r2")], polls=3)
    assert codes_names(second) == [("group.add", n) for n in ("eda-down1", "eda-down2", "eda-r2")]
    assert drive(real_server, args, [], polls=2) == []
    saved = json.loads(state.read_text(encoding="utf-8"))
    assert saved["version"] == 2 and all(isinstance(item, list) for item in saved["seen"]), saved
    listed = [e["id"] for e in real_server.ok("GET", "/events")]
    assert {str(number) for first, last in saved["seen"] for number in range(first, last + 1)} >= set(listed)


# what a peer that joins with a setup key records (activity/codes.go PeerAddedWithSetupKey; renamed in v0.39)
JOIN_CODE = {"v0.27.6": "setupkey.peer.add", "v0.77.1": "peer.setupkey.add"}


def setup_key(server, tmp_path, name, auto_groups=()):
    """A reusable setup key in a file (the key never shows in a test's output)."""
    key = server.ok("POST", "/api/setup-keys", {"name": name, "type": "reusable", "expires_in": 86400,
                                                "auto_groups": list(auto_groups), "usage_limit": 0})["key"]
    key_file = tmp_path / ("%s.key" % name)
    key_file.write_text(key)
    return key_file


def test_each_join_of_real_agents_is_one_event_delivered_once_across_a_restart(real_server, tmp_path):
    """Agents join three at once while the source polls (no filter: whatever a join records), two while it is down,
    one after its restart from the state file: each join is delivered once, as one event with the release's code."""
    code, agents = JOIN_CODE[real_server.release], Agents(real_server)
    fleet = real_server.ok("POST", "/groups", {"name": "eda-fleet", "peers": []})
    key_file = setup_key(real_server, tmp_path, "eda-fleet", [fleet["id"]])
    state = tmp_path / "position.json"
    args = source_args(real_server, state_file=str(state), interval=0.3)
    peers = {}
    real_server.clear_log()

    def join(*hosts):
        return lambda server: peers.update(join_at_once(agents, hosts, key_file))
    first = drive(real_server, args, [join("eda-j1", "eda-j2", "eda-j3")], arrivals=[3])
    join("eda-d1", "eda-d2")(real_server)  # while the source is down
    second = drive(real_server, args, [join("eda-r1")], arrivals=[3])
    third = drive(real_server, args, [], polls=2)

    def joins(events):
        return sorted((name, event["audit"]["target_id"]) for event, (dummy, name) in zip(events, codes_names(events)))
    polls = [r for r in real_server.requests() if r["path"].startswith("/api/events")]
    # everything each assertion may need to tell what happened, should one fail on a loaded machine
    context = "events: first %s, second %s, third %s; peers %s; polls %s" % (
        [(e["audit"]["activity_code"], e["audit"]["meta"].get("name"), e["audit"]["target_id"]) for e in first],
        [(e["audit"]["activity_code"], e["audit"]["meta"].get("name"), e["audit"]["target_id"]) for e in second],
        codes_names(third), {h: p["id"] for h, p in peers.items()},
        [(r["method"], r["path"], r["status"]) for r in polls])
    assert {c for c, dummy in codes_names(first + second)} == {code}, context
    assert joins(first) == sorted((h, peers[h]["id"]) for h in ("eda-j1", "eda-j2", "eda-j3")), context
    assert joins(second) == sorted((h, peers[h]["id"]) for h in ("eda-d1", "eda-d2", "eda-r1")), context
    assert third == [], context
    audit = first[0]["audit"]
    assert audit["meta"]["setup_key_name"] == "eda-fleet" and audit["meta"]["name"] == audit["meta"]["fqdn"].split(".")[0]
    # one request per poll, each answered (v0.27.6: each start's first poll finds /api/events/audit missing first)
    missing = [r["path"] for r in polls if r["status"] != 200]
    assert missing == (["/api/events/audit"] * 3 if real_server.release == "v0.27.6" else []), context


def group_ids(server):
    """{group name: sorted ids of its peers}."""
    return {g["name"]: sorted(p["id"] for p in g.get("peers") or []) for g in server.ok("GET", "/groups")}


def test_rulebooks_group_and_name_real_agents_that_join(real_server, rulebook, tmp_path):
    """group_new_peers on a real agent that joins: its peer goes into the group of its hostname, made for it, the event
    acted on once, whatever the release's code. On v0.77.1, whose code name_new_peers missed before, name_new_peers runs
    beside it and gives the peer its key's name (the v0.27.6 code's renaming, and two peers joining together into one
    group made once: test_eda_source.py)."""
    naming = real_server.release == "v0.77.1"
    book = rulebook("group_new_peers", real_server)
    if naming:
        book = rulebook("name_new_peers", real_server)
    key_file = setup_key(real_server, tmp_path, "Web Servers")
    real_server.clear_log()
    agents = Agents(real_server)
    agents.up("web-1", key_file=key_file)
    peer = agents.peer("web-1")
    name = "web-servers-web-1" if naming else "web-1"

    def done():
        return group_ids(real_server).get("web") == [peer["id"]] and \
            real_server.ok("GET", "/peers/%s" % peer["id"])["name"] == name
    book.wait_for("the new peer in the group web%s" % (" and renamed" if naming else ""), done)
    time.sleep(3)  # three more polls: the event is acted on once
    writes = [(r["method"], r["path"]) for r in real_server.writes()]
    web = [g["id"] for g in real_server.ok("GET", "/groups") if g["name"] == "web"]
    assert sorted(writes) == sorted([("POST", "/api/groups"), ("PUT", "/api/groups/%s" % web[0])]
                                    + [("PUT", "/api/peers/%s" % peer["id"])] * naming), writes


def test_peer_status_tells_a_real_agent_that_joins_and_one_that_stops_once(real_server, tmp_path):
    """nms.overlay.peer_status against v0.27.6 and v0.77.1 with real agents: an agent that joins is delivered as
    connected once, the same agent stopped as disconnected once, and polls after each deliver nothing more; the peers
    already there (other tests') are learnt by the first poll, not reported."""
    agents = Agents(real_server)
    key_file = setup_key(real_server, tmp_path, "eda-status")
    state = tmp_path / "peers.json"
    args = source_args(real_server, interval=0.3, state_file=str(state))
    host = "eda-status-%s" % real_server.release.replace(".", "")

    def join(server):
        agents.up(host, key_file=key_file)
        agents.peer(host)  # until the server shows it connected

    def stop(server):
        agents.stop(host)
        agents.peer(host, connected=False)
    events = drive_peers(real_server, args, [join, stop], polls=5, arrivals=[1, 2])
    assert changes(events) == [("connected", host), ("disconnected", host)], changes(events)
    peer = agents.peer(host, connected=False)
    assert {event["peer_status"]["id"] for event in events} == {peer["id"]}
    assert events[0]["peer_status"]["connected"] is True and events[1]["peer_status"]["connected"] is False
    # restarted from its state file: nothing again
    assert drive_peers(real_server, args, [], polls=3) == []


def test_report_peer_status_tells_a_real_agent_that_joins_then_stops_once(real_v077, rulebook, tmp_path):
    """The example rulebook report_peer_status with ansible-rulebook on v0.77.1: a real agent joins (told connected
    once), then stops (told disconnected once); three more polls tell nothing more."""
    agents = Agents(real_v077)
    key_file = setup_key(real_v077, tmp_path, "eda-report")
    host = "eda-report-1"
    book = rulebook("report_peer_status", real_v077, ready="the peers of ")

    def told():
        return [line.split("PEER ", 1)[1] for line in book.output().splitlines()
                if "PEER %s (" % host in line and "msg" not in line]
    agents.up(host, key_file=key_file)
    book.wait_for("the join told", lambda: any(line.endswith(") connected") for line in told()))
    agents.stop(host)
    book.wait_for("the stop told", lambda: any(") disconnected, last seen" in line for line in told()))
    time.sleep(3)
    assert [line.split(") ", 1)[1].split(",")[0] for line in told()] == ["connected", "disconnected"], told()
