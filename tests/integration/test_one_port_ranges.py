# -*- coding: utf-8 -*-
"""A one-port range (``9000-9000``) in a policy rule's ports is that port: servers read it back as ``9000`` (v0.77
keeps {start: 9000, end: 9000} in port_ranges and answers it so; v0.27 takes single ports only), so a re-run must
change nothing and write nothing, in both dialects, through the policy module and network_state."""

from __future__ import annotations

import pytest

from tests.support.emulator import make_group, writes_of

RULE = {'name': 'app', 'protocol': 'tcp', 'sources': ['developers'], 'destinations': ['web']}


def policy_task(ports, label='p', name='one-port'):
    return {'name': label, 'nms.overlay.policy': {'name': name, 'rules': [dict(RULE, ports=ports)]}}


def test_a_one_port_range_is_written_once_and_settles(emulator, run):
    make_group(emulator, 'developers')
    make_group(emulator, 'web')
    emulator.clear_log()
    planned = run([policy_task(['443', '9000-9000'])], check=True)
    assert planned['p']['changed'] is True, planned['p'].get('msg')
    assert emulator.writes() == []

    made = run([policy_task(['443', '9000-9000'])])
    assert made['p']['changed'] is True, made['p'].get('msg')
    assert writes_of(emulator) == ['POST /api/policies']
    assert made['p']['policy']['rules'][0]['ports'] == ['443', '9000']

    emulator.clear_log()
    again = run([policy_task(['443', '9000-9000'])], diff=True)
    assert again['p']['changed'] is False, again['p'].get('diff')
    assert emulator.writes() == []

    # the same through network_state
    described = {'policies': [{'name': 'one-port', 'rules': [dict(RULE, ports=['9000-9000', '443'])]}]}
    emulator.clear_log()
    state = run([{'name': 'n', 'nms.overlay.network_state': described}])
    assert state['n']['changed'] is False, state['n'].get('changes')
    assert emulator.writes() == []


def test_a_stored_one_port_range_matches_the_option(emulator, run):
    """A policy a v0.77 server holds with port_ranges [{start: 9000, end: 9000}, {start: 8000, end: 8100}] (made
    elsewhere) is what the options 9000-9000 and 8000-8100 describe: no write."""
    if emulator.dialect != 'current':
        pytest.skip('port_ranges exist on v0.77 servers only (a v0.27 server refuses every range)')
    developers, web = make_group(emulator, 'developers')['id'], make_group(emulator, 'web')['id']
    emulator.ok('POST', '/api/policies', {'name': 'stored', 'enabled': True, 'description': '', 'rules': [{
        'name': 'app', 'enabled': True, 'action': 'accept', 'bidirectional': True, 'protocol': 'tcp',
        'port_ranges': [{'start': 9000, 'end': 9000}, {'start': 8000, 'end': 8100}],
        'sources': [developers], 'destinations': [web]}]})
    emulator.clear_log()
    result = run([policy_task(['9000-9000', '8000-8100'], name='stored'), policy_task(['9000', '8000-8100'], 'q', 'stored')])
    assert [result[task]['changed'] for task in ('p', 'q')] == [False, False]
    assert emulator.writes() == []
