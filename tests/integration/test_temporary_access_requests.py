# -*- coding: utf-8 -*-
"""nms.overlay.peer_temporary_access's requests on the emulator (`current`): the peers are listed once and serve both
finding the temporary peer and naming the target; the policies are read only when a peer has the name (issue 31: the
create-only strategy reads no more than the hand-written module did, one request less for a create)."""

from __future__ import annotations

import pytest

KEY = 'r3qu3stC0untK3yAAAAAAAAAAAAAAAAAAAAAAAAAAAA='  # 32 bytes in base64, as a WireGuard key is


def reads(emulator):
    return [(request['method'], request['path']) for request in emulator.requests()]


def test_a_create_a_rerun_and_a_delete_read_each_list_once(emulator, run):
    if emulator.dialect != 'current':
        pytest.skip('needs the current dialect')
    target = emulator.add_peers(peers=[{'hostname': 'db-1'}])[0]
    task = {'name': 'access', 'nms.overlay.peer_temporary_access': dict(peer='db-1', name='count-laptop', wg_pub_key=KEY, rules=['tcp/5432'])}
    emulator.clear_log()
    first = run([task])
    assert first['access']['changed'] is True
    assert reads(emulator) == [('GET', '/api/instance/version'), ('GET', '/api/peers'),
                               ('POST', '/api/peers/%s/temporary-access' % target['id'])]
    emulator.clear_log()
    again = run([task])
    assert again['access']['changed'] is False
    assert reads(emulator) == [('GET', '/api/instance/version'), ('GET', '/api/peers'), ('GET', '/api/policies')]
    gone = {'name': 'access', 'nms.overlay.peer_temporary_access': dict(peer='db-1', name='count-laptop', state='absent')}
    run([gone])
    emulator.clear_log()
    run([gone])
    assert reads(emulator) == [('GET', '/api/instance/version'), ('GET', '/api/peers')]
