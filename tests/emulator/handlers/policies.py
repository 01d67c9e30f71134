"""Policies (rules forced to the policy id, unknown groups dropped) and posture checks."""

from __future__ import annotations

import ipaddress
import re
from typing import Any

from ..state import Record
from ..util import ApiError, Body, DropConnection
from .base import Ctx, route
from .crud import CrudKind, admins, serve

ACTIONS = ("accept", "drop")
PROTOCOLS = ("all", "tcp", "udp", "icmp")
PORT_RANGE = re.compile(r"^(\d+)(?:-(\d+))?$")
ALL_OR_ICMP_FLOW = "for all or icmp protocol type flow can be only bi-directional"


def _port_ok(text: str, ranges: bool) -> bool:
    """`N` (v0.27 parses every entry as an integer), or also `N-M` with 1 <= N <= M <= 65535 where the spec's
    "ports or port ranges" is read literally (the seed dialect)."""
    found = PORT_RANGE.match(text)
    if not found or (found.group(2) is not None and not ranges):
        return False
    low = int(found.group(1))
    high = int(found.group(2)) if found.group(2) is not None else low
    return 1 <= low <= high <= 65535


def _rule(ctx: Ctx, body: Body) -> Record:
    action = body.str("action")
    protocol = body.str("protocol")
    bidirectional = body.bool("bidirectional")
    ports = body.str_list("ports") or []
    if action not in ACTIONS:
        raise ApiError(422, "unknown action type")
    if protocol not in PROTOCOLS:
        raise ApiError(422, f"unknown protocol type: {protocol}")
    if not all(_port_ok(port, ranges=not ctx.dialect.netbird) for port in ports):
        raise ApiError(422, "valid port value is in 1..65535 range")
    if protocol in ("all", "icmp"):
        if ports:
            raise ApiError(422, "for all or icmp protocol ports is not allowed")
        if not bidirectional:
            raise ApiError(422, ALL_OR_ICMP_FLOW)
    elif not bidirectional and not ports:
        raise ApiError(422, ALL_OR_ICMP_FLOW)  # sic: the same message for tcp/udp
    groups = ctx.state.groups
    return {
        "name": body.str("name"),
        "description": body.str("description"),
        "enabled": body.bool("enabled"),
        "action": action,
        "bidirectional": bidirectional,
        "protocol": protocol,
        "ports": ports,
        # unknown group ids are dropped silently, like real servers do
        "sources": [gid for gid in body.str_list("sources") or [] if gid in groups],
        "destinations": [gid for gid in body.str_list("destinations") or [] if gid in groups],
    }


def _resource(body: Body, key: str) -> Record | None:
    item = body.obj(key)
    return None if item is None else {"id": item.str("id"), "type": item.str("type")}


def _current_rule(ctx: Ctx, body: Body, stored_rule_ids: set[str] | None) -> Record:
    """A rule as v0.77 reads it: sources or a source resource (same for destinations), ports or port_ranges,
    no flow direction check; `stored_rule_ids`: on PUT, the ids a rule may name."""
    has_sources, has_source_resource = body.raw("sources") is not None, body.has("sourceResource")
    has_destinations, has_destination_resource = body.raw("destinations") is not None, body.has("destinationResource")
    if has_sources and has_source_resource:
        raise ApiError(422, "specify either sources or  source resources, not both")  # sic: two spaces
    if has_destinations and has_destination_resource:
        raise ApiError(422, "specify either destinations or  destination resources, not both")
    if not (has_sources or has_source_resource) or not (has_destinations or has_destination_resource):
        raise ApiError(422, "specify either sources or source resources and destinations or destination resources")
    rule_id = body.str("id")
    if stored_rule_ids is not None and rule_id and rule_id not in stored_rule_ids:
        raise ApiError(422, f"invalid rule ID: {rule_id}")
    action = body.str("action")
    protocol = body.str("protocol")
    if action not in ACTIONS:
        raise ApiError(422, "unknown action type")
    if protocol not in PROTOCOLS + ("netbird-ssh",):
        raise ApiError(422, f"unknown protocol type: {protocol}")
    ports = body.str_list("ports") or []
    ranges = body.obj_list("port_ranges") or []
    if ports and ranges:
        raise ApiError(422, "specify either individual ports or port ranges, not both")
    if not all(_port_ok(port, ranges=False) for port in ports):
        raise ApiError(422, "valid port value is in 1..65535 range")
    port_ranges = []
    for item in ranges:
        start, end = item.int("start"), item.int("end")
        if start < 1 or end > 65535:
            raise ApiError(422, "valid port value is in 1..65535 range")
        port_ranges.append({"start": start, "end": end})
    groups = ctx.state.groups
    sources = [gid for gid in body.str_list("sources") or [] if gid in groups]
    authorized = body.raw("authorized_groups")
    authorized_groups: Record = {}
    if protocol == "netbird-ssh" and isinstance(authorized, dict) and authorized:
        if any(gid not in authorized for gid in body.str_list("sources") or []):
            raise ApiError(422, "authorized group for netbird-ssh protocol should be specified for each source group")
        authorized_groups = {str(gid): list(users or []) for gid, users in authorized.items()}
    if protocol in ("all", "icmp") and (ports or port_ranges):
        raise ApiError(422, "for all or icmp protocol ports is not allowed")
    return {
        "name": body.str("name"),
        "description": body.str("description"),
        "enabled": body.bool("enabled"),
        "action": action,
        "bidirectional": body.bool("bidirectional"),
        "protocol": protocol,
        "ports": ports,
        "port_ranges": port_ranges,
        "authorized_groups": authorized_groups,
        "sourceResource": _resource(body, "sourceResource"),
        "destinationResource": _resource(body, "destinationResource"),
        "sources": sources,
        "destinations": [gid for gid in body.str_list("destinations") or [] if gid in groups],
    }


def _policy_from_body(ctx: Ctx, policy_id: str, existing: Record | None = None) -> Record:
    body = ctx.body()
    name = body.str("name")
    if not name:
        raise ApiError(422, "policy name shouldn't be empty")
    rules = body.obj_list("rules") or []
    if not rules:
        raise ApiError(422, "policy rules shouldn't be empty")
    if ctx.dialect.current:
        stored_ids = {existing["id"]} if existing is not None else None  # v0.77: a rule's id is its policy's
        parsed = [_current_rule(ctx, rule, stored_ids) for rule in rules]
    else:
        parsed = [_rule(ctx, rule) for rule in rules]
    checks = body.str_list("source_posture_checks")
    if checks is not None:
        checks = [cid for cid in checks if cid in ctx.state.posture_checks]
    return {
        "id": policy_id,
        "name": name,
        "description": body.str("description"),
        "enabled": body.bool("enabled"),
        "source_posture_checks": checks,
        "rules": parsed,
    }


@route("GET", "/api/policies")
def list_policies(ctx: Ctx) -> Any:
    ctx.require(ctx.service_or_admin, "user is not allowed to read policies")
    return [ctx.render.policy(policy) for policy in ctx.state.policies.values()]  # a slice: creation order


@route("GET", "/api/policies/{policyId}")
def get_policy(ctx: Ctx) -> Any:
    ctx.require(ctx.service_or_admin, "user is not allowed to read policies")
    pid = ctx.params["policyId"]
    policy = ctx.state.policies.get(pid)
    if policy is None:
        raise ApiError(404, f"policy: {pid} not found" if ctx.dialect.current else f"policy with id {pid} not found")
    return ctx.render.policy(policy)


def _store_policy(ctx: Ctx, policy: Record) -> Record:
    """Keep the policy; answer it. v0.77 gives every rule of a write the policy's id, so only the first rule is
    stored, though the answer echoes them all (as observed on a real v0.77.1)."""
    rules = policy["rules"]
    if ctx.dialect.current:
        policy = {**policy, "rules": rules[:1]}
    ctx.state.policies[policy["id"]] = policy
    return ctx.render.policy(policy, rules, written=True)


@route("POST", "/api/policies")
def create_policy(ctx: Ctx) -> Any:
    policy = _policy_from_body(ctx, ctx.state.new_id())
    answer = _store_policy(ctx, policy)
    ctx.event("policy.add", policy["id"], {"name": policy["name"]})
    return answer


@route("PUT", "/api/policies/{policyId}")
def update_policy(ctx: Ctx) -> Any:
    pid = ctx.params["policyId"]
    existing = ctx.state.policies.get(pid)
    if existing is None:
        raise ApiError(404, f"policy: {pid} not found" if ctx.dialect.current else f"couldn't find policy id {pid}")
    policy = _policy_from_body(ctx, pid, existing)
    answer = _store_policy(ctx, policy)
    ctx.event("policy.update", pid, {"name": policy["name"]})
    return answer


@route("DELETE", "/api/policies/{policyId}")
def delete_policy(ctx: Ctx) -> Any:
    pid = ctx.params["policyId"]
    policy = ctx.state.policies.pop(pid, None)
    if policy is None:
        raise ApiError(404, f"policy: {pid} not found" if ctx.dialect.current else f"rule with id {pid} doesn't exist")
    ctx.event("policy.delete", pid, {"name": policy["name"]})
    return ctx.dialect.delete_body()


# posture checks --------------------------------------------------------------------
VERSION = re.compile(r"^v?\d+(\.\d+)*(-?[0-9A-Za-z.+-]+)?$")
COUNTRY = re.compile(r"^[a-zA-Z]{2}$")
POSTURE_ACTIONS = ("allow", "deny")
OS_KEYS = {"android": "min_version", "darwin": "min_version", "ios": "min_version",
           "linux": "min_kernel_version", "windows": "min_kernel_version"}


def _bad(message: str) -> ApiError:
    return ApiError(400, message, verbatim=True)


def _ranges(ctx: Ctx, raw: Any) -> list[str]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise ApiError(400, "couldn't parse JSON request", verbatim=True)
    if not ctx.dialect.netbird and raw and all(isinstance(item, list) for item in raw):
        raw = [cidr for inner in raw for cidr in inner]  # accept the spec sample's nested form
    if not all(isinstance(item, str) for item in raw):
        raise ApiError(400, "couldn't parse JSON request", verbatim=True)
    return list(raw)


def _checks(ctx: Ctx, body: Body) -> tuple[Record, list[tuple[str, str]]]:
    """Validated `checks` plus the version strings to check after the request-shape checks (v0.27 and the spec;
    v0.77 reads and validates them otherwise: :func:`_current_checks`)."""
    checks_body = body.obj("checks")
    result: Record = {}
    versions: list[tuple[str, str]] = []
    if checks_body is None:
        raise _bad("posture checks shouldn't be empty")
    nb_version = checks_body.obj("nb_version_check")
    if nb_version is not None:
        minimum = nb_version.str("min_version")
        if not minimum:
            raise _bad("minimum version for NetBird's version check shouldn't be empty")
        result["nb_version_check"] = {"min_version": minimum}
        versions.append(("nbVersionCheck version", minimum))
    os_version = checks_body.obj("os_version_check")
    if os_version is not None:
        entry: Record = {}
        for os_name, field in OS_KEYS.items():
            item = os_version.obj(os_name)
            if item is None:
                continue
            value = item.str(field)
            if not value:
                raise _bad("minimum version for at least one OS in the OS version check shouldn't be empty")
            entry[os_name] = {field: value}
            label = f"osVersionCheck {os_name} version" if field == "min_version" else f"osVersionCheck  {os_name} kernel version"
            versions.append((label, value))
        if not entry:
            raise _bad("minimum version for at least one OS in the OS version check shouldn't be empty")
        result["os_version_check"] = entry
    geo = checks_body.obj("geo_location_check")
    if geo is not None:
        action = geo.str("action")
        if not action:
            raise _bad("action for geolocation check shouldn't be empty")
        if action not in POSTURE_ACTIONS:
            raise _bad("action for geolocation check is not valid value")
        locations = geo.obj_list("locations") or []
        if not locations:
            raise _bad("locations for geolocation check shouldn't be empty")
        parsed = []
        for location in locations:
            code = location.str("country_code")
            if not code:
                raise _bad("country code for geolocation check shouldn't be empty")
            if not COUNTRY.match(code):
                raise _bad("country code must be 2 letters (ISO 3166-1 alpha-2 format)")
            item = {"country_code": code}
            if location.str("city_name"):
                item["city_name"] = location.str("city_name")
            parsed.append(item)
        result["geo_location_check"] = {"action": action, "locations": parsed}
    network = checks_body.obj("peer_network_range_check")
    if network is not None:
        action = network.str("action")
        if not action:
            raise _bad("action for peer network range check shouldn't be empty")
        if action not in POSTURE_ACTIONS:
            raise _bad("action for peer network range check is not valid value")
        ranges = _ranges(ctx, network.raw("ranges"))
        if not ranges:
            raise _bad("network ranges for peer network range check shouldn't be empty")
        result["peer_network_range_check"] = {"action": action, "ranges": ranges}
    if not result:
        raise _bad("posture checks shouldn't be empty")
    return result, versions


def _current_checks(ctx: Ctx, body: Body) -> Record:
    """`checks` as v0.77 reads them (posture.NewChecksFromAPIPostureCheckUpdate): every given check is kept as sent,
    network ranges parsed (422 `invalid network prefix`); the checks' own validation is :func:`_current_validate`'s."""
    checks_body = body.obj("checks")
    if checks_body is None:
        raise DropConnection()  # v0.77 dereferences the missing `checks`: a nil pointer panic drops the connection
    result: Record = {}
    nb_version = checks_body.obj("nb_version_check")
    if nb_version is not None:
        result["nb_version_check"] = {"min_version": nb_version.str("min_version")}
    os_version = checks_body.obj("os_version_check")
    if os_version is not None:
        result["os_version_check"] = {os_name: {field: item.str(field)} for os_name, field in OS_KEYS.items()
                                      for item in [os_version.obj(os_name)] if item is not None}
    geo = checks_body.obj("geo_location_check")
    if geo is not None:
        locations = []
        for location in geo.obj_list("locations") or []:
            item = {"country_code": location.str("country_code")}
            if location.str("city_name"):
                item["city_name"] = location.str("city_name")
            locations.append(item)
        result["geo_location_check"] = {"action": geo.str("action"), "locations": locations}
    network = checks_body.obj("peer_network_range_check")
    if network is not None:
        try:
            ranges = [_canonical_prefix(item) for item in _ranges(ctx, network.raw("ranges"))]
        except ValueError as exc:
            raise ApiError(422, "invalid network prefix") from exc
        result["peer_network_range_check"] = {"action": network.str("action"), "ranges": ranges}
    process = checks_body.obj("process_check")
    if process is not None:
        # v0.77 answers every path of a process, "" where it has none
        paths = ("linux_path", "mac_path", "windows_path")
        result["process_check"] = {"processes": [{key: item.str(key) for key in paths}
                                                 for item in process.obj_list("processes") or []]}
    return result


# v0.77's posture.Checks.Validate, check by check in its order (the messages name the check; lower-cased on the wire)
CURRENT_OS_VERSIONS = (("android", "min_version", "%s android version: %s is not valid"),
                       ("ios", "min_version", "%s ios version: %s is not valid"),
                       ("darwin", "min_version", "%s  darwin version: %s is not valid"),  # sic: two spaces
                       ("linux", "min_kernel_version", "%s  linux kernel version: %s is not valid"),
                       ("windows", "min_kernel_version", "%s  windows kernel version: %s is not valid"))


def _current_validate(name: str, checks: Record) -> None:
    """422 with v0.77's message for the first thing wrong (name, no check, then each check in turn)."""
    if not name:
        raise ApiError(422, "posture checks name shouldn't be empty")
    if not checks:
        raise ApiError(422, "posture checks shouldn't be empty")
    nb_version = checks.get("nb_version_check")
    if nb_version is not None:
        if not nb_version["min_version"]:
            raise ApiError(422, "NBVersionCheck minimum version shouldn't be empty")
        if not VERSION.match(nb_version["min_version"]):
            raise ApiError(422, f"NBVersionCheck version: {nb_version['min_version']} is not valid")
    os_version = checks.get("os_version_check")
    if os_version is not None:
        if not os_version:
            raise ApiError(422, "OSVersionCheck at least one OS version check is required")
        for os_name, field, message in CURRENT_OS_VERSIONS:
            if os_name in os_version and not VERSION.match(os_version[os_name][field]):
                raise ApiError(422, message % ("OSVersionCheck", os_version[os_name][field]))
    geo = checks.get("geo_location_check")
    if geo is not None:
        if not geo["action"]:
            raise ApiError(422, "GeoLocationCheck action shouldn't be empty")
        if geo["action"] not in POSTURE_ACTIONS:
            raise ApiError(422, "GeoLocationCheck action is not valid")
        if not geo["locations"]:
            raise ApiError(422, "GeoLocationCheck locations shouldn't be empty")
        for location in geo["locations"]:
            if not location["country_code"]:
                raise ApiError(422, "GeoLocationCheck country code shouldn't be empty")
            if not COUNTRY.match(location["country_code"]):
                raise ApiError(422, "GeoLocationCheck country code must be 2 letters (ISO 3166-1 alpha-2 format)")
    network = checks.get("peer_network_range_check")
    if network is not None:
        if not network["action"]:
            raise ApiError(422, "action for peer network range check shouldn't be empty")
        if network["action"] not in POSTURE_ACTIONS:
            raise ApiError(422, "PeerNetworkRangeCheck action is not valid")
        if not network["ranges"]:
            raise ApiError(422, "PeerNetworkRangeCheck network ranges shouldn't be empty")
    process = checks.get("process_check")
    if process is not None:
        if not process["processes"]:
            raise ApiError(422, "ProcessCheck processes shouldn't be empty")
        if any(not any(item.values()) for item in process["processes"]):
            raise ApiError(422, "ProcessCheck path shouldn't be empty")


def _current_posture_from_body(ctx: Ctx, creating: bool) -> Record:
    """v0.77: geo database first (412), the checks as read (422 for a bad prefix), then the validation (422) and,
    for a new check, a unique name (422)."""
    body = ctx.body()
    name = body.str("name")
    checks_body = body.obj("checks")
    if checks_body is not None and checks_body.obj("geo_location_check") is not None and not ctx.state.geo:
        raise ApiError(412, "Geo location database is not initialized. Check the self-hosted Geo database "
                            "documentation at https://docs.netbird.io/selfhosted/geo-support")
    checks = _current_checks(ctx, body)
    _current_validate(name, checks)
    if creating and any(item["name"] == name for item in ctx.state.posture_checks.values()):
        raise ApiError(422, f"posture checks with name {name} already exists")
    return {"name": name, "description": body.str("description"), "checks": checks}


def _canonical_prefix(text: str) -> str:
    """Parse like netip.ParsePrefix: a CIDR is required and it is not masked."""
    if "/" not in text:
        raise ValueError(text)
    address, _sep, bits = text.partition("/")
    if not bits.isdigit():
        raise ValueError(text)
    interface = ipaddress.ip_interface(f"{ipaddress.ip_address(address)}/{int(bits)}")
    return f"{interface.ip}/{interface.network.prefixlen}"


def _posture_from_body(ctx: Ctx, creating: bool) -> Record:
    if ctx.dialect.current:
        return _current_posture_from_body(ctx, creating)
    body = ctx.body()
    name = body.str("name")
    if not name:
        raise _bad("posture checks name shouldn't be empty")
    checks, versions = _checks(ctx, body)
    if "geo_location_check" in checks and not ctx.state.geo:
        raise ApiError(412, "geo location database is not initialized")
    if "peer_network_range_check" in checks:
        try:
            ranges = [_canonical_prefix(item) for item in checks["peer_network_range_check"]["ranges"]]
        except ValueError as exc:
            raise ApiError(422, "invalid network prefix") from exc
        checks["peer_network_range_check"]["ranges"] = ranges
    for label, value in versions:
        if not VERSION.match(value):
            raise ApiError(400, f"{label}: {value} is not valid")
    if creating and any(item["name"] == name for item in ctx.state.posture_checks.values()):
        raise ApiError(412, "posture check name should be unique")
    return {"name": name, "description": body.str("description"), "checks": checks}


def _posture_code(ctx: Ctx, verb: str) -> str:
    """`posture.check.created` (v0.27) or `posture.check.create` (v0.77), and so on."""
    return f"posture.check.{verb if ctx.dialect.current else verb + 'd'}"


# v0.27's words of a missing check, by method (v0.77 says "posture checks: <id> not found" to each)
LEGACY_POSTURE_MISSING = {"GET": "posture checks with id {id} not found", "PUT": "couldn't find posture checks id {id}",
                          "DELETE": "posture checks with id {id} doesn't exist"}


def _posture_missing(ctx: Ctx, method: str, check_id: str) -> str:
    return (f"posture checks: {check_id} not found" if ctx.dialect.current
            else LEGACY_POSTURE_MISSING[method].format(id=check_id))


def _posture_unlinked(ctx: Ctx, check: Record) -> None:
    for policy in ctx.state.policies.values():
        if check["id"] in (policy["source_posture_checks"] or []):
            raise ApiError(412, f"posture checks have been linked to policy: {policy['name']}")


serve(CrudKind(path="/api/posture-checks", param="postureCheckId", store="posture_checks", fields=_posture_from_body,
               missing=_posture_missing, readable=admins, denied="only users with admin power are allowed to view posture checks",
               render=lambda ctx, check, step: ctx.render.posture_check(check), event=_posture_code,
               removing=_posture_unlinked, deleted=lambda ctx: ctx.dialect.delete_body()))
