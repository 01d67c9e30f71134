"""Routes, nameserver groups and DNS settings."""

from __future__ import annotations

from typing import Any

from .conftest import Emulator


def _linux_peer(emu: Emulator, hostname: str, os_name: str = "linux") -> dict[str, Any]:
    key = emu.setup_key(hostname)
    return emu.enroll(key["key"], hostname, os=os_name)


def _route_body(**fields: Any) -> dict[str, Any]:
    body = {"network_id": "office", "network": "10.0.0.5/24", "description": "", "enabled": True,
            "masquerade": True, "metric": 9999}
    body.update(fields)
    return body


def _ns_body(**fields: Any) -> dict[str, Any]:
    body = {"name": "corp", "description": "", "nameservers": [{"ip": "10.0.0.53", "ns_type": "udp", "port": 53}],
            "enabled": True, "primary": False, "domains": ["example.com"], "search_domains_enabled": False}
    body.update(fields)
    return body


def test_route_crud_masks_network_and_renders_by_dialect(emu: Emulator) -> None:
    peer = _linux_peer(emu, "router")
    group = emu.group("servers")
    created = emu.ok("POST", "/api/routes", _route_body(peer=peer["id"], groups=[group["id"]]))
    assert created["network"] == "10.0.0.0/24" and created["network_type"] == "IPv4"
    assert created["peer"] == peer["id"]
    assert ("peer_groups" in created) is (not emu.netbird)  # omitted when empty by deployed servers
    assert emu.ok("GET", f"/api/routes/{created['id']}") == created
    updated = emu.ok("PUT", f"/api/routes/{created['id']}", _route_body(peer_groups=[group["id"]], groups=[group["id"]]))
    assert updated["peer"] == "" and updated["peer_groups"] == [group["id"]]
    assert [e["activity_code"] for e in emu.events()][:2] == ["route.update", "route.add"]
    deleted = emu.call("DELETE", f"/api/routes/{created['id']}")
    assert deleted.status == 200
    missing = emu.call("GET", f"/api/routes/{created['id']}")
    assert missing.status == 404 and missing.body["message"] == "route not found"
    again = emu.call("DELETE", f"/api/routes/{created['id']}")
    assert again.status == 404 and again.body["message"] == f"route with id {created['id']} doesn't exist"


def test_route_validations(emu: Emulator) -> None:
    peer = _linux_peer(emu, "router")
    windows = _linux_peer(emu, "desk", os_name="windows")
    group = emu.group("servers")
    cases = [
        (_route_body(network="nope", peer=peer["id"], groups=[group["id"]]), "invalid network nope"),
        (_route_body(network_id="x" * 41, peer=peer["id"], groups=[group["id"]]), "identifier should be between 1 and 40"),
        (_route_body(peer=peer["id"], peer_groups=[group["id"]], groups=[group["id"]]),
         "only one peer or peer_groups should be provided"),
        (_route_body(groups=[group["id"]]), "only one peer or peer_groups should be provided"),
        (_route_body(peer=windows["id"], groups=[group["id"]]), "non-linux peers are non supported as network routes"),
        (_route_body(peer=peer["id"], groups=[group["id"]], metric=0), "metric should be between 1 and 9999"),
        (_route_body(peer="nope", groups=[group["id"]]), "peer with id nope not found"),
    ]
    for body, message in cases:
        response = emu.call("POST", "/api/routes", body)
        assert response.status == 422, (body, response)
        assert response.body["message"] == message
    created = emu.ok("POST", "/api/routes", _route_body(peer=peer["id"], groups=[group["id"]]))
    both_body = _route_body(peer="", peer_groups=[group["id"]], groups=[group["id"]])
    both = emu.call("PUT", f"/api/routes/{created['id']}", both_body)
    assert both.status == 422 and both.body["message"] == "only peer or peers_group should be provided"
    neither = emu.call("PUT", f"/api/routes/{created['id']}", _route_body(groups=[group["id"]]))
    assert neither.status == 422 and neither.body["message"] == "either peer or peers_group should be provided"
    unknown = emu.call("PUT", "/api/routes/unknown", _route_body(peer=peer["id"], groups=[group["id"]]))
    assert unknown.status == 404


def test_ha_routes_with_single_peers_are_accepted_but_peer_groups_clash(emu: Emulator) -> None:
    one, two = _linux_peer(emu, "router-1"), _linux_peer(emu, "router-2")
    group = emu.group("servers")
    routers = emu.group("routers", [one["id"]])
    for peer in (one, two, one):  # the reference registers single-peer routes under the route id
        emu.ok("POST", "/api/routes", _route_body(peer=peer["id"], groups=[group["id"]]))
    emu.ok("POST", "/api/routes", _route_body(peer_groups=[routers["id"]], groups=[group["id"]]))
    clash = emu.call("POST", "/api/routes", _route_body(peer_groups=[routers["id"]], groups=[group["id"]]))
    assert clash.status == 409
    assert clash.body["message"] == "failed to add route with prefix 10.0.0.0/24 - peer group routers already has this route"
    member = emu.call("POST", "/api/routes", _route_body(peer=one["id"], groups=[group["id"]]))
    assert member.status == 409
    assert member.body["message"] == f"failed to add route with prefix 10.0.0.0/24 - peer {one['id']} already has this route"
    assert len(emu.ok("GET", "/api/routes")) == 4


def test_nameserver_group_crud_and_put_echo(emu: Emulator) -> None:
    group = emu.group("servers")
    created = emu.ok("POST", "/api/dns/nameservers", _ns_body(groups=[group["id"]], nameservers=[
        {"ip": "2001:DB8::0053", "ns_type": "UDP", "port": 5353}]))
    assert created["nameservers"] == [{"ip": "2001:db8::53", "ns_type": "udp", "port": 5353}]
    assert emu.ok("GET", f"/api/dns/nameservers/{created['id']}") == created
    body = _ns_body(groups=[group["id"]], primary=True)
    del body["domains"]
    updated = emu.ok("PUT", f"/api/dns/nameservers/{created['id']}", body)
    assert updated["domains"] == (None if emu.netbird else [])  # the real PUT echoes the request
    assert emu.ok("GET", f"/api/dns/nameservers/{created['id']}")["domains"] == []
    assert emu.call("DELETE", f"/api/dns/nameservers/{created['id']}").status == 200
    missing = emu.call("GET", f"/api/dns/nameservers/{created['id']}")
    assert missing.status == 404 and missing.body["message"] == f"nameserver group with id {created['id']} not found"
    codes = [e["activity_code"] for e in emu.events()][:3]
    assert codes == ["nameserver.group.delete", "nameserver.group.update", "nameserver.group.add"]


def test_nameserver_group_validations(emu: Emulator) -> None:
    group = emu.group("servers")
    prefix = "nameserver group "
    cases = [
        (_ns_body(domains=[]), prefix + "primary status is false and domains are empty, it should be primary or have at "
                                        "least one domain"),
        (_ns_body(primary=True), prefix + "primary status is true and domains are not empty, you should set either "
                                          "primary or domain"),
        (_ns_body(primary=True, domains=[], search_domains_enabled=True),
         prefix + "primary status is true and search domains is enabled, you should not set search domains for primary "
                  "nameservers"),
        (_ns_body(domains=["localhost"]), 'nameserver group got an invalid domain: localhost "domain should consists of '
                                          'only letters, numbers, and hyphens with no leading, trailing hyphens, or spaces"'),
        (_ns_body(name=""), "nameserver group name should be between 1 and 40"),
        (_ns_body(nameservers=[]), "the list of nameservers should be 1 or 3, got 0"),
        (_ns_body(nameservers=[{"ip": "x", "ns_type": "udp", "port": 53}]), "invalid ns servers format"),
        (_ns_body(nameservers=[{"ip": "1.1.1.1", "ns_type": "tcp", "port": 53}]), "invalid ns servers format"),
        (_ns_body(groups=[]), "the list of group ids should not be empty"),
    ]
    for body, message in cases:
        body.setdefault("groups", [group["id"]])
        response = emu.call("POST", "/api/dns/nameservers", body)
        assert response.status == 422, (body, response)
        assert response.body["message"] == message
    emu.ok("POST", "/api/dns/nameservers", _ns_body(groups=[group["id"]]))
    duplicate = emu.call("POST", "/api/dns/nameservers", _ns_body(groups=[group["id"]]))
    assert duplicate.status == 422 and duplicate.body["message"] == "a nameserver group with name corp already exist"


def test_dns_settings_shapes_and_updates(emu: Emulator) -> None:
    settings = emu.ok("GET", "/api/dns/settings")
    expected: dict[str, Any] = {"disabled_management_groups": []}
    assert settings == (expected if emu.netbird else {"items": expected})
    group = emu.group("unmanaged")
    updated = emu.ok("PUT", "/api/dns/settings", {"disabled_management_groups": [group["id"]]})
    assert updated == {"disabled_management_groups": [group["id"]]}
    read = emu.ok("GET", "/api/dns/settings")
    assert read.get("items", read) == {"disabled_management_groups": [group["id"]]}
    assert emu.events()[0]["activity_code"] == "dns.setting.disabled.management.group.add"
    in_use = emu.call("DELETE", f"/api/groups/{group['id']}")
    assert in_use.status == 400
    omitted = emu.ok("PUT", "/api/dns/settings", {})
    assert omitted == {"disabled_management_groups": None if emu.netbird else []}
    read = emu.ok("GET", "/api/dns/settings")
    assert read.get("items", read) == {"disabled_management_groups": []}
    unknown = emu.call("PUT", "/api/dns/settings", {"disabled_management_groups": ["nope"]})
    assert unknown.status == 422 and unknown.body["message"] == "group id nope not found"
    assert emu.call("GET", "/api/dns/settings/").status == 404  # a trailing slash matches no route


def test_a_routing_peer_is_judged_by_the_agents_own_os_not_the_os_text(emu: Emulator) -> None:
    group = emu.group("lan")
    debian = _linux_peer(emu, "gw1", os_name="Debian GNU/Linux 12")
    created = emu.call("POST", "/api/routes", _route_body(peer=debian["id"], groups=[group["id"]]))
    assert created.status == 200, created
    laptop = _linux_peer(emu, "laptop", os_name="Windows 11")
    refused = emu.call("POST", "/api/routes", _route_body(network="10.1.0.0/24", peer=laptop["id"], groups=[group["id"]]))
    assert refused.status == 422 and refused.body["message"] == "non-linux peers are non supported as network routes"
    # the agent's report (goos) decides, whatever the text says
    key = emu.setup_key("odd")
    odd = emu.enroll(key["key"], "odd", os="Custom distribution", goos="darwin")
    refused = emu.call("POST", "/api/routes", _route_body(network="10.2.0.0/24", peer=odd["id"], groups=[group["id"]]))
    assert refused.status == 422


def test_current_route_domains_are_checked_and_stored_like_v0771(cur: Emulator) -> None:
    group = cur.group("servers")
    base = _route_body(peer_groups=[group["id"]], groups=[group["id"]])
    del base["network"]
    created = cur.ok("POST", "/api/routes", dict(base, domains=["Example.COM", "*.example.com", "intranet", "Bücher.de"]))
    # lower-cased, international names in their Unicode form; the placeholder network
    assert created["domains"] == ["example.com", "*.example.com", "intranet", "bücher.de"]
    assert (created["network"], created["network_type"]) == ("192.0.2.0/32", "Domain")
    cases = [
        ([], "invalid domains: domains list is empty"),
        (["d%d.example.com" % n for n in range(33)], "invalid domains: domains list exceeds maximum allowed domains: 32"),
        (["Bad Name.com"], "invalid domains: invalid domain format: bad name.com"),
        (["example.com."], "invalid domains: invalid domain format: example.com."),
    ]
    for domains, message in cases:
        response = cur.call("POST", "/api/routes", dict(base, network_id="other", domains=domains))
        assert response.status == 422, (domains, response)
        assert response.body["message"] == message
    # access control groups are checked like the other groups
    unknown = cur.call("POST", "/api/routes", dict(base, network_id="acl", domains=["a.example.com"],
                                                   access_control_groups=["nope"]))
    assert unknown.status == 422 and unknown.body["message"] == "group id nope not found"
