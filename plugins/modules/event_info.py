#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: event_info
short_description: Read the audit log or the reverse proxy's access log of the overlay network
version_added: 1.0.0
description:
  - Returns the events of the audit log, newest first, that pass every filter given.
  - The server sends its whole log (at most 10000 events on open-source servers) in one answer; the
    filters are applied by the module.
  - Servers store events asynchronously, so an event may show up shortly after the change that caused it.
  - The log is read from C(/api/events/audit), its path on servers from v0.77 on (one request); an older server
    answers that path with 404 and the module reads C(/api/events) instead (two requests).
  - With O(log=proxy) it reads the access log of the server's reverse proxy instead (C(GET /api/events/proxy), servers
    from v0.65.0 on), one entry per request the proxy served for a published service. The server sends it in pages of
    100, newest first, and filters it by O(since) and O(until) itself; the module reads the pages it needs (every
    page, or until O(limit) entries). A server without a connected proxy has an empty access log.
options:
  log:
    description:
      - Which log to read. V(audit) is the audit log (changes made to the account); V(proxy) is the reverse proxy's
        access log (requests to published services).
      - V(proxy) needs a server from v0.65.0 on; an older server refuses the task after one request (the version probe),
        before any other.
      - The filters O(activity_code), O(initiator_id), O(initiator_email) and O(target_id) apply to the audit log
        only; with V(proxy) a task that sets one is refused before any request.
    type: str
    choices: [audit, proxy]
    default: audit
    version_added: 1.0.0
  activity_code:
    description:
      - Return only events with one of these activity codes, for example V(peer.rename) or V(group.add).
      - Shell-style wildcards are accepted, for example V(peer.*) or V(setupkey.*).
    type: list
    elements: str
  initiator_id:
    description:
      - Return only events caused by this initiator (a user id, a setup key id for peers that joined, or
        V(sys)).
      - Mutually exclusive with O(initiator_email).
    type: str
  initiator_email:
    description:
      - Return only events caused by the user with this email address (case-insensitive).
      - Mutually exclusive with O(initiator_id).
    type: str
  target_id:
    description:
      - Return only events about this object id (for some peer events the target is the peer's overlay IP).
    type: str
  since:
    description:
      - Return only events at or after this moment.
      - An ISO 8601 timestamp such as V(2026-01-10T08:00:00Z) or V(2026-01-10) (without a time zone it
        is UTC), or a time relative to now such as V(-30m), V(-1h), V(-7d) or V(-2w) (units C(s), C(m),
        C(h), C(d), C(w)), or V(now).
    type: str
  until:
    description:
      - Return only events at or before this moment; same forms as O(since).
    type: str
  limit:
    description:
      - Return at most this many events (the newest ones). Unset returns every matching event.
    type: int
seealso:
  - module: nms.overlay.peer
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module]
'''

EXAMPLES = r'''
- name: Read the whole audit log
  nms.overlay.event_info:
  register: log

- name: The 20 latest peer events of the last week
  nms.overlay.event_info:
    activity_code:
      - peer.*
      - setupkey.peer.add
    since: -7d
    limit: 20
  register: peer_events

- name: What the owner changed since the start of 2026
  nms.overlay.event_info:
    initiator_email: owner@example.com
    since: "2026-01-01T00:00:00Z"
  register: owner_events

- name: Show the activities
  ansible.builtin.debug:
    msg: "{{ owner_events.events | map(attribute='activity') | list }}"

- name: The 50 latest requests the reverse proxy served today (v0.77 servers)
  nms.overlay.event_info:
    log: proxy
    since: -1d
    limit: 50
  register: proxy_log

- name: Show the failed ones (v0.77 servers)
  ansible.builtin.debug:
    msg: "{{ proxy_log.events | selectattr('status_code', '>=', 400) | map(attribute='path') | list }}"
'''

RETURN = r'''
events:
  description:
    - The matching events, newest first. Empty when nothing matches.
    - With O(log=proxy), the entries of the reverse proxy's access log as the server sends them (C(id), C(service_id),
      C(timestamp), C(method), C(host), C(path), C(duration_ms), C(status_code), C(source_ip), C(reason), C(user_id),
      C(auth_method_used), C(country_code), C(city_name), C(bytes_upload), C(bytes_download), C(protocol),
      C(metadata)), instead of the audit events' fields below.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: Id of the event, always a string (servers send a number or a numeric string).
      type: str
      sample: "42"
    timestamp:
      description: When the event happened (UTC).
      type: str
      sample: "2026-01-10T08:00:00.123456Z"
    activity:
      description: Human-readable text of the activity.
      type: str
      sample: Peer renamed
    activity_code:
      description: Code of the activity.
      type: str
      sample: peer.rename
    initiator_id:
      description: Who caused the event (user id, setup key id, or V(sys)).
      type: str
      sample: owner-user
    initiator_name:
      description: Name of the initiator, when known.
      type: str
      sample: Owner
    initiator_email:
      description: Email address of the initiator, when known.
      type: str
      sample: owner@example.com
    target_id:
      description: Id of the object the event is about.
      type: str
      sample: chacbco6lnnbn6cg5s90
    meta:
      description:
        - Details of the event; never null.
        - Every value is a string, as open-source servers send them; values that other servers send as other
          JSON types are turned into the same text. Booleans become V(true) or V(false), numbers their decimal
          text (V(3), V(1.5)), null becomes V(<nil>), a list its items in brackets separated by spaces
          (V([a b])), an object C(map[key:value ...]).
      type: dict
      sample: {name: web-1, fqdn: web-1.netbird.selfhosted, ip: 100.64.0.10}
log_size:
  description:
    - How many events the server sent, before the filters. Open-source servers send at most 10000; a log of that
      size has probably lost older events, so a search by the filters may miss them.
    - With O(log=proxy), how many entries the server holds between O(since) and O(until) (its C(total_records)).
  returned: always
  type: int
  sample: 182
log_oldest:
  description:
    - Time stamp of the oldest event the server sent (before the filters); empty when the log is empty.
    - With O(log=proxy), of the oldest entry read.
  returned: always
  type: str
  sample: "2026-01-10T08:00:00Z"
'''

import datetime
import fnmatch

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._client import FREE_FORM, TEXT, ApiError, describe_shape
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._task import NmsModule
from ansible_collections.nms.overlay.plugins.module_utils._time import parse_time

UTC = datetime.timezone.utc
UTC_NEVER = datetime.datetime.min.replace(tzinfo=datetime.timezone.utc)
AUDIT_PATH = '/events/audit'   # the audit log on today's servers (v0.77), where /events is an alias of it
LEGACY_AUDIT_PATH = '/events'  # the only path of v0.27
PROXY_PATH = '/events/proxy'   # the reverse proxy's access log (v0.77), paginated
PROXY_LOG = "the reverse proxy's access log"  # the feature, as _server.FEATURE_RELEASES names it
PROXY_PAGE_SIZE = 100          # the largest page the server gives
AUDIT_FILTERS = ('activity_code', 'initiator_id', 'initiator_email', 'target_id')


def _id_order(value):
    try:
        return int(str(value))
    except ValueError:
        return -1


def meta_text(value):
    """A meta value as the text open-source servers send (Go's %v): the same strings from every server."""
    if isinstance(value, str):
        return value
    if value is None:
        return '<nil>'
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e21:
            return str(int(value))
        return repr(value)
    if isinstance(value, (list, tuple)):
        return '[%s]' % ' '.join(meta_text(item) for item in value)
    if isinstance(value, dict):
        return 'map[%s]' % ' '.join('%s:%s' % (key, meta_text(value[key])) for key in sorted(value, key=str))
    return str(value)


def normalise_event(event):
    event = dict(event)
    if event.get('id') is not None:
        event['id'] = str(event['id'])
    meta = event.get('meta') or {}
    event['meta'] = dict((str(key), meta_text(value)) for key, value in meta.items()) if isinstance(meta, dict) else {}
    return event


class EventInfoModule(NmsModule):
    api_operations = ('GET /api/events/audit', 'GET /api/events/proxy')
    argument_spec = dict(
        log=dict(type='str', choices=['audit', 'proxy'], default='audit'),
        activity_code=dict(type='list', elements='str'),
        initiator_id=dict(type='str'),
        initiator_email=dict(type='str'),
        target_id=dict(type='str'),
        since=dict(type='str'),
        until=dict(type='str'),
        limit=dict(type='int'),
    )
    mutually_exclusive = (('initiator_id', 'initiator_email'),)
    answers = dict(activity=TEXT, activity_code=TEXT, initiator_id=TEXT, initiator_email=TEXT, initiator_name=TEXT, target_id=TEXT,
                   timestamp=TEXT, meta=FREE_FORM)

    def window(self):
        """(since, until) as datetimes or None, checked before any request."""
        now = datetime.datetime.now(UTC)
        bounds = []
        for option in ('since', 'until'):
            value = self.params.get(option)
            moment = None if value is None else parse_time(value, now)
            if value is not None and moment is None:
                raise TaskError("%s: '%s' is neither an ISO 8601 timestamp (e.g. 2026-01-10T08:00:00Z) nor a relative "
                                "time (e.g. -1h, -7d) nor 'now'" % (option, value))
            bounds.append(moment)
        if bounds[0] and bounds[1] and bounds[0] > bounds[1]:
            raise TaskError('since (%s) is later than until (%s)' % (self.params['since'], self.params['until']))
        return bounds

    def keep(self, event, since, until):
        params = self.params
        codes = params.get('activity_code')
        if codes and not any(fnmatch.fnmatchcase(str(event.get('activity_code')), code) for code in codes):
            return False
        if params.get('initiator_id') is not None and str(event.get('initiator_id')) != params['initiator_id']:
            return False
        if (params.get('initiator_email') is not None
                and str(event.get('initiator_email') or '').lower() != params['initiator_email'].lower()):
            return False
        if params.get('target_id') is not None and str(event.get('target_id')) != params['target_id']:
            return False
        if since or until:
            moment = parse_time(event.get('timestamp') or '')
            if moment is None or (since and moment < since) or (until and moment > until):
                return False
        return True

    def audit_log(self):
        """The whole audit log: today's path first (one request on v0.77); a 404 there means v0.27, which has only the
        older path (two requests). Asking the server's generation first would cost two requests on both."""
        try:
            events = self.client.get_list(AUDIT_PATH)
        except ApiError as exc:
            if exc.status != 404:
                raise
            self.resolver.server.learn(False)
            return self.client.get_list(LEGACY_AUDIT_PATH)
        self.resolver.server.learn(True)
        return events

    def proxy_log(self, since, until, limit):
        """The proxy's access log, newest first: the pages the task needs, the server filtering by the window; then
        (entries, the server's total_records, the oldest time stamp read)."""
        refusal = self.resolver.server.lacks(PROXY_LOG)  # after the version probe: the one request an older server gets
        if refusal:
            raise TaskError('option log: %s' % refusal.replace('to manage them', 'to read it'))
        query = dict(page_size=PROXY_PAGE_SIZE, sort_by='timestamp', sort_order='desc')
        for name, moment in (('start_date', since), ('end_date', until)):
            if moment is not None:
                query[name] = moment.strftime('%Y-%m-%dT%H:%M:%SZ')
        entries, page, total = [], 1, 0
        while True:
            answer = self.client.get(PROXY_PATH, query=dict(query, page=page))
            data = answer.get('data', False) if isinstance(answer, dict) else False
            if not isinstance(data, (list, type(None))) or not all(isinstance(item, dict) for item in data or ()):
                raise self.client.answer_error('GET', PROXY_PATH, 'the answer is %s where a page of the access log '
                                                                  '({"data": [...], "total_pages": ...}) was expected'
                                               % describe_shape(answer))
            entries.extend(data or ())
            total = answer.get('total_records') if isinstance(answer.get('total_records'), int) else len(entries)
            pages = answer.get('total_pages') if isinstance(answer.get('total_pages'), int) else page
            if not data or page >= pages or (limit is not None and len(entries) >= limit):
                break
            page += 1
        stamps = [str(entry.get('timestamp') or '') for entry in entries]
        return entries, total, min(stamps, key=lambda text: parse_time(text) or UTC_NEVER, default='')

    def run(self):
        limit = self.params.get('limit')
        if limit is not None and limit < 1:
            raise TaskError('limit: must be at least 1 (leave it unset for every event)')
        proxy = self.params.get('log') == 'proxy'
        given = [name for name in AUDIT_FILTERS if proxy and self.params.get(name) is not None]
        if given:
            raise TaskError('; '.join('option %s: filters the audit log only, not the proxy\'s access log (log: proxy)' % name
                                      for name in given))
        since, until = self.window()
        if proxy:
            entries, total, oldest = self.proxy_log(since, until, limit)
            events = [entry for entry in entries if self.keep(entry, since, until)]
            if limit is not None:
                events = events[:limit]
            return {'changed': False, 'events': events, 'log_size': total, 'log_oldest': oldest}
        log = [normalise_event(event) for event in self.audit_log()]
        never = datetime.datetime.min.replace(tzinfo=UTC)
        log.sort(key=lambda event: (parse_time(event.get('timestamp') or '') or never, _id_order(event.get('id'))),
                 reverse=True)
        events = [event for event in log if self.keep(event, since, until)]
        if limit is not None:
            events = events[:limit]
        return {'changed': False, 'events': events, 'log_size': len(log),
                'log_oldest': str(log[-1].get('timestamp') or '') if log else ''}


if __name__ == '__main__':
    EventInfoModule.main()
