# -*- coding: utf-8 -*-
# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The floor of an unchanged task in the controller (`make bench` only): an action plugin that does nothing but read
the same lists with ``requests`` (the reads of ../library/requests_floor_module.py), imported before the fork as the
collection's action plugins import it. No module of the collection can cost less than this in the controller and
still make its requests with ``requests``."""

from __future__ import annotations

import importlib.util
import os

from ansible.plugins.action import ActionBase

_FLOOR_MODULE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'library', 'requests_floor_module.py')
_SPEC = importlib.util.spec_from_file_location('requests_floor_module', _FLOOR_MODULE)
floor_module = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(floor_module)  # imports requests now, in the controller, before any task's fork


class ActionModule(ActionBase):
    _supports_check_mode = True

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        result.update(changed=False, lengths=floor_module.read_lists(self._task.args['paths']))
        return result
