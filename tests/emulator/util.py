"""Small shared helpers: errors, timestamps, identifiers and request-body access."""

from __future__ import annotations

import datetime as dt
import functools
import random
from typing import Any

ZERO_TIME = "0001-01-01T00:00:00Z"
XID_ALPHABET = "0123456789abcdefghijklmnopqrstuv"
PARSE_ERROR = "couldn't parse JSON request"


class ApiError(Exception):
    """An error answered as `{"message", "code"}`.

    Real servers lower-case most messages (`util.WriteError`); a few are written verbatim.
    """

    def __init__(self, status: int, message: str, verbatim: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.message = message if verbatim else message.lower()


class DropConnection(Exception):
    """Close the connection without any response (what a server panic looks like)."""


class _Clock:
    """The server's clock: the machine's, shifted by ``offset`` seconds (POST /_emulator/config ``clock_offset``), to
    play a server whose clock is behind or ahead of its clients'; every time stamp it writes and its ``Date`` header
    follow it."""

    offset = 0.0


CLOCK = _Clock()


def now() -> dt.datetime:
    moment = dt.datetime.now(dt.timezone.utc)
    return moment + dt.timedelta(seconds=CLOCK.offset) if CLOCK.offset else moment


def iso(moment: dt.datetime | None) -> str:
    """ISO 8601 UTC with fractional seconds; None is Go's zero time."""
    if moment is None:
        return ZERO_TIME
    return _iso(moment)


@functools.lru_cache(maxsize=1 << 17)
def _iso(moment: dt.datetime) -> str:
    """Formatting was a quarter of a large list's answer: memoised (a peer's three time stamps are often one
    moment), and isoformat where it writes what strftime does (UTC, a four-digit year)."""
    if moment.tzinfo is dt.timezone.utc and moment.year >= 1000:
        return moment.isoformat(timespec="microseconds")[:-6] + "Z"
    return moment.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# where new_xid's growing part starts: a real xid's seconds of 2026-01-01
XID_EPOCH = 1767225600


def new_xid(rng: random.Random, sequence: int) -> str:
    """A 20-character lowercase base32hex identifier shaped like an xid, and ordered as a real server's are: an xid is
    4 bytes of seconds, 5 of machine and process, 3 of a counter, so a later id sorts after an earlier one. Here the
    first 4 bytes grow with ``sequence`` (one per id made), the other 8 are drawn from ``rng``. Which copy of a name
    concurrent runs keep (the lowest id: plugins/module_utils/_create.py) depends on it: a copy made later never sorts
    first on a real server, and must not here."""
    value = ((XID_EPOCH + sequence) % 2 ** 32) << 64 | rng.getrandbits(64)
    value <<= 4  # 96 bits in 20 characters of 5 bits, padded at the end as base32 pads
    return "".join(XID_ALPHABET[(value >> (5 * (19 - index))) & 31] for index in range(20))


def new_uuid(rng: random.Random) -> str:
    """A version-4 UUID string drawn from the given RNG (deterministic per seed)."""
    value = rng.getrandbits(128)
    value &= ~(0xF000 << 64)
    value |= 0x4000 << 64
    value &= ~(0xC000 << 48)
    value |= 0x8000 << 48
    text = f"{value:032x}"
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"


def fnv32a(text: str) -> int:
    """FNV-32a hash, used by real servers for setup key ids."""
    value = 0x811C9DC5
    for byte in text.encode():
        value ^= byte
        value = (value * 0x01000193) & 0xFFFFFFFF
    return value


def go_str(value: Any) -> str:
    """Format a value like Go's `%v` does for event meta values."""
    if value is None:
        return "<nil>"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + " ".join(go_str(item) for item in value) + "]"
    return str(value)


class Body:
    """Typed access to a decoded JSON object, with Go decoder semantics.

    Omitted members take zero values; a member of the wrong type is a 400, as with
    Go's `json.Decoder`.
    """

    def __init__(self, data: Any) -> None:
        if not isinstance(data, dict):
            raise ApiError(400, PARSE_ERROR, verbatim=True)
        self.data: dict[str, Any] = data

    def has(self, key: str) -> bool:
        return key in self.data and self.data[key] is not None

    def raw(self, key: str) -> Any:
        return self.data.get(key)

    def str(self, key: str, default: str = "") -> str:
        value = self.data.get(key)
        if value is None:
            return default
        if not isinstance(value, str):
            raise ApiError(400, PARSE_ERROR, verbatim=True)
        return value

    def bool(self, key: str, default: bool = False) -> bool:
        value = self.data.get(key)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise ApiError(400, PARSE_ERROR, verbatim=True)
        return value

    def int(self, key: str, default: int = 0) -> int:
        value = self.data.get(key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, (int, float)) or int(value) != value:
            raise ApiError(400, PARSE_ERROR, verbatim=True)
        return int(value)

    def str_list(self, key: str) -> list[str] | None:
        """The list, or None when omitted or null."""
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise ApiError(400, PARSE_ERROR, verbatim=True)
        return list(value)

    def obj(self, key: str) -> Body | None:
        value = self.data.get(key)
        if value is None:
            return None
        return Body(value)

    def obj_list(self, key: str) -> list[Body] | None:
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, list):
            raise ApiError(400, PARSE_ERROR, verbatim=True)
        return [Body(item) for item in value]


class _NoBody:
    """Marker for a 200 answer with an empty body (the `seed` dialect's DELETE)."""

    def __repr__(self) -> str:
        return "NO_BODY"


NO_BODY = _NoBody()
