"""The instance's setup (v0.77, answered without authentication): GET /api/instance and POST /api/setup.

As v0.77.1 with its embedded identity provider and NB_SETUP_PAT_ENABLED=true answers them (../shared/servers/README.md):
an emulator started with --fresh has no account until POST /api/setup makes the owner, the All group, the Default
policy and, asked with create_pat, the owner's token `setup-token`, returned once. v0.27 has neither path (404).
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any

from ..seed import build_initial
from . import users
from ..tokens import make_token
from ..util import ApiError
from .base import CURRENT, Ctx, route

# an address as v0.77.1's Go net/mail.ParseAddress takes one (so far as a setup needs): dot-atoms around the @, alone or
# in angle brackets after a display name; "['owner@example.com']" (a list as Ansible would write it out) is refused
_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_ADDRESS = r"%s(?:\.%s)*@%s(?:\.%s)*" % (_ATOM, _ATOM, _ATOM, _ATOM)
EMAIL = re.compile(r"^\s*(?:%s|[^<>@]*<%s>)\s*$" % (_ADDRESS, _ADDRESS))
PASSWORD_LENGTH = (8, 72)
PAT_DAYS = (1, 365)
SETUP_TOKEN = "setup-token"


def public(handler: Any) -> Any:
    """Mark a handler as answered to anyone: the server skips authentication (no token exists before setup)."""
    handler.public = True
    return handler


@route("GET", "/api/instance", CURRENT)
@public
def instance_status(ctx: Ctx) -> Any:
    return {"setup_required": ctx.state.account is None}


def _dex_user_id(uuid: str) -> str:
    """A user id as the embedded identity provider (Dex) makes it: its user's uuid and connector, encoded."""
    raw = b"\n$" + uuid.encode() + b"\x12\x05local"
    return base64.b64encode(raw).decode().rstrip("=")


@route("POST", "/api/setup", CURRENT)
@public
def set_up(ctx: Ctx) -> Any:
    try:
        body = json.loads(ctx.raw_body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        body = None
    if not isinstance(body, dict):
        raise ApiError(400, "invalid request body")
    if ctx.state.account is not None:
        raise ApiError(412, "setup already completed")
    email, name, password = (body.get(key) if isinstance(body.get(key), str) else "" for key in ("email", "name", "password"))
    create_pat, days = body.get("create_pat") is True, body.get("pat_expire_in")
    if not email:
        raise ApiError(422, "email is required")
    if not EMAIL.match(email):
        raise ApiError(422, "invalid email format")
    if not name:
        raise ApiError(422, "name is required")
    if len(password) < PASSWORD_LENGTH[0]:
        raise ApiError(422, "password must be at least %d characters" % PASSWORD_LENGTH[0])
    if len(password) > PASSWORD_LENGTH[1]:
        raise ApiError(422, "password must be at most %d characters" % PASSWORD_LENGTH[1])
    if create_pat and days is not None and (isinstance(days, bool) or not isinstance(days, int)
                                            or not PAT_DAYS[0] <= days <= PAT_DAYS[1]):
        raise ApiError(422, "pat_expire_in must be between %d and %d" % PAT_DAYS)
    owner = {"id": _dex_user_id(ctx.state.new_uuid()), "email": email, "name": name}
    token = make_token(ctx.state.rng) if create_pat else None
    build_initial(ctx.state, token, dialect="current", owner=owner, token_name=SETUP_TOKEN, token_days=days or 1)
    users.passwords(ctx.state)[owner["id"]] = password  # the embedded identity provider knows the owner's password
    answer = {"email": email, "user_id": owner["id"]}
    if token is not None:
        answer["personal_access_token"] = token
    return answer
