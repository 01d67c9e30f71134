# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""HTTP client for the management API: auth header, timeouts, TLS, retries, clear errors."""

from __future__ import annotations

import gc
import html
import json
import math
import os
import re
import socket
import ssl
import threading
import traceback

from functools import partialmethod
from itertools import chain, repeat
from types import SimpleNamespace
from urllib.parse import quote, urlsplit

from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._secrets import mask_secrets
from ansible_collections.nms.overlay.plugins.module_utils._time import http_time, sleep as clock_sleep, wall_time

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


def collection_version():
    """The collection's version: from MANIFEST.json (an installed collection) or galaxy.yml (a source tree),
    so that galaxy.yml is the only place it is written; None where neither is at hand (a module's zip)."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    try:
        with open(os.path.join(root, 'MANIFEST.json'), encoding='utf-8') as stream:
            return str(json.load(stream)['collection_info']['version'])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    try:
        with open(os.path.join(root, 'galaxy.yml'), encoding='utf-8') as stream:
            for line in stream:
                found = re.match(r'version:\s*[\'"]?([^\'"\s#]+)', line)
                if found:
                    return found.group(1)
    except OSError:
        pass
    return None


COLLECTION_VERSION = collection_version()
USER_AGENT = 'nms.overlay%s (Ansible collection)' % ('/' + COLLECTION_VERSION if COLLECTION_VERSION else '')


class ErrorPattern:
    """A regular expression that reads error texts, compiled when first used (then kept in ``re``'s cache): a module
    process starts with none of them compiled, which would otherwise cost milliseconds of every run."""

    __slots__ = ('pattern', 'flags')

    def __init__(self, pattern, flags=0):
        self.pattern = pattern
        self.flags = flags

    def search(self, text):
        return re.search(self.pattern, text, self.flags)

    def match(self, text):
        return re.match(self.pattern, text, self.flags)


# Statuses that mean "try again later" and are safe to repeat for idempotent methods.
RETRY_STATUSES = frozenset((429, 502, 503, 504))
IDEMPOTENT_METHODS = frozenset(('GET', 'PUT', 'DELETE'))
MAX_RETRY_AFTER = 60.0
MAX_BACKOFF = 10.0
# HTTP 429: a server's rate limit (NetBird's NB_API_RATE_LIMITING_ENABLED: a bucket of 500 requests per token, refilled
# at 6 a minute). It refused the request without acting on it, so waiting it out always succeeds unless the limit
# never refills: a 429 is tried again whatever ``retries`` says, until one request (or create) has waited this long
RATE_LIMIT_PATIENCE = 600.0
# without Retry-After (NetBird sends none) the wait starts here and doubles while the server still refuses, up to one
# refill of NetBird's default limit (a request every 10 s); it is kept for the next 429, so that a build which emptied
# the bucket waits about one refill per request instead of trying again every half second
RATE_LIMIT_FIRST_WAIT = 0.5
RATE_LIMIT_REFILL = 10.0
# rate-limit waits are told (as a warning) on the first, then once this many seconds of waiting have passed since
RATE_LIMIT_TELL_EVERY = 60.0
MAX_TIMEOUT = 86400.0
SNIPPET_LENGTH = 200
BODY_CHUNK = 1 << 20  # bytes read at a time: requests' own 10 KB took 2,000 reads for a list of 25,000 peers
# what may travel unencoded in a path segment (RFC 3986 pchar without '%', so that '%' is encoded too)
PATH_SAFE = "-._~!$&'()*+,;=:@"
# a path that quote_path leaves as it is (the common case: a list, or an object by its id), not split and quoted again
_PLAIN_PATH_RE = re.compile(r'[-A-Za-z0-9_~/]*\Z')
PERMISSION_RE = ErrorPattern(r'admin power|permission|not allowed|forbidden|blocked', re.IGNORECASE)
TOKEN_RE = re.compile(r'^[\x21-\x7e]+\Z')


class ConfigError(TaskError):
    """A connection option that cannot work (raised before any request; the message names the option)."""


class ApiError(Exception):
    """A failed API call. The message names method, URL (else the API path) and status, never the token."""

    def __init__(self, method, path, status, message, retry_after=None, url=None):
        self.method = method
        self.path = path
        self.status = status
        self.message = message
        self.retry_after = retry_after  # seconds the server asked to wait before another call, if it said
        self.url = url  # the full URL requested, without credentials or query
        super().__init__(str(self))

    def __str__(self):
        where = self.url or self.path
        if self.status is None:
            return '%s %s failed: %s' % (self.method, where, self.message)
        return '%s %s failed with HTTP %s: %s' % (self.method, where, self.status, self.message)


def url_problem(value, example='https://nms.example.com'):
    """Why ``value`` is no full http(s) URL (a scheme, a host, a port of 1 to 65535 if any, no blank in it), as a rule
    naming ``example``; None when it is one. A user and password in it are never quoted (https://user:KEY@host)."""
    text = str(value)
    try:
        parts = urlsplit(text)
        host = parts.hostname
        port = parts.port  # raises ValueError when out of range or not a number
    except ValueError:
        parts = host = port = None
    if parts is None or parts.scheme not in ('http', 'https') or not host or port == 0 or any(char.isspace() for char in text):
        shown = re.sub(r'//[^/?#]*@', '//***@', text, count=1)
        return "must be a full http(s) URL such as %s (a scheme and a host), not '%s'" % (example, shown[:100])
    return None


def api_roots(api_url):
    """(the part of api_url before /api, with or without a trailing /api given; the same for messages:
    scheme://host:port/prefix, the port always written, credentials never)."""
    url = (api_url or '').strip().rstrip('/')
    if url.endswith('/api'):
        url = url[:-4]
    parts = urlsplit(url)
    host = parts.hostname or ''
    if ':' in host:
        host = '[%s]' % host
    port = parts.port or (443 if parts.scheme == 'https' else 80)
    return url, '%s://%s:%d%s' % (parts.scheme, host, port, parts.path)


def _snippet(text):
    """A short, tag-free, single-line excerpt of a non-JSON body for an error message, its HTML entities read (the
    caller masks the secrets first, in every form: _secrets.mask_secrets)."""
    text = html.unescape(re.sub(r'<[^>]*>', ' ', text or ''))
    text = ' '.join(text.split())
    if len(text) > SNIPPET_LENGTH:
        text = text[:SNIPPET_LENGTH] + '...'
    return text


def _unreadable(status, text, exc, scrub):
    """What to say of a body that is not JSON. An error page is quoted (its words explain it); a success answer that
    starts as JSON is not: cut off, it may hold a secret the server made for the task (a setup key, a token), which
    no mask knows, so only where it breaks is told."""
    if status < 400 and text.lstrip()[:1] in ('{', '['):
        return ('the answer is not valid JSON (%s: character %d of %d); its text is not shown, as a successful '
                'answer may hold a secret' % (getattr(exc, 'msg', 'unreadable').lower(), getattr(exc, 'pos', 0) or 0,
                                              len(text)))
    return 'the answer is not valid JSON: %s' % _snippet(scrub(text))


def quote_path(path):
    """Percent-encode each segment of an API path, so that a value never adds a query, a fragment or a '..'."""
    segments = []
    for segment in (path or '').split('/'):
        if segment in ('.', '..'):
            segments.append(segment.replace('.', '%2E'))
        else:
            segments.append(quote(segment, safe=PATH_SAFE))
    return '/'.join(segments)


def _check_ca_file(ca_path):
    """Raise ConfigError when ca_path is a file without a CA certificate in PEM form (a directory is left to OpenSSL)."""
    if os.path.isdir(ca_path):
        return
    try:
        ssl.create_default_context(cafile=ca_path)
    except ssl.SSLError:
        raise ConfigError('option ca_path: %s holds no certificate in PEM form (the file must contain the CA '
                          'certificate, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----)' % ca_path) from None
    except (OSError, ValueError) as exc:
        raise ConfigError('option ca_path: %s cannot be read: %s' % (ca_path, exc)) from None


_SSL_REASON_RE = ErrorPattern(r"\[(?:SSL|X509)(?:: [A-Z0-9_]+)?\] (.+?)\.?\s*(?:\(_ssl\.c:\d+\)|['\"]\)|$)")
_POOL_RE = ErrorPattern(r"^\w+ConnectionPool\(host=[^)]*\): Max retries exceeded with url: \S+ \(Caused by (.*)\)$", re.S)
_CLOSED_RE = ErrorPattern(r'Remote end closed connection without response|RemoteDisconnected')
_RESET_RE = ErrorPattern(r'Connection reset by peer')
_REASONS = (
    (_CLOSED_RE, 'the server closed the connection without answering'),
    (_RESET_RE, 'the server reset the connection'),
    (ErrorPattern(r'Connection refused'), 'connection refused (is api_url right and the server running?)'),
    (ErrorPattern(r'Name or service not known|Temporary failure in name resolution|nodename nor servname'),
     'the host name of api_url does not resolve'),
    (ErrorPattern(r'Connection aborted'), 'the connection was aborted'),
)
_INCOMPLETE_RE = ErrorPattern(r'IncompleteRead\((\d+) bytes read, (\d+) more expected\)')
# what OpenSSL says when the other end answers a TLS handshake with something else (plain http)
_NOT_TLS_RE = ErrorPattern(r'WRONG_VERSION_NUMBER|wrong version number|record layer failure|packet length too long|'
                           r'unknown protocol|http request', re.IGNORECASE)
_MISMATCH_RE = ErrorPattern(r"""(?:Hostname|IP address) mismatch, certificate is not valid for ['"]([^'"]*)['"]""")
# certificate refusals (OpenSSL's verify errors): of Python 3.13's strict checks (VERIFY_X509_STRICT), of an issuer
# that no trusted CA vouches for, of dates
_STRICT_RE = ErrorPattern(r'key usage|keyCertSign|Basic Constraints|not marked critical|Key Identifier|'
                          r'not self-signed|empty subject|Subject empty', re.IGNORECASE)
_UNKNOWN_ISSUER_RE = ErrorPattern(r'unable to get (?:local )?issuer certificate|self[- ]signed certificate|'
                                  r'unable to verify the first certificate', re.IGNORECASE)
_DATES_RE = ErrorPattern(r'certificate has expired|certificate is not yet valid', re.IGNORECASE)
# what Go's and nginx's TLS servers answer to a plain http request
_WANTS_HTTPS_RE = ErrorPattern(r'HTTPS server|HTTPS port', re.IGNORECASE)


def _transport_reason(exc):
    """The useful part of a requests/urllib3 error text (without pool and retry noise)."""
    text = str(exc)
    found = _SSL_REASON_RE.search(text)
    if found:
        return found.group(1).strip()
    for pattern, reason in _REASONS:
        if pattern.search(text):
            return reason
    found = _POOL_RE.match(text)
    if found:
        return found.group(1)[:SNIPPET_LENGTH]
    return text[:SNIPPET_LENGTH]


def describe_shape(data):
    """What a JSON answer is, for an error message (without its content, which may hold secrets)."""
    if isinstance(data, list):
        return 'a list'
    return {dict: 'an object', str: 'a string', bool: 'a boolean', type(None): 'null'}.get(type(data), 'a number')


# The JSON types a field of an answer may have (null is accepted for every one: servers send null for empty
# values). Which field has which is declared by the kinds (their fields and ``answers``, see _kinds.answer_types, written to _tables.py)
# and by the modules that read other answers (events, locations); code that reads an answer relies on these types,
# so an answer that breaks them fails as an API error here rather than as a TypeError deep in a module.
TEXT, NUMBER, FLAG, LIST, OBJECT = 'a string', 'a number', 'a boolean', 'a list', 'an object'
FREE_FORM = 'an object of any members'  # an object not looked into (an event's meta)
_JSON_TYPES = {TEXT: (str,), NUMBER: (int, float), FLAG: (bool,), LIST: (list,), OBJECT: (dict,), FREE_FORM: (dict,)}


class _Absent:
    """What _fits reads for a member an object does not have: its class tells it apart from null."""


_ABSENT = _Absent()
# the classes json.loads gives each type (exact: a bool is no number here), with null and an absent member, which every
# field may be
_HELD = {kind: frozenset(classes + (type(None), _Absent)) for kind, classes in (
    (TEXT, (str,)), (NUMBER, (int, float)), (FLAG, (bool,)), (LIST, (list,)), (OBJECT, (dict,)), (FREE_FORM, (dict,)))}


def _item_label(where, index, item):
    """How a message names an item of a list: its place, and its name and id when it has them as text."""
    label = '%s[%d]' % (where, index)
    if isinstance(item, dict):
        name, ident = item.get('name'), item.get('id')
        known = ["name '%s'" % name if isinstance(name, str) and name else '',
                 'id %s' % ident if isinstance(ident, (str, int)) and not isinstance(ident, bool) else '']
        if any(known):
            label += ' (%s)' % ', '.join(part for part in known if part)
    return label


def _place(where):
    """The words for a place in an answer that field_problem keeps as steps: (outer, name) for a member, (outer, index,
    item) for an item of a list, None for the answer itself. Built from the answer inwards, without recursion."""
    steps = []
    while where is not None:
        steps.append(where)
        where = where[0]
    text = ''
    for step in reversed(steps):
        if len(step) == 2:
            text = '%s.%s' % (text, step[1]) if text else step[1]
        else:
            text = _item_label(text, step[1], step[2])
    return text


def field_problem(data, types):
    """The first field of an answer whose JSON type is not the one ``types`` ({field name: type}) gives it, in words,
    or None.

    Looks into the top-level list or object, the objects of lists, and the members of known fields (a policy's
    rules and their sources...), without recursion, so that nesting of any depth costs no stack. The answer is first
    checked without keeping where anything is (_fits: a list of 25,000 peers in a tenth of a second); only an answer
    with a problem is walked again to put its place in words (_place)."""
    if _fits(data, types):
        return None
    pending = [(None, data)]
    while pending:
        where, value = pending.pop()
        if isinstance(value, list):
            pending.extend(((where, index, item), item) for index, item in reversed(list(enumerate(value)))
                           if isinstance(item, (dict, list)))
            continue
        if not isinstance(value, dict):
            continue
        for name, member in value.items():
            expected = types.get(name)
            if expected is None or member is None:
                continue
            if not isinstance(member, _JSON_TYPES[expected]) or (expected == NUMBER and isinstance(member, bool)):
                return 'its field %s is %s where %s was expected' % (_place((where, name)), describe_shape(member),
                                                                     OBJECT if expected == FREE_FORM else expected)
            if expected in (LIST, OBJECT):
                pending.append(((where, name), member))
    return None


def _fits(data, types):
    """Whether every known field of an answer has its type (field_problem's rules, without the places).

    The objects of a list are checked a field at a time: a field's classes in all of them are one set
    (``set(map(type, ...))``), so that a list of 25,000 peers costs a few dozen passes that run in C rather than a
    Python loop over its half a million members; the members of known lists and objects are gathered from all of them
    into one list, checked the same way. The names looked at are the first object's, unless another object has a
    different number of members or lacks one of them: then every object's."""
    pending = [data]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            objects = [value]
        elif isinstance(value, list):  # (filtered in C: a Python loop over 25,000 peers would cost more than the check)
            objects = list(filter(dict.__instancecheck__, value))
            if len(objects) < len(value):
                pending.extend(filter(list.__instancecheck__, value))
        else:
            continue
        names = list(objects[0]) if objects else []
        every_name = len(objects) <= 1
        if not every_name and len(set(map(len, objects))) > 1:
            names, every_name = list(set().union(*objects)), True
        for name in names:
            classes = set(map(type, map(dict.get, objects, repeat(name), repeat(_ABSENT))))
            if _Absent in classes and not every_name:  # an object lacks a name of the first, so it has one of its own
                names.extend(set().union(*objects).difference(names))  # looked at by this loop in turn
                every_name = True
            expected = types.get(name)
            if expected is None:
                continue
            if not classes <= _HELD[expected]:
                return False
            if expected in (LIST, OBJECT):
                held = filter(None, map(dict.get, objects, repeat(name)))  # neither null nor empty
                pending.append(list(chain.from_iterable(held) if expected == LIST else held))
    return True


def _seconds(value):
    """A number of seconds as a person writes it: 2, 0.5, 28.7."""
    return '%g' % round(value, 1)


class _BodyError(Exception):
    """The status line and headers arrived, the body did not (cut off, reset or too slow)."""

    def __init__(self, response, cause):
        super().__init__(str(cause))
        self.response = response
        self.cause = cause


class _DeadlineError(Exception):
    """The request did not end within the timeout; ``response`` is set when the status line and headers had arrived."""

    def __init__(self, response):
        super().__init__('deadline')
        self.response = response


def _exchange(session, method, url, options, exchange):
    """One try of a request and the reading of its answer, run in a thread of its own (see Client.request), so that
    the caller can stop waiting at a deadline: the read timeout of the socket only bounds each read, and a server that
    sends a byte now and then would otherwise hold the task as long as it likes. ``exchange`` gets ``response`` once
    the status line and headers have arrived, then ``body`` and ``outcome``: (the response, None) or (None, what was
    raised); then ``done`` is set."""
    try:
        exchange.response = session.request(method, url, **options)
        try:
            # as requests' Response.content reads it (the same errors), but a megabyte at a time, not 10 KB
            exchange.body = b''.join(exchange.response.iter_content(BODY_CHUNK))
        except Exception as exc:  # pylint: disable=broad-except
            if not _is_transport_error(exc):
                raise
            exchange.response.close()
            raise _BodyError(exchange.response, exc) from None
        exchange.outcome = (exchange.response, None)
    except BaseException as exc:  # pylint: disable=broad-except  # handed to the waiting caller
        exchange.outcome = (None, exc)
    finally:
        exchange.done.set()


def _abandon(response):
    """Shut the connection of a request given up at its deadline, so that its thread stops reading (best effort; it is
    a daemon either way)."""
    connection = getattr(getattr(response, 'raw', None), 'connection', None)
    sock = getattr(connection, 'sock', None)
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _is_transport_error(exc):
    """Whether requests raised ``exc`` (it raises many kinds of its own), as opposed to a bug."""
    return req_exc is not None and isinstance(exc, req_exc.RequestException)


def _may_retry_transport(method, exc):
    """Whether a call that failed in transport with ``exc`` may be sent again."""
    if isinstance(exc, (req_exc.SSLError, req_exc.InvalidURL, req_exc.InvalidSchema, req_exc.MissingSchema,
                        req_exc.InvalidHeader)):
        return False  # the same call fails the same way again
    if method in IDEMPOTENT_METHODS:
        return True
    # A POST may repeat only when the connection was never made, so the server cannot have it.
    return isinstance(exc, req_exc.ConnectTimeout) or (
        isinstance(exc, req_exc.ConnectionError) and 'NewConnectionError' in repr(exc))


def _verify_hint(refusal, ca_path):
    """What to do about a certificate the verification refused: it depends on whether ca_path is set and on
    what the refusal was (an unknown issuer, Python's strict checks of the CA, the dates)."""
    if _STRICT_RE.search(refusal):
        where = ('the CA in ca_path (%s)' % ca_path) if ca_path else 'a CA of the chain'
        return ('%s breaks the strict certificate checks of Python 3.13 and later (a CA certificate needs the key '
                'usage extension with keyCertSign and critical basicConstraints): reissue the CA certificate with '
                'them%s, or validate_certs=false to skip verification'
                % (where, '' if not ca_path else ' (another ca_path does not help)'))
    if _UNKNOWN_ISSUER_RE.search(refusal):
        if ca_path:
            return ('the server certificate is not signed by a CA in ca_path (%s): set ca_path to the CA that '
                    'signed it, or validate_certs=false to skip verification' % ca_path)
        return ('set ca_path to the CA that signed the server certificate, or validate_certs=false to skip '
                'verification')
    if _DATES_RE.search(refusal):
        return ('the server certificate is outside its validity dates (or this host\'s clock is wrong): renew it%s'
                % ('' if not ca_path else ' (ca_path does not change this)'))
    if ca_path:
        return ('the certificate was refused although ca_path (%s) is set; check the server certificate and '
                'that it was signed by a CA in ca_path, or validate_certs=false to skip verification' % ca_path)
    return ('set ca_path to the CA that signed the server certificate, or validate_certs=false to skip '
            'verification')


def _tls_reason(exc, client):
    """A TLS failure of the client's request in words that point at its cause: the URL's host, the CA, or a server
    without TLS."""
    text = str(exc)
    mismatch = _MISMATCH_RE.search(text)
    if mismatch:
        return ('TLS error: the server certificate is not valid for %s, the host in api_url; use a host name '
                '(or address) the certificate was issued for (ca_path does not change this)'
                % client.scrub(mismatch.group(1)))
    if _NOT_TLS_RE.search(text):
        return ('TLS error: the server at %s does not speak TLS (%s); if it serves plain http, use an http:// '
                'URL in api_url' % (client.shown_root, client.scrub(_transport_reason(exc))))
    refusal = client.scrub(_transport_reason(exc))
    reason = 'TLS error (%s)' % refusal
    if 'CERTIFICATE_VERIFY_FAILED' in text and client.validate_certs:
        reason += '; ' + _verify_hint(refusal, client.ca_path)
    return reason


def _retry_after_seconds(response, now=wall_time):
    """Retry-After as seconds (it may be a number of seconds or an HTTP date), capped; None when absent or unreadable."""
    value = (response.headers.get('Retry-After') or '').strip() if response is not None else ''
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        moment = http_time(value)
        if moment is None:
            return None
        seconds = moment - now()
    if math.isnan(seconds):
        return None
    return min(max(seconds, 0.0), MAX_RETRY_AFTER)


class ShapedReads:
    """Reads whose answer must have a shape (a list of objects, one object), on top of ``get``.

    A wrong shape fails with method, URL and what arrived, rather than breaking later code."""

    # the Date header of the latest answer (the server's clock when it answered), None when unknown
    answer_date = None

    def url_for(self, path):
        """The full URL of an API path, for messages (None where there is no server, as in tests)."""
        return None

    def answer_error(self, method, path, message):
        """The ApiError for a success answer (HTTP 200) that is not what the call needs."""
        return ApiError(method, path, 200, message, url=self.url_for(path))

    def get_list(self, path, query=None):
        """A GET whose answer must be a list of objects (null is an empty list)."""
        data = self.get(path, query=query)
        if data is None:
            return []
        if not isinstance(data, list):
            raise self.answer_error('GET', path, 'the answer is %s where a list of objects was expected'
                                    % describe_shape(data))
        if not all(isinstance(item, dict) for item in data):
            raise self.answer_error('GET', path, 'the answer is a list, but not of objects')
        return data

    def get_object(self, path, query=None):
        """A GET whose answer must be one object (unwrapped from {"items": {...}}, which some servers send)."""
        data = self.get(path, query=query)
        if isinstance(data, dict) and isinstance(data.get('items'), dict):
            data = data['items']
        if not isinstance(data, dict):
            raise self.answer_error('GET', path, 'the answer is %s where an object was expected' % describe_shape(data))
        return data


def _describe_transport(client, exc):
    """What went wrong in transport (requests' ``exc``) for an error of ``client``, the token masked."""
    if isinstance(exc, req_exc.SSLError):
        reason = _tls_reason(exc, client)
    elif isinstance(exc, req_exc.Timeout):
        reason = 'no answer within the timeout of %s s' % _seconds(client.timeout)
    elif isinstance(exc, req_exc.ConnectionError):
        reason = 'connection failed: %s' % client.scrub(_transport_reason(exc))
        if client.scheme == 'http' and (_CLOSED_RE.search(str(exc)) or _RESET_RE.search(str(exc))):
            reason += ' (if the server speaks https, use an https:// URL in api_url)'
    else:
        reason = client.scrub(_transport_reason(exc))
    return reason


class RateLimitWaits:
    """How one client waits out a server's rate limit (HTTP 429): as the server asked (Retry-After), else its current
    wait, doubled (up to RATE_LIMIT_REFILL) when a request is refused again after waiting. The waits are told on the
    first and then once a minute of waiting (a build past the limit waits before most requests), with what the task
    has left to do (``work_left``)."""

    # (class attributes, not an __init__: a task that meets no rate limit runs no function of it)
    # a function that says what the task has left to do ('120 of 700 resources left'), named when a rate limit makes
    # it wait (network_state sets it); None: nothing to say
    work_left = None
    wait = RATE_LIMIT_FIRST_WAIT  # the next wait for a 429 without Retry-After
    waited = 0.0  # seconds waited for 429s in all
    told = None  # ``waited`` when a wait was last told

    def pause(self, cause, retry_after, limited, notify, sleep):
        """Wait before a request refused with 429 (``cause``) is sent again (``limited``: what that request waited for
        the limit so far), telling ``notify`` unless it was told less than a minute of waiting ago. Returns the seconds
        charged to the request's RATE_LIMIT_PATIENCE (at least RATE_LIMIT_FIRST_WAIT, so that a server asking for no
        wait at all still ends); raises ``cause`` instead once the request has waited that long."""
        if limited >= RATE_LIMIT_PATIENCE:
            cause.message += ' (still refused after %s s of waiting for the rate limit, the most one request waits)' % (
                _seconds(limited))
            raise cause
        if retry_after is None:
            if limited:  # refused again after a wait: the limit refills more slowly than that
                self.wait = min(self.wait * 2, RATE_LIMIT_REFILL)
            wait = self.wait
            how = 'for the server\'s rate limit to let another request through (it sent no Retry-After)'
        else:
            wait = retry_after
            how = 'as the server asked (Retry-After)'
        if self.told is None or self.waited - self.told >= RATE_LIMIT_TELL_EVERY:
            self.told = self.waited
            left = self.work_left() if self.work_left is not None else None
            notify('%s; waiting %s s %s, then sending it again (rate limit: %s s waited for it so far, at most %d s '
                   'for one request; a 429 does not count against retries)%s' % (
                       cause, _seconds(wait), how, _seconds(self.waited), RATE_LIMIT_PATIENCE,
                       '; %s' % left if left else ''))
        sleep(wait)
        self.waited += wait
        return max(wait, RATE_LIMIT_FIRST_WAIT)


class Client(ShapedReads):
    """Talks to {api_url}/api with a personal access token.

    ``timeout`` bounds each try of a request as a whole (connect, send, answer and body); a request makes
    at most ``retries`` + 1 tries, with a pause between them. ``notify`` (a function taking a message) is
    told of every retry and wait, which would otherwise look like a hang. ``secrets``: the values the task sends that
    must never show (its no_log options', its write-only ones): masked, with the token, in every message."""

    def __init__(self, api_url, api_token, validate_certs=True, ca_path=None, timeout=30.0,
                 retries=3, backoff=0.5, sleep=clock_sleep, session=None, notify=None, answer_types=None, authenticated=True,
                 secrets=()):
        """Raises ConfigError naming the option when a connection option cannot work. ``answer_types``: the JSON type of each field
        answers may carry ({name: TEXT, ...}; see field_problem). ``authenticated`` false: no token checked or sent (the setup)."""
        if not HAS_REQUESTS:
            raise RuntimeError('the requests library is required')
        # the connection options, checked before any request: a ConfigError names the one that cannot work
        url = (api_url or '').strip() if isinstance(api_url, str) else ''
        if not url:
            raise ConfigError('option api_url: it is not set or empty (set api_url or the environment variable NMS_API_URL)')
        problem = url_problem(url)
        if problem:
            raise ConfigError('option api_url: %s (set api_url or NMS_API_URL)' % problem)
        parts = urlsplit(url)
        if parts.query or parts.fragment:
            raise ConfigError('option api_url: the URL must not have a query or a fragment')
        if authenticated and (not isinstance(api_token, str) or not api_token.strip()):
            raise ConfigError('option api_token: it is not set or empty (set api_token or the environment variable '
                              'NMS_API_TOKEN)')
        if authenticated and not TOKEN_RE.match(api_token):
            raise ConfigError('option api_token: the token has spaces, control or non-ASCII characters '
                              '(the value is not shown; check for a stray newline or quote)')
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not math.isfinite(timeout) \
                or not 0 < timeout <= MAX_TIMEOUT:
            raise ConfigError('option timeout: %r is not a number of seconds greater than 0 and at most %d'
                              % (timeout, MAX_TIMEOUT))
        if validate_certs and ca_path:
            if not os.path.exists(ca_path):
                raise ConfigError('option ca_path: %s does not exist' % ca_path)
            if not os.access(ca_path, os.R_OK):
                raise ConfigError('option ca_path: %s cannot be read' % ca_path)
            _check_ca_file(ca_path)
        self.root, self.shown_root = api_roots(api_url)
        self.scheme = urlsplit(self.root).scheme
        self._token = api_token
        self._secrets = frozenset(secrets or ()) | ({api_token} if isinstance(api_token, str) and api_token else set())
        self.timeout = timeout
        try:
            self.retries = max(int(retries), 0)
        except (TypeError, ValueError):
            raise ConfigError('option retries: %r is not a whole number' % (retries,)) from None
        self.backoff = backoff
        self._sleep = sleep
        self._notify = notify or (lambda message: None)
        self.rate_limit = RateLimitWaits()
        self.answer_types = answer_types or {}
        self.validate_certs = bool(validate_certs)
        self.request_count = 0
        self.session = session or requests.Session()
        self.session.headers.update({'Accept': 'application/json', 'User-Agent': USER_AGENT})
        if authenticated:  # the instance's setup comes before any token exists
            self.session.headers['Authorization'] = 'Token %s' % api_token
        # The environment is read once, here, rather than by requests on every call (trust_env): the proxies of
        # HTTP_PROXY, HTTPS_PROXY and NO_PROXY, and a CA bundle (REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE) where no ca_path is
        # set, as requests takes them; never a ~/.netrc, whose login requests would send in place of the token. Each
        # request of a task in a fresh worker is faster for it too.
        self.session.trust_env = False
        self.proxies = requests.utils.get_environ_proxies(self.root)
        self.verify = bool(validate_certs) and (ca_path or os.environ.get('REQUESTS_CA_BUNDLE')
                                                or os.environ.get('CURL_CA_BUNDLE') or True)
        self.ca_path = ca_path if validate_certs and ca_path else None
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

    def url_for(self, path):
        return '%s/api%s' % (self.shown_root, quote_path(path))

    def request(self, method, path, body=None, query=None):
        """Send one call, retrying where that is safe, and return the decoded JSON ({} when empty). Each try runs in
        a thread of its own (_exchange), which this one waits for no longer than the timeout."""
        quoted = path if path and _PLAIN_PATH_RE.match(path) else quote_path(path)
        url = '%s/api%s' % (self.root, quoted)
        shown = '%s/api%s' % (self.shown_root, quoted)  # url_for(path), for messages
        options = {'timeout': self.timeout, 'allow_redirects': False, 'stream': True, 'verify': self.verify,
                   'proxies': self.proxies}
        if query:
            options['params'] = query
        if body is not None:
            options['data'] = json.dumps(body)
            options['headers'] = {'Content-Type': 'application/json'}
        attempt = tries = limited = 0  # limited: seconds this request waited for 429s (which are not retries)
        while True:
            tries += 1
            self.request_count += 1
            # The body is read in the thread too, so that a body cut short is told apart from a call that got no answer.
            exchange = SimpleNamespace(response=None, body=b'', outcome=None, done=threading.Event())
            threading.Thread(target=_exchange, args=(self.session, method, url, options, exchange),
                             name='nms.overlay request', daemon=True).start()
            try:
                if not exchange.done.wait(self.timeout):
                    _abandon(exchange.response)
                    raise _DeadlineError(exchange.response)
                response, failure = exchange.outcome
                if failure is not None:
                    raise failure
            except (_BodyError, _DeadlineError) as exc:
                if exc.response is None:  # no answer at all within the timeout
                    error = ApiError(method, path, None, 'no answer within the timeout of %s s' % _seconds(self.timeout), url=shown)
                else:  # the server answered (and so acted on the call): only an idempotent call may repeat
                    error = ApiError(method, path, exc.response.status_code, self._describe_body_error(exc), url=shown)
                repeatable = method in IDEMPOTENT_METHODS
            except Exception as exc:  # requests raises many kinds; classify below
                if not _is_transport_error(exc):
                    raise
                error = ApiError(method, path, None, _describe_transport(self, exc), url=shown)
                repeatable = _may_retry_transport(method, exc)
            else:
                status = response.status_code
                self.answer_date = response.headers.get('Date')
                # JSON is UTF-8 (RFC 8259) unless the server names a charset: never let requests guess one by
                # scanning the whole body, which takes seconds on a list of thousands of peers.
                text = exchange.body.decode(getattr(response, 'encoding', None) or 'utf-8', errors='replace')
                blank = text.isspace() or not text  # (text.strip() would copy a list of 25,000 peers to say no)
                data = unreadable = None
                if not blank:
                    # The cyclic garbage collector is paused: an answer nested deeply enough to exhaust the stack raises
                    # RecursionError (reported as an API error), but a collection starting in the middle of such a parse
                    # would run other objects' finalizers with no stack left, and they would fail in turn.
                    collecting = gc.isenabled()
                    gc.disable()
                    try:
                        data = json.loads(text)
                    except RecursionError:
                        unreadable = 'the answer is JSON nested too deeply to read'
                    except ValueError as exc:
                        unreadable = _unreadable(status, text, exc, self.scrub)
                    finally:
                        if collecting:
                            gc.enable()
                if status in RETRY_STATUSES:
                    error = self._http_error(method, path, shown, response, text, data)
                    # A POST that got an answer is never sent again here, not even after a 429: whether and how a
                    # create may be repeated is decided by the engine, which first reads back what exists.
                    repeatable = method in IDEMPOTENT_METHODS
                elif 300 <= status < 400:
                    raise ApiError(method, path, status, 'the server redirected to %r; redirects are not followed so '
                                                         'that the token is never sent elsewhere (check api_url)'
                                   % response.headers.get('Location', ''), url=shown)
                elif status >= 400:
                    raise self._http_error(method, path, shown, response, text, data)
                elif blank:
                    if method == 'GET' and status != 202:  # 202: accepted, done later (a domain's validation)
                        raise ApiError(method, path, status, 'the answer is empty where JSON was expected', url=shown)
                    return {}
                elif unreadable:
                    raise ApiError(method, path, status, unreadable, url=shown)
                else:
                    problem = field_problem(data, self.answer_types)
                    if problem:
                        raise ApiError(method, path, status, 'the answer is not what the API sends: %s' % problem,
                                       url=shown)
                    return data
            if repeatable and error.status == 429:  # waited out, not a retry (RateLimitWaits.pause: for how long)
                limited += self.pause(attempt, error.retry_after, cause=error, limited=limited)
                continue
            attempt += 1
            if not repeatable or attempt > self.retries:
                if tries > 1 or repeatable:
                    error.message += ' (%s, retries=%d)' % ('1 try' if tries == 1 else '%d tries' % tries, self.retries)
                raise error
            self.pause(attempt, error.retry_after, cause=error)

    # get(path, query=None), post(path, body=None), put(path, body=None), delete(path): request with that method
    get = partialmethod(request, 'GET')
    post = partialmethod(request, 'POST')
    put = partialmethod(request, 'PUT')
    delete = partialmethod(request, 'DELETE')

    def pause(self, attempt, retry_after=None, cause=None, limited=0.0):
        """Wait before attempt number attempt + 1: what the server asked for, else an exponential backoff (a 429: see
        RateLimitWaits.pause), told to notify first with its cause (an ApiError), never like a hang. Returns the wait."""
        if cause is not None and getattr(cause, 'status', None) == 429:
            return self.rate_limit.pause(cause, retry_after, limited, self._notify, self._sleep)
        tries = '%d of %d' % (attempt + 1, self.retries + 1)
        if retry_after is None:
            wait = min(self.backoff * (2 ** (attempt - 1)), MAX_BACKOFF)
            notice = 'trying again in %s s (try %s, retries=%d)' % (_seconds(wait), tries, self.retries)
        else:
            wait = retry_after
            notice = 'waiting %s s as the server asked (Retry-After), then try %s (retries=%d)' % (
                _seconds(wait), tries, self.retries)
        self._notify('%s; %s' % (cause, notice) if cause is not None else notice[0].upper() + notice[1:])
        self._sleep(wait)
        return wait

    # -- internals --------------------------------------------------------------------------------
    def _describe_body_error(self, exc):
        if isinstance(exc, _DeadlineError) or isinstance(exc.cause, req_exc.Timeout):
            return 'the answer did not arrive in full within the timeout of %s s' % _seconds(self.timeout)
        found = _INCOMPLETE_RE.search(str(exc.cause))
        if found:
            got, more = int(found.group(1)), int(found.group(2))
            return 'the answer was cut off after %d of %d bytes' % (got, got + more)
        return 'the answer was cut off before its end (%s)' % self.scrub(_transport_reason(exc.cause))

    def scrub(self, text):
        """The text with the token and the task's secrets masked, in every form an answer may quote them
        (_secrets.mask_secrets)."""
        return mask_secrets(text, self._secrets)

    def _http_error(self, method, path, shown, response, text, data):
        return ApiError(method, path, response.status_code, self._error_message(response, text, data),
                        _retry_after_seconds(response), url=shown)

    def _error_message(self, response, text, data):
        """The message of an error answer (``data``: its JSON, None when it has none): the API's own, else the body's
        text, else the reason phrase; with what to check where the status says it."""
        from_api = isinstance(data, dict) and data.get('message')
        if from_api:
            message = str(data['message'])
        elif text.strip():
            message = _snippet(self.scrub(text))  # masked before it is cut: a secret cut in two is masked too
        else:
            message = response.reason or 'no message'
        status = response.status_code
        if status == 403 or (status == 401 and PERMISSION_RE.search(message)):
            # (a real server answers 401 to a regular user reading setup keys: that is a permission too)
            message = 'forbidden: %s (the token\'s user lacks the permission for this operation)' % message
        elif status == 401:
            message += ' (check api_token)'
        elif status == 404 and not from_api:
            # the API answers an unknown id with a JSON message; anything else means the URL is not the API
            message += ' (there is no API at this URL: check api_url, the server\'s address such as ' \
                       'https://nms.example.com, with or without /api)'
        elif status == 400 and self.scheme == 'http' and _WANTS_HTTPS_RE.search(message):
            message += ' (the server speaks https: use an https:// URL in api_url)'
        return self.scrub(message)
