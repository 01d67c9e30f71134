# -*- coding: utf-8 -*-
"""The access report's computation (plugins/filter/access_matrix.py) against an independent one written here.

``truth`` below works straight from the API objects (groups, peers, policies, routes, Networks), one source peer
and one destination at a time, with traffic as sets of atoms (a protocol and a stretch of ports between the
boundaries any rule names); it shares no code with the filter. NetBird's semantics it follows (management
server v0.77.1, shared/management/types/networkmap_components.go and types/account.go; v0.27.6
management/server/account.go and route.go; agents' client/firewall: drop rules before accept rules):

- a rule of an enabled policy, itself enabled, lets its source peers reach its destination peers (not
  themselves), and the way back when bidirectional; drop wins over accept;
- a network resource (enabled) in a destination group, or the destinationResource, is reached by the rule's
  source peers when its network has an enabled router with a routing peer other than the source;
- a route (enabled) reaches the peers of its distribution groups that are not routing peers of that network
  and that some rule connects with one of its routing peers: on everything without access control groups,
  else on the enabled rules of the enabled policies that have an access control group among a rule's
  destinations, for their source peers;
- posture checks are taken as passed; what only a policy with posture checks grants is marked.

Generated cases in two shapes, as the servers hold them: v0.27 (several rules per policy, single ports, routes
without access control groups, no Networks) and current (one rule per policy, port ranges, resources in rules
and groups, routes with access control groups, Networks)."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings, strategies as st

from ansible_collections.nms.overlay.plugins.filter.access_matrix import access_matrix

TOP = 65535
PORTS = ['22', '80', '443', '6432', '8000-8100', '1-1024', '53']


# -- the independent computation ---------------------------------------------------------------------------------

def rule_port_texts(rule):
    texts = [str(p) for p in rule.get('ports') or []]
    texts += ['%d-%d' % (r['start'], r['end']) for r in rule.get('port_ranges') or []]
    return texts


def boundaries(policies):
    """The stretches of ports between every boundary a rule names: [(low, high)] covering 1..65535."""
    cuts = {1, TOP + 1}
    for policy in policies:
        for rule in policy['rules']:
            for text in rule_port_texts(rule):
                low, dummy, high = text.partition('-')
                cuts.add(int(low))
                cuts.add(int(high or low) + 1)
    ordered = sorted(cuts)
    return list(zip(ordered, [c - 1 for c in ordered[1:]]))


class Atoms:
    def __init__(self, stretches):
        self.stretches = stretches

    def ports(self, protocol, texts):
        if not texts:
            return {(protocol, s) for s in self.stretches}
        found = set()
        for text in texts:
            low, dummy, high = text.partition('-')
            low, high = int(low), int(high or low)
            found |= {(protocol, s) for s in self.stretches if low <= s[0] and s[1] <= high}
        return found

    def everything(self):
        return self.ports('tcp', []) | self.ports('udp', []) | {('icmp',), ('other',)}

    def of_rule(self, rule):
        protocol = rule.get('protocol') or 'all'
        if protocol == 'all':
            return self.everything()
        if protocol == 'icmp':
            return {('icmp',)}
        return self.ports(protocol, rule_port_texts(rule))

    def of_output(self, traffic):
        """The filter's traffic dict ({tcp: [ranges], udp: [...], icmp, other}) as atoms."""
        found = set()
        for protocol in ('tcp', 'udp'):
            if traffic[protocol]:
                found |= self.ports(protocol, traffic[protocol])
        if traffic['icmp']:
            found.add(('icmp',))
        if traffic['other']:
            found.add(('other',))
        return found


def truth(world):
    """{(source peer id, kind, destination id): (atoms, atoms only with posture checks)} and the group cells' members
    {(source group id, destination group id): (atoms, source peer ids)}."""
    atoms = Atoms(boundaries(world['policies']))
    peer_ids = [p['id'] for p in world['peers']]
    group_members = {g['id']: {p['id'] if isinstance(p, dict) else p for p in g.get('peers') or []} for g in world['groups']}
    group_resources = {g['id']: {r['id'] for r in g.get('resources') or []} for g in world['groups']}
    resources = {}
    for network in world['networks']:
        routing = set()
        for router in network['routers']:
            if router['enabled']:
                routing |= ({router['peer']} if router.get('peer') else set())
                for g in router.get('peer_groups') or []:
                    routing |= group_members[g]
        for resource in network['resources']:
            resources[resource['id']] = (resource, routing)

    def side(rule, groups_key, resource_key):
        resource = rule.get(resource_key)
        if resource:
            return {resource['id']} if resource['type'] == 'peer' else set()
        found = set()
        for g in rule.get(groups_key) or []:
            found |= group_members.get(g['id'], set())
        return found

    def resource_side(rule):
        resource = rule.get('destinationResource')
        if resource:
            return {resource['id']} if resource['type'] != 'peer' else set()
        found = set()
        for g in rule.get('destinations') or []:
            found |= group_resources.get(g['id'], set())
        return found

    live = [(policy, rule) for policy in world['policies'] if policy['enabled'] for rule in policy['rules'] if rule['enabled']]

    def judge(applies):
        accept, drop, free = set(), set(), set()
        for policy, rule in live:
            if applies(policy, rule):
                got = atoms.of_rule(rule)
                if rule['action'] == 'drop':
                    drop |= got
                else:
                    accept |= got
                    if not policy['source_posture_checks']:
                        free |= got
        reach = accept - drop
        return reach, reach - (free - drop)

    result = {}
    for a in peer_ids:
        for b in peer_ids:
            if a == b:
                continue
            reach = judge(lambda p, r: (a in side(r, 'sources', 'sourceResource') and b in side(r, 'destinations', 'destinationResource'))
                          or (r['bidirectional'] and b in side(r, 'sources', 'sourceResource')
                              and a in side(r, 'destinations', 'destinationResource')))
            if reach[0]:
                result[(a, 'peer', b)] = reach
        for resource_id, (resource, routing) in resources.items():
            if not resource['enabled'] or not routing - {a}:
                continue
            reach = judge(lambda p, r: a in side(r, 'sources', 'sourceResource') and resource_id in resource_side(r))
            if reach[0]:
                result[(a, 'resource', resource_id)] = reach

    def connected(a, x):
        return a != x and any((a in side(r, 'sources', 'sourceResource') and x in side(r, 'destinations', 'destinationResource'))
                              or (x in side(r, 'sources', 'sourceResource') and a in side(r, 'destinations', 'destinationResource'))
                              for p, r in live)

    def routers_of(route):
        found = {route['peer']} if route.get('peer') else set()
        for g in route.get('peer_groups') or []:
            found |= group_members[g]
        return found

    for route in world['routes']:
        if not route['enabled']:
            continue
        same = set()
        for other in world['routes']:
            if (other['network_id'], other['network']) == (route['network_id'], route['network']):
                same |= routers_of(other)
        for a in peer_ids:
            if a in same or not any(a in group_members.get(g, set()) for g in route.get('groups') or []):
                continue
            if not any(connected(a, x) for x in routers_of(route)):
                continue
            acg = set(route.get('access_control_groups') or [])
            if not acg:
                result[(a, 'route', route['id'])] = (atoms.everything(), set())
                continue
            chosen = {p['id'] for p in world['policies'] if p['enabled']
                      and any(acg & {g['id'] for g in r.get('destinations') or []} for r in p['rules'])}
            reach = judge(lambda p, r: p['id'] in chosen and a in side(r, 'sources', 'sourceResource'))
            if reach[0]:
                result[(a, 'route', route['id'])] = reach

    # group cells: what members reach beyond what the rules naming both groups (All spread) grant
    all_id = world['all_id']
    members_cells = {}
    for start in world['groups']:
        for end in world['groups']:
            names_both = []
            for policy, rule in live:
                if rule.get('sourceResource') or rule.get('destinationResource'):
                    continue
                sources = {g['id'] for g in rule.get('sources') or []}
                destinations = {g['id'] for g in rule.get('destinations') or []}
                forward = (start['id'] in sources or all_id in sources) and (end['id'] in destinations or all_id in destinations)
                back = rule['bidirectional'] and (start['id'] in destinations or all_id in destinations) and \
                    (end['id'] in sources or all_id in sources)
                if forward or back:
                    names_both.append(rule)
            granted = set().union(*[atoms.of_rule(r) for r in names_both if r['action'] == 'accept']) - \
                set().union(*[atoms.of_rule(r) for r in names_both if r['action'] == 'drop'])
            union, who = set(), set()
            targets = [('peer', b) for b in group_members[end['id']]] + \
                [('resource', r) for r in group_resources[end['id']] if r in resources]
            for a in group_members[start['id']]:
                mine = set()
                for kind, target in targets:
                    mine |= result.get((a, kind, target), (set(), set()))[0]
                if mine - granted:
                    union |= mine - granted
                    who.add(a)
            if who:
                members_cells[(start['id'], end['id'])] = (union, who)
    return atoms, result, members_cells


# -- generated worlds --------------------------------------------------------------------------------------------

@st.composite
def worlds(draw):
    current = draw(st.booleans())
    peer_count = draw(st.integers(0, 6))
    peers = [{'id': 'p%d' % i, 'name': 'peer-%d' % i, 'ip': '100.64.0.%d' % (i + 1), 'groups': []} for i in range(peer_count)]
    peer_ids = [p['id'] for p in peers]
    group_count = draw(st.integers(1, 4))
    groups = [{'id': 'gall', 'name': 'All', 'issued': 'api', 'peers': list(peer_ids), 'resources': []}]
    for i in range(group_count):
        members = draw(st.lists(st.sampled_from(peer_ids), unique=True)) if peer_ids else []
        groups.append({'id': 'g%d' % i, 'name': 'group-%d' % i, 'issued': 'api', 'peers': sorted(members), 'resources': []})
    for group in groups:
        group['peers_count'] = len(group['peers'])
    group_ids = [g['id'] for g in groups]
    checks = [{'id': 'pc1', 'name': 'recent client'}, {'id': 'pc2', 'name': 'office range'}]

    networks, resource_refs = [], []
    if current:
        for n in range(draw(st.integers(0, 2))):
            resources = []
            for r in range(draw(st.integers(0, 2))):
                rid = 'r%d%d' % (n, r)
                in_groups = draw(st.lists(st.sampled_from(group_ids[1:]), unique=True, max_size=2))
                for gid in in_groups:
                    next(g for g in groups if g['id'] == gid)['resources'].append({'id': rid, 'type': 'subnet'})
                resources.append({'id': rid, 'name': 'res-%d%d' % (n, r), 'address': '10.%d.%d.0/24' % (n, r), 'type': 'subnet',
                                  'enabled': draw(st.booleans()) or draw(st.booleans()),
                                  'groups': [{'id': gid, 'name': gid} for gid in in_groups]})
                resource_refs.append({'id': rid, 'type': 'subnet'})
            routers = []
            for dummy in range(draw(st.integers(0, 2))):
                by_peer = bool(peer_ids) and draw(st.booleans())
                routers.append({'id': 'rt', 'peer': draw(st.sampled_from(peer_ids)) if by_peer else '',
                                'peer_groups': [] if by_peer else draw(st.lists(st.sampled_from(group_ids[1:]), min_size=1, max_size=2, unique=True)),
                                'metric': 9999, 'masquerade': True, 'enabled': draw(st.booleans()) or draw(st.booleans())})
            networks.append({'id': 'n%d' % n, 'name': 'net-%d' % n, 'resources': resources, 'routers': routers})

    def refs(ids):
        return [{'id': gid, 'name': next(g['name'] for g in groups if g['id'] == gid)} for gid in ids]

    def rule(index):
        protocol = draw(st.sampled_from(['all', 'tcp', 'udp', 'icmp', 'tcp']))
        ports = draw(st.lists(st.sampled_from(PORTS if current else [p for p in PORTS if '-' not in p]), unique=True, max_size=3)) \
            if protocol in ('tcp', 'udp') else []
        bidirectional = True if protocol in ('all', 'icmp') or not ports else draw(st.booleans())
        body = {'id': 'x', 'name': 'rule-%d' % index, 'description': '', 'enabled': draw(st.booleans()) or draw(st.booleans()),
                'action': draw(st.sampled_from(['accept', 'accept', 'drop'])), 'bidirectional': bidirectional, 'protocol': protocol,
                'sources': refs(draw(st.lists(st.sampled_from(group_ids), unique=True, min_size=1, max_size=2))),
                'destinations': refs(draw(st.lists(st.sampled_from(group_ids), unique=True, min_size=1, max_size=2)))}
        if current:
            singles = [p for p in ports if '-' not in p]
            ranges = [{'start': int(p.split('-')[0]), 'end': int(p.split('-')[1])} for p in ports if '-' in p]
            if singles:
                body['ports'] = singles
            if ranges:
                body['port_ranges'] = ranges
            pick = draw(st.integers(0, 5))
            if pick == 0 and peer_ids:
                body['sources'] = []
                body['sourceResource'] = {'id': draw(st.sampled_from(peer_ids)), 'type': 'peer'}
            elif pick == 1 and peer_ids:
                body['destinations'] = []
                body['destinationResource'] = {'id': draw(st.sampled_from(peer_ids)), 'type': 'peer'}
            elif pick == 2 and resource_refs:
                body['destinations'] = []
                body['destinationResource'] = draw(st.sampled_from(resource_refs))
        elif ports:
            body['ports'] = ports
        return body

    policies = []
    for i in range(draw(st.integers(0, 5))):
        rules = [rule(j) for j in range(1 if current else draw(st.integers(1, 2)))]
        posture = draw(st.lists(st.sampled_from(checks), unique_by=lambda c: c['id'], max_size=1))
        policies.append({'id': 'pol%d' % i, 'name': 'policy-%d' % i, 'description': '', 'enabled': draw(st.booleans()) or draw(st.booleans()),
                         'source_posture_checks': posture, 'rules': rules})
    if draw(st.booleans()):  # the Default policy, enabled or not
        policies.append({'id': 'default', 'name': 'Default', 'description': '', 'enabled': draw(st.booleans()), 'source_posture_checks': [],
                         'rules': [{'id': 'default', 'name': 'Default', 'description': '', 'enabled': True, 'action': 'accept',
                                    'bidirectional': True, 'protocol': 'all', 'sources': refs(['gall']), 'destinations': refs(['gall'])}]})

    routes = []
    for i in range(draw(st.integers(0, 2))):
        by_peer = bool(peer_ids) and draw(st.booleans())
        routes.append({'id': 'route%d' % i, 'network_id': draw(st.sampled_from(['office', 'lab'])),
                       'network': draw(st.sampled_from(['10.9.0.0/16', '10.8.0.0/16'])),
                       'enabled': draw(st.booleans()) or draw(st.booleans()), 'peer': draw(st.sampled_from(peer_ids)) if by_peer else '',
                       'peer_groups': [] if by_peer else draw(st.lists(st.sampled_from(group_ids[1:]), min_size=1, max_size=2, unique=True)),
                       'groups': draw(st.lists(st.sampled_from(group_ids), min_size=1, max_size=2, unique=True)),
                       'access_control_groups': draw(st.lists(st.sampled_from(group_ids), max_size=2, unique=True)) if current else []})
    for peer in peers:
        peer['groups'] = [{'id': g['id'], 'name': g['name']} for g in groups if peer['id'] in g['peers']]
    return {'current': current, 'peers': peers, 'groups': groups, 'policies': policies, 'routes': routes, 'networks': networks,
            'posture_checks': checks, 'all_id': 'gall'}


def report_of(world):
    return access_matrix(world['policies'], world['groups'], peers=world['peers'], routes=world['routes'],
                         networks=world['networks'], posture_checks=world['posture_checks'])


def compare(world):
    atoms, expected, members = truth(world)
    report = report_of(world)
    got = {}
    for peer in report['peers']:
        for reach in peer['reaches']:
            key = (peer['id'], reach['kind'], reach['id'])
            assert key not in got, key
            everything = atoms.of_output(reach['traffic'])
            assert everything, (key, reach)
            got[key] = everything
            assert reach['text']
            assert bool(reach['posture_text']) == bool(expected.get(key, (set(), set()))[1]), (key, reach, expected.get(key))
    assert dict(got) == {k: v[0] for k, v in expected.items()}
    cells = {}
    for row in report['rows']:
        for cell in row['cells']:
            if cell['members']:
                names = {p['name']: p['id'] for p in world['peers']}
                cells[(row['source_id'], cell['destination_id'])] = (atoms.of_output(cell['members']['traffic']),
                                                                     {names[n] for n in cell['members']['peers']})
    assert cells == members
    # an enabled rule of an enabled policy is never listed as not in force
    assert all(not (policy['enabled'] and rule['enabled']) for policy in world['policies'] for rule in policy['rules']
               if (policy['name'], rule['name']) in {(r['policy'], r['rule']) for r in report['not_in_force']})
    assert len(report['in_force']) == sum(1 for p in world['policies'] if p['enabled'] for r in p['rules'] if r['enabled'])
    return expected


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(worlds())
def test_the_report_matches_an_independent_computation(world):
    compare(world)


# -- named cases: the example, and each rule of the semantics once ----------------------------------------

def world_of(groups, policies, routes=(), networks=(), peers=None):
    peer_ids = sorted({p for members in groups.values() for p in members} | set(peers or []))
    group_list = [{'id': 'gall', 'name': 'All', 'issued': 'api', 'peers': peer_ids, 'resources': [], 'peers_count': len(peer_ids)}]
    for name, members in groups.items():
        group_list.append({'id': name, 'name': name, 'issued': 'api', 'peers': sorted(members), 'resources': [], 'peers_count': len(members)})
    for network in networks:
        for resource in network['resources']:
            for g in resource['groups']:
                next(x for x in group_list if x['id'] == g['id'])['resources'].append({'id': resource['id'], 'type': 'subnet'})
    return {'peers': [{'id': p, 'name': p, 'ip': '', 'groups': []} for p in peer_ids], 'groups': group_list, 'policies': list(policies),
            'routes': list(routes), 'networks': list(networks), 'posture_checks': [], 'all_id': 'gall'}


def a_rule(sources, destinations, protocol='tcp', ports=(), bidirectional=False, action='accept', enabled=True, posture=(), **extra):
    return {'id': 'x', 'name': 'r', 'enabled': True, 'source_posture_checks': [{'id': c, 'name': c} for c in posture],
            'rules': [dict({'id': 'x', 'name': 'r', 'enabled': enabled, 'action': action, 'bidirectional': bidirectional,
                            'protocol': protocol, 'ports': list(ports), 'sources': [{'id': g, 'name': g} for g in sources],
                            'destinations': [{'id': g, 'name': g} for g in destinations]}, **extra)]}


def reaches(report):
    return {(peer['name'], reach['name']): reach['text'] for peer in report['peers'] for reach in peer['reaches']}


def test_a_peer_in_several_groups_gets_the_union_and_the_group_cell_shows_it():
    """The issue's case: laptop-ana, in developers and web, reaches db over tcp 6432 through web."""
    world = world_of({'developers': ['laptop-ana', 'laptop-bo'], 'web': ['laptop-ana', 'web-1'], 'db': ['db-1']},
                     [a_rule(['developers'], ['web'], ports=['443']), a_rule(['web'], ['db'], ports=['6432'])])
    compare(world)
    report = report_of(world)
    assert reaches(report)[('laptop-ana', 'db-1')] == 'tcp 6432'
    assert ('laptop-bo', 'db-1') not in reaches(report)
    cell = next(c for r in report['rows'] if r['source'] == 'developers' for c in r['cells'] if c['destination'] == 'db')
    assert cell['entries'] == [] and cell['members']['text'] == 'tcp 6432' and cell['members']['peers'] == ['laptop-ana']


def test_drop_wins_and_bidirectional_goes_both_ways():
    world = world_of({'a': ['pa'], 'b': ['pb']},
                     [a_rule(['a'], ['b'], protocol='all', bidirectional=True), a_rule(['a'], ['b'], ports=['22'], action='drop')])
    compare(world)
    report = report_of(world)
    # the one-way drop stops a to b on tcp 22, not the way back
    assert reaches(report) == {('pa', 'pb'): 'all except tcp 22', ('pb', 'pa'): 'all'}
    cell = next(c for r in report['rows'] if r['source'] == 'a' for c in r['cells'] if c['destination'] == 'b')
    assert [(e['action'], e['text']) for e in cell['entries']] == [('accept', 'all except tcp 22'), ('drop', 'tcp 22')]


def test_a_rule_to_a_network_resource_is_in_force_and_reaches_it():
    network = {'id': 'n', 'name': 'office', 'routers': [{'peer': 'gw', 'peer_groups': [], 'enabled': True}],
               'resources': [{'id': 'lan', 'name': 'lan', 'address': '10.0.0.0/24', 'enabled': True, 'groups': [{'id': 'lan-group'}]}]}
    world = world_of({'developers': ['pa'], 'lan-group': [], 'gateways': ['gw']},
                     [a_rule(['developers'], [], ports=['22'], destinationResource={'id': 'lan', 'type': 'subnet'}),
                      a_rule(['developers'], ['lan-group'], protocol='icmp', bidirectional=True)], networks=[network])
    compare(world)
    report = report_of(world)
    assert report['not_in_force'] == []
    assert [line['destinations'] for line in report['in_force']] == [['lan (resource of office)'], ['lan-group']]
    assert reaches(report)[('pa', 'lan')] == 'tcp 22, icmp'
    row = next(r for r in report['routes'] if r['kind'] == 'resource')
    assert row['reached_by'] == ['pa'] and row['routing'] == ['gw (peer)']


def test_routes_with_and_without_access_control_groups():
    routes = [{'id': 'open', 'network_id': 'lab', 'network': '10.1.0.0/16', 'enabled': True, 'peer': 'gw', 'groups': ['users'],
               'access_control_groups': []},
              {'id': 'guarded', 'network_id': 'office', 'network': '10.2.0.0/16', 'enabled': True, 'peer': 'gw', 'groups': ['users'],
               'access_control_groups': ['office-acl']}]
    world = world_of({'users': ['pa', 'pb'], 'gateways': ['gw'], 'office-acl': ['gw']},
                     [a_rule(['users'], ['office-acl'], ports=['443'], posture=['recent'])], routes=routes)
    compare(world)
    got = reaches(report_of(world))
    assert got[('pa', 'lab (10.1.0.0/16)')] == 'all' and got[('pa', 'office (10.2.0.0/16)')] == 'tcp 443'
    assert ('gw', 'lab (10.1.0.0/16)') not in got
    pa = next(p for p in report_of(world)['peers'] if p['name'] == 'pa')
    assert [(r['name'], r['posture_checks']) for r in pa['reaches'] if r['posture_text']] == [
        ('gw', ['recent']), ('office (10.2.0.0/16)', ['recent'])]


def test_many_cases_take_little_time():
    """The generated test above runs 400 cases; a rough bound on one larger case (shared machine)."""
    world = world_of({'g%d' % i: ['p%d' % j for j in range(i, 60, 3)] for i in range(6)},
                     [a_rule(['g%d' % i], ['g%d' % ((i + 1) % 6)], ports=['22', '80']) for i in range(6)]
                     + [a_rule(['gall'], ['gall'], protocol='all', bidirectional=True)])
    assert len(list(itertools.islice(compare(world), 5))) == 5
