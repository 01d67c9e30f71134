"""Keep the emulator's account in a file (`--state-file`), so that a sandbox survives a restart.

The file is JSON: the account's records as the emulator holds them, with timestamps, sets and tuples
tagged (`{"$datetime": ...}`, `{"$set": [...]}`, `{"$tuple": [...]}`), the id generator's state (ids
go on where they stopped), the owner's token, which the sandbox prints again after a restart, and the
dialect the account was made in (a restart speaks it again; a file written before it was kept loads in the dialect
asked for). A file that is not such a state file, or whose account is damaged (a record of the wrong type, a field
missing), is refused with a StateFileError naming the file and what is wrong, and is never written over.
It is written to a temporary file beside it and renamed over it, so a crash never leaves half a file.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import tempfile
from typing import Any

from .dialect import DIALECTS
from .state import State
from .tokens import hash_token, is_well_formed

FORMAT = 1
# State attributes that make up the account (the lock and the RNG are handled apart)
FIELDS = ("account", "users", "tokens", "token_by_hash", "peers", "groups", "policies", "posture_checks", "routes",
          "nameservers", "setup_keys", "dns", "events", "event_seq", "used_ips", "labels", "idp", "geo")
# kept since the current dialect (and the ids' sequence since ids sort as they were made); a state file written before
# them loads with them empty
OPTIONAL_FIELDS = ("xid_keys", "networks", "network_resources", "network_routers", "zones", "id_sequence")
# State attributes that are no part of the account; every other attribute is kept, also the collections handler modules
# add to the state when first used (identity providers, invites, peer jobs, passwords...): a file that holds such a
# collection gives it back (a dict of records, or of values by key), one without it loads without it
# version: a test's configuration (/_emulator/config); public_invite_buckets: the invitee calls' rate limit
NOT_KEPT = ("lock", "rng", "changes_at", "version", "public_invite_buckets")


def _added(state: State) -> tuple[str, ...]:
    """The state's attributes beyond FIELDS and OPTIONAL_FIELDS (the collections handler modules added), sorted."""
    return tuple(sorted(name for name in vars(state) if name not in FIELDS + OPTIONAL_FIELDS + NOT_KEPT))


class StateFileError(ValueError):
    """A state file that cannot be used (the message names the file and why)."""


def _encode(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return {"$datetime": value.isoformat()}
    if isinstance(value, (set, frozenset)):
        return {"$set": [_encode(item) for item in sorted(value, key=str)]}
    if isinstance(value, tuple):
        return {"$tuple": [_encode(item) for item in value]}
    if isinstance(value, list):
        return [_encode(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _encode(item) for key, item in value.items()}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"cannot keep a {type(value).__name__} in the state file")


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(item) for item in value]
    if not isinstance(value, dict):
        return value
    if len(value) == 1:
        ((tag, item),) = value.items()
        if tag == "$datetime":
            return dt.datetime.fromisoformat(item)
        if tag == "$set":
            return {_decode(part) for part in item}
        if tag == "$tuple":
            return tuple(_decode(part) for part in item)
    return {key: _decode(item) for key, item in value.items()}


def save(state: State, token: str, path: str, dialect: str | None = None) -> None:
    """Write the account, the owner's token and the dialect to `path`, atomically, readable by the owner only."""
    data = {"format": FORMAT, "owner_token": token, "rng": _encode(state.rng.getstate()),
            "state": {name: _encode(getattr(state, name)) for name in FIELDS + OPTIONAL_FIELDS + _added(state)}}
    if dialect is not None:
        data["dialect"] = dialect
    directory = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(prefix=".state-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(data, stream)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def _read(path: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as stream:
            data = json.load(stream)
    except OSError as exc:  # unreadable: its permissions, a directory
        raise StateFileError(f"state file {path}: cannot be read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise StateFileError(f"state file {path}: cannot be read: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except RecursionError:
        raise StateFileError(f"state file {path}: cannot be read: its JSON is nested too deeply") from None
    except ValueError as exc:
        raise StateFileError(f"state file {path}: cannot be read: not JSON ({exc})") from None
    version = data.get("format") if isinstance(data, dict) else None
    if isinstance(version, bool) or version != FORMAT or not isinstance(data.get("state"), dict):  # true equals 1
        raise StateFileError(f"state file {path}: not a state file of this emulator (format {FORMAT})")
    return data


def stored_dialect(path: str) -> str | None:
    """The dialect the account kept in `path` was made in (None for a file written before it was kept)."""
    dialect = _read(path).get("dialect")
    if dialect is not None and dialect not in DIALECTS:
        raise StateFileError(f"state file {path}: damaged: its dialect {dialect!r} is none of {', '.join(DIALECTS)}")
    return dialect


def _check_types(path: str, state: State) -> None:
    """Each loaded field has the type a new account's has, and each record of a collection is an object."""
    fresh = State()
    for name in FIELDS + OPTIONAL_FIELDS:
        value, expected = getattr(state, name), getattr(fresh, name)
        if name == "account":
            kinds: tuple[type, ...] = (dict, type(None))
        elif isinstance(expected, bool):
            kinds = (bool,)
        elif isinstance(expected, int):
            kinds = (int,)
        else:
            kinds = (type(expected),)
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            raise StateFileError(f"state file {path}: damaged: {name} is {type(value).__name__}, not "
                                 f"{' or '.join(kind.__name__ for kind in kinds)}")
        if isinstance(expected, dict) and not expected:  # a collection of records by id (token ids by hash)
            kind = str if name == "token_by_hash" else dict
            bad = [key for key, record in value.items() if not isinstance(record, kind)]
            if bad:
                raise StateFileError(f"state file {path}: damaged: {name}[{bad[0]!r}] is "
                                     f"{type(value[bad[0]]).__name__}, not {kind.__name__}")
        if name == "events":
            bad = [index for index, record in enumerate(value) if not isinstance(record, dict)]
            if bad:
                raise StateFileError(f"state file {path}: damaged: events[{bad[0]}] is not an object")


def stored_token(path: str) -> str:
    """The owner's token kept in the state file at `path`."""
    token = _read(path).get("owner_token")
    if not isinstance(token, str):
        raise StateFileError(f"state file {path}: holds no owner token")
    if not is_well_formed(token):  # the token itself is never shown
        raise StateFileError(f"state file {path}: damaged: its owner token is not a well-formed personal access token "
                             f"(nbp_ and 36 characters whose last 6 are the checksum)")
    return token


def load(path: str, token: str) -> State:
    """The account kept in `path`; `token` must be the owner's token kept with it."""
    data = _read(path)
    if data.get("owner_token") != token:
        raise StateFileError(f"state file {path}: kept with another owner token (leave --token out to use its own)")
    saved = data["state"]
    missing = [name for name in FIELDS if name not in saved]
    if missing:
        raise StateFileError(f"state file {path}: lacks {', '.join(missing)}")
    state = State()
    try:
        for name in FIELDS + tuple(name for name in OPTIONAL_FIELDS if name in saved):
            setattr(state, name, _decode(saved[name]))
        state.rng.setstate(_decode(data["rng"]))
        added = {name: _decode(value) for name, value in saved.items() if name not in FIELDS + OPTIONAL_FIELDS}
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError) as exc:
        what = f"lacks {exc}" if isinstance(exc, KeyError) else f"{type(exc).__name__}: {exc}"
        raise StateFileError(f"state file {path}: damaged: {what}") from None
    for name, value in added.items():
        if name in NOT_KEPT or not name.isidentifier() or name.startswith("_") or callable(getattr(state, name, None)):
            raise StateFileError(f"state file {path}: damaged: {name!r} is no collection of the account")
        expected = getattr(state, name, None)
        if expected is not None and not isinstance(value, type(expected)):
            raise StateFileError(f"state file {path}: damaged: {name} is {type(value).__name__}, not {type(expected).__name__}")
        if expected is None and not isinstance(value, dict):
            raise StateFileError(f"state file {path}: damaged: {name} is {type(value).__name__}, not dict")
        setattr(state, name, value)
    _check_types(path, state)
    if hash_token(token) not in state.token_by_hash:
        raise StateFileError(f"state file {path}: the owner token is not among its tokens")
    return state
