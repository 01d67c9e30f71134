# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Nameserver groups (the nameserver_group module, nameserver_group_info and network_state).

The spec's domain rules are checked on the user's options and again on the merged state before a write.
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._compare import ip_text, lower_set
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resolve import named_result
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule

DEFAULT_NS_TYPE = 'udp'
DEFAULT_NS_PORT = 53


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


# -- the nameserver group rules ----------------------------------------------------------------------
# The spec's rules, in its order. Each takes (primary, domains, search_domains_enabled), where None
# means "not known" (an option the user did not set), and returns (option, text) or None.
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


class NameserverGroupModule(ResourceModule):
    """A nameserver group, found by id or name; the spec's domain rules are checked before writing."""

    path = '/dns/nameservers'
    what = 'nameserver group'
    kind = 'nameserver_groups'
    unique_names = True      # servers refuse a taken name on create and on update (422)
    exists_answers = {409: None, 422: 'already exist'}  # servers answer a taken name with 422
    model = 'routing.NameserverGroupOptions'
    required_on_create = ('name', 'nameservers', 'groups')
    fields = dict(
        name=Field(),
        description=Field(initial=''),
        nameservers=Field(dict(type='list', elements='dict', options=dict(
            ip=dict(type='str', required=True),
            ns_type=dict(type='str', default=DEFAULT_NS_TYPE, choices=[DEFAULT_NS_TYPE]),
            port=dict(type='int', default=DEFAULT_NS_PORT),
        )), norm=nameserver_list, many=True),
        groups=Field('list', ref='groups', many=True),
        domains=Field('list', norm=domain_set, many=True, initial=[]),
        primary=Field('bool', initial=False),
        search_domains_enabled=Field('bool', initial=False),
        enabled=Field('bool', initial=True),
    )
    required_one_of = (('id', 'name'),)

    def finish(self, obj, result):
        # group references by name, in the task's final result only (a task that fails reads no group list for it)
        return named_result(self, result)

    def check_options(self):
        super().check_options()
        problems = nameserver_rule_problems(self.params.get('primary'), self.params.get('domains'),
                                            self.params.get('search_domains_enabled'))
        if problems:
            raise TaskError(rule_message(problems))

    def before_write(self, current_obj, state):
        if state is None:
            return
        problems = nameserver_rule_problems(state.get('primary'), state.get('domains'),
                                            state.get('search_domains_enabled'))
        if not problems:
            return
        if current_obj is None:
            context = ('a new nameserver group takes primary false, no domains and search_domains_enabled false '
                       'unless the task sets them')
        else:
            context = 'the options of this task merged with the values of the nameserver group on the server'
        raise TaskError(rule_message(problems, context))
