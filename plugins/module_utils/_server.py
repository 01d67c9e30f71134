# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the server is, learned once per task and only when a request depends on it.

Two generations answer this API: v0.27 (the spec) and today's servers (v0.77), which have
``GET /api/instance/version``, take port ranges in a rule's ``port_ranges`` and store one rule per policy.
Nothing here reads the server until a module asks, so an unchanged task makes no extra request.
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError

VERSION_PATH = '/instance/version'
LEGACY = 'v0.27'   # how messages name a server without GET /api/instance/version


class ServerInfo:
    """The server's generation: asked with one GET /instance/version per task, unless an answer told it already."""

    def __init__(self, client):
        self.client = client
        self._current = None
        self._version = None

    def learn(self, current, version=None):
        """Record what an answer's shape proved (a rule with port_ranges comes only from a current server)."""
        if self._current is None:
            self._current = bool(current)
            self._version = version

    @property
    def current(self):
        """Whether the server is of today's generation (has GET /instance/version)."""
        if self._current is None:
            try:
                answer = self.client.get(VERSION_PATH)
            except ApiError as exc:
                if exc.status not in (404, 405):
                    raise
                self.learn(False)
            else:
                version = answer.get('management_current_version') if isinstance(answer, dict) else None
                self.learn(True, version if isinstance(version, str) and version else None)
        return self._current

    def describe(self):
        """The server as messages name it."""
        if not self.current:
            return 'this server (%s: it has no GET /api/instance/version)' % LEGACY
        return 'this server (%s)' % (self._version or 'a current release')
