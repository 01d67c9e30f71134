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

from ansible_collections.nms.overlay.tests.bench.callback_base import BenchCallback


def _requests(base):
    with urllib.request.urlopen(base + '/_emulator/requests', timeout=120) as response:
        return json.loads(response.read().decode())


class CallbackModule(BenchCallback):
    CALLBACK_NAME = 'benchtimer'

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._emulator = os.environ.get('NMS_BENCH_EMULATOR', '').rstrip('/')
        self._records = []
        self._start = None

    def v2_playbook_on_task_start(self, task, is_conditional):
        before = len(_requests(self._emulator)) if self._emulator else 0
        self._start = (task.get_name(), before, time.perf_counter())

    def record(self, result, status):
        if self._start is None:
            return
        name, before, start = self._start
        # a skipped task did not do what the bench measures: failed, as an unreachable one; is_changed, as BenchCallback
        entry = dict(task=name, seconds=time.perf_counter() - start, failed=status in ('failed', 'unreachable', 'skipped'),
                     changed=result.is_changed())
        if self._emulator:
            log = _requests(self._emulator)[before:]
            entry.update(requests=len(log), writes=len([r for r in log if r['method'] not in ('GET', 'HEAD', 'OPTIONS')]))
        self._records.append(entry)
        self._start = None

    def report(self):
        return self._records
