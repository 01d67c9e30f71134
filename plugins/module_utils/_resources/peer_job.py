# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Jobs a peer's agent runs for the server (the peer_job module and peer_job_info): today the one workload servers
know, a debug bundle. Servers mark the jobs API experimental.

A job is an action, not a state (the engine's action strategy, _strategy_action.py): each task submits one, except
while the same job (same workload and parameters) is still pending on the peer, which a re-run then reports
(changed=false) instead of queueing a second copy. Check mode submits nothing.
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._client import OBJECT, TEXT
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._strategy_action import Action

JOBS = 'remote jobs on peers'
WORKLOAD_TYPES = ('bundle',)
STATUSES = ('pending', 'succeeded', 'failed')
BUNDLE_PARAMETERS = ('bundle_for', 'bundle_for_time', 'log_file_count', 'anonymize')
# the job's members, as the answers give them (the workload holds type, parameters and result)
JOB_ANSWERS = dict(created_at=TEXT, completed_at=TEXT, triggered_by=TEXT, status=TEXT, failed_reason=TEXT, workload=OBJECT)


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


class PeerJobModule(Action):
    """Submit a job to a peer (POST /api/peers/{id}/jobs), unless the same job is still pending there; optionally wait
    for it to finish (GET /api/peers/{id}/jobs/{jobId})."""

    api_operations = ('GET /api/peers/{peerId}/jobs', 'POST /api/peers/{peerId}/jobs', 'GET /api/peers/{peerId}/jobs/{jobId}')
    requires = JOBS
    what = 'job'
    parent = ('peers', 'peer')
    sub_path = '/jobs'
    natural_key = 'type'
    answers = JOB_ANSWERS
    fields = dict(
        type=Field(dict(type='str', choices=list(WORKLOAD_TYPES), default='bundle')),
        bundle_for=Field(dict(type='bool', default=False)),
        bundle_for_time=Field(dict(type='int', default=2)),
        log_file_count=Field(dict(type='int', default=10)),
        anonymize=Field(dict(type='bool', default=False)),
    )
    sent_as = dict(type='workload.type', **{name: 'workload.parameters.' + name for name in BUNDLE_PARAMETERS})
    pending = {'status': 'pending'}
    oldest_first_by = 'created_at'
    failed = {'status': 'failed'}
    failed_reason = 'failed_reason'
    poll_every = 2.0
    pending_hint = "the peer's agent runs it once it is connected"
    info_module = 'peer_job_info'
    model = 'peers.PeerJobOptions'  # the workload's parameters as servers check them
    shape = staticmethod(job_result)
