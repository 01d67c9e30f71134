# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""DNS names and record contents as servers take them (rules shared by the DNS kinds and their options models)."""

from __future__ import annotations

import ipaddress
import re

RECORD_TYPES = ('A', 'AAAA', 'CNAME')


# One label of a DNS name as today's servers take it: letters, digits, hyphens and underscores, at most 63,
# not starting with a hyphen, ending with a letter or digit (punycode labels are plain ASCII too); the last
# label does not start with an underscore either.
_LABEL = re.compile(r'^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?$', re.IGNORECASE)


def domain_problem(value, wildcard=False, example='example.com'):
    """Why ``value`` is no DNS name the server takes, as a rule (None when it is one). ``wildcard``: ``*.`` may lead."""
    text = str(value)
    if wildcard and text.startswith('*.'):
        text = text[2:]
    labels = text.split('.')
    if text and all(_LABEL.match(label) for label in labels) and not labels[-1].startswith('_'):
        return None
    return ("must be a DNS name such as %s (dot-separated labels of letters, digits, hyphens and underscores, no "
            "trailing dot), not '%s'" % (example, value))


def content_problem(record_type, content):
    """Why ``content`` cannot be the content of a record of ``record_type``, as a rule (None when it can, or when
    either is unknown)."""
    if record_type not in RECORD_TYPES or content in (None, ''):
        return None
    if record_type == 'CNAME':
        return domain_problem(content, example='www.example.com for a record of type CNAME')
    version = 4 if record_type == 'A' else 6
    try:
        if ipaddress.ip_address(str(content)).version == version:
            return None
    except ValueError:
        pass
    return "must be an IPv%d address for a record of type %s, not '%s'" % (version, record_type, content)
