# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Custom DNS zones of today's servers (the dns_zone module and dns_zone_info)."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._client import LIST, ApiError
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.account_settings import account_of

ZONES_FEATURE = 'DNS zones'
# the peers' DNS domain of a server started without --dns-domain (NetBird's default)
DEFAULT_PEER_DOMAIN = 'netbird.selfhosted'
SHOWN = "the server's, as the peers' names show"


def unreadable_as(default, read):
    """What ``read()`` returns, or ``default`` when the token may not read it (403) or the server has no such list
    (404): a check that only predicts the server's own refusal then leaves it to the server."""
    try:
        return read()
    except ApiError as exc:
        if exc.status not in (401, 403, 404):
            raise
        return default


def zone_result(item):
    """A zone as returned to the user: distribution_groups and records never null."""
    if not isinstance(item, dict) or not item:
        return item
    return dict(item, distribution_groups=item.get('distribution_groups') or [], records=item.get('records') or [])


def peer_domains(task):
    """[(domain, where it comes from)]: the domains under which the server names the peers, which a zone may
    not take: the account's dns_domain setting, and the server's own (its --dns-domain), which the peers' names
    show while the account sets none."""
    found = []
    account = unreadable_as(None, lambda: account_of(task))
    account_domain = ((account or {}).get('settings') or {}).get('dns_domain') if isinstance(account, dict) else None
    if account_domain:
        found.append((account_domain, "the account's dns_domain setting"))
    shown = set()
    if not account_domain:
        for peer in unreadable_as([], lambda: task.resolver.items('peers')):
            label = peer.get('dns_label') if isinstance(peer, dict) else None
            if isinstance(label, str) and '.' in label:
                shown.add(label.split('.', 1)[1])
        found.extend((name, SHOWN) for name in sorted(shown))
    # no guess at the server's domain when no peer shows it (a server may run with another --dns-domain than
    # NetBird's default): the server refuses its own domain then, as before this check
    return found


class DnsZoneModule(ResourceModule):
    """A zone, found by id or by its domain (servers keep one zone per domain, and a zone's domain never changes)."""

    path = '/dns/zones'
    what = 'DNS zone'
    kind = 'dns_zones'       # a record's zone option names it by id, domain or name
    # servers refuse a second zone of a domain (409), and a zone's domain never changes (so no rename to check)
    unique_names = True
    requires = ZONES_FEATURE
    natural_key = 'domain'
    lookup = ('domain', 'name')
    answers = dict(id=None, records=LIST)  # the records are managed with dns_record, under their own path
    required_on_create = ('domain', 'name', 'distribution_groups')
    model = 'dns_zones.DnsZoneOptions'
    fields = dict(
        name=Field(),
        domain=Field(immutable=True),
        enabled=Field('bool', initial=True),
        enable_search_domain=Field('bool', initial=False),
        distribution_groups=Field('list', ref='groups', many=True),
    )
    required_one_of = (('id', 'domain'),)
    shape = staticmethod(zone_result)

    task_state = dict(_peer_domains=None)  # see peer_domains

    def check_server(self):
        """A new zone on the peers' own DNS domain is refused by the server at write time (422): refused here first,
        before any write (network_state: before its first), in check mode too. Only for a zone still to be created
        (none of the zones, which finding it reads anyway, has the domain): the account and the peers are read then."""
        super().check_server()
        domain = self.params.get('domain')
        if not domain or self.params.get('id') or any(
                isinstance(item, dict) and item.get('domain') == domain for item in self.resolver.items(self.kind)):
            return
        if self._peer_domains is None:  # network_state asks before its first write and again when it applies the entry
            self._peer_domains = peer_domains(self)
        for peer_domain, whose in self._peer_domains:
            if domain == peer_domain:  # as the server compares them
                raise TaskError("option domain: '%s' is the peers' own DNS domain (%s), and the server refuses a zone "
                                "on it, whose names would conflict with the peers' names; give the zone another "
                                "domain, such as a subdomain of it" % (domain, whose))
        if domain == DEFAULT_PEER_DOMAIN and not any(whose == SHOWN for dummy, whose in self._peer_domains):
            # the server's own domain is not shown (no peer, or the account's setting names the peers): a guess only,
            # since a server may run with another --dns-domain; the server refuses the zone if it is its domain
            self.warn("option domain: '%s' is NetBird's default DNS domain of the peers; a server started without "
                      "--dns-domain refuses a zone on it (no peer shows this server's own domain, so the task cannot "
                      "tell beforehand)" % domain)
