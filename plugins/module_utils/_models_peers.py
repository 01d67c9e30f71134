# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Options model for peers."""

from __future__ import annotations

import ipaddress
from typing import List, Optional

from ansible_collections.nms.overlay.plugins.module_utils._models import NonEmptyStr, Options, OptionsError, field_validator


class PeerOptions(Options):
    """A peer's identity keys and its name must not be empty; ip must be an address."""

    id: Optional[NonEmptyStr] = None
    name: Optional[NonEmptyStr] = None
    hostname: Optional[NonEmptyStr] = None
    ip: Optional[NonEmptyStr] = None
    groups: Optional[List[NonEmptyStr]] = None

    @field_validator('ip')
    @classmethod
    def _ip_address(cls, value):
        if value is None:
            return value
        try:
            ipaddress.ip_address(value.split('/', 1)[0])
        except ValueError:
            raise ValueError("'%s' is not an IP address (give the peer's overlay address, e.g. 100.64.0.5)" % value) from None
        return value


def check_new_address(value):
    """A peer's new address (v0.77 takes an IPv4 address, without a prefix length, in the account's network range,
    which the server checks)."""
    try:
        ipaddress.IPv4Address(str(value).strip())
    except ValueError:
        raise OptionsError("option ip: '%s' is not an IPv4 address such as 100.64.0.15 (given with id or hostname, ip is "
                           "the peer's new overlay address)" % value) from None
