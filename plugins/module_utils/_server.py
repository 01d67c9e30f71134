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
                answer = self.client.get_object(VERSION_PATH)  # a success answer of another shape is an API error
            except ApiError as exc:
                if exc.status not in (404, 405):
                    raise
                self.learn(False)
            else:
                version = answer.get('management_current_version') if isinstance(answer, dict) else None
                self.learn(True, version if isinstance(version, str) and version else None)
        return self._current

    @property
    def known_legacy(self):
        """Whether the task knows already, without a request, that the server is of the v0.27 generation."""
        return self._current is False

    def describe(self):
        """The server as messages name it."""
        if not self.current:
            return 'this server (%s: it has no GET /api/instance/version)' % LEGACY
        return 'this server (%s)' % (self._version or 'a current release')


# 403 answers whose text is a rule about the request's target, not about the caller's permissions: (words of the
# server's message, v0.27 and today's wording alike) -> the rule
TARGET_RULES = (
    ("can't change their role", "nobody can change their own role, the account owner included; to hand the ownership "
                                "over, give another user the role owner"),
    ("can't update a service user with owner role", 'a service user cannot be the owner'),
    ("can't block or unblock themselves", 'nobody can block or unblock themselves'),
    ('unable to delete a user with owner role', 'the owner cannot be deleted; transfer the ownership first'),
)
PERMISSION_HINT = " (the token's user lacks the permission for this operation)"


def explain_forbidden(exc):
    """An ApiError whose 403 text is a rule about the request (not the caller's permissions) with that rule in place of
    the permission hint; any other error unchanged."""
    if getattr(exc, 'status', None) != 403:
        return exc
    message = str(exc.message)
    for words, rule in TARGET_RULES:
        if words in message.lower():
            text = message[:-len(PERMISSION_HINT)] if message.endswith(PERMISSION_HINT) else message
            return ApiError(exc.method, exc.path, exc.status, '%s (the server refuses this whatever the permissions: %s)'
                            % (text, rule), retry_after=exc.retry_after)
    return exc
