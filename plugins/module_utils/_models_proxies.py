# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Options models for what today's servers proxy: reverse-proxy services, domains and tokens, and the Agent Network's
providers (servers of today only).

Every field is optional: a model checks what the user set, before any request. Real v0.77.1 takes a service's ports
as 16-bit numbers (70000 is stored as 4464) and a domain of any text (spaces too): the bounds and the DNS name rule
are the client's, from the API's schema and the DNS kinds' rule (``_dns.domain_problem``).
"""

from __future__ import annotations

from typing import List, Optional

from ansible_collections.nms.overlay.plugins.module_utils._dns import domain_problem
from ansible_collections.nms.overlay.plugins.module_utils._models import (NonEmptyStr, Options, UrlStr, conint, constr,
                                                                          field_validator, passing)

ListenPort = conint(strict=True, ge=0, le=65535)   # 0: the server assigns one (L4), or none (http)
TargetPort = conint(strict=True, ge=1, le=65535)
ServiceName = constr(strip_whitespace=True, min_length=1, max_length=255)  # servers: at most 255 characters
NotNegative = conint(strict=True, ge=0)


def _domain(value):
    return passing(value, None if value is None else domain_problem(value, example='app.example.com'))


class ServiceTargetOptions(Options):
    """One target of a service: what it names and a port of 1 to 65535 (the API's bounds)."""

    target_id: Optional[NonEmptyStr] = None
    port: Optional[TargetPort] = None


class ReverseProxyServiceOptions(Options):
    """A reverse-proxy service: a name of at most 255 characters, a DNS name, a listen port of 0 to 65535, targets."""

    name: Optional[ServiceName] = None
    domain: Optional[str] = None
    listen_port: Optional[ListenPort] = None
    targets: Optional[List[ServiceTargetOptions]] = None

    @field_validator('domain')
    @classmethod
    def _check_domain(cls, value):
        return _domain(value)


class ReverseProxyDomainOptions(Options):
    """A custom domain and the proxy cluster it points at (its address): both DNS names."""

    domain: Optional[str] = None
    target_cluster: Optional[str] = None

    @field_validator('domain', 'target_cluster')
    @classmethod
    def _check_names(cls, value):
        return _domain(value)


class ReverseProxyTokenOptions(Options):
    """A proxy token: a name, a lifetime in seconds that is not negative (0: it never expires; servers: 400)."""

    name: Optional[NonEmptyStr] = None
    expires_in: Optional[NotNegative] = None


class AgentNetworkProviderOptions(Options):
    """An Agent Network provider: a name, a catalog id, the upstream a full http(s) URL (servers: 422)."""

    name: Optional[NonEmptyStr] = None
    provider_id: Optional[NonEmptyStr] = None
    upstream_url: Optional[UrlStr] = None
