# -*- coding: utf-8 -*-
# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Benchmark callback: wall time and emulator requests of every task, written as JSON."""

from __future__ import annotations

DOCUMENTATION = r'''
name: benchtimer
type: aggregate
short_description: Records each task's wall time and the emulator requests it caused (benchmark only)
description:
  - Writes a JSON list of C({task, seconds, requests, writes}) to the file named by E(NMS_BENCH_FILE).
  - The request counts are read from the emulator's request log at E(NMS_BENCH_EMULATOR).
requirements:
  - enabled in the configuration
'''

import json
import os
import time
import urllib.request

from ansible.plugins.callback import CallbackBase


def _requests(base):
    if not base:
        return []
    with urllib.request.urlopen(base + '/_emulator/requests', timeout=30) as response:
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

    def _begin(self, task):
        self._start = (task.get_name(), len(_requests(self._emulator)), time.perf_counter())

    def v2_playbook_on_task_start(self, task, is_conditional):
        self._begin(task)

    def _end(self, result, failed):
        if self._start is None:
            return
        name, before, start = self._start
        seconds = time.perf_counter() - start
        log = _requests(self._emulator)[before:]
        self._records.append(dict(task=name, seconds=seconds, requests=len(log), failed=failed,
                                  changed=bool(result._result.get('changed')),  # pylint: disable=protected-access
                                  writes=len([r for r in log if r['method'] != 'GET'])))
        self._start = None

    def v2_runner_on_ok(self, result):
        self._end(result, False)

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._end(result, True)

    def v2_playbook_on_stats(self, stats):
        if self._path:
            with open(self._path, 'w', encoding='utf-8') as handle:
                json.dump(self._records, handle, indent=1)
