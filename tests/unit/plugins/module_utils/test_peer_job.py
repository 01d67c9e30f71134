# -*- coding: utf-8 -*-
"""Unit tests of peer_job and peer_job_info (no HTTP): one job per task unless the same one is pending, check mode,
waiting for the outcome, the options checked as servers check them, and a v0.27 server's refusal."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils import _time
from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resources.peer_job import PeerJobModule
from ansible_collections.nms.overlay.plugins.modules.peer_job_info import PeerJobInfoModule
from tests.support.fakes import FakeClient, engine

VERSION = {'management_current_version': '0.77.1'}
PEERS = [{'id': 'p1', 'name': 'web-1'}]
PARAMETERS = {'bundle_for': False, 'bundle_for_time': 2, 'log_file_count': 10, 'anonymize': False}
JOB = {'id': 'j1', 'created_at': '2026-05-01T10:00:00Z', 'triggered_by': 'u1', 'status': 'pending',
       'workload': {'type': 'bundle', 'parameters': PARAMETERS, 'result': {}}}
DONE = dict(JOB, status='succeeded', completed_at='2026-05-01T10:01:00Z',
            workload=dict(JOB['workload'], result={'upload_key': 'k1'}))


class StillClock:
    """A clock whose sleep only moves time on."""

    def __init__(self):
        self.now = 0.0

    def monotonic(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds

    def time(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    still = StillClock()
    monkeypatch.setattr(_time, 'CLOCK', still)
    return still


def server(jobs=(), routes=None, **more):
    answers = {'/instance/version': VERSION, '/peers': PEERS, '/peers/p1/jobs': list(jobs),
               ('POST', '/peers/p1/jobs'): lambda body: dict(JOB, workload=dict(body['workload'], result={}))}
    answers.update(routes or {}, **more)
    return FakeClient(answers)


@pytest.mark.parametrize('cls', [PeerJobModule, PeerJobInfoModule])
def test_a_v027_server_refuses_both_modules_after_the_version_probe(cls):
    client = FakeClient({'/peers': PEERS})
    with pytest.raises(TaskError) as failure:
        engine(cls, client, peer='web-1').run()
    assert 'does not have remote jobs on peers, which came with NetBird v0.64.0' in str(failure.value)
    assert client.calls == [('GET', '/instance/version', None)]


def test_a_task_submits_one_job_by_the_peers_name():
    client = server()
    result = engine(PeerJobModule, client, peer='web-1', anonymize=True).run()
    assert result['changed'] is True and result['job']['id'] == 'j1' and result['job']['completed_at'] is None
    assert client.writes() == [('POST', '/peers/p1/jobs', {'workload': {'type': 'bundle', 'parameters': dict(PARAMETERS, anonymize=True)}})]


def test_the_same_job_still_pending_is_not_submitted_again():
    client = server([JOB])
    result = engine(PeerJobModule, client, peer='web-1').run()
    assert result == {'changed': False, 'job': dict(JOB, completed_at=None, failed_reason=None)}
    assert client.writes() == []


@pytest.mark.parametrize('other', [dict(JOB, status='succeeded'),
                                   dict(JOB, workload=dict(JOB['workload'], parameters=dict(PARAMETERS, log_file_count=5)))])
def test_a_finished_job_or_another_workload_does_not_hold_a_new_one_back(other):
    client = server([other])
    assert engine(PeerJobModule, client, peer='web-1').run()['changed'] is True
    assert [call[:2] for call in client.writes()] == [('POST', '/peers/p1/jobs')]


def test_check_mode_submits_nothing():
    client = server()
    result = engine(PeerJobModule, client, check_mode=True, peer='web-1').run()
    assert result['changed'] is True and result['job']['id'] == '(new job bundle)' and result['job']['status'] == 'pending'
    assert client.writes() == []


@pytest.mark.parametrize('params, message', [
    (dict(bundle_for=True, bundle_for_time=6), 'option bundle_for_time: must be from 1 to 5'),
    (dict(log_file_count=0), 'option log_file_count: must be from 1 to 1000'),
    (dict(wait=True, wait_timeout=0), 'option wait_timeout: must be at least 1'),
])
def test_options_are_checked_before_any_request(params, message):
    client = server()
    with pytest.raises(TaskError, match=message):
        engine(PeerJobModule, client, peer='web-1', **params).run()
    assert client.calls == []


def test_bundle_for_time_is_free_without_bundle_for():
    client = server()
    assert engine(PeerJobModule, client, peer='web-1', bundle_for_time=0).run()['changed'] is True


def test_wait_reads_the_job_until_it_ran(clock):
    reads = iter([JOB, DONE])
    client = server(**{'/peers/p1/jobs/j1': lambda body: next(reads)})
    result = engine(PeerJobModule, client, peer='web-1', wait=True).run()
    assert result['job']['workload']['result'] == {'upload_key': 'k1'} and result['changed'] is True
    assert [call[:2] for call in client.calls].count(('GET', '/peers/p1/jobs/j1')) == 2 and clock.now == 4.0


def test_wait_fails_with_the_servers_reason_or_after_the_timeout(clock):
    failed = dict(JOB, status='failed', failed_reason='agent unreachable')
    client = server(**{'/peers/p1/jobs/j1': failed})
    with pytest.raises(TaskError) as failure:
        engine(PeerJobModule, client, peer='web-1', wait=True).run()
    assert 'failed: agent unreachable' in str(failure.value) and failure.value.details['changed'] is True
    client = server(**{'/peers/p1/jobs/j1': JOB})
    with pytest.raises(TaskError, match='still pending after 5 seconds'):
        engine(PeerJobModule, client, peer='web-1', wait=True, wait_timeout=5).run()


def test_the_servers_refusal_of_an_old_agent_is_reported_as_it_comes():
    refusal = ApiError('POST', '/peers/p1/jobs', 412, 'peer version 0.27.6 does not meet the minimum required version 0.64.0 for remote jobs')
    client = server(routes={('POST', '/peers/p1/jobs'): refusal})
    with pytest.raises(ApiError, match='0.64.0'):
        engine(PeerJobModule, client, peer='web-1').run()


def test_info_lists_filters_and_reads_one_by_id():
    client = server([JOB, DONE], **{'/peers/p1/jobs/j1': DONE})
    assert [job['status'] for job in engine(PeerJobInfoModule, client, peer='web-1').run()['jobs']] == ['pending', 'succeeded']
    assert [job['status'] for job in engine(PeerJobInfoModule, client, peer='web-1', status='succeeded').run()['jobs']] == ['succeeded']
    client = server(**{'/peers/p1/jobs/j1': DONE})
    assert engine(PeerJobInfoModule, client, peer='web-1', id='j1').run()['jobs'][0]['id'] == 'j1'
    assert engine(PeerJobInfoModule, client, peer='web-1', id='nope').run()['jobs'] == []
