# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Normalisation of server and user values so that equal states compare equal."""

from __future__ import annotations

import ipaddress
import re


def ref_id(value):
    """The id of a reference given as an id string, a number, or a summary object with an id."""
    if isinstance(value, dict):
        value = value.get('id')
    return None if value is None else str(value)


def id_list(values):
    """A list of summaries or ids (or null) as a list of id strings, order kept."""
    return [ref_id(v) for v in (values or []) if ref_id(v) not in (None, '')]


def id_set(values):
    """Set-like references as a sorted list without duplicates, so equal sets compare equal."""
    return sorted(set(ref for ref in (ref_id(value) for value in values or []) if ref not in (None, '')))


def str_set(values):
    return sorted(set(str(v) for v in (values or [])))


def lower_set(values):
    return sorted(set(str(v).lower().rstrip('.') for v in (values or [])))


def cidr(value):
    """A CIDR by value: 10.0.0.5/24 and 10.0.0.0/24 are the same network."""
    if value in (None, ''):
        return value
    try:
        return str(ipaddress.ip_network(str(value).strip(), strict=False))
    except ValueError:
        return str(value)


def flatten(values):
    """A list that a server may nest one level deep (the spec's sample does) as a flat list."""
    flat = []
    for value in values or []:
        if isinstance(value, (list, tuple)):
            flat.extend(value)
        else:
            flat.append(value)
    return flat


def unwrap_items(data):
    """Some servers wrap a singleton in {"items": ...}, others do not; accept both."""
    if isinstance(data, dict) and isinstance(data.get('items'), dict):
        return data['items']
    return data


def the_account(data):
    """The one account in an answer of GET /accounts (a list of one, or one object, wrapped in items or not),
    or None when the answer holds no single account."""
    data = unwrap_items(data)
    accounts = [data] if isinstance(data, dict) else data
    if isinstance(accounts, list) and len(accounts) == 1 and isinstance(accounts[0], dict):
        return accounts[0]
    return None


def lower(value):
    return value.lower() if isinstance(value, str) else value


def known_bool(value):
    """A flag that older servers do not have: None where the answer has no such member (it is then never sent)."""
    return None if value is None else bool(value)


def ip_text(value):
    """An IP address in canonical form (so 2001:DB8::0001 equals 2001:db8::1); other text unchanged."""
    text = '' if value is None else str(value).strip()
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return text


RULE_RE = re.compile(r'^(?:(all|icmp)|(tcp|udp)/(\d{1,5})(?:-(\d{1,5}))?)$')


def rule_text(text):
    """A rule of temporary access as the module compares and sends it ('tcp/22', 'udp/53-60', 'icmp', 'all'), or None when servers would
    refuse it (they answer a bare 500 after making the peer, so it is refused before any request)."""
    match = RULE_RE.match(str(text).strip().lower())
    if not match:
        return None
    if match.group(1):
        return match.group(1)
    start, end = int(match.group(3)), int(match.group(4) or match.group(3))
    if not 1 <= start <= end <= 65535:
        return None
    return '%s/%d' % (match.group(2), start) if start == end else '%s/%d-%d' % (match.group(2), start, end)
