# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The one write seam: every POST, PUT and DELETE of a resource (the engine's creates, updates and deletions, its
strategies' actions and set-ups, follow-ups and memberships) leaves the collection through ``send``, and check mode's
plan of a write is told through ``planned``; tests/unit/test_architecture.py holds every other file to it.

And the membership strategy of the engine: a kind's object joins or leaves another object whose members are written
as a whole list (a peer's groups are the groups' peers), safely against concurrent writers of that list: the
processes of one machine (a playbook's forks, the controller's workers and module processes alike) take turns on a
lock of the object (object_lock), so that none undoes another's change; writers elsewhere are met by the read-back."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import random
import stat
import tempfile
import time

try:
    import fcntl
except ImportError:  # not a POSIX machine: no lock, the read-back alone guards the write
    fcntl = None

from ansible_collections.nms.overlay.plugins.module_utils import _time
from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._compare import id_list
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import kept_fields

# the longest a write waits for concurrent writers to show (a create's converge window, a membership's read-back)
MAX_SETTLE = 3.0


def send(task, method, path, body=None):
    """Send one write of the task (``method`` POST, PUT or DELETE) and return the server's answer (through the
    client's method of that name, which a test's fake server answers as well)."""
    call = getattr(task.client, method.lower())
    return call(path) if body is None else call(path, body)


def planned(task, method=None, path=None, body=None, step=None):
    """A write check mode plans and does not send, told to a client that renders what a plan would send (network_state's
    state=rendered, _rendered.OfflineAccount; no other client is told). Returns True, to read as the condition of check
    mode's branch (called in check mode only: a run makes no call more). ``step``: a follow-up (see
    ResourceModule.follow), a membership step's delta (see write_members) being the member list the server holds right
    then, with it applied."""
    render = getattr(task.client, 'render_planned_write', None)
    if render is None:
        return True
    member = (step or {}).get('member')
    if step is not None:
        method, path, body = step.get('method', 'PUT'), step.get('path') or member['path'], step.get('body')
    render(task, method, path, body, member)
    return True


def put_object(task, obj, body):
    """PUT ``body`` (the whole object, see Kind.update_body) to the object ``obj``: the object as the server answers
    it, or as the body leaves it when the answer is empty; in check mode the write is planned, not sent, and the
    kind's prediction returned."""
    path = task.object_path(obj)
    if task.module.check_mode and planned(task, 'PUT', path, body):
        return task.predict(dict(obj, **body), obj)
    answer = send(task, 'PUT', path, body)
    return answer if isinstance(answer, dict) and answer else dict(obj, **body)


def delete_path(task, path):
    """DELETE the object at ``path``. A 404 is the goal reached: a retried DELETE whose first answer was lost finds it
    gone. (Check mode plans a deletion before it gets here: see ResourceModule.absent.)"""
    try:
        send(task, 'DELETE', path)
    except ApiError as exc:
        if exc.status != 404:
            raise


# A membership write undone by a concurrent writer is made again at most this many times; pauses between tries are
# random (so that racing clients drift apart) up to MEMBERSHIP_BACKOFF * 2**try seconds, at most MAX_SETTLE.
MEMBERSHIP_TRIES = 10
MEMBERSHIP_BACKOFF = 0.25
# the least wait before the read-back: a concurrent writer's read-to-write window is not this client's own, and on a
# loaded machine (forks, a busy server) it stretches by the scheduler's stalls, which 10 forks on 2 cores showed
SETTLE_FLOOR = 0.5

# at most this long a writer waits for another process's read and write of the same object (each is bounded by the
# client's timeout and retries, so only a stopped process holds it longer)
LOCK_WAIT = 300.0
LOCK_POLL = 0.01


def lock_directory():
    """The directory of this user's locks (the temporary directory's nms-overlay-<uid>, made 0700), or None when it
    cannot be made or is not this user's own, private directory (someone else's could hold a lock forever)."""
    directory = os.path.join(tempfile.gettempdir(), 'nms-overlay-%d' % os.getuid())
    try:
        os.mkdir(directory, 0o700)
    except OSError as exc:
        if exc.errno != errno.EEXIST:
            return None
    try:
        info = os.lstat(directory)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return None
    return directory


def lock_path(directory, server, path):
    """The lock file of the object at API ``path`` on ``server``: named by a digest, so any name and URL make one."""
    return os.path.join(directory, hashlib.sha256(('%s %s' % (server, path)).encode('utf-8')).hexdigest()[:40] + '.lock')


@contextlib.contextmanager
def object_lock(server, path, noun, wait=LOCK_WAIT):
    """Hold the machine-wide lock of the object at API ``path`` on ``server`` for the block (``noun``: what it is, for
    the message when another process held it ``wait`` seconds). Without a lock directory the block runs unlocked."""
    directory = lock_directory() if fcntl is not None else None
    if directory is None:
        yield
        return
    name = lock_path(directory, server, path)
    handle = os.open(name, os.O_RDWR | os.O_CREAT | getattr(os, 'O_NOFOLLOW', 0), 0o600)
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    raise
            if time.monotonic() >= deadline:
                raise TaskError('the %s %s: another process on this machine held its lock (%s) for %d s; nothing was '
                                'changed' % (noun, path.rsplit('/', 1)[-1], name, wait))
            time.sleep(LOCK_POLL)
        yield
    finally:
        os.close(handle)  # closing releases the lock


def with_members(members, member_id, member):
    """The member ids with ``member_id`` added (member=True) or removed."""
    return with_delta(members, [member_id] if member else [], [] if member else [member_id])


def with_delta(members, add, remove):
    """The member ids with ``add`` appended (those not there yet) and ``remove`` taken out, the rest in their order."""
    kept = [item for item in members if item not in remove]
    return kept + [item for item in dict.fromkeys(add) if item not in kept]


def delta_undone(members, add, remove):
    """The ids of a delta that ``members`` contradicts: those of ``add`` missing and those of ``remove`` present."""
    return [item for item in add if item not in members] + [item for item in remove if item in members]


def member_body(obj, key, members, read_only):
    """The PUT body of an object whose member list ``key`` becomes ``members``: everything else it has kept."""
    return kept_fields(obj, {'name': obj.get('name'), key: list(members)}, ('name', key), read_only)


def write_membership(task, path, key, read_only, noun, kind=None, member_id=None, member=True, add=(), remove=()):
    """The membership step of the engine (a follow-up's ``member``): make ``member_id`` a member of the object at
    ``path`` (member=False: not a member), or apply the delta ``add`` / ``remove``; see write_members."""
    if member_id is not None:
        add, remove = ([member_id], []) if member else ([], [member_id])
        return write_members(task, path, key, add, remove, read_only, noun, kind, what='%s %s' % (task.what, member_id))
    return write_members(task, path, key, add, remove, read_only, noun, kind)


def write_members(task, path, key, add, remove, read_only, noun, kind=None, what=None):
    """Add the ids ``add`` to the member list ``key`` of the object at ``path`` and take ``remove`` out of it, and
    prove it by reading the object back; returns the object as read. ``read_only``: the object's answer-only fields,
    left out of the PUT; ``noun``: what it is, for the message; ``kind``: its resolver kind, whose shared list then
    holds it as written; ``what``: the delta in words (default: the ids).

    The members are written as a whole list, so a client that read the list before this write and writes after it
    silently undoes it (a lost update). The processes of one machine (forks, workers, module processes) read and
    write an object's list only under its lock (object_lock), so none of them ever undoes another's. For
    writers elsewhere the list is read fresh right before each write, only the delta is applied to what the server
    has then (what others added or removed meanwhile stays as they left it), and the object is read back once such a
    writer's read-to-write window has passed (as long as this client's own read and write took, SETTLE_FLOOR at
    least); when the read-back contradicts the delta, the delta is applied again to the list read back, after a
    random pause, at most MEMBERSHIP_TRIES times."""
    clock = _time.CLOCK
    add, remove = list(add), list(remove)
    for attempt in range(1, MEMBERSHIP_TRIES + 1):
        with object_lock(task.client.root, path, noun):
            started = clock.monotonic()  # this client's own read and write, not its wait for the lock
            obj = task.client.get_object(path)
            members = id_list(obj.get(key))
            wrote = bool(delta_undone(members, add, remove))
            if wrote:
                # the whole object as read, with only its members changed (today's servers keep a group's resources)
                send(task, 'PUT', path, member_body(obj, key, with_delta(members, add, remove), read_only))
        if wrote:
            clock.sleep(min(max(clock.monotonic() - started, SETTLE_FLOOR), MAX_SETTLE))
            obj = task.client.get_object(path)
        undone = delta_undone(id_list(obj.get(key)), add, remove)
        if not undone:
            if kind and obj.get('id') is not None:
                task.resolver.replace(kind, obj)
            return obj
        if attempt < MEMBERSHIP_TRIES:
            clock.sleep(random.uniform(0, min(MEMBERSHIP_BACKOFF * 2 ** (attempt - 1), MAX_SETTLE)))
    raise TaskError("the %s '%s' (id %s): %s was undone by another client's write of the %s's members each of %d "
                    "times (a concurrent writer); the read-back shows %s"
                    % (noun, obj.get('name'), path.rsplit('/', 1)[-1], delta_words(what, add, remove), noun,
                       MEMBERSHIP_TRIES, ', '.join('%s %s' % (item, 'missing' if item in add else 'still there')
                                                   for item in undone)))


def delta_words(what, add, remove):
    """'adding the peer x' / 'adding a, b and removing c', for a message."""
    if what is not None:
        return '%s %s' % ('adding the' if add else 'removing the', what)
    return ' and '.join(part for part in ('adding %s' % ', '.join(add) if add else '',
                                          'removing %s' % ', '.join(remove) if remove else '') if part)
