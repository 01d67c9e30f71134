# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The action plugin of an nms.overlay module: every file of plugins/action is this text, byte for byte.

ansible-core imports it by the plugin's name (ansible_collections.nms.overlay.plugins.action.<module>) in the main
process before it forks a task's worker; action_named (plugins/plugin_utils/_in_process.py) reads the module from that
name and gives the class that runs the module's engine. A copy, not a link: antsibull-docs, and so the docs site,
takes a linked plugin for an alias of the file it links to.
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.plugin_utils._in_process import action_named

ActionModule = action_named(__name__)
