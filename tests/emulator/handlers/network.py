"""Routes, nameserver groups and DNS settings."""

from __future__ import annotations

import ipaddress
import re
from typing import Any

from ..state import Record
from ..util import ApiError, Body
from .base import Ctx, check_group_ids, route

DOMAIN = re.compile(r"^[a-z0-9]+([\-\.]{1}[a-z0-9]+)*\.[a-z]{2,}$", re.IGNORECASE)
# v0.77's check of a route's domains (after IDNA, lower-cased): labels of letters, digits, "-" and "_", a leading "*."
ROUTE_DOMAIN = re.compile(r"^(?:\*\.)?(?:(?:xn--)?[a-z0-9_](?:[a-z0-9\-_]{0,61}[a-z0-9])?\.)*(?:xn--)?[a-z0-9]"
                          r"(?:[a-z0-9\-_]{0,61}[a-z0-9])?$")
MAX_ROUTE_DOMAINS = 32
NS_PREFIX = "nameserver group "
DOMAIN_PLACEHOLDER = "192.0.2.0/32"  # the network v0.77 gives a domain route


def _read_access(ctx: Ctx, what: str) -> None:
    ctx.require(ctx.service_or_admin, f"only users with admin power can view {what}")


# routes ----------------------------------------------------------------------------
def _route_from_body(ctx: Ctx, route_id: str, creating: bool) -> Record:
    state = ctx.state
    body = ctx.body()
    raw_network = body.str("network")
    try:
        network = ipaddress.ip_network(raw_network, strict=False)
    except ValueError as exc:
        if creating:
            raise ApiError(422, f"invalid network {raw_network}") from exc
        raise ApiError(422, f"couldn't parse update prefix {raw_network} for route id {route_id}") from exc
    network_id = body.str("network_id")
    if not 1 <= len(network_id) <= 40:
        raise ApiError(422, "identifier should be between 1 and 40")
    peer = body.str("peer")
    peer_groups = body.str_list("peer_groups")
    if creating:
        if bool(peer) == bool(peer_groups):
            raise ApiError(422, "only one peer or peer_groups should be provided")
    else:
        if body.has("peer") and body.has("peer_groups"):
            raise ApiError(422, "only peer or peers_group should be provided")
        if not body.has("peer") and not body.has("peer_groups"):
            raise ApiError(422, "either peer or peers_group should be provided")
    # judged by the OS the agent reports of itself (GoOS), not by the free-text os ("Debian GNU/Linux 12")
    if peer and peer in state.peers and state.peers[peer]["goos"] != "linux":
        raise ApiError(422, "non-linux peers are non supported as network routes")
    if peer_groups:
        check_group_ids(state, peer_groups)
    prefix = str(network)
    _check_prefix_unique(ctx, route_id, prefix, peer, peer_groups or [])
    metric = body.int("metric")
    if not 1 <= metric <= 9999:
        raise ApiError(422, "metric should be between 1 and 9999")
    groups = check_group_ids(state, body.str_list("groups"))
    return {
        "id": route_id,
        "network": prefix,
        "network_type": "IPv4" if network.version == 4 else "IPv6",
        "network_id": network_id,
        "description": body.str("description"),
        "enabled": body.bool("enabled"),
        "masquerade": body.bool("masquerade"),
        "metric": metric,
        "peer": peer,
        "peer_groups": peer_groups or [],
        "groups": groups,
    }


def _current_route_from_body(ctx: Ctx, route_id: str) -> Record:
    """A route as v0.77 reads it: `network` or `domains`, `peer` or `peer_groups` (a member present counts, even
    empty), keep_route, access_control_groups, skip_auto_apply; non-Linux routing peers are fine."""
    state = ctx.state
    body = ctx.body()
    has_network, has_domains = body.raw("network") is not None, body.raw("domains") is not None
    if has_network and has_domains:
        raise ApiError(422, "only one of 'network' or 'domains' should be provided")
    if not has_network and not has_domains:
        raise ApiError(422, "either 'network' or 'domains' should be provided")
    has_peer, has_peer_groups = body.raw("peer") is not None, body.raw("peer_groups") is not None
    if not has_peer and not has_peer_groups:
        raise ApiError(422, "either 'peer' or 'peer_groups' should be provided")
    if has_peer and has_peer_groups:
        raise ApiError(422, "only one of 'peer' or 'peer_groups' should be provided")
    network_id = body.str("network_id")
    if not 1 <= len(network_id) <= 40:
        raise ApiError(422, "identifier should be between 1 and 40 characters")
    domains = body.str_list("domains")
    if domains is not None:
        domains = _route_domains(domains)
        prefix, network_type = DOMAIN_PLACEHOLDER, "Domain"
    else:
        raw_network = body.str("network")
        try:
            network = ipaddress.ip_network(raw_network, strict=False)
        except ValueError as exc:
            raise ApiError(422, f"invalid network {raw_network}") from exc
        prefix, network_type = str(network), "IPv4" if network.version == 4 else "IPv6"
    metric = body.int("metric")
    if not 1 <= metric <= 9999:
        raise ApiError(422, "metric should be between 1 and 9999")
    peer = body.str("peer")
    peer_groups = body.str_list("peer_groups") or []
    if peer_groups:
        check_group_ids(state, peer_groups)
    access_control_groups = body.str_list("access_control_groups") or []
    if access_control_groups:
        check_group_ids(state, access_control_groups)
    groups = check_group_ids(state, body.str_list("groups"))  # after the others, as v0.77 checks them
    _check_prefix_unique(ctx, route_id, prefix if domains is None else "domains:" + ",".join(domains), peer, peer_groups,
                         current=True)
    return {
        "id": route_id,
        "network": prefix,
        "network_type": network_type,
        "domains": domains or [],
        "network_id": network_id,
        "description": body.str("description"),
        "enabled": body.bool("enabled"),
        "masquerade": body.bool("masquerade"),
        "metric": metric,
        "peer": peer,
        "peer_groups": peer_groups,
        "peer_groups_given": body.raw("peer_groups") is not None,  # (an empty list sent is not a nil one)
        "groups": groups,
        # left out of a PUT body these are reset: v0.77 replaces the whole route
        "keep_route": body.bool("keep_route"),
        "access_control_groups": access_control_groups,
        "skip_auto_apply": body.bool("skip_auto_apply"),
    }


def _route_domains(domains: list[str]) -> list[str]:
    """v0.77's ValidateDomains: 1 to 32 domains, each converted to IDNA and lower-cased, then checked; answered
    lower-cased in their Unicode form."""
    if not domains:
        raise ApiError(422, "invalid domains: domains list is empty")
    if len(domains) > MAX_ROUTE_DOMAINS:
        raise ApiError(422, f"invalid domains: domains list exceeds maximum allowed domains: {MAX_ROUTE_DOMAINS}")
    stored = []
    for item in domains:
        try:
            ascii_name = item.encode("idna").decode("ascii").lower() if not item.isascii() else item.lower()
        except UnicodeError as exc:
            raise ApiError(422, f"invalid domains: convert domain to punycode: {item}: {exc}".lower()) from exc
        if not ROUTE_DOMAIN.match(ascii_name):
            raise ApiError(422, f"invalid domains: invalid domain format: {item}".lower())
        stored.append(ascii_name.encode("ascii").decode("idna"))
    return stored


def _check_prefix_unique(ctx: Ctx, route_id: str, prefix: str, peer: str, peer_groups: list[str],
                         current: bool = False) -> None:
    """Same-prefix routes may not share routing peers (the reference's checks, bug included). `current`: v0.77,
    where a domain route's key is its domains (`domains:a,b`) and the peer message names the peer by ID."""
    state = ctx.state
    if peer and peer not in state.peers:
        raise ApiError(422, f"peer with id {peer} not found")
    taken_groups: set[str] = set()
    for other in state.routes.values():
        key = other["network"] if not other.get("domains") else "domains:" + ",".join(other["domains"])
        if other["id"] != route_id and key == prefix:
            taken_groups.update(other["peer_groups"])
    # single-peer routes register under their route id on real servers, so they never clash
    taken_peers: set[str] = set()
    for gid in taken_groups:
        if gid in state.groups:
            taken_peers.update(state.group_members(state.groups[gid]))
    descriptor = f"domains [{prefix[len('domains:'):].replace(',', ', ')}]" if prefix.startswith("domains:") else f"prefix {prefix}"
    failure = f"failed to add route with {descriptor} - "
    if peer and peer in taken_peers:
        raise ApiError(409, failure + f"peer {peer} already has this route")
    for gid in peer_groups:
        group = state.groups[gid]
        if gid in taken_groups:
            raise ApiError(409, failure + f"peer group {group['name']} already has this route")
        for pid in state.group_members(group):
            if pid in taken_peers:
                raise ApiError(409, failure + f"peer {state.peers[pid]['name']} from the group {group['name']} already has this route")


def _route_meta(item: Record, current: bool = False) -> Record:
    """A route's event meta; v0.77 adds `domains` ("" unless a domain route) and shows the peer groups as the
    request gave them (a route made with a peer has none: nil, "<nil>" in the log)."""
    if not current:
        return {"name": item["network_id"], "network_range": item["network"], "peer_id": item["peer"],
                "peer_groups": item["peer_groups"]}
    given = item["peer_groups"] if item["peer_groups"] or item.get("peer_groups_given") else None
    return {"name": item["network_id"], "network_range": item["network"],
            "domains": ", ".join(item.get("domains") or []), "peer_id": item["peer"], "peer_groups": given}


@route("GET", "/api/routes")
def list_routes(ctx: Ctx) -> Any:
    _read_access(ctx, "routes")
    return ctx.dialect.order([ctx.render.route(item) for item in ctx.state.routes.values()])


@route("GET", "/api/routes/{routeId}")
def get_route(ctx: Ctx) -> Any:
    rid = ctx.params["routeId"]
    item = ctx.state.routes.get(rid)
    if ctx.dialect.current:
        ctx.require(ctx.service_or_admin, "permission denied")  # v0.77's permissions check, before the lookup
        if item is None:
            raise ApiError(404, f"route: {rid} not found")
    elif item is None or not ctx.service_or_admin:
        raise ApiError(404, "route not found")  # v0.27 maps every error here to 404
    return ctx.render.route(item)


@route("POST", "/api/routes")
def create_route(ctx: Ctx) -> Any:
    if ctx.dialect.current:
        item = _current_route_from_body(ctx, ctx.state.new_id())
    else:
        item = _route_from_body(ctx, ctx.state.new_id(), creating=True)
    ctx.state.routes[item["id"]] = item
    ctx.event("route.add", item["id"], _route_meta(item, ctx.dialect.current))
    return ctx.render.route(item)


@route("PUT", "/api/routes/{routeId}")
def update_route(ctx: Ctx) -> Any:
    rid = ctx.params["routeId"]
    if rid not in ctx.state.routes:
        raise ApiError(404, f"route: {rid} not found" if ctx.dialect.current else f"route with id {rid} not found")
    if ctx.dialect.current:
        item = _current_route_from_body(ctx, rid)
    else:
        item = _route_from_body(ctx, rid, creating=False)
    ctx.state.routes[rid] = item
    ctx.event("route.update", rid, _route_meta(item, ctx.dialect.current))
    return ctx.render.route(item)


@route("DELETE", "/api/routes/{routeId}")
def delete_route(ctx: Ctx) -> Any:
    rid = ctx.params["routeId"]
    item = ctx.state.routes.pop(rid, None)
    if item is None:
        if ctx.dialect.current:
            raise ApiError(404, f"failed to delete route {rid}: route: {rid} not found")
        raise ApiError(404, f"route with id {rid} doesn't exist")
    ctx.event("route.delete", rid, _route_meta(item, ctx.dialect.current))
    return ctx.dialect.delete_body()


# nameserver groups -----------------------------------------------------------------
def _nameservers(body: Body) -> list[Record]:
    result = []
    for item in body.obj_list("nameservers") or []:
        ns_type = item.str("ns_type").lower()
        port = item.int("port")
        try:
            address = ipaddress.ip_address(item.str("ip"))
        except ValueError as exc:
            raise ApiError(422, "invalid ns servers format") from exc
        if ns_type != "udp" or port < 0:
            raise ApiError(422, "invalid ns servers format")
        result.append({"ip": str(address), "ns_type": "udp", "port": port})
    return result


def _check_domains(primary: bool, domains: list[str], search: bool) -> None:
    if not primary and not domains:
        raise ApiError(422, NS_PREFIX + "primary status is false and domains are empty, it should be primary or have at least one domain")
    if primary and domains:
        raise ApiError(422, NS_PREFIX + "primary status is true and domains are not empty, you should set either primary or domain")
    if primary and search:
        raise ApiError(422, NS_PREFIX + "primary status is true and search domains is enabled, you should not set search domains for primary nameservers")
    for domain in domains:
        if not DOMAIN.match(domain):
            reason = "domain should consists of only letters, numbers, and hyphens with no leading, trailing hyphens, or spaces"
            raise ApiError(422, f'nameserver group got an invalid domain: {domain} "{reason}"')
        if len(domain) > 253 or any(len(label) > 63 for label in domain.split(".")):
            raise ApiError(422, f'nameserver group got an invalid domain: {domain} "invalid domain name"')


def _nameserver_from_body(ctx: Ctx, ns_id: str, creating: bool) -> tuple[Record, bool]:
    """The record, and whether `domains` was omitted (echoed as null by real PUTs)."""
    state = ctx.state
    body = ctx.body()
    if not creating and ctx.dialect.current and ns_id not in state.nameservers:
        raise ApiError(404, f"nameserver group: {ns_id} not found")  # v0.77 looks the group up first
    nameservers = _nameservers(body)
    if not creating and ns_id not in state.nameservers:
        raise ApiError(404, f"nameserver group with id {ns_id} was not found")
    primary = body.bool("primary")
    domains = body.str_list("domains")
    search = body.bool("search_domains_enabled")
    _check_domains(primary, domains or [], search)
    name = body.str("name")
    if not 1 <= len(name) <= 40:
        raise ApiError(422, "nameserver group name should be between 1 and 40")
    if any(item["name"] == name and item["id"] != ns_id for item in state.nameservers.values()):
        raise ApiError(422, f"a nameserver group with name {name} already exist")
    if not 1 <= len(nameservers) <= 3:
        raise ApiError(422, f"the list of nameservers should be 1 or 3, got {len(nameservers)}")
    groups = check_group_ids(state, body.str_list("groups"))
    record = {
        "id": ns_id,
        "name": name,
        "description": body.str("description"),
        "nameservers": nameservers,
        "enabled": body.bool("enabled"),
        "groups": groups,
        "primary": primary,
        "domains": domains or [],
        "domains_null": domains is None,  # v0.77 stores the list as sent: left out, later reads show null
        "search_domains_enabled": search,
    }
    return record, domains is None


@route("GET", "/api/dns/nameservers")
def list_nameservers(ctx: Ctx) -> Any:
    _read_access(ctx, "nameservers")
    return ctx.dialect.order([ctx.render.nameserver_group(item) for item in ctx.state.nameservers.values()])


@route("GET", "/api/dns/nameservers/{nsgroupId}")
def get_nameserver(ctx: Ctx) -> Any:
    _read_access(ctx, "nameservers")
    nid = ctx.params["nsgroupId"]
    item = ctx.state.nameservers.get(nid)
    if item is None:
        raise ApiError(404, f"nameserver group: {nid} not found" if ctx.dialect.current
                       else f"nameserver group with id {nid} not found")
    return ctx.render.nameserver_group(item)


@route("POST", "/api/dns/nameservers")
def create_nameserver(ctx: Ctx) -> Any:
    item, _omitted = _nameserver_from_body(ctx, ctx.state.new_id(), creating=True)
    ctx.state.nameservers[item["id"]] = item
    ctx.event("nameserver.group.add", item["id"], {"name": item["name"]})
    return ctx.render.nameserver_group(item, created=True)


@route("PUT", "/api/dns/nameservers/{nsgroupId}")
def update_nameserver(ctx: Ctx) -> Any:
    nid = ctx.params["nsgroupId"]
    item, domains_omitted = _nameserver_from_body(ctx, nid, creating=False)
    ctx.state.nameservers[nid] = item
    ctx.event("nameserver.group.update", nid, {"name": item["name"]})
    result = ctx.render.nameserver_group(item)
    if domains_omitted and ctx.dialect.netbird:
        result["domains"] = None  # the PUT response echoes the request
    return result


@route("DELETE", "/api/dns/nameservers/{nsgroupId}")
def delete_nameserver(ctx: Ctx) -> Any:
    nid = ctx.params["nsgroupId"]
    item = ctx.state.nameservers.pop(nid, None)
    if item is None:
        raise ApiError(404, f"nameserver group: {nid} not found" if ctx.dialect.current
                       else f"nameserver group {nid} wasn't found")
    ctx.event("nameserver.group.delete", nid, {"name": item["name"]})
    return ctx.dialect.delete_body()


# DNS settings ----------------------------------------------------------------------
@route("GET", "/api/dns/settings")
def get_dns_settings(ctx: Ctx) -> Any:
    _read_access(ctx, "dns settings")
    settings = {"disabled_management_groups": list(ctx.state.dns["disabled_management_groups"])}
    return settings if ctx.dialect.netbird else {"items": settings}


@route("PUT", "/api/dns/settings")
def update_dns_settings(ctx: Ctx) -> Any:
    state = ctx.state
    body = ctx.body()
    requested = body.str_list("disabled_management_groups")
    if requested is None and ctx.dialect.current and state.account is not None:
        # v0.77 stores nothing for a null list, and takes "no row changed" for a missing account
        raise ApiError(404, f"account not found: {state.account['id']}")
    wanted = requested or []
    for gid in wanted:
        if not gid:
            raise ApiError(422, "group id should not be empty string")
        if gid not in state.groups:
            raise ApiError(422, f"group id {gid} not found")
    before = state.dns["disabled_management_groups"]
    account_id = state.account["id"] if state.account else ""
    for code, changed in (("dns.setting.disabled.management.group.add", [g for g in wanted if g not in before]),
                          ("dns.setting.disabled.management.group.delete", [g for g in before if g not in wanted])):
        for gid in changed:
            name = state.groups[gid]["name"] if gid in state.groups else ""
            ctx.event(code, account_id, {"group": name, "group_id": gid})
    state.dns["disabled_management_groups"] = list(wanted)
    if requested is None and ctx.dialect.netbird:
        return {"disabled_management_groups": None}  # echoes the request
    return {"disabled_management_groups": list(wanted)}
