# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Calls of every operation a self-hosted v0.77.1 serves (its OpenAPI file, tests/support/compatibility.py
``spec_operations``), as data, for test_endpoint_shapes.py: each is made on the emulator and on the real release it
imitates, and the answers' shapes compared (shapes.py).

A call is ``(method, path, body, save)``: ``path`` and every string of ``body`` may hold ``<name>`` placeholders,
filled with what was found before (``<h1>``..``<h4>``, ``<win1>``: the seeded peers' ids; ``<owner>``, ``<account>``,
``<all>``: the owner's, the account's and the All group's ids) or saved by an earlier call: ``save`` is
``{name: member path}`` of its answer (``id``, ``personal_access_token.id``). The calls clean up after themselves.
``since``: the first generation that has the call (``v0.77``, or ``v0.27`` for both); a v0.27.6 server and the
``netbird`` dialect get only the calls both generations have.

LEFT_OUT: the operations that are not called, each with why; REFUSED_ONLY: those the test servers can only refuse.
"""

from __future__ import annotations

GROUP = "ep-group"
ISSUER = "http://127.0.0.1:8080/oauth2"  # the only issuer the real server reaches in its namespace (its own)
STRONG = "Ep-Passw0rd!"


class Call:
    def __init__(self, method, path, body=None, save=None, since="v0.77"):
        self.method, self.path, self.body, self.save, self.since = method, path, body, save or {}, since

    def __repr__(self):
        return "%s %s" % (self.method, self.path)


def both(method, path, body=None, save=None):
    return Call(method, path, body, save, since="v0.27")


def crud(path, name, body, changed):
    """List, create, read, update, delete of a kind both generations have."""
    item = "%s/<%s>" % (path, name)
    return [both("GET", path), both("POST", path, body, save={name: "id"}), both("GET", item),
            both("PUT", item, changed), both("DELETE", item)]


RULE = {"name": "ep-rule", "enabled": True, "action": "accept", "bidirectional": True, "protocol": "tcp",
        "ports": ["22"], "sources": ["<group>"], "destinations": ["<group>"]}
ROUTE = {"description": "ep", "network_id": "ep-lan", "enabled": True, "peer": "<h1>", "network": "10.98.0.0/24",
         "metric": 9999, "masquerade": True, "groups": ["<group>"]}
NAMESERVERS = {"name": "ep-dns", "description": "ep", "nameservers": [{"ip": "10.98.0.53", "ns_type": "udp", "port": 53}],
               "enabled": True, "groups": ["<group>"], "primary": True, "domains": [], "search_domains_enabled": False}
POSTURE = {"name": "ep-posture", "description": "ep", "checks": {"nb_version_check": {"min_version": "0.25.0"}}}
KEY = {"name": "ep-key", "type": "reusable", "expires_in": 86400, "auto_groups": ["<group>"], "usage_limit": 0,
       "revoked": False, "ephemeral": False}
PROVIDER = {"provider_id": "openai_api", "name": "ep-provider", "upstream_url": "https://api.openai.com",
            "api_key": "sk-ep-placeholder-0000", "enabled": True,
            "models": [{"id": "gpt-5.4-mini", "input_per_1k": 0.00075, "output_per_1k": 0.0045}]}
LIMITS = {"token_limit": {"enabled": True, "user_cap": 1000, "window_seconds": 3600}}
AGENT = "/agent-network"
WG_KEY = "n0r3pL4c3h0ld3rK3yAAAAAAAAAAAAAAAAAAAAAAAAA="
UNKNOWN = "ch8i4ug6lnn4g9hqv7m0"  # an id of the servers' form that names nothing

CALLS = [
    # the instance
    Call("GET", "/instance"),
    Call("GET", "/instance/version"),
    Call("POST", "/setup", {"email": "ep@example.com", "password": STRONG, "name": "EP"}),
    # the account, users and their tokens
    both("GET", "/accounts", save={"settings": "[0].settings"}),
    both("DELETE", "/accounts/" + UNKNOWN),
    both("GET", "/users"),
    Call("GET", "/users/current"),
    both("POST", "/users", {"name": "ep-bot", "role": "user", "auto_groups": [], "is_service_user": True},
         save={"bot": "id"}),
    both("PUT", "/users/<bot>", {"role": "admin", "auto_groups": [], "is_blocked": False}),
    both("POST", "/users/<bot>/tokens", {"name": "ep-token", "expires_in": 30}, save={"token": "personal_access_token.id"}),
    both("GET", "/users/<bot>/tokens"),
    both("GET", "/users/<bot>/tokens/<token>"),
    both("DELETE", "/users/<bot>/tokens/<token>"),
    Call("POST", "/users/<bot>/approve", {}),
    Call("DELETE", "/users/<bot>/reject"),
    Call("PUT", "/users/<bot>/password", {"old_password": STRONG, "new_password": STRONG + "2"}),
    both("DELETE", "/users/<bot>"),
    # a regular user: the embedded identity provider makes it at once, with a generated password
    Call("POST", "/users", {"email": "ep-regular@example.com", "name": "EP regular", "role": "user", "auto_groups": [],
                            "is_service_user": False}, save={"regular": "id"}),
    Call("POST", "/users/<regular>/invite", {}),
    Call("DELETE", "/users/<regular>"),
    # invite links, and the invitee's side: one accepted with a strong password, then a weak password refused (the
    # invite stays); the invitee's calls come one after the other, so the sixth meets the rate limit (5 at once)
    Call("GET", "/users/invites"),
    Call("POST", "/users/invites", {"email": "ep-joiner@example.com", "name": "EP joiner", "role": "user",
                                    "auto_groups": []}, save={"joiner_link": "invite_token"}),
    Call("POST", "/users/invites", {"email": "ep-invitee@example.com", "name": "EP", "role": "user", "auto_groups": []},
         save={"invite": "id", "link": "invite_token"}),
    Call("POST", "/users/invites/<invite>/regenerate", {}, save={"link": "invite_token"}),
    Call("POST", "/users/invites/<joiner_link>/accept", {"password": STRONG}),
    Call("GET", "/users/invites/<link>"),
    Call("POST", "/users/invites/<link>/accept", {"password": "weakpassword"}),
    Call("POST", "/users/invites/<link>/accept", {"password": "Weakpassword"}),
    Call("POST", "/users/invites/<link>/accept", {"password": "Short1!"}),
    Call("GET", "/users/invites/<link>"),
    Call("DELETE", "/users/invites/<invite>"),
    Call("GET", "/users", save={"joiner": "[email=ep-joiner@example.com].id"}),
    Call("DELETE", "/users/<joiner>"),
    # groups (kept until the end: the other kinds use it)
    both("GET", "/groups"),
    both("POST", "/groups", {"name": GROUP, "peers": ["<h1>"]}, save={"group": "id"}),
    both("GET", "/groups/<group>"),
    both("PUT", "/groups/<group>", {"name": GROUP, "peers": ["<h1>", "<h2>"]}),
    both("GET", "/groups/" + UNKNOWN),
    # peers
    both("GET", "/peers"),
    both("GET", "/peers/<h1>"),
    both("PUT", "/peers/<h2>", {"name": "real-h2", "ssh_enabled": False, "login_expiration_enabled": False,
                                "inactivity_expiration_enabled": False}),
    both("DELETE", "/peers/" + UNKNOWN),
    Call("GET", "/peers/<h1>/accessible-peers"),
    Call("POST", "/peers/<h1>/temporary-access", {"name": "ep-laptop", "wg_pub_key": WG_KEY, "rules": ["tcp/22"]},
         save={"temporary": "id"}),
    both("DELETE", "/peers/<temporary>"),
    Call("GET", "/peers/<h2>/jobs"),
    Call("POST", "/peers/<h2>/jobs", {"workload": {"type": "bundle", "parameters": {
        "bundle_for": False, "bundle_for_time": 1, "log_file_count": 1, "anonymize": True}}}),
    Call("GET", "/peers/<h2>/jobs/" + UNKNOWN),
    # setup keys
    both("GET", "/setup-keys"),
    both("POST", "/setup-keys", KEY, save={"key": "id"}),
    both("GET", "/setup-keys/<key>"),
    both("PUT", "/setup-keys/<key>", dict(KEY, revoked=True)),
    Call("DELETE", "/setup-keys/<key>"),
    # policies, posture checks, routes
    both("GET", "/policies"),
    both("POST", "/policies", {"name": "ep-policy", "description": "ep", "enabled": True, "rules": [RULE]},
         save={"policy": "id"}),
    both("GET", "/policies/<policy>"),
    both("PUT", "/policies/<policy>", {"name": "ep-policy", "description": "ep", "enabled": False,
                                       "rules": [dict(RULE, ports=["2222"])]}),
    both("DELETE", "/policies/<policy>"),
    *crud("/posture-checks", "posture", POSTURE, dict(POSTURE, description="changed")),
    *crud("/routes", "route", ROUTE, dict(ROUTE, metric=9000)),
    # DNS
    *crud("/dns/nameservers", "nameservers", NAMESERVERS, dict(NAMESERVERS, description="changed")),
    both("GET", "/dns/settings"),
    both("PUT", "/dns/settings", {"disabled_management_groups": []}),
    Call("GET", "/dns/zones"),
    Call("POST", "/dns/zones", {"name": "EP zone", "domain": "ep-zone.example.com", "enabled": True,
                                "enable_search_domain": False, "distribution_groups": ["<group>"]}, save={"zone": "id"}),
    Call("GET", "/dns/zones/<zone>"),
    Call("PUT", "/dns/zones/<zone>", {"name": "EP zone", "domain": "ep-zone.example.com", "enabled": True,
                                      "enable_search_domain": True, "distribution_groups": ["<group>"]}),
    Call("GET", "/dns/zones/<zone>/records"),
    Call("POST", "/dns/zones/<zone>/records", {"name": "db.ep-zone.example.com", "type": "A", "content": "10.98.0.5",
                                               "ttl": 300}, save={"record": "id"}),
    Call("GET", "/dns/zones/<zone>/records/<record>"),
    Call("PUT", "/dns/zones/<zone>/records/<record>", {"name": "db.ep-zone.example.com", "type": "A",
                                                       "content": "10.98.0.6", "ttl": 600}),
    Call("DELETE", "/dns/zones/<zone>/records/<record>"),
    Call("DELETE", "/dns/zones/<zone>"),
    # Networks
    Call("GET", "/networks"),
    Call("POST", "/networks", {"name": "ep-net", "description": "ep"}, save={"network": "id"}),
    Call("GET", "/networks/<network>"),
    Call("PUT", "/networks/<network>", {"name": "ep-net", "description": "changed"}),
    Call("POST", "/networks/<network>/resources", {"name": "ep-res", "address": "192.168.98.20", "enabled": True,
                                                   "groups": ["<group>"]}, save={"resource": "id"}),
    Call("GET", "/networks/<network>/resources"),
    Call("GET", "/networks/<network>/resources/<resource>"),
    Call("PUT", "/networks/<network>/resources/<resource>", {"name": "ep-res", "address": "192.168.98.21",
                                                             "enabled": True, "groups": ["<group>"]}),
    Call("GET", "/networks/resources"),
    Call("POST", "/networks/<network>/routers", {"peer": "<h1>", "metric": 100, "masquerade": True, "enabled": True},
         save={"router": "id"}),
    Call("GET", "/networks/<network>/routers"),
    Call("GET", "/networks/<network>/routers/<router>"),
    Call("PUT", "/networks/<network>/routers/<router>", {"peer": "<h1>", "metric": 200, "masquerade": True,
                                                         "enabled": True}),
    Call("GET", "/networks/routers"),
    Call("DELETE", "/networks/<network>/routers/<router>"),
    Call("DELETE", "/networks/<network>/resources/<resource>"),
    Call("DELETE", "/networks/<network>"),
    # events, locations
    Call("GET", "/events/audit"),
    Call("GET", "/events/proxy"),
    both("GET", "/locations/countries", save={"country": "[0].country_code"}),
    both("GET", "/locations/countries/<country>/cities"),
    # identity providers: only the server's own issuer is reachable from its namespace
    Call("GET", "/identity-providers"),
    Call("POST", "/identity-providers", {"type": "oidc", "name": "ep-idp", "issuer": ISSUER, "client_id": "ep-client",
                                         "client_secret": "ep-secret"}, save={"idp": "id"}),
    Call("GET", "/identity-providers/<idp>"),
    Call("PUT", "/identity-providers/<idp>", {"type": "oidc", "name": "ep-idp", "issuer": ISSUER,
                                              "client_id": "ep-client2", "client_secret": "ep-secret"}),
    Call("DELETE", "/identity-providers/<idp>"),
    # reverse proxies: none connects to the test servers
    Call("GET", "/reverse-proxies/clusters"),
    Call("DELETE", "/reverse-proxies/clusters/ep-proxy.example.com"),
    Call("GET", "/reverse-proxies/proxy-tokens"),
    Call("POST", "/reverse-proxies/proxy-tokens", {"name": "ep-proxy-token", "expires_in": 86400},
         save={"proxy_token": "id"}),
    Call("DELETE", "/reverse-proxies/proxy-tokens/<proxy_token>"),
    Call("GET", "/reverse-proxies/services"),
    Call("POST", "/reverse-proxies/services", {"name": "ep-service", "domain": "ep-app.example.com", "enabled": True,
                                               "targets": []}),
    Call("GET", "/reverse-proxies/services/" + UNKNOWN),
    Call("PUT", "/reverse-proxies/services/" + UNKNOWN, {"name": "ep-service", "domain": "ep-app.example.com",
                                                         "enabled": True, "targets": []}),
    Call("DELETE", "/reverse-proxies/services/" + UNKNOWN),
    Call("GET", "/reverse-proxies/domains"),
    Call("POST", "/reverse-proxies/domains", {"domain": "ep-apps.example.com", "target_cluster": "eu.proxy.netbird.io"}),
    Call("DELETE", "/reverse-proxies/domains/" + UNKNOWN),
    Call("GET", "/reverse-proxies/domains/%s/validate" % UNKNOWN),
    # Agent Network
    Call("GET", AGENT + "/settings"),
    Call("PUT", AGENT + "/settings", {"proxy_address": "ep.proxy.example.com"}),
    Call("DELETE", AGENT + "/settings"),
    Call("POST", AGENT + "/settings", {"proxy_address": "ep.proxy.example.com", "access_log_retention_days": 7},
         save={"endpoint": "endpoint", "proxy": "proxy_address"}),
    Call("PUT", AGENT + "/settings", {"endpoint": "<endpoint>", "proxy_address": "<proxy>",
                                      "access_log_retention_days": 14, "enable_log_collection": True}),
    Call("GET", AGENT + "/catalog/providers"),
    Call("GET", AGENT + "/providers"),
    Call("POST", AGENT + "/providers", PROVIDER, save={"provider": "id"}),
    Call("GET", AGENT + "/providers/<provider>"),
    Call("PUT", AGENT + "/providers/<provider>", dict(PROVIDER, upstream_url="https://eu.api.openai.com")),
    Call("GET", AGENT + "/guardrails"),
    Call("POST", AGENT + "/guardrails", {"name": "ep-guardrail", "checks": {
        "model_allowlist": {"enabled": True, "models": ["gpt-5.4-mini"]}}}, save={"guardrail": "id"}),
    Call("GET", AGENT + "/guardrails/<guardrail>"),
    Call("PUT", AGENT + "/guardrails/<guardrail>", {"name": "ep-guardrail", "checks": {"prompt_capture": {"enabled": True}}}),
    Call("GET", AGENT + "/policies"),
    Call("POST", AGENT + "/policies", {"name": "ep-anp", "source_groups": ["<group>"],
                                       "destination_provider_ids": ["<provider>"], "guardrail_ids": ["<guardrail>"]},
         save={"anp": "id"}),
    Call("GET", AGENT + "/policies/<anp>"),
    Call("PUT", AGENT + "/policies/<anp>", {"name": "ep-anp", "source_groups": ["<group>"],
                                            "destination_provider_ids": ["<provider>"], "limits": LIMITS}),
    Call("DELETE", AGENT + "/providers/<provider>"),
    Call("DELETE", AGENT + "/policies/<anp>"),
    Call("DELETE", AGENT + "/guardrails/<guardrail>"),
    Call("GET", AGENT + "/budget-rules"),
    Call("POST", AGENT + "/budget-rules", {"name": "ep-budget", "target_groups": ["<group>"], "limits": {
        "budget_limit": {"enabled": True, "user_cap_usd": 50, "window_seconds": 2592000}}}, save={"budget": "id"}),
    Call("GET", AGENT + "/budget-rules/<budget>"),
    Call("PUT", AGENT + "/budget-rules/<budget>", {"name": "ep-budget", "enabled": False, "target_groups": ["<group>"]}),
    Call("DELETE", AGENT + "/budget-rules/<budget>"),
    Call("GET", AGENT + "/access-logs"),
    Call("GET", AGENT + "/access-log-sessions"),
    Call("GET", AGENT + "/usage/overview"),
    Call("GET", AGENT + "/consumption"),
    Call("DELETE", AGENT + "/settings"),
    Call("DELETE", AGENT + "/providers/<provider>"),
    Call("PUT", AGENT + "/settings", {"proxy_address": "ep.proxy.example.com"}),
    Call("DELETE", AGENT + "/settings"),
    # the account's settings as read, sent back; then the group goes
    both("PUT", "/accounts/<account>", {"settings": "<settings>"}),
    both("DELETE", "/groups/<group>"),
]

# Operations not called at all, and why: none (every operation of the file is called).
LEFT_OUT = {}

# Operations the seeded test servers can answer only with a refusal, and why; their status and message are compared.
REFUSED_ONLY = {
    "POST /api/setup": "the seeded server is set up already (412); a fresh server's setup is test_real_instance.py's",
    "DELETE /api/accounts/{accountId}": "an unknown id: deleting the account would end the server for every later call",
    "POST /api/users/{userId}/approve": "no user awaits approval on the seeded servers (422 not pending)",
    "DELETE /api/users/{userId}/reject": "no user awaits approval on the seeded servers (422 not pending)",
    "PUT /api/users/{userId}/password": "only the token's own user may, and the embedded IdP does not know the seeded "
                                        "owner: another user's id (422)",
    "POST /api/users/{userId}/invite": "the embedded identity provider keeps no pending invite (404)",
    "POST /api/peers/{peerId}/jobs": "the seeded peers' agents (v0.27.6) are too old for jobs (412)",
    "GET /api/peers/{peerId}/jobs/{jobId}": "no job can be made (404)",
    "DELETE /api/reverse-proxies/clusters/{clusterAddress}": "no NetBird proxy connects to the test servers (404)",
    "POST /api/reverse-proxies/services": "no proxy: a service without targets (422); with one, 412 no cluster",
    "GET /api/reverse-proxies/services/{serviceId}": "no service can be made (404)",
    "PUT /api/reverse-proxies/services/{serviceId}": "no service can be made (422 for the body, checked first)",
    "DELETE /api/reverse-proxies/services/{serviceId}": "no service can be made (404)",
    "POST /api/reverse-proxies/domains": "no proxy cluster to serve it (500)",
    "DELETE /api/reverse-proxies/domains/{domainId}": "no domain can be made (404)",
}
