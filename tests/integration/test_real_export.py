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

from tests.integration.test_export import description, with_secrets
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
