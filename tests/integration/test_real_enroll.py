# -*- coding: utf-8 -*-
"""Issue 42, 1, on the real v0.27.6 and v0.77.1 (tests/support/realserver.py; the real-server stage, ``make real``):
the ``enroll_hosts`` playbook enrols 4 hosts in parallel (forks), each a real NetBird agent
(tests/support/realagents.py) that joins with a one-off key of its own; each peer has its name and groups and is
connected; the used keys are removed (revoked with their auto groups cleared on v0.27.6, which cannot delete keys); a
re-run changes nothing and creates no key; a host whose peer was deleted joins again; a used, revoked or unknown key
given in enroll_setup_key fails within 30 s, naming the host and the key, and leaves no key behind; no key value is in
the output at -vvvv, on the host (the key file) or in the agent's own files."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import uuid

import pytest

from tests.emulator.agent import status_document as fake_status_document
from tests.integration.test_network import ENROLL, REPO, recap_changed
from tests.integration.test_real_servers import connection, started
from tests.support.realagents import Agents
from tests.support.realserver import RELEASES

pytestmark = pytest.mark.real

HOSTS = ['en-h1', 'en-h2', 'en-h3', 'en-h4']
GROUP = 'en-servers'


@pytest.fixture(scope='module', params=RELEASES)
def server(request):
    """A real server of its own per release: the tests join agents to it."""
    yield from started(request.param)


def inventory(server, hosts, **host_vars):
    """The hosts as real agents of ``server`` (each its own daemon), enrolled from this controller."""
    variables = {
        'ansible_connection': 'local',
        'ansible_become': False,
        'enroll_install_agent': False,
        'enroll_agent_command': Agents(server).command(),
        'enroll_management_url': server.upstream_url,
        'enroll_groups': [GROUP],
    }
    hosts = {host: host_vars.get(host, {}) for host in hosts}
    return {'hosts.yml': {'nms_enroll': {'hosts': hosts, 'vars': variables}}}


def enroll(run, server, hosts, verbosity=None, **host_vars):
    started_at = time.monotonic()
    result = run([], playbook='nms.overlay.enroll_hosts', inventory=inventory(server, hosts, **host_vars),
                 env=connection(server), verbosity=verbosity)
    return result, time.monotonic() - started_at


def created_keys(server):
    """The values and ids of the keys created since the log was cleared (the POST answers hold the values)."""
    return {r['answer']['key']: str(r['answer']['id']) for r in server.requests()
            if r['method'] == 'POST' and r['path'] == '/api/setup-keys' and r['status'] == 200}


def assert_nowhere(values, server, *texts):
    """No key value in the texts, nor in any file of the agents (their state, configuration and logs)."""
    assert values
    for value in values:
        for text in texts:
            assert value not in text and value.lower() not in text.lower()
    agents = os.path.join(server.directory, 'agents')
    for top, _dirs, files in os.walk(agents):
        for name in files:
            path = os.path.join(top, name)
            if name.endswith('.sock') or not os.path.isfile(path):
                continue
            with open(path, 'rb') as handle:
                content = handle.read()
            for value in values:
                assert value.encode() not in content, 'a setup key value is in the agent file %s' % path


def test_hosts_join_rerun_changes_nothing_and_a_deleted_peer_joins_again(server, run, record_property):
    server.ok('POST', '/api/groups', {'name': GROUP, 'peers': []})
    agents = Agents(server)
    server.clear_log()

    first, seconds = enroll(run, server, HOSTS, verbosity=4)
    assert first.rc == 0, first
    requests = server.requests()
    record_property('first_run_seconds', round(seconds, 1))
    record_property('requests_per_host', len(requests) / len(HOSTS))
    print('\n%s: first run of 4 hosts %.1f s, %d requests (%.1f a host): %s' % (
        server.release, seconds, len(requests), len(requests) / len(HOSTS),
        sorted(set('%s %s' % (r['method'], re.sub(r'/[^/]+$', '/{id}', r['path'])
                              if r['path'].count('/') > 2 else r['path']) for r in requests))))
    # each host its own one-off key, used once, then removed (v0.27.6: revoked, its auto groups cleared)
    keys = created_keys(server)
    assert len(keys) == len(HOSTS), keys
    left = {str(k['id']): k for k in server.ok('GET', '/api/setup-keys')}
    if server.release == 'v0.27.6':
        assert all(left[i]['revoked'] and left[i]['used_times'] == 1 and left[i]['auto_groups'] == []
                   for i in keys.values()), left
    else:
        assert not set(keys.values()) & set(left), left
    # each peer with its name and groups, connected, at the address its agent reports
    for host in HOSTS:
        peer = agents.peer(host)
        assert peer['name'] == host and GROUP in [g['name'] for g in peer['groups']], peer
        assert agents.status(host)['netbirdIp'].split('/')[0] == peer['ip']
    # no key value in the -vvvv output, the agents' files, or a key file left behind
    # the agents read their keys from their standard input: no key file, the joins' results hidden (no_log)
    joins = first.all(ENROLL + 'Join the network')
    assert len(joins) == len(HOSTS) and all('censored' in r for r in joins), joins
    assert ENROLL + 'Make a file only the connecting user can read' not in first
    assert 'ESTABLISH LOCAL CONNECTION' in first.stdout  # -vvvv indeed
    assert_nowhere(list(keys), server, first.stdout)

    # a re-run: changed=0, no key, no write
    server.clear_log()
    again, seconds = enroll(run, server, HOSTS)
    assert again.rc == 0, again
    record_property('rerun_seconds', round(seconds, 1))
    print('%s: re-run %.1f s, %d requests' % (server.release, seconds, len(server.requests())))
    assert recap_changed(again) == {host: 0 for host in HOSTS}, again
    assert server.writes() == []

    # a deleted peer (as offboarding does): that host joins again, the others stay as they are
    gone = agents.peer('en-h1')
    deleted = run([{'name': 'delete', 'nms.overlay.peer': {'id': gone['id'], 'state': 'absent'}}], env=connection(server))
    assert deleted['delete']['changed'] is True, deleted
    server.clear_log()
    rejoined, seconds = enroll(run, server, HOSTS)
    assert rejoined.rc == 0, rejoined
    print('%s: a deleted peer joins again in %.1f s' % (server.release, seconds))
    assert 'fatal:' not in rejoined.stdout and 'rescued=1' not in rejoined.stdout, rejoined
    changed = recap_changed(rejoined)
    assert changed['en-h1'] > 0 and all(changed[host] == 0 for host in HOSTS[1:]), rejoined
    peer = agents.peer('en-h1')
    assert peer['id'] != gone['id'] and peer['name'] == 'en-h1' and GROUP in [g['name'] for g in peer['groups']]
    assert len(created_keys(server)) == 1
    assert_nowhere(list(created_keys(server)), server, rejoined.stdout)


def test_a_bad_given_key_fails_fast_naming_the_host_and_the_key(server, run):
    agents = Agents(server)
    # a used one-off key (its host joined with it), a revoked one, one the server never made
    used = server.ok('POST', '/api/setup-keys', {'name': 'en-used', 'type': 'one-off', 'expires_in': 86400,
                                                 'auto_groups': [], 'usage_limit': 0})
    agents.up('en-spent', key=used['key'])
    revoked = server.ok('POST', '/api/setup-keys', {'name': 'en-revoked', 'type': 'reusable', 'expires_in': 86400,
                                                    'auto_groups': [], 'usage_limit': 0})
    server.ok('PUT', '/api/setup-keys/%s' % revoked['id'], {'name': 'en-revoked', 'auto_groups': [], 'revoked': True})
    unknown = str(uuid.uuid4()).upper()
    # v0.77.1 keeps only a hash of each key and shows its first 5 characters: a value that begins as a valid key
    # does cannot be told apart from it, and the agent's wait is bounded (enroll_join_timeout)
    valid = server.ok('POST', '/api/setup-keys', {'name': 'en-valid', 'type': 'reusable', 'expires_in': 86400,
                                                  'auto_groups': [], 'usage_limit': 0})
    lookalike = valid['key'][:5] + unknown[5:]
    given = {'en-b1': {'enroll_setup_key': used['key']}, 'en-b2': {'enroll_setup_key': revoked['key']},
             'en-b3': {'enroll_setup_key': unknown}, 'en-b4': {'enroll_setup_key': lookalike, 'enroll_join_timeout': 5}}
    server.clear_log()

    failed, seconds = enroll(run, server, sorted(given), verbosity=4, **given)
    print('\n%s: 4 bad keys fail in %.1f s' % (server.release, seconds))
    # every host fails before a v0.77.1 agent's own retries (2 minutes) would end, and on v0.27.6 no agent even starts
    # (joins == {} below); the run takes about 20 s on an idle machine, 60 s in make test's real stage beside another
    # stage (mostly ansible-playbook's own time): under 100 s, short of the agent's 2 minutes
    assert failed.rc != 0 and seconds < 100, (seconds, failed)
    joins = {r['host']: r for r in failed.all(ENROLL + 'Join the network')}
    assert [r['method'] for r in server.writes()] == []
    # a failed join's own result is hidden (no_log: its arguments hold the key); the host's failure then says why
    hidden = [(r['host'], r['task']) for r in failed.results if r['failed'] and 'censored' in r]
    assert hidden == [(host, ENROLL + 'Join the network') for host in sorted(joins)], hidden
    messages = {r['host']: ' '.join(r['msg'].split()) for r in failed.results if r['failed'] and 'censored' not in r}
    assert sorted(messages) == sorted(given), messages
    if server.release == 'v0.27.6':  # the server sends the values: each key is found by its value
        assert messages['en-b1'] == "en-b1 did not join: the setup key given in enroll_setup_key, 'en-used' (id %s), " \
            "cannot enroll a peer, its state is overused; the agent was not started" % used['id'], messages
        assert messages['en-b2'] == "en-b2 did not join: the setup key given in enroll_setup_key, 'en-revoked' " \
            "(id %s), cannot enroll a peer, its state is revoked; the agent was not started" % revoked['id'], messages
        assert messages['en-b4'].startswith('en-b4 did not join: the setup key given in enroll_setup_key is unknown')
        assert joins == {}, joins  # no agent was started
    else:  # by the first 5 characters the server shows
        assert messages['en-b1'] == "en-b1 did not join: the setup key given in enroll_setup_key cannot enroll a " \
            "peer: every key that begins as it does is used up, revoked or expired ('en-used': overused); the agent " \
            "was not started", messages
        assert "every key that begins as it does is used up, revoked or expired ('en-revoked': revoked)" in \
            messages['en-b2'], messages
        assert messages['en-b4'].startswith(
            'en-b4 could not join the network at %s: the agent did not join within 5 s (enroll_join_timeout)'
            % server.upstream_url) and messages['en-b4'].endswith(
            "(the setup key given in enroll_setup_key, 'en-valid')"), messages
        assert sorted(joins) == ['en-b4'] and joins['en-b4']['failed'], joins  # ended at 5 s (the message says so)
        assert not agents.status('en-b4')['netbirdIp']  # its attempts stopped (`down`)
    assert messages['en-b3'].startswith('en-b3 did not join: the setup key given in enroll_setup_key is unknown to '
                                        'the server'), messages
    peers = [p['hostname'] for p in server.ok('GET', '/api/peers')]
    assert not set(given) & set(peers), peers
    assert_nowhere([used['key'], revoked['key'], unknown, lookalike, valid['key']], server, failed.stdout)


def fake_agent(state_dir, release, *args):
    """The emulator's fake agent (tests/emulator/agent.py) imitating ``release``: (rc, stdout, stderr, seconds)."""
    started_at = time.monotonic()
    done = subprocess.run([sys.executable, '-m', 'tests.emulator.agent', args[0], '--state-dir', str(state_dir),
                           '--imitate', release] + list(args[1:]), cwd=REPO, capture_output=True, text=True,
                          check=False)
    return done.returncode, done.stdout, done.stderr, time.monotonic() - started_at


def real_agent(server, host, *args):
    started_at = time.monotonic()
    done = subprocess.run(Agents(server).command(host) + list(args), capture_output=True, text=True, check=False,
                          timeout=120)
    return done.returncode, done.stdout, done.stderr, time.monotonic() - started_at


def test_the_fake_agent_prints_what_the_real_one_does(server, tmp_path):
    """Item 6 of issue 42: the fake agent the emulator tests use says what the real agent of each release says, in
    about the time it takes: status before the login, a key that is no UUID, status once joined."""
    release = server.release
    # before the login: v0.27.6 prints a text (also with --json), v0.77.1 JSON without an address
    real = real_agent(server, 'en-fresh', 'status', '--json')
    fake = fake_agent(tmp_path / 'fresh', release, 'status', '--json')
    assert real[0] == fake[0] == 0, (real, fake)
    if release == 'v0.27.6':
        assert real[1] == fake[1] and real[1].startswith('Daemon status: NeedsLogin\n'), (real, fake)
    else:
        real_doc, fake_doc = json.loads(real[1]), json.loads(fake[1])
        assert sorted(real_doc) == sorted(fake_doc), (sorted(real_doc), sorted(fake_doc))
        assert [(d['daemonStatus'], d['netbirdIp'], d['management']) for d in (real_doc, fake_doc)] == [
            ('NeedsLogin', '', {'url': 'https://api.netbird.io:443', 'connected': False, 'error': ''})] * 2
    # a key that is no UUID: the same line, soon (no server is needed for the fake to refuse it)
    key_file = tmp_path / 'bad-key'
    key_file.write_text('not-a-key')
    up = ('up', '--management-url', server.upstream_url, '--setup-key-file', str(key_file), '--hostname', 'en-fresh')
    real = real_agent(server, 'en-fresh', *up)
    fake = fake_agent(tmp_path / 'fresh', release, *up)
    assert real[0] == fake[0] == 1 and real[2].splitlines()[-1] == fake[2].splitlines()[-1], (real, fake)
    assert 'invalid UUID length: 9' in fake[2] and abs(real[3] - fake[3]) < 5, (real[3], fake[3])
    # joined: the same fields, the address with its prefix length
    key = server.ok('POST', '/api/setup-keys', {'name': 'en-fresh', 'type': 'one-off', 'expires_in': 86400,
                                                'auto_groups': [], 'usage_limit': 0})['key']
    key_file.write_text(key)
    assert real_agent(server, 'en-fresh', *up)[:2] == (0, 'Connected\n')
    joined = json.loads(real_agent(server, 'en-fresh', 'status', '--json')[1])
    imitated = fake_status_document({'ip': '100.64.0.5', 'hostname': 'en-fresh', 'login': 'ok'}, release, 'Connected')
    assert sorted(joined) == sorted(imitated), (sorted(joined), sorted(imitated))
    assert re.match(r'^100\.64\.\d+\.\d+/16$', joined['netbirdIp']) and imitated['netbirdIp'] == '100.64.0.5/16'
    assert joined.get('daemonStatus') == imitated.get('daemonStatus')  # Connected, or none on v0.27.6
    assert joined['fqdn'] == imitated['fqdn'] == 'en-fresh.netbird.selfhosted'
    assert real_agent(server, 'en-fresh', *up)[:2] == (0, 'Already connected\n')
