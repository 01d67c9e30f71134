# -*- coding: utf-8 -*-
"""nms.overlay.group and group_info through ansible-playbook and real HTTP, in both dialects."""

from __future__ import annotations

import pytest

from tests.support.emulator import make_peers
from tests.support.modules import documentation, examples_of


def groups_named(emulator, name):
    status, groups = emulator.api('GET', '/api/groups')
    assert status == 200
    return [g for g in groups if g['name'] == name]


def member_ids(group):
    return sorted(p['id'] for p in group.get('peers') or [])


def test_create_rerun_update_delete(emulator, run):
    peers = make_peers(emulator, 'web-1', 'web-2', 'db-1')
    emulator.clear_log()
    task = {'name': 'servers', 'nms.overlay.group': {'name': 'servers', 'peers': ['web-1', 'db-1']}}
    first = run([task])
    assert first.rc == 0, first
    assert first['servers']['changed'] is True
    created = first['servers']['group']
    assert created['name'] == 'servers'
    assert sorted(p['name'] for p in created['peers']) == ['db-1', 'web-1']
    assert [w['method'] + ' ' + w['path'] for w in emulator.writes()] == ['POST /api/groups']
    assert member_ids(groups_named(emulator, 'servers')[0]) == sorted([peers['web-1'], peers['db-1']])

    # The same task again, with the names in another order and one given as an id: no change, no write.
    emulator.clear_log()
    again = run([{'name': 'servers', 'nms.overlay.group': {'name': 'servers', 'peers': [peers['db-1'], 'web-1']}}])
    assert again.rc == 0, again
    assert again['servers']['changed'] is False
    assert emulator.writes() == []
    # one list of groups: its All group names every peer, so the peers' names need no request of their own
    assert [r['method'] + ' ' + r['path'] for r in emulator.requests()] == ['GET /api/groups']

    # A task without peers never touches the members.
    emulator.clear_log()
    keep = run([{'name': 'keep', 'nms.overlay.group': {'name': 'servers'}}])
    assert keep['keep']['changed'] is False
    assert emulator.writes() == []
    assert len(emulator.requests()) == 1

    # Update, with --diff.
    emulator.clear_log()
    update = run([{'name': 'servers', 'nms.overlay.group': {'name': 'servers', 'peers': ['web-2']}}], diff=True)
    assert update['servers']['changed'] is True
    # the diff shows peers by name (the engine renders references by name)
    assert update['servers']['diff'] == {'before': {'peers': ['db-1', 'web-1']}, 'after': {'peers': ['web-2']}}
    assert [w['method'] for w in emulator.writes()] == ['PUT']
    assert member_ids(groups_named(emulator, 'servers')[0]) == [peers['web-2']]

    # Rename by id.
    group_id = created['id']
    rename = run([{'name': 'rename', 'nms.overlay.group': {'id': group_id, 'name': 'backend'}}])
    assert rename['rename']['changed'] is True
    assert rename['rename']['group']['name'] == 'backend'
    assert member_ids(rename['rename']['group']) == [peers['web-2']]

    # Delete, then delete again.
    emulator.clear_log()
    gone = run([
        {'name': 'delete', 'nms.overlay.group': {'name': 'backend', 'state': 'absent'}},
        {'name': 'delete again', 'nms.overlay.group': {'name': 'backend', 'state': 'absent'}},
    ])
    assert gone['delete']['changed'] is True
    assert gone['delete again']['changed'] is False
    assert [w['method'] + ' ' + w['path'] for w in emulator.writes()] == ['DELETE /api/groups/%s' % group_id]
    assert groups_named(emulator, 'backend') == []


def test_check_mode_sends_no_write_and_predicts(emulator, run):
    make_peers(emulator, 'web-1')
    emulator.api('POST', '/api/groups', {'name': 'existing', 'peers': []})
    emulator.clear_log()
    result = run([
        {'name': 'create', 'nms.overlay.group': {'name': 'new-group', 'peers': ['web-1']}},
        {'name': 'update', 'nms.overlay.group': {'name': 'existing', 'peers': ['web-1']}},
        {'name': 'delete', 'nms.overlay.group': {'name': 'existing', 'state': 'absent'}},
    ], check=True, diff=True)
    assert result.rc == 0, result
    assert [result[n]['changed'] for n in ('create', 'update', 'delete')] == [True, True, True]
    assert result['create']['diff']['before'] == {}
    assert result['create']['diff']['after']['name'] == 'new-group'
    assert result['delete']['diff']['after'] == {}
    assert emulator.writes() == []
    assert groups_named(emulator, 'new-group') == []


def test_unknown_peer_fails_before_any_write(emulator, run):
    make_peers(emulator, 'web-1')
    emulator.clear_log()
    result = run([{'name': 'bad', 'nms.overlay.group': {'name': 'g', 'peers': ['web-1', 'no-such-peer']}}])
    assert result.rc != 0
    assert result['bad']['failed'] is True
    assert result['bad']['msg'] == "peers: no peer with the id or name 'no-such-peer'"
    assert emulator.writes() == []


def test_ambiguous_names_fail_listing_ids(emulator, run):
    peers_first = make_peers(emulator, 'twin')
    peers_second = make_peers(emulator, 'twin')
    emulator.clear_log()
    result = run([{'name': 'bad', 'nms.overlay.group': {'name': 'g', 'peers': ['twin']}}])
    assert result['bad']['failed'] is True
    msg = result['bad']['msg']
    assert "the name 'twin' matches 2 peers" in msg
    assert peers_first['twin'] in msg and peers_second['twin'] in msg
    assert emulator.writes() == []

    # Two groups with one name (a rename on the server allows that): the group module refuses to guess.
    status, first = emulator.api('POST', '/api/groups', {'name': 'dup-a'})
    assert status == 200
    status, second = emulator.api('POST', '/api/groups', {'name': 'dup-b'})
    status, dummy = emulator.api('PUT', '/api/groups/%s' % second['id'], {'name': 'dup-a'})
    assert status == 200
    emulator.clear_log()
    result = run([{'name': 'dup', 'nms.overlay.group': {'name': 'dup-a', 'peers': []}}])
    assert result['dup']['failed'] is True
    assert "name 'dup-a' matches 2 groups" in result['dup']['msg']
    assert first['id'] in result['dup']['msg'] and second['id'] in result['dup']['msg']
    assert emulator.writes() == []


def test_all_group_cannot_be_changed_or_deleted(emulator, run):
    make_peers(emulator, 'web-1')
    emulator.clear_log()
    result = run([
        {'name': 'unchanged', 'nms.overlay.group': {'name': 'All'}},
        {'name': 'change', 'nms.overlay.group': {'name': 'All', 'peers': []}, 'ignore_errors': True},
        {'name': 'delete', 'nms.overlay.group': {'name': 'All', 'state': 'absent'}, 'ignore_errors': True},
    ])
    assert result['unchanged']['changed'] is False
    for name in ('change', 'delete'):
        assert result[name]['failed'] is True
        assert result[name]['msg'] == 'the All group holds every peer and cannot be changed or deleted'
    assert emulator.writes() == []


def test_a_503_is_retried_without_the_user_noticing(emulator, run):
    emulator.set_faults({'queue': [{'status': 503}, {'status': 429, 'retry_after': 1}]})
    result = run([{'name': 'create', 'nms.overlay.group': {'name': 'resilient', 'retries': 3}}])
    assert result.rc == 0, result
    assert result['create']['changed'] is True
    statuses = [(r['method'], r['status']) for r in emulator.requests()]
    assert statuses[:3] == [('GET', 503), ('GET', 429), ('GET', 200)]
    assert len(groups_named(emulator, 'resilient')) == 1


def test_a_create_answered_429_is_sent_again_only_after_a_read_shows_it_absent(emulator, run):
    emulator.set_faults({'queue': [{'status': 429, 'retry_after': 1, 'method': 'POST'}]})
    result = run([{'name': 'create', 'nms.overlay.group': {'name': 'throttled', 'retries': 3}}])
    assert result.rc == 0, result
    assert result['create']['changed'] is True
    calls = [(r['method'], r['path'], r['status']) for r in emulator.requests()]
    assert calls == [('GET', '/api/groups', 200), ('POST', '/api/groups', 429),
                     ('GET', '/api/groups', 200), ('POST', '/api/groups', 200)]
    assert len(groups_named(emulator, 'throttled')) == 1


def test_server_errors_are_shown_with_method_path_status_and_message(emulator, run):
    status, group = emulator.api('POST', '/api/groups', {'name': 'refused'})
    assert status == 200
    emulator.set_faults({'queue': [{'status': 400, 'method': 'DELETE', 'content_type': 'application/json',
                                    'body': '{"message": "the server refuses for its own reason", "code": 400}'}]})
    result = run([{'name': 'delete', 'nms.overlay.group': {'name': 'refused', 'state': 'absent'}}], verbosity=3,
                 ansible=True)  # the output is checked
    assert result['delete']['failed'] is True
    msg = result['delete']['msg']
    assert msg.startswith('DELETE %s/api/groups/%s failed with HTTP 400: the server refuses for its own reason'
                          % (emulator.url, group['id'])), msg
    assert result['delete']['status'] == 400 and result['delete']['method'] == 'DELETE'
    assert emulator.token not in result.stdout


def uses_of_a_group(emulator, how):
    """A group named 'in-use' and something that uses it (how); returns (group, the expected user text)."""
    peers = make_peers(emulator, 'web-1')
    status, group = emulator.api('POST', '/api/groups', {'name': 'in-use'})
    assert status == 200, group
    status, other = emulator.api('POST', '/api/groups', {'name': 'other'})
    assert status == 200, other
    gid = group['id']
    if how in ('route groups', 'route peer_groups'):
        body = {'network_id': 'lan', 'description': '', 'network': '10.9.0.0/16', 'metric': 9999, 'masquerade': True,
                'enabled': True, 'groups': [gid] if how == 'route groups' else [other['id']]}
        body.update({'peer_groups': [gid]} if how == 'route peer_groups' else {'peer': peers['web-1']})
        status, made = emulator.api('POST', '/api/routes', body)
        expected = "route 'lan' (%s)" % how.split()[1]
    elif how == 'nameserver group':
        status, made = emulator.api('POST', '/api/dns/nameservers', {
            'name': 'ns', 'description': '', 'nameservers': [{'ip': '9.9.9.9', 'ns_type': 'udp', 'port': 53}],
            'enabled': True, 'groups': [gid], 'primary': True, 'domains': [], 'search_domains_enabled': False})
        expected = "nameserver group 'ns' (groups)"
    elif how == 'policy':
        status, made = emulator.api('POST', '/api/policies', {
            'name': 'pol', 'description': '', 'enabled': True, 'source_posture_checks': [],
            'rules': [{'name': 'r', 'description': '', 'enabled': True, 'action': 'accept', 'bidirectional': True,
                       'protocol': 'all', 'sources': [other['id']], 'destinations': [gid]}]})
        expected = "policy 'pol' (rules[0].destinations)"
    elif how == 'setup key':
        status, made = emulator.api('POST', '/api/setup-keys', {
            'name': 'uses-group', 'type': 'reusable', 'expires_in': 86400, 'auto_groups': [gid], 'usage_limit': 0,
            'revoked': False})
        expected = "setup key 'uses-group' (auto_groups)"
    elif how == 'user':
        user = emulator.add_user('member@example.com')
        status, made = emulator.api('PUT', '/api/users/' + user['id'], {'role': 'user', 'auto_groups': [gid], 'is_blocked': False})
        expected = "user 'member@example.com' (auto_groups)"
    else:
        status, made = emulator.api('PUT', '/api/dns/settings', {'disabled_management_groups': [gid]})
        expected = 'the DNS settings (disabled_management_groups)'
    assert status == 200, made
    return group, expected


USES = ['route groups', 'route peer_groups', 'nameserver group', 'policy', 'setup key', 'user', 'dns settings']


@pytest.mark.parametrize('how', USES)
def test_a_group_in_use_is_not_deleted_also_in_check_mode(emulator, run, how):
    group, expected = uses_of_a_group(emulator, how)
    emulator.clear_log()
    task = {'nms.overlay.group': {'name': 'in-use', 'state': 'absent'}, 'ignore_errors': True}
    result = run([dict(task, name='preview', check_mode=True), dict(task, name='delete')])
    message = "the group 'in-use' (id %s) is used by %s; remove it from there first" % (group['id'], expected)
    for name in ('preview', 'delete'):
        assert result[name]['failed'] is True, result[name]
        assert result[name]['msg'] == message
    assert emulator.writes() == []
    # the reads a delete needs: its own list, then once each kind that can use a group
    paths = sorted(r['path'] for r in emulator.requests())
    assert paths == sorted(['/api/groups', '/api/policies', '/api/routes', '/api/dns/nameservers', '/api/dns/settings',
                            '/api/setup-keys', '/api/users'] * 2), ' '.join(paths)
    assert len(groups_named(emulator, 'in-use')) == 1


def test_a_group_no_longer_in_use_is_deleted_with_one_read_per_kind(emulator, run):
    group, dummy = uses_of_a_group(emulator, 'route peer_groups')
    status, routes = emulator.api('GET', '/api/routes')
    assert emulator.api('DELETE', '/api/routes/' + routes[0]['id'])[0] == 200
    emulator.clear_log()
    result = run([{'name': 'delete', 'nms.overlay.group': {'name': 'in-use', 'state': 'absent'}}])
    assert result['delete']['changed'] is True, result['delete']
    assert [w['method'] + ' ' + w['path'] for w in emulator.writes()] == ['DELETE /api/groups/%s' % group['id']]
    assert len(emulator.requests()) == 8  # groups, the 6 kinds that can use a group, the delete


def test_check_mode_result_has_peers_as_id_and_name(emulator, run):
    peers = make_peers(emulator, 'web-1', 'web-2')
    assert run([{'name': 'make', 'nms.overlay.group': {'name': 'servers', 'peers': ['web-1', 'web-2']}}]).rc == 0
    result = run([
        {'name': 'update', 'nms.overlay.group': {'name': 'servers', 'peers': ['web-2']}},
        {'name': 'create', 'nms.overlay.group': {'name': 'new', 'peers': ['web-1']}},
        {'name': 'empty', 'nms.overlay.group': {'name': 'empty'}},
    ], check=True)
    assert result.rc == 0, result
    assert result['update']['group']['peers'] == [{'id': peers['web-2'], 'name': 'web-2'}]
    assert result['update']['group']['peers_count'] == 1
    assert result['create']['group']['peers'] == [{'id': peers['web-1'], 'name': 'web-1'}]
    assert result['create']['group']['peers_count'] == 1
    assert result['empty']['group']['peers'] == [] and result['empty']['group']['peers_count'] == 0


def test_bad_token_fails_clearly(emulator, run):
    result = run([{'name': 'list', 'nms.overlay.group_info': {}}], env={'NMS_API_TOKEN': 'nbp_wrong'},
                 ansible=True)  # the output is checked
    assert result['list']['failed'] is True
    assert result['list']['msg'].startswith('GET %s/api/groups failed with HTTP 401' % emulator.url)
    assert 'nbp_wrong' not in result.stdout


def test_invalid_options_fail_naming_the_option_before_any_request(emulator, run):
    emulator.clear_log()
    result = run([
        {'name': 'empty name', 'nms.overlay.group': {'name': ' '}, 'ignore_errors': True},
        {'name': 'empty peer', 'nms.overlay.group': {'name': 'g', 'peers': ['']}, 'ignore_errors': True},
        {'name': 'no identity', 'nms.overlay.group': {'peers': []}, 'ignore_errors': True},
    ])
    assert result['empty name']['msg'] == 'option name: must not be empty'
    assert result['empty peer']['msg'] == 'option peers[0]: must not be empty'
    assert 'one of the following is required: id, name' in result['no identity']['msg']
    assert emulator.requests() == []


@pytest.mark.parametrize('how', ['all', 'name', 'id', 'unknown'])
def test_group_info(emulator, run, how):
    make_peers(emulator, 'web-1')
    status, group = emulator.api('POST', '/api/groups', {'name': 'empty-group'})
    assert status == 200
    args = {'all': {}, 'name': {'name': 'empty-group'}, 'id': {'id': group['id']}, 'unknown': {'name': 'nope'}}[how]
    result = run([{'name': 'info', 'nms.overlay.group_info': args}])
    assert result.rc == 0, result
    groups = result['info']['groups']
    if how == 'all':
        assert sorted(g['name'] for g in groups) == ['All', 'empty-group']
        everyone = [g for g in groups if g['name'] == 'All'][0]
        assert [p['name'] for p in everyone['peers']] == ['web-1']
    elif how == 'unknown':
        assert groups == []
    else:
        assert len(groups) == 1 and groups[0]['id'] == group['id']
        assert groups[0]['peers'] == []  # never null, in both dialects


def test_group_info_id_and_name_are_mutually_exclusive_as_documented(emulator, run):
    status, group = emulator.api('POST', '/api/groups', {'name': 'g'})
    emulator.clear_log()
    result = run([{'name': 'both', 'nms.overlay.group_info': {'id': group['id'], 'name': 'g'}}])
    assert result['both']['failed'] is True
    assert 'mutually exclusive: id|name' in result['both']['msg']
    assert emulator.requests() == []
    docs = documentation('group_info')
    assert 'Mutually exclusive with O(name).' in docs['options']['id']['description']
    assert 'Mutually exclusive with O(id).' in docs['options']['name']['description']


def test_examples_run_unchanged(emulator, run):
    """Every task of the modules' EXAMPLES runs against the emulator as written (a group's resources on a v0.77 server)."""
    make_peers(emulator, 'web-1', 'db-1')
    status, dummy = emulator.api('POST', '/api/groups', {'name': 'old-servers'})
    if emulator.dialect == 'current':
        office = emulator.ok('POST', '/api/networks', {'name': 'office', 'description': ''})
        emulator.ok('POST', '/api/networks/%s/resources' % office['id'],
                    {'name': 'office-lan', 'address': '192.168.10.0/24', 'enabled': True, 'groups': []})
    tasks = []
    for module in ('group', 'group_info'):
        for task in examples_of(module):
            if 'ch8i4ug6lnn4g9hqv7l0' in str(task):
                continue  # an id from the docs: it cannot exist here
            if 'resources' in task.get('nms.overlay.group', {}) and emulator.dialect != 'current':
                continue  # a v0.77 option: refused here (test_resources_of_todays_servers)
            tasks.append(task)
    result = run(tasks, extra_vars={'nms_api_url': emulator.url, 'nms_api_token': emulator.token})
    assert result.rc == 0, result
    assert not result.failed


# -- a group's network resources (v0.77) -----------------------------------------------------------------
def make_resources(emulator, *names):
    """Network resources of one network, by name: {name: id}."""
    network = emulator.ok('POST', '/api/networks', {'name': 'office', 'description': ''})
    made = {}
    for index, name in enumerate(names):
        made[name] = emulator.ok('POST', '/api/networks/%s/resources' % network['id'], {
            'name': name, 'address': '10.10.%d.0/24' % index, 'enabled': True, 'groups': []})['id']
    return made


def test_resources_of_todays_servers(emulator, run):
    """v0.77: set by name or id as {id, type}, a re-run and a task without them send no write, check mode none
    either, the diff names them, a rename keeps them; v0.27: refused after one GET /instance/version."""
    task = {'name': 'g', 'nms.overlay.group': {'name': 'office-routers', 'resources': ['lan', 'printers']}}
    if emulator.dialect != 'current':
        emulator.clear_log()
        refused = run([dict(task, ignore_errors=True)])
        assert refused['g']['failed'] is True
        assert refused['g']['msg'] == ('option resources: this server (v0.27: it has no GET /api/instance/version) does '
                                       'not have it (servers have it from v0.35.0 on)')
        assert [r['method'] + ' ' + r['path'] for r in emulator.requests()] == ['GET /api/instance/version']
        return
    made = make_resources(emulator, 'lan', 'printers', 'wiki')
    emulator.clear_log()
    first = run([task])
    assert first.rc == 0, first
    assert first['g']['changed'] is True
    (post,) = emulator.writes()
    assert sorted(post['body']['resources'], key=lambda r: r['id']) == sorted(
        [{'id': made['lan'], 'type': 'subnet'}, {'id': made['printers'], 'type': 'subnet'}], key=lambda r: r['id'])
    group = first['g']['group']
    assert sorted(r['id'] for r in group['resources']) == sorted([made['lan'], made['printers']])
    # the server keeps one list: the resources show the group among their groups
    status, resources = emulator.api('GET', '/api/networks/resources')
    assert {r['name']: [g['name'] for g in r['groups'] or []] for r in resources} == {
        'lan': ['office-routers'], 'printers': ['office-routers'], 'wiki': []}

    emulator.clear_log()
    again = run([{'name': 'g', 'nms.overlay.group': {'name': 'office-routers', 'resources': ['printers', made['lan']]}}])
    assert again['g']['changed'] is False and emulator.writes() == []

    emulator.clear_log()
    check = run([{'name': 'g', 'nms.overlay.group': {'name': 'office-routers', 'resources': ['wiki', 'lan']}}],
                check=True, diff=True)
    assert check['g']['changed'] is True and emulator.writes() == []
    assert check['g']['diff'] == {'before': {'resources': ['lan', 'printers']}, 'after': {'resources': ['lan', 'wiki']}}

    emulator.clear_log()
    rename = run([{'name': 'g', 'nms.overlay.group': {'id': group['id'], 'name': 'office-gateways'}}])
    assert rename['g']['changed'] is True
    (put,) = emulator.writes()
    assert sorted(r['id'] for r in put['body']['resources']) == sorted([made['lan'], made['printers']])
    assert sorted(r['id'] for r in groups_named(emulator, 'office-gateways')[0]['resources']) == sorted([made['lan'], made['printers']])

    emulator.clear_log()
    held = run([{'name': 'g', 'ignore_errors': True, 'nms.overlay.group': {'name': 'office-gateways', 'state': 'absent'}}])
    assert held['g']['failed'] is True and 'holds the network resources' in held['g']['msg']
    assert emulator.writes() == []

    emulator.clear_log()
    emptied = run([{'name': 'g', 'nms.overlay.group': {'name': 'office-gateways', 'resources': []}}])
    assert emptied['g']['changed'] is True and emptied['g']['group']['resources'] == []
    assert emulator.writes()[0]['body']['resources'] == []
    assert run([{'name': 'g', 'nms.overlay.group': {'name': 'office-gateways', 'state': 'absent'}}])['g']['changed'] is True
