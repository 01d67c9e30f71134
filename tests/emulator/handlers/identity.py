"""Identity providers and invite links: v0.77 only, as the real seeded v0.77.1 answers them with its embedded identity
provider (``--idp``); without it (``/_emulator/config {"idp": false}``) as the plain seeded v0.77.1 refuses them.

What the real server does that is modelled here (../shared/servers/README.md): before it accepts an identity
provider it reads the issuer's discovery document, and inside its network namespace only its own issuer answers
(``OWN_ISSUER``); the client secret is never answered, and a PUT without one (or with an empty one) keeps it; the type
cannot change (500). Invites: one per email (409), none for an email a user has (409), at least an hour of validity,
the token only in the answers of the create and of a regenerate. The invitee's side (the invite by its token, accept)
is served too, but behind the emulator's authentication (the real server asks none).
"""

from __future__ import annotations

import datetime as dt
import string
from typing import Any

from ..state import Record, State
from ..util import ApiError, iso, now
from .users import embedded_user, passwords
from .base import CURRENT, ROUTER, Ctx, route
from .crud import CrudKind, admins, kept as _kept, serve

OWN_ISSUER = "http://127.0.0.1:8080/oauth2"  # the embedded IdP's issuer, the one the real server reaches
PROVIDER_TYPES = ("oidc", "zitadel", "entra", "google", "okta", "pocketid", "microsoft", "adfs")
INVITES_REFUSED = "invite links are only available with embedded identity provider"
DEFAULT_INVITE_SECONDS = 72 * 3600
TOKEN_ALPHABET = string.ascii_letters + string.digits


# identity providers ----------------------------------------------------------------------
def _render_provider(provider: Record) -> Record:
    return {key: provider[key] for key in ("client_id", "id", "issuer", "name", "type")}  # never the secret


def _check_issuer(state: State, issuer: str) -> None:
    """The discovery check of the real server: only its own issuer answers, and only with the embedded IdP on."""
    if issuer == OWN_ISSUER and state.idp:
        return
    if issuer.rstrip("/") == OWN_ISSUER and state.idp:
        raise ApiError(422, f'identity provider issuer does not match the issuer returned by the provider: expected '
                            f'"{issuer}" got "{OWN_ISSUER}"')
    if issuer.rstrip("/") == OWN_ISSUER:
        raise ApiError(422, "identity provider issuer is unreachable: 404 not found: 404 page not found\n")
    host = issuer.split("://", 1)[-1].split("/", 1)[0]
    if host.split(":")[0] in ("127.0.0.1", "localhost"):  # inside the server's namespace: nothing listens there
        raise ApiError(422, f'identity provider issuer is unreachable: get "{issuer.rstrip("/")}/.well-known/openid-'
                            f'configuration": dial tcp {host}: connect: connection refused')
    raise ApiError(422, f'identity provider issuer is unreachable: get "{issuer.rstrip("/")}/.well-known/openid-'
                        f'configuration": dial tcp: lookup {host}: connect: network is unreachable')


def _provider_body(ctx: Ctx, creating: bool) -> Record:
    body = ctx.body()
    kind = body.str("type")
    if not kind:
        raise ApiError(422, "identity provider type is required")
    if kind not in PROVIDER_TYPES:
        raise ApiError(422, "unsupported identity provider type")
    name = body.str("name")
    if not name:
        raise ApiError(422, "identity provider name is required")
    issuer = body.str("issuer")
    if not issuer:
        raise ApiError(422, "identity provider issuer is required")
    client_id = body.str("client_id")
    if not client_id:
        raise ApiError(422, "identity provider client id is required")
    _check_issuer(ctx.state, issuer)
    return {"type": kind, "name": name, "issuer": issuer, "client_id": client_id, "client_secret": body.str("client_secret")}


def _provider_change(ctx: Ctx, wanted: Record, provider: Record | None) -> None:
    if provider is None:
        return
    if wanted["type"] != provider["type"]:
        raise ApiError(500, "failed to update identity provider: failed to update connector: connector type change not allowed")
    if not wanted["client_secret"]:
        wanted["client_secret"] = provider["client_secret"]  # left out or empty: the secret held is kept


serve(CrudKind(path="/api/identity-providers", param="idpId", store="identity_providers", fields=_provider_body,
               missing="identity provider not found", accept=_provider_change, readable=admins,
               render=lambda ctx, provider, step: _render_provider(provider), dialects=CURRENT))


# invite links ------------------------------------------------------------------------------
def _invites(ctx: Ctx) -> dict[str, Record]:
    if not ctx.state.idp:
        raise ApiError(412, INVITES_REFUSED)
    return _kept(ctx.state, "user_invites")


def _render_invite(invite: Record, with_token: bool = False) -> Record:
    shown = {key: invite[key] for key in ("auto_groups", "email", "id", "name", "role")}
    shown.update(created_at=iso(invite["created_at"]), expires_at=iso(invite["expires_at"]),
                 expired=invite["expires_at"] <= now())
    if with_token:
        shown["invite_token"] = invite["token"]
    return shown


def _expiry(ctx: Ctx, seconds: int) -> dt.datetime:
    if seconds and seconds < 3600:
        raise ApiError(422, "invite expiration must be at least 1 hour")
    moment = now() + dt.timedelta(seconds=seconds or DEFAULT_INVITE_SECONDS)
    ctx.state.note_change_at(moment)
    return moment


def _new_token(state: State) -> str:
    return "nbi_" + "".join(state.rng.choice(TOKEN_ALPHABET) for dummy in range(36))


def _invite(ctx: Ctx) -> Record:
    invite = _invites(ctx).get(ctx.params["inviteId"])
    if invite is None:
        raise ApiError(404, "user invite not found")
    return invite


def _by_token(ctx: Ctx) -> Record:
    token = ctx.params["inviteId"]
    if len(token) != 40 or not token.startswith("nbi_"):
        raise ApiError(422, "invalid invite token: invalid token length")
    for invite in _invites(ctx).values():
        if invite["token"] == token:
            return invite
    raise ApiError(404, "user invite not found")


@route("GET", "/api/users/invites", CURRENT)
def list_invites(ctx: Ctx) -> Any:
    ctx.require(ctx.admin, "permission denied")
    return [_render_invite(item) for item in _invites(ctx).values()]


@route("POST", "/api/users/invites", CURRENT)
def create_invite(ctx: Ctx) -> Any:
    invites = _invites(ctx)
    body = ctx.body()
    email, name, role = body.str("email"), body.str("name"), body.str("role")
    if not name:
        raise ApiError(422, "name can't be empty")
    if not email:
        raise ApiError(422, "email can't be empty")
    if role == "owner":
        raise ApiError(422, "can't invite a user with owner role")
    if any(user["email"].lower() == email.lower() for user in ctx.state.users.values() if user["email"]):
        raise ApiError(409, "user with this email already exists")
    if any(invite["email"].lower() == email.lower() for invite in invites.values()):
        raise ApiError(409, "invite already exists for this email")
    moment = now()
    invite = {"id": ctx.state.new_id(), "email": email, "name": name, "role": role,
              "auto_groups": body.str_list("auto_groups") or [], "created_at": moment,
              "expires_at": _expiry(ctx, body.int("expires_in")), "token": _new_token(ctx.state)}
    invites[invite["id"]] = invite
    ctx.event("user.invite.link.create", invite["id"], {"email": email})
    return _render_invite(invite, with_token=True)


@route("DELETE", "/api/users/invites/{inviteId}", CURRENT)
def delete_invite(ctx: Ctx) -> Any:
    invite = _invite(ctx)
    del _invites(ctx)[invite["id"]]
    ctx.event("user.invite.link.delete", invite["id"], {"email": invite["email"]})
    return {}


@route("POST", "/api/users/invites/{inviteId}/regenerate", CURRENT)
def regenerate_invite(ctx: Ctx) -> Any:
    invite = _invite(ctx)
    seconds = ctx.body().int("expires_in") if ctx.raw_body.strip() else 0
    invite.update(expires_at=_expiry(ctx, seconds), token=_new_token(ctx.state))
    ctx.event("user.invite.link.regenerate", invite["id"], {"email": invite["email"]})
    return {"invite_expires_at": iso(invite["expires_at"]), "invite_token": invite["token"]}


# the invitee's side (the path's last part is the token)
@route("GET", "/api/users/invites/{inviteId}", CURRENT)
def invite_by_token(ctx: Ctx) -> Any:
    _public_call(ctx)
    invite = _by_token(ctx)
    inviter = ctx.caller.get("name") or ctx.caller.get("email") or ""
    return {"email": invite["email"], "expires_at": iso(invite["expires_at"]), "invited_by": inviter,
            "name": invite["name"], "valid": invite["expires_at"] > now()}


@route("POST", "/api/users/invites/{inviteId}/accept", CURRENT)
def accept_invite(ctx: Ctx) -> Any:
    """v0.77.1's order: the password (required, then its strength), then the token, then the invite's expiry."""
    _public_call(ctx)
    password = ctx.body().str("password")
    if not password:
        raise ApiError(422, "password is required")
    weakness = password_weakness(password)
    if weakness:
        raise ApiError(422, "invalid password: " + weakness)
    invite = _by_token(ctx)
    if invite["expires_at"] <= now():
        raise ApiError(422, "invite has expired")
    del _invites(ctx)[invite["id"]]
    user = embedded_user(ctx.state, email=invite["email"], name=invite["name"], role=invite["role"],
                         auto_groups=list(invite["auto_groups"]))
    passwords(ctx.state)[user["id"]] = password
    ctx.event("user.invite.link.accept", user["id"], {"email": invite["email"], "username": invite["name"]})
    return {"success": True}


def password_weakness(password: str) -> str:
    """Why v0.77.1 refuses a password an invitee chooses (its words), or "": at least 8 characters, then a digit, an
    upper-case letter and a character that is neither letter nor digit, every one missing named."""
    if len(password) < 8:
        return "password must be at least 8 characters long"
    missing = [what for what, found in (
        ("one digit", any(c.isdigit() for c in password)),
        ("one uppercase letter", any(c.isupper() for c in password)),
        ("one special character", any(not c.isalpha() and not c.isdigit() for c in password))) if not found]
    return "password must contain at least " + ", ".join(missing) if missing else ""


# v0.77.1 limits the invitee's (public) calls per client address: 10 a minute, bursts of 5
PUBLIC_RATE, PUBLIC_BURST = 10 / 60.0, 5


def _public_call(ctx: Ctx) -> None:
    """A token bucket per client address, as v0.77.1's publicInviteRateLimiter: 429 when it is empty."""
    buckets = _kept(ctx.state, "public_invite_buckets")
    address = "client"  # every client of the emulator comes from one address (the tests' loopback)
    moment = now().timestamp()
    tokens, since = buckets.get(address, (float(PUBLIC_BURST), moment))
    tokens = min(float(PUBLIC_BURST), tokens + (moment - since) * PUBLIC_RATE)
    if tokens < 1:
        buckets[address] = (tokens, moment)
        raise ApiError(429, "rate limit exceeded, please try again later")
    buckets[address] = (tokens - 1, moment)


def _tried_before_a_user_id() -> None:
    """/api/users/invites is tried before /api/users/{userId}, which matches it too and which users.py registers first
    (account.py imports it): the route table tries templates in order, as v0.77's router does."""
    invites = [entry for entry in ROUTER.routes if entry[0].pattern == "^/api/users/invites$"]
    user = [index for index, entry in enumerate(ROUTER.routes) if entry[0].pattern == "^/api/users/(?P<userId>[^/]+)$"]
    if invites and user and ROUTER.routes.index(invites[0]) > user[0]:
        ROUTER.routes.remove(invites[0])
        ROUTER.routes.insert(user[0], invites[0])


_tried_before_a_user_id()
