# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 31, item 2, against the emulator started with no account (--fresh): nms.overlay.instance sets the server up
once (check mode sends no write; a re-run changes nothing and writes nothing), its token shows only in ``register``
and the token file, never in the output; the bootstrap_server playbook goes from the fresh server to the example
network, and again with changed=0; a v0.27 server (the netbird dialect) is refused after its one request.

The ``run`` fixture scans every run's output and the request log for secrets (conftest.py): the owner's token, made
by the setup task, may show nowhere.
"""

from __future__ import annotations

import json
import os
import stat

import pytest

from tests.integration.conftest import ScannedEmulator

PASSWORD = 'correct-horse-9'
OWNER = {'email': 'owner@example.com', 'name': 'Owner', 'password': PASSWORD}


@pytest.fixture(scope='session', params=['netbird', 'current'])
def emulator_process(request, emulators):
    """This module's emulators: no account yet (a reset returns there), as a v0.77.1 before its setup."""
    return emulators.get(request.param, extra_args=['--idp', '--fresh'], cls=ScannedEmulator)


def requests_of(emulator):
    return ['%s %s' % (entry['method'], entry['path']) for entry in emulator.requests()]


@pytest.mark.dialects('current')
def test_setup_once_then_nothing_check_mode_writes_nothing(emulator, run):
    task = {'nms.overlay.instance': dict(OWNER, pat_expire_in=7), 'register': 'setup'}
    status = run([{'name': 'status', 'nms.overlay.instance': {}}])
    assert status['status']['instance'] == {'setup_required': True} and not status['status']['changed']

    preview = run([dict(task, name='preview')], check=True, diff=True)
    assert preview['preview']['changed'] is True and preview['preview']['diff']['after']['email'] == OWNER['email']
    assert PASSWORD not in json.dumps(preview.results)
    assert emulator.writes() == []

    emulator.clear_log()
    first = run([dict(task, name='setup')])
    result = first['setup']
    assert result['changed'] is True and result['instance'] == {'setup_required': False}
    token = result['personal_access_token']
    assert requests_of(emulator) == ['GET /api/instance', 'POST /api/setup']
    assert emulator.ok('GET', '/users', token=token)[0]['email'] == OWNER['email']  # the owner's token works
    tokens = emulator.ok('GET', '/users/%s/tokens' % result['owner']['user_id'], token=token)
    assert [t['name'] for t in tokens] == ['setup-token']

    emulator.clear_log()
    again = run([dict(task, name='again')], diff=True)
    assert again['again']['changed'] is False and 'personal_access_token' not in again['again']
    assert requests_of(emulator) == ['GET /api/instance']
    checked = run([dict(task, name='checked')], check=True)
    assert checked['checked']['changed'] is False and emulator.writes() == []


@pytest.mark.dialects('current')
def test_the_token_reaches_register_and_the_file_never_the_output(emulator, run, tmp_path):
    kept = tmp_path / 'owner-token.json'
    result = run([
        {'name': 'setup', 'nms.overlay.instance': dict(OWNER, created_secrets_file=str(kept)), 'register': 'setup'},
        {'name': 'use it', 'nms.overlay.group': {'name': 'made-with-the-new-token',
                                                 'api_token': '{{ setup.personal_access_token }}'}},
    ], ansible=True)
    assert result.rc == 0, result
    assert result['use it']['changed'] is True
    entry = json.loads(kept.read_text())['tokens']['owner@example.com/setup-token']
    assert entry['key'].startswith('nbp_') and stat.S_IMODE(os.stat(kept).st_mode) == 0o600
    assert entry['key'] not in result.stdout and PASSWORD not in result.stdout
    assert 'made-with-the-new-token' in [g['name'] for g in emulator.ok('GET', '/groups', token=entry['key'])]


@pytest.mark.dialects('netbird')
def test_a_v027_server_is_refused_after_its_one_request(emulator, run):
    emulator.clear_log()
    result = run([{'name': 'setup', 'nms.overlay.instance': OWNER, 'ignore_errors': True}])
    message = result['setup']['msg']
    assert result['setup']['failed'] and 'v0.27' in message and 'instance setup' in message, message
    assert requests_of(emulator) == ['GET /api/instance']


@pytest.mark.dialects('current')
def test_bootstrap_server_builds_the_example_network_and_again_changes_nothing(emulator, run, tmp_path):
    kept = tmp_path / 'owner-token.json'
    variables = {'bootstrap_owner_email': OWNER['email'], 'bootstrap_owner_name': OWNER['name'],
                 'bootstrap_owner_password': PASSWORD, 'bootstrap_token_file': str(kept)}
    env = {'NMS_API_TOKEN': None}  # the fresh server's only token is the one the setup makes
    preview = run([], playbook='nms.overlay.bootstrap_server', env=env, extra_vars=variables, check=True)
    assert preview.rc != 0 and 'Check mode: the server would be set up now' in preview.text, preview
    assert emulator.writes() == [] and not kept.exists()
    first = run([], playbook='nms.overlay.bootstrap_server', env=env, extra_vars=variables)
    assert first.rc == 0, first
    token = json.loads(kept.read_text())['tokens']['owner@example.com/setup-token']['key']
    assert token not in first.stdout and PASSWORD not in first.stdout
    assert 'servers' in [g['name'] for g in emulator.ok('GET', '/groups', token=token)]
    assert [n['name'] for n in emulator.ok('GET', '/networks', token=token)] == ['office']

    emulator.clear_log()
    again = run([], playbook='nms.overlay.bootstrap_server', env=env, extra_vars=variables)
    assert again.rc == 0, again
    assert 'changed=0' in again.stdout.split('PLAY RECAP')[-1], again
    assert emulator.writes() == []


@pytest.mark.dialects('current')
@pytest.mark.parametrize('fault, requests', [
    ({'truncated': True}, ['GET /api/instance', 'POST /api/setup']),                   # the connection closed mid-body
    ({'truncated': True, 'framed': True}, ['GET /api/instance', 'POST /api/setup']),   # the JSON cut, its length complete
    ({'drop': True, 'after': True}, ['GET /api/instance', 'POST /api/setup', 'GET /api/instance']),  # no answer at all
], ids=['cut-transfer', 'cut-json', 'no-answer'])
def test_a_setup_whose_answer_is_lost_fails_changed_saying_the_token_is_lost(emulator, run, tmp_path, fault, requests):
    """Issue 44, item 10: the server is set up by the POST, whose answer (the only one with the token) is lost. The
    task fails with changed=true, says that the server is set up, that the token was not received and how to get one;
    the POST is sent once (a second one would be answered 412), and a re-run changes nothing."""
    kept = tmp_path / 'owner-token.json'
    emulator.clear_log()
    emulator.set_faults({'queue': [dict(fault, method='POST')]})
    task = {'name': 'setup', 'nms.overlay.instance': dict(OWNER, created_secrets_file=str(kept)), 'ignore_errors': True}
    result = run([task])['setup']
    message = result['msg']
    assert result['failed'] and result['changed'] is True, result
    assert 'the server is set up and its owner owner@example.com exists' in message, message
    assert "the owner's personal access token, which only that answer carried, was not received" in message, message
    assert 'sign in to the dashboard as owner@example.com with the password and create a personal access token' in message
    assert 'nbp_' not in message and PASSWORD not in message
    assert requests_of(emulator) == requests
    assert not kept.exists()
    assert emulator.ok('GET', '/instance') == {'setup_required': False}

    emulator.clear_log()
    again = run([dict(task, name='again')])['again']
    assert again['changed'] is False and not again.get('failed') and again['instance'] == {'setup_required': False}
    assert requests_of(emulator) == ['GET /api/instance']


@pytest.mark.dialects('current')
@pytest.mark.parametrize('ansible', [False, True], ids=['in-process', 'ansible-playbook'])
def test_a_text_option_that_is_no_string_is_refused_before_any_request(emulator, run, ansible):
    """Issue 44, item 9: ``email: [owner@example.com]`` set the server up with the email "['owner@example.com']"
    (ansible-core turns a list into its Python text, and that holds an @). Types are checked before content."""
    emulator.clear_log()
    result = run([
        {'name': 'a list', 'nms.overlay.instance': dict(OWNER, email=[OWNER['email']]), 'ignore_errors': True},
        {'name': 'a number', 'nms.overlay.instance': dict(OWNER, password=123456789), 'ignore_errors': True},
        {'name': 'a dictionary', 'nms.overlay.instance': dict(OWNER, name={'first': 'Owner'}), 'ignore_errors': True},
        {'name': 'no email', 'nms.overlay.instance': dict(OWNER, email='owner@'), 'ignore_errors': True},
    ], ansible=ansible)
    assert result['a list']['msg'] == "option email: must be a string, not a list (['owner@example.com'])"
    assert result['a number']['msg'].startswith('option password: must be a string, not a number')
    assert '123456789' not in result['a number']['msg']
    assert result['a dictionary']['msg'].startswith('option name: must be a string, not a dictionary')
    assert result['no email']['msg'] == "option email: 'owner@' is not an email address"
    assert all(result[name]['failed'] and not result[name]['changed'] for name in ('a list', 'a number', 'a dictionary'))
    assert emulator.requests() == [] and emulator.ok('GET', '/instance') == {'setup_required': True}


@pytest.mark.dialects('current')
def test_bootstrap_server_rerun_with_a_relative_token_file_reads_it_from_the_directory_it_runs_in(emulator, run, tmp_path):
    """Issue 44, item 11: ``-e bootstrap_token_file=owner-token.json``, as the page documents it. The first run writes
    the file where ansible-playbook runs; the re-run (here from the next run's directory, naming the same file
    relative to it) reads the token from there, where ``lookup('file')`` alone looks in the playbook's directories.
    $PWD names another directory all along (a process started by another program may carry its parent's)."""
    decoy = tmp_path / 'decoy-pwd'
    decoy.mkdir()
    env = {'NMS_API_TOKEN': None, 'PWD': str(decoy)}
    variables = {'bootstrap_owner_email': OWNER['email'], 'bootstrap_owner_name': OWNER['name'],
                 'bootstrap_owner_password': PASSWORD, 'bootstrap_token_file': 'owner-token.json'}
    first = run([], playbook='nms.overlay.bootstrap_server', env=env, extra_vars=variables)
    assert first.rc == 0, first
    here = os.path.dirname(first.command[first.command.index('-e') + 1][1:])
    token = json.loads(open(os.path.join(here, 'owner-token.json'), encoding='utf-8').read())
    assert token['tokens']['owner@example.com/setup-token']['key'].startswith('nbp_')

    emulator.clear_log()
    again = run([], playbook='nms.overlay.bootstrap_server', env=env, extra_vars=dict(
        variables, bootstrap_token_file='../%s/owner-token.json' % os.path.basename(here)))
    assert again.rc == 0, again
    assert 'changed=0' in again.stdout.split('PLAY RECAP')[-1], again
    assert emulator.writes() == [] and os.listdir(decoy) == []
