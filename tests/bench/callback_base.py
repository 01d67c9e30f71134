# -*- coding: utf-8 -*-
# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the benches' callbacks (tests/bench/callback: benchtimer, enroltimer) have in common: enabled by name, each
result of a task told as one status, and what they recorded written as JSON to NMS_BENCH_FILE at the end.

It lives beside that folder, not in it: ansible-core loads every ``.py`` file of a callback folder as a plugin and
warns of one without a ``CallbackModule``. The callbacks import it as ``ansible_collections.nms.overlay.tests.bench
.callback_base``: every bench runs its plays with this working tree as the collection (ANSIBLE_COLLECTIONS_PATH),
while the repository root is not on the plays' Python path."""

from __future__ import annotations

import json
import os

from ansible.plugins.callback import CallbackBase


class BenchCallback(CallbackBase):
    """An aggregate callback enabled by name that hands each result of a task to ``record`` with its status (ok,
    changed, failed, unreachable or skipped) and writes ``report()`` as JSON to NMS_BENCH_FILE, when that is set,
    once the play's stats are in. A subclass names itself (CALLBACK_NAME) and says what it records."""

    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'aggregate'
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._path = os.environ.get('NMS_BENCH_FILE')

    def record(self, result, status):
        """Keep what the bench wants of one result of a task whose outcome is ``status``."""
        raise NotImplementedError

    def report(self):
        """What the file gets: the records, as JSON."""
        raise NotImplementedError

    def v2_runner_on_ok(self, result):
        # TaskResult.is_changed, not the result itself: from ansible-core 2.19 on, a callback that reads the result gets a
        # copy of it made for callbacks (a second of work for 25,000 peers), which the bench must not add to what it times
        self.record(result, 'changed' if result.is_changed() else 'ok')

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self.record(result, 'failed')

    def v2_runner_on_unreachable(self, result):
        self.record(result, 'unreachable')

    def v2_runner_on_skipped(self, result):
        self.record(result, 'skipped')

    def v2_playbook_on_stats(self, stats):
        if self._path:
            with open(self._path, 'w', encoding='utf-8') as handle:
                json.dump(self.report(), handle, indent=1)
