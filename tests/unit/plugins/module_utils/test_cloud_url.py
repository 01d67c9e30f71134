# -*- coding: utf-8 -*-
"""NetBird Cloud's address (issue 46, item 5): what can be proven without reaching it (docs/compatibility.md, "NetBird
Cloud").

The tests reach only 127.0.0.1, so nothing here talks to api.netbird.io: a fake transport records what the client
would send. An https api_url on the Cloud's host (the server of NetBird's OpenAPI file), with or without /api, gives
the URLs the API's paths name (messages write the port: api.netbird.io:443), the personal access token as `Authorization: Token ...`, certificates checked, no
redirect followed; its errors name the method, the Cloud's URL and the status, never the token.
"""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError, Client
from ansible_collections.nms.overlay.plugins.module_utils._server import ServerInfo
from tests.unit.plugins.module_utils.test_client import TOKEN, FakeResponse, FakeSession

CLOUD = 'https://api.netbird.io'


@pytest.mark.parametrize('api_url', [CLOUD, CLOUD + '/', CLOUD + '/api', CLOUD + '/api/', '  ' + CLOUD + '  '])
def test_the_cloud_url_gives_the_apis_paths_with_the_token(api_url, monkeypatch):
    for name in ('REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE'):
        monkeypatch.delenv(name, raising=False)
    session = FakeSession([FakeResponse(body=[{'id': 'g1', 'name': 'All'}]), FakeResponse(body={'id': 'p1'})])
    client = Client(api_url, TOKEN, session=session)
    assert client.get('/groups') == [{'id': 'g1', 'name': 'All'}]
    client.put('/peers/p1', {'name': 'web 1'})
    assert [(method, url) for method, url, dummy in session.calls] == [
        ('GET', 'https://api.netbird.io/api/groups'), ('PUT', 'https://api.netbird.io/api/peers/p1')]
    assert session.headers['Authorization'] == 'Token ' + TOKEN
    for dummy, dummy, options in session.calls:
        assert options['verify'] is True  # the public certificate is checked (no ca_path needed)
        assert options['allow_redirects'] is False
    assert client.url_for('/setup-keys') == 'https://api.netbird.io:443/api/setup-keys'  # as messages write it


def test_a_name_with_odd_characters_stays_in_its_path_segment():
    session = FakeSession([FakeResponse(body={})])
    Client(CLOUD, TOKEN, session=session).delete('/groups/a b/../c?d#e')
    url = session.calls[0][1]
    assert url.startswith('https://api.netbird.io/api/groups/'), url
    assert not any(char in url for char in ' ?#'), url


def test_a_refusal_names_the_clouds_url_and_never_the_token():
    answer = FakeResponse(status=401, body={'message': 'token invalid', 'code': 401}, reason='Unauthorized')
    client = Client(CLOUD + '/api', TOKEN, session=FakeSession([answer]))
    with pytest.raises(ApiError) as caught:
        client.get('/users')
    message = str(caught.value)
    assert message.startswith('GET https://api.netbird.io:443/api/users failed with HTTP 401: token invalid'), message
    assert TOKEN not in message and TOKEN[4:] not in message


def test_a_redirect_elsewhere_is_refused_so_the_token_stays_with_the_cloud():
    moved = FakeResponse(status=302, headers={'Location': 'https://elsewhere.example/api/groups'}, reason='Found')
    session = FakeSession([moved])
    with pytest.raises(ApiError) as caught:
        Client(CLOUD, TOKEN, session=session).get('/groups')
    assert 'redirect' in str(caught.value) and len(session.calls) == 1


def test_the_version_probe_asks_the_cloud_once_and_reads_its_release():
    session = FakeSession([FakeResponse(body={'management_current_version': 'v0.77.1'})])
    server = ServerInfo(Client(CLOUD, TOKEN, session=session))
    assert server.current and server.has_release('v0.62.0') and not server.has_release('v0.78.0')
    assert [url for dummy, url, dummy in session.calls] == ['https://api.netbird.io/api/instance/version']
