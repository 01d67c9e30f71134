"""The answer cache (tests/emulator/cache.py): list reads are kept as text until the account changes, and say the same
as a read rendered anew would."""

from __future__ import annotations

import datetime as dt
import json
import random
import time
from typing import Any

import pytest

from tests.emulator import cache, state as emulator_state
from tests.emulator.dialect import Dialect
from tests.emulator.server import App
from tests.emulator.tokens import make_token

from .conftest import Emulator


def _names(items: list[dict[str, Any]]) -> list[str]:
    return sorted(item["name"] for item in items)


def test_a_write_shows_in_the_next_list_read(emu: Emulator) -> None:
    assert _names(emu.ok("GET", "/api/groups")) == ["All"]
    created = emu.group("web")
    assert _names(emu.ok("GET", "/api/groups")) == ["All", "web"]
    emu.ok("PUT", f"/api/groups/{created['id']}", {"name": "web2"})
    assert _names(emu.ok("GET", "/api/groups")) == ["All", "web2"]
    emu.ok("DELETE", f"/api/groups/{created['id']}")
    assert _names(emu.ok("GET", "/api/groups")) == ["All"]


def test_a_refused_write_changes_nothing_and_a_faulted_one_is_not_applied(emu: Emulator) -> None:
    before = emu.ok("GET", "/api/groups")
    assert emu.call("POST", "/api/groups", {"name": ""}).status == 422
    emu.control("POST", "faults", {"queue": [{"status": 503}]})
    assert emu.call("POST", "/api/groups", {"name": "never"}).status == 503
    assert _names(emu.ok("GET", "/api/groups")) == _names(before)


def test_control_endpoints_show_in_the_next_list_read(emu: Emulator) -> None:
    created = emu.add_peers(peers=[{"hostname": "web1"}, {"hostname": "web2"}])
    peers = {peer["id"]: peer for peer in emu.ok("GET", "/api/peers")}
    assert all(peer["connected"] for peer in peers.values()) and len(peers) == 2
    emu.control("POST", "peer-status", {"peers": [{"id": created[0]["id"], "connected": False,
                                                   "last_seen": "2026-01-10T08:00:00Z"}]})
    peers = {peer["id"]: peer for peer in emu.ok("GET", "/api/peers")}
    assert not peers[created[0]["id"]]["connected"] and peers[created[1]["id"]]["connected"]
    assert peers[created[0]["id"]]["last_seen"] == "2026-01-10T08:00:00.000000Z"
    emu.add_user("ann@example.com")
    assert "ann@example.com" in [user["email"] for user in emu.ok("GET", "/api/users")]
    emu.reset()
    assert emu.ok("GET", "/api/peers") == [] and _names(emu.ok("GET", "/api/groups")) == ["All"]


def test_every_read_is_in_the_request_log(emu: Emulator) -> None:
    emu.clear_log()
    for _read in range(3):
        emu.ok("GET", "/api/groups")
    assert [(entry["method"], entry["path"], entry["status"]) for entry in emu.requests()] == \
        [("GET", "/api/groups", 200)] * 3


def _peer_orders(emu: Emulator, reads: int) -> list[tuple[str, ...]]:
    """The orders of the peers in `reads` answers of GET /api/peers, which must say the same in the bytes
    json.dumps writes."""
    answers = [emu.call("GET", "/api/peers") for _read in range(reads)]
    for answer in answers:  # the bytes json.dumps writes, as for an answer rendered anew
        assert answer.raw == (json.dumps(answer.body) + "\n").encode()
        assert _canonical(answer.body) == _canonical(answers[0].body)
    group_orders = {tuple(group["id"] for group in peer["groups"]) for answer in answers for peer in answer.body
                    if len(peer["groups"]) == 3}
    assert len(group_orders) > 1  # a peer's groups are shuffled too
    return [tuple(peer["id"] for peer in answer.body) for answer in answers]


def test_kept_lists_come_in_varied_orders_drawn_anew_after_a_change(nb: Emulator) -> None:
    group_ids = [nb.group(f"g{index}")["id"] for index in range(3)]
    nb.add_peers(peers=[{"hostname": f"peer-{index:02d}", "groups": group_ids[:1 + index % 3]} for index in range(40)])
    orders = _peer_orders(nb, 4 * cache.ORDERS_KEPT)
    assert len(set(orders[:cache.ORDERS_KEPT])) == cache.ORDERS_KEPT  # the first reads each draw a new order
    assert len(set(orders)) == cache.ORDERS_KEPT  # then the kept ones are sent again
    assert all(previous != order for previous, order in zip(orders, orders[1:]))  # never one twice in a row
    nb.clear_log()  # touches only the request log: the kept answers stay (the bench clears it before every play)
    assert set(_peer_orders(nb, 2 * cache.ORDERS_KEPT)) <= set(orders)  # no order drawn anew
    nb.group("g3")  # a write: every kept answer is forgotten, the next reads draw new orders
    assert not set(_peer_orders(nb, cache.ORDERS_KEPT)) & set(orders)


def test_a_setup_key_expiring_shows_without_a_write(cur: Emulator) -> None:
    cur.setup_key("short", expires_in=1)
    assert [key["state"] for key in cur.ok("GET", "/api/setup-keys")] == ["valid"]
    time.sleep(1.2)
    assert [key["state"] for key in cur.ok("GET", "/api/setup-keys")] == ["expired"]


def test_a_login_expiring_shows_without_a_write(monkeypatch: pytest.MonkeyPatch) -> None:
    token = make_token()
    app = App(token, dialect="seed")
    headers = {"Authorization": f"Token {token}"}

    def login_expired() -> list[bool]:
        reply, _delay = app.handle_api("GET", "/api/peers", headers, b"")
        return [peer["login_expired"] for peer in json.loads(reply.body)]

    enrolled = app.handle_control("POST", "/_emulator/enroll", b'{"hostname": "laptop", "user_id": "owner-user"}')
    assert enrolled.status == 200
    assert login_expired() == [False]
    later = dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=2)  # the account's logins expire after a day
    monkeypatch.setattr(emulator_state, "now", lambda: later)
    monkeypatch.setattr(cache, "now", lambda: later)
    assert login_expired() == [True]


@pytest.mark.parametrize("count", [0, 1, 2, 3, 70, 2000])
def test_kept_text_is_what_json_dumps_writes(count: int) -> None:
    """Items with 0 to 3 groups (1, 2 or 6 orders: kept as texts, or drawn each time), a list in an object, short
    and long lists, answers drawn and answers kept."""
    dialect = Dialect("netbird").deferring()
    expected, items = [], []
    for index in range(count):
        groups = [{"id": f"g{number}", "name": 'a, "b" ]'} for number in range(index % 4)]
        expected.append({"id": index, "text": "\u00e9 \u2028", "groups": groups})
        items.append({"id": index, "text": "\u00e9 \u2028", "groups": dialect.order(list(groups)) if groups else groups})
    payload = {"items": dialect.order(items), "count": count}
    entry = cache.Entry(cache.compile_answer(payload, dialect.deferred or []), None)
    rng = random.Random(1)
    texts = set()
    for _answer in range(2 * cache.ORDERS_KEPT):
        text = entry.answer(rng)
        answer = json.loads(text)
        assert text == (json.dumps(answer) + "\n").encode()
        assert _canonical(answer) == _canonical({"items": expected, "count": count})
        texts.add(text)
    assert len(texts) > 1 or count < 2


def _canonical(value: Any) -> Any:
    """`value` with every list sorted: the same for two answers that differ only in their orders."""
    if isinstance(value, list):
        return sorted((_canonical(item) for item in value), key=json.dumps)
    if isinstance(value, dict):
        return {key: _canonical(item) for key, item in value.items()}
    return value


def test_an_order_is_drawn_evenly() -> None:
    shuffled = cache.Shuffled([(b"a1", b"a2"), b"b", b"c", (b"d1", b"d2")])
    rng = random.Random(3)
    counts: dict[tuple[bytes, ...], int] = {}
    for _draw in range(9600):
        drawn = tuple(shuffled.texts[pick] for pick in shuffled.order(rng))  # type: ignore[index]
        counts[drawn] = counts.get(drawn, 0) + 1
    assert len(counts) == 24 * 4  # every order of the four items, each with either text of a1/a2 and d1/d2
    assert min(counts.values()) > 50 and max(counts.values()) < 150  # 100 each on average
