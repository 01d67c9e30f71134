# -*- coding: utf-8 -*-
"""Issue 46, 13: a peer's ipv6 (v0.71.0 on) on the emulator's two dialects: set and re-run unchanged, sent only when
it changes (an unrelated update never sends it), the server's refusals shown with method, URL and status, a bad
address and an older server refused before any request that writes."""

from __future__ import annotations

import pytest

from tests.support.emulator import make_group, make_peers, writes_of

RANGE = 'fd00:1234:5678::/64'


def needs_current(emulator):
    if emulator.dialect != 'current':
        pytest.skip('needs the current dialect (a v0.77.1 server)')


def test_ipv6_set_rerun_and_left_out_of_other_updates(emulator, run):
    needs_current(emulator)
    peers = make_peers(emulator, 'web-1', 'web-2')
    emulator.clear_log()
    refused = run([{'name': 'v6', 'nms.overlay.peer': {'hostname': 'web-1', 'ipv6': 'fd00:1234:5678::15'}}])
    msg = refused['v6']['msg']
    assert refused.rc != 0 and 'PUT' in msg and '412' in msg and 'ipv6 is not configured for this account' in msg, msg
    group = make_group(emulator, 'v6 peers', [peers['web-1']])
    account = emulator.ok('GET', '/api/accounts')[0]
    emulator.ok('PUT', '/api/accounts/%s' % account['id'], {'settings': dict(
        account['settings'], network_range_v6=RANGE, ipv6_enabled_groups=[group['id']])})
    emulator.clear_log()
    task = {'name': 'v6', 'nms.overlay.peer': {'hostname': 'web-1', 'ipv6': 'fd00:1234:5678:0::15'}}
    check = run([task], check=True, diff=True)
    assert check['v6']['changed'] is True and emulator.writes() == []
    first = run([task], diff=True)
    assert first.rc == 0, first
    assert first['v6']['diff'] == {'before': {'ipv6': None}, 'after': {'ipv6': 'fd00:1234:5678::15'}}
    assert writes_of(emulator) == ['PUT /api/peers/%s' % peers['web-1']]
    assert emulator.writes()[0]['body']['ipv6'] == 'fd00:1234:5678::15'
    assert first['v6']['peer']['ipv6'] == 'fd00:1234:5678::15'
    emulator.clear_log()
    assert run([task])['v6']['changed'] is False and emulator.writes() == []
    # an update of another member sends no ipv6 (the server would check it again)
    ssh = run([{'name': 'ssh', 'nms.overlay.peer': {'hostname': 'web-1', 'ssh_enabled': True}}])
    assert ssh.rc == 0 and 'ipv6' not in emulator.writes()[0]['body']
    # the address of another peer, a peer outside the IPv6 groups: the server's words
    emulator.clear_log()
    outside = run([{'name': 'v6', 'nms.overlay.peer': {'hostname': 'web-2', 'ipv6': 'fd00:1234:5678::16'}}])
    assert outside.rc != 0 and 'peer is not in any ipv6-enabled group' in outside['v6']['msg']
    assert emulator.ok('GET', '/api/peers/%s' % peers['web-2']).get('ipv6') is None


def test_a_bad_ipv6_and_an_older_server_are_refused_before_any_write(emulator, run):
    make_peers(emulator, 'web-1')
    emulator.clear_log()
    bad = run([{'name': 'v6', 'nms.overlay.peer': {'hostname': 'web-1', 'ipv6': '100.64.0.5'}}])
    assert bad.rc != 0 and "option ipv6: '100.64.0.5' is not an IPv6 address" in bad['v6']['msg'], bad['v6']['msg']
    assert emulator.requests() == []
    if emulator.dialect == 'current':
        return
    old = run([{'name': 'v6', 'nms.overlay.peer': {'hostname': 'web-1', 'ipv6': 'fd00::15'}}])
    msg = old['v6']['msg']
    assert old.rc != 0 and 'option ipv6: ' in msg and 'servers have it from v0.71.0 on' in msg, msg
    assert emulator.writes() == []
