# -*- coding: utf-8 -*-
"""Issue 44, item 2: a server's error answer that quotes the request body (a 500 page, a proxy's 503) never shows a
write-only value the task sent, in any form the answer may quote it (as sent, JSON-escaped once or twice, Go's
\\u003c for < > &), in a retry line (a warning, and progress at -v in the controller), a warning or the failure
message, whether the module runs in the controller or as a module process.

The emulator's ``echo`` fault (tests/emulator/faults.py) answers with the request body quoted: in the JSON answer's
message, in a JSON answer without one (shown as text, the body escaped twice) and in a plain-text page. Every run goes
through ansible-playbook at -v and -vvvv, and its whole output is searched for each run of letters and digits of the
secret (any form of the secret holds them), besides the secrets scan's own forms."""

from __future__ import annotations

import json
import re

import pytest

from tests.reliability.secrets import find_secrets

pytestmark = pytest.mark.dialects('current')  # identity providers and Agent Network providers: v0.77 servers

ISSUER = 'http://127.0.0.1:8080/oauth2'  # the embedded identity provider's issuer, which the server reaches
# a quote, a backslash, non-ASCII, and < > & (which Go's JSON writes as \u003c...) between runs of letters and digits
CLIENT_SECRET = 'idpQ7zXwe"K9vPqT\\M3tRyé<B8nLkU>&J2hWcZ'
ROTATED_SECRET = 'idpR4sDfg"H6jKlM\\N1bVcü<X5zAsQ>&W9eRtY'
API_KEY = 'skE3rTyu"I8oPaS\\D2fGhñ<J7kLzX>&C4vBnM'
ROTATED_KEY = 'skQ1wErt"Y5uIoP\\A9sDfä<G3hJkL>&Z6xCvB'
PROVIDER = {'name': 'Echoing SSO', 'type': 'oidc', 'issuer': ISSUER, 'client_id': 'cid'}
AGENT_PROVIDER = {'name': 'Echoing AI', 'provider_id': 'openai_api', 'upstream_url': 'https://api.openai.com',
                  'models': [{'id': 'gpt-5.4-mini', 'input_per_1k': 0.00075, 'output_per_1k': 0.0045}]}
# one retry for each way of quoting, then a failure that quotes the body too
ECHOES = [{'status': 503, 'echo': 'object'}, {'status': 503, 'echo': 'text'}, {'status': 500, 'echo': 'message'}]
# an Agent Network provider's body is longer than the 200 characters of a text shown: its key is quoted in messages
KEY_ECHOES = [{'status': 503, 'echo': 'message'}, {'status': 503, 'echo': 'object'}, {'status': 500, 'echo': 'message'}]
WAYS = {'controller': True, 'module process': False}


def chunks(secret):
    """The runs of letters and digits of a secret: every form of it (escaped, cut, masked badly) holds some."""
    return re.findall(r'[A-Za-z0-9]{4,}', secret)


def assert_hidden(text, *secrets):
    """No secret, nor any run of its letters and digits, in ``text``."""
    leaks = [chunk for secret in secrets for chunk in chunks(secret) if chunk in text]
    assert not leaks, 'parts of a secret show: %s' % leaks
    assert not find_secrets(text, secrets)


def echoed(emulator, method, secret, echoes=None):
    """The requests the echo faults answered, each of which carried ``secret`` (what the answers quoted)."""
    echoes = ECHOES if echoes is None else echoes
    hits = [entry for entry in emulator.requests() if entry['fault'] == 'echo']
    assert len(hits) == len(echoes) and all(entry['method'] == method for entry in hits), hits
    sent = json.dumps(secret, ensure_ascii=False)[1:-1]
    assert all(sent in json.dumps(entry['body'], ensure_ascii=False) for entry in hits), hits
    return hits


def play(run, task, way, verbosity):
    return run([dict(task, ignore_errors=True)], ansible=True, verbosity=verbosity,
               extra_vars={'nms_overlay_in_process': WAYS[way]})


def assert_masked_failure(result, name):
    """The task failed with the server's message, masked, after a retry line for each retry (both warnings)."""
    record = result[name]
    assert record['failed'] is True and 'HTTP 500' in record['msg'] and '********' in record['msg'], record['msg']
    retries = [warning for warning in record.get('warnings') or () if 'trying again' in warning]
    # (a text the server sends is cut at 200 characters: the secret may lie beyond)
    assert len(retries) == 2 and any('********' in warning for warning in retries), record.get('warnings')
    assert 'trying again' in result.text and 'could not handle the request' in result.text


@pytest.mark.parametrize('verbosity', [0, 1, 4])  # the retry lines are warnings at every verbosity
@pytest.mark.parametrize('way', list(WAYS))
def test_identity_provider_client_secret_is_masked_in_retries_and_failure(emulator, run, way, verbosity):
    status, created = emulator.api('POST', '/identity-providers', dict(PROVIDER, client_secret=CLIENT_SECRET))
    assert status == 200, created
    emulator.clear_log()
    emulator.set_faults({'queue': [dict(echo, method='PUT') for echo in ECHOES]})
    result = play(run, {'name': 'rotate', 'nms.overlay.identity_provider': dict(
        PROVIDER, client_secret=ROTATED_SECRET, update_secret='always', retries=2)}, way, verbosity)
    echoed(emulator, 'PUT', ROTATED_SECRET)
    assert_masked_failure(result, 'rotate')
    assert_hidden(result.stdout, CLIENT_SECRET, ROTATED_SECRET)
    if way == 'controller' and verbosity >= 1:  # the retry line shows as it comes too (progress, at -v)
        assert result.stdout.count('trying again in') >= 4, result.stdout


@pytest.mark.parametrize('verbosity', [1, 4])
@pytest.mark.parametrize('way', list(WAYS))
def test_agent_network_provider_api_key_is_masked_in_retries_and_failure(emulator, run, way, verbosity):
    status, created = emulator.api('POST', '/agent-network/providers', dict(AGENT_PROVIDER, api_key=API_KEY))
    assert status == 200, created
    emulator.clear_log()
    emulator.set_faults({'queue': [dict(echo, method='PUT') for echo in KEY_ECHOES]})
    result = play(run, {'name': 'rotate', 'nms.overlay.agent_network_provider': dict(
        AGENT_PROVIDER, api_key=ROTATED_KEY, update_secret='always', retries=2)}, way, verbosity)
    echoed(emulator, 'PUT', ROTATED_KEY, KEY_ECHOES)
    assert_masked_failure(result, 'rotate')
    assert_hidden(result.stdout, API_KEY, ROTATED_KEY)


@pytest.mark.parametrize('verbosity', [1, 4])
@pytest.mark.parametrize('way', list(WAYS))
def test_network_state_nested_secrets_are_masked_in_retries_and_failure(emulator, run, way, verbosity):
    for path, body in (('/identity-providers', dict(PROVIDER, client_secret=CLIENT_SECRET)),
                       ('/agent-network/providers', dict(AGENT_PROVIDER, api_key=API_KEY))):
        status, created = emulator.api('POST', path, body)
        assert status == 200, created
    emulator.clear_log()
    emulator.set_faults({'queue': [dict(echo, method='PUT') for echo in ECHOES]})
    result = play(run, {'name': 'state', 'nms.overlay.network_state': {
        'retries': 2,
        'identity_providers': [dict(PROVIDER, client_secret=ROTATED_SECRET, update_secret='always')],
        'agent_network_providers': [dict(AGENT_PROVIDER, api_key=ROTATED_KEY)]}}, way, verbosity)
    echoed(emulator, 'PUT', ROTATED_SECRET)
    assert_masked_failure(result, 'state')
    assert_hidden(result.stdout, CLIENT_SECRET, ROTATED_SECRET, API_KEY, ROTATED_KEY)


@pytest.mark.parametrize('way', list(WAYS))
def test_a_create_that_fails_quoting_the_body_masks_the_secret(emulator, run, way):
    """A create whose POST fails with a 500 quoting the body is read back and sent again (the engine's create
    protocol): the warning that quotes the failure is masked; then two such answers fail the task, masked too."""
    emulator.set_faults({'queue': [{'status': 500, 'echo': 'message', 'method': 'POST'}]})
    task = {'name': 'create', 'nms.overlay.identity_provider': dict(PROVIDER, client_secret=CLIENT_SECRET)}
    result = play(run, task, way, 1)
    record = result['create']
    assert record['changed'] is True and not record.get('failed'), record
    assert [entry['fault'] for entry in emulator.requests() if entry['method'] == 'POST'] == ['echo', None]
    quoted = [warning for warning in record['warnings'] if 'HTTP 500' in warning]
    assert quoted and all('********' in warning for warning in quoted), record['warnings']
    assert_hidden(result.stdout, CLIENT_SECRET)


@pytest.mark.parametrize('way', list(WAYS))
def test_a_proxy_page_quoting_the_body_html_escaped_is_masked(emulator, run, way):
    """A proxy's HTML error page quotes the body HTML-escaped (&quot;, &lt;, &amp;): masked in that form too."""
    status, created = emulator.api('POST', '/identity-providers', dict(PROVIDER, client_secret=CLIENT_SECRET))
    assert status == 200, created
    emulator.clear_log()
    emulator.set_faults({'queue': [{'status': 502, 'echo': 'html', 'method': 'PUT'}]})
    result = play(run, {'name': 'rotate', 'nms.overlay.identity_provider': dict(
        PROVIDER, client_secret=ROTATED_SECRET, update_secret='always', retries=0)}, way, 4)
    echoed(emulator, 'PUT', ROTATED_SECRET, [{'echo': 'html'}])
    record = result['rotate']
    assert record['failed'] is True and 'HTTP 502' in record['msg'] and '********' in record['msg'], record['msg']
    assert 'could not handle the request' in record['msg'], record['msg']
    assert_hidden(result.stdout, CLIENT_SECRET, ROTATED_SECRET)
