"""Answers the emulator gives as the real servers were seen to give them (tests/scenarios compares every module's
exchanges with a real v0.27.6 and v0.77.1; these pin what those comparisons and direct calls found, so that they hold
without the real servers too)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import Emulator

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
PAGE_NOT_FOUND = b"404 page not found\n"


def _policy(group_id: str, **fields: Any) -> dict[str, Any]:
    rule = {"name": "r", "enabled": True, "action": "accept", "bidirectional": True, "protocol": "all",
            "sources": [group_id], "destinations": [group_id]}
    body = {"name": "p", "enabled": True, "rules": [rule]}
    body.update(fields)
    return body


# accounts ---------------------------------------------------------------------------------------------------------
def test_account_id_is_a_uuid_and_named_in_v027_peer_messages(nb: Emulator) -> None:
    account_id = nb.ok("GET", "/api/accounts")[0]["id"]
    assert UUID.match(account_id)
    missing = nb.call("GET", "/api/peers/unknown-id")
    assert missing.status == 404
    assert missing.body["message"] == f"peer with unknown-id not found under account {account_id}"


def test_v027_account_put_checks_settings_before_the_account(nb: Emulator) -> None:
    """v0.27's `settings` is a plain member (left out: zero settings, 422) and is checked before the lookup."""
    account_id = nb.ok("GET", "/api/accounts")[0]["id"]
    for body in ({}, {"settings": None}):
        answer = nb.call("PUT", f"/api/accounts/{account_id}", body)
        assert answer.status == 422 and answer.body["message"] == "peer login expiration can't be smaller than one hour"
    assert nb.call("PUT", "/api/accounts/other", {"settings": {"peer_login_expiration": 1}}).status == 422
    assert nb.call("PUT", "/api/accounts/other", {"settings": {"peer_login_expiration": 86400}}).status == 404
    dropped = nb.ok("PUT", f"/api/accounts/{account_id}", {"settings": {"peer_login_expiration": 86400}})
    assert "extra" not in dropped["settings"]  # a PUT without extra drops it (v0.27)
    assert "extra" not in nb.ok("GET", "/api/accounts")[0]["settings"]


CURRENT_ACCOUNT_SETTINGS = {
    "agent_network_only", "auto_update_always", "auto_update_version", "dns_domain", "embedded_idp_enabled", "extra",
    "groups_propagation_enabled", "ipv6_enabled_groups", "jwt_allow_groups", "jwt_groups_claim_name",
    "jwt_groups_enabled", "lazy_connection_enabled", "local_auth_disabled", "local_mfa_enabled", "metrics_push_enabled",
    "network_range", "peer_expose_enabled", "peer_expose_groups", "peer_inactivity_expiration",
    "peer_inactivity_expiration_enabled", "peer_login_expiration", "peer_login_expiration_enabled",
    "regular_users_view_blocked", "routing_peer_dns_resolution_enabled"}


def test_v077_account_members(cur: Emulator) -> None:
    account = cur.ok("GET", "/api/accounts")[0]
    assert set(account) == {"id", "settings", "created_at", "created_by", "domain", "domain_category", "onboarding"}
    assert account["onboarding"] == {"onboarding_flow_pending": False, "signup_form_pending": False}
    settings = account["settings"]
    assert set(settings) == CURRENT_ACCOUNT_SETTINGS
    assert settings["ipv6_enabled_groups"] is None and settings["peer_expose_groups"] is None
    assert settings["network_range"] == "100.64.0.0/16" and settings["auto_update_version"] == "disabled"
    assert settings["embedded_idp_enabled"] is True  # the emulator runs with --idp: v0.77's IdP is the embedded one
    assert settings["extra"] == {"peer_approval_enabled": False, "user_approval_required": False,
                                 "network_traffic_logs_enabled": False, "network_traffic_logs_groups": None,
                                 "network_traffic_packet_counter_enabled": False}


def test_v077_account_put_answers_the_request(cur: Emulator) -> None:
    """The PUT answer shows the settings as the request made them; extra is kept when left out."""
    account_id = cur.ok("GET", "/api/accounts")[0]["id"]
    answer = cur.ok("PUT", f"/api/accounts/{account_id}", {"settings": {"peer_login_expiration": 86400}})["settings"]
    assert "network_range" not in answer and answer["embedded_idp_enabled"] is False
    assert answer["auto_update_version"] == "" and answer["extra"]["peer_approval_enabled"] is False
    read = cur.ok("GET", "/api/accounts")[0]["settings"]
    assert read["network_range"] == "100.64.0.0/16" and read["embedded_idp_enabled"] is True
    assert read["auto_update_version"] == ""
    settings = {"peer_login_expiration": 86400, "network_range": "100.64.0.0/16"}
    sent = cur.ok("PUT", f"/api/accounts/{account_id}", {"settings": settings})
    assert sent["settings"]["network_range"] == "100.64.0.0/16"


@pytest.mark.parametrize("settings, status, message", [
    ({"peer_login_expiration": 86400, "network_range": "bad"}, 422,
     "invalid cidr format: netip.parseprefix(\"bad\"): no '/'"),
    ({"peer_login_expiration": 86400, "network_range": "10.0.0.0/33"}, 422,
     'invalid cidr format: netip.parseprefix("10.0.0.0/33"): prefix length out of range'),
    ({"peer_login_expiration": 86400, "network_range": "10.0.0.300/24"}, 422,
     'invalid cidr format: netip.parseprefix("10.0.0.300/24"): parseaddr("10.0.0.300"): ipv4 field has value >255'),
    ({"peer_login_expiration": 86400, "network_range": "10.0.0.0/30"}, 422,
     "network range too small: minimum size is /28 for ipv4"),
    ({"peer_login_expiration": 86400, "network_range": "127.0.0.0/8"}, 422, "loopback address range not allowed"),
    ({"peer_login_expiration": 86400, "network_range": "fd00::/64"}, 422, "network range must be an ipv4 address"),
    ({"peer_login_expiration": 86400, "network_range_v6": "fd00::/40"}, 422,
     "network range too large: maximum size is /48 for ipv6"),
    ({"peer_login_expiration": 86400, "ipv6_enabled_groups": ["nope"]}, 422, "ipv6 enabled group nope does not exist"),
    ({"peer_login_expiration": 86400, "auto_update_version": "bogus"}, 500, "internal server error"),
    ({"peer_login_expiration": 86400, "agent_network_only": True}, 422,
     "agent network only mode requires dashboard_features.agent_network to be enabled"),
    ({"peer_login_expiration": 1, "peer_expose_enabled": True}, 422, "peer expose requires at least one group"),
])
def test_v077_account_put_refusals(cur: Emulator, settings: dict[str, Any], status: int, message: str) -> None:
    account_id = cur.ok("GET", "/api/accounts")[0]["id"]
    answer = cur.call("PUT", f"/api/accounts/{account_id}", {"settings": settings})
    assert (answer.status, answer.body["message"]) == (status, message)


def test_v077_account_of_another_account(cur: Emulator) -> None:
    refused = cur.call("PUT", "/api/accounts/other", {"settings": {"peer_login_expiration": 1}})
    assert refused.status == 403
    assert refused.body["message"] == "failed to validate user permissions: user is not part of this account"
    missing = cur.call("DELETE", "/api/accounts/other")
    assert (missing.status, missing.body["message"]) == (404, "account not found: other")


# not found, other methods -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("method, path, body, status, message", [
    ("GET", "/api/groups/x", None, 404, "group: x not found"),
    ("PUT", "/api/groups/x", {}, 404, "group: x not found"),
    ("GET", "/api/peers/x", None, 404, "peer not found: x"),
    ("PUT", "/api/peers/x", {}, 404, "peer not found: x"),
    ("DELETE", "/api/peers/x", None, 404, "peer x account not found"),
    ("GET", "/api/routes/x", None, 404, "route: x not found"),
    ("DELETE", "/api/routes/x", None, 404, "failed to delete route x: route: x not found"),
    ("GET", "/api/posture-checks/x", None, 404, "posture checks: x not found"),
    ("PUT", "/api/posture-checks/x", {}, 404, "posture checks: x not found"),
    ("DELETE", "/api/posture-checks/x", None, 404, "posture checks: x not found"),
    ("GET", "/api/dns/nameservers/x", None, 404, "nameserver group: x not found"),
    ("PUT", "/api/dns/nameservers/x", {}, 404, "nameserver group: x not found"),
    ("DELETE", "/api/dns/nameservers/x", None, 404, "nameserver group: x not found"),
    ("PUT", "/api/users/x", {}, 404, "user: x not found"),
    ("DELETE", "/api/users/x", None, 404, "user: x not found"),
    ("GET", "/api/users/x/tokens", None, 404, "user: x not found"),
    ("POST", "/api/users/x/tokens", {"name": "t", "expires_in": 3}, 404, "user: x not found"),
    ("DELETE", "/api/users/x/tokens/y", None, 404, "user: x not found"),
])
def test_v077_not_found_messages(cur: Emulator, method: str, path: str, body: Any, status: int, message: str) -> None:
    answer = cur.call(method, path, body)
    assert (answer.status, answer.body["message"]) == (status, message)


def test_other_methods_of_a_known_path(cur: Emulator, nb: Emulator) -> None:
    for method, path in (("GET", "/api/users/x"), ("POST", "/api/accounts"), ("DELETE", "/api/dns/settings")):
        assert nb.call(method, path).status == 405
        answer = cur.call(method, path)
        assert (answer.status, answer.raw) == (404, PAGE_NOT_FOUND)


def test_v077_unknown_records_and_group_peers(cur: Emulator) -> None:
    assert cur.ok("GET", "/api/dns/zones/unknown/records") == []
    group = cur.ok("POST", "/api/groups", {"name": "g", "peers": ["nope"]})  # kept, not listed
    assert group["peers"] is None and group["peers_count"] == 0


# posture checks (v0.77) -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("checks, message", [
    ({}, "posture checks shouldn't be empty"),
    ({"nb_version_check": {}}, "nbversioncheck minimum version shouldn't be empty"),
    ({"nb_version_check": {"min_version": "abc"}}, "nbversioncheck version: abc is not valid"),
    ({"os_version_check": {}}, "osversioncheck at least one os version check is required"),
    ({"os_version_check": {"darwin": {"min_version": ""}}}, "osversioncheck  darwin version:  is not valid"),
    ({"os_version_check": {"linux": {"min_kernel_version": "zz"}}},
     "osversioncheck  linux kernel version: zz is not valid"),
    ({"geo_location_check": {"action": "allow", "locations": []}}, "geolocationcheck locations shouldn't be empty"),
    ({"peer_network_range_check": {"action": "", "ranges": ["10.0.0.0/8"]}},
     "action for peer network range check shouldn't be empty"),
    ({"peer_network_range_check": {"action": "bogus", "ranges": ["10.0.0.0/8"]}},
     "peernetworkrangecheck action is not valid"),
    ({"peer_network_range_check": {"action": "allow", "ranges": []}},
     "peernetworkrangecheck network ranges shouldn't be empty"),
    ({"peer_network_range_check": {"action": "allow", "ranges": ["bad"]}}, "invalid network prefix"),
    ({"process_check": {"processes": []}}, "processcheck processes shouldn't be empty"),
    ({"process_check": {"processes": [{}]}}, "processcheck path shouldn't be empty"),
])
def test_v077_posture_check_refusals_are_422(cur: Emulator, checks: dict[str, Any], message: str) -> None:
    answer = cur.call("POST", "/api/posture-checks", {"name": "x", "checks": checks})
    assert (answer.status, answer.body["message"]) == (422, message)


def test_v077_posture_check_name(cur: Emulator) -> None:
    empty = cur.call("POST", "/api/posture-checks", {"name": "", "checks": {}})
    assert (empty.status, empty.body["message"]) == (422, "posture checks name shouldn't be empty")
    body = {"name": "x", "checks": {"nb_version_check": {"min_version": "0.25.0"}}}
    cur.ok("POST", "/api/posture-checks", body)
    taken = cur.call("POST", "/api/posture-checks", body)
    assert (taken.status, taken.body["message"]) == (422, "posture checks with name x already exists")
    assert [e["activity_code"] for e in cur.events()][:1] == ["posture.check.create"]


# null and [] ------------------------------------------------------------------------------------------------------
def test_source_posture_checks(cur: Emulator, nb: Emulator) -> None:
    """v0.77 keeps the list as sent (null when never sent); v0.27 reads it from a copy ([]), its write answers echo
    the request. The seeded Default policy has [] on both."""
    for emu in (cur, nb):
        assert [p["source_posture_checks"] for p in emu.ok("GET", "/api/policies")] == [[]]
        created = emu.ok("POST", "/api/policies", _policy(emu.all_group()["id"]))
        assert created["source_posture_checks"] is None
        read = emu.ok("GET", f"/api/policies/{created['id']}")["source_posture_checks"]
        assert read == (None if emu is cur else [])


def test_v077_network_lists(cur: Emulator) -> None:
    network = cur.ok("POST", "/api/networks", {"name": "n"})
    assert (network["routers"], network["resources"]) == ([], [])
    assert (cur.ok("GET", f"/api/networks/{network['id']}")["routers"]) is None
    assert cur.ok("PUT", f"/api/networks/{network['id']}", {"name": "n"})["routers"] is None
    assert cur.ok("GET", "/api/networks")[0]["routers"] == []
    assert cur.ok("GET", f"/api/networks/{network['id']}/resources") is None


# events (v0.77) ---------------------------------------------------------------------------------------------------
def test_v077_event_meta(cur: Emulator) -> None:
    peer = cur.add_peers(peers=[{"hostname": "web"}])[0]
    cur.ok("PUT", f"/api/peers/{peer['id']}", {"name": "web", "ssh_enabled": True})
    meta = cur.events("peer.ssh.enable")[0]["meta"]
    assert {key: meta[key] for key in meta if key.startswith("location_")} == {
        "location_city_name": "", "location_country_code": "", "location_geo_name_id": "0",
        "location_connection_ip": ""}
    all_id = cur.all_group()["id"]
    cur.ok("POST", "/api/routes", {"network_id": "lan", "network": "10.9.0.0/24", "peer": peer["id"], "metric": 9,
                                   "groups": [all_id], "enabled": True})
    route_meta = cur.events("route.add")[0]["meta"]
    assert route_meta["domains"] == "" and route_meta["peer_groups"] == "<nil>"
    group = cur.group("res")
    network = cur.ok("POST", "/api/networks", {"name": "n"})
    resource = cur.ok("POST", f"/api/networks/{network['id']}/resources",
                      {"name": "r", "address": "10.1.1.1", "groups": [group["id"]], "enabled": True})
    added = cur.events("resource.group.add")[0]
    assert added["target_id"] == group["id"]
    assert added["meta"] == {"name": "res", "id": group["id"], "resource_name": "r", "resource_id": resource["id"],
                             "resource_type": "host"}
    router = cur.ok("POST", f"/api/networks/{network['id']}/routers", {"peer": peer["id"], "metric": 1})
    assert cur.events("network.router.create")[0]["meta"] == {"network_name": "n", "network_id": network["id"],
                                                              "peer": peer["id"], "peer_groups": "[]"}
    assert router["peer"] == peer["id"]


def test_v077_nameserver_domains_and_dns_settings(cur: Emulator) -> None:
    """v0.77 keeps a nameserver group's `domains` as sent (the POST answer shows []; reads null when none was sent);
    a null `disabled_management_groups` changes no row, which it answers as a missing account."""
    all_id = cur.all_group()["id"]
    body = {"name": "ns", "nameservers": [{"ip": "1.1.1.1", "ns_type": "udp", "port": 53}], "groups": [all_id],
            "primary": True, "enabled": True}
    created = cur.ok("POST", "/api/dns/nameservers", body)
    assert created["domains"] == []
    assert cur.ok("GET", f"/api/dns/nameservers/{created['id']}")["domains"] is None
    assert cur.ok("PUT", f"/api/dns/nameservers/{created['id']}", dict(body, domains=[]))["domains"] == []
    assert cur.ok("GET", f"/api/dns/nameservers/{created['id']}")["domains"] == []
    account_id = cur.ok("GET", "/api/accounts")[0]["id"]
    refused = cur.call("PUT", "/api/dns/settings", {})
    assert (refused.status, refused.body["message"]) == (404, f"account not found: {account_id}")
    assert cur.ok("PUT", "/api/dns/settings", {"disabled_management_groups": []}) == {"disabled_management_groups": []}


def test_v077_group_rename_event(cur: Emulator) -> None:
    group = cur.group("old")
    cur.ok("PUT", f"/api/groups/{group['id']}", {"name": "new"})
    event = cur.events("group.update")[0]
    assert (event["target_id"], event["meta"]) == (group["id"], {"old_name": "old", "new_name": "new"})
