# -*- coding: utf-8 -*-
"""Issue 42, 3: the access report against real NetBird agents, on the real v0.27.6 and v0.77.1 (tests/support/
realserver.py, tests/support/realagents.py; the real-server stage, ``make real``).

One server per release (module scope), five agents of both releases joined in parallel into four groups, with a
one-way port-restricted rule, a bidirectional rule and a drop rule over it, both behind a posture check that the
v0.27.6 agent fails, a disabled policy, a disabled rule, a drop rule alone, a route through a routing agent and (v0.77.1)
a Network with a router and a resource; the Default allow-all disabled, and the seeded peer real-h1 in a group.

For every agent, the peers its ``netbird status --json`` lists are exactly the report's ``connects`` of its peer
(the server's network map), and the peers the report says it reaches either way are those less the links that
carry no traffic (drop only, routers of a Network). On v0.77.1, through an agent's SOCKS5 proxy, a port the report
says gets through connects and a port it says is shut does not; the route and the resource reach the agents the
report names."""

from __future__ import annotations

import concurrent.futures
import json
import re
import subprocess
import sys
import time

import pytest

from tests.integration.test_real_servers import connection, started
from tests.support.realagents import Agents
from tests.support.realserver import RELEASES

pytestmark = pytest.mark.real

NEW, OLD = 'v0.77.1', 'v0.27.6'
# host -> (group, agent release); web2 (v0.27.6) fails the posture check "agent 0.28 or later"
HOSTS = {'web1': ('web', NEW), 'web2': ('web', OLD), 'db1': ('db', NEW), 'ops1': ('ops', NEW), 'gw1': ('gw', NEW)}
GROUPS = ('web', 'db', 'ops', 'gw', 'lab-hosts')
CHECK = 'agent 0.28 or later'
PORT_OPEN, PORT_SHUT, PORT_DROPPED, PORT_OTHER = 15432, 15433, 18022, 18023
ROUTE, RESOURCE = '10.99.0.0/24', '10.98.0.0/24'
SETTLE = 30  # seconds for every agent's map to match the report (they get it pushed within a few)


def rule(name, sources, destinations, protocol='all', ports=(), bidirectional=True, action='accept', enabled=True):
    return {'name': name, 'description': '', 'enabled': enabled, 'action': action, 'bidirectional': bidirectional,
            'protocol': protocol, 'ports': [str(p) for p in ports], 'sources': sources, 'destinations': destinations}


def policies(g, check_id):
    """The policies of the test network (group ids by name in ``g``), one rule each."""
    return [
        ('web to db (one way, tcp)', True, [], rule('db', [g['web']], [g['db']], 'tcp', [PORT_OPEN], bidirectional=False)),
        ('web and ops (posture)', True, [check_id], rule('both', [g['web']], [g['ops']])),
        ('db and ops (disabled policy)', False, [], rule('off', [g['db']], [g['ops']])),
        ('gw and db (disabled rule)', True, [], rule('off', [g['gw']], [g['db']], enabled=False)),
        ('no tcp 18022 from web to ops', True, [check_id],
         rule('drop', [g['web']], [g['ops']], 'tcp', [PORT_DROPPED], bidirectional=False, action='drop')),
        ('no tcp 9 from db to ops', True, [], rule('drop', [g['db']], [g['ops']], 'tcp', [9], bidirectional=False, action='drop')),
        ('web to gw (ssh)', True, [], rule('ssh', [g['web']], [g['gw']], 'tcp', [22], bidirectional=False)),
    ]


def disable_default(server):
    policy = next(p for p in server.ok('GET', '/api/policies') if p['name'] == 'Default')
    rules = [dict(r, sources=[x['id'] for x in r['sources'] or []], destinations=[x['id'] for x in r['destinations'] or []])
             for r in policy['rules']]
    server.ok('PUT', '/api/policies/%s' % policy['id'], dict(policy, enabled=False, rules=rules,
                                                             source_posture_checks=policy.get('source_posture_checks') or []))


class Network:
    """A real server with its agents and the objects of the test network."""

    def __init__(self, server, agents, directory):
        self.server, self.agents, self.directory = server, agents, directory
        self.release = server.release
        self.report = None
        self.seconds = {}

    def build(self):
        started = time.monotonic()
        server = self.server
        seeded = {p['name']: p['id'] for p in server.ok('GET', '/api/peers')}
        self.groups = {}
        for name in GROUPS:
            body = {'name': name, 'peers': [seeded['real-h1']] if name == 'db' else []}
            self.groups[name] = server.ok('POST', '/api/groups', body)['id']
        check = server.ok('POST', '/api/posture-checks', {'name': CHECK, 'description': '',
                                                          'checks': {'nb_version_check': {'min_version': '0.28.0'}}})
        for name, enabled, checks, body in policies(self.groups, check['id']):
            server.ok('POST', '/api/policies', {'name': name, 'description': '', 'enabled': enabled,
                                                'source_posture_checks': checks, 'rules': [body]})
        disable_default(server)
        keys = {}
        for group in sorted({group for group, dummy in HOSTS.values()}):
            key = server.ok('POST', '/api/setup-keys', {'name': 'access-' + group, 'type': 'reusable', 'expires_in': 86400,
                                                        'auto_groups': [self.groups[group]], 'usage_limit': 0})['key']
            keys[group] = self.directory / ('key-' + group)
            keys[group].write_text(key)
        with concurrent.futures.ThreadPoolExecutor(len(HOSTS)) as pool:
            joined = {host: pool.submit(self.agents.up, host, key_file=keys[group], version=version)
                      for host, (group, version) in HOSTS.items()}
            self.ips = {host: future.result()['NB_AGENT_IP'] for host, future in joined.items()}
        self.seconds['join'] = time.monotonic() - started
        self.peer_ids = {p['name']: p['id'] for p in server.ok('GET', '/api/peers')}
        self.ips.update({p['name']: p['ip'] for p in server.ok('GET', '/api/peers')})
        # a route through the routing agent gw1, for the web group; the peer-to-peer rule web -> gw connects them
        server.ok('POST', '/api/routes', {'description': '', 'network_id': 'lab-route', 'network': ROUTE, 'enabled': True,
                                          'peer': self.peer_ids['gw1'], 'groups': [self.groups['web']], 'metric': 9999,
                                          'masquerade': True})
        if self.release == NEW:  # a Network: resource lab-db (group lab-hosts) behind the router gw1, for ops
            network = server.ok('POST', '/api/networks', {'name': 'lab', 'description': ''})
            server.ok('POST', '/api/networks/%s/resources' % network['id'], {
                'name': 'lab-db', 'description': '', 'address': RESOURCE, 'enabled': True, 'groups': [self.groups['lab-hosts']]})
            server.ok('POST', '/api/networks/%s/routers' % network['id'], {
                'peer': self.peer_ids['gw1'], 'metric': 9999, 'masquerade': True, 'enabled': True})
            https = rule('https', [self.groups['ops']], [self.groups['lab-hosts']], 'tcp', [443], bidirectional=False)
            server.ok('POST', '/api/policies', {'name': 'ops to lab', 'description': '', 'enabled': True, 'source_posture_checks': [],
                                                'rules': [https]})
        self.seconds['build'] = time.monotonic() - started
        return self

    def statuses(self):
        with concurrent.futures.ThreadPoolExecutor(len(HOSTS)) as pool:
            found = {host: pool.submit(self.agents.status, host) for host in HOSTS}
            return {host: future.result() for host, future in found.items()}


@pytest.fixture(scope='module', params=RELEASES)
def network(request, tmp_path_factory):
    servers = started(request.param)
    server = next(servers, None)  # None never: started() yields its server or skips
    agents = Agents(server)
    built = Network(server, agents, tmp_path_factory.mktemp('access-' + request.param))
    try:
        yield built.build()
    finally:
        agents.stop_all()
        next(servers, None)  # stops the server
        print('\n%s: %d agents, seconds %s' % (request.param, len(HOSTS), {k: round(v, 1) for k, v in built.seconds.items()}))


def write_report(network, run, tmp_path):
    if network.report is None:
        started = time.monotonic()
        out = tmp_path / 'access.json'
        network.server.clear_log()
        result = run([], playbook='nms.overlay.access_report', env=connection(network.server),
                     extra_vars={'nms_access_report_markdown': '', 'nms_access_report_html': '', 'nms_access_report_json': str(out)})
        assert result.rc == 0, result
        assert network.server.writes() == []
        network.report = json.loads(out.read_text(encoding='utf-8'))
        network.seconds['report'] = time.monotonic() - started
    return network.report


def peer_rows(report):
    return {row['name']: row for row in report['peers']}


def either_way(report):
    """{peer name: names of the peers it reaches or that reach it}, from the report's reaches."""
    found = {row['name']: set() for row in report['peers']}
    for row in report['peers']:
        for item in row['reaches']:
            if item['kind'] == 'peer':
                found[row['name']].add(item['name'])
                found[item['name']].add(row['name'])
    return found


def test_every_agent_lists_exactly_the_peers_the_report_says_it_connects_with(network, run, tmp_path):
    report = write_report(network, run, tmp_path)
    rows = peer_rows(report)
    names = {ip: name for name, ip in network.ips.items()}
    expected = {host: sorted(network.ips[item['name']] for item in rows[host]['connects']) for host in HOSTS}
    started, seen = time.monotonic(), {}
    while True:
        statuses = network.statuses()
        seen = {host: sorted(p['netbirdIp'].split('/')[0] for p in (status.get('peers') or {}).get('details') or [])
                for host, status in statuses.items()}
        if seen == expected or time.monotonic() - started > SETTLE:
            break
        time.sleep(1)
    network.seconds['settle'] = time.monotonic() - started
    assert {h: sorted(names.get(ip, ip) for ip in ips) for h, ips in seen.items()} == \
        {h: sorted(names[ip] for ip in ips) for h, ips in expected.items()}

    # what the design of the network says, as the servers' sources work out the maps (see docs/access-report.md)
    connects = {host: {item['name'] for item in rows[host]['connects']} for host in HOSTS}
    assert connects['web1'] == {'db1', 'real-h1', 'ops1', 'gw1'}
    assert connects['web2'] == {'db1', 'real-h1', 'gw1'}  # fails the check of both policies between web and ops
    assert connects['db1'] == {'web1', 'web2', 'ops1'}  # ops1 through the drop rule alone; one-way web -> db both sides
    assert connects['ops1'] == {'web1', 'db1', 'real-h1'} | ({'gw1'} if network.release == NEW else set())
    assert connects['gw1'] == {'web1', 'web2'} | ({'ops1'} if network.release == NEW else set())
    assert rows['web2']['posture_failed'] == [CHECK] and rows['web1']['posture_failed'] == []
    assert rows['real-h1']['posture_failed'] == [CHECK]  # its agent was 0.27.6 too
    # the other seeded peers are in All only, which no rule in force names: in no map, as no agent lists them
    assert {name: rows[name]['connects'] for name in ('real-h2', 'real-h3', 'real-h4', 'real-win1')} == dict.fromkeys(
        ('real-h2', 'real-h3', 'real-h4', 'real-win1'), [])

    # reaches either way: the same peers, less the links that carry nothing (drop only; a Network's router)
    quiet = {frozenset(pair) for pair in (('db1', 'ops1'), ('real-h1', 'ops1'))}
    if network.release == NEW:
        quiet.add(frozenset(('ops1', 'gw1')))
    reached = either_way(report)
    for host in HOSTS:
        assert reached[host] == {name for name in connects[host] if frozenset((host, name)) not in quiet}, host
        for item in rows[host]['connects']:
            assert item['traffic'] is (frozenset((host, item['name'])) not in quiet), (host, item)
    assert {item['name']: item['text'] for item in rows['web1']['reaches'] if item['kind'] == 'peer'} == {
        'db1': 'tcp %d' % PORT_OPEN, 'real-h1': 'tcp %d' % PORT_OPEN, 'ops1': 'all except tcp %d' % PORT_DROPPED, 'gw1': 'tcp 22'}
    assert [item['name'] for item in rows['web2']['reaches'] if item['kind'] == 'peer'] == ['db1', 'gw1', 'real-h1']
    assert sorted((r['policy'], r['reason']) for r in report['not_in_force']) == [
        ('Default', 'policy disabled'), ('db and ops (disabled policy)', 'policy disabled'), ('gw and db (disabled rule)', 'rule disabled')]


def routes_of(network, host, status):
    """The networks (routes, resources) an agent was given: its status's ``networks`` of its peers' details (v0.77.1).
    A v0.27.6 agent in netstack mode cannot put a route on a device (``add route: netlink add route: no such
    device``), so its status shows none: its log says which routing peer it chose for which network."""
    found = set()
    for peer in (status.get('peers') or {}).get('details') or []:
        found.update(peer.get('networks') or peer.get('routes') or [])
    if HOSTS[host][1] == OLD:
        with open(network.agents.handle(host) + '/client.log', encoding='utf-8', errors='replace') as log:
            found.update(re.findall(r'routemanager/client\.go:\d+: new chosen route is \S+ with peer \S+ with score \S+ '
                                    r'for network (\S+)', log.read()))
    return found


def test_the_route_and_the_resource_reach_the_agents_the_report_names(network, run, tmp_path):
    report = write_report(network, run, tmp_path)
    rows = {row['kind'] + ':' + row['name']: row for row in report['routes']}
    route = rows['route:lab-route (%s)' % ROUTE]
    assert route['reached_by'] == ['web1', 'web2'] and route['routing'] == ['gw1 (peer)']
    expected = {host: {ROUTE} if host in route['reached_by'] else set() for host in HOSTS}
    if network.release == NEW:
        resource = rows['resource:lab-db (%s)' % RESOURCE]
        assert resource['reached_by'] == ['ops1'] and resource['routing'] == ['gw1 (peer)']
        expected = {host: found | ({RESOURCE} if host in resource['reached_by'] else set()) for host, found in expected.items()}
    # an agent shows a route once its tunnel to the routing peer is up: wait for it
    started = time.monotonic()
    while True:
        statuses = network.statuses()
        given = {host: routes_of(network, host, status) & {ROUTE, RESOURCE} for host, status in statuses.items()}
        if given == expected or time.monotonic() - started > SETTLE:
            break
        time.sleep(1)
    network.seconds['routes'] = time.monotonic() - started
    assert given == expected, json.dumps({h: s.get('peers') for h, s in statuses.items()})[:4000]


# -- traffic through an agent's SOCKS5 proxy (v0.77.1 agents forward to the namespace's loopback) --------------------

LISTEN = r'''
import socket, sys, threading
def serve(port):
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('127.0.0.1', port)); s.listen(8)
    while True:
        c, _ = s.accept(); c.sendall(b'port %d\n' % port); c.close()
for port in sys.argv[1:]:
    threading.Thread(target=serve, args=(int(port),), daemon=True).start()
print('ready', flush=True)
threading.Event().wait()
'''

SOCKS = r'''
import socket, struct, sys
proxy, host, port = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
s = socket.create_connection(('127.0.0.1', proxy), 5); s.settimeout(4)
s.sendall(b'\x05\x01\x00'); assert s.recv(2) == b'\x05\x00'
s.sendall(b'\x05\x01\x00\x01' + socket.inet_aton(host) + struct.pack('>H', port))
reply = s.recv(10)
if len(reply) < 2 or reply[1] != 0:
    print('refused %s' % (reply[1] if len(reply) > 1 else '-')); sys.exit(0)
try:
    print(s.recv(64).decode().strip() or 'closed')
except OSError as exc:
    print('nothing: %s' % type(exc).__name__)
'''


def agent_json(network, host):
    with open(network.agents.handle(host) + '/agent.json', encoding='utf-8') as handle:
        return json.load(handle)


def through(network, source, target, port):
    """What a TCP connection from ``source``'s agent to ``target``'s overlay address, port ``port``, gets back: the
    listener's 'port N', or why not."""
    agent = agent_json(network, source)
    done = subprocess.run(['ip', 'netns', 'exec', agent['netns'], sys.executable, '-c', SOCKS, str(agent['socks_port']),
                           network.ips[target], str(port)], capture_output=True, text=True, timeout=30, check=False)
    return done.stdout.strip() or 'failed: %s' % done.stderr.strip()[-200:]


def test_ports_the_report_opens_connect_through_the_agents_and_the_shut_ones_do_not(network, run, tmp_path):
    if network.release != NEW:
        pytest.skip('only v0.77.1 agents forward SOCKS5 traffic to the namespace (realagent.py)')
    report = write_report(network, run, tmp_path)
    reaches = {(row['name'], item['name']): item for row in report['peers'] for item in row['reaches'] if item['kind'] == 'peer'}
    # the report: web1 -> db1 on PORT_OPEN only; web1 -> ops1 all except PORT_DROPPED; db1 -> web1 nothing (one way)
    assert reaches[('web1', 'db1')]['traffic']['tcp'] == [str(PORT_OPEN)]
    assert reaches[('web1', 'ops1')]['traffic']['tcp'] == ['1-%d' % (PORT_DROPPED - 1), '%d-65535' % (PORT_DROPPED + 1)]
    assert ('db1', 'web1') not in reaches
    agent = agent_json(network, 'web1')
    listener = subprocess.Popen(['ip', 'netns', 'exec', agent['netns'], sys.executable, '-c', LISTEN] +
                                [str(p) for p in (PORT_OPEN, PORT_SHUT, PORT_DROPPED, PORT_OTHER)],
                                stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert listener.stdout.readline().strip() == 'ready'
        started = time.monotonic()
        cases = [('web1', 'db1', PORT_OPEN, True), ('web1', 'db1', PORT_SHUT, False), ('web1', 'ops1', PORT_OTHER, True),
                 ('web1', 'ops1', PORT_DROPPED, False), ('db1', 'web1', PORT_OPEN, False)]
        with concurrent.futures.ThreadPoolExecutor(len(cases)) as pool:
            got = list(pool.map(lambda case: through(network, *case[:3]), cases))
        network.seconds['socks'] = time.monotonic() - started
        assert [answer == 'port %d' % case[2] for answer, case in zip(got, cases)] == [case[3] for case in cases], got
    finally:
        listener.terminate()
        listener.wait(10)
