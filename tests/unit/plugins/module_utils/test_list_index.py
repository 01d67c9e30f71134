# -*- coding: utf-8 -*-
"""Issue 43, 4: a long list is looked up through its index (ListIndex), and find_unique decides on the few candidates
exactly as on the whole list: the same object, the same error for an ambiguous name, an id that is another's name, a
caseless email, an unknown value."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._resolve import (
    INDEXED_FROM, ListIndex, ResolveError, Resolver, find_unique,
)
from tests.support.fakes import FakeClient

FIELDS = ('name', 'email')  # users: found by name, or by email in any case


def long_list():
    items = [{'id': 'id-%03d' % i, 'name': 'n-%03d' % i, 'email': 'User%03d@Example.com' % i} for i in range(INDEXED_FROM * 2)]
    items += [{'id': 'dup-1', 'name': 'twice'}, {'id': 'dup-2', 'name': 'twice'},  # an ambiguous name
              {'id': 'clash', 'name': 'x'}, {'id': 'y', 'name': 'clash'},  # an id that is another's name
              {'id': 7, 'name': 7}, 'not an object', {'name': ['a', 'list']}]  # odd answers: no match, no crash
    return items


def outcome(items, value):
    try:
        found = find_unique(items, value, FIELDS, 'user', 'users')
    except ResolveError as exc:
        return 'error', str(exc)
    return 'found', found


@pytest.mark.parametrize('value', ['n-005', 'id-007', 'user010@example.COM', 'twice', 'clash', 'nowhere', '7', 'a'])
def test_the_index_gives_find_unique_the_same_answer_as_the_whole_list(value):
    items = long_list()
    narrowed = ListIndex(items).candidates(value, FIELDS)
    assert outcome(narrowed, value) == outcome([item for item in items if isinstance(item, dict)], value)
    assert len(narrowed) <= 2  # a few candidates, not the list


def test_the_resolver_indexes_a_long_list_once_and_anew_when_the_list_changes():
    resolver = Resolver(FakeClient())
    items = long_list()
    resolver.seed('users', items)
    assert resolver.find_unique('users', 'n-001', FIELDS, 'user', 'users')['id'] == 'id-001'
    index = resolver._indexes['users']  # pylint: disable=protected-access
    resolver.find_unique('users', 'n-002', FIELDS, 'user', 'users')
    assert resolver._indexes['users'] is index  # pylint: disable=protected-access
    resolver.replace('users', {'id': 'new', 'name': 'made now'})  # a create of the task: the index follows, no rebuild
    assert resolver.find_unique('users', 'made now', FIELDS, 'user', 'users')['id'] == 'new'
    resolver.replace('users', {'id': 'id-003', 'name': 'renamed'})  # an update: the old name no longer names it
    assert resolver.find_unique('users', 'n-003', FIELDS, 'user', 'users') is None
    assert resolver.find_unique('users', 'renamed', FIELDS, 'user', 'users')['id'] == 'id-003'
    resolver.drop('users', 'new')
    assert resolver.find_unique('users', 'made now', FIELDS, 'user', 'users') is None
    assert resolver._indexes['users'] is index  # pylint: disable=protected-access
    assert index.items is resolver.items('users') and len(index.items) == len(items)  # one added, one dropped
    with pytest.raises(ResolveError, match="matches 2 users"):
        resolver.to_ids('users', ['twice'], 'users')
    resolver.forget('users')  # a list read again is indexed anew, never through the old list's index
    assert 'users' not in resolver._indexes  # pylint: disable=protected-access
    short = long_list()[:INDEXED_FROM - 1]
    assert resolver.narrowed('users', short, 'n-001', FIELDS) is short  # a short list is scanned as it is


def test_objects_read_under_their_parent_are_held_by_the_account_wide_list():
    """A network's resources listed under it, one a concurrent run made after the account-wide list was read: that list
    (and its index) holds them as read, so that a policy's rule later in the run finds the new one by name."""
    resolver = Resolver(FakeClient())
    items = long_list()
    resolver.seed('users', items)
    assert resolver.find_unique('users', 'made elsewhere', FIELDS, 'user', 'users') is None
    resolver.hold_current('users', [{'id': 'late', 'name': 'made elsewhere'}, {'id': 'id-004', 'name': 'n-004'}, None])
    assert resolver.find_unique('users', 'made elsewhere', FIELDS, 'user', 'users')['id'] == 'late'
    assert len(resolver.items('users')) == len(items) + 1  # the known one replaced, not repeated
    resolver.hold_current('groups', [{'id': 'g', 'name': 'never read'}])  # a list not read stays unread
    assert 'groups' not in resolver._items  # pylint: disable=protected-access
