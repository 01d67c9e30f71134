# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""nms.overlay.audit_events: an ansible-rulebook event source that polls the audit log of a NetBird management
server and puts each new event on the queue once, oldest first.

It runs inside ansible-rulebook's Python, not inside Ansible: it imports nothing of ansible-core or of the collection.
HTTP is the standard library's urllib, one request per poll in a worker thread (asyncio.to_thread): no library to
install in a decision environment, and a poll every few seconds needs no connection pool.
"""

from __future__ import annotations

DOCUMENTATION = r'''
---
short_description: Receive the events of a NetBird audit log
description:
  - Polls the audit log of a NetBird management server (C(GET /api/events/audit) on servers from v0.77 on,
    C(GET /api/events) on older ones; the path is found on the first poll) and puts each new event on the
    queue once, oldest first.
  - Each event is a dictionary with the one key C(audit), whose value has the keys of nms.overlay.event_info's events
    (C(id) as a string, C(timestamp), C(activity), C(activity_code), C(initiator_id), C(initiator_name),
    C(initiator_email), C(target_id), C(meta) with string values).
  - Each event is delivered once by its id, whatever the clocks of the server and of the controller say. So is an
    event that shows up late (servers store events asynchronously), one stamped earlier than events delivered before
    (a server clock set back, or behind), one stamped in the future, and an id an answer lists twice. Time stamps
    decide only which events of the first poll are older than O(start), by the server's clock, and the order of the
    events of one poll (oldest first, then by id).
  - The source remembers the ids of the events the last answer listed and the 10000 highest ids of those it no
    longer lists (at most 20000 ids, whatever the server keeps); an event is new when its id is not among them.
  - A list holds at most the server's newest 10000 events. When a poll returns that many, a warning is logged; when
    the lowest id listed is more than one above the highest id seen before, events were lost (more than 10000 happened
    between two polls, or while the source was down) and an error names their ids.
  - A failed poll (no answer, an HTTP error, an answer that is no list of events) is logged and tried again after
    O(interval); the source does not stop. The token is never logged.
options:
  api_url:
    description:
      - Base URL of the management API, for example C(https://nms.example.com); a trailing C(/api) is optional.
      - Defaults to the environment variable E(NMS_API_URL).
    type: str
  api_token:
    description:
      - Personal access token of a user with admin power or of a service user (the audit log needs one).
      - Defaults to the environment variable E(NMS_API_TOKEN).
    type: str
  validate_certs:
    description: Whether to verify the server's TLS certificate.
    type: bool
    default: true
  ca_path:
    description:
      - PEM file (or directory) of the CA certificates that signed the server's certificate.
      - Defaults to the environment variable E(NMS_API_CA_PATH).
    type: path
  timeout:
    description: Seconds one poll's request may take.
    type: float
    default: 30
  interval:
    description: Seconds between two polls.
    type: float
    default: 10
  start:
    description:
      - Which events of the log the first poll delivers; every event listed after it is delivered.
      - V(now) (the default) delivers none of what the first poll lists. An ISO 8601 time stamp such as
        V(2026-01-10T08:00:00Z) delivers those stamped from then on, a time before now such as V(-30m), V(-1h),
        V(-7d) (units s, m, h, d, w) those stamped within that time before the server's clock (its C(Date) header)
        at the first poll; the controller's clock plays no part (only for an answer without a C(Date) header, which
        no NetBird server sends, is the controller's clock taken instead).
      - Used only when O(state_file) does not exist yet; otherwise the source resumes where the file says.
    type: str
    default: now
  state_file:
    description:
      - File in which the source keeps its position (the ids it remembers, numeric ones as ranges), written
        atomically after the first poll, after every poll that delivered events, and when the source stops.
      - With it, a restarted source delivers what happened while it was down (as long as the server still lists it)
        and nothing twice. Its directory must exist. A file of an earlier version of the source (version 1) is read and then
        written as version 2.
      - A source killed (not stopped) while it puts a poll's events on the queue delivers those events again after
        a restart; a clean stop writes exactly what was delivered.
    type: path
  activity_code:
    description:
      - Deliver only events with one of these activity codes; shell-style wildcards such as V(peer.*) work.
    type: list
    elements: str
  initiator_id:
    description: Deliver only events caused by this initiator (a user id, a setup key id, or V(sys)).
    type: str
  initiator_email:
    description: Deliver only events caused by the user with this email address (any case).
    type: str
  target_id:
    description: Deliver only events about this object id.
    type: str
'''

EXAMPLES = r'''
- name: React to what happens in the overlay network
  hosts: localhost
  sources:
    - nms.overlay.audit_events:
        api_url: https://nms.example.com
        api_token: "{{ NMS_API_TOKEN }}"
        interval: 15
        state_file: /var/lib/eda/nms-audit.json
        activity_code:  # a new peer, as servers before v0.39 and from v0.39 on name it
          - setupkey.peer.add
          - peer.setupkey.add
          - user.peer.add
          - peer.user.add
  rules:
    - name: Show every new peer
      condition: event.audit.activity_code is defined
      action:
        debug:
          msg: "New peer {{ event.audit.meta.name }} ({{ event.audit.meta.ip }})"
'''

import asyncio
import datetime
import email.utils
import fnmatch
import http.client
import json
import logging
import math
import os
import re
import ssl
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

UTC = datetime.timezone.utc
LOG_CAP = 10000  # the most events a list of the audit log holds (open-source servers)
GONE_LIMIT = LOG_CAP  # ids no longer listed that are still remembered (Position.settle)
SEEN_LIMIT = LOG_CAP + GONE_LIMIT  # the most ids a position holds after an answer of at most LOG_CAP events
STATE_VERSION = 2
AUDIT_PATH = '/api/events/audit'  # servers from v0.77 on
LEGACY_AUDIT_PATH = '/api/events'  # v0.27, where the first answers 404 (v0.27 answers 405 for a path of another method)
REPEAT_ERROR_SECONDS = 300  # the same poll failure is logged again at most this often
# the arguments of every source of the collection (nms.overlay.peer_status loads this file for them: SourceOptions)
CONNECTION_ARGS = frozenset(('api_url', 'api_token', 'validate_certs', 'ca_path', 'timeout', 'interval', 'state_file'))
ARGS = CONNECTION_ARGS | frozenset(('start', 'activity_code', 'initiator_id', 'initiator_email', 'target_id'))
RELATIVE = re.compile(r'^-\s*(\d+)\s*([smhdw])$')
DURATION = re.compile(r'^(?:\s*\d+\s*[smhdw])+\s*$', re.IGNORECASE)
UNIT_SECONDS = {'s': 1, 'm': 60, 'h': 3600, 'd': 86400, 'w': 604800}
TOKEN_RE = re.compile(r'[\x21-\x7e]+')  # printable ASCII, no space (fullmatch: a trailing newline too)
USER_AGENT = 'nms.overlay-eda-audit-events'
FORBIDDEN = 'the audit log needs the token of a user with admin power or of a service user'  # said on a 401 or 403

logger = logging.getLogger('nms.overlay.audit_events')  # ansible-rulebook runs the file as <run_path>


class PollError(Exception):
    """A poll that failed; the message is for the log (never the token)."""


class NotThere(PollError):
    """The path answered 404 or 405: the server does not have it."""


# --- arguments ------------------------------------------------------------------------------------------------------
def parse_time(text, now=None):
    """An aware datetime for an ISO 8601 time stamp, ``now`` or ``-<n><unit>``; None when ``text`` is none of them."""
    if isinstance(text, datetime.datetime):
        return text if text.tzinfo else text.replace(tzinfo=UTC)
    if not isinstance(text, str):
        return None
    text = text.strip()
    now = now or datetime.datetime.now(UTC)
    if text.lower() == 'now':
        return now
    match = RELATIVE.match(text)
    if match:
        return now - datetime.timedelta(seconds=int(match.group(1)) * UNIT_SECONDS[match.group(2)])
    # servers send nanoseconds, which fromisoformat cuts to microseconds only from Python 3.11 on
    text = re.sub(r'(\.\d{6})\d+', r'\1', text.replace('z', 'Z'))
    try:
        moment = datetime.datetime.fromisoformat(text.replace('Z', '+00:00'))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def iso(moment):
    return moment.astimezone(UTC).strftime('%Y-%m-%dT%H:%M:%S.%fZ')


def _seconds(name, value, default):
    if value is None:
        return float(default)
    if isinstance(value, bool):
        raise ValueError('%s: %r is not a number of seconds' % (name, value))
    if isinstance(value, (int, float)):
        seconds = float(value)
    elif isinstance(value, str) and re.match(r'^\s*\d+(\.\d+)?\s*$', value):
        seconds = float(value)
    elif isinstance(value, str) and DURATION.match(value):
        seconds = float(sum(int(n) * UNIT_SECONDS[u.lower()] for n, u in re.findall(r'(\d+)\s*([smhdw])', value, re.I)))
    else:
        raise ValueError('%s: %r is not a number of seconds or a duration such as 30s or 2m' % (name, value))
    if math.isnan(seconds) or seconds <= 0 or seconds > 31 * 86400:
        raise ValueError('%s: %r must be greater than 0 (and at most 31 days)' % (name, value))
    return seconds


def _boolean(name, value, default):
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ('true', 'yes', 'on', '1'):
        return True
    if text in ('false', 'no', 'off', '0'):
        return False
    raise ValueError('%s: %r is not a boolean' % (name, value))


def _text(name, value):
    if value is None:
        return None
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise ValueError('%s: %r is not a string' % (name, value))
    return str(value)


class SourceOptions:
    """The connection arguments every source of the collection takes (CONNECTION_ARGS), checked: a ValueError names
    the argument that cannot work. ``known``: all the arguments of the source ``name``."""

    def __init__(self, args, environ=None, known=CONNECTION_ARGS, name='nms.overlay.audit_events'):
        environ = os.environ if environ is None else environ
        args = dict(args or {})
        unknown = sorted(key for key in args if key not in known and not str(key).startswith('eda_'))
        if unknown:
            raise ValueError('unknown argument(s) %s of %s (known: %s)'
                             % (', '.join(map(str, unknown)), name, ', '.join(sorted(known))))
        url = args.get('api_url') or environ.get('NMS_API_URL') or ''
        if not isinstance(url, str) or not url.strip():
            raise ValueError('api_url: not set (set api_url or the environment variable NMS_API_URL)')
        url = url.strip().rstrip('/')
        if url.endswith('/api'):
            url = url[:-4]
        try:
            parts = urllib.parse.urlsplit(url)
            port = parts.port
        except ValueError:
            parts, port = None, None
        if parts is None or parts.scheme not in ('http', 'https') or not parts.hostname or port == 0 \
                or parts.query or parts.fragment or parts.username or any(ch.isspace() for ch in url):
            raise ValueError('api_url: %r is not an http(s) URL such as https://nms.example.com (without credentials, '
                             'query or fragment)' % (url[:100] if parts is None or not parts.password else '(hidden)'))
        self.api_url = url
        token = args.get('api_token') or environ.get('NMS_API_TOKEN') or ''
        if not isinstance(token, str) or not token.strip():
            raise ValueError('api_token: not set (set api_token or the environment variable NMS_API_TOKEN)')
        if not TOKEN_RE.fullmatch(token):
            raise ValueError('api_token: the token has spaces, control or non-ASCII characters (the value is not shown)')
        self.api_token = token
        self.validate_certs = _boolean('validate_certs', args.get('validate_certs'), True)
        ca_path = args.get('ca_path') or environ.get('NMS_API_CA_PATH') or None
        if ca_path is not None:
            ca_path = os.path.expanduser(str(ca_path))
            if self.validate_certs and not os.access(ca_path, os.R_OK):
                raise ValueError('ca_path: %s does not exist or cannot be read' % ca_path)
        self.ca_path = ca_path
        self.timeout = _seconds('timeout', args.get('timeout'), 30)
        self.interval = _seconds('interval', args.get('interval'), 10)
        state_file = args.get('state_file')
        if state_file is not None:
            state_file = os.path.abspath(os.path.expanduser(str(state_file)))
            if not os.path.isdir(os.path.dirname(state_file)):
                raise ValueError('state_file: the directory of %s does not exist' % state_file)
            if os.path.isdir(state_file):
                raise ValueError('state_file: %s is a directory' % state_file)
        self.state_file = state_file


class Options(SourceOptions):
    """The arguments of nms.overlay.audit_events, checked: a ValueError names the argument that cannot work."""

    def __init__(self, args, environ=None, now=None):
        super().__init__(args, environ, ARGS, 'nms.overlay.audit_events')
        args = dict(args or {})
        start = args.get('start', 'now')
        start = 'now' if start is None else start
        self.start = parse_time(start, now)
        if self.start is None:
            raise ValueError("start: %r is neither an ISO 8601 time stamp (e.g. 2026-01-10T08:00:00Z) nor a time before "
                             "now (e.g. -1h, -7d) nor 'now'" % (start,))
        # how the first answer is taken (Position.pending): 'now' (what it lists happened before), ('ago', seconds
        # before the server's clock) or ('at', a moment the server's time stamps are compared with)
        match = RELATIVE.match(start.strip()) if isinstance(start, str) else None
        if isinstance(start, str) and start.strip().lower() == 'now':
            self.start_rule = ('now',)
        elif match:
            self.start_rule = ('ago', float(int(match.group(1)) * UNIT_SECONDS[match.group(2)]))
        else:
            self.start_rule = ('at', self.start)
        codes = args.get('activity_code')
        if isinstance(codes, str):
            codes = [codes]
        if codes is not None and (not isinstance(codes, list) or not all(isinstance(code, str) for code in codes)):
            raise ValueError('activity_code: %r is not a list of activity codes' % (codes,))
        self.activity_code = codes or None
        self.initiator_id = _text('initiator_id', args.get('initiator_id'))
        self.initiator_email = _text('initiator_email', args.get('initiator_email'))
        self.target_id = _text('target_id', args.get('target_id'))
        if self.initiator_id is not None and self.initiator_email is not None:
            raise ValueError('initiator_id, initiator_email: give one of them, not both')

    def keep(self, event):
        """Whether the event passes the filters (as nms.overlay.event_info applies them)."""
        if self.activity_code and not any(fnmatch.fnmatchcase(str(event.get('activity_code')), code)
                                          for code in self.activity_code):
            return False
        if self.initiator_id is not None and str(event.get('initiator_id')) != self.initiator_id:
            return False
        if self.initiator_email is not None \
                and str(event.get('initiator_email') or '').lower() != self.initiator_email.lower():
            return False
        return self.target_id is None or str(event.get('target_id')) == self.target_id


# --- events ---------------------------------------------------------------------------------------------------------
def meta_text(value):
    """A meta value as open-source servers write it (Go's %v), so every server's events look alike."""
    if isinstance(value, str):
        return value
    if value is None:
        return '<nil>'
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    if isinstance(value, (list, tuple)):
        return '[%s]' % ' '.join(meta_text(item) for item in value)
    if isinstance(value, dict):
        return 'map[%s]' % ' '.join('%s:%s' % (key, meta_text(value[key])) for key in sorted(value, key=str))
    return str(value)


def _plain_id(item):
    """The id of an item of an answer as a string, None when it has none that an event may have."""
    if not isinstance(item, dict):
        return None
    value = item.get('id')
    if value in (None, '') or isinstance(value, (dict, list, bool)):
        return None
    return str(value)


def normalise(event):
    """``(event, moment)`` with the id a string and meta values strings; None for an item that is no event."""
    event_id = _plain_id(event)
    if event_id is None:
        return None
    moment = parse_time(event.get('timestamp')) if isinstance(event.get('timestamp'), str) else None
    if moment is None:
        return None
    event = dict(event)
    event['id'] = event_id
    meta = event.get('meta')
    event['meta'] = dict((str(key), meta_text(value)) for key, value in meta.items()) if isinstance(meta, dict) else {}
    return event, moment


# --- position -------------------------------------------------------------------------------------------------------
def _canonical_number(event_id):
    """The id as a number when it is one written the one way (``42``, not ``042``), else None."""
    return int(event_id) if event_id.isdigit() and event_id.isascii() and str(int(event_id)) == event_id else None


def _id_order(event_id):
    number = _canonical_number(event_id)
    return (0, number, '') if number is not None else (1, 0, event_id)


class Position:
    """Where the source is, by event id alone: time stamps never decide what is delivered.

    ``seen`` holds the id of every event of the last answer (each one delivered, filtered out, or from before the
    start) and, of the ids remembered before that the last answer no longer lists, the GONE_LIMIT highest: an id that
    comes back is still known. A list holds at most the server's newest LOG_CAP events, so ``seen`` holds at most
    LOG_CAP + GONE_LIMIT ids, however many events the server keeps and whatever its clock says.

    ``pending`` says how the first answer is taken (the state file's position has none): ('now',), all it lists
    happened before the start; ('ago', seconds) or ('at', moment), events stamped from then on, by the server's clock,
    are delivered; ('v1', floor, top_id), a state file of version 1: an event it does not know is new when stamped at
    or after its floor, or numbered above its top id (stored after its last poll, whatever its time stamp).
    ``top_id`` is the highest numeric id listed so far (servers number events in the order they store them): it tells
    which events a full list no longer holds."""

    def __init__(self, pending=('now',)):
        self.seen = set()
        self.pending = pending
        self.top_id = None

    def is_new(self, event_id):
        return event_id not in self.seen

    def before_start(self, event_id, moment, server_now):
        """Whether an event of the first answer, unknown to the position, happened before the start."""
        rule = self.pending
        if rule is None:
            return False
        if rule[0] == 'now':
            return True
        if rule[0] == 'ago':
            return moment < server_now - datetime.timedelta(seconds=rule[1])
        if rule[0] == 'at':
            return moment < rule[1]
        number = _canonical_number(event_id)
        return moment < rule[1] and not (rule[2] is not None and number is not None and number > rule[2])

    def take(self, event_id):
        self.seen.add(event_id)

    def settle(self, listed, top):
        """After an answer's events were taken: keep the ids it listed and the GONE_LIMIT highest of the others."""
        gone = self.seen - listed
        if len(gone) > GONE_LIMIT:
            gone = set(sorted(gone, key=_id_order)[-GONE_LIMIT:])
        self.seen = (self.seen & listed) | gone
        if top is not None and (self.top_id is None or top > self.top_id):
            self.top_id = top

    def to_json(self, api_url):
        """Numeric ids as ranges ``[first, last]`` (a full log's ids are mostly consecutive), others as strings."""
        numbers = sorted(_canonical_number(key) for key in self.seen if _canonical_number(key) is not None)
        ranges = []
        for number in numbers:
            if ranges and ranges[-1][1] == number - 1:
                ranges[-1][1] = number
            else:
                ranges.append([number, number])
        others = sorted(key for key in self.seen if _canonical_number(key) is None)
        return {'version': STATE_VERSION, 'api_url': api_url, 'top_id': self.top_id, 'seen': ranges + others}

    @classmethod
    def from_json(cls, data, where):
        """The position a state file holds (of version 2, or 1 as earlier versions wrote it); ValueError naming the
        file and what is wrong with it."""
        def bad(why):
            return ValueError('state_file: %s is damaged (%s); fix or remove it (the source then starts at its start '
                              'argument)' % (where, why))
        if not isinstance(data, dict) or data.get('version') not in (1, STATE_VERSION):
            raise bad('not a state file of version 1 or %d' % STATE_VERSION)
        top = data.get('top_id')
        if top is not None and (isinstance(top, bool) or not isinstance(top, int)):
            raise bad('top_id is not a number')
        if data['version'] == 1:
            floor = parse_time(data.get('floor'))
            if parse_time(data.get('watermark')) is None or floor is None or not isinstance(data.get('seen'), dict):
                raise bad('watermark, floor or seen missing')
            position = cls(('v1', floor, top))
            position.seen = set(str(key) for key in data['seen'])
        else:
            if not isinstance(data.get('seen'), list):
                raise bad('seen missing')
            position = cls(None)
            for item in data['seen']:
                if isinstance(item, str):
                    position.seen.add(item)
                elif isinstance(item, list) and len(item) == 2 and all(
                        isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in item) \
                        and 0 <= item[1] - item[0] <= 10 * SEEN_LIMIT:
                    position.seen.update(str(number) for number in range(item[0], item[1] + 1))
                else:
                    raise bad('seen holds %r, neither an id nor a range [first, last] of ids' % (item,))
                if len(position.seen) > 10 * SEEN_LIMIT:
                    raise bad('seen holds more than %d ids' % (10 * SEEN_LIMIT))
        position.top_id = top
        return position


def read_state(options):
    """The decoded JSON of the state file, None when there is none (or none exists yet); a file that cannot be read
    is a ValueError naming it (starting over would silently lose what happened)."""
    path = options.state_file
    if path is None or not os.path.exists(path):
        return None
    try:
        with open(path, encoding='utf-8') as handle:
            return json.load(handle)
    except (OSError, ValueError) as exc:
        raise ValueError('state_file: %s cannot be read: %s' % (path, exc)) from None


def write_state(options, data):
    """Write the state file atomically: a temporary file in its directory, flushed, then renamed over it."""
    directory = os.path.dirname(options.state_file)
    handle, temporary = tempfile.mkstemp(prefix='.%s.' % os.path.basename(options.state_file), dir=directory)
    try:
        with os.fdopen(handle, 'w', encoding='utf-8') as out:
            json.dump(data, out, sort_keys=True)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, options.state_file)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def load_position(options):
    """The state file's position, or a new one at the start; the file is read only when it exists."""
    path = options.state_file
    data = read_state(options)
    if data is None:
        return Position(options.start_rule), False
    position = Position.from_json(data, path)
    if data.get('api_url') not in (None, options.api_url):
        logger.warning('the state file %s was written for %s, not %s; resuming from it anyway',
                       path, data.get('api_url'), options.api_url)
    return position, True


def save_position(options, position):
    """Write the state file (write_state). Not before the first answer was taken: until then there is nothing to
    resume from (a state file of version 1 stays)."""
    if options.state_file is None or position.pending is not None:
        return
    write_state(options, position.to_json(options.api_url))


# --- HTTP -----------------------------------------------------------------------------------------------------------
class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Redirects are not followed, so that the token only ever goes to api_url."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


class Client:
    """GET with the token, in a worker thread; PollError with a message for the log (never the token). ``forbidden``:
    what a 401 or 403 adds to the message (what the token needs for what the source reads)."""

    def __init__(self, options, forbidden=FORBIDDEN, user_agent=USER_AGENT):
        self.options = options
        self.forbidden = forbidden
        self.user_agent = user_agent
        handlers = [_NoRedirect()]
        if options.api_url.startswith('https:'):
            if options.validate_certs:
                context = ssl.create_default_context()
                if options.ca_path:
                    if os.path.isdir(options.ca_path):
                        context.load_verify_locations(capath=options.ca_path)
                    else:
                        context.load_verify_locations(cafile=options.ca_path)
            else:
                context = ssl.create_default_context()
                context.check_hostname = False
                context.verify_mode = ssl.CERT_NONE
            handlers.append(urllib.request.HTTPSHandler(context=context))
        # no proxy from the environment: the token goes to api_url only, as the modules send it
        handlers.append(urllib.request.ProxyHandler({}))
        self.opener = urllib.request.build_opener(*handlers)
        self.requests = 0
        self.server_now = None  # the time by the server's clock (its Date header) of the last answer

    def scrub(self, text):
        return str(text).replace(self.options.api_token, '(hidden)')

    def get(self, path):
        """The decoded JSON of GET path; NotThere for 404/405, PollError for anything else that is not 200."""
        url = self.options.api_url + path
        request = urllib.request.Request(url, headers={
            'Authorization': 'Token %s' % self.options.api_token, 'Accept': 'application/json', 'User-Agent': self.user_agent})
        self.requests += 1
        try:
            with self.opener.open(request, timeout=self.options.timeout) as answer:
                status, body = answer.status, answer.read()
                self.server_now = _server_time(answer.headers.get('Date'))
        except urllib.error.HTTPError as exc:
            try:
                body = exc.read()
            except OSError:
                body = b''
            message = _message(body)
            if exc.code in (404, 405):
                raise NotThere('GET %s answered HTTP %s%s' % (url, exc.code, ': %s' % message if message else ''))
            if 300 <= exc.code < 400:
                raise PollError('GET %s was redirected to %r; redirects are not followed so that the token is never '
                                'sent elsewhere (check api_url)' % (url, exc.headers.get('Location', ''))) from None
            hint = ''
            if exc.code in (401, 403):
                hint = ' (%s)' % self.forbidden
            raise PollError(self.scrub('GET %s failed with HTTP %s: %s%s' % (url, exc.code, message or '(no message)',
                                                                             hint))) from None
        except http.client.HTTPException as exc:  # an answer cut short, a status line that is not HTTP
            raise PollError(self.scrub('GET %s: the answer is broken (%s: %s)' % (url, type(exc).__name__, exc))) from None
        except (urllib.error.URLError, OSError, ValueError) as exc:
            reason = getattr(exc, 'reason', exc)
            if isinstance(reason, TimeoutError) or 'timed out' in str(reason):
                raise PollError('GET %s: no answer within the timeout of %g s' % (url, self.options.timeout)) from None
            raise PollError(self.scrub('GET %s failed: %s' % (url, reason))) from None
        try:
            return json.loads(body.decode('utf-8', errors='replace'))
        except ValueError:
            raise PollError('GET %s answered HTTP %s with something that is not JSON: %r'
                            % (url, status, self.scrub(body[:120].decode('utf-8', errors='replace')))) from None


def _server_time(text):
    """The moment of an HTTP ``Date`` header, None without one (or a header that is no date)."""
    try:
        moment = email.utils.parsedate_to_datetime(text) if text else None
    except (TypeError, ValueError, IndexError):
        return None
    if moment is None:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _message(body):
    try:
        data = json.loads(body.decode('utf-8', errors='replace'))
    except ValueError:
        return ' '.join(body.decode('utf-8', errors='replace').split())[:200]
    if isinstance(data, dict) and data.get('message'):
        return str(data['message'])[:300]
    return ''


# --- the sources ----------------------------------------------------------------------------------------------------
class Poller:
    """What every source of the collection does: ``run(queue)`` calls ``poll()`` (blocking, in a worker thread) every
    ``interval`` seconds until cancelled and hands its answer to ``deliver(queue, *answer)``; a failed poll is logged
    (``failed``: once, then every REPEAT_ERROR_SECONDS while it lasts) and tried again after ``interval``; ``save()``
    writes the state file when the source stops. A subclass sets ``options`` and ``client`` and defines the three."""

    failing = None  # (message, when logged, failed polls) while polls fail
    log = logger  # the source's own logger

    def poll(self):
        raise NotImplementedError

    async def deliver(self, queue, *answer):
        raise NotImplementedError

    def save(self):
        raise NotImplementedError

    def failed(self, exc, now):
        """Log a failed poll: the first, a different one, or the same again after REPEAT_ERROR_SECONDS."""
        message = self.client.scrub(exc)
        if self.failing is None or self.failing[0] != message or now - self.failing[1] >= REPEAT_ERROR_SECONDS:
            count = 1 if self.failing is None else self.failing[2] + 1
            self.log.error('poll failed%s: %s; trying again every %g s',
                           '' if count == 1 else ' (%d polls in a row)' % count, message, self.options.interval)
            self.failing = (message, now, count)
        else:
            self.failing = (self.failing[0], self.failing[1], self.failing[2] + 1)

    async def run(self, queue):
        loop = asyncio.get_running_loop()
        try:
            while True:
                try:
                    answer = await asyncio.to_thread(self.poll)
                except PollError as exc:
                    self.failed(exc, loop.time())
                except Exception as exc:
                    # whatever else a poll meets is logged and tried again too: a source that ends stops the rulebook
                    self.failed(PollError('%s: %s' % (type(exc).__name__, exc)), loop.time())
                else:
                    if self.failing is not None:
                        self.log.info('polls work again after %d failed', self.failing[2])
                        self.failing = None
                    await self.deliver(queue, *answer)
                await asyncio.sleep(self.options.interval)
        finally:
            self.save()


class AuditEventSource(Poller):
    """One poller: ``poll()`` reads the log once and returns the new events, oldest first; ``run(queue)`` puts them on
    the queue every ``interval`` seconds until cancelled."""

    def __init__(self, options):
        self.options = options
        self.client = Client(options)
        self.position, resumed = load_position(options)
        self.path = None  # found on the first poll
        self.log_full = False
        rule = self.position.pending
        if resumed:
            what = 'resuming from %s (%d event ids known%s)' % (
                options.state_file, len(self.position.seen), ', a state file of version 1' if rule else '')
        elif rule[0] == 'now':
            what = 'polling %s, delivering the events the log lists after the first poll' % options.api_url
        elif rule[0] == 'ago':
            what = 'polling %s, delivering the events of the last %g s by the server\'s clock and later ones' % (
                options.api_url, rule[1])
        else:
            what = 'polling %s, delivering the events stamped from %s on and later ones' % (options.api_url,
                                                                                            iso(rule[1]))
        logger.info('%s%s', what, ' (state file %s)' % options.state_file if options.state_file and not resumed else '')

    def read_log(self):
        """The audit log as the server sends it (newest first); finds its path on the first call."""
        if self.path is None:
            try:
                data = self.client.get(AUDIT_PATH)
                self.path = AUDIT_PATH
            except NotThere:
                data = self.client.get(LEGACY_AUDIT_PATH)
                self.path = LEGACY_AUDIT_PATH
            logger.info('the audit log is %s%s', self.options.api_url, self.path)
            return data
        try:
            return self.client.get(self.path)
        except NotThere as exc:
            raise PollError(str(exc)) from None

    def poll(self):
        """``(new, before, listed, top)``: the events not delivered yet, oldest first (by time stamp, then id), each as
        ``(event, wanted)`` (wanted: it passes the filters); the ids of the first answer's events from before the start;
        the ids listed; the highest numeric id listed. An id listed twice counts once. Blocking (run it in a thread);
        it changes nothing of the position: deliver() takes each event once it is on the queue."""
        data = self.read_log()
        if not isinstance(data, list):
            raise PollError('GET %s%s answered %s where a list of events was expected'
                            % (self.options.api_url, self.path, type(data).__name__))
        position = self.position
        server_now = self.client.server_now or datetime.datetime.now(UTC)
        listed, events, before = set(), [], []
        skipped = twice = 0
        for item in data:
            event_id = _plain_id(item)
            if event_id is not None and event_id in listed:
                twice += 1
                continue
            if event_id is not None and not position.is_new(event_id):
                listed.add(event_id)
                continue
            parsed = normalise(item)  # only events not known yet are read further
            if parsed is None:
                skipped += 1
                continue
            listed.add(event_id)
            if position.before_start(event_id, parsed[1], server_now):
                before.append(event_id)
            else:
                events.append(parsed)
        if skipped:
            logger.warning('%d item(s) of the audit log have no id or time stamp; left out', skipped)
        if twice:
            logger.info('the audit log listed %d event(s) a second time (same id); each is delivered once', twice)
        events.sort(key=lambda pair: (pair[1], _id_order(pair[0]['id'])))
        numbers = [number for number in (_canonical_number(key) for key in listed) if number is not None]
        self.check_cap(len(data), min(numbers) if numbers else -1)
        new = [(event, self.options.keep(event)) for event, _moment in events]
        return new, before, listed, max(numbers) if numbers else None

    def check_cap(self, count, lowest_id):
        top = self.position.top_id
        full = count >= LOG_CAP
        if full and not self.log_full:
            logger.warning('the server listed %d events, the most a list holds: older events '
                           'are no longer listed (poll more often than events happen in bulk)', count)
        self.log_full = full
        if full and top is not None and lowest_id > top + 1:
            logger.error('events were lost: the server no longer lists the events with ids %d '
                         'to %d (more than %d events happened since the last poll)', top + 1, lowest_id - 1, LOG_CAP)

    def save(self):
        save_position(self.options, self.position)

    async def deliver(self, queue, new, before, listed, top):
        """Put the wanted events on the queue, taking each id into the position once it is there (a source cancelled
        in between keeps the rest for next time), then keep the ids to remember and write the state file."""
        position = self.position
        first = position.pending is not None
        for event_id in before:
            position.take(event_id)
        position.pending = None
        for event, wanted in new:
            if wanted:
                await queue.put({'audit': event})
            position.take(event['id'])
        position.settle(listed, top)
        if new or first:
            save_position(self.options, position)


async def main(queue: asyncio.Queue, args: dict[str, Any]) -> None:
    """ansible-rulebook's entry point: poll until cancelled. Bad arguments raise ValueError naming the argument."""
    await AuditEventSource(Options(args)).run(queue)


if __name__ == '__main__':
    # Run it by hand with NMS_API_URL and NMS_API_TOKEN set: prints the events as they come (Ctrl-C stops)

    class MockQueue(asyncio.Queue):
        async def put(self, item):
            print(json.dumps(item, sort_keys=True))

    logging.basicConfig(level=logging.INFO)
    try:
        asyncio.run(main(MockQueue(), {'start': '-1h', 'interval': 5}))
    except KeyboardInterrupt:
        pass
