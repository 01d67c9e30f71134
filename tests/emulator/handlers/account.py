"""Accounts, setup keys, events and locations."""

from __future__ import annotations

import re
from typing import Any, List

from ..dialect import MANAGEMENT_VERSION
from ..geo import COUNTRIES, countries_by_name
from ..seed import new_setup_key
from ..state import Record
from ..util import ApiError, DropConnection, now
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
    _account(ctx)
    body = ctx.body()
    settings_body = body.obj("settings")
    if settings_body is None:
        raise ApiError(400, "couldn't parse JSON request", verbatim=True)
    expiration = settings_body.int("peer_login_expiration")
    if expiration < MIN_EXPIRATION:
        raise ApiError(422, "peer login expiration can't be smaller than one hour")
    if expiration > MAX_EXPIRATION:
        raise ApiError(422, "peer login expiration can't be larger than 180 days")
    settings: dict[str, Any] = {
        "peer_login_expiration_enabled": settings_body.bool("peer_login_expiration_enabled"),
        "peer_login_expiration": expiration,
        "regular_users_view_blocked": settings_body.bool("regular_users_view_blocked"),
        "groups_propagation_enabled": settings_body.bool("groups_propagation_enabled"),
        "jwt_groups_enabled": settings_body.bool("jwt_groups_enabled"),
        "jwt_groups_claim_name": settings_body.str("jwt_groups_claim_name"),
        "jwt_allow_groups": settings_body.str_list("jwt_allow_groups") or [],
    }
    if ctx.dialect.current:
        # v0.77 reads these like the others (left out: false, 0, empty), so a PUT must send back what it read
        settings.update({
            "peer_inactivity_expiration_enabled": settings_body.bool("peer_inactivity_expiration_enabled"),
            "peer_inactivity_expiration": settings_body.int("peer_inactivity_expiration"),
            "peer_expose_enabled": settings_body.bool("peer_expose_enabled"),
            "peer_expose_groups": settings_body.str_list("peer_expose_groups") or [],
            "routing_peer_dns_resolution_enabled": settings_body.bool("routing_peer_dns_resolution_enabled"),
            "lazy_connection_enabled": settings_body.bool("lazy_connection_enabled"),
            "dns_domain": settings_body.str("dns_domain"),
        })
        if settings["peer_expose_enabled"] and not settings["peer_expose_groups"]:
            raise ApiError(422, "peer expose requires at least one group")
        if settings["dns_domain"] and not DNS_DOMAIN.match(settings["dns_domain"]):
            raise ApiError(422, f'invalid domain "{settings["dns_domain"]}" provided for DNS domain')
    extra = settings_body.obj("extra")
    if extra is not None:
        if not extra.has("peer_approval_enabled") and ctx.dialect.legacy:
            raise DropConnection()  # a nil pointer panic on v0.27 (v0.77's member is a plain boolean)
        settings["extra"] = {"peer_approval_enabled": extra.bool("peer_approval_enabled")}
        if ctx.dialect.current:
            # v0.77's extra: every member is read (left out: false, empty)
            settings["extra"].update({
                "user_approval_required": extra.bool("user_approval_required"),
                "network_traffic_logs_enabled": extra.bool("network_traffic_logs_enabled"),
                "network_traffic_logs_groups": extra.str_list("network_traffic_logs_groups") or [],
                "network_traffic_packet_counter_enabled": extra.bool("network_traffic_packet_counter_enabled"),
            })
    account = ctx.state.account
    old = account["settings"]
    account["settings"] = settings
    if old["peer_login_expiration_enabled"] != settings["peer_login_expiration_enabled"]:
        code = "enable" if settings["peer_login_expiration_enabled"] else "disable"
        ctx.event(f"account.setting.peer.login.expiration.{code}", account["id"])
    if old["peer_login_expiration"] != expiration:
        ctx.event("account.setting.peer.login.expiration.update", account["id"])
    return ctx.render.account(account)


@route("DELETE", "/api/accounts/{accountId}")
def delete_account(ctx: Ctx) -> Any:
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
    return [ctx.render.setup_key(key) for key in ctx.dialect.order(list(ctx.state.setup_keys.values()))]


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
def instance_version(_ctx: Ctx) -> Any:
    """v0.77's version answer (v0.27 has no such endpoint: 404, which is how clients tell them apart)."""
    return {"management_current_version": MANAGEMENT_VERSION, "management_update_available": False}


# events ----------------------------------------------------------------------------
@route("GET", "/api/events/audit", CURRENT)
@route("GET", "/api/events")
def list_events(ctx: Ctx) -> Any:
    ctx.require(ctx.service_or_admin, "only users with admin power can view events")
    newest_first = list(reversed(ctx.state.events[-MAX_EVENTS:]))
    return [ctx.render.event(event) for event in newest_first]


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
