"""Request context and the route table shared by all resource handlers."""

from __future__ import annotations

import json
import re
from typing import Any, Callable

from ..dialect import Dialect, Renderer
from ..state import Record, State
from ..util import PARSE_ERROR, ApiError, Body


READ_ROLES = ("network_admin", "auditor")  # v0.77 roles that read (nearly) every module


class Ctx:
    """What a handler sees: state, dialect, caller, path parameters, query and body."""

    def __init__(self, state: State, dialect: Dialect, caller: Record, params: dict[str, str],
                 query: dict[str, list[str]], raw_body: bytes) -> None:
        self.state = state
        self.dialect = dialect
        self.caller = caller
        self.params = params
        self.query = query
        self.raw_body = raw_body
        self.render = Renderer(state, dialect, caller["id"])

    @property
    def caller_id(self) -> str:
        return str(self.caller["id"])

    @property
    def admin(self) -> bool:
        return self.state.has_admin_power(self.caller)

    @property
    def service_or_admin(self) -> bool:
        """Read access of admins and of service users (any role); in v0.77 also of the roles that read everything
        (network_admin, auditor)."""
        if self.dialect.current and self.caller["role"] in READ_ROLES:
            return True
        return self.admin or bool(self.caller["is_service_user"])

    def require(self, allowed: bool, message: str, status: int = 403) -> None:
        if not allowed:
            raise ApiError(status, message)

    def body(self) -> Body:
        try:
            data = json.loads(self.raw_body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise ApiError(400, PARSE_ERROR, verbatim=True) from exc
        return Body(data)

    def event(self, code: str, target_id: str, meta: Record | None = None) -> None:
        self.state.event(code, self.caller_id, target_id, meta)


Handler = Callable[[Ctx], Any]


ALL_DIALECTS = ("seed", "netbird", "current")


class Router:
    """Path templates like `/api/groups/{groupId}` mapped to handlers per method, each served by some dialects
    (an endpoint a dialect does not serve is absent there: 404 or 405, as on that server)."""

    def __init__(self) -> None:
        # template -> method -> [(handler, dialects it serves)]: a method may have one handler per dialect family
        self.routes: list[tuple[re.Pattern[str], dict[str, list[tuple[Handler, tuple[str, ...]]]]]] = []
        self._by_template: dict[str, dict[str, list[tuple[Handler, tuple[str, ...]]]]] = {}

    def add(self, method: str, template: str, handler: Handler, dialects: tuple[str, ...] = ALL_DIALECTS) -> None:
        methods = self._by_template.get(template)
        if methods is None:
            pattern = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template)
            methods = {}
            self._by_template[template] = methods
            self.routes.append((re.compile(f"^{pattern}$"), methods))
        methods.setdefault(method, []).append((handler, dialects))

    def route(self, method: str, template: str, dialects: tuple[str, ...] = ALL_DIALECTS) -> Callable[[Handler], Handler]:
        def decorate(handler: Handler) -> Handler:
            self.add(method, template, handler, dialects)
            return handler
        return decorate

    def match(self, path: str, dialect: str = "seed") -> tuple[dict[str, Handler], dict[str, str]] | None:
        """The handlers per method of the first template matching `path` that `dialect` serves."""
        for pattern, methods in self.routes:
            found = pattern.match(path)
            if found:
                served = {method: handler for method, handlers in methods.items()
                          for handler, dialects in handlers if dialect in dialects}
                if served:
                    return served, found.groupdict()
        return None


ROUTER = Router()
route = ROUTER.route
CURRENT = ("current",)  # endpoints only v0.77 has
LEGACY_AND_SEED = ("seed", "netbird")  # endpoints v0.77 answers differently (its handler is registered apart)


def find(collection: dict[str, Record], key: str, message: str, status: int = 404) -> Record:
    """Look a record up by id or fail with the given error."""
    record = collection.get(key)
    if record is None:
        raise ApiError(status, message)
    return record


def check_group_ids(state: State, group_ids: list[str] | None) -> list[str]:
    """Route and nameserver group checks: non-empty, no empty string, all exist (422)."""
    if not group_ids:
        raise ApiError(422, "the list of group ids should not be empty")
    for gid in group_ids:
        if not gid:
            raise ApiError(422, "group id should not be empty string")
        if gid not in state.groups:
            raise ApiError(422, f"group id {gid} not found")
    return group_ids
