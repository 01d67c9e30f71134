# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Time stamps as aware datetimes (what a server sends, what a user may write: event_info), durations (expires_in)
and the clock that every wait reads and sleeps on (settle, converge, retry and back-off: ``monotonic``, ``sleep``)."""

from __future__ import annotations

import datetime
import re
import time
from email.utils import parsedate_to_datetime

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


DURATION_UNITS = {'s': 1, 'm': 60, 'h': 3600, 'd': 86400, 'w': 604800}
_DURATION_PART = re.compile(r'(\d+)\s*([smhdw])', re.IGNORECASE)
_DURATION_WHOLE = re.compile(r'^\s*(?:\d+\s*[smhdw]\s*)+$', re.IGNORECASE)


def parse_duration(value):
    """Seconds from an integer or a string such as ``86400``, ``30d``, ``12h``, ``1w`` or ``1d12h``.

    Raises ValueError with a message for the user when the value is not a duration.
    """
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError('must be a number of seconds or a duration such as 30d, 12h or 1w, not a boolean')
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    text = str(value).strip()
    if re.match(r'^\d+$', text):
        return int(text)
    if _DURATION_WHOLE.match(text):
        return sum(int(num) * DURATION_UNITS[unit.lower()] for num, unit in _DURATION_PART.findall(text))
    raise ValueError("'%s' is not a number of seconds or a duration such as 30d, 12h or 1w" % text)


def duration_text(seconds):
    """Seconds (rounded down) as a duration in the units ``parse_duration`` reads, the largest and the next one:
    ``2d0h``, ``1d12h``, ``5m10s``, ``45s``."""
    left, parts = max(int(seconds), 0), []
    for unit in 'dhms':
        amount, left = divmod(left, DURATION_UNITS[unit])
        if amount or parts or unit == 's':
            parts.append('%d%s' % (amount, unit))
    return ''.join(parts[:2])


def http_time(text):
    """Seconds since the epoch of an HTTP date (a Date or Retry-After header: ``Tue, 01 Dec 2026 21:39:46 GMT``), or
    None when ``text`` is none."""
    try:
        moment = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return (moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)).timestamp()


def duration_norm(value):
    """Field normaliser: durations as seconds; values that do not parse are left for validation."""
    try:
        return parse_duration(value)
    except ValueError:
        return value


def now():
    return datetime.datetime.now(datetime.timezone.utc)


def zero_time():
    return '0001-01-01T00:00:00Z'


def iso_time(moment):
    """A timestamp the way the server writes it (UTC, RFC 3339)."""
    return moment.strftime('%Y-%m-%dT%H:%M:%S.%fZ')


class Clock:
    """The real clock. The engine and the client read time and wait only through ``monotonic``, ``sleep`` and
    ``wall_time`` below, which ask ``CLOCK``: so a test can put a clock of its own there (tests/support/fakes.py
    FakeClock), on which every wait passes at once and is recorded."""

    @staticmethod
    def monotonic():
        return time.monotonic()

    @staticmethod
    def sleep(seconds):
        time.sleep(seconds)

    @staticmethod
    def time():
        return time.time()


CLOCK = Clock()


def monotonic():
    """Seconds on a clock that never goes back, to measure how long something took (time.monotonic)."""
    return CLOCK.monotonic()


def sleep(seconds):
    """Wait ``seconds`` (time.sleep)."""
    CLOCK.sleep(seconds)


def wall_time():
    """Seconds since the epoch (time.time), to tell how far away a time stamp a server sent is."""
    return CLOCK.time()
