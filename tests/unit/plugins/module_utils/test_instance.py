# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 31, item 2: the instance module (GET /api/instance, POST /api/setup) on the one-time setup strategy.

Set up once, then done (changed=false, no write, never a failure: setup_required=false and a 412 both mean done);
check mode plans without the POST; a v0.27 server is refused after its one request; the token is in the result only
when this task created it, in created_secrets_file when asked; no token is needed or sent, while every other module
still requires one.
"""

from __future__ import annotations

import json
import os
import stat

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError, Client, ConfigError
from ansible_collections.nms.overlay.plugins.module_utils._errors import OptionsError, TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resources.group import GroupModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.instance import InstanceModule
from ansible_collections.nms.overlay.plugins.module_utils._tables import ANSWER_TYPES
from ansible_collections.nms.overlay.plugins.module_utils._task import shape_problem
from ansible_collections.nms.overlay.plugins.plugin_utils._in_process import hide_created_secret, run_engine
from tests.support.fakes import FakeClient, engine

TOKEN = 'nbp_' + 'A' * 36
PASSWORD = 'correct-horse-9'
OWNER = dict(email='owner@example.com', name='Owner', password=PASSWORD)
ANSWER = {'email': 'owner@example.com', 'personal_access_token': TOKEN, 'user_id': 'CiQowner'}


def server(required=True, setup=None):
    """A fresh server (or one set up already) whose setup answers ``setup`` (a value, an exception or a function)."""
    return FakeClient({'/instance': {'setup_required': required},
                       ('POST', '/setup'): ANSWER if setup is None else setup})


def test_a_fresh_server_is_set_up_and_the_token_is_returned_once():
    client = server()
    task = engine(InstanceModule, client, pat_expire_in=7, **OWNER)
    result = task.run()
    assert client.calls == [('GET', '/instance', None), ('POST', '/setup', {
        'email': 'owner@example.com', 'name': 'Owner', 'password': PASSWORD, 'create_pat': True, 'pat_expire_in': 7})]
    assert result['changed'] is True
    assert result['instance'] == {'setup_required': False}
    assert result['owner'] == {'email': 'owner@example.com', 'user_id': 'CiQowner'}
    assert result['personal_access_token'] == TOKEN
    assert result['diff'] == {'before': {'setup_required': True}, 'after': {
        'setup_required': False, 'email': 'owner@example.com', 'name': 'Owner', 'create_pat': True, 'pat_expire_in': 7}}
    assert PASSWORD not in json.dumps(result)
    assert InstanceModule.holds_created_secret(result)
    assert hide_created_secret(InstanceModule, dict(result))['_ansible_no_log'] is True


def test_a_server_set_up_already_is_left_alone_whatever_the_options():
    client = server(required=False)
    result = engine(InstanceModule, client, **OWNER).run()
    assert result == {'changed': False, 'instance': {'setup_required': False}}
    assert client.calls == [('GET', '/instance', None)]
    assert not InstanceModule.holds_created_secret(result)


def test_without_the_owner_the_task_only_reports():
    client = server()
    result = engine(InstanceModule, client).run()
    assert result == {'changed': False, 'instance': {'setup_required': True}}
    assert client.writes() == []


def test_check_mode_plans_the_setup_without_sending_it():
    client = server()
    result = engine(InstanceModule, client, check_mode=True, **OWNER).run()
    assert client.writes() == []
    assert result['changed'] is True and result['instance'] == {'setup_required': False}
    assert result['owner'] == {'email': 'owner@example.com', 'user_id': '(new user owner@example.com)'}
    assert 'personal_access_token' not in result and 'password' not in json.dumps(result['diff'])


def test_a_v027_server_is_refused_after_its_one_request():
    client = FakeClient({'/instance': ApiError('GET', '/instance', 404, '404 page not found (there is no API at this URL)')})
    with pytest.raises(TaskError) as caught:
        engine(InstanceModule, client, **OWNER).run()
    assert client.calls == [('GET', '/instance', None)]
    message = str(caught.value)
    assert 'v0.27' in message and 'instance setup' in message and 'GET /api/instance' in message, message


def test_setup_already_completed_means_done_not_a_failure():
    """Another run set the server up between this task's read and its POST: 412, changed=false, a warning."""
    client = server(setup=ApiError('POST', '/setup', 412, 'setup already completed'))
    task = engine(InstanceModule, client, **OWNER)
    result = task.run()
    assert result == {'changed': False, 'instance': {'setup_required': False}}
    assert any('done already' in warning for warning in task.module.warnings), task.module.warnings


def test_a_refused_setup_fails_with_the_servers_message():
    client = server(setup=ApiError('POST', '/setup', 422, 'invalid email format'))
    with pytest.raises(ApiError, match='invalid email format'):
        engine(InstanceModule, client, **OWNER).run()


def test_a_lost_answer_with_the_server_set_up_fails_saying_the_token_is_lost():
    answers = iter([{'setup_required': True}, {'setup_required': False}])
    client = FakeClient({'/instance': lambda body: next(answers),
                         ('POST', '/setup'): ApiError('POST', '/setup', None, 'the connection was aborted')})
    with pytest.raises(TaskError) as caught:
        engine(InstanceModule, client, **OWNER).run()
    assert caught.value.details == {'changed': True, 'status': None, 'method': 'POST', 'path': '/setup'}
    message = str(caught.value)
    assert 'got no answer (the connection was aborted)' in message and 'yet the action was taken' in message, message
    assert 'token, which only that answer carried, was not received' in message and 'sign in to the dashboard' in message
    assert [call[:2] for call in client.calls] == [('GET', '/instance'), ('POST', '/setup'), ('GET', '/instance')]


@pytest.mark.parametrize('cut, shown', [
    ('the answer was cut off after 40 of 120 bytes', 'the answer was cut off after 40 of 120 bytes'),
    ('the answer is not valid JSON: {"email": "owner@example.com", "personal_access_token": "nbp_AAAA',
     'the answer is not valid JSON)'),
])
def test_a_setup_answered_but_cut_off_fails_reporting_the_change_and_the_lost_token(cut, shown):
    """Issue 44, item 10: a success status means the server is set up; the token the answer carried is lost, and the
    task says so, changed, without another request (a second POST would only be answered 412)."""
    client = server(setup=ApiError('POST', '/setup', 200, cut))
    with pytest.raises(TaskError) as caught:
        engine(InstanceModule, client, **OWNER).run()
    message = str(caught.value)
    assert caught.value.details['changed'] is True and caught.value.details['status'] == 200
    assert [call[:2] for call in client.calls] == [('GET', '/instance'), ('POST', '/setup')]
    assert 'was answered, but the answer could not be read (%s' % shown in message, message
    assert 'the server is set up and its owner owner@example.com exists' in message, message
    assert "the owner's personal access token, which only that answer carried, was not received" in message
    assert 'sign in to the dashboard as owner@example.com with the password and create a personal access token' in message
    assert 'nbp_' not in message and PASSWORD not in message


def test_a_setup_cut_off_without_a_token_asked_is_a_change_with_a_warning():
    client = server(setup=ApiError('POST', '/setup', 200, 'the answer was cut off after 40 of 120 bytes'))
    task = engine(InstanceModule, client, create_pat=False, **OWNER)
    result = task.run()
    assert result['changed'] is True and result['owner'] == {'email': 'owner@example.com'}
    assert 'personal_access_token' not in result and len(client.calls) == 2
    assert any('the action was taken all the same' in warning for warning in task.module.warnings), task.module.warnings


def test_a_lost_answer_with_the_server_still_fresh_fails_as_it_came():
    client = server(setup=ApiError('POST', '/setup', None, 'no answer within the timeout of 30 s'))
    with pytest.raises(ApiError, match='no answer within the timeout'):
        engine(InstanceModule, client, **OWNER).run()


def test_a_server_without_setup_tokens_warns_how_to_get_one():
    client = server(setup={'email': 'owner@example.com', 'user_id': 'CiQowner'})
    task = engine(InstanceModule, client, **OWNER)
    result = task.run()
    assert result['changed'] is True and 'personal_access_token' not in result
    assert any('NB_SETUP_PAT_ENABLED=true' in warning for warning in task.module.warnings)


def test_no_token_asked_no_warning():
    client = server(setup={'email': 'owner@example.com', 'user_id': 'CiQowner'})
    task = engine(InstanceModule, client, create_pat=False, **OWNER)
    assert task.run()['changed'] is True
    assert client.calls[1][2]['create_pat'] is False and task.module.warnings == []


@pytest.mark.parametrize('options, problem', [
    (dict(OWNER, password='short'), 'option password: must be 8 to 72 characters long'),
    (dict(OWNER, password='x' * 73), 'option password: must be 8 to 72 characters long'),
    (dict(OWNER, email='owner'), "option email: 'owner' is not an email address"),
    (dict(OWNER, email='owner@'), "option email: 'owner@' is not an email address"),
    (dict(OWNER, name='  '), 'option name: must not be empty'),
    (dict(OWNER, pat_expire_in=366), 'option pat_expire_in: must be between 1 and 365 days'),
])
def test_options_are_checked_before_any_request(options, problem):
    client = server()
    with pytest.raises(OptionsError) as caught:
        engine(InstanceModule, client, **options).run()
    assert problem in str(caught.value) and client.calls == []
    assert options['password'] not in str(caught.value)


@pytest.mark.parametrize('option, value, given', [
    ('email', ['owner@example.com'], 'a list'), ('name', {'first': 'Owner'}, 'a dictionary'),
    ('password', 12345678, 'a number'), ('name', True, 'true or false'), ('api_url', ['http://x'], 'a list'),
])
def test_a_text_option_that_is_no_string_is_refused_by_its_type(option, value, given):
    """Issue 44, item 9: ansible-core would send ``"['owner@example.com']"``; the shape check refuses it first."""
    args = dict(OWNER, **{option: value})
    spec = InstanceModule.validation()['argument_spec']
    problem = shape_problem(spec, args, strict=InstanceModule.strict_texts)
    assert problem.startswith('option %s: must be a string, not %s' % (option, given)), problem
    if given in ('a number', 'true or false'):
        assert problem.endswith('(quote a value YAML reads as another type)'), problem
        # without strict_texts only a no_log option (the password) refuses it; others take it as text, as ansible-core does
        assert (shape_problem(spec, args) is None) is (not spec[option].get('no_log')), option
    assert InstanceModule.strict_texts and not GroupModule.strict_texts
    assert shape_problem(spec, dict(OWNER, pat_expire_in=7), strict=True) is None


def test_the_token_goes_to_the_secrets_file_and_out_of_the_result(tmp_path):
    path = tmp_path / 'secrets.json'
    task = engine(InstanceModule, server(), created_secrets_file=str(path), return_created_secrets=False, **OWNER)
    result = task.run()
    assert 'personal_access_token' not in result and not InstanceModule.holds_created_secret(result)
    assert json.loads(path.read_text()) == {'tokens': {'owner@example.com/setup-token': {'id': 'CiQowner', 'key': TOKEN}}}
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_a_secrets_file_that_cannot_be_written_is_refused_before_any_request(tmp_path):
    client = server()
    with pytest.raises(TaskError, match='created_secrets_file'):
        engine(InstanceModule, client, created_secrets_file=str(tmp_path / 'missing' / 'file.json'), **OWNER).run()
    assert client.calls == []


def test_options_go_together_and_need_no_token():
    partial = run_engine(InstanceModule, {'api_url': 'http://127.0.0.1:9', 'email': 'owner@example.com'}, 'nms.overlay.instance')
    assert partial['failed'] and 'parameters are required together: email, name, password' in partial['msg'], partial
    assert InstanceModule.authenticated is False and GroupModule.authenticated is True
    assert InstanceModule.api_operations == ('GET /api/instance', 'POST /api/setup')


def test_an_unauthenticated_client_sends_no_token_while_every_other_one_needs_one():
    anonymous = Client('http://127.0.0.1:9', 'nbp_given_but_not_sent', authenticated=False)
    assert 'Authorization' not in anonymous.session.headers
    assert Client('http://127.0.0.1:9', None, authenticated=False).scrub('text') == 'text'
    with pytest.raises(ConfigError, match='option api_token: it is not set or empty'):
        Client('http://127.0.0.1:9', None)
    assert Client('http://127.0.0.1:9', TOKEN).session.headers['Authorization'] == 'Token %s' % TOKEN
    refused = run_engine(GroupModule, {'api_url': 'http://127.0.0.1:9', 'name': 'g'}, 'nms.overlay.group')
    assert refused['failed'] and 'option api_token: it is not set or empty' in refused['msg'], refused


def test_the_answer_types_let_the_setup_answer_carry_its_token_as_text():
    """The setup answer's personal_access_token is the token (a string); a token create's is an object."""
    task = engine(InstanceModule, server())
    assert task.answers['personal_access_token'] == 'a string'
    assert ANSWER_TYPES['personal_access_token'] == 'an object'
    assert dict(ANSWER_TYPES, **task.answers)['personal_access_token'] == 'a string'
