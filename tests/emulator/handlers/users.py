"""Users, invitations and personal access tokens."""

from __future__ import annotations

import base64
import datetime as dt
import string
from typing import Any

from ..seed import add_token, new_user
from ..state import Record
from ..tokens import make_token
from ..util import ApiError, now
from .base import CURRENT, Ctx, route
from .peers import remove_peer

ROLES = ("owner", "admin", "user")
PASSWORD_ALPHABET = string.ascii_uppercase + string.digits + "!#$%&*@^"
CURRENT_ROLES = ROLES + ("network_admin", "auditor", "billing_admin")  # v0.77's roles


def _roles(ctx: Ctx) -> tuple[str, ...]:
    return CURRENT_ROLES if ctx.dialect.current else ROLES


def _role(ctx: Ctx, value: str, message: str) -> str:
    role = value.lower()
    if role not in _roles(ctx):
        raise ApiError(422, message)
    return role


@route("GET", "/api/users")
def list_users(ctx: Ctx) -> Any:
    users = list(ctx.state.users.values())
    if not ctx.service_or_admin:
        users = [ctx.caller]
    raw = ctx.query.get("service_user")
    if raw is not None and users:
        text = raw[0].lower()
        if text not in ("1", "t", "true", "0", "f", "false"):
            raise ApiError(422, "invalid service_user query parameter")
        wanted = text in ("1", "t", "true")
        users = [user for user in users if user["is_service_user"] == wanted]
    return ctx.dialect.order([ctx.render.user(user) for user in users])


@route("GET", "/api/users/current", CURRENT)
def current_user(ctx: Ctx) -> Any:
    """The caller itself, whatever its role (v0.77; v0.27 has no such read), with what its role may do in each of the
    server's permission modules, as v0.77.1 answers it."""
    answer = ctx.render.user(ctx.caller)
    full = ctx.caller.get("role") in ("owner", "admin")
    answer["permissions"] = {"is_restricted": not full, "modules": {
        module: {"create": full, "delete": full, "read": full or module not in ADMIN_ONLY_MODULES, "update": full}
        for module in PERMISSION_MODULES}}
    return answer


# v0.77.1's permission modules (GET /api/users/current); a regular user reads only its own peers and groups
PERMISSION_MODULES = ("accounts", "agent_network", "agent_network.budgets", "agent_network.guardrails", "agent_network.logs",
                      "agent_network.policies", "agent_network.providers", "agent_network.settings", "agent_network.usage",
                      "dns", "events", "groups", "identity_providers", "nameservers", "networks", "pats", "peers",
                      "policies", "remote_jobs", "routes", "services", "settings", "setup_keys", "users")
ADMIN_ONLY_MODULES = tuple(module for module in PERMISSION_MODULES if module not in ("groups", "peers", "pats"))


@route("POST", "/api/users")
def create_user(ctx: Ctx) -> Any:
    state = ctx.state
    body = ctx.body()
    role_text = body.str("role")
    role = role_text.lower()
    if role not in _roles(ctx):
        raise ApiError(422, f"unknown user role {role_text}")
    auto_groups = body.str_list("auto_groups") or []
    name = body.str("name")
    email = body.str("email")
    if body.bool("is_service_user"):
        if role == "owner":
            raise ApiError(422, "can't create a service user with owner role")
        user = new_user(state, name=name, role=role, is_service_user=True, auto_groups=auto_groups)
        ctx.event("service.user.create", user["id"], {"name": name})
        return ctx.render.user(user, creating_service_user=True)
    if not state.idp:
        raise ApiError(412, "idp manager must be enabled to send user invites")
    if not name:
        raise ApiError(422, "name can't be empty")
    if not email:
        raise ApiError(422, "email can't be empty")
    if role == "owner":
        raise ApiError(422, "can't invite a user with owner role")
    if any(user["email"].lower() == email.lower() for user in state.users.values() if user["email"]):
        raise ApiError(409, "can't invite a user with an existing netbird account")
    for gid in auto_groups:
        if gid not in state.groups:
            raise ApiError(422, f"provided group id {gid} doesn't exist")
    if ctx.dialect.current:  # v0.77's embedded identity provider makes the user at once, with a generated password
        user = embedded_user(state, email=email, name=name, role=role, auto_groups=auto_groups)
        password = generated_password(state)
        passwords(state)[user["id"]] = password
        ctx.event("user.create", user["id"], {"email": email, "username": name})
        return dict(ctx.render.user(user, creating=True), password=password)
    user = new_user(state, id=f"idp-{state.new_uuid()}", name=name, email=email, role=role,
                    status="invited", auto_groups=auto_groups)
    ctx.event("user.invite", user["id"])
    return ctx.render.user(user)


def embedded_user(state: Any, **fields: Any) -> Record:
    """A user of v0.77's embedded identity provider (Dex): its id is Dex's (the user's UUID and the connector,
    ``local``, as protobuf fields, base64 without padding), ``idp_id`` the connector."""
    raw = b"\n$" + state.new_uuid().encode() + b"\x12\x05local"
    dex_id = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    return new_user(state, id=dex_id, idp_id="local", **fields)


def generated_password(state: Any) -> str:
    """What the embedded identity provider generates for a user an administrator adds (16 characters, as seen)."""
    return "".join(state.rng.choice(PASSWORD_ALPHABET) for dummy in range(16))


def _find_user(ctx: Ctx, message: str) -> Record:
    """The path's user, or 404 with `message` (v0.77: `user: <id> not found`)."""
    user = ctx.state.users.get(ctx.params["userId"])
    if user is None:
        raise ApiError(404, f"user: {ctx.params['userId']} not found" if ctx.dialect.current else message)
    return user


@route("PUT", "/api/users/{userId}")
def update_user(ctx: Ctx) -> Any:
    state = ctx.state
    caller = ctx.caller
    target = _find_user(ctx, f"couldn't find user with id {ctx.params['userId']}")
    body = ctx.body()
    auto_groups = body.str_list("auto_groups")
    if auto_groups is None:
        raise ApiError(400, "auto_groups field can't be absent", verbatim=True)
    role = _role(ctx, body.str("role"), "invalid user role")
    blocked = body.bool("is_blocked")
    # v0.77 words a refusal after the user it is about: "failed to process update for user <id>: <reason>"
    prefix = f"failed to process update for user {target['id']}: " if ctx.dialect.current else ""

    def refuse(status: int, reason: str) -> ApiError:
        return ApiError(status, prefix + reason)

    self_edit = target["id"] == caller["id"]
    if self_edit and blocked != target["is_blocked"]:
        raise refuse(403, "admins can't block or unblock themselves")
    if self_edit and role != target["role"]:
        raise refuse(403, "admins can't change their role")
    if caller["role"] == "admin" and target["role"] == "owner" and role != "owner":
        raise refuse(403, "only owners can remove owner role from their user")
    if caller["role"] == "admin" and target["role"] == "owner" and blocked:
        raise refuse(403, "unable to block owner user")
    if caller["role"] == "admin" and role == "owner" and target["role"] != "owner":
        raise refuse(403, "only owners can add owner role to other users")
    if target["is_service_user"] and role == "owner":
        raise refuse(403, "can't update a service user with owner role")
    for gid in auto_groups:
        if gid not in state.groups:
            raise refuse(422, f"provided group id {gid} in the user {target['id']} update doesn't exist")

    if blocked != target["is_blocked"]:
        target["is_blocked"] = blocked
        ctx.event("user.block" if blocked else "user.unblock", target["id"])
        if blocked:
            for peer in state.peers.values():
                if peer["user_id"] == target["id"]:
                    peer["login_expired"] = True
                    state.event("peer.login.expire", target["id"], peer["id"], state.peer_meta(peer))
    if role != target["role"]:
        if role == "owner" and caller["role"] == "owner":
            caller["role"] = "admin"  # ownership moves, there is one owner
            target["role"] = role
            ctx.event("transferred.owner.role", target["id"])
        else:
            target["role"] = role
            ctx.event("user.role.update", target["id"], {"role": role})
    before, after = set(target["auto_groups"]), set(auto_groups)
    meta_base = {"is_service_user": target["is_service_user"], "user_name": target["name"]}
    for gid in auto_groups:
        if gid not in before:
            ctx.event("user.group.add", target["id"], {"group": state.groups[gid]["name"], "group_id": gid, **meta_base})
    for gid in target["auto_groups"]:
        if gid not in after:
            name = state.groups[gid]["name"] if gid in state.groups else ""
            ctx.event("user.group.delete", target["id"], {"group": name, "group_id": gid, **meta_base})
    if state.account and state.account["settings"].get("groups_propagation_enabled") and before != after:
        _propagate(ctx, target, before, after)
    target["auto_groups"] = list(auto_groups)
    return ctx.render.user(target)


def _propagate(ctx: Ctx, user: Record, before: set[str], after: set[str]) -> None:
    """Groups propagation: the user's peers follow the change of its auto_groups."""
    own = [pid for pid, peer in ctx.state.peers.items() if peer["user_id"] == user["id"]]
    for gid in after - before:
        group = ctx.state.groups[gid]
        group["peers"].extend(pid for pid in own if pid not in group["peers"])
    for gid in before - after:
        group = ctx.state.groups.get(gid)
        if group is not None and group["name"] != "All":
            group["peers"] = [pid for pid in group["peers"] if pid not in own]


def delete_user_record(ctx: Ctx, target: Record) -> None:
    state = ctx.state
    if target["is_service_user"]:
        ctx.event("service.user.delete", target["id"], {"name": target["name"], "created_at": target["created_at"]})
    else:
        for peer in [p for p in state.peers.values() if p["user_id"] == target["id"]]:
            remove_peer(state, peer, ctx.caller_id)
        meta = {"name": target["name"], "email": target["email"], "created_at": target["created_at"]}
        if ctx.dialect.current:  # as v0.77.1's audit log shows it
            meta = {"created_at": target["created_at"], "email": target["email"], "issued": target["issued"],
                    "username": target["name"]}
        ctx.event("user.delete", target["id"], meta)
    for tid in [tid for tid, token in state.tokens.items() if token["user_id"] == target["id"]]:
        state.token_by_hash.pop(state.tokens[tid]["hashed"], None)
        del state.tokens[tid]
    del state.users[target["id"]]


@route("DELETE", "/api/users/{userId}")
def delete_user(ctx: Ctx) -> Any:
    if ctx.params["userId"] == ctx.caller_id:
        raise ApiError(422, "self deletion is not allowed")
    target = _find_user(ctx, "target user not found")
    if target["role"] == "owner":
        raise ApiError(403, "unable to delete a user with owner role")
    if target["issued"] == "integration" and not ctx.caller["is_service_user"]:
        raise ApiError(403, "only integration service user can delete this user")
    if target["non_deletable"]:
        raise ApiError(403, "service user is marked as non-deletable")
    delete_user_record(ctx, target)
    return ctx.dialect.delete_body()


@route("POST", "/api/users/{userId}/invite")
def invite_user(ctx: Ctx) -> Any:
    if not ctx.state.idp:
        raise ApiError(412, "idp manager must be enabled to send user invites")
    if ctx.dialect.current:  # the embedded identity provider keeps no pending invites: v0.77.1 finds none (its words)
        raise ApiError(404, f"user account {ctx.params['userId'].lower()} doesn't exist")
    target = ctx.state.users.get(ctx.params["userId"])
    if target is None or target["is_service_user"]:
        raise ApiError(404, f"user {ctx.params['userId']} not found")
    if target["status"] != "invited":
        raise ApiError(412, "can't invite a user with an activated netbird account")
    ctx.event("user.invite", target["id"])
    return ctx.dialect.delete_body()


def _pending_user(ctx: Ctx) -> Record:
    uid = ctx.params["userId"]
    target = ctx.state.users.get(uid)
    if target is None:
        raise ApiError(404, f"user: {uid} not found")
    if not target.get("pending_approval"):
        raise ApiError(422, f"user {uid} is not pending approval")
    return target


@route("POST", "/api/users/{userId}/approve", CURRENT)
def approve_user(ctx: Ctx) -> Any:
    """v0.77: a user waiting for approval (account setting extra.user_approval_required) is let in."""
    target = _pending_user(ctx)
    target["pending_approval"] = False
    target["is_blocked"] = False
    ctx.event("user.approve", target["id"])
    return ctx.render.user(target)


@route("DELETE", "/api/users/{userId}/reject", CURRENT)
def reject_user(ctx: Ctx) -> Any:
    """v0.77: a user waiting for approval is deleted."""
    target = _pending_user(ctx)
    delete_user_record(ctx, target)
    ctx.event("user.reject", target["id"])
    return {}


# passwords (v0.77, embedded identity provider) -----------------------------------------------
def passwords(state: Any) -> dict[str, str]:
    """The embedded identity provider's passwords by user id (kept on the state, so the state file keeps them): a
    user without one is unknown to it, as the owner a seeded server had before the identity provider was on."""
    kept = getattr(state, "user_passwords", None)
    if kept is None:
        kept = {}
        state.user_passwords = kept
    return kept


@route("PUT", "/api/users/{userId}/password", CURRENT)
def change_password(ctx: Ctx) -> Any:
    """v0.77.1 as observed: both passwords required (422), only one's own (422, also for an unknown id), the same
    password refused before the old one is checked, any new length taken; 412 without the embedded IdP."""
    if not ctx.state.idp:
        raise ApiError(412, "embedded idp is not enabled")
    body = ctx.body()
    old, new = body.str("old_password"), body.str("new_password")
    if not old:
        raise ApiError(422, "old password is required")
    if not new:
        raise ApiError(422, "new password is required")
    failure = "failed to update password: "
    if ctx.params["userId"] != ctx.caller_id:
        raise ApiError(422, failure + "users can only change their own password")
    if old == new:
        raise ApiError(422, failure + "new password must be different from current password")
    kept = passwords(ctx.state)
    if ctx.caller_id not in kept:
        raise ApiError(422, failure + "failed to get user: not found")
    if kept[ctx.caller_id] != old:
        raise ApiError(422, failure + "current password is incorrect")
    kept[ctx.caller_id] = new
    ctx.event("user.password.change", ctx.caller_id)
    return {}


# tokens ----------------------------------------------------------------------------
def _token_owner(ctx: Ctx, message: str) -> Record:
    """The token's own user, or an admin acting on a service user; 404 then 403."""
    target = _find_user(ctx, "user not found")
    if target["id"] != ctx.caller_id and not (ctx.admin and target["is_service_user"]):
        raise ApiError(403, message)
    return target


def _user_tokens(ctx: Ctx, user_id: str) -> list[Record]:
    return [token for token in ctx.state.tokens.values() if token["user_id"] == user_id]


@route("GET", "/api/users/{userId}/tokens")
def list_tokens(ctx: Ctx) -> Any:
    target = _token_owner(ctx, "no permission to get pat for this user")
    tokens = ctx.dialect.order([ctx.render.token(token) for token in _user_tokens(ctx, target["id"])])
    return ctx.dialect.nullable(tokens)


@route("POST", "/api/users/{userId}/tokens")
def create_token(ctx: Ctx) -> Any:
    body = ctx.body()
    name = body.str("name")
    days = body.int("expires_in")
    if not name:
        raise ApiError(422, "token name can't be empty")
    if days < 1 or days > 365:
        raise ApiError(422, "expiration has to be between 1 and 365")
    target = _token_owner(ctx, "no permission to create pat for this user")
    plain = make_token(ctx.state.rng)
    token = add_token(ctx.state, target["id"], plain, name, days, ctx.caller_id)
    ctx.event("personal.access.token.create", target["id"],
              {"name": name, "is_service_user": target["is_service_user"], "user_name": target["name"]})
    return {"plain_token": ctx.render.plain_token(plain), "personal_access_token": ctx.render.token(token)}


def _find_token(ctx: Ctx, target: Record) -> Record:
    token = ctx.state.tokens.get(ctx.params["tokenId"])
    if token is None or token["user_id"] != target["id"]:
        raise ApiError(404, "pat not found")
    return token


@route("GET", "/api/users/{userId}/tokens/{tokenId}")
def get_token(ctx: Ctx) -> Any:
    target = _token_owner(ctx, "no permission to get pat for this userser")
    return ctx.render.token(_find_token(ctx, target))


@route("DELETE", "/api/users/{userId}/tokens/{tokenId}")
def delete_token(ctx: Ctx) -> Any:
    target = _token_owner(ctx, "no permission to delete pat for this user")
    token = _find_token(ctx, target)
    ctx.state.token_by_hash.pop(token["hashed"], None)
    del ctx.state.tokens[token["id"]]
    ctx.event("personal.access.token.delete", target["id"],
              {"name": token["name"], "is_service_user": target["is_service_user"], "user_name": target["name"]})
    return ctx.dialect.delete_body()


def token_expired(token: Record) -> bool:
    expiration: dt.datetime = token["expiration_date"]
    return now() > expiration
