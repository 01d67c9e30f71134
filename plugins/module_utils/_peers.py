# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Peer helpers shared by the peer modules and the peers inventory plugin."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id

ALL_GROUP = 'All'

# connection_ip values that mean "no address recorded" (Go prints a nil IP as <nil>)
NO_ADDRESS = ('', '<nil>', None)


def peer_groups(peer):
    """The group summaries of a peer, never null."""
    return list(peer.get('groups') or [])


def normalise_peer(peer):
    """A peer as returned to users: groups (and accessible peers, when present) never null."""
    peer = dict(peer)
    peer['groups'] = peer_groups(peer)
    if 'accessible_peers' in peer:
        peer['accessible_peers'] = list(peer.get('accessible_peers') or [])
    return peer


def group_matches(summary, ref):
    """Whether a group summary (or group) is the group named or with the id ``ref``."""
    ref = str(ref)
    return ref_id(summary) == ref or summary.get('name') == ref


def in_any_group(peer, refs):
    """Whether the peer belongs to at least one of the groups given by name or id."""
    return any(group_matches(summary, ref) for summary in peer_groups(peer) for ref in refs)


def bare_ip(value):
    """An address without a prefix length, for comparing 100.64.0.5 and 100.64.0.5/16."""
    if value in NO_ADDRESS:
        return None
    return str(value).strip().split('/', 1)[0]


def same_hostname(left, right):
    """Hostnames compare case-insensitively and without a trailing dot."""
    if left is None or right is None:
        return False
    return str(left).lower().rstrip('.') == str(right).lower().rstrip('.')


def os_matches(peer_os, wanted):
    """The os filter: a case-insensitive substring of the peer's os (C(ubuntu) matches C(Ubuntu 22.04))."""
    return str(wanted).lower() in str(peer_os or '').lower()
