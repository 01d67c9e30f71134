# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The action plugin of every module of the collection: each plugins/action/<module>.py is a link to this file.
ansible-core loads it once for each module a playbook uses, under that module's name, in its main process before it
forks a task's worker, so the module's engine is loaded then, once (plugins/plugin_utils/_in_process.py, action_of)."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.plugin_utils._in_process import action_of

ActionModule = action_of(__name__)
