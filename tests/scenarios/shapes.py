# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The shape of an API answer, and the differences between the emulator's answers and a real server's.

A scenario runs the same module tasks against the emulator (its ``netbird`` or ``current`` dialect) and the real
release it imitates (v0.27.6, v0.77.1), both behind a recording proxy. Each exchange is reduced to what a client
relies on: the request (method, path with ids as ``{id}``), the status, and the answer's shape (JSON types of every
member, ``null`` apart from ``[]``, wrappers), plus the message of an error answer. Values (ids, timestamps, names
the server makes up) are not compared. :func:`differences` lists every difference that ALLOWED does not explain.
"""

from __future__ import annotations

import fnmatch
import json
import re

# What can't be helped, each with why: (release, exchange pattern, member pattern or "", reason). Patterns are
# fnmatch patterns over "METHOD /api/path/{id}" and the member path ("$[].city_name").
ALLOWED = (
)

# path segments that are words of the API; any other segment is an id (or a country code, a user's id...)
_WORDS = re.compile(r"\A(api|[a-z]+(-[a-z]+)*)\Z")
_ID_LIKE = re.compile(r"[0-9]|\A[a-z0-9]{20}\Z")


def template(path):
    """``/api/groups/ch8i4ug6lnn4g9hqv7m0`` -> ``/api/groups/{id}``."""
    parts = []
    for segment in path.split("/"):
        parts.append(segment if not segment or (_WORDS.match(segment) and not _ID_LIKE.search(segment)) else "{id}")
    return "/".join(parts)


def shape(value):
    """The JSON types of ``value``: a dict of member shapes, ``[shape of any item]``, ``[]`` for an empty list,
    or the type's name (``string``, ``number``, ``boolean``, ``null``)."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        if not value:
            return []
        merged = shape(value[0])
        for item in value[1:]:
            merged = _merge(merged, shape(item))
        return [merged]
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return "string"


def _merge(one, other):
    """The shape of a list's items when two items differ: a dict of every member (a member one item lacks is
    ``absent``), or the alternatives ``a|b``."""
    if isinstance(one, dict) and isinstance(other, dict):
        merged = {}
        for key in list(one) + [k for k in other if k not in one]:
            merged[key] = _merge(one.get(key, "absent"), other.get(key, "absent"))
        return merged
    if isinstance(one, list) and isinstance(other, list):
        if not one or not other:
            return one or other
        return [_merge(one[0], other[0])]
    if one == other:
        return one
    return "|".join(sorted(set(_text(one).split("|")) | set(_text(other).split("|"))))


def _text(value):
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def compare(emulated, real, where="$"):
    """``[(member path, emulator's shape, real server's shape)]`` where the two shapes differ."""
    if isinstance(emulated, dict) and isinstance(real, dict):
        found = []
        for key in sorted(set(emulated) | set(real)):
            found.extend(compare(emulated.get(key, "absent"), real.get(key, "absent"), "%s.%s" % (where, key)))
        return found
    if isinstance(emulated, list) and isinstance(real, list) and emulated and real:
        return compare(emulated[0], real[0], where + "[]")
    if emulated == real:
        return []
    return [(where, _brief(emulated), _brief(real))]


def _brief(value):
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "[]" if not value else "list"
    return value


def exchange_key(entry):
    return "%s %s" % (entry["method"], template(entry["path"]))


# Ids a server makes up, inside error messages: a message is compared with each such id replaced by its kind, so
# "peer with x not found under account 5ca88c4d-a345-4ed0-b4e3-4ed23a6dc0ff" (the account's id is random per server)
# matches the emulator's words for its own account, while an id of another form (the emulator's old "account-1") still
# differs. Only these well-formed kinds are replaced: UUIDs (accounts, service users), the embedded identity provider's
# user ids, xids (20 characters of base32hex: groups, peers, policies, routes...), and the label of an Agent Network
# endpoint.
_MESSAGE_IDS = ((re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"), "{uuid}"),
                # a user id of the embedded identity provider (Dex: the UUID and connector "local", base64)
                (re.compile(r"\bCi[QRST][0-9A-Za-z_-]{40,60}SBWxvY2Fs\b", re.IGNORECASE), "{dex}"),
                (re.compile(r"\b[0-9a-v]{20}\b"), "{xid}"),
                # the label v0.77 makes up for an Agent Network endpoint ("deft-woolgrass".<proxy address>)
                (re.compile(r'(?<=assigned endpoint ")[a-z]+-[a-z]+(?=\.)'), "{label}"))


def message_of(answer):
    """The message of an error answer (its text when it is not JSON), with made-up ids replaced (_MESSAGE_IDS)."""
    message = answer.get("message") if isinstance(answer, dict) else answer
    if isinstance(message, str):
        for pattern, kind in _MESSAGE_IDS:
            message = pattern.sub(kind, message)
    return message


def differences(release, steps_emulated, steps_real):
    """Every difference between two recordings of one scenario (``[(step name, [log entries])]`` each) that
    ALLOWED does not explain, as lines of text (one per difference, naming the first step that showed it)."""
    found = {}
    for (step, emulated), (dummy, real) in zip(steps_emulated, steps_real):
        calls_emulated = [exchange_key(e) + " -> %s" % e["status"] for e in emulated]
        calls_real = [exchange_key(e) + " -> %s" % e["status"] for e in real]
        if calls_emulated != calls_real:
            found.setdefault("%s: the requests differ:\n      emulator: %s\n      real:     %s"
                             % (step, calls_emulated, calls_real), step)
            continue
        for one, other in zip(emulated, real):
            key = exchange_key(one)
            problems = compare(shape(one["answer"]), shape(other["answer"]))
            if one["status"] >= 400 and message_of(one["answer"]) != message_of(other["answer"]):
                problems.append(("message", message_of(one["answer"]), message_of(other["answer"])))
            for member, mine, theirs in problems:
                if not allowed(release, key, member):
                    found.setdefault("%s %s: emulator %s, real %s" % (key, member, mine, theirs), step)
    return ["%s (first in step %r)" % (text, step) if not text.startswith(step + ":") else text
            for text, step in found.items()]


def allowed(release, key, member):
    return any(fnmatch.fnmatchcase(release, rel) and fnmatch.fnmatchcase(key, pattern)
               and fnmatch.fnmatchcase(member, member_pattern)
               for rel, pattern, member_pattern, dummy_reason in ALLOWED)
