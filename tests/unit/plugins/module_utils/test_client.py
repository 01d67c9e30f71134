# -*- coding: utf-8 -*-
"""Unit tests of the HTTP client: retries, Retry-After, POST safety, errors without the token."""

from __future__ import annotations

import email.utils
import io
import json
import os
import random
import sys
import threading

import pytest
import requests

from ansible_collections.nms.overlay.plugins.module_utils import _time
from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError, Client, _retry_after_seconds, api_roots
from tests.emulator.tls import make_test_pki

TOKEN = 'nbp_9999EUDNdkeusjentDLSJEn1902u84390W6W'


class FakeResponse:
    def __init__(self, status=200, body=None, text=None, headers=None, reason='OK'):
        self.status_code = status
        self.headers = headers or {}
        self.reason = reason
        if text is None:
            text = '' if body is None else json.dumps(body)
        self.text = text
        self.closed = False

    @property
    def content(self):
        return self.text.encode('utf-8')

    def iter_content(self, chunk_size):
        body = self.content
        return (body[start:start + chunk_size] for start in range(0, len(body), chunk_size))

    def close(self):
        self.closed = True


class FakeSession:
    """Answers calls from a script: each item is a FakeResponse or an exception to raise."""

    def __init__(self, script):
        self.script = list(script)
        self.calls = []
        self.headers = {}
        self.verify = True

    def request(self, method, url, **kwargs):
        self.calls.append((method, url, kwargs))
        item = self.script.pop(0)
        if isinstance(item, Exception):
            raise item
        return item


def make_client(script, retries=3, **kwargs):
    """A client on ``script`` that pauses on the collection's clock, as modules do; the pauses are returned as the
    fake clock's waits (tests/unit/conftest.py installs it for every test)."""
    session = FakeSession(script)
    client = Client('https://nms.test/api/', TOKEN, retries=retries, session=session, **kwargs)
    return client, session, _time.CLOCK.waits


def test_api_root_accepts_url_with_or_without_api():
    assert api_roots('https://nms.test')[0] == 'https://nms.test'
    assert api_roots('https://nms.test/')[0] == 'https://nms.test'
    assert api_roots('https://nms.test/api')[0] == 'https://nms.test'
    assert api_roots('https://nms.test/api/')[0] == 'https://nms.test'


def test_headers_timeout_and_no_redirects():
    client, session, dummy = make_client([FakeResponse(body=[{'id': 'g1'}])], timeout=7)
    assert client.get('/groups') == [{'id': 'g1'}]
    method, url, kwargs = session.calls[0]
    assert (method, url) == ('GET', 'https://nms.test/api/groups')
    assert kwargs['timeout'] == 7
    assert kwargs['allow_redirects'] is False
    assert session.headers['Authorization'] == 'Token ' + TOKEN
    assert session.headers['Accept'] == 'application/json'
    assert session.headers['User-Agent'].startswith('nms.overlay/')


def test_body_is_json_with_content_type():
    client, session, dummy = make_client([FakeResponse(body={'id': 'g1'})])
    client.post('/groups', {'name': 'a', 'peers': []})
    kwargs = session.calls[0][2]
    assert json.loads(kwargs['data']) == {'name': 'a', 'peers': []}
    assert kwargs['headers']['Content-Type'] == 'application/json'


@pytest.mark.parametrize('status', [429, 502, 503, 504])
def test_get_retries_retryable_statuses(status):
    client, session, sleeps = make_client([FakeResponse(status=status, body={'message': 'busy'}), FakeResponse(body=[])])
    assert client.get('/groups') == []
    assert len(session.calls) == 2
    assert len(sleeps) == 1


def test_retry_after_is_honoured():
    client, dummy, sleeps = make_client([FakeResponse(status=429, headers={'Retry-After': '2'}), FakeResponse(body={})])
    client.put('/groups/g1', {'name': 'x'})
    assert sleeps == [2.0]


def test_backoff_grows_and_retries_are_bounded():
    script = [FakeResponse(status=503, body={'message': 'down', 'code': 503})] * 4
    client, session, sleeps = make_client(script, retries=3)
    with pytest.raises(ApiError) as err:
        client.delete('/groups/g1')
    assert len(session.calls) == 4
    assert sleeps == [0.5, 1.0, 2.0]
    assert err.value.status == 503
    assert str(err.value) == 'DELETE https://nms.test:443/api/groups/g1 failed with HTTP 503: down (4 tries, retries=3)'


def test_connection_error_is_retried_for_get():
    client, session, dummy = make_client([requests.exceptions.ConnectionError('reset'), FakeResponse(body=[])])
    assert client.get('/peers') == []
    assert len(session.calls) == 2


def test_post_is_not_retried_once_it_may_have_reached_the_server():
    client, session, dummy = make_client([FakeResponse(status=503, body={'message': 'down'}), FakeResponse(body={})])
    with pytest.raises(ApiError) as err:
        client.post('/groups', {'name': 'a'})
    assert len(session.calls) == 1
    assert err.value.status == 503


def test_post_is_not_retried_after_a_dropped_connection():
    client, session, dummy = make_client([requests.exceptions.ConnectionError('Connection aborted'), FakeResponse(body={})])
    with pytest.raises(ApiError) as err:
        client.post('/groups', {'name': 'a'})
    assert len(session.calls) == 1
    assert err.value.status is None
    assert str(err.value) == 'POST https://nms.test:443/api/groups failed: connection failed: the connection was aborted'


def test_post_is_not_sent_again_after_429_and_the_error_carries_retry_after():
    client, session, sleeps = make_client([FakeResponse(status=429, headers={'Retry-After': '3'}),
                                           FakeResponse(body={'id': 'g1'})])
    with pytest.raises(ApiError) as err:
        client.post('/groups', {'name': 'a'})
    assert len(session.calls) == 1 and sleeps == []
    assert err.value.status == 429 and err.value.retry_after == 3.0


def test_retry_after_as_an_http_date_is_honoured(clock):
    when = email.utils.formatdate(clock.time() + 30, usegmt=True)
    client, dummy, sleeps = make_client([FakeResponse(status=503, headers={'Retry-After': when}), FakeResponse(body=[])])
    assert client.get('/groups') == []
    assert sleeps == [30.0]


@pytest.mark.parametrize('value, expected', [
    ('0', 0.0), ('-5', 0.0), ('7200', 60.0), ('soon', None), ('nan', None),
    ('Wed, 21 Oct 2015 07:28:00 GMT', 0.0),  # a date in the past: no wait
])
def test_retry_after_is_read_safely_and_capped(value, expected):
    assert _retry_after_seconds(FakeResponse(headers={'Retry-After': value})) == expected


def test_pause_uses_retry_after_else_backoff():
    notices = []
    client, dummy, sleeps = make_client([], notify=notices.append)
    client.pause(1, 4.0)
    client.pause(3)
    client.pause(10)
    assert sleeps == [4.0, 2.0, 10.0]
    assert notices[:2] == ['Waiting 4 s as the server asked (Retry-After), then try 2 of 4 (retries=3)',
                           'Trying again in 2 s (try 4 of 4, retries=3)']


def test_post_is_retried_when_the_connection_was_refused():
    refused = requests.exceptions.ConnectTimeout('connect timeout')
    client, session, dummy = make_client([refused, FakeResponse(body={'id': 'g1'})])
    assert client.post('/groups', {'name': 'a'}) == {'id': 'g1'}
    assert len(session.calls) == 2


def test_error_message_has_method_path_status_and_server_message_but_not_the_token():
    body = {'message': 'token %s invalid' % TOKEN, 'code': 401}
    client, dummy, dummy2 = make_client([FakeResponse(status=401, body=body)])
    with pytest.raises(ApiError) as err:
        client.get('/groups')
    text = str(err.value)
    assert text.startswith('GET https://nms.test:443/api/groups failed with HTTP 401: token ')
    assert TOKEN not in text
    assert 'check api_token' in text


def test_html_error_page_is_summarised():
    page = '<html><head><title>Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>'
    client, dummy, dummy2 = make_client([FakeResponse(status=500, text=page, headers={'Content-Type': 'text/html'})])
    with pytest.raises(ApiError) as err:
        client.get('/groups')
    assert str(err.value) == 'GET https://nms.test:443/api/groups failed with HTTP 500: Bad Gateway 502 Bad Gateway'


def test_a_cut_off_success_answer_is_never_quoted():
    """A success answer cut inside its JSON may hold what the server made for the task (a setup key's value): the
    message says where it breaks, never what it holds."""
    text = '{"id": "k1", "key": "A6160D6A-1BAC-4A39-ABCD-0123456789AB", "na'
    client, dummy, dummy2 = make_client([FakeResponse(status=200, text=text)])
    with pytest.raises(ApiError) as err:
        client.post('/setup-keys', {'name': 'k'})
    message = str(err.value)
    assert 'A6160D6A' not in message and '"key"' not in message, message
    assert message.endswith('the answer is not valid JSON (unterminated string starting at: character 60 of %d); its text '
                            'is not shown, as a successful answer may hold a secret' % len(text)), message


@pytest.mark.parametrize('text', ['not json', '{"id": "g1", "na'])
def test_invalid_json_on_success_is_a_clear_error(text):
    client, dummy, dummy2 = make_client([FakeResponse(status=200, text=text)])
    with pytest.raises(ApiError) as err:
        client.get('/groups')
    assert err.value.status == 200
    assert 'not valid JSON' in str(err.value)
    assert str(err.value).startswith('GET https://nms.test:443/api/groups failed with HTTP 200')


def test_json_nested_too_deeply_is_an_api_error_not_a_recursion_error():
    deep = '[' * 100000 + ']' * 100000
    client, dummy, dummy2 = make_client([FakeResponse(status=200, text=deep), FakeResponse(status=400, text=deep)])
    with pytest.raises(ApiError) as err:
        client.get('/peers')
    assert str(err.value) == 'GET https://nms.test:443/api/peers failed with HTTP 200: the answer is JSON nested too deeply to read'
    with pytest.raises(ApiError) as err:  # an error answer too
        client.get('/peers')
    assert str(err.value).startswith('GET https://nms.test:443/api/peers failed with HTTP 400: [[[')


def test_empty_body_is_an_empty_object():
    client, dummy, dummy2 = make_client([FakeResponse(status=200, text='')])
    assert client.delete('/groups/g1') == {}


def test_redirect_is_refused():
    client, dummy, dummy2 = make_client([FakeResponse(status=301, headers={'Location': 'https://evil.test/api/groups'})])
    with pytest.raises(ApiError) as err:
        client.get('/groups')
    assert 'redirects are not followed' in str(err.value)


def test_timeout_message():
    client, session, dummy = make_client([requests.exceptions.ReadTimeout('read timed out')] * 2, retries=1, timeout=5)
    with pytest.raises(ApiError) as err:
        client.get('/groups')
    assert len(session.calls) == 2
    assert str(err.value) == 'GET https://nms.test:443/api/groups failed: no answer within the timeout of 5 s (2 tries, retries=1)'


@pytest.fixture(scope='module')
def ca_file(tmp_path_factory):
    return make_test_pki(str(tmp_path_factory.mktemp('pki')))['ca_cert']


def test_tls_options_set_verify(ca_file):
    client, session, dummy = make_client([], ca_path=str(ca_file))
    assert session.verify == str(ca_file)
    client, session, dummy = make_client([], validate_certs=False)
    assert session.verify is False


# -- connection options are checked before any request -----------------------------------------------

from ansible_collections.nms.overlay.plugins.module_utils._client import ConfigError, quote_path  # noqa: E402
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError  # noqa: E402


@pytest.mark.parametrize('kwargs,option', [
    (dict(api_url='nms.example.com'), 'api_url'),
    (dict(api_url='ftp://nms.example.com'), 'api_url'),
    (dict(api_url='https://'), 'api_url'),
    (dict(api_url='https://nms.example.com:99999'), 'api_url'),
    (dict(api_url='https://nms.example.com/?x=1'), 'api_url'),
    (dict(api_token=''), 'api_token'),
    (dict(api_token=TOKEN + '\n'), 'api_token'),
    (dict(api_token='Token ' + TOKEN), 'api_token'),
    (dict(api_token='nbp_\U0001f600'), 'api_token'),
    (dict(timeout=0), 'timeout'),
    (dict(timeout=-1.0), 'timeout'),
    (dict(timeout=float('nan')), 'timeout'),
    (dict(timeout=float('inf')), 'timeout'),
    (dict(retries='x'), 'retries'),
    (dict(ca_path='/nonexistent/ca.pem'), 'ca_path'),
])
def test_unusable_connection_options_fail_naming_the_option(kwargs, option):
    url = kwargs.get('api_url', 'https://nms.test')
    token = kwargs.get('api_token', TOKEN)
    options = {key: value for key, value in kwargs.items() if key not in ('api_url', 'api_token')}
    session = FakeSession([])
    with pytest.raises(ConfigError) as err:
        Client(url, token, session=session, **options)
    assert str(err.value).startswith('option %s: ' % option)
    assert isinstance(err.value, TaskError)
    assert TOKEN not in str(err.value)
    assert session.calls == []


def test_ca_path_is_not_checked_when_certificates_are_not_validated():
    client, session, dummy = make_client([], validate_certs=False, ca_path='/nonexistent/ca.pem')
    assert session.verify is False and client.verify is False


@pytest.mark.parametrize('kwargs,environment,expected', [
    ({}, {}, True),
    ({'validate_certs': False}, {}, False),
    ({'validate_certs': False}, {'REQUESTS_CA_BUNDLE': '/env/requests.pem'}, False),
    ({}, {'REQUESTS_CA_BUNDLE': '/env/requests.pem', 'CURL_CA_BUNDLE': '/env/curl.pem'}, '/env/requests.pem'),
    ({}, {'CURL_CA_BUNDLE': '/env/curl.pem'}, '/env/curl.pem'),
    ({'ca_path': 'CA'}, {'REQUESTS_CA_BUNDLE': '/env/requests.pem'}, 'CA'),
])
def test_verify_goes_with_every_request(ca_file, monkeypatch, kwargs, environment, expected):
    """The session trusts nothing of the environment by itself (trust_env is off), so verify goes with every request:
    ca_path, else the bundle requests would take from the environment, else requests' own CAs; never one when
    certificates are not validated."""
    for name in ('REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE'):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    kwargs = {key: str(ca_file) if value == 'CA' else value for key, value in kwargs.items()}
    client, session, dummy = make_client([FakeResponse(body=[])], **kwargs)
    client.get('/groups')
    assert session.trust_env is False
    assert session.calls[0][2]['verify'] == (str(ca_file) if expected == 'CA' else expected)


# -- paths ----------------------------------------------------------------------------------------

@pytest.mark.parametrize('path,expected', [
    ('/groups', '/groups'),
    ('/groups/ch8i4ug6lnn4g9hqv7l0', '/groups/ch8i4ug6lnn4g9hqv7l0'),
    ('/groups/a?b=c', '/groups/a%3Fb=c'),
    ('/groups/a#b', '/groups/a%23b'),
    ('/groups/../users', '/groups/%2E%2E/users'),
    ('/groups/./x', '/groups/%2E/x'),
    ('/groups/a b', '/groups/a%20b'),
    ('/groups/%2F', '/groups/%252F'),
    ('/users/\u00e9t\u00e9', '/users/%C3%A9t%C3%A9'),
])
def test_path_segments_are_encoded(path, expected):
    assert quote_path(path) == expected
    client, session, dummy = make_client([FakeResponse(body={})])
    client.delete(path)
    assert session.calls[0][1] == 'https://nms.test/api' + expected


# -- answers --------------------------------------------------------------------------------------

class CutResponse(FakeResponse):
    """Status and headers arrived; reading the body fails."""

    def __init__(self, error, **kwargs):
        super().__init__(**kwargs)
        self.error = error

    @property
    def content(self):
        raise self.error


def test_body_cut_off_names_the_status_and_the_size():
    cut = requests.exceptions.ChunkedEncodingError(
        "('Connection broken: IncompleteRead(51 bytes read, 51 more expected)', IncompleteRead(...))")
    client, session, dummy = make_client([CutResponse(cut, status=200, headers={'Content-Length': '102'})], retries=0)
    with pytest.raises(ApiError) as err:
        client.get('/groups')
    assert str(err.value) == 'GET https://nms.test:443/api/groups failed with HTTP 200: the answer was cut off after 51 of 102 bytes (1 try, retries=0)'
    assert err.value.status == 200


def test_body_cut_off_is_retried_for_get_but_not_for_post():
    cut = requests.exceptions.ChunkedEncodingError('Connection broken: IncompleteRead(1 bytes read, 9 more expected)')
    client, session, dummy = make_client([CutResponse(cut), FakeResponse(body=[])])
    assert client.get('/groups') == []
    client, session, dummy = make_client([CutResponse(cut), FakeResponse(body={})])
    with pytest.raises(ApiError) as err:
        client.post('/groups', {'name': 'a'})
    assert len(session.calls) == 1 and err.value.status == 200


def test_slow_body_is_a_timeout_with_the_status():
    client, dummy, dummy2 = make_client([CutResponse(requests.exceptions.ReadTimeout('read timed out'))], retries=0,
                                        timeout=3)
    with pytest.raises(ApiError) as err:
        client.get('/groups')
    assert str(err.value) == ('GET https://nms.test:443/api/groups failed with HTTP 200: the answer did not arrive in full within the timeout '
                              'of 3 s (1 try, retries=0)')


def test_empty_body_of_a_read_is_an_error():
    client, dummy, dummy2 = make_client([FakeResponse(status=200, text='  ')])
    with pytest.raises(ApiError) as err:
        client.get('/groups')
    assert str(err.value) == 'GET https://nms.test:443/api/groups failed with HTTP 200: the answer is empty where JSON was expected'


def test_an_empty_202_of_a_read_is_accepted():
    # v0.77.1 answers a reverse proxy domain's validation with 202 and no body: started, done later
    client, dummy, dummy2 = make_client([FakeResponse(status=202, text='')])
    assert client.get('/reverse-proxies/domains/d1/validate') == {}


@pytest.mark.parametrize('status,message', [
    (403, 'only users with admin power can perform this operation'),
    (401, 'only users with admin power can view policies'),
])
def test_permission_failures_say_forbidden(status, message):
    client, dummy, dummy2 = make_client([FakeResponse(status=status, body={'message': message, 'code': status})])
    with pytest.raises(ApiError) as err:
        client.put('/groups/g1', {'name': 'x'})
    assert str(err.value) == ('PUT https://nms.test:443/api/groups/g1 failed with HTTP %d: forbidden: %s (the token\'s user lacks the permission '
                              'for this operation)' % (status, message))


def test_tls_failure_is_not_retried_and_is_summarised():
    error = requests.exceptions.SSLError(
        "HTTPSConnectionPool(host='127.0.0.1', port=1): Max retries exceeded with url: /api/groups (Caused by "
        "SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable "
        "to get local issuer certificate (_ssl.c:1006)')))")
    client, session, sleeps = make_client([error, FakeResponse(body=[])])
    with pytest.raises(ApiError) as err:
        client.get('/groups')
    assert len(session.calls) == 1 and sleeps == []
    assert str(err.value) == ('GET https://nms.test:443/api/groups failed: TLS error (certificate verify failed: unable to get local issuer '
                              'certificate); set ca_path to the CA that signed the server certificate, or '
                              'validate_certs=false to skip verification')


def test_dropped_connection_is_summarised():
    error = requests.exceptions.ConnectionError(
        "('Connection aborted.', RemoteDisconnected('Remote end closed connection without response'))")
    client, dummy, dummy2 = make_client([error], retries=0)
    with pytest.raises(ApiError) as err:
        client.get('/groups')
    assert str(err.value) == ('GET https://nms.test:443/api/groups failed: connection failed: the server closed the connection without answering '
                              '(1 try, retries=0)')


@pytest.mark.parametrize('answer, message', [
    ({'a': 1}, 'GET https://nms.test:443/api/groups failed with HTTP 200: the answer is an object where a list of objects was expected'),
    ('text', 'GET https://nms.test:443/api/groups failed with HTTP 200: the answer is a string where a list of objects was expected'),
    ([{'id': 'g1'}, 'g2'], 'GET https://nms.test:443/api/groups failed with HTTP 200: the answer is a list, but not of objects'),
])
def test_a_list_of_the_wrong_shape_is_a_clear_error(answer, message):
    client, dummy, dummy2 = make_client([FakeResponse(body=answer)])
    with pytest.raises(ApiError) as err:
        client.get_list('/groups')
    assert str(err.value) == message


def test_shaped_reads_accept_null_lists_and_wrapped_objects():
    client, dummy, dummy2 = make_client([FakeResponse(text='null'), FakeResponse(body={'items': {'id': 'x'}}),
                                         FakeResponse(body=[1])])
    assert client.get_list('/groups') == []
    assert client.get_object('/dns/settings') == {'id': 'x'}
    with pytest.raises(ApiError, match='the answer is a list where an object was expected'):
        client.get_object('/groups/g1')


class NoGuessResponse(requests.models.Response):
    """A real requests response that fails the test if anything asks requests to guess its charset."""

    @property
    def apparent_encoding(self):
        raise AssertionError('the charset of the body was guessed')


def test_an_answer_without_a_charset_is_read_as_utf8_without_guessing():
    response = NoGuessResponse()
    response.status_code = 200
    response.raw = io.BytesIO(json.dumps([{'name': 'caf\u00e9-\u00fc'}], ensure_ascii=False).encode('utf-8'))  # the body to read
    response.encoding = None  # no Content-Type header
    client, _session, _sleeps = make_client([response])
    assert client.get_list('/groups') == [{'name': 'caf\u00e9-\u00fc'}]


# -- issue 18: a deadline for the whole request, visible retries, errors that say where and why --------

# The server below holds its answer back until the test has the client's: a client that waited for it rather than
# stop at its deadline would get it (after HELD s) and fail the test, however slow or fast the machine is.
HELD = 30


class HeldResponse(FakeResponse):
    """Status and headers arrived; the body comes only once the test releases it (a server that drips it)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.release = threading.Event()
        self.arrived = False

    @property
    def content(self):
        self.release.wait(HELD)
        self.arrived = True
        return self.text.encode('utf-8')


def test_timeout_bounds_the_whole_request_body_included():
    held = HeldResponse(body=[])
    client, session, dummy = make_client([held], retries=0, timeout=0.3)
    try:
        with pytest.raises(ApiError) as err:
            client.get('/groups')
        assert not held.arrived  # the client stopped waiting at its deadline, not when the body had come
    finally:
        held.release.set()
    assert session.calls[0][2]['timeout'] == 0.3
    assert str(err.value) == ('GET https://nms.test:443/api/groups failed with HTTP 200: the answer did not arrive in full '
                              'within the timeout of 0.3 s (1 try, retries=0)')


def test_a_request_without_any_answer_within_the_deadline_names_the_timeout(clock):
    class Hanging(FakeSession):
        """Answers nothing until the test releases it."""

        release = threading.Event()
        answered = 0

        def request(self, method, url, **kwargs):
            self.calls.append((method, url, kwargs))
            self.release.wait(HELD)
            self.answered += 1
            raise requests.exceptions.ReadTimeout('read timed out')

    session = Hanging([])
    client = Client('https://nms.test', TOKEN, retries=1, timeout=0.2, session=session)
    try:
        with pytest.raises(ApiError) as err:
            client.get('/groups')
        assert session.answered == 0  # each try ended at its deadline, not when the request gave up
    finally:
        session.release.set()
    assert [kwargs['timeout'] for dummy, dummy2, kwargs in session.calls] == [0.2, 0.2]
    assert clock.waits == [0.5]  # the back-off between the two tries
    assert str(err.value) == ('GET https://nms.test:443/api/groups failed: no answer within the timeout of 0.2 s '
                              '(2 tries, retries=1)')


def test_retries_and_waits_are_told_with_their_cause():
    notices = []
    client, session, sleeps = make_client([FakeResponse(status=503, body={'message': 'down'}),
                                           FakeResponse(status=429, headers={'Retry-After': '60'}, reason='Too Many Requests'),
                                           FakeResponse(body=[])], notify=notices.append)
    assert client.get('/groups') == []
    assert sleeps == [0.5, 60.0]
    assert notices == [
        'GET https://nms.test:443/api/groups failed with HTTP 503: down; trying again in 0.5 s (try 2 of 4, retries=3)',
        'GET https://nms.test:443/api/groups failed with HTTP 429: Too Many Requests; waiting 60 s as the server asked '
        '(Retry-After), then sending it again (rate limit: 0 s waited for it so far, at most 600 s for one request; '
        'a 429 does not count against retries)',
    ]


def test_the_final_error_counts_the_tries_and_names_retries():
    client, session, dummy = make_client([requests.exceptions.ConnectionError('Connection refused')] * 3, retries=2)
    with pytest.raises(ApiError) as err:
        client.get('/groups')
    assert len(session.calls) == 3
    assert str(err.value).endswith('(3 tries, retries=2)')
    # a failure that is never repeated (a POST that reached the server, an HTTP 400) counts no tries
    client, dummy, dummy2 = make_client([FakeResponse(status=400, body={'message': 'bad'})])
    with pytest.raises(ApiError) as err:
        client.post('/groups', {})
    assert str(err.value) == 'POST https://nms.test:443/api/groups failed with HTTP 400: bad'


def test_the_url_in_errors_has_scheme_host_port_and_prefix_but_no_credentials():
    session = FakeSession([FakeResponse(status=500, body={'message': 'x'})])
    client = Client('https://user:secret@[::1]:8443/nms/api', TOKEN, retries=0, session=session)
    with pytest.raises(ApiError) as err:
        client.get('/groups/a b')
    assert str(err.value) == 'GET https://[::1]:8443/nms/api/groups/a%20b failed with HTTP 500: x'
    assert err.value.url == 'https://[::1]:8443/nms/api/groups/a%20b' and err.value.path == '/groups/a b'
    assert client.url_for('/peers') == 'https://[::1]:8443/nms/api/peers'
    assert Client('http://nms.test', TOKEN, session=FakeSession([])).url_for('/peers') == 'http://nms.test:80/api/peers'


def test_a_404_that_is_not_from_the_api_hints_at_api_url():
    client, dummy, dummy2 = make_client([FakeResponse(status=404, text='404 page not found\n', reason='Not Found')])
    with pytest.raises(ApiError) as err:
        client.get('/groups')
    assert str(err.value) == ('GET https://nms.test:443/api/groups failed with HTTP 404: 404 page not found (there is no '
                              'API at this URL: check api_url, the server\'s address such as https://nms.example.com, '
                              'with or without /api)')
    client, dummy, dummy2 = make_client([FakeResponse(status=404, body={'message': 'group g1 not found', 'code': 404})])
    with pytest.raises(ApiError) as err:
        client.get('/groups/g1')
    assert str(err.value) == 'GET https://nms.test:443/api/groups/g1 failed with HTTP 404: group g1 not found'


def _ssl_error(reason):
    return requests.exceptions.SSLError(
        "HTTPSConnectionPool(host='127.0.0.1', port=1): Max retries exceeded with url: /api/groups (Caused by "
        "SSLError(%s))" % reason)


def test_a_host_name_mismatch_names_the_host_and_points_at_the_url():
    error = _ssl_error('''SSLCertVerificationError(1, "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: '''
                       '''Hostname mismatch, certificate is not valid for 'nms.test'. (_ssl.c:1006)")''')
    client, dummy, dummy2 = make_client([error])
    with pytest.raises(ApiError) as err:
        client.get('/groups')
    assert str(err.value) == ('GET https://nms.test:443/api/groups failed: TLS error: the server certificate is not valid '
                              'for nms.test, the host in api_url; use a host name (or address) the certificate was issued '
                              'for (ca_path does not change this)')


@pytest.mark.parametrize('validate_certs', [True, False])
def test_https_on_a_plain_http_server_says_it_does_not_speak_tls(validate_certs):
    error = _ssl_error("SSLError(1, '[SSL: WRONG_VERSION_NUMBER] wrong version number (_ssl.c:1006)')")
    client, dummy, dummy2 = make_client([error], validate_certs=validate_certs)
    with pytest.raises(ApiError) as err:
        client.get('/groups')
    assert str(err.value) == ('GET https://nms.test:443/api/groups failed: TLS error: the server at https://nms.test:443 '
                              'does not speak TLS (wrong version number); if it serves plain http, use an http:// URL '
                              'in api_url')


def test_other_tls_errors_never_advise_validate_certs_when_it_is_false():
    error = _ssl_error("SSLError(1, '[SSL: SSLV3_ALERT_HANDSHAKE_FAILURE] sslv3 alert handshake failure (_ssl.c:1006)')")
    client, dummy, dummy2 = make_client([error], validate_certs=False)
    with pytest.raises(ApiError) as err:
        client.get('/groups')
    assert str(err.value) == 'GET https://nms.test:443/api/groups failed: TLS error (sslv3 alert handshake failure)'


@pytest.mark.parametrize('answer', [
    requests.exceptions.ConnectionError("('Connection aborted.', ConnectionResetError(104, 'Connection reset by peer'))"),
    FakeResponse(status=400, text='Client sent an HTTP request to an HTTPS server.\n', reason='Bad Request'),
])
def test_http_on_a_tls_server_hints_at_https(answer):
    session = FakeSession([answer])
    client = Client('http://nms.test', TOKEN, retries=0, session=session)
    with pytest.raises(ApiError) as err:
        client.get('/groups')
    assert 'use an https:// URL in api_url' in str(err.value)
    assert str(err.value).startswith('GET http://nms.test:80/api/groups failed')


def test_a_ca_path_without_a_certificate_says_so(tmp_path):
    for content in ('', 'not a certificate\n'):
        ca = tmp_path / 'ca.pem'
        ca.write_text(content)
        with pytest.raises(ConfigError) as err:
            Client('https://nms.test', TOKEN, ca_path=str(ca), session=FakeSession([]))
        assert str(err.value) == ('option ca_path: %s holds no certificate in PEM form (the file must contain the CA '
                                  'certificate, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----)' % ca)


@pytest.mark.parametrize('url, token, expected', [
    (None, TOKEN, 'option api_url: it is not set or empty (set api_url or the environment variable NMS_API_URL)'),
    ('  ', TOKEN, 'option api_url: it is not set or empty (set api_url or the environment variable NMS_API_URL)'),
    ('https://nms.test', None,
     'option api_token: it is not set or empty (set api_token or the environment variable NMS_API_TOKEN)'),
])
def test_a_missing_url_or_token_names_its_environment_variable(url, token, expected):
    with pytest.raises(ConfigError) as err:
        Client(url, token, session=FakeSession([]))
    assert str(err.value) == expected


def test_field_problem_names_the_field_and_the_types():
    from ansible_collections.nms.overlay.plugins.module_utils._client import field_problem as check
    from ansible_collections.nms.overlay.plugins.module_utils._tables import ANSWER_TYPES
    from tests.support.modules import engine_of
    types = dict(ANSWER_TYPES, **engine_of('event_info').answers)

    def field_problem(data):
        return check(data, types)

    assert field_problem([{'id': 'g1', 'name': 'a', 'peers': None, 'unknown': 5}]) is None
    assert field_problem([{'id': 'g1', 'name': 'a'}, {'groups': 3}]) == \
        'its field [1].groups is a number where a list was expected'
    assert field_problem({'rules': [{'sources': 5}]}) == 'its field rules[0].sources is a number where a list was expected'
    assert field_problem({'email': 5}) == 'its field email is a number where a string was expected'
    assert field_problem({'usage_limit': True}) == 'its field usage_limit is a boolean where a number was expected'
    assert field_problem({'meta': {'name': 5}}) is None  # an event's meta is free-form
    deep = []
    for dummy in range(5000):
        deep = [deep]
    assert field_problem({'rules': deep}) is None  # no recursion, whatever the depth


# -- the answers' type check at the size of the largest accounts (issue 30: 25,000 peers) -----------------------------

def large_peer_list(count):
    """``count`` peers as a v0.27 server lists them (every member the peer kind declares, two group summaries)."""
    return [{'id': 'p%05d' % index, 'name': 'peer-%05d' % index, 'ip': '100.64.%d.%d' % divmod(index, 250),
             'connection_ip': '<nil>', 'connected': index % 2 == 0, 'last_seen': '2026-11-28T19:19:28Z', 'os': 'linux',
             'geoname_id': 0, 'version': '0.27.6', 'ssh_enabled': False, 'user_id': '', 'hostname': 'peer-%05d' % index,
             'dns_label': 'peer-%05d.netbird.selfhosted' % index, 'login_expired': False, 'accessible_peers_count': count - 1,
             'groups': [{'id': 'g-all', 'name': 'All', 'peers_count': count},
                        {'id': 'g%02d' % (index % 50), 'name': 'group-%02d' % (index % 50), 'peers_count': count // 50}]}
            for index in range(count)]


def answer_problem(data):
    from ansible_collections.nms.overlay.plugins.module_utils._client import field_problem
    from ansible_collections.nms.overlay.plugins.module_utils._tables import ANSWER_TYPES
    return field_problem(data, ANSWER_TYPES)


def _spoil_last_peers_group(peers):
    peers[-1]['groups'][1]['peers_count'] = '40'


def _spoil_one_peers_members(peers):
    # as many members as the others, but an unchecked one swapped for a checked one with a wrong type
    del peers[2500]['os']
    peers[2500]['email'] = 5


@pytest.mark.parametrize('spoil, expected', [
    (lambda peers: peers[0].update(ip=5), "[0] (name 'peer-00000', id p00000).ip is a number where a string was expected"),
    (lambda peers: peers[-1].update(connected=1),
     "[4999] (name 'peer-04999', id p04999).connected is a number where a boolean was expected"),
    (lambda peers: peers[1234].update(geoname_id=True),
     "[1234] (name 'peer-01234', id p01234).geoname_id is a boolean where a number was expected"),
    (lambda peers: peers[-1].update(groups={}), "[4999] (name 'peer-04999', id p04999).groups is an object where a list was expected"),
    (_spoil_last_peers_group,
     "[4999] (name 'peer-04999', id p04999).groups[1] (name 'group-49', id g49).peers_count is a string where a number was expected"),
    (_spoil_one_peers_members, "[2500] (name 'peer-02500', id p02500).email is a number where a string was expected"),
    (lambda peers: peers[3000].update(email=[]), "[3000] (name 'peer-03000', id p03000).email is a list where a string was expected"),
])
def test_a_wrong_type_anywhere_in_a_large_list_is_found_and_named(spoil, expected):
    peers = large_peer_list(5000)
    assert answer_problem(peers) is None
    spoil(peers)
    assert answer_problem(peers) == 'its field ' + expected


def test_a_wrong_type_in_a_large_answer_is_an_api_error_naming_method_url_and_field():
    from ansible_collections.nms.overlay.plugins.module_utils._tables import ANSWER_TYPES
    peers = large_peer_list(5000)
    peers[-1]['dns_label'] = {'name': 'x'}
    client, dummy, dummy2 = make_client([FakeResponse(body=peers)], answer_types=ANSWER_TYPES)
    with pytest.raises(ApiError) as err:
        client.get('/peers')
    assert str(err.value) == ("GET https://nms.test:443/api/peers failed with HTTP 200: the answer is not what the API "
                              "sends: its field [4999] (name 'peer-04999', id p04999).dns_label is an object where a string "
                              "was expected")


def _member_by_member(data, types):
    """The check's rules written out plainly (every object of every list, member by member): whether data fits."""
    from ansible_collections.nms.overlay.plugins.module_utils._client import LIST, OBJECT
    classes = {'a string': (str,), 'a number': (int, float), 'a boolean': (bool,), 'a list': (list,), 'an object': (dict,),
               'an object of any members': (dict,)}
    pending = [data]
    while pending:
        value = pending.pop()
        if isinstance(value, list):
            pending.extend(item for item in value if isinstance(item, (dict, list)))
        elif isinstance(value, dict):
            for name, member in value.items():
                expected = types.get(name)
                if expected is None or member is None:
                    continue
                if type(member) not in classes[expected]:
                    return False
                if expected in (LIST, OBJECT):
                    pending.append(member)
    return True


def test_the_check_agrees_with_a_member_by_member_walk_on_varied_answers():
    """Lists whose objects have different members, nulls, nested lists and a wrong type here and there: the check
    (field by field over all objects) finds a problem exactly when a plain walk does."""
    from ansible_collections.nms.overlay.plugins.module_utils._tables import ANSWER_TYPES
    wrong = [5, 'five', True, 2.5, [], {}, [{'id': 3}], {'id': []}]
    rules = {'name': 'r', 'sources': [{'id': 'g1', 'name': 'a'}], 'destinations': None, 'ports': ['22']}
    chosen = random.Random(30)
    found = {True: 0, False: 0}
    for dummy in range(400):
        answer = large_peer_list(chosen.randint(1, 12)) + [{'id': 'pol', 'rules': [dict(rules)]}, [[{'id': 'x'}]], 'text', None]
        chosen.shuffle(answer)
        for dummy2 in range(chosen.randint(0, 3)):
            item = chosen.choice(answer)
            while isinstance(item, list) and item:
                item = chosen.choice(item)
            if not isinstance(item, dict):
                continue
            if chosen.random() < 0.5 and item:
                del item[chosen.choice(sorted(item))]
            else:
                item[chosen.choice(['ip', 'email', 'groups', 'rules', 'peers_count', 'meta', 'unknown', 'connected'])] = \
                    chosen.choice(wrong + [None, 'ok'])
        fits = _member_by_member(answer, ANSWER_TYPES)
        assert (answer_problem(answer) is None) is fits, answer
        found[fits] += 1
    assert min(found.values()) > 50  # both kinds of answer were tried


def _calls_counted(function, *args):
    """How many calls of Python functions and of built-ins made from Python code ``function(*args)`` runs."""
    count = [0]

    def profile(dummy_frame, event, dummy_arg):
        if event in ('call', 'c_call'):
            count[0] += 1
    sys.setprofile(profile)
    try:
        function(*args)
    finally:
        sys.setprofile(None)
    return count[0]


def test_the_check_of_a_list_does_not_grow_with_its_length():
    """Checking 10,000 peers makes as many Python-level calls as checking 100: the objects of a list are looked at a
    field at a time in C, never one by one in Python (which made 25,000 peers cost a tenth of a second or more)."""
    small, large = large_peer_list(100), large_peer_list(10000)
    assert _calls_counted(answer_problem, large) == _calls_counted(answer_problem, small)


def test_an_unchanged_group_task_on_a_large_account_does_work_in_proportion_to_its_peers():
    """The calls of the collection's functions an unchanged group task naming two peers makes grow at most in
    proportion to the account's peers (a v0.27 server lists them all to resolve two names): work for each pair of
    peers, or a list read again for each name, would multiply them."""
    from ansible_collections.nms.overlay.plugins.module_utils._resources.group import GroupModule
    from tests.support.fakes import FakeClient, engine
    plugins = os.path.dirname(os.path.dirname(os.path.realpath(_time.__file__)))

    def calls(count):
        peers = large_peer_list(count)
        group = {'id': 'g-bench', 'name': 'bench', 'issued': 'api', 'peers_count': 2,
                 'peers': [{'id': peer['id'], 'name': peer['name']} for peer in peers[:2]]}
        server = FakeClient({'/groups': [group], '/groups/g-bench': group, '/peers': peers})
        counted = [0]

        def profile(frame, event, dummy_arg):
            if event == 'call' and os.path.realpath(frame.f_code.co_filename).startswith(plugins):
                counted[0] += 1
        sys.setprofile(profile)
        try:
            result = engine(GroupModule, server, name='bench', peers=['peer-00000', 'peer-00001']).run()
        finally:
            sys.setprofile(None)
        assert result['changed'] is False and not server.writes() and len(server.calls) == 2, server.calls
        return counted[0]

    small, large = calls(250), calls(1000)
    assert large <= 4 * small, (small, large)


class CountedReads(io.BytesIO):
    """A response body that counts how often it is read."""

    reads = 0

    def read(self, *args):
        self.reads += 1
        return super().read(*args)


def test_a_large_answer_is_read_a_megabyte_at_a_time():
    peers = [{'id': 'p%06d' % index, 'name': 'peer-%06d' % index} for index in range(60000)]
    response = requests.models.Response()
    response.status_code = 200
    response.encoding = 'utf-8'
    response.raw = CountedReads(json.dumps(peers).encode('utf-8'))  # about 2.4 MB
    client, dummy, dummy2 = make_client([response])
    assert client.get_list('/peers') == peers
    assert response.raw.reads <= 4  # requests' own Response.content takes 10 KB a read: about 240 reads
