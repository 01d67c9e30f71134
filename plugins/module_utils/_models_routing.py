# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Options models for routes, nameserver groups and DNS settings.

Every field is optional: a model checks what the user set, before any request. Rules that need
the server's values too (the nameserver group domain rules on a partial update) are checked again
on the merged state by the modules, with the same functions from ``_resources/nameserver_group.py``.
"""

from __future__ import annotations

import ipaddress
import re
from typing import List, Literal, Optional

from ansible_collections.nms.overlay.plugins.module_utils._models import (Field, NonEmptyStr, Options, ValidationInfo, conint,
                                                                          constr, field_validator, passing)

NetworkId = constr(strip_whitespace=False, min_length=1, max_length=40)
NameserverGroupName = constr(strip_whitespace=False, min_length=1, max_length=40)
Metric = conint(strict=True, ge=1, le=9999)
Port = conint(strict=True, ge=1, le=65535)
NsType = Literal['udp']


# The server's pattern for a match domain (compared without case and without a trailing dot).
DOMAIN = re.compile(r'^[a-z0-9]+([\-.][a-z0-9]+)*\.[a-z]{2,}$', re.IGNORECASE)
# The pattern a v0.77 server checks a route's domains against (after IDNA): dot-separated labels of letters,
# digits, hyphens and underscores, optionally after a leading wildcard label.
ROUTE_DOMAIN = re.compile(r'^(\*\.)?([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9_-]{0,61}[a-z0-9])?$',
                          re.IGNORECASE)
MAX_ROUTE_DOMAINS = 32


def route_domain_problem(domain):
    """Why a v0.77 server refuses a route domain, or None (international names count in their IDNA form)."""
    try:
        ascii_name = domain.encode('idna').decode('ascii') if not domain.isascii() else domain
    except UnicodeError:
        ascii_name = None
    if ascii_name is None or not ROUTE_DOMAIN.match(ascii_name):
        return ("'%s' is not a domain name such as example.com or *.example.com (dot-separated labels of letters, "
                "digits, hyphens and underscores, no trailing dot)" % domain)
    return None


def _network(value):
    text = str(value).strip()
    if '/' not in text:
        raise ValueError("must be a CIDR range with a prefix length, such as 10.0.0.0/24, not '%s'" % value)
    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        raise ValueError("must be a CIDR range such as 10.0.0.0/24 or 2001:db8::/64, not '%s'" % value) from None
    return text


class RouteOptions(Options):
    """A route: bounds from the spec's Limits, never both peer and peer_groups, never both network and domains."""

    network_id: Optional[NetworkId] = None
    peer: Optional[NonEmptyStr] = None
    peer_groups: Optional[List[NonEmptyStr]] = Field(default=None, min_length=1)
    network: Optional[str] = None
    metric: Optional[Metric] = None
    groups: Optional[List[NonEmptyStr]] = Field(default=None, min_length=1)
    domains: Optional[List[NonEmptyStr]] = Field(default=None, min_length=1, max_length=MAX_ROUTE_DOMAINS)
    access_control_groups: Optional[List[NonEmptyStr]] = None

    @field_validator('network')
    @classmethod
    def _check_network(cls, value):
        return value if value is None else _network(value)

    @field_validator('domains')
    @classmethod
    def _check_domains(cls, value, info: ValidationInfo):
        if value is None:
            return value
        if info.data.get('network') is not None:
            raise ValueError('cannot be set together with network: a route leads either to a network range or to '
                             'the addresses its domains resolve to')
        for domain in value:
            passing(domain, route_domain_problem(domain))
        return value

    @field_validator('peer_groups')
    @classmethod
    def _check_not_both(cls, value, info: ValidationInfo):
        if value is not None and info.data.get('peer') is not None:
            raise ValueError('cannot be set together with peer: a route is served either by one routing peer or by '
                             'the peers of peer_groups')
        return value


class NameserverOptions(Options):
    """One nameserver: an IP address, the type (only udp) and a port."""

    ip: NonEmptyStr
    ns_type: NsType = 'udp'
    port: Port = 53

    @field_validator('ip')
    @classmethod
    def _check_ip(cls, value):
        try:
            ipaddress.ip_address(value)
        except ValueError:
            raise ValueError("must be an IPv4 or IPv6 address, not '%s'" % value) from None
        return value


class NameserverGroupOptions(Options):
    """A nameserver group: bounds from the spec's Limits.

    The spec's domain rules involve several options and, on an update, the server's values: they
    are checked by ``_resources.nameserver_group.nameserver_rule_problems`` (on the options, then on the merged state).
    """

    name: Optional[NameserverGroupName] = None
    nameservers: Optional[List[NameserverOptions]] = Field(default=None, min_length=1, max_length=3)
    groups: Optional[List[NonEmptyStr]] = Field(default=None, min_length=1)
    domains: Optional[List[NonEmptyStr]] = None

    @field_validator('domains')
    @classmethod
    def _check_domains(cls, value):
        for domain in value or []:
            if not DOMAIN.match(domain.rstrip('.')):
                raise ValueError("'%s' is not a domain name of at least two labels such as example.com (letters, "
                                 "digits and inner hyphens)" % domain)
        return value


class DnsSettingsOptions(Options):
    """DNS settings: the groups whose DNS management is disabled (names or ids)."""

    disabled_management_groups: Optional[List[NonEmptyStr]] = None
