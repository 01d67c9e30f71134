"""Groups: the All group rules, name uniqueness on create, in-use checks on delete."""

from __future__ import annotations

from typing import Any

from ..state import ALL_GROUP, Record, State
from ..util import ApiError
from .base import Ctx, find, route


def _peer_ids(ctx: Ctx, requested: list[str] | None) -> list[str]:
    peers = requested or []
    for pid in peers:
        if pid not in ctx.state.peers:
            raise ApiError(422, f'peer with id "{pid}" not found')
    return peers


def _membership_events(ctx: Ctx, group: Record, before: list[str], after: list[str]) -> None:
    state = ctx.state
    old, new = set(before), set(after)
    for code, changed in (("peer.group.add", [p for p in dict.fromkeys(after) if p not in old]),
                          ("peer.group.delete", [p for p in dict.fromkeys(before) if p not in new])):
        for pid in changed:
            peer = state.peers.get(pid)
            if peer is None:
                continue
            ctx.event(code, pid, {"group": group["name"], "group_id": group["id"],
                                  "peer_ip": peer["ip"], "peer_fqdn": state.fqdn(peer)})


def _require_view(ctx: Ctx) -> None:
    if not ctx.service_or_admin and ctx.state.dashboard_view(ctx.caller) == "blocked":
        raise ApiError(403, "groups are blocked for users")


@route("GET", "/api/groups")
def list_groups(ctx: Ctx) -> Any:
    _require_view(ctx)
    return [ctx.render.group(group) for group in ctx.dialect.order(list(ctx.state.groups.values()))]


@route("GET", "/api/groups/{groupId}")
def get_group(ctx: Ctx) -> Any:
    _require_view(ctx)
    gid = ctx.params["groupId"]
    return ctx.render.group(find(ctx.state.groups, gid, f"group with id {gid} not found"))


@route("POST", "/api/groups")
def create_group(ctx: Ctx) -> Any:
    body = ctx.body()
    name = body.str("name")
    if not name:
        raise ApiError(422, "group name shouldn't be empty")
    if any(group["name"] == name for group in ctx.state.groups.values()):
        raise ApiError(409, f"group with name {name} already exists")
    peers = _peer_ids(ctx, body.str_list("peers"))
    group = {"id": ctx.state.new_id(), "name": name, "issued": "api", "peers": peers}
    ctx.state.groups[group["id"]] = group
    ctx.event("group.add", group["id"], {"name": name})
    _membership_events(ctx, group, [], peers)
    return ctx.render.group(group)


@route("PUT", "/api/groups/{groupId}")
def update_group(ctx: Ctx) -> Any:
    gid = ctx.params["groupId"]
    group = find(ctx.state.groups, gid, f"couldn't find group with id {gid}")
    if group["name"] == ALL_GROUP:
        raise ApiError(422, "updating group all is not allowed")
    body = ctx.body()
    name = body.str("name")
    if not name:
        raise ApiError(422, "group name shouldn't be empty")
    peers = _peer_ids(ctx, body.str_list("peers"))
    before = group["peers"]
    group["name"] = name
    group["peers"] = peers
    _membership_events(ctx, group, before, peers)
    return ctx.render.group(group)


def group_usage(state: State, gid: str) -> str | None:
    """The verbatim 400 message when a group is still referenced, first match wins."""
    group = state.groups[gid]
    for item in state.routes.values():
        if gid in item["groups"]:
            return f"group has been linked to route: {item['network_id']}"
    for item in state.nameservers.values():
        if gid in item["groups"]:
            return f"group has been linked to name server groups: {item['name']}"
    for item in state.policies.values():
        if any(gid in rule["sources"] or gid in rule["destinations"] for rule in item["rules"]):
            return f"group has been linked to policy: {item['name']}"
    for item in state.setup_keys.values():
        if gid in item["auto_groups"]:
            return f"group has been linked to setup key: {item['name']}"
    for item in state.users.values():
        if gid in item["auto_groups"]:
            return f"group has been linked to user: {item['id']}"
    if gid in state.dns["disabled_management_groups"]:
        return f"group has been linked to disabled DNS management groups: {group['name']}"
    return None


@route("DELETE", "/api/groups/{groupId}")
def delete_group(ctx: Ctx) -> Any:
    gid = ctx.params["groupId"]
    group = ctx.state.groups.get(gid)
    if group is None:
        if ctx.dialect.netbird:
            return {}  # real servers answer an unknown id with success
        raise ApiError(404, f"group with id {gid} not found")
    if group["name"] == ALL_GROUP:
        raise ApiError(422, "deleting group all is not allowed")
    usage = group_usage(ctx.state, gid)
    if usage:
        raise ApiError(400, usage, verbatim=True)
    del ctx.state.groups[gid]
    ctx.event("group.delete", gid, {"name": group["name"]})
    return ctx.dialect.delete_body()
