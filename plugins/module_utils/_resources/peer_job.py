# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Jobs a peer's agent runs for the server (the peer_job module and peer_job_info): today the one workload servers
know, a debug bundle. Servers mark the jobs API experimental.

A job is an action, not a state: each task submits one, except while the same job (same workload and parameters) is
still pending on the peer, which a re-run then reports (changed=false) instead of queueing a second copy. Check mode
submits nothing.
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils import _time
from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError, OBJECT, TEXT
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import OptionsError, TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import placeholder_id
from ansible_collections.nms.overlay.plugins.module_utils._task import NmsModule

JOBS = 'remote jobs on peers'
PEERS_PATH = '/peers'
WORKLOAD_TYPES = ('bundle',)
STATUSES = ('pending', 'succeeded', 'failed')
BUNDLE_PARAMETERS = ('bundle_for', 'bundle_for_time', 'log_file_count', 'anonymize')
BUNDLE_MINUTES = (1, 5)         # what servers accept for bundle_for_time (400 otherwise)
LOG_FILE_COUNT = (1, 1000)      # and for log_file_count
POLL_SECONDS = 2.0
# the job's members, as the answers give them (the workload holds type, parameters and result)
JOB_ANSWERS = dict(created_at=TEXT, completed_at=TEXT, triggered_by=TEXT, status=TEXT, failed_reason=TEXT, workload=OBJECT)


def jobs_path(peer_id):
    return '%s/%s/jobs' % (PEERS_PATH, peer_id)


def job_result(job):
    """A job as returned to the user: every member the server gave, failed_reason and completed_at as null when
    missing, the workload's result as an object."""
    if not isinstance(job, dict):
        return job
    job = dict(job)
    for name in ('completed_at', 'failed_reason'):
        job.setdefault(name, None)
    workload = job.get('workload') if isinstance(job.get('workload'), dict) else {}
    job['workload'] = dict(workload, parameters=workload.get('parameters') or {}, result=workload.get('result') or {})
    return job


def peer_id_of(task):
    """The id of the peer the option ``peer`` names (one list of the peers, or a filtered read, per task)."""
    return task.resolver.to_id('peers', task.params['peer'], 'peer')


class PeerJobModule(NmsModule):
    """Submit a job to a peer (POST /api/peers/{id}/jobs), unless the same job is still pending there; optionally wait
    for it to finish (GET /api/peers/{id}/jobs/{jobId})."""

    api_operations = ('GET /api/peers/{peerId}/jobs', 'POST /api/peers/{peerId}/jobs', 'GET /api/peers/{peerId}/jobs/{jobId}')
    requires = JOBS
    answers = JOB_ANSWERS
    argument_spec = dict(
        peer=dict(type='str', required=True),
        type=dict(type='str', choices=list(WORKLOAD_TYPES), default='bundle'),
        bundle_for=dict(type='bool', default=False),
        bundle_for_time=dict(type='int', default=2),
        log_file_count=dict(type='int', default=10),
        anonymize=dict(type='bool', default=False),
        wait=dict(type='bool', default=False),
        wait_timeout=dict(type='int', default=300),
    )

    def workload(self):
        """The request's workload, its parameters checked as servers check them (before any request)."""
        params, problems = self.params, []
        if params['bundle_for'] and not BUNDLE_MINUTES[0] <= params['bundle_for_time'] <= BUNDLE_MINUTES[1]:
            problems.append('option bundle_for_time: must be from %d to %d (minutes) with bundle_for: true' % BUNDLE_MINUTES)
        if not LOG_FILE_COUNT[0] <= params['log_file_count'] <= LOG_FILE_COUNT[1]:
            problems.append('option log_file_count: must be from %d to %d' % LOG_FILE_COUNT)
        if params['wait_timeout'] < 1:
            problems.append('option wait_timeout: must be at least 1 (seconds)')
        if problems:
            raise OptionsError('; '.join(problems))
        return dict(type=params['type'], parameters={name: params[name] for name in BUNDLE_PARAMETERS})

    def pending_twin(self, jobs, workload):
        """The jobs of the peer that are still pending with the same workload (oldest first)."""
        def same(job):
            theirs = job.get('workload') if isinstance(job.get('workload'), dict) else {}
            parameters = theirs.get('parameters') if isinstance(theirs.get('parameters'), dict) else {}
            return (job.get('status') == 'pending' and theirs.get('type') == workload['type']
                    and all(parameters.get(name) == value for name, value in workload['parameters'].items()))
        return sorted((job for job in jobs if same(job)), key=lambda job: str(job.get('created_at') or ''))

    def wait_for(self, peer_id, job):
        """Read the job until it is no longer pending, at most wait_timeout seconds; a failed job fails the task."""
        deadline = _time.CLOCK.monotonic() + self.params['wait_timeout']
        path = '%s/%s' % (jobs_path(peer_id), ref_id(job))
        while job.get('status') == 'pending':
            if _time.CLOCK.monotonic() >= deadline:
                raise TaskError('the job %s on the peer %s is still pending after %d seconds (the peer\'s agent runs it '
                                'once it is connected); read it later with nms.overlay.peer_job_info'
                                % (ref_id(job), self.params['peer'], self.params['wait_timeout']), changed=True, job=job_result(job))
            _time.CLOCK.sleep(POLL_SECONDS)
            job = self.client.get_object(path)
        if job.get('status') == 'failed':
            reason = job.get('failed_reason') or '(the server gives no reason)'
            raise TaskError('the job %s on the peer %s failed: %s' % (ref_id(job), self.params['peer'], reason), changed=True,
                            job=job_result(job))
        return job

    def run(self):
        workload = self.workload()
        self.check_generation()
        peer_id = peer_id_of(self)
        twins = self.pending_twin(self.client.get_list(jobs_path(peer_id)), workload)
        if twins:  # submitted before and not run yet: a re-run does not queue it twice
            job = self.wait_for(peer_id, twins[0]) if self.params['wait'] and not self.module.check_mode else twins[0]
            return {'changed': False, 'job': job_result(job)}
        if self.module.check_mode:
            planned = dict(id=placeholder_id('job', workload['type']), status='pending', workload=workload)
            return {'changed': True, 'job': job_result(planned)}
        job = self.client.post(jobs_path(peer_id), dict(workload=workload))
        if not isinstance(job, dict) or not job.get('id'):
            raise self.client.answer_error('POST', jobs_path(peer_id), 'the answer is not the created job')
        if self.params['wait']:
            job = self.wait_for(peer_id, job)
        return {'changed': True, 'job': job_result(job)}


def read_jobs(task, peer_id, job_id=None):
    """The jobs of a peer, or the one of that id ([] when there is none)."""
    if not job_id:
        return task.client.get_list(jobs_path(peer_id))
    try:
        return [task.client.get_object('%s/%s' % (jobs_path(peer_id), job_id))]
    except ApiError as exc:
        if exc.status == 404:
            return []
        raise
