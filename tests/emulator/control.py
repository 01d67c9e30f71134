"""Control endpoints under /_emulator (no authentication): log, reset, faults, enroll, seeding, peer status."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from .dialect import Renderer, setup_key_state
from .handlers import agent_network, reverse_proxy
from .seed import add_token, new_user, seed_peers
from .state import Record, State
from .tokens import make_token
from .util import CLOCK, ApiError, iso, now

if TYPE_CHECKING:
    from .server import App

DEFAULT_RATE_LIMIT = (6.0, 500)  # v0.77's NB_API_RATE_LIMITING_RPM / _BURST defaults
ROLES = ("owner", "admin", "user", "network_admin", "auditor", "billing_admin")


def dispatch(app: App, method: str, path: str, body: Any) -> tuple[int, Any]:
    """Route a control request; returns (status, JSON payload)."""
    key = (method, path.rstrip("/"))
    if key == ("GET", "/_emulator/requests"):
        with app.state.lock:
            return 200, [dict(entry) for entry in app.requests]
    if key == ("DELETE", "/_emulator/requests"):
        with app.state.lock:
            app.requests.clear()
        return 200, {}
    if key == ("POST", "/_emulator/reset"):
        app.reset()
        return 200, {}
    if key == ("POST", "/_emulator/config"):
        with app.state.lock:  # until the next reset, which restores the startup configuration
            if isinstance(body, dict) and "idp" in body:
                app.state.idp = bool(body["idp"])
            if isinstance(body, dict) and "rate_limit" in body:
                app.rate_limiter = _rate_limiter(body["rate_limit"])
            if isinstance(body, dict) and "version" in body:  # the release GET /api/instance/version names (null: the dialect's)
                if body["version"] is not None and not isinstance(body["version"], str):
                    raise ApiError(400, "version: a release such as \"0.40.0\", or null")
                app.state.version = body["version"] or None
            if isinstance(body, dict) and "clock_offset" in body:  # seconds the server's clock is ahead (< 0: behind)
                offset = body["clock_offset"]
                if isinstance(offset, bool) or not isinstance(offset, (int, float)) or abs(offset) > 10 * 365 * 86400:
                    raise ApiError(400, "clock_offset: seconds the server's clock is ahead (negative: behind), "
                                        "at most ten years")
                CLOCK.offset = float(offset)
            answer: dict[str, Any] = {"idp": app.state.idp}
            if CLOCK.offset or (isinstance(body, dict) and "clock_offset" in body):
                answer["clock_offset"] = CLOCK.offset
            if app.state.version is not None or (isinstance(body, dict) and "version" in body):
                answer["version"] = app.state.version
            if isinstance(body, dict) and "proxy_clusters" in body:  # connected reverse proxy clusters (none by default)
                answer.update(reverse_proxy.configure(app, body))
            if app.rate_limiter is not None or (isinstance(body, dict) and "rate_limit" in body):
                answer["rate_limit"] = app.rate_limiter.describe() if app.rate_limiter else None
            return 200, answer
    if key == ("GET", "/_emulator/faults"):
        with app.state.lock:
            return 200, app.faults.describe()
    if key == ("POST", "/_emulator/faults"):
        with app.state.lock:
            app.faults.configure(body or {})
            return 200, app.faults.describe()
    handlers = {
        ("POST", "/_emulator/enroll"): enroll,
        ("POST", "/_emulator/users"): seed_user,
        ("POST", "/_emulator/peers"): seed_peer_list,
        ("POST", "/_emulator/peer-status"): peer_status,
        ("POST", "/_emulator/events"): seed_events,
        ("POST", "/_emulator/agent-network-logs"): lambda app, body: agent_network.seed_access_logs(app.state, body),
        ("GET", "/_emulator/state"): dump_state,
    }
    handler = handlers.get(key)
    if handler is None:
        raise ApiError(404, f"unknown control endpoint {method} {path}")
    with app.state.lock:
        return 200, handler(app, body if isinstance(body, dict) else {})


def _rate_limiter(value: Any) -> Any:
    """`null`/`false`: off; `true`: v0.77's defaults (6 a minute, bursts of 500); `{"rpm", "burst"}`."""
    # imported here: server imports this module
    from .server import RateLimiter  # pylint: disable=import-outside-toplevel

    if value is None or value is False:
        return None
    if value is True:
        return RateLimiter(*DEFAULT_RATE_LIMIT)
    if not isinstance(value, dict):
        raise ValueError("rate_limit: null, true or {\"rpm\": N, \"burst\": N}")
    return RateLimiter(float(value.get("rpm", DEFAULT_RATE_LIMIT[0])), int(value.get("burst", DEFAULT_RATE_LIMIT[1])))


def _renderer(app: App) -> Renderer:
    return Renderer(app.state, app.dialect)


def _peer_groups_add(state: State, peer: Record, group_ids: list[str]) -> None:
    for gid in group_ids:
        group = state.groups.get(gid)
        if group is not None and peer["id"] not in group["peers"]:
            group["peers"].append(peer["id"])


def enroll(app: App, body: dict[str, Any]) -> Any:
    """What an agent does when it joins: with a setup key, or on behalf of a user (SSO)."""
    state = app.state
    if state.account is None:
        raise ApiError(404, "account not found")
    hostname = str(body.get("hostname") or "")
    if not hostname:
        raise ApiError(422, "hostname is required")
    fields = {name: body.get(name) for name in ("os", "goos", "version", "kernel_version", "name", "serial_number",
                                                "ui_version", "connection_ip", "country_code", "city_name",
                                                "geoname_id")}
    user_id = body.get("user_id")
    if user_id:
        user = state.users.get(str(user_id))
        if user is None:
            raise ApiError(404, f"user {user_id} not found")
        if user["is_blocked"]:
            raise ApiError(403, "user is blocked")
        # v0.77 also turns inactivity expiration on for a peer a user adds (v0.27 has no such flag)
        peer = state.add_peer(hostname, user_id=user["id"], login_expiration_enabled=True,
                              inactivity_expiration_enabled=app.dialect.current, **fields)
        _peer_groups_add(state, peer, user["auto_groups"])
        meta = {**state.peer_meta(peer)}
        state.event("peer.user.add" if app.dialect.current else "user.peer.add", user["id"], peer["id"], meta)
        return _renderer(app).peer(peer, state.groups_of_peer(peer["id"]))
    value = str(body.get("setup_key") or "").upper()
    key = next((item for item in state.setup_keys.values() if item["key"] == value), None)
    if key is None:
        raise ApiError(404, "setup key not found")
    key_state = setup_key_state(key)
    if key_state != "valid":
        raise ApiError(412, f"couldn't add peer: setup key is invalid ({key_state})")
    peer = state.add_peer(hostname, ephemeral=key["ephemeral"], **fields)
    _peer_groups_add(state, peer, key["auto_groups"])
    key["used_times"] += 1
    key["last_used"] = now()
    meta = {**state.peer_meta(peer), "setup_key_name": key["name"]}
    # v0.77 renamed the two codes of a peer's arrival (activity/codes.go): peer.setupkey.add, peer.user.add
    state.event("peer.setupkey.add" if app.dialect.current else "setupkey.peer.add", key["id"], peer["id"], meta)
    return _renderer(app).peer(peer, state.groups_of_peer(peer["id"]))


def seed_user(app: App, body: dict[str, Any]) -> Any:
    """Add a user directly (any role, status); with `token: true` also a fresh PAT for it."""
    state = app.state
    role = str(body.get("role", "user")).lower()
    if role not in ROLES:
        raise ApiError(422, f"unknown user role {role}")
    fields: dict[str, Any] = {
        "email": str(body.get("email", "")),
        "name": str(body.get("name", "")),
        "role": role,
        "is_service_user": bool(body.get("is_service_user", False)),
        "status": str(body.get("status", "active")),
        "is_blocked": bool(body.get("is_blocked", False)),
        "auto_groups": list(body.get("auto_groups", [])),
        "issued": str(body.get("issued", "api")),
        "pending_approval": bool(body.get("pending_approval", False)),
    }
    if body.get("id"):
        fields["id"] = str(body["id"])
    user = new_user(state, **fields)
    rendered = _renderer(app).user(user)
    if not body.get("token"):
        return rendered
    plain = make_token(state.rng)
    add_token(state, user["id"], plain, str(body.get("token_name", "seeded")), int(body.get("token_days", 365)), user["id"])
    return {"user": rendered, "token": plain}


def seed_peer_list(app: App, body: dict[str, Any]) -> Any:
    """Bulk-add peers without a setup key: `{"count": N, "groups": [ids]?}` or `{"peers": [...]}`."""
    state = app.state
    renderer = _renderer(app)
    if "count" in body:
        start = len(state.peers)
        created = seed_peers(state, int(body["count"]), [], start=start)
        for peer in created:
            _peer_groups_add(state, peer, list(body.get("groups", [])))
        return {"created": len(created), "ids": [peer["id"] for peer in created]}
    result = []
    for item in body.get("peers", []):
        item = dict(item)
        hostname = str(item.pop("hostname"))
        groups = list(item.pop("groups", []))
        given_seen = "last_seen" in item
        seen = _last_seen(item.pop("last_seen", None))
        peer = state.add_peer(hostname, **item)
        if given_seen:  # set here: add_peer skips None, which here means never seen
            peer["last_seen"] = seen
        _peer_groups_add(state, peer, groups)
        result.append(renderer.peer(peer, state.groups_of_peer(peer["id"])))
    return result


def _last_seen(value: Any) -> dt.datetime | None:
    """A peer's `last_seen` from a control request: an RFC 3339 time stamp, or null for a peer never seen (answered as
    Go's zero time, as servers answer an unset time)."""
    if value is None:
        return None
    try:
        moment = dt.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        raise ApiError(422, f"last_seen: {value!r} is not an RFC 3339 time stamp such as 2026-01-10T08:00:00Z") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.timezone.utc)


def seed_events(app: App, body: dict[str, Any]) -> Any:
    """Audit events as a server stores them: `{"count": N, "activity_code"?, "initiator_id"?, "target_id"?, "meta"?,
    "timestamp"?}` records N alike (for a log over the 10,000 a list holds); `timestamp` (RFC 3339) dates them earlier
    than now, as a real server's asynchronous store leaves an event with an older time stamp behind one stored
    before it. Returns `{"count", "first_id", "last_id"}`."""
    count = body.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 100000:
        raise ApiError(422, "count: a whole number from 1 to 100000")
    moment = None
    if body.get("timestamp") is not None:
        try:
            moment = dt.datetime.fromisoformat(str(body["timestamp"]).replace("Z", "+00:00"))
        except ValueError:
            raise ApiError(422, f"timestamp: {body['timestamp']!r} is not an RFC 3339 time stamp") from None
        moment = moment if moment.tzinfo else moment.replace(tzinfo=dt.timezone.utc)
    state = app.state
    first = state.event_seq + 1
    for dummy in range(count):
        state.event(str(body.get("activity_code") or "group.add"), str(body.get("initiator_id") or "owner-user"),
                    str(body.get("target_id") or "seeded"), body.get("meta") if isinstance(body.get("meta"), dict) else {})
        if moment is not None:
            state.events[-1]["timestamp"] = moment
    return {"count": count, "first_id": str(first), "last_id": str(state.event_seq)}


def peer_status(app: App, body: dict[str, Any]) -> Any:
    """What a server records as agents connect and disconnect: `{"peers": [{"id", "connected"?, "last_seen"?,
    "approval_required"?}]}` sets those of each peer (a peer that disconnects: `connected` false, `last_seen` when it
    went; `approval_required` as a server with peer approval sets it). All or nothing: an unknown
    peer is a 404, a bad time stamp a 422, and then no peer changes. Returns the peers as POST /_emulator/peers does.
    With `"before": "DELETE /api/peers/<id>"` (a method and an /api path) the change waits for that request and is made
    just before the emulator handles it (once; a reset forgets it): an agent that connects while a client works through
    a list. Returns `{"scheduled": <how many changes wait>}` then."""
    updates = _status_updates(app.state, body)
    before = body.get("before")
    if before is not None:
        method, _sep, path = str(before).partition(" ")
        if not path.startswith("/api/"):
            raise ApiError(422, f"before: a method and an /api path, such as \"DELETE /api/peers/<id>\", not {before!r}")
        app.scheduled.append((method.upper(), path, updates))
        return {"scheduled": len(app.scheduled)}
    return apply_status(app, updates)


def apply_status(app: App, updates: list[tuple[Record, dict[str, Any]]]) -> Any:
    """Set the peers' connected and last_seen; returns the peers as answered."""
    renderer = _renderer(app)
    for peer, update in updates:
        peer.update(update)
    return [renderer.peer(peer, app.state.groups_of_peer(peer["id"])) for peer, _update in updates]


def _status_updates(state: State, body: dict[str, Any]) -> list[tuple[Record, dict[str, Any]]]:
    updates = []
    for item in body.get("peers", []):
        peer = state.peers.get(str(item.get("id")))
        if peer is None:
            raise ApiError(404, f"peer {item.get('id')} not found")
        update = {}
        if "connected" in item:
            update["connected"] = bool(item["connected"])
        if "last_seen" in item:
            update["last_seen"] = _last_seen(item["last_seen"])
        if "approval_required" in item:  # what a server with peer approval (NetBird Cloud) sets; OSS never does
            update["approval_required"] = bool(item["approval_required"])
        updates.append((peer, update))
    return updates


def _plain(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return iso(value)
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_plain(item) for item in value]
    return value


def dump_state(app: App, _body: dict[str, Any]) -> Any:
    state = app.state
    return _plain({
        "dialect": app.dialect.name,
        "account": state.account,
        "users": list(state.users.values()),
        "tokens": [{k: v for k, v in token.items() if k != "hashed"} for token in state.tokens.values()],
        "peers": list(state.peers.values()),
        "groups": list(state.groups.values()),
        "policies": list(state.policies.values()),
        "posture_checks": list(state.posture_checks.values()),
        "routes": list(state.routes.values()),
        "nameservers": list(state.nameservers.values()),
        "dns": state.dns,
        "setup_keys": list(state.setup_keys.values()),
        "networks": list(state.networks.values()),
        "network_resources": list(state.network_resources.values()),
        "network_routers": list(state.network_routers.values()),
        "zones": list(state.zones.values()),
        "events": len(state.events),
        "faults": app.faults.describe(),
    })
