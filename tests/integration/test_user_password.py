# -*- coding: utf-8 -*-
"""nms.overlay.user_password on the emulator: the refusals of a v0.77 server (`current`) as it words them (a user the
embedded identity provider does not know, no embedded identity provider: 412), check mode without a write, no password
in any output; a v0.27 server refuses it after the version probe. The change itself: unit tests and the real v0.77.1
(tests/integration/test_real_peer_extras.py)."""

from __future__ import annotations

import pytest

OLD, NEW = 'correct-horse-9', 'Battery-Staple-7'


def needs(emulator, dialect):
    if emulator.dialect != dialect:
        pytest.skip('needs the %s dialect' % dialect)


def change(**options):
    return {'name': 'password', 'ignore_errors': True, 'nms.overlay.user_password': dict(dict(password=NEW, old_password=OLD), **options)}


def test_the_servers_refusals_and_check_mode(emulator, run):
    needs(emulator, 'current')
    emulator.clear_log()
    check = run([change()], check=True)
    assert check['password']['changed'] is True and emulator.writes() == []
    unknown = run([change()], ansible=True, verbosity=3)
    assert unknown['password']['status'] == 422
    assert unknown['password']['msg'].endswith('failed to update password: failed to get user: not found')
    emulator.control('POST', '/_emulator/config', {'idp': False})
    plain = run([change()])
    assert plain['password']['status'] == 412
    assert OLD not in unknown.stdout and NEW not in unknown.stdout
    for result in (check, unknown, plain):
        assert OLD not in str(result.results) and NEW not in str(result.results)


def test_a_v027_server_refuses_it_after_the_version_probe(emulator, run):
    needs(emulator, 'netbird')
    emulator.clear_log()
    result = run([change()])
    assert 'does not have password changes' in result['password']['msg']
    assert [(r['method'], r['path']) for r in emulator.requests()] == [('GET', '/api/instance/version')]
