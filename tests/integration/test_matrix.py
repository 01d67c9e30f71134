# -*- coding: utf-8 -*-
"""The support matrix: every module on every ansible-core version the collection claims.

In the whole suite this runs on the suite's own ansible-core. ``make matrix`` runs only this file,
once per other supported ansible-core and Python (``NMS_MATRIX_PYTHONS``: the interpreters of those
virtualenvs, each with its own ``ansible-playbook``): a play touching every module builds, a re-run is
``changed=0`` with no write, check mode sends no write, nothing crosses from one loop item to the
next, and server data is never templated, in the controller's worker and as a module process.

Every play here runs ``ansible-playbook``. As a module process: every module of v0.27 servers against ``netbird``,
and the modules of today's servers only against ``current``
(one play per module as a module process, the path a task on a remote host takes).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.support.modules import engine_of

PYTHONS = [path for path in os.environ.get('NMS_MATRIX_PYTHONS', sys.executable).split(os.pathsep) if path]


def version_of(python):
    code = 'import ansible, sys; print("ansible-core %s on Python %d.%d" % ((ansible.__version__,) + sys.version_info[:2]))'
    return subprocess.run([python, '-c', code], capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture(params=PYTHONS, ids=lambda python: version_of(python).replace(' ', '-'))
def python(request):
    return request.param


# One task per module, each naming what the one before made; every resource module, then every info module.
EVERY_MODULE = '''
- name: group
  nms.overlay.group: {name: smoke-servers, peers: [smoke-peer]}
- name: posture_check
  nms.overlay.posture_check: {name: smoke-client, checks: {nb_version_check: {min_version: 0.25.0}}}
- name: policy
  nms.overlay.policy:
    name: smoke-ssh
    source_posture_checks: [smoke-client]
    rules: [{name: ssh, protocol: tcp, ports: ["22"], sources: [smoke-servers], destinations: [smoke-servers]}]
- name: route
  nms.overlay.route: {network_id: smoke-lan, network: 10.99.0.0/24, peer: smoke-peer, groups: [smoke-servers]}
- name: nameserver_group
  nms.overlay.nameserver_group: {name: smoke-dns, nameservers: [{ip: 10.99.0.53}], primary: true, groups: [smoke-servers]}
- name: dns_settings
  nms.overlay.dns_settings: {disabled_management_groups: [smoke-servers]}
- name: setup_key
  nms.overlay.setup_key: {name: smoke-key, type: reusable, expires_in: 30d, auto_groups: [smoke-servers]}
- name: user
  nms.overlay.user: {name: smoke-bot, is_service_user: true, role: user}
- name: token
  nms.overlay.token: {user: smoke-bot, name: smoke-token, expires_in: 30}
- name: account_settings
  nms.overlay.account_settings: {peer_login_expiration_enabled: true, peer_login_expiration: 48h}
- name: peer
  nms.overlay.peer: {name: smoke-peer, ssh_enabled: true}
- name: network_state
  nms.overlay.network_state:
    groups: [{name: smoke-described}]
    policies:
      - name: smoke-described
        rules: [{name: web, protocol: tcp, ports: ["443"], sources: [smoke-described], destinations: [smoke-servers]}]
- {name: account_info, nms.overlay.account_info: {}}
- {name: dns_settings_info, nms.overlay.dns_settings_info: {}}
- {name: event_info, nms.overlay.event_info: {limit: 5}}
- {name: group_info, nms.overlay.group_info: {name: smoke-servers}}
- {name: location_info, nms.overlay.location_info: {}}
- {name: nameserver_group_info, nms.overlay.nameserver_group_info: {name: smoke-dns}}
- {name: peer_info, nms.overlay.peer_info: {name: smoke-peer}}
- {name: policy_info, nms.overlay.policy_info: {name: smoke-ssh}}
- {name: posture_check_info, nms.overlay.posture_check_info: {name: smoke-client}}
- {name: route_info, nms.overlay.route_info: {network_id: smoke-lan}}
- {name: setup_key_info, nms.overlay.setup_key_info: {name: smoke-key}}
- {name: token_info, nms.overlay.token_info: {user: smoke-bot}}
- {name: user_info, nms.overlay.user_info: {name: smoke-bot}}
'''

# modules of today's servers only are refused by the v0.27 dialects this play runs on: their own tests use the current one
MODULES = sorted(name[:-3] for name in os.listdir(os.path.join(os.path.dirname(__file__), '..', '..', 'plugins', 'modules'))
                 if name.endswith('.py') and name != '__init__.py' and not engine_of(name[:-3]).requires)


def enroll_peer(emulator):
    body = {'name': 'smoke-enroll', 'type': 'one-off', 'expires_in': 86400, 'auto_groups': []}
    status, key = emulator.api('POST', '/setup-keys', body)
    assert status == 200, key
    emulator.enroll(key['key'], 'smoke-peer', name='smoke-peer')
    emulator.clear_log()


# What this proves depends on ansible-core, not on the server (every module against both generations, in process:
# tests/scenarios): the modules of v0.27 against netbird, those of today's servers against current (below)
@pytest.mark.dialects('netbird')
@pytest.mark.parametrize('in_process', [True, False], ids=['in-process', 'as-process'])
def test_every_module_builds_settles_and_checks(emulator, run, python, in_process):
    names = [task['name'] for task in __import__('yaml').safe_load(EVERY_MODULE)]
    assert names == [task.split('.')[-1] for task in names] and sorted(names) == MODULES, 'a module is missing'
    enroll_peer(emulator)
    options = dict(python=python, verbosity=1, extra_vars={'nms_overlay_in_process': in_process})

    built = run(EVERY_MODULE, **options)
    assert built.rc == 0, built
    assert not built.failed, built
    assert {name for name in names if built[name]['changed']} == set(names[:12])
    assert emulator.writes(), 'the first build wrote nothing'

    emulator.clear_log()
    again = run(EVERY_MODULE, **options)
    assert again.rc == 0, again
    assert [name for name in names if again[name]['changed']] == []
    assert emulator.writes() == []

    emulator.clear_log()
    changed_tasks = EVERY_MODULE.replace('min_version: 0.25.0', 'min_version: 0.26.0').replace('"22"', '"2222"')
    checked = run(changed_tasks, check=True, diff=True, **options)
    assert checked.rc == 0, checked
    assert {name for name in names if checked[name]['changed']} == {'posture_check', 'policy'}
    assert emulator.writes() == []


# One task per module of today's servers only (the engine ``requires`` a feature v0.27 lacks): resource modules, then
# info modules. Two are actions rather than states: peer_job submits nothing again while the same job is pending
# (the agent is not connected, so it stays pending); user_password cannot tell whether the password is already the
# new one and the emulator's token user is unknown to its identity provider, so it runs in check mode only (one
# read, a change reported on every run). The cluster removal comes after the services and domains it serves.
TODAYS_MODULES = '''
- name: network
  nms.overlay.network: {name: today-office, description: The office LAN}
- name: network_resource
  nms.overlay.network_resource: {network: today-office, name: today-lan, address: 10.98.0.0/24}
- name: network_router
  nms.overlay.network_router: {network: today-office, peer: smoke-peer, metric: 100}
- name: dns_zone
  nms.overlay.dns_zone: {domain: today.example.com, name: Today, distribution_groups: [All]}
- name: dns_record
  nms.overlay.dns_record: {zone: today.example.com, name: db.today.example.com, type: A, content: 10.98.0.5, ttl: 300}
- name: identity_provider
  nms.overlay.identity_provider: {name: Today, type: oidc, issuer: "http://127.0.0.1:8080/oauth2", client_id: today, client_secret: s3cret-today}
- name: user_invite
  nms.overlay.user_invite: {email: today@example.com, name: Today, role: user}
- name: reverse_proxy_domain
  nms.overlay.reverse_proxy_domain: {domain: apps.example.com, target_cluster: proxy.emulator.test}
- name: reverse_proxy_service
  nms.overlay.reverse_proxy_service:
    name: today-grafana
    domain: grafana.proxy.emulator.test
    targets: [{target_id: today-agent, target_type: peer, protocol: http, port: 3000}]
    auth: {password_auth: {enabled: true, password: svc-password-today}}
- name: reverse_proxy_token
  nms.overlay.reverse_proxy_token: {name: today-proxies}
- name: agent_network_settings
  nms.overlay.agent_network_settings: {proxy_address: eu.proxy.example.com, access_log_retention_days: 7}
- name: agent_network_provider
  nms.overlay.agent_network_provider:
    name: OpenAI
    provider_id: openai_api
    upstream_url: https://api.openai.com
    api_key: sk-today-3c7d81a4e6f0
    models: [{id: gpt-5.4-mini, input_per_1k: 0.00075, output_per_1k: 0.0045}]
- name: agent_network_guardrail
  nms.overlay.agent_network_guardrail: {name: today-guardrail, checks: {model_allowlist: {enabled: true, models: [gpt-5.4-mini]}}}
- name: agent_network_policy
  nms.overlay.agent_network_policy:
    name: today-policy
    source_groups: [All]
    destination_provider_ids: [OpenAI]
    guardrail_ids: [today-guardrail]
    limits: {token_limit: {enabled: true, user_cap: 100000, window_seconds: 86400}}
- name: agent_network_budget_rule
  nms.overlay.agent_network_budget_rule:
    name: today-budget
    target_groups: [All]
    limits: {budget_limit: {enabled: true, user_cap_usd: 500, window_seconds: 2592000}}
- name: peer_job
  nms.overlay.peer_job: {peer: today-agent, anonymize: true}
- name: peer_temporary_access
  nms.overlay.peer_temporary_access: {peer: today-agent, name: today-laptop, wg_pub_key: "n0r3pL4c3h0ld3rK3yAAAAAAAAAAAAAAAAAAAAAAAAA=", rules: [tcp/22]}
- name: user_password
  nms.overlay.user_password: {old_password: correct-horse-today, password: Battery-Staple-today}
  check_mode: true
- name: reverse_proxy_cluster
  nms.overlay.reverse_proxy_cluster: {address: proxy.emulator.test}
- {name: network_info, nms.overlay.network_info: {name: today-office}}
- {name: network_resource_info, nms.overlay.network_resource_info: {network: today-office}}
- {name: network_router_info, nms.overlay.network_router_info: {network: today-office}}
- {name: dns_zone_info, nms.overlay.dns_zone_info: {domain: today.example.com}}
- {name: dns_record_info, nms.overlay.dns_record_info: {zone: today.example.com}}
- {name: identity_provider_info, nms.overlay.identity_provider_info: {name: Today}}
- {name: user_invite_info, nms.overlay.user_invite_info: {email: today@example.com}}
- {name: reverse_proxy_domain_info, nms.overlay.reverse_proxy_domain_info: {domain: apps.example.com}}
- {name: reverse_proxy_service_info, nms.overlay.reverse_proxy_service_info: {name: today-grafana}}
- {name: reverse_proxy_token_info, nms.overlay.reverse_proxy_token_info: {name: today-proxies}}
- {name: reverse_proxy_cluster_info, nms.overlay.reverse_proxy_cluster_info: {}}
- {name: agent_network_settings_info, nms.overlay.agent_network_settings_info: {}}
- {name: agent_network_provider_info, nms.overlay.agent_network_provider_info: {name: OpenAI}}
- {name: agent_network_catalog_info, nms.overlay.agent_network_catalog_info: {id: openai_api}}
- {name: agent_network_guardrail_info, nms.overlay.agent_network_guardrail_info: {name: today-guardrail}}
- {name: agent_network_policy_info, nms.overlay.agent_network_policy_info: {name: today-policy}}
- {name: agent_network_budget_rule_info, nms.overlay.agent_network_budget_rule_info: {name: today-budget}}
- {name: agent_network_report_info, nms.overlay.agent_network_report_info: {report: usage}}
- {name: peer_job_info, nms.overlay.peer_job_info: {peer: today-agent}}
- {name: instance, nms.overlay.instance: {}}
'''
TODAYS = sorted(name[:-3] for name in os.listdir(os.path.join(os.path.dirname(__file__), '..', '..', 'plugins', 'modules'))
                if name.endswith('.py') and name != '__init__.py' and engine_of(name[:-3]).requires)


def test_modules_of_todays_servers_build_settle_and_check_as_a_process(emulator, run, python):
    """The modules v0.27 servers refuse, each once as a module process against a v0.77.1 server (``current``)."""
    if emulator.dialect != 'current':
        pytest.skip("the modules of today's servers only: a v0.77.1 server (the current dialect)")
    names = [task['name'] for task in __import__('yaml').safe_load(TODAYS_MODULES)]
    assert sorted(names) == TODAYS, 'a module of today\'s servers is missing'
    enroll_peer(emulator)
    # an agent new enough for remote jobs, not connected: its job stays pending
    emulator.add_peers(peers=[{'hostname': 'today-agent', 'version': '0.70.0', 'connected': False}])
    # a connected NetBird proxy for the reverse proxy's services and domains (none by default, as on the real servers)
    emulator.control('POST', '/_emulator/config', {'proxy_clusters': ['proxy.emulator.test']})
    emulator.clear_log()
    options = dict(python=python, verbosity=3, extra_vars={'nms_overlay_in_process': False})

    built = run(TODAYS_MODULES, **options)
    assert built.rc == 0, built
    assert not built.failed, built
    for name in names:  # -vvv: the action plugin says where each module ran
        assert 'nms.overlay.%s runs as a module process: nms_overlay_in_process is false' % name in built.stdout, name
    assert {name for name in names if built[name]['changed']} == set(names[:19])
    assert emulator.writes(), 'the first build wrote nothing'
    assert [n['name'] for n in built['network_info']['networks']] == ['today-office']
    assert [r['address'] for r in built['network_resource_info']['network_resources']] == ['10.98.0.0/24']
    assert [r['metric'] for r in built['network_router_info']['network_routers']] == [100]
    assert [z['domain'] for z in built['dns_zone_info']['dns_zones']] == ['today.example.com']
    assert [(r['name'], r['content']) for r in built['dns_record_info']['dns_records']] == [
        ('db.today.example.com', '10.98.0.5')]
    assert [p['issuer'] for p in built['identity_provider_info']['identity_providers']] == ['http://127.0.0.1:8080/oauth2']
    assert [i['email'] for i in built['user_invite_info']['user_invites']] == ['today@example.com']
    assert built['instance']['instance']['setup_required'] is False
    assert [d['domain'] for d in built['reverse_proxy_domain_info']['reverse_proxy_domains']] == ['apps.example.com']
    assert [s['domain'] for s in built['reverse_proxy_service_info']['reverse_proxy_services']] == ['grafana.proxy.emulator.test']
    assert [t['revoked'] for t in built['reverse_proxy_token_info']['reverse_proxy_tokens']] == [False]
    assert built['reverse_proxy_cluster_info']['reverse_proxy_clusters'] == []  # removed by the task before
    assert built['agent_network_settings_info']['agent_network_settings']['access_log_retention_days'] == 7
    assert [p['upstream_url'] for p in built['agent_network_provider_info']['agent_network_providers']] == ['https://api.openai.com']
    assert [c['id'] for c in built['agent_network_catalog_info']['agent_network_catalog']] == ['openai_api']
    guardrail_ids = [g['id'] for g in built['agent_network_guardrail_info']['agent_network_guardrails']]
    assert [p['guardrail_ids'] for p in built['agent_network_policy_info']['agent_network_policies']] == [guardrail_ids]
    assert [r['name'] for r in built['agent_network_budget_rule_info']['agent_network_budget_rules']] == ['today-budget']
    assert built['agent_network_report_info']['agent_network_report'] == []
    assert [j['status'] for j in built['peer_job_info']['jobs']] == ['pending']

    emulator.clear_log()
    again = run(TODAYS_MODULES, **options)
    assert again.rc == 0, again
    assert [name for name in names if again[name]['changed']] == ['user_password']  # check mode: a change it cannot verify
    assert emulator.writes() == []
    assert [j['id'] for j in again['peer_job_info']['jobs']] == [j['id'] for j in built['peer_job_info']['jobs']]

    emulator.clear_log()
    changed_tasks = (TODAYS_MODULES.replace('metric: 100', 'metric: 200').replace('ttl: 300', 'ttl: 600')
                     .replace('access_log_retention_days: 7', 'access_log_retention_days: 14'))
    checked = run(changed_tasks, check=True, diff=True, **options)
    assert checked.rc == 0, checked
    expected = {'network_router', 'dns_record', 'agent_network_settings', 'user_password'}
    assert {name for name in names if checked[name]['changed']} == expected
    assert emulator.writes() == []


LOOP = '''
- name: items
  nms.overlay.group:
    name: "{{ item.name }}"
    validate_certs: "{{ item.verify }}"
  environment: "{{ item.env }}"
  loop:
    - {name: loop-first, verify: false, env: {NMS_API_URL: "{{ api_url }}"}}
    - {name: loop-second, verify: true, env: {}}
  register: looped
'''


@pytest.mark.dialects('netbird')  # loops are Ansible's part
@pytest.mark.parametrize('in_process', [True, False], ids=['in-process', 'as-process'])
def test_nothing_crosses_from_one_loop_item_to_the_next(emulator, run, python, in_process):
    """The first item has a warning and its own environment; the second has neither."""
    result = run(LOOP, python=python, verbosity=1, env={'NMS_API_URL': None},
                 extra_vars={'nms_overlay_in_process': in_process, 'api_url': emulator.url})
    first, second = result.all('items')[0]['results']
    assert first['changed'] is True
    # NMS_API_URL was only in the first item's environment
    assert result.rc == 2 and second['changed'] is False and 'api_url' in second['msg'], second
    # the item's warnings: in its recorded result (ansible-core 2.19 and 2.21) or in its line of output (earlier
    # versions hand the recorder results whose warnings the output callback has already taken)
    item_lines = {name: ' '.join(line for line in result.stdout.splitlines() if '(item=' in line and name in line)
                  for name in ('loop-first', 'loop-second')}
    # (ansible-core 2.20 shows it on a line of its own)
    assert WARNING in str(first.get('warnings')) + item_lines['loop-first'] + result.stdout
    assert WARNING not in str(second.get('warnings')) + item_lines['loop-second']


WARNING = 'validate_certs is false: the server certificate is not verified'
HOSTILE = "{{ lookup('pipe', 'echo TEMPLATED-$((6*7))') }}"
TEMPLATES = '''
- name: read
  nms.overlay.group_info: {}
  register: found
- name: keep
  ansible.builtin.set_fact:
    hostile_names: "{{ found.groups | map(attribute='name') | select('search', 'lookup') | list }}"
- name: show
  ansible.builtin.debug:
    msg: "{{ hostile_names[0] }}"
'''


@pytest.mark.dialects('netbird')  # templating is Ansible's part
@pytest.mark.parametrize('in_process', [True, False], ids=['in-process', 'as-process'])
def test_server_data_is_never_templated(emulator, run, python, in_process):
    status, body = emulator.api('POST', '/groups', {'name': HOSTILE})
    assert status == 200, body
    result = run(TEMPLATES, python=python, verbosity=1, extra_vars={'nms_overlay_in_process': in_process})
    assert result.rc == 0, result
    assert 'TEMPLATED-42' not in result.stdout
    assert HOSTILE in [group['name'] for group in result['read']['groups']]
    assert result['show']['msg'] == HOSTILE
