# -*- coding: utf-8 -*-
"""Issue 46, item 15, on a real server: NetBird v0.77.1 started with its own rate limit on personal access tokens
(NB_API_RATE_LIMITING_ENABLED, a burst of 10 requests, then one a second). A first build of more resources than the
burst leaves completes: each 429 is waited out and warned about (the wait, the work left), no write is sent twice,
and the unchanged re-run writes nothing. The emulator's own test (test_rate_limit.py) plays the same server."""

from __future__ import annotations

import pytest

from tests.integration.test_real_servers import connection, started

pytestmark = pytest.mark.real

LIMIT = {'NB_API_RATE_LIMITING_ENABLED': 'true', 'NB_API_RATE_LIMITING_RPM': '60', 'NB_API_RATE_LIMITING_BURST': '10'}
GROUPS = [{'name': 'rate %02d %s' % (number, "o'dd \u00e9"), 'peers': []} for number in range(16)]


@pytest.fixture(scope='module')
def limited():
    yield from started('v0.77.1', environment=LIMIT)


def test_a_build_past_a_real_servers_burst_waits_for_its_limit_and_completes(limited, run):
    limited.clear_log()
    task = {'name': 'network', 'nms.overlay.network_state': {'groups': GROUPS, 'retries': 0}}
    done = run([task], env=connection(limited), ansible=True)  # Ansible's own output: the warnings, no token
    assert done.rc == 0, done
    result = done['network']
    assert result['changed'] is True and result['summary']['groups']['created'] == len(GROUPS), result
    calls = [call for call in limited.requests() if call['path'].startswith('/api')]
    statuses = [call['status'] for call in calls]
    assert statuses.count(429) >= 1 and set(statuses) <= {200, 429}, statuses  # the limit was met, nothing else
    print('\nv0.77.1 rate-limited build of %d groups: %d requests, %d answered 429' % (len(GROUPS), len(calls), statuses.count(429)))
    made = [call['request']['name'] for call in calls if call['method'] == 'POST' and call['status'] == 200]
    assert sorted(made) == sorted(group['name'] for group in GROUPS)  # each group created once
    warnings = [warning for warning in result.get('warnings', []) if 'HTTP 429' in warning]
    assert warnings and all('a 429 does not count against retries' in warning for warning in warnings), result
    assert any('resources left' in warning for warning in warnings), warnings
    print(warnings[-1])
    assert 'HTTP 429' in done.text and limited.token not in done.text

    limited.clear_log()
    again = run([task], env=connection(limited))
    assert again.rc == 0 and again['network']['changed'] is False, again
    assert limited.writes() == []
