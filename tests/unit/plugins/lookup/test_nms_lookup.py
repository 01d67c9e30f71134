# -*- coding: utf-8 -*-
"""Unit tests of the lookup plugin nms.overlay.nms: term parsing, name matching and its errors, the kinds and the
connection options its documentation states against the declarations and the modules' own (the lookup through
ansible-playbook against the emulator: tests/integration/test_lookup.py)."""

from __future__ import annotations

import re

import pytest
import yaml

from ansible_collections.nms.overlay.plugins.doc_fragments.module import ModuleDocFragment
from ansible_collections.nms.overlay.plugins.doc_fragments.plugin import ModuleDocFragment as PluginDocFragment
from ansible_collections.nms.overlay.plugins.inventory import peers
from ansible_collections.nms.overlay.plugins.lookup import nms
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._lookup import TermError, lookup_kinds, parse_terms
from ansible_collections.nms.overlay.plugins.module_utils._resolve import ResolveError
from ansible_collections.nms.overlay.plugins.module_utils._tables import RESOLVER_TABLE
from ansible_collections.nms.overlay.plugins.module_utils._task import connection_argument_spec

KINDS = lookup_kinds()
DOC = yaml.safe_load(nms.DOCUMENTATION)


# -- parsing ---------------------------------------------------------------------------------------------------------

def test_a_kind_alone_asks_for_every_object_of_it():
    assert parse_terms(['groups', 'peers'], None, KINDS) == [('groups', 'groups', None), ('peers', 'peers', None)]


def test_a_name_is_everything_after_the_first_slash_as_it_is():
    terms = ['groups/ops', 'groups/site/berlin', "groups/ it's \"x\" ", 'groups/Zürich ☃', 'users/A@Example.com']
    assert [name for dummy, dummy, name in parse_terms(terms, None, KINDS)] == [
        'ops', 'site/berlin', " it's \"x\" ", 'Zürich ☃', 'A@Example.com']


def test_the_name_option_applies_to_each_bare_kind_in_order_commas_kept():
    assert parse_terms(['groups', 'setup_keys'], ['a,b', 'c'], KINDS) == [
        ('groups', 'groups', 'a,b'), ('groups', 'groups', 'c'), ('setup_keys', 'setup_keys', 'a,b'),
        ('setup_keys', 'setup_keys', 'c')]
    assert parse_terms(['groups'], 'ops', KINDS) == [('groups', 'groups', 'ops')]
    assert parse_terms(['groups'], [2024], KINDS) == [('groups', 'groups', '2024')]  # a number is its text


def test_a_list_among_the_terms_counts_as_its_entries():
    assert parse_terms([['groups/a', 'groups/b']], None, KINDS) == [('groups/a', 'groups', 'a'), ('groups/b', 'groups', 'b')]


@pytest.mark.parametrize('terms, names, message', [
    ([], None, 'no term: give a kind'),
    (['groupz'], None, "term 'groupz': 'groupz' is no kind the lookup reads (did you mean 'groups'?); the kinds are "),
    (['group/ops'], None, "(did you mean 'groups'?)"),
    (['nothing_like_it'], None, "'nothing_like_it' is no kind the lookup reads; the kinds are agent_network_budget_rules"),
    (['groups/'], None, "term 'groups/': nothing after the '/'"),
    (['groups/ops'], ['dev'], "term 'groups/ops': it names its object, so option name cannot apply to it"),
    (['groups'], [''], "option name: '' is not a non-empty text"),
    (['groups'], [True], 'option name: True is not a non-empty text'),
    (['groups'], [['a']], "option name: ['a'] is not a non-empty text"),
    ([''], None, "term '': a term is a text"),
    ([{'kind': 'groups'}], None, "term {'kind': 'groups'}: a term is a text"),
])
def test_a_term_or_name_that_cannot_be_read_is_named_with_the_rule(terms, names, message):
    with pytest.raises(TermError) as caught:
        parse_terms(terms, names, KINDS)
    assert message in str(caught.value)


# -- answers ---------------------------------------------------------------------------------------------------------

class FakeReader:
    def __init__(self, lists):
        self.lists = lists
        self.reads = []

    def items(self, kind):
        self.reads.append(kind.name)
        return self.lists[kind.name]


class FakeDisplay:
    def __init__(self):
        self.warnings = []

    def warning(self, message):
        self.warnings.append(message)


GROUPS = [{'id': 'g1', 'name': 'ops', 'peers': None}, {'id': 'g2', 'name': 'dup'}, {'id': 'g3', 'name': 'dup'},
          {'id': 'g4', 'name': 'site/berlin'}]


def answer(term, name=None, lists=None, **options):
    values = dict(result='object', on_missing='error')
    values.update(options)
    plugin = nms.LookupModule()
    plugin.get_option = values.get
    kind = KINDS[term.partition('/')[0]]
    return plugin._answer(FakeReader(lists or {'groups': GROUPS}), term, kind, name)  # pylint: disable=protected-access


def test_one_object_by_name_or_id_shaped_as_its_info_module_returns_it():
    found = answer('groups/ops', 'ops')
    assert [item['id'] for item in found] == ['g1'] and found[0]['peers'] == []  # a list field never null
    assert answer('groups/g4', 'g4', result='id') == ['g4']
    assert answer('groups/site/berlin', 'site/berlin', result='id') == ['g4']
    assert answer('groups', None, result='id') == ['g1', 'g2', 'g3', 'g4']


def test_a_setup_keys_value_never_leaves_the_lookup():
    keys = [{'id': 1, 'name': 'ci', 'key': 'A1B2C3D4-SECRET', 'auto_groups': None}]
    found = answer('setup_keys/ci', 'ci', lists={'setup_keys': keys})
    assert found[0]['id'] == '1' and 'key' not in found[0] and found[0]['auto_groups'] == []


def test_an_ambiguous_name_fails_listing_the_ids_whatever_on_missing_says():
    for on_missing in ('error', 'skip'):
        with pytest.raises(ResolveError) as caught:
            answer('groups/dup', 'dup', on_missing=on_missing)
        assert "term 'groups/dup': the name 'dup' matches 2 groups (ids: g2, g3); give the id instead" in str(caught.value)


def test_a_missing_name_fails_naming_kind_and_name_or_is_skipped(monkeypatch):
    with pytest.raises(TaskError) as caught:
        answer('groups/opz', 'opz')
    assert str(caught.value) == "term 'groups/opz': no group with the id or name 'opz'; did you mean 'ops'?"
    with pytest.raises(TaskError) as caught:
        answer('groups', 'opz')
    assert str(caught.value).startswith("term 'groups', name 'opz': no group with the id or name 'opz'")
    display = FakeDisplay()
    monkeypatch.setattr(nms, 'display', display)
    assert answer('groups/opz', 'opz', on_missing='skip') == [] and display.warnings == []
    assert answer('groups/opz', 'opz', on_missing='warn', result='id') == []
    assert display.warnings == ["nms.overlay.nms: term 'groups/opz': no group with the id or name 'opz'; did you mean 'ops'?"]


def test_users_match_their_email_in_any_case():
    users = [{'id': 'u1', 'email': 'Ann@Example.com', 'name': 'Ann'}]
    assert answer('users/ann@example.com', 'ann@example.com', lists={'users': users}, result='id') == ['u1']
    assert answer('users/Ann', 'Ann', lists={'users': users}, result='id') == ['u1']


# -- the kinds and the documentation ---------------------------------------------------------------------------------

def test_the_kinds_cover_every_kind_the_resolver_names_with_its_path_and_fields():
    for kind, (path, what, fields) in RESOLVER_TABLE.items():
        assert (KINDS[kind].path, KINDS[kind].what, KINDS[kind].fields) == (path, what, fields)


def info_module_kinds():
    """Whether each info module lists its kind account-wide, under its result key (as InfoModule names it), else its name."""
    import glob
    import importlib
    import os
    from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
    found = {}
    for path in sorted(glob.glob(os.path.join(os.path.dirname(nms.__file__), '..', 'modules', '*_info.py'))):
        module = importlib.import_module('ansible_collections.nms.overlay.plugins.modules.' + os.path.basename(path)[:-3])
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, InfoModule) and value is not InfoModule and value.resource:
                declared = value.resource
                name = value.plural or declared.kind or declared.result_key + 's'
                under_parent = declared.nested_in or not isinstance(declared.path, str)  # a path made of the parent's
                account_wide = not (declared.singleton or under_parent) or name == 'network_resources'
                found[name if account_wide else os.path.basename(path)[:-3]] = account_wide
    return found


def test_the_kinds_are_what_the_info_modules_list_account_wide():
    listed = info_module_kinds()
    assert sorted(name for name, account_wide in listed.items() if account_wide) == sorted(KINDS)
    # the rest: one object per account (no list to name from), or objects under a parent the lookup has no option for
    assert sorted(name for name, account_wide in listed.items() if not account_wide) == [
        'account_info', 'agent_network_settings_info', 'dns_record_info', 'dns_settings_info', 'network_router_info',
        'peer_job_info', 'token_info']


def test_the_documentation_names_every_kind_with_its_fields():
    text = ' '.join(DOC['description'])
    named = set(re.findall(r'V\(([a-z_]+)\)', text)) - {'KIND'}
    assert named == set(KINDS)
    for kind in KINDS.values():
        for field in kind.fields:
            assert 'C(%s)' % field in text, (kind.name, field)


@pytest.mark.parametrize('plugin', [nms, peers], ids=['lookup', 'inventory'])
def test_the_connection_options_are_the_modules_with_their_types_defaults_and_variables(plugin):
    """The lookup and the inventory take the connection options from one fragment (nms.overlay.plugin), which has
    the modules' types, defaults and environment variables."""
    doc = yaml.safe_load(plugin.DOCUMENTATION)
    assert 'nms.overlay.plugin' in doc['extends_documentation_fragment']
    assert not set(doc['options']) & set(connection_argument_spec()), 'a connection option written again'
    options = dict(doc['options'], **yaml.safe_load(PluginDocFragment.DOCUMENTATION)['options'])
    module_options = yaml.safe_load(ModuleDocFragment.DOCUMENTATION)['options']
    for name, spec in connection_argument_spec().items():
        assert options[name]['type'] == spec['type'] == module_options[name]['type']
        assert options[name].get('default') == spec.get('default') == module_options[name].get('default')
        variables = spec.get('fallback', (None, []))[1]
        if name == 'ca_path':  # read by hand, as the modules' env fallback reads it (an empty value is unset)
            assert 'E(NMS_API_CA_PATH)' in ' '.join(options[name]['description'])
        else:
            assert [entry['name'] for entry in options[name].get('env', [])] == variables
    if plugin is nms:
        assert sorted(set(options) - set(connection_argument_spec())) == ['_terms', 'name', 'on_missing', 'result']
