#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: peer_job
short_description: Run a job on a peer (a debug bundle); experimental
version_added: 1.0.0
description:
  - Submits a job to a peer's agent through the management server, and optionally waits for its outcome. The one
    kind of job servers know is a debug bundle (O(type=bundle)); the agent collects its logs and state, uploads them,
    and the job's C(workload.result.upload_key) names the upload for NetBird's support.
  - B(Experimental.) Servers mark the jobs API experimental (C(x-experimental) in their OpenAPI file); its requests and
    answers may change in a later server release, and this module with them.
  - A job is an action, not a state. Each task submits one job, so a task run again submits another, except while the
    same job (the same O(type) and bundle parameters) is still C(pending) on the peer. Then the task submits nothing,
    returns that job and reports no change, so a retried or repeated play does not queue the same bundle twice.
  - Check mode submits nothing; it reports the job that would be submitted (V(changed=true)), or the pending one
    (V(changed=false)).
  - Servers take a job only for a peer whose agent is v0.64.0 or later. For an older agent they refuse it with
    C(412 peer version ... does not meet the minimum required version 0.64.0 for remote jobs), which the task reports
    as it comes. The agent runs the job once it is connected.
options:
  peer:
    description:
      - The peer that runs the job, as a peer name or id. An unknown or ambiguous name fails before any write.
    type: str
    required: true
  type:
    description:
      - What the job does. V(bundle) collects a debug bundle (the only type servers know).
    type: str
    choices: [bundle]
    default: bundle
  bundle_for:
    description:
      - Whether the agent records for O(bundle_for_time) minutes before it makes the bundle (a capture of what
        happens meanwhile), rather than making it at once.
    type: bool
    default: false
  bundle_for_time:
    description:
      - How many minutes the agent records with O(bundle_for=true), from 1 to 5. Ignored otherwise.
    type: int
    default: 2
  log_file_count:
    description:
      - How many log files the bundle holds at most, from 1 to 1000.
    type: int
    default: 10
  anonymize:
    description:
      - Whether the agent anonymizes addresses, names and other sensitive data in the bundle.
    type: bool
    default: false
  wait:
    description:
      - Whether the task waits until the job has run (C(succeeded) or C(failed)), reading it every 2 seconds.
      - "A job that fails makes the task fail with the server's C(failed_reason), with V(changed=true) when this task
         submitted it (V(changed=false) when it waited for the same job submitted earlier)."
      - Without it, the task returns the job as submitted (C(pending)); read it later with
        M(nms.overlay.peer_job_info).
    type: bool
    default: false
  wait_timeout:
    description:
      - How many seconds O(wait=true) waits at most. A job still pending then makes the task fail (V(changed=true)
        when this task submitted it), and the job stays queued on the server.
    type: int
    default: 300
notes:
  - The server's jobs API has no cancel and no delete; a submitted job stays in the peer's list.
seealso:
  - module: nms.overlay.peer_job_info
  - module: nms.overlay.peer
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: Collect a debug bundle of web-1, anonymized, and wait for its upload key
  nms.overlay.peer_job:
    peer: web-1
    anonymize: true
    log_file_count: 20
    wait: true
    wait_timeout: 120
  register: bundle

- name: Show where the bundle went
  ansible.builtin.debug:
    msg: "{{ bundle.job.workload.result.upload_key }}"

- name: Record two minutes of web-1's agent, then bundle it (returns at once)
  nms.overlay.peer_job:
    peer: web-1
    bundle_for: true
    bundle_for_time: 2
'''

RETURN = r'''
job:
  description:
    - The job submitted (or, when the same job was still pending, that one); with O(wait=true), as it finished.
    - In check mode, the job that would be submitted, with a placeholder id.
  returned: always
  type: dict
  contains:
    id:
      description:
        - Id of the job.
        - In check mode, a job that would be submitted has the placeholder C((new job bundle)).
      type: str
      sample: d1a2b3c4e5f6g7h8i9j0
    status:
      description: V(pending), V(succeeded) or V(failed).
      type: str
      sample: pending
    created_at:
      description: When the job was submitted (not in check mode).
      type: str
      sample: "2026-05-01T10:00:00Z"
    completed_at:
      description: When the job finished; null while it is pending.
      type: str
      sample: null
    triggered_by:
      description: Id of the user who submitted the job (not in check mode).
      type: str
      sample: 1a2731fa-a79d-4f5f-b018-77a3450f39f1
    failed_reason:
      description: Why the job failed; null otherwise.
      type: str
      sample: null
    workload:
      description: What the job does.
      type: dict
      contains:
        type:
          description: V(bundle).
          type: str
          sample: bundle
        parameters:
          description: The bundle's parameters, C(bundle_for), C(bundle_for_time), C(log_file_count) and C(anonymize).
          type: dict
          sample: {bundle_for: false, bundle_for_time: 2, log_file_count: 10, anonymize: false}
        result:
          description: What the job gave; C(upload_key) names the uploaded bundle once it succeeded. Empty before.
          type: dict
          sample: {upload_key: upload_key_123}
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.peer_job import PeerJobModule


if __name__ == '__main__':
    PeerJobModule.main()
