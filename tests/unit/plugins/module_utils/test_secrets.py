# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 28, points 2 and 4: the created_secrets_file of setup_key, token and network_state.

Checked before the task's first request (check mode too): a missing directory, a symbolic link, something
other than a file, malformed JSON and JSON of another shape are refused with the option named and nothing
made. Written under a lock: parallel writers keep every value.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import stat

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._network import NetworkStateModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.setup_key import SetupKeyModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.token import TokenModule
from ansible_collections.nms.overlay.plugins.module_utils._secrets import SecretsFileError, check_secrets_file, store_secret
from tests.support.fakes import engine
from tests.unit.plugins.module_utils.test_network import KEY, KeyServer, options


def _file(tmp, text):
    path = tmp / 'keys.json'
    path.write_text(text, encoding='utf-8')
    return path


def _symlink(tmp):
    target = _file(tmp, '{}')
    link = tmp / 'link.json'
    link.symlink_to(target)
    return link


def _directory(tmp):
    path = tmp / 'keys.json'
    path.mkdir()
    return path


# what a file must not be, and what the failure says of it
BAD_FILES = {
    'missing directory': (lambda tmp: tmp / 'missing' / 'keys.json', 'does not exist'),
    'symbolic link': (_symlink, 'symbolic link'),
    'directory': (_directory, 'not a regular file'),
    'malformed JSON': (lambda tmp: _file(tmp, '{"setup_keys": '), 'not JSON'),
    'a JSON list': (lambda tmp: _file(tmp, '[]'), 'JSON list, not an object'),
    'a kind of another shape': (lambda tmp: _file(tmp, '{"setup_keys": []}'), '"setup_keys" is not an object'),
    'an entry of another shape': (lambda tmp: _file(tmp, '{"setup_keys": {"a": "KEY"}}'), '"setup_keys"."a" is not'),
}


@pytest.mark.parametrize('check_mode', [False, True], ids=['run', 'check mode'])
@pytest.mark.parametrize('case', sorted(BAD_FILES))
def test_network_state_refuses_a_secrets_file_it_could_not_write_before_any_request(tmp_path, case, check_mode):
    make, reason = BAD_FILES[case]
    path = make(tmp_path)
    before = open(path, encoding='utf-8').read() if os.path.isfile(path) else None
    server = KeyServer()
    with pytest.raises(TaskError) as failure:
        engine(NetworkStateModule, server, check_mode, options(setup_keys=[KEY], created_secrets_file=str(path))).run()
    message = str(failure.value)
    assert message.startswith('option created_secrets_file: ') and reason in message and 'nothing was changed' in message
    assert server.calls == []  # not even a read
    if before is not None:
        assert open(path, encoding='utf-8').read() == before  # left as it was


@pytest.mark.parametrize('kind, args', [
    (SetupKeyModule, dict(name='servers', type='reusable')),
    (TokenModule, dict(user='ci-bot', name='pipeline', expires_in=30)),
], ids=['setup_key', 'token'])
def test_the_modules_refuse_a_secrets_file_they_could_not_write_before_any_request(tmp_path, kind, args):
    server = KeyServer()
    module = engine(kind, server, False, None, created_secrets_file=str(_file(tmp_path, '{"tokens": 1}')), **args)
    with pytest.raises(TaskError) as failure:
        module.run()
    assert 'option created_secrets_file' in str(failure.value) and '"tokens" is not an object' in str(failure.value)
    assert server.calls == []


def test_a_value_is_added_to_what_the_file_holds_readable_by_its_owner_only(tmp_path):
    path = _file(tmp_path, '{"tokens": {"ci/old": {"id": "1", "key": "nbp_old"}}}')
    os.chmod(path, 0o644)
    store_secret(str(path), 'setup_keys', 'servers', 'k1', 'VALUE-1')
    assert json.loads(path.read_text()) == {'tokens': {'ci/old': {'id': '1', 'key': 'nbp_old'}},
                                            'setup_keys': {'servers': {'id': 'k1', 'key': 'VALUE-1'}}}
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    check_secrets_file({'created_secrets_file': str(path)})  # what it writes, it takes again


def _writer(path, worker, count):
    for index in range(count):
        store_secret(path, 'setup_keys', 'w%d-%d' % (worker, index), str(index), 'VALUE-%d-%d' % (worker, index))


def test_parallel_writers_keep_every_value(tmp_path):
    """Ten forks adding their values to one file at once: every value is kept (without the lock, most are lost)."""
    path = str(tmp_path / 'keys.json')
    context = multiprocessing.get_context('fork')
    workers = [context.Process(target=_writer, args=(path, worker, 15)) for worker in range(10)]
    for process in workers:
        process.start()
    for process in workers:
        process.join(60)
    assert [process.exitcode for process in workers] == [0] * 10
    kept = json.loads(open(path, encoding='utf-8').read())['setup_keys']
    assert len(kept) == 150
    assert kept['w7-11'] == {'id': '11', 'key': 'VALUE-7-11'}


def test_a_token_is_kept_under_its_user_and_name(tmp_path):
    path = tmp_path / 'keys.json'
    module = engine(TokenModule, KeyServer(), False, None, user='ci-bot', name='pipeline', expires_in=30,
                    created_secrets_file=str(path))
    assert module.secret_name({'name': 'pipeline'}) == 'ci-bot/pipeline'
    assert TokenModule.holds_created_secret({'token': {'id': '1'}, 'plain_token': 'nbp_x'}) is True
    assert TokenModule.holds_created_secret({'token': {'id': '1'}}) is False
    assert SetupKeyModule.holds_created_secret({'setup_key': {'id': '1', 'key': 'K'}}) is True
    assert SetupKeyModule.holds_created_secret({'setup_key': {'id': '1'}}) is False
    assert NetworkStateModule.holds_created_secret({'changes': [{'kind': 'setup_keys', 'key': 'K'}]}) is True
    assert NetworkStateModule.holds_created_secret({'changes': [{'kind': 'setup_keys'}]}) is False


def test_a_setup_key_created_with_a_file_goes_there_and_leaves_the_result_when_asked(tmp_path):
    path = tmp_path / 'keys.json'
    module = engine(SetupKeyModule, KeyServer(), False, None, name='servers', type='reusable',
                    created_secrets_file=str(path), return_created_secrets=False)
    result = module.run()
    assert result['changed'] is True and 'key' not in result['setup_key']
    assert SetupKeyModule.holds_created_secret(result) is False  # nothing to hide: the output shows the rest
    kept = json.loads(path.read_text())['setup_keys']['servers']
    assert kept['key'].startswith('A616097E') and kept['id'] == result['setup_key']['id']
    # by default the result keeps it too (and is then hidden from the output by the action plugin)
    again = engine(SetupKeyModule, KeyServer(), False, None, name='other', type='reusable',
                   created_secrets_file=str(path)).run()
    assert again['setup_key']['key'] == json.loads(path.read_text())['setup_keys']['other']['key']


def test_each_value_records_its_server_and_a_file_of_another_server_is_refused_before_any_request(tmp_path):
    """Issue 46, 3: one file used against two servers would replace one server's values with the other's."""
    path = tmp_path / 'keys.json'
    server = KeyServer()
    engine(SetupKeyModule, server, False, None, name='servers', type='reusable', created_secrets_file=str(path),
           api_url='https://one.example.com/api/').run()
    held = json.loads(path.read_text())['setup_keys']['servers']
    assert held['server'] == 'https://one.example.com' and held['key'], held
    calls = len(server.calls)
    for check_mode in (False, True):
        other = engine(SetupKeyModule, server, check_mode, None, name='servers', type='reusable',
                       created_secrets_file=str(path), api_url='https://two.example.com')
        with pytest.raises(TaskError) as failure:
            other.run()
        assert str(failure.value) == (
            "option created_secrets_file: %s holds values created on another server (https://one.example.com), and "
            "this task's server is https://two.example.com: a value of the same name would overwrite one of them; use "
            "one file per server; nothing was changed" % path)
    assert len(server.calls) == calls  # not even a read
    assert json.loads(path.read_text())['setup_keys']['servers'] == held
    # the same server, written either way: taken
    check_secrets_file({'created_secrets_file': str(path), 'api_url': 'https://one.example.com'})


def test_a_value_of_another_server_is_never_replaced_even_when_a_racing_run_wrote_it_after_the_check(tmp_path):
    path = tmp_path / 'keys.json'
    store_secret(str(path), 'setup_keys', 'servers', 'k1', 'VALUE-1', 'https://one.example.com')
    with pytest.raises(SecretsFileError) as failure:
        store_secret(str(path), 'setup_keys', 'servers', 'k2', 'VALUE-2', 'https://two.example.com')
    assert str(failure.value) == 'it holds the value of setup_keys "servers" that https://one.example.com created'
    assert json.loads(path.read_text())['setup_keys']['servers']['key'] == 'VALUE-1'
