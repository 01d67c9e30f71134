# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What a v0.77 server refuses only at write time, on the emulator (``current``) and on the real v0.77.1 alike.

For each refusal: the module refuses first, in check mode and for real, with the same message on both servers and
no write; and the server's own answer to the write the module never sends has the same status and message on both
(the emulator imitates the real server). Also the records of one name the server keeps or refuses (round robin, an
identical record, a CNAME beside another record) and a one-port range it reads back.
"""

from __future__ import annotations

import pytest

from tests.scenarios.test_scenarios import Recording
from tests.support.inprocess import run_module

GROUP = "sc-refusal-group"


def today(servers):
    generation, targets = servers
    if generation != "v0.77":
        pytest.skip("Networks and DNS zones are on v0.77 servers only")
    return targets


def call(server, module, args):
    return run_module(module, args, environment={"NMS_API_URL": server.url, "NMS_API_TOKEN": server.token})


def refusal(server, module, args):
    """The module's message, in check mode and for real (equal, no write): the refusal comes before any write."""
    run = Recording(server, "v0.77")
    planned = run.step("check mode", module, args, check=True, failed=True, writes=False)
    done = run.step("for real", module, args, failed=True, writes=False)
    assert planned["msg"] == done["msg"]
    return done["msg"]


def answer(server, method, path, body):
    status, data = server.api(method, path, body)
    return status, (data or {}).get("message") if isinstance(data, dict) else data


def test_a_resource_name_of_another_network_and_a_zone_on_the_peers_domain(servers):
    messages, answers = [], []
    for server in today(servers):
        made = []
        try:
            for module, args in (("group", {"name": GROUP}), ("network", {"name": "sc-ref-a"}),
                                 ("network", {"name": "sc-ref-b"}),
                                 ("network_resource", {"network": "sc-ref-a", "name": "sc-ref-res", "address": "10.9.0.1"})):
                assert not call(server, module, args).get("failed")
                made.append((module, args))
            found = {
                "resource": refusal(server, "network_resource", {"network": "sc-ref-b", "name": "sc-ref-res",
                                                                 "address": "10.9.0.2"}),
                "zone": refusal(server, "dns_zone", {"domain": "netbird.selfhosted", "name": "SC peers",
                                                     "distribution_groups": [GROUP]}),
            }
            group_id = [g["id"] for g in server.ok("GET", "/groups") if g["name"] == GROUP][0]
            network_b = [n["id"] for n in server.ok("GET", "/networks") if n["name"] == "sc-ref-b"][0]
            answers.append([
                answer(server, "POST", "/networks/%s/resources" % network_b,
                       {"name": "sc-ref-res", "address": "10.9.0.2", "groups": [], "enabled": True}),
                answer(server, "POST", "/dns/zones", {"domain": "netbird.selfhosted", "name": "SC peers",
                                                      "distribution_groups": [group_id], "enabled": True,
                                                      "enable_search_domain": False}),
            ])
            messages.append(found)
        finally:
            for module, args in reversed(made):
                call(server, module, dict(args, state="absent"))
    assert answers[0] == [(422, "failed to create network resource: resource with name sc-ref-res already exists"),
                          (422, "zone domain netbird.selfhosted conflicts with peer dns domain")]
    assert all(found == answers[0] for found in answers), answers
    assert messages[0]["resource"].startswith("option name: 'sc-ref-res' is the name of the network resource with id ")
    assert "in the network 'sc-ref-a'" in messages[0]["resource"]
    assert messages[0]["zone"] == (
        "option domain: 'netbird.selfhosted' is the peers' own DNS domain (the server's, as the peers' names show), "
        "and the server refuses a zone on it, whose names would conflict with the peers' names; give the zone "
        "another domain, such as a subdomain of it")
    assert all(found["zone"] == messages[0]["zone"] for found in messages)


def test_records_of_one_name(servers):
    """Two A records of one name (round robin) are kept; an identical record and a CNAME beside them are refused by
    the server (its answers equal on both) and by the module before any write (its messages equal on both)."""
    answers, messages = [], []
    zone_args = {"domain": "sc-names.example.com", "name": "SC names", "distribution_groups": [GROUP]}
    rr = {"zone": "sc-names.example.com", "name": "rr.sc-names.example.com", "type": "A", "ttl": 300}
    for server in today(servers):
        try:
            assert not call(server, "group", {"name": GROUP}).get("failed")
            zone = call(server, "dns_zone", zone_args)["dns_zone"]
            run = Recording(server, "v0.77")
            for address in ("10.0.0.1", "10.0.0.2"):
                run.step("round robin " + address, "dns_record", dict(rr, content=address), changed=True, writes=True)
            for address in ("10.0.0.1", "10.0.0.2"):
                run.step("again " + address, "dns_record", dict(rr, content=address), changed=False, writes=False)
            assert sorted(r["content"] for r in server.ok("GET", "/dns/zones/%s/records" % zone["id"])) == [
                "10.0.0.1", "10.0.0.2"]
            cname = dict(rr, type="CNAME", content="www.example.com")
            messages.append(refusal(server, "dns_record", cname).replace(zone["id"], "ZONE"))
            path = "/dns/zones/%s/records" % zone["id"]
            answers.append([answer(server, "POST", path, {k: v for k, v in dict(rr, content="10.0.0.1").items() if k != "zone"}),
                            answer(server, "POST", path, {k: v for k, v in cname.items() if k != "zone"})])
        finally:
            call(server, "dns_zone", {"domain": zone_args["domain"], "state": "absent"})
            call(server, "group", {"name": GROUP, "state": "absent"})
    assert answers[0] == [(409, "identical record already exists"),
                          (422, "an a, aaaa, or cname record with name rr.sc-names.example.com already exists")]
    assert all(found == answers[0] for found in answers), answers
    assert messages[0].startswith("option type: 'rr.sc-names.example.com' has 2 records in the DNS zone "
                                  "'sc-names.example.com' (A 10.0.0.1, id ")
    assert len(set(message.split(" (A ")[0] for message in messages)) == 1


def test_a_stored_one_port_range_is_what_the_option_describes(servers):
    """A rule that v0.77 holds with port_ranges [{start: 9000, end: 9000}] (made elsewhere) is ports 9000-9000 (and
    9000): a re-run writes nothing."""
    for server in today(servers):
        try:
            for name in ("sc-range-src", "sc-range-dst"):
                assert not call(server, "group", {"name": name}).get("failed")
            ids = {g["name"]: g["id"] for g in server.ok("GET", "/groups")}
            server.ok("POST", "/policies", {"name": "sc-range", "enabled": True, "description": "", "rules": [{
                "name": "app", "enabled": True, "action": "accept", "bidirectional": True, "protocol": "tcp",
                "port_ranges": [{"start": 9000, "end": 9000}], "sources": [ids["sc-range-src"]],
                "destinations": [ids["sc-range-dst"]]}]})
            run = Recording(server, "v0.77")
            for ports in (["9000-9000"], ["9000"]):
                rule = {"name": "app", "protocol": "tcp", "ports": ports, "sources": ["sc-range-src"],
                        "destinations": ["sc-range-dst"]}
                result = run.step("ports %s" % ports, "policy", {"name": "sc-range", "rules": [rule]},
                                  changed=False, writes=False)
                assert result["policy"]["rules"][0]["ports"] == ["9000"]
        finally:
            call(server, "policy", {"name": "sc-range", "state": "absent"})
            for name in ("sc-range-src", "sc-range-dst"):
                call(server, "group", {"name": name, "state": "absent"})
