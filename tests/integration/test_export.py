# -*- coding: utf-8 -*-
"""network_state state=gathered (the export) and the export_network playbook: the round trip on both dialects.

Export, apply the export to the same server (changed=0, no write), export again (identical), apply it to an empty
server and export there (the same, apart from what a fresh server cannot hold: its peers).
"""

from __future__ import annotations

import copy

import yaml

from ansible_collections.nms.overlay.plugins.module_utils._resources.setup_key import lifetime_floor

from tests.integration.export_pins import drift_of_changes_by_hand, sweep
from tests.support.emulator import writes_of as writes

CLUSTER = 'proxy.emulator.test'  # a connected NetBird proxy (tests/integration/test_reverse_proxy.py)
# write-only values: sent on create, never answered, so never exported
API_KEY = 'sk-export-round-trip-4b7d21'
PASSWORD = 'svc-export-round-trip-8e05'


def state_task(name='network', **options):
    return {'name': name, 'nms.overlay.network_state': options}


def gather(run, name='export'):
    result = run([state_task(name, state='gathered')])
    assert result.rc == 0, result.text
    task = result[name]
    assert task['changed'] is False
    return task


def enroll(emulator, hostname, groups=()):
    status, key = emulator.api('POST', '/api/setup-keys', {
        'name': 'enroll-%s' % hostname, 'type': 'one-off', 'expires_in': 86400, 'auto_groups': list(groups),
        'usage_limit': 0, 'revoked': False})
    assert status == 200, key
    return emulator.enroll(key['key'], hostname)['id']


def description(current):
    """A network with every kind the dialect has, referring to each other by name."""
    network = {
        'groups': [{'name': 'office'}, {'name': 'servers', 'peers': ['web-1', 'db-1']}, {'name': 'developers', 'peers': ['laptop-ana']},
                   {'name': 'office-gateways', 'peers': ['gw-1']}],
        'posture_checks': [{'name': 'minimum client version', 'description': 'agent 0.28 or later',
                            'checks': {'nb_version_check': {'min_version': '0.28.0'}}}],
        'policies': [
            {'name': 'developers to servers', 'description': 'ssh and postgres', 'source_posture_checks': ['minimum client version'],
             'rules': [{'name': 'ssh', 'action': 'accept', 'bidirectional': False, 'protocol': 'tcp', 'ports': ['22', '5432'],
                        'sources': ['developers'], 'destinations': ['servers']}]},
            {'name': 'office to servers', 'enabled': False,
             'rules': [{'name': 'web', 'protocol': 'tcp', 'ports': ['443'], 'sources': ['office'], 'destinations': ['servers']}]},
        ],
        'routes': [
            {'network_id': 'office-lan', 'description': 'the office LAN', 'network': '192.168.10.0/24', 'peer_groups': ['office-gateways'],
             'groups': ['developers', 'office'], 'metric': 100, 'masquerade': True},
            {'network_id': 'lab', 'network': '10.20.0.0/16', 'peer': 'gw-1', 'groups': ['developers'], 'enabled': False},
        ],
        'nameserver_groups': [{'name': 'internal dns', 'nameservers': [{'ip': '192.168.10.53'}], 'domains': ['corp.example.com'],
                               'groups': ['office', 'developers'], 'search_domains_enabled': True}],
        'dns_settings': {'disabled_management_groups': ['office-gateways']},
        'setup_keys': [{'name': 'servers', 'type': 'reusable', 'auto_groups': ['servers'], 'usage_limit': 5}],
        'users': [{'name': 'automation', 'is_service_user': True, 'role': 'admin', 'auto_groups': ['servers']}],
        'account_settings': {'peer_login_expiration_enabled': True, 'peer_login_expiration': 86400},
    }
    if current:
        network['groups'].append({'name': 'office-lan'})
        network['policies'].append({'name': 'developers to the printer', 'rules': [
            {'name': 'print', 'protocol': 'tcp', 'ports': ['631'], 'bidirectional': False, 'sources': ['developers'],
             'destination_resource': 'printer'}]})
        network['networks'] = [{'name': 'office', 'description': 'the office LAN',
                                'resources': [{'name': 'office-lan', 'address': '192.168.10.0/24', 'groups': ['office-lan']},
                                              {'name': 'printer', 'address': '192.168.10.20/32', 'enabled': False}],
                                'routers': [{'peer_groups': ['office-gateways'], 'metric': 100, 'masquerade': True}]}]
        network['dns_zones'] = [{'name': 'Office', 'domain': 'office.example.com', 'distribution_groups': ['office'],
                                 'records': [{'name': 'printer.office.example.com', 'type': 'A', 'content': '192.168.10.20', 'ttl': 300}]}]
        network['reverse_proxy_domains'] = [{'domain': 'apps.example.com', 'target_cluster': CLUSTER}]
        network['reverse_proxy_services'] = [
            {'name': 'grafana', 'domain': 'grafana.apps.example.com',
             'targets': [{'target_id': 'web-1', 'target_type': 'peer', 'protocol': 'http', 'port': 3000}],
             'auth': {'password_auth': {'enabled': True, 'password': PASSWORD},
                      'bearer_auth': {'enabled': True, 'distribution_groups': ['developers']}}},
            {'name': 'printer-ui', 'domain': 'printer.%s' % CLUSTER,
             'targets': [{'target_id': 'printer', 'target_type': 'host', 'protocol': 'http', 'port': 631}], 'access_groups': ['office']}]
        network['agent_network_settings'] = {'proxy_address': 'eu.proxy.example.com', 'access_log_retention_days': 7}
        network['agent_network_providers'] = [{'name': 'OpenAI', 'provider_id': 'openai_api', 'upstream_url': 'https://api.openai.com',
                                               'api_key': API_KEY, 'models': [{'id': 'gpt-5.4-mini', 'input_per_1k': 0.00075, 'output_per_1k': 0.0045}]}]
        network['agent_network_guardrails'] = [{'name': 'Production', 'checks': {'model_allowlist': {'enabled': True, 'models': ['gpt-5.4-mini']}}}]
        network['agent_network_policies'] = [{'name': 'developers to OpenAI', 'source_groups': ['developers'], 'destination_provider_ids': ['OpenAI'],
                                              'guardrail_ids': ['Production']}]
        network['agent_network_budget_rules'] = [{'name': 'Monthly', 'target_groups': ['developers'], 'target_users': ['automation'],
                                                  'limits': {'budget_limit': {'enabled': True, 'user_cap_usd': 50, 'window_seconds': 2592000}}}]
    return network


def connect_proxy(emulator):
    if emulator.dialect == 'current':
        emulator.control('POST', '/_emulator/config', {'proxy_clusters': [CLUSTER]})


def build(emulator, run):
    connect_proxy(emulator)
    for host in ('web-1', 'db-1', 'laptop-ana', 'gw-1'):
        enroll(emulator, host)
    built = run([state_task('build', **description(emulator.dialect == 'current'))])
    assert built.rc == 0, built.text


def without_peers(exported):
    """What an empty server can hold of an export: no peer exists there to be a member or a routing peer."""
    fresh = copy.deepcopy(exported)
    for group in fresh['groups']:
        group['peers'] = []
    fresh['routes'] = [route for route in fresh['routes'] if 'peer' not in route]
    if 'reverse_proxy_services' in fresh:
        fresh['reverse_proxy_services'] = [service for service in fresh['reverse_proxy_services']
                                           if all(target['target_type'] != 'peer' for target in service['targets'])]
    return fresh


def with_secrets(description):
    """An export made ready for another server: the write-only values it cannot hold given again (from a vault)."""
    ready = copy.deepcopy(description)
    for provider in ready.get('agent_network_providers', []):
        provider['api_key'] = API_KEY
    return ready


def test_round_trip_same_server_unchanged_and_empty_server_the_same(emulator, run):
    build(emulator, run)
    emulator.clear_log()
    first = gather(run)
    exported = first['gathered']
    network_description = description(emulator.dialect == 'current')
    # only reads: one list per kind (and per network or zone), the version probe on today's servers
    assert writes(emulator) == []
    # names instead of ids, answer-only fields left out, no secret; defaults and empty values written (pinned)
    current = emulator.dialect == 'current'
    servers = next(group for group in exported['groups'] if group['name'] == 'servers')
    assert servers == {'name': 'servers', 'peers': ['db-1', 'web-1']}
    assert {'name': 'office', 'peers': []} in exported['groups']
    assert 'All' not in [group['name'] for group in exported['groups']]
    key = next(key for key in exported['setup_keys'] if key['name'] == 'servers')
    assert key == dict({'name': 'servers', 'type': 'reusable', 'expires_in': '30d', 'usage_limit': 5, 'ephemeral': False,
                        'auto_groups': ['servers'], 'revoked': False}, **({'allow_extra_dns_labels': False} if current else {}))
    assert not [k for k in exported['setup_keys'] if k['name'].startswith('enroll-')]  # used up: they admit no peer
    policy = next(p for p in exported['policies'] if p['name'] == 'developers to servers')
    assert policy['enabled'] is True and policy['rules'] == [{
        'name': 'ssh', 'description': '', 'enabled': True, 'action': 'accept', 'bidirectional': False, 'protocol': 'tcp',
        'ports': ['22', '5432'], 'sources': ['developers'], 'destinations': ['servers']}]
    assert policy['source_posture_checks'] == ['minimum client version']
    assert exported['dns_settings'] == {'disabled_management_groups': ['office-gateways']}
    assert [u for u in exported['users'] if u.get('name') == 'automation'] == [
        {'name': 'automation', 'is_service_user': True, 'role': 'admin', 'auto_groups': ['servers'], 'is_blocked': False}]
    if emulator.dialect == 'current':
        printer = next(p for p in exported['policies'] if p['name'] == 'developers to the printer')
        assert printer['rules'] == [{'name': 'print', 'description': '', 'enabled': True, 'action': 'accept', 'bidirectional': False,
                                     'protocol': 'tcp', 'ports': ['631'], 'sources': ['developers'], 'destination_resource': 'printer'}]
        assert exported['networks'][0]['routers'] == [{'peer_groups': ['office-gateways'], 'metric': 100, 'masquerade': True, 'enabled': True}]
        # the reverse proxy and the Agent Network by names, without a write-only value, the cluster's free domain left out
        assert exported['reverse_proxy_domains'] == [{'domain': 'apps.example.com', 'target_cluster': CLUSTER}]
        services = {service['name']: service for service in exported['reverse_proxy_services']}
        assert services['grafana']['targets'] == [{'target_id': 'web-1', 'target_type': 'peer', 'protocol': 'http', 'port': 3000, 'enabled': True}]
        assert services['grafana']['auth'] == {'password_auth': {'enabled': True}, 'bearer_auth': {'enabled': True, 'distribution_groups': ['developers']}}
        assert services['printer-ui']['targets'][0]['target_id'] == 'printer' and services['printer-ui']['access_groups'] == ['office']
        assert exported['agent_network_settings'] == {'proxy_address': 'eu.proxy.example.com', 'enable_log_collection': True,
                                                      'enable_prompt_collection': False, 'redact_pii': False, 'access_log_retention_days': 7}
        assert exported['agent_network_providers'] == [{
            'name': 'OpenAI', 'provider_id': 'openai_api', 'upstream_url': 'https://api.openai.com',
            'models': [{'id': 'gpt-5.4-mini', 'input_per_1k': 0.00075, 'output_per_1k': 0.0045}], 'extra_values': {},
            'identity_header_user_id': '', 'identity_header_groups': '', 'enabled': True, 'skip_tls_verification': False,
            'metadata_disabled': False}]
        # limits and checks as servers answer them (those never set too: off and zero)
        guardrail = network_description['agent_network_guardrails'][0]
        assert exported['agent_network_guardrails'] == [dict(guardrail, description='', checks=exported['agent_network_guardrails'][0]['checks'])]
        assert exported['agent_network_guardrails'][0]['checks']['model_allowlist'] == guardrail['checks']['model_allowlist']
        assert exported['agent_network_policies'] == [dict(network_description['agent_network_policies'][0], description='', enabled=True,
                                                           **{key: value for key, value in exported['agent_network_policies'][0].items()
                                                              if key == 'limits'})]
        budget = exported['agent_network_budget_rules'][0]
        assert budget['limits']['budget_limit'] == {'enabled': True, 'window_seconds': 2592000, 'group_cap_usd': 0, 'user_cap_usd': 50.0}
        assert budget['enabled'] is True and budget['target_users'] == ['automation']
        assert API_KEY not in str(exported) and PASSWORD not in str(exported)
    else:
        assert not set(exported) & {'networks', 'dns_zones', 'reverse_proxy_domains', 'reverse_proxy_services', 'agent_network_settings',
                                    'agent_network_providers', 'agent_network_policies'}

    # applied to the same server: nothing to do, no write
    emulator.clear_log()
    applied = run([state_task('apply', **exported)])
    assert applied.rc == 0, applied.text
    assert applied['apply']['changed'] is False, applied['apply']['changes']
    assert writes(emulator) == []
    # exported again: the same description
    assert gather(run)['gathered'] == exported

    # an empty server: what it can hold of the export (with the write-only values given again), then exported there,
    # the same
    emulator.reset()
    connect_proxy(emulator)
    fresh = without_peers(exported)
    restored = run([state_task('restore', **with_secrets(fresh))])
    assert restored.rc == 0, restored.text
    assert gather(run)['gathered'] == fresh


def test_names_that_are_not_unique_are_exported_by_id_with_a_warning(emulator, run):
    twins = [enroll(emulator, 'gw-1'), enroll(emulator, 'gw-1')]  # two hosts of the same name
    built = run([state_task('build', groups=[{'name': 'gateways', 'peers': twins}],
                            users=[{'name': 'bot', 'is_service_user': True, 'role': 'user'}])])
    assert built.rc == 0, built.text
    # a second service user of the same name (servers let service users share one)
    status, second = emulator.api('POST', '/api/users', {'name': 'bot', 'role': 'user', 'is_service_user': True, 'auto_groups': []})
    assert status == 200, second
    task = gather(run)
    bots = [user for user in task['gathered']['users'] if user['name'] == 'bot']
    assert sorted(user.get('id') for user in bots) == sorted(u['id'] for u in emulator.ok('GET', '/api/users') if u['name'] == 'bot')
    gateways = next(group for group in task['gathered']['groups'] if group['name'] == 'gateways')
    assert gateways['peers'] == sorted(twins)
    warnings = task.get('warnings', [])
    assert sum('described by id' in warning and 'its name does not identify it alone' in warning for warning in warnings) == 2, warnings
    assert sum("its name 'gw-1' is not unique" in warning for warning in warnings) == 2, warnings
    # applied back: the same objects, nothing written
    emulator.clear_log()
    applied = run([state_task('apply', **task['gathered'])])
    assert applied.rc == 0, applied.text
    assert applied['apply']['changed'] is False
    assert writes(emulator) == []


def test_gathered_refuses_a_description(emulator, run):
    result = run([state_task('export', state='gathered', groups=[{'name': 'a'}], prune=True)])
    assert result.rc != 0
    assert result['export']['msg'] == 'state=gathered reads the network and takes no description: remove option groups, option prune'
    assert writes(emulator) == []


class DescriptionLoader(yaml.SafeLoader):
    """Reads an export as Ansible does: a text tagged !unsafe is that text."""


DescriptionLoader.add_constructor('!unsafe', lambda loader, node: loader.construct_scalar(node))


def test_export_network_playbook_writes_the_description_once_the_same(emulator, run, tmp_path):
    build(emulator, run)
    # a text Ansible would render (set through the API: a task's options would be rendered)
    policy = next(p for p in emulator.ok('GET', '/api/policies') if p['name'] == 'office to servers')
    body = dict(policy, description='renders {{ nothing }} when loaded back')
    for rule in body['rules']:
        rule['sources'] = [group['id'] for group in rule['sources']]
        rule['destinations'] = [group['id'] for group in rule['destinations']]
    emulator.ok('PUT', '/api/policies/%s' % policy['id'], body)
    target = tmp_path / 'network.yml'
    for attempt in (1, 2):
        result = run([], playbook='nms.overlay.export_network', extra_vars={'nms_export_file': str(target)})
        assert result.rc == 0, result.text
        text = target.read_text()
        if attempt == 1:
            first = text
    assert text == first
    data = yaml.load(text, Loader=DescriptionLoader)  # nosec: the test's own file, SafeLoader with one tag more
    assert sorted(data) == ['network_description']
    assert emulator.token not in text
    assert [group['name'] for group in data['network_description']['groups']] == sorted(
        ['developers', 'office', 'office-gateways', 'servers'] + (['office-lan'] if emulator.dialect == 'current' else []))
    # a text Ansible would render is kept from it
    assert "description: !unsafe 'renders {{ nothing }} when loaded back'" in text
    emulator.clear_log()
    # the file applied as `-e @network.yml` applies it: the network role takes it as it is, nothing to write
    applied = run([], playbook='nms.overlay.build_network', extra_vars=target)
    assert applied.rc == 0, applied.text
    assert 'changed=0' in applied.stdout.split('PLAY RECAP')[-1]
    assert writes(emulator) == []
    # and the drift report finds no drift in it
    drift = run([], playbook='nms.overlay.drift_report', extra_vars=target)
    assert drift.rc == 0, drift.text
    assert writes(emulator) == []


def test_an_export_pins_every_field_it_writes(emulator, run):
    """Issue 44: a change made on the server to any field an export writes (a default such as a policy's enabled: true
    or a rule's action: accept, an empty list such as a group without peers, down into rules, nameservers, checks and
    targets) is drift, and applying the export undoes it (tests/integration/export_pins.py)."""
    build(emulator, run)
    exported = gather(run)['gathered']
    made, dummy_untouched = sweep(run, exported, lambda: gather(run)['gathered'])
    assert made >= (90 if emulator.dialect == 'current' else 40), made


# Names servers take, with what YAML, Ansible or a shell treat apart: YAML's other line breaks (NEL, the line and
# paragraph separators), carriage returns and tabs, spaces at either end, comment and mapping marks, quotes, texts
# YAML reads as other types, template marks, characters beyond the BMP and control characters (not NUL, which no task
# option may hold: a module process could not take it).
HOSTILE_NAMES = [
    'nel\x85here', 'nel at the end\x85', 'line\u2028separator', 'paragraph\u2029separator', 'carriage\rreturn',
    'crlf\r\nname', 'new\nline', 'tab\there', '\tleading tab', ' leading space', 'trailing space ', '# comment',
    'hash # inside', 'colon: inside', ':colon', '"double"', "'single'", 'back\\slash', 'yes', 'null', '~', '0x1F', '1e3',
    '- dash', '? question', '& anchor', '* alias', '! tag', '%percent', '@at', '`tick`', '|pipe', '>fold', '{{ templated }}',
    '{% block %}', 'emoji \U0001F680', 'math \U0001D49C', 'bell\x07', 'escape\x1b[0m', 'delete\x7f', 'c1\x9f', 'bom\ufeff',
    'nbsp\u00a0', 'zero\u200bwidth', 'wide \uff21', 'rtl \u202e', 'd\u00e9j\u00e0',
]


def test_every_name_survives_the_export(emulator, run, tmp_path):
    """Issue 44: an export applied back changes nothing whatever the characters of its names (a NEL in a group's name
    made a second group): groups, a policy (its rule and description too) and a setup key named so, through the
    export_network playbook's file and `-e @file`, as a user applies it."""
    groups = []
    for name in HOSTILE_NAMES:
        status, group = emulator.api('POST', '/api/groups', {'name': name, 'peers': []})
        assert status == 200, (name, group)
        groups.append(group['id'])
    status, policy = emulator.api('POST', '/api/policies', {
        'name': 'policy\x85' + HOSTILE_NAMES[-3], 'description': '\u2028'.join(HOSTILE_NAMES[:8]), 'enabled': True,
        'source_posture_checks': [], 'rules': [{
            'name': 'rule\x85\u2029', 'description': 'd\r', 'enabled': True, 'action': 'accept', 'bidirectional': True,
            'protocol': 'all', 'sources': groups[:2], 'destinations': groups[2:4]}]})
    assert status == 200, policy
    status, key = emulator.api('POST', '/api/setup-keys', {'name': 'key\x85 ', 'type': 'reusable', 'expires_in': 86400,
                                                           'auto_groups': groups[:1], 'usage_limit': 0, 'revoked': False})
    assert status == 200, key
    target = tmp_path / 'network.yml'
    exported = run([], playbook='nms.overlay.export_network', extra_vars={'nms_export_file': str(target)})
    assert exported.rc == 0, exported.text
    data = yaml.load(target.read_text(encoding='utf-8'), Loader=DescriptionLoader)  # nosec: the test's own file
    assert sorted(group['name'] for group in data['network_description']['groups']) == sorted(HOSTILE_NAMES)
    emulator.clear_log()
    applied = run([], playbook='nms.overlay.build_network', extra_vars=target)
    assert applied.rc == 0, applied.text
    assert 'changed=0' in applied.stdout.split('PLAY RECAP')[-1], applied.text
    assert writes(emulator) == []
    assert sorted(group['name'] for group in emulator.ok('GET', '/api/groups')) == sorted(HOSTILE_NAMES + ['All'])


def test_a_setup_key_keeps_its_lifetime(emulator, run):
    """Issue 44: a 7-day key is exported with its 7 days (servers answer its expiry date only), not as a key of the
    30 days a create gives by default, so the export applied elsewhere makes a key that lives as long."""
    built = run([state_task('build', groups=[{'name': 'servers'}], setup_keys=[
        {'name': 'week', 'type': 'reusable', 'expires_in': '7d', 'auto_groups': ['servers']},
        {'name': 'odd', 'type': 'one-off', 'expires_in': 90000}])])
    assert built.rc == 0, built.text
    exported = gather(run)['gathered']
    keys = {key['name']: key for key in exported['setup_keys']}
    assert keys['week']['expires_in'] == '7d' and keys['odd']['expires_in'] == 90000, keys
    emulator.clear_log()
    applied = run([state_task('apply', **exported)])
    assert applied.rc == 0 and applied['apply']['changed'] is False and writes(emulator) == [], applied.text
    assert not applied['apply'].get('warnings'), applied['apply'].get('warnings')
    emulator.reset()
    moved = run([state_task('move', **exported)])
    assert moved.rc == 0, moved.text
    lifetimes = {key['name']: lifetime_floor(key) for key in emulator.ok('GET', '/api/setup-keys')}
    assert abs(lifetimes['week'] - 7 * 86400) < 60 and abs(lifetimes['odd'] - 90000) < 60, lifetimes
    assert gather(run)['gathered']['setup_keys'] == exported['setup_keys']


def test_changes_by_hand_to_an_export_are_drift_and_undone(emulator, run, tmp_path):
    """Issue 44: after a policy is disabled by hand, a rule switched to drop and a peer added to a group that had none,
    the drift report of the exported file names each change, and applying the file undoes them (they were no drift
    when an export left defaults and empty lists out)."""
    build(emulator, run)
    target = tmp_path / 'network.yml'
    result = run([], playbook='nms.overlay.export_network', extra_vars={'nms_export_file': str(target)})
    assert result.rc == 0, result.text
    drift_of_changes_by_hand(run, emulator, target, tmp_path)
