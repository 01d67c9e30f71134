# -*- coding: utf-8 -*-
"""Unit tests of network_state's reconcile logic with an in-memory server (no HTTP)."""

from __future__ import annotations

import copy

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._network import NetworkStateModule
from ansible_collections.nms.overlay.plugins.module_utils._task import connection_argument_spec
from tests.support import fakes
from tests.support.fakes import FakeModule, engine

CONNECTION = dict(api_url='http://127.0.0.1:9', api_token='nbp_x', validate_certs=True, ca_path=None, timeout=5.0,
                  retries=0)


class Server(fakes.FakeClient):
    """Groups and policies in memory, enough for the reconcile order, references and prune."""

    def __init__(self):
        super().__init__()
        self.items = {'/groups': [{'id': 'g-all', 'name': 'All', 'issued': 'api', 'peers': []},
                                  {'id': 'g-idp', 'name': 'from-idp', 'issued': 'jwt', 'peers': []}],
                      '/policies': [], '/peers': [{'id': 'p-web', 'name': 'web-1'}], '/posture-checks': [],
                      '/routes': [], '/dns/nameservers': [], '/setup-keys': [],
                      '/users': [{'id': 'u-owner', 'email': 'owner@example.com', 'role': 'owner', 'auto_groups': []}]}
        self.dns = {'disabled_management_groups': []}
        self.counter = 0

    def _collection(self, path):
        base = max((key for key in self.items if path == key or path.startswith(key + '/')), key=len)
        return base, self.items[base]

    def get(self, path, query=None):
        self.calls.append(('GET', path))
        if path == '/dns/settings':
            return dict(self.dns)
        if path == '/instance/version':
            raise ApiError('GET', path, 404, 'not found')  # a v0.27 server
        base, items = self._collection(path)
        if path == base:
            return [dict(i) for i in items]
        for item in items:
            if item['id'] == path.rsplit('/', 1)[1]:
                return dict(item)
        raise ApiError('GET', path, 404, 'not found')

    def post(self, path, body):
        self.calls.append(('POST', path))
        self.counter += 1
        item = dict(body, id='%s-%d' % (path.strip('/').replace('/', '-'), self.counter))
        if path == '/groups':
            item['peers'] = [{'id': p, 'name': p} for p in body.get('peers') or []]
            item['issued'] = 'api'
        if path == '/policies':
            for rule in item['rules']:
                rule['sources'] = [{'id': g, 'name': g} for g in rule['sources']]
                rule['destinations'] = [{'id': g, 'name': g} for g in rule['destinations']]
        self.items[path].append(item)
        return dict(item)

    def put(self, path, body):
        self.calls.append(('PUT', path))
        if path == '/dns/settings':
            self.dns = dict(body)
            return dict(body)
        base, items = self._collection(path)
        for index, item in enumerate(items):
            if item['id'] == path.rsplit('/', 1)[1]:
                items[index] = dict(body, id=item['id'])
                return dict(items[index])
        raise ApiError('PUT', path, 404, 'not found')

    def delete(self, path):
        self.calls.append(('DELETE', path))
        base, items = self._collection(path)
        if base == '/groups':
            gid = path.rsplit('/', 1)[1]
            users = [r['network_id'] for r in self.items['/routes'] if gid in r['groups']]
            if users:
                raise ApiError('DELETE', path, 400, 'group has been linked to route: %s' % users[0])
        self.items[base] = [i for i in items if i['id'] != path.rsplit('/', 1)[1]]
        return {}


def options(**description):
    """network_state's options: the connection, nothing described, no prune, then the description."""
    params = dict(CONNECTION, prune=False)
    params.update({kind: None for kind in NetworkStateModule.argument_spec if kind != 'prune'})
    params.update(description)
    return params


def reconcile(server, check_mode=False, **description):
    return engine(NetworkStateModule, server, check_mode, options(**description)).run()


POLICY = {'name': 'ssh', 'rules': [{'name': 'ssh', 'protocol': 'tcp', 'ports': ['22'], 'sources': ['dev'],
                                    'destinations': ['servers']}]}


def test_creates_in_dependency_order_and_rerun_is_unchanged():
    server = Server()
    result = reconcile(server, groups=[{'name': 'dev'}, {'name': 'servers'}], policies=[POLICY])
    assert [c[1] for c in server.writes()] == ['/groups', '/groups', '/policies']
    assert [(c['kind'], c['name'], c['action']) for c in result['changes']] == [
        ('groups', 'dev', 'created'), ('groups', 'servers', 'created'), ('policies', 'ssh', 'created')]
    assert result['summary']['groups'] == dict(created=2, updated=0, deleted=0, unchanged=0)
    assert [d['before_header'] for d in result['diff']] == ['group dev', 'group servers', 'policy ssh']

    server.calls.clear()
    again = reconcile(server, groups=[{'name': 'dev'}, {'name': 'servers'}], policies=[POLICY])
    assert again['changed'] is False and again['changes'] == [] and again['diff'] == []
    assert server.writes() == []
    assert sorted(c[1] for c in server.calls) == ['/groups', '/policies']  # one list per kind, nothing else


def test_check_mode_resolves_names_created_in_the_same_run_and_writes_nothing():
    server = Server()
    result = reconcile(server, check_mode=True, groups=[{'name': 'dev'}, {'name': 'servers'}], policies=[POLICY])
    assert server.writes() == []
    assert [c['action'] for c in result['changes']] == ['created'] * 3
    assert result['changes'][0]['id'] == '(new group dev)'


def test_unknown_reference_fails_before_any_write_and_names_the_place():
    server = Server()
    with pytest.raises(TaskError) as failure:
        reconcile(server, groups=[{'name': 'dev'}], policies=[POLICY])
    message = str(failure.value)
    assert message.startswith('nothing was changed: policies[0] (ssh): ')
    assert "'servers'" in message and 'rules[0].destinations' in message
    assert server.writes() == []


def test_invalid_items_are_reported_together_before_any_request():
    server = Server()
    with pytest.raises(TaskError) as failure:
        reconcile(server, groups=[{'name': 'ok'}, {'nme': 'typo'}, 'text'])
    message = str(failure.value)
    assert 'groups[1]' in message and 'nme' in message
    assert "groups[2]: must be a dictionary" in message
    assert server.calls == []


def test_an_invalid_option_in_a_later_entry_fails_before_any_reference_is_read():
    server = Server()
    with pytest.raises(TaskError) as failure:
        reconcile(server, groups=[{'name': 'dev', 'peers': ['web-1']}], policies=[POLICY],
                  setup_keys=[{'name': 'k', 'type': 'one-off', 'usage_limit': 5}])
    assert str(failure.value).startswith('nothing was changed: setup_keys[0] (k): option usage_limit')
    assert server.calls == []


def test_the_same_resource_described_twice_is_refused():
    with pytest.raises(TaskError, match=r'groups\[0\] \(dev\) and groups\[1\] \(dev\) describe the same group'):
        reconcile(Server(), groups=[{'name': 'dev'}, {'name': 'dev', 'peers': []}])


def test_prune_keeps_all_idp_groups_and_unlisted_kinds():
    server = Server()
    reconcile(server, groups=[{'name': 'dev'}, {'name': 'old'}, {'name': 'servers'}], policies=[POLICY])
    server.calls.clear()
    result = reconcile(server, groups=[{'name': 'dev'}, {'name': 'servers'}], prune=True)
    assert [(c['name'], c['action'], c['pruned']) for c in result['changes']] == [('old', 'deleted', True)]
    assert sorted(g['name'] for g in server.items['/groups']) == ['All', 'dev', 'from-idp', 'servers']
    assert len(server.items['/policies']) == 1  # policies were not described: not pruned


def test_prune_of_an_empty_description_is_refused_without_a_request():
    server = Server()
    with pytest.raises(TaskError, match='empty network description'):
        reconcile(server, prune=True)
    with pytest.raises(TaskError, match='empty network description'):
        reconcile(server, groups=[], prune=True)
    assert server.calls == []


def test_server_errors_name_the_resource():
    server = Server()

    def refuse(path, body):
        raise ApiError('POST', path, 400, 'refused for a reason')

    server.post = refuse
    with pytest.raises(TaskError, match=r"groups\[0\] \(dev\): POST /groups failed with HTTP 400: refused for a reason"):
        reconcile(server, groups=[{'name': 'dev'}])


def test_item_options_exclude_connection_options():
    from ansible_collections.nms.overlay.plugins.module_utils._network_plan import KINDS, item_spec
    for dummy_kind, cls in KINDS:
        assert not set(item_spec(cls)) & set(connection_argument_spec())


ROUTE = {'network_id': 'n', 'network': '10.1.0.0/16', 'peer': 'web-1', 'groups': ['b']}


def abc_server():
    server = Server()
    reconcile(server, groups=[{'name': 'a'}, {'name': 'b'}, {'name': 'c'}])
    server.calls.clear()
    return server


def group_id(server, name):
    return [g['id'] for g in server.items['/groups'] if g['name'] == name][0]


@pytest.mark.parametrize('check_mode', [False, True])
def test_prune_of_a_group_a_described_route_uses_fails_before_any_write(check_mode):
    server = abc_server()
    with pytest.raises(TaskError) as failure:
        reconcile(server, check_mode=check_mode, groups=[{'name': 'a'}], routes=[ROUTE], prune=True)
    message = str(failure.value)
    assert message.startswith('nothing was changed: this deletion would fail, because groups (b) (id %s) is used by '
                              "route 'n' (groups)" % group_id(server, 'b')), message
    assert 'groups (c)' not in message
    assert server.writes() == []
    assert sorted(g['name'] for g in server.items['/groups']) == ['All', 'a', 'b', 'c', 'from-idp']


def test_prune_lists_every_blocked_deletion_and_what_stays_on_the_server():
    server = abc_server()
    b, c = group_id(server, 'b'), group_id(server, 'c')
    server.items['/setup-keys'].append({'id': 'k1', 'name': 'old-key', 'revoked': True, 'auto_groups': [b]})
    server.items['/users'].append({'id': 'u2', 'email': 'x@example.com', 'role': 'user', 'auto_groups': [c]})
    server.items['/routes'].append({'id': 'r1', 'network_id': 'lan', 'peer_groups': [c], 'groups': []})
    server.dns = {'disabled_management_groups': [b]}
    with pytest.raises(TaskError) as failure:
        reconcile(server, groups=[{'name': 'a'}], prune=True)
    message = str(failure.value)
    assert 'these deletions would fail' in message
    assert "groups (b) (id %s) is used by the DNS settings (disabled_management_groups), setup key 'old-key' (auto_groups)" % b \
        in message, message
    assert "groups (c) (id %s) is used by route 'lan' (peer_groups), user 'x@example.com' (auto_groups)" % c in message
    assert server.writes() == []
    # users described with prune: the undescribed user goes, so it no longer blocks; the owner stays
    with pytest.raises(TaskError) as failure:
        reconcile(server, groups=[{'name': 'a'}], users=[{'email': 'owner@example.com'}], prune=True)
    assert 'x@example.com' not in str(failure.value)


def test_prune_goes_ahead_when_the_run_leaves_the_group_unused():
    server = abc_server()
    reconcile(server, groups=[{'name': 'a'}, {'name': 'b'}], routes=[ROUTE])
    server.items['/setup-keys'].append({'id': 'k1', 'name': 'key', 'revoked': False, 'auto_groups': [group_id(server, 'c')]})
    server.calls.clear()
    # the route moves to a, the described key stops using c: b and c can go, with one read per kind
    result = reconcile(server, groups=[{'name': 'a'}], routes=[dict(ROUTE, groups=['a'])],
                       setup_keys=[{'name': 'key', 'auto_groups': []}], prune=True)
    assert sorted((c['kind'], c['name'], c['action']) for c in result['changes']) == [
        ('groups', 'b', 'deleted'), ('groups', 'c', 'deleted'), ('routes', 'n', 'updated'), ('setup_keys', 'key', 'updated')]
    reads = [c[1] for c in server.calls if c[0] == 'GET']
    assert sorted(reads) == ['/dns/nameservers', '/dns/settings', '/groups', '/peers', '/policies', '/routes', '/setup-keys',
                             '/users'], reads


def test_an_unchanged_prune_reads_no_more_than_before():
    server = abc_server()
    result = reconcile(server, groups=[{'name': 'a'}, {'name': 'b'}, {'name': 'c'}], prune=True)
    assert result['changed'] is False
    assert server.calls == [('GET', '/groups')]


def test_a_group_described_absent_that_a_later_kind_still_uses_fails_before_any_write():
    server = abc_server()
    reconcile(server, routes=[ROUTE])
    server.calls.clear()
    with pytest.raises(TaskError, match=r"groups\[1\] \(b\) \(id \S+\) is used by route 'n' \(groups\)"):
        reconcile(server, groups=[{'name': 'new'}, {'name': 'b', 'state': 'absent'}])
    assert server.writes() == []


class KeyServer(Server):
    """Answers a setup key's create with its value, as servers do."""

    def post(self, path, body):
        created = super().post(path, body)
        if path == '/setup-keys':
            created['key'] = 'A616097E-FCF0-48FA-9354-CA4A6114276%d' % self.counter
        return created


KEY = {'name': 'servers', 'type': 'reusable'}


def test_created_key_values_go_to_a_private_file_and_stay_out_of_the_result(tmp_path):
    import json
    import os
    import stat
    secrets = tmp_path / 'secrets.json'
    result = reconcile(KeyServer(), setup_keys=[KEY], return_created_secrets=False, created_secrets_file=str(secrets))
    change, = result['changes']
    assert 'key' not in change and 'A616097E' not in repr(result)
    assert stat.S_IMODE(os.stat(secrets).st_mode) == 0o600
    assert json.loads(secrets.read_text()) == {'setup_keys': {'servers': {'id': change['id'],
                                                                          'key': 'A616097E-FCF0-48FA-9354-CA4A61142761',
                                                                          'server': 'http://127.0.0.1:9'}}}
    # a later run adds to the file, keeping what it holds
    reconcile(KeyServer(), setup_keys=[dict(KEY, name='office')], created_secrets_file=str(secrets))
    assert sorted(json.loads(secrets.read_text())['setup_keys']) == ['office', 'servers']
    # returned as before unless told otherwise
    assert reconcile(KeyServer(), setup_keys=[KEY])['changes'][0]['key'].startswith('A616097E')


class VanishingDirKeyServer(KeyServer):
    """Removes the secrets file's directory as it creates a key: the file, checked before, cannot be written after."""

    def __init__(self, directory):
        super().__init__()
        self.directory = directory

    def post(self, path, body):
        created = super().post(path, body)
        if path == '/setup-keys' and self.directory.exists():
            self.directory.rmdir()
        return created


def test_a_created_key_value_that_cannot_be_kept_is_never_shown(tmp_path):
    directory = tmp_path / 'keys'
    directory.mkdir()
    with pytest.raises(TaskError) as failure:
        reconcile(VanishingDirKeyServer(directory), setup_keys=[KEY], return_created_secrets=False,
                  created_secrets_file=str(directory / 'secrets.json'))
    assert 'could not be written to created_secrets_file' in str(failure.value) and 'A616097E' not in str(failure.value)
    assert 'A616097E' not in repr(failure.value.details)
    module = engine(NetworkStateModule, KeyServer(), options=dict(CONNECTION, prune=False, setup_keys=[KEY],
                                                                  return_created_secrets=False))
    result = module.run()
    assert 'key' not in result['changes'][0] and 'it is lost' in module.module.warnings[0]
    assert 'A616097E' not in repr(result) + repr(module.module.warnings)


class MaskingKeyServer(Server):
    """Answers a setup key's create with a masked value, as today's servers show keys in reads."""

    def post(self, path, body):
        created = super().post(path, body)
        if path == '/setup-keys':
            created['key'] = 'A6160****'
        return created


def test_a_masked_key_value_is_never_kept_nor_returned(tmp_path):
    secrets = tmp_path / 'secrets.json'
    secrets.write_text('{"setup_keys": {"older": {"id": "1", "key": "kept"}}}')
    module = engine(NetworkStateModule, MaskingKeyServer(), options=dict(CONNECTION, prune=False, setup_keys=[KEY],
                                                                         created_secrets_file=str(secrets)))
    result = module.run()
    change, = result['changes']
    assert change['action'] == 'created' and 'key' not in change and '****' not in repr(result)
    assert secrets.read_text() == '{"setup_keys": {"older": {"id": "1", "key": "kept"}}}'
    assert [w for w in module.module.warnings if 'did not carry the value' in w]


@pytest.mark.parametrize('description, message', [
    (dict(posture_checks=[{'name': 'c', 'checks': [1]}]),
     'option posture_checks[0].checks: must be a dictionary of its suboptions'),
    (dict(policies=[{'name': 'p', 'rules': [['a', 'list']]}]), 'option policies[0].rules[0]: must be a dictionary'),
    (dict(nameserver_groups=[{'name': 'n', 'nameservers': ['1.1.1.1'], 'groups': ['All']}]),
     'option nameserver_groups[0].nameservers[0]: must be a dictionary'),
])
def test_nested_shapes_are_checked_per_entry_before_any_request(description, message):
    """Issue 18, point 10: network_state checks each entry as its single module does (no TypeError)."""
    server = Server()
    with pytest.raises(TaskError) as failure:
        reconcile(server, **description)
    assert 'the network description is invalid, nothing was changed: ' + message in str(failure.value)
    assert server.calls == []


# -- default_policy: the account-wide allow-all policy (issue 21, point 1) -----------------------------------
from ansible_collections.nms.overlay.plugins.module_utils._access import (  # noqa: E402
    allow_all_rule, grants_everything, is_allow_all_policy,
)


def allow_all(name='Default', policy_id='pol-default', enabled=True, **extra):
    """The policy every account starts with, as a netbird server answers it (group summaries), plus ``extra``."""
    rule = {'id': policy_id, 'name': name, 'description': 'allows everything', 'enabled': True, 'action': 'accept',
            'bidirectional': True, 'protocol': 'all', 'sources': [{'id': 'g-all', 'name': 'All'}],
            'destinations': [{'id': 'g-all', 'name': 'All'}]}
    return dict({'id': policy_id, 'name': name, 'description': 'allows everything', 'enabled': enabled,
                 'source_posture_checks': None, 'rules': [rule]}, **extra)


def restricted(name='Default', policy_id='pol-r'):
    policy = allow_all(name, policy_id)
    policy['rules'][0].update(protocol='tcp', ports=['22'], bidirectional=False)
    return policy


@pytest.mark.parametrize('policy, allow_all_only, grants', [
    (allow_all(), True, True),
    (allow_all(enabled=False), True, False),                               # found, but grants nothing now
    (allow_all(name='Everyone'), True, True),                              # renamed: found by what it is
    (dict(allow_all(), rules=[dict(allow_all()['rules'][0], sources=['g-all'], destinations=['g-all'])]), True, True),
    (restricted(), False, False),                                          # named Default, but tcp/22 only
    (dict(allow_all(), source_posture_checks=['pc-1']), False, False),     # posture-checked peers only
    (dict(allow_all(), rules=[dict(allow_all()['rules'][0], action='drop')]), False, False),
    (dict(allow_all(), rules=[dict(allow_all()['rules'][0], destinations=[{'id': 'g-dev'}])]), False, False),
    (dict(allow_all(), rules=allow_all()['rules'] + restricted()['rules']), False, True),  # more than an allow-all
    (dict(allow_all(), rules=[dict(allow_all()['rules'][0], enabled=False)]), True, False),
    (dict(allow_all(), rules=[]), False, False),
    (dict(allow_all(), rules=None), False, False),
])
def test_allow_all_identification(policy, allow_all_only, grants):
    assert is_allow_all_policy(policy, {'g-all'}) is allow_all_only
    assert grants_everything(policy, {'g-all'}) is grants


def test_an_allow_all_rule_needs_the_all_group_on_both_sides():
    rule = allow_all()['rules'][0]
    assert allow_all_rule(rule, {'g-all'})
    assert not allow_all_rule(rule, {'g-other'})
    assert not allow_all_rule(dict(rule, sources=None), {'g-all'})
    assert not allow_all_rule('text', {'g-all'})


def default_server(*policies):
    server = Server()
    server.items['/policies'] = [dict(p) for p in (policies or [allow_all(unknown_field={'kept': 1})])]
    return server


GROUPS = [{'name': 'dev'}, {'name': 'servers'}]


def test_disable_updates_the_allow_all_policy_once_keeping_its_other_fields_then_changes_nothing():
    server = default_server()
    before = copy.deepcopy(server.items['/policies'][0])
    result = reconcile(server, groups=GROUPS, policies=[POLICY], default_policy='disable')
    # the restrictive policy first, then the allow-all goes off: no moment without either
    assert server.writes() == [('POST', '/groups'), ('POST', '/groups'), ('POST', '/policies'), ('PUT', '/policies/pol-default')]
    after = [p for p in server.items['/policies'] if p['id'] == 'pol-default'][0]
    assert after['enabled'] is False
    assert after['unknown_field'] == {'kept': 1} and after['name'] == 'Default'
    assert after['description'] == before['description']
    assert [(r['name'], r['action'], r['protocol'], r['bidirectional']) for r in after['rules']] == [('Default', 'accept', 'all', True)]
    assert result['changes'][-1] == dict(kind='policies', name='Default', action='updated', pruned=False,
                                         default_policy=True, id='pol-default')
    assert not any('grants every peer' in w for w in result.get('warnings', []))
    server.calls.clear()
    again = reconcile(server, groups=GROUPS, policies=[POLICY], default_policy='disable')
    assert again['changed'] is False and server.writes() == []


def test_remove_deletes_only_an_allow_all_policy_whatever_its_name():
    server = default_server(allow_all(name='Everyone', policy_id='pol-renamed'), restricted('Default'))
    result = reconcile(server, groups=GROUPS, policies=[POLICY], default_policy='remove')
    assert server.writes()[-1] == ('DELETE', '/policies/pol-renamed')
    assert [w for w in server.writes() if w[1].startswith('/policies/')] == [('DELETE', '/policies/pol-renamed')]
    assert sorted(p['name'] for p in server.items['/policies']) == ['Default', 'ssh']  # the restrictive Default stays
    assert result['summary']['policies'] == dict(created=1, updated=0, deleted=1, unchanged=0)


def test_a_missing_allow_all_policy_is_nothing_to_do():
    server = default_server(restricted('Default'))
    for mode in ('disable', 'remove'):
        result = reconcile(server, groups=GROUPS, default_policy=mode)
        assert [w for w in server.writes() if 'policies' in w[1]] == []
    assert result['summary'] == {'groups': dict(created=0, updated=0, deleted=0, unchanged=2)}


def test_keep_and_unset_leave_it_and_keep_protects_it_from_prune():
    for mode in (None, 'keep'):
        server = default_server()
        reconcile(server, groups=GROUPS, policies=[POLICY], default_policy=mode)
        assert [w for w in server.writes() if w[1].startswith('/policies/')] == []
    server = default_server()
    reconcile(server, groups=GROUPS, policies=[POLICY], default_policy='keep', prune=True)
    assert sorted(p['name'] for p in server.items['/policies']) == ['Default', 'ssh']
    server = default_server()  # not given: as before, pruning policies removes it like any undescribed policy
    reconcile(server, groups=GROUPS, policies=[POLICY], prune=True)
    assert sorted(p['name'] for p in server.items['/policies']) == ['ssh']


def test_disable_with_prune_disables_and_keeps_it():
    server = default_server()
    result = reconcile(server, groups=GROUPS, policies=[POLICY], default_policy='disable', prune=True)
    assert [(p['name'], p['enabled']) for p in server.items['/policies']] == [('Default', False), ('ssh', True)]
    assert ('policies', 'Default', 'deleted') not in [(c['kind'], c['name'], c['action']) for c in result['changes']]


def test_a_described_allow_all_policy_is_the_descriptions_not_default_policys():
    server = default_server()
    reconcile(server, groups=GROUPS, policies=[POLICY, {'name': 'Default', 'enabled': True}], default_policy='remove')
    assert [w for w in server.writes() if w[1].startswith('/policies/')] == []


def warnings_of(server, check_mode=False, **description):
    module = engine(NetworkStateModule, server, check_mode, options(**description))
    return module.run(), [w for w in module.module.warnings if 'grants every peer' in w]


def test_the_warning_when_restrictive_policies_are_built_while_an_allow_all_stays_enabled():
    result, warned = warnings_of(default_server(), groups=GROUPS, policies=[POLICY])
    assert warned == ["policies: the policy 'Default' (All to All, accept) grants every peer access to every other peer; "
                      "the policies described here restrict nothing until it is disabled (default_policy: disable)"]
    for mode in ('disable', 'remove'):
        assert warnings_of(default_server(), groups=GROUPS, policies=[POLICY], default_policy=mode)[1] == []
    assert warnings_of(default_server(), groups=GROUPS, policies=[POLICY], default_policy='keep')[1] != []
    # nothing restrictive built: nothing to warn about
    assert warnings_of(default_server(), groups=GROUPS)[1] == []
    # already disabled, or pruned with the undescribed policies
    assert warnings_of(default_server(allow_all(enabled=False)), groups=GROUPS, policies=[POLICY])[1] == []
    assert warnings_of(default_server(), groups=GROUPS, policies=[POLICY], prune=True)[1] == []
    # check mode warns too, before anything is written
    server = default_server()
    assert len(warnings_of(server, check_mode=True, groups=GROUPS, policies=[POLICY])[1]) == 1
    assert server.writes() == []


def test_check_mode_speaks_in_the_conditional_and_writes_nothing():
    server = default_server()
    server.items['/groups'].append({'id': 'g-old', 'name': 'old', 'issued': 'api', 'peers': []})
    result = reconcile(server, check_mode=True, groups=GROUPS, policies=[POLICY], default_policy='remove', prune=True)
    assert server.writes() == []
    assert result['summary']['groups'] == dict(would_create=2, would_update=0, would_delete=1, unchanged=0)
    assert result['summary']['policies'] == dict(would_create=1, would_update=0, would_delete=1, unchanged=0)
    assert result['msg'] == ('check mode, nothing was changed: groups: would create 2 (dev, servers), would delete 1 (old); '
                             'policies: would create 1 (ssh), would delete 1 (Default)')
    assert 'deleted' not in result['msg'] and 'created' not in result['msg']
    done = reconcile(server, groups=GROUPS, policies=[POLICY], default_policy='remove', prune=True)
    assert done['msg'] == 'groups: created 2 (dev, servers), deleted 1 (old); policies: created 1 (ssh), deleted 1 (Default)'
    assert done['summary']['groups'] == dict(created=2, updated=0, deleted=1, unchanged=0)


def test_progress_is_returned_kind_by_kind_in_order():
    server = default_server()
    reconcile(server, groups=[{'name': 'dev'}])
    result = reconcile(server, groups=GROUPS, policies=[POLICY], default_policy='disable')
    assert result['progress'] == [
        'network_state: description checked: 4 resources in 2 kinds, every reference found',
        'network_state: groups: created 1 (servers), 1 unchanged',
        'network_state: policies: created 1 (ssh), updated 1 (Default)',
    ]
    teardown = reconcile(server, groups=[dict(g, state='absent') for g in GROUPS], policies=[dict(POLICY, state='absent')])
    assert teardown['progress'][1:] == ['network_state: policies: deleted 1 (ssh) (deletions)',
                                        'network_state: groups: deleted 2 (dev, servers) (deletions)']
    # a teardown leaves the disabled allow-all alone: default_policy not given
    assert [(p['name'], p['enabled']) for p in server.items['/policies']] == [('Default', False)]


def test_progress_goes_to_the_tasks_hook_as_it_happens_and_a_retry_wait_says_why():
    from ansible_collections.nms.overlay.plugins.module_utils._task import TaskContext
    server = default_server()
    shown = []
    task = TaskContext(options(groups=GROUPS), on_progress=lambda message: shown.append((message, len(server.writes()))))
    module = engine(NetworkStateModule, server, module=task)
    module.notify('GET http://127.0.0.1:9/api/groups failed with HTTP 429: slow down; waiting 4 s as the server asked')
    result = module.run()
    assert [message for message, dummy in shown] == result['progress']
    # told as it happens: the groups line once both groups are written, not at the end
    assert shown[-1] == ('network_state: groups: created 2 (dev, servers)', 2)
    assert result['progress'][0].endswith('waiting 4 s as the server asked')
    assert task.warnings[0] == result['progress'][0]  # still a warning in the result, as before


def test_a_task_without_a_progress_hook_still_gets_the_steps_and_a_no_log_task_no_names():
    server = default_server()
    task = FakeModule(options(groups=GROUPS))  # as AnsibleModule: no progress attribute
    task.no_log = True
    module = engine(NetworkStateModule, server, module=task)
    assert module.run()['progress'][1] == 'network_state: groups: created 2'


# -- networks (with resources and routers) and DNS zones (with records), on a current server -----------------------
class CurrentServer(Server):
    """A v0.77 server: the in-memory server with networks and DNS zones, each holding its own lists."""

    NESTED = {'/networks': ('resources', 'routers'), '/dns/zones': ('records',)}

    def __init__(self):
        super().__init__()
        self.items.update({'/networks': [], '/dns/zones': [], '/accounts': [{'id': 'acc-1', 'settings': {'dns_domain': ''}}]})

    def get(self, path, query=None):
        if path == '/instance/version':
            self.calls.append(('GET', path))
            return {'management_current_version': '0.77.1'}
        if path == '/networks/resources':  # the account-wide list of every network's resources
            self.calls.append(('GET', path))
            return [dict(item) for key, items in self.items.items() if key.startswith('/networks/')
                    and key.endswith('/resources') for item in items]
        return super().get(path, query)

    def post(self, path, body):
        item = super().post(path, body)
        for key in self.NESTED.get(path, ()):
            self.items['%s/%s/%s' % (path, item['id'], key)] = []
        return item

    def delete(self, path):
        result = super().delete(path)
        for key in [key for key in self.items if key.startswith(path + '/')]:
            del self.items[key]  # a network's resources and routers, a zone's records go with it
        return result


OFFICE_NETWORK = {'name': 'office', 'description': 'the office LAN',
                  'resources': [{'name': 'office-lan', 'address': '192.168.10.0/24', 'groups': ['office']}],
                  'routers': [{'peer_groups': ['gateways'], 'metric': 100}]}
ZONE = {'name': 'corp', 'domain': 'corp.example.com', 'distribution_groups': ['office'],
        'records': [{'name': 'www.corp.example.com', 'type': 'A', 'content': '192.168.10.5', 'ttl': 300}]}
OFFICE_GROUPS = [{'name': 'office'}, {'name': 'gateways'}]


def shape(calls):
    """Requests with the server's ids replaced by their collection's name: comparable from run to run."""
    return [(method, '/'.join('ID' if part.split('-')[-1].isdigit() else part for part in path.split('/')))
            for method, path in calls]


def test_networks_and_zones_are_applied_with_their_children_in_order_and_a_rerun_changes_nothing():
    server = CurrentServer()
    result = reconcile(server, groups=OFFICE_GROUPS, networks=[OFFICE_NETWORK], dns_zones=[ZONE])
    assert shape(server.writes()) == [
        ('POST', '/groups'), ('POST', '/groups'), ('POST', '/networks'), ('POST', '/networks/ID/resources'),
        ('POST', '/networks/ID/routers'), ('POST', '/dns/zones'), ('POST', '/dns/zones/ID/records')]
    network_id = server.items['/networks'][0]['id']
    # children are created under their parent's id (the network made in this run)
    assert [w[1] for w in server.writes()][3:5] == ['/networks/%s/resources' % network_id, '/networks/%s/routers' % network_id]
    resource = server.items['/networks/%s/resources' % network_id][0]
    assert resource['groups'] == [server.items['/groups'][2]['id']]  # the group by id
    assert [(c['kind'], c['name'], c['action']) for c in result['changes']][2:] == [
        ('networks', 'office', 'created'), ('network_resources', 'office-lan', 'created'),
        ('network_routers', 'gateways', 'created'), ('dns_zones', 'corp.example.com', 'created'),
        ('dns_records', 'www.corp.example.com', 'created')]
    assert result['summary']['network_resources'] == dict(created=1, updated=0, deleted=0, unchanged=0)

    server.calls.clear()
    again = reconcile(server, groups=OFFICE_GROUPS, networks=[OFFICE_NETWORK], dns_zones=[ZONE])
    assert again['changed'] is False, again['changes']
    assert server.writes() == []


def test_check_mode_plans_children_under_a_placeholder_parent_without_reading_or_writing_under_it():
    server = CurrentServer()
    result = reconcile(server, check_mode=True, groups=OFFICE_GROUPS, networks=[OFFICE_NETWORK], dns_zones=[ZONE])
    assert server.writes() == []
    assert not [path for dummy, path in server.calls if '(new' in path], server.calls  # no request under a placeholder
    changes = {c['kind']: c for c in result['changes']}
    assert changes['networks']['id'] == '(new network office)'
    assert changes['dns_zones']['id'] == '(new DNS zone corp.example.com)'
    assert {c['kind'] for c in result['changes'] if c['action'] == 'created'} == {
        'groups', 'networks', 'network_resources', 'network_routers', 'dns_zones', 'dns_records'}
    assert result['msg'].startswith('check mode, nothing was changed: ')


def test_prune_deletes_the_children_a_described_parent_does_not_list_and_keeps_unlisted_kinds():
    server = CurrentServer()
    more = copy.deepcopy(OFFICE_NETWORK)
    more['resources'].append({'name': 'printer', 'address': '192.168.10.9', 'groups': ['office']})
    more['routers'].append({'peer': 'web-1'})
    assert reconcile(server, groups=OFFICE_GROUPS, networks=[more, {'name': 'lab'}])['changed'] is True
    network_id = [n['id'] for n in server.items['/networks'] if n['name'] == 'office'][0]
    described = dict(OFFICE_NETWORK)
    del described['routers']  # routers not listed: left as they are
    server.calls.clear()
    preview = reconcile(server, check_mode=True, prune=True, groups=OFFICE_GROUPS, networks=[described])
    assert server.writes() == []
    pruned = sorted((c['kind'], c['name']) for c in preview['changes'] if c['pruned'])
    assert pruned == [('network_resources', 'printer'), ('networks', 'lab')], preview['changes']
    result = reconcile(server, prune=True, groups=OFFICE_GROUPS, networks=[described])
    assert sorted((c['kind'], c['name']) for c in result['changes'] if c['pruned']) == pruned
    assert [r['name'] for r in server.items['/networks/%s/resources' % network_id]] == ['office-lan']
    assert len(server.items['/networks/%s/routers' % network_id]) == 2
    assert [n['name'] for n in server.items['/networks']] == ['office']
    # the routers listed (an empty list) are the whole list: both go
    empty = dict(described, routers=[])
    assert len(reconcile(server, prune=True, groups=OFFICE_GROUPS, networks=[empty])['changes']) == 2
    assert server.items['/networks/%s/routers' % network_id] == []
    assert reconcile(server, prune=True, groups=OFFICE_GROUPS, networks=[empty])['changed'] is False


def test_a_teardown_deletes_parents_in_reverse_order_and_their_children_with_them():
    server = CurrentServer()
    reconcile(server, groups=OFFICE_GROUPS, networks=[OFFICE_NETWORK], dns_zones=[ZONE])
    server.calls.clear()
    absent = [dict(item, state='absent') for item in OFFICE_GROUPS]
    result = reconcile(server, groups=absent, networks=[dict(OFFICE_NETWORK, state='absent')],
                       dns_zones=[dict(ZONE, state='absent')])
    assert shape(server.writes()) == [('DELETE', '/dns/zones/ID'), ('DELETE', '/networks/ID'),
                                      ('DELETE', '/groups/ID'), ('DELETE', '/groups/ID')]
    assert [c['kind'] for c in result['changes']] == ['dns_zones', 'networks', 'groups', 'groups']
    server.calls.clear()
    again = reconcile(server, groups=absent, networks=[dict(OFFICE_NETWORK, state='absent')],
                      dns_zones=[dict(ZONE, state='absent')])
    assert again['changed'] is False and server.writes() == []


@pytest.mark.parametrize('description', [
    dict(networks=[OFFICE_NETWORK]), dict(dns_zones=[ZONE]), dict(networks=[dict(OFFICE_NETWORK, state='absent')])])
def test_networks_and_zones_are_refused_by_a_v027_server_before_any_write(description):
    server = Server()
    with pytest.raises(TaskError) as failure:
        reconcile(server, groups=OFFICE_GROUPS, **description)
    assert server.writes() == []
    message = str(failure.value)
    assert message.startswith('nothing was changed: '), message
    assert 'does not have %s, which came with NetBird %s' % (('DNS zones', 'v0.63.0') if 'dns_zones' in description else ('Networks', 'v0.35.0')) in message


def test_an_empty_networks_list_on_a_v027_server_is_nothing_to_do_even_with_prune():
    server = Server()
    result = reconcile(server, prune=True, groups=OFFICE_GROUPS, networks=[], dns_zones=[])
    assert result['changed'] is True  # the groups
    assert not [path for dummy, path in server.calls if path.startswith(('/networks', '/dns/zones'))]


@pytest.mark.parametrize('network, message', [
    (dict(OFFICE_NETWORK, resources=[{'name': 'x', 'address': '10.0.0.1', 'colour': 'red'}]),
     'networks[0].resources[0]: unknown option colour (the options are address, '),
    (dict(OFFICE_NETWORK, resources=[{'name': 'x', 'network': 'other'}]),
     "networks[0].resources[0]: option network: not given here, the network is the entry this one is nested in"),
    # (ansible-core words the type 'str' or "<class 'str'>", by release)
    (dict(OFFICE_NETWORK, routers=['gw']), "networks[0]: Elements value for option 'routers' is of type"),
])
def test_nested_entries_are_checked_before_any_request_and_named_by_their_place(network, message):
    server = CurrentServer()
    with pytest.raises(TaskError) as failure:
        reconcile(server, networks=[network])
    assert message in str(failure.value)
    assert server.calls == []


def test_a_nested_reference_to_an_unknown_group_names_its_place_before_any_write():
    server = CurrentServer()
    network = dict(OFFICE_NETWORK, resources=[{'name': 'lan', 'address': '10.0.0.0/24', 'groups': ['nobody']}])
    with pytest.raises(TaskError) as failure:
        reconcile(server, groups=OFFICE_GROUPS, networks=[network])
    assert "networks[0].resources[0] (lan): groups: no group with the id or name 'nobody'" in str(failure.value)
    assert server.writes() == []
