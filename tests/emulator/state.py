"""In-memory model of one account, with the helpers every resource handler shares."""

from __future__ import annotations

import datetime as dt
import ipaddress
import random
import re
import threading
from typing import Any

from .util import new_uuid, new_xid, now

Record = dict[str, Any]

# the account id: a UUID like the real servers' accounts (ids inside error messages look alike), drawn from an RNG of
# its own so that the other ids of a seed stay what they were
ACCOUNT_ID_SEED = "account"
DNS_DOMAIN = "netbird.selfhosted"
NETWORK = ipaddress.ip_network("100.64.0.0/16")
ALL_GROUP = "All"

# activity code -> human text (activity/codes.go of the reference server)
ACTIVITIES = {
    "user.peer.add": "Peer added",
    "setupkey.peer.add": "Peer added",
    "peer.user.add": "Peer added",  # v0.77's codes of the two above
    "peer.setupkey.add": "Peer added",
    "user.create": "User created",
    "user.invite.link.accept": "User invite link accepted",
    "user.invite.link.delete": "User invite link deleted",
    "user.invite.link.regenerate": "User invite link regenerated",
    "user.invite.link.create": "User invite link created",
    "user.join": "User joined",
    "user.invite": "User invited",
    "account.create": "Account created",
    "user.peer.delete": "Peer deleted",
    "policy.add": "Policy added",
    "policy.update": "Policy updated",
    "policy.delete": "Policy deleted",
    "setupkey.add": "Setup key created",
    "setupkey.update": "Setup key updated",
    "setupkey.revoke": "Setup key revoked",
    "setupkey.overuse": "Setup key overused",
    "group.add": "Group created",
    "group.update": "Group updated",
    "peer.group.add": "Group added to peer",
    "peer.group.delete": "Group removed from peer",
    "user.group.add": "Group added to user",
    "user.group.delete": "Group removed from user",
    "user.role.update": "User role updated",
    "setupkey.group.add": "Group added to setup key",
    "setupkey.group.delete": "Group removed from user setup key",
    "dns.setting.disabled.management.group.add": "Group added to disabled management DNS setting",
    "dns.setting.disabled.management.group.delete": "Group removed from disabled management DNS setting",
    "route.add": "Route created",
    "route.delete": "Route deleted",
    "route.update": "Route updated",
    "peer.ssh.enable": "Peer SSH server enabled",
    "peer.ssh.disable": "Peer SSH server disabled",
    "peer.rename": "Peer renamed",
    "peer.login.expiration.enable": "Peer login expiration enabled",
    "peer.login.expiration.disable": "Peer login expiration disabled",
    "nameserver.group.add": "Nameserver group created",
    "nameserver.group.delete": "Nameserver group deleted",
    "nameserver.group.update": "Nameserver group updated",
    "account.setting.peer.login.expiration.enable": "Account peer login expiration enabled",
    "account.setting.peer.login.expiration.disable": "Account peer login expiration disabled",
    "account.setting.peer.login.expiration.update": "Account peer login expiration duration updated",
    "personal.access.token.create": "Personal access token created",
    "personal.access.token.delete": "Personal access token deleted",
    "service.user.create": "Service user created",
    "service.user.delete": "Service user deleted",
    "user.block": "User blocked",
    "user.unblock": "User unblocked",
    "user.delete": "User deleted",
    "group.delete": "Group deleted",
    "user.peer.login": "User logged in peer",
    "peer.login.expire": "Peer login expired",
    "transferred.owner.role": "Transferred owner role",
    "posture.check.created": "Posture check created",
    "posture.check.updated": "Posture check updated",
    "posture.check.deleted": "Posture check deleted",
    # v0.77 words the posture check codes apart
    "posture.check.create": "Posture check created",
    "posture.check.update": "Posture check updated",
    "posture.check.delete": "Posture check deleted",
    "resource.group.add": "Resource added to group",
    "resource.group.delete": "Resource removed from group",
    # v0.77's account settings
    "account.peer.inactivity.expiration.enable": "Account peer inactivity expiration enabled",
    "account.peer.inactivity.expiration.disable": "Account peer inactivity expiration disabled",
    "account.peer.inactivity.expiration.update": "Account peer inactivity expiration duration updated",
    "account.setting.group.propagation.enable": "User group propagation enabled",
    "account.setting.group.propagation.disable": "User group propagation disabled",
    "account.setting.routing.peer.dns.resolution.enable": "Account routing peer DNS resolution enabled",
    "account.setting.routing.peer.dns.resolution.disable": "Account routing peer DNS resolution disabled",
    "account.dns.domain.update": "Account DNS domain updated",
    "account.setting.lazy.connection.enable": "Account lazy connection enabled",
    "account.setting.lazy.connection.disable": "Account lazy connection disabled",
    "account.network.range.update": "Account network range updated",
    "account.settings.auto.version.update": "Account AutoUpdate Version updated",
    "account.setting.auto.update.always.enable": "Account auto-update always enabled",
    "account.setting.auto.update.always.disable": "Account auto-update always disabled",
    "account.setting.ipv6.enable": "Account IPv6 overlay enabled",
    "account.setting.ipv6.disable": "Account IPv6 overlay disabled",
    "account.setting.peer.expose.enable": "Account peer expose enabled",
    "account.setting.peer.expose.disable": "Account peer expose disabled",
    "account.setting.metrics.push.enable": "Account metrics push enabled",
    "account.setting.metrics.push.disable": "Account metrics push disabled",
    "setupkey.delete": "Setup key deleted",
    "peer.inactivity.expiration.enable": "Peer inactivity expiration enabled",
    "peer.inactivity.expiration.disable": "Peer inactivity expiration disabled",
    "peer.ip.update": "Peer IP updated",
    "network.create": "Network created",
    "network.update": "Network updated",
    "network.delete": "Network deleted",
    "network.resource.create": "Network resource created",
    "network.resource.update": "Network resource updated",
    "network.resource.delete": "Network resource deleted",
    "network.router.create": "Network router created",
    "network.router.update": "Network router updated",
    "network.router.delete": "Network router deleted",
    "dns.zone.create": "DNS zone created",
    "dns.zone.update": "DNS zone updated",
    "dns.zone.delete": "DNS zone deleted",
    "dns.zone.record.create": "DNS zone record created",
    "dns.zone.record.update": "DNS zone record updated",
    "dns.zone.record.delete": "DNS zone record deleted",
    "user.approve": "User approved",
    "user.password.change": "User password changed",
    "user.reject": "User rejected",
}

MAX_EVENTS = 10000


def agent_os(os_text: str) -> str:
    """The agent's own OS (Go's GOOS), which the agent reports beside the free-text `os` ("Debian GNU/Linux 12"):
    what a server judges a routing peer by."""
    text = str(os_text or "").lower()
    for goos, words in (("windows", ("windows",)), ("darwin", ("darwin", "mac")), ("android", ("android",)),
                        ("ios", ("ios", "iphone", "ipad")), ("freebsd", ("freebsd",))):
        if any(word in text for word in words):
            return goos
    return "linux"


class State:
    """All resources of the single account. Callers hold `lock` around any access."""

    def __init__(self, seed: int = 1, idp: bool = True, geo: bool = True, xid_keys: bool = False) -> None:
        self.lock = threading.RLock()
        self.xid_keys = xid_keys  # v0.77 gives setup keys xid ids; v0.27 a hash of the key
        self.rng = random.Random(seed)
        self.id_sequence = 0  # ids made so far: a later one sorts after an earlier one (util.new_xid)
        self.idp = idp
        self.geo = geo
        # what GET /api/instance/version reports, when set (/_emulator/config "version"): another release than the dialect's
        self.version: str | None = None
        self.account: Record | None = None
        self.users: dict[str, Record] = {}
        self.tokens: dict[str, Record] = {}
        self.token_by_hash: dict[str, str] = {}
        self.peers: dict[str, Record] = {}
        self.groups: dict[str, Record] = {}
        self.policies: dict[str, Record] = {}
        self.posture_checks: dict[str, Record] = {}
        self.routes: dict[str, Record] = {}
        self.nameservers: dict[str, Record] = {}
        self.setup_keys: dict[str, Record] = {}
        self.dns: Record = {"disabled_management_groups": []}
        # v0.77 only: networks, their resources and routers (by id), DNS zones (records inside their zone)
        self.networks: dict[str, Record] = {}
        self.network_resources: dict[str, Record] = {}
        self.network_routers: dict[str, Record] = {}
        self.zones: dict[str, Record] = {}
        self.events: list[Record] = []
        self.event_seq = 0
        self.used_ips: set[str] = set()
        self.labels: set[str] = set()
        # the earliest moment to come at which an answer rendered since this was last cleared changes by itself (a
        # login or a setup key expires): the answer cache keeps that answer until then
        self.changes_at: dt.datetime | None = None

    def note_change_at(self, moment: dt.datetime) -> None:
        if moment > now() and (self.changes_at is None or moment < self.changes_at):
            self.changes_at = moment

    # identifiers -----------------------------------------------------------------
    def new_id(self) -> str:
        self.id_sequence += 1
        return new_xid(self.rng, self.id_sequence)

    def new_uuid(self) -> str:
        return new_uuid(self.rng)

    # events ----------------------------------------------------------------------
    def event(self, code: str, initiator_id: str, target_id: str, meta: Record | None = None) -> None:
        """Record an audit event (synchronously, unlike real servers)."""
        self.event_seq += 1
        self.events.append({
            "id": self.event_seq,
            "timestamp": now(),
            "activity_code": code,
            "activity": ACTIVITIES.get(code, "UNKNOWN_ACTIVITY"),
            "initiator_id": initiator_id,
            "target_id": target_id,
            "meta": dict(meta or {}),
        })
        if len(self.events) > 2 * MAX_EVENTS:
            del self.events[:MAX_EVENTS]

    # groups ----------------------------------------------------------------------
    def all_group(self) -> Record | None:
        for group in self.groups.values():
            if group["name"] == ALL_GROUP:
                return group
        return None

    def group_members(self, group: Record) -> list[str]:
        """Existing peer ids of a group, duplicates collapsed, in stored order."""
        peers = self.peers
        return [pid for pid in dict.fromkeys(group["peers"]) if pid in peers]

    def peer_group_index(self) -> dict[str, list[str]]:
        """peer id -> ids of the groups holding it (one pass over all memberships)."""
        index: dict[str, list[str]] = {}
        for gid, group in self.groups.items():
            for pid in dict.fromkeys(group["peers"]):
                index.setdefault(pid, []).append(gid)
        return index

    def groups_of_peer(self, peer_id: str) -> list[str]:
        return [gid for gid, group in self.groups.items() if peer_id in group["peers"]]

    # peers -----------------------------------------------------------------------
    def network(self) -> ipaddress.IPv4Network:
        """The account's overlay network: NETWORK, unless v0.77's `network_range` setting moved it."""
        text = (self.account or {}).get("network")
        return ipaddress.ip_network(text) if text else NETWORK

    def renumber(self, network: ipaddress.IPv4Network) -> None:
        """Move the account to another network: every peer gets a new address in it (v0.77's network_range)."""
        if self.account is not None:
            self.account["network"] = str(network)
        self.used_ips.clear()
        for peer in self.peers.values():
            peer["ip"] = self.allocate_ip()

    def new_ipv6_subnet(self) -> str:
        """A random /64 of fd00::/8, as v0.77 gives an account for its IPv6 overlay."""
        bits = (0xFD << 56) | self.rng.getrandbits(56)
        return str(ipaddress.IPv6Network((bits << 64, 64)))

    def allocate_ip(self) -> str:
        """A random free address of the account network (not .0, .1, or the last two)."""
        network = self.network()
        size = network.num_addresses
        base = int(network.network_address)
        for _attempt in range(size * 4):
            offset = self.rng.randrange(2, size - 2)
            if offset % 256 == 0:
                continue
            address = str(ipaddress.ip_address(base + offset))
            if address not in self.used_ips:
                self.used_ips.add(address)
                return address
        raise RuntimeError("account network is full")

    def make_label(self, name: str) -> str:
        """dns_label from a host name: first label, sanitised, -N suffix on clash."""
        first = name.split(".")[0]
        label = re.sub(r"[^a-zA-Z0-9-]+", "-", first).lower()[:59] or "peer"
        if label not in self.labels:
            return label
        for number in range(1, 1000):
            candidate = f"{label}-{number}"
            if candidate not in self.labels:
                return candidate
        raise RuntimeError("no free dns label")

    def fqdn(self, peer: Record) -> str:
        return f"{peer['dns_label']}.{DNS_DOMAIN}"

    def add_peer(self, hostname: str, **fields: Any) -> Record:
        """Create a peer, add it to the All group; the caller adds other groups and events."""
        moment = now()
        name = fields.pop("name", None) or hostname
        label = self.make_label(name)
        self.labels.add(label)
        peer: Record = {
            "id": self.new_id(),
            "name": name,
            "hostname": hostname,
            "ip": self.allocate_ip(),
            "connection_ip": "",
            "connected": True,
            "last_seen": moment,
            "os": "linux",
            "kernel_version": "",
            "version": "0.27.6",
            "ui_version": "",
            "geoname_id": 0,
            "country_code": "",
            "city_name": "",
            "serial_number": "",
            "ssh_enabled": False,
            "user_id": "",
            "dns_label": label,
            "login_expiration_enabled": False,
            "login_expired": False,
            "last_login": moment,
            "approval_required": False,
            "inactivity_expiration_enabled": False,
            "ephemeral": False,
            "created_at": moment,
        }
        for key, value in fields.items():
            if value is not None:
                peer[key] = value
        if not fields.get("goos"):
            peer["goos"] = agent_os(peer["os"])
        self.peers[peer["id"]] = peer
        all_group = self.all_group()
        if all_group is not None:
            all_group["peers"].append(peer["id"])
        return peer

    @property
    def today(self) -> bool:
        """The account is v0.77's (the `current` dialect): set with `xid_keys`, which only that dialect sets."""
        return self.xid_keys

    def peer_meta(self, peer: Record) -> Record:
        """A peer's event meta; v0.77 adds its location (empty until an agent connects from a known place)."""
        meta = {"name": peer["name"], "fqdn": self.fqdn(peer), "ip": peer["ip"], "created_at": peer["created_at"]}
        if self.today:
            meta.update({"location_city_name": peer["city_name"], "location_country_code": peer["country_code"],
                         "location_geo_name_id": peer["geoname_id"],
                         "location_connection_ip": peer["connection_ip"] or ""})
        return meta

    def login_expired(self, peer: Record) -> bool:
        if peer["login_expired"]:
            return True
        settings = self.account["settings"] if self.account else {}
        if not peer["user_id"] or not peer["login_expiration_enabled"]:
            return False
        if not settings.get("peer_login_expiration_enabled"):
            return False
        lifetime = settings.get("peer_login_expiration", 86400)
        age = (now() - peer["last_login"]).total_seconds()
        if age <= lifetime:
            try:
                self.note_change_at(peer["last_login"] + dt.timedelta(seconds=lifetime))
            except OverflowError:  # expires after the last representable moment: never
                pass
        return age > lifetime

    # policies --------------------------------------------------------------------
    def _rule_sides(self) -> list[tuple[set[str], set[str]]]:
        """(source peers, destination peers) of every enabled rule of every enabled policy."""
        members: dict[str, set[str]] = {}

        def peers_of(group_ids: list[str]) -> set[str]:
            result: set[str] = set()
            for gid in group_ids:
                if gid not in members:
                    group = self.groups.get(gid)
                    members[gid] = set(self.group_members(group)) if group else set()
                result |= members[gid]
            return result

        sides = []
        for policy in self.policies.values():
            if not policy["enabled"]:
                continue
            for rule in policy["rules"]:
                if rule["enabled"]:
                    sides.append((peers_of(rule["sources"]), peers_of(rule["destinations"])))
        return sides

    def accessible_peers(self, peer_id: str) -> list[str]:
        """Peers a peer can reach or be reached from by policy (both directions, as real servers list them)."""
        reachable: set[str] = set()
        for sources, destinations in self._rule_sides():
            if peer_id in sources:
                reachable |= destinations
            if peer_id in destinations:
                reachable |= sources
        reachable.discard(peer_id)
        return [pid for pid in self.peers if pid in reachable]

    def accessible_counts(self) -> dict[str, int]:
        """accessible_peers_count of every peer without O(n^2): peers sharing rule membership share the set."""
        sides = self._rule_sides()
        by_signature: dict[tuple[int, ...], set[str]] = {}
        counts: dict[str, int] = {}
        for pid in self.peers:
            signature = tuple(
                index * 2 + side
                for index, (sources, destinations) in enumerate(sides)
                for side, present in ((0, pid in sources), (1, pid in destinations))
                if present
            )
            reachable = by_signature.get(signature)
            if reachable is None:
                reachable = set()
                for code in signature:
                    sources, destinations = sides[code // 2]
                    reachable |= destinations if code % 2 == 0 else sources
                by_signature[signature] = reachable
            counts[pid] = len(reachable) - (1 if pid in reachable else 0)
        return counts

    # users -----------------------------------------------------------------------
    def has_admin_power(self, user: Record) -> bool:
        return user["role"] in ("admin", "owner")

    def dashboard_view(self, user: Record) -> str:
        if self.has_admin_power(user):
            return "full"
        if self.account and self.account["settings"].get("regular_users_view_blocked"):
            return "blocked"
        return "limited"
