"""Rendering of resources, and the differences between the dialects.

`seed` reads the spec literally; `netbird` mirrors a deployed v0.27.6 server (see
the maintainers' notes on what real servers do): string ids, `null` for some empty lists,
shuffled map-backed lists, `{}` on delete. `current` is a v0.77.1 server: it keeps the
`netbird` answers and adds what v0.77 changed (xid setup key ids, masked keys, one stored
rule per policy, group resources, networks, DNS zones...).
"""

from __future__ import annotations

import copy
import datetime as dt
import random
import secrets
from typing import Any

from .state import DNS_DOMAIN, Record, State
from .util import NO_BODY, go_str, iso, now

DIALECTS = ("seed", "netbird", "current")
# stands in for a list to shuffle in an answer rendered for the answer cache (server.py, cache.py); random, so that no
# text a client sent can pass for it
PLACEHOLDER = f"nms-emulator-shuffled-{secrets.token_hex(8)}-"
# a peer's local_flags in v0.77 answers (what the agent reports of its own settings)
LOCAL_FLAGS = ("block_inbound", "block_lan_access", "disable_client_routes", "disable_dns", "disable_firewall",
               "disable_server_routes", "lazy_connection_enabled", "rosenpass_enabled", "rosenpass_permissive",
               "server_ssh_allowed")
MANAGEMENT_VERSION = "0.77.1"  # what GET /api/instance/version reports in the current dialect
# account settings members v0.77 adds to v0.27's, with the values of the seeded real v0.77.1 server's account where
# they shape the answer (an account of v0.27.6 upgraded: no IPv6 groups, null lists) and of a new account otherwise
CURRENT_SETTINGS = {
    "peer_inactivity_expiration_enabled": False,
    "peer_inactivity_expiration": 600,
    "peer_expose_enabled": False,
    "peer_expose_groups": None,
    "routing_peer_dns_resolution_enabled": True,
    "lazy_connection_enabled": False,
    "dns_domain": "",
    "auto_update_version": "disabled",
    "auto_update_always": False,
    "ipv6_enabled_groups": None,
    "metrics_push_enabled": False,
    "agent_network_only": False,
    "local_mfa_enabled": False,
}
# v0.77's settings.extra, with a new member's value (network_traffic_logs_groups: null when never set)
CURRENT_EXTRA = {
    "peer_approval_enabled": False,
    "user_approval_required": False,
    "network_traffic_logs_enabled": False,
    "network_traffic_logs_groups": None,
    "network_traffic_packet_counter_enabled": False,
}


class Dialect:
    """Switches that differ between the dialects.

    `netbird` is true for both real-server dialects (`netbird`, `current`): what v0.27 and v0.77 share.
    `current` marks what only v0.77 does; `legacy` what only v0.27 does.
    """

    def __init__(self, name: str, shuffle_seed: int | None = None) -> None:
        if name not in DIALECTS:
            raise ValueError(f"unknown dialect {name}")
        self.name = name
        self.netbird = name in ("netbird", "current")
        self.current = name == "current"
        self.legacy = name == "netbird"
        self.shuffle_rng = random.Random(shuffle_seed)
        self.deferred: list[list[Any]] | None = None  # see deferring()

    def deferring(self) -> Dialect:
        """This dialect rendering an answer for the answer cache: `order` keeps each list of several items aside
        (in `deferred`) and puts a placeholder, `PLACEHOLDER` + its index, where the list goes; the cache shuffles
        those lists anew for every answer it sends."""
        deferring = copy.copy(self)
        deferring.deferred = []
        return deferring

    def number_id(self, value: str | int) -> str | int:
        """Setup key and event ids: integer in the spec, numeric string on real servers."""
        return str(value) if self.netbird else int(value)

    def order(self, items: list[Any]) -> Any:
        """Map-backed lists come out in random order on real servers, every call. Callers pass the list as it goes
        into the answer (rendered), since a dialect that is `deferring` answers a placeholder for it."""
        if not self.netbird:
            return items
        if self.deferred is not None:
            if len(items) < 2:
                return items
            self.deferred.append(items)
            return f"{PLACEHOLDER}{len(self.deferred) - 1}"
        items = list(items)
        self.shuffle_rng.shuffle(items)
        return items

    def nullable(self, items: list[Any]) -> list[Any] | None:
        """Lists that real servers send as `null` when empty."""
        if self.netbird and not items:
            return None
        return items

    def delete_body(self) -> Any:
        """DELETE and invite answers: `{}` on real servers, an empty body in the spec."""
        return {} if self.netbird else NO_BODY


def _time(value: dt.datetime | None) -> str:
    return iso(value)


class Renderer:
    """Turns records into response objects; caches per-request lookups (peer counts)."""

    def __init__(self, state: State, dialect: Dialect, caller_id: str = "") -> None:
        self.state = state
        self.dialect = dialect
        self.caller_id = caller_id
        self._members: dict[str, list[str]] = {}
        self._summaries: dict[tuple[str, bool], Record | None] = {}

    # groups ----------------------------------------------------------------------
    def members(self, gid: str) -> list[str]:
        cached = self._members.get(gid)
        if cached is None:
            group = self.state.groups.get(gid)
            cached = self.state.group_members(group) if group else []
            self._members[gid] = cached
        return cached

    def group(self, group: Record) -> Record:
        peers = self.state.peers
        members = self.members(group["id"])
        result = {
            "id": group["id"],
            "name": group["name"],
            "peers_count": len(members),
            "issued": group["issued"],
            "peers": self.dialect.nullable([{"id": pid, "name": peers[pid]["name"]} for pid in members]),
        }
        if self.dialect.current:
            resources = [dict(item) for item in group.get("resources") or []]
            result["resources"] = self.dialect.nullable(resources)
            result["resources_count"] = len(resources)
        return result

    def group_summary(self, gid: str, with_resources: bool = True) -> Record | None:
        """A group in a peer or a rule: worked out once per answer (every peer of a large list names the same few
        groups), a copy each time."""
        key = (gid, with_resources)
        if key not in self._summaries:
            self._summaries[key] = self._group_summary(gid, with_resources)
        summary = self._summaries[key]
        return None if summary is None else dict(summary)

    def _group_summary(self, gid: str, with_resources: bool) -> Record | None:
        group = self.state.groups.get(gid)
        if group is None:
            return None
        summary = {"id": gid, "name": group["name"], "peers_count": len(self.members(gid))}
        if not self.dialect.netbird:
            summary["issued"] = group["issued"]
        if self.dialect.current:
            # v0.77 counts resources in a rule's destinations only; its source summaries leave the count at 0
            summary["resources_count"] = len(group.get("resources") or []) if with_resources else 0
        return summary

    def group_summaries(self, gids: list[str], with_resources: bool = True) -> list[Record] | None:
        found = [s for s in (self.group_summary(gid, with_resources) for gid in gids) if s is not None]
        return self.dialect.nullable(found)

    # peers -----------------------------------------------------------------------
    def peer_label(self, peer: Record) -> str:
        return f"{peer['dns_label']}.{DNS_DOMAIN}" if self.dialect.netbird else peer["dns_label"]

    def peer(self, peer: Record, group_ids: list[str], accessible: list[str] | None = None,
             accessible_count: int | None = None) -> Record:
        connection_ip = peer["connection_ip"] or ("<nil>" if self.dialect.netbird else "")
        result: Record = {
            "id": peer["id"],
            "name": peer["name"],
            "ip": peer["ip"],
            "connection_ip": connection_ip,
            "connected": peer["connected"],
            "last_seen": _time(peer["last_seen"]),
            "os": peer["os"],
            "kernel_version": peer["kernel_version"],
            "geoname_id": peer["geoname_id"],
            "version": peer["version"],
            "groups": self._shuffled(self.group_summaries(group_ids)),
            "ssh_enabled": peer["ssh_enabled"],
            "user_id": peer["user_id"],
            "hostname": peer["hostname"],
            "ui_version": peer["ui_version"],
            "dns_label": self.peer_label(peer),
            "login_expiration_enabled": peer["login_expiration_enabled"],
            "login_expired": self.state.login_expired(peer),
            "last_login": _time(peer["last_login"]),
            "approval_required": peer["approval_required"],
            "country_code": peer["country_code"],
            "city_name": peer["city_name"],
            "serial_number": peer["serial_number"],
        }
        if self.dialect.current:
            result.update({
                "created_at": _time(peer["created_at"]),
                "inactivity_expiration_enabled": peer.get("inactivity_expiration_enabled", False),
                "ephemeral": peer["ephemeral"],
                "extra_dns_labels": [],
                "local_flags": {flag: False for flag in LOCAL_FLAGS},
            })
            if peer.get("ipv6"):  # v0.77.1 leaves the member out for a peer without an IPv6 address
                result["ipv6"] = peer["ipv6"]
            accessible = None  # v0.77: GET /api/peers/{id}/accessible-peers instead
        if accessible is not None:
            peers = self.state.peers
            result["accessible_peers"] = [self.accessible_peer(peers[pid], brief=True) for pid in accessible]
        if accessible_count is not None:
            result["accessible_peers_count"] = accessible_count
        return result

    def _shuffled(self, items: list[Any] | None) -> Any:
        return self.dialect.order(items) if items else items

    def accessible_peer(self, peer: Record, brief: bool = False) -> Record:
        """An entry of v0.77's GET /api/peers/{id}/accessible-peers; ``brief``: of v0.27's accessible_peers in a peer."""
        entry = {
            "id": peer["id"],
            "name": peer["name"],
            "ip": peer["ip"],
            "dns_label": self.peer_label(peer),
            "user_id": peer["user_id"],
        }
        if brief:
            return entry
        return dict(entry, **{
            "os": peer["os"],
            "connected": peer["connected"],
            "last_seen": _time(peer["last_seen"]),
            "country_code": peer["country_code"],
            "city_name": peer["city_name"],
            "geoname_id": peer["geoname_id"],
        })

    # users and tokens ------------------------------------------------------------
    def user(self, user: Record, creating_service_user: bool = False, creating: bool = False) -> Record:
        status = "blocked" if user["is_blocked"] else user["status"]
        view = self.state.dashboard_view(user)
        if creating_service_user and self.dialect.netbird:
            view = ""  # the create path of real servers does not fill permissions
        answer = {
            "id": user["id"],
            "email": user["email"],
            "name": user["name"],
            "role": user["role"],
            "status": status,
            "last_login": _time(user["last_login"]),
            "auto_groups": list(user["auto_groups"]),
            "is_current": user["id"] == self.caller_id,
            "is_service_user": user["is_service_user"],
            "is_blocked": user["is_blocked"],
            "issued": user["issued"],
        }
        if self.dialect.current:  # v0.77's user answer has no permissions (GET /api/users/current carries them)
            answer["pending_approval"] = bool(user.get("pending_approval"))
            if user.get("idp_id") and not creating:  # a user of the embedded IdP: its connector, on reads only
                answer["idp_id"] = user["idp_id"]
        else:
            answer["permissions"] = {"dashboard_view": view}
        return answer

    def token(self, token: Record) -> Record:
        result = {
            "id": token["id"],
            "name": token["name"],
            "expiration_date": _time(token["expiration_date"]),
            "created_by": token["created_by"],
            "created_at": _time(token["created_at"]),
        }
        if token["last_used"] is not None or not self.dialect.netbird:
            result["last_used"] = _time(token["last_used"])
        return result

    def plain_token(self, plain: str) -> Any:
        return plain if self.dialect.netbird else {"token": plain}

    # policies and posture checks -------------------------------------------------
    def policy(self, policy: Record, rules: list[Record] | None = None, written: bool = False) -> Record:
        """`rules`: the rules to show when they are not the stored ones (v0.77 echoes every rule of a write
        but stores only the first); `written`: the answer of the POST or PUT that wrote it."""
        if self.dialect.current:
            return self._current_policy(policy, policy["rules"] if rules is None else rules)
        rules = []
        # v0.27's per-answer cache, filled by sources and destinations: a source group an earlier rule listed (either
        # side) is left out
        listed: set[str] = set()
        for rule in policy["rules"]:
            sources = rule["sources"]
            if self.dialect.netbird:
                sources = [gid for gid in sources if gid not in listed]
                listed.update(rule["sources"])
                listed.update(rule["destinations"])
            item: Record = {
                "id": policy["id"],
                "name": rule["name"],
                "description": rule["description"],
                "enabled": rule["enabled"],
                "action": rule["action"],
                "bidirectional": rule["bidirectional"],
                "protocol": rule["protocol"],
                "sources": self.group_summaries(sources),
                "destinations": self.group_summaries(rule["destinations"]),
            }
            if rule["ports"] or not self.dialect.netbird:
                item["ports"] = list(rule["ports"])
            rules.append(item)
        checks = policy["source_posture_checks"]
        if checks is None and not (self.dialect.netbird and written):
            # v0.27 answers a read from a copy of the account, whose copy of the list is never nil ([]); only the
            # POST/PUT answer shows the policy as the request made it (null when the request had no list)
            checks = []
        return {
            "id": policy["id"],
            "name": policy["name"],
            "description": policy["description"],
            "enabled": policy["enabled"],
            "source_posture_checks": None if checks is None else list(checks),
            "rules": rules,
        }

    def _current_policy(self, policy: Record, rules: list[Record]) -> Record:
        """v0.77's answer: the rule id is the policy id; one group cache for the whole answer, filled by sources
        and destinations, so a source group an earlier rule listed (either side) is left out; destinations
        take cached groups."""
        listed: set[str] = set()
        answers = []
        for rule in rules:
            sources = [gid for gid in dict.fromkeys(rule["sources"]) if gid not in listed and gid in self.state.groups]
            listed.update(sources)
            destinations = [gid for gid in rule["destinations"] if gid in self.state.groups]
            listed.update(destinations)
            item: Record = {
                "id": policy["id"],
                "name": rule["name"],
                "description": rule["description"],
                "enabled": rule["enabled"],
                "action": rule["action"],
                "bidirectional": rule["bidirectional"],
                "protocol": rule["protocol"],
                "sources": self.group_summaries(sources, with_resources=False),
                "destinations": self.group_summaries(destinations),
            }
            if rule["ports"]:
                item["ports"] = list(rule["ports"])
            if rule.get("port_ranges"):
                item["port_ranges"] = [dict(item) for item in rule["port_ranges"]]
            if rule.get("authorized_groups"):
                item["authorized_groups"] = {gid: list(users) for gid, users in rule["authorized_groups"].items()}
            for key in ("sourceResource", "destinationResource"):
                if rule.get(key):
                    item[key] = dict(rule[key])
            answers.append(item)
        checks = policy["source_posture_checks"]
        return {
            "id": policy["id"],
            "name": policy["name"],
            "description": policy["description"],
            "enabled": policy["enabled"],
            "source_posture_checks": None if checks is None else list(checks),
            "rules": answers,
        }

    def posture_check(self, check: Record) -> Record:
        checks: Record = {}
        for key, value in check["checks"].items():
            value = dict(value)
            if key == "peer_network_range_check" and not self.dialect.netbird:
                value["ranges"] = [list(value["ranges"])]  # the spec's sample nests the CIDRs
            elif key == "geo_location_check":
                value["locations"] = [dict(loc) for loc in value["locations"]]
            elif key == "process_check":
                value["processes"] = [dict(item) for item in value["processes"]]
            checks[key] = value
        return {"id": check["id"], "name": check["name"], "description": check["description"], "checks": checks}

    # routes, DNS -----------------------------------------------------------------
    def route(self, route: Record) -> Record:
        if self.dialect.current:
            return self._current_route(route)
        result = {
            "id": route["id"],
            "network_type": route["network_type"],
            "description": route["description"],
            "network_id": route["network_id"],
            "enabled": route["enabled"],
            "peer": route["peer"],
            "network": route["network"],
            "metric": route["metric"],
            "masquerade": route["masquerade"],
            "groups": list(route["groups"]),
        }
        if route["peer_groups"] or not self.dialect.netbird:
            result["peer_groups"] = list(route["peer_groups"])
        return result

    @staticmethod
    def _current_route(route: Record) -> Record:
        """v0.77: `peer` and `network` always there, `domains` null unless a domain route (whose network is the
        placeholder 192.0.2.0/32), empty peer_groups and access_control_groups left out."""
        result = {
            "id": route["id"],
            "network_type": route["network_type"],
            "description": route["description"],
            "network_id": route["network_id"],
            "enabled": route["enabled"],
            "peer": route["peer"],
            "network": route["network"],
            "domains": list(route["domains"]) if route.get("domains") else None,
            "metric": route["metric"],
            "masquerade": route["masquerade"],
            "groups": list(route["groups"]),
            "keep_route": route.get("keep_route", False),
            "skip_auto_apply": route.get("skip_auto_apply", False),
        }
        if route["peer_groups"]:
            result["peer_groups"] = list(route["peer_groups"])
        if route.get("access_control_groups"):
            result["access_control_groups"] = list(route["access_control_groups"])
        return result

    def nameserver_group(self, nsgroup: Record, created: bool = False) -> Record:
        """`created`: the POST answer, whose `domains` are a list; v0.77's reads show the list as the request gave
        it (null when it had none)."""
        domains = list(nsgroup["domains"])
        if self.dialect.current and not created and not domains and nsgroup.get("domains_null"):
            domains = None
        return {
            "id": nsgroup["id"],
            "name": nsgroup["name"],
            "description": nsgroup["description"],
            "nameservers": [dict(ns) for ns in nsgroup["nameservers"]],
            "enabled": nsgroup["enabled"],
            "groups": list(nsgroup["groups"]),
            "primary": nsgroup["primary"],
            "domains": domains,
            "search_domains_enabled": nsgroup["search_domains_enabled"],
        }

    # setup keys, accounts, events ------------------------------------------------
    def setup_key(self, key: Record, plain: bool = False) -> Record:
        """`plain`: the create answer of v0.77, the only one with the whole key (reads show 5 characters and
        4 stars)."""
        state = setup_key_state(key)
        if key["expires"] is not None:
            self.state.note_change_at(key["expires"])  # its state turns `expired` then
        value = key["key"]
        if self.dialect.current and not plain:
            value = value[:5] + "****"
        result = {
            "id": self.dialect.number_id(key["id"]),
            "key": value,
            "name": key["name"],
            "expires": _time(key["expires"]),
            "type": key["type"],
            "valid": state == "valid",
            "revoked": key["revoked"],
            "used_times": key["used_times"],
            "last_used": _time(key["last_used"]),
            "state": state,
            "auto_groups": list(key["auto_groups"]),
            "updated_at": _time(key["updated_at"]),
            "usage_limit": key["usage_limit"],
            "ephemeral": key["ephemeral"],
        }
        if self.dialect.current:
            result["allow_extra_dns_labels"] = key.get("allow_extra_dns_labels", False)
        return result

    def account(self, account: Record, written: bool = False) -> Record:
        """`written`: v0.77's PUT answer, which shows the settings as the request made them: the runtime members
        (embedded_idp_enabled, local_auth_disabled) false and `network_range` only when the request set it (a read
        shows the network the account has)."""
        if self.dialect.current:
            return self._current_account(account, written)
        settings = dict(account["settings"])
        settings["jwt_allow_groups"] = list(settings.get("jwt_allow_groups") or [])
        if settings.get("extra") is not None:
            settings["extra"] = dict(settings["extra"])
        return {"id": account["id"], "settings": settings}

    def _current_account(self, account: Record, written: bool) -> Record:
        """v0.77's account (toAccountResponse): the settings with every member v0.77 has (lists as stored: null when
        never set), `extra` when the account has one, the account's meta and onboarding."""
        stored = account["settings"]
        settings: Record = {key: stored[key] for key in ("peer_login_expiration_enabled", "peer_login_expiration",
                                                         "regular_users_view_blocked", "groups_propagation_enabled",
                                                         "jwt_groups_enabled", "jwt_groups_claim_name")}
        settings["jwt_allow_groups"] = list(stored.get("jwt_allow_groups") or [])
        for key, default in CURRENT_SETTINGS.items():
            value = stored.get(key, default)
            settings[key] = list(value) if isinstance(value, list) else value
        runtime = not written
        settings["embedded_idp_enabled"] = runtime and self.state.idp  # an IdP of today's servers is the embedded one
        settings["local_auth_disabled"] = False
        if stored.get("network_range"):
            settings["network_range"] = stored["network_range"]
        elif runtime:
            settings["network_range"] = str(self.state.network())
        if stored.get("network_range_v6"):
            settings["network_range_v6"] = stored["network_range_v6"]
        elif runtime and account.get("network_v6"):
            settings["network_range_v6"] = account["network_v6"]
        if stored.get("dashboard_features") is not None:
            settings["dashboard_features"] = dict(stored["dashboard_features"])
        if stored.get("extra") is not None:
            extra = dict(CURRENT_EXTRA, **stored["extra"])
            if extra["network_traffic_logs_groups"] is not None:
                extra["network_traffic_logs_groups"] = list(extra["network_traffic_logs_groups"])
            settings["extra"] = extra
        return {
            "id": account["id"],
            "settings": settings,
            "created_at": _time(account.get("created_at")),
            "created_by": account.get("created_by", ""),
            "domain": account.get("domain", ""),
            "domain_category": account.get("domain_category", ""),
            "onboarding": dict(account.get("onboarding") or {"onboarding_flow_pending": False,
                                                             "signup_form_pending": False}),
        }

    def event(self, event: Record) -> Record:
        users = self.state.users
        initiator = users.get(event["initiator_id"])
        meta = dict(event["meta"])
        target = users.get(event["target_id"])
        if target is not None:
            meta.setdefault("email", target["email"])
            meta.setdefault("username", target["name"])
        if self.dialect.netbird:
            meta = {key: iso(value) if isinstance(value, dt.datetime) else go_str(value) for key, value in meta.items()}
        else:
            meta = {key: iso(value) if isinstance(value, dt.datetime) else value for key, value in meta.items()}
        return {
            "id": self.dialect.number_id(event["id"]),
            "timestamp": _time(event["timestamp"]),
            "activity": event["activity"],
            "activity_code": event["activity_code"],
            "initiator_id": event["initiator_id"],
            "initiator_name": initiator["name"] if initiator else "",
            "initiator_email": initiator["email"] if initiator else "",
            "target_id": event["target_id"],
            "meta": meta,
        }


def setup_key_state(key: Record) -> str:
    """First of expired, revoked, overused; else valid."""
    if key["expires"] is not None and now() > key["expires"]:  # v0.77: expires_in 0 never expires
        return "expired"
    if key["revoked"]:
        return "revoked"
    limit = 1 if key["type"] == "one-off" else key["usage_limit"]
    if limit > 0 and key["used_times"] >= limit:
        return "overused"
    return "valid"
