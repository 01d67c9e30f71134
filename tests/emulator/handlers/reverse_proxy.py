"""Reverse proxies: services, domains, proxy clusters and proxy tokens (v0.77 only).

The `current` dialect starts without a connected NetBird proxy, as the real test servers are, and answers as the real
seeded v0.77.1 does (../shared/servers/README.md). The control call ``/_emulator/config {"proxy_clusters":
["proxy.emulator.test"]}`` connects proxies of the account's own, so that services and domains can go through their
whole lifecycle here. Without one (none connected, or the account's cluster removed with
``DELETE /api/reverse-proxies/clusters/{address}``): a service
412 "could not derive cluster from domain ...: no proxy clusters available" (after the checks of its name and
targets), a domain 500 "internal server error". Proxy tokens work either way; a revoked token stays listed with
``revoked: true``, and revoking it again answers 200, as on the real server.

Modelled, not measured (no real proxy can connect in the test kit): a cluster's free domain (its address, validated),
a custom domain validated only on a validation request (the DNS check of a real server; names under ``.invalid`` never
validate), and the answer to a domain's deletion (204 there), which the route table answers with 200 and no body; a
validation request is answered 202 with no body, as there.
"""

from __future__ import annotations

import datetime as dt
import string
from typing import Any

from ..state import Record, State
from ..util import NO_BODY, ApiError, iso, now
from .base import CURRENT, Ctx, route
from .crud import CrudKind, admins, kept as _kept, serve

NO_CLUSTER = "no proxy clusters available"
MODES = ("http", "tcp", "udp", "tls")
TARGET_TYPES = ("peer", "host", "domain", "subnet", "cluster")
SECRETS = (("password_auth", "password"), ("pin_auth", "pin"))
TOKEN_ALPHABET = string.ascii_letters + string.digits


def _connect(state: State, address: str, kind: str = "account") -> None:
    clusters = getattr(state, "proxy_clusters")
    clusters[address] = {"id": state.new_id(), "address": address, "type": kind, "online": True, "connected_proxies": 1,
                         "supports_custom_ports": True, "require_subdomain": False, "supports_crowdsec": False,
                         "free_domain_id": state.new_id()}


def configure(app: Any, body: Record) -> Record:
    """Control hook (``/_emulator/config {"proxy_clusters": [...]}`` where the control table wires it): the addresses
    of the connected clusters, [] for none (the real test server's case)."""
    addresses = body.get("proxy_clusters")
    if isinstance(addresses, list):
        clusters = _kept(app.state, "proxy_clusters")
        clusters.clear()
        for address in addresses:
            _connect(app.state, str(address))
    return {"proxy_clusters": sorted(_kept(app.state, "proxy_clusters"))}


# clusters ----------------------------------------------------------------------------------
def _render_cluster(cluster: Record) -> Record:
    return {key: value for key, value in cluster.items() if key != "free_domain_id"}


@route("GET", "/api/reverse-proxies/clusters", CURRENT)
def list_clusters(ctx: Ctx) -> Any:
    ctx.require(ctx.admin, "permission denied")
    return [_render_cluster(item) for item in _kept(ctx.state, "proxy_clusters").values()]


@route("DELETE", "/api/reverse-proxies/clusters/{clusterAddress}", CURRENT)
def delete_cluster(ctx: Ctx) -> Any:
    clusters = _kept(ctx.state, "proxy_clusters")
    cluster = clusters.get(ctx.params["clusterAddress"])
    if cluster is None or cluster["type"] != "account":
        raise ApiError(404, "cluster not found")
    del clusters[cluster["address"]]
    return {}


# domains -------------------------------------------------------------------------------------
def _render_domain(domain: Record) -> Record:
    shown = {key: domain[key] for key in ("id", "domain", "type", "validated", "supports_custom_ports")}
    if domain.get("target_cluster"):
        shown["target_cluster"] = domain["target_cluster"]
    return shown


def _free_domains(state: State) -> list[Record]:
    return [{"id": cluster["free_domain_id"], "domain": cluster["address"], "type": "free", "validated": True,
             "supports_custom_ports": cluster["supports_custom_ports"]} for cluster in _kept(state, "proxy_clusters").values()]


def _custom_domain(ctx: Ctx) -> Record:
    domain = _kept(ctx.state, "proxy_domains").get(ctx.params["domainId"])
    if domain is None:
        raise ApiError(404, f"get domain from store: custom domain {ctx.params['domainId']} not found")
    return domain


@route("GET", "/api/reverse-proxies/domains", CURRENT)
def list_domains(ctx: Ctx) -> Any:
    ctx.require(ctx.admin, "permission denied")
    return [_render_domain(item) for item in _free_domains(ctx.state) + list(_kept(ctx.state, "proxy_domains").values())]


@route("POST", "/api/reverse-proxies/domains", CURRENT)
def create_domain(ctx: Ctx) -> Any:
    body = ctx.body()
    name, cluster_address = body.str("domain").strip().lower(), body.str("target_cluster")
    cluster = _kept(ctx.state, "proxy_clusters").get(cluster_address)
    if cluster is None:
        raise ApiError(500, "internal server error")  # the log: target cluster <address> is not available
    if not name:
        raise ApiError(422, "domain is required")
    domains = _kept(ctx.state, "proxy_domains")
    if any(item["domain"] == name for item in domains.values()) or name in _kept(ctx.state, "proxy_clusters"):
        raise ApiError(409, f"custom domain {name} already exists")
    domain = {"id": ctx.state.new_id(), "domain": name, "type": "custom", "validated": False,
              "target_cluster": cluster_address, "supports_custom_ports": cluster["supports_custom_ports"]}
    domains[domain["id"]] = domain
    return _render_domain(domain)


@route("DELETE", "/api/reverse-proxies/domains/{domainId}", CURRENT)
def delete_domain(ctx: Ctx) -> Any:
    domain = _custom_domain(ctx)
    del _kept(ctx.state, "proxy_domains")[domain["id"]]
    return NO_BODY


@route("GET", "/api/reverse-proxies/domains/{domainId}/validate", CURRENT)
def validate_domain(ctx: Ctx) -> Any:
    """The real server checks in the background and answers 202 whatever the id; here the check is done at once."""
    domain = _kept(ctx.state, "proxy_domains").get(ctx.params["domainId"])
    if domain is not None and not domain["domain"].endswith(".invalid") and domain["target_cluster"] in _kept(ctx.state, "proxy_clusters"):
        domain["validated"] = True
    return NO_BODY


validate_domain.answer_status = 202  # type: ignore[attr-defined]  # accepted, as the real server answers


# services --------------------------------------------------------------------------------
def _cluster_of(state: State, name: str) -> str:
    """The cluster a service's domain is served by: its own or its parent's domain's (free or custom)."""
    clusters = _kept(state, "proxy_clusters")
    if not clusters:
        raise ApiError(412, f"could not derive cluster from domain {name}: {NO_CLUSTER}")
    for domain in _free_domains(state) + list(_kept(state, "proxy_domains").values()):
        if name == domain["domain"] or name.endswith("." + domain["domain"]):
            return domain.get("target_cluster") or domain["domain"]
    raise ApiError(412, f"could not derive cluster from domain {name}")


def _check_target(ctx: Ctx, index: int, target: Record) -> None:
    kind, target_id = target["target_type"], target["target_id"]
    if kind not in TARGET_TYPES:
        raise ApiError(422, f"target {index} has invalid target_type {kind!r}")
    if not target_id:
        raise ApiError(422, f"target {index} has empty target_id")
    if kind == "subnet" and not target["host"]:
        raise ApiError(422, f'target {index} has empty host but target_type is "subnet"')
    if kind == "peer" and target_id not in ctx.state.peers:
        raise ApiError(404, f"peer {target_id} not found")
    if kind in ("host", "domain", "subnet") and target_id not in ctx.state.network_resources:
        raise ApiError(404, f"resource {target_id} not found")


def _service_body(ctx: Ctx, cluster: bool = True) -> Record:
    """The service a body describes, checked as v0.77.1 checks it before it looks anything up; ``cluster``: with the
    proxy cluster its domain derives (the manager's step, after the lookup of an update's service)."""
    body = ctx.body()
    name, domain, mode = body.str("name"), body.str("domain").strip().lower(), body.str("mode") or "http"
    if not name:
        raise ApiError(422, "service name is required")
    targets = []
    for item in body.obj_list("targets") or []:
        options = item.raw("options") if isinstance(item.raw("options"), dict) else {}
        target = {"target_id": item.str("target_id"), "target_type": item.str("target_type"), "protocol": item.str("protocol"),
                  "port": item.int("port"), "host": item.str("host"), "enabled": item.bool("enabled"),
                  "options": dict(options, proxy_protocol=bool(options.get("proxy_protocol")))}
        if item.has("path") and item.raw("path") is not None:
            target["path"] = item.str("path")
        targets.append(target)
    if not targets:
        raise ApiError(422, "at least one target is required")
    if mode not in MODES:
        raise ApiError(422, f"unsupported mode {mode!r}")
    if mode == "http" and not domain:
        raise ApiError(422, "service domain is required")
    if mode == "http" and body.int("listen_port"):
        raise ApiError(422, "listen_port is not supported for HTTP services")
    if mode != "http" and len(targets) != 1:
        raise ApiError(422, f"{mode.upper()} services must have exactly one target")
    wanted = {"name": name, "domain": domain, "mode": mode, "listen_port": body.int("listen_port"), "targets": targets,
              "enabled": body.bool("enabled"), "pass_host_header": body.bool("pass_host_header"),
              "rewrite_redirects": body.bool("rewrite_redirects"), "auth": body.raw("auth") or {}}
    for key in ("access_restrictions", "private", "access_groups"):
        if body.has(key) and body.raw(key) is not None:
            wanted[key] = body.raw(key)
    if cluster:
        _manager_checks(ctx, wanted)
    return wanted


def _manager_checks(ctx: Ctx, wanted: Record) -> None:
    wanted["proxy_cluster"] = _cluster_of(ctx.state, wanted["domain"])  # after the body's checks, as on the real server
    for index, target in enumerate(wanted["targets"]):
        _check_target(ctx, index, target)


def _render_service(service: Record) -> Record:
    shown = {key: value for key, value in service.items() if key not in ("auth", "created_at")}
    auth = {}
    for method, value in (service.get("auth") or {}).items():
        if isinstance(value, dict):
            value = dict(value)
            for secret_method, secret in SECRETS:
                if method == secret_method and secret in value:
                    value[secret] = ""  # secrets are never answered
        elif isinstance(value, list):
            value = [dict(item, value="") if isinstance(item, dict) else item for item in value]
        auth[method] = value
    shown.update(auth=auth, port_auto_assigned=False, meta={"created_at": iso(service["created_at"]), "status": "active"})
    return shown


def _keep_secrets(wanted: Record, held: Record) -> None:
    """An enabled method whose secret a request leaves empty keeps the secret held, as on the real server."""
    auth, old = wanted.get("auth") or {}, held.get("auth") or {}
    for method, secret in SECRETS:
        new, before = auth.get(method), old.get(method)
        if isinstance(new, dict) and isinstance(before, dict) and new.get("enabled") and before.get("enabled") and not new.get(secret):
            auth[method] = dict(before)


def _check_domain_free(ctx: Ctx, domain: str, own_id: str | None = None) -> None:
    if any(item["domain"] == domain and item["id"] != own_id for item in _kept(ctx.state, "proxy_services").values()):
        raise ApiError(409, f"domain already taken: {domain}")


def _service_fields(ctx: Ctx, creating: bool) -> Record:
    wanted = _service_body(ctx, cluster=creating)  # an update's body first: v0.77.1 checks it before the lookup
    if creating:
        wanted["created_at"] = now()
    return wanted


def _service_change(ctx: Ctx, wanted: Record, service: Record | None) -> None:
    if service is None:
        _check_domain_free(ctx, wanted["domain"])
        return
    _manager_checks(ctx, wanted)
    _check_domain_free(ctx, wanted["domain"], service["id"])
    if wanted["mode"] != service["mode"]:
        raise ApiError(422, f"cannot change mode from {service['mode']!r} to {wanted['mode']!r}")
    _keep_secrets(wanted, service)
    for key in ("access_restrictions", "private", "access_groups"):
        service.pop(key, None)  # replaced: one the update leaves out is gone


serve(CrudKind(path="/api/reverse-proxies/services", param="serviceId", store="proxy_services", fields=_service_fields,
               missing="{wrap}service {id} not found",  # a DELETE's words have no prefix
               wraps={"GET": "failed to get service: ", "PUT": "failed to get service: "}, body_first=True,
               accept=_service_change, readable=admins, render=lambda ctx, service, step: _render_service(service),
               dialects=CURRENT))


# proxy tokens ------------------------------------------------------------------------------
def _render_token(token: Record) -> Record:
    shown = {"id": token["id"], "name": token["name"], "created_at": iso(token["created_at"]), "revoked": token["revoked"]}
    if token["expires_at"] is not None:
        shown["expires_at"] = iso(token["expires_at"])
    return shown


@route("GET", "/api/reverse-proxies/proxy-tokens", CURRENT)
def list_tokens(ctx: Ctx) -> Any:
    ctx.require(ctx.admin, "permission denied")
    return [_render_token(item) for item in _kept(ctx.state, "proxy_tokens").values()]


@route("POST", "/api/reverse-proxies/proxy-tokens", CURRENT)
def create_token(ctx: Ctx) -> Any:
    body = ctx.body()
    name, seconds = body.str("name"), body.int("expires_in")
    if not name or len(name) > 255:
        raise ApiError(400, "name is required and must be at most 255 characters")
    if seconds < 0:
        raise ApiError(400, "expires_in must be non-negative")
    moment = now()
    expires = moment + dt.timedelta(seconds=seconds) if seconds else None
    token = {"id": ctx.state.new_id(), "name": name, "created_at": moment, "expires_at": expires, "revoked": False}
    _kept(ctx.state, "proxy_tokens")[token["id"]] = token
    plain = "nbx_" + "".join(ctx.state.rng.choice(TOKEN_ALPHABET) for dummy in range(36))
    return dict(_render_token(token), plain_token=plain)


@route("DELETE", "/api/reverse-proxies/proxy-tokens/{tokenId}", CURRENT)
def revoke_token(ctx: Ctx) -> Any:
    token = _kept(ctx.state, "proxy_tokens").get(ctx.params["tokenId"])
    if token is None:
        raise ApiError(404, "token not found")
    token["revoked"] = True  # kept in the list, as on the real server
    return {}
