# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Options models for DNS zones and their records (servers of today only).

Every field is optional: a model checks what the user set, before any request. The rules that need the
server's values too (a record's content for the type it keeps, a record name inside its zone's domain) are
checked again on the merged state by ``_resources/dns_record.py``, with the same functions (defined there and
in ``_resources/dns_zone.py``).
"""

from __future__ import annotations

from typing import List, Optional

from ansible_collections.nms.overlay.plugins.module_utils._models import (Field, NonEmptyStr, Options, ValidationInfo, conint,
                                                                          constr, field_validator, passing)
from ansible_collections.nms.overlay.plugins.module_utils._dns import content_problem, domain_problem

ZoneName = constr(strip_whitespace=False, min_length=1, max_length=255)
Content = constr(strip_whitespace=False, min_length=1, max_length=255)
Ttl = conint(strict=True, ge=0)


class DnsZoneOptions(Options):
    """A DNS zone: the name's bounds and the domain's form from the server's checks; at least one group."""

    name: Optional[ZoneName] = None
    domain: Optional[str] = None
    distribution_groups: Optional[List[NonEmptyStr]] = Field(default=None, min_length=1)

    @field_validator('domain')
    @classmethod
    def _check_domain(cls, value):
        return passing(value, None if value is None else domain_problem(value))


class DnsRecordOptions(Options):
    """A DNS record: a DNS name (a wildcard may lead), content fitting the type, a TTL of 0 or more seconds."""

    name: Optional[str] = None
    type: Optional[str] = None
    content: Optional[Content] = None
    ttl: Optional[Ttl] = None

    @field_validator('name')
    @classmethod
    def _check_name(cls, value):
        example = 'www.example.com or *.example.com'
        return passing(value, None if value is None else domain_problem(value, wildcard=True, example=example))

    @field_validator('content')
    @classmethod
    def _check_content(cls, value, info: ValidationInfo):
        return passing(value, None if value is None else content_problem(info.data.get('type'), value))
