# -*- coding: utf-8 -*-
"""Issue 43, item 4: a big first build with network_state on an empty account (netbird dialect), through
ansible-playbook and real HTTP (tests/bench/big_build.py; ``make bench`` runs the 500/1,000/200/200 size).

Its creates of names servers let repeat (policies, routes, setup keys) converge with concurrent runs once per kind:
the run sends one list per kind it reads, one write per object, and one more list per such kind after its last create,
and nothing else; it no longer waits a settle window per object (it took 3 s each: 150 s for the 50 policies alone
here). The unchanged re-run sends only the lists. Each kind's progress line shows at the default verbosity."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._store import MAX_SETTLE
from tests.bench import big_build
from tests.bench.big_build import PATHS, SMALL, bare_loop, build, names

pytestmark = pytest.mark.dialects('netbird')

CONVERGING = ('policies', 'routes', 'setup_keys')  # servers let these share a name; groups they keep unique


def test_a_big_first_build_converges_once_per_kind_and_its_rerun_only_reads(emulator, tmp_path):
    loop = bare_loop(emulator, SMALL)
    figures = build(emulator, str(tmp_path), SMALL)
    first, again = figures['first'], figures['again']
    lists = {PATHS[kind]: 2 if kind in CONVERGING else 1 for kind in PATHS}
    lists['/api/peers'] = 1  # the routes' routing peer, by name
    assert first['requests']['reads'] == lists, first['requests']
    assert first['requests']['writes'] == loop['requests']['writes'] == {
        'POST %s' % PATHS[kind]: SMALL[kind] for kind in PATHS}, (first['requests'], loop['requests'])
    assert again['requests'] == dict(reads={path: 1 for path in lists}, writes={}), again['requests']
    # one settle window for the run, where one per object was 3 s x 140 here
    assert first['seconds'] - again['seconds'] < MAX_SETTLE + 20 * loop['seconds'] + 10, (
        first['seconds'], again['seconds'], loop['seconds'])
    assert big_build.MAX_SETTLE == MAX_SETTLE  # the bench's floor of a first build counts the engine's settle window
    assert 0 < figures['empty']['seconds'] < first['seconds']
    shown = [line.strip() for line in first['output'].splitlines() if line.strip().startswith('network_state: ')]
    assert shown == ['network_state: description checked: 190 resources in 4 kinds, every reference found'] + [
        'network_state: %s: created %d (%s, ...)' % (kind, SMALL[kind], ', '.join(names(kind, 5))) for kind in PATHS], (
        first['output'][-3000:])
    assert [line.strip() for line in again['output'].splitlines() if line.strip().startswith('network_state: ')][1:] == [
        'network_state: %s: %d unchanged' % (kind, SMALL[kind]) for kind in PATHS]
