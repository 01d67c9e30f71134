"""The emulator's CRUD table (tests/emulator/handlers/crud.py): the steps a declared kind is served by, their order,
and the declaration's words, checks and events, on a route table of the test's own (no server, no HTTP)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.emulator.dialect import Dialect
from tests.emulator.handlers.base import Ctx, Router
from tests.emulator.handlers.crud import CrudKind, admins, serve
from tests.emulator.seed import build_initial, new_user
from tests.emulator.state import Record, State
from tests.emulator.util import ApiError

PATH = "/api/widgets"


def widget_fields(ctx: Ctx, creating: bool) -> Record:
    body = ctx.body()
    if not body.str("name"):
        raise ApiError(422, "widget name is required")
    return {"name": body.str("name"), "size": body.int("size")}


def widget_change(ctx: Ctx, fields: Record, widget: Record | None) -> None:
    if any(other["name"] == fields["name"] and other is not widget for other in ctx.state.widgets.values()):
        raise ApiError(409, "widget %s exists" % fields["name"])


def widget_unused(ctx: Ctx, widget: Record) -> None:
    if widget["name"] == "pinned":
        raise ApiError(412, "widget is in use")


def served(**declared: Any) -> tuple[Router, State]:
    router, state = Router(), State()
    build_initial(state, None, dialect="current")
    state.widgets = {}  # type: ignore[attr-defined]
    declaration: dict[str, Any] = dict(path=PATH, param="widgetId", store="widgets", fields=widget_fields,
                                       missing="{wrap}widget: {id} not found", wraps={"PUT": "failed to get widget: "},
                                       accept=widget_change, event="widget", removing=widget_unused)
    declaration.update(declared)
    serve(CrudKind(**declaration), router)
    return router, state


def call(router: Router, state: State, method: str, path: str, body: Any = None, caller: str = "owner-user",
         dialect: str = "current") -> Any:
    handlers, params = router.match(path, dialect) or ({}, {})
    raw = json.dumps(body).encode() if body is not None else b""
    return handlers[method](Ctx(state, Dialect(dialect), state.users[caller], params, {}, raw))


def refused(router: Router, state: State, method: str, path: str, body: Any = None, **how: Any) -> tuple[int, str]:
    with pytest.raises(ApiError) as caught:
        call(router, state, method, path, body, **how)
    return caught.value.status, str(caught.value)


def codes(state: State) -> list[str]:
    return [event["activity_code"] for event in state.events if event["activity_code"].startswith("widget.")]


def test_a_declared_kind_is_served_its_five_steps_with_its_events() -> None:
    router, state = served()
    made = call(router, state, "POST", PATH, {"name": "a", "size": 1})
    assert made == {"name": "a", "size": 1, "id": made["id"]} and made["id"] in state.widgets
    assert call(router, state, "GET", PATH) == [made]
    assert call(router, state, "GET", "%s/%s" % (PATH, made["id"])) == made
    assert call(router, state, "PUT", "%s/%s" % (PATH, made["id"]), {"name": "b", "size": 2})["name"] == "b"
    assert state.widgets[made["id"]] == {"name": "b", "size": 2, "id": made["id"]}
    assert call(router, state, "DELETE", "%s/%s" % (PATH, made["id"])) == {}
    assert state.widgets == {} and codes(state) == ["widget.create", "widget.update", "widget.delete"]


def test_a_missing_record_is_told_in_the_kinds_words_per_method() -> None:
    router, state = served()
    assert refused(router, state, "GET", PATH + "/nope") == (404, "widget: nope not found")
    assert refused(router, state, "PUT", PATH + "/nope", {"name": "x"}) == (404, "failed to get widget: widget: nope not found")
    assert refused(router, state, "DELETE", PATH + "/nope") == (404, "widget: nope not found")


def test_the_words_may_depend_on_the_dialect() -> None:
    router, state = served(missing=lambda ctx, method, wid: ("gone: %s" if ctx.dialect.current else "%s? " + method) % wid,
                           dialects=("netbird", "current"))
    assert refused(router, state, "GET", PATH + "/x")[1] == "gone: x"
    assert refused(router, state, "DELETE", PATH + "/x", dialect="netbird")[1] == "x? DELETE"


def test_an_update_checks_the_body_before_the_lookup_only_when_declared() -> None:
    router, state = served()
    assert refused(router, state, "PUT", PATH + "/nope", {"name": ""})[0] == 404  # the lookup first
    router, state = served(body_first=True)
    assert refused(router, state, "PUT", PATH + "/nope", {"name": ""}) == (422, "widget name is required")


def test_accept_sees_the_state_and_a_refusal_writes_nothing() -> None:
    router, state = served()
    first = call(router, state, "POST", PATH, {"name": "a"})
    second = call(router, state, "POST", PATH, {"name": "b"})
    assert refused(router, state, "POST", PATH, {"name": "a"}) == (409, "widget a exists")
    assert refused(router, state, "PUT", "%s/%s" % (PATH, second["id"]), {"name": "a"}) == (409, "widget a exists")
    assert call(router, state, "PUT", "%s/%s" % (PATH, first["id"]), {"name": "a", "size": 3})["size"] == 3  # its own name
    assert sorted(item["name"] for item in state.widgets.values()) == ["a", "b"]
    assert codes(state) == ["widget.create", "widget.create", "widget.update"]


def test_removing_may_refuse_and_then_nothing_is_deleted() -> None:
    router, state = served()
    pinned = call(router, state, "POST", PATH, {"name": "pinned"})
    assert refused(router, state, "DELETE", "%s/%s" % (PATH, pinned["id"])) == (412, "widget is in use")
    assert pinned["id"] in state.widgets and codes(state) == ["widget.create"]


def test_access_is_checked_first_in_the_kinds_words() -> None:
    router, state = served(readable=admins, writable=admins, denied="widgets are for admins")
    plain = [new_user(state, email="plain@example.com", name="Plain", role="user")["id"]]
    assert refused(router, state, "GET", PATH, caller=plain[0]) == (403, "widgets are for admins")
    assert refused(router, state, "POST", PATH, {"name": ""}, caller=plain[0]) == (403, "widgets are for admins")
    assert refused(router, state, "DELETE", PATH + "/nope", caller=plain[0])[0] == 403  # before the lookup


def test_a_kind_is_served_only_in_its_dialects() -> None:
    router, _state = served(dialects=("current",))
    assert router.match(PATH, "current") is not None
    assert router.match(PATH, "netbird") is None and router.match(PATH + "/x", "seed") is None
