# -*- coding: utf-8 -*-
"""nms.overlay.network_state, the network and enroll roles and the playbooks, in both dialects."""

from __future__ import annotations

import copy
import json
import os
import re
import stat
import subprocess
import sys

import pytest

from tests.support.emulator import writes_of as writes
from tests.support.modules import example_network

REPO = __file__.rsplit('/tests/', 1)[0]

DESCRIPTION = {
    'groups': [{'name': 'office'}, {'name': 'servers'}, {'name': 'developers'}],
    'posture_checks': [{'name': 'recent client', 'description': 'agent 0.28 or later',
                        'checks': {'nb_version_check': {'min_version': '0.28.0'}}}],
    'policies': [{
        'name': 'ssh', 'description': 'developers to servers', 'enabled': True,
        'source_posture_checks': ['recent client'],
        'rules': [{'name': 'ssh', 'action': 'accept', 'bidirectional': False, 'protocol': 'tcp', 'ports': ['22'],
                   'sources': ['developers'], 'destinations': ['servers']}],
    }],
    'routes': [{'network_id': 'office-lan', 'description': 'office LAN', 'network': '192.168.10.0/24',
                'peer_groups': ['office'], 'groups': ['developers'], 'metric': 100, 'masquerade': True,
                'enabled': True}],
    'nameserver_groups': [{'name': 'internal', 'description': 'internal zone', 'nameservers': [{'ip': '192.168.10.53'}],
                           'domains': ['corp.example.com'], 'search_domains_enabled': True,
                           'groups': ['office', 'developers'], 'enabled': True}],
    'dns_settings': {'disabled_management_groups': []},
    'setup_keys': [{'name': 'servers', 'type': 'reusable', 'expires_in': '30d', 'auto_groups': ['servers'],
                    'usage_limit': 0}],
    'users': [{'name': 'automation', 'is_service_user': True, 'role': 'admin'}],
    'account_settings': {'peer_login_expiration_enabled': True, 'peer_login_expiration': 86400},
}
LISTED_KINDS = ('/api/groups', '/api/posture-checks', '/api/policies', '/api/routes', '/api/dns/nameservers',
                '/api/dns/settings', '/api/setup-keys', '/api/users', '/api/accounts', '/api/peers')


def state_task(description, name='network', **extra):
    return {'name': name, 'nms.overlay.network_state': dict(copy.deepcopy(description), **extra)}


def names(emulator, path, key='name'):
    status, items = emulator.api('GET', path)
    assert status == 200, items
    return sorted(item[key] for item in items or [])


def stray_group_in_use(emulator):
    """A group the description does not name, which the server refuses to delete: a nameserver group uses it."""
    status, stray = emulator.api('POST', '/api/groups', {'name': 'stray'})
    assert status == 200
    status, ns = emulator.api('POST', '/api/dns/nameservers', {
        'name': 'stray-ns', 'description': '', 'nameservers': [{'ip': '9.9.9.9', 'ns_type': 'udp', 'port': 53}],
        'enabled': True, 'groups': [stray['id']], 'primary': True, 'domains': [], 'search_domains_enabled': False})
    assert status == 200, ns
    return stray, ns


def test_build_rerun_and_change(emulator, run):
    first = run([state_task(DESCRIPTION)])
    assert first.rc == 0, first
    result = first['network']
    assert result['changed'] is True
    created = sorted((c['kind'], c['name']) for c in result['changes'] if c['action'] == 'created')
    assert ('groups', 'developers') in created and ('policies', 'ssh') in created and ('routes', 'office-lan') in created
    assert names(emulator, '/api/groups') == ['All', 'developers', 'office', 'servers']
    # the created setup key's value comes back once, in its change entry
    key_changes = [c for c in result['changes'] if c['kind'] == 'setup_keys']
    assert key_changes and key_changes[0]['key']

    # the same description again: no write, and one list request per kind at most
    emulator.clear_log()
    again = run([state_task(DESCRIPTION)])
    assert again.rc == 0, again
    assert again['network']['changed'] is False, again['network']['changes']
    assert writes(emulator) == []
    paths = [r['path'] for r in emulator.requests()]
    assert len(paths) == len(set(paths)), paths  # nothing read twice
    assert set(paths) <= set(LISTED_KINDS), paths
    assert 'key' not in str(again['network']['changes'])

    # one port changes: exactly one write, to that policy
    changed = copy.deepcopy(DESCRIPTION)
    changed['policies'][0]['rules'][0]['ports'] = ['22', '2222']
    emulator.clear_log()
    update = run([state_task(changed)], diff=True)
    assert update['network']['changed'] is True
    assert [w.split('/')[2] for w in writes(emulator)] == ['policies']
    assert writes(emulator)[0].startswith('PUT ')
    assert [c['action'] for c in update['network']['changes']] == ['updated']
    assert update['network']['diff'][0]['before_header'] == 'policy ssh'

    # what the test built, one description with every item absent tears down
    down = run([state_task(teardown_of(changed))])
    assert down.rc == 0, down
    assert_torn_down(emulator)


def test_check_mode_is_a_preview_without_writes(emulator, run):
    emulator.clear_log()
    preview = run([state_task(DESCRIPTION)], check=True, diff=True)
    assert preview.rc == 0, preview
    assert preview['network']['changed'] is True
    assert writes(emulator) == []
    kinds = {c['kind'] for c in preview['network']['changes']}
    assert {'groups', 'policies', 'routes', 'nameserver_groups', 'setup_keys', 'users'} <= kinds
    # references to groups created in the same preview resolve to placeholders, not failures
    assert 'diff' in preview['network'] and len(preview['network']['diff']) == len(preview['network']['changes'])
    assert names(emulator, '/api/groups') == ['All']


def test_unknown_reference_stops_before_any_write(emulator, run):
    broken = copy.deepcopy(DESCRIPTION)
    broken['policies'][0]['rules'][0]['sources'] = ['developers', 'contractors']
    emulator.clear_log()
    result = run([state_task(broken)])
    assert result['network']['failed'] is True
    message = result['network']['msg']
    assert 'policies[0] (ssh)' in message and "'contractors'" in message, message
    assert 'nothing was changed' in message
    assert writes(emulator) == []


def test_invalid_item_names_the_option(emulator, run):
    broken = {'groups': [{'name': 'ok'}, {'name': 'x', 'colour': 'red'}], 'routes': [{'network_id': 'n', 'metric': 'high'}]}
    emulator.clear_log()
    result = run([state_task(broken)])
    message = result['network']['msg']
    assert result['network']['failed'] is True
    assert 'groups[1]' in message and 'colour' in message, message
    assert 'routes[0]' in message and 'metric' in message, message
    assert emulator.requests() == []


def test_prune_removes_only_described_kinds(emulator, run):
    assert run([state_task(DESCRIPTION)]).rc == 0
    stray, ns = stray_group_in_use(emulator)
    # while the nameserver group uses the stray group, pruning groups is refused before any write
    emulator.clear_log()
    blocked = run([state_task({'groups': DESCRIPTION['groups']}, prune=True)])
    assert blocked['network']['failed'] is True and blocked['network']['changed'] is False
    assert 'groups (stray)' in blocked['network']['msg'], blocked['network']['msg']
    assert 'stray-ns' in blocked['network']['msg'], blocked['network']['msg']
    assert writes(emulator) == []

    # only groups are described: the stray group goes (once the nameserver group that uses it no longer
    # does), the stray nameserver group is not touched, All stays
    status, dummy = emulator.api('PUT', '/api/dns/nameservers/' + ns['id'], dict(
        ns, groups=[g['id'] for g in emulator.api('GET', '/api/groups')[1] if g['name'] == 'office']))
    assert status == 200, dummy
    groups_only = {'groups': DESCRIPTION['groups']}
    emulator.clear_log()
    preview = run([state_task(groups_only, prune=True)], check=True)
    assert [(c['kind'], c['name'], c['action'], c['pruned']) for c in preview['network']['changes']] == [
        ('groups', 'stray', 'deleted', True)]
    assert writes(emulator) == []
    pruned = run([state_task(groups_only, prune=True)])
    assert pruned.rc == 0, pruned
    assert names(emulator, '/api/groups') == ['All', 'developers', 'office', 'servers']
    assert 'stray-ns' in names(emulator, '/api/dns/nameservers')
    again = run([state_task(groups_only, prune=True)])
    assert again['network']['changed'] is False


def test_prune_refuses_an_empty_description(emulator, run):
    emulator.clear_log()
    result = run([state_task({}, prune=True)])
    assert result['network']['failed'] is True
    assert 'empty' in result['network']['msg']
    assert emulator.requests() == []


def test_network_role_idempotent_and_checked(emulator, run):
    play = {'roles': [{'role': 'nms.overlay.network', 'vars': {'network_description': DESCRIPTION}}]}
    first = run([], play=play)
    assert first.rc == 0, first
    emulator.clear_log()
    second = run([], play=play)
    assert second.rc == 0, second
    assert writes(emulator) == []
    assert 'changed=0' in second.stdout.split('PLAY RECAP')[-1]

    refused = run([], play={'roles': [{'role': 'nms.overlay.network',
                                       'vars': {'network_description': {}, 'network_prune': True}}]})
    assert refused.rc != 0
    assert 'pruning would delete every resource' in refused.stdout

    down = run([], play={'roles': [{'role': 'nms.overlay.network', 'vars': {'network_description': teardown_of(DESCRIPTION)}}]})
    assert down.rc == 0, down
    assert_torn_down(emulator)


def created_key_values(emulator):
    """The whole values of the setup keys on the server, from the emulator's state (a v0.77 server shows only
    their first five characters in reads, and the collection must never keep such a masked value)."""
    return {key['name']: key['key'] for key in emulator.state()['setup_keys']}


def test_network_role_never_shows_a_created_key_and_keeps_it_in_a_private_file(emulator, run, tmp_path):
    """Issue 18, point 8: task results are printed with -v (this play runs at -vvvv) and kept by AWX; the role
    never shows a created setup key's value, and network_secrets_file keeps it, readable only by its owner."""
    secrets = tmp_path / 'secrets.json'
    secrets.write_text('{"setup_keys": {"older": {"id": "1", "key": "kept"}}}')
    role = {'role': 'nms.overlay.network', 'vars': {'network_description': DESCRIPTION,
                                                    'network_secrets_file': str(secrets)}}
    built = run([], play={'roles': [role]})
    assert built.rc == 0, built
    value = created_key_values(emulator)['servers']
    assert value and value not in built.stdout, 'the created setup key is shown in the output'
    assert stat.S_IMODE(os.stat(secrets).st_mode) == 0o600
    stored = json.loads(secrets.read_text())
    assert stored['setup_keys']['servers']['key'] == value and stored['setup_keys']['older']['key'] == 'kept'
    # without the file, the value is shown nowhere either, and the task says that it is lost
    emulator.reset()
    bare = run([], play={'roles': [{'role': 'nms.overlay.network', 'vars': {'network_description': DESCRIPTION}}]})
    assert bare.rc == 0, bare
    value = created_key_values(emulator)['servers']
    assert value not in bare.stdout
    assert 'no created_secrets_file was given: it is lost' in bare.text, bare
    down = run([state_task(teardown_of(DESCRIPTION))])
    assert down.rc == 0, down
    assert_torn_down(emulator)


def test_build_network_playbook(emulator, run):
    first = run([], playbook='nms.overlay.build_network')
    assert first.rc == 0, first
    assert created_key_values(emulator)['servers'] not in first.stdout  # -vvvv: the created key is not shown
    emulator.clear_log()
    preview = run([], playbook='nms.overlay.build_network', check=True)
    assert preview.rc == 0, preview
    assert writes(emulator) == []
    second = run([], playbook='nms.overlay.build_network')
    assert second.rc == 0, second
    assert 'changed=0' in second.stdout.split('PLAY RECAP')[-1], second
    assert writes(emulator) == []
    if emulator.dialect == 'current':  # the office LAN is a Network on a v0.77 server, a route on v0.27
        assert names(emulator, '/api/networks') == ['office'] and names(emulator, '/api/routes', key='network_id') == []
    else:
        assert 'office-lan' in names(emulator, '/api/routes', key='network_id')
    down = run([], playbook='nms.overlay.build_network', extra_vars={'nms_network_override': teardown_of(example_network(emulator.dialect))})
    assert down.rc == 0, down
    assert_torn_down(emulator)


ENROLL = 'nms.overlay.enroll : '  # recorded task names carry the role's name


def enroll_inventory(tmp_path, hosts, imitate='v0.77.1', **extra_vars):
    """Hosts whose agent is the fake agent imitating the ``imitate`` release's (its waits 1/20 of the real ones)."""
    variables = {
        'ansible_connection': 'local',
        'ansible_become': False,
        'ansible_python_interpreter': sys.executable,
        'enroll_install_agent': False,
        'enroll_agent_command': [sys.executable, '-m', 'tests.emulator.agent'],
        'enroll_agent_args': ['--state-dir', str(tmp_path / 'agents' / '{{ inventory_hostname }}'), '--imitate', imitate],
        'enroll_agent_environment': {'PYTHONPATH': REPO, 'NMS_FAKE_AGENT_TIME_SCALE': '0.05'},
    }
    variables.update(extra_vars)
    return {'hosts.yml': {'nms_enroll': {'hosts': {host: {} for host in hosts}, 'vars': variables}}}


def agent(tmp_path, host, *args):
    """What the fake agent of ``host`` prints for ``args`` (it must succeed)."""
    argv = [sys.executable, '-m', 'tests.emulator.agent'] + list(args[:1]) + [
        '--state-dir', str(tmp_path / 'agents' / host)] + list(args[1:])
    proc = subprocess.run(argv, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
    return proc.stdout.decode()


def agent_status(tmp_path, host, *args):
    """What the fake agent of ``host`` prints for ``status --json`` (JSON, or a v0.27 agent's text before it logs in)."""
    text = agent(tmp_path, host, 'status', '--json', *args)
    return json.loads(text) if text.startswith('{') else text


def peers_by_name(emulator):
    status, peers = emulator.api('GET', '/api/peers')
    assert status == 200, peers
    return {p['name']: p for p in peers}


def recap_changed(result):
    """Per host, the changed= count of the PLAY RECAP."""
    counts = {}
    for line in result.stdout.split('PLAY RECAP')[-1].splitlines():
        if ':' in line and 'changed=' in line:
            host = line.split(':', 1)[0].strip()
            counts[host] = int(line.split('changed=', 1)[1].split()[0])
    return counts


@pytest.mark.dialects('netbird')  # a join takes the same path on every server
def test_enroll_hosts(emulator, run, tmp_path):
    assert emulator.api('POST', '/api/groups', {'name': 'servers'})[0] == 200
    inventory = enroll_inventory(tmp_path, ['web-1', 'web-2', 'db-1'], enroll_groups=['servers'])
    first = run([], playbook='nms.overlay.enroll_hosts', inventory=inventory, verbosity=3)
    assert first.rc == 0, first
    status, peers = emulator.api('GET', '/api/peers')
    assert sorted(p['name'] for p in peers) == ['db-1', 'web-1', 'web-2']
    assert all('servers' in [g['name'] for g in p['groups']] for p in peers)
    status, keys = emulator.api('GET', '/api/setup-keys')
    assert len(keys) == 3 and all(k['type'] == 'one-off' and k['used_times'] == 1 for k in keys)
    # at -vvv, neither a key value (read from the emulator's internal state) nor the API token shows
    values = [k['key'] for k in emulator.state()['setup_keys']]
    assert len(values) == 3 and all(len(value) >= 16 for value in values)
    for value in values:
        assert value not in first.stdout
    assert emulator.token not in first.stdout
    # the agent reports what the real one does: the overlay address with its prefix length, no peer id
    document = agent_status(tmp_path, 'web-1')
    web = peers_by_name(emulator)['web-1']
    assert document['netbirdIp'] == web['ip'] + '/16'
    assert document['management']['connected'] is True and document['fqdn'].startswith('web-1.')
    assert 'peer_id' not in document and 'joined' not in document

    # a second run joins nobody and creates no key
    emulator.clear_log()
    second = run([], playbook='nms.overlay.enroll_hosts', inventory=inventory)
    assert second.rc == 0, second
    assert [w for w in writes(emulator) if 'setup-keys' in w] == []
    assert 'changed=0' in second.stdout.split('PLAY RECAP')[-1], second
    assert writes(emulator) == []


@pytest.mark.dialects('netbird')  # a join takes the same path on every server
def test_enroll_check_mode_writes_nothing(emulator, run, tmp_path):
    assert emulator.api('POST', '/api/groups', {'name': 'servers'})[0] == 200
    inventory = enroll_inventory(tmp_path, ['web-1', 'web-2'], enroll_groups=['servers'])
    # a v0.77 agent that has not logged in prints JSON without an address, a v0.27 one a text
    assert {k: v for k, v in agent_status(tmp_path, 'web-1').items() if k in ('daemonStatus', 'netbirdIp')} == {
        'daemonStatus': 'NeedsLogin', 'netbirdIp': ''}
    assert agent_status(tmp_path, 'web-1', '--imitate', 'v0.27.6').startswith('Daemon status: NeedsLogin\n')
    emulator.clear_log()
    preview = run([], playbook='nms.overlay.enroll_hosts', inventory=inventory, check=True)
    assert preview.rc == 0, preview
    assert writes(emulator) == []
    assert not (tmp_path / 'agents').exists() or not list((tmp_path / 'agents').rglob('state.json'))
    assert recap_changed(preview) == {'web-1': 1, 'web-2': 1}, preview
    assert [r.get('changed') for r in preview.all(ENROLL + 'Report that this host would join')] == [True, True]
    assert emulator.api('GET', '/api/peers')[1] == [] and emulator.api('GET', '/api/setup-keys')[1] == []
    # an agent that is not installed yet cannot answer: in check mode the host would join
    missing = enroll_inventory(tmp_path, ['web-3'], enroll_agent_command=[str(tmp_path / 'not-installed')])
    preview = run([], playbook='nms.overlay.enroll_hosts', inventory=missing, check=True)
    assert preview.rc == 0, preview
    assert recap_changed(preview) == {'web-3': 1}, preview
    assert writes(emulator) == []

    # joined hosts: the preview shows the name and group change; a deleted peer would join again (a v0.27 agent
    # that left before its peer was deleted still reports its address)
    inventory = enroll_inventory(tmp_path, ['web-1', 'web-2'], 'v0.27.6', enroll_groups=['servers'])
    assert run([], playbook='nms.overlay.enroll_hosts', inventory=inventory).rc == 0
    assert emulator.api('POST', '/api/groups', {'name': 'web'})[0] == 200
    gone = peers_by_name(emulator)['web-2']
    agent(tmp_path, 'web-2', 'down', '--imitate', 'v0.27.6')
    assert emulator.api('DELETE', '/api/peers/' + gone['id'])[0] == 200
    assert agent_status(tmp_path, 'web-2', '--imitate', 'v0.27.6')['netbirdIp'] == gone['ip'] + '/16'
    inventory = enroll_inventory(tmp_path, ['web-1', 'web-2'], 'v0.27.6', enroll_groups=['servers', 'web'])
    emulator.clear_log()
    preview = run([], playbook='nms.overlay.enroll_hosts', inventory=inventory, check=True, diff=True)
    assert preview.rc == 0, preview
    assert writes(emulator) == []
    assert recap_changed(preview) == {'web-1': 1, 'web-2': 1}, preview
    assert 'web' not in [g['name'] for g in peers_by_name(emulator)['web-1']['groups']]
    assert 'web-2' not in peers_by_name(emulator)
    assert ENROLL + 'Report that this host would join again' in preview
    # the missing peer is expected, not a failure: nothing red, nothing rescued
    assert 'fatal:' not in preview.stdout and 'rescued=1' not in preview.stdout, preview
    assert [r['failed'] for r in preview.all(ENROLL + "Set the peer's name and groups")] == [False, False]


@pytest.mark.dialects('netbird')  # a join takes the same path on every server
def test_enroll_rejoins_a_deleted_peer(emulator, run, tmp_path):
    assert emulator.api('POST', '/api/groups', {'name': 'servers'})[0] == 200
    inventory = enroll_inventory(tmp_path, ['web-1', 'web-2'], enroll_groups=['servers'])
    assert run([], playbook='nms.overlay.enroll_hosts', inventory=inventory).rc == 0
    before = peers_by_name(emulator)
    keys_before = {k['id'] for k in emulator.api('GET', '/api/setup-keys')[1]}
    assert len(keys_before) == 2
    # the peer is deleted (as offboarding does), while its agent still says it has joined
    assert emulator.api('DELETE', '/api/peers/' + before['web-1']['id'])[0] == 200
    assert isinstance(agent_status(tmp_path, 'web-1'), dict)

    again = run([], playbook='nms.overlay.enroll_hosts', inventory=inventory, verbosity=3)
    assert again.rc == 0, again
    # the missing peer is expected, not a failure: nothing red, nothing rescued
    assert 'fatal:' not in again.stdout and 'rescued=1' not in again.stdout, again
    after = peers_by_name(emulator)
    assert sorted(after) == ['web-1', 'web-2']
    assert after['web-1']['id'] != before['web-1']['id'] and after['web-2']['id'] == before['web-2']['id']
    assert 'servers' in [g['name'] for g in after['web-1']['groups']]
    assert agent_status(tmp_path, 'web-1')['netbirdIp'] == after['web-1']['ip'] + '/16'
    keys = emulator.api('GET', '/api/setup-keys')[1]
    new_keys = [k for k in keys if k['id'] not in keys_before]
    assert len(new_keys) == 1 and new_keys[0]['used_times'] == 1 and 'web-1' in new_keys[0]['name']
    assert all(value not in again.stdout for value in [k['key'] for k in emulator.state()['setup_keys']])
    assert recap_changed(again)['web-2'] == 0, again

    emulator.clear_log()
    third = run([], playbook='nms.overlay.enroll_hosts', inventory=inventory)
    assert third.rc == 0, third
    assert writes(emulator) == []
    assert recap_changed(third) == {'web-1': 0, 'web-2': 0}, third


@pytest.mark.dialects('netbird')  # a join takes the same path on every server
def test_enroll_with_a_shared_reusable_key(emulator, run, tmp_path):
    status, group = emulator.api('POST', '/api/groups', {'name': 'servers'})
    assert status == 200, group
    status, key = emulator.api('POST', '/api/setup-keys', {
        'name': 'shared', 'type': 'reusable', 'expires_in': 86400, 'auto_groups': [group['id']], 'usage_limit': 0})
    assert status == 200, key
    value = [k['key'] for k in emulator.state()['setup_keys'] if k['name'] == 'shared'][0]
    inventory = enroll_inventory(tmp_path, ['web-1', 'web-2', 'db-1'], enroll_groups=['servers'],
                                 enroll_setup_key=value)
    emulator.clear_log()
    result = run([], playbook='nms.overlay.enroll_hosts', inventory=inventory, verbosity=3)
    assert result.rc == 0, result
    assert [w for w in writes(emulator) if 'setup-keys' in w] == []
    keys = emulator.api('GET', '/api/setup-keys')[1]
    assert [(k['name'], k['used_times']) for k in keys] == [('shared', 3)]
    peers = peers_by_name(emulator)
    assert sorted(peers) == ['db-1', 'web-1', 'web-2']
    assert all('servers' in [g['name'] for g in p['groups']] for p in peers.values())
    assert value not in result.stdout and value.lower() not in result.stdout.lower()


def test_enroll_failed_join_revokes_the_key(emulator, run, tmp_path):
    # nothing listens on port 1 of 127.0.0.1: the agent retries for 31 s, as a v0.77.1 agent does, and the role ends
    # its `up` after enroll_join_timeout, then stops the agent's attempts (`down`)
    inventory = enroll_inventory(tmp_path, ['web-1'], enroll_management_url='http://127.0.0.1:1', enroll_join_timeout=2)
    inventory['hosts.yml']['nms_enroll']['vars']['enroll_agent_environment']['NMS_FAKE_AGENT_TIME_SCALE'] = '1'
    result = run([], playbook='nms.overlay.enroll_hosts', inventory=inventory, verbosity=3)
    assert result.rc != 0
    failed = result[ENROLL + 'Report the failed join']
    assert failed['failed'] is True
    assert 'web-1 could not join the network at http://127.0.0.1:1' in failed['msg'], failed['msg']
    assert 'the agent did not join within 2 s (enroll_join_timeout)' in failed['msg'], failed['msg']
    # the join's result is hidden (its arguments hold the key, which the agent reads from its standard input)
    assert 'censored' in result[ENROLL + 'Join the network'] and 'rc' not in result[ENROLL + 'Join the network']
    assert result[ENROLL + "Stop the agent's attempts to join"]['rc'] == 0
    # v0.77 deletes the key, v0.27 revokes it, and the message names the key and says which
    fate = r'\(the one-off setup key enroll-web-1-[0-9T]+ was %s\)' % ('deleted' if emulator.dialect == 'current' else 'revoked')
    assert re.search(fate, failed['msg']), failed['msg']
    keys = emulator.api('GET', '/api/setup-keys')[1]
    if emulator.dialect == 'current':
        assert names(emulator, '/api/networks') == [] and names(emulator, '/api/dns/zones') == []
        assert emulator.api('GET', '/api/networks/resources')[1] in ([], None)  # v0.77 deletes setup keys (state absent), v0.27 can only revoke them
        assert keys == []
        created = [w for w in emulator.writes() if w['method'] == 'POST' and w['path'] == '/api/setup-keys']
        assert len(created) == 1 and [w['method'] for w in emulator.writes()].count('DELETE') == 1
    else:
        assert len(keys) == 1 and keys[0]['revoked'] is True and keys[0]['used_times'] == 0
        value = emulator.state()['setup_keys'][0]['key']
        assert value not in result.stdout and value not in failed['msg']
    assert emulator.api('GET', '/api/peers')[1] == []
    # stopped (`down`), as the real agent then is: idle, no address
    status = agent_status(tmp_path, 'web-1')
    assert (status['daemonStatus'], status['netbirdIp']) == ('Idle', ''), status
    # no key file: the agent read the key from its standard input
    assert ENROLL + 'Make a file only the connecting user can read' not in result


def test_enroll_checks_the_given_key_before_the_agent_starts(emulator, run, tmp_path):
    """A used, revoked or unknown key in enroll_setup_key fails the host at once, naming the host and the key (by its
    value where the server sends values, v0.27; by its first 5 characters where it masks them, v0.77); an expired one
    too (the server's clock 2 days ahead). The fake agent waits as the real one would (scale 1): never reached."""
    def key(name, kind):
        status, made = emulator.api('POST', '/api/setup-keys', {'name': name, 'type': kind, 'expires_in': 86400,
                                                                'auto_groups': [], 'usage_limit': 0})
        assert status == 200, made
        return made['id'], [k['key'] for k in emulator.state()['setup_keys'] if k['id'] == made['id']][0]

    used_id, used = key('used', 'one-off')
    emulator.enroll(used, 'spent-1')
    revoked_id, revoked = key('revoked', 'reusable')
    revoke = {'name': 'revoked', 'auto_groups': [], 'revoked': True, 'type': 'reusable', 'expires_in': 86400,
              'usage_limit': 0}
    assert emulator.api('PUT', '/api/setup-keys/' + revoked_id, revoke)[0] == 200
    values = {'web-1': used, 'web-2': revoked, 'web-3': '0BAD0000-0000-4000-8000-000000000000'}
    inventory = enroll_inventory(tmp_path, sorted(values))
    inventory['hosts.yml']['nms_enroll']['vars']['enroll_agent_environment']['NMS_FAKE_AGENT_TIME_SCALE'] = '1'
    for host, value in values.items():
        inventory['hosts.yml']['nms_enroll']['hosts'][host] = {'enroll_setup_key': value}
    emulator.clear_log()
    result = run([], playbook='nms.overlay.enroll_hosts', inventory=inventory, verbosity=4)
    assert result.rc != 0
    assert [r['method'] + ' ' + r['path'] for r in emulator.requests()] == ['GET /api/setup-keys'] * 3
    assert ENROLL + 'Join the network' not in result
    messages = {r['host']: ' '.join(r['msg'].split()) for r in result.failed}
    if emulator.dialect == 'current':
        assert messages['web-1'] == ("web-1 did not join: the setup key given in enroll_setup_key cannot enroll a "
                                     "peer: every key that begins as it does is used up, revoked or expired ('used': "
                                     "overused); the agent was not started"), messages
        assert "('revoked': revoked)" in messages['web-2'], messages
    else:
        assert messages['web-1'] == ("web-1 did not join: the setup key given in enroll_setup_key, 'used' (id %s), "
                                     "cannot enroll a peer, its state is overused; the agent was not started"
                                     % used_id), messages
        assert "'revoked' (id %s), cannot enroll a peer, its state is revoked" % revoked_id in messages['web-2']
    assert messages['web-3'].startswith('web-3 did not join: the setup key given in enroll_setup_key is unknown to '
                                        'the server'), messages
    for value in values.values():
        assert value not in result.stdout
    assert emulator.writes() == [] and not (tmp_path / 'agents').exists()

    # an expired key: the server's clock 2 days ahead
    valid_id, valid = key('expiring', 'reusable')
    emulator.control('POST', '/_emulator/config', {'clock_offset': 2 * 86400})
    inventory['hosts.yml']['nms_enroll']['hosts'] = {'web-4': {'enroll_setup_key': valid}}
    result = run([], playbook='nms.overlay.enroll_hosts', inventory=inventory)
    assert result.rc != 0
    message = ' '.join(result.failed[0]['msg'].split())
    assert "('expiring': expired)" in message or "'expiring' (id %s), cannot enroll a peer, its state is expired" % (
        valid_id) in message, message


@pytest.mark.dialects('netbird')  # a join takes the same path on every server
def test_enroll_adds_an_extra_group(emulator, run, tmp_path):
    for name in ('servers', 'web', 'office'):
        assert emulator.api('POST', '/api/groups', {'name': name})[0] == 200
    inventory = enroll_inventory(tmp_path, ['web-1'], enroll_groups=['servers'])
    first = run([], playbook='nms.overlay.enroll_hosts', inventory=inventory)
    assert first.rc == 0, first
    peer = peers_by_name(emulator)['web-1']
    # someone else puts the peer in office: a membership the role must keep
    office = [g for g in emulator.api('GET', '/api/groups')[1] if g['name'] == 'office'][0]
    status, body = emulator.api('PUT', '/api/groups/' + office['id'], {'name': 'office', 'peers': [peer['id']]})
    assert status == 200, body

    inventory = enroll_inventory(tmp_path, ['web-1'], enroll_groups=['servers', 'web'])
    emulator.clear_log()
    more = run([], playbook='nms.overlay.enroll_hosts', inventory=inventory)
    assert more.rc == 0, more
    assert more[ENROLL + "Set the peer's name and groups"]['changed'] is True
    assert [w for w in writes(emulator) if 'setup-keys' in w] == []
    groups = sorted(g['name'] for g in peers_by_name(emulator)['web-1']['groups'])
    assert groups == ['All', 'office', 'servers', 'web']
    emulator.clear_log()
    again = run([], playbook='nms.overlay.enroll_hosts', inventory=inventory)
    assert again.rc == 0 and recap_changed(again) == {'web-1': 0}, again
    assert writes(emulator) == []

    # any other failure of the peer task still fails the host, with the module's message, and joins nobody again
    inventory = enroll_inventory(tmp_path, ['web-1'], enroll_groups=['nosuchgroup'])
    bad = run([], playbook='nms.overlay.enroll_hosts', inventory=inventory)
    assert bad.rc != 0, bad
    failed = bad[ENROLL + "Set the peer's name and groups"]
    assert failed['failed'] is True and 'nosuchgroup' in failed['msg'], failed['msg']
    assert ENROLL + 'Leave the network, the server no longer knows this peer' not in bad
    assert writes(emulator) == []


def test_audit_report(emulator, run, tmp_path):
    assert emulator.api('POST', '/api/groups', {'name': 'audited'})[0] == 200
    report = tmp_path / 'report.json'
    result = run([], playbook='nms.overlay.audit_report', extra_vars={'nms_audit_report': str(report)})
    assert result.rc == 0, result
    data = json.loads(report.read_text())
    assert data['count'] == len(data['events']) >= 1
    assert 'group.add' in [e['activity_code'] for e in data['events']]


def test_offboard_user(emulator, run):
    seeded = emulator.add_user('alice@example.com', role='admin', token=True)
    alice, alice_token = seeded['user'], seeded['token']
    # alice makes a setup key with her own token, and has a peer of her own; someone else's key stays
    status, hers = emulator.api('POST', '/api/setup-keys', {
        'name': 'alice-laptop', 'type': 'reusable', 'expires_in': 86400, 'auto_groups': [], 'usage_limit': 0,
        'revoked': False}, token=alice_token)
    assert status == 200, hers
    status, other = emulator.api('POST', '/api/setup-keys', {
        'name': 'servers', 'type': 'reusable', 'expires_in': 86400, 'auto_groups': [], 'usage_limit': 0,
        'revoked': False})
    assert status == 200, other
    laptop = emulator.enroll(other['key'], 'alice-laptop', user_id=alice['id'])
    server = emulator.enroll(other['key'], 'server-1')

    result = run([], playbook='nms.overlay.offboard_user', extra_vars={'nms_offboard_user': 'alice@example.com'})
    assert result.rc == 0, result
    users = {u['email']: u for u in emulator.api('GET', '/api/users')[1]}
    assert users['alice@example.com']['is_blocked'] is True
    keys = {k['name']: k for k in emulator.api('GET', '/api/setup-keys')[1]}
    if emulator.dialect == 'current':  # v0.77 deletes setup keys (state absent), v0.27 can only revoke them
        assert 'alice-laptop' not in keys and keys['servers']['revoked'] is False
    else:
        assert keys['alice-laptop']['revoked'] is True and keys['servers']['revoked'] is False
    peers = [p['id'] for p in emulator.api('GET', '/api/peers')[1]]
    assert laptop['id'] not in peers and server['id'] in peers

    emulator.clear_log()
    again = run([], playbook='nms.overlay.offboard_user', extra_vars={'nms_offboard_user': 'alice@example.com'})
    assert again.rc == 0, again
    assert 'changed=0' in again.stdout.split('PLAY RECAP')[-1], again
    assert writes(emulator) == []


def test_offboard_an_unknown_user_fails_before_any_write(emulator, run):
    emulator.add_user('alice@example.com', role='admin')
    status, robot = emulator.api('POST', '/api/users', {
        'name': 'robot', 'role': 'user', 'is_service_user': True, 'auto_groups': []})
    assert status == 200, robot
    emulator.clear_log()
    for name in ('alcie@example.com', 'no-such-robot'):
        result = run([], playbook='nms.overlay.offboard_user', extra_vars={'nms_offboard_user': name})
        assert result.rc != 0, result
        failed = result['Check that exactly one user is meant']
        assert failed['failed'] is True
        assert failed['msg'] == 'no user %s (by email or name); nothing was changed' % name, failed['msg']
        assert 'Block the user' not in result
    assert writes(emulator) == []

    # the email matches whatever its case, and a service user is found by its name
    mixed = run([], playbook='nms.overlay.offboard_user', extra_vars={'nms_offboard_user': 'Alice@Example.com'})
    assert mixed.rc == 0, mixed
    by_name = run([], playbook='nms.overlay.offboard_user', extra_vars={'nms_offboard_user': 'robot'})
    assert by_name.rc == 0, by_name
    users = {u['id']: u for u in emulator.api('GET', '/api/users')[1]}
    assert users[robot['id']]['is_blocked'] is True
    assert [u['is_blocked'] for u in users.values() if u['email'] == 'alice@example.com'] == [True]


def test_network_role_preview_and_prune(emulator, run):
    role = {'role': 'nms.overlay.network', 'vars': {'network_description': DESCRIPTION}}
    emulator.clear_log()
    preview = run([], play={'roles': [role]}, check=True, diff=True)
    assert preview.rc == 0, preview
    assert writes(emulator) == []
    assert 'group developers' in preview.stdout  # the diff header of a planned group
    assert run([], play={'roles': [role]}).rc == 0

    smaller = copy.deepcopy(DESCRIPTION)
    smaller['groups'] = [g for g in smaller['groups'] if g['name'] != 'office']
    smaller['routes'][0]['peer_groups'] = ['developers']
    smaller['nameserver_groups'][0]['groups'] = ['developers']
    pruned = run([], play={'roles': [{'role': 'nms.overlay.network',
                                      'vars': {'network_description': smaller, 'network_prune': True}}]})
    assert pruned.rc == 0, pruned
    assert names(emulator, '/api/groups') == ['All', 'developers', 'servers']
    # the seeded Default policy is not described, so pruning policies removes it
    assert names(emulator, '/api/policies') == ['ssh']
    down = run([], play={'roles': [{'role': 'nms.overlay.network', 'vars': {'network_description': teardown_of(smaller)}}]})
    assert down.rc == 0, down
    assert_torn_down(emulator, seeded_policies=())


# -- teardown: what a description built, one description with every item absent removes ---------------------
def teardown_of(description):
    """The description with every item state: absent (the settings, which are not things to delete, left out)."""
    return {kind: [dict(item, state='absent') for item in items] for kind, items in description.items()
            if isinstance(items, list)}


def assert_torn_down(emulator, seeded_policies=('Default',)):
    assert names(emulator, '/api/groups') == ['All']
    assert names(emulator, '/api/policies') == sorted(seeded_policies)
    assert names(emulator, '/api/routes', key='network_id') == []
    assert names(emulator, '/api/dns/nameservers') == []
    assert names(emulator, '/api/posture-checks') == []
    assert 'automation' not in [u['name'] for u in emulator.api('GET', '/api/users')[1]]
    keys = emulator.api('GET', '/api/setup-keys')[1]
    if emulator.dialect == 'current':
        assert names(emulator, '/api/networks') == [] and names(emulator, '/api/dns/zones') == []
        assert emulator.api('GET', '/api/networks/resources')[1] in ([], None)
        assert keys == [], keys  # a v0.77 server deletes setup keys
    else:
        # a v0.27 server cannot delete setup keys: each is revoked and lists no group (a group a key lists cannot go)
        assert keys and all(key['revoked'] and not key['auto_groups'] for key in keys), keys


def test_one_description_with_everything_absent_tears_the_network_down_and_again_changes_nothing(emulator, run):
    assert run([state_task(DESCRIPTION)]).rc == 0
    emulator.clear_log()
    down = run([state_task(teardown_of(DESCRIPTION))])
    assert down.rc == 0, down
    assert_torn_down(emulator)
    # in reverse dependency order: what uses a group goes before the group
    order = [w.split('/')[2] for w in writes(emulator)]
    assert order == ['users', 'setup-keys', 'dns', 'routes', 'policies', 'posture-checks', 'groups', 'groups', 'groups'], order
    actions = {(c['kind'], c['action']) for c in down['network']['changes']}
    key_action = 'deleted' if emulator.dialect == 'current' else 'revoked'  # only a v0.77 server deletes keys
    assert ('setup_keys', key_action) in actions and ('groups', 'deleted') in actions
    assert down['network']['summary']['setup_keys'][key_action] == 1
    emulator.clear_log()
    again = run([state_task(teardown_of(DESCRIPTION))])
    assert again.rc == 0, again
    assert again['network']['changed'] is False, again['network']['changes']
    assert writes(emulator) == []


def test_a_teardown_preview_writes_nothing_and_a_blocked_deletion_names_what_stays(emulator, run):
    assert run([state_task(DESCRIPTION)]).rc == 0
    emulator.clear_log()
    preview = run([state_task(teardown_of(DESCRIPTION))], check=True)
    assert preview.rc == 0, preview
    assert writes(emulator) == []
    # the route stays (not described): deleting its groups is refused before any write, naming the route
    partial = teardown_of(DESCRIPTION)
    del partial['routes']
    blocked = run([state_task(partial)])
    assert blocked['network']['failed'] is True, blocked
    assert "route 'office-lan'" in blocked['network']['msg'] and 'or describe it too' not in blocked['network']['msg']
    assert writes(emulator) == []


def test_the_network_role_with_prune_tears_the_network_down_in_one_run(emulator, run):
    assert run([], play={'roles': [{'role': 'nms.overlay.network', 'vars': {'network_description': DESCRIPTION}}]}).rc == 0
    role = {'role': 'nms.overlay.network', 'vars': {'network_description': teardown_of(DESCRIPTION), 'network_prune': True}}
    down = run([], play={'roles': [role]})
    assert down.rc == 0, down
    assert_torn_down(emulator, seeded_policies=())  # pruning policies removes the seeded Default policy too
    emulator.clear_log()
    again = run([], play={'roles': [role]})
    assert again.rc == 0 and 'changed=0' in again.stdout.split('PLAY RECAP')[-1], again
    assert writes(emulator) == []


def test_the_example_network_builds_settles_and_tears_down(emulator, run):
    assert run([], playbook='nms.overlay.build_network').rc == 0
    emulator.clear_log()
    second = run([], playbook='nms.overlay.build_network')
    assert 'changed=0' in second.stdout.split('PLAY RECAP')[-1], second
    assert writes(emulator) == []
    teardown = {'nms_network_override': teardown_of(example_network(emulator.dialect))}
    down = run([], playbook='nms.overlay.build_network', extra_vars=teardown)
    assert down.rc == 0, down
    assert_torn_down(emulator)
    emulator.clear_log()
    again = run([], playbook='nms.overlay.build_network', extra_vars=teardown)
    assert 'changed=0' in again.stdout.split('PLAY RECAP')[-1], again
    assert writes(emulator) == []
