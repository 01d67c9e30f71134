# -*- coding: utf-8 -*-
"""nms.overlay.peer_temporary_access on the emulator: on a v0.77 server (`current`) create, re-run, check mode, other
rules (a warning, no write), delete (its policies with it) and delete again; a bad rule refused before any request;
a v0.27 server refuses it after the version probe."""

from __future__ import annotations

import pytest

from tests.support.emulator import writes_of

KEY = 'n0r3pL4c3h0ld3rK3yAAAAAAAAAAAAAAAAAAAAAAAAA='
OTHER_KEY = 'Lj3eEeyqkORmtn0wLnO1gxB6bJ3lU7MsHlNHvVA8iGk='  # a second WireGuard key (32 bytes, base64)


def needs(emulator, dialect):
    if emulator.dialect != dialect:
        pytest.skip('needs the %s dialect' % dialect)


def access(**options):
    return {'name': 'access', 'nms.overlay.peer_temporary_access': options}


def test_create_rerun_check_delete(emulator, run):
    needs(emulator, 'current')
    target = emulator.add_peers(peers=[{'hostname': 'web-1'}])[0]
    task = dict(peer='web-1', name='laptop', wg_pub_key=KEY, rules=['tcp/22', 'udp/53-60'])
    emulator.clear_log()
    first = run([access(**task)], diff=True)
    assert first.rc == 0, first
    created = first['access']['temporary_access']
    assert first['access']['changed'] is True and created['rules'] == ['tcp/22', 'udp/53-60'] and created['peer'] == target['id']
    assert writes_of(emulator) == ['POST /api/peers/%s/temporary-access' % target['id']]
    policies = [p for p in emulator.ok('GET', '/api/policies') if p['name'] == 'Temporary access policy for peer laptop']
    assert len(policies) == 2

    emulator.clear_log()
    again = run([access(**task)])
    assert again['access']['changed'] is False and again['access']['temporary_access']['id'] == created['id']
    assert emulator.writes() == []
    other = run([access(**{**task, 'rules': ['tcp/443']})], check=True)
    assert other['access']['changed'] is False and emulator.writes() == []
    assert 'keeps its rules tcp/22, udp/53-60, not tcp/443' in other['access']['warnings'][0]
    fresh = run([access(**{**task, 'name': 'laptop-2', 'wg_pub_key': OTHER_KEY})], check=True)
    assert fresh['access']['changed'] is True and emulator.writes() == []

    gone = run([access(peer='web-1', name='laptop', state='absent')])
    assert gone['access']['changed'] is True and writes_of(emulator) == ['DELETE /api/peers/%s' % created['id']]
    assert not [p for p in emulator.ok('GET', '/api/policies') if p['name'].startswith('Temporary access policy')]
    emulator.clear_log()
    again = run([access(peer='web-1', name='laptop', state='absent')])
    assert again['access']['changed'] is False and emulator.writes() == []


def test_a_bad_rule_and_a_known_key_are_refused(emulator, run):
    needs(emulator, 'current')
    emulator.add_peers(peers=[{'hostname': 'web-1'}])
    emulator.clear_log()
    bad = run([dict(access(peer='web-1', name='laptop', wg_pub_key=KEY, rules=['tcp']), ignore_errors=True)])
    assert "option rules[0]: 'tcp' is no rule" in bad['access']['msg'] and emulator.requests() == []
    run([access(peer='web-1', name='laptop', wg_pub_key=KEY, rules=['tcp/22'])])
    twice = run([dict(access(peer='web-1', name='other', wg_pub_key=KEY, rules=['tcp/22']), ignore_errors=True)])
    assert twice['access']['status'] == 412 and 'peer has been already registered' in twice['access']['msg']


def test_a_v027_server_refuses_it_after_the_version_probe(emulator, run):
    needs(emulator, 'netbird')
    emulator.clear_log()
    result = run([dict(access(peer='web-1', name='laptop', wg_pub_key=KEY, rules=['tcp/22']), ignore_errors=True)])
    assert 'does not have temporary access to peers, which came with NetBird v0.59.0' in result['access']['msg']
    assert [(r['method'], r['path']) for r in emulator.requests()] == [('GET', '/api/instance/version')]
