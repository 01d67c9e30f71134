# -*- coding: utf-8 -*-
# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Benchmark callback: what became of every task (changed, failed), and in a checking run its emulator requests."""

from __future__ import annotations

DOCUMENTATION = r'''
name: benchtimer
type: aggregate
short_description: Records what became of each task and, when asked, the emulator requests it caused (benchmark only)
description:
  - Writes a JSON list of C({task, seconds, changed, failed}) to the file named by E(NMS_BENCH_FILE). The bench times
    whole plays from outside; a task's C(seconds) inside the play is kept for a person looking into one run only.
  - With E(NMS_BENCH_EMULATOR) set, each record also has C(requests) and C(writes), read from the emulator's request
    log before and after the task. Those reads cost the controller time, so the timed runs of the bench leave it unset
    and count the requests of the whole play instead.
requirements:
  - enabled in the configuration
'''

import json
import os
import time
import urllib.request

from ansible.plugins.callback import CallbackBase


def _requests(base):
    with urllib.request.urlopen(base + '/_emulator/requests', timeout=120) as response:
        return json.loads(response.read().decode())


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'aggregate'
    CALLBACK_NAME = 'benchtimer'
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._path = os.environ.get('NMS_BENCH_FILE')
        self._emulator = os.environ.get('NMS_BENCH_EMULATOR', '').rstrip('/')
        self._records = []
        self._start = None

    def v2_playbook_on_task_start(self, task, is_conditional):
        before = len(_requests(self._emulator)) if self._emulator else 0
        self._start = (task.get_name(), before, time.perf_counter())

    def _end(self, result, failed):
        if self._start is None:
            return
        name, before, start = self._start
        # TaskResult.is_changed, not the result itself: from ansible-core 2.19 on, a callback that reads the result gets a
        # copy of it made for callbacks (a second of work for 25,000 peers), which the bench must not add to what it times
        record = dict(task=name, seconds=time.perf_counter() - start, failed=failed, changed=result.is_changed())
        if self._emulator:
            log = _requests(self._emulator)[before:]
            record.update(requests=len(log), writes=len([r for r in log if r['method'] not in ('GET', 'HEAD', 'OPTIONS')]))
        self._records.append(record)
        self._start = None

    def v2_runner_on_ok(self, result):
        self._end(result, False)

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._end(result, True)

    def v2_runner_on_unreachable(self, result):
        self._end(result, True)

    def v2_runner_on_skipped(self, result):
        self._end(result, True)  # a skipped task did not do what the bench measures

    def v2_playbook_on_stats(self, stats):
        if self._path:
            with open(self._path, 'w', encoding='utf-8') as handle:
                json.dump(self._records, handle, indent=1)
