"""Groups: the All group rules, name uniqueness on create, in-use checks on delete."""

from __future__ import annotations

from typing import Any

from ..state import ALL_GROUP, Record, State
from ..util import ApiError, Body
from .base import Ctx, find, route


def _peer_ids(ctx: Ctx, requested: list[str] | None) -> list[str]:
    """The group's peers; v0.27 refuses an unknown one (422), v0.77 keeps it (its answers leave it out)."""
    peers = requested or []
    for pid in peers:
        if pid not in ctx.state.peers and not ctx.dialect.current:
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


def _resources(ctx: Ctx, body: Body) -> list[Record]:
    """A group's `resources` ([{"id", "type"}], v0.77; other dialects ignore the member as v0.27 does)."""
    if not ctx.dialect.current:
        return []
    return [{"id": item.str("id"), "type": item.str("type")} for item in body.obj_list("resources") or []]


def _refused_all(ctx: Ctx) -> Record | None:
    """The group a server takes for its All group when it refuses to change or delete it (any group may be renamed
    All): v0.27 the first group named All (GetGroupAll; map order there, the built-in group here), v0.77 the group
    named All with the most peers (GetGroupByName; the first of them on a tie)."""
    named = [group for group in ctx.state.groups.values() if group["name"] == ALL_GROUP]
    if ctx.dialect.current and named:
        return max(named, key=lambda group: len(ctx.state.group_members(group)))
    return named[0] if named else None


def _require_view(ctx: Ctx) -> None:
    if not ctx.service_or_admin and ctx.state.dashboard_view(ctx.caller) == "blocked":
        raise ApiError(403, "groups are blocked for users")


@route("GET", "/api/groups")
def list_groups(ctx: Ctx) -> Any:
    _require_view(ctx)
    return ctx.dialect.order([ctx.render.group(group) for group in ctx.state.groups.values()])


@route("GET", "/api/groups/{groupId}")
def get_group(ctx: Ctx) -> Any:
    _require_view(ctx)
    gid = ctx.params["groupId"]
    message = f"group: {gid} not found" if ctx.dialect.current else f"group with id {gid} not found"
    return ctx.render.group(find(ctx.state.groups, gid, message))


@route("POST", "/api/groups")
def create_group(ctx: Ctx) -> Any:
    body = ctx.body()
    name = body.str("name")
    if not name:
        raise ApiError(422, "group name shouldn't be empty")
    if any(group["name"] == name for group in ctx.state.groups.values()):
        raise ApiError(409, f"group with name {name} already exists")
    peers = _peer_ids(ctx, body.str_list("peers"))
    group = {"id": ctx.state.new_id(), "name": name, "issued": "api", "peers": peers,
             "resources": _resources(ctx, body)}
    ctx.state.groups[group["id"]] = group
    ctx.event("group.add", group["id"], {"name": name})
    _membership_events(ctx, group, [], peers)
    return ctx.render.group(group)


@route("PUT", "/api/groups/{groupId}")
def update_group(ctx: Ctx) -> Any:
    gid = ctx.params["groupId"]
    group = find(ctx.state.groups, gid, f"group: {gid} not found" if ctx.dialect.current
                 else f"couldn't find group with id {gid}")
    if group is _refused_all(ctx):
        raise ApiError(422, "updating group all is not allowed")
    body = ctx.body()
    name = body.str("name")
    if not name:
        raise ApiError(422, "group name shouldn't be empty")
    peers = _peer_ids(ctx, body.str_list("peers"))
    before = group["peers"]
    if ctx.dialect.current and name != group["name"]:
        ctx.event("group.update", gid, {"old_name": group["name"], "new_name": name})  # v0.77 records a rename
    group["name"] = name
    group["peers"] = peers
    group["resources"] = _resources(ctx, body)  # v0.77 replaces them: a body without resources drops them
    _membership_events(ctx, group, before, peers)
    return ctx.render.group(group)


def group_usage(state: State, gid: str, current: bool = False) -> str | None:
    """The verbatim 400 message when a group is still referenced, first match wins (`current`: v0.77's checks,
    which add network resources and routers and look at every group list of a route)."""
    group = state.groups[gid]
    if current and group.get("resources"):
        return f"group has been linked to network resource: {group['resources'][0]['id']}"
    for item in state.routes.values():
        lists = [item["groups"]] + ([item["peer_groups"], item.get("access_control_groups") or []] if current else [])
        if any(gid in listed for listed in lists):
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
    if current:
        for router in state.network_routers.values():
            if gid in router["peer_groups"]:
                return f"group has been linked to network router: {router['id']}"
    if gid in state.dns["disabled_management_groups"]:
        return f"group has been linked to disabled DNS management groups: {group['name']}"
    return None


@route("DELETE", "/api/groups/{groupId}")
def delete_group(ctx: Ctx) -> Any:
    gid = ctx.params["groupId"]
    group = ctx.state.groups.get(gid)
    current = ctx.dialect.current
    if group is None:
        if current:  # v0.77 collects the errors of a batch delete and answers the first one verbatim
            raise ApiError(400, f"group: {gid} not found", verbatim=True)
        if ctx.dialect.netbird:
            return {}  # v0.27 answers an unknown id with success
        raise ApiError(404, f"group with id {gid} not found")
    if group["name"] == ALL_GROUP and (current or group is _refused_all(ctx)):  # v0.77: any group named All
        if current:
            raise ApiError(400, "deleting group ALL is not allowed", verbatim=True)
        raise ApiError(422, "deleting group all is not allowed")
    usage = group_usage(ctx.state, gid, current)
    if usage:
        raise ApiError(400, usage, verbatim=True)
    del ctx.state.groups[gid]
    ctx.event("group.delete", gid, {"name": group["name"]})
    return ctx.dialect.delete_body()
