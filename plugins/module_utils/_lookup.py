# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The kinds the lookup plugin nms.overlay.nms reads, derived from the kinds' declarations, and its term parsing.

A kind here is one the info modules list account-wide: each declaration with a list path of its own (not a singleton,
not one that lives under a parent object), named as its info module names its result, and the kinds listed
account-wide though nested (LISTED_UNDER_PARENT: a network's resources). Names are matched on the fields the
resolver matches references on (the kind's ``lookup``, else its natural key).
"""

from __future__ import annotations

import difflib
from collections import namedtuple

# every kind's declaration: only the lookup plugin imports this file, in the controller (a module process never does)
from ansible_collections.nms.overlay.plugins.module_utils._kinds import LISTED_UNDER_PARENT, RESOURCES

LookupKind = namedtuple('LookupKind', 'name path what fields declaration')


class TermError(ValueError):
    """A term or option the lookup cannot read (the message names it and the rule)."""


def lookup_kinds():
    """kind name -> LookupKind, in the declarations' order."""
    kinds = {}
    for cls in RESOURCES:
        if cls.singleton or cls.nested_in or not isinstance(cls.path, str):
            continue
        name = cls.kind or cls.result_key + 's'  # as InfoModule names its result
        kinds[name] = LookupKind(name, cls.path, cls.what, tuple(cls.lookup or (cls.natural_key,)), cls)
    for name, (path, holder) in LISTED_UNDER_PARENT.items():
        kinds[name] = LookupKind(name, path, holder.what, (holder.natural_key,), holder)
    return kinds


def _unknown_kind(kind, kinds):
    close = difflib.get_close_matches(kind, list(kinds), n=1, cutoff=0.6)
    return TermError("term '%s': '%s' is no kind the lookup reads%s; the kinds are %s"
                     % (kind, kind, " (did you mean '%s'?)" % close[0] if close else '', ', '.join(sorted(kinds))))


def parse_terms(terms, names, kinds):
    """The (term as written, kind, name or None) the terms ask for, in order: ``KIND`` (every object of the kind, or
    one per entry of ``names`` when given) or ``KIND/NAME`` (the one object of that name or id; the name is everything
    after the first ``/``, so it may hold ``/`` itself). A list among the terms counts as its entries."""
    flat = []
    for term in terms or []:
        flat.extend(term if isinstance(term, (list, tuple)) else [term])
    if not flat:
        raise TermError('no term: give a kind, such as groups, or KIND/NAME, such as groups/ops')
    if names is not None and not isinstance(names, (list, tuple)):
        names = [names]
    # a number is the text it reads as (name=2024, as the modules take it); any other value is no name
    names = [str(name) if isinstance(name, (int, float)) and not isinstance(name, bool) else name for name in names or []]
    for name in names:
        if not isinstance(name, str) or not name:
            raise TermError('option name: %r is not a non-empty text' % (name,))
    wanted = []
    for term in flat:
        if not isinstance(term, str) or not term.strip():
            raise TermError('term %r: a term is a text, KIND or KIND/NAME' % (term,))
        kind, slash, name = term.partition('/')
        kind = kind.strip()
        if kind not in kinds:
            raise _unknown_kind(kind, kinds)
        if slash:
            if not name:
                raise TermError("term '%s': nothing after the '/' (give KIND for every %s, or KIND/NAME)"
                                % (term, kinds[kind].what))
            if names:
                raise TermError("term '%s': it names its object, so option name cannot apply to it (use one or the other)"
                                % term)
            wanted.append((term, kind, name))
        elif names:
            wanted.extend((term, kind, name) for name in names)
        else:
            wanted.append((term, kind, None))
    return wanted
