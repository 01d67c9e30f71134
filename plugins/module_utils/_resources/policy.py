# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Policies (the policy module, policy_info and network_state); the rule helpers are in _access."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._access import (
    AUTHORIZED, RESOURCE_KEYS, RESOURCE_SIDES, RULE_FIELDS, SSH, answered_with_ranges, as_answered, authorized_problems, check_rules,
    is_range, merge_rule, policy_result, port_text, predicted_rules, rule_body, rule_ranges, rules_from_server,
)
from ansible_collections.nms.overlay.plugins.module_utils._compare import id_set, ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resolve import ResolveError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._names import NameLookup
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._server import option_release, refused_release
from ansible_collections.nms.overlay.plugins.module_utils._tables import RESOLVER_TABLE


RULE_OPTIONS = dict(
    name=dict(type='str', required=True),
    description=dict(type='str'),
    enabled=dict(type='bool'),
    action=dict(type='str', choices=['accept', 'drop']),
    bidirectional=dict(type='bool'),
    protocol=dict(type='str', choices=['all', 'tcp', 'udp', 'icmp', SSH]),
    ports=dict(type='list', elements='str'),
    sources=dict(type='list', elements='str'),
    destinations=dict(type='list', elements='str'),
    source_resource=dict(type='str'),
    destination_resource=dict(type='str'),
    authorized_groups=dict(type='dict'),
)

# what a rule's source or destination resource may be: (resolver kind, the API's resource type of one of them)
RESOURCE_KINDS = (('peers', lambda item: 'peer'), ('network_resources', lambda item: item.get('type')))


def resolved_ids(task, kind, values, option, problems):
    """The ids of references a task gives (names or ids); an unknown one is added to ``problems``, to fail together."""
    try:
        return task.resolver.to_ids(kind, values, option)
    except ResolveError as exc:
        problems.append(str(exc))
        return []


def rule_resource(task, value, option, problems):
    """A rule's resource ({id, type}) for the name or id of a peer or a network resource; one of them only (else
    the problem is added to ``problems`` and None returned)."""
    found = []
    for kind, type_of in RESOURCE_KINDS:
        dummy_path, what, fields = RESOLVER_TABLE[kind]
        try:
            item = task.resolver.find_unique(kind, value, fields, what, option)
        except ResolveError as exc:
            problems.append(str(exc))
            return None
        if item is not None:
            found.append((what, item, type_of(item)))
    if len(found) == 1:
        return dict(id=ref_id(found[0][1]), type=found[0][2])
    if not found:
        problems.append("%s: no peer or network resource with the id or name '%s'" % (option, value))
    else:
        problems.append("%s: '%s' names %s; give the id" % (option, value, ' and '.join(
            "the %s with id %s" % (what, ref_id(item)) for what, item, dummy in found)))
    return None


def resolved_authorized(task, value, option, problems):
    """A rule's authorized_groups with each group (a name or an id) as its id; two keys naming one group share their
    local users. An unknown group is added to ``problems``."""
    resolved = {}
    for group, users in value.items():
        for item_id in resolved_ids(task, 'groups', [group], option, problems):
            resolved.setdefault(item_id, []).extend(users or [])
    return resolved


def merged_rules(rules, server_rules):
    """The user's rules (references resolved, unset options None) merged with the server's (normalised) rules: see
    merge_rule."""
    return [merge_rule(rule, server_rules or [], index) for index, rule in enumerate(rules)]


def policy_body(state, ranges_apart=False):
    """The complete POST or PUT body; source_posture_checks always sent (omitting it clears them)."""
    return dict(
        name=state.get('name'),
        description=state.get('description') or '',
        enabled=bool(state.get('enabled')),
        source_posture_checks=list(state.get('source_posture_checks') or []),
        rules=[rule_body(rule, ranges_apart) for rule in state.get('rules') or []],
    )


class PolicyModule(ResourceModule):
    """A policy, found by id or name; its rules are compared in order, rule ids ignored."""

    path = '/policies'
    what = 'policy'
    kind = 'policies'
    # a rule keeps what the module does not manage (today's authorized_groups, sourceResource...); its id is
    # left out: servers force it to the policy id
    item_fields = dict(rules=(RULE_FIELDS + RESOURCE_KEYS + ('id', 'port_ranges', AUTHORIZED), 'name'))
    model = 'access.PolicyOptions'
    fields = dict(
        name=Field(),
        description=Field(norm=lambda value: value or '', initial=''),
        enabled=Field('bool', norm=bool, initial=True),
        source_posture_checks=Field('list', ref='posture_checks', many=True, initial=[]),
        rules=Field(dict(type='list', elements='dict', options=RULE_OPTIONS), norm=rules_from_server,
                    item_refs=dict(sources='groups', destinations='groups', authorized_groups='groups')),
    )
    required_one_of = (('id', 'name'),)
    required_on_create = ('name', 'rules')
    # refused by an older server in check_server
    options_requiring = dict({'rules.%s' % option: 'v0.77' for dummy, option, dummy_key in RESOURCE_SIDES},
                             **{'rules.' + AUTHORIZED: 'v0.77'})

    def check_options(self):
        super().check_options()
        rules = self.params.get('rules')
        check_rules(rules)
        problems = [problem for index, rule in enumerate(rules or []) for problem in authorized_problems(rule, index)]
        if problems:
            raise TaskError('; '.join(problems))

    def check_server(self):
        """Port ranges, resources and several rules depend on the server: asked once per task, only when the options
        have them."""
        super().check_server()
        rules = self.params.get('rules') or []
        # a one-port range ('9000-9000') is that port, which every server takes (see port_text)
        ranges = [(index, port) for index, port in rule_ranges(rules) if is_range(port_text(port))]
        resources = [(index, option) for index, rule in enumerate(rules) for dummy, option, dummy_key in RESOURCE_SIDES
                     if rule.get(option) is not None]
        resources += [(index, AUTHORIZED) for index, rule in enumerate(rules) if rule.get(AUTHORIZED) is not None]
        # the protocol netbird-ssh came with authorized_groups (v0.27 answers 422 unknown protocol type)
        ssh = [index for index, rule in enumerate(rules) if rule.get('protocol') == SSH]
        if not ranges and not resources and not ssh and len(rules) < 2:
            return
        server = self.resolver.server
        refused = [(index, option, refused_release(server, option_release('rules.' + option, 'v0.77'))) for index, option in resources]
        refused = ['option rules[%d].%s: %s does not have it (servers have it from %s)' % (index, option, server.describe(), release)
                   for index, option, release in refused if release]
        release = refused_release(server, option_release('rules.' + AUTHORIZED, 'v0.77')) if ssh else None
        refused += ['option rules[%d].protocol: %s does not have the protocol %s (servers have it from %s)'
                    % (index, server.describe(), SSH, release) for index in ssh if release]
        if refused:
            raise TaskError('; '.join(refused))
        # the list this task reads anyway shows it: no request to ask (scanned only while the generation is not known to
        # be v0.27's, which nothing changes: a network_state of 2,000 policies scanned the list for each of them)
        if not server.known_legacy and any(answered_with_ranges(policy) for policy in self.resolver.items(self.kind)):
            server.learn(True)
        if ranges and not server.current:
            raise TaskError('; '.join(
                "option rules[%d].ports: '%s' is a port range, and %s takes single ports only (each in 1..65535); "
                "list the ports one by one" % (index, port, server.describe()) for index, port in ranges))
        if len(rules) > 1 and server.current:
            raise TaskError('option rules: %s keeps only the first rule of a policy (it gives every rule of a policy the '
                            'same id), so a policy with %d rules would never match; describe one policy per rule'
                            % (server.describe(), len(rules)))

    def from_server(self, obj):
        if answered_with_ranges(obj):
            self.resolver.server.learn(True)  # only today's servers answer with port ranges: no request to ask
        return super().from_server(obj)

    def same(self, name, current, desired):
        if name == 'rules' and current != desired:
            # v0.27 leaves a source group out of a later rule's answer when an earlier rule lists it: the stored
            # rules are the desired ones when the answer is what the server shows for them
            return current == as_answered(desired)
        return current == desired

    def desired(self):
        """The user's options with every name resolved; all unknown names fail together, before any write. The rules
        are the user's, with unset options None: merge_desired and new_state complete them."""
        wanted, problems = {}, []
        for name in ('name', 'description', 'enabled'):
            if self.params.get(name) is not None:
                wanted[name] = self.params[name]
        if self.params.get('source_posture_checks') is not None:
            wanted['source_posture_checks'] = id_set(resolved_ids(
                self, 'posture_checks', self.params['source_posture_checks'], 'source_posture_checks', problems))
        rules = self.params.get('rules')
        resolved = []
        for index, rule in enumerate(rules or []):
            rule = dict(rule)
            for side, option, dummy in RESOURCE_SIDES:
                if rule.get(side) is not None:
                    rule[side] = resolved_ids(self, 'groups', rule[side], 'rules[%d].%s' % (index, side), problems)
                if rule.get(option) is not None:
                    rule[option] = rule_resource(self, rule[option], 'rules[%d].%s' % (index, option), problems)
            if rule.get(AUTHORIZED) is not None:
                rule[AUTHORIZED] = resolved_authorized(self, rule[AUTHORIZED], 'rules[%d].%s' % (index, AUTHORIZED), problems)
            resolved.append(rule)
        if problems:
            raise TaskError('; '.join(problems))
        if rules is not None:
            wanted['rules'] = resolved
        return wanted

    def merge_desired(self, current, desired):
        """Each rule the user's values over the same-named server rule's (the server object's rules, normalised)."""
        if 'rules' in desired:
            desired['rules'] = merged_rules(desired['rules'], current.get('rules'))
        return desired

    def new_state(self, desired):
        if 'rules' in desired:
            desired = dict(desired, rules=merged_rules(desired['rules'], []))
        return super().new_state(desired)

    def before_write(self, current_obj, state):
        if state is None:
            return
        check_rules(state['rules'])
        names, options = NameLookup(self.resolver), self.params.get('rules') or []
        problems = [problem for index, rule in enumerate(state['rules']) for problem in authorized_problems(
            rule, index, options[index] if index < len(options) else {}, names.group)]
        if problems:
            raise TaskError('; '.join(problems))
        if current_obj is None:
            return
        given = self.params.get('rules')
        # the rules a v0.27 server answered without sources after its first rule (they may hold some), wherever they go
        hidden = {answered.get('name') for position, answered in enumerate(current_obj.get('rules') or [])
                  if position and isinstance(answered, dict) and not answered.get('sources')}
        for index, rule in enumerate(state['rules']):
            if (index or rule['name'] in hidden) and not rule['sources'] and not rule.get('sourceResource') and (
                    given is None or given[index].get('sources') is None):
                # sent back as answered, the rule would lose in the store what the answer left out
                raise TaskError("option rules[%d].sources is required to update the policy '%s': the server answers its "
                                "rule '%s' without sources (a v0.27 server leaves out of a later rule the source groups "
                                "an earlier rule lists); give the rule's sources" % (index, current_obj.get('name'), rule['name']))

    def request_body(self, state, current_obj):
        ranges_apart = bool(rule_ranges(state.get('rules'))) and self.resolver.server.current
        return policy_body(state, ranges_apart)

    def to_result(self, obj):
        return policy_result(obj, NameLookup(self.resolver))

    def described(self, options, obj, name_of):
        """Rules as the options give them: a resource side by the name of its peer or network resource (instead of
        the groups), and what a new rule gets when unset left out."""
        rules = []
        for rule in options.get('rules') or []:
            rule = dict(rule)
            for side, option, key in RESOURCE_SIDES:
                resource = rule.pop(key, None)
                if resource:
                    rule[option] = name_of('peers' if resource.get('type') == 'peer' else 'network_resources', resource['id'])
                    if not rule.get(side):
                        rule.pop(side, None)
            if rule.get(AUTHORIZED):
                rule[AUTHORIZED] = {name_of('groups', group): list(users) for group, users in rule[AUTHORIZED].items()}
            rules.append(rule)
        if 'rules' in options:
            options = dict(options, rules=rules)
        return options

    def predict(self, planned, current_obj):
        # every rule with the id the server gives it (a placeholder id for a policy still to be created)
        server_rules = current_obj.get('rules') if current_obj else []
        planned['rules'] = predicted_rules(planned.get('rules'), server_rules, ref_id(current_obj) if current_obj else planned.get('id'))
        return planned
