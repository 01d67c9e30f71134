# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""References in a task's diff shown by name, from what the task already read (never a request)."""

from __future__ import annotations

import copy

from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._kind import display_name
from ansible_collections.nms.overlay.plugins.module_utils._tables import RESOLVER_TABLE


def kind_name(kind, item):
    """The display name of an object of a resolver kind (users: email, else name), or None."""
    table = RESOLVER_TABLE
    return display_name(item, table[kind][2] if kind in table else ('name',))


class ReferenceNames:
    """Names for the ids of referenced objects, for --diff: from the lists the resolver read and from summaries the
    server objects embed (a group's ``peers: [{id, name}]``). An id shows as its name; a name several known objects
    of the kind share as ``name (id)``; an id whose name is unknown as the id."""

    def __init__(self, resolver):
        self.resolver = resolver
        self.seen = {}
        self.tables = {}

    def learn(self, kind, values):
        """Remember the names of summaries ({id, name}) in a value or a list of them."""
        for value in values if isinstance(values, list) else [values]:
            name = kind_name(kind, value)
            if name and ref_id(value) not in (None, ''):
                self.seen.setdefault(kind, {})[ref_id(value)] = name

    def _table(self, kind):
        """``({id: name}, {name: count})`` of the kind: the resolver's table of its lists (shared by every diff of
        the run), with the summaries learned here where the lists do not know the id."""
        listed, listed_counts = self.resolver.names_table(kind, kind_name) if self.resolver is not None else ({}, {})
        seen = self.seen.get(kind)
        if not seen:
            return listed, listed_counts
        if kind not in self.tables:
            table, counts = dict(seen), dict(listed_counts)
            table.update(listed)
            for item_id, name in seen.items():
                if item_id not in listed:
                    counts[name] = counts.get(name, 0) + 1
            self.tables[kind] = (table, counts)
        return self.tables[kind]

    def show(self, kind, value):
        """One reference (or a set-like list of them, sorted as shown); values that are no id unchanged."""
        if isinstance(value, list):
            return sorted((self.show(kind, item) for item in value), key=str)
        if not isinstance(value, (str, int)) or isinstance(value, bool) or value == '':
            return value
        table, counts = self._table(kind)
        name = table.get(str(value))
        if not name:
            return value
        return name if counts[name] == 1 else '%s (%s)' % (name, value)


def _items_of(value):
    if isinstance(value, dict):
        return [value]
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def name_references(task, result, obj):
    """The task's result with the references in its diff shown by name (see ReferenceNames); the rest unchanged.
    ``task`` is the engine: its fields say which values are references, its resolver which lists were read."""
    diff = result.get('diff') if isinstance(result, dict) else None
    fields = task.fields
    shown_keys = [key for side in ('before', 'after') if isinstance(diff, dict) and isinstance(diff.get(side), dict) for key in diff[side]]
    if not any(key in fields and (fields[key].ref or fields[key].item_refs) for key in shown_keys):
        return result  # no reference in the diff (a rename): nothing to name
    names = ReferenceNames(task.resolver)  # only the lists already read: never a request
    for source in (obj, result.get(task.result_key)):
        for name, field in fields.items() if isinstance(source, dict) else ():
            if field.ref:
                names.learn(field.ref, source.get(name))
            for item in _items_of(source.get(name)) if field.item_refs else ():
                for key, kind in field.item_refs.items():
                    names.learn(kind, item.get(key))
    shown = dict(diff)
    for side in ('before', 'after'):
        if isinstance(diff.get(side), dict):
            shown[side] = {key: copy.deepcopy(_shown(fields.get(key), value, names)) for key, value in diff[side].items()}
    return dict(result, diff=shown)


def _shown_refs(names, kind, value):
    """References of an item: a list of them, or a mapping keyed by them (a rule's authorized_groups), by name."""
    if isinstance(value, dict):
        return {names.show(kind, key): value[key] for key in value}
    return names.show(kind, value)


def _shown(field, value, names):
    """A value of one side of a diff with its references shown by name."""
    if field is not None and field.ref:
        return names.show(field.ref, value)
    if field is None or not field.item_refs or not isinstance(value, (dict, list)):
        return value
    items = []
    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, dict):
            item = dict(item, **{key: _shown_refs(names, kind, item[key]) for key, kind in field.item_refs.items() if key in item})
        items.append(item)
    return items if isinstance(value, list) else items[0]
