# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Access control helpers, shared by the policy and posture check resources (_resources/policy.py,
_resources/posture_check.py), their info modules and the access_matrix filter.

Normalisation of policy rules and posture checks (server shape -> request shape, so that equal states compare
equal), the cross-option checks of a rule, the results with names beside ids, and the access view (which group
reaches which group on which protocol and ports). No third-party imports at module level.
"""

from __future__ import annotations

import copy


from ansible_collections.nms.overlay.plugins.module_utils._compare import cidr, flatten, id_set, ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._names import named_refs
from ansible_collections.nms.overlay.plugins.module_utils._usage import referrers

# -- policy rules -------------------------------------------------------------------------------------

RULE_FIELDS = ('name', 'description', 'enabled', 'action', 'bidirectional', 'protocol', 'ports', 'sources', 'destinations')
# each side of a rule: its groups, or (servers from v0.77 on) one resource in their place, a peer or a network resource:
# (groups key, option, request key of the resource)
RESOURCE_SIDES = (('sources', 'source_resource', 'sourceResource'), ('destinations', 'destination_resource', 'destinationResource'))
RESOURCE_KEYS = tuple(key for dummy, dummy_option, key in RESOURCE_SIDES)
# SSH access (servers from v0.61.0 on, with protocol netbird-ssh): user group id -> the local users its members may log
# in as (an empty list: any local user). Kept in a normalised rule only when it has an entry, as servers answer it.
AUTHORIZED = 'authorized_groups'
SSH = 'netbird-ssh'

# Values a rule gets on creation when the user leaves the option unset and no server rule of the same
# name exists (documented in the policy module).
RULE_CREATE_DEFAULTS = dict(description='', enabled=True, action='accept', bidirectional=True, protocol='all', ports=[])

PORTLESS = ('all', 'icmp')


def port_text(value):
    """A port or range as the server would hold it, without leading zeros: '080' -> '80'; a one-port range is that
    port ('9000-9000' -> '9000': servers read {start: 9000, end: 9000} back as it)."""
    text = str(value).strip()
    parts = text.split('-')
    if len(parts) in (1, 2) and all(part.isdigit() for part in parts):
        numbers = [str(int(part)) for part in parts]
        return numbers[0] if numbers[0] == numbers[-1] else '-'.join(numbers)
    return text


def _port_order(text):
    parts = text.split('-')
    if all(part.isdigit() for part in parts):
        return (0, int(parts[0]), int(parts[-1]), text)
    return (1, 0, 0, text)


def port_set(values):
    """Ports and ranges as a sorted list without duplicates (null and missing are [])."""
    return sorted(set(port_text(v) for v in (values or [])), key=_port_order)


def is_range(port):
    return '-' in str(port)


def range_text(value):
    """A server's port range ({start, end}) as the option writes it: '8000-8100' ('80' when start is end)."""
    if not isinstance(value, dict):
        return str(value)
    start, end = value.get('start'), value.get('end')
    return str(start) if start == end or end is None else '%s-%s' % (start, end)


def port_range(port):
    """A port or range ('8000-8100', '22') as a current server's port_ranges hold it: {start, end} (start = end for one port)."""
    start, dummy, end = str(port).partition('-')
    return {'start': int(start), 'end': int(end or start)}


def rule_ports(rule):
    """A rule's ports and port ranges as one sorted list (current servers send ranges apart, in port_ranges)."""
    return port_set(list(rule.get('ports') or []) + [range_text(r) for r in rule.get('port_ranges') or []])


def authorized_map(value):
    """A rule's authorized_groups as compared: each group id with its local users as a sorted set (servers compare
    them without order); null, missing or no map is {}."""
    if not isinstance(value, dict):
        return {}
    return {str(group): sorted(set(str(user) for user in (users if isinstance(users, list) else [users] if users else [])))
            for group, users in value.items()}


def rule_from_server(rule):
    """A server rule (summaries or ids, null lists, no ports) in the request shape, normalised.

    The rule id is left out: servers force it to the policy id, so it identifies nothing.
    """
    rule = rule or {}
    normalised = dict(
        name=rule.get('name') or '',
        description=rule.get('description') or '',
        enabled=bool(rule.get('enabled')),
        action=rule.get('action'),
        bidirectional=bool(rule.get('bidirectional')),
        protocol=rule.get('protocol'),
        ports=rule_ports(rule),
        sources=id_set(rule.get('sources')),
        destinations=id_set(rule.get('destinations')),
    )
    for dummy, dummy_option, key in RESOURCE_SIDES:
        resource = rule.get(key)
        if isinstance(resource, dict) and ref_id(resource) not in (None, ''):
            normalised[key] = dict(id=ref_id(resource), type=resource.get('type'))
    authorized = authorized_map(rule.get(AUTHORIZED))
    if authorized:
        normalised[AUTHORIZED] = authorized
    return normalised


def rules_from_server(rules):
    """Rules compared in order, each normalised (ports and groups as sets)."""
    return [rule_from_server(rule) for rule in (rules or [])]


def rule_problems(rule, index):
    """What the server would refuse in one rule, as messages naming rules[N].<option>.

    ``rule`` may lack values (None): only the combinations of values that are present are checked,
    so the same function checks the user's options before any request and the merged rule before
    the write.
    """
    where = 'option rules[%d].' % index
    protocol = rule.get('protocol')
    ports = rule.get('ports')
    bidirectional = rule.get('bidirectional')
    problems = []
    for side, option, dummy in RESOURCE_SIDES:
        if rule.get(option) is not None and rule.get(side) is not None:
            problems.append(where + '%s: give %s or %s, not both (servers refuse a rule with both)' % (option, side, option))
    if protocol in PORTLESS and ports:
        problems.append(where + 'ports: not allowed with protocol %s, which covers every port; '
                        'remove them or use protocol tcp or udp' % protocol)
    if protocol in PORTLESS and bidirectional is False:
        problems.append(where + 'bidirectional: must be true with protocol %s' % protocol)
    if protocol in ('tcp', 'udp') and bidirectional is False and ports is not None and not ports:
        problems.append(where + 'ports: a one-way (bidirectional false) %s rule needs at least one port' % protocol)
    return problems


def authorized_problems(rule, index, given=None, group_name=None):
    """What servers would drop or refuse in the SSH access of a rule: authorized_groups the user gives (in ``given``,
    the user's options of the rule; by default ``rule`` itself) for another protocol than netbird-ssh, which servers
    drop silently; and, with ``group_name`` (id -> name: ``rule`` is merged, its groups ids), a netbird-ssh rule whose
    authorized_groups leaves out one of its source groups (422). What the server holds and the user left unset is
    never judged by the first rule: it is sent back as the server returned it."""
    where = 'option rules[%d].%s: ' % (index, AUTHORIZED)
    authorized, protocol = rule.get(AUTHORIZED), rule.get('protocol')
    problems = []
    if (rule if given is None else given).get(AUTHORIZED) and protocol is not None and protocol != SSH:
        problems.append(where + 'only with protocol %s (servers drop it from a rule of protocol %s)' % (SSH, protocol))
    if group_name is None or protocol != SSH or not authorized:
        return problems
    missing = [group for group in rule.get('sources') or [] if group not in authorized]
    if missing:
        problems.append(where + 'give each source group of the rule its local users (servers refuse a %s rule whose %s leaves '
                        'out a source group); missing: %s' % (SSH, AUTHORIZED, ', '.join(sorted(group_name(group) or group for group in missing))))
    return problems


def check_rules(rules):
    """Raise TaskError listing every problem of every rule."""
    problems = []
    for index, rule in enumerate(rules or []):
        problems.extend(rule_problems(rule, index))
    if problems:
        raise TaskError('; '.join(problems))


def match_server_rule(name, server_rules):
    """The one server rule with this name, or None (no rule, or several: no value to keep)."""
    found = [rule for rule in server_rules if rule.get('name') == name]
    return found[0] if len(found) == 1 else None


def merge_rule(user_rule, server_rules, index):
    """The rule to send: the user's values, else the same-named server rule's, else creation defaults.

    ``user_rule`` has sources and destinations already resolved to ids, and a source or destination resource to
    {id, type}; its unset options are None. A side's resource stands in place of its groups: given, the side's groups
    are left out; groups given, the server's resource is dropped; neither given, the server rule's side is kept.
    """
    base = match_server_rule(user_rule.get('name'), server_rules)
    if base is None:
        missing = [side for side, option, dummy in RESOURCE_SIDES if user_rule.get(side) is None and user_rule.get(option) is None]
        if missing:
            raise TaskError('option rules[%d] (%s): %s required for a new rule' % (
                index, user_rule.get('name'), ' and '.join(missing) + (' are' if len(missing) > 1 else ' is')))
        base = RULE_CREATE_DEFAULTS
    merged = {}
    for key in RULE_FIELDS:
        value = user_rule.get(key)
        merged[key] = copy.deepcopy(base.get(key)) if value is None else value
    if user_rule.get('protocol') in PORTLESS:
        # Protocol all or icmp covers every port in both directions: kept ports or a kept one-way
        # direction of a former tcp/udp rule would only make the server refuse the rule.
        if user_rule.get('ports') is None:
            merged['ports'] = []
        if user_rule.get('bidirectional') is None:
            merged['bidirectional'] = True
    for side, option, key in RESOURCE_SIDES:
        if user_rule.get(option) is not None:
            merged[key] = dict(user_rule[option])
            merged[side] = []
        elif user_rule.get(side) is None and base.get(key):
            merged[key] = copy.deepcopy(base[key])
    # SSH access: the user's (group ids already), else the server rule's unless the user gives the rule another protocol
    # than netbird-ssh (servers keep it for no other protocol)
    authorized = user_rule.get(AUTHORIZED)
    if authorized is None:
        authorized = base.get(AUTHORIZED) if user_rule.get('protocol') in (None, SSH) else None
    authorized = authorized_map(authorized)
    if authorized:
        merged[AUTHORIZED] = authorized
    merged['ports'] = port_set(merged['ports'])
    merged['sources'] = id_set(merged['sources'])
    merged['destinations'] = id_set(merged['destinations'])
    return merged


def predicted_rules(rules, server_rules, policy_id):
    """The rules of a policy as check mode predicts them, each with an id: the id of the server rule it
    keeps (the one of the same name, else the one at its position), else the policy id, which is what
    servers give every rule (a placeholder id for a policy still to be created)."""
    server_rules = [rule for rule in server_rules or [] if isinstance(rule, dict)]
    predicted = []
    for index, rule in enumerate(rules or []):
        rule = dict(rule)
        kept = match_server_rule(rule.get('name'), server_rules)
        if kept is None and index < len(server_rules):
            kept = server_rules[index]
        rule['id'] = ref_id(kept) if kept is not None and ref_id(kept) else policy_id
        predicted.append(rule)
    return predicted


def rule_body(rule, ranges_apart=False):
    """A normalised rule as the request wants it: ports and groups as lists, no id. With ``ranges_apart`` (a current
    server) a rule with a port range sends all its ports in port_ranges ([{start, end}]) and no ports: such a server
    takes single ports in ports or ranges in port_ranges, never both in one rule (422)."""
    body = {key: copy.deepcopy(rule[key]) for key in RULE_FIELDS}
    for side, dummy, key in RESOURCE_SIDES:
        if rule.get(key):
            body[key] = copy.deepcopy(rule[key])
            if not body[side]:
                del body[side]  # servers refuse a side with a resource and a group list, even an empty one
    if rule.get(AUTHORIZED):
        body[AUTHORIZED] = copy.deepcopy(rule[AUTHORIZED])
    if ranges_apart and any(is_range(port) for port in body['ports'] or []):
        body['port_ranges'] = [port_range(port) for port in body.pop('ports')]
    return body


def as_answered(rules):
    """Rules as a v0.27 server answers them: a group an earlier rule of the policy lists (in its sources or its
    destinations) is left out of the later rules' sources (a per-answer cache of the server; the store keeps them)."""
    seen, shown = set(), []
    for rule in rules or []:
        rule = dict(rule)
        sources = id_set(rule.get('sources'))
        rule['sources'] = [group for group in sources if group not in seen]
        seen.update(sources)
        seen.update(id_set(rule.get('destinations')))
        shown.append(rule)
    return shown


def answered_with_ranges(policy):
    """Whether a policy answer has a rule with port_ranges: only current servers send them."""
    return isinstance(policy, dict) and any(isinstance(rule, dict) and rule.get('port_ranges') for rule in policy.get('rules') or [])


def rule_ranges(rules):
    """(index, port) of every port range in rules (options or merged state)."""
    return [(index, port) for index, rule in enumerate(rules or []) for port in (rule.get('ports') or []) if is_range(port)]


# -- allow-all policies (every account starts with one, named Default) ------------------------------------

def allow_all_rule(rule, all_ids):
    """Whether a rule (server or request shape) lets every peer reach every other peer: action accept, protocol
    all, and the All group (one of ``all_ids``) among both its sources and its destinations."""
    all_ids = set(all_ids)
    return (isinstance(rule, dict) and rule.get('action') == 'accept' and rule.get('protocol') == 'all'
            and bool(all_ids & set(id_set(rule.get('sources')))) and bool(all_ids & set(id_set(rule.get('destinations')))))


def _answered_without_sources(rule, listed, all_ids):
    """Whether a rule of a policy answer, shown with no source group, is an allow-all rule or grants nothing.

    v0.27 servers answer a policy's later rules without the groups an earlier rule of the same answer lists (in its
    sources or destinations): such a rule comes back with ``sources`` null although the server holds and enforces
    them. When every group the earlier rules list is the All group, the rule's hidden sources can only be All (an
    allow-all rule) or nothing (a rule that grants nothing); either way the policy grants nothing else."""
    return (isinstance(rule, dict) and not id_set(rule.get('sources')) and bool(listed) and listed <= set(all_ids)
            and rule.get('action') == 'accept' and rule.get('protocol') == 'all'
            and bool(set(all_ids) & set(id_set(rule.get('destinations')))))


def allow_all_rules_as_held(policy, all_ids):
    """The rules of an allow-all policy (is_allow_all_policy) as rules options, each later rule answered without its
    sources given the All group as its sources (the one group it can hold: see _answered_without_sources); None when
    the answer hides nothing. Sent back as answered, such a rule would lose its sources in the store."""
    listed, options, hidden = set(), [], False
    for rule in policy.get('rules') or []:
        option = rule_from_server(rule)
        for dummy_side, name, key in RESOURCE_SIDES:
            option[name] = option.pop(key, None)
        if not option['sources'] and _answered_without_sources(rule, listed, all_ids):
            option['sources'] = sorted(listed)
            hidden = True
        listed.update(id_set(rule.get('sources')))
        listed.update(id_set(rule.get('destinations')))
        options.append(option)
    return options if hidden else None


def is_allow_all_policy(policy, all_ids):
    """Whether a policy is an allow-all and nothing else: no source posture check, and every one of its rules (at
    least one) an allow-all rule (a later rule answered without its sources, as v0.27 servers do, counts when it can
    hold nothing but the All group: see _answered_without_sources). Only such a policy is disabled or deleted for
    default_policy: nothing else it grants or denies is lost with it."""
    if not isinstance(policy, dict) or policy.get('source_posture_checks'):
        return False
    rules = policy.get('rules') or []
    listed = set()
    for rule in rules:
        if not (allow_all_rule(rule, all_ids) or _answered_without_sources(rule, listed, all_ids)):
            return False
        listed.update(id_set(rule.get('sources')))
        listed.update(id_set(rule.get('destinations')))
    return bool(rules)


def grants_everything(policy, all_ids):
    """Whether a policy, as it is, grants every peer access to every other peer: enabled, no source posture
    check, and one enabled allow-all rule (whatever its other rules say)."""
    if not isinstance(policy, dict) or not policy.get('enabled') or policy.get('source_posture_checks'):
        return False
    return any(allow_all_rule(rule, all_ids) and rule.get('enabled', True) is not False for rule in policy.get('rules') or [])


# -- results with names -------------------------------------------------------------------------------

def policy_result(policy, names):
    """A policy as returned to users: references as [{id, name}] never null, ports always a list (with the ranges a
    current server sends apart, in port_ranges, as the option writes them: '8000-8100')."""
    if not isinstance(policy, dict):
        return policy
    result = dict(policy)
    result['source_posture_checks'] = named_refs(policy.get('source_posture_checks'), names.posture_check)
    rules = []
    for rule in policy.get('rules') or []:
        rule = dict(rule)
        rule['ports'] = rule_ports(rule) if rule.get('port_ranges') else list(rule.get('ports') or [])
        rule['description'] = rule.get('description') or ''
        rule['sources'] = named_refs(rule.get('sources'), names.group)
        rule['destinations'] = named_refs(rule.get('destinations'), names.group)
        rules.append(rule)
    result['rules'] = rules
    return result


# -- the access view -------------------------------------------------------------------------------

def access_rows(policies):
    """Who reaches whom: one row per source group, destination group, protocol and ports.

    Only enabled rules of enabled policies count. A bidirectional rule gives a row in each direction
    (once when both ends are the same group). ``policies`` are results of ``policy_result``
    (references with names). Rows are sorted, so the output does not depend on the server's order.
    """
    rows = {}
    for policy in policies:
        if not policy.get('enabled'):
            continue
        for rule in policy.get('rules') or []:
            if not rule.get('enabled'):
                continue
            ports = rule_ports(rule)
            for source in rule.get('sources') or []:
                for destination in rule.get('destinations') or []:
                    pairs = [(source, destination)]
                    if rule.get('bidirectional'):
                        pairs.append((destination, source))
                    for start, end in pairs:
                        row = dict(
                            source=start.get('name') or start.get('id'),
                            destination=end.get('name') or end.get('id'),
                            protocol=rule.get('protocol'),
                            ports=list(ports),
                            action=rule.get('action'),
                            policy=policy.get('name'),
                            rule=rule.get('name'),
                        )
                        key = tuple(str(row[k]) for k in ('source', 'destination', 'policy', 'rule', 'protocol', 'ports', 'action'))
                        rows[key] = row
    return [rows[key] for key in sorted(rows)]


# -- posture checks ----------------------------------------------------------------------------------

OS_KEYS = dict(android='min_version', darwin='min_version', ios='min_version',
               linux='min_kernel_version', windows='min_kernel_version')
# the posture checks the collection knows (the options and the model); others a server has are kept, not managed
CHECK_NAMES = ('nb_version_check', 'os_version_check', 'geo_location_check', 'peer_network_range_check', 'process_check')
# the checks of today's servers only (v0.77): a task that sets one is refused by an older server
TODAY_CHECKS = ('process_check',)
PROCESS_PATHS = ('linux_path', 'mac_path', 'windows_path')


def _location_key(location):
    return (location['country_code'], location.get('city_name') or '')


def normalise_checks(checks):
    """The ``checks`` object with only the members that are set, normalised for comparison.

    Country codes upper-case, locations and ranges as sorted sets, ranges flat (a server may nest
    them) and compared by network, unset members and OS entries dropped.
    """
    result = {}
    checks = checks or {}
    member = checks.get('nb_version_check')
    if member and member.get('min_version') is not None:
        result['nb_version_check'] = {'min_version': str(member['min_version']).strip()}
    member = checks.get('os_version_check')
    if member:
        entry = {}
        for os_name, key in OS_KEYS.items():
            value = (member.get(os_name) or {}).get(key)
            if value is not None:
                entry[os_name] = {key: str(value).strip()}
        if entry:
            result['os_version_check'] = entry
    member = checks.get('geo_location_check')
    if member:
        locations = {}
        for location in member.get('locations') or []:
            item = {'country_code': str(location.get('country_code') or '').strip().upper()}
            if location.get('city_name'):
                item['city_name'] = location['city_name']
            locations[_location_key(item)] = item
        result['geo_location_check'] = {'action': member.get('action'),
                                        'locations': [locations[k] for k in sorted(locations)]}
    member = checks.get('peer_network_range_check')
    if member:
        ranges = sorted(set(cidr(value) for value in flatten(member.get('ranges'))))
        result['peer_network_range_check'] = {'action': member.get('action'), 'ranges': ranges}
    member = checks.get('process_check')
    if member:
        # each process with the paths it has (servers answer an unset path as ""), compared as a set
        processes = {}
        for process in member.get('processes') or []:
            item = {key: process[key] for key in PROCESS_PATHS if isinstance(process, dict) and process.get(key)}
            processes[tuple(item.get(key, '') for key in PROCESS_PATHS)] = item
        result['process_check'] = {'processes': [processes[k] for k in sorted(processes)]}
    return result


def merge_checks(current, desired):
    """``checks_mode: merge``: the members the user set replace the server's; the others stay."""
    merged = copy.deepcopy(current or {})
    merged.update(copy.deepcopy(desired or {}))
    return merged


def posture_check_result(check):
    """A posture check as returned to users: ranges always a flat list."""
    if not isinstance(check, dict):
        return check
    result = copy.deepcopy(check)
    network = (result.get('checks') or {}).get('peer_network_range_check')
    if isinstance(network, dict):
        network['ranges'] = flatten(network.get('ranges'))
    return result


def policies_using(policies, check_id):
    """The policies whose source_posture_checks hold this posture check id."""
    return [policy for policy, dummy_what, dummy_key, dummy_where in referrers('posture_checks', check_id, {'policies': policies})]


# -- posture checks as far as the API tells (peer by peer) -----------------------------------------------------

def _version_parts(text):
    """'0.27.6' or 'v0.27.6' as (0, 27, 6); None for what is no plain release number ('development', '0.28.0-rc1')."""
    text = str(text or '').strip()
    text = text[1:] if text[:1] in ('v', 'V') else text
    parts = text.split('.')
    if not text or len(parts) > 4 or not all(part.isdigit() for part in parts):
        return None
    return tuple(int(part) for part in parts) + (0,) * (4 - len(parts))


def version_below(version, minimum):
    """Whether an agent release is below a minimum (both as a server holds them); None when either is no plain
    release number, which is then not judged."""
    have, need = _version_parts(version), _version_parts(minimum)
    if have is None or need is None:
        return None
    return have < need


def fails_check(peer, check):
    """Whether a peer (peer_info's result: its ``version``) fails a posture check (posture_check_info's result) on
    what the API shows of it: the agent release of ``nb_version_check``, as servers compare it. The other checks
    (operating system, location, network range, process) depend on what only the agent reports: never judged here,
    so False."""
    member = ((check or {}).get('checks') or {}).get('nb_version_check') or {}
    if not isinstance(peer, dict) or member.get('min_version') in (None, ''):
        return False
    return version_below(peer.get('version'), member['min_version']) is True


def failed_checks(peer, checks):
    """The posture checks of ``checks`` that ``peer`` fails (fails_check), in their order."""
    return [check for check in checks or [] if isinstance(check, dict) and fails_check(peer, check)]
