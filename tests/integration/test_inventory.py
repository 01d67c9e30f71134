# -*- coding: utf-8 -*-
"""The nms.overlay.peers inventory plugin through ansible-inventory against the emulator's netbird dialect (the
plugin only reads the peers; the fields only v0.77 sends are tried against the current dialect, and the plugin
lists the peers of the real v0.27.6 and v0.77.1 in tests/integration/test_real_servers.py)."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys

import jinja2
import pytest
import yaml

from tests.support.emulator import make_group, make_peers

pytestmark = pytest.mark.dialects('netbird')

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(REPO_ROOT, 'examples', 'inventory', 'emulator.nms.yml')
ANSIBLE_INVENTORY = os.path.join(os.path.dirname(sys.executable), 'ansible-inventory')


def plain(value):
    """ansible-inventory marks values that are never templated as {"__ansible_unsafe": value}."""
    if isinstance(value, dict):
        if set(value) == {'__ansible_unsafe'}:
            return value['__ansible_unsafe']
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


class Inventory:
    def __init__(self, proc):
        self.rc = proc.returncode
        self.stdout = proc.stdout.decode('utf-8', errors='replace')
        self.stderr = proc.stderr.decode('utf-8', errors='replace')
        self.raw = json.loads(self.stdout) if self.rc == 0 and self.stdout.startswith('{') else None
        self.data = plain(self.raw)

    @property
    def output(self):
        return self.stdout + self.stderr

    @property
    def text(self):
        """The output with every run of white space one space: ansible-core wraps warnings."""
        return ' '.join(self.output.split())

    @property
    def hostvars(self):
        return self.data['_meta']['hostvars']

    def hosts_of(self, group):
        return sorted(self.data.get(group, {}).get('hosts', []))

    @property
    def groups(self):
        return sorted(name for name in self.data if name not in ('_meta', 'all', 'ungrouped'))


def ansible_env(tmp_path, collections_dir):
    """The environment of ansible-inventory: the collection from collections_dir, nothing of the caller's settings."""
    home = tmp_path / 'home'
    home.mkdir(exist_ok=True)
    run_env = {k: v for k, v in os.environ.items() if not k.startswith(('ANSIBLE_', 'NMS_')) and k != 'PYTHONPATH'}
    run_env.update({
        'HOME': str(home),
        'ANSIBLE_COLLECTIONS_PATH': collections_dir,
        'ANSIBLE_COLLECTIONS_SCAN_SYS_PATH': 'False',
        'ANSIBLE_NOCOLOR': '1',
        'ANSIBLE_LOCAL_TEMP': str(tmp_path / 'tmp'),
    })
    return run_env


def inventory(tmp_path, collections_dir, source, env=None, args=(), command=None):
    """Run ansible-inventory --list on source (a path, or a dict written to a .nms.yml file), or another
    command (a list, the inventory option added) with the same environment."""
    if isinstance(source, dict):
        path = tmp_path / ('inv%d.nms.yml' % len(list(tmp_path.glob('inv*.nms.yml'))))
        path.write_text(yaml.safe_dump(source), encoding='utf-8')
        source = str(path)
    run_env = ansible_env(tmp_path, collections_dir)
    for key, value in (env or {}).items():
        if value is None:
            run_env.pop(key, None)
        else:
            run_env[key] = value
    argv = (command or [ANSIBLE_INVENTORY, '--list']) + ['-i', source] + list(args)
    proc = subprocess.run(argv, cwd=str(tmp_path), env=run_env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300, check=False)
    return Inventory(proc)


def assert_stopped(inv):
    """The source stopped the run: rc 1, nothing listed, no traceback, whatever ansible-core's settings for
    sources it cannot parse (by default only a warning, and plays that match no host)."""
    assert inv.rc == 1 and inv.data is None, inv.output
    assert 'Traceback' not in inv.output and 'Failed to parse' not in inv.output, inv.output


def connection(emulator):
    return {'NMS_API_URL': emulator.url, 'NMS_API_TOKEN': emulator.token}


def peer(emulator, peer_id):
    status, body = emulator.api('GET', '/api/peers/%s' % peer_id)
    assert status == 200
    return body


def test_example_file_lists_peers_grouped_by_their_groups(emulator, tmp_path, collections_dir):
    peers = make_peers(emulator, 'web-1', 'web-2', 'db-1')
    make_group(emulator, 'web servers', [peers['web-1'], peers['web-2']])
    make_group(emulator, 'db-prod', [peers['db-1']])
    emulator.clear_log()
    inv = inventory(tmp_path, collections_dir, EXAMPLE, env=connection(emulator))
    assert inv.rc == 0, inv.output
    assert [r['method'] + ' ' + r['path'] for r in emulator.requests()] == ['GET /api/peers']
    labels = {name: peer(emulator, pid)['dns_label'] for name, pid in peers.items()}
    assert sorted(inv.hostvars) == sorted(labels.values())
    if emulator.dialect != 'seed':
        assert labels['web-1'] == 'web-1.netbird.selfhosted'
    # One Ansible group per peer group, names made safe.
    assert inv.hosts_of('web_servers') == sorted([labels['web-1'], labels['web-2']])
    assert inv.hosts_of('db_prod') == [labels['db-1']]
    assert inv.hosts_of('All') == sorted(labels.values())
    assert inv.hosts_of('state_connected') == sorted(labels.values())
    web = inv.hostvars[labels['web-1']]
    assert web['ansible_host'] == peer(emulator, peers['web-1'])['ip']
    assert web['nms_id'] == peers['web-1'] and web['nms_hostname'] == 'web-1' and web['nms_connected'] is True
    assert sorted(g['name'] for g in web['nms_groups']) == ['All', 'web servers']
    assert emulator.token not in inv.output


def test_options_filters_compose_and_keyed_groups(emulator, tmp_path, collections_dir):
    peers = make_peers(emulator, 'web-1', 'db-1')
    status, extra = emulator.control('POST', '/_emulator/peers', {'peers': [
        {'hostname': 'laptop', 'os': 'Windows 11', 'connected': False, 'connection_ip': '203.0.113.7'}]},
        expect_ok=False)
    assert status == 200, extra
    peers['laptop'] = extra[0]['id']
    make_group(emulator, 'servers', [peers['web-1'], peers['db-1']])
    make_group(emulator, 'db', [peers['db-1']])
    make_group(emulator, 'staff', [peers['laptop']])
    base = {'plugin': 'nms.overlay.peers', 'hostname_source': 'name', 'include_all_group': False}

    inv = inventory(tmp_path, collections_dir, dict(base, group_prefix='nms_', vars_prefix='peer_',
                                                    ansible_host_source='connection_ip',
                                                    compose={'ansible_user': "'admin'", 'is_windows': "'Windows' in peer_os"},
                                                    keyed_groups=[{'key': "peer_os | lower | regex_replace(' .*', '')",
                                                                   'prefix': 'os'}],
                                                    groups={'offline': 'not peer_connected'}),
                    env=connection(emulator))
    assert inv.rc == 0, inv.output
    assert sorted(inv.hostvars) == ['db-1', 'laptop', 'web-1']
    assert inv.groups == ['nms_db', 'nms_servers', 'nms_staff', 'offline', 'os_linux', 'os_windows']
    assert inv.hosts_of('nms_servers') == ['db-1', 'web-1']
    assert inv.hosts_of('offline') == ['laptop']
    assert inv.hosts_of('os_windows') == ['laptop']
    assert inv.hostvars['laptop']['ansible_host'] == '203.0.113.7'
    assert inv.hostvars['laptop']['ansible_user'] == 'admin' and inv.hostvars['laptop']['is_windows'] is True
    assert 'ansible_host' not in inv.hostvars['web-1']  # the server knows no connection address
    assert 'peer_os' in inv.hostvars['web-1'] and 'nms_os' not in inv.hostvars['web-1']

    only = inventory(tmp_path, collections_dir, dict(base, connected_only=True, include_groups=['servers', 'staff'],
                                                     exclude_groups=['db']), env=connection(emulator))
    assert only.rc == 0, only.output
    assert sorted(only.hostvars) == ['web-1']


def test_unknown_filter_group_fails_naming_it(emulator, tmp_path, collections_dir):
    peers = make_peers(emulator, 'web-1', 'db-1')
    make_group(emulator, 'servers', [peers['web-1'], peers['db-1']])
    db = make_group(emulator, 'db', [peers['db-1']])
    make_group(emulator, 'empty', [])
    base = {'plugin': 'nms.overlay.peers', 'hostname_source': 'name'}
    emulator.clear_log()
    typo = inventory(tmp_path, collections_dir, dict(base, include_groups=['nosuchgroup']), env=connection(emulator))
    assert typo.rc != 0 and typo.data is None, typo.output
    assert "nms.overlay.peers: include_groups: no group 'nosuchgroup' (by name or id) on the server" in typo.output
    assert_stopped(typo)
    assert [r['method'] + ' ' + r['path'] for r in emulator.requests()] == ['GET /api/peers', 'GET /api/groups']
    assert emulator.token not in typo.output

    excluded = inventory(tmp_path, collections_dir, dict(base, include_groups=['servers'], exclude_groups=['dbprod']),
                         env=connection(emulator))
    assert excluded.rc != 0 and excluded.data is None
    assert "exclude_groups: no group 'dbprod' (by name or id) on the server" in excluded.output

    # a group that exists but holds no peer is no typo: an empty inventory, read with one more request
    emulator.clear_log()
    empty = inventory(tmp_path, collections_dir, dict(base, include_groups=['empty']), env=connection(emulator))
    assert empty.rc == 0, empty.output
    assert empty.data['_meta']['hostvars'] == {}
    assert len(emulator.requests()) == 2
    # names found in the peers' groups need no more than the one request
    emulator.clear_log()
    known = inventory(tmp_path, collections_dir, dict(base, include_groups=['servers'], exclude_groups=[db['id']]),
                      env=connection(emulator))
    assert known.rc == 0, known.output
    assert sorted(known.hostvars) == ['web-1']
    assert [r['path'] for r in emulator.requests()] == ['/api/peers']


def test_peer_groups_with_the_same_ansible_name_warn(emulator, tmp_path, collections_dir):
    peers = make_peers(emulator, 'web-1', 'web-2')
    make_group(emulator, 'web-servers', [peers['web-1']])
    make_group(emulator, 'web servers', [peers['web-2']])
    make_group(emulator, 'web_servers', [peers['web-1'], peers['web-2']])
    inv = inventory(tmp_path, collections_dir, {'plugin': 'nms.overlay.peers', 'hostname_source': 'name'},
                    env=connection(emulator))
    assert inv.rc == 0, inv.output
    assert inv.hosts_of('web_servers') == ['web-1', 'web-2']
    text = ' '.join(inv.stderr.split())  # the warning may be wrapped
    warnings = [line for line in text.split('[WARNING]: ')[1:] if 'both become the Ansible group' in line]
    assert len(warnings) == 2, inv.stderr
    mentioned = ' '.join(warnings)
    for name in ("'web-servers'", "'web servers'", "'web_servers'"):
        assert name in mentioned, inv.stderr


def test_peer_fields_keeps_only_the_named_host_variables(emulator, tmp_path, collections_dir):
    peers = make_peers(emulator, 'web-1', 'db-1')
    make_group(emulator, 'servers', [peers['web-1'], peers['db-1']])
    inv = inventory(tmp_path, collections_dir, {
        'plugin': 'nms.overlay.peers', 'hostname_source': 'name', 'peer_fields': ['id', 'os', 'no_such_field'],
        'keyed_groups': [{'key': "nms_os | lower | regex_replace(' .*', '')", 'prefix': 'os'}]},
        env=connection(emulator))
    assert inv.rc == 0, inv.output
    web = inv.hostvars['web-1']
    assert sorted(web) == ['ansible_host', 'nms_id', 'nms_os']
    assert web['nms_id'] == peers['web-1'] and web['ansible_host'] == peer(emulator, peers['web-1'])['ip']
    # Groups still come from the peer's groups, and constructed groups see the fields that were kept.
    assert inv.hosts_of('servers') == ['db-1', 'web-1']
    assert inv.hosts_of('os_linux') == ['db-1', 'web-1']

    every = inventory(tmp_path, collections_dir, {'plugin': 'nms.overlay.peers', 'hostname_source': 'name'},
                      env=connection(emulator))
    assert every.rc == 0, every.output
    assert {'nms_id', 'nms_os', 'nms_groups', 'nms_connected', 'nms_hostname'} <= set(every.hostvars['web-1'])


@pytest.mark.dialects('netbird', 'current')  # what only v0.77 sends
def test_peer_fields_of_todays_servers_become_host_variables(emulator, tmp_path, collections_dir):
    """v0.77 peers carry fields v0.27 lacks (inactivity_expiration_enabled, created_at, ...): asked for, they become
    host variables there, and are left out on a v0.27 server, which does not send them."""
    user = emulator.add_user('dev@example.com', role='user')
    laptop = emulator.enroll('', 'laptop', user_id=user['id'])
    make_peers(emulator, 'web-1')
    inv = inventory(tmp_path, collections_dir, {
        'plugin': 'nms.overlay.peers', 'hostname_source': 'name',
        'peer_fields': ['id', 'inactivity_expiration_enabled', 'created_at', 'ephemeral'],
        'groups': {'inactivity_expires': 'nms_inactivity_expiration_enabled | default(false)'}},
        env=connection(emulator))
    assert inv.rc == 0, inv.output
    laptop_vars, web_vars = inv.hostvars['laptop'], inv.hostvars['web-1']
    if emulator.dialect != 'current':
        assert sorted(laptop_vars) == sorted(web_vars) == ['ansible_host', 'nms_id']
        assert inv.hosts_of('inactivity_expires') == []
        return
    # an SSO peer's inactivity expiration is on by default on v0.77; a setup-key peer has none
    assert laptop_vars['nms_inactivity_expiration_enabled'] is True and web_vars['nms_inactivity_expiration_enabled'] is False
    assert laptop_vars['nms_created_at'] == peer(emulator, laptop['id'])['created_at'] and laptop_vars['nms_ephemeral'] is False
    assert sorted(laptop_vars) == ['ansible_host', 'nms_created_at', 'nms_ephemeral', 'nms_id', 'nms_inactivity_expiration_enabled']
    assert inv.hosts_of('inactivity_expires') == ['laptop']


def test_duplicate_names_get_the_id_appended(emulator, tmp_path, collections_dir):
    first = make_peers(emulator, 'twin')['twin']
    second = make_peers(emulator, 'twin')['twin']
    inv = inventory(tmp_path, collections_dir, {'plugin': 'nms.overlay.peers', 'hostname_source': 'name'},
                    env=connection(emulator))
    assert inv.rc == 0, inv.output
    later = max(first, second)
    assert sorted(inv.hostvars) == sorted(['twin', 'twin_%s' % later])
    assert "several peers are called 'twin'" in inv.output


def test_cache_serves_a_second_run_without_a_request(emulator, tmp_path, collections_dir):
    make_peers(emulator, 'web-1')
    cache_dir = tmp_path / 'cache'
    source = {'plugin': 'nms.overlay.peers', 'hostname_source': 'name', 'cache': True,
              'cache_plugin': 'ansible.builtin.jsonfile', 'cache_connection': str(cache_dir), 'cache_timeout': 600}
    emulator.clear_log()
    first = inventory(tmp_path, collections_dir, source, env=connection(emulator))
    assert first.rc == 0, first.output
    assert sorted(first.hostvars) == ['web-1']
    assert len(emulator.requests()) == 1
    cached_files = list(cache_dir.iterdir())
    assert len(cached_files) == 1
    assert emulator.token not in cached_files[0].read_text(encoding='utf-8')

    make_peers(emulator, 'web-2')
    emulator.clear_log()
    second = inventory(tmp_path, collections_dir, str(tmp_path / 'inv0.nms.yml'), env=connection(emulator))
    assert second.rc == 0, second.output
    assert sorted(second.hostvars) == ['web-1']  # from the cache
    assert emulator.requests() == []

    # ansible-inventory has --flush-cache from ansible-core 2.19; ansible-playbook has it on every version
    source_file = str(tmp_path / 'inv0.nms.yml')
    if '--flush-cache' in inventory(tmp_path, collections_dir, 'localhost,', args=['--help']).output:
        fresh = inventory(tmp_path, collections_dir, source_file, env=connection(emulator), args=['--flush-cache'])
        assert fresh.rc == 0, fresh.output
        assert len(emulator.requests()) == 1
    else:
        play = tmp_path / 'noop.yml'
        play.write_text('- hosts: all\n  gather_facts: false\n  tasks: []\n', encoding='utf-8')
        playbook = os.path.join(os.path.dirname(sys.executable), 'ansible-playbook')
        flushed = inventory(tmp_path, collections_dir, source_file, env=connection(emulator),
                            command=[playbook, str(play)], args=['--flush-cache'])
        assert flushed.rc == 0, flushed.output
        assert len(emulator.requests()) == 1
        emulator.clear_log()
        fresh = inventory(tmp_path, collections_dir, source_file, env=connection(emulator))
        assert fresh.rc == 0, fresh.output
        assert emulator.requests() == []  # the cache the playbook run refreshed
    assert sorted(fresh.hostvars) == ['web-1', 'web-2']


def test_bad_token_fails_clearly_without_printing_it(emulator, tmp_path, collections_dir):
    wrong = 'nbp_' + 'x' * 36
    inv = inventory(tmp_path, collections_dir, EXAMPLE, env={'NMS_API_URL': emulator.url, 'NMS_API_TOKEN': wrong},
                    args=['-vvv'])
    assert inv.rc != 0
    assert inv.data is None
    assert 'nms.overlay.peers: cannot read the peers: GET %s/api/peers failed with HTTP 401' % emulator.url in inv.output
    assert 'check api_token' in inv.output
    assert_stopped(inv)
    assert wrong not in inv.output


def test_bad_url_and_missing_options_fail_clearly(emulator, tmp_path, collections_dir):
    inv = inventory(tmp_path, collections_dir, {'plugin': 'nms.overlay.peers', 'api_url': 'http://127.0.0.1:1',
                                                'retries': 0, 'timeout': 5},
                    env={'NMS_API_TOKEN': emulator.token})
    assert inv.rc != 0 and inv.data is None
    assert 'cannot read the peers: GET http://127.0.0.1:1/api/peers failed: connection failed' in inv.output
    assert emulator.token not in inv.output

    missing = inventory(tmp_path, collections_dir, {'plugin': 'nms.overlay.peers'}, env={'NMS_API_URL': emulator.url})
    assert missing.rc != 0 and missing.data is None
    assert 'nms.overlay.peers: option api_token: it is not set or empty (set api_token or the environment variable ' \
           'NMS_API_TOKEN)' in missing.output


def test_a_retry_is_a_warning(emulator, tmp_path, collections_dir):
    make_peers(emulator, 'web-1')
    emulator.set_faults({'queue': [{'status': 503}]})
    inv = inventory(tmp_path, collections_dir, {'plugin': 'nms.overlay.peers', 'retries': 1}, env=connection(emulator))
    assert inv.rc == 0, inv.output
    assert [host.split('.')[0] for host in inv.data['_meta']['hostvars']] == ['web-1']
    assert 'nms.overlay.peers: GET %s/api/peers failed with HTTP 503: ' % emulator.url in inv.text, inv.output
    assert 'trying again in 0.5 s (try 2 of 2, retries=1)' in inv.text, inv.output


def test_connection_written_in_the_inventory_file(emulator, tmp_path, collections_dir):
    make_peers(emulator, 'web-1')
    source = {'plugin': 'nms.overlay.peers', 'api_url': emulator.url + '/api', 'api_token': emulator.token,
              'hostname_source': 'name'}
    no_env = {'NMS_API_URL': None, 'NMS_API_TOKEN': None}
    inv = inventory(tmp_path, collections_dir, source, env=no_env)
    assert inv.rc == 0, inv.output
    assert sorted(inv.hostvars) == ['web-1']
    assert emulator.token not in inv.output
    verbose = inventory(tmp_path, collections_dir, source, env=no_env, args=['-vvvv', '--output', str(tmp_path / 'out.json')])
    assert verbose.rc == 0 and 'Parsed ' in verbose.output
    assert emulator.token not in verbose.output


def test_awx_inventory_source_with_the_credential_injectors(emulator, tmp_path, collections_dir):
    """What AWX does for an inventory update: the credential type's injectors set the environment,
    then ansible-inventory reads the project's source file."""
    awx = os.path.join(REPO_ROOT, 'awx')
    with open(os.path.join(awx, 'credential_type', 'inputs.yml'), encoding='utf-8') as stream:
        inputs = yaml.safe_load(stream)
    with open(os.path.join(awx, 'credential_type', 'injectors.yml'), encoding='utf-8') as stream:
        injectors = yaml.safe_load(stream)
    fields = {field['id']: field for field in inputs['fields']}
    assert fields['api_token'].get('secret') is True
    assert fields['ca_cert'].get('secret') is False and fields['ca_cert'].get('multiline') is True
    credential = {'api_url': emulator.url, 'api_token': emulator.token}  # no CA certificate: AWX leaves it out
    assert sorted(credential) == sorted(inputs['required']) == sorted(set(fields) - {'ca_cert'})
    env = {name: jinja2.Template(template).render(credential) for name, template in injectors['env'].items()}
    assert env == {'NMS_API_URL': emulator.url, 'NMS_API_TOKEN': emulator.token, 'NMS_API_CA_PATH': ''}

    peers = make_peers(emulator, 'web-1', 'db-1')
    make_group(emulator, 'web servers', [peers['web-1']])
    inv = inventory(tmp_path, collections_dir, os.path.join(awx, 'project', 'inventory', 'overlay.nms.yml'), env=env)
    assert inv.rc == 0, inv.output
    labels = {name: peer(emulator, pid)['dns_label'] for name, pid in peers.items()}
    assert sorted(inv.hostvars) == sorted(labels.values())
    assert inv.hosts_of('web_servers') == [labels['web-1']]
    assert inv.hosts_of('state_connected') == sorted(labels.values())
    assert inv.hostvars[labels['db-1']]['nms_id'] == peers['db-1']
    assert emulator.token not in inv.output


def test_playbook_uses_the_inventory(emulator, run):
    """A play targets a peer group through the inventory plugin; peer data is never templated."""
    peers = make_peers(emulator, 'web-1', 'web-2', 'db-1')
    status, evil = emulator.control('POST', '/_emulator/peers', {'peers': [
        {'hostname': 'evil', 'os': "{{ 7 * 6 }}"}]}, expect_ok=False)
    assert status == 200, evil
    make_group(emulator, 'servers', [peers['web-1'], peers['web-2'], evil[0]['id']])
    result = run([{'name': 'where', 'ansible.builtin.debug': {'msg': '{{ inventory_hostname }} {{ nms_os }}'}}],
                 hosts='servers', play={'connection': 'local'},
                 inventory={'peers.nms.yml': {'plugin': 'nms.overlay.peers', 'hostname_source': 'name'}})
    assert result.rc == 0, result
    messages = sorted(r['msg'] for r in result.all('where'))
    assert messages == ['evil {{ 7 * 6 }}', 'web-1 linux', 'web-2 linux']


def test_plugin_examples(emulator, tmp_path, collections_dir):
    """The EXAMPLES of the plugin work against the emulator (the second with the emulator's URL)."""
    with open(os.path.join(REPO_ROOT, 'plugins', 'inventory', 'peers.py'), encoding='utf-8') as handle:
        tree = ast.parse(handle.read())
    text = [node.value.value for node in tree.body if isinstance(node, ast.Assign)
            and any(getattr(t, 'id', None) == 'EXAMPLES' for t in node.targets)][0]
    every, servers = list(yaml.safe_load_all(text))
    assert servers.pop('api_url') == 'https://nms.example.com'
    servers['api_url'] = emulator.url
    peers = make_peers(emulator, 'web-1', 'db-1', 'laptop')
    make_group(emulator, 'servers', [peers['web-1'], peers['db-1']])
    emulator.api('PUT', '/api/peers/%s' % peers['web-1'],
                 {'name': 'web-1', 'ssh_enabled': True, 'login_expiration_enabled': False})
    first = inventory(tmp_path, collections_dir, every, env=connection(emulator))
    assert first.rc == 0, first.output
    assert len(first.hostvars) == 3 and first.hosts_of('servers') and first.hosts_of('All')
    second = inventory(tmp_path, collections_dir, servers, env={'NMS_API_TOKEN': emulator.token})
    assert second.rc == 0, second.output
    assert sorted(second.hostvars) == ['db-1', 'web-1']
    assert second.groups == ['nms_servers', 'os_linux', 'ssh_ready']
    assert second.hosts_of('ssh_ready') == ['web-1']
    assert second.hostvars['web-1']['ansible_user'] == 'admin'
    assert list((tmp_path / 'home' / '.cache' / 'nms-inventory').iterdir())


INSECURE_WARNING = 'nms.overlay.peers: validate_certs is false: the server certificate is not verified'


def test_validate_certs_false_warns(emulator, tmp_path, collections_dir):
    """Turning certificate verification off is never silent, also when the server speaks plain http."""
    make_peers(emulator, 'web-1')
    source = {'plugin': 'nms.overlay.peers', 'hostname_source': 'name'}
    verified = inventory(tmp_path, collections_dir, source, env=connection(emulator))
    assert verified.rc == 0, verified.output
    assert 'validate_certs' not in verified.output
    emulator.clear_log()
    insecure = inventory(tmp_path, collections_dir, dict(source, validate_certs=False), env=connection(emulator))
    assert insecure.rc == 0, insecure.output
    assert sorted(insecure.hostvars) == ['web-1']
    assert INSECURE_WARNING in ' '.join(insecure.stderr.split()), insecure.output
    assert [r['method'] + ' ' + r['path'] for r in emulator.requests()] == ['GET /api/peers']
    assert emulator.token not in insecure.output


def test_https_with_ca_path_or_validate_certs_false(tmp_path, collections_dir):
    """Against the emulator over HTTPS (certificate signed by a throw-away CA): without the CA the
    inventory fails on the certificate, with ca_path it reads the peers, and with validate_certs false
    it reads them too but warns."""
    from tests.emulator.tls import make_test_pki  # pylint: disable=import-outside-toplevel
    from tests.integration.conftest import running_emulator  # pylint: disable=import-outside-toplevel

    pki = make_test_pki(str(tmp_path / 'pki'))
    workdir = tmp_path / 'https-emulator'
    workdir.mkdir()
    with running_emulator('netbird', str(workdir),
                          extra_args=['--tls-cert', pki['server_cert'], '--tls-key', pki['server_key']]) as emu:
        assert emu.url.startswith('https://127.0.0.1:')
        source = {'plugin': 'nms.overlay.peers', 'retries': 0, 'timeout': 5}
        unknown = inventory(tmp_path, collections_dir, source, env=connection(emu))
        assert unknown.rc != 0 and unknown.data is None
        assert 'GET %s/api/peers failed: TLS error' % emu.url in unknown.output and 'certificate' in unknown.output, \
            unknown.output
        trusted = inventory(tmp_path, collections_dir, dict(source, ca_path=pki['ca_cert']), env=connection(emu))
        assert trusted.rc == 0, trusted.output
        assert 'validate_certs is false' not in trusted.output
        insecure = inventory(tmp_path, collections_dir, dict(source, validate_certs=False), env=connection(emu))
        assert insecure.rc == 0, insecure.output
        assert INSECURE_WARNING in ' '.join(insecure.stderr.split()), insecure.output
        assert 'InsecureRequestWarning' not in insecure.output
        for result in (unknown, trusted, insecure):
            assert emu.token not in result.output


# -- issue 18: a host is never a group; every error fails the source ---------------------------------------
def serve_peers_once(emulator, change):
    """The next GET /api/peers answers the current peers as ``change(peers)`` returns them (a server
    answer the emulator would not make by itself)."""
    status, peers = emulator.api('GET', '/api/peers')
    assert status == 200
    body = change(peers)
    emulator.set_faults({'queue': [{'method': 'GET', 'status': 200, 'content_type': 'application/json',
                                    'body': body if isinstance(body, str) else json.dumps(body)}]})
    emulator.clear_log()


def bare_labels(peers):
    """What a server with an empty DNS domain sends: the bare label, like the seed dialect."""
    for item in peers:
        item['dns_label'] = item['dns_label'].split('.', 1)[0]
    return peers


def warnings_of(inv):
    return [' '.join(line.split()) for line in inv.stderr.split('[WARNING]: ')[1:]]


@pytest.mark.parametrize('hostname_source', ['name', 'dns_label'])
def test_a_host_is_never_named_like_a_group(emulator, run, tmp_path, collections_dir, hostname_source):
    """A peer called like a group it is not in (web), and one called like its own group (db): both hosts
    get their id appended, and a play on a group runs on exactly its members."""
    peers = make_peers(emulator, 'web', 'app', 'db')
    make_group(emulator, 'web', [peers['app']])
    make_group(emulator, 'db', [peers['db']])
    source = {'plugin': 'nms.overlay.peers', 'hostname_source': hostname_source}
    if hostname_source == 'dns_label' and emulator.dialect != 'seed':
        serve_peers_once(emulator, bare_labels)  # else the labels are FQDNs, which no group is called
    inv = inventory(tmp_path, collections_dir, source, env=connection(emulator))
    assert inv.rc == 0, inv.output
    web, db = 'web_%s' % peers['web'], 'db_%s' % peers['db']
    assert sorted(inv.hostvars) == sorted(['app', db, web])
    assert inv.hosts_of('web') == ['app']
    assert inv.hosts_of('db') == [db]
    assert inv.hosts_of('All') == sorted(['app', db, web])
    assert inv.data['web'].get('children') is None and inv.data['All'].get('children') is None
    assert inv.hostvars[web]['nms_id'] == peers['web']
    for name, host in (('web', web), ('db', db)):
        assert ("nms.overlay.peers: the peer %s is called '%s' like the Ansible group '%s'; a host is never named "
                "like a group, so it is the host '%s'" % (peers[name], name, name, host)) in warnings_of(inv), inv.stderr

    if hostname_source == 'dns_label' and emulator.dialect != 'seed':
        serve_peers_once(emulator, bare_labels)
    result = run([{'name': 'where', 'ansible.builtin.debug': {'msg': '{{ inventory_hostname }}'}}],
                 hosts='web:db', play={'connection': 'local'}, inventory={'peers.nms.yml': source})
    assert result.rc == 0, result
    assert sorted(r['msg'] for r in result.all('where')) == sorted(['app', db])


def test_a_group_made_by_keyed_groups_with_a_host_name_fails(emulator, tmp_path, collections_dir):
    peers = make_peers(emulator, 'web', 'db')
    inv = inventory(tmp_path, collections_dir, {
        'plugin': 'nms.overlay.peers', 'hostname_source': 'name', 'leading_separator': False,
        'keyed_groups': [{'key': 'nms_hostname', 'prefix': ''}]}, env=connection(emulator))
    assert inv.rc != 0 and inv.data is None, inv.output
    text = ' '.join(inv.output.split())
    assert_stopped(inv)
    assert re.search(r"nms\.overlay\.peers: compose, groups or keyed_groups .*'(web|db)'", text), text
    assert any("the peer '%s' (id %s)" % (name, pid) in text for name, pid in peers.items()), text


def wrong(field, value):
    def change(peers):
        target = next(item for item in peers if item['hostname'] == 'db')
        target[field] = value
        return peers
    return change


def nested(depth):
    value = 'bottom'
    for dummy in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize('field, value, what', [
    ('groups', 3, 'groups is a number where a list of group objects was expected'),
    ('groups', [5], 'groups[0] is a number where a group object was expected'),
    ('name', 5, 'name is a number where a string was expected'),
    ('dns_label', [], 'dns_label is a list where a string was expected'),
    ('connected', 'yes', 'connected is a string where a boolean was expected'),
    ('os', nested(40), 'os is nested deeper than 16 levels'),
])
def test_wrong_typed_peer_fields_fail_naming_peer_and_field(emulator, tmp_path, collections_dir, field, value, what):
    peers = make_peers(emulator, 'web', 'db')
    serve_peers_once(emulator, wrong(field, value))
    inv = inventory(tmp_path, collections_dir, {'plugin': 'nms.overlay.peers'}, env=connection(emulator))
    assert inv.rc != 0 and inv.data is None, inv.output
    text = ' '.join(inv.output.split())
    # the client's check of the answer's types, or the plugin's of a peer, names the peer and the field
    assert 'nms.overlay.peers: cannot read the peers: GET %s/api/peers failed with HTTP 200: ' % emulator.url in text, text
    assert peers['db'] in text and field in text, text
    if field != 'name':
        assert "'db'" in text, text
    assert_stopped(inv)
    assert 'Traceback' not in text and 'TypeError' not in text and 'RecursionError' not in text
    assert [r['path'] for r in emulator.requests()] == ['/api/peers']


def test_json_nested_too_deeply_fails_the_source(emulator, run, tmp_path, collections_dir):
    make_peers(emulator, 'web', 'db')
    serve_peers_once(emulator, lambda peers: '[' * 50000 + ']' * 50000)
    inv = inventory(tmp_path, collections_dir, {'plugin': 'nms.overlay.peers'}, env=connection(emulator))
    assert inv.rc != 0 and inv.data is None, inv.output
    text = ' '.join(inv.output.split())
    assert ('nms.overlay.peers: cannot read the peers: GET %s/api/peers failed with HTTP 200: the answer is JSON '
            'nested too deeply to read' % emulator.url) in text, text
    assert_stopped(inv)

    # ansible-playbook stops too, before any play: plays never run on an inventory that lost its peers
    serve_peers_once(emulator, wrong('groups', 3))
    result = run([{'name': 'where', 'ansible.builtin.debug': {'msg': '{{ inventory_hostname }}'}}],
                 hosts='all', play={'connection': 'local'},
                 inventory={'peers.nms.yml': {'plugin': 'nms.overlay.peers'}})
    assert result.rc != 0, result
    assert result.results == []
    assert "(name 'db', id " in result.stdout and '.groups is a number where a list was expected' in result.stdout


def test_unknown_or_bad_options_in_the_file_fail_naming_them(emulator, tmp_path, collections_dir):
    make_peers(emulator, 'web')
    typo = inventory(tmp_path, collections_dir, {'plugin': 'nms.overlay.peers', 'hostname_sourc': 'name'},
                     env=connection(emulator))
    assert typo.rc != 0 and typo.data is None, typo.output
    text = ' '.join(typo.output.split())
    assert re.search(r'nms\.overlay\.peers: \S+inv0\.nms\.yml: unknown option hostname_sourc; the options are '
                     r'[a-z_, ]*\bhostname_source\b', typo.output), typo.output
    assert_stopped(typo)

    choice = inventory(tmp_path, collections_dir, {'plugin': 'nms.overlay.peers', 'hostname_source': 'nam'},
                       env=connection(emulator))
    assert choice.rc != 0 and choice.data is None, choice.output
    text = ' '.join(choice.output.split())
    # ansible-core's own words before ours: 'Invalid value "nam" for ...' up to 2.21, 'has an invalid value 'nam'' on 2.22
    assert 'invalid value' in text.lower() and 'nam' in text and 'hostname_source must be one of dns_label, name' in text, text
    assert_stopped(choice)


# -- issue 21: clean values, hostile peer names stay text ----------------------------------------------------
HOSTILE = "{{ lookup('pipe', 'id') }}"


def test_values_are_plain_and_hostile_names_stay_text(emulator, run, tmp_path, collections_dir):
    peers = make_peers(emulator, 'web-1')
    status, evil = emulator.control('POST', '/_emulator/peers', {'peers': [{'hostname': 'evil', 'name': HOSTILE}]},
                                    expect_ok=False)
    assert status == 200, evil
    make_group(emulator, 'servers', [peers['web-1'], evil[0]['id']])
    source = {'plugin': 'nms.overlay.peers', 'hostname_source': 'name'}
    inv = inventory(tmp_path, collections_dir, source, env=connection(emulator))
    assert inv.rc == 0, inv.output
    raw = inv.raw['_meta']['hostvars']
    assert sorted(raw) == sorted([HOSTILE, 'web-1'])
    assert inv.hosts_of('servers') == sorted([HOSTILE, 'web-1'])  # (before 2.19 the hostile name shows as unsafe)
    # Values that cannot be templates are plain strings (what AWX imports) ...
    web = raw['web-1']
    assert web['ansible_host'] == peer(emulator, peers['web-1'])['ip']
    assert web['nms_name'] == 'web-1' and web['nms_id'] == peers['web-1']
    assert web['nms_groups'] == plain(web['nms_groups'])
    assert '__ansible_unsafe' not in json.dumps(web)
    # ... the hostile name is marked unsafe, and never run
    assert raw[HOSTILE]['nms_name'] == {'__ansible_unsafe': HOSTILE}
    assert isinstance(raw[HOSTILE]['ansible_host'], str)
    assert 'uid=' not in inv.output

    result = run([{'name': 'where', 'ansible.builtin.debug': {
        'msg': '{{ inventory_hostname }}|{{ nms_name }}|{{ hostvars[inventory_hostname].nms_name }}|{{ ansible_host }}'}}],
        hosts='servers', play={'connection': 'local'}, inventory={'peers.nms.yml': source})
    assert result.rc == 0, result
    messages = sorted(r['msg'] for r in result.all('where'))
    evil_ip = peer(emulator, evil[0]['id'])['ip']
    web_ip = peer(emulator, peers['web-1'])['ip']
    assert messages == sorted(['%s|%s|%s|%s' % (HOSTILE, HOSTILE, HOSTILE, evil_ip), 'web-1|web-1|web-1|%s' % web_ip])
    assert 'uid=' not in result.stdout


def test_a_peer_that_never_connected_has_no_connection_ip(emulator, tmp_path, collections_dir):
    """Servers print the nil address of a peer that never connected as "<nil>" (Go's nil IP): no value, not text."""
    peers = make_peers(emulator, 'never')
    status, extra = emulator.control('POST', '/_emulator/peers', {'peers': [
        {'hostname': 'roaming', 'connection_ip': '203.0.113.7'}]}, expect_ok=False)
    assert status == 200, extra
    assert peer(emulator, peers['never'])['connection_ip'] == '<nil>'  # what v0.27.6 and v0.77.1 send
    inv = inventory(tmp_path, collections_dir, {'plugin': 'nms.overlay.peers', 'hostname_source': 'name'},
                    env=connection(emulator))
    assert inv.rc == 0, inv.output
    assert inv.hostvars['never']['nms_connection_ip'] is None, inv.hostvars['never']
    assert inv.hostvars['roaming']['nms_connection_ip'] == '203.0.113.7'
    assert '<nil>' not in inv.stdout


@pytest.mark.parametrize('prefix', ['', 'nms_'])
def test_a_peer_group_called_all_becomes_all_group_with_a_warning(emulator, tmp_path, collections_dir, prefix):
    """A peer group 'all' would be Ansible's own group of every host (its peers silently lost among all hosts), and
    'ungrouped' Ansible's group of hosts in no other group: they become all_group and ungrouped_group."""
    peers = make_peers(emulator, 'web-1', 'db-1', 'spare')
    make_group(emulator, 'all', [peers['web-1']])
    make_group(emulator, 'ungrouped', [peers['db-1']])
    source = {'plugin': 'nms.overlay.peers', 'hostname_source': 'name', 'include_all_group': False}
    if prefix:
        source['group_prefix'] = prefix
    inv = inventory(tmp_path, collections_dir, source, env=connection(emulator))
    assert inv.rc == 0, inv.output
    assert inv.groups == sorted([prefix + 'all_group', prefix + 'ungrouped_group']) if not prefix else \
        sorted([prefix + 'all', prefix + 'ungrouped']), inv.groups
    if not prefix:
        assert inv.hosts_of('all_group') == ['web-1'] and inv.hosts_of('ungrouped_group') == ['db-1']
        assert ("nms.overlay.peers: the peer group 'all' would be the Ansible group 'all', which is Ansible's own "
                "group (of every host, or of hosts in no other group); its peers are in the group 'all_group' "
                "instead") in inv.text, inv.text
        assert "the peer group 'ungrouped' would be the Ansible group 'ungrouped'" in inv.text, inv.text
        assert inv.hosts_of('ungrouped') == ['spare']  # Ansible's own: the peer in no Ansible group
    else:  # with a prefix the names are no longer Ansible's own: nothing to rename, nothing to warn about
        assert inv.hosts_of('nms_all') == ['web-1'] and "would be the Ansible group" not in inv.text


@pytest.mark.parametrize('name', ['peers.yml', 'overlay.yaml', 'inventory/production.yml'])
def test_any_yaml_file_naming_the_plugin_is_read(emulator, tmp_path, collections_dir, name):
    """Not only *.nms.yml: a .yml / .yaml file whose plugin key names nms.overlay.peers (handed over by ansible-core's
    auto plugin) is read; it used to give an empty inventory and rc 0."""
    make_peers(emulator, 'web-1')
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('# the overlay network\nplugin: nms.overlay.peers\nhostname_source: name\n', encoding='utf-8')
    emulator.clear_log()
    inv = inventory(tmp_path, collections_dir, str(path), env=connection(emulator))
    assert inv.rc == 0, inv.output
    assert sorted(inv.hostvars) == ['web-1'], inv.output
    assert [r['method'] + ' ' + r['path'] for r in emulator.requests()] == ['GET /api/peers']


def test_a_yaml_inventory_of_another_kind_is_left_to_ansible(emulator, tmp_path, collections_dir):
    """The plugin enabled on its own (enable_plugins) declines a plain YAML inventory (no plugin key naming it) rather
    than failing the run: verify_file reads the plugin key."""
    path = tmp_path / 'hosts.yml'
    path.write_text('all:\n  hosts:\n    plain-host: {}\n# plugin: nms.overlay.peers is not this file\n', encoding='utf-8')
    emulator.clear_log()
    inv = inventory(tmp_path, collections_dir, str(path), env=dict(
        connection(emulator), ANSIBLE_INVENTORY_ENABLED='nms.overlay.peers,yaml'))
    assert inv.rc == 0, inv.output
    assert inv.hosts_of('ungrouped') == ['plain-host'], inv.output
    assert 'nms.overlay.peers' not in inv.output, inv.output
    assert emulator.requests() == []


# -- issue 30: the plugin's speed ----------------------------------------------------------------------------
def unordered(listing):
    """A raw listing without the orders that may differ from run to run: of a group's hosts and of a peer's groups
    (servers send those in any order)."""
    result = {name: {key: sorted(value, key=json.dumps) if key in ('hosts', 'children') else value
                     for key, value in group.items()}
              for name, group in listing.items() if name != '_meta'}
    result['_meta'] = {host: dict(values, nms_groups=sorted(values.get('nms_groups', []), key=repr))
                       for host, values in listing['_meta']['hostvars'].items()}
    return result


def peers_sharing_texts(emulator):
    """Peers with texts in common (os, kernel, version, groups) and one with a hostile name."""
    peers = make_peers(emulator, 'web-1', 'web-2', 'db-1')
    status, evil = emulator.control('POST', '/_emulator/peers', {'peers': [{'hostname': 'evil', 'name': HOSTILE}]},
                                    expect_ok=False)
    assert status == 200, evil
    make_group(emulator, 'web servers', [peers['web-1'], peers['web-2'], evil[0]['id']])
    make_group(emulator, 'db', [peers['db-1']])
    return peers


def test_constructing_nothing_lists_what_the_fast_path_lists(emulator, tmp_path, collections_dir):
    """Without compose, groups and keyed_groups the plugin constructs nothing (at 25,000 hosts, reading every host's
    variables for it costs seconds), and it marks each distinct text once for all peers: the listing is the one the
    constructing path gives, value for value and mark for mark (unsafe or not)."""
    peers_sharing_texts(emulator)
    base = {'plugin': 'nms.overlay.peers', 'hostname_source': 'name'}
    fast = inventory(tmp_path, collections_dir, base, env=connection(emulator))
    constructing = inventory(tmp_path, collections_dir, dict(base, groups={'never': 'false'}), env=connection(emulator))
    assert fast.rc == 0 and constructing.rc == 0, fast.output + constructing.output
    assert len(fast.raw['_meta']['hostvars']) >= 4
    assert fast.raw['_meta']['hostvars'][HOSTILE]['nms_name'] == {'__ansible_unsafe': HOSTILE}
    assert unordered(fast.raw) == unordered(constructing.raw)


def test_the_speed_baseline_lists_what_the_plugin_lists(emulator, tmp_path, collections_dir, monkeypatch):
    """tests/bench/inventory.py times the plugin next to a static YAML file written from the plugin's listing (unsafe
    values kept unsafe), and stops when the file lists anything else, so that the baseline cannot drift."""
    from tests.bench import inventory as speed  # pylint: disable=import-outside-toplevel

    peers_sharing_texts(emulator)
    options = {'hostname_source': 'name', 'group_prefix': 'nms_'}
    listed = inventory(tmp_path, collections_dir, dict(options, plugin='nms.overlay.peers'), env=connection(emulator))
    assert listed.rc == 0, listed.output
    figures = speed.inventory_speed(emulator, str(tmp_path), ansible_env(tmp_path, collections_dir), repeats=1,
                                    options=options)
    assert figures['hosts'] == len(listed.hostvars)
    assert figures['plugin_seconds'] > 0 and figures['ratio'] == figures['plugin_seconds'] / figures['static_seconds']
    with open(tmp_path / 'speed-static.yml', encoding='utf-8') as handle:
        assert '!unsafe' in handle.read()

    faithful = speed.static_document

    def drifted(listing):
        document = faithful(listing)
        del document['all']['hosts']['web-1']['ansible_host']
        return document

    monkeypatch.setattr(speed, 'static_document', drifted)
    with pytest.raises(SystemExit, match="lists something else than the plugin .*hostvars of web-1"):
        speed.inventory_speed(emulator, str(tmp_path), ansible_env(tmp_path, collections_dir), repeats=1, options=options)
