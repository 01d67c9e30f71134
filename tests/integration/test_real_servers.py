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
import re

import pytest

from tests.integration.test_inventory import EXAMPLE, inventory
from tests.support.modules import example_network
from tests.support.realserver import DIALECT_OF, RELEASES, real_mode, start_real_server, RealServerError

pytestmark = pytest.mark.real


def started(release, *options, environment=None):
    """A fixture's real server of ``release`` (``options``: ``--idp``, ``--fresh``; ``environment``: NetBird's own
    settings): skipped or failed as real_mode() says, stopped after the fixture."""
    on, dummy_required, why = real_mode()
    if not on:
        pytest.skip(why)
    try:
        server = start_real_server(release, *options, environment=environment)
    except RealServerError as exc:
        pytest.fail(str(exc), pytrace=False)
    yield server
    server.stop()


@pytest.fixture(scope="module", params=RELEASES)
def real_server(request):
    yield from started(request.param)


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


def test_offboard_refuses_the_token_s_own_user_before_any_write(real_server, run):
    """offboard_user predicts the server's 403 for the token's own user, in check mode too (issue "Safe by
    default"), and the server does refuse that block."""
    # the seeded owner has neither email nor name there: an admin service user with a token of its own offboards itself
    robot = real_server.ok("POST", "/users", {"name": "sc-self", "role": "admin", "is_service_user": True,
                                              "auto_groups": []})
    token = real_server.ok("POST", "/users/%s/tokens" % robot["id"], {"name": "self", "expires_in": 1})["plain_token"]
    env = dict(connection(real_server), NMS_API_TOKEN=token)
    me = [user for user in real_server.ok("GET", "/users", token=token) if user.get("is_current")]
    assert [user["id"] for user in me] == [robot["id"]], me
    real_server.clear_log()
    for check in (True, False):
        result = run([], playbook="nms.overlay.offboard_user", env=env, check=check,
                     extra_vars={"nms_offboard_user": "sc-self"})
        assert result.rc != 0, result
        failed = result["Check that the server lets this token block the user"]
        assert "is the one the API token (NMS_API_TOKEN) belongs to" in failed["msg"], failed["msg"]
        assert "Block the user" not in result
    assert real_server.writes() == []
    status, answer = real_server.api("PUT", "/users/%s" % robot["id"], {
        "role": "admin", "auto_groups": [], "is_blocked": True}, token=token)
    assert status == 403 and "block or unblock themselves" in str(answer), (status, answer)


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
    # a peer the server knows no address of: the real servers send "<nil>" (Go's nil IP), the host variable is null
    for peer in peers:
        if peer.get("connection_ip") in ("<nil>", ""):
            assert inv.hostvars[peer["dns_label"]]["nms_connection_ip"] is None, inv.hostvars[peer["dns_label"]]


def test_setup_keys_described_again_replaced_and_removed(real_server, run, tmp_path):
    """Issue "Safe by default" (keys-routes-names): a key described again after its teardown is a new, usable key
    with its value in the secrets file (v0.27 revokes the old one, which cannot be deleted); a replacement keeps the
    lifetime of the key it replaces; state=absent removes every key of the name in one run."""
    env = connection(real_server)
    real_server.ok("POST", "/groups", {"name": "sc-keys", "peers": []})
    secrets = tmp_path / "secrets.json"
    key = {"name": "sc-servers", "type": "reusable", "expires_in": "30d", "auto_groups": ["sc-keys"]}

    def build(keys):
        return run([{"name": "build", "nms.overlay.network_state": {
            "setup_keys": keys, "return_created_secrets": False, "created_secrets_file": str(secrets)}}], env=env)

    assert build([key]).rc == 0
    old_id = json.loads(secrets.read_text())["setup_keys"]["sc-servers"]["id"]
    assert build([{"name": "sc-servers", "state": "absent"}]).rc == 0
    secrets.unlink()
    real_server.clear_log()
    again = build([key])
    assert [c["action"] for c in again["build"]["changes"]] == ["created"], again["build"]
    stored = json.loads(secrets.read_text())["setup_keys"]["sc-servers"]
    assert stored["id"] != old_id and stored["key"]
    assert [w["method"] for w in real_server.writes()] == ["POST"]
    live = [k for k in real_server.ok("GET", "/setup-keys") if k["name"] == "sc-servers" and k["valid"]]
    assert [str(k["id"]) for k in live] == [stored["id"]]
    real_server.clear_log()
    assert build([key])["build"]["changed"] is False and real_server.writes() == []

    # a replacement keeps the lifetime: the key is revoked (a change, so its dates tell the rest of its 2 days)
    made = run([{"name": "key", "nms.overlay.setup_key": {"name": "sc-host", "type": "one-off", "expires_in": "2d",
                                                          "auto_groups": ["sc-keys"]}}], env=env)["key"]["setup_key"]
    run([{"name": "revoke", "nms.overlay.setup_key": {"id": made["id"], "revoked": True}}], env=env)
    real_server.clear_log()
    replaced = run([{"name": "key", "nms.overlay.setup_key": {"name": "sc-host", "replace_invalid": True}}],
                   env=env, diff=True)["key"]
    assert replaced["replaced_id"] == made["id"] and replaced["diff"]["after"]["expires_in"] == 2 * 86400
    assert [w["request"]["expires_in"] for w in real_server.writes() if w["method"] == "POST"] == [2 * 86400]

    # state=absent: every key of the name in one run (the revoked one too), a re-run writes nothing
    for name in ("sc-host", "sc-servers"):
        real_server.clear_log()
        gone = run([{"name": "absent", "nms.overlay.setup_key": {"name": name, "state": "absent"}}], env=env)
        assert gone["absent"]["changed"] is True
        left = [k for k in real_server.ok("GET", "/setup-keys") if k["name"] == name]
        if real_server.release == "v0.77.1":
            assert left == [], left
        else:
            assert left and all(k["revoked"] and not k["auto_groups"] for k in left), left
        real_server.clear_log()
        rerun = run([{"name": "absent", "nms.overlay.setup_key": {"name": name, "state": "absent"}}], env=env)
        assert rerun["absent"]["changed"] is False and real_server.writes() == []
    real_server.ok("DELETE", "/groups/%s" % [g for g in real_server.ok("GET", "/groups") if g["name"] == "sc-keys"][0]["id"])


@pytest.fixture(params=RELEASES)
def own_real_server(request):
    """A real server of its own, for a test that leaves what no other test expects (a second group named All)."""
    yield from started(request.param)


def test_default_policy_and_the_access_report_know_the_built_in_all_group(own_real_server, run, tmp_path):
    """Issue "Safe by default", 6 and 7: a group renamed All is not the built-in one, and a Default policy of two
    allow-all rules (its second rule answered without sources by v0.27) is disabled."""
    server, env = own_real_server, connection(own_real_server)
    peers = [peer["id"] for peer in server.ok("GET", "/peers")]
    team = server.ok("POST", "/groups", {"name": "team", "peers": peers[:1]})
    assert server.ok("PUT", "/groups/%s" % team["id"], {"name": "All", "peers": peers[:1]})["name"] == "All"

    def rule(name, group):
        return {"name": name, "description": "", "enabled": True, "action": "accept", "bidirectional": True,
                "protocol": "all", "sources": [group], "destinations": [group]}
    server.ok("POST", "/policies", {"name": "team only", "description": "", "enabled": True,
                                    "rules": [rule("team", team["id"])]})
    default = [p for p in server.ok("GET", "/policies") if p["name"] == "Default"][0]
    built_in = default["rules"][0]["sources"][0]["id"]
    server.ok("PUT", "/policies/%s" % default["id"], {"name": "Default", "description": default["description"],
                                                      "enabled": True, "rules": [rule("Default", built_in),
                                                                                 rule("Default again", built_in)]})
    answered = [p for p in server.ok("GET", "/policies") if p["name"] == "Default"][0]["rules"]
    if server.release == "v0.27.6":
        assert answered[1]["sources"] is None, answered

    markdown = tmp_path / "access.md"
    report = run([], playbook="nms.overlay.access_report", env=env,
                 extra_vars={"nms_access_report_markdown": str(markdown), "nms_access_report_html": ""})
    assert report.rc == 0, report
    text = markdown.read_text(encoding="utf-8")
    assert "| team only | team | All | All | both ways | all |" in text, text  # not marked allow-all
    assert "An allow-all policy is in force: Default." in text

    description = {"groups": [{"name": "servers"}], "policies": [
        {"name": "to servers", "rules": [{"name": "ssh", "protocol": "tcp", "ports": ["22"], "bidirectional": False,
                                          "sources": ["servers"], "destinations": ["servers"]}]}]}
    server.clear_log()
    done = run([{"name": "network", "nms.overlay.network_state": dict(description, default_policy="disable")}], env=env)
    assert done.rc == 0, done
    policies = {p["name"]: p for p in server.ok("GET", "/policies")}
    assert policies["Default"]["enabled"] is False and policies["team only"]["enabled"] is True
    assert [w["path"] for w in server.writes() if "/policies/" in w["path"]] == ["/api/policies/%s" % default["id"]]
    server.clear_log()
    again = run([{"name": "network", "nms.overlay.network_state": dict(description, default_policy="disable")}], env=env)
    assert again["network"]["changed"] is False and server.writes() == []


def like(text):
    """SQLite's LIKE '%text%': any case, _ one character, % any (how v0.77.1 filters peers by name)."""
    return re.compile("".join("." if c == "_" else ".*" if c == "%" else re.escape(c) for c in text), re.I)


def test_peers_are_read_by_name_where_the_server_filters_them(real_server, run):
    """v0.77.1 filters GET /peers by ?name= (a LIKE: any case, _ any character), v0.27.6 ignores it: what the resolver
    relies on where a task names a few peers and has not read the groups (tests/unit: test_resolve_compare.py). A group
    task reads no peers at all: on both servers the All group lists every peer, with its id and name, in the groups
    list the task reads anyway."""
    every = names(real_server, "/peers")
    for text in ("REAL-H", "h_", "win", "nothing-like-it"):
        got = sorted(peer["name"] for peer in real_server.ok("GET", "/peers?name=" + text))
        if real_server.release == "v0.27.6":
            assert got == every, text
        else:
            assert got == sorted(name for name in every if like(text).search(name)), text
    task = {"name": "pair", "nms.overlay.group": {"name": "by-name", "peers": ["real-h1", "real-h2"]}}
    assert run([task], env=connection(real_server)).rc == 0
    real_server.clear_log()
    again = run([task], env=connection(real_server))
    assert again["pair"]["changed"] is False
    reads = sorted("%s %s%s" % (r["method"], r["path"], "?" + r["query"] if r["query"] else "") for r in real_server.requests())
    assert reads == ["GET /api/groups"]
    held = real_server.ok("GET", "/groups/" + again["pair"]["group"]["id"])["peers"]
    assert sorted(peer["name"] for peer in held) == ["real-h1", "real-h2"]
    every_one = [group for group in real_server.ok("GET", "/groups") if group["name"] == "All"]
    assert len(every_one) == 1 and sorted(peer["name"] for peer in every_one[0]["peers"]) == every
    assert run([dict(task, **{"nms.overlay.group": {"name": "by-name", "state": "absent"}})],
               env=connection(real_server)).rc == 0
