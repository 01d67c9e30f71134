# -*- coding: utf-8 -*-
"""Secrets stay out of the output: every identity task at -vvvv with --diff, in both dialects.

(The ``run`` fixture scans every play of the integration tests the same way, see secrets_scan.py;
this test also shows that the play can use each created value: registered, then used.)

The API token must never show. A created token or setup key value shows nowhere either, not in the
result of the task that created it (the action plugin hides that result from Ansible's output), while
``register`` still gets it; values that existed before (the server sends setup key values on every
read) never show.
"""

from __future__ import annotations

import json

from tests.integration.secrets_scan import sections


CREATED = {  # the registered results' created values, by the task that created them
    'token create': 'first.plain_token', 'token rotate': 'second.plain_token', 'token own': 'own.plain_token',
    'key create': 'key.setup_key.key', 'key replace': 'replaced.setup_key.key',
}


def test_no_secret_in_verbose_output(emulator, run, tmp_path):
    # Secrets that exist before the play: none of them may show anywhere.
    seeded_user = emulator.add_user('dev@example.com', name='Dev', role='user', token=True)
    old_key = emulator.ok('POST', '/api/setup-keys', {
        'name': 'existing', 'type': 'reusable', 'expires_in': 86400, 'revoked': False, 'auto_groups': [],
        'usage_limit': 0})
    used_key = emulator.ok('POST', '/api/setup-keys', {
        'name': 'host-1', 'type': 'one-off', 'expires_in': 86400, 'revoked': False, 'auto_groups': [],
        'usage_limit': 0})
    emulator.enroll(used_key['key'], 'host-1')
    emulator.ok('POST', '/api/groups', {'name': 'servers', 'peers': []})
    account_id = emulator.ok('GET', '/api/accounts')[0]['id']
    old_secrets = [emulator.token, seeded_user['token'], old_key['key'], used_key['key']]

    tasks = [
        {'name': 'user create', 'nms.overlay.user': {'name': 'ci-bot', 'is_service_user': True, 'role': 'admin',
                                                     'auto_groups': ['servers']}},
        {'name': 'user invite', 'nms.overlay.user': {'email': 'alice@example.com', 'name': 'Alice', 'role': 'user'}},
        {'name': 'user resend', 'nms.overlay.user': {'email': 'alice@example.com', 'resend_invitation': True}},
        {'name': 'user update', 'nms.overlay.user': {'name': 'ci-bot', 'is_blocked': False, 'auto_groups': []}},
        {'name': 'user info', 'nms.overlay.user_info': {}},
        {'name': 'token create', 'nms.overlay.token': {'user': 'ci-bot', 'name': 'pipeline', 'expires_in': 30},
         'register': 'first'},
        {'name': 'token rerun', 'nms.overlay.token': {'user': 'ci-bot', 'name': 'pipeline', 'expires_in': 60}},
        {'name': 'token info', 'nms.overlay.token_info': {'user': 'ci-bot'}},
        {'name': 'token rotate', 'nms.overlay.token': {'user': 'ci-bot', 'name': 'pipeline', 'rotate': True},
         'register': 'second'},
        {'name': 'use the new token', 'nms.overlay.user_info': {'api_token': '{{ second.plain_token }}',
                                                                'service_user': True}},
        {'name': 'use the old token', 'nms.overlay.user_info': {'api_token': '{{ first.plain_token }}'},
         'ignore_errors': True},
        {'name': 'token own', 'nms.overlay.token': {'user': 'owner@example.com', 'name': 'mine', 'expires_in': 1},
         'register': 'own'},
        {'name': 'token own delete', 'nms.overlay.token': {'user': 'owner@example.com', 'name': 'mine',
                                                           'state': 'absent'}},
        {'name': 'token delete', 'nms.overlay.token': {'user': 'ci-bot', 'name': 'pipeline', 'state': 'absent'}},
        {'name': 'key create', 'register': 'key', 'nms.overlay.setup_key': {
            'name': 'servers', 'type': 'reusable', 'expires_in': '7d', 'auto_groups': ['servers']}},
        {'name': 'key rerun', 'nms.overlay.setup_key': {'name': 'servers', 'type': 'one-off', 'expires_in': '1d'}},
        {'name': 'key existing', 'nms.overlay.setup_key': {'name': 'existing', 'auto_groups': ['servers']}},
        {'name': 'key revoke', 'nms.overlay.setup_key': {'name': 'servers', 'revoked': True}},
        {'name': 'key absent', 'nms.overlay.setup_key': {'name': 'existing', 'state': 'absent'}},
        {'name': 'key replace', 'register': 'replaced', 'nms.overlay.setup_key': {
            'name': 'host-1', 'type': 'one-off', 'replace_invalid': True}},
        {'name': 'key replace rerun', 'nms.overlay.setup_key': {
            'name': 'host-1', 'type': 'one-off', 'replace_invalid': True}},
        {'name': 'key info', 'nms.overlay.setup_key_info': {}},
        {'name': 'key failure', 'nms.overlay.setup_key': {'name': 'servers', 'expires_in': 'soon'},
         'ignore_errors': True},
        {'name': 'account settings', 'nms.overlay.account_settings': {'peer_login_expiration': '2d',
                                                                      'jwt_allow_groups': ['eng']}},
        {'name': 'account info', 'nms.overlay.account_info': {}},
        {'name': 'account delete preview', 'nms.overlay.account_settings': {
            'state': 'absent', 'confirm_account_id': account_id}, 'check_mode': True},
        {'name': 'user delete', 'nms.overlay.user': {'name': 'ci-bot', 'is_service_user': True, 'state': 'absent'}},
        # the play uses what register got: here, it writes the values to a file the test reads
        {'name': 'keep the created values', 'no_log': True, 'ansible.builtin.copy': {
            'content': '{{ {%s, "replaced_id": replaced.replaced_id} | to_json }}'
                       % ', '.join("'%s': %s" % item for item in CREATED.items()),
            'dest': str(tmp_path / 'created.json'), 'mode': '0600'}},
    ]
    # ansible-core 2.21 shows a module's arguments only with INJECT_INVOCATION (earlier ones ignore the variable)
    result = run(tasks, diff=True, verbosity=4, env={'ANSIBLE_INJECT_INVOCATION': 'true'})
    assert result.rc == 0, result
    assert result['use the old token']['failed'] is True  # rotated away
    assert result['use the new token']['users'][0]['name'] == 'ci-bot'
    assert result['key replace rerun']['changed'] is False

    with open(tmp_path / 'created.json', encoding='utf-8') as stream:
        created = json.load(stream)
    assert created.pop('replaced_id') == str(used_key['id'])
    assert sorted(created) == sorted(CREATED)
    for task, value in created.items():
        assert isinstance(value, str) and len(value) >= 36 and '*' not in value, task  # whole values
        assert result[task]['changed'] is True and 'censored' in result[task], task  # hidden, as with no_log
    out = sections(result.stdout)
    assert len(out) > len(tasks)  # the split found every task
    assert '-vvvv' in result.command and '"module_args"' in result.stdout  # really verbose: arguments shown

    for secret in old_secrets:
        assert secret not in result.stdout
    for task, secret in created.items():
        shown = [name for name, text in out.items() if secret in text]
        assert shown == [], (task, shown)
        assert secret not in result.stdout
    # What the callbacks got (the recorder's results) holds no value either.
    for res in result.results:
        text = repr(res)
        for secret in list(created.values()) + old_secrets:
            assert secret not in text, res['task']
