"""Groups, peers and enrollment."""

from __future__ import annotations

from .conftest import Emulator


def test_new_account_has_all_group_and_default_policy(emu: Emulator) -> None:
    groups = emu.ok("GET", "/api/groups")
    assert [g["name"] for g in groups] == ["All"]
    assert groups[0]["issued"] == "api" and groups[0]["peers_count"] == 0
    assert groups[0]["peers"] == (None if emu.netbird else [])
    policies = emu.ok("GET", "/api/policies")
    assert [p["name"] for p in policies] == ["Default"]
    rule = policies[0]["rules"][0]
    assert rule["id"] == policies[0]["id"] and rule["protocol"] == "all" and rule["bidirectional"]
    assert [s["name"] for s in rule["sources"]] == ["All"]


def test_group_crud_and_events(emu: Emulator) -> None:
    key = emu.setup_key()
    peer = emu.enroll(key["key"], "web1")
    created = emu.group("web", [peer["id"]])
    assert created["name"] == "web" and created["peers"] == [{"id": peer["id"], "name": "web1"}]
    assert created["peers_count"] == 1 and created["issued"] == "api"
    assert emu.ok("GET", f"/api/groups/{created['id']}") == created
    updated = emu.ok("PUT", f"/api/groups/{created['id']}", {"name": "web2"})
    assert updated["name"] == "web2" and updated["peers_count"] == 0  # omitted peers clear membership
    codes = [e["activity_code"] for e in emu.events()]
    assert codes[:4] == ["peer.group.delete", "peer.group.add", "group.add", "setupkey.peer.add"]
    deleted = emu.call("DELETE", f"/api/groups/{created['id']}")
    assert deleted.status == 200 and deleted.body == ({} if emu.netbird else None)
    assert emu.events()[0]["activity_code"] == "group.delete"
    missing = emu.call("GET", f"/api/groups/{created['id']}")
    assert missing.status == 404 and missing.body["message"] == f"group with id {created['id']} not found"


def test_group_validations(emu: Emulator) -> None:
    emu.group("dup")
    conflict = emu.call("POST", "/api/groups", {"name": "dup"})
    assert conflict.status == 409 and conflict.body == {"message": "group with name dup already exists", "code": 409}
    assert emu.call("POST", "/api/groups", {"name": "All"}).status == 409
    empty = emu.call("POST", "/api/groups", {"name": ""})
    assert empty.status == 422 and empty.body["message"] == "group name shouldn't be empty"
    bad_peer = emu.call("POST", "/api/groups", {"name": "x", "peers": ["nope"]})
    assert bad_peer.status == 422 and bad_peer.body["message"] == 'peer with id "nope" not found'
    all_id = emu.all_group()["id"]
    put_all = emu.call("PUT", f"/api/groups/{all_id}", {"name": "All"})
    assert put_all.status == 422 and put_all.body["message"] == "updating group all is not allowed"
    delete_all = emu.call("DELETE", f"/api/groups/{all_id}")
    assert delete_all.status == 422 and delete_all.body["message"] == "deleting group all is not allowed"
    assert emu.call("PUT", "/api/groups/unknown", {"name": "x"}).status == 404


def test_delete_unknown_group_differs_by_dialect(emu: Emulator) -> None:
    response = emu.call("DELETE", "/api/groups/unknown")
    if emu.netbird:
        assert response.status == 200 and response.body == {}
    else:
        assert response.status == 404


def test_group_in_use_cannot_be_deleted(emu: Emulator) -> None:
    group = emu.group("used")
    emu.setup_key("k1", auto_groups=[group["id"]])
    response = emu.call("DELETE", f"/api/groups/{group['id']}")
    assert response.status == 400
    assert response.body == {"message": "group has been linked to setup key: k1", "code": 400}
    other = emu.group("Policy-Used")
    emu.ok("POST", "/api/policies", {"name": "P", "description": "", "enabled": True, "rules": [{
        "name": "r", "enabled": True, "action": "accept", "bidirectional": True, "protocol": "all",
        "sources": [other["id"]], "destinations": [other["id"]]}]})
    response = emu.call("DELETE", f"/api/groups/{other['id']}")
    assert response.body["message"] == "group has been linked to policy: P"  # verbatim, not lower-cased
    dns = emu.group("dns")
    emu.ok("PUT", "/api/dns/settings", {"disabled_management_groups": [dns["id"]]})
    response = emu.call("DELETE", f"/api/groups/{dns['id']}")
    assert response.body["message"] == "group has been linked to disabled DNS management groups: dns"


def test_group_in_use_by_user_and_route_and_nameserver(emu: Emulator) -> None:
    group = emu.group("g")
    user = emu.add_user(name="svc", role="user", is_service_user=True, auto_groups=[group["id"]])
    response = emu.call("DELETE", f"/api/groups/{group['id']}")
    assert response.body["message"] == f"group has been linked to user: {user['id']}"
    key = emu.setup_key()
    peer = emu.enroll(key["key"], "router")
    routed = emu.group("routed")
    emu.ok("POST", "/api/routes", {"network": "10.0.0.0/24", "network_id": "net", "description": "", "enabled": True,
                                   "peer": peer["id"], "metric": 10, "masquerade": False, "groups": [routed["id"]]})
    assert emu.call("DELETE", f"/api/groups/{routed['id']}").body["message"] == "group has been linked to route: net"
    ns_group = emu.group("ns")
    emu.ok("POST", "/api/dns/nameservers", {"name": "NS", "description": "", "enabled": True, "primary": True,
                                            "domains": [], "search_domains_enabled": False, "groups": [ns_group["id"]],
                                            "nameservers": [{"ip": "1.1.1.1", "ns_type": "udp", "port": 53}]})
    response = emu.call("DELETE", f"/api/groups/{ns_group['id']}")
    assert response.body["message"] == "group has been linked to name server groups: NS"


def test_enroll_with_setup_key(emu: Emulator) -> None:
    group = emu.group("auto")
    key = emu.setup_key("enroll", auto_groups=[group["id"]])
    peer = emu.enroll(key["key"], "web.example.com", os="linux")
    assert peer["hostname"] == "web.example.com" and peer["user_id"] == ""
    assert peer["ip"].startswith("100.64.")
    assert sorted(g["name"] for g in peer["groups"]) == ["All", "auto"]
    assert peer["dns_label"] == ("web.netbird.selfhosted" if emu.netbird else "web")
    second = emu.enroll(key["key"], "web")
    assert second["dns_label"].split(".")[0] == "web-1" and second["ip"] != peer["ip"]
    stored = emu.ok("GET", f"/api/setup-keys/{key['id']}")
    assert stored["used_times"] == 2 and stored["last_used"] != "0001-01-01T00:00:00Z"
    event = emu.events("setupkey.peer.add")[0]
    assert event["initiator_id"] == str(key["id"]) and event["target_id"] == second["id"]
    assert event["meta"]["setup_key_name"] == "enroll"
    all_group = emu.all_group()
    assert all_group["peers_count"] == 2


def test_enroll_rejects_unknown_and_invalid_keys(emu: Emulator) -> None:
    response = emu.raw("POST", "/_emulator/enroll", b'{"setup_key": "NOPE", "hostname": "h"}')
    assert response.status == 404
    key = emu.setup_key("once", type="one-off", usage_limit=5)
    assert key["usage_limit"] == 1
    emu.enroll(key["key"], "h1")
    response = emu.raw("POST", "/_emulator/enroll", ('{"setup_key": "%s", "hostname": "h2"}' % key["key"]).encode())
    assert response.status == 412
    assert emu.ok("GET", f"/api/setup-keys/{key['id']}")["state"] == "overused"


def test_enroll_with_user_and_login_expiration_rules(emu: Emulator) -> None:
    owner_peer = emu.control("POST", "enroll", {"user_id": "owner-user", "hostname": "laptop"})
    assert owner_peer["user_id"] == "owner-user" and owner_peer["login_expiration_enabled"] is True
    assert emu.events("user.peer.add")[0]["target_id"] == owner_peer["id"]
    updated = emu.ok("PUT", f"/api/peers/{owner_peer['id']}", {"name": "laptop", "ssh_enabled": False,
                                                               "login_expiration_enabled": False})
    assert updated["login_expiration_enabled"] is False
    key = emu.setup_key()
    key_peer = emu.enroll(key["key"], "server")
    response = emu.call("PUT", f"/api/peers/{key_peer['id']}", {"name": "server", "ssh_enabled": False,
                                                                "login_expiration_enabled": True})
    assert response.status == 412
    assert "login expiration can't be updated" in response.body["message"]


def test_peer_get_update_delete(emu: Emulator) -> None:
    key = emu.setup_key()
    first = emu.enroll(key["key"], "one")
    second = emu.enroll(key["key"], "two")
    single = emu.ok("GET", f"/api/peers/{first['id']}")
    assert [p["id"] for p in single["accessible_peers"]] == [second["id"]]
    assert set(single["accessible_peers"][0]) == {"id", "name", "ip", "dns_label", "user_id"}
    assert "accessible_peers_count" not in single
    listed = emu.ok("GET", "/api/peers")
    assert {p["id"]: p["accessible_peers_count"] for p in listed} == {first["id"]: 1, second["id"]: 1}
    assert all("accessible_peers" not in p for p in listed)
    renamed = emu.ok("PUT", f"/api/peers/{first['id']}", {"name": "One", "ssh_enabled": True, "login_expiration_enabled": False})
    assert renamed["name"] == "One" and renamed["ssh_enabled"] is True
    assert renamed["dns_label"].split(".")[0] == "one-1"  # its own label counts as taken
    codes = [e["activity_code"] for e in emu.events()[:2]]
    assert codes == ["peer.rename", "peer.ssh.enable"]
    assert emu.events("peer.ssh.enable")[0]["target_id"] == first["ip"]
    empty_name = emu.call("PUT", f"/api/peers/{first['id']}", {"name": "", "ssh_enabled": True,
                                                               "login_expiration_enabled": False})
    assert empty_name.status == 500
    deleted = emu.call("DELETE", f"/api/peers/{first['id']}")
    assert deleted.status == 200
    assert emu.all_group()["peers_count"] == 1
    assert emu.events()[0]["activity_code"] == "user.peer.delete"
    assert emu.call("GET", f"/api/peers/{first['id']}").status == 404
    assert emu.call("DELETE", f"/api/peers/{first['id']}").status == 404
    assert emu.call("PUT", "/api/peers/nope", {"name": "x"}).status == 404


def test_peer_delete_disables_single_peer_routes(emu: Emulator) -> None:
    key = emu.setup_key()
    peer = emu.enroll(key["key"], "gw")
    route = emu.ok("POST", "/api/routes", {"network": "10.9.0.0/16", "network_id": "n", "description": "",
                                           "enabled": True, "peer": peer["id"], "metric": 9999, "masquerade": True,
                                           "groups": [emu.all_group()["id"]]})
    emu.ok("DELETE", f"/api/peers/{peer['id']}")
    after = emu.ok("GET", f"/api/routes/{route['id']}")
    assert after["enabled"] is False and after["peer"] == ""


def test_peer_groups_shape_by_dialect(emu: Emulator) -> None:
    peer = emu.control("POST", "peers", {"peers": [{"hostname": "lonely"}]})[0]
    single = emu.ok("GET", f"/api/peers/{peer['id']}")
    summary = single["groups"][0]
    assert summary["name"] == "All"
    assert ("issued" in summary) is (not emu.netbird)


def test_bulk_peer_seed_and_list_order(emu: Emulator) -> None:
    group = emu.group("bulk")
    result = emu.control("POST", "peers", {"count": 30, "groups": [group["id"]]})
    assert result["created"] == 30 and len(result["ids"]) == 30
    assert emu.ok("GET", f"/api/groups/{group['id']}")["peers_count"] == 30
    orders = [[p["id"] for p in emu.ok("GET", "/api/peers")] for _listing in range(3)]
    if emu.netbird:
        assert len({tuple(order) for order in orders}) > 1
    else:
        assert orders[0] == orders[1] == orders[2] == result["ids"]


def test_current_peer_put_moves_the_peer_like_v0771(cur: Emulator, emu: Emulator) -> None:
    key = cur.setup_key()
    web, db = cur.enroll(key["key"], "web"), cur.enroll(key["key"], "db")
    body = {"name": "web", "ssh_enabled": False, "login_expiration_enabled": False, "inactivity_expiration_enabled": False}
    taken = [p["ip"] for p in cur.ok("GET", "/api/peers")]
    free = next(f"100.64.250.{n}" for n in range(2, 250) if f"100.64.250.{n}" not in taken)
    moved = cur.ok("PUT", f"/api/peers/{web['id']}", dict(body, ip=free))
    assert moved["ip"] == free
    event = cur.events("peer.ip.update")[0]
    assert event["target_id"] == web["id"] and (event["meta"]["old_ip"], event["meta"]["ip"]) == (web["ip"], free)
    assert cur.ok("PUT", f"/api/peers/{web['id']}", dict(body, ip=free))["ip"] == free  # the same: no change
    assert len(cur.events("peer.ip.update")) == 1
    cases = [
        ("nope", 'invalid ip address nope: parseaddr("nope"): unable to parse ip'),
        ("10.1.2.3", "update peer ip transaction: ip 10.1.2.3 is not within the account network range 100.64.0.0/16"),
        (db["ip"], f"update peer ip transaction: ip {db['ip']} is already assigned to peer {db['id']}"),
    ]
    for address, message in cases:
        refused = cur.call("PUT", f"/api/peers/{web['id']}", dict(body, ip=address))
        assert refused.status == 422 and refused.body["message"] == message
    # v0.27 has no such member: it is ignored
    old_key = emu.setup_key()
    old = emu.enroll(old_key["key"], "web")
    assert emu.ok("PUT", f"/api/peers/{old['id']}", dict(body, ip=free))["ip"] == old["ip"]


def test_a_group_renamed_all_is_not_the_all_group_a_server_refuses_to_change(emu: Emulator) -> None:
    """Both releases take a rename onto All (no name check on update); the group they then refuse to change is the one
    they take for All: v0.27 the first named All (the built-in one here), v0.77 the one with the most peers."""
    built_in = emu.all_group()
    team = emu.group("team")
    renamed = emu.call("PUT", f"/api/groups/{team['id']}", {"name": "All"})
    assert renamed.status == 200 and renamed.body["name"] == "All" and renamed.body["issued"] == "api"
    assert emu.call("PUT", f"/api/groups/{team['id']}", {"name": "All"}).status == 200
    assert emu.call("PUT", f"/api/groups/{built_in['id']}", {"name": "All"}).status == 422
