# -*- coding: utf-8 -*-
"""The example playbooks and the inventory plugin through ansible-playbook / ansible-inventory against the real
NetBird v0.27.6 and v0.77.1 (tests/support/realserver.py; the real-server stage, ``make real``).

Each test module run gets a new seeded server of each release (five peers, the All group, the Default policy), so
the playbooks build on what a fresh installation holds. Every module's own scenario against the real servers is
tests/scenarios. ``enroll_hosts`` is not run here: peers join a real server over the agent protocol, which only
NetBird's agent speaks (the emulator's fake agent stands in for it in test_network.py).
"""

from __future__ import annotations

import json

import pytest

from tests.integration.test_inventory import EXAMPLE, inventory
from tests.support.modules import example_network
from tests.support.realserver import DIALECT_OF, RELEASES, real_mode, start_real_server, RealServerError

pytestmark = pytest.mark.real


@pytest.fixture(scope="module", params=RELEASES)
def real_server(request):
    on, dummy_required, why = real_mode()
    if not on:
        pytest.skip(why)
    try:
        server = start_real_server(request.param)
    except RealServerError as exc:
        pytest.fail(str(exc), pytrace=False)
    yield server
    server.stop()


def connection(server):
    return {"NMS_API_URL": server.url, "NMS_API_TOKEN": server.token}


def names(server, path, key="name"):
    return sorted(item[key] for item in server.ok("GET", path))


def teardown_of(description):
    """The description with every resource absent (the kinds' natural keys only)."""
    keys = {"routes": ("network_id",), "dns_zones": ("domain",), "setup_keys": ("name",)}
    down = {}
    for kind, items in description.items():
        if not isinstance(items, list):
            continue
        down[kind] = [dict({k: item[k] for k in keys.get(kind, ("name",)) if k in item}, state="absent")
                      for item in items]
    return down


def test_build_network_builds_settles_previews_and_tears_down(real_server, run):
    env = connection(real_server)
    first = run([], playbook="nms.overlay.build_network", env=env)
    assert first.rc == 0, first
    assert "servers" in names(real_server, "/groups") and "developers to servers (ssh)" in names(real_server, "/policies")
    if real_server.release == "v0.77.1":  # the office LAN is a Network on today's servers, a route on v0.27
        assert names(real_server, "/networks") == ["office"]
    else:
        assert "office-lan" in names(real_server, "/routes", key="network_id")
    default = [p for p in real_server.ok("GET", "/policies") if p["name"] == "Default"]
    assert default and default[0]["enabled"] is False, default

    real_server.clear_log()
    preview = run([], playbook="nms.overlay.build_network", check=True, env=env)
    assert preview.rc == 0, preview
    again = run([], playbook="nms.overlay.build_network", env=env)
    assert again.rc == 0, again
    assert "changed=0" in again.stdout.split("PLAY RECAP")[-1], again
    assert real_server.writes() == [], "a preview or an unchanged re-run wrote: %s" % real_server.writes()

    down = run([], playbook="nms.overlay.build_network", env=env, extra_vars={
        "nms_network_override": teardown_of(example_network(DIALECT_OF[real_server.release]))})
    assert down.rc == 0, down
    assert names(real_server, "/groups") == ["All"]
    assert "developers to servers (ssh)" not in names(real_server, "/policies")


def test_access_and_audit_reports(real_server, run, tmp_path):
    env = connection(real_server)
    real_server.ok("POST", "/groups", {"name": "audited", "peers": []})
    markdown, page, audit = tmp_path / "access.md", tmp_path / "access.html", tmp_path / "audit.json"
    result = run([], playbook="nms.overlay.access_report", env=env,
                 extra_vars={"nms_access_report_markdown": str(markdown), "nms_access_report_html": str(page)})
    assert result.rc == 0, result
    text = markdown.read_text(encoding="utf-8")
    assert "All" in text and "Default" in text, text
    assert "<table" in page.read_text(encoding="utf-8")

    result = run([], playbook="nms.overlay.audit_report", env=env, extra_vars={"nms_audit_report": str(audit)})
    assert result.rc == 0, result
    data = json.loads(audit.read_text(encoding="utf-8"))
    assert data["count"] == len(data["events"]) >= 1
    assert "group.add" in [event["activity_code"] for event in data["events"]]


def test_offboard_a_service_user(real_server, run):
    env = connection(real_server)
    real_server.ok("POST", "/users", {"name": "sc-offboard", "role": "user", "is_service_user": True,
                                      "auto_groups": []})
    result = run([], playbook="nms.overlay.offboard_user", env=env, extra_vars={"nms_offboard_user": "sc-offboard"})
    assert result.rc == 0, result
    user = [u for u in real_server.ok("GET", "/users?service_user=true") if u["name"] == "sc-offboard"]
    assert user and user[0]["is_blocked"] is True, user
    real_server.clear_log()
    again = run([], playbook="nms.overlay.offboard_user", env=env, extra_vars={"nms_offboard_user": "sc-offboard"})
    assert again.rc == 0, again
    assert "changed=0" in again.stdout.split("PLAY RECAP")[-1], again
    assert real_server.writes() == []


def test_inventory_lists_the_real_peers(real_server, tmp_path, collections_dir):
    real_server.clear_log()
    inv = inventory(tmp_path, collections_dir, EXAMPLE, env=connection(real_server))
    assert inv.rc == 0, inv.output
    assert [r["method"] + " " + r["path"] for r in real_server.requests()] == ["GET /api/peers"]
    peers = real_server.ok("GET", "/peers")
    labels = sorted(peer["dns_label"] for peer in peers)
    assert len(labels) == 5 and sorted(inv.hostvars) == labels
    assert inv.hosts_of("All") == labels
    first = next(peer for peer in peers if peer["hostname"] == "real-h1")
    host = inv.hostvars[first["dns_label"]]
    assert host["ansible_host"] == first["ip"] and host["nms_id"] == first["id"]
    assert real_server.token not in inv.output
