# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The scenario of every module, as data: what to create, how to change it, how to find it.

Every scenario runs in process (tests/support/inprocess.py) against a server behind a recording proxy (the
emulator, or a real NetBird server: conftest.py) and checks, by counting the requests the proxy saw:

``crud``      check mode create (changed, no write); create with --diff (changed, before {}); re-run (changed=0,
              no write); check mode update with --diff (changed, no write); update; re-run (no write); the info
              module finds it; check mode delete (no write); delete; delete again (changed=0, no write).
``settings``  the same without create and delete: change (check mode first), re-run, change back, re-run.
``read``      an info module: ok, changed=0, no write, the result's list.
``absent``    for a module whose objects the plain seeded real server cannot make (no embedded IdP, no proxy, agents
              too old): removing one that does not exist (check mode, then for real: changed=0, no write), then the
              info module finds none; a ``probe`` beside it shows the server's refusal of a create.
``preview``   the same for a module that makes nothing to remove (a job, a password): check mode only (changed, no
              write), then the info module.
``refused``   for a module the plain seeded real server refuses even to read for (invites without an IdP): the
              module and its info module fail (their messages compared), without a write.
``probe``     calls of the API itself (``calls``: method, path, body), for the answers the modules never provoke:
              the server's refusals, whose status and message the shape comparison checks.
A module of today's servers only, on v0.27: refused (failed, naming what it needs), without a write.

``needs``: tasks run before the scenario (their objects removed again after it, newest first). Names start with
``sc-`` and are unique per scenario, so scenarios never meet on a shared server.
"""

from __future__ import annotations

GROUP = "sc-%s-group"


class Scenario:
    def __init__(self, module, lifecycle="crud", present=None, update=None, key=None, needs=(), info=None,
                 absent=None, today_only=False, restore=None, calls=(), label=None):
        self.module = module
        self.label = label  # the test id where a module has several scenarios (default: the module)
        self.lifecycle = lifecycle
        self.present = present or {}
        self.update = update
        self.key = key
        self.needs = list(needs)
        self.info = info  # (info module, args, result key, how many it finds while the object exists)
        self.absent = absent
        self.today_only = today_only
        self.restore = restore
        self.calls = list(calls)

    def __repr__(self):
        return self.label or self.module

    @property
    def updated(self):
        return dict(self.present, **(self.update or {}))

    @property
    def delete(self):
        if self.absent is not None:
            return self.absent
        return dict({k: self.present[k] for k in self.key}, state="absent")


AGENT = "/agent-network"
PROVIDER = {"provider_id": "openai_api", "upstream_url": "https://api.openai.com", "api_key": "sk-sc-placeholder-0000",
            "models": [{"id": "gpt-5.4-mini", "input_per_1k": 0.00075, "output_per_1k": 0.0045}]}
WG_KEY = "n0r3pL4c3h0ld3rK3yAAAAAAAAAAAAAAAAAAAAAAAAA="


def provider(name):
    return ("agent_network_provider", dict(PROVIDER, name=name))


def group(name, peers=()):
    return ("group", {"name": name, "peers": list(peers)})


SCENARIOS = [
    Scenario("group", present={"name": "sc-group", "peers": ["real-h1"]},
             update={"peers": ["real-h1", "real-h2"]}, key=["name"],
             info=("group_info", {"name": "sc-group"}, "groups", 1)),
    Scenario("posture_check",
             present={"name": "sc-posture", "checks": {"nb_version_check": {"min_version": "0.25.0"}}},
             update={"checks": {"nb_version_check": {"min_version": "0.26.0"}}}, key=["name"],
             info=("posture_check_info", {"name": "sc-posture"}, "posture_checks", 1)),
    Scenario("policy", needs=[group("sc-policy-src", ["real-h1"]), group("sc-policy-dst", ["real-h2"])],
             present={"name": "sc-policy", "rules": [{"name": "ssh", "protocol": "tcp", "ports": ["22"],
                                                      "sources": ["sc-policy-src"],
                                                      "destinations": ["sc-policy-dst"]}]},
             update={"rules": [{"name": "ssh", "protocol": "tcp", "ports": ["2222"], "sources": ["sc-policy-src"],
                                "destinations": ["sc-policy-dst"]}]}, key=["name"],
             info=("policy_info", {"name": "sc-policy"}, "policies", 1)),
    # a one-port range is that port (servers read it back so): the re-runs write nothing
    Scenario("policy", label="policy_one_port_range",
             needs=[group("sc-port-src", ["real-h1"]), group("sc-port-dst", ["real-h2"])],
             present={"name": "sc-one-port", "rules": [{"name": "app", "protocol": "tcp", "ports": ["9000-9000"],
                                                        "sources": ["sc-port-src"], "destinations": ["sc-port-dst"]}]},
             update={"rules": [{"name": "app", "protocol": "tcp", "ports": ["9001-9001"], "sources": ["sc-port-src"],
                                "destinations": ["sc-port-dst"]}]}, key=["name"],
             info=("policy_info", {"name": "sc-one-port"}, "policies", 1)),
    Scenario("route", needs=[group("sc-route-group", ["real-h2"])],
             present={"network_id": "sc-lan", "network": "10.99.0.0/24", "peer": "real-h1",
                      "groups": ["sc-route-group"]},
             update={"metric": 200, "description": "changed"}, key=["network_id"],
             info=("route_info", {"network_id": "sc-lan"}, "routes", 1)),
    Scenario("nameserver_group", needs=[group("sc-ns-group")],
             present={"name": "sc-dns", "nameservers": [{"ip": "10.99.0.53"}], "primary": True,
                      "groups": ["sc-ns-group"]},
             update={"nameservers": [{"ip": "10.99.0.54"}]}, key=["name"],
             info=("nameserver_group_info", {"name": "sc-dns"}, "nameserver_groups", 1)),
    Scenario("setup_key", needs=[group("sc-key-group"), group("sc-key-group2")],
             present={"name": "sc-key", "type": "reusable", "expires_in": "30d", "auto_groups": ["sc-key-group"]},
             update={"auto_groups": ["sc-key-group", "sc-key-group2"]}, key=["name"],
             info=("setup_key_info", {"name": "sc-key"}, "setup_keys", 1)),
    Scenario("user", present={"name": "sc-bot", "is_service_user": True, "role": "user"},
             update={"role": "admin"}, key=["name"],
             info=("user_info", {"name": "sc-bot"}, "users", 1)),
    Scenario("token", needs=[("user", {"name": "sc-token-bot", "is_service_user": True, "role": "admin"})],
             present={"user": "sc-token-bot", "name": "sc-token", "expires_in": 30}, key=["user", "name"],
             info=("token_info", {"user": "sc-token-bot"}, "tokens", 1)),
    Scenario("dns_settings", lifecycle="settings", needs=[group("sc-dns-settings")],
             present={"disabled_management_groups": ["sc-dns-settings"]},
             restore={"disabled_management_groups": []}),
    Scenario("account_settings", lifecycle="settings",
             present={"peer_login_expiration_enabled": True, "peer_login_expiration": "48h"},
             restore={"peer_login_expiration": "24h"}),
    Scenario("account_settings", lifecycle="settings", today_only=True, label="account_settings_v077",
             needs=[group("sc-expose")],
             present={"peer_expose_enabled": True, "peer_expose_groups": ["sc-expose"], "auto_update_always": True,
                      "metrics_push_enabled": True},
             restore={"peer_expose_enabled": False, "peer_expose_groups": [], "auto_update_always": False,
                      "metrics_push_enabled": False}),
    Scenario("peer", lifecycle="settings", present={"name": "real-h2", "ssh_enabled": True},
             restore={"name": "real-h2", "ssh_enabled": False}),
    Scenario("network_state",
             present={"groups": [{"name": "sc-described"}],
                      "policies": [{"name": "sc-described", "rules": [
                          {"name": "web", "protocol": "tcp", "ports": ["443"], "sources": ["sc-described"],
                           "destinations": ["sc-described"]}]}]},
             update={"policies": [{"name": "sc-described", "rules": [
                 {"name": "web", "protocol": "tcp", "ports": ["8443"], "sources": ["sc-described"],
                  "destinations": ["sc-described"]}]}]},
             absent={"groups": [{"name": "sc-described", "state": "absent"}],
                     "policies": [{"name": "sc-described", "state": "absent"}]}),
    Scenario("network", today_only=True, present={"name": "sc-net", "description": "first"},
             update={"description": "second"}, key=["name"],
             info=("network_info", {"name": "sc-net"}, "networks", 1)),
    Scenario("network_resource", today_only=True,
             needs=[("network", {"name": "sc-res-net"}), group("sc-res-group")],
             present={"network": "sc-res-net", "name": "sc-res", "address": "192.168.10.20",
                      "groups": ["sc-res-group"]},
             update={"address": "192.168.10.21"}, key=["network", "name"],
             info=("network_resource_info", {"network": "sc-res-net", "name": "sc-res"}, "network_resources", 1)),
    Scenario("network_router", today_only=True, needs=[("network", {"name": "sc-router-net"})],
             present={"network": "sc-router-net", "peer": "real-h1", "metric": 100},
             update={"metric": 200}, key=["network", "peer"],
             info=("network_router_info", {"network": "sc-router-net"}, "network_routers", 1)),
    Scenario("dns_zone", today_only=True, needs=[group("sc-zone-group")],
             present={"domain": "sc-zone.example.com", "name": "SC zone", "distribution_groups": ["sc-zone-group"]},
             update={"enable_search_domain": True}, key=["domain"],
             info=("dns_zone_info", {"domain": "sc-zone.example.com"}, "dns_zones", 1)),
    Scenario("dns_record", today_only=True,
             needs=[group("sc-record-group"), ("dns_zone", {"domain": "sc-record.example.com", "name": "SC records",
                                                            "distribution_groups": ["sc-record-group"]})],
             present={"zone": "sc-record.example.com", "name": "db.sc-record.example.com", "type": "A",
                      "content": "10.0.0.5", "ttl": 300},
             update={"ttl": 600}, key=["zone", "name", "type"],
             info=("dns_record_info", {"zone": "sc-record.example.com"}, "dns_records", 1)),
    # round robin: a second A record of one name beside the first (needs), found by its content, the first untouched
    Scenario("dns_record", today_only=True, label="dns_record_round_robin",
             needs=[group("sc-rr-group"), ("dns_zone", {"domain": "sc-rr.example.com", "name": "SC round robin",
                                                        "distribution_groups": ["sc-rr-group"]}),
                    ("dns_record", {"zone": "sc-rr.example.com", "name": "rr.sc-rr.example.com", "type": "A",
                                    "content": "10.0.0.1", "ttl": 300})],
             present={"zone": "sc-rr.example.com", "name": "rr.sc-rr.example.com", "type": "A",
                      "content": "10.0.0.2", "ttl": 300},
             update={"ttl": 600}, key=["zone", "name", "type", "content"],
             info=("dns_record_info", {"zone": "sc-rr.example.com", "name": "rr.sc-rr.example.com"}, "dns_records", 2)),
    Scenario("account_info", lifecycle="read", present={}, info=("account_info", {}, "accounts", 1)),
    Scenario("dns_settings_info", lifecycle="read", present={}, info=("dns_settings_info", {}, "dns_settings", None)),
    Scenario("event_info", lifecycle="read", present={"limit": 5}, info=("event_info", {"limit": 5}, "events", None)),
    Scenario("location_info", lifecycle="read", present={}, info=("location_info", {}, "countries", None)),
    Scenario("refusals", lifecycle="probe", calls=[
        ("GET", "/groups/unknown-id", None),
        ("POST", "/groups", {}),
        ("PUT", "/groups/unknown-id", {"name": "sc-unknown"}),
        ("DELETE", "/groups/unknown-id", None),
        ("GET", "/peers/unknown-id", None),
        ("GET", "/routes/unknown-id", None),
        ("GET", "/policies/unknown-id", None),
        ("POST", "/setup-keys", {"name": "sc-bad-key", "type": "bogus", "expires_in": 86400, "auto_groups": []}),
        ("POST", "/users/unknown-id/tokens", {"name": "sc-token", "expires_in": 30}),
        ("GET", "/users/unknown-id/tokens", None),
        ("POST", "/posture-checks", {"name": "", "checks": {}}),
        ("GET", "/instance/version", None),
        ("GET", "/no-such-endpoint", None),
    ]),
    Scenario("peer_info", lifecycle="read", present={"name": "real-h1"},
             info=("peer_info", {"name": "real-h1"}, "peers", 1)),
    Scenario("instance", lifecycle="read", today_only=True, present={}, info=("instance", {}, "instance", None)),
    Scenario("agent_network_settings", lifecycle="settings", today_only=True,
             present={"proxy_address": "sc.proxy.example.com", "access_log_retention_days": 7},
             restore={"state": "absent"}),
    Scenario("agent_network_settings_info", lifecycle="read", today_only=True, present={},
             info=("agent_network_settings_info", {}, "agent_network_settings", None)),
    Scenario("agent_network_provider", today_only=True, present=dict(PROVIDER, name="sc-provider"),
             update={"upstream_url": "https://eu.api.openai.com"}, key=["name"],
             info=("agent_network_provider_info", {}, "agent_network_providers", 1)),
    Scenario("agent_network_guardrail", today_only=True,
             present={"name": "sc-guardrail", "checks": {"model_allowlist": {"enabled": True, "models": ["gpt-5.4-mini"]}}},
             update={"checks": {"prompt_capture": {"enabled": True}}}, key=["name"],
             info=("agent_network_guardrail_info", {}, "agent_network_guardrails", 1)),
    Scenario("agent_network_policy", today_only=True, needs=[group("sc-anp-group"), provider("sc-anp-provider")],
             present={"name": "sc-anp-policy", "source_groups": ["sc-anp-group"], "destination_provider_ids": ["sc-anp-provider"]},
             update={"limits": {"token_limit": {"enabled": True, "user_cap": 100000, "window_seconds": 86400}}}, key=["name"],
             info=("agent_network_policy_info", {}, "agent_network_policies", 1)),
    Scenario("agent_network_budget_rule", today_only=True, needs=[group("sc-budget-group")],
             present={"name": "sc-budget", "target_groups": ["sc-budget-group"],
                      "limits": {"budget_limit": {"enabled": True, "user_cap_usd": 50, "window_seconds": 2592000}}},
             update={"enabled": False}, key=["name"],
             info=("agent_network_budget_rule_info", {}, "agent_network_budget_rules", 1)),
    Scenario("agent_network_catalog_info", lifecycle="read", today_only=True, present={},
             info=("agent_network_catalog_info", {}, "agent_network_catalog", None)),
    # no agent traffic went through the test servers: every report is empty
    Scenario("agent_network_report_info", lifecycle="read", today_only=True, present={"report": "usage"},
             info=("agent_network_report_info", {"report": "usage"}, "agent_network_report", 0)),
    Scenario("agent_network_refusals", lifecycle="probe", calls=[
        ("GET", AGENT + "/providers/unknown-id", None),
        ("GET", AGENT + "/access-logs?start_date=yesterday", None),
    ]),
    Scenario("peer_temporary_access", today_only=True,
             present={"peer": "real-h1", "name": "sc-laptop", "wg_pub_key": WG_KEY, "rules": ["tcp/22"]},
             key=["peer", "name"]),
    Scenario("reverse_proxy_token", today_only=True, present={"name": "sc-proxy-token", "expires_in": 86400}, key=["name"],
             info=("reverse_proxy_token_info", {}, "reverse_proxy_tokens", 1)),
    # no NetBird proxy connects to the test servers: no cluster, services and domains refused (the probe below)
    Scenario("reverse_proxy_cluster", lifecycle="absent", today_only=True,
             present={"address": "sc-proxy.example.com", "state": "absent"},
             info=("reverse_proxy_cluster_info", {}, "reverse_proxy_clusters", None)),
    Scenario("reverse_proxy_service", lifecycle="absent", today_only=True, present={"name": "sc-service", "state": "absent"},
             info=("reverse_proxy_service_info", {}, "reverse_proxy_services", 0)),
    Scenario("reverse_proxy_domain", lifecycle="absent", today_only=True,
             present={"domain": "sc-apps.example.com", "state": "absent"},
             info=("reverse_proxy_domain_info", {}, "reverse_proxy_domains", None)),
    # no identity provider on the plain seeded servers: identity providers (issuer unreachable) and invites refused
    Scenario("identity_provider", lifecycle="absent", today_only=True, present={"name": "sc-idp", "state": "absent"},
             info=("identity_provider_info", {}, "identity_providers", 0)),
    Scenario("user_invite", lifecycle="refused", today_only=True,
             present={"email": "sc-invitee@example.com", "state": "absent"},
             info=("user_invite_info", {}, "user_invites", None)),
    # the seeded peers' agent is too old for jobs; the password of the seeded owner is no IdP's
    Scenario("peer_job", lifecycle="preview", today_only=True, present={"peer": "real-h2", "type": "bundle"},
             info=("peer_job_info", {"peer": "real-h2"}, "jobs", 0)),
    Scenario("user_password", lifecycle="preview", today_only=True,
             present={"old_password": "sc-Old-passw0rd", "password": "sc-New-passw0rd"}),
    Scenario("today_refusals", lifecycle="probe", calls=[
        ("POST", "/reverse-proxies/services", {"name": "sc-service", "domain": "sc-app.example.com", "enabled": True,
                                               "targets": []}),
        ("POST", "/users/invites", {"email": "sc-invitee@example.com", "name": "SC", "role": "user", "auto_groups": []}),
        ("POST", "/identity-providers", {"type": "oidc", "name": "sc-idp", "issuer": "http://127.0.0.1:9",
                                         "client_id": "sc-client", "client_secret": "sc-secret"}),
    ]),
]
