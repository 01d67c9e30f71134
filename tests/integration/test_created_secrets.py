# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 28, points 1 to 4: a created secret reaches ``register`` and created_secrets_file, never the output.

Run with ansible-playbook and ansible itself (not the ``run`` fixture), from a working directory that is not
the playbook's, both ways a module runs: in the controller's worker and as a module process. The emulator
holds every value it made; none of them may show in the output at any verbosity, while the play uses each one.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest
import yaml

from tests.reliability.secrets import find_secrets

# what Ansible shows is the same whatever the server; netbird, so that the oldest ansible-core's run (make oldest,
# netbird only) has these tests too
pytestmark = pytest.mark.dialects('netbird')

BIN = os.path.dirname(sys.executable)
WAYS = {'in-process': True, 'module-process': False}


def ansible(command, cwd, emulator, collections_dir, home, forks=None, env=None):
    """(rc, output) of an ansible command run in ``cwd`` against the emulator."""
    run_env = {k: v for k, v in os.environ.items() if not k.startswith(('ANSIBLE_', 'NMS_'))}
    run_env.update(HOME=str(home), ANSIBLE_COLLECTIONS_PATH=collections_dir, ANSIBLE_COLLECTIONS_SCAN_SYS_PATH='False',
                   ANSIBLE_NOCOLOR='1', ANSIBLE_LOCALHOST_WARNING='False', ANSIBLE_INVENTORY_UNPARSED_WARNING='False',
                   ANSIBLE_PYTHON_INTERPRETER=sys.executable, ANSIBLE_LOCAL_TEMP=str(home / 'tmp'),
                   ANSIBLE_RETRY_FILES_ENABLED='False', NMS_API_URL=emulator.url, NMS_API_TOKEN=emulator.token,
                   PATH=BIN + os.pathsep + os.environ.get('PATH', ''))
    if forks:
        run_env['ANSIBLE_FORKS'] = str(forks)
    run_env.update(env or {})
    proc = subprocess.run([os.path.join(BIN, command[0])] + command[1:], cwd=str(cwd), env=run_env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600, check=False)
    return proc.returncode, proc.stdout.decode('utf-8', errors='replace')


def created_values(emulator):
    """Every setup key and token value the emulator made (it remembers them all)."""
    return [value for value in emulator.known_secrets() if value != emulator.token]


def assert_not_shown(output, values):
    assert values, 'the emulator made no value: the test would prove nothing'
    shown = [value[:6] + '...' for value in values if find_secrets(output, [value])]
    assert shown == [], 'created values in the output: %s' % shown


@pytest.fixture
def dirs(tmp_path):
    """A playbook directory and another working directory, as when a play is run from a checkout's root."""
    made = {name: tmp_path / name for name in ('plays', 'work', 'home')}
    for path in made.values():
        path.mkdir()
    (made['home'] / 'tmp').mkdir()
    return made


@pytest.mark.parametrize('way', sorted(WAYS))
def test_created_values_reach_register_and_the_file_but_never_the_output(emulator, collections_dir, dirs, way):
    values_file = dirs['home'] / 'used.json'
    tasks = [
        {'name': 'one key', 'register': 'one', 'nms.overlay.setup_key': {
            'name': 'one', 'type': 'one-off', 'created_secrets_file': 'secrets.json'}},
        {'name': 'keys in a loop', 'register': 'looped', 'loop': ['a', 'b'], 'nms.overlay.setup_key': {
            'name': 'loop-{{ item }}', 'type': 'reusable', 'created_secrets_file': 'secrets.json'}},
        {'name': 'a token', 'register': 'pat', 'nms.overlay.token': {
            'user': 'owner@example.com', 'name': 'pipeline', 'expires_in': 7, 'created_secrets_file': 'secrets.json'}},
        {'name': 'network_state', 'register': 'state', 'nms.overlay.network_state': {
            'setup_keys': [{'name': 'described', 'type': 'reusable'}]}},
        {'name': 'quiet key', 'register': 'quiet', 'nms.overlay.setup_key': {
            'name': 'quiet', 'type': 'reusable', 'created_secrets_file': 'secrets.json', 'return_created_secrets': False}},
        {'name': 'use them', 'no_log': True, 'ansible.builtin.copy': {
            'dest': str(values_file), 'mode': '0600', 'content': '{{ {'
            '"one": one.setup_key.key, "loop-a": looped.results[0].setup_key.key, '
            '"loop-b": looped.results[1].setup_key.key, "pat": pat.plain_token, '
            '"described": state.changes[0].key, "quiet": quiet.setup_key.key | default("(none)")} | to_json }}'}},
    ]
    play = {'hosts': 'localhost', 'gather_facts': False, 'connection': 'local',
            'vars': {'nms_overlay_in_process': WAYS[way], 'ansible_python_interpreter': sys.executable},
            'tasks': tasks}
    playbook = dirs['plays'] / 'secrets.yml'
    playbook.write_text(yaml.safe_dump([play], sort_keys=False), encoding='utf-8')

    rc, output = ansible(['ansible-playbook', str(playbook), '-vvv', '--diff'], dirs['work'], emulator,
                         collections_dir, dirs['home'])
    assert rc == 0, output[-3000:]
    assert ('runs in the controller process' if WAYS[way] else 'runs as a module process') in output
    used = json.loads(values_file.read_text())
    assert used['quiet'] == '(none)'  # return_created_secrets: false: only the file has it
    assert all(len(used[name]) >= 36 and '*' not in used[name] for name in ('one', 'loop-a', 'loop-b', 'pat', 'described'))
    assert_not_shown(output, created_values(emulator) + [used['pat']])
    assert output.count('"censored"') >= 5  # one, the two loop items, the token, network_state
    assert '"name": "quiet"' in output  # a result without the value is shown as usual

    # the relative path is taken in the directory ansible-playbook runs in, whichever way the module runs
    assert not (dirs['plays'] / 'secrets.json').exists()
    kept = json.loads((dirs['work'] / 'secrets.json').read_text())
    assert stat.S_IMODE(os.stat(dirs['work'] / 'secrets.json').st_mode) == 0o600
    assert {name: entry['key'] for name, entry in kept['setup_keys'].items()} == {
        name: used[name] for name in ('one', 'loop-a', 'loop-b')} | {'quiet': kept['setup_keys']['quiet']['key']}
    assert kept['setup_keys']['quiet']['key'] in created_values(emulator)
    assert kept['tokens'] == {'owner@example.com/pipeline': {'id': kept['tokens']['owner@example.com/pipeline']['id'],
                                                             'key': used['pat'], 'server': emulator.url}}


@pytest.mark.parametrize('way', sorted(WAYS))
def test_an_ad_hoc_create_shows_no_value(emulator, collections_dir, dirs, way):
    rc, output = ansible(['ansible', 'localhost', '-c', 'local', '-m', 'nms.overlay.setup_key', '-a',
                          'name=adhoc type=one-off', '-e', 'nms_overlay_in_process=%s' % WAYS[way], '-v'],
                         dirs['work'], emulator, collections_dir, dirs['home'])
    assert rc == 0 and 'CHANGED' in output and '"censored"' in output, output[-2000:]
    assert_not_shown(output, created_values(emulator))


def test_a_relative_secrets_file_is_refused_for_a_module_on_another_host(emulator, collections_dir, dirs):
    inventory = dirs['plays'] / 'hosts.ini'
    inventory.write_text('far ansible_connection=ssh ansible_host=127.0.0.1 ansible_port=9\n', encoding='utf-8')
    emulator.clear_log()
    rc, output = ansible(['ansible', 'far', '-i', str(inventory), '-m', 'nms.overlay.setup_key', '-a',
                          'name=far type=one-off created_secrets_file=secrets.json'],
                         dirs['work'], emulator, collections_dir, dirs['home'])
    assert rc != 0 and 'option created_secrets_file: a relative path (secrets.json)' in output, output[-2000:]
    assert 'give an absolute path' in output
    assert emulator.requests() == []


@pytest.mark.dialects('netbird')
def test_ten_forks_writing_one_secrets_file_keep_every_value(emulator, collections_dir, dirs):
    """Point 2: ten hosts at once, each creating its key into one file: all ten values are kept."""
    inventory = dirs['plays'] / 'hosts.ini'
    inventory.write_text('[fleet]\n' + ''.join('h%d ansible_connection=local\n' % n for n in range(10)), encoding='utf-8')
    playbook = dirs['plays'] / 'fleet.yml'
    playbook.write_text(yaml.safe_dump([{
        'hosts': 'fleet', 'gather_facts': False, 'vars': {'ansible_python_interpreter': sys.executable},
        'tasks': [{'name': 'each host its key', 'nms.overlay.network_state': {
            'setup_keys': [{'name': '{{ inventory_hostname }}', 'type': 'one-off'}],
            'return_created_secrets': False, 'created_secrets_file': str(dirs['home'] / 'fleet.json')}}],
    }], sort_keys=False), encoding='utf-8')
    rc, output = ansible(['ansible-playbook', '-i', str(inventory), str(playbook)], dirs['work'], emulator,
                         collections_dir, dirs['home'], forks=10)
    assert rc == 0, output[-3000:]
    kept = json.loads((dirs['home'] / 'fleet.json').read_text())['setup_keys']
    assert sorted(kept) == sorted('h%d' % n for n in range(10))
    assert sorted(entry['key'] for entry in kept.values()) == sorted(created_values(emulator))
    assert_not_shown(output, created_values(emulator))
    # issue 46, 5: no lock file (nor a half-written copy) is left beside it; the lock is the directory's
    assert [p.name for p in dirs['home'].iterdir() if p.name.endswith('.lock') or p.name.startswith('.nms-')] == []


@pytest.mark.parametrize('callback', ['minimal', 'oneline'])
def test_a_loop_of_creates_shows_no_value_in_callbacks_that_print_the_whole_loop(emulator, collections_dir, dirs,
                                                                                 callback):
    """Before ansible-core 2.19 a loop's whole result reaches the callbacks, hidden only when the task has no_log: the
    action plugin sets it (make oldest runs this on 2.16)."""
    used = dirs['home'] / 'used.json'
    playbook = dirs['plays'] / 'loop.yml'
    playbook.write_text(yaml.safe_dump([{
        'hosts': 'localhost', 'gather_facts': False, 'connection': 'local',
        'vars': {'ansible_python_interpreter': sys.executable},
        'tasks': [
            {'name': 'keys', 'register': 'made', 'loop': ['a', 'b'],
             'nms.overlay.setup_key': {'name': 'loop-{{ item }}', 'type': 'one-off'}},
            {'name': 'use them', 'no_log': True, 'ansible.builtin.copy': {
                'dest': str(used), 'mode': '0600', 'content': "{{ made.results | map(attribute='setup_key.key') | to_json }}"}},
        ]}], sort_keys=False), encoding='utf-8')
    rc, output = ansible(['ansible-playbook', str(playbook), '-v'], dirs['work'], emulator, collections_dir, dirs['home'],
                         env={'ANSIBLE_STDOUT_CALLBACK': callback})
    assert rc == 0, output[-3000:]
    values = json.loads(used.read_text())
    assert len(values) == 2 and all(len(value) >= 36 for value in values)
    assert_not_shown(output, created_values(emulator))


def test_async_is_refused_before_any_request_where_a_value_may_be_created(emulator, collections_dir, dirs):
    """An async task's final result reaches the callbacks unhidden and stays in the job file: refused."""
    playbook = dirs['plays'] / 'async.yml'
    playbook.write_text(yaml.safe_dump([{
        'hosts': 'localhost', 'gather_facts': False, 'connection': 'local',
        'vars': {'ansible_python_interpreter': sys.executable},
        'tasks': [{'name': 'key', 'async': 30, 'poll': 2, 'ignore_errors': True,
                   'nms.overlay.setup_key': {'name': 'async-key', 'type': 'one-off'}}]}], sort_keys=False),
        encoding='utf-8')
    emulator.clear_log()
    rc, output = ansible(['ansible-playbook', str(playbook)], dirs['work'], emulator, collections_dir, dirs['home'])
    assert rc == 0, output[-3000:]
    assert 'async: nms.overlay.setup_key may create a setup key, token or invite link' in output
    assert 'run the task without async' in output
    assert emulator.requests() == []
