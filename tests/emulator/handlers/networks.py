"""Networks (a network, its resources and its routers) and DNS zones with their records: v0.77 only.

Messages follow v0.77.1's handlers and managers: most errors are wrapped on the way up ("failed to get
network: network: <id> not found") and lower-cased; an error that carries no status (a bad resource address,
a resource asked under another network) is a 500 there, and here.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Any

from ..state import DNS_DOMAIN, Record
from ..util import ApiError, Body
from .base import CURRENT, Ctx, route
from .crud import CrudKind, serve, service_users_or_admins

HOST_LABEL = r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?"
DOMAIN_NAME = re.compile(rf"^({HOST_LABEL}\.)+[a-z]{{2,}}$", re.IGNORECASE)


def _domain_ok(text: str, wildcard: bool = False) -> bool:
    if wildcard and text.startswith("*."):
        text = text[2:]
    return len(text) <= 253 and bool(DOMAIN_NAME.match(text))


# networks ----------------------------------------------------------------------------
def _network(ctx: Ctx, wrap: str = "") -> Record:
    nid = ctx.params["networkId"]
    network = ctx.state.networks.get(nid)
    if network is None:
        raise ApiError(404, f"{wrap}network: {nid} not found")
    return network


def _policies_applied(ctx: Ctx, network_id: str) -> list[str]:
    """Policies whose rules reach a resource of the network (through a destination group or resource)."""
    resources = [r for r in ctx.state.network_resources.values() if r["network_id"] == network_id]
    resource_ids = {r["id"] for r in resources}
    groups = {gid for gid, group in ctx.state.groups.items()
              if any(item["id"] in resource_ids for item in group.get("resources") or [])}
    applied = []
    for policy in ctx.state.policies.values():
        for rule in policy["rules"]:
            target = rule.get("destinationResource") or {}
            if groups.intersection(rule["destinations"]) or target.get("id") in resource_ids:
                applied.append(policy["id"])
                break
    return applied


def _render_network(ctx: Ctx, network: Record, created: bool = False, listed: bool = False) -> Record:
    """v0.77: the create answer has empty lists; the list's `routers` are [] when none (`resources` null); a single
    network's answer (GET, PUT) builds both from nothing (null when none)."""
    state = ctx.state
    routers = [r for r in state.network_routers.values() if r["network_id"] == network["id"]]
    resources = [r["id"] for r in state.network_resources.values() if r["network_id"] == network["id"]]
    router_ids = [r["id"] for r in routers]
    routing_peers = 0
    for router in routers:
        routing_peers += 1 if router["peer"] else 0
        for gid in router["peer_groups"] or []:  # null for a router created with a peer only
            if gid in state.groups:
                routing_peers += len(state.groups[gid]["peers"])
    return {
        "id": network["id"],
        "name": network["name"],
        "description": network["description"],
        "routers": router_ids if created or listed else ctx.dialect.nullable(router_ids),
        "resources": resources if created else ctx.dialect.nullable(resources),
        "routing_peers_count": routing_peers,
        "policies": _policies_applied(ctx, network["id"]),
    }


def _network_fields(ctx: Ctx, creating: bool) -> Record:
    body = ctx.body()
    return {"name": body.str("name"), "description": body.str("description")}  # v0.77 checks neither; left out, emptied


# the account-wide lists come before /api/networks/{networkId}, which their paths would match
@route("GET", "/api/networks/resources", CURRENT)
def list_all_resources(ctx: Ctx) -> Any:
    ctx.require(ctx.service_or_admin, "permission denied")
    return [_render_resource(ctx, item) for item in ctx.state.network_resources.values()]


@route("GET", "/api/networks/routers", CURRENT)
def list_all_routers(ctx: Ctx) -> Any:
    ctx.require(ctx.service_or_admin, "permission denied")
    return [_render_router(item) for item in ctx.state.network_routers.values()]


def _network_contents_removed(ctx: Ctx, network: Record) -> None:
    """v0.77 deletes the network's resources (out of their groups) and routers with it."""
    state = ctx.state
    for resource in [r for r in state.network_resources.values() if r["network_id"] == network["id"]]:
        _drop_resource(ctx, resource, network)
    for router in [r for r in state.network_routers.values() if r["network_id"] == network["id"]]:
        del state.network_routers[router["id"]]
        ctx.event("network.router.delete", router["id"], _router_meta(router, network))


serve(CrudKind(path="/api/networks", param="networkId", store="networks", fields=_network_fields,
               missing="{wrap}network: {id} not found",
               wraps={"PUT": "failed to get network: ", "DELETE": "failed to get network: "}, body_first=True,
               readable=service_users_or_admins, event="network", removing=_network_contents_removed,
               render=lambda ctx, network, step: _render_network(ctx, network, created=step == "create",
                                                                 listed=step == "list"),
               dialects=CURRENT))


# network resources ---------------------------------------------------------------------
def _resource_kind(address: str) -> tuple[str, str]:
    """(type, address as v0.77 shows it): a prefix (host when /32 or /128, else subnet), an address (host), or a
    domain; anything else is an error without a status there (500)."""
    try:
        interface = ipaddress.ip_interface(address)
    except ValueError:
        interface = None
    if interface is not None and "/" in address:
        full = interface.network.max_prefixlen
        kind = "host" if interface.network.prefixlen == full else "subnet"
        return kind, f"{interface.ip}/{interface.network.prefixlen}"  # a prefix is kept unmasked
    if interface is not None:
        return "host", f"{interface.ip}/{interface.network.max_prefixlen}"
    if _domain_ok(address, wildcard=True):
        return "domain", address
    raise ApiError(500, "internal server error")


def _resource_groups(ctx: Ctx, resource_id: str) -> list[str]:
    return [gid for gid, group in ctx.state.groups.items()
            if any(item["id"] == resource_id for item in group.get("resources") or [])]


def _render_resource(ctx: Ctx, resource: Record) -> Record:
    return {
        "id": resource["id"],
        "name": resource["name"],
        "description": resource["description"],
        "type": resource["type"],
        "address": resource["address"],
        "groups": ctx.render.group_summaries(_resource_groups(ctx, resource["id"])),
        "enabled": resource["enabled"],
    }


def _set_resource_groups(ctx: Ctx, resource: Record, group_ids: list[str], wrap: str) -> list[tuple[str, str]]:
    """The resource goes into exactly these groups (a group's `resources` list it as {"id", "type"}); returns the
    `resource.group.add` / `.delete` events to record, (code, group id), added groups first as v0.77 records them."""
    for gid in group_ids:
        if gid not in ctx.state.groups:
            raise ApiError(404, f"{wrap}failed to add resource to group: group: {gid} not found")
    before = _resource_groups(ctx, resource["id"])
    for gid, group in ctx.state.groups.items():
        kept = [item for item in group.get("resources") or [] if item["id"] != resource["id"]]
        if gid in group_ids:
            kept.append({"id": resource["id"], "type": resource["type"]})
        group["resources"] = kept
    return ([("resource.group.add", gid) for gid in dict.fromkeys(group_ids) if gid not in before]
            + [("resource.group.delete", gid) for gid in before if gid not in group_ids])


def _group_events(ctx: Ctx, resource: Record, events: list[tuple[str, str]]) -> None:
    """v0.77's events of a resource's groups (target: the group)."""
    for code, gid in events:
        group = ctx.state.groups.get(gid)
        ctx.event(code, gid, {"name": group["name"] if group else "", "id": gid, "resource_name": resource["name"],
                              "resource_id": resource["id"], "resource_type": resource["type"]})


def _resource_body(ctx: Ctx) -> tuple[Body, str, str]:
    body = ctx.body()
    kind, address = _resource_kind(body.str("address"))
    return body, kind, address


def _find_resource(ctx: Ctx, wrap: str) -> Record:
    rid = ctx.params["resourceId"]
    resource = ctx.state.network_resources.get(rid)
    if resource is None:
        raise ApiError(404, f"{wrap}network resource: {rid} not found")
    return resource


def _meta(resource: Record, network: Record) -> Record:
    return {"name": resource["name"], "type": resource["type"], "network_name": network["name"],
            "network_id": network["id"]}


@route("GET", "/api/networks/{networkId}/resources", CURRENT)
def list_resources(ctx: Ctx) -> Any:
    ctx.require(ctx.service_or_admin, "permission denied")
    nid = ctx.params["networkId"]
    # v0.77 builds this list from nothing: null when the network has no resource (or does not exist)
    return ctx.dialect.nullable([_render_resource(ctx, item) for item in ctx.state.network_resources.values()
                                 if item["network_id"] == nid])


@route("POST", "/api/networks/{networkId}/resources", CURRENT)
def create_resource(ctx: Ctx) -> Any:
    body, kind, address = _resource_body(ctx)
    name = body.str("name")
    wrap = "failed to create network resource: "
    if any(item["name"] == name for item in ctx.state.network_resources.values()):
        raise ApiError(422, f"{wrap}resource with name {name} already exists")
    network = _network(ctx, wrap + "failed to get network: ")
    resource = {"id": ctx.state.new_id(), "network_id": network["id"], "name": name,
                "description": body.str("description"), "type": kind, "address": address,
                "enabled": body.bool("enabled")}
    events = _set_resource_groups(ctx, resource, body.str_list("groups") or [], wrap)
    ctx.state.network_resources[resource["id"]] = resource
    ctx.event("network.resource.create", resource["id"], _meta(resource, network))
    _group_events(ctx, resource, events)
    return _render_resource(ctx, resource)


@route("GET", "/api/networks/{networkId}/resources/{resourceId}", CURRENT)
def get_resource(ctx: Ctx) -> Any:
    ctx.require(ctx.service_or_admin, "permission denied")
    resource = _find_resource(ctx, "failed to get network resource: ")
    if resource["network_id"] != ctx.params["networkId"]:
        raise ApiError(500, "internal server error")  # "resource not part of network" carries no status
    return _render_resource(ctx, resource)


@route("PUT", "/api/networks/{networkId}/resources/{resourceId}", CURRENT)
def update_resource(ctx: Ctx) -> Any:
    body, kind, address = _resource_body(ctx)
    wrap = "failed to update network resource: "
    network = _network(ctx, wrap + "failed to get network: ")
    resource = _find_resource(ctx, wrap + "failed to get network resource: ")
    name = body.str("name")
    if any(item["name"] == name and item["id"] != resource["id"] for item in ctx.state.network_resources.values()):
        raise ApiError(422, f"{wrap}new resource name already exists")
    events = _set_resource_groups(ctx, resource, body.str_list("groups") or [], wrap)
    resource.update(name=name, description=body.str("description"), type=kind, address=address,
                    enabled=body.bool("enabled"), network_id=network["id"])
    for group in ctx.state.groups.values():  # the type in the groups' lists follows the address
        for item in group.get("resources") or []:
            if item["id"] == resource["id"]:
                item["type"] = kind
    _group_events(ctx, resource, events)
    ctx.event("network.resource.update", resource["id"], _meta(resource, network))
    return _render_resource(ctx, resource)


def _drop_resource(ctx: Ctx, resource: Record, network: Record) -> None:
    events = _set_resource_groups(ctx, resource, [], "")
    _group_events(ctx, resource, events)
    del ctx.state.network_resources[resource["id"]]
    ctx.event("network.resource.delete", resource["id"], _meta(resource, network))


@route("DELETE", "/api/networks/{networkId}/resources/{resourceId}", CURRENT)
def delete_resource(ctx: Ctx) -> Any:
    wrap = "failed to delete network resource: "
    resource = _find_resource(ctx, wrap + "failed to get network resource: ")
    network = _network(ctx, wrap + "failed to get network: ")
    _drop_resource(ctx, resource, network)
    return {}


# network routers -----------------------------------------------------------------------
def _render_router(router: Record) -> Record:
    return {
        "id": router["id"],
        "peer": router["peer"],
        "peer_groups": list(router["peer_groups"]) if router["peer_groups"] is not None else None,
        "masquerade": router["masquerade"],
        "metric": router["metric"],
        "enabled": router["enabled"],
    }


def _router_meta(router: Record, network: Record) -> Record:
    """v0.77's event meta of a router (its peer groups as the stored router holds them: [] when it has a peer)."""
    return {"network_name": network["name"], "network_id": network["id"], "peer": router["peer"],
            "peer_groups": list(router["peer_groups"] or [])}


def _router_fields(ctx: Ctx) -> Record:
    body = ctx.body()
    peer = body.str("peer")
    peer_groups = body.str_list("peer_groups")
    if peer and peer_groups:
        raise ApiError(400, "peer and peer_groups cannot be set at the same time", verbatim=True)
    if not peer and not peer_groups:
        raise ApiError(400, "either peer or peer_groups must be provided", verbatim=True)
    return {"peer": peer, "peer_groups": peer_groups, "masquerade": body.bool("masquerade"),
            "metric": body.int("metric"), "enabled": body.bool("enabled")}


def _find_router(ctx: Ctx, wrap: str) -> Record:
    rid = ctx.params["routerId"]
    router = ctx.state.network_routers.get(rid)
    if router is None:
        raise ApiError(404, f"{wrap}network router: {rid} not found")
    return router


@route("GET", "/api/networks/{networkId}/routers", CURRENT)
def list_routers(ctx: Ctx) -> Any:
    ctx.require(ctx.service_or_admin, "permission denied")
    nid = ctx.params["networkId"]
    return [_render_router(item) for item in ctx.state.network_routers.values() if item["network_id"] == nid]


@route("POST", "/api/networks/{networkId}/routers", CURRENT)
def create_router(ctx: Ctx) -> Any:
    fields = _router_fields(ctx)
    fields["enabled"] = True  # v0.77's create handler sets it, whatever the body says
    network = _network(ctx, "failed to get network: ")
    router = {"id": ctx.state.new_id(), "network_id": network["id"], **fields}
    ctx.state.network_routers[router["id"]] = router
    ctx.event("network.router.create", router["id"], _router_meta(router, network))
    return _render_router(router)


@route("GET", "/api/networks/{networkId}/routers/{routerId}", CURRENT)
def get_router(ctx: Ctx) -> Any:
    ctx.require(ctx.service_or_admin, "permission denied")
    router = _find_router(ctx, "failed to get network router: ")
    if router["network_id"] != ctx.params["networkId"]:
        raise ApiError(500, "internal server error")  # "router not part of network" carries no status
    return _render_router(router)


@route("PUT", "/api/networks/{networkId}/routers/{routerId}", CURRENT)
def update_router(ctx: Ctx) -> Any:
    fields = _router_fields(ctx)
    network = _network(ctx, "failed to get network: ")
    router = _find_router(ctx, "failed to get network router: ")
    if router["network_id"] != network["id"]:
        raise ApiError(400, f"router {router['id']} is not part of the network {network['id']}")
    router.update(fields)
    ctx.event("network.router.update", router["id"], _router_meta(router, network))
    return _render_router(router)


@route("DELETE", "/api/networks/{networkId}/routers/{routerId}", CURRENT)
def delete_router(ctx: Ctx) -> Any:
    router = _find_router(ctx, "failed to get network router: ")
    network = _network(ctx, "failed to delete network router: failed to get network: ")
    if router["network_id"] != network["id"]:
        raise ApiError(400, f"failed to delete network router: router {router['id']} is not part of the network "
                            f"{network['id']}")
    del ctx.state.network_routers[router["id"]]
    ctx.event("network.router.delete", router["id"], _router_meta(router, network))
    return {}


# DNS zones -----------------------------------------------------------------------------
def _render_record(record: Record) -> Record:
    return {"id": record["id"], "name": record["name"], "type": record["type"], "content": record["content"],
            "ttl": record["ttl"]}


def _render_zone(zone: Record) -> Record:
    return {
        "id": zone["id"],
        "name": zone["name"],
        "domain": zone["domain"],
        "enabled": zone["enabled"],
        "enable_search_domain": zone["enable_search_domain"],
        "distribution_groups": list(zone["distribution_groups"]),
        "records": [_render_record(record) for record in zone["records"]],
    }


def _zone_fields(ctx: Ctx) -> Record:
    """The zone checks of v0.77 (name, domain, at least one group), 422 each; `enabled` defaults to true."""
    body = ctx.body()
    name = body.str("name")
    domain = body.str("domain")
    groups = body.str_list("distribution_groups") or []
    if not name:
        raise ApiError(422, "zone name is required")
    if len(name) > 255:
        raise ApiError(422, "zone name exceeds maximum length of 255 characters")
    if not _domain_ok(domain):
        raise ApiError(422, "invalid zone domain format")
    if not groups:
        raise ApiError(422, "at least one distribution group is required")
    return {"name": name, "domain": domain, "enabled": body.bool("enabled", True),
            "enable_search_domain": body.bool("enable_search_domain"), "distribution_groups": groups}


def _check_zone_groups(ctx: Ctx, groups: list[str]) -> None:
    for gid in groups:
        if gid not in ctx.state.groups:
            raise ApiError(422, f"group: {gid} not found")


def _zone(ctx: Ctx, wrap: str = "") -> Record:
    zid = ctx.params["zoneId"]
    zone = ctx.state.zones.get(zid)
    if zone is None:
        raise ApiError(404, f"{wrap}zone: {zid} not found")
    return zone


def _zone_meta(ctx: Ctx, zone: Record) -> Record:
    return {"name": zone["name"], "domain": zone["domain"]}


def _new_zone_fields(ctx: Ctx, creating: bool) -> Record:
    return dict(_zone_fields(ctx), records=[]) if creating else _zone_fields(ctx)


def _zone_change(ctx: Ctx, fields: Record, zone: Record | None) -> None:
    if zone is None:
        # v0.77.1 refuses the server's own peer domain (its --dns-domain) and the account's dns_domain, either of them
        account_domain = (ctx.state.account or {}).get("settings", {}).get("dns_domain")
        if fields["domain"] == DNS_DOMAIN or (account_domain and fields["domain"] == account_domain):
            raise ApiError(422, f"zone domain {fields['domain']} conflicts with peer dns domain")
        if any(other["domain"] == fields["domain"] for other in ctx.state.zones.values()):
            raise ApiError(409, f"zone with domain {fields['domain']} already exists")
    elif fields["domain"] != zone["domain"]:
        raise ApiError(422, "zone domain cannot be updated")
    _check_zone_groups(ctx, fields["distribution_groups"])


def _zone_records_removed(ctx: Ctx, zone: Record) -> None:
    for record in zone["records"]:
        ctx.event("dns.zone.record.delete", record["id"], {**_record_meta(record, zone)})


serve(CrudKind(path="/api/dns/zones", param="zoneId", store="zones", fields=_new_zone_fields, missing="{wrap}zone: {id} not found",
               wraps={"PUT": "failed to get zone: ", "DELETE": "failed to get zone: "}, body_first=True, accept=_zone_change,
               readable=service_users_or_admins, event="dns.zone", meta=_zone_meta, removing=_zone_records_removed,
               render=lambda ctx, zone, step: _render_zone(zone), dialects=CURRENT))


# DNS records ---------------------------------------------------------------------------
def _record_fields(ctx: Ctx) -> Record:
    """A record's own checks (v0.77's order and words, 422 each)."""
    body = ctx.body()
    name, kind, content, ttl = body.str("name"), body.str("type"), body.str("content"), body.int("ttl")
    if not name:
        raise ApiError(422, "record name is required")
    if not _domain_ok(name, wildcard=True):
        raise ApiError(422, "invalid record name format")
    if not kind:
        raise ApiError(422, "record type is required")
    if kind == "A":
        if not content:
            raise ApiError(422, "A record is required")
        if not _ip_of_version(content, 4):
            raise ApiError(422, "A record must be a valid IPv4 address")
    elif kind == "AAAA":
        if not content:
            raise ApiError(422, "AAAA record is required")
        if not _ip_of_version(content, 6):
            raise ApiError(422, "AAAA record must be a valid IPv6 address")
    elif kind == "CNAME":
        if not _domain_ok(content):
            raise ApiError(422, "invalid CNAME target format")
    else:
        raise ApiError(422, "invalid record type, must be A, AAAA, or CNAME")
    if ttl < 0:
        raise ApiError(422, "TTL cannot be negative")
    return {"name": name, "type": kind, "content": content, "ttl": ttl}


def _ip_of_version(text: str, version: int) -> bool:
    try:
        return ipaddress.ip_address(text).version == version
    except ValueError:
        return False


def _check_record(zone: Record, fields: Record, record_id: str) -> None:
    if fields["name"] != zone["domain"] and not fields["name"].endswith("." + zone["domain"]):
        raise ApiError(422, "record name does not belong to zone")
    for other in zone["records"]:
        if other["id"] == record_id or other["name"] != fields["name"]:
            continue
        if other["type"] == fields["type"] and other["content"] == fields["content"]:
            raise ApiError(409, "identical record already exists")
        if "CNAME" in (other["type"], fields["type"]):
            raise ApiError(422, f"An A, AAAA, or CNAME record with name {fields['name']} already exists")


def _record_meta(record: Record, zone: Record) -> Record:
    return {"name": record["name"], "type": record["type"], "content": record["content"], "ttl": record["ttl"],
            "zone_id": zone["id"], "zone_name": zone["name"]}


def _find_record(ctx: Ctx, zone: Record, wrap: str = "") -> Record:
    rid = ctx.params["recordId"]
    for record in zone["records"]:
        if record["id"] == rid:
            return record
    raise ApiError(404, f"{wrap}dns record: {rid} not found")


@route("GET", "/api/dns/zones/{zoneId}/records", CURRENT)
def list_records(ctx: Ctx) -> Any:
    ctx.require(ctx.service_or_admin, "permission denied")
    zone = ctx.state.zones.get(ctx.params["zoneId"])
    # v0.77 lists the records stored under the zone id: an unknown zone has none ([]), not a 404
    return [_render_record(record) for record in zone["records"]] if zone is not None else []


@route("POST", "/api/dns/zones/{zoneId}/records", CURRENT)
def create_record(ctx: Ctx) -> Any:
    fields = _record_fields(ctx)
    zone = _zone(ctx, "failed to get zone: ")
    _check_record(zone, fields, "")
    record = {"id": ctx.state.new_id(), **fields}
    zone["records"].append(record)
    ctx.event("dns.zone.record.create", record["id"], _record_meta(record, zone))
    return _render_record(record)


@route("GET", "/api/dns/zones/{zoneId}/records/{recordId}", CURRENT)
def get_record(ctx: Ctx) -> Any:
    ctx.require(ctx.service_or_admin, "permission denied")
    return _render_record(_find_record(ctx, _zone(ctx)))


@route("PUT", "/api/dns/zones/{zoneId}/records/{recordId}", CURRENT)
def update_record(ctx: Ctx) -> Any:
    fields = _record_fields(ctx)
    zone = _zone(ctx, "failed to get zone: ")
    record = _find_record(ctx, zone, "failed to get record: ")
    _check_record(zone, fields, record["id"])
    record.update(fields)
    ctx.event("dns.zone.record.update", record["id"], _record_meta(record, zone))
    return _render_record(record)


@route("DELETE", "/api/dns/zones/{zoneId}/records/{recordId}", CURRENT)
def delete_record(ctx: Ctx) -> Any:
    zone = _zone(ctx, "failed to get zone: ")
    record = _find_record(ctx, zone, "failed to get record: ")
    zone["records"].remove(record)
    ctx.event("dns.zone.record.delete", record["id"], _record_meta(record, zone))
    return {}
