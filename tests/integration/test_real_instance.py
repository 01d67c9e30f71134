# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 31, item 2, on the real servers (tests/support/realserver.py): a fresh v0.77.1 (``--fresh``: embedded identity
provider, no account, NB_SETUP_PAT_ENABLED=true) is set up once by nms.overlay.instance (check mode and re-runs send
no write); bootstrap_server builds the example network on another fresh v0.77.1, and a re-run reports changed=0 with
no write (the issue's done-when); a real v0.27.6 is refused after its one request, GET /api/instance.
"""

from __future__ import annotations

import json

import pytest

from tests.integration.test_real_servers import started

pytestmark = pytest.mark.real

PASSWORD = 'correct-horse-9'
OWNER = {'email': 'owner@example.com', 'name': 'Owner', 'password': PASSWORD}


@pytest.fixture
def fresh_server():
    """A new v0.77.1 with no account yet (each test sets up its own)."""
    yield from started('v0.77.1', '--fresh')


def connection(server):
    return {'NMS_API_URL': server.url, 'NMS_API_TOKEN': None}


def requests_of(server):
    return ['%s %s' % (entry['method'], entry['path']) for entry in server.requests()]


def test_a_fresh_server_is_set_up_once(fresh_server, run):
    env = connection(fresh_server)
    task = {'nms.overlay.instance': dict(OWNER, pat_expire_in=7), 'register': 'setup'}
    preview = run([dict(task, name='preview')], check=True, diff=True, env=env)
    assert preview['preview']['changed'] is True and fresh_server.writes() == []

    fresh_server.clear_log()
    first = run([dict(task, name='setup')], env=env)
    result = first['setup']
    assert result['changed'] is True and result['owner']['email'] == OWNER['email'], result
    assert requests_of(fresh_server) == ['GET /api/instance', 'POST /api/setup']
    token = result['personal_access_token']
    users = fresh_server.ok('GET', '/users', token=token)
    assert [(user['email'], user['role']) for user in users] == [(OWNER['email'], 'owner')]

    fresh_server.clear_log()
    again = run([dict(task, name='again')], env=env)
    assert again['again']['changed'] is False and again['again']['instance'] == {'setup_required': False}
    checked = run([dict(task, name='checked')], check=True, env=env)
    assert checked['checked']['changed'] is False
    assert requests_of(fresh_server) == ['GET /api/instance', 'GET /api/instance']


def test_bootstrap_server_builds_the_example_network_and_again_changes_nothing(fresh_server, run, tmp_path):
    kept = tmp_path / 'owner-token.json'
    variables = {'bootstrap_owner_email': OWNER['email'], 'bootstrap_owner_name': OWNER['name'],
                 'bootstrap_owner_password': PASSWORD, 'bootstrap_token_file': str(kept)}
    env = connection(fresh_server)
    first = run([], playbook='nms.overlay.bootstrap_server', env=env, extra_vars=variables)
    assert first.rc == 0, first
    token = json.loads(kept.read_text())['tokens']['owner@example.com/setup-token']['key']
    assert token not in first.stdout and PASSWORD not in first.stdout
    assert 'servers' in [group['name'] for group in fresh_server.ok('GET', '/groups', token=token)]
    assert [network['name'] for network in fresh_server.ok('GET', '/networks', token=token)] == ['office']

    fresh_server.clear_log()
    again = run([], playbook='nms.overlay.bootstrap_server', env=env, extra_vars=variables)
    assert again.rc == 0, again
    assert 'changed=0' in again.stdout.split('PLAY RECAP')[-1], again
    assert fresh_server.writes() == [], fresh_server.writes()


def test_an_email_that_is_no_string_is_refused_before_any_request(fresh_server, run):
    """Issue 44, item 9: v0.77.1 takes the text "['owner@example.com']" as the owner's email (it holds an @); the task
    refuses the list by its type, before any request, and the server stays fresh for the right setup."""
    env = connection(fresh_server)
    fresh_server.clear_log()
    refused = run([{'name': 'setup', 'nms.overlay.instance': dict(OWNER, email=[OWNER['email']]), 'ignore_errors': True}],
                  env=env)['setup']
    assert refused['failed'] and not refused['changed'], refused
    assert refused['msg'] == "option email: must be a string, not a list (['owner@example.com'])"
    assert requests_of(fresh_server) == []
    done = run([{'name': 'setup', 'nms.overlay.instance': OWNER, 'register': 'setup'}], env=env)['setup']
    assert done['changed'] is True and done['owner']['email'] == OWNER['email'], done
    users = fresh_server.ok('GET', '/users', token=done['personal_access_token'])
    assert [user['email'] for user in users] == [OWNER['email']]


@pytest.fixture
def old_server():
    yield from started('v0.27.6')


def test_a_v027_server_is_refused_after_its_one_request(old_server, run):
    result = run([{'name': 'setup', 'nms.overlay.instance': OWNER, 'ignore_errors': True}],
                 env={'NMS_API_URL': old_server.url, 'NMS_API_TOKEN': old_server.token})
    message = result['setup']['msg']
    assert result['setup']['failed'] and 'v0.27' in message and 'instance setup' in message, message
    assert requests_of(old_server) == ['GET /api/instance']
