# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Names to ids: one list request per kind, unknown and ambiguous names fail clearly."""

from __future__ import annotations

import difflib
import re

from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._names import NameLookup, named_refs
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._server import ServerInfo
from ansible_collections.nms.overlay.plugins.module_utils._tables import RESOLVER_TABLE


class ResolveError(TaskError):
    """A reference that names nothing, or more than one thing."""


# nouns whose plural is not the noun + s (see plural())
_IRREGULAR = {'DNS settings': 'DNS settings', 'account settings': 'account settings'}


def plural(what, count=2):
    """The noun for count things: policy -> policies, posture check -> posture checks, setup key -> setup keys."""
    if count == 1:
        return what
    if what in _IRREGULAR:
        return _IRREGULAR[what]
    if what.endswith('y') and what[-2:-1] not in ('a', 'e', 'i', 'o', 'u'):
        return what[:-1] + 'ies'
    if what.endswith(('s', 'x', 'z', 'ch', 'sh')):
        return what + 'es'
    return what + 's'


# fields matched without regard to case (an email address names one mailbox however it is written)
CASELESS_FIELDS = frozenset(('email',))

# kinds whose list today's servers filter by a name: GET /peers?name=web answers the peers whose names contain "web" (SQL
# LIKE: any case on SQLite, and _ and % match anything), a v0.27 server ignores it and answers them all. Either way
# the answer holds every peer of that exact name, so a few names are resolved without listing 25,000 peers.
NAME_FILTERS = {'peers': 'name'}
MAX_FILTERED_NAMES = 5  # more names than this: one whole list costs less than a request each
# kinds of which a group every account has lists every object with its id and name: NetBird's All group holds every
# peer (each new peer joins it, a deleted one leaves it) and can be neither edited, renamed nor deleted. A task that
# has read the groups resolves peers there, with no request of its own (25,000 peers: 19 MB the task does not read).
EVERY_ONE_GROUP = {'peers': 'All'}
ID_SHAPE = re.compile(r'^[0-9a-v]{20}$')  # NetBird's ids (xid): such a value is resolved against the whole list
# lists at least this long are looked up by their index (ListIndex) rather than scanned for each reference
INDEXED_FROM = 64


def find_unique(items, value, fields, what, option):
    """The one item whose id, or else one of fields, equals value; None when nothing matches.

    A value that is the id of one item and the name (a field) of another names two things: that fails listing
    both, as an ambiguous name does (never take the first)."""
    value = str(value)
    by_id = [item for item in items if ref_id(item) == value]
    if by_id:
        named = [(field, item) for field in fields for item in items
                 if item is not by_id[0] and _field_matches(item, field, value)]
        if named:
            raise ResolveError("%s: '%s' is the id of the %s %s and the %s of the %s with id %s; rename one of them "
                               "to tell them apart" % (option, value, what, _shown(by_id[0], fields, value), named[0][0],
                                                       what if len(named) == 1 else plural(what),
                                                       ', '.join(sorted(ref_id(item) for dummy, item in named))))
        return by_id[0]
    for index, field in enumerate(fields):
        matches = ([item for item in items if item.get(field) == value] if field not in CASELESS_FIELDS
                   else [item for item in items if _field_matches(item, field, value)])
        if len(matches) > 1:
            raise ResolveError("%s: the %s '%s' matches %d %s (ids: %s); give the id instead" % (
                option, field, value, len(matches), plural(what), ', '.join(sorted(ref_id(m) for m in matches))))
        if len(matches) == 1:
            # a value that is this item's field and another item's other field (a zone's domain and another zone's
            # name) names two things: that fails listing both, as an id that is another item's name does
            others = [(other, item) for other in fields[index + 1:] for item in items
                      if item is not matches[0] and _field_matches(item, other, value)]
            if others:
                raise ResolveError("%s: '%s' is the %s of the %s with id %s and the %s of the %s with id %s; give the id "
                                   "instead" % (option, value, field, what, ref_id(matches[0]), others[0][0],
                                                what if len(others) == 1 else plural(what),
                                                ', '.join(sorted(ref_id(item) for dummy, item in others))))
            return matches[0]
    return None


def suggestions(items, values, fields, limit=3):
    """The existing names closest to unknown values (difflib), for a "did you mean" in a not-found error."""
    names = sorted(set(item[field] for item in items for field in fields
                       if isinstance(item, dict) and isinstance(item.get(field), str) and item[field]))
    close = []
    for value in values:
        for name in difflib.get_close_matches(str(value), names, n=limit, cutoff=0.6):
            if name not in close:
                close.append(name)
    return close[:limit]


def _field_matches(item, field, value):
    if field in CASELESS_FIELDS:
        return isinstance(item.get(field), str) and item[field].lower() == value.lower()
    return item.get(field) == value


def _shown(item, fields, value):
    """An object for a message: its first non-empty field and its id."""
    for field in fields:
        if isinstance(item.get(field), str) and item[field]:
            return "'%s' (id %s)" % (item[field], value)
    return '(id %s)' % value


def every_one(kind, groups):
    """Every object of the kind as the group that holds them all lists them ({id, name}; see EVERY_ONE_GROUP), when
    ``groups`` (the list, if the task has read it) has exactly one group of that name (a v0.27 server lets another
    group be renamed so), else None. A name it does not resolve, or resolves to more than one object, is decided on
    the whole list as before, so errors and their suggestions stay the same."""
    name = EVERY_ONE_GROUP.get(kind)
    holders = [group for group in groups or () if isinstance(group, dict) and group.get('name') == name] if name else ()
    if len(holders) != 1 or not isinstance(holders[0].get('peers'), list):
        return None
    return holders[0]['peers']


class ListIndex:
    """The objects of a long list by id and by the value of each field a lookup asks for, so that a run resolving
    thousands of references on lists of thousands (network_state) picks the few objects a value may name instead of
    scanning the list for each: find_unique then decides on those alone, as it would on the whole list (it only ever
    considers objects whose id or one of the fields equals the value)."""

    def __init__(self, items):
        self.items = items
        self.tables = {}  # field (None: the id) -> {value, lower case where the field is caseless: [objects]}

    def table(self, field):
        if field not in self.tables:
            table = self.tables[field] = {}
            for item in self.items:
                self._add(table, field, item)
        return self.tables[field]

    @staticmethod
    def _key(item, field):
        """What ``item`` is found by in the field's table: a string, else None (the values looked up are strings)."""
        if not isinstance(item, dict):
            return None
        value = ref_id(item) if field is None else item.get(field)
        if field in CASELESS_FIELDS:
            value = value.lower() if isinstance(value, str) else None
        return value if isinstance(value, str) else None

    def _add(self, table, field, item):
        key = self._key(item, field)
        if key is not None:
            table.setdefault(key, []).append(item)

    def follow(self, items, removed, added):
        """The list is now ``items``, the old one without ``removed`` and with ``added``: the tables follow, with no
        scan (a run's creates change a long list thousands of times)."""
        self.items = items
        for field, table in self.tables.items():
            for item in removed:
                holders = table.get(self._key(item, field))
                if holders:
                    holders[:] = [held for held in holders if held is not item]
            for item in added:
                self._add(table, field, item)

    def candidates(self, value, fields):
        """The objects whose id or one of ``fields`` equals ``value`` (a string), each once."""
        found = {}
        for field in (None,) + tuple(fields):
            for item in self.table(field).get(value.lower() if field in CASELESS_FIELDS else value, ()):
                found.setdefault(id(item), item)
        return list(found.values())


class Resolver:
    """Resolves names or ids of other resources, listing each kind at most once per task."""

    def __init__(self, client, few_names=False):
        """``few_names``: a task that names a few objects may read them by name where servers filter (see _named);
        a task that resolves many references (network_state) reads each whole list once."""
        self.client = client
        self.few_names = few_names
        self._items = {}
        self._named_items = {}  # kind -> the objects read by name (see _named), for the names of a diff
        self._named_values = {}  # kind -> the values read by name: each answer held every object of its name
        self._settings = {}
        self._server = None
        self._indexes = {}  # kind -> the ListIndex of its list, while that list is the one held
        self._name_tables = {}  # kind -> (the known list it was made of, {id: name}, {name: how many objects bear it})

    @property
    def server(self):
        """What the server is (ServerInfo), shared like the lists: asked at most once per task, and only when needed."""
        if self._server is None:
            self._server = ServerInfo(self.client)
        return self._server

    def seed(self, kind, items):
        """Reuse a list the caller already fetched, saving a request."""
        self._items[kind] = items

    def forget(self, kind):
        """Drop a cached list (or a singleton, by its path) so that the next use reads it again."""
        self._items.pop(kind, None)
        self._named_values.pop(kind, None)
        self._settings.pop(kind, None)
        self._indexes.pop(kind, None)

    def replace(self, kind, obj, item_id=None):
        """Put a created or updated object into a cached list (a no-op for lists not read yet), as a new list (one a
        caller holds stays as it was); ``obj`` None with ``item_id``: take that object out (drop). The list's index,
        if it has one, follows."""
        if kind not in self._items:
            return
        old, item_id, added = self._items[kind], ref_id(obj) if obj is not None else str(item_id), [obj] if obj is not None else []
        removed = [item for item in old if ref_id(item) == item_id]
        self._items[kind] = [item for item in old if ref_id(item) != item_id] + added if removed else old + added
        index = self._indexes.get(kind)
        if index is not None and index.items is old:
            index.follow(self._items[kind], removed, added)

    def hold_current(self, kind, objects):
        """Objects of the kind read elsewhere (a network's resources, under it): the cached list holds them as read,
        whether it knew them or not (a concurrent run may have made one after the list was read)."""
        for obj in objects if kind in self._items else ():
            if isinstance(obj, dict) and ref_id(obj) not in (None, ''):
                self.replace(kind, obj)

    def drop(self, kind, item_id):
        self.replace(kind, None, item_id)

    def items(self, kind):
        if kind not in self._items:
            self._items[kind] = self.client.get_list(RESOLVER_TABLE[kind][0])
        return self._items[kind]

    def find_unique(self, kind, value, fields, what, option):
        """find_unique on the kind's whole list (read once per task), a long one through its index."""
        items = self.items(kind)
        return find_unique(self.narrowed(kind, items, value, fields), value, fields, what, option)

    def narrowed(self, kind, items, value, fields):
        """Of the kind's list, the objects find_unique may take for ``value``: a long list's few candidates, from its
        index (made once per list the task holds), else the list itself."""
        if len(items) < INDEXED_FROM:
            return items
        index = self._indexes.get(kind)
        if index is None or index.items is not items:
            index = self._indexes[kind] = ListIndex(items)
        return index.candidates(str(value), fields)

    def will_resolve(self, kinds):
        """Told the kinds a task is about to resolve references to: where the groups are among them, along with a kind
        their All group lists whole (EVERY_ONE_GROUP), the groups are read first, so that they name that kind too."""
        if 'groups' in kinds and any(kind in EVERY_ONE_GROUP for kind in kinds):
            self.items('groups')

    def to_id(self, kind, value, option):
        return self.to_ids(kind, [value], option)[0]

    def to_ids(self, kind, values, option):
        """Ids for names or ids; every unknown name is listed in one error."""
        if not values:
            return []
        dummy_path, what, fields = RESOLVER_TABLE[kind]
        candidates = every_one(kind, self._items.get('groups'))
        if candidates is not None:
            self._named_items[kind] = candidates  # the names of a diff: all of them, whatever was read by name before
        elif {str(value) for value in values} <= self._named_values.get(kind, set()):
            candidates = self._named_items[kind]  # the same names again (a find, then the desired state): no request
        else:
            candidates = self._named(kind, values)
        if candidates is not None:
            try:
                found = [find_unique(candidates, value, fields, what, option) for value in values]
            except ResolveError:
                found = [None]  # decided below, on the whole list, with its message
            if None not in found:
                return [ref_id(item) for item in found]
        items = self.items(kind)
        ids, unknown = [], []
        for value in values:
            item = find_unique(self.narrowed(kind, items, value, fields), value, fields, what, option)
            if item is None:
                unknown.append(str(value))
            else:
                ids.append(ref_id(item))
        if unknown:
            close = suggestions(items, unknown, fields)
            raise ResolveError("%s: no %s with the id or %s %s%s" % (
                option, what, ' or '.join(fields), ', '.join("'%s'" % u for u in unknown),
                '; did you mean %s?' % ' or '.join("'%s'" % name for name in close) if close else ''))
        return ids

    def _named(self, kind, values):
        """The objects a server answers for a few names, one filtered list each (see NAME_FILTERS), or None where the
        whole list is needed: it is read already, the server is known to be a v0.27 one, a value may be an id, or the
        names are many. A server that ignores the filter (an object in its answer does not hold the name) answered the
        whole list, which is kept as such: no more requests than reading it."""
        field = NAME_FILTERS.get(kind)
        if (not field or not self.few_names or kind in self._items or self._server is not None and self._server.known_legacy
                or len(values) > MAX_FILTERED_NAMES or any(ID_SHAPE.match(str(value)) for value in values)):
            return None
        found = {}
        for value in values:
            answer = self.client.get_list(RESOLVER_TABLE[kind][0], query={field: str(value)})
            # what SQL's LIKE '%value%' finds: any case, _ any one character, % any characters
            pattern = re.compile(''.join('.' if char == '_' else '.*' if char == '%' else re.escape(char) for char in str(value)),
                                 re.IGNORECASE | re.DOTALL)
            if any(not isinstance(item.get(field), str) or not pattern.search(item[field]) for item in answer):
                self._items[kind] = answer
                return answer
            found.update((ref_id(item), item) for item in answer)
        self._named_items[kind] = list(found.values())
        self._named_values[kind] = {str(value) for value in values}
        self.few_names = False  # once per task: a later resolution reads the whole list (a task rarely needs it)
        return self._named_items[kind]

    def settings(self, path, read=None):
        """A singleton object such as the DNS settings, read at most once per task like the lists (``read``: a function
        of the answer giving the object, where it is no plain object)."""
        if path not in self._settings:
            self._settings[path] = read(self.client.get(path)) if read else self.client.get_object(path)
        return self._settings[path]

    def keep_settings(self, path, obj):
        """Keep a singleton as a write left it (or would leave it, in check mode), for later reads of the task."""
        self._settings[path] = obj

    def cached(self, kind):
        """The list of a kind if this task has read it already (or was given it), else None: never a request."""
        return self._items.get(kind)

    def known(self, kind):
        """The objects of a kind this task has read: the whole list, else those read by name (never a request)."""
        return self._items.get(kind, self._named_items.get(kind))

    def names_table(self, kind, name_of):
        """The names of the known objects of a kind, ``({id: name}, {name: count})`` with ``name_of(kind, item)``
        giving an object's name; made once per known list (never a request): a run naming the references of
        thousands of created objects reuses it until a create, rename or drop makes the list a new one."""
        items = self.known(kind)
        held = self._name_tables.get(kind)
        if held is None or held[0] is not items:
            table, counts = {}, {}
            for item in items or ():
                name = name_of(kind, item)
                if name and ref_id(item) not in (None, ''):
                    table[ref_id(item)] = name
            for name in table.values():
                counts[name] = counts.get(name, 0) + 1
            held = self._name_tables[kind] = (items, table, counts)
        return held[1], held[2]

    def name_of(self, kind, item_id):
        """The display name of a resource id (for results), or None when it is unknown."""
        dummy_path, dummy_what, fields = RESOLVER_TABLE[kind]
        for item in self.items(kind):
            if ref_id(item) == str(item_id):
                for field in fields:
                    if item.get(field):
                        return item[field]
        return None


def with_group_names(result, fields, resolver):
    """A result whose group references (``fields``, lists of ids) are shown as the rest of the collection shows
    references (a policy rule's sources, a peer's groups): ``[{id, name}]``, the ids kept. The groups are listed at
    most once per task (shared with name resolution), and only when a field holds an id."""
    if not isinstance(result, dict) or not result:
        return result
    lookup = NameLookup(resolver)  # the list the resolver holds, as writes of this task left it
    result = dict(result)
    for field in fields:
        if field in result and isinstance(result[field], (list, type(None))):
            result[field] = named_refs(result[field], lookup.group)
    return result


def named_result(module, result):
    """A module's result whose object (``module.result_key``) shows its group references (``module.group_fields``)
    as ``[{id, name}]`` (see with_group_names)."""
    if isinstance(result, dict) and isinstance(result.get(module.result_key), dict):
        result = dict(result)
        result[module.result_key] = with_group_names(result[module.result_key], module.group_fields, module.resolver)
    return result
