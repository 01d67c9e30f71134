# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Options model for peers."""

from __future__ import annotations

import base64
import binascii
import ipaddress
from typing import Annotated, List, Optional

from ansible_collections.nms.overlay.plugins.module_utils._models import (AfterValidator, NonEmptyStr, Options, OptionsError,
                                                                          field_validator, passing)
from ansible_collections.nms.overlay.plugins.module_utils._compare import rule_text

BUNDLE_MINUTES = (1, 5)         # what servers accept for a job's bundle_for_time (400 otherwise)
LOG_FILE_COUNT = (1, 1000)      # and for its log_file_count


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


def check_rule(text):
    """A rule of temporary access as servers take it (they refuse others with a bare 500, after making the peer)."""
    return passing(text, None if rule_text(text) is not None else (
        "'%s' is no rule; write tcp/PORT, udp/PORT, tcp/START-END, udp/START-END (ports 1 to 65535), icmp or all" % text))


class TemporaryAccessOptions(Options):
    """Temporary access to a peer: a non-empty name, a WireGuard public key (servers make the peer of any text, real
    v0.77.1 too, and no agent can use it), and at least one rule, each one servers take (they refuse others with a
    bare 500, after making the peer)."""

    name: Optional[NonEmptyStr] = None
    wg_pub_key: Optional[str] = None
    rules: Optional[List[Annotated[str, AfterValidator(check_rule)]]] = None

    @field_validator('wg_pub_key')
    @classmethod
    def _wireguard_key(cls, value):
        return passing(value, None if value is None else wireguard_key_problem(value))

    @field_validator('rules')
    @classmethod
    def _some(cls, value):
        if value is not None and not value:
            raise ValueError('must list at least 1 rule (without one the peer can reach nothing)')
        return value


class PeerJobOptions(Options):
    """A debug bundle's parameters as servers check them (400 otherwise): minutes of 1 to 5 while bundling for a
    time, 1 to 1000 log files."""

    type: Optional[NonEmptyStr] = None
    bundle_for: Optional[bool] = None
    bundle_for_time: Optional[int] = None
    log_file_count: Optional[int] = None
    anonymize: Optional[bool] = None

    @field_validator('bundle_for_time')
    @classmethod
    def _minutes(cls, value, info):
        if info.data.get('bundle_for') and value is not None and not BUNDLE_MINUTES[0] <= value <= BUNDLE_MINUTES[1]:
            raise ValueError('must be from %d to %d (minutes) with bundle_for: true' % BUNDLE_MINUTES)
        return value

    @field_validator('log_file_count')
    @classmethod
    def _files(cls, value):
        if value is not None and not LOG_FILE_COUNT[0] <= value <= LOG_FILE_COUNT[1]:
            raise ValueError('must be from %d to %d' % LOG_FILE_COUNT)
        return value


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
