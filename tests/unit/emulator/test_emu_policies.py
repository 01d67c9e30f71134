"""Policies and posture checks."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Emulator


def rule(sources: list[str], destinations: list[str], **extra: Any) -> dict[str, Any]:
    values = {"name": "r", "enabled": True, "action": "accept", "bidirectional": True, "protocol": "all",
              "sources": sources, "destinations": destinations}
    values.update(extra)
    return values


def policy(rules: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    values = {"name": "p", "description": "", "enabled": True, "rules": rules}
    values.update(extra)
    return values


def test_policy_crud_forces_rule_ids_and_drops_unknown_groups(emu: Emulator) -> None:
    group = emu.group("web")
    created = emu.ok("POST", "/api/policies", policy([
        rule([group["id"], "unknown"], [group["id"]], id="ignored", protocol="tcp", ports=["443", "8080"]),
    ]))
    assert created["rules"][0]["id"] == created["id"]
    assert [s["id"] for s in created["rules"][0]["sources"]] == [group["id"]]
    assert created["rules"][0]["ports"] == ["443", "8080"]
    assert created["source_posture_checks"] == (None if emu.netbird else [])
    summary = created["rules"][0]["destinations"][0]
    assert ("issued" in summary) is (not emu.netbird)
    # v0.27 reads from a copy of the account, whose list is never nil: [] on GET, though the POST answer echoed null
    assert emu.ok("GET", f"/api/policies/{created['id']}") == dict(created, source_posture_checks=[])
    updated = emu.ok("PUT", f"/api/policies/{created['id']}", policy([rule(["unknown"], [group["id"]])], name="q"))
    assert updated["name"] == "q"
    assert updated["rules"][0]["sources"] == (None if emu.netbird else [])
    assert ("ports" in updated["rules"][0]) is (not emu.netbird)
    codes = [e["activity_code"] for e in emu.events()][:2]
    assert codes == ["policy.update", "policy.add"]
    deleted = emu.call("DELETE", f"/api/policies/{created['id']}")
    assert deleted.status == 200
    missing = emu.call("DELETE", f"/api/policies/{created['id']}")
    assert missing.status == 404 and missing.body["message"] == f"rule with id {created['id']} doesn't exist"
    assert emu.call("GET", f"/api/policies/{created['id']}").status == 404
    assert emu.call("PUT", "/api/policies/nope", policy([rule([], [])])).body["message"] == "couldn't find policy id nope"


@pytest.mark.parametrize("body, message", [
    (policy([rule([], [])], name=""), "policy name shouldn't be empty"),
    (policy([]), "policy rules shouldn't be empty"),
    (policy([rule([], [], action="allow")]), "unknown action type"),
    (policy([rule([], [], protocol="sctp")]), "unknown protocol type: sctp"),
    (policy([rule([], [], protocol="tcp", ports=["0"])]), "valid port value is in 1..65535 range"),
    (policy([rule([], [], protocol="tcp", ports=["90-80"])]), "valid port value is in 1..65535 range"),
    (policy([rule([], [], ports=["80"])]), "for all or icmp protocol ports is not allowed"),
    (policy([rule([], [], protocol="icmp", bidirectional=False)]), "for all or icmp protocol type flow can be only bi-directional"),
    (policy([rule([], [], protocol="udp", bidirectional=False)]), "for all or icmp protocol type flow can be only bi-directional"),
])
def test_policy_validations(emu: Emulator, body: dict[str, Any], message: str) -> None:
    response = emu.call("POST", "/api/policies", body)
    assert response.status == 422 and response.body["message"] == message


def test_port_ranges_only_where_the_spec_is_read_literally(emu: Emulator) -> None:
    response = emu.call("POST", "/api/policies", policy([rule([], [], protocol="tcp", ports=["443", "8000-8100"])]))
    if emu.netbird:  # v0.27.6 parses every entry as an integer
        assert response.status == 422 and response.body["message"] == "valid port value is in 1..65535 range"
    else:
        assert response.status == 200 and response.body["rules"][0]["ports"] == ["443", "8000-8100"]


def test_a_source_group_an_earlier_rule_lists_is_left_out_of_later_rules_in_netbird_answers(emu: Emulator) -> None:
    web, db = emu.group("web"), emu.group("db")
    rules = [rule([web["id"]], [db["id"]], name="one"), rule([web["id"], db["id"]], [web["id"]], name="two"),
             rule([web["id"]], [web["id"]], name="three")]
    created = emu.ok("POST", "/api/policies", policy(rules))
    for answer in (created, emu.ok("GET", f"/api/policies/{created['id']}"), emu.ok("GET", "/api/policies")[-1]):
        shown = [[s["id"] for s in r["sources"] or []] for r in answer["rules"]]
        if emu.netbird:
            # one cache for the answer, filled by sources and destinations: db, the first rule's destination, is
            # left out of the second rule's sources too (seen on a real v0.27.6)
            assert shown == [[web["id"]], [], []], shown
            assert answer["rules"][1]["sources"] is None and answer["rules"][2]["sources"] is None
        else:
            assert shown == [[web["id"]], [web["id"], db["id"]], [web["id"]]], shown
    # the store keeps them all: destinations are not affected
    assert [[d["id"] for d in r["destinations"]] for r in created["rules"]] == [[db["id"]], [web["id"]], [web["id"]]]


def test_policy_posture_checks_unknown_dropped_omitted_cleared(emu: Emulator) -> None:
    check = emu.ok("POST", "/api/posture-checks", {"name": "c", "description": "", "checks": {"nb_version_check": {"min_version": "1"}}})
    created = emu.ok("POST", "/api/policies", policy([rule([], [])], source_posture_checks=[check["id"], "nope"]))
    assert created["source_posture_checks"] == [check["id"]]
    cleared = emu.ok("PUT", f"/api/policies/{created['id']}", policy([rule([], [])]))
    assert cleared["source_posture_checks"] == (None if emu.netbird else [])


def test_posture_check_crud_and_ranges_by_dialect(emu: Emulator) -> None:
    body = {"name": "nets", "description": "d", "checks": {
        "peer_network_range_check": {"action": "allow", "ranges": ["10.1.2.3/8", "192.168.0.0/16"]},
        "geo_location_check": {"action": "deny", "locations": [{"country_code": "de", "city_name": ""}]},
    }}
    created = emu.ok("POST", "/api/posture-checks", body)
    ranges = created["checks"]["peer_network_range_check"]["ranges"]
    assert ranges == (["10.1.2.3/8", "192.168.0.0/16"] if emu.netbird else [["10.1.2.3/8", "192.168.0.0/16"]])
    assert created["checks"]["geo_location_check"]["locations"] == [{"country_code": "de"}]  # stored as sent
    assert emu.ok("GET", f"/api/posture-checks/{created['id']}") == created
    duplicate = emu.call("POST", "/api/posture-checks", body)
    assert duplicate.status == 412 and duplicate.body["message"] == "posture check name should be unique"
    updated = emu.ok("PUT", f"/api/posture-checks/{created['id']}", {"name": "renamed", "checks": {"nb_version_check": {"min_version": "v1.2.3"}}})
    assert updated["checks"] == {"nb_version_check": {"min_version": "v1.2.3"}} and updated["description"] == ""
    assert emu.call("DELETE", f"/api/posture-checks/{created['id']}").status == 200
    gone = emu.call("DELETE", f"/api/posture-checks/{created['id']}")
    assert gone.status == 404 and gone.body["message"] == f"posture checks with id {created['id']} doesn't exist"


def test_posture_check_nested_ranges_accepted_in_seed_only(emu: Emulator) -> None:
    response = emu.call("POST", "/api/posture-checks", {"name": "n", "checks": {
        "peer_network_range_check": {"action": "allow", "ranges": [["10.0.0.0/8"]]}}})
    assert response.status == (400 if emu.netbird else 200)


@pytest.mark.parametrize("checks, status, message", [
    (None, 400, "posture checks shouldn't be empty"),
    ({}, 400, "posture checks shouldn't be empty"),
    ({"nb_version_check": {"min_version": ""}}, 400, "minimum version for NetBird's version check shouldn't be empty"),
    ({"os_version_check": {"linux": {"min_version": "5"}}}, 400,
     "minimum version for at least one OS in the OS version check shouldn't be empty"),
    ({"geo_location_check": {"action": "", "locations": [{"country_code": "DE"}]}}, 400, "action for geolocation check shouldn't be empty"),
    ({"geo_location_check": {"action": "block", "locations": [{"country_code": "DE"}]}}, 400, "action for geolocation check is not valid value"),
    ({"geo_location_check": {"action": "allow", "locations": []}}, 400, "locations for geolocation check shouldn't be empty"),
    ({"geo_location_check": {"action": "allow", "locations": [{"country_code": "DEU"}]}}, 400,
     "country code must be 2 letters (ISO 3166-1 alpha-2 format)"),
    ({"peer_network_range_check": {"action": "allow", "ranges": []}}, 400,
     "network ranges for peer network range check shouldn't be empty"),
    ({"peer_network_range_check": {"action": "allow", "ranges": ["10.0.0.1"]}}, 422, "invalid network prefix"),
    ({"nb_version_check": {"min_version": "abc"}}, 400, "nbversioncheck version: abc is not valid"),
    ({"os_version_check": {"linux": {"min_kernel_version": "x.y"}}}, 400, "osversioncheck  linux kernel version: x.y is not valid"),
])
def test_posture_check_validations(emu: Emulator, checks: Any, status: int, message: str) -> None:
    response = emu.call("POST", "/api/posture-checks", {"name": "c", "checks": checks})
    assert response.status == status and response.body["message"] == message


def test_posture_check_in_use_cannot_be_deleted(emu: Emulator) -> None:
    check = emu.ok("POST", "/api/posture-checks", {"name": "c", "checks": {"nb_version_check": {"min_version": "1"}}})
    emu.ok("POST", "/api/policies", policy([rule([], [])], name="Gated", source_posture_checks=[check["id"]]))
    response = emu.call("DELETE", f"/api/posture-checks/{check['id']}")
    assert response.status == 412
    assert response.body["message"] == "posture checks have been linked to policy: gated"


def test_posture_checks_need_admin_power(emu: Emulator) -> None:
    seeded = emu.add_user(email="svc@example.com", name="svc", role="user", is_service_user=True, token=True)
    response = emu.call("GET", "/api/posture-checks", token=seeded["token"])
    assert response.status == 403
