# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Groups and posture checks by name: the built-in All group and the names beside ids in results.

Apart from the access helpers (_access.py) because every task that names references needs these, and a module
process compiles what it imports: the resolver and the peer and group kinds import this small file, not the
access view.
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id

ALL_GROUP = 'All'  # the built-in group of every peer


# -- the built-in All group ------------------------------------------------------------------------

def _peers_count(group):
    count = group.get('peers_count')
    if isinstance(count, int) and not isinstance(count, bool):
        return count
    return len(group.get('peers') or []) if isinstance(group.get('peers'), list) else 0


def builtin_all_group(groups):
    """The account's built-in All group among ``groups`` (the server's group list): ``(ids, ambiguous)``.

    A name proves nothing: any group can be renamed All, and groups synced from an identity provider or an integration
    may carry the name. The built-in group is the one the server created with the account and adds every peer to,
    told apart the same way on v0.27 and v0.77 servers, by what their answers show:

    1. its name is All;
    2. it was issued by the API (``issued`` ``api``, or no ``issued`` at all): never a ``jwt`` or ``integration`` group;
    3. of those, it holds the most peers (it holds every peer; the servers themselves take the group named All with
       the most peers for it when they look it up by name).

    ``ids`` holds the one group left, or, when several are left (two groups named All holding as many peers, as in
    an account without peers), all of them with ``ambiguous`` true: callers then treat each as possibly the
    built-in one, or refuse to act. No group named All: ``(set(), False)``.
    """
    named = [group for group in groups or [] if isinstance(group, dict) and group.get('name') == ALL_GROUP
             and ref_id(group) not in (None, '')]
    issued = [group for group in named if group.get('issued') in (None, '', 'api')] or named
    if not issued:
        return set(), False
    most = max(_peers_count(group) for group in issued)
    left = {ref_id(group) for group in issued if _peers_count(group) == most}
    return left, len(left) > 1


# -- names beside ids in results ---------------------------------------------------------------------

def _safe_items(resolver, kind):
    """A cached list of another kind for names in results; a read the caller may not make gives []."""
    try:
        return resolver.items(kind)
    except ApiError:
        return []


def named_refs(values, lookup):
    """[{id, name}] for summaries or ids (null -> []); names from the summary, else from lookup."""
    result = []
    for value in values or []:
        item_id = ref_id(value)
        if item_id in (None, ''):
            continue
        name = value.get('name') if isinstance(value, dict) else None
        result.append({'id': item_id, 'name': name if name else lookup(item_id)})
    return result


class NameLookup:
    """Names of groups and posture checks by id, each kind listed at most once and only if needed."""

    def __init__(self, resolver):
        self.resolver = resolver
        self._names = {}

    def _table(self, kind):
        if kind not in self._names:
            self._names[kind] = {ref_id(item): item.get('name') for item in _safe_items(self.resolver, kind)}
        return self._names[kind]

    def group(self, item_id):
        return self._table('groups').get(item_id)

    def posture_check(self, item_id):
        return self._table('posture_checks').get(item_id)
