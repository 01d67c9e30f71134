# -*- coding: utf-8 -*-
"""ansible-rulebook with the example rulebooks against the real NetBird v0.77.1 (tests/support/realserver.py, ``make
eda`` with the real servers' kit): a playbook makes changes, the rulebook reacts, observed within a timeout.

The rulebook harness (ansible-rulebook of ``make eda-venv``, a webhook) is test_eda_source.py's. Peers cannot join a
real server through the REST API, so the reactions are to what a playbook does: a group, a renamed peer, a policy.
"""

from __future__ import annotations

import json
import time

import pytest

from tests.integration.test_eda_source import codes_names, drive, group, rulebooks, source_args, webhooks
from tests.integration.test_real_servers import RELEASES, started

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
