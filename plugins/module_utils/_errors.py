# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The one exception type a task fails with when the user can act on the message."""

from __future__ import annotations


class TaskError(Exception):
    """A failure the user can act on; its message becomes the task's msg, its details extra result keys."""

    def __init__(self, message, **details):
        super().__init__(message)
        self.details = details


class OptionsError(TaskError):
    """Options that break a rule; the message names each option and the rule."""
