"""The five routes of a plain kind (list, create, read, update, delete), written once and read from a table.

A kind on this table declares only what its real server does differently: its path and records, the checks of a
body, the checks against what is stored, its words when a record is missing, who may read or write, what its answer
shows and the audit events it leaves. The steps, and their order, are here:

- list:   read access, then every record rendered;
- create: write access, the body's fields (``fields(ctx, True)``), ``accept(ctx, fields, None)``, the new record,
          its event;
- read:   read access, the record (404 in the kind's words), rendered;
- update: write access, the record and the body's fields in the order the server takes them (``body_first``: v0.77
          reads the body before it looks the record up), ``accept(ctx, fields, record)``, the record updated with
          the fields, its event;
- delete: write access, the record, ``removing(ctx, record)`` (a refusal while the record is used, or what goes
          with it), the record removed, its event.

Kinds whose two dialects differ in their steps, not only in their words (routes, nameserver groups, policies, groups,
setup keys, peers) and kinds under a parent (a network's resources and routers, a zone's records) keep handlers of their
own, as do the kinds without five routes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Union

from ..state import Record, State
from ..util import ApiError
from .base import ALL_DIALECTS, ROUTER, Ctx, Router


def kept(state: State, name: str) -> dict[str, Record]:
    """The state's records of a kind that the state does not hold from the start (made on first use, so a reset
    starts without them)."""
    records = getattr(state, name, None)
    if records is None:
        records = {}
        setattr(state, name, records)
    return records


def anyone(ctx: Ctx) -> bool:
    return True


def admins(ctx: Ctx) -> bool:
    return ctx.admin


def service_users_or_admins(ctx: Ctx) -> bool:
    return ctx.service_or_admin


def shown_as_stored(ctx: Ctx, record: Record, step: str) -> Record:
    return dict(record)


def accepted(ctx: Ctx, fields: Record, current: Optional[Record]) -> None:
    """Nothing stored refuses the fields."""


def named(ctx: Ctx, record: Record) -> Record:
    return {"name": record["name"]}


def nothing_with_it(ctx: Ctx, record: Record) -> None:
    """Nothing refuses the deletion, nothing goes with the record."""


@dataclass(frozen=True)
class CrudKind:
    """One kind's declaration: what its server does that the steps of this module do not."""

    path: str  # the list path; a record's path is path/{param}
    param: str
    store: str  # the State attribute its records are kept in, by id
    fields: Callable[[Ctx, bool], Record]  # the body's fields, checked as the server checks a body (creating?)
    # the 404's words, with {wrap} (the method's prefix, from wraps) and {id}; or, where the dialects word it
    # otherwise, a function of the context, the method and the id
    missing: Union[str, Callable[[Ctx, str, str], str]]
    wraps: dict[str, str] = field(default_factory=dict)  # method -> the prefix its 404 carries
    # checks against the state (the record updated, None when creating); may adjust the fields, and the record
    accept: Callable[[Ctx, Record, Optional[Record]], None] = accepted
    body_first: bool = False
    readable: Callable[[Ctx], bool] = admins
    writable: Callable[[Ctx], bool] = anyone
    denied: str = "permission denied"
    new_id: Callable[[State], str] = lambda state: state.new_id()
    render: Callable[[Ctx, Record, str], Record] = shown_as_stored  # step: list, create, read, update
    # the audit code's stem ("dns.zone": dns.zone.create, .update, .delete), or a function of the context and the
    # verb (create, update, delete); none when empty
    event: Union[str, Callable[[Ctx, str], str]] = ""
    meta: Callable[[Ctx, Record], Record] = named
    removing: Callable[[Ctx, Record], None] = nothing_with_it
    deleted: Callable[[Ctx], Any] = lambda ctx: {}  # a DELETE's answer
    dialects: tuple[str, ...] = ALL_DIALECTS

    def records(self, ctx: Ctx) -> dict[str, Record]:
        return kept(ctx.state, self.store)

    def found(self, ctx: Ctx, method: str) -> Record:
        record_id = ctx.params[self.param]
        record = self.records(ctx).get(record_id)
        if record is None:
            if callable(self.missing):
                raise ApiError(404, self.missing(ctx, method, record_id))
            raise ApiError(404, self.missing.format(wrap=self.wraps.get(method, ""), id=record_id))
        return record

    def audit(self, ctx: Ctx, verb: str, record: Record) -> None:
        if callable(self.event):
            ctx.event(self.event(ctx, verb), record["id"], self.meta(ctx, record))
        elif self.event:
            ctx.event("%s.%s" % (self.event, verb), record["id"], self.meta(ctx, record))


def serve(kind: CrudKind, router: Router = ROUTER) -> CrudKind:
    """Add the kind's five routes to the route table."""

    def listed(ctx: Ctx) -> Any:
        ctx.require(kind.readable(ctx), kind.denied)
        return [kind.render(ctx, record, "list") for record in kind.records(ctx).values()]

    def create(ctx: Ctx) -> Any:
        ctx.require(kind.writable(ctx), kind.denied)
        fields = kind.fields(ctx, True)
        kind.accept(ctx, fields, None)
        record = dict(fields, id=kind.new_id(ctx.state))
        kind.records(ctx)[record["id"]] = record
        kind.audit(ctx, "create", record)
        return kind.render(ctx, record, "create")

    def read(ctx: Ctx) -> Any:
        ctx.require(kind.readable(ctx), kind.denied)
        return kind.render(ctx, kind.found(ctx, "GET"), "read")

    def update(ctx: Ctx) -> Any:
        ctx.require(kind.writable(ctx), kind.denied)
        if kind.body_first:
            fields = kind.fields(ctx, False)
            record = kind.found(ctx, "PUT")
        else:
            record = kind.found(ctx, "PUT")
            fields = kind.fields(ctx, False)
        kind.accept(ctx, fields, record)
        record.update(fields)
        kind.audit(ctx, "update", record)
        return kind.render(ctx, record, "update")

    def delete(ctx: Ctx) -> Any:
        ctx.require(kind.writable(ctx), kind.denied)
        record = kind.found(ctx, "DELETE")
        kind.removing(ctx, record)
        del kind.records(ctx)[record["id"]]
        kind.audit(ctx, "delete", record)
        return kind.deleted(ctx)

    item = "%s/{%s}" % (kind.path, kind.param)
    for method, template, handler in (("GET", kind.path, listed), ("POST", kind.path, create), ("GET", item, read),
                                      ("PUT", item, update), ("DELETE", item, delete)):
        router.add(method, template, handler, kind.dialects)
    return kind
