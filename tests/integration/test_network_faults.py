# -*- coding: utf-8 -*-
"""build_network against an emulator that fails 20% of requests at random (issue: reliability, faults).

Each seed: the network is built from scratch through 503s, 429s with Retry-After, dropped connections
and answers slower than the timeout; the final state is the described one with no duplicate, and a
re-run (still with faults) reports changed=0. `make test` runs one seed per dialect, `make stress` (NMS_STRESS=1) 20.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

from tests.support.modules import example_network

STRESS = os.environ.get('NMS_STRESS', '').strip().lower() not in ('', '0', 'false', 'no')
SEEDS = range(1, 21) if STRESS else range(1, 2)
FAULTS = {'rate': 0.2, 'kinds': ['503', '429', 'drop', 'slow'], 'retry_after': 1, 'slow': 2.5}
CONNECTION = {'network_timeout': 1.5, 'network_retries': 6}


def inventory_of(emulator):
    listing = {}
    for path, key in (('/api/groups', 'name'), ('/api/policies', 'name'), ('/api/posture-checks', 'name'),
                      ('/api/routes', 'network_id'), ('/api/dns/nameservers', 'name'), ('/api/setup-keys', 'name'),
                      ('/api/users', 'name')) + ((('/api/networks', 'name'), ('/api/dns/zones', 'domain'))
                                                 if emulator.dialect == 'current' else ()):
        status, items = emulator.api('GET', path)
        assert status == 200, items
        listing[path] = Counter(item[key] for item in items or [])
    return listing


@pytest.mark.parametrize('seed', SEEDS)
def test_build_network_through_random_faults(emulator, run, seed):
    emulator.set_faults(dict(FAULTS, seed=seed))
    first = run([], playbook='nms.overlay.build_network', extra_vars=CONNECTION, timeout=900)
    assert first.rc == 0, first.stdout[-3000:]
    faults = [r for r in emulator.requests() if r['fault']]
    emulator.set_faults({'rate': 0.0})
    built = inventory_of(emulator)
    for path, counts in built.items():
        duplicates = [name for name, count in counts.items() if count > 1]
        assert duplicates == [], (path, duplicates)
    assert set(built['/api/groups']) == {'All'} | {group['name'] for group in example_network(emulator.dialect)['groups']}
    assert 'internal dns' in built['/api/dns/nameservers']
    # the office LAN: a Network on a v0.77 server, a route on v0.27
    assert 'office' in built['/api/networks'] if emulator.dialect == 'current' else 'office-lan' in built['/api/routes']
    assert 'developers to servers (ssh)' in built['/api/policies']
    assert faults, 'the faults were not injected'

    emulator.set_faults(dict(FAULTS, seed=seed + 1000))
    emulator.clear_log()
    again = run([], playbook='nms.overlay.build_network', extra_vars=CONNECTION, timeout=900)
    assert again.rc == 0, again.stdout[-3000:]
    assert 'changed=0' in again.stdout.split('PLAY RECAP')[-1], again.stdout[-3000:]
    assert emulator.writes() == []
