# -*- coding: utf-8 -*-
"""Issue 44, item 2, on the real NetBird v0.77.1 (tests/support/realserver.py; the real-server stage, ``make real``):
a client secret the task sends never shows when an error answer quotes the request body.

A real server never quotes the body, but a reverse proxy in front of it may (an nginx or HAProxy error page): the
recording proxy plays that part (``echo_failures``). Each PUT still reaches the real server, which applies it; the
proxy then answers 503 with a JSON message quoting the body as Go writes JSON, 503 with an HTML page quoting it
HTML-escaped, and 500 with a JSON message again. The module runs through ansible-playbook at -vvvv, in the controller
and as a module process, and the whole output is searched for each run of letters and digits of both secrets
(tests/integration/test_secrets_in_errors.py, the same proof against the emulator).
"""

from __future__ import annotations

import json

import pytest

from tests.integration.test_real_servers import connection, started
from tests.integration.test_secrets_in_errors import (CLIENT_SECRET, ISSUER, ROTATED_SECRET, WAYS,
                                                      assert_masked_failure, assert_hidden)

pytestmark = pytest.mark.real

# the proxy's answers to the PUTs, in order: two retries, then the failure
ECHO_FAILURES = [('PUT', 503, 'message'), ('PUT', 503, 'html'), ('PUT', 500, 'message')]


@pytest.fixture(scope='module')
def idp_server():
    yield from started('v0.77.1', '--idp')


@pytest.mark.parametrize('way', list(WAYS))
def test_identity_provider_client_secret_is_masked_when_a_proxy_quotes_the_body(idp_server, run, way):
    provider = {'name': 'Echoing SSO (%s)' % way, 'type': 'oidc', 'issuer': ISSUER, 'client_id': 'cid'}
    created = idp_server.ok('POST', '/api/identity-providers', dict(provider, client_secret=CLIENT_SECRET))
    idp_server.clear_log()
    idp_server.proxy.echo_failures = list(ECHO_FAILURES)
    try:
        result = run([{'name': 'rotate', 'ignore_errors': True, 'nms.overlay.identity_provider': dict(
            provider, client_secret=ROTATED_SECRET, update_secret='always', retries=2)}],
            env=connection(idp_server), ansible=True, verbosity=4, extra_vars={'nms_overlay_in_process': WAYS[way]})
    finally:
        left, idp_server.proxy.echo_failures = idp_server.proxy.echo_failures, []
    assert left == [], left

    # the proxy relayed each PUT to the real server, which applied it (200), before answering with its page
    puts = [entry for entry in idp_server.requests() if entry['method'] == 'PUT']
    assert [entry['path'] for entry in puts] == ['/api/identity-providers/%s' % created['id']] * 3, puts
    assert [(entry['status'], entry.get('echoed')) for entry in puts] == [(200, 503), (200, 503), (200, 500)], puts
    sent = json.dumps(ROTATED_SECRET, ensure_ascii=False)[1:-1]
    assert all(sent in json.dumps(entry['request'], ensure_ascii=False) for entry in puts), puts

    assert_masked_failure(result, 'rotate')
    record = result['rotate']
    retries = [warning for warning in record['warnings'] if 'trying again' in warning]
    assert all('HTTP 503' in warning and '********' in warning for warning in retries), retries
    assert_hidden(result.stdout, CLIENT_SECRET, ROTATED_SECRET)
    idp_server.ok('DELETE', '/api/identity-providers/%s' % created['id'])
