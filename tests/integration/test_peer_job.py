# -*- coding: utf-8 -*-
"""nms.overlay.peer_job and peer_job_info on the emulator: a v0.77 server (`current`) takes a job for an agent of
v0.64.0 or later, a re-run while it is pending submits nothing, check mode nothing, wait reads it until it ran; an
older agent's refusal (412) as the server words it; a v0.27 server refuses both modules after the version probe."""

from __future__ import annotations

import pytest

from tests.support.emulator import writes_of


def needs(emulator, dialect):
    if emulator.dialect != dialect:
        pytest.skip('needs the %s dialect' % dialect)


def job(**options):
    return {'name': 'job', 'register': 'job', 'nms.overlay.peer_job': options}


def info(**options):
    return {'name': 'info', 'register': 'info', 'nms.overlay.peer_job_info': options}


def test_submit_rerun_check_and_read(emulator, run):
    needs(emulator, 'current')
    peer = emulator.add_peers(peers=[{'hostname': 'agent-new', 'version': '0.70.0', 'connected': False}])[0]
    emulator.clear_log()
    first = run([job(peer='agent-new', anonymize=True)])
    assert first.rc == 0, first
    submitted = first['job']['job']
    assert first['job']['changed'] is True and submitted['status'] == 'pending'
    assert submitted['workload']['parameters'] == {'bundle_for': False, 'bundle_for_time': 2, 'log_file_count': 10, 'anonymize': True}
    assert writes_of(emulator) == ['POST /api/peers/%s/jobs' % peer['id']]

    emulator.clear_log()
    again = run([job(peer='agent-new', anonymize=True)])
    assert again['job']['changed'] is False and again['job']['job']['id'] == submitted['id'] and emulator.writes() == []
    check = run([job(peer='agent-new', log_file_count=50)], check=True)
    assert check['job']['changed'] is True and check['job']['job']['id'] == '(new job bundle)' and emulator.writes() == []

    listed = run([info(peer='agent-new'), dict(info(peer=peer['id'], id=submitted['id']), name='one')])
    assert [item['id'] for item in listed['info']['jobs']] == [submitted['id']]
    assert listed['one']['jobs'][0]['status'] == 'pending'


def test_wait_returns_the_outcome_of_a_connected_agent(emulator, run):
    needs(emulator, 'current')
    emulator.add_peers(peers=[{'hostname': 'agent-on', 'version': '0.70.0', 'connected': True}])
    result = run([job(peer='agent-on', wait=True, wait_timeout=30)])
    assert result.rc == 0, result
    assert result['job']['job']['status'] == 'succeeded' and result['job']['job']['workload']['result']['upload_key']
    assert result['job']['job']['completed_at']


def test_an_old_agent_and_bad_options_are_refused(emulator, run):
    needs(emulator, 'current')
    emulator.add_peers(peers=[{'hostname': 'agent-old', 'version': '0.27.6'}])
    emulator.clear_log()
    result = run([dict(job(peer='agent-old'), ignore_errors=True),
                  dict(job(peer='agent-old', bundle_for=True, bundle_for_time=9), name='bad', ignore_errors=True)])
    assert result['job']['status'] == 412
    assert 'does not meet the minimum required version 0.64.0 for remote jobs' in result['job']['msg']
    assert 'option bundle_for_time: must be from 1 to 5' in result['bad']['msg']
    assert len(emulator.writes()) == 1  # the refused POST only


def test_a_v027_server_refuses_both_modules_after_the_version_probe(emulator, run):
    needs(emulator, 'netbird')
    emulator.clear_log()
    result = run([dict(job(peer='peer-1'), ignore_errors=True), dict(info(peer='peer-1'), ignore_errors=True)])
    for name in ('job', 'info'):
        assert 'does not have remote jobs on peers, which came with NetBird v0.64.0' in result[name]['msg']
    assert [(r['method'], r['path']) for r in emulator.requests()] == [('GET', '/api/instance/version')] * 2
