# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The machine-wide lock of one server object (plugins/module_utils/_store.py) and the membership write that holds
it (_store.write_members): a second process waits for the first's block, a held lock fails the task after its
wait naming the lock, a lock directory that is not this user's private one is not used, and the read and the write
of a member list happen under the lock, its read-back after it."""

from __future__ import annotations

import fcntl
import multiprocessing
import os
import tempfile
import time

import pytest

from ansible_collections.nms.overlay.plugins.module_utils import _store
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._store import write_members

SERVER = 'https://nms.example'


@pytest.fixture(autouse=True)
def own_temporary_directory(tmp_path, monkeypatch):
    """Each test's locks in a directory of its own (tempfile's directory is where they go)."""
    monkeypatch.setattr(tempfile, 'tempdir', str(tmp_path))
    return tmp_path


def held_elsewhere(path):
    """Whether another open file of the object's lock cannot take it now (someone holds it)."""
    directory = _store.lock_directory()
    handle = os.open(_store.lock_path(directory, SERVER, path), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(handle)


def hold_for(path, seconds, started, ended):
    """In a child process: hold the lock ``seconds``, telling when it had it and when it let go."""
    with _store.object_lock(SERVER, path, 'group'):
        started.value = time.monotonic()
        time.sleep(seconds)
        ended.value = time.monotonic()


def in_child(path, seconds):
    """A child process holding the object's lock ``seconds``, started once it holds it."""
    context = multiprocessing.get_context('fork')
    started, ended = context.Value('d', 0.0), context.Value('d', 0.0)
    child = context.Process(target=hold_for, args=(path, seconds, started, ended))
    child.start()
    deadline = time.monotonic() + 10
    while not started.value and time.monotonic() < deadline:
        time.sleep(0.005)
    assert started.value, 'the child never held the lock'
    return child, ended


def test_a_second_process_waits_until_the_first_lets_go():
    child, ended = in_child('/groups/g1', 0.4)
    try:
        with _store.object_lock(SERVER, '/groups/g1', 'group'):
            entered = time.monotonic()
    finally:
        child.join(10)
    assert ended.value and entered >= ended.value


def test_another_object_is_not_held_by_it():
    child, ended = in_child('/groups/g1', 0.6)
    try:
        with _store.object_lock(SERVER, '/groups/g2', 'group'):
            entered = time.monotonic()
        with _store.object_lock('https://other.example', '/groups/g1', 'group'):
            entered_other_server = time.monotonic()
    finally:
        child.join(10)
    assert entered < ended.value and entered_other_server < ended.value


def test_a_lock_held_past_its_wait_fails_naming_the_object_and_the_lock(monkeypatch):
    child, dummy = in_child('/groups/g1', 1.0)
    try:
        with pytest.raises(TaskError) as failure:
            with _store.object_lock(SERVER, '/groups/g1', 'group', wait=0.1):
                pytest.fail('the block ran while another process held the lock')
    finally:
        child.join(10)
    message = str(failure.value)
    assert 'the group g1' in message and _store.lock_path(_store.lock_directory(), SERVER, '/groups/g1') in message
    assert 'nothing was changed' in message


def test_the_lock_directory_is_private_and_the_lock_files_are_in_it(own_temporary_directory):
    with _store.object_lock(SERVER, '/groups/g1', 'group'):
        pass
    directory = own_temporary_directory / ('nms-overlay-%d' % os.getuid())
    assert directory.is_dir() and directory.stat().st_mode & 0o777 == 0o700
    assert [path.suffix for path in directory.iterdir()] == ['.lock']


@pytest.mark.parametrize('how', ['open to others', 'a link'])
def test_a_lock_directory_that_is_not_private_is_not_used(own_temporary_directory, how):
    directory = own_temporary_directory / ('nms-overlay-%d' % os.getuid())
    if how == 'a link':
        (own_temporary_directory / 'elsewhere').mkdir(mode=0o700)
        directory.symlink_to(own_temporary_directory / 'elsewhere')
    else:
        directory.mkdir()
        directory.chmod(0o777)
    assert _store.lock_directory() is None
    with _store.object_lock(SERVER, '/groups/g1', 'group'):
        ran = True
    assert ran and not list(own_temporary_directory.rglob('*.lock'))


class LockWatchingServer:
    """One group whose server notes, at each call, whether the group's lock was held by someone then."""

    root = SERVER

    def __init__(self):
        self.group = {'id': 'g1', 'name': 'dev', 'peers': ['p0']}
        self.calls = []

    def get_object(self, path):
        self.calls.append(('get', held_elsewhere(path)))
        return dict(self.group, peers=list(self.group['peers']))

    def put(self, path, body):
        self.calls.append(('put', held_elsewhere(path)))
        self.group = dict(body, id='g1')
        return dict(self.group)


class FakeTask:
    def __init__(self, client):
        self.client, self.resolver, self.what = client, None, 'the peer p1'


def test_the_member_list_is_read_and_written_under_the_lock_and_read_back_after_it(clock):
    server = LockWatchingServer()
    group = write_members(FakeTask(server), '/groups/g1', 'peers', ['p1'], [], ('id',), 'group')
    assert group['peers'] == ['p0', 'p1']
    assert server.calls == [('get', True), ('put', True), ('get', False)]
    assert not held_elsewhere('/groups/g1')
