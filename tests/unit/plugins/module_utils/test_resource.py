# -*- coding: utf-8 -*-
"""Unit tests of the lifecycle engine with a scripted client (no HTTP)."""

from __future__ import annotations

import importlib

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._resource import MAX_SETTLE, SETTLE_STEP, ResourceModule
from tests.support import fakes
from tests.support.fakes import engine


class FakeClient(fakes.FakeClient):
    """A tiny in-memory server for /things and /peers."""

    def __init__(self, things, peers=()):
        super().__init__()
        self.things = {t['id']: dict(t) for t in things}
        self.peers = list(peers)
        self.conflict_once = False
        self.pauses = []
        self.pause_causes = []

    def pause(self, attempt, retry_after=None, cause=None):
        self.pauses.append((attempt, retry_after))
        self.pause_causes.append(cause)

    def get(self, path, query=None):
        self.calls.append(('GET', path))
        if path == '/peers':
            return self.peers
        if path == '/things':
            return list(self.things.values())
        item = self.things.get(path.rsplit('/', 1)[1])
        if item is None:
            raise ApiError('GET', path, 404, 'not found')
        return item

    def post(self, path, body):
        self.calls.append(('POST', path))
        if self.conflict_once:
            self.conflict_once = False
            self.things['t9'] = dict(body, id='t9', note='set by another run')
            raise ApiError('POST', path, 409, 'already exists')
        item = dict(body, id='new')
        self.things['new'] = item
        return item

    def put(self, path, body):
        self.calls.append(('PUT', path))
        item = dict(body, id=path.rsplit('/', 1)[1])
        self.things[item['id']] = item
        return item

    def delete(self, path):
        self.calls.append(('DELETE', path))
        del self.things[path.rsplit('/', 1)[1]]
        return {}


class Thing(ResourceModule):
    path = '/things'
    what = 'thing'
    result_key = 'thing'
    unique_names = True  # like a group: the server refuses a second thing of a name (409)
    fields = dict(
        name=Field(),
        size=Field(immutable=True, initial=1),
        members=Field(ref='peers', many=True, initial=[]),
        note=Field(initial=''),
    )


class SharedThing(Thing):
    """A thing whose name the server lets several things share (like a policy)."""

    unique_names = False


THING_OPTIONS = dict(id=None, name=None, size=None, members=None, note=None, state='present')


def run(client, check_mode=False, cls=Thing, **params):
    module = engine(cls, client, check_mode, THING_OPTIONS, **params)
    return module.run(), module.module


PEERS = [{'id': 'p1', 'name': 'a'}, {'id': 'p2', 'name': 'b'}]


def test_create_sends_initial_values_and_resolved_ids():
    client = FakeClient([], PEERS)
    result, dummy = run(client, name='x', members=['b', 'a'])
    assert result['changed'] is True
    assert client.writes() == [('POST', '/things')]
    assert client.things['new'] == {'id': 'new', 'name': 'x', 'size': 1, 'members': ['p1', 'p2'], 'note': ''}
    # the diff shows references by name (the list read to resolve them), the result and the request ids
    assert result['diff'] == {'before': {}, 'after': {'name': 'x', 'size': 1, 'members': ['a', 'b'], 'note': ''}}
    assert result['thing']['members'] == ['p1', 'p2']


def test_unchanged_sends_no_write_and_members_compare_as_a_set():
    client = FakeClient([{'id': 't1', 'name': 'x', 'size': 1, 'members': [{'id': 'p2'}, {'id': 'p1'}], 'note': ''}], PEERS)
    result, dummy = run(client, name='x', members=['a', 'b', 'a'])
    assert result['changed'] is False
    assert client.writes() == []


def test_unset_options_keep_server_values_in_the_put():
    client = FakeClient([{'id': 't1', 'name': 'x', 'size': 3, 'members': [{'id': 'p1'}], 'note': 'keep'}], PEERS)
    result, dummy = run(client, name='x', members=['b'])
    assert result['changed'] is True
    assert client.things['t1'] == {'id': 't1', 'name': 'x', 'size': 3, 'members': ['p2'], 'note': 'keep'}
    assert result['diff'] == {'before': {'members': ['a']}, 'after': {'members': ['b']}}


def test_check_mode_sends_no_write():
    client = FakeClient([{'id': 't1', 'name': 'x', 'size': 1, 'members': None, 'note': ''}], PEERS)
    result, dummy = run(client, check_mode=True, name='x', note='new')
    assert result['changed'] is True
    assert result['thing']['note'] == 'new'
    result, dummy = run(client, check_mode=True, name='y')
    assert result['changed'] is True
    result, dummy = run(client, check_mode=True, name='x', state='absent')
    assert result['changed'] is True
    assert client.writes() == []


def test_immutable_difference_warns_and_does_not_change():
    client = FakeClient([{'id': 't1', 'name': 'x', 'size': 1, 'members': [], 'note': ''}], PEERS)
    result, module = run(client, name='x', size=5)
    assert result['changed'] is False
    assert client.writes() == []
    assert len(module.warnings) == 1 and 'size cannot change' in module.warnings[0]


def test_ambiguous_name_fails_with_ids():
    client = FakeClient([{'id': 't1', 'name': 'x'}, {'id': 't2', 'name': 'x'}])
    with pytest.raises(TaskError) as err:
        run(client, name='x', note='n')
    assert str(err.value) == "name 'x' matches 2 things (ids: t1, t2); give the id to choose one"
    assert client.writes() == []


def test_unknown_reference_fails_before_any_write():
    client = FakeClient([], PEERS)
    with pytest.raises(TaskError) as err:
        run(client, name='x', members=['a', 'zz'])
    assert "members: no peer with the id or name 'zz'" in str(err.value)
    assert client.writes() == []


def test_delete_and_delete_again():
    client = FakeClient([{'id': 't1', 'name': 'x', 'members': None}])
    result, dummy = run(client, name='x', state='absent')
    assert result['changed'] is True and result['thing']['members'] == []
    result, dummy = run(client, name='x', state='absent')
    assert result['changed'] is False
    assert client.writes() == [('DELETE', '/things/t1')]


def test_unknown_id_fails_clearly():
    client = FakeClient([])
    with pytest.raises(TaskError) as err:
        run(client, id='zz', note='x')
    assert 'no thing with id zz exists' in str(err.value)


def test_create_needs_a_name():
    client = FakeClient([])
    with pytest.raises(TaskError) as err:
        run(client, id='t7', note='x')
    assert "no thing with id t7 exists" in str(err.value)
    with pytest.raises(TaskError) as err:
        run(client, id=None, name='  ', note='x')
    assert str(err.value) == 'option name: must not be empty'
    assert client.calls == [('GET', '/things/t7')]  # the blank name failed before any request


def test_blank_references_fail_before_any_request_naming_each():
    client = FakeClient([], PEERS)
    with pytest.raises(TaskError) as err:
        run(client, name='x', members=['a', '', ' '])
    assert str(err.value) == 'option members[1]: must not be empty; option members[2]: must not be empty'
    assert client.calls == []


def test_conflict_on_create_is_read_back_and_reconciled():
    client = FakeClient([], PEERS)
    client.conflict_once = True
    result, dummy = run(client, name='x', note='n')
    assert result['changed'] is True
    assert client.writes() == [('POST', '/things'), ('PUT', '/things/t9')]
    assert client.things['t9']['note'] == 'n'


class LossyClient(FakeClient):
    """POSTs fail with the given outcomes in turn; 'lost' applies the create but loses the answer."""

    def __init__(self, outcomes):
        super().__init__([])
        self.outcomes = list(outcomes)

    def post(self, path, body):
        outcome = self.outcomes.pop(0) if self.outcomes else 'ok'
        if outcome == 'lost':
            super().post(path, body)
            self.calls[-1] = ('POST', path)
            raise ApiError('POST', path, None, 'the connection was closed before an answer arrived')
        if outcome == 'empty':  # made, but the success answer carries nothing
            super().post(path, body)
            return {}
        if outcome == 'empty, not made':
            self.calls.append(('POST', path))
            return {}
        if outcome != 'ok':
            self.calls.append(('POST', path))
            raise ApiError('POST', path, outcome, 'injected', retry_after=2.0 if outcome == 429 else None)
        return super().post(path, body)


def test_a_create_whose_answer_was_lost_is_read_back_not_repeated():
    client = LossyClient(['lost'])
    result, dummy = run(client, name='x', retries=3)
    assert client.writes() == [('POST', '/things')]
    assert list(client.things) == ['new']
    assert result['thing']['name'] == 'x' and result['changed'] is True


def test_a_create_refused_by_a_gateway_is_sent_again_only_after_a_read_proves_it_absent():
    client = LossyClient([503])
    result, dummy = run(client, name='x', retries=3)
    assert client.calls == [('GET', '/things'), ('POST', '/things'), ('GET', '/things'), ('POST', '/things')]
    assert result['changed'] is True and list(client.things) == ['new']
    assert client.pauses == [(1, None)]  # the client's backoff


def test_a_create_refused_with_429_waits_as_told_and_is_sent_again_only_after_a_read_proves_it_absent():
    client = LossyClient([429, 429])
    result, dummy = run(client, name='x', retries=3)
    assert client.calls == [('GET', '/things'), ('POST', '/things'), ('GET', '/things'), ('POST', '/things'),
                            ('GET', '/things'), ('POST', '/things')]
    assert client.pauses == [(1, 2.0), (2, 2.0)]
    # the wait is told with its cause (the client turns that into a warning)
    assert [(cause.method, cause.status) for cause in client.pause_causes] == [('POST', 429), ('POST', 429)]
    assert result['changed'] is True and list(client.things) == ['new']


def test_a_create_answered_with_an_empty_success_is_read_back():
    client = LossyClient(['empty'])
    result, dummy = run(client, name='x', retries=3)
    assert client.calls == [('GET', '/things'), ('POST', '/things'), ('GET', '/things')]
    assert result['thing']['id'] == 'new' and result['changed'] is True
    client = LossyClient(['empty, not made'])
    with pytest.raises(ApiError) as err:
        run(client, name='x', retries=3)
    assert str(err.value) == ("POST /things failed with HTTP 200: the answer is empty, not the created thing, and a "
                              "read finds no thing with name 'x'")
    assert client.writes() == [('POST', '/things')]


def test_create_gives_up_after_the_retries_and_client_errors_are_not_retried():
    client = LossyClient([502, 502])
    with pytest.raises(ApiError):
        run(client, name='x', retries=1)
    assert len(client.writes()) == 2 and client.things == {}
    client = LossyClient([422])
    with pytest.raises(ApiError):
        run(client, name='x', retries=3)
    assert len(client.writes()) == 1


def test_delete_of_something_already_gone_is_not_an_error():
    client = FakeClient([{'id': 't1', 'name': 'x'}])
    original_delete = client.delete

    def gone(path):
        original_delete(path)
        raise ApiError('DELETE', path, 404, 'not found')

    client.delete = gone
    result, dummy = run(client, name='x', state='absent')
    assert result['changed'] is True and client.things == {}


# -- unique names --------------------------------------------------------------------------------------
class UniqueThing(Thing):
    unique_names = True


def run_unique(client, check_mode=False, **params):
    return engine(UniqueThing, client, check_mode, THING_OPTIONS, **params).run()


@pytest.mark.parametrize('check_mode', [False, True])
def test_a_rename_onto_a_name_another_object_has_fails_before_any_write(check_mode):
    client = FakeClient([{'id': 't1', 'name': 'alpha'}, {'id': 't2', 'name': 'beta'}])
    with pytest.raises(TaskError) as err:
        run_unique(client, check_mode=check_mode, id='t2', name='alpha')
    assert str(err.value) == ("option name: cannot rename the thing 'beta' (id t2) to 'alpha': the thing with id t1 "
                              "already has that name, and thing names must be unique")
    assert client.writes() == []
    assert client.calls == [('GET', '/things/t2'), ('GET', '/things')]  # one list read, for the rename only


def test_a_rename_to_a_free_name_costs_one_list_read_and_an_unchanged_task_none():
    client = FakeClient([{'id': 't1', 'name': 'alpha'}, {'id': 't2', 'name': 'beta'}])
    result = run_unique(client, id='t2', name='gamma')
    assert result['changed'] is True
    assert client.calls == [('GET', '/things/t2'), ('GET', '/things'), ('PUT', '/things/t2')]
    client.calls = []
    result = run_unique(client, id='t2', name='gamma')
    assert result['changed'] is False
    assert client.calls == [('GET', '/things/t2')]  # no rename: no list read
    # names that need not be unique (the default for a kind outside _resolve.UNIQUE_NAMES) may be shared
    client.calls = []
    result, dummy = run(client, cls=SharedThing, id='t2', name='alpha')
    assert result['changed'] is True and client.writes() == [('PUT', '/things/t2')]


def test_the_kinds_with_unique_names():
    from ansible_collections.nms.overlay.plugins.module_utils._kinds import RESOURCES
    assert frozenset(cls.section or cls.what for cls in RESOURCES if cls.unique_names is True) == frozenset((
        'groups', 'posture_checks', 'nameserver_groups', 'dns_zones', 'dns_records', 'network_resources', 'user invite', 'reverse_proxy_domains',
        'reverse proxy cluster'))
    assert [cls.kind for cls in RESOURCES if isinstance(cls.unique_names, str)] == ['users']  # by email only


# -- names in the diff ---------------------------------------------------------------------------------
class Rules(ResourceModule):
    path = '/things'
    what = 'thing'
    result_key = 'thing'
    fields = dict(
        name=Field(),
        owner=Field(ref='peers'),
        members=Field(ref='peers', many=True, initial=[]),
        rules=Field(item_refs={'to': 'peers'}),
    )


def run_rules(client, check_mode=False, **params):
    return engine(Rules, client, check_mode, dict(id=None, name=None, owner=None, members=None, rules=None, state='present'),
                  **params).run()


def test_the_diff_names_references_from_embedded_summaries_without_a_request():
    thing = {'id': 't1', 'name': 'x', 'owner': 'p1', 'rules': [{'to': ['p2']}],
             'members': [{'id': 'p1', 'name': 'laptop'}, {'id': 'p2', 'name': 'db'}, {'id': 'p3'}]}
    client = FakeClient([thing])
    result = run_rules(client, name='x', state='absent')
    assert client.calls == [('GET', '/things'), ('DELETE', '/things/t1')]  # no peer list read for names
    # known names instead of ids, sorted as shown; an unknown id stays; nested references too
    assert result['diff']['before'] == {'name': 'x', 'owner': 'laptop', 'members': ['db', 'laptop', 'p3'],
                                        'rules': [{'to': ['db']}]}
    assert result['thing']['members'] == thing['members']  # the result is unchanged


def test_the_diff_names_references_from_the_lists_read_and_shows_shared_names_with_the_id():
    peers = [{'id': 'p1', 'name': 'a'}, {'id': 'p2', 'name': 'twin'}, {'id': 'p3', 'name': 'twin'}]
    client = FakeClient([{'id': 't1', 'name': 'x', 'owner': 'p1', 'members': ['p1'], 'rules': [{'to': ['p1']}]}], peers)
    result = run_rules(client, check_mode=True, name='x', owner='p2', members=['a', 'p2', 'p3'],
                       rules=[{'to': ['p3', 'p9']}])
    assert result['diff'] == {
        'before': {'owner': 'a', 'members': ['a'], 'rules': [{'to': ['a']}]},
        'after': {'owner': 'twin (p2)', 'members': ['a', 'twin (p2)', 'twin (p3)'], 'rules': [{'to': ['p9', 'twin (p3)']}]},
    }
    assert result['thing']['owner'] == 'p2' and result['thing']['members'] == ['p1', 'p2', 'p3']
    assert result['thing']['rules'] == [{'to': ['p3', 'p9']}]
    assert client.calls == [('GET', '/things'), ('GET', '/peers')]


def test_plural_of_every_kind():
    from ansible_collections.nms.overlay.plugins.module_utils._resolve import plural
    from ansible_collections.nms.overlay.plugins.module_utils._tables import RESOLVER_TABLE
    assert {what: plural(what) for dummy, what, dummy_fields in RESOLVER_TABLE.values()} == {
        'group': 'groups', 'peer': 'peers', 'posture check': 'posture checks', 'user': 'users',
        'setup key': 'setup keys', 'policy': 'policies', 'route': 'routes', 'nameserver group': 'nameserver groups',
        'network': 'networks', 'DNS zone': 'DNS zones', 'network resource': 'network resources',
        'Agent Network budget rule': 'Agent Network budget rules', 'Agent Network guardrail': 'Agent Network guardrails',
        'Agent Network policy': 'Agent Network policies', 'Agent Network provider': 'Agent Network providers'}
    assert plural('token') == 'tokens' and plural('policy', 1) == 'policy' and plural('DNS settings') == 'DNS settings'
    assert plural('key') == 'keys' and plural('address') == 'addresses'


def test_ambiguous_policy_names_say_policies():
    from ansible_collections.nms.overlay.plugins.module_utils._resolve import ResolveError, find_unique
    twins = [{'id': 'a', 'name': 'twin'}, {'id': 'b', 'name': 'twin'}]
    with pytest.raises(ResolveError) as err:
        find_unique(twins, 'twin', ('name',), 'policy', 'policies')
    assert "matches 2 policies (ids: a, b)" in str(err.value)


class RacedClient(FakeClient):
    """Other runs create things of the same name while this one creates its own (ids given in ``others``); the
    create takes ``takes`` seconds on ``clock``."""

    def __init__(self, others, own='new', clock=None, takes=0.0):
        super().__init__([])
        self.others = others
        self.own = own
        self.clock = clock
        self.takes = takes

    def post(self, path, body):
        self.calls.append(('POST', path))
        if self.clock is not None:
            self.clock.advance(self.takes)
        for oid in self.others:
            self.things[oid] = dict(body, id=oid, note='theirs')
        item = dict(body, id=self.own)
        self.things[self.own] = item
        return item


@pytest.mark.parametrize('own, others, kept', [
    ('t5', ['t3', 't8'], 't3'),     # another run's copy has the lowest id: this run deletes its own
    ('t1', ['t3', 't8'], None),     # this run's copy has the lowest id: it stays, the others delete theirs
    ('10', ['9', '11'], '9'),       # numeric ids compare as numbers, not as text
])
def test_concurrent_creates_of_a_shared_name_converge_on_the_lowest_id(own, others, kept, clock):
    client = RacedClient(others, own, clock, takes=0.75)
    result, module = run(client, cls=SharedThing, name='x', note='mine')
    assert client.calls[:3] == [('GET', '/things'), ('POST', '/things'), ('GET', '/things')]  # listed again
    assert clock.waits == [1.5]  # before it: twice as long as the run took from its start to its create
    if kept is None:
        assert result['thing']['id'] == own and result['changed'] is True and client.writes() == [('POST', '/things')]
        assert module.warnings == []
        return
    assert ('DELETE', '/things/%s' % own) in client.writes() and own not in client.things
    assert result['thing']['id'] == kept and client.things[kept]['note'] == 'mine'  # reconciled with the options
    assert client.writes()[-1] == ('PUT', '/things/%s' % kept)
    warning, = module.warnings
    assert 'another run created the thing name \'x\' at the same time' in warning
    assert 'lowest id, %s, is kept' % kept in warning and 'copy (id %s) was deleted' % own in warning


def test_the_wait_before_the_list_read_after_a_slow_create_is_at_most_max_settle(clock):
    client = RacedClient([], 't1', clock, takes=10.0)
    result, module = run(client, cls=SharedThing, name='x')
    assert result['changed'] is True and client.writes() == [('POST', '/things')] and module.warnings == []
    assert clock.waits == [MAX_SETTLE] and client.calls[-1] == ('GET', '/things')


def test_a_create_of_a_shared_name_without_a_race_keeps_its_object():
    client = FakeClient([], PEERS)
    result, module = run(client, cls=SharedThing, name='x')
    assert result['changed'] is True and client.writes() == [('POST', '/things')] and module.warnings == []
    assert client.calls[-1] == ('GET', '/things')  # the list read after the create


class ConvergingClient(FakeClient):
    """Copies of a shared name that concurrent runs remove one per list read, as they converge."""

    def get(self, path, query=None):
        result = super().get(path, query)
        if path == '/things' and len(self.things) > 1:
            del self.things[max(self.things)]  # the highest id's run removes its copy
        return result


def test_a_read_during_concurrent_creates_waits_until_they_converged(clock):
    """Issue 18, point 6: a run that lists while three racing runs still hold their copies does not fail on the
    ambiguous name: it reads again until one copy is left, then manages that one."""
    client = ConvergingClient([{'id': t, 'name': 'x', 'size': 1, 'members': [], 'note': ''} for t in ('t1', 't2', 't3')])
    result, dummy = run(client, cls=SharedThing, name='x')
    assert result['changed'] is False and result['thing']['id'] == 't1'
    assert clock.waits == [SETTLE_STEP, SETTLE_STEP] and client.writes() == []


def test_real_duplicates_of_a_shared_name_fail_once_they_stay_long_enough(clock):
    client = FakeClient([{'id': t, 'name': 'x', 'size': 1, 'members': [], 'note': ''} for t in ('t1', 't2')])
    with pytest.raises(TaskError) as err:
        run(client, cls=SharedThing, name='x')
    assert "matches 2 things (ids: t1, t2); give the id to choose one" in str(err.value)
    # the same two copies for longer than a racing run needs to remove its own (MAX_SETTLE + 2 steps)
    assert clock.waits == [SETTLE_STEP] * 6 and clock.waited > MAX_SETTLE + 2 * SETTLE_STEP and client.writes() == []


# -- modules of today's servers only ---------------------------------------------------------------------
class Network(ResourceModule):
    path = '/networks'
    what = 'network'
    result_key = 'network'
    requires = 'Networks'
    fields = dict(name=Field())


@pytest.mark.parametrize('current', [False, True])
def test_a_module_of_todays_servers_is_refused_by_a_v027_server_after_one_request(current):
    routes = {'/networks': []}
    if current:
        routes['/instance/version'] = {'management_current_version': '0.77.1'}
    client = fakes.FakeClient(routes)  # an unrouted GET is a 404, as v0.27 answers /instance/version
    task = engine(Network, client, name='office')
    if not current:
        with pytest.raises(TaskError) as failure:
            task.run()
        assert str(failure.value) == ('this server (v0.27: it has no GET /api/instance/version) does not have Networks, '
                                      'which came with NetBird v0.35.0; upgrade the server to v0.64.2 or later (the first '
                                      'release that answers GET /api/instance/version) to manage them')
        assert client.calls == [('GET', '/instance/version', None)]
    else:
        assert task.run()['changed'] is True
        assert client.calls[0] == ('GET', '/instance/version', None) and client.writes() == [('POST', '/networks', {'name': 'office'})]


class Route(ResourceModule):
    path = '/routes'
    what = 'route'
    result_key = 'route'
    fields = dict(name=Field(), keep_route=Field('bool', requires='v0.77'))


@pytest.mark.parametrize('current', [False, True])
def test_an_option_of_todays_servers_is_refused_by_a_v027_server_before_any_write(current):
    routes = {'/routes': []}
    if current:
        routes['/instance/version'] = {'management_current_version': '0.77.1'}
    client = fakes.FakeClient(routes)
    if current:
        assert engine(Route, client, name='lan', keep_route=True).run()['changed'] is True
        assert client.writes() == [('POST', '/routes', {'name': 'lan', 'keep_route': True})]
        return
    with pytest.raises(TaskError) as failure:
        engine(Route, client, name='lan', keep_route=True).run()
    assert str(failure.value) == ('option keep_route: this server (v0.27: it has no GET /api/instance/version) does not '
                                  'have it (servers have it from v0.28.0 on)')
    assert client.writes() == []
    # a task that does not set it never asks the server what it is
    client = fakes.FakeClient({'/routes': []})
    engine(Route, client, name='lan').run()
    assert ('GET', '/instance/version', None) not in client.calls


class TodaysThing(Thing):
    """A thing with a field only today's servers have (and so only their objects carry)."""

    fields = dict(Thing.fields, labels=Field('list', many=True, requires='v0.77'), flag=Field('bool', requires='v0.77'))


@pytest.mark.parametrize('server_thing, sent', [
    ({'id': 't1', 'name': 'x', 'size': 1, 'members': [], 'note': ''}, {}),                   # an older server's object
    ({'id': 't1', 'name': 'x', 'size': 1, 'members': [], 'note': '', 'labels': ['a'], 'flag': None},
     {'labels': ['a'], 'flag': None}),                                                        # today's: kept as it is
])
def test_an_update_sends_fields_of_todays_servers_only_when_the_server_object_carries_them(server_thing, sent):
    client = FakeClient([server_thing], PEERS)
    result, dummy = run(client, cls=TodaysThing, name='x', note='new')
    assert result['changed'] is True
    assert client.things['t1'] == dict({'id': 't1', 'name': 'x', 'size': 1, 'members': [], 'note': 'new'}, **sent)


@pytest.mark.parametrize('module_name, pairs', [
    ('group_info', [['id', 'name']]),
    ('dns_zone_info', [['id', 'domain'], ['id', 'name']]),
    ('dns_record_info', [['id', 'name'], ['id', 'type']]),
    ('network_router_info', []),
    ('peer_info', []),
])
def test_an_info_modules_id_excludes_its_natural_key_and_filters_unless_it_says_otherwise(module_name, pairs):
    module = importlib.import_module('ansible_collections.nms.overlay.plugins.modules.' + module_name)
    info_class = next(value for name, value in vars(module).items() if name.endswith('InfoModule') and name != 'InfoModule')
    assert [list(pair) for pair in info_class.validation()['mutually_exclusive']] == pairs


def test_a_create_refused_with_429_is_waited_out_whatever_retries_says():
    client = LossyClient([429] * 5)
    result, dummy = run(client, name='x', retries=0)
    assert client.writes() == [('POST', '/things')] * 6
    assert client.pauses == [(n, 2.0) for n in range(1, 6)]
    assert result['changed'] is True and list(client.things) == ['new']


def test_a_create_refused_with_429_forever_fails_once_it_waited_the_patience():
    client = LossyClient([429] * 2000)
    with pytest.raises(ApiError) as err:
        run(client, name='x', retries=0)
    assert err.value.status == 429
    assert len(client.pauses) == 1200  # the fake client waits no time: each wait counts as the shortest, 0.5 s
