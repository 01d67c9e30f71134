# -*- coding: utf-8 -*-
"""The lookup plugin nms.overlay.nms against the real NetBird v0.27.6 and v0.77.1 (the real-server stage, ``make real``):
names to ids with one list read per kind, odd names, a missing name, and a kind of today's servers on v0.27.6."""

from __future__ import annotations

import pytest

from tests.integration.test_real_servers import connection, started
from tests.support.realserver import RELEASES

pytestmark = pytest.mark.real

ODD_NAMES = ['lookup with space', 'lookup it\'s "quoted"', 'lookup Zürich ☃', 'lookup site/berlin']


@pytest.fixture(scope='module', params=RELEASES, ids=lambda release: release)
def real_server(request):
    yield from started(request.param)


def show(expression, name):
    return {'name': name, 'ansible.builtin.debug': {'msg': '{{ %s }}' % expression}, 'ignore_errors': True}


def test_names_to_ids_one_list_read_per_kind(real_server, run):
    made = {name: real_server.ok('POST', '/groups', {'name': name, 'peers': []})['id'] for name in ODD_NAMES}
    try:
        real_server.clear_log()
        result = run([
            show("query('nms.overlay.nms', 'groups', name=odd, result='id')", 'ids'),
            show("lookup('nms.overlay.nms', 'groups/lookup site/berlin', result='id')", 'one id'),
            show("query('nms.overlay.nms', 'groups/lookup nothing')", 'missing'),
            show("query('nms.overlay.nms', 'identity_providers') | length", 'newer kind'),
        ], ansible=True, env=connection(real_server), play={'vars': {'odd': ODD_NAMES}})
        assert result['ids']['msg'] == [made[name] for name in ODD_NAMES]
        assert result['one id']['msg'] == made['lookup site/berlin']
        assert "term 'groups/lookup nothing': no group with the id or name 'lookup nothing'" in str(result['missing']['msg'])
        reads = [(entry['method'], entry['path']) for entry in real_server.requests()]
        if real_server.release == RELEASES[0]:  # v0.27.6: no identity providers, refused after the version probe
            assert 'upgrade the server' in str(result['newer kind']['msg'])
            assert [r['task'] for r in result.failed] == ['missing', 'newer kind']
            assert reads == [('GET', '/api/groups')] * 3 + [('GET', '/api/instance/version')]
        else:
            assert [r['task'] for r in result.failed] == ['missing']
            assert reads == [('GET', '/api/groups')] * 3 + [
                ('GET', '/api/instance/version'), ('GET', '/api/identity-providers')]
    finally:
        for group_id in made.values():
            real_server.api('DELETE', '/groups/%s' % group_id)
