# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the reverse-proxy kinds share (reverse_proxy_service, _domain, _token, _cluster and their info modules): the
feature's name, for the refusal of a v0.27 server, and the root of its paths."""

from __future__ import annotations

PROXY_TOKENS = 'reverse proxy tokens'  # they came later than the rest (see _server.FEATURE_RELEASES)
REVERSE_PROXIES = 'reverse proxies'  # what a v0.27 server lacks (named when it refuses these modules)
ROOT = '/reverse-proxies'


def without_empty(value):
    """A JSON value with the members that say nothing (null, "", false, {} and [] inside objects) left out, so that a
    server's answer, which writes every member, compares with options, which set a few."""
    if isinstance(value, dict):
        kept = {key: without_empty(item) for key, item in value.items()}
        return {key: item for key, item in kept.items() if item not in (None, '', False, {}, [])}
    if isinstance(value, list):
        return [without_empty(item) for item in value]
    return value
