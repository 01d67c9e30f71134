# -*- coding: utf-8 -*-
"""Issue 46, 13: the account settings of v0.77.1 the module took no option for (network ranges, IPv6 and expose
groups by name, auto-update, metrics push, local MFA), on the emulator's two dialects: set, re-run unchanged, every
other setting sent back as the server answered it, and refused by an older server before any write."""

from __future__ import annotations

import pytest

from tests.support.emulator import make_group, writes_of

OPTIONS = {'network_range_v6': 'fd00:1234:5678::/64', 'ipv6_enabled_groups': ["ops 'v6' team"],
           'peer_expose_enabled': True, 'peer_expose_groups': ["ops 'v6' team"], 'auto_update_version': '0.77.1',
           'auto_update_always': True, 'metrics_push_enabled': True, 'local_mfa_enabled': True,
           'network_range': '100.90.0.0/16'}


def settings_task(**options):
    return {'name': 'settings', 'nms.overlay.account_settings': options}


def test_the_new_settings_are_set_by_group_names_and_a_rerun_is_unchanged(emulator, run):
    if emulator.dialect != 'current':
        pytest.skip('needs the current dialect (a v0.77.1 server)')
    group = make_group(emulator, "ops 'v6' team")
    before = emulator.ok('GET', '/api/accounts')[0]['settings']
    emulator.clear_log()
    check = run([settings_task(**OPTIONS)], check=True, diff=True)
    assert check['settings']['changed'] is True and emulator.writes() == []
    assert check['settings']['diff']['after']['ipv6_enabled_groups'] == ["ops 'v6' team"]  # named in the diff
    first = run([settings_task(**OPTIONS)], diff=True)
    assert first.rc == 0, first
    assert len(writes_of(emulator)) == 1 and writes_of(emulator)[0].startswith('PUT /api/accounts/')
    sent = emulator.writes()[0]['body']['settings']
    assert sent['ipv6_enabled_groups'] == [group['id']] and sent['peer_expose_groups'] == [group['id']]
    # what the task did not set goes back as the server answered it
    untouched = {key: value for key, value in before.items() if key not in OPTIONS}
    assert {key: sent.get(key) for key in untouched} == untouched
    after = emulator.ok('GET', '/api/accounts')[0]['settings']
    assert {key: after[key] for key in OPTIONS if 'groups' not in key} == {
        key: value for key, value in OPTIONS.items() if 'groups' not in key}
    assert after['ipv6_enabled_groups'] == [group['id']] and after['peer_expose_groups'] == [group['id']]
    emulator.clear_log()
    again = run([settings_task(**OPTIONS)])
    assert again['settings']['changed'] is False and emulator.writes() == []


def test_an_unknown_group_and_a_server_refusal_change_nothing(emulator, run):
    if emulator.dialect != 'current':
        pytest.skip('needs the current dialect (a v0.77.1 server)')
    emulator.clear_log()
    unknown = run([settings_task(ipv6_enabled_groups=['no such group'])])
    assert unknown.rc != 0 and 'no such group' in unknown['settings']['msg'] and emulator.writes() == []
    refused = run([settings_task(peer_expose_enabled=True, peer_expose_groups=[])])
    msg = refused['settings']['msg']
    assert refused.rc != 0 and 'PUT' in msg and '422' in msg and 'peer expose requires at least one group' in msg, msg


def test_an_older_server_refuses_each_new_setting_before_any_write(emulator, run):
    if emulator.dialect == 'current':
        pytest.skip('needs an older server (the v0.27 dialects)')
    emulator.clear_log()
    result = run([settings_task(metrics_push_enabled=True, network_range='100.90.0.0/16')])
    msg = result['settings']['msg']
    assert result.rc != 0
    assert 'option metrics_push_enabled: ' in msg and 'servers have it from v0.74.0 on' in msg, msg
    assert 'option network_range: ' in msg and 'servers have it from v0.53.0 on' in msg, msg
    assert emulator.writes() == []
