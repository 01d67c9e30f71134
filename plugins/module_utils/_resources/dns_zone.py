# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Custom DNS zones of today's servers (the dns_zone module and dns_zone_info)."""

from __future__ import annotations

import re

from ansible_collections.nms.overlay.plugins.module_utils._resource import Field, ResourceModule

ZONES_FEATURE = 'DNS zones'

# One label of a DNS name as today's servers take it: letters, digits, hyphens and underscores, at most 63,
# not starting with a hyphen, ending with a letter or digit (punycode labels are plain ASCII too); the last
# label does not start with an underscore either.
_LABEL = re.compile(r'^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?$', re.IGNORECASE)


def domain_problem(value, wildcard=False, example='example.com'):
    """Why ``value`` is no DNS name the server takes, as a rule (None when it is one). ``wildcard``: ``*.`` may lead."""
    text = str(value)
    if wildcard and text.startswith('*.'):
        text = text[2:]
    labels = text.split('.')
    if text and all(_LABEL.match(label) for label in labels) and not labels[-1].startswith('_'):
        return None
    return ("must be a DNS name such as %s (dot-separated labels of letters, digits, hyphens and underscores, no "
            "trailing dot), not '%s'" % (example, value))


def _zone_model():
    from ansible_collections.nms.overlay.plugins.module_utils._models_dns_zones import DnsZoneOptions
    return DnsZoneOptions


def zone_result(item):
    """A zone as returned to the user: distribution_groups and records never null."""
    if not isinstance(item, dict) or not item:
        return item
    return dict(item, distribution_groups=item.get('distribution_groups') or [], records=item.get('records') or [])


class DnsZoneModule(ResourceModule):
    """A zone, found by id or by its domain (servers keep one zone per domain, and a zone's domain never changes)."""

    path = '/dns/zones'
    what = 'DNS zone'
    kind = section = 'dns_zones'  # a record's zone option names it by id, domain or name
    result_key = 'dns_zone'
    requires = ZONES_FEATURE
    natural_key = 'domain'
    lookup = ('domain', 'name')
    read_only = ('id', 'records')  # the records are managed with dns_record, under their own path
    required_on_create = ('domain', 'name', 'distribution_groups')
    model = staticmethod(_zone_model)
    fields = dict(
        name=Field(),
        domain=Field(immutable=True),
        enabled=Field('bool', initial=True),
        enable_search_domain=Field('bool', initial=False),
        distribution_groups=Field('list', ref='groups', many=True),
    )
    required_one_of = (('id', 'domain'),)
    shape = staticmethod(zone_result)

    def natural_key_is_unique(self):
        """Servers refuse a second zone of a domain (409), and a zone's domain never changes (so no rename check)."""
        return True
