# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The tables derived from the kinds' declarations: the resolver's, network_state's sections, the usage table.

``_kinds.py`` registers the kinds, in dependency order, when it is imported; the engine, the resolver and the usage
check read these tables without importing the kinds themselves, so nothing below the kinds imports them.
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._client import FLAG, LIST, NUMBER, OBJECT, TEXT
from ansible_collections.nms.overlay.plugins.module_utils._compare import id_list

_REGISTERED = []
_TABLES = {}  # the usage table once derived (the kinds never change once registered)
# kind -> (list path, noun, fields a reference may match after the id): the resolver's table, filled by register()
RESOLVER_TABLE = {}
# field name -> the JSON type answers give it, from the kinds' declarations (see answer_types), filled by register()
ANSWER_TYPES = {}


def register(kinds, listed_under_parent):
    """Take the kinds (in dependency order) and the account-wide lists of kinds that live under a parent; returns
    the kinds. Called once, by _kinds.py."""
    _REGISTERED[:] = [tuple(kinds), dict(listed_under_parent)]
    _TABLES.clear()
    RESOLVER_TABLE.clear()
    RESOLVER_TABLE.update(resolver_table())
    ANSWER_TYPES.clear()
    answer_types()
    return tuple(kinds)


def resources():
    """The registered kinds, in dependency order."""
    if not _REGISTERED:
        raise RuntimeError('the kinds are not registered: import plugins/module_utils/_kinds.py first')
    return _REGISTERED[0]


def resolver_table():
    """kind -> (list path, noun, fields a reference may match after the id), for every kind referred to by name."""
    if RESOLVER_TABLE:
        return RESOLVER_TABLE
    table = {cls.kind: (cls.path, cls.what, tuple(cls.lookup or (cls.natural_key,)))
             for cls in resources() if cls.kind and cls.path and not cls.singleton}
    for kind, cls in _REGISTERED[1].items():
        path, holder = cls
        table[kind] = (path, holder.what, (holder.natural_key,))
    return table


# the JSON type each option type of a declaration stands for, in answers (see answer_types)
JSON_TYPES = {'str': TEXT, 'int': NUMBER, 'float': NUMBER, 'bool': FLAG, 'list': LIST, 'dict': OBJECT}
JSON_TYPES.update((kind, kind) for kind in (TEXT, NUMBER, FLAG, LIST, OBJECT))  # a Field's ``answer`` names one


def answer_types(extra=None):
    """field name -> the JSON type answers give it (see _client.field_problem), for every field a kind declares: its
    request fields' types and their suboptions' (from the option specs), and the answer-only fields it declares with
    their types (``answers``); then ``extra`` (what a module reads besides the kinds: events, locations). A name
    means one type wherever it appears (a unit test holds the declarations to it)."""
    if _REGISTERED and not ANSWER_TYPES:  # a module that reads no kind's answers (events, locations) registers none
        for cls in resources():
            for name, field in cls.fields.items():
                _option_types(ANSWER_TYPES, name, dict(field.spec, type=field.answer) if field.answer else field.spec)
            ANSWER_TYPES.update((name, kind) for name, kind in cls.answers.items() if kind)
    return dict(ANSWER_TYPES, **extra) if extra else ANSWER_TYPES


def _option_types(table, name, spec):
    kind = JSON_TYPES.get(spec.get('type', 'str'))
    if kind and name not in table:
        table[name] = kind
    for sub_name, sub_spec in (spec.get('options') or {}).items():
        _option_types(table, sub_name, sub_spec)


def sections():
    """(key, class) of each kind a network_state description holds at its top, in the order they are applied."""
    return tuple((cls.section, cls) for cls in resources() if cls.section and not cls.nested_in)


def nested_sections(parent):
    """(key in a parent's entry, class) of each kind described inside the entries of the section ``parent``."""
    return tuple((cls.nested_in[1], cls) for cls in resources() if cls.nested_in and cls.nested_in[0] == parent)


def all_sections():
    """(section, class) of every kind network_state handles, nested ones after their parent, in the order they are
    applied (deletions run in the reverse order)."""
    return tuple((cls.section, cls) for cls in resources() if cls.section)


def usage_table():
    """referenced kind -> ((source key, what one of them is called, its name key or None, its references), ...):
    for each kind whose deletion checks what refers to it, every field of another kind that refers to it.
    ``references`` is a function from a referring object (server shape) to {option: ids}."""
    if 'usage' in _TABLES:
        return _TABLES['usage']
    table = _TABLES['usage'] = {}
    for target in resources():
        if not target.usage_checked:
            continue
        entries = []
        for cls in resources():
            if not cls.section or cls.requires:
                # a kind network_state does not describe, or one of today's servers only (a v0.27 server cannot list
                # it): the server is the judge of its references
                continue
            fields = [(name, field) for name, field in cls.fields.items()
                      if field.in_use and (field.ref == target.kind or target.kind in field.item_refs.values())]
            if fields:
                what = 'the %s' % cls.what if cls.singleton else cls.what
                entries.append((cls.section, what, None if cls.singleton else cls.natural_key,
                                _references(target.kind, fields)))
        table[target.kind] = tuple(entries)
    return table


def _references(kind, fields):
    """A function giving an object's references to ``kind`` per option (rules[0].sources for items' keys)."""
    def references(obj):
        found = {}
        for name, field in fields:
            if field.ref == kind:
                found[name] = id_list(obj.get(name))
            value = obj.get(name)
            for index, item in enumerate(value if isinstance(value, list) else []):
                for key, item_kind in field.item_refs.items():
                    if item_kind == kind and isinstance(item, dict):
                        found['%s[%d].%s' % (name, index, key)] = id_list(item.get(key))
        return found
    return references
