# -*- coding: utf-8 -*-
"""Unit tests of name resolution and normalisation."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils import _compare as cmp
from ansible_collections.nms.overlay.plugins.module_utils._resolve import ResolveError, Resolver
from ansible_collections.nms.overlay.plugins.module_utils._client import ShapedReads


class ListingClient(ShapedReads):
    def __init__(self, lists):
        self.lists = lists
        self.gets = []

    def get(self, path, query=None):
        self.gets.append(path)
        return self.lists[path]


PEERS = [
    {'id': 'p1', 'name': 'web'},
    {'id': 'p2', 'name': 'web'},
    {'id': 'p3', 'name': 'db'},
]


def test_names_and_ids_resolve_with_one_list_request():
    client = ListingClient({'/peers': PEERS})
    resolver = Resolver(client)
    assert resolver.to_ids('peers', ['db', 'p1'], 'peers') == ['p3', 'p1']
    assert resolver.to_id('peers', 'p2', 'peers') == 'p2'
    assert client.gets == ['/peers']


def test_unknown_names_are_all_listed():
    resolver = Resolver(ListingClient({'/peers': PEERS}))
    with pytest.raises(ResolveError) as err:
        resolver.to_ids('peers', ['db', 'nope', 'gone'], 'peers')
    assert str(err.value) == "peers: no peer with the id or name 'nope', 'gone'"


def test_ambiguous_name_fails_listing_ids():
    resolver = Resolver(ListingClient({'/peers': PEERS}))
    with pytest.raises(ResolveError) as err:
        resolver.to_ids('peers', ['web'], 'peers')
    assert str(err.value) == "peers: the name 'web' matches 2 peers (ids: p1, p2); give the id instead"


def test_users_match_email_then_name():
    users = [{'id': 'u1', 'email': 'a@x.test', 'name': 'Ann'}, {'id': 'u2', 'email': '', 'name': 'ci-bot'}]
    resolver = Resolver(ListingClient({'/users': users}))
    assert resolver.to_ids('users', ['a@x.test', 'ci-bot', 'u1'], 'user') == ['u1', 'u2', 'u1']


def test_emails_match_without_regard_to_case_but_names_do_not():
    users = [{'id': 'u1', 'email': 'Ann@X.test', 'name': 'Ann'}, {'id': 'u2', 'email': None, 'name': 'ci-bot'}]
    resolver = Resolver(ListingClient({'/users': users}))
    assert resolver.to_ids('users', ['ann@x.test', 'ANN@X.TEST'], 'user') == ['u1', 'u1']
    with pytest.raises(ResolveError):
        resolver.to_id('users', 'CI-BOT', 'user')


def test_seeded_list_saves_the_request():
    client = ListingClient({})
    resolver = Resolver(client)
    resolver.seed('groups', [{'id': 'g1', 'name': 'All'}])
    assert resolver.to_id('groups', 'All', 'sources') == 'g1'
    assert resolver.name_of('groups', 'g1') == 'All'
    assert client.gets == []


def test_id_set_accepts_summaries_ids_numbers_and_null():
    assert cmp.id_set(None) == []
    assert cmp.id_set([{'id': 'b', 'name': 'x'}, 'a', {'id': 'b'}]) == ['a', 'b']
    assert cmp.id_set([3, '3']) == ['3']
    assert cmp.id_list([{'id': 'b'}, 'a']) == ['b', 'a']


def test_cidr_compares_by_value():
    assert cmp.cidr('10.0.0.5/24') == '10.0.0.0/24'
    assert cmp.cidr('2001:db8::1/64') == '2001:db8::/64'
    assert cmp.cidr('not-a-cidr') == 'not-a-cidr'


def test_flatten_reads_nested_ranges():
    assert cmp.flatten([['10.0.0.0/8', '192.168.0.0/16']]) == ['10.0.0.0/8', '192.168.0.0/16']
    assert cmp.flatten(['10.0.0.0/8']) == ['10.0.0.0/8']
    assert cmp.flatten(None) == []


def test_unwrap_items_accepts_both_shapes():
    assert cmp.unwrap_items({'items': {'disabled_management_groups': []}}) == {'disabled_management_groups': []}
    assert cmp.unwrap_items({'disabled_management_groups': None}) == {'disabled_management_groups': None}


def test_differing_keys():
    assert cmp.differing_keys({'a': 1, 'b': [1]}, {'a': 1, 'b': [2]}) == ['b']
