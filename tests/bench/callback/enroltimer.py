# -*- coding: utf-8 -*-
# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Benchmark callback of the enrolment bench: when each task started, and every host's result of it."""

from __future__ import annotations

DOCUMENTATION = r'''
name: enroltimer
type: aggregate
short_description: Records each task's start and every host's result of it (benchmark only)
description:
  - Writes to the file named by E(NMS_BENCH_FILE) a JSON object with C(tasks), a list of C({task, start}) (seconds
    since the play started, in the order the tasks started), and C(results), a list of C({task, host, seconds,
    status}) with C(status) one of ok, changed, failed, skipped, unreachable, and C(seconds) since that task's start.
  - The enrolment bench times whole plays from outside; these records only tell which task the time went to and how
    many tasks each host ran.
requirements:
  - enabled in the configuration
'''

import json
import os
import time

from ansible.plugins.callback import CallbackBase


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'aggregate'
    CALLBACK_NAME = 'enroltimer'
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._path = os.environ.get('NMS_BENCH_FILE')
        self._zero = time.perf_counter()
        self._tasks = []
        self._results = []
        self._current = (None, self._zero)

    def v2_playbook_on_task_start(self, task, is_conditional):
        now = time.perf_counter()
        self._current = (task.get_name(), now)
        self._tasks.append(dict(task=task.get_name(), start=now - self._zero))

    def v2_playbook_on_handler_task_start(self, task):
        self.v2_playbook_on_task_start(task, False)

    def _record(self, result, status):
        name, start = self._current
        self._results.append(dict(task=getattr(result, 'task_name', None) or name, host=result._host.get_name(),
                                  seconds=time.perf_counter() - start, status=status))

    def v2_runner_on_ok(self, result):
        self._record(result, 'changed' if result.is_changed() else 'ok')

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._record(result, 'failed')

    def v2_runner_on_unreachable(self, result):
        self._record(result, 'unreachable')

    def v2_runner_on_skipped(self, result):
        self._record(result, 'skipped')

    def v2_playbook_on_stats(self, stats):
        if self._path:
            with open(self._path, 'w', encoding='utf-8') as handle:
                json.dump(dict(tasks=self._tasks, results=self._results, end=time.perf_counter() - self._zero), handle, indent=1)
