# -*- coding: utf-8 -*-
"""Unit tests of the engine's action and create-only strategies (no HTTP), through kinds declared here, so that what
they do is shown to come from the declarations and not from peer_job, user_password or peer_temporary_access: the
body placed as ``sent_as`` says, a pending copy reported, check mode, the wait and its outcome, answers that mean "done
already" (once / always), the parent found by name or read; a create-only object created under its parent, found by
its natural key and the ``linked`` hook, never changed (a warning), deleted at its kind's path, read back after a lost
answer without a second create."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._strategy_action import Action
from ansible_collections.nms.overlay.plugins.module_utils._strategy_create_only import CreateOnly
from tests.support.fakes import FakeClient, engine

NETWORKS = [{'id': 'n1', 'name': 'office'}, {'id': 'n2', 'name': 'lab'}]


class Rebuild(Action):
    """An action under a network found by name: a rebuild whose body nests its fields, queued until a worker runs it."""

    what = 'rebuild'
    parent = ('networks', 'network')
    sub_path = '/rebuilds'
    natural_key = 'mode'
    fields = dict(
        mode=Field(dict(type='str', default='full')),
        depth=Field(dict(type='int', default=2)),
    )
    sent_as = dict(mode='spec.mode', depth='spec.options.depth')
    pending = {'state': 'queued'}
    oldest_first_by = 'queued_at'
    failed = {'state': 'error'}
    failed_reason = 'error'
    poll_every = 1.0
    wait_limit = 60
    pending_hint = 'a worker takes it'
    info_module = 'rebuild_info'
    once_option = 'repeat'
    done_answers = {409: 'rebuilt already'}
    done_warning = 'the network {parent} was rebuilt already: nothing sent'
    done_refusal = '{error}: the network {parent} was rebuilt already'


class Rename(Action):
    """An action on the one object a read gives (the token's own user), whose answer is not shown."""

    what = 'rename'
    result_key = None
    parent = ('users', None)
    parent_read = '/users/current'
    sub_path = '/display-name'
    method = 'PUT'
    fields = dict(label=Field(dict(type='str', required=True)))
    sent_as = dict(label='display_name')
    parent_shown = ('user', ('id', 'email'))
    taken_flag = 'renamed'


def queued(rebuild_id, depth=2, at='2026-01-01T00:00:00Z', state='queued'):
    return {'id': rebuild_id, 'state': state, 'queued_at': at, 'spec': {'mode': 'full', 'options': {'depth': depth}}}


def network_server(rebuilds=(), post=None, **reads):
    answers = {'/networks': NETWORKS, '/networks/n1/rebuilds': list(rebuilds),
               ('POST', '/networks/n1/rebuilds'): post if post is not None else lambda body: dict(body, id='r9', state='queued')}
    answers.update(reads)
    return FakeClient(answers)


def test_the_body_is_placed_as_declared_under_the_parent_found_by_name():
    client = network_server()
    result = engine(Rebuild, client, network='office', depth=3).run()
    assert client.writes() == [('POST', '/networks/n1/rebuilds', {'spec': {'mode': 'full', 'options': {'depth': 3}}})]
    assert result == {'changed': True, 'rebuild': {'id': 'r9', 'state': 'queued', 'spec': {'mode': 'full', 'options': {'depth': 3}}}}


def test_the_declaration_gives_the_options():
    spec = Rebuild.full_argument_spec()
    assert spec['network'] == {'type': 'str', 'required': True}
    assert spec['wait'] == {'type': 'bool', 'default': False} and spec['wait_timeout'] == {'type': 'int', 'default': 60}
    assert spec['repeat'] == {'type': 'str', 'choices': ['once', 'always'], 'default': 'once'}
    assert 'state' not in spec and 'id' not in spec
    assert 'wait' not in Rename.full_argument_spec() and 'network' not in Rename.full_argument_spec()


def test_the_oldest_pending_copy_with_the_same_body_is_the_tasks():
    copies = [queued('r2', at='2026-01-02T00:00:00Z'), queued('r1'), queued('r3', depth=5), queued('r4', state='done')]
    client = network_server(copies)
    result = engine(Rebuild, client, network='office').run()
    assert result['changed'] is False and result['rebuild']['id'] == 'r1' and client.writes() == []


@pytest.mark.parametrize('other', [queued('r1', depth=5), queued('r1', state='done')])
def test_another_body_or_a_finished_copy_does_not_hold_the_request_back(other):
    client = network_server([other])
    assert engine(Rebuild, client, network='office').run()['changed'] is True
    assert [call[:2] for call in client.writes()] == [('POST', '/networks/n1/rebuilds')]


def test_check_mode_plans_the_request_with_the_pending_values():
    client = network_server()
    result = engine(Rebuild, client, check_mode=True, network='office').run()
    assert result['rebuild'] == {'id': '(new rebuild full)', 'state': 'queued', 'spec': {'mode': 'full', 'options': {'depth': 2}}}
    assert result['changed'] is True and client.writes() == []


def test_wait_reads_until_it_is_no_longer_pending(clock):
    reads = iter([queued('r9'), dict(queued('r9'), state='done')])
    client = network_server(**{'/networks/n1/rebuilds/r9': lambda body: next(reads)})
    result = engine(Rebuild, client, network='office', wait=True).run()
    assert result['changed'] is True and result['rebuild']['state'] == 'done'
    assert clock.waits == [1.0, 1.0]


def test_a_failed_outcome_fails_the_task_with_its_reason_and_the_change_it_made():
    client = network_server(**{'/networks/n1/rebuilds/r9': dict(queued('r9'), state='error', error='disk full')})
    with pytest.raises(TaskError) as failure:
        engine(Rebuild, client, network='office', wait=True).run()
    assert str(failure.value) == 'the rebuild r9 on the network office failed: disk full'
    assert failure.value.details['changed'] is True and failure.value.details['rebuild']['id'] == 'r9'


def test_waiting_on_the_pending_copy_is_no_change_even_when_it_times_out():
    client = network_server([queued('r1')], **{'/networks/n1/rebuilds/r1': queued('r1')})
    with pytest.raises(TaskError) as failure:
        engine(Rebuild, client, network='office', wait=True, wait_timeout=3).run()
    assert str(failure.value) == ('the rebuild r1 on the network office is still pending after 3 seconds (a worker takes it); '
                                  'read it later with nms.overlay.rebuild_info')
    assert failure.value.details['changed'] is False and client.writes() == []


def test_wait_timeout_is_checked_before_any_request():
    client = network_server()
    with pytest.raises(TaskError, match='option wait_timeout: must be at least 1'):
        engine(Rebuild, client, network='office', wait=True, wait_timeout=0).run()
    assert client.calls == []


def test_a_done_answer_is_no_change_once_and_a_failure_always():
    done = ApiError('POST', '/networks/n1/rebuilds', 409, 'network rebuilt already')
    client = network_server(post=done)
    task = engine(Rebuild, client, network='office')
    assert task.run() == {'changed': False, 'rebuild': {}}
    assert task.module.warnings == ['the network office was rebuilt already: nothing sent']
    with pytest.raises(TaskError) as failure:
        engine(Rebuild, client, network='office', repeat='always').run()
    assert str(failure.value) == '%s: the network office was rebuilt already' % done


def test_another_answer_of_that_status_fails_as_the_server_words_it():
    refused = ApiError('POST', '/networks/n1/rebuilds', 409, 'network is locked')
    client = network_server(post=refused)
    with pytest.raises(ApiError, match='network is locked'):
        engine(Rebuild, client, network='office').run()


def test_an_answer_that_is_no_created_object_is_refused():
    client = network_server(post={})
    with pytest.raises(ApiError, match='the answer is not the created rebuild'):
        engine(Rebuild, client, network='office').run()


def test_a_parent_that_is_read_is_read_once_and_shown():
    me = {'id': 'u1', 'email': 'me@example.com', 'role': 'owner'}
    client = FakeClient({'/users/current': me, ('PUT', '/users/u1/display-name'): None})
    assert engine(Rename, client, label='Me').run() == {'changed': True, 'user': {'id': 'u1', 'email': 'me@example.com'}, 'renamed': True}
    assert client.calls == [('GET', '/users/current', None), ('PUT', '/users/u1/display-name', {'display_name': 'Me'})]
    client = FakeClient({'/users/current': me})
    assert engine(Rename, client, check_mode=True, label='Me').run()['renamed'] is True
    assert client.calls == [('GET', '/users/current', None)]


# -- create-only -------------------------------------------------------------------------------------------------

class Lease(CreateOnly):
    """A create-only object under a network that lives in the account's peer list: a peer of the name is the lease when
    the network's leases list names it."""

    what = 'lease'
    parent = ('networks', 'network')
    sub_path = '/leases'
    kind = 'peers'
    linked_through = 'policies'
    never_answered = ('secret',)
    fields = dict(
        name=Field(dict(type='str', required=True), immutable=True),
        secret=Field(immutable=True),
        ports=Field('list', many=True, immutable=True),
    )

    def linked(self, item):
        network = ref_id(self.parent_object(self))
        for policy in self.resolver.items('policies'):
            if policy.get('peer') == ref_id(item) and policy.get('network') == network:
                return dict(id=ref_id(item), name=item.get('name'), ports=policy.get('ports'))
        return None


class LeaseServer(FakeClient):
    """Peers and the policies that link them to networks, as a server keeps them (a create adds both)."""

    def __init__(self, peers=(), policies=(), lose_answer=False):
        super().__init__({'/networks': NETWORKS})
        self.peers, self.policies, self.lose_answer = list(peers), list(policies), lose_answer
        self.routes['/peers'] = lambda body: list(self.peers)
        self.routes['/policies'] = lambda body: list(self.policies)
        self.routes[('POST', '/networks/n1/leases')] = self.create

    def create(self, body):
        peer = {'id': 'p%d' % (len(self.peers) + 1), 'name': body['name']}
        self.peers.append(peer)
        self.policies.append({'id': 'x' + peer['id'], 'peer': peer['id'], 'network': 'n1', 'ports': body['ports']})
        if self.lose_answer:
            raise ApiError('POST', '/networks/n1/leases', None, 'the connection was reset')
        return dict(peer, ports=body['ports'])


LEASE = dict(network='office', name='lease-a', secret='s3cr3t', ports=['22', '443'])
LINKED = ([{'id': 'p1', 'name': 'lease-a'}], [{'id': 'x1', 'peer': 'p1', 'network': 'n1', 'ports': ['443', '22']}])


def test_a_create_goes_under_the_parent_and_shows_neither_the_never_answered_field():
    client = LeaseServer()
    result = engine(Lease, client, **LEASE).run()
    assert client.writes() == [('POST', '/networks/n1/leases', {'name': 'lease-a', 'secret': 's3cr3t', 'ports': ['22', '443']})]
    assert result == {'changed': True, 'lease': {'id': 'p1', 'name': 'lease-a', 'ports': ['22', '443'], 'network': 'n1'},
                      'diff': {'before': {}, 'after': {'name': 'lease-a', 'ports': ['22', '443']}}}


def test_check_mode_names_the_planned_object_after_the_kind_it_makes():
    client = LeaseServer()
    result = engine(Lease, client, check_mode=True, **LEASE).run()
    assert result['lease'] == {'id': '(new peer lease-a)', 'name': 'lease-a', 'ports': ['22', '443'], 'network': 'n1'}
    assert client.writes() == []


def test_found_by_name_and_link_it_is_never_changed():
    client = LeaseServer(*LINKED)
    task = engine(Lease, client, **LEASE)  # the same ports in another order, and a secret no answer holds
    assert task.run() == {'changed': False, 'lease': {'id': 'p1', 'name': 'lease-a', 'ports': ['443', '22'], 'network': 'n1'}}
    assert task.module.warnings == [] and client.writes() == []
    task = engine(Lease, client, **dict(LEASE, ports=['80']))
    assert task.run()['changed'] is False and client.writes() == []
    assert task.module.warnings == ["the lease 'lease-a' keeps its ports 443, 22, not 80: servers cannot change them; delete it "
                                    "(state: absent) and create it again to change them"]


def test_a_peer_of_the_name_that_is_not_linked_is_not_it():
    peers, dummy = LINKED
    client = LeaseServer(peers, [{'id': 'x1', 'peer': 'p1', 'network': 'n2', 'ports': ['22']}])
    assert engine(Lease, client, **LEASE).run()['changed'] is True


def test_delete_at_the_kinds_path_and_again():
    client = LeaseServer(*LINKED)
    result = engine(Lease, client, network='office', name='lease-a', state='absent').run()
    assert result['changed'] is True and client.writes() == [('DELETE', '/peers/p1', None)]
    assert result['diff'] == {'before': {'name': 'lease-a', 'ports': ['443', '22']}, 'after': {}}
    client = LeaseServer()
    assert engine(Lease, client, network='office', name='lease-a', state='absent').run() == {'changed': False, 'lease': {}}


def test_an_unknown_parent_fails_state_absent_too():
    with pytest.raises(TaskError, match="no network with the id or name 'attic'"):
        engine(Lease, LeaseServer(), network='attic', name='lease-a', state='absent').run()


def test_several_linked_of_the_name_are_refused_with_their_ids():
    peers = [{'id': 'p1', 'name': 'lease-a'}, {'id': 'p2', 'name': 'lease-a'}]
    policies = [{'id': 'x1', 'peer': 'p1', 'network': 'n1'}, {'id': 'x2', 'peer': 'p2', 'network': 'n1'}]
    with pytest.raises(TaskError) as failure:
        engine(Lease, LeaseServer(peers, policies), **LEASE).run()
    assert str(failure.value) == "name 'lease-a' matches 2 objects under office (ids: p1, p2)"


def test_a_lost_create_answer_is_read_back_with_both_lists_never_sent_twice():
    client = LeaseServer(lose_answer=True)
    client.peers.append({'id': 'p0', 'name': 'lease-a'})  # a namesake: the policies are read before the create
    result = engine(Lease, client, **LEASE).run()
    assert [call[:2] for call in client.writes()] == [('POST', '/networks/n1/leases')]
    assert result['changed'] is True and result['lease']['id'] == 'p2'
    assert [call[1] for call in client.calls if call[0] == 'GET'].count('/policies') == 2
