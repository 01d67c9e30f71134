# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""nms.overlay.agent_network_provider_info runs in the controller's worker when the task runs locally."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.modules.agent_network_provider_info import AgentNetworkProviderInfoModule
from ansible_collections.nms.overlay.plugins.plugin_utils._in_process import action_for

ActionModule = action_for(AgentNetworkProviderInfoModule)
