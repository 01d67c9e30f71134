# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Options model for peers."""

from __future__ import annotations

import base64
import binascii
import ipaddress
from typing import List, Optional

from ansible_collections.nms.overlay.plugins.module_utils._models import NonEmptyStr, Options, OptionsError, field_validator, passing


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


WG_KEY_BYTES = 32
WG_KEY_LENGTH = 44  # 32 bytes in standard base64: 43 characters and one '='


def wireguard_key_problem(value):
    """Why ``value`` is no WireGuard public key (32 bytes in standard base64, as ``wg pubkey`` prints it), as a rule;
    None when it is one."""
    text = str(value).strip()
    try:
        decoded = base64.b64decode(text, validate=True) if len(text) == WG_KEY_LENGTH and text.endswith('=') else b''
    except (binascii.Error, ValueError):
        decoded = b''
    if len(decoded) != WG_KEY_BYTES:
        return ("must be a WireGuard public key (32 bytes in standard base64: 44 characters ending in '=', as wg pubkey "
                "prints it), not '%s'" % value)
    return None


class TemporaryAccessOptions(Options):
    """Temporary access to a peer: a non-empty name, a WireGuard public key (servers make the peer of any text, real
    v0.77.1 too, and no agent can use it)."""

    name: Optional[NonEmptyStr] = None
    wg_pub_key: Optional[str] = None

    @field_validator('wg_pub_key')
    @classmethod
    def _wireguard_key(cls, value):
        return passing(value, None if value is None else wireguard_key_problem(value))


def check_new_address(value):
    """A peer's new address (v0.77 takes an IPv4 address, without a prefix length, in the account's network range,
    which the server checks)."""
    try:
        ipaddress.IPv4Address(str(value).strip())
    except ValueError:
        raise OptionsError("option ip: '%s' is not an IPv4 address such as 100.64.0.15 (given with id or hostname, ip is "
                           "the peer's new overlay address)" % value) from None


def check_new_ipv6(value):
    """A peer's new IPv6 overlay address (an IPv6 address without a prefix length; the server checks that it is in
    the account's IPv6 range and that the peer is in an IPv6-enabled group)."""
    try:
        ipaddress.IPv6Address(str(value).strip())
    except ValueError:
        raise OptionsError("option ipv6: '%s' is not an IPv6 address such as fd00:1234:5678::15 (the peer's new IPv6 "
                           "overlay address)" % value) from None
