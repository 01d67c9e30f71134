"""The answer cache: list reads kept as JSON text until the account changes.

Rendering and formatting a list of 25,000 peers took most of a second per read, so the benchmark at large sizes
measured the emulator more than the collection. An answer is kept per (path, query, caller) as the bytes
`json.dumps` writes for it, with the lists the dialect shuffles set apart (`Dialect.deferring`). Real servers answer
such lists in no fixed order, so the answer is sent in random orders: the first ORDERS_KEPT reads after a change each
draw a new one, kept whole (drawing 25,000 peers anew took longer than sending them), and later reads send one of
those, never the one sent just before. `App` forgets every answer on each write, control call (but the clearing of
the request log) and reset, and when a PAT request changes its user's `last_login`; an answer that changes with time
alone (a login or a setup key expiring) is kept until then (`State.changes_at`).
"""

from __future__ import annotations

import array
import datetime as dt
import itertools
import json
import math
import random
import re
import sys
import threading
from typing import Any, Union

from .dialect import PLACEHOLDER
from .util import now

# the list reads kept (no path parameter): not the token lists, a token's last_used changes with every request
CACHED_PATHS = frozenset((
    "/api/peers", "/api/groups", "/api/users", "/api/setup-keys", "/api/routes", "/api/dns/nameservers",
    "/api/policies", "/api/posture-checks", "/api/events", "/api/events/audit", "/api/accounts",
    "/api/networks", "/api/networks/resources", "/api/networks/routers", "/api/dns/zones",
))
PLACEHOLDER_TEXT = re.compile('"' + re.escape(PLACEHOLDER) + r'(\d+)"')
SEPARATOR = b", "  # between the items of a list, as json.dumps writes it
CUT = PLACEHOLDER + "cut"  # see compile_answer
CUT_TEXT = json.dumps(CUT)
VARIANTS_KEPT = 6  # a text with at most this many orders keeps them all (a peer in two or three groups)
ORDERS_KEPT = 4  # bodies of an answer kept in different random orders (25,000 peers: 19 MB each)
# the keys of Shuffled.order: doubles in [1, 2), which CPython sorts fastest, built and read as 8-byte words
FLOATS = sys.byteorder == "little" and array.array("d").itemsize == array.array("Q").itemsize == 8
ONE = 0x3FF << 52  # the sign and exponent of a double in [1, 2)
MANTISSA = (1 << 52) - 1


class Shuffled:
    """A list written in a new random order each time, each item as one of its possible texts (the orders of the
    lists inside it), drawn each time."""

    __slots__ = ("count", "width", "texts", "nodes", "words")

    def __init__(self, nodes: list[Node]) -> None:
        self.count = len(nodes)
        choices = [(node,) if isinstance(node, bytes) else node for node in nodes]
        if all(isinstance(texts, tuple) and len(texts) <= 2 for texts in choices):
            # item i's texts are texts[width * i:width * (i + 1)]; the one text of an item is there twice when
            # another item has two
            self.width = max(len(texts) for texts in choices)
            self.texts: list[bytes] | None = [text for texts in choices for text in (texts * 2)[:self.width]]
        else:
            self.width, self.texts = 0, None
        self.nodes = nodes if self.texts is None else None
        self.words: tuple[int, int, int] | None = None  # see order(); made on first use

    def order(self, rng: random.Random) -> list[int]:
        """Indexes of `texts`, one per item, in a new random order (every order as likely) and each drawn among its
        item's texts.

        random.shuffle draws a number per item in Python: for 25,000 peers longer than sending them. Here the items
        are sorted by random keys drawn at once: a double in [1, 2) per item, its mantissa random bits above the
        index of the item's first text, whose lowest bit, random too, picks one of its two texts. Two keys are equal
        (and keep their items' order) once in about 200 answers of 25,000 peers (36 random bits each)."""
        count, width = self.count, self.width
        index_bits = max(1, (width * count - 1).bit_length())
        if not FLOATS or index_bits > 40:
            picks = [width * item + rng.randrange(width) for item in range(count)]
            rng.shuffle(picks)
            return picks
        if self.words is None:
            kept = (MANTISSA >> index_bits << index_bits) | (width - 1)  # random bits kept in a key
            self.words = (
                int.from_bytes(array.array("Q", range(ONE, ONE + width * count, width)).tobytes(), "little"),
                int.from_bytes(kept.to_bytes(8, "little") * count, "little"),
                int.from_bytes(((1 << index_bits) - 1).to_bytes(8, "little") * count, "little"))
        firsts, kept_bits, index_mask = self.words
        keys = ((int.from_bytes(rng.randbytes(8 * count), "little") & kept_bits) | firsts).to_bytes(8 * count, "little")
        ordered = memoryview(keys).cast("d").tolist()
        ordered.sort()
        picks = int.from_bytes(array.array("d", ordered).tobytes(), "little") & index_mask
        return memoryview(picks.to_bytes(8 * count, "little")).cast("Q").tolist()

    def pieces(self, rng: random.Random) -> list[bytes]:
        """The items' texts in a new random order."""
        if self.texts is None:
            nodes = list(self.nodes or [])
            rng.shuffle(nodes)
            return [write(node, rng) for node in nodes]
        return list(map(self.texts.__getitem__, self.order(rng)))


class Joined:
    """Text made of parts, some of them shuffled lists."""

    __slots__ = ("parts",)

    def __init__(self, parts: list[Node]) -> None:
        self.parts = parts


# bytes: fixed text; tuple: one of these texts, drawn each time
Node = Union[bytes, tuple, Shuffled, Joined]


def compile_answer(payload: Any, deferred: list[list[Any]]) -> Node:
    """The text of `payload`, rendered by a `deferring` dialect, which left its shuffled lists in `deferred`
    (a list inside an item of another comes before it)."""
    # every item of every list in one json.dumps (one call per item took longer than rendering them), each followed
    # by a mark to cut the text at
    flat: list[Any] = []
    for items in deferred:
        for item in items:
            flat += (item, CUT)
    texts = json.dumps(flat)[1:-len(CUT_TEXT) - 3].split(f", {CUT_TEXT}, ") if flat else []
    lists: list[Node] = []
    start = 0
    for items in deferred:
        lists.append(_list([_item(text, lists) for text in texts[start:start + len(items)]]))
        start += len(items)
    return _item(json.dumps(payload), lists)


def _item(text: str, lists: list[Node]) -> Node:
    """The node of a JSON text, whose placeholders stand for `lists`: its texts when it has at most VARIANTS_KEPT."""
    parts = PLACEHOLDER_TEXT.split(text)
    if len(parts) == 1:
        return text.encode()
    if parts == ["", parts[1], ""]:
        return lists[int(parts[1])]  # a list, the answer of most list reads
    nodes = [lists[int(part)] if index % 2 else part.encode() for index, part in enumerate(parts)]
    choices = [(node,) if isinstance(node, bytes) else node for node in nodes]
    if all(isinstance(texts, tuple) for texts in choices) and math.prod(map(len, choices)) <= VARIANTS_KEPT:
        return tuple(b"".join(picked) for picked in itertools.product(*choices))
    return Joined(nodes)


def _list(nodes: list[Node]) -> Node:
    """The node of a shuffled list of these items: all its texts (orders) when it has at most VARIANTS_KEPT."""
    choices = [(node,) if isinstance(node, bytes) else node for node in nodes]
    if (len(nodes) <= 3 and all(isinstance(texts, tuple) for texts in choices)
            and math.factorial(len(nodes)) * math.prod(map(len, choices)) <= VARIANTS_KEPT):
        return tuple(b"[" + SEPARATOR.join(picked) + b"]" for order in itertools.permutations(choices)
                     for picked in itertools.product(*order))
    return Shuffled(nodes)


def write(node: Node, rng: random.Random) -> bytes:
    """One text of `node`: its shuffled lists in a new order, its variants drawn."""
    if isinstance(node, bytes):
        return node
    if isinstance(node, tuple):
        return node[rng.randrange(len(node))]
    if isinstance(node, Shuffled):
        return b"[" + SEPARATOR.join(node.pieces(rng)) + b"]"
    return b"".join(write(part, rng) for part in node.parts)


class Entry:
    """A kept answer: its one body, or the bodies drawn in random orders so far (up to ORDERS_KEPT)."""

    __slots__ = ("node", "until", "bodies", "last_sent", "lock")

    def __init__(self, node: Node, until: dt.datetime | None) -> None:
        self.node = node
        self.until = until
        self.bodies = [node + b"\n"] if isinstance(node, bytes) else []  # as `json_reply` writes it
        self.last_sent = 0  # the index in `bodies` of the body sent last
        self.lock = threading.Lock()

    def answer(self, rng: random.Random) -> bytes:
        """The body of an answer: a new order while fewer than ORDERS_KEPT are kept, then a kept one other than the
        last one sent, so that two answers in a row differ in order (as a real server's mostly do)."""
        if isinstance(self.node, bytes):
            return self.bodies[0]
        with self.lock:
            if len(self.bodies) == ORDERS_KEPT:
                self.last_sent = (self.last_sent + rng.randrange(1, ORDERS_KEPT)) % ORDERS_KEPT
                return self.bodies[self.last_sent]
        body = write(self.node, rng) + b"\n"  # outside the lock: another reader may send a kept order meanwhile
        with self.lock:
            if len(self.bodies) < ORDERS_KEPT:
                self.last_sent = len(self.bodies)
                self.bodies.append(body)
        return body


class AnswerCache:
    """Kept answers by (path, query, caller id); the caller holds the state lock around every call."""

    def __init__(self) -> None:
        self.entries: dict[tuple[str, str, str], Entry] = {}
        self.generation = 0  # counts forget(): an answer rendered before the last one is not kept

    def forget(self) -> None:
        self.entries.clear()
        self.generation += 1

    def get(self, key: tuple[str, str, str]) -> Entry | None:
        entry = self.entries.get(key)
        if entry is not None and entry.until is not None and now() >= entry.until:
            del self.entries[key]
            return None
        return entry

    def keep(self, key: tuple[str, str, str], node: Node, until: dt.datetime | None, generation: int) -> Entry:
        entry = Entry(node, until)
        if generation == self.generation:
            self.entries[key] = entry
        return entry
