# -*- coding: utf-8 -*-
"""A replacement setup key's lifetime from the old key's dates; values that name two things by different fields;
the closest names for unknown ones."""

from __future__ import annotations

import datetime

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._resolve import ResolveError, find_unique, suggestions, with_group_names
from ansible_collections.nms.overlay.plugins.module_utils._resources.setup_key import DEFAULT_KEY_EXPIRES_IN, created_lifetime

UTC = datetime.timezone.utc


def iso(moment):
    return moment.strftime('%Y-%m-%dT%H:%M:%S.%fZ')


def key_made(lifetime, ago, changed_ago=None):
    """A key created ``ago`` seconds ago with expires_in ``lifetime``, last changed ``changed_ago`` seconds ago."""
    now = datetime.datetime.now(UTC)
    created = now - datetime.timedelta(seconds=ago)
    changed = created if changed_ago is None else now - datetime.timedelta(seconds=changed_ago)
    return {'expires': iso(created + datetime.timedelta(seconds=lifetime)), 'updated_at': iso(changed)}


@pytest.mark.parametrize('lifetime', [86400, 2 * 86400, 30 * 86400, 365 * 86400, 86400 + 3 * 3600])
def test_a_key_never_changed_gives_its_whole_lifetime(lifetime):
    # expired or used up: its dates still span its lifetime, whole days rounded back from the server's milliseconds
    for ago in (10, 3 * 86400, 400 * 86400):
        got = created_lifetime(key_made(lifetime, ago))
        assert abs(got - lifetime) <= 2, (lifetime, ago, got)
        if lifetime % 86400 == 0:
            assert got == lifetime


def test_a_key_changed_later_gives_less_and_unknown_dates_the_default():
    # revoked 10 days after its creation with 30 days: 20 days are all its dates tell
    assert created_lifetime(key_made(30 * 86400, 15 * 86400, changed_ago=5 * 86400)) == 20 * 86400
    # never less than the day a server accepts
    assert created_lifetime(key_made(30 * 86400, 40 * 86400, changed_ago=1)) == 86400
    assert created_lifetime({'expires': None}) == DEFAULT_KEY_EXPIRES_IN
    assert created_lifetime({}) == DEFAULT_KEY_EXPIRES_IN


ZONES = [{'id': 'z1', 'name': 'Alpha', 'domain': 'a.example.com'},
         {'id': 'z2', 'name': 'a.example.com', 'domain': 'b.example.com'},
         {'id': 'z3', 'name': 'c.example.com', 'domain': 'c.example.com'}]


def test_a_value_that_is_one_items_field_and_another_items_other_field_is_ambiguous():
    with pytest.raises(ResolveError) as info:
        find_unique(ZONES, 'a.example.com', ('domain', 'name'), 'DNS zone', 'zone')
    assert str(info.value) == ("zone: 'a.example.com' is the domain of the DNS zone with id z1 and the name of the DNS "
                               "zone with id z2; give the id instead")
    # one item whose fields agree, one field of one item, an id: no doubt
    assert find_unique(ZONES, 'c.example.com', ('domain', 'name'), 'DNS zone', 'zone')['id'] == 'z3'
    assert find_unique(ZONES, 'Alpha', ('domain', 'name'), 'DNS zone', 'zone')['id'] == 'z1'
    assert find_unique(ZONES, 'b.example.com', ('domain', 'name'), 'DNS zone', 'zone')['id'] == 'z2'
    assert find_unique(ZONES, 'z2', ('domain', 'name'), 'DNS zone', 'zone')['id'] == 'z2'
    assert find_unique(ZONES, 'nope', ('domain', 'name'), 'DNS zone', 'zone') is None


def test_suggestions_are_the_closest_existing_names():
    groups = [{'id': 'g1', 'name': 'servers'}, {'id': 'g2', 'name': 'developers'}, {'id': 'g3', 'name': 'server-room'}]
    assert suggestions(groups, ['servres'], ('name',)) == ['servers']
    assert suggestions(groups, ['devs', 'zzz'], ('name',)) == []
    assert suggestions(groups, ['developer'], ('name',)) == ['developers']


class Listing:
    def __init__(self, items):
        self.items_read = 0
        self._items = items

    def items(self, kind):
        self.items_read += 1
        return self._items


def test_group_references_show_with_names_and_an_empty_list_reads_nothing():
    resolver = Listing([{'id': 'g1', 'name': 'servers'}])
    assert with_group_names({'auto_groups': ['g1', 'gone']}, ('auto_groups',), resolver) == {
        'auto_groups': [{'id': 'g1', 'name': 'servers'}, {'id': 'gone', 'name': None}]}
    resolver = Listing([])
    assert with_group_names({'auto_groups': [], 'groups': None}, ('auto_groups', 'groups'), resolver) == {
        'auto_groups': [], 'groups': []}
    assert resolver.items_read == 0
