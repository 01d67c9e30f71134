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
from ansible_collections.nms.overlay.plugins.module_utils._models import (ConfigDict, NonEmptyStr, Options, UrlStr, conint, constr,
                                                                          field_validator, passing)

ListenPort = conint(strict=True, ge=0, le=65535)   # 0: the server assigns one (L4), or none (http)
TargetPort = conint(strict=True, ge=1, le=65535)
ServiceName = constr(strip_whitespace=True, min_length=1, max_length=255)  # servers: at most 255 characters
NotNegative = conint(strict=True, ge=0)
PRICES = ('input_per_1k', 'output_per_1k', 'cached_input_per_1k', 'cache_read_per_1k', 'cache_creation_per_1k')
MIN_WINDOW = 60  # servers refuse an enabled Agent Network limit with a shorter window (422)


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


def _dollars(value):
    """A price or a cap in US dollars: a number (not true or false), at least 0."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0):
        raise ValueError('must be a number of US dollars, at least 0')
    return value


class ProviderModelOptions(Options):
    """One model of a provider: an id, its input and output prices, the other prices optional, nothing else (servers:
    422)."""

    model_config = ConfigDict(extra='forbid')

    id: NonEmptyStr
    input_per_1k: float
    output_per_1k: float
    cached_input_per_1k: Optional[float] = None
    cache_read_per_1k: Optional[float] = None
    cache_creation_per_1k: Optional[float] = None

    @field_validator(*PRICES, mode='before')
    @classmethod
    def _price(cls, value):
        return _dollars(value)


class AgentNetworkProviderOptions(Options):
    """An Agent Network provider: a name, a catalog id, the upstream a full http(s) URL (servers: 422), its models."""

    name: Optional[NonEmptyStr] = None
    provider_id: Optional[NonEmptyStr] = None
    upstream_url: Optional[UrlStr] = None
    models: Optional[List[ProviderModelOptions]] = None


class LimitOptions(Options):
    """What a token and a budget limit share: caps that are not negative, a window of a minute at least when the
    limit is enabled (servers: 422)."""

    enabled: Optional[bool] = None
    window_seconds: Optional[int] = None

    @field_validator('group_cap', 'user_cap', 'group_cap_usd', 'user_cap_usd', check_fields=False)
    @classmethod
    def _cap(cls, value):
        if value is not None and value < 0:
            raise ValueError('must not be negative')
        return value

    @field_validator('window_seconds')
    @classmethod
    def _window(cls, value, info):
        if value is not None and info.data.get('enabled') and value < MIN_WINDOW:
            raise ValueError('must be at least %d (one minute) when the limit is enabled' % MIN_WINDOW)
        return value


class TokenLimitOptions(LimitOptions):
    """A token limit: caps in tokens."""

    group_cap: Optional[int] = None
    user_cap: Optional[int] = None


class BudgetLimitOptions(LimitOptions):
    """A budget limit: caps in US dollars."""

    group_cap_usd: Optional[float] = None
    user_cap_usd: Optional[float] = None


class LimitsOptions(Options):
    """The limits of an Agent Network policy or budget rule."""

    token_limit: Optional[TokenLimitOptions] = None
    budget_limit: Optional[BudgetLimitOptions] = None


class AgentNetworkLimitsOptions(Options):
    """What servers check of an Agent Network policy's or budget rule's options beyond their types: the limits."""

    limits: Optional[LimitsOptions] = None


class AgentNetworkSettingsOptions(Options):
    """The Agent Network settings: one of proxy_address and endpoint, as servers take one to bootstrap them."""

    proxy_address: Optional[str] = None
    endpoint: Optional[str] = None

    @field_validator('endpoint')
    @classmethod
    def _one_address(cls, value, info):
        if value and info.data.get('proxy_address'):
            raise ValueError('give it or proxy_address, not both, as the server takes one to bootstrap the settings '
                             '(proxy_address: an endpoint allocated beneath it; endpoint: a dedicated one)')
        return value
