# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""network_state's plan of a kind's list (PlanResolver.items): the server's objects and a placeholder for each declared
name none of them has. It picks each name's candidates from an index that follows the placeholders it adds; the list it
gives is the one a scan of the whole list for each name gives (the reference below), on lists with names that differ
only in case (a user's email is caseless), names that are another object's id, and names several objects have."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ansible_collections.nms.overlay.plugins.module_utils._kind import placeholder_id
from ansible_collections.nms.overlay.plugins.module_utils._network_plan import PlanResolver
from ansible_collections.nms.overlay.plugins.module_utils._resolve import ResolveError, find_unique
from ansible_collections.nms.overlay.plugins.module_utils._tables import RESOLVER_TABLE


class Main:
    """The run's resolver as PlanResolver reads it: the lists, and nothing sent."""
    client = None

    def __init__(self, lists):
        self.lists = lists

    def items(self, kind):
        return self.lists[kind]


def scanned(server, kind, declared):
    """The plan as a scan of the whole list (with the placeholders added so far) for each name makes it."""
    items = list(server)
    dummy_path, what, fields = RESOLVER_TABLE[kind]
    for name in sorted(declared):
        try:
            known = find_unique(items, name, fields, what, kind)
        except ResolveError:
            continue
        if known is None:
            items.append({'id': placeholder_id(what, name), fields[0]: name})
    return items


WORDS = st.sampled_from(['web', 'Web', 'WEB', 'db', 'u1', 'u2', 'a@x.io', 'A@X.io', 'b@x.io', 'ops'])


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(['users', 'groups', 'dns_zones']), ids=st.lists(WORDS, max_size=6),
       names=st.lists(st.tuples(WORDS, WORDS), max_size=80), declared=st.sets(WORDS, max_size=8))
def test_the_plan_is_the_one_a_scan_makes(kind, ids, names, declared):
    dummy_path, dummy_what, fields = RESOLVER_TABLE[kind]
    server = [dict({'id': ids[index] if index < len(ids) else 'id%d' % index, fields[0]: first},
                   **({fields[1]: second} if len(fields) > 1 else {}))
              for index, (first, second) in enumerate(names)]
    plan = PlanResolver(Main({kind: server}), {kind: declared}).items(kind)
    assert plan == scanned(server, kind, declared)
    assert plan[:len(server)] == server  # the server's objects first, unchanged


def test_a_long_list_and_many_names():
    server = [{'id': 'g%d' % index, 'name': 'grp-%04d' % index} for index in range(600)]
    declared = {'grp-%04d' % index for index in range(0, 1200, 2)}  # half of them new
    plan = PlanResolver(Main({'groups': server}), {'groups': declared}).items('groups')
    assert plan == scanned(server, 'groups', declared)
    assert len(plan) == 600 + 300
