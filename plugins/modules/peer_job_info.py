#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: peer_job_info
short_description: List the jobs of a peer; experimental
version_added: 1.0.0
description:
  - Returns the jobs submitted to a peer (see M(nms.overlay.peer_job)), all of them, the one with a given O(id), or
    those of a given O(status).
  - B(Experimental.) Servers mark the jobs API experimental (C(x-experimental) in their OpenAPI file); its answers may
    change in a later server release, and this module with them.
options:
  peer:
    description:
      - The peer whose jobs are listed, as a peer name or id. An unknown or ambiguous name fails.
    type: str
    required: true
  id:
    description:
      - Return only the job with this id (read on its own). An unknown id returns an empty list.
      - Mutually exclusive with O(status).
    type: str
  status:
    description:
      - Return only the jobs of this status.
    type: str
    choices: [pending, succeeded, failed]
seealso:
  - module: nms.overlay.peer_job
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: List the jobs of web-1 still waiting for its agent
  nms.overlay.peer_job_info:
    peer: web-1
    status: pending
  register: waiting

- name: Read one job again
  nms.overlay.peer_job_info:
    peer: web-1
    id: "{{ bundle.job.id }}"
  register: again
  when: bundle.job is defined
'''

RETURN = r'''
jobs:
  description: The jobs found, also when filtered to one. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: Id of the job.
      type: str
      sample: d1a2b3c4e5f6g7h8i9j0
    status:
      description: V(pending), V(succeeded) or V(failed).
      type: str
      sample: succeeded
    created_at:
      description: When the job was submitted.
      type: str
      sample: "2026-05-01T10:00:00Z"
    completed_at:
      description: When the job finished; null while it is pending.
      type: str
      sample: "2026-05-01T10:01:10Z"
    triggered_by:
      description: Id of the user who submitted the job.
      type: str
      sample: 1a2731fa-a79d-4f5f-b018-77a3450f39f1
    failed_reason:
      description: Why the job failed; null otherwise.
      type: str
      sample: null
    workload:
      description: What the job does, C(type), C(parameters) and C(result) (see M(nms.overlay.peer_job)).
      type: dict
      sample: {type: bundle, parameters: {bundle_for: false, bundle_for_time: 2, log_file_count: 10, anonymize: false},
               result: {upload_key: upload_key_123}}
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.peer_job import STATUSES, PeerJobModule


class PeerJobInfoModule(InfoModule):
    resource = PeerJobModule
    api_operations = ('GET /api/peers/{peerId}/jobs', 'GET /api/peers/{peerId}/jobs/{jobId}')
    answers = PeerJobModule.answers
    plural = 'jobs'
    argument_spec = dict(
        peer=dict(type='str', required=True),
        id=dict(type='str'),
        status=dict(type='str', choices=list(STATUSES)),
    )
    filters = ('status',)
    mutually_exclusive = (('id', 'status'),)


if __name__ == '__main__':
    PeerJobInfoModule.main()
