# -*- coding: utf-8 -*-
"""Unit tests of name resolution and normalisation."""

from __future__ import annotations

import re

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


# -- pydantic errors as short rules ----------------------------------------------------------------------
def test_pydantic_errors_read_as_short_rules():
    from typing import Dict, List, Literal, Optional

    from pydantic import ConfigDict, Field, conint, constr

    from ansible_collections.nms.overlay.plugins.module_utils._models import Options, OptionsError, validate

    class Item(Options):
        model_config = ConfigDict(extra='forbid')
        ip: str
        kind: Literal['udp', 'tcp'] = 'udp'

    class Model(Options):
        groups: Optional[List[str]] = Field(default=None, min_length=1)
        many: Optional[List[int]] = Field(default=None, max_length=2)
        tags: Optional[Dict[str, str]] = Field(default=None, max_length=1)
        name: Optional[constr(min_length=1, max_length=3)] = None
        code: Optional[constr(min_length=2)] = None
        port: Optional[conint(ge=1, le=9)] = None
        count: Optional[int] = None
        flag: Optional[bool] = None
        items: Optional[List[Item]] = None

    cases = {
        'groups': ([], 'must list at least 1 item'),
        'many': ([1, 2, 3], 'must list at most 2 items'),
        'tags': ({'a': 'b', 'c': 'd'}, 'must have at most 1 entry'),
        'name': ('abcd', 'must be at most 3 characters long'),
        'code': ('a', 'must be at least 2 characters long'),
        'port': (0, 'must be at least 1'),
        'count': ('x', 'must be a whole number'),
        'flag': ('maybe', 'must be true or false'),
    }
    for option, (value, rule) in cases.items():
        with pytest.raises(OptionsError) as err:
            validate(Model, {option: value})
        assert str(err.value) == 'option %s: %s' % (option, rule)
    with pytest.raises(OptionsError) as err:
        validate(Model, {'name': '', 'port': 10, 'items': [{'kind': 'icmp', 'extra': 1}, 'x']})
    assert str(err.value) == ("option name: must not be empty; option port: must be at most 9; option items[0].ip: is required; "
                              "option items[0].kind: must be 'udp' or 'tcp'; option items[0].extra: is not a known option; "
                              "option items[1]: must be a dictionary")
    assert 'should' not in str(err.value) and 'after validation' not in str(err.value)


def test_a_singleton_is_read_once_per_task_and_kept_as_a_write_leaves_it():
    client = ListingClient({'/dns/settings': {'items': {'disabled_management_groups': ['g1']}}})
    resolver = Resolver(client)
    assert resolver.settings('/dns/settings') == {'disabled_management_groups': ['g1']}
    assert resolver.settings('/dns/settings') == {'disabled_management_groups': ['g1']}
    assert client.gets == ['/dns/settings']
    resolver.keep_settings('/dns/settings', {'disabled_management_groups': []})
    assert resolver.settings('/dns/settings') == {'disabled_management_groups': []}
    assert client.gets == ['/dns/settings']


@pytest.mark.parametrize('answer, expected', [
    ([{'id': 'a1'}], {'id': 'a1'}),
    ({'id': 'a1'}, {'id': 'a1'}),
    ({'items': {'id': 'a1'}}, {'id': 'a1'}),
    ([], None),
    ([{'id': 'a1'}, {'id': 'a2'}], None),
    (['a1'], None),
    (None, None),
])
def test_the_account_is_the_single_account_of_the_answer(answer, expected):
    assert cmp.the_account(answer) == expected


def test_an_id_that_is_another_objects_name_is_ambiguous():
    """Issue 18, point 12: DESIGN says never take the first; the id used to win silently."""
    groups = [{'id': 'g1', 'name': 'servers'}, {'id': 'g2', 'name': 'g1'}, {'id': 'g3', 'name': 'g3'}]
    resolver = Resolver(ListingClient({'/groups': groups}))
    with pytest.raises(ResolveError) as err:
        resolver.to_ids('groups', ['g1'], 'rules[0].sources')
    assert str(err.value) == ("rules[0].sources: 'g1' is the id of the group 'servers' (id g1) and the name of the group "
                              "with id g2; rename one of them to tell them apart")
    # an object whose own name is its id is no ambiguity; other ids and names resolve as before
    assert resolver.to_ids('groups', ['g3', 'servers', 'g2'], 'groups') == ['g3', 'g1', 'g2']


# -- a few peer names read by name (GET /peers?name=, a SQL LIKE on today's servers, ignored by v0.27) ---------------------

XL_PEERS = [{'id': 'p%05d' % index, 'name': 'host-%05d' % index} for index in range(200)] + [
    {'id': 'pa', 'name': 'web_1'}, {'id': 'pb', 'name': 'WEB-1'}, {'id': 'pc', 'name': 'db'}, {'id': 'pd', 'name': 'db'}]


def like(value, peers=XL_PEERS):
    """What v0.77.1 answers for ?name=value (measured on the real server: any case, _ any one character)."""
    pattern = re.compile(''.join('.' if char == '_' else '.*' if char == '%' else re.escape(char) for char in value), re.I)
    return [peer for peer in peers if pattern.search(peer['name'])]


class FilteringClient(ShapedReads):
    """A server that filters /peers by name (today's) or ignores the filter (v0.27: ``filters`` false)."""

    def __init__(self, filters=True):
        self.filters = filters
        self.gets = []

    def get(self, path, query=None):
        self.gets.append((path, query))
        if query and self.filters:
            return like(query['name'])
        return XL_PEERS


def test_a_few_names_are_read_by_name_where_the_server_filters():
    client = FilteringClient()
    resolver = Resolver(client, few_names=True)
    assert resolver.to_ids('peers', ['host-00007', 'web_1'], 'peers') == ['p00007', 'pa']
    assert client.gets == [('/peers', {'name': 'host-00007'}), ('/peers', {'name': 'web_1'})]
    assert resolver.cached('peers') is None  # a filtered answer is never taken for the whole list
    # the next resolution of the task reads the whole list
    assert resolver.to_ids('peers', ['host-00008'], 'peers') == ['p00008']
    assert client.gets[-1] == ('/peers', None)


def test_a_server_that_ignores_the_filter_costs_one_request_as_before():
    client = FilteringClient(filters=False)
    resolver = Resolver(client, few_names=True)
    assert resolver.to_ids('peers', ['host-00007', 'web_1'], 'peers') == ['p00007', 'pa']
    assert client.gets == [('/peers', {'name': 'host-00007'})]  # its answer held other names: the whole list, kept
    assert resolver.cached('peers') == XL_PEERS
    assert resolver.to_ids('peers', ['host-00001'], 'peers') == ['p00001']
    assert len(client.gets) == 1


def test_an_ambiguous_or_unknown_name_is_decided_on_the_whole_list():
    client = FilteringClient()
    resolver = Resolver(client, few_names=True)
    with pytest.raises(ResolveError) as err:
        resolver.to_ids('peers', ['db'], 'peers')
    assert str(err.value) == "peers: the name 'db' matches 2 peers (ids: pc, pd); give the id instead"
    with pytest.raises(ResolveError) as err:
        Resolver(FilteringClient(), few_names=True).to_ids('peers', ['host-0007'], 'peers')
    assert "no peer with the id or name 'host-0007'; did you mean" in str(err.value)


@pytest.mark.parametrize('values, few_names', [
    (['c8i4ug6lnn4g9hqv7l0a'], True),          # shaped like an id: the id of one may be the name of another
    (['host-%05d' % index for index in range(6)], True),  # more than 5 names: one list costs less
    (['host-00001'], False),                   # network_state: many references, each whole list once
])
def test_the_whole_list_is_read_where_names_may_not_suffice(values, few_names):
    client = FilteringClient()
    resolver = Resolver(client, few_names=few_names)
    try:
        resolver.to_ids('peers', values, 'peers')
    except ResolveError:
        pass
    assert client.gets == [('/peers', None)]


def groups_with(*holders):
    """A groups list as servers answer it: the groups named in ``holders`` (name, peers) and one of a few peers."""
    return [{'id': 'g%d' % index, 'name': name, 'peers': peers, 'peers_count': len(peers or [])}
            for index, (name, peers) in enumerate(holders)] + [{'id': 'gx', 'name': 'ops', 'peers': [XL_PEERS[0]]}]


ALL = [{'id': peer['id'], 'name': peer['name']} for peer in XL_PEERS]  # as the groups list holds the peers: {id, name}


@pytest.mark.parametrize('few_names', [True, False])
def test_peers_resolve_in_the_all_group_of_a_groups_list_the_task_has_read(few_names):
    """The All group lists every peer with its id and name: a task that has read the groups resolves peer names and
    ids there, with no request of its own, whatever the server (a filter by name or not) and the task (few names or a
    whole description)."""
    client = FilteringClient()
    resolver = Resolver(client, few_names=few_names)
    resolver.seed('groups', groups_with(('All', ALL)))
    assert resolver.to_ids('peers', ['host-00007', 'web_1', 'p00009'], 'peers') == ['p00007', 'pa', 'p00009']
    assert client.gets == []
    assert resolver.known('peers') == ALL and resolver.cached('peers') is None  # names for a diff, never the whole list


@pytest.mark.parametrize('holders', [
    (),                                   # no All group: groups of another source
    (('All', ALL), ('All', ALL[:3])),     # two groups named All (a v0.27 server lets one be renamed so)
    (('All', None),),                     # an All group of no peers (null, as servers answer it)
])
def test_peers_are_listed_as_before_where_the_groups_hold_no_single_all_group(holders):
    client = FilteringClient(filters=False)
    resolver = Resolver(client)
    resolver.seed('groups', groups_with(*holders))
    assert resolver.to_ids('peers', ['host-00007'], 'peers') == ['p00007']
    assert client.gets == [('/peers', None)]


def test_a_name_the_all_group_does_not_resolve_is_decided_on_the_whole_list():
    """Unknown and ambiguous names fail as they did, with the whole list's suggestions: the All group only ever saves
    the request of a resolution that succeeds."""
    for name, message in (('host-0007', "no peer with the id or name 'host-0007'; did you mean"),
                          ('db', "the name 'db' matches 2 peers (ids: pc, pd)")):
        client = FilteringClient(filters=False)
        resolver = Resolver(client)
        resolver.seed('groups', groups_with(('All', ALL)))
        with pytest.raises(ResolveError) as err:
            resolver.to_ids('peers', [name], 'peers')
        assert message in str(err.value)
        assert client.gets == [('/peers', None)]
    # a peer the All group does not hold (a list read before the peer joined): the whole list resolves it
    client = FilteringClient(filters=False)
    resolver = Resolver(client)
    resolver.seed('groups', groups_with(('All', [peer for peer in ALL if peer['id'] != 'p00007'])))
    assert resolver.to_ids('peers', ['host-00007'], 'peers') == ['p00007']
    assert client.gets == [('/peers', None)]


def test_names_read_by_name_resolve_again_without_a_request():
    """A task that resolves the same names twice (a router found by its routing peer, then its desired state) reads
    them by name once; another name is decided on the whole list, since those answers hold only their own names."""
    client = FilteringClient()
    resolver = Resolver(client, few_names=True)
    assert resolver.to_ids('peers', ['host-00007', 'web_1'], 'peer') == ['p00007', 'pa']
    assert resolver.to_id('peers', 'web_1', 'peer') == 'pa'
    assert resolver.to_ids('peers', ['web_1', 'host-00007'], 'peer') == ['pa', 'p00007']
    assert client.gets == [('/peers', {'name': 'host-00007'}), ('/peers', {'name': 'web_1'})]
    assert resolver.to_id('peers', 'host-00070', 'peer') == 'p00070'  # in an answer above, but never asked by name
    assert client.gets[-1] == ('/peers', None) and len(client.gets) == 3
    resolver.forget('peers')
    assert resolver.to_id('peers', 'web_1', 'peer') == 'pa'
    assert client.gets[-1] == ('/peers', None) and len(client.gets) == 4


@pytest.mark.parametrize('kinds, reads', [
    ({'groups', 'peers'}, ['/groups']),   # a route's peer and groups: the groups first, whose All group names the peer
    ({'peers'}, []),                      # no groups to resolve: nothing read ahead (a name filter may serve)
    ({'groups', 'posture_checks'}, []),   # no kind the All group lists
    (set(), []),
])
def test_the_groups_are_read_first_where_their_all_group_names_another_kind_of_the_task(kinds, reads):
    client = ListingClient({'/groups': groups_with(('All', ALL)), '/peers': XL_PEERS})
    resolver = Resolver(client, few_names=True)
    resolver.will_resolve(kinds)
    assert client.gets == reads
    if 'peers' in kinds:
        assert resolver.to_id('peers', 'host-00003', 'peer') == 'p00003'
        assert client.gets == reads + ([] if reads else ['/peers'])


def test_the_all_group_gives_a_diff_every_peer_name_even_after_a_read_by_name():
    """A peer read by name, then the groups: later names resolve in the All group, and the names a diff shows are
    all of its peers, not only those the read by name found."""
    client = FilteringClient()
    resolver = Resolver(client, few_names=True)
    assert resolver.to_id('peers', 'web_1', 'peer') == 'pa'
    resolver.seed('groups', groups_with(('All', ALL)))
    assert resolver.to_id('peers', 'host-00007', 'peer') == 'p00007'
    assert client.gets == [('/peers', {'name': 'web_1'})]
    assert resolver.known('peers') == ALL
