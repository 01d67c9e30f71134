# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Options models for networks, their resources and their routers (servers after v0.27)."""

from __future__ import annotations

import ipaddress
import re
from typing import List, Optional

from ansible_collections.nms.overlay.plugins.module_utils._models import Field, NonEmptyStr, Options, conint, field_validator

Metric = conint(strict=True, ge=1, le=9999)

# The server's domain pattern (labels of letters, digits, '-' and '_', an optional leading '*.'), compared without case.
DOMAIN = re.compile(r'^(\*\.)?((xn--)?[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?\.)*(xn--)?[a-z0-9]([a-z0-9_-]{0,61}[a-z0-9])?$',
                    re.IGNORECASE)


def _address(value):
    text = str(value).strip()
    try:
        ipaddress.ip_interface(text)
        return value
    except ValueError:
        pass
    if '/' not in text and len(text) <= 253 and DOMAIN.match(text):
        return value
    raise ValueError("must be an IP address (10.0.0.1), a subnet (10.0.0.0/24) or a domain (example.com, *.example.com), "
                     "not '%s'" % value)


class NetworkResourceOptions(Options):
    """A network resource: its address is a host, a subnet or a domain (the server answers anything else with a
    bare 500)."""

    name: Optional[NonEmptyStr] = None
    address: Optional[str] = None

    @field_validator('address')
    @classmethod
    def _check_address(cls, value):
        return value if value is None else _address(value)


class NetworkRouterOptions(Options):
    """A network router: the spec's metric bounds (peer and peer_groups exclude each other in the argument spec)."""

    peer: Optional[NonEmptyStr] = None
    peer_groups: Optional[List[NonEmptyStr]] = Field(default=None, min_length=1)
    metric: Optional[Metric] = None
