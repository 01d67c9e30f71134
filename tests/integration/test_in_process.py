# -*- coding: utf-8 -*-
"""Where modules run: in the controller's task worker for local tasks, as a process otherwise.

Both ways must give the same result, requests and secrecy. Which way a task took is read from the
-vvv line the action plugin prints. Every test here runs ansible-playbook (``ansible=True``; the extra var
``nms_overlay_in_process`` alone also makes ``run`` use it): what is tested is where ansible-core runs the module,
which does not depend on the server, so against the netbird dialect only.
"""

from __future__ import annotations

import pathlib

import pytest

pytestmark = pytest.mark.dialects('netbird')

IN_PROCESS = 'nms.overlay.group runs in the controller process'
AS_PROCESS = 'nms.overlay.group runs as a module process: '


def group_task(name='in-process', **extra):
    return dict({'name': name, 'nms.overlay.group': {'name': name}, 'register': 'out'}, **extra)


@pytest.mark.parametrize('in_process', [True, False])
def test_both_ways_give_the_same_result_and_requests(emulator, run, in_process):
    emulator.clear_log()
    created = run([group_task()], diff=True, verbosity=3, extra_vars={'nms_overlay_in_process': in_process})
    assert created.rc == 0, created
    assert (IN_PROCESS in created.stdout) is in_process
    assert (AS_PROCESS + 'nms_overlay_in_process is false' in created.stdout) is not in_process
    result = created['in-process']
    assert result['changed'] is True and result['group']['name'] == 'in-process'
    assert result['diff'] == {'before': {}, 'after': {'name': 'in-process', 'peers': []}}
    assert [w['method'] + ' ' + w['path'] for w in emulator.writes()] == ['POST /api/groups']

    emulator.clear_log()
    again = run([group_task()], check=True, extra_vars={'nms_overlay_in_process': in_process})
    assert again.rc == 0, again
    assert again['in-process']['changed'] is False
    assert [r['method'] + ' ' + r['path'] for r in emulator.requests()] == ['GET /api/groups']


def test_task_environment_reaches_the_module_and_ends_with_the_task(emulator, run):
    """The token only in one task's environment: that task works, the next one has no token."""
    tasks = [group_task(environment={'NMS_API_TOKEN': '{{ token }}'}),
             dict(group_task(name='no-token'), ignore_errors=True)]
    result = run(tasks, verbosity=3, env={'NMS_API_TOKEN': None},
                 extra_vars={'nms_overlay_in_process': True, 'token': emulator.token})
    assert IN_PROCESS in result.stdout
    assert result['in-process']['changed'] is True
    assert result['no-token']['failed'] is True
    assert result['no-token']['msg'] == ('option api_token: it is not set or empty (set api_token or the environment '
                                         'variable NMS_API_TOKEN)')


def test_module_failure_in_process_names_the_server_answer(emulator, run):
    result = run([{'name': 'bad', 'nms.overlay.group': {'name': 'x', 'api_token': 'wrong-token'}, 'ignore_errors': True}],
                 extra_vars={'nms_overlay_in_process': True})
    failure = result['bad']
    assert failure['failed'] is True
    assert failure['status'] == 401 and failure['method'] == 'GET' and failure['path'] == '/groups'
    assert 'wrong-token' not in result.stdout


def test_async_task_runs_as_a_process(emulator, run, tmp_path):
    result = run([group_task(**{'async': 30, 'poll': 1})], verbosity=3, extra_vars={'nms_overlay_in_process': True},
                 env={'ANSIBLE_ASYNC_DIR': str(tmp_path / 'async')})
    assert result.rc == 0, result
    assert AS_PROCESS + 'the task is async' in result.stdout
    assert result['in-process']['changed'] is True
    assert [w['method'] + ' ' + w['path'] for w in emulator.writes()] == ['POST /api/groups']


def test_delegated_to_localhost_runs_in_process(emulator, run):
    """A play over remote hosts whose API task is delegated to the controller."""
    inventory = {'hosts.yml': {'all': {'hosts': {'web-1': {'ansible_connection': 'ssh', 'ansible_host': '192.0.2.10'}}}}}
    task = dict(group_task(), delegate_to='localhost', run_once=True)
    result = run([task], hosts='all', inventory=inventory, verbosity=3,
                 play={'connection': 'ssh'}, extra_vars={'nms_overlay_in_process': True})
    assert result.rc == 0, result
    assert IN_PROCESS in result.stdout
    assert result['in-process']['changed'] is True


@pytest.mark.parametrize('in_process', [True, False])
def test_a_bad_option_names_the_module_as_the_task_wrote_it(emulator, run, in_process):
    """Both ways (in the controller's worker, as a module process) name the module the same, and send nothing."""
    emulator.clear_log()
    result = run([{'name': 'bad', 'nms.overlay.group': {'name': 'x', 'bogus': 1}, 'ignore_errors': True}],
                 extra_vars={'nms_overlay_in_process': in_process}, ansible=True)
    assert result['bad']['msg'].startswith('Unsupported parameters for (nms.overlay.group) module: bogus.')
    assert emulator.requests() == []


@pytest.mark.parametrize('in_process', [True, False])
def test_server_text_in_a_registered_result_is_never_rendered(emulator, run, in_process):
    """A name the server holds is data: used from a registered result, a template in it stays as it is (ansible-core
    marks every action's result as never to be rendered; before 2.19 by wrapping it, after it by not trusting it)."""
    templated = 'rendered-{{ 6 * 7 }}'
    emulator.ok('POST', '/api/groups', {'name': templated})
    steps = [{'name': 'read', 'nms.overlay.group_info': {}, 'register': 'found'},  # (a name in the task would be rendered)
             {'name': 'use', 'ansible.builtin.set_fact': {
                 'used': "{{ found.groups | map(attribute='name') | select('match', 'rendered-') | first }}"}},
             {'name': 'show', 'ansible.builtin.debug': {'var': 'used'}}]
    result = run(steps, ansible=True, extra_vars={'nms_overlay_in_process': in_process})
    assert result.rc == 0, result
    assert templated in [group['name'] for group in result['read']['groups']]
    assert result['show']['used'] == templated  # 'rendered-42' had it been rendered


def cache_entries(directory):
    """The bytecode cache's entries: {name: (inode, size)}, and any other file (a temporary one left behind)."""
    entries = {path.name: (path.stat().st_ino, path.stat().st_size) for path in directory.iterdir()}
    return entries, sorted(name for name in entries if name.startswith('.'))


def test_a_module_process_compiles_the_collection_once(emulator, run, tmp_path):
    """The first module processes compile the collection's code into the cache; the next play's load it from there:
    every entry is the same file as before (one that would not load would have been written again)."""
    cache = tmp_path / 'bytecode'
    steps = [group_task(), {'name': 'read', 'nms.overlay.group_info': {'name': 'in-process'}}]
    env = {'NMS_OVERLAY_BYTECODE_CACHE': str(cache), 'PYTHONDONTWRITEBYTECODE': None}  # (a workplace may set it)
    first = run(steps, extra_vars={'nms_overlay_in_process': False}, env=env)
    assert first.rc == 0, first
    entries, leftovers = cache_entries(cache)
    assert len(entries) >= 10 and leftovers == [], entries  # the kind, the engine, the client ... and nothing half-written
    assert oct(cache.stat().st_mode & 0o777) == '0o700'
    again = run(steps, extra_vars={'nms_overlay_in_process': False}, env=env)
    assert again.rc == 0, again
    assert again['in-process']['changed'] is False and again['read']['groups'][0]['name'] == 'in-process'
    assert cache_entries(cache) == (entries, [])


def test_the_cache_is_under_the_users_home_unless_turned_off(emulator, run, tmp_path):
    """(run gives every other test one cache for the session: NMS_OVERLAY_BYTECODE_CACHE, unset here.)"""
    home = tmp_path / 'home'
    home.mkdir()
    steps = [group_task()]
    turned_off = run(steps, extra_vars={'nms_overlay_in_process': False},
                     env={'HOME': str(home), 'NMS_OVERLAY_BYTECODE_CACHE': 'off'})
    assert turned_off.rc == 0, turned_off
    assert not (home / '.cache' / 'nms.overlay').exists()
    relative = run(steps, extra_vars={'nms_overlay_in_process': False},
                   env={'HOME': str(home), 'NMS_OVERLAY_BYTECODE_CACHE': 'bytecode'})
    assert relative.rc == 0, relative  # a relative path is refused: no cache, and the task runs as without one
    workdir = pathlib.Path(relative.command[1]).parent  # where ansible-playbook ran (the playbook's directory)
    assert not (home / '.cache').exists() and not list(workdir.rglob('bytecode')) and not list(home.rglob('bytecode'))
    told_not_to = run(steps, extra_vars={'nms_overlay_in_process': False},
                      env={'HOME': str(home), 'PYTHONDONTWRITEBYTECODE': '1', 'NMS_OVERLAY_BYTECODE_CACHE': None})
    assert told_not_to.rc == 0, told_not_to
    assert not list((home / '.cache' / 'nms.overlay' / 'bytecode').iterdir())  # made, and nothing written in it
    default = run(steps, extra_vars={'nms_overlay_in_process': False},
                  env={'HOME': str(home), 'PYTHONDONTWRITEBYTECODE': None, 'NMS_OVERLAY_BYTECODE_CACHE': None})
    assert default.rc == 0, default
    entries, leftovers = cache_entries(home / '.cache' / 'nms.overlay' / 'bytecode')
    assert entries and leftovers == []
