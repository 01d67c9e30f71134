# -*- coding: utf-8 -*-
"""The nms.overlay.drift_report playbook against the real NetBird v0.27.6 and v0.77.1 (tests/support/realserver.py,
the fixtures of test_real_servers.py): the example network built by nms.overlay.build_network has no drift; a change
made out of band is drift, named down to the field; nothing is ever written by the report."""

from __future__ import annotations

import copy
import json

import pytest

from tests.integration.test_real_servers import connection, started
from tests.support.modules import example_network
from tests.support.realserver import DIALECT_OF, RELEASES

pytestmark = pytest.mark.real

PLAYBOOK = 'nms.overlay.drift_report'
DRIFT_TASK = 'Fail, because the network drifted from its description'


@pytest.fixture(scope='module', params=RELEASES)
def real_server(request):
    yield from started(request.param)


def drift(run, server, tmp_path, name, **extra_vars):
    markdown, data = tmp_path / ('%s.md' % name), tmp_path / ('%s.json' % name)
    result = run([], playbook=PLAYBOOK, env=connection(server), verbosity=0, extra_vars=dict(
        {'nms_drift_report_markdown': str(markdown), 'nms_drift_report_json': str(data)}, **extra_vars))
    assert 'Traceback' not in result.stdout and 'DEPRECATION' not in result.stdout, result
    return result, markdown.read_text(encoding='utf-8'), json.loads(data.read_text(encoding='utf-8'))


def test_the_example_network_has_no_drift_until_changed_out_of_band(real_server, run, tmp_path):
    env = connection(real_server)
    built = run([], playbook='nms.overlay.build_network', env=env)
    assert built.rc == 0, built
    description = example_network(DIALECT_OF[real_server.release])

    real_server.clear_log()
    clean, markdown, data = drift(run, real_server, tmp_path, 'clean', network_description=description)
    assert clean.rc == 0, clean
    assert data['drift'] is False and data['changes'] == [] and data['server'] == real_server.url
    assert data['summary']['policies']['unchanged'] >= 2 and '**No drift.**' in markdown
    again, markdown_again, dummy = drift(run, real_server, tmp_path, 'clean-again', network_description=description)
    assert again.rc == 0 and markdown_again == markdown, again
    assert (tmp_path / 'clean-again.json').read_bytes() == (tmp_path / 'clean.json').read_bytes()
    assert real_server.writes() == [], real_server.writes()

    # out of band: the web policy gets another port and description (through a module), a group is added by hand
    web = copy.deepcopy(next(policy for policy in description['policies'] if policy['name'] == 'office to servers (web)'))
    web['description'] = 'changed by hand'
    web['rules'][0]['ports'] = ['80', '443', '8080', '9000']
    assert run([{'name': 'policy', 'nms.overlay.policy': web}], env=env).rc == 0
    stray = real_server.ok('POST', '/groups', {'name': 'stray', 'peers': []})

    real_server.clear_log()
    drifted, markdown, data = drift(run, real_server, tmp_path, 'drifted', network_description=description)
    assert drifted.rc == 2, drifted
    assert drifted[DRIFT_TASK]['msg'].startswith(
        'Drift: 1 change, in policies (would update 1: office to servers (web)).'), drifted[DRIFT_TASK]
    assert data['drift'] is True and [change['name'] for change in data['changes']] == ['office to servers (web)']
    differences = data['changes'][0]['differences']
    assert dict(field='description', before='changed by hand', after='The office reaches the internal web services') in differences
    ports = [d for d in differences if d['field'] == 'rules[web].ports']
    assert len(ports) == 1 and sorted(ports[0]['before']) == ['443', '80', '8080', '9000'], differences
    assert sorted(ports[0]['after']) == ['443', '80', '8080'], differences
    assert '### policies: office to servers (web)' in markdown and '| rules\\[web\\].ports |' in markdown

    # with prune, the group added by hand is drift too
    pruned, markdown, data = drift(run, real_server, tmp_path, 'pruned', network_description=description, network_prune=True)
    assert pruned.rc == 2, pruned
    stray_changes = [change for change in data['changes'] if change['kind'] == 'groups' and change['name'] == 'stray']
    assert len(stray_changes) == 1 and stray_changes[0]['action'] == 'deleted' and stray_changes[0]['pruned'] is True
    assert stray_changes[0]['id'] == stray['id'] and 'stray' in pruned[DRIFT_TASK]['msg']
    assert real_server.writes() == [], real_server.writes()
    assert 'stray' in [group['name'] for group in real_server.ok('GET', '/groups')]
