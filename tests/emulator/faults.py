"""Fault injection: a queue of explicit faults, then a random rate of chosen kinds."""

from __future__ import annotations

import random
from typing import Any

KINDS = ("503", "429", "500", "drop", "slow", "truncated", "echo")
RANDOM_KINDS = KINDS[:-1]  # drawn at random unless "kinds" says otherwise (an echo is asked for by name)
HTML_ERROR = "<html><head><title>500 Internal Server Error</title></head><body>upstream failed</body></html>"
# how an "echo" fault quotes the request body: in the JSON answer's message, in a JSON answer without one (a client
# shows its text, the request escaped twice), or in a plain-text page
ECHO_FORMS = ("message", "object", "text", "html")


class Faults:
    """Decides, per `/api` request, whether a fault replaces or alters the answer."""

    def __init__(self) -> None:
        self.queue: list[dict[str, Any]] = []
        self.rate = 0.0
        self.kinds: list[str] = list(RANDOM_KINDS)
        self.retry_after = 1
        self.slow = 3.0
        self.rng = random.Random(0)

    def configure(self, spec: dict[str, Any]) -> None:
        """Replace the configuration (POST /_emulator/faults or --faults)."""
        kinds = [str(kind) for kind in spec.get("kinds", RANDOM_KINDS)]
        unknown = [kind for kind in kinds if kind not in KINDS]
        if unknown:
            raise ValueError(f"unknown fault kinds: {', '.join(unknown)}")
        rate = float(spec.get("rate", 0.0))
        if not 0.0 <= rate <= 1.0:
            raise ValueError("rate must be between 0 and 1")
        queue = [normalise(item) for item in spec.get("queue", [])]
        self.queue = queue
        self.rate = rate
        self.kinds = kinds
        self.retry_after = int(spec.get("retry_after", 1))
        self.slow = float(spec.get("slow", 3.0))
        self.rng = random.Random(spec.get("seed", 0))

    def clear(self) -> None:
        self.configure({})

    def describe(self) -> dict[str, Any]:
        return {"queue": list(self.queue), "rate": self.rate, "kinds": list(self.kinds),
                "retry_after": self.retry_after, "slow": self.slow}

    def next(self, method: str = "GET", path: str | None = None) -> dict[str, Any] | None:
        """The fault for the next request, if any (the caller holds the state lock). A queued fault
        with a "method" waits for the next request of that method, one with a "path" (such as
        "/api/policies") for the next request of that path; requests before it pass untouched."""
        if self.queue:
            wanted, where = self.queue[0].get("method"), self.queue[0].get("path")
            if (wanted is None or wanted == method) and (where is None or path is None or where == path):
                return self.queue.pop(0)
            return None
        if self.rate and self.kinds and self.rng.random() < self.rate:
            return self.of_kind(self.rng.choice(self.kinds))
        return None

    def of_kind(self, kind: str) -> dict[str, Any]:
        if kind == "429":
            return {"kind": kind, "status": 429, "retry_after": self.retry_after}
        if kind == "500":
            return {"kind": kind, "status": 500, "body": HTML_ERROR, "content_type": "text/html"}
        if kind == "503":
            return {"kind": kind, "status": 503}
        if kind == "slow":
            return {"kind": kind, "delay": self.slow}
        if kind == "echo":
            return {"kind": kind, "status": 500, "echo": "message"}
        return {"kind": kind, kind: True}


def normalise(item: dict[str, Any]) -> dict[str, Any]:
    """Queue entries: {"status"...}, {"drop": true}, {"delay": s}, {"truncated": true}, {"duplicate": true};
    {"status", "echo": form} quotes the request body (see ECHO_FORMS; true: "message")."""
    if not isinstance(item, dict):
        raise ValueError("a queued fault must be an object")
    fault = dict(item)
    if fault.get("echo") is True:
        fault["echo"] = "message"
    if fault.get("echo") not in (None, False) + ECHO_FORMS:
        raise ValueError(f"echo must be one of {', '.join(ECHO_FORMS)}, not {fault['echo']!r}")
    if fault.get("echo") and fault.get("kind") in (None, "echo"):
        fault.setdefault("status", 500)
        fault["status"] = int(fault["status"])
        fault["kind"] = "echo"
        return fault
    if fault.get("kind") in KINDS:
        base = Faults().of_kind(fault["kind"])
        base.update(fault)
        return base
    if fault.get("drop"):
        fault["kind"] = "drop"
    elif fault.get("truncated"):
        fault["kind"] = "truncated"
    elif fault.get("duplicate") or fault.get("kind") == "duplicate":
        # a list answer with one item twice (queued only, never a random kind)
        index = fault.get("index", 0)
        if isinstance(index, bool) or not isinstance(index, int):
            raise ValueError("duplicate: index must be a whole number (the item listed twice; negative from the end)")
        fault.update(kind="duplicate", duplicate=True, index=index)
    elif "status" in fault:
        fault["status"] = int(fault["status"])
        fault["kind"] = str(fault["status"])
    elif "delay" in fault:
        fault["kind"] = "slow"
    else:
        raise ValueError(f"cannot understand fault {item!r}")
    return fault


def parse_cli(spec: str) -> dict[str, Any]:
    """`rate=0.2,kinds=503+429+drop,seed=7,retry_after=1,slow=3.0` -> configure() input."""
    result: dict[str, Any] = {}
    for part in filter(None, (chunk.strip() for chunk in spec.split(","))):
        key, _sep, value = part.partition("=")
        if key == "kinds":
            result["kinds"] = [kind for kind in value.split("+") if kind]
        elif key == "queue":
            result["queue"] = [{"kind": kind} for kind in value.split("+") if kind]
        elif key in ("rate", "slow"):
            result[key] = float(value)
        elif key in ("seed", "retry_after"):
            result[key] = int(value)
        else:
            raise ValueError(f"unknown fault option {key}")
    return result
