# -*- coding: utf-8 -*-
"""Issue 46, item 11: network_state with state=rendered checks a description and renders the requests it would send
to an empty account, with no server and no token; through ansible-playbook (ansible-core 2.21 and, for one test, 2.16).
The emulator proves that nothing is sent, and that a real run on a new account sends exactly the rendered writes."""

from __future__ import annotations

import os
import re
import socket

import pytest
import yaml

from tests.support.emulator import make_group, make_peers, writes_of

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OLDEST_PYTHON = os.path.join(REPO_ROOT, '.venv-oldest', 'bin', 'python')
RELEASES = {'netbird': '0.27.6', 'current': '0.77.1'}
PLACEHOLDER = re.compile(r'\((new|existing) (group|policy|setup key|posture check|network|DNS zone) ([^)]*)\)')
LISTS = {'group': ('/api/groups', 'name'), 'policy': ('/api/policies', 'name'), 'setup key': ('/api/setup-keys', 'name'),
         'posture check': ('/api/posture-checks', 'name'), 'network': ('/api/networks', 'name'),
         'DNS zone': ('/api/dns/zones', 'domain')}

DESCRIPTION = dict(
    groups=[{'name': 'dev ☃', 'peers': ['laptop-1']}, {'name': 'servers'}],
    posture_checks=[{'name': 'recent', 'checks': {'nb_version_check': {'min_version': '0.25.0'}}}],
    policies=[{'name': 'dev to servers', 'source_posture_checks': ['recent'],
               'rules': [{'name': 'ssh', 'protocol': 'tcp', 'ports': ['22', '443'], 'bidirectional': False,
                          'sources': ['dev ☃'], 'destinations': ['servers']}]}],
    setup_keys=[{'name': 'servers', 'type': 'reusable', 'auto_groups': ['servers']}],
    dns_settings={'disabled_management_groups': ['servers']},
    group_memberships=[{'group': 'team', 'peers': ['laptop-1']}],
    default_policy='disable',
)


def rendered_task(name='render', **options):
    return {'name': name, 'register': 'out', 'nms.overlay.network_state': dict(DESCRIPTION, state='rendered', **options)}


def closed_port():
    """A local TCP port nothing listens on (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return sock.getsockname()[1]


def real_path(emulator, path):
    """A rendered path with its placeholders replaced by the ids the emulator gave (looked up by name)."""
    def the_id(match):
        dummy, what, name = match.groups()
        path, key = LISTS[what]
        status, items = emulator.api('GET', path)
        assert status == 200, items
        found = [item['id'] for item in items if item.get(key) == name]
        assert len(found) == 1, (what, name, items)
        return found[0]
    return PLACEHOLDER.sub(the_id, path)


def test_rendered_sends_nothing_and_a_run_on_a_new_account_sends_exactly_those_writes(emulator, run):
    """The task runs with NMS_API_URL and NMS_API_TOKEN pointing at the emulator: it makes no request at all. Then the
    description is applied to the emulator's new account, whose writes are the rendered ones, in the same order."""
    make_peers(emulator, 'laptop-1')
    make_group(emulator, 'team')
    emulator.clear_log()
    result = run([rendered_task(server_version=RELEASES[emulator.dialect])], diff=True, ansible=True)
    assert result.rc == 0, result.text
    assert emulator.requests() == []  # not even GET /api/instance/version
    out = result['render']
    assert out['changed'] is False and out['server_version'] == RELEASES[emulator.dialect]
    rendered = ['%s %s' % (request['method'], request['path']) for request in out['requests']]
    assert rendered == [
        'POST /api/groups', 'POST /api/groups', 'PUT /api/groups/(existing group team)', 'POST /api/posture-checks',
        'POST /api/policies', 'PUT /api/policies/(existing policy Default)', 'PUT /api/dns/settings',
        'POST /api/setup-keys']
    assert 'network_state: would send POST /api/groups (group dev ☃)' in result.text  # one line per request
    assert out['rendered'].startswith('POST /api/groups  # group dev ☃\n{\n  "name": "dev ☃",')
    assert out['requests'][4]['body']['rules'][0]['sources'] == ['(new group dev ☃)']
    assert out['requests'][0]['body']['peers'] == ['(existing peer laptop-1)']

    applied = run([{'name': 'apply', 'nms.overlay.network_state': DESCRIPTION}])
    assert applied.rc == 0, applied
    assert writes_of(emulator) == [real_path(emulator, line) for line in rendered]


def test_an_invalid_description_fails_with_the_message_of_a_run(emulator, run):
    bad = dict(groups=[{'name': 'servers'}],
               policies=[{'name': 'ssh', 'rules': [{'name': 'ssh', 'sources': ['nope'], 'destinations': ['servers']}]}])
    typo = dict(policies=[{'name': 'ssh', 'rules': [{'name': 'ssh', 'port': ['22']}]}])
    emulator.clear_log()
    result = run([{'name': 'ref', 'ignore_errors': True, 'nms.overlay.network_state': dict(bad, state='rendered')},
                  {'name': 'typo', 'ignore_errors': True, 'nms.overlay.network_state': dict(typo, state='rendered')},
                  {'name': 'ref run', 'ignore_errors': True, 'check_mode': True, 'nms.overlay.network_state': bad},
                  {'name': 'typo run', 'ignore_errors': True, 'check_mode': True, 'nms.overlay.network_state': typo}])
    assert result['ref']['msg'] == result['ref run']['msg']
    assert "policies[0] (ssh): rules[0].sources: no group with the id or name 'nope'" in result['ref']['msg']
    assert result['typo']['msg'] == result['typo run']['msg']
    assert 'policies[0].rules[0]: unknown option port (did you mean ports?)' in result['typo']['msg']
    assert emulator.writes() == []


@pytest.mark.parametrize('python', [None, OLDEST_PYTHON], ids=['ansible-core-newest', 'ansible-core-2.16'])
def test_no_server_and_no_token_as_a_module_process_and_in_the_controller(run, python):
    """No emulator: api_url at a closed port and a token that no server knows, given and not used; as a module process
    too (nms_overlay_in_process: false), and on the oldest ansible-core."""
    if python is not None and not os.path.exists(python):
        pytest.skip('the oldest venv is built by make oldest')
    url = 'http://127.0.0.1:%d' % closed_port()
    tasks = [rendered_task('controller', api_url=url, api_token='nbp_never_used_0123456789'),
             {'name': 'no connection options', 'nms.overlay.network_state': {'state': 'rendered', 'groups': [{'name': 'x'}]}},
             {'name': 'as a process', 'vars': {'nms_overlay_in_process': False},
              'nms.overlay.network_state': dict(DESCRIPTION, state='rendered', api_url=url, server_version='v0.27.6')},
             {'name': 'refused', 'ignore_errors': True,
              'nms.overlay.network_state': {'state': 'rendered', 'server_version': '0.27.6', 'networks': [{'name': 'lan'}]}}]
    result = run(tasks, ansible=True, python=python, env={'NMS_API_URL': None, 'NMS_API_TOKEN': None})
    assert result.rc == 0, result.text
    assert len(result['controller']['requests']) == 8
    # v0.27.6's shapes: the same writes here (no port range, no field of today's servers)
    assert result['as a process']['requests'] == result['controller']['requests']
    assert result['as a process']['server_version'] == '0.27.6'
    assert result['no connection options']['requests'] == [
        {'method': 'POST', 'path': '/api/groups', 'resource': 'group x', 'body': {'name': 'x', 'peers': []}}]
    assert 'does not have Networks, which came with NetBird v0.35.0' in result['refused']['msg']
    assert 'nbp_never_used' not in result.text


def test_the_documented_ci_play_writes_the_requests_file(run, tmp_path):
    """docs/rendered.md's play: the description from -e @network.yml (a key it lacks is omitted), the text to a file."""
    description = tmp_path / 'network.yml'
    description.write_text(yaml.safe_dump({'network_description': {
        'groups': [{'name': 'developers', 'peers': ['laptop-ana']}, {'name': 'servers'}],
        'policies': [{'name': 'developers to servers', 'rules': [{'name': 'ssh', 'protocol': 'tcp', 'ports': ['22'],
                                                                 'sources': ['developers'], 'destinations': ['servers']}]}],
        'default_policy': 'disable'}}), encoding='utf-8')
    out = tmp_path / 'rendered-requests.txt'
    options = {'state': 'rendered'}
    options.update({key: '{{ network_description.%s | default(omit) }}' % key
                    for key in ('groups', 'policies', 'setup_keys', 'default_policy')})
    result = run([{'name': 'Render', 'register': 'rendered', 'nms.overlay.network_state': options},
                  {'name': 'Keep', 'ansible.builtin.copy': {'content': '{{ rendered.rendered }}', 'dest': str(out), 'mode': '0644'}}],
                 extra_vars=description, env={'NMS_API_URL': None, 'NMS_API_TOKEN': None})
    assert result.rc == 0, result.text
    text = out.read_text(encoding='utf-8')
    assert text.startswith('POST /api/groups  # group developers\n{\n  "name": "developers",\n  "peers": [\n'
                           '    "(existing peer laptop-ana)"\n  ]\n}\n')
    assert [line for line in text.splitlines() if line.startswith(('POST', 'PUT', 'DELETE'))] == [
        'POST /api/groups  # group developers', 'POST /api/groups  # group servers',
        'POST /api/policies  # policy developers to servers',
        'PUT /api/policies/(existing policy Default)  # policy Default']


@pytest.mark.dialects('current')
def test_nested_entries_render_under_their_parents_placeholder_as_a_run_sends_them(emulator, run):
    """Networks with their resources and routers, a DNS zone with its records, on v0.77.1: the rendered paths under a
    parent the requests create are the paths a run on a new account writes, once the parent has its id."""
    make_peers(emulator, 'gw-1')
    emulator.clear_log()
    description = dict(
        groups=[{'name': 'office'}],
        networks=[{'name': 'lan', 'resources': [{'name': 'printer', 'address': '192.168.10.20/32', 'groups': ['office']}],
                   'routers': [{'peer': 'gw-1', 'metric': 100, 'masquerade': True}]}],
        dns_zones=[{'name': 'Office', 'domain': 'office.example.com', 'distribution_groups': ['office'],
                    'records': [{'name': 'printer.office.example.com', 'type': 'A', 'content': '192.168.10.20', 'ttl': 300}]}])
    result = run([{'name': 'render', 'nms.overlay.network_state': dict(description, state='rendered')}])
    assert result.rc == 0, result
    assert emulator.requests() == []
    rendered = ['%s %s' % (request['method'], request['path']) for request in result['render']['requests']]
    assert rendered == ['POST /api/groups', 'POST /api/networks', 'POST /api/networks/(new network lan)/resources',
                        'POST /api/networks/(new network lan)/routers', 'POST /api/dns/zones',
                        'POST /api/dns/zones/(new DNS zone office.example.com)/records']
    assert result['render']['requests'][3]['body']['peer'] == '(existing peer gw-1)'
    applied = run([{'name': 'apply', 'nms.overlay.network_state': description}])
    assert applied.rc == 0, applied
    assert writes_of(emulator) == [real_path(emulator, line) for line in rendered]


@pytest.mark.dialects('current')
def test_a_create_the_server_answers_otherwise_renders_the_put_a_run_sends_after_it(emulator, run):
    """Servers create a router enabled and a setup key unrevoked whatever the POST asks: a run then disables or revokes
    it with a PUT. The rendered requests have that PUT after the POST, a run on a new account sends exactly those
    writes, and check mode of such a create reports the object as the run leaves it."""
    gateway = make_peers(emulator, 'gw-1', 'gw-2')['gw-1']
    emulator.clear_log()
    description = dict(networks=[{'name': 'lan', 'routers': [{'peer': 'gw-1', 'enabled': False}]}],
                       setup_keys=[{'name': 'retired', 'type': 'reusable', 'revoked': True}])
    result = run([{'name': 'render', 'nms.overlay.network_state': dict(description, state='rendered')}])
    assert result.rc == 0, result
    assert emulator.requests() == []
    rendered = ['%s %s' % (request['method'], request['path']) for request in result['render']['requests']]
    router = '/api/networks/(new network lan)/routers/(new network router (existing peer gw-1))'
    assert rendered == ['POST /api/networks', 'POST /api/networks/(new network lan)/routers', 'PUT ' + router,
                        'POST /api/setup-keys', 'PUT /api/setup-keys/(new setup key retired)'], rendered
    applied = run([{'name': 'apply', 'nms.overlay.network_state': description}])
    assert applied.rc == 0, applied
    network_id = real_path(emulator, '(new network lan)')
    status, routers = emulator.api('GET', '/api/networks/%s/routers' % network_id)
    assert status == 200 and [(r['peer'], r['enabled']) for r in routers] == [(gateway, False)], routers
    expected = [real_path(emulator, line.replace('(new network router (existing peer gw-1))', routers[0]['id']))
                for line in rendered]
    assert writes_of(emulator) == expected
    status, keys = emulator.api('GET', '/api/setup-keys')
    assert [key['revoked'] for key in keys if key['name'] == 'retired'] == [True], keys

    # check mode of such a create reports the object as the run leaves it, and sends nothing
    emulator.clear_log()
    checked = run([{'name': 'router', 'check_mode': True,
                    'nms.overlay.network_router': {'network': 'lan', 'peer': 'gw-2', 'enabled': False}},
                   {'name': 'key', 'check_mode': True,
                    'nms.overlay.setup_key': {'name': 'retired-too', 'type': 'reusable', 'revoked': True}}])
    assert checked.rc == 0, checked
    assert writes_of(emulator) == []
    assert (checked['router']['changed'], checked['router']['network_router']['enabled']) == (True, False), checked
    assert (checked['key']['changed'], checked['key']['setup_key']['revoked']) == (True, True), checked
