#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: agent_network_report_info
short_description: Read the Agent Network's access logs, sessions, usage and consumption
version_added: 1.0.0
description:
  - Reads one of the Agent Network's reports, chosen by O(report), filtered by the server.
  - V(access_logs) (C(GET /api/agent-network/access-logs)), one entry per request agents made through the gateway, and
    V(access_log_sessions) (C(GET /api/agent-network/access-log-sessions)), the same grouped by session, are paged
    by the server; the task reads every page (100 entries a request unless O(page_size) says otherwise), or up to
    O(limit) entries, or only page O(page), and returns the totals. Servers keep them only while the settings'
    O(nms.overlay.agent_network_settings#module:enable_log_collection) is on.
  - V(usage) (C(GET /api/agent-network/usage/overview)) gives tokens and cost per day, week or month (O(granularity)),
    oldest first; servers always collect it.
  - V(consumption) (C(GET /api/agent-network/consumption)) gives the counters budget limits are checked against, one
    per user or group and window, newest first. It takes no filter.
  - Groups, users and providers are given by name or id.
options:
  report:
    description: Which report to read.
    type: str
    required: true
    choices: [access_logs, access_log_sessions, usage, consumption]
  page:
    description:
      - The one page to read (from 1) of V(access_logs) and V(access_log_sessions). Unset, every page is read, in
        order, until the last one or O(limit).
    type: int
  page_size:
    description:
      - Entries (or sessions) a page holds, at most 100. Unset, the task asks for 100 when it reads every page (the
        fewest requests), and servers answer 50 a page for O(page).
    type: int
  limit:
    description:
      - Return at most this many entries (or sessions) of V(access_logs) or V(access_log_sessions), in the report's
        order (newest first unless O(sort_order) says otherwise); pages beyond them are not read. Unset returns every
        matching entry.
    type: int
  sort_by:
    description:
      - The field V(access_logs) or V(access_log_sessions) are sorted by, such as V(timestamp) (the default),
        V(cost_usd), V(total_tokens), V(duration), V(status_code), V(user_id), V(decision); V(model) and V(provider)
        for entries, V(started_at) and V(request_count) for sessions.
    type: str
  sort_order:
    description: The order of the sort. Servers default to V(desc).
    type: str
    choices: [asc, desc]
  search:
    description: Words searched in the entries' id, host, path, model and user (V(access_logs), V(access_log_sessions)).
    type: str
  decision:
    description: Only entries the policies decided so, such as V(allow) or V(deny) (V(access_logs), V(access_log_sessions)).
    type: str
  path:
    description: Only entries whose request path starts with this (V(access_logs), V(access_log_sessions)).
    type: str
  user_id:
    description: Only this user's requests (an email, a name or an id). Not for V(consumption).
    type: str
  session_id:
    description: Only this session's requests. Not for V(consumption).
    type: str
  group_id:
    description: Only requests these groups (names or ids) authorised. Not for V(consumption).
    type: list
    elements: str
  provider_id:
    description: Only requests to these Agent Network providers (names or ids). Not for V(consumption).
    type: list
    elements: str
  model:
    description: Only requests for these models. Not for V(consumption).
    type: list
    elements: str
  start_date:
    description: Only entries at or after this moment (RFC 3339, such as C(2026-05-01T00:00:00Z)). Not for V(consumption).
    type: str
  end_date:
    description: Only entries at or before this moment (RFC 3339). Not for V(consumption).
    type: str
  granularity:
    description: The width of the V(usage) report's buckets. Servers default to V(day).
    type: str
    choices: [day, week, month]
seealso:
  - module: nms.overlay.agent_network_settings
  - module: nms.overlay.agent_network_budget_rule
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: The requests engineering's agents were denied this month
  nms.overlay.agent_network_report_info:
    report: access_logs
    decision: deny
    group_id: [engineering]
    start_date: "2026-05-01T00:00:00Z"
  register: denied

- name: Spend per week
  nms.overlay.agent_network_report_info:
    report: usage
    granularity: week
  register: usage

- name: Show the cost of each week
  ansible.builtin.debug:
    msg: "{{ usage.agent_network_report | map(attribute='cost_usd') | list }}"
'''

RETURN = r'''
agent_network_report:
  description:
    - The report's entries as the server answers them (access-log entries, sessions with their entries, usage buckets
      or consumption counters); empty when there are none. Servers describe their members in the OpenAPI document
      (C(AgentNetworkAccessLog), C(AgentNetworkAccessLogSession), C(AgentNetworkUsageBucket), C(AgentNetworkConsumption)).
  returned: always
  type: list
  elements: dict
  sample: [{period_start: '2026-05-04', input_tokens: 120000, output_tokens: 64000, total_tokens: 184000, cost_usd: 2.31}]
page:
  description: The page read (with O(page)), or the last page read.
  returned: with O(report=access_logs) or O(report=access_log_sessions)
  type: int
  sample: 1
page_size:
  description: The entries (or sessions) a page holds.
  returned: with O(report=access_logs) or O(report=access_log_sessions)
  type: int
  sample: 50
total_pages:
  description: How many pages there are.
  returned: with O(report=access_logs) or O(report=access_log_sessions)
  type: int
  sample: 0
total_records:
  description: How many entries (or sessions) match.
  returned: with O(report=access_logs) or O(report=access_log_sessions)
  type: int
  sample: 0
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._errors import OptionsError
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network import AGENT_NETWORK, BASE
from ansible_collections.nms.overlay.plugins.module_utils._task import NmsModule

PATHS = dict(access_logs=BASE + '/access-logs', access_log_sessions=BASE + '/access-log-sessions', usage=BASE + '/usage/overview',
             consumption=BASE + '/consumption')
PAGED = ('access_logs', 'access_log_sessions')
FILTERS = ('user_id', 'session_id', 'group_id', 'provider_id', 'model', 'start_date', 'end_date')
LOG_OPTIONS = ('page', 'page_size', 'sort_by', 'sort_order', 'search', 'decision', 'path')
MAX_PAGE_SIZE = 100  # what servers answer at most a page: asked for when reading every page
REFERENCES = dict(group_id='groups', provider_id='agent_network_providers')
PAGE_KEYS = ('page', 'page_size', 'total_pages', 'total_records')


class AgentNetworkReportInfoModule(NmsModule):
    """A report, its filters resolved to ids: one read, or every page of a paged one (up to ``limit`` entries)."""

    requires = AGENT_NETWORK
    api_operations = tuple('GET /api' + path for path in PATHS.values())
    argument_spec = dict(
        report=dict(type='str', required=True, choices=list(PATHS)),
        page=dict(type='int'), page_size=dict(type='int'), limit=dict(type='int'),
        sort_by=dict(type='str'), sort_order=dict(type='str', choices=['asc', 'desc']),
        search=dict(type='str'), decision=dict(type='str'), path=dict(type='str'), user_id=dict(type='str'), session_id=dict(type='str'),
        group_id=dict(type='list', elements='str'), provider_id=dict(type='list', elements='str'), model=dict(type='list', elements='str'),
        start_date=dict(type='str'), end_date=dict(type='str'), granularity=dict(type='str', choices=['day', 'week', 'month']),
    )

    def run(self):
        report = self.params['report']
        takes = (LOG_OPTIONS + ('limit',) + FILTERS if report in PAGED else FILTERS + ('granularity',) if report == 'usage' else ())
        wrong = [name for name in self.argument_spec if name != 'report' and name not in takes and self.params.get(name) is not None]
        if wrong:
            raise OptionsError('option %s: the %s report does not take it' % (', '.join(wrong), report))
        for name in ('page', 'page_size', 'limit'):
            value = self.params.get(name)
            if value is not None and not 1 <= value <= (MAX_PAGE_SIZE if name == 'page_size' else value):
                raise OptionsError('option %s: must be at least 1%s' % (name, ' and at most 100' if name == 'page_size' else ''))
        self.check_generation()
        query = {name: self.params[name] for name in takes if self.params.get(name) is not None and name != 'limit'}
        for name, kind in REFERENCES.items():
            if name in query:
                query[name] = self.resolver.to_ids(kind, query[name], name)
        if 'user_id' in query:
            query['user_id'] = self.resolver.to_id('users', query['user_id'], 'user_id')
        if report not in PAGED:
            return {'changed': False, 'agent_network_report': list(self.client.get(PATHS[report], query=query or None) or [])}
        return self.pages(PATHS[report], query, self.params.get('limit'))

    def pages(self, path, query, limit):
        """The page the task names, or every page from the first until the last or ``limit`` entries."""
        one = 'page' in query
        if not one:
            query.setdefault('page_size', MAX_PAGE_SIZE)
        entries, page = [], query.get('page', 1)
        while True:
            answer = self.client.get(path, query=dict(query, page=page))
            if not isinstance(answer, dict) or not isinstance(answer.get('data', []), (list, type(None))):
                raise self.client.answer_error('GET', path, 'the answer is no page ({"data": [...], "total_pages": ...})')
            data = answer.get('data') or []
            entries.extend(data)
            pages = answer.get('total_pages') if isinstance(answer.get('total_pages'), int) else page
            if one or not data or page >= pages or (limit is not None and len(entries) >= limit):
                break
            page += 1
        result = {'changed': False, 'agent_network_report': entries[:limit] if limit is not None else entries}
        result.update((key, answer.get(key)) for key in PAGE_KEYS)
        return result


if __name__ == '__main__':
    AgentNetworkReportInfoModule.main()
