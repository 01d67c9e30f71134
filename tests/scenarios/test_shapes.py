# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The shape comparison itself (shapes.py) on recordings made up here: it must see what the scenarios rely on it
to see, among them the deviation the issue names (the emulator answering [] where v0.27.6 sends null)."""

from __future__ import annotations

import pytest

from tests.scenarios import shapes


def exchange(method, path, status, answer, request=None):
    return {"method": method, "path": path, "query": "", "status": status, "request": request, "answer": answer}


REAL_GROUP = {"id": "ch8i4ug6lnn4g9hqv7m0", "name": "g", "peers": None, "peers_count": 0, "issued": "api"}


def one_step(answer, status=200, method="POST", path="/api/groups"):
    return [("create", [exchange(method, path, status, answer)])]


def test_an_empty_list_where_the_real_server_sends_null_is_a_difference():
    emulated = dict(REAL_GROUP, id="ch8i4ug6lnn4g9hqv7n0", peers=[])
    found = shapes.differences("v0.27.6", one_step(emulated), one_step(REAL_GROUP))
    assert found == ["POST /api/groups $.peers: emulator [], real null (first in step 'create')"]


def test_values_and_ids_are_not_compared_but_types_and_members_are():
    same_shape = dict(REAL_GROUP, id="another-id-entirely", name="other", peers_count=7)
    assert shapes.differences("v0.27.6", one_step(same_shape), one_step(REAL_GROUP)) == []
    missing = {k: v for k, v in REAL_GROUP.items() if k != "issued"}
    assert shapes.differences("v0.27.6", one_step(missing), one_step(REAL_GROUP)) == [
        "POST /api/groups $.issued: emulator absent, real string (first in step 'create')"]
    as_number = dict(REAL_GROUP, peers_count="0")
    assert shapes.differences("v0.27.6", one_step(as_number), one_step(REAL_GROUP)) == [
        "POST /api/groups $.peers_count: emulator string, real number (first in step 'create')"]


def test_list_items_are_merged_so_one_odd_item_shows():
    real = [REAL_GROUP, dict(REAL_GROUP, peers=[{"id": "p", "name": "h"}])]
    emulated = [REAL_GROUP, dict(REAL_GROUP, peers=[{"id": "p"}])]
    found = shapes.differences("v0.77.1", one_step(emulated, method="GET"), one_step(real, method="GET"))
    # (the items' peers are null in one and a list in the other: the alternatives are compared whole)
    assert len(found) == 1 and found[0].startswith("GET /api/groups $[].peers: ") and '"name"' in found[0], found


def test_requests_statuses_and_messages_must_agree():
    refused = {"message": "group: ch8i4ug6lnn4g9hqv7m0 not found", "code": 404}
    other_words = {"message": "group with id ch8i4ug6lnn4g9hqv7m0 not found", "code": 404}
    path = "/api/groups/ch8i4ug6lnn4g9hqv7m0"
    assert shapes.differences("v0.77.1", one_step(other_words, 404, "GET", path), one_step(refused, 404, "GET", path)) \
        == ["GET /api/groups/{id} message: emulator group with id {xid} not found, real group: {xid} not found "
            "(first in step 'create')"]
    wrong_status = shapes.differences("v0.77.1", one_step(refused, 400, "GET", path), one_step(refused, 404, "GET", path))
    assert len(wrong_status) == 1 and "the requests differ" in wrong_status[0]


def test_an_id_of_another_form_in_a_message_still_differs():
    real = {"message": "peer with x not found under account 5ca88c4d-a345-4ed0-b4e3-4ed23a6dc0ff", "code": 404}
    emulated = {"message": "peer with x not found under account account-1", "code": 404}
    found = shapes.differences("v0.27.6", one_step(emulated, 404, "GET", "/api/peers/x"),
                               one_step(real, 404, "GET", "/api/peers/x"))
    assert len(found) == 1 and "account-1" in found[0]


@pytest.mark.parametrize("path, expected", [
    ("/api/groups/ch8i4ug6lnn4g9hqv7m0", "/api/groups/{id}"),
    ("/api/users/5ca88c4d-a345-4ed0-b4e3-4ed23a6dc0ff/tokens", "/api/users/{id}/tokens"),
    ("/api/dns/zones/real-peer-1/records", "/api/dns/zones/{id}/records"),
    ("/api/setup-keys", "/api/setup-keys"),
])
def test_ids_in_paths_become_placeholders(path, expected):
    assert shapes.template(path) == expected
