"""--state-file (tests/emulator/persist.py): the account survives a save and a load unchanged."""

from __future__ import annotations

import json
import os

import pytest

from tests.emulator import persist
from tests.emulator.control import dump_state
from tests.emulator.server import App
from tests.emulator.tokens import make_token


def test_a_loaded_account_equals_the_saved_one_and_ids_go_on(tmp_path):
    path = str(tmp_path / "state.json")
    token = make_token()
    first = App(token, dialect="netbird", seed_size="S", example=True, state_file=path)
    assert os.path.isfile(path)  # written at start, before any change
    first.handle_api("POST", "/api/groups", {"Authorization": "Token " + token}, b'{"name": "added", "peers": []}')
    second = App(token, dialect="netbird", state_file=path)
    assert dump_state(second, {}) == dump_state(first, {})
    assert second.state.new_id() == first.state.new_id()  # the id generator goes on where it stopped
    assert persist.stored_token(path) == token
    assert [name for name in os.listdir(str(tmp_path)) if name != "state.json"] == []


def test_another_token_is_refused_naming_the_file(tmp_path):
    path = str(tmp_path / "state.json")
    App(make_token(), state_file=path)
    with pytest.raises(persist.StateFileError, match="state file .*state.json: kept with another owner token"):
        App(make_token(), state_file=path)


@pytest.mark.parametrize("content", ["[]", '{"format": 99, "state": {}}', "{"])
def test_a_file_of_something_else_is_refused(tmp_path, content):
    path = tmp_path / "state.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(persist.StateFileError, match="state file"):
        App(make_token(), state_file=str(path))


def test_the_file_is_json_with_tagged_timestamps(tmp_path):
    path = tmp_path / "state.json"
    App(make_token(), example=True, state_file=str(path))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == persist.FORMAT
    assert "$datetime" in json.dumps(data["state"]["peers"])


def test_ids_sort_in_the_order_they_were_made_as_a_real_servers_xids_do(tmp_path):
    """A real server's ids are xids (their first bytes the seconds they were made in): a later object's id sorts after an
    earlier one's, which the copy concurrent runs keep (the lowest id) depends on. So do the emulator's, also after a
    save and a load."""
    path = str(tmp_path / "state.json")
    token = make_token()
    first = App(token, dialect="current", seed_size="S", state_file=path)
    headers = {"Authorization": "Token " + token}
    made = []
    for index in range(40):
        reply, dummy_delay = first.handle_api("POST", "/api/networks", headers, json.dumps({"name": "n%d" % index}).encode())
        assert reply.status == 200, reply.body
        made.append(json.loads(reply.body)["id"])
    again = App(token, dialect="current", state_file=path).state.new_id()
    assert made == sorted(made) and again > made[-1]
    assert all(len(item) == 20 and set(item) <= set("0123456789abcdefghijklmnopqrstuv") for item in made + [again])
