# -*- coding: utf-8 -*-
# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The floor of an unchanged task in the controller for a kind that validates its options with pydantic (`make bench`
only): requests_floor.py's reads after validating the options with the smallest pydantic model, pydantic imported and
the model built before the fork, as the collection's action plugins preload a kind's models. No module of the
collection that validates with pydantic can cost less than this in the controller."""

from __future__ import annotations

import importlib.util
import os

_SPEC = importlib.util.spec_from_file_location(
    'requests_floor_action', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'requests_floor.py'))
requests_floor = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(requests_floor)
OPTIONS_MODEL = requests_floor.floor_module.options_model()  # pydantic imported and the model built before any fork


class ActionModule(requests_floor.ActionModule):

    def run(self, tmp=None, task_vars=None):
        OPTIONS_MODEL.model_validate({'paths': self._task.args['paths']})
        return super().run(tmp, task_vars)
