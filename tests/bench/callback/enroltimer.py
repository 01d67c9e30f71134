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

import time

from ansible_collections.nms.overlay.tests.bench.callback_base import BenchCallback


class CallbackModule(BenchCallback):
    CALLBACK_NAME = 'enroltimer'

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
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

    def host_name(self, result):
        """The name of the host a task's result is of, through public ansible-core only: the result's ``host`` (2.19
        on); before 2.19, whose results keep their host in a private attribute, ``host_label``, which names it (then,
        for a delegated task, ' -> ' and the host delegated to)."""
        host = getattr(result, 'host', None)
        if host is not None:
            return host.get_name()
        return self.host_label(result).split(' -> ')[0]

    def record(self, result, status):
        name, start = self._current
        self._results.append(dict(task=getattr(result, 'task_name', None) or name, host=self.host_name(result),
                                  seconds=time.perf_counter() - start, status=status))

    def report(self):
        return dict(tasks=self._tasks, results=self._results, end=time.perf_counter() - self._zero)
