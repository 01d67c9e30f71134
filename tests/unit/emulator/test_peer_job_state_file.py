"""--state-file keeps the collections handler modules add to the state when first used (identity providers, invite
links, peer jobs, temporary access peers' keys, passwords), not only the account's fixed fields."""

from __future__ import annotations

import json

import pytest

from tests.emulator import persist
from tests.emulator.server import App
from tests.emulator.tokens import make_token


def call(app, token, method, path, body):
    reply = app.handle_api(method, path, {"Authorization": "Token " + token}, json.dumps(body).encode())[0]
    assert reply.status == 200, reply.body
    return json.loads(reply.body)


def test_the_added_collections_survive_a_restart(tmp_path):
    path = str(tmp_path / "state.json")
    token = make_token()
    first = App(token, dialect="current", seed_size="S", idp=True, state_file=path)
    peer = next(iter(first.state.peers.values()))
    peer["version"] = "0.70.0"
    call(first, token, "POST", f"/api/peers/{peer['id']}/jobs", {"workload": {"type": "bundle", "parameters": {
        "bundle_for": False, "bundle_for_time": 0, "log_file_count": 5, "anonymize": False}}})
    call(first, token, "POST", "/api/users/invites", {"email": "bob@example.com", "name": "Bob", "role": "user", "auto_groups": []})
    call(first, token, "POST", f"/api/peers/{peer['id']}/temporary-access", {"name": "laptop", "wg_pub_key": "K1", "rules": ["tcp/22"]})
    first.state.user_passwords = {"u1": "secret-1"}
    persist.save(first.state, token, path, "current")
    second = App(token, dialect="current", idp=True, state_file=path)
    for name in ("peer_jobs", "user_invites", "user_passwords"):
        assert getattr(second.state, name) == getattr(first.state, name), name
    assert any(item.get("wg_pub_key") == "K1" for item in second.state.peers.values())


@pytest.mark.parametrize("name, value, message", [("lock", {}, "no collection of the account"),
                                                  ("peer_jobs", [1], "peer_jobs is list, not dict")])
def test_a_damaged_added_collection_is_refused(tmp_path, name, value, message):
    path = tmp_path / "state.json"
    token = make_token()
    App(token, dialect="current", state_file=str(path))
    data = json.loads(path.read_text(encoding="utf-8"))
    data["state"][name] = value
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(persist.StateFileError, match=message):
        App(token, dialect="current", state_file=str(path))
