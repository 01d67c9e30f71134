# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Peer helpers shared by the peer resource (_resources/peer.py), peer_info and the peers inventory plugin."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._client import FLAG, LIST, NUMBER, TEXT, describe_shape
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import OptionsError
from ansible_collections.nms.overlay.plugins.module_utils._time import duration_text, parse_duration, parse_time, zero_time

# connection_ip values that mean "no address recorded" (Go prints a nil IP as <nil>)
NO_ADDRESS = ('', '<nil>', None)

# last_seen of a peer never seen: Go's zero time (0001-01-01T00:00:00Z)
NEVER = parse_time(zero_time(), strict=True)

# The fields a PUT /peers/{id} carries; the server replaces all of them.
PEER_REQUEST_FIELDS = ('name', 'ssh_enabled', 'login_expiration_enabled', 'approval_required')
# Fields of a peer's answer that are no request fields, with their JSON types; a PUT keeps every other field the
# server sent (today's servers reset inactivity_expiration_enabled when a body leaves it out).
PEER_ANSWERS = dict(
    id=None, ip=TEXT, connection_ip=TEXT, connected=FLAG, last_seen=TEXT, os=TEXT, kernel_version=TEXT, geoname_id=NUMBER,
    version=TEXT, groups=LIST, user_id=TEXT, hostname=TEXT, ui_version=TEXT, dns_label=TEXT, login_expired=FLAG,
    last_login=TEXT, country_code=TEXT, city_name=TEXT, serial_number=TEXT, accessible_peers=LIST, accessible_peers_count=NUMBER)


# -- helpers ------------------------------------------------------------------------------------------
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


def is_id(value):
    """Whether a value can be an id: a string or a number (servers send either), never a boolean."""
    return isinstance(value, (str, int)) and not isinstance(value, bool)


def describe_peer(peer):
    """How a message names a peer: by name (when it is text) and id, whatever else is wrong with it."""
    name = peer.get('name')
    ident = ref_id(peer) if is_id(peer.get('id')) else None
    if isinstance(name, str) and name:
        return "the peer '%s'%s" % (name, ' (id %s)' % ident if ident else '')
    return 'the peer with id %s' % ident if ident else 'a peer without an id'


def peer_shape_problem(peer):
    """The first field of a peer (from a server's answer) whose type code relies on is wrong, as
    (field, what is wrong), or None. Other fields may hold any JSON."""
    if not is_id(peer.get('id')):
        return 'id', '%s where a string was expected' % describe_shape(peer.get('id'))
    for field in ('name', 'dns_label', 'hostname', 'ip', 'connection_ip'):
        if not isinstance(peer.get(field), (str, type(None))):
            return field, '%s where a string was expected' % describe_shape(peer.get(field))
    if not isinstance(peer.get('connected'), (bool, type(None))):
        return 'connected', '%s where a boolean was expected' % describe_shape(peer.get('connected'))
    groups = peer.get('groups')
    if groups is not None and not isinstance(groups, list):
        return 'groups', '%s where a list of group objects was expected' % describe_shape(groups)
    for index, summary in enumerate(groups or []):
        field = 'groups[%d]' % index
        if not isinstance(summary, dict):
            return field, '%s where a group object was expected' % describe_shape(summary)
        if not is_id(summary.get('id')):
            return field + '.id', '%s where a string was expected' % describe_shape(summary.get('id'))
        if not isinstance(summary.get('name'), (str, type(None))):
            return field + '.name', '%s where a string was expected' % describe_shape(summary.get('name'))
    return None


def with_accessible_peers(client, peer, path):
    """A single peer's answer with its accessible peers: v0.27 puts them in the answer, today's servers answer them
    apart (GET {path}/{id}/accessible-peers, ``path`` the peers'), read only when the answer lacks them."""
    if not isinstance(peer, dict) or 'accessible_peers' in peer or ref_id(peer) in (None, ''):
        return peer
    return dict(peer, accessible_peers=client.get_list('%s/%s/accessible-peers' % (path, ref_id(peer))))


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
    """The os filter: a case-insensitive substring of the peer's os (ubuntu matches Ubuntu 22.04)."""
    return str(wanted).lower() in str(peer_os or '').lower()


def inactive_seconds(value, option='inactive_for'):
    """The seconds of peer_info's ``inactive_for`` (``30d``, ``12h``, ``3600``...), or of the peer module's
    ``only_if_inactive_for`` (``option``), or None when unset.

    Raises OptionsError naming the option when it is no duration or a negative one.
    """
    try:
        seconds = parse_duration(value)
        if seconds is not None and seconds < 0:
            raise ValueError('must be a duration of 0 or more, such as 30d, 12h or 3600 (seconds); %d was given' % seconds)
    except ValueError as exc:
        raise OptionsError('option %s: %s' % (option, exc)) from None
    return seconds


def is_inactive(peer, seconds, now):
    """Whether the peer is not connected and was last seen more than ``seconds`` before ``now`` (seconds since the
    epoch).

    A connected peer never is, whatever its ``last_seen`` (servers stamp it when a peer connects or disconnects, so a
    peer connected for weeks has an old one). A peer that is not connected and has no time stamp to go by (never
    seen: Go's zero time, whatever the duration; or ``last_seen`` missing or not a time stamp) is inactive.
    """
    if peer.get('connected') is True:
        return False
    seen = parse_time(peer.get('last_seen'), strict=True)
    if seen is None or seen == NEVER:
        return True
    return now - seen.timestamp() > seconds


def still_active(peer, seconds, now, clock):
    """Why the peer is not stale (is_inactive) at ``now``, the time on ``clock`` (words naming that clock), as the
    start of a sentence; None when it is stale."""
    if is_inactive(peer, seconds, now):
        return None
    if peer.get('connected') is True:
        return '%s is connected now' % describe_peer(peer)
    # (a server's Date has whole seconds: a peer seen in the second it names is seen less than a second before it)
    age = now - parse_time(peer.get('last_seen'), strict=True).timestamp()
    if age >= 1:
        when = '%s before' % duration_text(age)
    else:
        when = 'less than a second before' if age > -1 else 'later than'
    return '%s was last seen at %s, %s the time on %s' % (describe_peer(peer), peer.get('last_seen'), when, clock)
