# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Options models for access control: policies (with their rules) and posture checks.

Every field is optional and named like the Ansible option it checks; a model validates what the user
set, before any request. Rules that span several options of one rule (protocol, ports, direction)
live in ``_access.rule_problems`` because they are checked twice: on the user's options before any
request, and on the merged rule before the write.
"""

from __future__ import annotations

import ipaddress
import re
from typing import ClassVar, Dict, List, Optional

from ansible_collections.nms.overlay.plugins.module_utils._access import CHECK_NAMES, PROCESS_PATHS
from ansible_collections.nms.overlay.plugins.module_utils._models import (AfterValidator, NonEmptyStr, Options, ValidationInfo,
                                                                          field_validator, model_validator, passing)

try:
    from typing import Annotated
except ImportError:  # pragma: no cover - Python before 3.9
    Annotated = None

# hashicorp/go-version, which the server parses version strings with (1, 0.25.0, v1.2.3, 6.5.11-rc1).
VERSION = re.compile(r'^v?[0-9]+(\.[0-9]+)*'
                     r'(-([0-9]+[0-9A-Za-z~-]*(\.[0-9A-Za-z~-]+)*)|(-?([A-Za-z~-]+[0-9A-Za-z~-]*(\.[0-9A-Za-z~-]+)*)))?'
                     r'(\+([0-9A-Za-z~-]+(\.[0-9A-Za-z~-]+)*))?$')
COUNTRY = re.compile(r'^[A-Za-z]{2}$')
PORT = re.compile(r'^([0-9]+)(?:-([0-9]+))?$')
MAX_PORT = 65535
OS_NAMES = ('android', 'darwin', 'ios', 'linux', 'windows')


def check_version(value):
    value = value.strip()
    if not VERSION.match(value):
        raise ValueError("'%s' is not a version (examples: 0.25.0, v1.2.3, 6.5.11-rc1)" % value)
    return value


def check_country(value):
    value = value.strip()
    if not COUNTRY.match(value):
        raise ValueError("'%s' is not a 2-letter ISO 3166-1 alpha-2 country code (examples: DE, US)" % value)
    return value.upper()


def check_cidr(value):
    value = value.strip()
    try:
        if '/' not in value:
            raise ValueError(value)
        ipaddress.ip_network(value, strict=False)
    except ValueError:
        raise ValueError("'%s' is not a CIDR range (examples: 10.0.0.0/8, 2001:db8::/32)" % value) from None
    return value


def port_bounds(value):
    """(low, high) of a port or a port range text, or None when it is neither."""
    found = PORT.match(str(value).strip())
    if not found:
        return None
    low = int(found.group(1))
    high = int(found.group(2)) if found.group(2) is not None else low
    if not 1 <= low <= high <= MAX_PORT:
        return None
    return low, high


def check_port(value):
    if port_bounds(value) is None:
        raise ValueError("'%s' is not a port in 1..%d or a range of them like 8000-8100" % (value, MAX_PORT))
    return str(value).strip()


if Annotated is not None:
    VersionStr = Annotated[str, AfterValidator(check_version)]
    CountryStr = Annotated[str, AfterValidator(check_country)]
    CidrStr = Annotated[str, AfterValidator(check_cidr)]
    PortStr = Annotated[str, AfterValidator(check_port)]
else:  # pragma: no cover
    VersionStr = CountryStr = CidrStr = PortStr = str


class Given(Options):
    """Options of which something must be given, each rule with its own message: the lists ``nonempty`` names
    ({field: problem}) hold at least one item when set, and at least one of the members ``one_of`` names is set
    (else ``one_of_problem``)."""

    nonempty: ClassVar[dict] = {}
    one_of: ClassVar[tuple] = ()
    one_of_problem: ClassVar[str] = ''

    @field_validator('*')
    @classmethod
    def not_empty(cls, value, info: ValidationInfo):
        return passing(value, cls.nonempty.get(info.field_name) if value is not None and not value else None)

    @model_validator(mode='after')
    def one_given(self):
        return passing(self, self.one_of_problem if self.one_of and not any(getattr(self, name) for name in self.one_of) else None)


# -- posture checks ---------------------------------------------------------------------------------
class MinVersion(Options):
    min_version: Optional[VersionStr] = None


class MinKernelVersion(Options):
    min_kernel_version: Optional[VersionStr] = None


class OsVersionCheck(Given):
    one_of = OS_NAMES
    one_of_problem = 'give the minimum version of at least one of %s' % ', '.join(OS_NAMES)
    android: Optional[MinVersion] = None
    darwin: Optional[MinVersion] = None
    ios: Optional[MinVersion] = None
    linux: Optional[MinKernelVersion] = None
    windows: Optional[MinKernelVersion] = None


class Location(Options):
    country_code: Optional[CountryStr] = None


class GeoLocationCheck(Given):
    nonempty = dict(locations='give at least one location')
    locations: Optional[List[Location]] = None


class PeerNetworkRangeCheck(Given):
    nonempty = dict(ranges='give at least one CIDR range')
    ranges: Optional[List[CidrStr]] = None


class Process(Given):
    one_of = PROCESS_PATHS
    one_of_problem = 'give the path of the process on at least one of %s' % ', '.join(PROCESS_PATHS)
    linux_path: Optional[str] = None
    mac_path: Optional[str] = None
    windows_path: Optional[str] = None


class ProcessCheck(Given):
    nonempty = dict(processes='give at least one process')
    processes: Optional[List[Process]] = None


class Checks(Given):
    one_of = CHECK_NAMES
    one_of_problem = 'give at least one of %s' % ', '.join(CHECK_NAMES)
    nb_version_check: Optional[MinVersion] = None
    os_version_check: Optional[OsVersionCheck] = None
    geo_location_check: Optional[GeoLocationCheck] = None
    peer_network_range_check: Optional[PeerNetworkRangeCheck] = None
    process_check: Optional[ProcessCheck] = None


class PostureCheckOptions(Options):
    name: Optional[NonEmptyStr] = None
    checks: Optional[Checks] = None


# -- policies -----------------------------------------------------------------------------------------
class RuleOptions(Options):
    name: Optional[NonEmptyStr] = None
    ports: Optional[List[PortStr]] = None
    sources: Optional[List[NonEmptyStr]] = None
    destinations: Optional[List[NonEmptyStr]] = None
    source_resource: Optional[NonEmptyStr] = None
    destination_resource: Optional[NonEmptyStr] = None
    # user group (name or id) -> the local users its members may log in as over NetBird SSH ([]: any local user)
    authorized_groups: Optional[Dict[NonEmptyStr, List[NonEmptyStr]]] = None


class PolicyOptions(Given):
    nonempty = dict(rules='give at least one rule; a policy without rules is refused by the server')
    name: Optional[NonEmptyStr] = None
    rules: Optional[List[RuleOptions]] = None
    source_posture_checks: Optional[List[NonEmptyStr]] = None
