"""Agent Network (v0.77 only): settings, providers and their catalog, policies, guardrails, budget rules, and the
read-only access logs, sessions, usage and consumption, as the real seeded v0.77.1 answers them (the messages are
the real server's; see docs/agent-network.md).

What the real server does that is modelled here: the settings read as defaults with an empty endpoint until a POST
bootstraps them (PUT and DELETE answer 404 before; a second POST 409); exactly one of proxy_address and endpoint
(422); a PUT must carry the assigned endpoint and proxy address (422); the settings cannot be deleted while a provider
exists (412). PUTs replace every field (one left out is reset, but a provider's API key, which is kept); a provider
created without ``enabled`` is disabled, a policy or budget rule enabled; the API key is never answered; a provider
a policy names cannot be deleted (422); group and guardrail ids of a policy are not checked, provider ids are. No
traffic flows through an emulated gateway: the reports answer empty, filtered and paged as the real server does.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import os
from typing import Any

from ..state import Record, State
from ..util import ApiError, iso, now
from .base import CURRENT, Ctx, route
from .crud import CrudKind, admins, kept as _kept, serve

# The catalog as the real v0.77.1 answers it (GET /api/agent-network/catalog/providers): its 15 providers, in its order,
# with every model and price. Kept as that answer (agent_network_catalog.json beside the emulator), never edited by hand.
CATALOG_FILE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "agent_network_catalog.json")
with open(CATALOG_FILE, encoding="utf-8") as _handle:
    CATALOG = tuple(json.load(_handle))
LABELS = ("dulcet-spinnaker", "brave-otter", "quiet-heron", "amber-lynx")
DEFAULT_SETTINGS = {"access_log_retention_days": 30, "dedicated": False, "enable_log_collection": True,
                    "enable_prompt_collection": False, "endpoint": "", "proxy_address": "", "redact_pii": False}
PRICES = ("input_per_1k", "output_per_1k", "cached_input_per_1k", "cache_read_per_1k", "cache_creation_per_1k")


def _settings(state: State) -> Record | None:
    return _kept(state, "agent_network_settings").get("row")


def _stamped(record: Record, created: bool) -> Record:
    moment = iso(now())
    if created:
        record["created_at"] = moment
    record["updated_at"] = moment
    return record


def _json(ctx: Ctx) -> dict[str, Any]:
    return ctx.body().data


# settings ------------------------------------------------------------------------------
@route("GET", "/api/agent-network/settings", CURRENT)
def get_settings(ctx: Ctx) -> Any:
    ctx.require(ctx.admin, "permission denied")
    return dict(_settings(ctx.state) or DEFAULT_SETTINGS)


@route("POST", "/api/agent-network/settings", CURRENT)
def bootstrap_settings(ctx: Ctx) -> Any:
    ctx.require(ctx.admin, "permission denied")
    data = _json(ctx)
    if _settings(ctx.state) is not None:
        raise ApiError(409, "agent network settings already bootstrapped for account %s" % ctx.state.account["id"])
    proxy, endpoint = data.get("proxy_address") or "", data.get("endpoint") or ""
    if bool(proxy) == bool(endpoint):
        raise ApiError(422, "exactly one of proxy_address and endpoint is required")
    if proxy:
        endpoint = "%s.%s" % (ctx.state.rng.choice(LABELS), proxy)
    row = dict(DEFAULT_SETTINGS, endpoint=endpoint, proxy_address=proxy or endpoint, dedicated=not proxy)
    for key in ("enable_log_collection", "enable_prompt_collection", "redact_pii", "access_log_retention_days"):
        if data.get(key) is not None:
            row[key] = data[key]
    _kept(ctx.state, "agent_network_settings")["row"] = _stamped(row, True)
    return dict(row)


@route("PUT", "/api/agent-network/settings", CURRENT)
def update_settings(ctx: Ctx) -> Any:
    ctx.require(ctx.admin, "permission denied")
    row = _settings(ctx.state)
    if row is None:
        raise ApiError(404, "agent network settings have not been bootstrapped yet; post /api/agent-network/settings to bootstrap them")
    data = _json(ctx)
    for key in ("endpoint", "proxy_address"):
        if data.get(key) != row[key]:
            raise ApiError(422, 'endpoint is immutable: it must match the assigned endpoint "%s"; delete the settings to release '
                                'it and bootstrap again' % row["endpoint"])
    row.update(enable_log_collection=bool(data.get("enable_log_collection")), enable_prompt_collection=bool(data.get("enable_prompt_collection")),
               redact_pii=bool(data.get("redact_pii")), access_log_retention_days=int(data.get("access_log_retention_days") or 0))
    return dict(_stamped(row, False))


@route("DELETE", "/api/agent-network/settings", CURRENT)
def delete_settings(ctx: Ctx) -> Any:
    ctx.require(ctx.admin, "permission denied")
    if _settings(ctx.state) is None:
        raise ApiError(404, "agent network settings have not been bootstrapped yet; there is nothing to delete")
    providers = _kept(ctx.state, "agent_network_providers")
    if providers:
        raise ApiError(412, "agent network settings cannot be deleted while %d provider(s) exist; delete the providers first" % len(providers))
    del _kept(ctx.state, "agent_network_settings")["row"]
    return {}


# providers -------------------------------------------------------------------------------
def _render_provider(provider: Record) -> Record:
    shown = {key: value for key, value in provider.items() if key != "api_key"}  # never the key
    if not shown.get("extra_values"):
        shown.pop("extra_values", None)  # the real server leaves an empty map out
    return shown


def _models(data: dict[str, Any]) -> list[Record]:
    models = []
    for index, item in enumerate(data.get("models") or []):
        if not isinstance(item, dict) or not item.get("id"):
            raise ApiError(422, "models[%d]: id is required" % index)
        model = {"id": item["id"]}
        for key in PRICES:
            value = item.get(key)
            if value is None and key in PRICES[:2]:
                value = 0
            if value is not None:
                if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                    raise ApiError(422, "models[%d] (%s): %s must be a finite, non-negative usd rate" % (index, item["id"], key))
                model[key] = value
        models.append(model)
    return models


def _provider_fields(data: dict[str, Any]) -> Record:
    for key in ("provider_id", "name"):
        if not data.get(key):
            raise ApiError(422, "%s is required" % key)
    if data["provider_id"] not in [entry["id"] for entry in CATALOG]:
        raise ApiError(422, 'provider_id "%s" is not a known catalog provider' % data["provider_id"])
    url = data.get("upstream_url") or ""
    if not url.startswith(("http://", "https://")) or "://" == url[-3:]:
        raise ApiError(422, "upstream_url must be a full http(s) url")
    return {"provider_id": data["provider_id"], "name": data["name"], "upstream_url": url, "models": _models(data),
            "extra_values": {key: value for key, value in (data.get("extra_values") or {}).items() if value},
            "identity_header_user_id": data.get("identity_header_user_id") or "",
            "identity_header_groups": data.get("identity_header_groups") or "",
            "enabled": bool(data.get("enabled")), "skip_tls_verification": bool(data.get("skip_tls_verification")),
            "metadata_disabled": bool(data.get("metadata_disabled"))}


@route("GET", "/api/agent-network/catalog/providers", CURRENT)
def catalog(ctx: Ctx) -> Any:
    ctx.require(ctx.admin, "permission denied")
    return copy.deepcopy(list(CATALOG))


def _provider_record(ctx: Ctx, data: dict[str, Any], creating: bool) -> Record:
    fields = _provider_fields(data)
    if creating and not data.get("api_key"):
        raise ApiError(422, "api_key is required")
    if data.get("api_key"):
        fields["api_key"] = data["api_key"]  # left out or empty in an update: the key held is kept
    return fields


def _provider_unused(ctx: Ctx, provider: Record) -> None:
    using = [item["name"] for item in _kept(ctx.state, "agent_network_policies").values() if provider["id"] in item["destination_provider_ids"]]
    if using:
        raise ApiError(422, "provider is in use by %d %s (%s); detach it before deleting"
                       % (len(using), "policy" if len(using) == 1 else "policies", ", ".join(using)))


def _agent_network_kind(path: str, param: str, noun: str, fields: Any, **declared: Any) -> CrudKind:
    """An Agent Network kind on the CRUD table: admins only, v0.77 only, stamped, a 404 in the words of its noun
    (a PUT's and a DELETE's prefixed with where it failed)."""

    def stamped(ctx: Ctx, creating: bool) -> Record:
        return _stamped(fields(ctx, _json(ctx), creating), creating)

    wrap = "failed to get agent network %s: " % noun
    declared.setdefault("wraps", {"PUT": wrap, "DELETE": wrap})
    return serve(CrudKind(path=path, param=param, fields=stamped, missing="{wrap}agent network %s: {id} not found" % noun,
                          readable=admins, writable=admins, dialects=CURRENT, **declared))


_agent_network_kind("/api/agent-network/providers", "providerId", "provider", _provider_record, store="agent_network_providers",
                    render=lambda ctx, provider, step: _render_provider(provider), removing=_provider_unused)


# policies, guardrails, budget rules --------------------------------------------------------------
def _limits(data: dict[str, Any]) -> Record:
    given = data.get("limits") or {}
    limits = {}
    for kind, caps in (("token_limit", ("group_cap", "user_cap")), ("budget_limit", ("group_cap_usd", "user_cap_usd"))):
        limit = given.get(kind) or {}
        shaped = {"enabled": bool(limit.get("enabled")), "window_seconds": int(limit.get("window_seconds") or 0)}
        for cap in caps:
            value = limit.get(cap) or 0
            if value < 0:
                raise ApiError(422, "limits.%s.%s must not be negative" % (kind, cap))
            shaped[cap] = value
        if shaped["enabled"] and shaped["window_seconds"] < 60:
            raise ApiError(422, "limits.%s.window_seconds must be at least 60 (one minute) when enabled" % kind)
        limits[kind] = shaped
    return limits


def _ids(data: dict[str, Any], key: str) -> list[str]:
    return [str(item) for item in data.get(key) or []]


def _policy_fields(ctx: Ctx, data: dict[str, Any], created: bool) -> Record:
    if not data.get("name"):
        raise ApiError(422, "name is required")
    if not data.get("source_groups"):
        raise ApiError(422, "source_groups must contain at least one group id")
    if not data.get("destination_provider_ids"):
        raise ApiError(422, "destination_provider_ids must contain at least one provider id")
    for provider_id in _ids(data, "destination_provider_ids"):
        if provider_id not in _kept(ctx.state, "agent_network_providers"):
            raise ApiError(422, "destination_provider_ids: provider %s does not exist" % provider_id)
    enabled = data.get("enabled")
    return {"name": data["name"], "description": data.get("description") or "",
            "enabled": (enabled if enabled is not None else created) is True,
            "source_groups": _ids(data, "source_groups"), "destination_provider_ids": _ids(data, "destination_provider_ids"),
            "guardrail_ids": _ids(data, "guardrail_ids"), "limits": _limits(data)}


def _guardrail_fields(ctx: Ctx, data: dict[str, Any], created: bool) -> Record:
    if not data.get("name"):
        raise ApiError(422, "name is required")
    checks = data.get("checks") or {}
    allow, capture = checks.get("model_allowlist") or {}, checks.get("prompt_capture") or {}
    return {"name": data["name"], "description": data.get("description") or "",
            "checks": {"model_allowlist": {"enabled": bool(allow.get("enabled")), "models": [str(m) for m in allow.get("models") or []]},
                       "prompt_capture": {"enabled": bool(capture.get("enabled")), "redact_pii": bool(capture.get("redact_pii"))}}}


def _rule_fields(ctx: Ctx, data: dict[str, Any], created: bool) -> Record:
    if not data.get("name"):
        raise ApiError(422, "name is required")
    enabled = data.get("enabled")
    return {"name": data["name"], "enabled": (enabled if enabled is not None else created) is True,
            "target_groups": _ids(data, "target_groups"), "target_users": _ids(data, "target_users"), "limits": _limits(data)}


def _prefixed(prefix: str) -> Any:
    return lambda state: prefix + state.new_id()  # the real server's ids of these kinds carry the kind's prefix


_agent_network_kind("/api/agent-network/policies", "policyId", "policy", _policy_fields, store="agent_network_policies",
                    new_id=_prefixed("ainpol_"))
_agent_network_kind("/api/agent-network/guardrails", "guardrailId", "guardrail", _guardrail_fields,
                    store="agent_network_guardrails", new_id=_prefixed("ainguard_"))
_agent_network_kind("/api/agent-network/budget-rules", "ruleId", "budget rule", _rule_fields, store="agent_network_budget_rules",
                    new_id=_prefixed("ainbud_"), wraps={"PUT": "failed to get agent network budget rule: ",
                                                        "DELETE": "get agent network budget rule: "})


# reports: no traffic flows through an emulated gateway; a test seeds access-log entries (/_emulator/agent-network-logs)
COSTS = ("input_cost_usd", "cached_input_cost_usd", "cache_creation_cost_usd", "output_cost_usd", "cache_cost_usd", "cost_usd")
TOKENS = ("input_tokens", "output_tokens", "total_tokens", "cached_input_tokens", "cache_creation_tokens")
LOGS = "agent_network_access_logs"


def seed_access_logs(state: State, body: dict[str, Any]) -> Any:
    """`{"count": N, "per_session"?: M, "decision"?: "allow", "user_id"?}`: N access-log entries, newest first one
    second apart, M to a session (default 1). Returns `{"count", "total"}`."""
    count, per_session = body.get("count", 1), body.get("per_session", 1)
    for name, value in (("count", count), ("per_session", per_session)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100000:
            raise ApiError(422, f"{name}: a whole number from 1 to 100000")
    logs = _kept(state, LOGS)
    start = now()
    for index in range(count):
        number = len(logs)
        entry_id = "ainlog_%06d" % number
        logs[entry_id] = {
            "id": entry_id, "service_id": "ainsvc_emulated", "timestamp": iso(start - dt.timedelta(seconds=number)),
            "status_code": 200, "duration_ms": 120, "user_id": str(body.get("user_id") or ""), "source_ip": "100.64.0.10",
            "method": "POST", "host": "api.openai.com", "path": "/v1/chat/completions", "provider": "openai_api",
            "model": "gpt-5.4-mini", "session_id": "ainses_%06d" % (number // per_session),
            "decision": str(body.get("decision") or "allow"), "group_ids": [], "stream": False,
            **{name: 10 for name in TOKENS}, **{name: 0.001 for name in COSTS}}
    return {"count": count, "total": len(logs)}


def _page(ctx: Ctx) -> tuple[int, int]:
    """The page asked (page, page_size) of a paged report, its dates checked as v0.77 checks them."""
    ctx.require(ctx.admin, "permission denied")
    for key in ("start_date", "end_date"):
        value = (ctx.query.get(key) or [""])[0]
        if value:
            try:
                dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
            except ValueError:
                raise ApiError(422, 'invalid %s: parsing time "%s" as "2006-01-02t15:04:05z07:00": cannot parse "%s" as "2006"'
                               % (key, value, value)) from None
    page = max(1, int((ctx.query.get("page") or ["1"])[0] or 1))
    size = min(100, max(1, int((ctx.query.get("page_size") or ["50"])[0] or 50)))
    return page, size


def _matching(ctx: Ctx) -> list[Record]:
    """The seeded entries the query's simple filters keep, newest first (or oldest first: sort_order asc)."""
    entries = [dict(entry) for entry in _kept(ctx.state, LOGS).values()]
    for name in ("decision", "session_id", "user_id"):
        wanted = (ctx.query.get(name) or [""])[0]
        if wanted:
            entries = [entry for entry in entries if entry.get(name) == wanted]
    ascending = (ctx.query.get("sort_order") or ["desc"])[0] == "asc"
    return sorted(entries, key=lambda entry: entry["timestamp"], reverse=not ascending)


def _paged(items: list[Record], page: int, size: int) -> Any:
    return {"data": items[(page - 1) * size:page * size], "page": page, "page_size": size,
            "total_pages": (len(items) + size - 1) // size, "total_records": len(items)}


@route("GET", "/api/agent-network/access-logs", CURRENT)
def access_logs(ctx: Ctx) -> Any:
    page, size = _page(ctx)
    return _paged(_matching(ctx), page, size)


@route("GET", "/api/agent-network/access-log-sessions", CURRENT)
def access_log_sessions(ctx: Ctx) -> Any:
    page, size = _page(ctx)
    sessions: dict[str, Record] = {}
    for entry in _matching(ctx):
        session = sessions.setdefault(entry["session_id"], {
            "session_id": entry["session_id"], "user_id": entry["user_id"], "group_ids": [], "started_at": entry["timestamp"],
            "ended_at": entry["timestamp"], "request_count": 0, "providers": [], "models": [], "decision": entry["decision"],
            "entries": [], **{name: 0 for name in TOKENS}, **{name: 0.0 for name in COSTS}})
        session["entries"].append(entry)
        session["request_count"] += 1
        session["started_at"], session["ended_at"] = min(session["started_at"], entry["timestamp"]), max(session["ended_at"], entry["timestamp"])
        for name in TOKENS + COSTS:
            session[name] += entry[name]
        for name, key in (("providers", "provider"), ("models", "model")):
            if entry[key] not in session[name]:
                session[name].append(entry[key])
    return _paged(list(sessions.values()), page, size)


@route("GET", "/api/agent-network/usage/overview", CURRENT)
def usage_overview(ctx: Ctx) -> Any:
    _page(ctx)
    return []


@route("GET", "/api/agent-network/consumption", CURRENT)
def consumption(ctx: Ctx) -> Any:
    ctx.require(ctx.admin, "permission denied")
    return []
