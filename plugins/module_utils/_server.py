# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the server is, learned once per task and only when a request depends on it.

Two generations answer this API: v0.27 (the spec) and today's servers (v0.77), which have
``GET /api/instance/version``, take port ranges in a rule's ``port_ranges`` and store one rule per policy.
Nothing here reads the server until a module asks, so an unchanged task makes no extra request.
A current server names its release there too: a feature (or option) newer than that release is refused by name, with
the release that brought it (FEATURE_RELEASES, OPTION_RELEASES).
"""

from __future__ import annotations

import re

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError

VERSION_PATH = '/instance/version'
LEGACY = 'v0.27'   # how messages name a server without GET /api/instance/version
PROBE_RELEASE = 'v0.64.2'  # the first release with GET /api/instance/version: older ones cannot be told from v0.27

# The first NetBird release that served each feature a module manages, keyed by the text its kind's ``requires`` names
# it with, as NetBird's history shows (the release tag holding the commit that added its API paths; docs/compatibility.md
# names the commits). A unit test fails when a kind names a feature missing here.
FEATURE_RELEASES = {
    'Networks': 'v0.35.0',
    'temporary access to peers': 'v0.59.0',
    'identity providers': 'v0.62.0',
    'instance setup (GET /api/instance and POST /api/setup)': 'v0.62.0',  # with the embedded identity provider
    'DNS zones': 'v0.63.0',
    'remote jobs on peers': 'v0.64.0',
    'password changes (PUT /api/users/{id}/password, with the embedded identity provider)': 'v0.64.0',
    'invite links': 'v0.64.2',
    'reverse proxies': 'v0.65.0',
    "the reverse proxy's access log": 'v0.65.0',  # GET /api/events/proxy
    'reverse proxy tokens': 'v0.71.0',  # /api/reverse-proxies/proxy-tokens came later than the rest
    'Agent Network resources': 'v0.74.0',
}

# The same for the options that only newer servers take, keyed by the option as the module's ``options_requiring``
# or its Field ``requires`` names it (each name is one module's: see the unit test).
OPTION_RELEASES = {
    'domains': 'v0.28.0',                              # route
    'keep_route': 'v0.28.0',                           # route
    'checks.process_check': 'v0.28.0',                 # posture_check
    'access_control_groups': 'v0.30.0',                # route
    'peer_inactivity_expiration_enabled': 'v0.30.2',   # account_settings
    'peer_inactivity_expiration': 'v0.30.2',           # account_settings
    'inactivity_expiration_enabled': 'v0.30.2',        # peer
    'routing_peer_dns_resolution_enabled': 'v0.35.0',  # account_settings
    'resources': 'v0.35.0',                            # group
    'rules.source_resource': 'v0.35.0',                # policy
    'rules.destination_resource': 'v0.35.0',           # policy
    'allow_extra_dns_labels': 'v0.37.0',               # setup_key
    'current': 'v0.41.1',                              # user_info: GET /api/users/current
    'dns_domain': 'v0.42.0',                           # account_settings
    'lazy_connection_enabled': 'v0.45.2',              # account_settings
    'skip_auto_apply': 'v0.55.0',                      # route
    'user_approval_required': 'v0.56.0',               # account_settings
    'network_range': 'v0.53.0',                        # account_settings (NetBird commit beb66208a)
    'auto_update_version': 'v0.61.0',                  # account_settings (011cc8167)
    'rules.authorized_groups': 'v0.61.0',              # policy, with the protocol netbird-ssh (67f7b2404)
    'peer_expose_enabled': 'v0.66.0',                  # account_settings (63c83aa8d)
    'peer_expose_groups': 'v0.66.0',                   # account_settings (63c83aa8d)
    'auto_update_always': 'v0.67.0',                   # account_settings (fe9b84451)
    'network_range_v6': 'v0.71.0',                     # account_settings (205ebcfda, the IPv6 overlay)
    'ipv6_enabled_groups': 'v0.71.0',                  # account_settings (205ebcfda)
    'local_mfa_enabled': 'v0.71.0',                    # account_settings (e89aad09f)
    'metrics_push_enabled': 'v0.74.0',                 # account_settings (980598ed4)
    'ipv6': 'v0.71.0',                                 # peer (205ebcfda, the IPv6 overlay)
    'approval': 'v0.56.0',                             # user: POST /api/users/{id}/approve
}

_RELEASE = re.compile(r'v?(\d+)\.(\d+)\.(\d+)')


def release_tuple(text):
    """(major, minor, patch) of a release as servers and this module write it ('0.77.1', 'v0.64.2', a pre-release
    '0.75.0-rc.1' as its release), or None for anything else (a development build)."""
    found = _RELEASE.match(text) if isinstance(text, str) else None
    return tuple(int(part) for part in found.groups()) if found else None


def feature_release(feature):
    """The release that brought a feature (a kind's ``requires`` text), or None when the table lacks it."""
    return FEATURE_RELEASES.get(feature)


def option_release(name, generation):
    """The release that brought an option (``generation`` is what its declaration says: a feature text, or 'v0.77'),
    or None when only its generation is known."""
    return OPTION_RELEASES.get(name) or FEATURE_RELEASES.get(generation)


def refused_release(server, release, generation='v0.77'):
    """How a refusal names ('v0.28.0 on') the release that brought an option or value (``release``; None: only its
    ``generation`` is known) when ``server`` is older, else None: the server has it. (A server without the version probe
    says so in its description: before v0.64.2 a server cannot be told from v0.27.)"""
    if server.has_release(release):
        return None
    return '%s on' % (release or generation)


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

    def has_release(self, release):
        """Whether the server is of ``release`` or later: never for a server without the version probe (it is older
        than PROBE_RELEASE), always for a current server whose version is no release (a development build) or when
        ``release`` is None (only the generation is known)."""
        if not self.current:
            return False
        mine, wanted = release_tuple(self._version), release_tuple(release)
        return mine is None or wanted is None or mine >= wanted

    def upgrade_to(self, release):
        """The release to upgrade to for a feature of ``release``: a server without the version probe needs one that
        has it too, since before it the collection cannot tell the server from v0.27."""
        if not self.current and release_tuple(release) is not None and release_tuple(release) < release_tuple(PROBE_RELEASE):
            return PROBE_RELEASE
        return release

    def lacks(self, feature):
        """Why the server does not have ``feature`` (a kind's ``requires`` text), or None when it has it."""
        release = feature_release(feature)
        if release is None:  # a feature missing from the table (a unit test keeps it complete): the generation only
            return None if self.current else ('%s does not have %s (they came after %s); upgrade the server to manage them'
                                              % (self.describe(), feature, LEGACY))
        if self.has_release(release):
            return None
        target = self.upgrade_to(release)
        return ('%s does not have %s, which came with NetBird %s; upgrade the server to %s or later%s to manage them'
                % (self.describe(), feature, release, target,
                   '' if target == release else ' (the first release that answers GET /api/instance/version)'))

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
