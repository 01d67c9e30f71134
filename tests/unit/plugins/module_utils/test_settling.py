# -*- coding: utf-8 -*-
"""Issue 43, item 4: network_state converges its creates of names servers do not keep unique once per kind (one wait,
one list after the kind's last create), not once per object, and stays as safe against concurrent runs: a copy another
run made of any of them, with a lower id, is kept and ours deleted, also when a later entry of the kind fails."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._store import MAX_SETTLE
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._network import NetworkStateModule
from tests.support.fakes import FakeModule, engine
from tests.unit.plugins.module_utils.test_network import Server, options, reconcile

GROUPS = [{'name': 'dev'}, {'name': 'servers'}]


def policy(name):
    return {'name': name, 'rules': [{'name': 'ssh', 'protocol': 'tcp', 'ports': ['22'], 'sources': ['dev'],
                                     'destinations': ['servers']}]}


POLICIES = [policy('p%d' % i) for i in range(5)]


class TimedServer(Server):
    """Every request takes ``takes`` seconds on the fake clock; ``racing`` {policy name: id}: another run's copy of that
    policy appears (with that id) right after our create of it, as a concurrent run's would."""

    def __init__(self, clock, takes=0.01, racing=None, refused=()):
        super().__init__()
        self.clock, self.takes, self.racing, self.refused = clock, takes, dict(racing or {}), set(refused)

    def get(self, path, query=None):
        self.clock.advance(self.takes)
        return super().get(path, query)

    def post(self, path, body):
        self.clock.advance(self.takes)
        if body.get('name') in self.refused:
            self.calls.append(('POST', path))
            raise ApiError('POST', path, 422, 'invalid rule')
        made = super().post(path, body)
        if path == '/policies' and body['name'] in self.racing:
            self.items[path].append(dict(made, id=self.racing[body['name']], note='theirs'))
        return made


def lists(server, path):
    return [call for call in server.calls if call == ('GET', path)]


def test_many_creates_of_a_shared_name_wait_once_and_list_once(clock):
    server = TimedServer(clock)
    result = reconcile(server, groups=GROUPS, policies=POLICIES)
    assert [c['action'] for c in result['changes']] == ['created'] * 7
    # groups are unique on the server: no converge; the five policies: one wait, one list after the last create
    assert len(clock.waits) == 1 and 0 < clock.waits[0] <= MAX_SETTLE, clock.waits
    assert len(lists(server, '/policies')) == 2, server.calls  # the run's list, then the one converge list
    assert server.calls[-1] == ('GET', '/policies') and [c[0] for c in server.calls[-6:-1]] == ['POST'] * 5
    # the window: twice the time from the task's start to the last create, as one create's own converge waits
    assert clock.waits[0] == pytest.approx(2 * (clock.now - clock.waits[0] - server.takes))
    assert result['progress'][-1] == 'network_state: policies: created 5 (p0, p1, p2, p3, p4)'

    server.calls.clear()
    clock.waits.clear()
    again = reconcile(server, groups=GROUPS, policies=POLICIES)
    assert again['changed'] is False and clock.waits == [] and sorted(c[1] for c in server.calls) == ['/groups', '/policies']


def test_a_slow_build_waits_max_settle_once_per_kind(clock):
    server = TimedServer(clock, takes=1.0)
    reconcile(server, groups=GROUPS, policies=POLICIES)
    assert clock.waits == [MAX_SETTLE]  # (it was MAX_SETTLE after each of the five creates)


def run_with_warnings(server, **description):
    """network_state's result and its warnings."""
    module = FakeModule(options(**description))
    return engine(NetworkStateModule, server, module=module).run(), module.warnings


def test_copies_concurrent_runs_made_converge_on_the_lowest_id(clock):
    # another run made p1 and p3 at the same time: its p1 has a lower id than ours (ours goes), its p3 a higher one
    server = TimedServer(clock, racing={'p1': 'a-theirs', 'p3': 'z-theirs'})
    result, warnings = run_with_warnings(server, groups=GROUPS, policies=POLICIES)
    # ours of p1 deleted; their p3 is theirs to delete (their run keeps the lowest id too: ours)
    assert sorted((p['name'], p['id']) for p in server.items['/policies']) == [
        ('p0', 'policies-3'), ('p1', 'a-theirs'), ('p2', 'policies-5'), ('p3', 'policies-6'), ('p3', 'z-theirs'),
        ('p4', 'policies-7')]
    assert server.writes()[-1] == ('DELETE', '/policies/policies-4') and len(server.writes()) == 2 + 5 + 1
    assert len(clock.waits) == 1 and len(lists(server, '/policies')) == 2
    changes = {c['name']: (c['action'], c.get('id')) for c in result['changes'] if c['kind'] == 'policies'}
    # p1 reconciled with theirs (the same options: nothing to update), as a single create converging does
    assert changes == {'p0': ('created', 'policies-3'), 'p2': ('created', 'policies-5'), 'p3': ('created', 'policies-6'),
                       'p4': ('created', 'policies-7')}
    assert result['summary']['policies'] == dict(created=4, updated=0, deleted=0, unchanged=1)
    warning, = warnings
    assert warning.startswith('policies[1] (p1): another run created the policy') and 'a-theirs, is kept' in warning


def test_a_long_list_converges_through_its_index_as_a_short_one_does(clock):
    # 100 policies: the converge list is long enough to be looked up through its index (ListIndex), which must find
    # every copy of a name (theirs with a lower id: ours goes; with a higher one: ours stays) as a scan would
    many = [policy('p%03d' % i) for i in range(100)]
    server = TimedServer(clock, racing={'p001': 'a-theirs', 'p070': 'z-theirs', 'p099': 'b-theirs'})
    result, warnings = run_with_warnings(server, groups=GROUPS, policies=many)
    names = sorted(p['name'] for p in server.items['/policies'])
    assert len(names) == 101 and names.count('p070') == 2 and names.count('p001') == names.count('p099') == 1
    assert {p['id'] for p in server.items['/policies'] if p['name'] in ('p001', 'p099')} == {'a-theirs', 'b-theirs'}
    deletes = [call for call in server.writes() if call[0] == 'DELETE']
    assert len(deletes) == 2 and len(clock.waits) == 1 and len(lists(server, '/policies')) == 2
    assert result['summary']['policies'] == dict(created=98, updated=0, deleted=0, unchanged=2)
    assert sorted(w.split(':')[0] for w in warnings) == ['policies[1] (p001)', 'policies[99] (p099)']


def test_a_failure_part_way_still_converges_and_reports_the_creates_before_it(clock):
    server = TimedServer(clock, racing={'p0': 'a-theirs'}, refused={'p2'})
    with pytest.raises(TaskError) as err:
        reconcile(server, groups=GROUPS, policies=POLICIES)
    assert str(err.value).startswith('policies[2] (p2): ') and 'invalid rule' in str(err.value)
    # p0 and p1 were created before the failure: converged (ours of p0 deleted for theirs), and reported
    assert ('DELETE', '/policies/policies-3') in server.writes() and len(clock.waits) == 1
    changes = [(c['kind'], c['name'], c['action']) for c in err.value.details['changes']]
    assert changes == [('groups', 'dev', 'created'), ('groups', 'servers', 'created'), ('policies', 'p1', 'created')]
    assert sorted(p['id'] for p in server.items['/policies']) == ['a-theirs', 'policies-4']


ROUTES = [{'network_id': 'r%d' % i, 'network': '10.0.%d.0/24' % i, 'peer': 'web-1', 'groups': ['dev']} for i in range(3)]


def test_kinds_that_name_none_of_the_converging_ones_share_one_wait(clock):
    # routes name groups and peers, never policies: the policies' creates converge after the routes' last create, with
    # theirs, in one wait for the run (it was one per kind), each kind listed once after it
    server = TimedServer(clock, racing={'p1': 'a-theirs'})
    result = reconcile(server, groups=GROUPS, policies=POLICIES, routes=ROUTES)
    assert len(clock.waits) == 1 and 0 < clock.waits[0] <= MAX_SETTLE, clock.waits
    writes = [call for call in server.calls if call[0] != 'GET']
    assert writes == [('POST', '/groups')] * 2 + [('POST', '/policies')] * 5 + [('POST', '/routes')] * 3 + [
        ('DELETE', '/policies/policies-4')], writes
    after = server.calls[server.calls.index(('POST', '/routes')) + 3:]
    assert [call for call in after if call[0] == 'GET'] == [('GET', '/policies'), ('GET', '/routes')], after
    assert len(lists(server, '/policies')) == 2 and len(lists(server, '/routes')) == 2
    assert result['summary']['policies'] == dict(created=4, updated=0, deleted=0, unchanged=1)
    assert result['summary']['routes'] == dict(created=3, updated=0, deleted=0, unchanged=0)
    assert [line.split(':')[1].strip() for line in result['progress'][1:]] == ['groups', 'policies', 'routes']


def test_a_kind_that_may_name_a_converging_one_runs_after_it_converged():
    # what each kind may name (refers_to), and so what it waits for: a network's routers their network (by the id its
    # entry got), a policy anything its desired hook resolves (network resources by name), a route what its fields name
    from ansible_collections.nms.overlay.plugins.module_utils._network import refers_to
    from ansible_collections.nms.overlay.plugins.module_utils._network_plan import ORDER
    from ansible_collections.nms.overlay.plugins.module_utils._create import Settling
    classes = dict(ORDER)
    assert refers_to(classes['routes']) == {'groups', 'peers'}
    assert refers_to(classes['setup_keys']) == {'groups'}
    assert 'networks' in refers_to(classes['network_routers'])
    assert refers_to(classes['policies']) is None
    settling = Settling()
    task = type('Task', (), {'kind': 'networks'})()
    settling.defer(task, {'id': 'n-1'})
    assert settling.waits_for(refers_to(classes['network_routers'])) and settling.waits_for(None)
    assert not settling.waits_for(refers_to(classes['routes']))
