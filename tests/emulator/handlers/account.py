"""Accounts, setup keys, events and locations."""

from __future__ import annotations

import re
from typing import Any

from ..geo import COUNTRIES, countries_by_name
from ..seed import new_setup_key
from ..util import ApiError, DropConnection, now
from .base import Ctx, route
from .users import delete_user_record

MIN_EXPIRATION = 3600
MAX_EXPIRATION = 15552000
KEY_TYPES = ("reusable", "one-off")
MAX_EVENTS = 10000


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
    extra = settings_body.obj("extra")
    if extra is not None:
        if not extra.has("peer_approval_enabled") and ctx.dialect.netbird:
            raise DropConnection()  # a nil pointer panic on real servers
        settings["extra"] = {"peer_approval_enabled": extra.bool("peer_approval_enabled")}
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
                       state.posture_checks, state.routes, state.nameservers, state.setup_keys):
        collection.clear()
    state.dns = {"disabled_management_groups": []}
    return ctx.dialect.delete_body()


# setup keys ------------------------------------------------------------------------
def _require_key_view(ctx: Ctx) -> None:
    if not ctx.service_or_admin:
        raise ApiError(401, "only users with admin power can view policies")


@route("GET", "/api/setup-keys")
def list_setup_keys(ctx: Ctx) -> Any:
    _require_key_view(ctx)
    return [ctx.render.setup_key(key) for key in ctx.dialect.order(list(ctx.state.setup_keys.values()))]


@route("GET", "/api/setup-keys/{keyId}")
def get_setup_key(ctx: Ctx) -> Any:
    _require_key_view(ctx)
    key = ctx.state.setup_keys.get(ctx.params["keyId"])
    if key is None:
        raise ApiError(404, "setup key not found")
    return ctx.render.setup_key(key)


def _group_events(ctx: Ctx, key: dict[str, Any], before: list[str], after: list[str]) -> None:
    groups = ctx.state.groups
    for code, changed in (("setupkey.group.add", [g for g in after if g not in before]),
                          ("setupkey.group.delete", [g for g in before if g not in after])):
        for gid in changed:
            name = groups[gid]["name"] if gid in groups else ""
            ctx.event(code, key["id"], {"group": name, "group_id": gid, "setupkey": key["name"]})


@route("POST", "/api/setup-keys")
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


@route("PUT", "/api/setup-keys/{keyId}")
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
    before = key["auto_groups"]
    key["name"] = name
    key["auto_groups"] = auto_groups
    if revoked and not key["revoked"]:
        ctx.event("setupkey.revoke", key["id"], {"name": name, "type": key["type"], "key": key["key"][:5] + "*"})
    key["revoked"] = revoked
    key["updated_at"] = now()
    _group_events(ctx, key, before, auto_groups)
    return ctx.render.setup_key(key)


# events ----------------------------------------------------------------------------
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
