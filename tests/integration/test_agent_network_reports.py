# -*- coding: utf-8 -*-
"""The Agent Network's paged reports on the emulator (the `current` dialect pages them as v0.77.1's OpenAPI says):
every page is read, up to ``limit`` entries, or the one page asked; the requests counted."""

from __future__ import annotations

from urllib.parse import parse_qs

import pytest

pytestmark = pytest.mark.dialects('current')

LOGS = '/api/agent-network/access-logs'
SESSIONS = '/api/agent-network/access-log-sessions'


def report(run, **options):
    result = run([{'name': 'r', 'nms.overlay.agent_network_report_info': options}])
    assert result.rc == 0, result
    return result['r']


def pages_asked(emulator, path):
    """(page, page_size) of each request to ``path``, in order."""
    asked = [parse_qs(r['query']) for r in emulator.requests() if r['path'] == path]
    return [(int(query['page'][0]), int(query['page_size'][0]) if 'page_size' in query else None) for query in asked]


@pytest.fixture(name='logs')
def fixture_logs(emulator):
    assert emulator.control('POST', '/_emulator/agent-network-logs', {'count': 250, 'per_session': 5}) == {'count': 250, 'total': 250}
    emulator.clear_log()
    return emulator


def test_every_page_is_read_with_the_fewest_requests(logs, run):
    found = report(run, report='access_logs')
    entries = found['agent_network_report']
    assert len(entries) == 250 and len({entry['id'] for entry in entries}) == 250
    assert [entry['timestamp'] for entry in entries] == sorted((entry['timestamp'] for entry in entries), reverse=True)
    assert (found['total_records'], found['total_pages'], found['page'], found['page_size']) == (250, 3, 3, 100)
    assert pages_asked(logs, LOGS) == [(1, 100), (2, 100), (3, 100)]


def test_a_limit_stops_reading_once_it_has_enough(logs, run):
    found = report(run, report='access_logs', limit=120)
    assert len(found['agent_network_report']) == 120 and found['total_records'] == 250
    assert pages_asked(logs, LOGS) == [(1, 100), (2, 100)]
    logs.clear_log()
    oldest = report(run, report='access_logs', limit=1, sort_order='asc')
    assert [entry['id'] for entry in oldest['agent_network_report']] == ['ainlog_000249']
    assert pages_asked(logs, LOGS) == [(1, 100)]


def test_a_page_size_is_kept_for_every_page(logs, run):
    found = report(run, report='access_logs', page_size=90)
    assert len(found['agent_network_report']) == 250
    assert pages_asked(logs, LOGS) == [(1, 90), (2, 90), (3, 90)]


def test_a_page_reads_that_page_only(logs, run):
    found = report(run, report='access_logs', page=2, page_size=50)
    assert [entry['id'] for entry in found['agent_network_report']] == ['ainlog_%06d' % n for n in range(50, 100)]
    assert (found['page'], found['total_pages']) == (2, 5)
    assert pages_asked(logs, LOGS) == [(2, 50)]


def test_sessions_are_paged_alike(logs, run):
    found = report(run, report='access_log_sessions', page_size=20, decision='allow')
    sessions = found['agent_network_report']
    assert len(sessions) == 50 and all(session['request_count'] == 5 for session in sessions)
    assert found['total_records'] == 50 and pages_asked(logs, SESSIONS) == [(1, 20), (2, 20), (3, 20)]


def test_an_empty_report_is_one_request(emulator, run):
    emulator.clear_log()
    found = report(run, report='access_logs')
    assert found['agent_network_report'] == [] and found['total_records'] == 0
    assert pages_asked(emulator, LOGS) == [(1, 100)]


def test_a_limit_is_refused_by_the_reports_that_are_not_paged(emulator, run):
    emulator.clear_log()
    result = run([{'name': 'r', 'ignore_errors': True, 'nms.overlay.agent_network_report_info': {'report': 'usage', 'limit': 5}}])
    assert result['r']['msg'] == 'option limit: the usage report does not take it'
    assert emulator.requests() == []
