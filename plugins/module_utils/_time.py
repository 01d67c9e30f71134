# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Time stamps as aware datetimes: what a server sends, and what a user may write (event_info)."""

from __future__ import annotations

import datetime
import re

UTC = datetime.timezone.utc
# what servers send: RFC 3339 with seconds, a fraction down to nanoseconds, Z or an offset
RFC_3339 = re.compile(
    r'^(?P<date>\d{4}-\d{2}-\d{2})[T ](?P<hour>\d{2}):(?P<minute>\d{2}):(?P<second>\d{2})(?:\.(?P<fraction>\d+))?'
    r'(?P<zone>Z|[+-]\d{2}:?\d{2})?$')
# what a user may write as well: a date alone, minutes without seconds, lower case, a comma before the fraction
ISO_8601 = re.compile(
    r'^(?P<date>\d{4}-\d{2}-\d{2})'
    r'(?:[Tt ](?P<hour>\d{2}):(?P<minute>\d{2})(?::(?P<second>\d{2})(?:[.,](?P<fraction>\d+))?)?)?'
    r'\s*(?P<zone>[Zz]|[+-]\d{2}(?::?\d{2})?)?$')
RELATIVE = re.compile(r'^-\s*(?P<amount>\d+)\s*(?P<unit>[smhdw])$')
UNITS = dict(s='seconds', m='minutes', h='hours', d='days', w='weeks')


def parse_time(text, now=None, strict=False):
    """An aware datetime for a time stamp, or None when ``text`` is not one.

    By default any ISO 8601 form event_info's options accept, ``now`` and ``-<n><unit>`` (s, m, h, d, w) before
    ``now`` (the current time unless given). ``strict`` takes only RFC 3339 with seconds, what servers send: the
    identity area reads server time stamps so and counts anything else as no time stamp.
    """
    if not isinstance(text, str):
        return None
    text = text.strip()
    if not strict:
        now = now or datetime.datetime.now(UTC)
        if text.lower() == 'now':
            return now
        match = RELATIVE.match(text)
        if match:
            return now - datetime.timedelta(**{UNITS[match.group('unit')]: int(match.group('amount'))})
    match = (RFC_3339 if strict else ISO_8601).match(text)
    if not match:
        return None
    try:
        moment = datetime.datetime.strptime(match.group('date'), '%Y-%m-%d').replace(
            hour=int(match.group('hour') or 0), minute=int(match.group('minute') or 0),
            second=int(match.group('second') or 0),
            microsecond=int((match.group('fraction') or '0')[:6].ljust(6, '0')))
    except ValueError:
        return None
    zone = match.group('zone')
    if zone in (None, 'Z', 'z'):
        return moment.replace(tzinfo=UTC)
    digits = zone[1:].replace(':', '')
    offset = datetime.timedelta(hours=int(digits[:2]), minutes=int(digits[2:4] or 0))
    return moment.replace(tzinfo=datetime.timezone(-offset if zone[0] == '-' else offset))
