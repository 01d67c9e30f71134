# -*- coding: utf-8 -*-
"""The access_report playbook against the emulator, both dialects, on random-but-seeded networks: the JSON it
writes says, peer by peer, exactly what the independent computation of tests/unit/test_access_independent.py
finds from the same server's objects (read over the API here, not by the playbook). And the HTML page, opened
in headless Chromium, shows the matrix, the per-peer table and the routes."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess

import pytest

from tests.unit.test_access_independent import truth

PLAYBOOK = 'nms.overlay.access_report'
CHROMIUM = '/usr/bin/chromium'


def build(emulator, seed):
    """A network drawn from ``seed``: groups, peers in several groups, policies (one rule each on current servers),
    routes, and on current servers Networks with resources and routers."""
    pick = random.Random(seed)
    current = emulator.dialect == 'current'
    names = ['developers', 'web', 'db', 'office', 'gateways']
    groups = {name: emulator.ok('POST', '/api/groups', {'name': name})['id'] for name in names}
    peers = []
    for index in range(6):
        member_of = pick.sample(names, pick.randint(0, 3))
        peers.append(emulator.add_peers(peers=[{'hostname': 'peer-%d' % index,
                                                'groups': [groups[g] for g in member_of]}])[0]['id'])
    checks = [emulator.ok('POST', '/api/posture-checks', {'name': 'recent', 'description': '',
                                                          'checks': {'nb_version_check': {'min_version': '0.25.0'}}})['id']]
    resources = []
    if current:
        for n in range(2):
            network = emulator.ok('POST', '/api/networks', {'name': 'net-%d' % n, 'description': ''})
            for r in range(2):
                resource = emulator.ok('POST', '/api/networks/%s/resources' % network['id'], {
                    'name': 'res-%d-%d' % (n, r), 'description': '', 'address': '10.%d.%d.0/24' % (n, r),
                    'enabled': pick.random() < 0.8, 'groups': [groups[pick.choice(names)]]})
                resources.append(resource['id'])
            router = {'metric': 9999, 'masquerade': True, 'enabled': pick.random() < 0.8}
            router.update({'peer': pick.choice(peers)} if pick.random() < 0.5 else {'peer_groups': [groups['gateways']]})
            emulator.ok('POST', '/api/networks/%s/routers' % network['id'], router)
    for index in range(7):
        protocol = pick.choice(['all', 'tcp', 'tcp', 'udp', 'icmp'])
        ports = sorted(pick.sample(['22', '80', '443', '6432'], pick.randint(1, 2))) if protocol in ('tcp', 'udp') else []
        rule = {'name': 'rule-%d' % index, 'description': '', 'enabled': pick.random() < 0.85,
                'action': 'drop' if pick.random() < 0.2 else 'accept',
                'bidirectional': True if protocol in ('all', 'icmp') else pick.random() < 0.5, 'protocol': protocol, 'ports': ports,
                'sources': [groups[g] for g in pick.sample(names, pick.randint(1, 2))],
                'destinations': [groups[g] for g in pick.sample(names, pick.randint(1, 2))]}
        if current and protocol == 'tcp' and pick.random() < 0.4:
            # current servers take single ports or ranges, not both
            rule['port_ranges'] = [{'start': 8000, 'end': 8100}] + [{'start': int(p), 'end': int(p)} for p in rule.pop('ports')]
        if current and resources and pick.random() < 0.3:
            del rule['destinations']  # current servers refuse both, even an empty list
            rule['destinationResource'] = {'id': pick.choice(resources), 'type': 'subnet'}
        emulator.ok('POST', '/api/policies', {'name': 'policy-%d' % index, 'description': '', 'enabled': pick.random() < 0.9,
                                              'source_posture_checks': checks if pick.random() < 0.3 else [], 'rules': [rule]})
    for index in range(2):
        route = {'network': '10.%d.0.0/16' % (50 + index), 'network_id': 'route-%d' % index, 'description': '', 'enabled': True,
                 'masquerade': True, 'metric': 9999, 'groups': [groups[pick.choice(names)]]}
        route.update({'peer': pick.choice(peers)} if index == 0 else {'peer_groups': [groups['gateways']]})
        if current:
            route.update(keep_route=False, access_control_groups=[groups[pick.choice(names)]] if pick.random() < 0.6 else [])
        emulator.ok('POST', '/api/routes', route)
    return current


def server_world(emulator, current):
    """The server's own objects, in the shape the independent computation reads."""
    groups = emulator.ok('GET', '/api/groups')
    all_id = next(g['id'] for g in groups if g['name'] == 'All')
    networks = []
    if current:
        for network in emulator.ok('GET', '/api/networks'):
            networks.append(dict(network, resources=emulator.ok('GET', '/api/networks/%s/resources' % network['id']),
                                 routers=emulator.ok('GET', '/api/networks/%s/routers' % network['id'])))
    return {'peers': emulator.ok('GET', '/api/peers'), 'groups': groups, 'policies': emulator.ok('GET', '/api/policies'),
            'routes': emulator.ok('GET', '/api/routes'), 'networks': networks, 'all_id': all_id}


def disable_default(emulator):
    policy = next(p for p in emulator.ok('GET', '/api/policies') if p['name'] == 'Default')
    rules = [dict(rule, sources=[g['id'] for g in rule['sources']], destinations=[g['id'] for g in rule['destinations']])
             for rule in policy['rules']]
    emulator.ok('PUT', '/api/policies/%s' % policy['id'], dict(policy, enabled=False, rules=rules))


@pytest.mark.parametrize('seed', [1, 2, 3])
def test_the_report_matches_the_independent_computation_on_the_server(emulator, run, tmp_path, seed):
    current = build(emulator, seed)
    if seed != 3:  # with the Default policy in force everybody reaches everybody: one case of it is enough
        disable_default(emulator)
    out = tmp_path / 'access.json'
    emulator.clear_log()
    result = run([], playbook=PLAYBOOK, extra_vars={'nms_access_report_markdown': str(tmp_path / 'access.md'),
                                                    'nms_access_report_html': str(tmp_path / 'access.html'),
                                                    'nms_access_report_json': str(out)})
    assert result.rc == 0, result
    assert emulator.writes() == []
    # only reads, the Networks' only on a server that has them
    paths = {r['path'] for r in emulator.requests()}
    assert {p for p in paths if p.startswith('/api/networks/')} if current else {p for p in paths if p.startswith('/api/networks/')} == set(), paths
    report = json.loads(out.read_text(encoding='utf-8'))

    world = server_world(emulator, current)
    atoms, expected, members = truth(world)
    got = {}
    for peer in report['peers']:
        for reach in peer['reaches']:
            got[(peer['id'], reach['kind'], reach['id'])] = atoms.of_output(reach['traffic'])
            assert bool(reach['posture_text']) == bool(expected[(peer['id'], reach['kind'], reach['id'])][1])
    assert got == {key: value[0] for key, value in expected.items()}
    assert len(got) >= 2, got  # the seeds give networks where something reaches something
    names = {p['name']: p['id'] for p in world['peers']}
    cells = {(row['source_id'], cell['destination_id']): (atoms.of_output(cell['members']['traffic']), {names[n] for n in cell['members']['peers']})
             for row in report['rows'] for cell in row['cells'] if cell['members']}
    assert cells == members
    enabled = sum(1 for p in world['policies'] if p['enabled'] for r in p['rules'] if r['enabled'])
    assert len(report['in_force']) == enabled and all(r['reason'] in ('policy disabled', 'rule disabled') for r in report['not_in_force'])

    # unchanged access, unchanged files: a second run changes nothing
    again = run([], playbook=PLAYBOOK, extra_vars={'nms_access_report_markdown': str(tmp_path / 'access.md'),
                                                   'nms_access_report_html': str(tmp_path / 'access.html'),
                                                   'nms_access_report_json': str(out)})
    assert [again[t]['changed'] for t in ('Write the Markdown report', 'Write the HTML report', 'Write the JSON report')] == [False] * 3


def chromium():
    if os.path.exists(CHROMIUM):
        return CHROMIUM
    if os.environ.get('CI') == 'true':
        pytest.fail('%s is missing: the HTML page cannot be checked (apt-get install -y chromium)' % CHROMIUM)
    pytest.skip('no %s here (in CI it is required)' % CHROMIUM)


def browse(page, tmp_path, *extra):
    profile = tmp_path / 'chromium-profile'
    command = [chromium(), '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
               '--disable-background-networking', '--disable-component-update', '--disable-sync',
               '--user-data-dir=%s' % profile] + list(extra) + ['file://%s' % page]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    shutil.rmtree(profile, ignore_errors=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_the_html_page_reads_right_in_a_browser(emulator, run, tmp_path):
    """The issue's example in a browser: laptop-ana (developers and web) reaches db through web; the developers to db
    cell says so, the per-peer table lists it, and nothing of a name is read as markup."""
    groups = {name: emulator.ok('POST', '/api/groups', {'name': name})['id'] for name in ('developers', 'web', 'db', '<i>x</i>')}
    emulator.add_peers(peers=[{'hostname': 'laptop-ana', 'groups': [groups['developers'], groups['web']]},
                              {'hostname': 'laptop-bo', 'groups': [groups['developers']]},
                              {'hostname': 'db-1', 'groups': [groups['db']]}])
    for name, source, destination, port in (('dev web', 'developers', 'web', '443'), ('web db', 'web', 'db', '6432')):
        emulator.ok('POST', '/api/policies', {'name': name, 'description': '', 'enabled': True, 'rules': [{
            'name': name, 'description': '', 'enabled': True, 'action': 'accept', 'bidirectional': False, 'protocol': 'tcp',
            'ports': [port], 'sources': [groups[source]], 'destinations': [groups[destination]]}]})
    disable_default(emulator)
    page = tmp_path / 'access.html'
    result = run([], playbook=PLAYBOOK, extra_vars={'nms_access_report_markdown': '', 'nms_access_report_html': str(page)})
    assert result.rc == 0, result
    dom = browse(page, tmp_path, '--dump-dom')
    assert dom.count('<table class="matrix') == 1
    # the developers -> db cell: the members' entry, with laptop-ana named
    cell = dom.split('title="from developers to db"')[1].split('</td>')[0]
    assert 'class="e members"' in cell and '6432' in cell and 'laptop-ana' in cell and 'laptop-bo' not in cell, cell
    peers = dom.split('What each peer reaches')[1].split('Routes and Networks')[0]
    ana = [line for line in peers.split('<tr>') if '>laptop-ana<' in line]
    assert any('db-1' in line and 'tcp 6432' in line for line in ana), ana
    assert '<i>x</i>' not in dom and '&lt;i&gt;x&lt;/i&gt;' in dom
    screenshot = tmp_path / 'access.png'
    browse(page, tmp_path, '--screenshot=%s' % screenshot, '--window-size=1280,1400', '--hide-scrollbars')
    assert screenshot.stat().st_size > 10000
    if os.environ.get('NMS_KEEP_SCREENSHOT'):
        shutil.copy(screenshot, os.environ['NMS_KEEP_SCREENSHOT'])
