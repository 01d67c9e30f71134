"""Accounts, setup keys, events and locations."""

from __future__ import annotations

import ipaddress
import re
from typing import Any, List

from ..dialect import CURRENT_SETTINGS, MANAGEMENT_VERSION
from ..geo import COUNTRIES, countries_by_name
from ..seed import new_setup_key
from ..state import Record
from ..util import ApiError, Body, DropConnection, now
from .base import CURRENT, LEGACY_AND_SEED, Ctx, route
from .users import delete_user_record

MIN_EXPIRATION = 3600
MAX_EXPIRATION = 15552000
KEY_TYPES = ("reusable", "one-off")
MAX_EVENTS = 10000
# v0.77's check of an account's DNS domain: dot-separated labels of letters, digits and hyphens, no wildcard
DNS_DOMAIN = re.compile(r"^(?=.{1,253}\.?$)[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*\.?$")


# accounts --------------------------------------------------------------------------
@route("GET", "/api/accounts")
def list_accounts(ctx: Ctx) -> Any:
    ctx.require(ctx.service_or_admin, "the user has no permission to access account data")
    return [ctx.render.account(ctx.state.account)]


def _account(ctx: Ctx) -> None:
    account_id = ctx.params["accountId"]
    if ctx.state.account is None or account_id != ctx.state.account["id"]:
        raise ApiError(404, "account not found")


@route("PUT", "/api/accounts/{accountId}")
def update_account(ctx: Ctx) -> Any:
    """v0.27 (and the spec): the settings replaced by the request's (left out: false, 0, empty; `extra` only when
    sent). v0.77 is :func:`_update_current_account`."""
    if ctx.dialect.current:
        return _update_current_account(ctx)
    if not ctx.dialect.netbird:
        _account(ctx)
    body = ctx.body()
    settings_body = body.obj("settings")
    if settings_body is None:
        if not ctx.dialect.netbird:
            raise ApiError(400, "couldn't parse JSON request", verbatim=True)
        settings_body = Body({})  # v0.27's `settings` is a plain member: left out, every setting is zero (422 below)
    extra = settings_body.obj("extra")
    if extra is not None and not extra.has("peer_approval_enabled") and ctx.dialect.legacy:
        raise DropConnection()  # a nil pointer panic in v0.27's handler, before anything is checked
    expiration = settings_body.int("peer_login_expiration")
    _check_expiration(expiration)
    _account(ctx)  # v0.27 checks the settings before it looks the account up
    settings: dict[str, Any] = {
        "peer_login_expiration_enabled": settings_body.bool("peer_login_expiration_enabled"),
        "peer_login_expiration": expiration,
        "regular_users_view_blocked": settings_body.bool("regular_users_view_blocked"),
        "groups_propagation_enabled": settings_body.bool("groups_propagation_enabled"),
        "jwt_groups_enabled": settings_body.bool("jwt_groups_enabled"),
        "jwt_groups_claim_name": settings_body.str("jwt_groups_claim_name"),
        "jwt_allow_groups": settings_body.str_list("jwt_allow_groups") or [],
    }
    if extra is not None:
        settings["extra"] = {"peer_approval_enabled": extra.bool("peer_approval_enabled")}
    account = ctx.state.account
    old = account["settings"]
    account["settings"] = settings
    _settings_events(ctx, old, settings)
    return ctx.render.account(account)


def _check_expiration(expiration: int) -> None:
    if expiration > MAX_EXPIRATION:
        raise ApiError(422, "peer login expiration can't be larger than 180 days")
    if expiration < MIN_EXPIRATION:
        raise ApiError(422, "peer login expiration can't be smaller than one hour")


def _switch(ctx: Ctx, before: Record, after: Record, name: str, code: str) -> None:
    """v0.77's `<code>.enable` / `<code>.disable` event (no meta) when a switch turns on or off."""
    if bool(before.get(name)) != bool(after.get(name)):
        ctx.event(f"{code}.{'enable' if after.get(name) else 'disable'}", ctx.state.account["id"])


def _settings_events(ctx: Ctx, old: Record, new: Record, network_change: Record | None = None) -> None:
    """The events of a settings change: v0.27 records the peer login expiration ones; v0.77 also the other switches
    and values, in the order of its UpdateAccountSettings (`network_change`: the meta of a new network range)."""
    account_id = ctx.state.account["id"]
    before = dict(CURRENT_SETTINGS, **old) if ctx.dialect.current else old
    if ctx.dialect.current:
        _switch(ctx, before, new, "routing_peer_dns_resolution_enabled", "account.setting.routing.peer.dns.resolution")
        _switch(ctx, before, new, "lazy_connection_enabled", "account.setting.lazy.connection")
    _switch(ctx, before, new, "peer_login_expiration_enabled", "account.setting.peer.login.expiration")
    if before.get("peer_login_expiration") != new["peer_login_expiration"]:
        ctx.event("account.setting.peer.login.expiration.update", account_id)
    if not ctx.dialect.current:
        return
    _switch(ctx, before, new, "groups_propagation_enabled", "account.setting.group.propagation")
    if before["auto_update_version"] != new["auto_update_version"]:
        ctx.event("account.settings.auto.version.update", account_id, {"version": new["auto_update_version"]})
    _switch(ctx, before, new, "auto_update_always", "account.setting.auto.update.always")
    _switch(ctx, before, new, "peer_expose_enabled", "account.setting.peer.expose")
    _switch(ctx, before, new, "metrics_push_enabled", "account.setting.metrics.push")
    if new["peer_inactivity_expiration_enabled"]:  # sic: turning it on records only a changed duration
        if before["peer_inactivity_expiration"] != new["peer_inactivity_expiration"]:
            ctx.event("account.peer.inactivity.expiration.update", account_id)
    elif before["peer_inactivity_expiration_enabled"]:
        ctx.event("account.peer.inactivity.expiration.disable", account_id)
    if before["dns_domain"] != new["dns_domain"]:
        ctx.event("account.dns.domain.update", account_id,
                  {"old_dns_domain": before["dns_domain"], "new_dns_domain": new["dns_domain"]})
    if network_change:
        ctx.event("account.network.range.update", account_id, network_change)
    if bool(before["ipv6_enabled_groups"]) != bool(new["ipv6_enabled_groups"]):
        ctx.event("account.setting.ipv6.enable" if new["ipv6_enabled_groups"] else "account.setting.ipv6.disable",
                  account_id)
    if before.get("network_range_v6") != new.get("network_range_v6"):  # a netip.Prefix{} prints "invalid Prefix"
        ctx.event("account.network.range.update", account_id,
                  {"old_network_range_v6": before.get("network_range_v6") or "invalid Prefix",
                   "new_network_range_v6": new.get("network_range_v6") or "invalid Prefix"})


SEMVER = re.compile(r"^v?(0|[1-9]\d*)(\.(0|[1-9]\d*))?(\.(0|[1-9]\d*))?(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$")


def _prefix(raw: str, version: int) -> str:
    """A network range as v0.77 takes it (netip.ParsePrefix, masked, of the right family, not loopback, multicast or
    link-local, at least /28 (IPv4) or /120, at most /48 (IPv6)); 422 with its words otherwise."""
    address, slash, bits = raw.partition("/")
    failure = f'invalid CIDR format: netip.ParsePrefix("{raw}"): '
    if not slash:
        raise ApiError(422, failure + "no '/'")
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError as exc:
        # Go's netip.ParseAddr words each fault; the common ones
        fields = address.split(".")
        if len(fields) == 4 and all(f.isdigit() for f in fields) and any(int(f) > 255 for f in fields):
            reason = "IPv4 field has value >255"
        else:
            reason = "unable to parse IP"
        raise ApiError(422, failure + f'ParseAddr("{address}"): {reason}') from exc
    if not bits.isdigit() or (len(bits) > 1 and bits[0] == "0"):
        raise ApiError(422, failure + f'bad bits after slash: "{bits}"')
    if int(bits) > parsed.max_prefixlen:
        raise ApiError(422, failure + "prefix length out of range")
    network = ipaddress.ip_network(f"{address}/{bits}", strict=False)
    if version == 6 and network.version != 6:
        raise ApiError(422, "network range must be an IPv6 address")
    if version == 4 and network.version != 4:
        raise ApiError(422, "network range must be an IPv4 address")
    first = network.network_address
    if first.is_loopback:
        raise ApiError(422, "loopback address range not allowed")
    if first.is_multicast:
        raise ApiError(422, "multicast address range not allowed")
    if first.is_link_local:
        raise ApiError(422, "link-local address range not allowed")
    if network.version == 4 and network.prefixlen > 28:
        raise ApiError(422, "network range too small: minimum size is /28 for IPv4")
    if network.version == 6 and network.prefixlen > 120:
        raise ApiError(422, "network range too small: minimum size is /120 for IPv6")
    if network.version == 6 and network.prefixlen < 48:
        raise ApiError(422, "network range too large: maximum size is /48 for IPv6")
    return str(network)


def _check_capacity(ctx: Ctx, network: str) -> None:
    """v0.77 wants room for the peers and half as many again (at least 10 addresses)."""
    prefix = ipaddress.ip_network(network)
    host_bits = prefix.max_prefixlen - prefix.prefixlen
    hosts = (1 << host_bits) - (2 if prefix.version == 4 else 0) if host_bits < 63 else 2 ** 63 - 1
    peers = len(ctx.state.peers)
    required = max(10, peers + int(peers * 0.5))
    if hosts < required:
        raise ApiError(422, f"network range too small: need at least {required} addresses for {peers} peers + buffer, "
                            f"but range provides {hosts}")


def _update_current_account(ctx: Ctx) -> Any:
    """v0.77 (accounts handler and UpdateAccountSettings): every setting is read from the request (left out: false, 0,
    empty, null), except `extra`, which is kept when left out, and the runtime members (embedded_idp_enabled,
    local_auth_disabled), which are not taken; `network_range` moves every peer when it differs. The checks come in
    the server's order: the request (peer expose, auto-update version, agent network), the network ranges, the account
    (403), then expiration, DNS domain and IPv6 groups."""
    state = ctx.state
    body = ctx.body()
    sb = body.obj("settings") or Body({})
    expose_groups = sb.str_list("peer_expose_groups")
    if sb.bool("peer_expose_enabled") and not expose_groups:
        raise ApiError(422, "peer expose requires at least one group")
    version = sb.str("auto_update_version")
    if version and version not in ("latest", "disabled") and not SEMVER.match(version):
        raise ApiError(500, "internal server error")  # a plain error ("invalid AutoUpdateVersion"): 500
    features = sb.obj("dashboard_features")
    settings: dict[str, Any] = {
        "peer_login_expiration_enabled": sb.bool("peer_login_expiration_enabled"),
        "peer_login_expiration": sb.int("peer_login_expiration"),
        "regular_users_view_blocked": sb.bool("regular_users_view_blocked"),
        "peer_inactivity_expiration_enabled": sb.bool("peer_inactivity_expiration_enabled"),
        "peer_inactivity_expiration": sb.int("peer_inactivity_expiration"),
        "peer_expose_enabled": sb.bool("peer_expose_enabled"),
        "peer_expose_groups": expose_groups,
        "jwt_groups_enabled": sb.bool("jwt_groups_enabled"),
        "groups_propagation_enabled": sb.bool("groups_propagation_enabled"),
        "jwt_groups_claim_name": sb.str("jwt_groups_claim_name"),
        "jwt_allow_groups": sb.str_list("jwt_allow_groups"),
        "routing_peer_dns_resolution_enabled": sb.bool("routing_peer_dns_resolution_enabled"),
        "dns_domain": sb.str("dns_domain"),
        "lazy_connection_enabled": sb.bool("lazy_connection_enabled"),
        "auto_update_version": version,
        "auto_update_always": sb.bool("auto_update_always"),
        "local_mfa_enabled": sb.bool("local_mfa_enabled"),
        "ipv6_enabled_groups": sb.str_list("ipv6_enabled_groups"),
        "metrics_push_enabled": sb.bool("metrics_push_enabled"),
        "agent_network_only": sb.bool("agent_network_only"),
    }
    if features is not None:
        settings["dashboard_features"] = {"agent_network": features.raw("agent_network")}
        if not isinstance(settings["dashboard_features"]["agent_network"], (bool, type(None))):
            raise ApiError(400, "couldn't parse JSON request", verbatim=True)
    if settings["agent_network_only"] and not (features is not None and features.bool("agent_network")):
        raise ApiError(422, "agent network only mode requires dashboard_features.agent_network to be enabled")
    for member, family in (("network_range", 4), ("network_range_v6", 6)):
        raw = sb.str(member)
        if raw:
            settings[member] = _prefix(raw, family)
            if family == 4:
                _check_capacity(ctx, settings[member])
    account = state.account
    if account is None or ctx.params["accountId"] != account["id"]:
        raise ApiError(403, "failed to validate user permissions: user is not part of this account")
    onboarding = body.obj("onboarding")
    if onboarding is not None:
        account["onboarding"] = {"onboarding_flow_pending": onboarding.bool("onboarding_flow_pending"),
                                 "signup_form_pending": onboarding.bool("signup_form_pending")}
    _check_expiration(settings["peer_login_expiration"])
    domain = settings["dns_domain"]
    if domain and not DNS_DOMAIN.match(domain):
        raise ApiError(422, f'invalid domain "{domain}" provided for DNS domain')
    old = account["settings"]
    if domain and domain != old.get("dns_domain", "") and any(z["domain"] == domain for z in state.zones.values()):
        raise ApiError(422, f"peer DNS domain {domain} conflicts with existing custom DNS zone")
    for gid in settings["ipv6_enabled_groups"] or []:
        if gid not in state.groups:
            raise ApiError(422, f"IPv6 enabled group {gid} does not exist")
    extra = sb.obj("extra")
    if extra is not None:
        settings["extra"] = {
            "peer_approval_enabled": extra.bool("peer_approval_enabled"),
            "user_approval_required": extra.bool("user_approval_required"),
            "network_traffic_logs_enabled": extra.bool("network_traffic_logs_enabled"),
            "network_traffic_logs_groups": extra.str_list("network_traffic_logs_groups"),
            "network_traffic_packet_counter_enabled": extra.bool("network_traffic_packet_counter_enabled"),
        }
    elif old.get("extra") is not None:
        settings["extra"] = dict(old["extra"])  # left out, the account keeps its extra settings
    if (sorted(old.get("ipv6_enabled_groups") or []) != sorted(settings["ipv6_enabled_groups"] or [])
            or old.get("network_range_v6") != settings.get("network_range_v6")):
        # v0.77 gives the account an IPv6 subnet the first time its IPv6 settings change (a random /64 in fd00::/8,
        # kept in the settings that change writes); the peers' IPv6 addresses are not modelled
        if settings.get("network_range_v6"):
            account["network_v6"] = settings["network_range_v6"]
        elif not account.get("network_v6"):
            account["network_v6"] = settings["network_range_v6"] = state.new_ipv6_subnet()
    moved_from, change = state.network(), None
    if settings.get("network_range") and settings["network_range"] != str(moved_from):
        state.renumber(ipaddress.ip_network(settings["network_range"]))
        change = {"old_network_range": str(moved_from), "new_network_range": settings["network_range"]}
    account["settings"] = settings
    _settings_events(ctx, old, settings, change)
    return ctx.render.account(account, written=True)


@route("DELETE", "/api/accounts/{accountId}")
def delete_account(ctx: Ctx) -> Any:
    if ctx.dialect.current and (ctx.state.account is None or ctx.params["accountId"] != ctx.state.account["id"]):
        raise ApiError(404, f"account not found: {ctx.params['accountId']}")
    _account(ctx)
    if ctx.caller["role"] != "owner":
        raise ApiError(403, "user is not allowed to delete account. only account owner can delete account")
    state = ctx.state
    for user in [u for u in state.users.values() if not u["is_service_user"] and u["id"] != ctx.caller_id]:
        delete_user_record(ctx, user)
    delete_user_record(ctx, ctx.caller)
    # the account and everything in it disappears; every token stops working
    state.account = None
    for collection in (state.users, state.tokens, state.token_by_hash, state.peers, state.groups, state.policies,
                       state.posture_checks, state.routes, state.nameservers, state.setup_keys, state.networks,
                       state.network_resources, state.network_routers, state.zones):
        collection.clear()
    state.dns = {"disabled_management_groups": []}
    return ctx.dialect.delete_body()


# setup keys ------------------------------------------------------------------------
def _require_key_view(ctx: Ctx) -> None:
    if not ctx.service_or_admin:
        if ctx.dialect.current:
            raise ApiError(403, "permission denied")
        raise ApiError(401, "only users with admin power can view policies")


def _find_key(ctx: Ctx) -> dict[str, Any]:
    kid = ctx.params["keyId"]
    key = ctx.state.setup_keys.get(kid)
    if key is None:
        raise ApiError(404, f"setup key: {kid} not found" if ctx.dialect.current else "setup key not found")
    return key


@route("GET", "/api/setup-keys")
def list_setup_keys(ctx: Ctx) -> Any:
    _require_key_view(ctx)
    return ctx.dialect.order([ctx.render.setup_key(key) for key in ctx.state.setup_keys.values()])


@route("GET", "/api/setup-keys/{keyId}")
def get_setup_key(ctx: Ctx) -> Any:
    _require_key_view(ctx)
    return ctx.render.setup_key(_find_key(ctx))


def _group_events(ctx: Ctx, key: dict[str, Any], before: list[str], after: list[str]) -> None:
    groups = ctx.state.groups
    for code, changed in (("setupkey.group.add", [g for g in after if g not in before]),
                          ("setupkey.group.delete", [g for g in before if g not in after])):
        for gid in changed:
            name = groups[gid]["name"] if gid in groups else ""
            ctx.event(code, key["id"], {"group": name, "group_id": gid, "setupkey": key["name"]})


def _check_auto_groups(ctx: Ctx, auto_groups: list[str]) -> None:
    """v0.77: every group must exist and All is refused (422)."""
    for gid in auto_groups:
        group = ctx.state.groups.get(gid)
        if group is None:
            raise ApiError(422, f"invalid auto groups: group not found: {gid}")
        if group["name"] == "All":
            raise ApiError(422, "invalid auto groups: can't add 'All' group to the setup key")


@route("POST", "/api/setup-keys", CURRENT)
def create_current_setup_key(ctx: Ctx) -> Any:
    """v0.77: expires_in 0 never expires, a one-off key takes no usage limit above 1, xid ids, the whole key
    only in this answer."""
    body = ctx.body()
    name = body.str("name")
    key_type = body.str("type")
    expires_in = body.int("expires_in")
    usage_limit = body.int("usage_limit")
    ephemeral = body.bool("ephemeral")
    allow_extra_dns_labels = body.bool("allow_extra_dns_labels")
    auto_groups = body.str_list("auto_groups") or []
    if not name:
        raise ApiError(422, "setup key name shouldn't be empty")
    if key_type not in KEY_TYPES:
        raise ApiError(422, f"unknown setup key type {key_type}")
    if key_type == "one-off" and usage_limit > 1:
        raise ApiError(422, f"usage_limit {usage_limit} is not valid for a one-off setup key, which can be used once; "
                            "use type reusable for a key that can be used more than once")
    if expires_in < 0:
        raise ApiError(422, "expiresIn can not be in the past")
    _check_auto_groups(ctx, auto_groups)
    key = new_setup_key(ctx.state, name, key_type, expires_in, auto_groups, usage_limit, ephemeral)
    key["allow_extra_dns_labels"] = allow_extra_dns_labels
    ctx.event("setupkey.add", key["id"], {"name": name, "type": key_type, "key": key["key"][:5] + "****"})
    _group_events(ctx, key, [], auto_groups)
    return ctx.render.setup_key(key, plain=True)


@route("PUT", "/api/setup-keys/{keyId}", CURRENT)
def update_current_setup_key(ctx: Ctx) -> Any:
    """v0.77 takes only `revoked` and `auto_groups` (the rest of a body is ignored) and never un-revokes."""
    body = ctx.body()
    auto_groups = body.str_list("auto_groups")
    revoked = body.bool("revoked")
    if auto_groups is None:
        raise ApiError(422, "setup key AutoGroups field is invalid")
    key = _find_key(ctx)
    _check_auto_groups(ctx, auto_groups)
    if key["revoked"] and not revoked:
        raise ApiError(422, "can't un-revoke a revoked setup key")
    return _store_key_update(ctx, key, auto_groups, revoked, masked=key["key"][:5] + "****")


def _store_key_update(ctx: Ctx, key: Record, auto_groups: List[str], revoked: bool, masked: str) -> Any:
    """A setup key's new groups and revoked state, with the events both generations record (``masked``: the key as
    the revoke event shows it)."""
    before = key["auto_groups"]
    key["auto_groups"] = auto_groups
    if revoked and not key["revoked"]:
        ctx.event("setupkey.revoke", key["id"], {"name": key["name"], "type": key["type"], "key": masked})
    key["revoked"] = revoked
    key["updated_at"] = now()
    _group_events(ctx, key, before, auto_groups)
    return ctx.render.setup_key(key)


@route("DELETE", "/api/setup-keys/{keyId}", CURRENT)
def delete_setup_key(ctx: Ctx) -> Any:
    key = _find_key(ctx)
    del ctx.state.setup_keys[key["id"]]
    ctx.event("setupkey.delete", key["id"], {"name": key["name"], "type": key["type"], "key": key["key"][:5] + "****"})
    return {}


@route("POST", "/api/setup-keys", LEGACY_AND_SEED)
def create_setup_key(ctx: Ctx) -> Any:
    body = ctx.body()
    name = body.str("name")
    key_type = body.str("type")
    expires_in = body.int("expires_in")
    usage_limit = body.int("usage_limit")
    ephemeral = body.bool("ephemeral")
    body.bool("revoked")  # type-checked, ignored on create like real servers do
    auto_groups = body.str_list("auto_groups") or []
    if not name:
        raise ApiError(422, "setup key name shouldn't be empty")
    if key_type not in KEY_TYPES:
        raise ApiError(422, f"unknown setup key type {key_type}")
    if expires_in < 86400 or expires_in > 31536000:
        raise ApiError(422, "expiresIn should be between 1 day and 365 days")
    for gid in auto_groups:
        if gid not in ctx.state.groups:
            raise ApiError(404, f"group {gid} doesn't exist")
    key = new_setup_key(ctx.state, name, key_type, expires_in, auto_groups, usage_limit, ephemeral)
    ctx.event("setupkey.add", key["id"], {"name": name, "type": key_type, "key": key["key"][:5] + "*"})
    _group_events(ctx, key, [], auto_groups)
    return ctx.render.setup_key(key)


@route("PUT", "/api/setup-keys/{keyId}", LEGACY_AND_SEED)
def update_setup_key(ctx: Ctx) -> Any:
    key = ctx.state.setup_keys.get(ctx.params["keyId"])
    if key is None:
        raise ApiError(404, "setup key not found")
    body = ctx.body()
    name = body.str("name")
    auto_groups = body.str_list("auto_groups")
    revoked = body.bool("revoked")
    if not name:
        raise ApiError(422, "setup key name field is invalid: ")
    if auto_groups is None:
        raise ApiError(422, "setup key AutoGroups field is invalid")
    # type, expires_in, usage_limit and ephemeral are ignored; auto_groups are not validated
    key["name"] = name
    return _store_key_update(ctx, key, auto_groups, revoked, masked=key["key"][:5] + "*")


# instance (v0.77) ------------------------------------------------------------------
@route("GET", "/api/instance/version", CURRENT)
def instance_version(ctx: Ctx) -> Any:
    """v0.77's version answer (v0.27 has no such endpoint: 404, which is how clients tell them apart); the release
    it names can be set (/_emulator/config "version"), to play a server of another release of this generation."""
    return {"management_current_version": ctx.state.version or MANAGEMENT_VERSION, "management_update_available": False}


# events ----------------------------------------------------------------------------
@route("GET", "/api/events/audit", CURRENT)
@route("GET", "/api/events")
def list_events(ctx: Ctx) -> Any:
    ctx.require(ctx.service_or_admin, "only users with admin power can view events")
    # ORDER BY timestamp DESC LIMIT 10000, as the real servers' store reads them: an event stored late with an older
    # time stamp (POST /_emulator/events) sorts below newer ones
    newest_first = sorted(reversed(ctx.state.events), key=lambda event: event["timestamp"], reverse=True)[:MAX_EVENTS]
    return [ctx.render.event(event) for event in newest_first]


PROXY_PAGE_SIZES = range(1, 101)  # v0.77 pages the proxy's access log: 50 a page unless asked, at most 100


def _positive_query(ctx: Ctx, name: str, default: int) -> int:
    raw = ctx.query.get(name, [str(default)])[-1]
    try:
        return int(raw)
    except ValueError:
        raise ApiError(400, f"invalid {name} query parameter") from None


@route("GET", "/api/events/proxy", CURRENT)
def list_proxy_events(ctx: Ctx) -> Any:
    """The reverse proxy's access log, a page of it: the emulator has no proxy connected (as the real test servers
    have none), so the log is empty, paginated as v0.77 pages it."""
    ctx.require(ctx.service_or_admin, "only users with admin power can view events")
    page, size = _positive_query(ctx, "page", 1), _positive_query(ctx, "page_size", 50)
    if page < 1 or size not in PROXY_PAGE_SIZES:
        raise ApiError(400, "invalid pagination parameters")
    entries: list[Record] = []  # newest first, filtered by start_date/end_date: none without a proxy
    pages = (len(entries) + size - 1) // size
    return {"data": entries[(page - 1) * size:page * size], "page": page, "page_size": size,
            "total_records": len(entries), "total_pages": pages}


# locations -------------------------------------------------------------------------
def _require_geo(ctx: Ctx) -> None:
    if not ctx.state.geo:
        raise ApiError(412, "geo location database is not initialized")


@route("GET", "/api/locations/countries")
def list_countries(ctx: Ctx) -> Any:
    ctx.require(ctx.admin, "user is not allowed to perform this action")
    _require_geo(ctx)
    rows = countries_by_name()
    if ctx.dialect.netbird:
        return [{"country_code": code, "country_name": name} for code, name in rows]
    return [code for code, _name in rows]


@route("GET", "/api/locations/countries/{country}/cities")
def list_cities(ctx: Ctx) -> Any:
    ctx.require(ctx.admin, "user is not allowed to perform this action")
    country = ctx.params["country"]
    if not re.fullmatch(r"[a-zA-Z]{2}", country):
        raise ApiError(422, "invalid country code")
    _require_geo(ctx)
    cities = COUNTRIES.get(country, ("", []))[1]  # case-sensitive, like the reference
    rows = [{"geoname_id": geoname_id, "city_name": name} for geoname_id, name in cities]
    if ctx.dialect.netbird:
        return rows
    if not rows:
        raise ApiError(404, f"no cities found for country {country}")
    return rows[0]
