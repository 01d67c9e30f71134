"""Peers: list/get with accessible peers, update, delete (peers join via /_emulator/enroll)."""

from __future__ import annotations

import ipaddress
import re
from typing import Any

from ..state import Record, State
from ..util import ApiError
from .base import CURRENT, Ctx, route


def _regular_visible(ctx: Ctx) -> set[str] | None:
    """Peer ids a regular user may see, or None when the caller sees everything."""
    if ctx.service_or_admin:
        return None
    if ctx.state.dashboard_view(ctx.caller) == "blocked":
        return set()
    own = [pid for pid, peer in ctx.state.peers.items() if peer["user_id"] == ctx.caller_id]
    visible = set(own)
    for pid in own:
        visible.update(ctx.state.accessible_peers(pid))
    return visible


def _like(text: str) -> Any:
    """SQLite's LIKE '%text%', as v0.77 filters peers by name and address: any case, _ one character, % any."""
    return re.compile("".join("." if c == "_" else ".*" if c == "%" else re.escape(c) for c in text), re.I | re.S)


def _filtered(ctx: Ctx, peers: list[Record]) -> list[Record]:
    """v0.77 filters the list by ?name= and ?ip= (substrings, LIKE) for a caller who may read every peer; a regular
    user's list ignores them, as v0.27 ignores both."""
    if not ctx.dialect.current or not ctx.service_or_admin:
        return peers
    name, address = (ctx.query.get(key, [""])[-1] for key in ("name", "ip"))
    if name:
        peers = [peer for peer in peers if _like(name).search(peer["name"])]
    if address:
        peers = [peer for peer in peers if _like(address).search(peer.get("ip") or "")]
    return peers


@route("GET", "/api/peers")
def list_peers(ctx: Ctx) -> Any:
    state = ctx.state
    visible = _regular_visible(ctx)
    index = state.peer_group_index()
    counts = state.accessible_counts()
    peers = _filtered(ctx, [p for pid, p in state.peers.items() if visible is None or pid in visible])
    return ctx.dialect.order([ctx.render.peer(peer, index.get(peer["id"], []), accessible_count=counts[peer["id"]])
                              for peer in peers])


def render_single(ctx: Ctx, peer: Record) -> Record:
    state = ctx.state
    if ctx.dialect.current:  # v0.77 lists them apart: GET /api/peers/{id}/accessible-peers
        return ctx.render.peer(peer, state.groups_of_peer(peer["id"]))
    return ctx.render.peer(peer, state.groups_of_peer(peer["id"]), accessible=state.accessible_peers(peer["id"]))


@route("GET", "/api/peers/{peerId}/accessible-peers", CURRENT)
def list_accessible_peers(ctx: Ctx) -> Any:
    """v0.77: the peers a peer reaches by policy; a regular user gets [] for a peer not its own (or when the
    account blocks regular users' view), 404 for an unknown one."""
    state = ctx.state
    pid = ctx.params["peerId"]
    peer = state.peers.get(pid)
    if not ctx.service_or_admin:
        if state.account and state.account["settings"].get("regular_users_view_blocked"):
            return []
        if peer is None:
            raise ApiError(404, "peer not found")
        if peer["user_id"] != ctx.caller_id:
            return []
    if peer is None:
        return []  # the network map of an unknown peer is empty
    return [ctx.render.accessible_peer(state.peers[other]) for other in state.accessible_peers(pid)]


@route("GET", "/api/peers/{peerId}")
def get_peer(ctx: Ctx) -> Any:
    pid = ctx.params["peerId"]
    peer = ctx.state.peers.get(pid)
    if peer is None:
        if ctx.dialect.current:
            raise ApiError(404, f"peer not found: {pid}")
        account_id = ctx.state.account["id"] if ctx.state.account else ""
        raise ApiError(404, f"peer with {pid} not found under account {account_id}")
    visible = _regular_visible(ctx)
    if visible is not None and pid not in visible:
        raise ApiError(500, "internal server error")  # what real servers answer here
    return render_single(ctx, peer)


@route("PUT", "/api/peers/{peerId}")
def update_peer(ctx: Ctx) -> Any:
    state = ctx.state
    pid = ctx.params["peerId"]
    peer = state.peers.get(pid)
    if peer is None:
        raise ApiError(404, f"peer not found: {pid}" if ctx.dialect.current else f"peer {pid} not found")
    body = ctx.body()
    name = body.str("name")
    ssh = body.bool("ssh_enabled")
    expiration = body.bool("login_expiration_enabled")
    body.bool("approval_required")  # type-checked, ignored like in the open-source server
    # v0.77 reads inactivity_expiration_enabled like the other members: left out, it is false
    inactivity = body.bool("inactivity_expiration_enabled") if ctx.dialect.current else peer.get("inactivity_expiration_enabled", False)
    if ctx.dialect.current and body.raw("ip") is not None:
        # v0.77 moves the peer first, so a later refusal of the other members leaves the new address in place
        _move_peer(ctx, peer, body.str("ip"))
    if not name:
        raise ApiError(500, "internal server error")
    if expiration != peer["login_expiration_enabled"] and not peer["user_id"]:
        raise ApiError(412, "this peer hasn't been added with the sso login, therefore the login expiration can't be updated")
    if inactivity != peer.get("inactivity_expiration_enabled", False) and not peer["user_id"]:
        raise ApiError(412, "this peer hasn't been added with the sso login, therefore the inactivity expiration can't be updated")
    if ssh != peer["ssh_enabled"]:
        peer["ssh_enabled"] = ssh
        ctx.event("peer.ssh.enable" if ssh else "peer.ssh.disable", peer["ip"], state.peer_meta(peer))
    if name != peer["name"]:
        # the peer's own current label still counts as taken (Host -> host gives host-1)
        new_label = state.make_label(name)
        state.labels.discard(peer["dns_label"])
        state.labels.add(new_label)
        peer["dns_label"] = new_label
        peer["name"] = name
        ctx.event("peer.rename", pid, state.peer_meta(peer))
    if expiration != peer["login_expiration_enabled"]:
        peer["login_expiration_enabled"] = expiration
        code = "peer.login.expiration.enable" if expiration else "peer.login.expiration.disable"
        ctx.event(code, peer["ip"], state.peer_meta(peer))
    if inactivity != peer.get("inactivity_expiration_enabled", False):
        peer["inactivity_expiration_enabled"] = inactivity
        code = "peer.inactivity.expiration.enable" if inactivity else "peer.inactivity.expiration.disable"
        ctx.event(code, peer["ip"], state.peer_meta(peer))
    return render_single(ctx, peer)


def _move_peer(ctx: Ctx, peer: Record, raw: str) -> None:
    """v0.77's PUT member `ip`: an address (else 422), unchanged is no change; a new one must lie in the account's
    network and be free (422, worded like the server's wrapped, lower-cased errors); `peer.ip.update` event."""
    state = ctx.state
    try:
        address = ipaddress.ip_address(raw)
    except ValueError as exc:
        raise ApiError(422, f'invalid ip address {raw}: parseaddr("{raw}"): unable to parse ip'.lower()) from exc
    if str(address) == peer["ip"]:
        return
    failure = "update peer ip transaction: "
    network = state.network()
    if address.version != 4 or address not in network:
        raise ApiError(422, failure + f"ip {address} is not within the account network range {network}")
    for other in state.peers.values():
        if other["id"] != peer["id"] and other["ip"] == str(address):
            raise ApiError(422, failure + f"ip {address} is already assigned to peer {other['id']}")
    meta = dict(state.peer_meta(peer), old_ip=peer["ip"], ip=str(address))
    state.used_ips.discard(peer["ip"])
    state.used_ips.add(str(address))
    peer["ip"] = str(address)
    ctx.event("peer.ip.update", peer["id"], meta)


def remove_peer(state: State, peer: Record, initiator: str) -> None:
    """Delete a peer: out of every group, single-peer routes disabled, event emitted."""
    pid = peer["id"]
    for group in state.groups.values():
        if pid in group["peers"]:
            group["peers"] = [item for item in group["peers"] if item != pid]
    for item in state.routes.values():
        if item["peer"] == pid:
            item["peer"] = ""
            item["enabled"] = False
    state.event("user.peer.delete", initiator, pid, state.peer_meta(peer))
    state.labels.discard(peer["dns_label"])
    state.used_ips.discard(peer["ip"])
    del state.peers[pid]


@route("DELETE", "/api/peers/{peerId}")
def delete_peer(ctx: Ctx) -> Any:
    pid = ctx.params["peerId"]
    peer = ctx.state.peers.get(pid)
    if peer is None:
        # sic: v0.77 words it "peer <id> account not found"
        raise ApiError(404, f"peer {pid} account not found" if ctx.dialect.current else f"peer {pid} not found")
    remove_peer(ctx.state, peer, ctx.caller_id)
    return ctx.dialect.delete_body()
