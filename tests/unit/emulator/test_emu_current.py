"""The `current` dialect: a v0.77.1 server (tests/emulator/README.md, "Dialect differences")."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import Emulator

XID = re.compile(r"^[0-9a-v]{20}$")


def _route_body(emu: Emulator, **fields: Any) -> dict[str, Any]:
    all_id = emu.all_group()["id"]
    body = {"description": "", "network_id": "net", "enabled": True, "peer_groups": [all_id], "network": "10.9.0.0/24",
            "metric": 100, "masquerade": False, "groups": [all_id], "keep_route": True}
    body.update(fields)
    return {key: value for key, value in body.items() if value is not None}


def _rule(sources: list[str], destinations: list[str], **fields: Any) -> dict[str, Any]:
    rule = {"name": "r", "enabled": True, "action": "accept", "bidirectional": True, "protocol": "tcp",
            "sources": sources, "destinations": destinations}
    rule.update(fields)
    return rule


# instance version ---------------------------------------------------------------------
def test_instance_version_only_in_current(cur: Emulator, emu: Emulator) -> None:
    answer = cur.ok("GET", "/api/instance/version")
    assert answer == {"management_current_version": "0.77.1", "management_update_available": False}
    other = emu.call("GET", "/api/instance/version")
    assert other.status == 404 and other.raw == b"404 page not found\n"


# PUT replaces the object ----------------------------------------------------------------
def test_route_put_resets_keep_route_and_access_control_groups(cur: Emulator) -> None:
    group = cur.group("acl")
    created = cur.ok("POST", "/api/routes", _route_body(cur, access_control_groups=[group["id"]], skip_auto_apply=True))
    assert created["keep_route"] is True and created["access_control_groups"] == [group["id"]]
    assert created["skip_auto_apply"] is True and created["domains"] is None and created["peer"] == ""
    body = _route_body(cur, metric=200)
    del body["keep_route"]  # a v0.27-shaped body
    updated = cur.ok("PUT", f"/api/routes/{created['id']}", body)
    assert updated["metric"] == 200 and updated["keep_route"] is False
    assert "access_control_groups" not in updated and updated["skip_auto_apply"] is False
    assert cur.ok("GET", f"/api/routes/{created['id']}")["keep_route"] is False


def test_group_put_drops_resources(cur: Emulator) -> None:
    group = cur.ok("POST", "/api/groups", {"name": "g", "resources": [{"id": "r1", "type": "host"}]})
    assert group["resources"] == [{"id": "r1", "type": "host"}] and group["resources_count"] == 1
    updated = cur.ok("PUT", f"/api/groups/{group['id']}", {"name": "g", "peers": []})
    assert updated["resources"] is None and updated["resources_count"] == 0


def test_peer_put_resets_inactivity_expiration(cur: Emulator) -> None:
    user = cur.add_user("ana@example.com")
    peer = cur.control("POST", "/_emulator/enroll", {"hostname": "laptop", "user_id": user["id"]})
    assert peer["inactivity_expiration_enabled"] is True  # v0.77 turns it on for a peer a user adds
    body = {"name": "laptop-2", "ssh_enabled": False, "login_expiration_enabled": True}
    updated = cur.ok("PUT", f"/api/peers/{peer['id']}", body)
    assert updated["name"] == "laptop-2" and updated["inactivity_expiration_enabled"] is False
    assert cur.events("peer.inactivity.expiration.disable")[0]["initiator_id"] == "owner-user"


def test_peer_inactivity_needs_sso_peer(cur: Emulator) -> None:
    peer = cur.add_peers(peers=[{"hostname": "web"}])[0]
    body = {"name": "web", "ssh_enabled": False, "login_expiration_enabled": False,
            "inactivity_expiration_enabled": True}
    answer = cur.call("PUT", f"/api/peers/{peer['id']}", body)
    assert answer.status == 412
    assert answer.body["message"] == ("this peer hasn't been added with the sso login, therefore the inactivity "
                                      "expiration can't be updated")


def test_account_put_resets_v077_settings(cur: Emulator) -> None:
    account = cur.ok("GET", "/api/accounts")[0]
    settings = dict(account["settings"], peer_inactivity_expiration_enabled=True, peer_inactivity_expiration=3600,
                    peer_expose_enabled=True, peer_expose_groups=[cur.all_group()["id"]])
    kept = cur.ok("PUT", f"/api/accounts/{account['id']}", {"settings": settings})["settings"]
    assert kept["peer_inactivity_expiration"] == 3600 and kept["peer_expose_enabled"] is True
    legacy = {key: settings[key] for key in ("peer_login_expiration_enabled", "peer_login_expiration",
                                             "regular_users_view_blocked", "groups_propagation_enabled")}
    reset = cur.ok("PUT", f"/api/accounts/{account['id']}", {"settings": legacy})["settings"]
    assert reset["peer_inactivity_expiration_enabled"] is False and reset["peer_inactivity_expiration"] == 0
    # left out, v0.77's list is nil: null in the answer (as on the seeded real v0.77.1 server)
    assert reset["peer_expose_enabled"] is False and reset["peer_expose_groups"] is None
    refused = cur.call("PUT", f"/api/accounts/{account['id']}",
                       {"settings": dict(legacy, peer_expose_enabled=True)})
    assert refused.status == 422 and refused.body["message"] == "peer expose requires at least one group"


# new fields ------------------------------------------------------------------------------
def test_policy_rule_new_fields(cur: Emulator) -> None:
    all_id = cur.all_group()["id"]
    rule = _rule([all_id], [], port_ranges=[{"start": 8000, "end": 8100}],
                 destinationResource={"id": "res1", "type": "host"})
    del rule["destinations"]
    created = cur.ok("POST", "/api/policies", {"name": "p", "enabled": True, "rules": [rule]})
    answer = created["rules"][0]
    assert answer["port_ranges"] == [{"start": 8000, "end": 8100}] and "ports" not in answer
    assert answer["destinationResource"] == {"id": "res1", "type": "host"} and answer["id"] == created["id"]
    ssh = _rule([all_id], [all_id], protocol="netbird-ssh", authorized_groups={all_id: ["root"]})
    made = cur.ok("POST", "/api/policies", {"name": "ssh", "enabled": True, "rules": [ssh]})
    assert made["rules"][0]["authorized_groups"] == {all_id: ["root"]}
    both = cur.call("POST", "/api/policies", {"name": "x", "enabled": True,
                                              "rules": [_rule([all_id], [all_id], ports=["80"],
                                                              port_ranges=[{"start": 1, "end": 2}])]})
    assert both.status == 422 and both.body["message"] == "specify either individual ports or port ranges, not both"
    bad_range = cur.call("POST", "/api/policies", {"name": "x", "enabled": True,
                                                   "rules": [_rule([all_id], [all_id],
                                                                   port_ranges=[{"start": 0, "end": 2}])]})
    assert bad_range.status == 422 and bad_range.body["message"] == "valid port value is in 1..65535 range"


def test_policy_port_range_in_ports_refused(cur: Emulator) -> None:
    all_id = cur.all_group()["id"]
    answer = cur.call("POST", "/api/policies", {"name": "p", "enabled": True,
                                                "rules": [_rule([all_id], [all_id], ports=["8000-8100"])]})
    assert answer.status == 422 and answer.body["message"] == "valid port value is in 1..65535 range"


def test_policy_several_rules_echoed_first_stored(cur: Emulator) -> None:
    web, db = cur.group("web"), cur.group("db")
    rules = [_rule([web["id"]], [db["id"]], name="one"), _rule([db["id"]], [web["id"]], name="two", ports=["22"])]
    created = cur.ok("POST", "/api/policies", {"name": "p", "enabled": True, "rules": rules})
    assert [rule["name"] for rule in created["rules"]] == ["one", "two"]
    assert {rule["id"] for rule in created["rules"]} == {created["id"]}
    assert created["rules"][1]["sources"] is None  # the answer's group cache: db was listed by rule one
    stored = cur.ok("GET", f"/api/policies/{created['id']}")
    assert [rule["name"] for rule in stored["rules"]] == ["one"]


def test_policy_put_with_unknown_rule_id_refused(cur: Emulator) -> None:
    all_id = cur.all_group()["id"]
    created = cur.ok("POST", "/api/policies", {"name": "p", "enabled": True, "rules": [_rule([all_id], [all_id])]})
    answer = cur.call("PUT", f"/api/policies/{created['id']}",
                      {"name": "p", "enabled": True, "rules": [_rule([all_id], [all_id], id="other")]})
    assert answer.status == 422 and answer.body["message"] == "invalid rule id: other"
    kept = cur.ok("PUT", f"/api/policies/{created['id']}",
                  {"name": "p", "enabled": True, "rules": [_rule([all_id], [all_id], id=created["id"])]})
    assert kept["rules"][0]["id"] == created["id"]


def test_route_domains_network_optional(cur: Emulator) -> None:
    body = _route_body(cur, network=None, domains=["example.com"])
    created = cur.ok("POST", "/api/routes", body)
    assert created["domains"] == ["example.com"] and created["network_type"] == "Domain"
    both = cur.call("POST", "/api/routes", _route_body(cur, domains=["example.com"]))
    assert both.status == 422 and both.body["message"] == "only one of 'network' or 'domains' should be provided"
    peer_and_groups = cur.call("POST", "/api/routes", _route_body(cur, peer=""))
    assert peer_and_groups.status == 422
    assert peer_and_groups.body["message"] == "only one of 'peer' or 'peer_groups' should be provided"


def test_route_non_linux_routing_peer_accepted(cur: Emulator) -> None:
    peer = cur.add_peers(peers=[{"hostname": "win", "os": "Windows 11"}])[0]
    created = cur.ok("POST", "/api/routes", _route_body(cur, peer=peer["id"], peer_groups=None))
    assert created["peer"] == peer["id"] and "peer_groups" not in created


def test_posture_process_check(cur: Emulator) -> None:
    check = {"name": "proc", "checks": {"process_check": {"processes": [{"linux_path": "/usr/bin/agent"}]}}}
    created = cur.ok("POST", "/api/posture-checks", check)
    # v0.77.1 answers every path of a process, "" where it has none
    assert created["checks"]["process_check"] == {"processes": [{"linux_path": "/usr/bin/agent", "mac_path": "", "windows_path": ""}]}
    empty = cur.call("POST", "/api/posture-checks", {"name": "p2", "checks": {"process_check": {"processes": []}}})
    assert empty.status == 422 and empty.body["message"] == "processcheck processes shouldn't be empty"


def test_peer_answers(cur: Emulator) -> None:
    peers = cur.add_peers(peers=[{"hostname": "a"}, {"hostname": "b"}])
    single = cur.ok("GET", f"/api/peers/{peers[0]['id']}")
    assert "accessible_peers" not in single
    assert single["inactivity_expiration_enabled"] is False and "local_flags" in single and "created_at" in single
    listed = cur.ok("GET", "/api/peers")
    assert all("accessible_peers_count" in item for item in listed)
    reachable = cur.ok("GET", f"/api/peers/{peers[0]['id']}/accessible-peers")
    assert [item["id"] for item in reachable] == [peers[1]["id"]]  # the Default policy joins All to All
    assert set(reachable[0]) >= {"id", "name", "ip", "dns_label", "user_id", "os", "connected", "last_seen"}


def test_accessible_peers_endpoint_absent_in_other_dialects(emu: Emulator) -> None:
    peer = emu.add_peers(peers=[{"hostname": "a"}])[0]
    assert emu.call("GET", f"/api/peers/{peer['id']}/accessible-peers").status == 404
    assert "accessible_peers" in emu.ok("GET", f"/api/peers/{peer['id']}")


# setup keys ------------------------------------------------------------------------------
def test_setup_keys(cur: Emulator) -> None:
    group = cur.group("servers")
    created = cur.setup_key("k", auto_groups=[group["id"]], allow_extra_dns_labels=True)
    assert XID.match(created["id"]) and len(created["key"]) == 36 and created["allow_extra_dns_labels"] is True
    read = cur.ok("GET", f"/api/setup-keys/{created['id']}")
    assert read["key"] == created["key"][:5] + "****"
    assert cur.ok("GET", "/api/setup-keys")[0]["key"] == created["key"][:5] + "****"
    renamed = cur.ok("PUT", f"/api/setup-keys/{created['id']}", {"name": "other", "revoked": True, "auto_groups": []})
    assert renamed["name"] == "k" and renamed["revoked"] is True and renamed["auto_groups"] == []
    assert renamed["key"].endswith("****")
    unrevoke = cur.call("PUT", f"/api/setup-keys/{created['id']}", {"revoked": False, "auto_groups": []})
    assert unrevoke.status == 422 and unrevoke.body["message"] == "can't un-revoke a revoked setup key"
    deleted = cur.call("DELETE", f"/api/setup-keys/{created['id']}")
    assert deleted.status == 200 and deleted.body == {}
    assert cur.call("GET", f"/api/setup-keys/{created['id']}").status == 404
    assert cur.events("setupkey.delete")


def test_setup_key_delete_absent_in_other_dialects(emu: Emulator) -> None:
    created = emu.setup_key("k")
    assert emu.call("DELETE", f"/api/setup-keys/{created['id']}").status == 405


def test_setup_key_checks(cur: Emulator) -> None:
    missing = cur.call("POST", "/api/setup-keys", {"name": "k", "type": "reusable", "expires_in": 86400,
                                                   "auto_groups": ["nope"], "usage_limit": 0})
    assert missing.status == 422 and missing.body["message"] == "invalid auto groups: group not found: nope"
    one_off = cur.call("POST", "/api/setup-keys", {"name": "k", "type": "one-off", "expires_in": 86400,
                                                   "auto_groups": [], "usage_limit": 5})
    assert one_off.status == 422 and one_off.body["message"].startswith("usage_limit 5 is not valid for a one-off")
    forever = cur.setup_key("k", expires_in=0)
    assert forever["expires"] == "0001-01-01T00:00:00Z" and forever["valid"] is True


# roles, users, 403 wording -----------------------------------------------------------------
def test_roles_and_403_wording(cur: Emulator) -> None:
    for role in ("network_admin", "auditor", "billing_admin"):
        made = cur.ok("POST", "/api/users", {"name": role, "role": role, "is_service_user": True, "auto_groups": []})
        assert made["role"] == role
    service = cur.ok("POST", "/api/users", {"name": "svc", "role": "admin", "is_service_user": True, "auto_groups": []})
    refused = cur.call("PUT", f"/api/users/{service['id']}", {"role": "owner", "auto_groups": [], "is_blocked": False})
    assert refused.status == 403
    assert refused.body["message"] == (f"failed to process update for user {service['id']}: can't update a service "
                                       "user with owner role")


def test_role_permissions(cur: Emulator) -> None:
    auditor = cur.add_user("audit@example.com", role="auditor", token=True)
    network_admin = cur.add_user("net@example.com", role="network_admin", token=True)
    assert cur.call("GET", "/api/setup-keys", token=auditor["token"]).status == 200
    denied = cur.call("POST", "/api/groups", {"name": "x"}, token=auditor["token"])
    assert denied.status == 403 and denied.body["message"] == "permission denied"
    assert cur.call("POST", "/api/groups", {"name": "x"}, token=network_admin["token"]).status == 200
    assert cur.call("POST", "/api/setup-keys", {"name": "k", "type": "reusable", "expires_in": 0, "auto_groups": [],
                                                "usage_limit": 0}, token=network_admin["token"]).status == 403


def test_approve_and_reject(cur: Emulator) -> None:
    waiting = cur.add_user("wait@example.com", pending_approval=True)
    approved = cur.ok("POST", f"/api/users/{waiting['id']}/approve")
    assert approved["pending_approval"] is False
    again = cur.call("POST", f"/api/users/{waiting['id']}/approve")
    assert again.status == 422 and again.body["message"] == f"user {waiting['id']} is not pending approval"
    other = cur.add_user("other@example.com", pending_approval=True)
    assert cur.call("DELETE", f"/api/users/{other['id']}/reject").body == {}
    assert all(user["id"] != other["id"] for user in cur.ok("GET", "/api/users"))
    assert cur.events("user.approve") and cur.events("user.reject")


def test_events_audit_alias(cur: Emulator, emu: Emulator) -> None:
    cur.group("g")
    assert cur.ok("GET", "/api/events/audit") == cur.ok("GET", "/api/events")
    assert emu.call("GET", "/api/events/audit").status == 404


# rate limiting ---------------------------------------------------------------------------
def test_rate_limit_opt_in(cur: Emulator) -> None:
    for dummy in range(3):
        assert cur.call("GET", "/api/groups").status == 200  # off by default
    config = cur.control("POST", "config", {"rate_limit": {"rpm": 1, "burst": 2}})
    assert config["rate_limit"] == {"rpm": 1.0, "burst": 2}
    statuses = [cur.call("GET", "/api/groups").status for dummy in range(3)]
    assert statuses == [200, 200, 429]
    limited = cur.call("GET", "/api/groups")
    assert limited.body == {"message": "too many requests", "code": 429}
    assert cur.call("GET", "/api/groups", headers={"User-Agent": "Terraform/1.9"}).status == 200
    cur.reset()
    assert cur.call("GET", "/api/groups").status == 200


def test_rate_limit_flag() -> None:
    from tests.emulator.__main__ import parse_args  # pylint: disable=import-outside-toplevel

    assert parse_args(["--token", "t", "--rate-limit", "6"]).rate_limit == (6.0, 500)
    with pytest.raises(SystemExit):
        parse_args(["--token", "t", "--rate-limit", "0"])


# networks ----------------------------------------------------------------------------------
def test_networks_crud(cur: Emulator) -> None:
    created = cur.ok("POST", "/api/networks", {"name": "office", "description": "d"})
    assert created == {"id": created["id"], "name": "office", "description": "d", "routers": [], "resources": [],
                       "routing_peers_count": 0, "policies": []}
    nid = created["id"]
    assert cur.ok("GET", f"/api/networks/{nid}")["name"] == "office"
    updated = cur.ok("PUT", f"/api/networks/{nid}", {"name": "office2"})
    assert updated["name"] == "office2" and updated["description"] == ""
    assert [item["id"] for item in cur.ok("GET", "/api/networks")] == [nid]
    assert cur.call("DELETE", f"/api/networks/{nid}").body == {}
    missing = cur.call("GET", f"/api/networks/{nid}")
    assert missing.status == 404 and missing.body["message"] == f"network: {nid} not found"


def test_network_resources(cur: Emulator) -> None:
    group = cur.group("res")
    nid = cur.ok("POST", "/api/networks", {"name": "n"})["id"]
    kinds = {}
    for name, address in (("h", "10.0.0.1"), ("s", "10.0.0.0/24"), ("d", "example.com")):
        made = cur.ok("POST", f"/api/networks/{nid}/resources",
                      {"name": name, "address": address, "groups": [group["id"]], "enabled": True})
        kinds[made["type"]] = made
    assert kinds["host"]["address"] == "10.0.0.1/32" and kinds["subnet"]["address"] == "10.0.0.0/24"
    assert kinds["domain"]["address"] == "example.com" and kinds["host"]["groups"][0]["id"] == group["id"]
    shown = cur.ok("GET", f"/api/groups/{group['id']}")
    assert shown["resources_count"] == 3 and {"id": kinds["host"]["id"], "type": "host"} in shown["resources"]
    duplicate = cur.call("POST", f"/api/networks/{nid}/resources", {"name": "h", "address": "10.0.0.2", "groups": []})
    assert duplicate.status == 422
    bad = cur.call("POST", f"/api/networks/{nid}/resources", {"name": "x", "address": "not an address", "groups": []})
    assert bad.status == 500  # v0.77's address error carries no status
    host_id = kinds["host"]["id"]
    moved = cur.ok("PUT", f"/api/networks/{nid}/resources/{host_id}",
                   {"name": "h", "address": "10.0.0.9", "groups": [], "enabled": False})
    assert moved["groups"] is None and moved["enabled"] is False
    assert cur.ok("GET", f"/api/groups/{group['id']}")["resources_count"] == 2
    in_use = cur.call("DELETE", f"/api/groups/{group['id']}")
    assert in_use.status == 400 and in_use.body["message"].startswith("group has been linked to network resource: ")
    assert len(cur.ok("GET", "/api/networks/resources")) == 3
    assert cur.ok("GET", f"/api/networks/{nid}")["resources"] is not None
    cur.ok("DELETE", f"/api/networks/{nid}")  # its resources go with it, and out of the group
    assert cur.ok("GET", f"/api/groups/{group['id']}")["resources"] is None
    assert cur.call("DELETE", f"/api/groups/{group['id']}").status == 200


def test_network_routers(cur: Emulator) -> None:
    group = cur.group("routers")
    peer = cur.add_peers(peers=[{"hostname": "r1", "groups": [group["id"]]}])[0]
    nid = cur.ok("POST", "/api/networks", {"name": "n"})["id"]
    neither = cur.call("POST", f"/api/networks/{nid}/routers", {"metric": 100})
    assert neither.status == 400 and neither.body["message"] == "either peer or peer_groups must be provided"
    both = cur.call("POST", f"/api/networks/{nid}/routers", {"peer": peer["id"], "peer_groups": [group["id"]]})
    assert both.status == 400 and both.body["message"] == "peer and peer_groups cannot be set at the same time"
    router = cur.ok("POST", f"/api/networks/{nid}/routers",
                    {"peer_groups": [group["id"]], "metric": 100, "masquerade": True, "enabled": False})
    assert router["enabled"] is True and router["peer"] == "" and router["peer_groups"] == [group["id"]]
    assert cur.ok("GET", f"/api/networks/{nid}")["routing_peers_count"] == 1
    in_use = cur.call("DELETE", f"/api/groups/{group['id']}")
    assert in_use.status == 400 and in_use.body["message"] == f"group has been linked to network router: {router['id']}"
    updated = cur.ok("PUT", f"/api/networks/{nid}/routers/{router['id']}",
                     {"peer": peer["id"], "metric": 5, "masquerade": False, "enabled": False})
    assert updated["peer"] == peer["id"] and updated["metric"] == 5 and updated["enabled"] is False
    assert [item["id"] for item in cur.ok("GET", "/api/networks/routers")] == [router["id"]]
    assert cur.call("DELETE", f"/api/networks/{nid}/routers/{router['id']}").body == {}
    missing = cur.call("GET", f"/api/networks/{nid}/routers/{router['id']}")
    assert missing.status == 404


def test_networks_absent_in_other_dialects(emu: Emulator) -> None:
    assert emu.call("GET", "/api/networks").status == 404
    assert emu.call("GET", "/api/dns/zones").status == 404


# DNS zones ---------------------------------------------------------------------------------
def test_dns_zones_and_records(cur: Emulator) -> None:
    all_id = cur.all_group()["id"]
    zone = cur.ok("POST", "/api/dns/zones", {"name": "corp", "domain": "corp.example", "distribution_groups": [all_id]})
    assert zone["enabled"] is True and zone["records"] == [] and zone["enable_search_domain"] is False
    zid = zone["id"]
    for body, status, message in (
            ({"name": "", "domain": "a.example", "distribution_groups": [all_id]}, 422, "zone name is required"),
            ({"name": "x", "domain": "bad domain", "distribution_groups": [all_id]}, 422, "invalid zone domain format"),
            ({"name": "x", "domain": "b.example", "distribution_groups": []}, 422,
             "at least one distribution group is required"),
            ({"name": "x", "domain": "corp.example", "distribution_groups": [all_id]}, 409,
             "zone with domain corp.example already exists"),
            ({"name": "x", "domain": "netbird.selfhosted", "distribution_groups": [all_id]}, 422,
             "zone domain netbird.selfhosted conflicts with peer dns domain")):
        answer = cur.call("POST", "/api/dns/zones", body)
        assert (answer.status, answer.body["message"]) == (status, message)
    moved = cur.call("PUT", f"/api/dns/zones/{zid}", {"name": "corp", "domain": "other.example",
                                                      "distribution_groups": [all_id]})
    assert moved.status == 422 and moved.body["message"] == "zone domain cannot be updated"
    record = cur.ok("POST", f"/api/dns/zones/{zid}/records",
                    {"name": "www.corp.example", "type": "A", "content": "10.1.1.1", "ttl": 300})
    assert record == {"id": record["id"], "name": "www.corp.example", "type": "A", "content": "10.1.1.1", "ttl": 300}
    for body, status, message in (
            ({"name": "www.elsewhere.example", "type": "A", "content": "10.1.1.1", "ttl": 1}, 422,
             "record name does not belong to zone"),
            ({"name": "www.corp.example", "type": "A", "content": "10.1.1.1", "ttl": 1}, 409,
             "identical record already exists"),
            ({"name": "www.corp.example", "type": "CNAME", "content": "x.example", "ttl": 1}, 422,
             "an a, aaaa, or cname record with name www.corp.example already exists"),
            ({"name": "v6.corp.example", "type": "AAAA", "content": "10.1.1.1", "ttl": 1}, 422,
             "aaaa record must be a valid ipv6 address"),
            ({"name": "m.corp.example", "type": "MX", "content": "x", "ttl": 1}, 422,
             "invalid record type, must be a, aaaa, or cname")):
        answer = cur.call("POST", f"/api/dns/zones/{zid}/records", body)
        assert (answer.status, answer.body["message"]) == (status, message)
    updated = cur.ok("PUT", f"/api/dns/zones/{zid}/records/{record['id']}",
                     {"name": "www.corp.example", "type": "A", "content": "10.1.1.2", "ttl": 60})
    assert updated["content"] == "10.1.1.2"
    assert cur.ok("GET", f"/api/dns/zones/{zid}")["records"] == [updated]
    assert cur.call("DELETE", f"/api/dns/zones/{zid}/records/{record['id']}").body == {}
    assert cur.ok("GET", f"/api/dns/zones/{zid}/records") == []
    assert cur.call("DELETE", f"/api/dns/zones/{zid}").body == {}
    gone = cur.call("GET", f"/api/dns/zones/{zid}")
    assert gone.status == 404 and gone.body["message"] == f"zone: {zid} not found"


# groups ------------------------------------------------------------------------------------
def test_group_delete_wording(cur: Emulator) -> None:
    missing = cur.call("DELETE", "/api/groups/nope")
    assert missing.status == 400 and missing.body["message"] == "group: nope not found"
    all_group = cur.call("DELETE", f"/api/groups/{cur.all_group()['id']}")
    assert all_group.status == 400 and all_group.body["message"] == "deleting group ALL is not allowed"
    acl = cur.group("acl")
    cur.ok("POST", "/api/routes", _route_body(cur, access_control_groups=[acl["id"]]))
    linked = cur.call("DELETE", f"/api/groups/{acl['id']}")
    assert linked.status == 400 and linked.body["message"] == "group has been linked to route: net"


def test_sandbox_and_app_take_current() -> None:
    from tests.emulator.sandbox import parse_args  # pylint: disable=import-outside-toplevel
    from tests.emulator.server import App  # pylint: disable=import-outside-toplevel
    from tests.emulator.tokens import make_token  # pylint: disable=import-outside-toplevel

    assert parse_args(["--dialect", "current"]).dialect == "current"
    app = App(make_token(), dialect="current", example=True)
    assert app.dialect.current and all(XID.match(key) for key in app.state.setup_keys)


def test_networks_list_with_a_router_created_with_a_peer_only(cur: Emulator) -> None:
    """v0.77.1 stores peer_groups null for a router given only a peer; the networks list still answers."""
    peer = cur.add_peers(peers=[{"hostname": "r2"}])[0]
    nid = cur.ok("POST", "/api/networks", {"name": "office"})["id"]
    cur.ok("POST", f"/api/networks/{nid}/routers", {"peer": peer["id"], "metric": 100, "masquerade": True, "enabled": True})
    assert cur.ok("GET", "/api/networks")[0]["routing_peers_count"] == 1


def test_a_group_renamed_all_cannot_be_deleted_but_is_changed_while_it_holds_fewer_peers(cur: Emulator) -> None:
    """v0.77 refuses to update the group named All with the most peers, and to delete any group named All."""
    peer = cur.add_peers(count=1)["ids"][0]
    team = cur.group("team")
    assert cur.call("PUT", f"/api/groups/{team['id']}", {"name": "All", "peers": []}).status == 200
    refused = cur.call("DELETE", f"/api/groups/{team['id']}")
    assert refused.status == 400 and refused.body["message"] == "deleting group ALL is not allowed"
    built_in = next(g for g in cur.ok("GET", "/api/groups") if g["name"] == "All" and g["id"] != team["id"])
    assert built_in["peers_count"] == 1 and [p["id"] for p in built_in["peers"]] == [peer]
    assert cur.call("PUT", f"/api/groups/{built_in['id']}", {"name": "All"}).status == 422


# peers filtered by name and address --------------------------------------------------------
def _names(emu: Emulator, query: str) -> list[str]:
    return sorted(peer["name"] for peer in emu.ok("GET", "/api/peers?" + query))


def test_peers_filtered_by_name_and_ip_like_v077_and_ignored_by_netbird(cur: Emulator, nb: Emulator) -> None:
    """v0.77.1 filters GET /api/peers with SQL LIKE '%text%' (any case, _ any character: seen on the real server in
    tests/integration/test_real_servers.py); v0.27 ignores both parameters."""
    for emu in (cur, nb):
        key = emu.setup_key("filter")
        for host in ("web-1", "web-10", "DB_1", "db-2"):
            emu.enroll(key["key"], host)
    assert _names(cur, "name=WEB-1") == ["web-1", "web-10"]
    assert _names(cur, "name=db_") == ["DB_1", "db-2"]
    assert _names(cur, "name=nothing") == []
    one = cur.ok("GET", "/api/peers?name=web-10")[0]
    by_address = cur.ok("GET", "/api/peers?ip=" + one["ip"])  # a substring: 100.64.0.1 finds 100.64.0.10 too
    assert "web-10" in [p["name"] for p in by_address] and all(one["ip"] in p["ip"] for p in by_address)
    assert _names(nb, "name=web-1") == _names(nb, "name=nothing") == sorted(p["name"] for p in nb.ok("GET", "/api/peers"))
