# -*- coding: utf-8 -*-
"""The lookup plugin nms.overlay.nms through ansible-playbook (at -vvvv, every run's output and the emulator's request
log scanned for the token: see conftest's run) against the emulator, both dialects: names to ids with one list read per
kind, odd names, errors that name the kind and the name, a server error quoting the token, TLS with a private CA, a
kind of today's servers on a v0.27 one, and the same on the oldest ansible-core."""

from __future__ import annotations

import json
import os
import ssl

import pytest

from tests.emulator import tls
from tests.support.emulator import make_group, make_peers, running_emulator

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OLDEST_PYTHON = os.path.join(REPO_ROOT, '.venv-oldest', 'bin', 'python')

# (a name that is a template, written in the play's vars, would be templated by the play itself: tried on its own)
ODD_NAMES = ['with space', 'it\'s "quoted"', 'Zürich ☃ 東京', 'site/berlin', 'a,b', ' trailing ']


def show(expression, name=None):
    """A task that shows the value of a template (its result's msg), failing or not."""
    return {'name': name or expression, 'ansible.builtin.debug': {'msg': '{{ %s }}' % expression}, 'ignore_errors': True}


def reads_of(emulator, path):
    return [entry for entry in emulator.requests() if entry['method'] == 'GET' and entry['path'] == path]


def number(result):
    """A task's msg that is a number (ansible-core 2.16 renders a template as text)."""
    return int(result['msg'])


def text(result):
    return ' '.join(str(result.get('msg')).split())


def test_names_to_ids_read_each_kind_once(run, emulator):
    peers = make_peers(emulator, 'web-1', 'db-1')
    ops = make_group(emulator, 'ops', [peers['web-1']])
    dev = make_group(emulator, 'dev')
    before, writes = len(reads_of(emulator, '/api/groups')), len(emulator.writes())
    result = run([
        show("lookup('nms.overlay.nms', 'groups/ops', result='id')", 'one id'),
        show("query('nms.overlay.nms', 'groups/ops', 'groups/dev', 'groups', name=None, result='id')", 'ids'),
        show("query('nms.overlay.nms', 'groups', name=['dev', 'ops']) | map(attribute='name') | list", 'by option'),
        show("lookup('nms.overlay.nms', 'groups/ops', 'groups/dev', result='id', wantlist=True)", 'wantlist'),
        show("query('nms.overlay.nms', 'groups/' + ops_id) | map(attribute='name') | list", 'by id'),
        show("query('nms.overlay.nms', 'peers/web-1')[0].groups | map(attribute='name') | list", 'a peer'),
    ], ansible=True, play={'vars': {'ops_id': ops['id']}})
    assert not result.failed, result
    assert result['one id']['msg'] == ops['id']
    ids = result['ids']['msg']
    assert ids[:2] == [ops['id'], dev['id']] and set(ids[2:]) >= {ops['id'], dev['id']} and len(ids) == 2 + len(set(ids[2:]))
    assert result['by option']['msg'] == ['dev', 'ops']
    assert result['wantlist']['msg'] == [ops['id'], dev['id']]
    assert result['by id']['msg'] == ['ops']
    assert 'ops' in result['a peer']['msg']
    # five templates read the groups: one list read each, however many terms name the kind
    assert len(reads_of(emulator, '/api/groups')) - before == 5
    assert len(reads_of(emulator, '/api/peers')) == 1
    assert len(emulator.writes()) == writes  # reads only


def test_odd_names_are_found_as_they_are_and_never_templated(run, emulator):
    made = {name: make_group(emulator, name)['id'] for name in ODD_NAMES + ['{{ 7 * 6 }}']}
    tasks = [show("lookup('nms.overlay.nms', 'groups/' + item, result='id')", 'by term')
             | {'loop': ODD_NAMES}]
    tasks.append(show("query('nms.overlay.nms', 'groups', name=odd, result='id')", 'by option'))
    # a name that is a template arrives as it is, and a name taken from an answer finds its object
    template_names = "query('nms.overlay.nms', 'groups') | map(attribute='name') | select('search', '7 . 6') | list"
    tasks.append(show(template_names, 'template name'))
    tasks.append(show("query('nms.overlay.nms', 'groups', name=%s, result='id')" % template_names, 'template id'))
    result = run(tasks, ansible=True, play={'vars': {'odd': ODD_NAMES}})
    assert not result.failed, result
    assert [entry['msg'] for entry in result['by term']['results']] == [made[name] for name in ODD_NAMES]
    assert result['by option']['msg'] == [made[name] for name in ODD_NAMES]
    assert result['template name']['msg'] == ['{{ 7 * 6 }}']
    assert result['template id']['msg'] == [made['{{ 7 * 6 }}']]


def test_a_missing_or_ambiguous_name_fails_naming_it_or_is_skipped(run, emulator):
    make_group(emulator, 'ops')
    peers = make_peers(emulator, 'twin', 'twin-2')
    emulator.ok('PUT', '/api/peers/%s' % peers['twin-2'], {'name': 'twin', 'ssh_enabled': False,
                                                           'login_expiration_enabled': False})
    result = run([
        show("lookup('nms.overlay.nms', 'groups/opz')", 'missing'),
        show("query('nms.overlay.nms', 'groups', name='opz', on_missing='skip')", 'skipped'),
        show("query('nms.overlay.nms', 'groups/opz', 'groups/ops', on_missing='warn', result='id') | length", 'warned'),
        show("query('nms.overlay.nms', 'peers/twin')", 'ambiguous'),
        show("query('nms.overlay.nms', 'group/ops')", 'no such kind'),
        show("query('nms.overlay.nms', 'groups/ops', name='x')", 'both'),
    ], ansible=True)
    assert "term 'groups/opz': no group with the id or name 'opz'; did you mean 'ops'?" in text(result['missing'])
    assert result['skipped']['msg'] == [] and not result['skipped'].get('failed')
    assert number(result['warned']) == 1
    assert "nms.overlay.nms: term 'groups/opz': no group with the id or name 'opz'" in result.text
    assert ("term 'peers/twin': the name 'twin' matches 2 peers (ids: %s); give the id instead"
            % ', '.join(sorted(peers.values()))) in text(result['ambiguous'])
    assert "'group' is no kind the lookup reads (did you mean 'groups'?); the kinds are" in text(result['no such kind'])
    assert "option name cannot apply to it" in text(result['both'])
    assert [r['task'] for r in result.failed] == ['missing', 'ambiguous', 'no such kind', 'both']
    assert 'Traceback' not in result.stdout


def test_a_server_error_quoting_the_token_shows_method_url_status_and_never_the_token(run, emulator):
    answer = json.dumps({'message': 'internal error handling GET /api/groups with Authorization: Token %s'
                                    % emulator.token, 'code': 500})
    emulator.set_faults({'queue': [{'path': '/api/groups', 'status': 500, 'body': answer}]})
    result = run([show("query('nms.overlay.nms', 'groups/ops')", 'failing')], ansible=True)
    message = text(result['failing'])
    assert 'GET %s/api/groups failed with HTTP 500: internal error' % emulator.url in message, message
    assert emulator.token not in result.stdout and '********' in message
    # a 500 is not retried (not one of 429, 502, 503, 504): one read
    assert len(reads_of(emulator, '/api/groups')) == 1


@pytest.mark.parametrize('body, words', [
    ('{"groups": []}', 'the answer is an object where a list of objects was expected'),
    ('[1, 2]', 'the answer is a list, but not of objects'),
    ('[{"id": "g1", "name": ', 'GET'),  # cut off
])
def test_a_bad_answer_is_an_api_error_naming_the_request(run, emulator, body, words):
    emulator.set_faults({'queue': [{'path': '/api/groups', 'status': 200, 'body': body}]})
    result = run([show("query('nms.overlay.nms', 'groups/ops')", 'bad answer')], ansible=True)
    message = text(result['bad answer'])
    assert result['bad answer'].get('failed') and 'GET %s/api/groups' % emulator.url in message and words in message, message
    assert 'Traceback' not in result.stdout


def test_a_retried_read_warns_and_succeeds(run, emulator):
    emulator.set_faults({'queue': [{'path': '/api/groups', 'status': 503}]})
    result = run([show("query('nms.overlay.nms', 'groups', result='id') | length", 'after a retry')], ansible=True)
    assert not result.failed, result
    assert number(result['after a retry']) >= 1
    assert 'nms.overlay.nms: ' in result.text and '503' in result.text
    assert len(reads_of(emulator, '/api/groups')) == 2


def test_connection_options_fail_naming_the_option(run, emulator):
    result = run([
        show("query('nms.overlay.nms', 'groups', api_url='ftp://x')", 'bad url'),
        show("query('nms.overlay.nms', 'groups', timeout=0)", 'bad timeout'),
    ], ansible=True)
    assert "option api_url: must be a full http(s) URL such as https://nms.example.com (a scheme and a host), not 'ftp://x'" \
        in text(result['bad url'])
    assert 'option timeout: 0.0 is not a number of seconds' in text(result['bad timeout'])
    without = run([
        show("query('nms.overlay.nms', 'groups')", 'no url'),
        show("query('nms.overlay.nms', 'groups', api_url=url)", 'no token'),
        show("query('nms.overlay.nms', 'groups/All', result='id', api_token=token, api_url=url) | length", 'by option'),
    ], ansible=True, env={'NMS_API_TOKEN': None, 'NMS_API_URL': None},
        play={'vars': {'token': emulator.token, 'url': emulator.url}})
    assert 'option api_url: it is not set or empty (set api_url or the environment variable NMS_API_URL)' \
        in text(without['no url'])
    assert 'option api_token: it is not set or empty (set api_token or the environment variable NMS_API_TOKEN)' \
        in text(without['no token'])
    assert number(without['by option']) == 1 and [r['task'] for r in without.failed] == ['no url', 'no token']
    assert [entry['path'] for entry in emulator.requests()] == ['/api/groups']


@pytest.mark.dialects('netbird')
def test_a_kind_of_todays_servers_on_a_v027_server_fails_naming_the_release(run, emulator):
    result = run([show("query('nms.overlay.nms', 'identity_providers')", 'newer kind')], ansible=True)
    message = text(result['newer kind'])
    assert 'cannot read the identity providers:' in message and 'upgrade the server' in message, message
    assert [entry['path'] for entry in emulator.requests()] == ['/api/instance/version']


@pytest.mark.dialects('current')
def test_a_kind_of_todays_servers_is_read_after_the_version(run, emulator):
    result = run([show("query('nms.overlay.nms', 'identity_providers', 'dns_zones') | length", 'newer kinds')],
                 ansible=True)
    assert not result.failed, result
    assert [entry['path'] for entry in emulator.requests()] == ['/api/instance/version', '/api/identity-providers',
                                                                '/api/dns/zones']


@pytest.mark.skipif(not os.path.exists(OLDEST_PYTHON), reason='the oldest venv is built by make oldest')
def test_the_oldest_ansible_core_reads_the_same(run, emulator):
    ops = make_group(emulator, 'site/berlin ☃')
    result = run([
        show("lookup('nms.overlay.nms', 'groups/site/berlin ☃', result='id')", 'one id'),
        show("query('nms.overlay.nms', 'groups/opz')", 'missing'),
    ], ansible=True, python=OLDEST_PYTHON)
    assert result['one id']['msg'] == ops['id']
    assert "term 'groups/opz': no group with the id or name 'opz'" in text(result['missing'])
    assert [r['task'] for r in result.failed] == ['missing']


# -- TLS -------------------------------------------------------------------------------------------------------------

@pytest.fixture(scope='module')
def pki(tmp_path_factory):
    return tls.make_test_pki(str(tmp_path_factory.mktemp('pki') / 'good'))


@pytest.fixture(scope='module')
def https_emulator(pki, tmp_path_factory):
    context = ssl.create_default_context(cafile=pki['ca_cert'])
    with running_emulator('netbird', str(tmp_path_factory.mktemp('https')), ssl_context=context,
                          extra_args=['--tls-cert', pki['server_cert'], '--tls-key', pki['server_key']]) as emu:
        yield emu


@pytest.fixture
def https(https_emulator):
    https_emulator.reset()
    return https_emulator


def test_tls_with_a_private_ca_from_the_option_or_the_environment(run, https, pki):
    env = {'NMS_API_URL': https.url, 'NMS_API_TOKEN': https.token}
    result = run([
        show("query('nms.overlay.nms', 'groups/All', result='id', ca_path=ca) | length", 'ca_path'),
        show("query('nms.overlay.nms', 'groups/All', result='id') | length", 'no ca'),
        show("query('nms.overlay.nms', 'groups/All', result='id', validate_certs=false) | length", 'unverified'),
    ], ansible=True, env=env, play={'vars': {'ca': pki['ca_cert']}})
    assert number(result['ca_path']) == 1 and not result['ca_path'].get('failed')
    assert result['no ca'].get('failed') and 'certificate' in text(result['no ca'])
    assert 'GET %s/api/groups failed' % https.url in text(result['no ca']), text(result['no ca'])
    assert number(result['unverified']) == 1
    assert 'nms.overlay.nms: validate_certs is false: the server certificate is not verified' in result.text
    from_env = run([show("query('nms.overlay.nms', 'groups/All', result='id') | length", 'ca from env')],
                   ansible=True, env=dict(env, NMS_API_CA_PATH=pki['ca_cert']))
    assert number(from_env['ca from env']) == 1 and not from_env.failed
