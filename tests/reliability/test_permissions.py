# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 10, item 8: a regular user's token gets a clear "forbidden" failure on every module that writes.

A user with role ``user`` and a token is seeded (control endpoint POST /_emulator/users); every
module that writes (all but the ``*_info`` modules) runs its first EXAMPLES task with that token
in both dialects. Asserted: a failure, no write applied, and a message that says "forbidden" and
names the refused operation (method, path, HTTP status) without the token.
"""

from __future__ import annotations

import pytest

from tests.reliability.conftest import connection_of
from tests.reliability.harness import API_ERROR_RE, FIGURES, example_args, is_info, module_names, seed_world
from tests.reliability.secrets import assert_no_secrets
from tests.support.inprocess import assert_clean_end, describe, run_module

# (the instance's setup is answered to anyone, before any user exists: there is nothing to forbid)
WRITING = [name for name in module_names() if not is_info(name) and name != "instance"]

# The server hides other users from a regular user (GET /users lists only the caller), and a user's
# own tokens are theirs to manage: the token module cannot meet a 403. Its example (a token of the
# ci-bot service user) must fail naming the option that refers to the hidden user, and write nothing.
# Likewise the peers a regular user did not join are hidden from it: a job or a temporary access for another's peer
# fails naming the peer option, before any write.
HIDDEN_FROM_REGULAR_USERS = {"token": "user", "peer_job": "peer", "peer_temporary_access": "peer"}


def _own_peer(emu, user, task_args):
    """A regular user sees only the peers it joined, and none while the account blocks its view."""
    status, accounts = emu.api("GET", "/accounts")
    assert status == 200, accounts
    settings = dict(accounts[0]["settings"], regular_users_view_blocked=False)
    status, body = emu.api("PUT", "/accounts/%s" % accounts[0]["id"], {"settings": settings})
    assert status == 200, body
    hostname = "own-laptop"
    emu.control("POST", "/_emulator/enroll", {"hostname": hostname, "user_id": user["user"]["id"]})
    task_args = dict(task_args)
    for key in ("hostname", "name"):
        if key in task_args:
            task_args[key] = hostname
    return task_args


SETUP = {"peer": _own_peer}

# Every kind of object a module writes, under the names of the emulator's state dump
# (GET /_emulator/state, tests/emulator/control.py dump_state): "account" holds the account
# settings, "dns" the DNS settings, "nameservers" the nameserver groups. A token's last_used moves
# with every request it authenticates, so tokens are compared without it.
COMPARED_STATE = ("account", "users", "tokens", "groups", "policies", "posture_checks", "routes", "nameservers",
                  "dns", "setup_keys", "peers")


def _comparable(key, value):
    if key == "tokens":
        return [{k: v for k, v in token.items() if k != "last_used"} for token in value]
    return value


@pytest.mark.parametrize("name", WRITING)
def test_regular_user_is_forbidden(name, any_emulator):
    emu = any_emulator
    examples = example_args(name)
    if not examples:
        pytest.skip("module %s has no EXAMPLES task without Jinja" % name)
    title, task_args = examples[0]
    seed_world(emu)
    user = emu.add_user("regular-%s@example.com" % name.replace("_", "-"), role="user", token=True)
    token = user["token"]
    if name in SETUP:
        task_args = SETUP[name](emu, user, task_args)
    before = emu.state()
    emu.clear_log()
    args = dict(connection_of(emu, api_token=token), **task_args)
    result = run_module(name, args)
    log = emu.requests()
    context = "module %s example %r as a regular user: %s\nrequests: %r" % (name, title, describe(result), log)
    assert_clean_end(name, args, result)
    assert result.get("failed"), "a regular user's task did not fail: " + context
    msg = result["msg"]
    if name in HIDDEN_FROM_REGULAR_USERS:
        option = HIDDEN_FROM_REGULAR_USERS[name]
        assert msg.startswith(option + ":") and not [e for e in log if e["method"] != "GET"], context
        FIGURES.setdefault("permissions", {})["%s/%s" % (name, emu.dialect)] = msg[:160]
        return
    assert "forbidden" in msg.lower(), "the message does not say forbidden: " + context
    match = API_ERROR_RE.search(msg)
    assert match and match.group(4) in ("401", "403"), "the message names no refused operation: " + context
    refused = [entry for entry in log if entry.get("status") in (401, 403)]
    assert refused and (refused[-1]["method"], refused[-1]["path"][len("/api"):]) == (match.group(1), match.group(2)), \
        "the message names another call than the refused one: " + context
    applied = [entry for entry in log if entry["method"] != "GET" and entry.get("status") and entry["status"] < 300]
    assert not applied, "a regular user's write went through: " + context
    after = emu.state()
    for key in COMPARED_STATE:
        assert key in before and key in after, "the emulator's state dump has no %r (keys: %s)" % (key, sorted(before))
        assert _comparable(key, before[key]) == _comparable(key, after[key]), "state %s changed: %s" % (key, context)
    assert_no_secrets(describe(result), [token, emu.token])
    FIGURES.setdefault("permissions", {})["%s/%s" % (name, emu.dialect)] = msg[:160]
