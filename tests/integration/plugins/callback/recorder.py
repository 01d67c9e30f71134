# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Test-only callback: append every task result to a JSON file.

Used by tests/integration/conftest.py. Enable it with ANSIBLE_CALLBACK_PLUGINS pointing at this
directory, ANSIBLE_CALLBACKS_ENABLED=recorder and NMS_OVERLAY_RECORDER_FILE=/path/to/results.json.
The file holds a JSON list, one object per task result in the order they finished, rewritten
after every result (so a crashed run still leaves what it got so far).
"""

from __future__ import annotations

DOCUMENTATION = r"""
name: recorder
type: aggregate
short_description: record task results to a JSON file (tests only)
description:
  - Writes every task result, with the task name, to the JSON file named by E(NMS_OVERLAY_RECORDER_FILE).
options:
  output_file:
    description: Path of the JSON file to (re)write.
    env:
      - name: NMS_OVERLAY_RECORDER_FILE
    type: path
"""

import collections.abc
import json
import os

from ansible.plugins.callback import CallbackBase


def _result_dict(result):
    data = getattr(result, "result", None)  # ansible-core >= 2.19: native-typed copy
    if not isinstance(data, collections.abc.Mapping):
        data = result._result  # pylint: disable=protected-access
    return dict(data)


def _task(result):
    task = getattr(result, "task", None)
    if task is None:
        task = result._task  # pylint: disable=protected-access
    return task


def _host_name(result):
    host = getattr(result, "host", None)
    if host is None:
        host = result._host  # pylint: disable=protected-access
    return host.get_name() if hasattr(host, "get_name") else str(host)


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "aggregate"
    CALLBACK_NAME = "recorder"
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._records = []
        self._path = os.environ.get("NMS_OVERLAY_RECORDER_FILE")

    def _record(self, result, status):
        data = _result_dict(result)
        task = _task(result)
        record = dict(data)
        record.update(
            task=task.get_name(),
            action=getattr(task, "action", None),
            host=_host_name(result),
            outcome=status,  # not "status": modules return the HTTP status of a failed call under that key
            changed=bool(data.get("changed", False)),
            failed=status in ("failed", "unreachable") or bool(data.get("failed", False)),
            skipped=status == "skipped" or bool(data.get("skipped", False)),
            unreachable=status == "unreachable",
            msg=data.get("msg"),
            diff=data.get("diff"),
        )
        self._records.append(record)
        self._flush()

    def _flush(self):
        if not self._path:
            return
        tmp = self._path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(self._records, handle, indent=1, default=repr)
        os.replace(tmp, self._path)

    def v2_runner_on_ok(self, result):
        self._record(result, "ok")

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._record(result, "failed")

    def v2_runner_on_skipped(self, result):
        self._record(result, "skipped")

    def v2_runner_on_unreachable(self, result):
        self._record(result, "unreachable")

    def v2_playbook_on_stats(self, stats):
        self._flush()
