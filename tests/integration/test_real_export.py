# -*- coding: utf-8 -*-
"""The export round trip against the real NetBird v0.27.6 and v0.77.1 (the real-server stage, ``make real``).

A network with every kind the release has is built on a seeded server; the export_network playbook reads it into a
file; applied to the same server (through the network role, as `-e @network.yml` applies it) nothing changes and
nothing is written; exported again, the file is the same. Then a second seeded server of the release (its own peers,
of the same names) gets the file, and its export is the first one, apart from what a fresh server cannot hold.
"""

from __future__ import annotations

import copy

import pytest
import yaml

from ansible_collections.nms.overlay.plugins.module_utils._resources.setup_key import lifetime_floor

from tests.integration.export_pins import drift_of_changes_by_hand, sweep
from tests.integration.test_export import description, with_secrets, without_peers
from tests.integration.test_real_servers import connection, started
from tests.support.realserver import RELEASES

pytestmark = pytest.mark.real


def with_real_peers(network, peers):
    """The test's description with the seeded server's peers in place of the emulator's host names, without what the
    test servers cannot hold: no NetBird proxy connects to them, so they refuse services and custom domains (the
    emulator's round trip has them; tests/integration/test_real_network_state_sections.py the refusals)."""
    network = copy.deepcopy(network)
    for section in ('reverse_proxy_domains', 'reverse_proxy_services'):
        network.pop(section, None)
    names = dict(zip(('web-1', 'db-1', 'laptop-ana', 'gw-1'), peers))
    for group in network['groups']:
        if 'peers' in group:
            group['peers'] = [names[peer] for peer in group['peers']]
    for route in network['routes']:
        if 'peer' in route:
            route['peer'] = names[route['peer']]
    return network


def export(run, server, path):
    result = run([], playbook='nms.overlay.export_network', env=connection(server), extra_vars={'nms_export_file': str(path)})
    assert result.rc == 0, result
    return path.read_text(encoding='utf-8')


@pytest.mark.parametrize('release', RELEASES)
def test_export_applies_unchanged_and_moves_to_a_fresh_server(release, run, tmp_path):
    source = started(release)
    server = next(source)
    try:
        peers = sorted(peer['name'] for peer in server.ok('GET', '/peers'))
        network = with_real_peers(description(release != 'v0.27.6'), peers)
        built = run([{'name': 'build', 'nms.overlay.network_state': network}], env=connection(server))
        assert built.rc == 0, built

        server.clear_log()
        first = export(run, server, tmp_path / 'network.yml')
        assert server.writes() == []
        data = yaml.safe_load(first)
        exported = data['network_description']
        assert server.token not in first
        assert 'key' not in str([sorted(key) for key in exported['setup_keys']])
        # as built: the names, not ids
        assert {'name': 'servers', 'peers': sorted(network['groups'][1]['peers'])} in exported['groups']

        applied = run([], playbook='nms.overlay.build_network', env=connection(server), extra_vars=data)
        assert applied.rc == 0, applied.stdout[-3000:]
        assert 'changed=0' in applied.stdout.split('PLAY RECAP')[-1], applied
        assert server.writes() == [], 'the export applied to its own server wrote: %s' % server.writes()
        assert export(run, server, tmp_path / 'again.yml') == first
    finally:
        next(source, None)

    target = started(release)
    fresh = next(target)
    try:
        # the write-only values (a provider's API key) are never exported: given again where the objects are new
        moving = dict(data, network_description=with_secrets(data['network_description']))
        moved = run([], playbook='nms.overlay.build_network', env=connection(fresh), extra_vars=moving)
        assert moved.rc == 0, moved
        there = yaml.safe_load(export(run, fresh, tmp_path / 'fresh.yml'))['network_description']
        # the peers of the same names are other peers there: the description names them alike
        assert there == exported
    finally:
        next(target, None)


@pytest.mark.parametrize('release', RELEASES)
def test_an_export_pins_what_it_writes_and_keeps_key_lifetimes(release, run, tmp_path):
    """Issue 44 on the real servers: every field an export writes is pinned (a change made by hand to any of them,
    one per object at a time, is drift and applying the export undoes it; a policy disabled, a rule switched to drop
    and a peer added to a group that had none, through the API, are named by the drift report and undone by
    build_network), and a 7-day setup key is exported as one and made so on a fresh server."""
    source = started(release)
    server = next(source)
    try:
        env = connection(server)
        peers = sorted(peer['name'] for peer in server.ok('GET', '/peers'))
        network = with_real_peers(description(release != 'v0.27.6'), peers)
        network['setup_keys'].append({'name': 'week', 'type': 'reusable', 'expires_in': '7d'})
        built = run([{'name': 'build', 'nms.overlay.network_state': network}], env=env)
        assert built.rc == 0, built
        target = tmp_path / 'network.yml'
        exported = yaml.safe_load(export(run, server, target))['network_description']
        assert {key['name']: key['expires_in'] for key in exported['setup_keys']} == {'servers': '30d', 'week': '7d'}

        def gather():
            result = run([{'name': 'gather', 'nms.overlay.network_state': {'state': 'gathered'}}], env=env)
            assert result.rc == 0, result
            return result['gather']['gathered']

        made, dummy_untouched = sweep(run, exported, gather, env=env)
        assert made >= (60 if release != 'v0.27.6' else 40), made
        drift_of_changes_by_hand(run, server, target, tmp_path, env=env)
    finally:
        next(source, None)

    target_server = started(release)
    fresh = next(target_server)
    try:
        moving = without_peers(with_secrets(exported))
        moved = run([{'name': 'move', 'nms.overlay.network_state': moving}], env=connection(fresh))
        assert moved.rc == 0, moved
        week = next(key for key in fresh.ok('GET', '/setup-keys') if key['name'] == 'week')
        assert abs(lifetime_floor(week) - 7 * 86400) < 120, week
    finally:
        next(target_server, None)
