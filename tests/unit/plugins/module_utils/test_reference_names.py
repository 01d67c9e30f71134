# -*- coding: utf-8 -*-
"""Issue 43, 4: a diff names references from a table the resolver makes once per known list, not once per object:
the same names as before (a name shown alone, a shared one with its id, an unknown id as it is, summaries learned
from the objects where the lists do not know the id), and a new table once a create, rename or drop makes the list
a new one."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._diff import ReferenceNames, kind_name
from ansible_collections.nms.overlay.plugins.module_utils._resolve import Resolver
from tests.support.fakes import FakeClient


def resolver_with(groups):
    resolver = Resolver(FakeClient())
    resolver.seed('groups', groups)
    return resolver


GROUPS = [{'id': 'g1', 'name': 'web'}, {'id': 'g2', 'name': 'db'}, {'id': 'g3', 'name': 'db'}, {'id': 'g4', 'name': ''}]


def test_ids_show_as_names_a_shared_name_with_its_id_an_unknown_id_as_it_is():
    names = ReferenceNames(resolver_with(GROUPS))
    assert names.show('groups', 'g1') == 'web'
    assert names.show('groups', 'g2') == 'db (g2)'
    assert names.show('groups', ['g3', 'g1', 'nowhere', 'g4']) == ['db (g3)', 'g4', 'nowhere', 'web']
    assert names.show('groups', True) is True and names.show('groups', '') == ''


def test_learned_summaries_name_ids_the_lists_do_not_know_and_the_lists_win():
    names = ReferenceNames(resolver_with(GROUPS))
    names.learn('groups', [{'id': 'g9', 'name': 'web'}, {'id': 'g1', 'name': 'stale name'}, {'id': 'g8', 'name': 'new'}])
    assert names.show('groups', 'g1') == 'web (g1)'  # the list's name, now shared with g9
    assert names.show('groups', 'g9') == 'web (g9)'
    assert names.show('groups', 'g8') == 'new'


def test_without_a_resolver_only_learned_summaries_name_ids():
    names = ReferenceNames(None)
    assert names.show('groups', 'g1') == 'g1'
    names = ReferenceNames(None)
    names.learn('groups', {'id': 'g1', 'name': 'web'})
    assert names.show('groups', 'g1') == 'web'


def test_the_table_is_made_once_per_list_and_anew_when_the_list_changes():
    groups = [{'id': 'g%d' % i, 'name': 'n%d' % i} for i in range(500)]
    resolver = resolver_with(groups)
    calls = []

    def counting_name_of(kind, item):
        calls.append(item)
        return kind_name(kind, item)

    for dummy in range(3):  # three objects' diffs in one run: one table
        table, counts = resolver.names_table('groups', counting_name_of)
        assert table['g7'] == 'n7' and counts['n7'] == 1
    assert len(calls) == 500

    resolver.replace('groups', {'id': 'g500', 'name': 'n7'})  # a create: a new list, a new table
    table, counts = resolver.names_table('groups', counting_name_of)
    assert table['g500'] == 'n7' and counts['n7'] == 2 and len(calls) == 1001
    assert ReferenceNames(resolver).show('groups', 'g7') == 'n7 (g7)'

    resolver.replace('groups', {'id': 'g7', 'name': 'renamed'})  # a rename
    assert ReferenceNames(resolver).show('groups', 'g7') == 'renamed'
    resolver.drop('groups', 'g7')  # a drop
    assert ReferenceNames(resolver).show('groups', 'g7') == 'g7'
    assert ReferenceNames(resolver).show('groups', 'g500') == 'n7'
