# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Helpers shared by the identity and onboarding modules: users, tokens, setup keys, account.

Everything that touches a secret (a setup key value, a token value) goes through this file, so
that the rule "shown once, by the create that makes it" is written once.
"""

from __future__ import annotations

import datetime
import re

from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError

DURATION_UNITS = {'s': 1, 'm': 60, 'h': 3600, 'd': 86400, 'w': 604800}
_DURATION_PART = re.compile(r'(\d+)\s*([smhdw])', re.IGNORECASE)
_DURATION_WHOLE = re.compile(r'^\s*(?:\d+\s*[smhdw]\s*)+$', re.IGNORECASE)

# Setup key members that are never shown after the create that made the key.
SETUP_KEY_SECRET = 'key'


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


def duration_norm(value):
    """Field normaliser: durations as seconds; values that do not parse are left for validation."""
    try:
        return parse_duration(value)
    except ValueError:
        return value


def lower(value):
    return value.lower() if isinstance(value, str) else value


def parse_time(text):
    """An aware datetime from an ISO 8601 / RFC 3339 timestamp (nanoseconds allowed), or None."""
    if not isinstance(text, str) or not text:
        return None
    match = re.match(r'^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?$', text.strip())
    if not match:
        return None
    day, clock, fraction, zone = match.groups()
    micro = int((fraction or '0')[:6].ljust(6, '0'))
    if zone in (None, 'Z'):
        offset = datetime.timezone.utc
    else:
        sign = -1 if zone[0] == '-' else 1
        digits = zone[1:].replace(':', '')
        offset = datetime.timezone(sign * datetime.timedelta(hours=int(digits[:2]), minutes=int(digits[2:])))
    try:
        moment = datetime.datetime.strptime('%s %s' % (day, clock), '%Y-%m-%d %H:%M:%S')
    except ValueError:
        return None
    return moment.replace(microsecond=micro, tzinfo=offset)


def now():
    return datetime.datetime.now(datetime.timezone.utc)


# -- personal access tokens ------------------------------------------------------------------
def token_days(token):
    """The expires_in (days) a token was created with: its expiration minus its creation date."""
    created = parse_time(token.get('created_at'))
    expires = parse_time(token.get('expiration_date'))
    if created is None or expires is None or created.year < 2:
        return None
    return int(round((expires - created).total_seconds() / 86400.0))


def plain_token_value(value):
    """The token string of a creation response: a string, or an object carrying one string member."""
    if isinstance(value, str) and value:
        return value
    if isinstance(value, dict):
        strings = [v for v in value.values() if isinstance(v, str) and v]
        if len(strings) == 1:
            return strings[0]
    # never put the value itself into the message: it may be the secret
    raise TaskError('the server answered the token creation without a usable plain_token (expected a string or an '
                    'object with one string member); the token may exist now: check it with nms.overlay.token_info')


def tokens_path(module, option='user'):
    """/users/{id}/tokens for the user named by ``option`` (an id, email or service user name)."""
    user_id = module.resolver.to_id('users', module.params[option], option)
    return '/users/%s/tokens' % user_id


# -- setup keys ---------------------------------------------------------------------------------
def setup_key_valid(key):
    """Whether a setup key can still enroll a peer (the server's ``valid``, else its ``state``)."""
    valid = key.get('valid')
    if isinstance(valid, bool):
        return valid
    return key.get('state') == 'valid'


def public_setup_key(key, reveal=False):
    """A setup key as shown to the user: ids as strings, groups never null, the value removed.

    ``reveal`` keeps the value: only the result of the create that made the key sets it.
    """
    if not isinstance(key, dict):
        return key
    result = dict(key)
    if 'id' in result and result['id'] is not None:
        result['id'] = ref_id(result['id'])
    if result.get('auto_groups') is None:
        result['auto_groups'] = []
    if not reveal:
        result.pop(SETUP_KEY_SECRET, None)
    return result


def remaining_seconds(key, low=86400, high=31536000):
    """The time a key has left, within the bounds the API accepts for expires_in (a PUT needs one)."""
    expires = parse_time(key.get('expires'))
    if expires is None:
        return low
    seconds = int((expires - now()).total_seconds())
    return max(low, min(high, seconds))
