# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A module process compiles the collection's code once per machine and user, not once per task.

AnsiballZ runs a module from a zip file on ``sys.path``. Python's zipimport compiles every ``.py`` it imports from
that zip anew and keeps no bytecode, so each task compiled the same files again. ``compile_once()``, called by every
module before its other imports, puts a finder ahead of it for this collection's modules alone: their code is kept in
a cache directory of the user's, one entry per source (named by the source's SHA-256 and the interpreter's cache tag),
and later processes load it from there. A changed source has another name, so it never gets old code. A cache that is
missing, unusable or not safely the user's own is passed by: the module then compiles as before. Like Python's own
``.pyc`` files, nothing is written under PYTHONDONTWRITEBYTECODE.

Where the collection is imported from files (the controller, the tests), Python's own ``__pycache__`` does this job,
and ``compile_once()`` does nothing.
"""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import stat
import sys
import types
import zipimport

PACKAGE = 'ansible_collections.nms.overlay.'
CACHE_VARIABLE = 'NMS_OVERLAY_BYTECODE_CACHE'  # a directory (absolute path), or "off"
HEADER = importlib.util.MAGIC_NUMBER  # then the source's 32-byte digest, then the marshalled code
DIGEST_SIZE = 32
KEPT_ENTRIES = 512  # past this many, a write removes the oldest half (entries of earlier releases, mostly)
DIRECTORY_FLAGS = os.O_RDONLY | getattr(os, 'O_DIRECTORY', 0) | getattr(os, 'O_NOFOLLOW', 0) | getattr(os, 'O_CLOEXEC', 0)
READ_FLAGS = os.O_RDONLY | getattr(os, 'O_NOFOLLOW', 0) | getattr(os, 'O_CLOEXEC', 0)
CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, 'O_NOFOLLOW', 0) | getattr(os, 'O_CLOEXEC', 0)
# every file call goes through the directory's descriptor; without these the cache is not used
DIRECTORY_CALLS_SUPPORTED = (all(call in os.supports_dir_fd for call in (os.open, os.rename, os.unlink, os.stat))
                             and os.listdir in os.supports_fd)


def compile_once():
    """Keep this collection's compiled code across module processes, where it is imported from a zip (AnsiballZ)."""
    zip_loader = getattr(__spec__, 'loader', None)
    if not isinstance(zip_loader, zipimport.zipimporter):
        return  # imported from files: Python keeps the bytecode itself
    if any(isinstance(finder, CachedCodeFinder) for finder in sys.meta_path):
        return
    cache = BytecodeCache.open(cache_directory(os.environ))
    if cache is not None:
        sys.meta_path.insert(0, CachedCodeFinder(zip_loader.archive, cache))


def cache_directory(environ):
    """The cache's directory for this environment, or None when it is turned off or the path given is relative.

    ``NMS_OVERLAY_BYTECODE_CACHE`` names it (``off`` turns the cache off); else ``$XDG_CACHE_HOME/nms.overlay/bytecode``;
    else ``~/.cache/nms.overlay/bytecode``. A relative path would depend on the directory the module runs in: refused.
    """
    chosen = environ.get(CACHE_VARIABLE, '')
    if chosen.strip().lower() == 'off':
        return None
    if chosen:
        return chosen if os.path.isabs(chosen) else None
    base = environ.get('XDG_CACHE_HOME', '')
    if not os.path.isabs(base):  # the XDG rule: a relative value is ignored
        base = os.path.join(os.path.expanduser('~'), '.cache')
    return os.path.join(base, 'nms.overlay', 'bytecode') if os.path.isabs(base) else None


def owned_safely(status, kind):
    """Whether a file's status is of that kind, the process's own user's, and writable by no other user."""
    return kind(status.st_mode) and status.st_uid == os.geteuid() and not status.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


class BytecodeCache:
    """Compiled code by source digest, in a directory held open: every read and write goes through its descriptor, so
    a directory swapped in its place after the checks is never used."""

    def __init__(self, directory_fd):
        self.directory_fd = directory_fd

    @classmethod
    def open(cls, path):
        """The cache in ``path`` (made 0700 if missing), or None when it cannot be used safely."""
        if path is None or not DIRECTORY_CALLS_SUPPORTED:
            return None
        try:
            os.makedirs(path, mode=0o700, exist_ok=True)
            directory_fd = os.open(path, DIRECTORY_FLAGS)  # a link in its place is refused, not followed
        except (OSError, ValueError):
            return None
        try:
            if owned_safely(os.fstat(directory_fd), stat.S_ISDIR):
                return cls(directory_fd)
        except OSError:
            pass
        os.close(directory_fd)
        return None

    @staticmethod
    def entry_name(digest):
        """The entry's file name: the source's digest, the interpreter's cache tag, and the optimisation level."""
        level = '.opt-%d' % sys.flags.optimize if sys.flags.optimize else ''
        return '%s.%s%s' % (digest.hex(), sys.implementation.cache_tag, level)

    def load(self, digest):
        """The code kept for a source of this digest, or None (no entry, an entry not the user's, or a damaged one)."""
        try:
            entry_fd = os.open(self.entry_name(digest), READ_FLAGS, dir_fd=self.directory_fd)
        except OSError:
            return None
        try:
            with os.fdopen(entry_fd, 'rb') as entry:
                if not owned_safely(os.fstat(entry.fileno()), stat.S_ISREG):
                    return None
                data = entry.read()
        except OSError:
            return None
        if data[:len(HEADER) + DIGEST_SIZE] != HEADER + digest:
            return None
        try:
            code = marshal.loads(data[len(HEADER) + DIGEST_SIZE:])
        except (EOFError, ValueError, TypeError):
            return None
        return code if isinstance(code, types.CodeType) else None

    def save(self, digest, code):
        """Keep the code, written whole under a temporary name and then renamed: a reader sees the old entry or the
        new one, never a part. A failure (a full disk, say) leaves the cache as it was. Under PYTHONDONTWRITEBYTECODE
        (or ``python -B``) nothing is written, as Python writes no ``.pyc`` then; what is kept is still read."""
        if sys.dont_write_bytecode:
            return
        name = self.entry_name(digest)
        temporary = '.%s.%d.%s' % (name, os.getpid(), os.urandom(4).hex())
        try:
            entry_fd = os.open(temporary, CREATE_FLAGS, 0o600, dir_fd=self.directory_fd)
        except OSError:
            return
        try:
            with os.fdopen(entry_fd, 'wb') as entry:
                entry.write(HEADER + digest + marshal.dumps(code))
            os.rename(temporary, name, src_dir_fd=self.directory_fd, dst_dir_fd=self.directory_fd)  # replaces (POSIX)
        except (OSError, ValueError):
            self.remove(temporary)
            return
        self.prune()

    def remove(self, name):
        try:
            os.unlink(name, dir_fd=self.directory_fd)
        except OSError:
            pass

    def prune(self):
        """Past KEPT_ENTRIES entries, remove the oldest written half (a later process writes again any it needs)."""
        try:
            names = os.listdir(self.directory_fd)
            if len(names) <= KEPT_ENTRIES:
                return
            written = sorted((os.stat(name, dir_fd=self.directory_fd, follow_symlinks=False).st_mtime, name)
                             for name in names)
        except OSError:
            return
        for dummy, name in written[:len(written) - KEPT_ENTRIES // 2]:
            self.remove(name)


def with_filename(code, filename):
    """The code, and every function's code in it, naming ``filename``: the zip an entry was compiled from is gone."""
    if code.co_filename == filename:
        return code
    constants = tuple(with_filename(value, filename) if isinstance(value, types.CodeType) else value
                      for value in code.co_consts)
    return code.replace(co_filename=filename, co_consts=constants)


class CachedCodeLoader:
    """Loads one of the collection's files from the zip with the cache's code for its source."""

    def __init__(self, filename, source, package, cache):
        self.filename = filename
        self.source = source
        self.package = package
        self.cache = cache

    def create_module(self, spec):
        return None  # the default module object

    def exec_module(self, module):
        exec(self.get_code(module.__name__), module.__dict__)  # pylint: disable=exec-used

    def get_code(self, fullname):
        digest = hashlib.sha256(self.source).digest()
        code = self.cache.load(digest)
        if code is None:
            code = compile(self.source, self.filename, 'exec', dont_inherit=True)
            self.cache.save(digest, code)
            return code
        return with_filename(code, self.filename)

    def get_source(self, fullname):
        return importlib.util.decode_source(self.source)  # what a traceback shows

    def get_filename(self, fullname):
        return self.filename

    def is_package(self, fullname):
        return self.package


class CachedCodeFinder:
    """Finds the collection's files in the zip the module runs from, and has them loaded with cached code.

    It reads a file's source from the zip itself: zipimport's own finder and loader compile a file to find it (its
    ``find_spec`` and ``get_filename`` call the compiler), which would cost what the cache saves."""

    def __init__(self, archive, cache):
        self.archive = archive
        self.reader = zipimport.zipimporter(archive)  # reads the zip's files by path (the zip's index is shared)
        self.cache = cache

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith(PACKAGE):
            return None
        if path is not None and not any(str(entry).startswith(self.archive + '/') for entry in path):
            return None  # the package is not the zip's: the usual finders find it
        inside = '%s/%s' % (self.archive, fullname.replace('.', '/'))
        for filename, package in ((inside + '/__init__.py', True), (inside + '.py', False)):
            try:
                source = self.reader.get_data(filename)
            except OSError:
                continue
            spec = importlib.util.spec_from_loader(fullname, CachedCodeLoader(filename, source, package, self.cache),
                                                   origin=filename, is_package=package)
            if package:
                spec.submodule_search_locations = [inside]
            spec.has_location = True  # __file__ is the file in the zip, as zipimport has it
            return spec
        return None  # not in the zip (a module nobody shipped): the usual finders say so

    def invalidate_caches(self):
        """Nothing to forget: entries are named by their source."""
