# -*- coding: utf-8 -*-
"""Unit tests of peer_temporary_access (no HTTP): created once, found again by its name and its policies, rules
checked before any request, no update, delete, and a v0.27 server's refusal."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._compare import rule_text
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resources.peer_temporary_access import PeerTemporaryAccessModule, rules_of
from tests.support.fakes import FakeClient, engine

VERSION = {'management_current_version': '0.77.1'}
KEY = 'n0r3pL4c3h0ld3rK3yAAAAAAAAAAAAAAAAAAAAAAAAA='
TARGET = {'id': 'p1', 'name': 'web-1'}
TEMPORARY = {'id': 't1', 'name': 'laptop', 'os': 'js ', 'ephemeral': True}


def policy(protocol, start, end, source='t1', target='p1'):
    return {'id': 'x%s%s' % (protocol, start), 'name': 'Temporary access policy for peer laptop',
            'rules': [{'protocol': protocol, 'port_ranges': [{'start': start, 'end': end}], 'sources': None, 'destinations': None,
                       'sourceResource': {'id': source, 'type': 'peer'}, 'destinationResource': {'id': target, 'type': 'peer'}}]}


def server(peers=(TARGET,), policies=()):
    return FakeClient({'/instance/version': VERSION, '/peers': list(peers), '/policies': list(policies),
                       ('POST', '/peers/p1/temporary-access'): lambda body: {'id': 't1', 'name': body['name'], 'rules': body['rules']}})


TASK = dict(peer='web-1', name='laptop', wg_pub_key=KEY, rules=['TCP/22', 'udp/53-60'])


def test_a_v027_server_refuses_it_after_the_version_probe():
    client = FakeClient({'/peers': [TARGET]})
    with pytest.raises(TaskError, match='does not have temporary access to peers'):
        engine(PeerTemporaryAccessModule, client, **TASK).run()
    assert client.calls == [('GET', '/instance/version', None)]


@pytest.mark.parametrize('text, rule', [('tcp/22', 'tcp/22'), (' UDP/53-53 ', 'udp/53'), ('tcp/1-65535', 'tcp/1-65535'), ('icmp', 'icmp'),
                                        ('all', 'all'), ('tcp', None), ('tcp/0', None), ('tcp/25-22', None), ('icmp/22', None),
                                        ('foo/1', None), ('tcp/70000', None)])
def test_rules_as_servers_take_them(text, rule):
    assert rule_text(text) == rule


def test_a_bad_rule_is_refused_before_any_request():
    client = server()
    with pytest.raises(TaskError, match=r"option rules\[1\]: 'tcp' is no rule"):
        engine(PeerTemporaryAccessModule, client, **dict(TASK, rules=['tcp/22', 'tcp'])).run()
    assert client.calls == []


def test_create_then_a_rerun_finds_it_by_name_and_policies():
    client = server()
    result = engine(PeerTemporaryAccessModule, client, **TASK).run()
    assert result['changed'] is True and result['temporary_access'] == {'id': 't1', 'name': 'laptop', 'rules': ['tcp/22', 'udp/53-60'], 'peer': 'p1'}
    assert client.writes() == [('POST', '/peers/p1/temporary-access', {'name': 'laptop', 'wg_pub_key': KEY, 'rules': ['tcp/22', 'udp/53-60']})]
    client = server([TARGET, TEMPORARY], [policy('tcp', 22, 22), policy('udp', 53, 60)])
    task = engine(PeerTemporaryAccessModule, client, **TASK)
    again = task.run()
    assert again == {'changed': False, 'temporary_access': {'id': 't1', 'name': 'laptop', 'peer': 'p1', 'rules': ['tcp/22', 'udp/53-60']}}
    assert client.writes() == [] and task.module.warnings == []


def test_a_peer_of_the_name_without_such_policies_is_not_it():
    client = server([TARGET, TEMPORARY], [policy('tcp', 22, 22, target='p9')])
    assert engine(PeerTemporaryAccessModule, client, **TASK).run()['changed'] is True


def test_other_rules_warn_and_change_nothing():
    client = server([TARGET, TEMPORARY], [policy('tcp', 22, 22)])
    task = engine(PeerTemporaryAccessModule, client, **dict(TASK, rules=['tcp/443']))
    assert task.run()['changed'] is False and client.writes() == []
    assert 'keeps its rules tcp/22, not tcp/443' in task.module.warnings[0]


def test_check_mode_plans_without_a_write():
    client = server()
    result = engine(PeerTemporaryAccessModule, client, check_mode=True, **TASK).run()
    assert result['changed'] is True and result['temporary_access']['id'] == '(new peer laptop)' and client.writes() == []


def test_two_of_the_name_are_ambiguous():
    other = dict(TEMPORARY, id='t2')
    client = server([TARGET, TEMPORARY, other], [policy('tcp', 22, 22), policy('tcp', 22, 22, source='t2')])
    with pytest.raises(TaskError, match='ids: t1, t2'):
        engine(PeerTemporaryAccessModule, client, **TASK).run()


def test_delete_and_delete_again():
    client = server([TARGET, TEMPORARY], [policy('tcp', 22, 22)])
    result = engine(PeerTemporaryAccessModule, client, peer='web-1', name='laptop', state='absent').run()
    assert result['changed'] is True and client.writes() == [('DELETE', '/peers/t1', None)]
    client = server()
    assert engine(PeerTemporaryAccessModule, client, peer='web-1', name='laptop', state='absent').run() == {
        'changed': False, 'temporary_access': {}}


def test_rules_of_a_policy_with_ports_or_icmp():
    assert rules_of({'rules': [{'protocol': 'icmp', 'port_ranges': [{'start': 0, 'end': 0}]}]}) == ['icmp']
    assert rules_of({'rules': [{'protocol': 'tcp', 'ports': ['22']}]}) == ['tcp/22']
