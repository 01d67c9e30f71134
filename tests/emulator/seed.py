"""Initial content of a new account, plus the optional bulk seeds (--seed-size)."""

from __future__ import annotations

import datetime as dt
import random

from .state import ACCOUNT_ID_SEED, ALL_GROUP, DNS_DOMAIN, Record, State
from .tokens import hash_token
from .util import fnv32a, new_uuid, now

OWNER_ID = "owner-user"
OWNER_EMAIL = "owner@example.com"
OWNER_NAME = "Owner"
DEFAULT_POLICY_DESCRIPTION = "This is a default rule that allows connections between all the resources"

# size -> (peers, groups, users, setup keys)
SEED_SIZES = {
    "S": (100, 5, 0, 0),
    "M": (1000, 20, 0, 100),
    "L": (5000, 10000, 10000, 10000),
    "XL": (25000, 50, 0, 500),
}


def new_user(state: State, **fields: object) -> Record:
    """A user record with defaults; `fields` override them."""
    user: Record = {
        "id": state.new_uuid(),
        "email": "",
        "name": "",
        "role": "user",
        "status": "active",
        "is_service_user": False,
        "is_blocked": False,
        "issued": "api",
        "auto_groups": [],
        "last_login": None,
        "created_at": now(),
        "non_deletable": False,
    }
    user.update(fields)
    state.users[user["id"]] = user
    return user


def add_token(state: State, user_id: str, plain: str, name: str, days: int, created_by: str) -> Record:
    moment = now()
    token: Record = {
        "id": state.new_id(),
        "user_id": user_id,
        "name": name,
        "hashed": hash_token(plain),
        "expiration_date": moment + dt.timedelta(days=days),
        "created_by": created_by,
        "created_at": moment,
        "last_used": None,
    }
    state.tokens[token["id"]] = token
    state.token_by_hash[token["hashed"]] = token["id"]
    return token


def new_setup_key(state: State, name: str, key_type: str, expires_in: int, auto_groups: list[str],
                  usage_limit: int, ephemeral: bool) -> Record:
    moment = now()
    value = state.new_uuid().upper()
    record: Record = {
        "id": state.new_id() if state.xid_keys else str(fnv32a(value)),
        "key": value,
        "name": name,
        "type": key_type,
        "expires": moment + dt.timedelta(seconds=expires_in) if expires_in else None,  # 0: never (v0.77)
        "revoked": False,
        "used_times": 0,
        "last_used": None,
        "auto_groups": auto_groups,
        "usage_limit": 1 if key_type == "one-off" else usage_limit,
        "ephemeral": ephemeral,
        "allow_extra_dns_labels": False,
        "created_at": moment,
        "updated_at": moment,
    }
    state.setup_keys[record["id"]] = record
    return record


def build_initial(state: State, owner_token: str | None, size: str | None = None, dialect: str = "seed",
                  seed: int = 1, owner: Record | None = None, token_name: str = "emulator", token_days: int = 365) -> None:
    """A new account: owner (holding `owner_token`), All group, Default policy, default settings.

    The real-server dialects (`netbird`, `current`) hold what the seeded real servers hold (an account of v0.27.6, which
    v0.77.1 upgrades): settings `extra` `{"peer_approval_enabled": false}`, the Default policy's
    `source_posture_checks` `[]`, and v0.77's account meta (created_at, created_by, domain, domain_category).
    `owner` (its fields: id, email, name) is the owner POST /api/setup creates, in single-account mode (domain ""),
    whose token (none without `owner_token`) is named `token_name`."""
    real = dialect in ("netbird", "current")
    owner = owner or {"id": OWNER_ID, "email": OWNER_EMAIL, "name": OWNER_NAME}
    set_up = owner["id"] != OWNER_ID
    state.account = {
        "id": new_uuid(random.Random(f"{ACCOUNT_ID_SEED}-{seed}")),
        "created_at": now(),
        "created_by": owner["id"],
        "domain": DNS_DOMAIN if real and not set_up else "",
        "domain_category": "private" if real else "",
        "onboarding": {"onboarding_flow_pending": False, "signup_form_pending": False},
        "settings": {
            "peer_login_expiration_enabled": True,
            "peer_login_expiration": 86400,
            "regular_users_view_blocked": True,
            "groups_propagation_enabled": True,
            "jwt_groups_enabled": False,
            "jwt_groups_claim_name": "",
            "jwt_allow_groups": [],
        },
    }
    if real:
        state.account["settings"]["extra"] = {"peer_approval_enabled": False}
    new_user(state, role="owner", **owner)
    if owner_token is not None:
        add_token(state, owner["id"], owner_token, token_name, token_days, owner["id"])
    all_id = state.new_id()
    state.groups[all_id] = {"id": all_id, "name": ALL_GROUP, "issued": "api", "peers": [], "resources": []}
    policy_id = state.new_id()
    state.policies[policy_id] = {
        "id": policy_id,
        "name": "Default",
        "description": DEFAULT_POLICY_DESCRIPTION,
        "enabled": True,
        "source_posture_checks": [] if real else None,
        "rules": [{
            "name": "Default",
            "description": DEFAULT_POLICY_DESCRIPTION,
            "enabled": True,
            "action": "accept",
            "bidirectional": True,
            "protocol": "all",
            "ports": [],
            "sources": [all_id],
            "destinations": [all_id],
        }],
    }
    if size:
        seed_bulk(state, *SEED_SIZES[size])


def seed_peers(state: State, count: int, group_ids: list[str], start: int = 0) -> list[Record]:
    """Setup-key-style peers named peer-NNNNN, each in All and in one of `group_ids`."""
    created = []
    for index in range(start, start + count):
        peer = state.add_peer(f"peer-{index:05d}", kernel_version="6.1.0")
        if group_ids:
            state.groups[group_ids[index % len(group_ids)]]["peers"].append(peer["id"])
        created.append(peer)
    return created


def seed_bulk(state: State, peers: int, groups: int, users: int, keys: int) -> None:
    """Fast bulk seed: no events, simple deterministic names."""
    group_ids = []
    for index in range(groups):
        gid = state.new_id()
        state.groups[gid] = {"id": gid, "name": f"group-{index:05d}", "issued": "api", "peers": [], "resources": []}
        group_ids.append(gid)
    seed_peers(state, peers, group_ids)
    for index in range(users):
        new_user(state, name=f"service-{index:05d}", is_service_user=True)
    for index in range(keys):
        auto = [group_ids[index % len(group_ids)]] if group_ids else []
        new_setup_key(state, f"key-{index:05d}", "reusable", 31536000, auto, 0, False)


# --example (the sandbox's default): a small network to look at. Peers joined with the setup key, the way
# agents do; the key stays valid, so more hosts can join with it (POST /_emulator/enroll or the fake agent).
EXAMPLE_GROUPS = {"servers": ["web-1", "db-1"], "developers": ["laptop-ana"]}
EXAMPLE_OS = {"laptop-ana": "Ubuntu 24.04.1 LTS"}
EXAMPLE_SETUP_KEY = "sandbox servers"


def build_example(state: State) -> None:
    """Groups `servers` and `developers`, three peers in them and a reusable setup key for `servers`."""
    group_ids = {}
    for name in EXAMPLE_GROUPS:
        gid = state.new_id()
        state.groups[gid] = {"id": gid, "name": name, "issued": "api", "peers": [], "resources": []}
        group_ids[name] = gid
    new_setup_key(state, EXAMPLE_SETUP_KEY, "reusable", 30 * 86400, [group_ids["servers"]], 0, False)
    for group, hostnames in EXAMPLE_GROUPS.items():
        for hostname in hostnames:
            peer = state.add_peer(hostname, os=EXAMPLE_OS.get(hostname, "Debian GNU/Linux 12"), kernel_version="6.1.0")
            state.groups[group_ids[group]]["peers"].append(peer["id"])
