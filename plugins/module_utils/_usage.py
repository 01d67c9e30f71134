# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What refers to a group (or a posture check): the one check made before deleting either.

The server refuses to delete a group that a route's groups, a nameserver group, a policy rule, a setup key
(also a revoked one), a user's auto groups or the DNS settings use, but it does not check a route's
peer_groups or a policy rule's authorized_groups: it deletes such a group and leaves a dangling id. The group module (also in
check mode) and network_state (before its first write) use this table to refuse such deletions themselves.
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._compare import id_list, ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._tables import USAGE_TABLE


def referring_kinds(kind):
    """The network_state sections whose objects can refer to a resource of ``kind``."""
    return tuple(entry[0] for entry in USAGE_TABLE.get(kind, ()))


def references(obj, options):
    """{option: ids} of an object's references named by ``options`` ((option, None) for an option of ids, (option, key)
    for the key of each item of a list option: rules[0].sources)."""
    found = {}
    for option, key in options:
        value = obj.get(option)
        if key is None:
            found[option] = id_list(value)
            continue
        for index, item in enumerate(value if isinstance(value, list) else []):
            if isinstance(item, dict):
                found['%s[%d].%s' % (option, index, key)] = id_list(item.get(key))
    return found


def _describe(what, name_key, obj):
    if name_key is None:
        return what
    name = obj.get(name_key) or obj.get('name') or ref_id(obj)
    return "%s '%s'" % (what, name)


def referrers(kind, item_id, sources):
    """The objects that refer to the ``kind`` resource ``item_id``, each as (object, what it is, its name key,
    the options that hold the reference).

    ``sources`` maps each referring kind to the objects to look at (server shape: ids or summaries with an id).
    """
    item_id = str(item_id)
    found = []
    for source, what, name_key, dummy_kind, dummy_path, dummy_singleton, options in USAGE_TABLE.get(kind, ()):
        for obj in sources.get(source) or ():
            if not isinstance(obj, dict):
                continue
            where = [option for option, ids in references(obj, options).items() if item_id in ids]
            if where:
                found.append((obj, what, name_key, where))
    return found


def users_of(kind, item_id, sources):
    """Who refers to the ``kind`` resource ``item_id``, as texts like "route 'lan' (peer_groups)"."""
    return ['%s (%s)' % (_describe(what, name_key, obj), ', '.join(where))
            for obj, what, name_key, where in referrers(kind, item_id, sources)]


def in_use_message(what, obj, users):
    return "the %s '%s' (id %s) is used by %s; remove it from there first" % (
        what, obj.get('name'), ref_id(obj), ', '.join(users))


def current_sources(kind, resolver):
    """The server's objects that can refer to a ``kind`` resource (one list per kind, shared with the task)."""
    return {source: [resolver.settings(path)] if singleton else resolver.items(source_kind)
            for source, dummy_what, dummy_key, source_kind, path, singleton, dummy_options in USAGE_TABLE.get(kind, ())}


def refuse_used(task, obj):
    """Refuse to delete the task's object when others refer to it (kinds with ``usage_checked``), naming each of them."""
    users = users_of(task.kind, ref_id(obj), current_sources(task.kind, task.resolver))
    if users:
        raise TaskError(in_use_message(task.what, obj, users))
