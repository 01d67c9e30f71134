# -*- coding: utf-8 -*-
"""The bytecode cache of module processes (issue 43): where it is, what it trusts, and that a process from a zip uses it."""

from __future__ import annotations

import concurrent.futures
import marshal
import os
import stat
import subprocess
import sys
import textwrap
import zipfile

import pytest

from ansible_collections.nms.overlay.plugins.module_utils import _bytecode
from ansible_collections.nms.overlay.plugins.module_utils._bytecode import (
    BytecodeCache, CachedCodeFinder, cache_directory, compile_once, with_filename)

MODULE_UTILS = os.path.dirname(_bytecode.__file__)
DIGEST = bytes(range(32))


@pytest.fixture(autouse=True)
def bytecode_written(monkeypatch):
    """This process writes bytecode, as a module process does unless told not to (a workplace may set
    PYTHONDONTWRITEBYTECODE for the tests: the one test of that sets it itself)."""
    monkeypatch.setattr(sys, 'dont_write_bytecode', False)


def code_of(text, filename='<probe>'):
    return compile(text, filename, 'exec', dont_inherit=True)


@pytest.mark.parametrize('environ, expected', [
    ({'HOME': '/home/op'}, '/home/op/.cache/nms.overlay/bytecode'),
    ({'HOME': '/home/op', 'XDG_CACHE_HOME': '/var/cache/op'}, '/var/cache/op/nms.overlay/bytecode'),
    ({'HOME': '/home/op', 'XDG_CACHE_HOME': 'relative'}, '/home/op/.cache/nms.overlay/bytecode'),  # XDG: ignored
    ({'HOME': '/home/op', 'NMS_OVERLAY_BYTECODE_CACHE': '/srv/cache'}, '/srv/cache'),
    ({'HOME': '/home/op', 'NMS_OVERLAY_BYTECODE_CACHE': 'off'}, None),
    ({'HOME': '/home/op', 'NMS_OVERLAY_BYTECODE_CACHE': ' OFF '}, None),
    ({'HOME': '/home/op', 'NMS_OVERLAY_BYTECODE_CACHE': 'cache'}, None),  # relative: would depend on the directory
])
def test_the_cache_directory(monkeypatch, environ, expected):
    monkeypatch.setenv('HOME', environ['HOME'])  # expanduser reads the process's own HOME
    assert cache_directory(environ) == expected


def test_in_files_compile_once_changes_nothing():
    before = list(sys.meta_path)
    compile_once()
    assert sys.meta_path == before


def test_the_directory_is_made_for_the_user_alone(tmp_path):
    path = tmp_path / 'a' / 'bytecode'
    cache = BytecodeCache.open(str(path))
    assert cache is not None
    assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0


def test_a_directory_others_can_write_is_not_used(tmp_path):
    path = tmp_path / 'shared'
    path.mkdir()
    path.chmod(0o777)
    assert BytecodeCache.open(str(path)) is None
    path.chmod(0o700)
    assert BytecodeCache.open(str(path)) is not None


@pytest.mark.skipif(os.geteuid() != 0, reason='giving a directory to another user needs root')
def test_a_directory_of_another_user_is_not_used(tmp_path):
    path = tmp_path / 'theirs'
    path.mkdir(mode=0o700)
    os.chown(str(path), 4242, 4242)
    assert BytecodeCache.open(str(path)) is None


def test_a_link_in_place_of_the_directory_is_not_followed(tmp_path):
    real = tmp_path / 'real'
    real.mkdir(mode=0o700)
    (tmp_path / 'link').symlink_to(real)
    assert BytecodeCache.open(str(tmp_path / 'link')) is None
    assert BytecodeCache.open(str(real)) is not None


def test_told_to_write_no_bytecode_the_cache_writes_nothing(tmp_path, monkeypatch):
    cache = BytecodeCache.open(str(tmp_path / 'c'))
    monkeypatch.setattr(sys, 'dont_write_bytecode', True)
    cache.save(DIGEST, code_of('VALUE = 42'))
    assert os.listdir(str(tmp_path / 'c')) == []


def test_a_kept_code_loads_back(tmp_path):
    cache = BytecodeCache.open(str(tmp_path / 'c'))
    assert cache.load(DIGEST) is None
    cache.save(DIGEST, code_of('VALUE = 42'))
    namespace = {}
    exec(cache.load(DIGEST), namespace)  # pylint: disable=exec-used
    assert namespace['VALUE'] == 42
    assert cache.load(bytes(32)) is None  # another source's digest
    assert [name for name in os.listdir(str(tmp_path / 'c')) if name.startswith('.')] == []  # no temporary left


@pytest.mark.parametrize('damage', ['truncated', 'other magic', 'other digest', 'not code', 'empty'])
def test_a_damaged_entry_is_not_loaded(tmp_path, damage):
    cache = BytecodeCache.open(str(tmp_path / 'c'))
    cache.save(DIGEST, code_of('VALUE = 42'))
    entry = tmp_path / 'c' / cache.entry_name(DIGEST)
    data = entry.read_bytes()
    header = len(_bytecode.HEADER) + 32
    entry.write_bytes({
        'truncated': data[:header + 10],
        'other magic': b'\0\0\0\0' + data[4:],
        'other digest': data[:len(_bytecode.HEADER)] + bytes(32) + data[header:],
        'not code': data[:header] + marshal.dumps({'a': 1}),
        'empty': b'',
    }[damage])
    assert cache.load(DIGEST) is None


def test_an_entry_that_is_a_link_or_writable_by_others_is_not_loaded(tmp_path):
    cache = BytecodeCache.open(str(tmp_path / 'c'))
    cache.save(DIGEST, code_of('VALUE = 42'))
    entry = tmp_path / 'c' / cache.entry_name(DIGEST)
    entry.chmod(0o666)
    assert cache.load(DIGEST) is None
    entry.chmod(0o600)
    assert cache.load(DIGEST) is not None
    elsewhere = tmp_path / 'elsewhere'
    entry.rename(elsewhere)
    entry.symlink_to(elsewhere)
    assert cache.load(DIGEST) is None


def test_a_directory_swapped_in_after_the_checks_is_never_written(tmp_path):
    """The cache keeps the directory it checked open: one put in its place afterwards gets nothing, and is read from
    never."""
    path = tmp_path / 'c'
    cache = BytecodeCache.open(str(path))
    path.rename(tmp_path / 'checked')
    path.mkdir(mode=0o777)  # somebody else's, say, in its place
    cache.save(DIGEST, code_of('VALUE = 42'))
    assert os.listdir(str(path)) == []
    assert os.listdir(str(tmp_path / 'checked')) == [cache.entry_name(DIGEST)]
    (path / cache.entry_name(DIGEST)).write_bytes(b'planted')
    assert cache.load(DIGEST) is not None  # the checked directory's entry, not the planted one


def test_past_the_limit_a_write_removes_the_oldest_entries(tmp_path, monkeypatch):
    monkeypatch.setattr(_bytecode, 'KEPT_ENTRIES', 8)
    cache = BytecodeCache.open(str(tmp_path / 'c'))
    digests = [bytes([number]) * 32 for number in range(9)]
    for age, digest in enumerate(digests[:8]):
        cache.save(digest, code_of('VALUE = %d' % age))
        os.utime(str(tmp_path / 'c' / cache.entry_name(digest)), (1000 + age, 1000 + age))
    assert len(os.listdir(str(tmp_path / 'c'))) == 8
    cache.save(digests[8], code_of('VALUE = 8'))
    kept = sorted(os.listdir(str(tmp_path / 'c')))
    assert kept == sorted(cache.entry_name(digest) for digest in digests[5:])  # the 3 newest and the new one


def test_code_from_the_cache_names_the_file_it_now_comes_from():
    code = code_of('def outer():\n    def inner():\n        pass\n    return inner\n', '/old/zip/module.py')
    renamed = with_filename(code, '/new/zip/module.py')
    functions = [value for value in renamed.co_consts if hasattr(value, 'co_filename')]
    inner = [value for value in functions[0].co_consts if hasattr(value, 'co_filename')]
    assert [renamed.co_filename, functions[0].co_filename, inner[0].co_filename] == ['/new/zip/module.py'] * 3


def test_the_finder_finds_only_the_collections_files_in_its_zip(tmp_path):
    finder = CachedCodeFinder(module_zip(tmp_path / 'one.zip', 1), BytecodeCache.open(str(tmp_path / 'c')))
    module_utils = str(tmp_path / 'one.zip' / 'ansible_collections/nms/overlay/plugins/module_utils')
    probe = finder.find_spec('ansible_collections.nms.overlay.plugins.module_utils._probe', [module_utils])
    assert probe.origin == module_utils + '/_probe.py' and probe.submodule_search_locations is None
    package = finder.find_spec('ansible_collections.nms.overlay.plugins.module_utils', None)
    assert package.origin == module_utils + '/__init__.py' and package.submodule_search_locations == [module_utils]
    assert finder.find_spec('json') is None  # not the collection's
    assert finder.find_spec('ansible_collections.nms.overlay.plugins.module_utils._absent', [module_utils]) is None
    assert finder.find_spec('ansible_collections.nms.overlay.plugins.module_utils._probe', [str(tmp_path)]) is None


# A module process, as AnsiballZ runs one: the collection's files in a zip on sys.path, compile_once() first.
PROBE = "VALUE = 'from the source %s'\n\ndef fail():\n    raise ValueError('probe')\n"
SCRIPT = textwrap.dedent('''
    import sys, traceback
    sys.path.insert(0, sys.argv[1])
    from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once
    compile_once()
    compiled = []  # the collection's files compiled from here on (the audit event of compile())
    sys.addaudithook(lambda event, args: compiled.append(args[1]) if event == 'compile' and 'ansible_collections' in str(args[1]) else None)
    from ansible_collections.nms.overlay.plugins.module_utils import _probe
    print(_probe.VALUE)
    try:
        _probe.fail()
    except ValueError:
        print(traceback.format_exc().splitlines()[-3].strip())
    print(len(compiled))
''')


def module_zip(path, version):
    with zipfile.ZipFile(str(path), 'w') as archive:
        for package in ('ansible_collections', 'ansible_collections/nms', 'ansible_collections/nms/overlay',
                        'ansible_collections/nms/overlay/plugins', 'ansible_collections/nms/overlay/plugins/module_utils'):
            archive.writestr(package + '/__init__.py', '')
        with open(os.path.join(MODULE_UTILS, '_bytecode.py'), encoding='utf-8') as source:
            archive.writestr('ansible_collections/nms/overlay/plugins/module_utils/_bytecode.py', source.read())
        archive.writestr('ansible_collections/nms/overlay/plugins/module_utils/_probe.py', PROBE % version)
    return str(path)


def module_process(zip_path, cache, *options):
    """Run SCRIPT in a process from the zip, in the zip's directory: its output lines. (-I: no PYTHON* variable.)"""
    env = dict(os.environ, NMS_OVERLAY_BYTECODE_CACHE=str(cache))
    done = subprocess.run([sys.executable, '-I'] + list(options) + ['-c', SCRIPT, zip_path], env=env, text=True,
                          capture_output=True, check=False, timeout=60, cwd=os.path.dirname(zip_path))
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def probe_entry(cache):
    """The cache's entry for the probe module (the one that is not _bytecode's or a package's)."""
    entries = [path for path in cache.iterdir() if b'from the source' in path.read_bytes()]
    assert len(entries) == 1, entries
    return entries[0]


def test_a_module_process_from_a_zip_runs_the_code_it_kept(tmp_path):
    cache = tmp_path / 'cache'
    first_zip = module_zip(tmp_path / 'one.zip', 1)
    value, where, compiled = module_process(first_zip, cache)
    assert value == 'from the source 1' and first_zip in where and compiled == '1'  # compiled once, and kept
    assert module_process(first_zip, cache)[2] == '0'  # then never again
    entry = probe_entry(cache)
    # the kept entry's code is what the next process runs: replaced by other code under the same header, it runs that
    data = entry.read_bytes()
    header = data[:len(_bytecode.HEADER) + 32]
    entry.write_bytes(header + marshal.dumps(code_of(PROBE.replace('from the source', 'from the cache') % 1)))
    second_zip = module_zip(tmp_path / 'two.zip', 1)
    value, where, compiled = module_process(second_zip, cache)
    assert value == 'from the cache 1' and compiled == '0'
    assert second_zip in where and first_zip not in where  # a traceback names the zip the process runs from


def test_a_changed_source_never_gets_the_old_code(tmp_path):
    cache = tmp_path / 'cache'
    assert module_process(module_zip(tmp_path / 'one.zip', 1), cache)[0] == 'from the source 1'
    assert module_process(module_zip(tmp_path / 'two.zip', 2), cache)[0] == 'from the source 2'
    assert module_process(module_zip(tmp_path / 'three.zip', 1), cache)[0] == 'from the source 1'


@pytest.mark.parametrize('setting', ['off', 'relative'])
def test_turned_off_or_relative_a_module_process_keeps_nothing(tmp_path, setting):
    value, dummy, compiled = module_process(module_zip(tmp_path / 'one.zip', 1), setting)
    assert value == 'from the source 1' and int(compiled) >= 1  # zipimport's own (3.11 to 3.13: twice, to find and to run)
    assert sorted(os.listdir(str(tmp_path))) == ['one.zip']


def test_told_to_write_no_bytecode_a_module_process_writes_none_but_reads_what_is_kept(tmp_path):
    cache = tmp_path / 'cache'
    zip_path = module_zip(tmp_path / 'one.zip', 1)
    assert module_process(zip_path, cache, '-B')[0] == 'from the source 1'  # -B: PYTHONDONTWRITEBYTECODE
    assert os.listdir(str(cache)) == []
    module_process(zip_path, cache)
    entry = probe_entry(cache)
    data = entry.read_bytes()
    entry.write_bytes(data[:len(_bytecode.HEADER) + 32] + marshal.dumps(code_of(PROBE.replace('from the source', 'kept') % 1)))
    assert module_process(zip_path, cache, '-B')[0] == 'kept 1'


def test_many_processes_at_once_share_the_cache_whole(tmp_path):
    """16 processes start together on an empty cache: all run, and every entry they leave loads."""
    cache = tmp_path / 'cache'
    zip_path = module_zip(tmp_path / 'one.zip', 1)
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        outputs = list(pool.map(lambda dummy: module_process(zip_path, cache), range(16)))
    assert all(output[0] == 'from the source 1' for output in outputs)
    names = os.listdir(str(cache))
    assert [name for name in names if name.startswith('.')] == []
    opened = BytecodeCache.open(str(cache))
    for name in names:
        assert opened.load(bytes.fromhex(name.partition('.')[0])) is not None, name
