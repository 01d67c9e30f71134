# -*- coding: utf-8 -*-
"""Unit tests of network_state's reconcile logic with an in-memory server (no HTTP)."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError, ShapedReads
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._network import NetworkStateModule
from ansible_collections.nms.overlay.plugins.module_utils._resource import connection_argument_spec

CONNECTION = dict(api_url='http://127.0.0.1:9', api_token='nbp_x', validate_certs=True, ca_path=None, timeout=5.0,
                  retries=0)


class FakeModule:
    def __init__(self, params, check_mode=False):
        self.params = params
        self.check_mode = check_mode
        self.warnings = []

    def warn(self, message):
        self.warnings.append(message)


class Server(ShapedReads):
    """Groups and policies in memory, enough for the reconcile order, references and prune."""

    def __init__(self):
        self.items = {'/groups': [{'id': 'g-all', 'name': 'All', 'issued': 'api', 'peers': []},
                                  {'id': 'g-idp', 'name': 'from-idp', 'issued': 'jwt', 'peers': []}],
                      '/policies': [], '/peers': [], '/posture-checks': []}
        self.calls = []
        self.counter = 0

    def _collection(self, path):
        base = '/' + path.strip('/').split('/')[0]
        return base, self.items[base]

    def get(self, path, query=None):
        self.calls.append(('GET', path))
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
        item = dict(body, id='%s-%d' % (path.strip('/'), self.counter))
        if path == '/groups':
            item['peers'] = [{'id': p, 'name': p} for p in body.get('peers') or []]
        if path == '/policies':
            for rule in item['rules']:
                rule['sources'] = [{'id': g, 'name': g} for g in rule['sources']]
                rule['destinations'] = [{'id': g, 'name': g} for g in rule['destinations']]
        self.items[path].append(item)
        return dict(item)

    def put(self, path, body):
        self.calls.append(('PUT', path))
        base, items = self._collection(path)
        for index, item in enumerate(items):
            if item['id'] == path.rsplit('/', 1)[1]:
                items[index] = dict(body, id=item['id'])
                return dict(items[index])
        raise ApiError('PUT', path, 404, 'not found')

    def delete(self, path):
        self.calls.append(('DELETE', path))
        base, items = self._collection(path)
        self.items[base] = [i for i in items if i['id'] != path.rsplit('/', 1)[1]]
        return {}

    def writes(self):
        return [c for c in self.calls if c[0] != 'GET']


def reconcile(server, check_mode=False, **description):
    params = dict(CONNECTION, prune=False)
    params.update({kind: None for kind in NetworkStateModule.argument_spec if kind != 'prune'})
    params.update(description)
    module = NetworkStateModule(module=FakeModule(params, check_mode))
    module._client = server  # pylint: disable=protected-access
    return module.run()


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
    from ansible_collections.nms.overlay.plugins.module_utils._network import KINDS, item_spec
    for dummy_kind, cls in KINDS:
        assert not set(item_spec(cls)) & set(connection_argument_spec())
