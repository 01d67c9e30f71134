# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every operation of today's self-hosted server (endpoints.py), and what a real agent's join makes visible through the
API, answered alike by the emulator and the real release it imitates: statuses, answer shapes and error messages
(shapes.py), apart from shapes.ALLOWED.

The servers: the emulator (``current`` with an identity provider, ``netbird``) and, when real servers are on, the real
v0.77.1 with its embedded identity provider (``--idp``: regular users, invites and identity providers answer) and the
plain seeded v0.27.6, one of each per module. Without real servers the calls still run on the emulator, and every
operation of the OpenAPI file is still held to be called or left out with a reason.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.scenarios import shapes
from tests.scenarios.conftest import GENERATIONS, WANTED, EmulatedServer
from tests.scenarios.endpoints import CALLS, LEFT_OUT, REFUSED_ONLY
from tests.support.compatibility import SPEC, spec_operations
from tests.support.realserver import DIALECT_OF, SEEDED_PEERS, RealServerError, real_mode, start_real_server

JOIN_HOST = "ep-agent"
# answers that are the server's static data: their values are compared too (the catalog: every provider, model, price)
SAME_VALUES = ("GET /agent-network/catalog/providers",)
PLACEHOLDER = re.compile(r"<([a-z_0-9]+)>")


@pytest.fixture(scope="module", params=WANTED)
def pair(request, emulators):
    """(generation, [emulator, real server]) of one generation; the real one only when real servers are on."""
    generation = request.param
    release = GENERATIONS[generation]
    args = ("--idp",) if generation == "v0.77" else ()
    emulator = emulators.get(DIALECT_OF[release], extra_args=args, user="endpoint-shapes")
    emulator.reset()
    emulator.add_peers(peers=[{"hostname": name, "os": os_name} for name, os_name in SEEDED_PEERS])
    targets = [EmulatedServer(emulator)]
    on, dummy_required, dummy_why = real_mode()
    try:
        if on:
            try:
                targets.append(start_real_server(release, *args))
            except RealServerError as exc:
                pytest.fail(str(exc), pytrace=False)
        yield generation, targets
    finally:
        for server in targets:
            server.stop()


# -- the calls ---------------------------------------------------------------------------------------------------------
def pick(answer, path):
    """A member of an answer: ``id``, ``personal_access_token.id``, ``[0].settings``, ``[email=x@y].id``."""
    value = answer
    for part in re.findall(r"\[[^\]]*\]|[^.\[\]]+", path):
        if part.startswith("[") and "=" in part:
            key, wanted = part[1:-1].split("=", 1)
            value = next(item for item in value if item.get(key) == wanted)
        elif part.startswith("["):
            value = value[int(part[1:-1])]
        else:
            value = value[part]
    return value


def fill(value, found):
    """``value`` with its ``<name>`` placeholders filled (a string that is one placeholder becomes the value)."""
    if isinstance(value, dict):
        return {key: fill(item, found) for key, item in value.items()}
    if isinstance(value, list):
        return [fill(item, found) for item in value]
    if isinstance(value, str):
        whole = PLACEHOLDER.fullmatch(value)
        if whole:
            return found.get(whole.group(1), value)
        return PLACEHOLDER.sub(lambda match: str(found.get(match.group(1), match.group(0))), value)
    return value


def known(server):
    """The ids every call may name: the seeded peers (by their short names), the owner, the account, All."""
    peers = {peer["name"]: peer["id"] for peer in server.ok("GET", "/api/peers")}
    found = {name.replace("real-", ""): peers[name] for name, dummy_os in SEEDED_PEERS}
    found["owner"] = next(user["id"] for user in server.ok("GET", "/api/users") if user.get("is_current"))
    found["account"] = server.ok("GET", "/api/accounts")[0]["id"]
    found["all"] = next(group["id"] for group in server.ok("GET", "/api/groups") if group["name"] == "All")
    return found


def play(server, calls):
    """Each call on ``server``: ``[(call, [its log entry])]``, what it saved kept for the later calls."""
    found = known(server)
    steps = []
    for call in calls:
        server.clear_log()
        status, answer = server.api(call.method, "/api" + fill(call.path, found), fill(call.body, found))
        if status < 300:
            for name, path in call.save.items():
                try:
                    found[name] = pick(answer, path)
                except (KeyError, IndexError, TypeError, StopIteration):
                    pass
        steps.append((repr(call), server.requests()))
    return steps


def calls_of(generation):
    return [call for call in CALLS if generation == "v0.77" or call.since == "v0.27"]


def test_every_operation_answers_alike(pair):
    generation, targets = pair
    recordings = [play(server, calls_of(generation)) for server in targets]
    answered = {}
    for call, (dummy, entries) in zip(calls_of(generation), recordings[-1]):
        answered.setdefault(operation_of(call), []).extend(entry["status"] for entry in entries)
    refused = sorted(op for op, statuses in answered.items() if min(statuses) >= 400)
    if generation == "v0.77":  # what only a refusal answers is what REFUSED_ONLY says (each call of it answered)
        assert refused == sorted(REFUSED_ONLY), refused
    if len(recordings) < 2:
        return
    found = shapes.differences(targets[1].release, recordings[0], recordings[1])
    for (step, emulated), (dummy, real) in zip(*recordings):
        if step in SAME_VALUES and emulated[-1]["answer"] != real[-1]["answer"]:
            found.append("%s: the emulator's answer is not the real server's (its values too are compared)" % step)
    assert not found, "the emulator (%s) answers unlike the real %s:\n  %s" % (
        targets[0].dialect, GENERATIONS[generation], "\n  ".join(found))


# -- an agent joins with a setup key -----------------------------------------------------------------------------------
def join(server, key):
    """What an agent does when it joins (the real agent, or the emulator's fake join); returns the peer's id."""
    if not server.real:
        server.emulator.enroll(key, JOIN_HOST)
        return next(peer["id"] for peer in server.ok("GET", "/api/peers") if peer["name"] == JOIN_HOST)
    from tests.support.realagents import Agents  # pylint: disable=import-outside-toplevel
    agents = Agents(server)
    agents.up(JOIN_HOST, key=key)
    peer = agents.peer(JOIN_HOST, connected=True)["id"]  # the server marks it connected after up returns
    deadline = time.monotonic() + 15  # and stores its events asynchronously
    while not any(event["target_id"] == peer for event in server.ok("GET", "/api/events")):
        assert time.monotonic() < deadline, "the real server recorded no event of the joined peer"
        time.sleep(0.2)
    return peer


def after_a_join(generation):
    def steps_of(server):
        group = server.ok("POST", "/api/groups", {"name": "ep-joined", "peers": []})
        key = server.ok("POST", "/api/setup-keys", {"name": "ep-join-key", "type": "reusable", "expires_in": 86400,
                                                    "auto_groups": [group["id"]], "usage_limit": 0, "revoked": False,
                                                    "ephemeral": False})
        peer = None
        try:
            peer = join(server, key["key"])
            steps = []
            for path in ("/api/peers", "/api/peers/" + peer, "/api/setup-keys", "/api/setup-keys/%s" % key["id"],
                         "/api/events" if generation == "v0.27" else "/api/events/audit", "/api/groups",
                         "/api/groups/" + group["id"]):
                server.clear_log()
                server.api("GET", path)
                entries = server.requests()
                if "/events" in path:  # the join's own events: the servers' other events differ in what happened
                    for entry in entries:
                        entry["answer"] = [event for event in entry["answer"] if event.get("target_id") == peer]
                steps.append(("GET " + path, entries))
            return steps
        finally:
            if server.real:
                from tests.support.realagents import Agents  # pylint: disable=import-outside-toplevel
                Agents(server).stop(JOIN_HOST)
            if peer:
                server.api("DELETE", "/api/peers/" + peer)
            if generation == "v0.77":
                server.api("DELETE", "/api/setup-keys/" + key["id"])
            else:
                server.api("PUT", "/api/setup-keys/" + key["id"], dict(key, revoked=True, auto_groups=[]))
            server.api("DELETE", "/api/groups/" + group["id"])
    return steps_of


def facts(steps):
    """What a join must have changed, as values: the peer (connected, its groups), the key (used once, still valid,
    last used), the join's event codes, the key's group (the peer in it)."""
    answers = {step: entries[-1]["answer"] for step, entries in steps}
    peer = next(item for item in answers["GET /api/peers"] if item["name"] == JOIN_HOST)
    key = next(answer for step, answer in answers.items() if step.startswith("GET /api/setup-keys/"))
    events = next(answer for step, answer in answers.items() if "/events" in step)
    group = next(answer for step, answer in answers.items() if step.startswith("GET /api/groups/"))
    return {"peer": (peer["connected"], sorted(item["name"] for item in peer["groups"])),
            "key": (key["used_times"], key["state"], key["valid"], not key["last_used"].startswith("0001")),
            "events": [event["activity_code"] for event in events],
            "group": (group["peers_count"], [item["name"] for item in group["peers"] or ()])}


def test_a_joined_agent_shows_alike(pair):
    """After an agent joins with a setup key: the peers, the peer, the keys (used_times, last_used, state), the join's
    events, the groups (peers_count) have the same shapes on the emulator (its fake join) and the real server, and
    the same facts (the event's code, the counts)."""
    generation, targets = pair
    recordings = [after_a_join(generation)(server) for server in targets]
    joined = "peer.setupkey.add" if generation == "v0.77" else "setupkey.peer.add"  # v0.77 renamed the code
    assert facts(recordings[0]) == {"peer": (True, ["All", "ep-joined"]), "key": (1, "valid", True, True),
                                    "events": [joined], "group": (1, [JOIN_HOST])}
    if len(recordings) < 2:
        return
    assert facts(recordings[1]) == facts(recordings[0])
    found = shapes.differences(targets[1].release, recordings[0], recordings[1])
    assert not found, "after a join the emulator (%s) answers unlike the real %s:\n  %s" % (
        targets[0].dialect, GENERATIONS[generation], "\n  ".join(found))


# -- every operation called, or left out with a reason ----------------------------------------------------------------
def operation_of(call):
    """The OpenAPI operation (``GET /api/peers/{peerId}``) a call is of: of the operations whose path matches, the one
    with the most literal segments (``/api/users/invites`` before ``/api/users/{userId}``)."""
    path = "/api" + PLACEHOLDER.sub("x", call.path)
    matches = []
    for operation in spec_operations():
        method, template = operation.split(" ", 1)
        pattern = "^" + re.sub(r"\\\{[^}]*\\\}", "[^/]+", re.escape(template)) + "$"
        if method == call.method and re.match(pattern, path):
            matches.append((template.count("/") - template.count("{"), operation))
    return max(matches)[1] if matches else None


@pytest.mark.skipif(not __import__("os").path.isfile(SPEC), reason="no OpenAPI file at %s" % SPEC)
def test_every_operation_is_called_or_left_out_with_a_reason():
    called = {operation_of(call) for call in CALLS}
    assert None not in called, [call for call in CALLS if operation_of(call) is None]
    missing = [op for op in spec_operations() if op not in called and op not in LEFT_OUT]
    assert missing == []
    assert [op for op in list(LEFT_OUT) + list(REFUSED_ONLY) if op not in spec_operations()] == []
