# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Routes, nameserver groups and DNS settings (used by their modules and by network_state).

Normalisers (server and user values to one comparable shape), the nameserver group domain rules
(checked on the user's options and again on the merged state before a write) and the three
resource classes. No third-party imports at module level: pydantic is imported lazily by the
options models, and info modules may import the normalisers.
"""

from __future__ import annotations

import ipaddress

from ansible_collections.nms.overlay.plugins.module_utils._compare import (
    cidr, id_set, lower_set, ref_id, unwrap_items,
)
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resolve import KINDS, find_unique
from ansible_collections.nms.overlay.plugins.module_utils._resource import Field, ResourceModule

DEFAULT_NS_TYPE = 'udp'
DEFAULT_NS_PORT = 53
NO_MATCH = object()


# -- normalisers -------------------------------------------------------------------------------------
def optional_id(value):
    """A single reference that a server sends as "" when there is none (a route's peer when peer groups are
    used): "" for none, as in the route's results, so that the diff shows what the route shows."""
    return ref_id(value) or ''


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


# -- results -----------------------------------------------------------------------------------------
def route_result(item):
    """A route as returned to the user: peer "" and lists [] rather than missing or null."""
    if not isinstance(item, dict) or not item:
        return item
    result = dict(item)
    result['peer'] = result.get('peer') or ''
    result['peer_groups'] = result.get('peer_groups') or []
    result['groups'] = result.get('groups') or []
    return result


def nameserver_group_result(item):
    """A nameserver group as returned to the user: lists never null."""
    if not isinstance(item, dict) or not item:
        return item
    result = dict(item)
    for name in ('groups', 'domains', 'nameservers'):
        result[name] = result.get(name) or []
    return result


def dns_settings_result(item):
    """The DNS settings, wrapped in items (spec) or not (deployed servers), as a plain dict."""
    result = dict(unwrap_items(item) or {})
    result['disabled_management_groups'] = result.get('disabled_management_groups') or []
    return result


# -- options models (pydantic, imported lazily) ------------------------------------------------------
def _route_model():
    from ansible_collections.nms.overlay.plugins.module_utils._models_routing import RouteOptions
    return RouteOptions


def _nameserver_group_model():
    from ansible_collections.nms.overlay.plugins.module_utils._models_routing import NameserverGroupOptions
    return NameserverGroupOptions


def _dns_settings_model():
    from ansible_collections.nms.overlay.plugins.module_utils._models_routing import DnsSettingsOptions
    return DnsSettingsOptions


# -- route -------------------------------------------------------------------------------------------
class RouteModule(ResourceModule):
    """A route, found by id or by network_id with its routing peer (or set of peer groups)."""

    path = '/routes'
    what = 'route'
    kind = 'routes'
    result_key = 'route'
    natural_key = 'network_id'
    read_only = ('id', 'network_type')
    model = staticmethod(_route_model)
    required_on_create = ('network_id', 'network', 'groups')
    fields = dict(
        network_id=Field(),
        description=Field(initial=''),
        network=Field(norm=cidr),
        peer=Field(norm=optional_id, ref='peers'),
        peer_groups=Field(ref='groups', many=True),
        groups=Field(ref='groups', many=True),
        metric=Field(initial=9999),
        masquerade=Field(initial=True),
        enabled=Field(initial=True),
    )
    argument_spec = dict(
        network_id=dict(type='str'),
        description=dict(type='str'),
        network=dict(type='str'),
        peer=dict(type='str'),
        peer_groups=dict(type='list', elements='str'),
        groups=dict(type='list', elements='str'),
        metric=dict(type='int'),
        masquerade=dict(type='bool'),
        enabled=dict(type='bool'),
    )
    mutually_exclusive = (('peer', 'peer_groups'),)
    required_one_of = (('id', 'network_id'),)

    def __init__(self, module=None):
        super().__init__(module)
        self._key = None
        self._routed_by = None  # 'peer' or 'peer_groups': what the last request body carried

    def _identity_ref(self, kind, value, option):
        """The id of a routing peer or group in the identity; NO_MATCH for an unknown one when deleting."""
        if self.params.get('state') != 'absent':
            return self.resolver.to_id(kind, value, option)
        dummy_path, what, names = KINDS[kind]
        item = find_unique(self.resolver.items(kind), value, names, what, option)
        return NO_MATCH if item is None else ref_id(item)

    def routing_key(self):
        """(peer id, sorted peer group ids) from the options; None for what the task does not give."""
        if self._key is None:
            peer, groups = self.params.get('peer'), self.params.get('peer_groups')
            peer_id = self._identity_ref('peers', peer, 'peer') if peer else None
            group_ids = None
            if groups is not None:
                group_ids = [self._identity_ref('groups', g, 'peer_groups') for g in groups]
                group_ids = NO_MATCH if NO_MATCH in group_ids else id_set(group_ids)
            self._key = (peer_id, group_ids)
        return self._key

    def matches(self, item):
        if item.get('network_id') != self.params.get('network_id'):
            return False
        peer, groups = self.routing_key()
        if peer is not None:
            return optional_id(item.get('peer')) == peer
        if groups is not None:
            return id_set(item.get('peer_groups')) == groups
        return True

    def identity_text(self):
        text = super().identity_text()
        if self.params.get('id'):
            return text
        if self.params.get('peer'):
            return "%s with peer '%s'" % (text, self.params['peer'])
        if self.params.get('peer_groups') is not None:
            return '%s with peer_groups %s' % (text, ', '.join(self.params['peer_groups']))
        return text

    def merge_desired(self, current, desired):
        # A route has one routing peer or peer groups: setting one clears the other.
        if desired.get('peer'):
            desired['peer_groups'] = []
        elif desired.get('peer_groups'):
            desired['peer'] = ''
        return desired

    def before_write(self, current_obj, state):
        if state is None or state.get('peer') or state.get('peer_groups'):
            return
        if current_obj is None:
            raise TaskError('option peer or option peer_groups is required to create the route %s: a route needs '
                            'a routing peer or routing peer groups' % self.identity_text())
        raise TaskError('the route %s has no routing peer (its peer was deleted): set option peer or option '
                        'peer_groups to update it' % self.identity_text())

    def request_body(self, state, current_obj):
        # POST and PUT need exactly one of the keys peer and peer_groups (an empty one counts as set).
        body = dict(state)
        if body.get('peer'):
            body.pop('peer_groups', None)
            self._routed_by = 'peer'
        else:
            body.pop('peer', None)
            self._routed_by = 'peer_groups'
        return body

    def to_result(self, obj):
        result = route_result(super().to_result(obj))
        if result and self.module.check_mode and self._routed_by == 'peer':
            result['peer_groups'] = []
        elif result and self.module.check_mode and self._routed_by == 'peer_groups':
            result['peer'] = ''
        return result


# -- nameserver group ------------------------------------------------------------------------------
class NameserverGroupModule(ResourceModule):
    """A nameserver group, found by id or name; the spec's domain rules are checked before writing."""

    path = '/dns/nameservers'
    what = 'nameserver group'
    kind = 'nameserver_groups'
    result_key = 'nameserver_group'
    exists_answers = {409: None, 422: 'already exist'}  # servers answer a taken name with 422
    model = staticmethod(_nameserver_group_model)
    required_on_create = ('name', 'nameservers', 'groups')
    fields = dict(
        name=Field(),
        description=Field(initial=''),
        nameservers=Field(norm=nameserver_list),
        groups=Field(ref='groups', many=True),
        domains=Field(norm=domain_set, initial=[]),
        primary=Field(initial=False),
        search_domains_enabled=Field(initial=False),
        enabled=Field(initial=True),
    )
    argument_spec = dict(
        name=dict(type='str'),
        description=dict(type='str'),
        nameservers=dict(type='list', elements='dict', options=dict(
            ip=dict(type='str', required=True),
            ns_type=dict(type='str', default=DEFAULT_NS_TYPE, choices=[DEFAULT_NS_TYPE]),
            port=dict(type='int', default=DEFAULT_NS_PORT),
        )),
        groups=dict(type='list', elements='str'),
        domains=dict(type='list', elements='str'),
        primary=dict(type='bool'),
        search_domains_enabled=dict(type='bool'),
        enabled=dict(type='bool'),
    )
    required_one_of = (('id', 'name'),)

    def validate_options(self):
        super().validate_options()
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

    def to_result(self, obj):
        return nameserver_group_result(super().to_result(obj))


# -- DNS settings ------------------------------------------------------------------------------------
class DnsSettingsModule(ResourceModule):
    """The account's DNS settings, a singleton that is read and updated only."""

    path = '/dns/settings'
    what = 'DNS settings'
    result_key = 'dns_settings'
    singleton = True
    read_only = ()
    model = staticmethod(_dns_settings_model)
    required_on_create = ()
    fields = dict(
        disabled_management_groups=Field(ref='groups', many=True),
    )
    argument_spec = dict(
        disabled_management_groups=dict(type='list', elements='str'),
    )

    def server_fields(self, obj):
        return unwrap_items(obj)

    def to_result(self, obj):
        # GET wraps the settings in items (spec) or not (deployed servers); PUT answers them plainly.
        return dns_settings_result(super().to_result(unwrap_items(obj)))
