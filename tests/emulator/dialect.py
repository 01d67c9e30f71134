"""Rendering of resources, and the differences between the two dialects.

`seed` reads the spec literally; `netbird` mirrors deployed servers (see
the maintainers' notes on what real servers do): string ids, `null` for some empty lists,
shuffled map-backed lists, `{}` on delete.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from .state import DNS_DOMAIN, Record, State
from .util import NO_BODY, go_str, iso, now

DIALECTS = ("seed", "netbird")


class Dialect:
    """Switches that differ between `seed` and `netbird`."""

    def __init__(self, name: str, shuffle_seed: int | None = None) -> None:
        if name not in DIALECTS:
            raise ValueError(f"unknown dialect {name}")
        self.name = name
        self.netbird = name == "netbird"
        self.shuffle_rng = random.Random(shuffle_seed)

    def number_id(self, value: str | int) -> str | int:
        """Setup key and event ids: integer in the spec, numeric string on real servers."""
        return str(value) if self.netbird else int(value)

    def order(self, items: list[Any]) -> list[Any]:
        """Map-backed lists come out in random order on real servers, every call."""
        if self.netbird:
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
        return {
            "id": group["id"],
            "name": group["name"],
            "peers_count": len(members),
            "issued": group["issued"],
            "peers": self.dialect.nullable([{"id": pid, "name": peers[pid]["name"]} for pid in members]),
        }

    def group_summary(self, gid: str) -> Record | None:
        group = self.state.groups.get(gid)
        if group is None:
            return None
        summary = {"id": gid, "name": group["name"], "peers_count": len(self.members(gid))}
        if not self.dialect.netbird:
            summary["issued"] = group["issued"]
        return summary

    def group_summaries(self, gids: list[str]) -> list[Record] | None:
        found = [s for s in (self.group_summary(gid) for gid in gids) if s is not None]
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
            "groups": self.group_summaries(self.dialect.order(group_ids)),
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
        if accessible is not None:
            peers = self.state.peers
            result["accessible_peers"] = [{
                "id": pid,
                "name": peers[pid]["name"],
                "ip": peers[pid]["ip"],
                "dns_label": self.peer_label(peers[pid]),
                "user_id": peers[pid]["user_id"],
            } for pid in accessible]
        if accessible_count is not None:
            result["accessible_peers_count"] = accessible_count
        return result

    # users and tokens ------------------------------------------------------------
    def user(self, user: Record, creating_service_user: bool = False) -> Record:
        status = "blocked" if user["is_blocked"] else user["status"]
        view = self.state.dashboard_view(user)
        if creating_service_user and self.dialect.netbird:
            view = ""  # the create path of real servers does not fill permissions
        return {
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
            "permissions": {"dashboard_view": view},
        }

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
    def policy(self, policy: Record) -> Record:
        rules = []
        listed: set[str] = set()  # v0.27's per-answer cache: a source group an earlier rule listed is left out
        for rule in policy["rules"]:
            sources = rule["sources"]
            if self.dialect.netbird:
                sources = [gid for gid in sources if gid not in listed]
                listed.update(rule["sources"])
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
        if checks is None and not self.dialect.netbird:
            checks = []
        return {
            "id": policy["id"],
            "name": policy["name"],
            "description": policy["description"],
            "enabled": policy["enabled"],
            "source_posture_checks": None if checks is None else list(checks),
            "rules": rules,
        }

    def posture_check(self, check: Record) -> Record:
        checks: Record = {}
        for key, value in check["checks"].items():
            value = dict(value)
            if key == "peer_network_range_check" and not self.dialect.netbird:
                value["ranges"] = [list(value["ranges"])]  # the spec's sample nests the CIDRs
            elif key == "geo_location_check":
                value["locations"] = [dict(loc) for loc in value["locations"]]
            checks[key] = value
        return {"id": check["id"], "name": check["name"], "description": check["description"], "checks": checks}

    # routes, DNS -----------------------------------------------------------------
    def route(self, route: Record) -> Record:
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

    def nameserver_group(self, nsgroup: Record) -> Record:
        return {
            "id": nsgroup["id"],
            "name": nsgroup["name"],
            "description": nsgroup["description"],
            "nameservers": [dict(ns) for ns in nsgroup["nameservers"]],
            "enabled": nsgroup["enabled"],
            "groups": list(nsgroup["groups"]),
            "primary": nsgroup["primary"],
            "domains": list(nsgroup["domains"]),
            "search_domains_enabled": nsgroup["search_domains_enabled"],
        }

    # setup keys, accounts, events ------------------------------------------------
    def setup_key(self, key: Record) -> Record:
        state = setup_key_state(key)
        return {
            "id": self.dialect.number_id(key["id"]),
            "key": key["key"],
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

    def account(self, account: Record) -> Record:
        settings = dict(account["settings"])
        settings["jwt_allow_groups"] = list(settings.get("jwt_allow_groups") or [])
        if "extra" in settings:
            settings["extra"] = dict(settings["extra"])
        return {"id": account["id"], "settings": settings}

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
    if now() > key["expires"]:
        return "expired"
    if key["revoked"]:
        return "revoked"
    limit = 1 if key["type"] == "one-off" else key["usage_limit"]
    if limit > 0 and key["used_times"] >= limit:
        return "overused"
    return "valid"
