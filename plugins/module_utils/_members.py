# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The membership strategy of the engine: a kind's object joins or leaves another object whose members are written
as a whole list (a peer's groups are the groups' peers), safely against concurrent writers of that list."""

from __future__ import annotations

import random

from ansible_collections.nms.overlay.plugins.module_utils import _time
from ansible_collections.nms.overlay.plugins.module_utils._compare import id_list
from ansible_collections.nms.overlay.plugins.module_utils._create import MAX_SETTLE
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import kept_fields

# A membership write undone by a concurrent writer is made again at most this many times; pauses between tries are
# random (so that racing clients drift apart) up to MEMBERSHIP_BACKOFF * 2**try seconds, at most MAX_SETTLE.
MEMBERSHIP_TRIES = 10
MEMBERSHIP_BACKOFF = 0.25


def with_members(members, member_id, member):
    """The member ids with ``member_id`` added (member=True) or removed."""
    if member:
        return members if member_id in members else members + [member_id]
    return [item for item in members if item != member_id]


def member_body(obj, key, members, read_only):
    """The PUT body of an object whose member list ``key`` becomes ``members``: everything else it has kept."""
    return kept_fields(obj, {'name': obj.get('name'), key: list(members)}, ('name', key), read_only)


def write_membership(task, path, key, member_id, member, read_only, noun, kind=None):
    """Make ``member_id`` a member of the object at ``path`` (its list ``key``; member=False: not a member), and prove
    it by reading the object back; returns the object as read. ``read_only``: the object's answer-only fields, left
    out of the PUT; ``noun``: what it is, for the message; ``kind``: its resolver kind, whose shared list then holds it
    as written.

    The members are written as a whole list, so a client that read the list before this write and writes after it
    silently undoes it (a lost update). So the list is read fresh before each write and read back after it, once a
    concurrent writer's read-to-write window has passed (as long as this client's own read and write took); when
    the read-back contradicts the write, the write is made again on the list read back, after a random pause, at
    most MEMBERSHIP_TRIES times."""
    clock = _time.CLOCK
    for attempt in range(1, MEMBERSHIP_TRIES + 1):
        started = clock.monotonic()
        obj = task.client.get_object(path)
        members = id_list(obj.get(key))
        if (member_id in members) != member:
            # the whole object as read, with only its members changed (today's servers keep a group's resources)
            task.client.put(path, member_body(obj, key, with_members(members, member_id, member), read_only))
            clock.sleep(min(clock.monotonic() - started, MAX_SETTLE))
            obj = task.client.get_object(path)
        if (member_id in id_list(obj.get(key))) == member:
            if kind and obj.get('id') is not None:
                task.resolver.replace(kind, obj)
            return obj
        if attempt < MEMBERSHIP_TRIES:
            clock.sleep(random.uniform(0, min(MEMBERSHIP_BACKOFF * 2 ** (attempt - 1), MAX_SETTLE)))
    raise TaskError("the %s '%s' (id %s): %s the %s %s was undone by another client's write of the %s's members each of %d "
                    "times (a concurrent writer); the read-back shows it %s"
                    % (noun, obj.get('name'), path.rsplit('/', 1)[-1], 'adding' if member else 'removing', task.what, member_id,
                       noun, MEMBERSHIP_TRIES, 'missing' if member else 'still there'))
