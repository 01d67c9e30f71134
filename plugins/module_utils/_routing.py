# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Helpers shared by the route, nameserver group and DNS settings modules.

Normalisers (server and user values to one comparable shape), the nameserver group domain rules
(used both on the user's options and on the merged state before a write) and the names shown next
to ids in results. No third-party imports here: info modules use this file too.
"""

from __future__ import annotations

import ipaddress

from ansible_collections.nms.overlay.plugins.module_utils._compare import id_list, lower_set, ref_id

DEFAULT_NS_TYPE = 'udp'
DEFAULT_NS_PORT = 53


def optional_id(value):
    """A single reference that a server may send as "" (a route's peer when peer groups are used)."""
    value = ref_id(value)
    return value or None


def ip_text(value):
    """An IP address in canonical form (so 2001:DB8::0001 equals 2001:db8::1); other text unchanged."""
    text = '' if value is None else str(value).strip()
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return text


def nameserver_list(values):
    """Nameservers as an ordered list of {ip, ns_type, port}, values normalised, order kept."""
    result = []
    for item in values or []:
        item = item or {}
        ns_type = item.get('ns_type')
        port = item.get('port')
        try:
            port = DEFAULT_NS_PORT if port is None else int(port)
        except (TypeError, ValueError):
            pass  # the server is the judge of what it sent
        result.append({
            'ip': ip_text(item.get('ip')),
            'ns_type': str(ns_type).lower() if ns_type else DEFAULT_NS_TYPE,
            'port': port,
        })
    return result


def domain_set(values):
    """Match domains as a set: case-insensitive, a trailing dot ignored, duplicates dropped."""
    return lower_set(values)


# The spec's rules for nameserver groups, in its order. Each takes (primary, domains,
# search_domains_enabled), where None means "not known" (an option the user did not set).
def _primary_without_domains(primary, domains, dummy_search):
    if primary is True and domains:
        return 'primary', ('may be true only when domains is empty (a primary nameserver group resolves every '
                           'domain), but domains is %s' % ', '.join(domains))
    return None


def _domains_only_with_primary(primary, domains, dummy_search):
    if primary is False and domains is not None and not domains:
        return 'domains', 'may be empty only when primary is true, but primary is false'
    return None


def _search_domains_with_domains(primary, domains, search):
    if search is not True:
        return None
    if domains is not None and not domains:
        return 'search_domains_enabled', 'may be true only when domains is not empty, but domains is empty'
    if domains is None and primary is True:
        return 'search_domains_enabled', ('may be true only when domains is not empty, and primary true '
                                          'allows no domains')
    return None


NAMESERVER_RULES = (_primary_without_domains, _domains_only_with_primary, _search_domains_with_domains)


def nameserver_rule_problems(primary, domains, search):
    """The broken nameserver group rules as (option, text) pairs; values may be None (unknown)."""
    if domains is not None:
        domains = domain_set(domains)
    problems = []
    for rule in NAMESERVER_RULES:
        problem = rule(primary, domains, search)
        if problem:
            problems.append(problem)
    return problems


def rule_message(problems, context=None):
    """The failure text naming each broken rule's option, with where the values came from."""
    suffix = ' (%s)' % context if context else ''
    return '; '.join('option %s: %s%s' % (option, text, suffix) for option, text in problems)


class Names:
    """Display names next to ids in results, listing each referenced kind at most once."""

    def __init__(self, resolver):
        self.resolver = resolver

    def of(self, kind, values):
        """Names for a list of ids or summaries, in order; an unknown id is shown as itself."""
        return [self.resolver.name_of(kind, item_id) or item_id for item_id in id_list(values)]

    def one(self, kind, value):
        item_id = optional_id(value)
        if item_id is None:
            return None
        return self.resolver.name_of(kind, item_id) or item_id
