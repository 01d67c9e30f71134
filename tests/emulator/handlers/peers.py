"""Peers: list/get with accessible peers, update, delete (peers join via /_emulator/enroll); v0.77's temporary access
and jobs."""

from __future__ import annotations

import ipaddress
import re
from typing import Any

from ..state import Record, State
from ..util import ApiError, iso, now
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
    if ctx.dialect.current and body.raw("ipv6") is not None:
        _readdress_v6(ctx, peer, body.str("ipv6"))  # v0.77.1: after the IPv4 move, before the other members
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


def _readdress_v6(ctx: Ctx, peer: Record, raw: str) -> None:
    """v0.77.1's PUT member `ipv6` (since v0.71.0), in the server's order and words: an IPv6 address (else 422), an
    account with an IPv6 range (else 412), the address in it (422), the peer in an IPv6-enabled group (412), unchanged
    is no change, another peer's address 422. (The addresses the server gives peers itself are not modelled.)"""
    state = ctx.state
    try:
        address = ipaddress.ip_address(raw)
    except ValueError as exc:
        raise ApiError(422, f'invalid IPv6 address {raw}: ParseAddr("{raw}"): unable to parse IP') from exc
    if address.version != 6:
        raise ApiError(422, f"address {raw} is not IPv6")
    network = state.account.get("network_v6")
    if not network:
        raise ApiError(412, "IPv6 is not configured for this account")
    if address not in ipaddress.ip_network(network):
        raise ApiError(422, f"IP {address} is not within the account IPv6 range {network}")
    enabled = state.account["settings"].get("ipv6_enabled_groups") or []
    if not any(peer["id"] in (state.groups.get(gid) or {}).get("peers", ()) for gid in enabled):
        raise ApiError(412, "peer is not in any IPv6-enabled group")
    if peer.get("ipv6") == str(address):
        return
    for other in state.peers.values():
        if other["id"] != peer["id"] and other.get("ipv6") == str(address):
            raise ApiError(422, f"IPv6 {address} is already assigned to peer {other['name']}")
    peer["ipv6"] = str(address)


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
    # v0.77.1: the policies whose rules name the peer as a resource go with it (a temporary access peer's), each
    # with its event; a browser client's peer (kernel "wasm") leaves no event of its own
    for policy_id in [key for key, policy in state.policies.items() if _names_peer(policy, pid)]:
        state.event("policy.delete", initiator, policy_id, {"name": state.policies.pop(policy_id)["name"]})
    if peer.get("kernel_version") != "wasm":
        state.event("user.peer.delete", initiator, pid, state.peer_meta(peer))
    state.labels.discard(peer["dns_label"])
    state.used_ips.discard(peer["ip"])
    kept(state, "peer_jobs")
    for job_id in [key for key, job in state.peer_jobs.items() if job["peer_id"] == pid]:
        del state.peer_jobs[job_id]
    del state.peers[pid]


def _names_peer(policy: Record, pid: str) -> bool:
    if policy.get("temporary_peer") == pid:
        return True
    return any((rule.get(end) or {}).get("id") == pid and (rule.get(end) or {}).get("type") == "peer"
               for rule in policy.get("rules") or () for end in ("sourceResource", "destinationResource"))


def _refuse_linked_delete(state: State, pid: str) -> None:
    """v0.77.1 keeps a peer a reverse-proxy service targets (412, checked first), or that a network router routes
    through as its peer (412, the first such router; a router of peer groups does not count). Ingress ports (the
    third 412) are cloud-only: open-source servers never have them."""
    for service in kept(state, "proxy_services").values():
        if any(target.get("target_id") == pid for target in service.get("targets") or ()):
            raise ApiError(412, f"peer {pid} is in use by proxy {service['id']}")
    for router in state.network_routers.values():
        if router["peer"] == pid:
            raise ApiError(412, f"peer is linked to a network router: {router['id']}")


@route("DELETE", "/api/peers/{peerId}")
def delete_peer(ctx: Ctx) -> Any:
    pid = ctx.params["peerId"]
    peer = ctx.state.peers.get(pid)
    if peer is None:
        # sic: v0.77 words it "peer <id> account not found"
        raise ApiError(404, f"peer {pid} account not found" if ctx.dialect.current else f"peer {pid} not found")
    if ctx.dialect.current:
        _refuse_linked_delete(ctx.state, pid)
    remove_peer(ctx.state, peer, ctx.caller_id)
    return ctx.dialect.delete_body()


def kept(state: State, name: str) -> dict[str, Record]:
    """A collection this module adds to the state (kept on it, so a reset starts without it and the state file keeps it)."""
    records = getattr(state, name, None)
    if records is None:
        records = {}
        setattr(state, name, records)
    return records


# temporary access (v0.77) ------------------------------------------------------------------
TEMPORARY_RULE = re.compile(r"^(?:(all|icmp)|(tcp|udp)/(\d+)(?:-(\d+))?)$")


def _temporary_rule(text: str) -> tuple[str, list[Record]] | None:
    """(protocol, port ranges) of a rule such as tcp/22 or udp/53-60, or None where v0.77 fails (a bare 500)."""
    match = TEMPORARY_RULE.match(text.lower())
    if not match:
        return None
    if match.group(1):
        return match.group(1), [{"start": 0, "end": 0}]
    start, end = int(match.group(3)), int(match.group(4) or match.group(3))
    if not 1 <= start <= end <= 65535:
        return None
    return match.group(2), [{"start": start, "end": end}]


@route("POST", "/api/peers/{peerId}/temporary-access", CURRENT)
def create_temporary_access(ctx: Ctx) -> Any:
    """v0.77.1 as observed: an ephemeral peer of the key (os "js", kernel "wasm") and one policy per rule, from a
    source resource (it) to a destination resource (the peer); a key known already: 412; an empty name or a rule it
    cannot read: a bare 500, the second after the peer is made (kept, as the real server keeps it)."""
    state = ctx.state
    target = state.peers.get(ctx.params["peerId"])
    if target is None:
        raise ApiError(404, f"peer not found: {ctx.params['peerId']}")
    body = ctx.body()
    name, key = body.str("name"), body.str("wg_pub_key")
    rules = body.str_list("rules")
    if any(peer.get("wg_pub_key") == key for peer in state.peers.values()):
        raise ApiError(412, "peer has been already registered")
    if not name:
        raise ApiError(500, "internal server error")
    peer = state.add_peer(name, os="js ", kernel_version="wasm", version="", ephemeral=True, connected=False,
                          user_id=ctx.caller_id, wg_pub_key=key)  # v0.77.1 records no event of a temporary peer
    for text in rules or []:
        parsed = _temporary_rule(text)
        if parsed is None:
            raise ApiError(500, "internal server error")
        protocol, ranges = parsed
        policy_id = state.new_id()
        title = f"Temporary access policy for peer {name}"
        state.policies[policy_id] = {
            "id": policy_id, "name": title, "description": title, "enabled": True, "source_posture_checks": None,
            "temporary_peer": peer["id"],
            "rules": [{"name": "Temporary access rule", "description": "Temporary access rule", "enabled": True,
                       "action": "accept", "bidirectional": False, "protocol": protocol, "ports": [], "port_ranges": ranges,
                       "authorized_groups": {}, "sources": [], "destinations": [],
                       "sourceResource": {"id": peer["id"], "type": "peer"},
                       "destinationResource": {"id": target["id"], "type": "peer"}}],
        }
        ctx.event("policy.add", policy_id, {"name": title})
    return {"id": peer["id"], "name": name, "rules": rules}


# jobs (v0.77, experimental) ------------------------------------------------------------------
JOBS_MIN_VERSION = (0, 64, 0)


def _version(text: str) -> tuple[int, ...]:
    parts = re.findall(r"\d+", str(text or ""))[:3]
    return tuple(int(part) for part in parts) if parts else (0,)


def _job_peer(ctx: Ctx) -> Record:
    peer = ctx.state.peers.get(ctx.params["peerId"])
    if peer is None:
        raise ApiError(404, f"peer {ctx.params['peerId']} account not found")
    return peer


def _render_job(state: State, job: Record) -> Record:
    """A job as v0.77 answers it. No agent runs here: a job of a connected peer has run by the first read after it
    was submitted (succeeded, with an upload key), one of a disconnected peer stays pending."""
    peer = state.peers.get(job["peer_id"])
    if job["status"] == "pending" and job["reads"] > 0 and peer is not None and peer.get("connected"):
        job.update(status="succeeded", completed_at=now(), upload_key=f"upload_key_{job['id']}")
    job["reads"] += 1
    return {"id": job["id"], "created_at": iso(job["created_at"]), "completed_at": iso(job["completed_at"]) if job["completed_at"] else None,
            "triggered_by": job["triggered_by"], "status": job["status"], "failed_reason": None,
            "workload": {"type": "bundle", "parameters": dict(job["parameters"]),
                         "result": {"upload_key": job["upload_key"]} if job["upload_key"] else {}}}


@route("GET", "/api/peers/{peerId}/jobs", CURRENT)
def list_jobs(ctx: Ctx) -> Any:
    peer = _job_peer(ctx)
    return [_render_job(ctx.state, job) for job in kept(ctx.state, "peer_jobs").values() if job["peer_id"] == peer["id"]]


@route("GET", "/api/peers/{peerId}/jobs/{jobId}", CURRENT)
def get_job(ctx: Ctx) -> Any:
    peer = _job_peer(ctx)
    job = kept(ctx.state, "peer_jobs").get(ctx.params["jobId"])
    if job is None or job["peer_id"] != peer["id"]:
        raise ApiError(404, f"job {ctx.params['jobId']} not found")
    return _render_job(ctx.state, job)


@route("POST", "/api/peers/{peerId}/jobs", CURRENT)
def create_job(ctx: Ctx) -> Any:
    """v0.77.1's checks, in its order: the workload's type, the bundle's numbers, the peer, the agent's version."""
    body = ctx.body()
    workload = body.obj("workload")
    kind = workload.str("type") if workload is not None else ""
    if kind != "bundle":
        raise ApiError(400, f"unsupported job type: {kind}" if kind else "could not determine job type: unexpected end of json input")
    parameters = workload.obj("parameters") if workload is not None else None
    values = {"bundle_for": parameters.bool("bundle_for"), "bundle_for_time": parameters.int("bundle_for_time"),
              "log_file_count": parameters.int("log_file_count"), "anonymize": parameters.bool("anonymize")} if parameters else \
        {"bundle_for": False, "bundle_for_time": 0, "log_file_count": 0, "anonymize": False}
    if values["bundle_for"] and not 1 <= values["bundle_for_time"] <= 5:
        raise ApiError(400, f"bundle_for_time must be between 1 and 5, got {values['bundle_for_time']}")
    if not 1 <= values["log_file_count"] <= 1000:
        raise ApiError(400, f"log-file-count must be between 1 and 1000, got {values['log_file_count']}")
    peer = ctx.state.peers.get(ctx.params["peerId"])
    if peer is None:
        raise ApiError(404, f"peer not found: {ctx.params['peerId']}")
    if _version(peer.get("version")) < JOBS_MIN_VERSION:
        raise ApiError(412, f"peer version {peer.get('version')} does not meet the minimum required version 0.64.0 for remote jobs")
    job = {"id": ctx.state.new_id(), "peer_id": peer["id"], "created_at": now(), "completed_at": None,
           "triggered_by": ctx.caller_id, "status": "pending", "parameters": values, "upload_key": "", "reads": 0}
    kept(ctx.state, "peer_jobs")[job["id"]] = job
    return _render_job(ctx.state, job)
