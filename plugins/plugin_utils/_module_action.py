# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The action plugin of every nms.overlay module: each plugins/action/<module>.py is a link to this file.

ansible-core imports a link by its plugin's name (ansible_collections.nms.overlay.plugins.action.<module>), in the
main process before it forks a task's worker; action_named reads the module from that name, and the class it gives
has the module's engine loaded (plugins/plugin_utils/_in_process.py). A new module's action plugin is one more link:
``ln -s ../plugin_utils/_module_action.py plugins/action/<module>.py``.
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.plugin_utils._in_process import action_named

ActionModule = action_named(__name__)
