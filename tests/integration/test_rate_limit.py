"""A first build bigger than a rate-limited server's burst (NetBird's NB_API_RATE_LIMITING_ENABLED, played by the
emulator: a small burst, a fast refill, 429 without Retry-After) completes, warns with the wait and the work left,
and sends no extra writes; the unchanged re-run writes nothing."""

from __future__ import annotations

GROUPS = [{'name': 'limited-%02d %s' % (number, "o'dd \u00e9"), 'peers': []} for number in range(24)]


def test_a_build_past_the_burst_waits_for_the_limit_and_completes(emulator, run):
    emulator.control('POST', 'config', {'rate_limit': {'rpm': 600, 'burst': 8}})  # one request every 0.1 s after 8
    task = {'name': 'network', 'nms.overlay.network_state': {'groups': GROUPS, 'retries': 0}}
    done = run([task])
    assert done.rc == 0, done
    result = done['network']
    assert result['changed'] is True and result['summary']['groups']['created'] == 24, result
    calls = emulator.requests()
    assert [c['status'] for c in calls].count(429) >= 1, calls
    made = [c for c in calls if c['method'] == 'POST' and c['status'] == 200]
    assert sorted(c['body']['name'] for c in made) == sorted(g['name'] for g in GROUPS)  # each once
    assert all(c['status'] in (200, 429) for c in calls), calls
    warnings = [w for w in result.get('warnings', []) if 'HTTP 429' in w]
    assert warnings, result.get('warnings')
    assert "waiting 0.5 s for the server's rate limit to let another request through (it sent no Retry-After)" \
        in warnings[0], warnings
    assert 'a 429 does not count against retries' in warnings[0], warnings
    assert emulator.token not in ''.join(result.get('warnings', []))
    # the wait that came during the writes names what is left
    assert any('resources left' in w for w in warnings) or not any(c['method'] == 'POST' and c['status'] == 429
                                                                   for c in calls), warnings
    emulator.clear_log()
    again = run([task])
    assert again.rc == 0 and again['network']['changed'] is False, again
    assert emulator.writes() == []
