# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A lock per server object, held by the processes of one machine (a playbook's forks, the controller's workers
and module processes alike) around a read-modify-write of a list the API only takes whole: two of them can then never
undo each other's change. Writers on other machines are not held by it (see _members.write_members)."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
import tempfile
import time

from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError

try:
    import fcntl
except ImportError:  # not a POSIX machine: no lock, the read-back alone guards the write
    fcntl = None

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
