# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""HTTP client for the management API: auth header, timeouts, TLS, retries, clear errors."""

from __future__ import annotations

import json
import re
import time
import traceback

try:
    import requests
    from requests import exceptions as req_exc
    HAS_REQUESTS = True
    REQUESTS_IMPORT_ERROR = None
except ImportError:  # pragma: no cover - reported through missing_required_lib
    requests = None
    req_exc = None
    HAS_REQUESTS = False
    REQUESTS_IMPORT_ERROR = traceback.format_exc()

COLLECTION_VERSION = '0.1.0'
USER_AGENT = 'nms.overlay/%s (Ansible collection)' % COLLECTION_VERSION

# Statuses that mean "try again later" and are safe to repeat for idempotent methods.
RETRY_STATUSES = frozenset((429, 502, 503, 504))
IDEMPOTENT_METHODS = frozenset(('GET', 'PUT', 'DELETE'))
MAX_RETRY_AFTER = 60.0
MAX_BACKOFF = 10.0
SNIPPET_LENGTH = 200


class ApiError(Exception):
    """A failed API call. The message names method, path and status, never the token."""

    def __init__(self, method, path, status, message):
        self.method = method
        self.path = path
        self.status = status
        self.message = message
        super().__init__(str(self))

    def __str__(self):
        if self.status is None:
            return '%s %s failed: %s' % (self.method, self.path, self.message)
        return '%s %s failed with HTTP %s: %s' % (self.method, self.path, self.status, self.message)


def api_root(api_url):
    """Accept the URL with or without a trailing /api and return the part before /api."""
    url = (api_url or '').strip().rstrip('/')
    if url.endswith('/api'):
        url = url[:-4]
    return url


def _snippet(text):
    """A short, tag-free, single-line excerpt of a non-JSON body for an error message."""
    text = re.sub(r'<[^>]*>', ' ', text or '')
    text = ' '.join(text.split())
    if len(text) > SNIPPET_LENGTH:
        text = text[:SNIPPET_LENGTH] + '...'
    return text


def _retry_after_seconds(response):
    value = response.headers.get('Retry-After') if response is not None else None
    if not value:
        return None
    try:
        return min(max(float(value), 0.0), MAX_RETRY_AFTER)
    except ValueError:
        return None


class Client:
    """Talks to {api_url}/api with a personal access token."""

    def __init__(self, api_url, api_token, validate_certs=True, ca_path=None, timeout=30.0,
                 retries=3, backoff=0.5, sleep=time.sleep, session=None):
        if not HAS_REQUESTS:
            raise RuntimeError('the requests library is required')
        self.root = api_root(api_url)
        self._token = api_token
        self.timeout = timeout
        self.retries = max(int(retries), 0)
        self.backoff = backoff
        self._sleep = sleep
        self.request_count = 0
        self.session = session or requests.Session()
        self.session.headers.update({
            'Authorization': 'Token %s' % api_token,
            'Accept': 'application/json',
            'User-Agent': USER_AGENT,
        })
        if not validate_certs:
            self.session.verify = False
            try:
                from urllib3 import disable_warnings
                from urllib3.exceptions import InsecureRequestWarning
                disable_warnings(InsecureRequestWarning)
            except ImportError:  # pragma: no cover
                pass
        elif ca_path:
            self.session.verify = ca_path

    # -- public helpers ---------------------------------------------------------------------------
    def get(self, path, query=None):
        return self.request('GET', path, query=query)

    def post(self, path, body=None):
        return self.request('POST', path, body=body)

    def put(self, path, body=None):
        return self.request('PUT', path, body=body)

    def delete(self, path):
        return self.request('DELETE', path)

    def request(self, method, path, body=None, query=None):
        """Send one call, retrying where that is safe, and return the decoded JSON ({} when empty)."""
        url = '%s/api%s' % (self.root, path)
        attempt = 0
        while True:
            attempt += 1
            wait = None
            try:
                response = self._send(method, url, body, query)
            except Exception as exc:  # requests raises many kinds; classify below
                if not self._is_transport_error(exc):
                    raise
                if attempt > self.retries or not self._may_retry_transport(method, exc):
                    raise ApiError(method, path, None, self._describe_transport(exc)) from None
            else:
                if response.status_code in RETRY_STATUSES and attempt <= self.retries and (
                        method in IDEMPOTENT_METHODS or response.status_code == 429):
                    # A 429 means the server did not act on the call, so even a POST may repeat it.
                    wait = _retry_after_seconds(response)
                else:
                    return self._decode(method, path, response)
            if wait is None:
                wait = min(self.backoff * (2 ** (attempt - 1)), MAX_BACKOFF)
            self._sleep(wait)

    # -- internals --------------------------------------------------------------------------------
    def _send(self, method, url, body, query):
        self.request_count += 1
        kwargs = {'timeout': self.timeout, 'allow_redirects': False}
        if query:
            kwargs['params'] = query
        if body is not None:
            kwargs['data'] = json.dumps(body)
            kwargs['headers'] = {'Content-Type': 'application/json'}
        return self.session.request(method, url, **kwargs)

    @staticmethod
    def _is_transport_error(exc):
        return req_exc is not None and isinstance(exc, req_exc.RequestException)

    @staticmethod
    def _may_retry_transport(method, exc):
        if method in IDEMPOTENT_METHODS:
            return True
        # A POST may repeat only when the connection was never made, so the server cannot have it.
        return isinstance(exc, req_exc.ConnectTimeout) or (
            isinstance(exc, req_exc.ConnectionError) and 'NewConnectionError' in repr(exc))

    def _describe_transport(self, exc):
        if isinstance(exc, req_exc.SSLError):
            reason = 'TLS error (%s); set ca_path to the CA that signed the server certificate, ' \
                     'or validate_certs=false to skip verification' % self._scrub(str(exc))
        elif isinstance(exc, req_exc.Timeout):
            reason = 'no answer within the timeout of %s seconds' % self.timeout
        elif isinstance(exc, req_exc.ConnectionError):
            reason = 'connection failed: %s' % self._scrub(str(exc))
        else:
            reason = self._scrub(str(exc))
        return reason

    def _scrub(self, text):
        if self._token:
            text = text.replace(self._token, '********')
        return text

    def _decode(self, method, path, response):
        status = response.status_code
        text = response.text or ''
        if 300 <= status < 400:
            raise ApiError(method, path, status, 'the server redirected to %r; redirects are not followed so that '
                                                 'the token is never sent elsewhere (check api_url)'
                           % response.headers.get('Location', ''))
        if status >= 400:
            raise ApiError(method, path, status, self._error_message(response, text))
        if not text.strip():
            return {}
        try:
            return json.loads(text)
        except ValueError:
            raise ApiError(method, path, status, 'the answer is not valid JSON: %s'
                           % self._scrub(_snippet(text))) from None

    def _error_message(self, response, text):
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if isinstance(data, dict) and data.get('message'):
            message = str(data['message'])
        elif text.strip():
            message = _snippet(text)
        else:
            message = response.reason or 'no message'
        if response.status_code == 401:
            message += ' (check api_token)'
        elif response.status_code == 403:
            message += ' (the token\'s user lacks the permission for this operation)'
        return self._scrub(message)
