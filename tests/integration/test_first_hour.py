# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The example playbooks in the first hour: what they say when the connection is not set, and what offboard_user
predicts about the server's refusals before any write (issue "Safe by default", First hour)."""

from __future__ import annotations

import pytest

from tests.support.emulator import writes_of as writes

PROBE = 'Find out whether the server has Networks (servers after v0.27 have them)'
CONNECTION = "Check that the API's URL and token are set"


@pytest.mark.parametrize('unset, words', [
    ({'NMS_API_URL': None, 'NMS_API_TOKEN': None},
     ['NMS_API_URL is not set', 'export NMS_API_URL=', '-e network_api_url=', 'Nothing was changed']),
    ({'NMS_API_URL': 'http://127.0.0.1:9', 'NMS_API_TOKEN': None},
     ['NMS_API_TOKEN is not set', 'export NMS_API_TOKEN=', '-e network_api_token=']),
])
def test_build_network_names_the_unset_connection_and_how_to_set_it(run, unset, words):
    result = run([], playbook='nms.overlay.build_network', env=unset)
    assert result.rc != 0, result
    failed = result[CONNECTION]
    assert failed['failed'] is True
    for word in words:
        assert word in failed['msg'], failed['msg']
    assert "A 'failed_when' expression" not in result.stdout
    assert PROBE not in result  # no request was tried


def test_build_network_shows_why_the_server_could_not_be_read(run):
    # nothing listens on port 9: the read's own message, not "a failed_when expression evaluated to True"
    result = run([], playbook='nms.overlay.build_network', env={'NMS_API_URL': 'http://127.0.0.1:9',
                                                                'NMS_API_TOKEN': 'nbp_x'},
                 extra_vars={'network_retries': 0})
    assert result.rc != 0, result
    failed = result['Stop when the server could not be read (the reason is the read\'s own message)']
    assert 'connection refused' in failed['msg'] and 'http://127.0.0.1:9/api/' in failed['msg'], failed['msg']
    assert "A 'failed_when' expression" not in result.stdout
    assert 'Reconcile the network with its description' not in result


def test_offboard_refuses_the_token_s_own_user_before_any_write(emulator, run):
    emulator.clear_log()
    for check in (True, False):
        result = run([], playbook='nms.overlay.offboard_user', check=check,
                     extra_vars={'nms_offboard_user': 'owner@example.com'})
        assert result.rc != 0, result
        failed = result['Check that the server lets this token block the user']
        assert failed['failed'] is True
        assert 'is the one the API token (NMS_API_TOKEN) belongs to' in failed['msg'], failed['msg']
        assert "admins can't block or unblock themselves" in failed['msg'], failed['msg']
        assert 'nothing was changed' in failed['msg']
        assert 'Block the user' not in result
    assert writes(emulator) == []
    owner = [u for u in emulator.api('GET', '/api/users')[1] if u['email'] == 'owner@example.com']
    assert owner and owner[0]['is_blocked'] is False


def test_offboard_refuses_the_owner_for_an_admin_before_any_write(emulator, run):
    admin = emulator.add_user('admin@example.com', role='admin', token=True)
    emulator.clear_log()
    env = {'NMS_API_TOKEN': admin['token']}
    for check in (True, False):
        result = run([], playbook='nms.overlay.offboard_user', check=check, env=env,
                     extra_vars={'nms_offboard_user': 'owner@example.com'})
        assert result.rc != 0, result
        failed = result['Check that the server lets this token block the user']
        assert 'is the account owner' in failed['msg'] and 'unable to block owner user' in failed['msg'], failed['msg']
        assert 'Block the user' not in result
    assert writes(emulator) == []

    # what the check predicts is what the server does: the same block, sent anyway, is refused with 403
    owner = [u for u in emulator.api('GET', '/api/users')[1] if u['email'] == 'owner@example.com'][0]
    status, answer = emulator.api('PUT', '/api/users/%s' % owner['id'], {
        'role': 'owner', 'auto_groups': owner['auto_groups'], 'is_blocked': True}, token=admin['token'])
    assert status == 403 and 'unable to block owner user' in answer['message'], answer

    # an admin's token still offboards another admin, in check mode without a write
    emulator.add_user('bob@example.com', role='admin')
    emulator.clear_log()
    preview = run([], playbook='nms.overlay.offboard_user', check=True, env=env,
                  extra_vars={'nms_offboard_user': 'bob@example.com'})
    assert preview.rc == 0, preview
    assert preview['Block the user']['changed'] is True
    assert writes(emulator) == []
