# -*- coding: utf-8 -*-
"""The nms.overlay.access_matrix filter against policies, and the access report's templates rendered from it."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from ansible.errors import AnsibleError

from ansible_collections.nms.overlay.plugins.filter.access_report_text import access_report_text
from ansible_collections.nms.overlay.plugins.filter.access_matrix import FilterModule, access_matrix


ALL = {'id': 'g0', 'name': 'All'}
DEV = {'id': 'g1', 'name': 'developers'}
SRV = {'id': 'g2', 'name': 'servers'}
OFFICE = {'id': 'g3', 'name': 'office'}
LONELY = {'id': 'g4', 'name': 'lonely', 'peers_count': 0}
BOLD = {'id': 'g5', 'name': '<b>'}
JINJA = {'id': 'g6', 'name': '{{ x }}'}


def rule(sources, destinations, protocol='tcp', ports=None, bidirectional=False, action='accept', enabled=True, name='r',
         **extra):
    return dict(name=name, enabled=enabled, action=action, bidirectional=bidirectional, protocol=protocol,
                ports=ports or [], sources=sources, destinations=destinations, **extra)


def policy(name, *rules, enabled=True, posture=None):
    return dict(id='p-' + name, name=name, enabled=enabled, rules=list(rules), source_posture_checks=posture or [])


DEFAULT = policy('Default', rule([ALL], [ALL], protocol='all', bidirectional=True, name='Default'))


def cells(matrix):
    """{(source, destination): [(action, text, allow_all)]} of the non-empty cells."""
    return {(row['source'], cell['destination']): [(e['action'], e['text'], e['allow_all']) for e in cell['entries']]
            for row in matrix['rows'] for cell in row['cells'] if cell['entries']}


def test_one_way_fills_one_cell_bidirectional_both():
    matrix = access_matrix([
        policy('ssh', rule([DEV], [SRV], ports=['22'])),
        policy('web', rule([OFFICE], [SRV], ports=['443', '80'], bidirectional=True)),
    ])
    assert [g['name'] for g in matrix['groups']] == ['developers', 'office', 'servers']
    assert cells(matrix) == {
        ('developers', 'servers'): [('accept', 'tcp 22', False)],
        ('office', 'servers'): [('accept', 'tcp 80, 443', False)],
        ('servers', 'office'): [('accept', 'tcp 80, 443', False)],
    }
    assert matrix['allow_all'] == [] and matrix['not_in_force'] == []
    entry = matrix['rows'][1]['cells'][2]['entries'][0]
    assert entry == dict(action='accept', protocol='tcp', ports=['80', '443'], text='tcp 80, 443', allow_all=False,
                         posture_checks=[], rules=['web / r'])


def test_ports_merge_ranges_and_any_port():
    matrix = access_matrix([
        policy('a', rule([DEV], [SRV], ports=['8080', '22'], name='one')),
        # a current server sends ranges apart; a v0.27-style range string and a duplicate port
        policy('b', rule([DEV], [SRV], ports=['22', '9000-9100'], port_ranges=[{'start': 8000, 'end': 8100}], name='two')),
        policy('c', rule([DEV], [SRV], protocol='udp', ports=['53'], name='dns')),
        policy('d', rule([SRV], [DEV], protocol='udp', bidirectional=True, name='any')),
    ])
    # ports sorted by number, ranges by their start; udp 53 and udp to every port (the way back of a
    # bidirectional rule) are one entry: every port
    assert cells(matrix)[('developers', 'servers')] == [
        ('accept', 'tcp 22, 8000-8100, 8080, 9000-9100', False), ('accept', 'udp any port', False)]
    entries = matrix['rows'][0]['cells'][1]['entries']
    assert [e['rules'] for e in entries] == [['a / one', 'b / two'], ['c / dns', 'd / any']]
    assert cells(matrix)[('servers', 'developers')] == [('accept', 'udp any port', False)]


def test_allow_all_is_marked_and_all_covers_every_group():
    matrix = access_matrix([DEFAULT, policy('ssh', rule([DEV], [SRV], ports=['22']))], groups=[ALL, DEV, SRV, LONELY])
    assert matrix['allow_all'] == ['Default']
    table = cells(matrix)
    names = ['All', 'developers', 'lonely', 'servers']
    assert [g['name'] for g in matrix['groups']] == names
    assert set(table) == {(s, d) for s in names for d in names}
    assert table[('developers', 'servers')] == [('accept', 'tcp 22', False), ('accept', 'all', True)]
    assert table[('lonely', 'lonely')] == [('accept', 'all', True)]
    assert [line['allow_all'] for line in matrix['in_force']] == [True, False]


def test_all_on_one_side_fills_a_row_or_column_not_the_all_column():
    matrix = access_matrix([policy('to servers', rule([ALL], [SRV], ports=['443'])),
                            policy('from dev', rule([DEV], [ALL], protocol='icmp', bidirectional=True))],
                           groups=[ALL, DEV, SRV, OFFICE])
    table = cells(matrix)
    https, icmp = ('accept', 'tcp 443', False), ('accept', 'icmp', False)
    assert {key for key, value in table.items() if https in value} == {(g, 'servers') for g in ('All', 'developers', 'office', 'servers')}
    # a rule to servers does not let anyone reach every peer (the column All)
    assert ('office', 'All') not in table
    assert {key for key, value in table.items() if icmp in value} == (
        {('developers', g) for g in ('All', 'developers', 'office', 'servers')}
        | {(g, 'developers') for g in ('All', 'developers', 'office', 'servers')})
    assert matrix['allow_all'] == []


@pytest.mark.parametrize('not_allow_all', [
    rule([ALL], [ALL], protocol='tcp', ports=['22'], bidirectional=True),
    rule([ALL], [SRV], protocol='all', bidirectional=True),
    rule([ALL], [ALL], protocol='all', bidirectional=True, action='drop'),
])
def test_only_accept_all_from_all_to_all_is_allow_all(not_allow_all):
    matrix = access_matrix([policy('p', not_allow_all)])
    assert matrix['allow_all'] == []
    assert not any(e['allow_all'] for row in matrix['rows'] for cell in row['cells'] for e in cell['entries'])


def test_disabled_policies_and_rules_are_listed_apart_not_in_the_matrix():
    matrix = access_matrix([
        policy('paused', rule([DEV], [SRV], ports=['22']), enabled=False),
        policy('mixed', rule([OFFICE], [SRV], ports=['80'], name='on'),
               rule([OFFICE], [DEV], ports=['81'], name='off', enabled=False)),
        dict(DEFAULT, enabled=False),
        policy('peer', rule([], [SRV], ports=['5432'], name='resource', sourceResource={'id': 'peer1', 'type': 'peer'})),
    ], groups=[ALL, DEV, SRV, OFFICE])
    assert cells(matrix) == {('office', 'servers'): [('accept', 'tcp 80', False)]}
    assert [(r['policy'], r['rule'], r['reason']) for r in matrix['not_in_force']] == [
        ('paused', 'r', 'policy disabled'), ('mixed', 'off', 'rule disabled'), ('Default', 'Default', 'policy disabled')]
    assert matrix['not_in_force'][0]['sources'] == ['developers'] and matrix['not_in_force'][0]['text'] == 'tcp 22'
    assert [r['rule'] for r in matrix['in_force']] == ['on', 'resource']  # an enabled rule naming a resource is in force
    assert matrix['allow_all'] == []


def test_a_group_without_access_has_an_empty_row_and_column():
    matrix = access_matrix([policy('ssh', rule([DEV], [SRV], ports=['22']))], groups=[DEV, SRV, LONELY])
    lonely = next(row for row in matrix['rows'] if row['source'] == 'lonely')
    assert lonely['peers_count'] == 0 and all(not cell['entries'] for cell in lonely['cells'])
    assert all(not cell['entries'] for row in matrix['rows'] for cell in row['cells'] if cell['destination'] == 'lonely')
    assert [cell['same_group'] for cell in lonely['cells']] == [False, True, False]


def test_drop_posture_checks_and_missing_groups():
    matrix = access_matrix([
        policy('ssh', rule([DEV], [SRV], ports=['22']), posture=[{'id': 'pc1', 'name': 'recent client'}]),
        policy('telnet', rule([DEV], [SRV], ports=['23'], action='drop')),
        # v0.27 answers a later rule without a source group an earlier rule named
        policy('two', rule([OFFICE], [SRV], ports=['80'], name='a'), rule(None, [SRV], ports=['81'], name='b')),
    ])
    dev_to_srv = next(c for r in matrix['rows'] if r['source'] == 'developers' for c in r['cells'] if c['destination'] == 'servers')
    assert [(e['action'], e['text'], e['posture_checks']) for e in dev_to_srv['entries']] == [
        ('accept', 'tcp 22', ['recent client']), ('drop', 'tcp 23', [])]
    assert [(r['rule'], r['missing_groups']) for r in matrix['in_force']] == [('r', False), ('r', False), ('a', False), ('b', True)]


def test_names_ids_groups_by_name_and_the_registered_result():
    # ids without names, a group given by name only that a rule names with its id, the whole module result
    result = {'policies': [policy('p', rule(['g1'], [SRV], ports=['22']))], 'changed': False}
    matrix = access_matrix(result, groups=['servers', 'spare'])
    assert [(g['id'], g['name']) for g in matrix['groups']] == [('g1', 'g1'), ('g2', 'servers'), ('spare', 'spare')]
    assert cells(matrix) == {('g1', 'servers'): [('accept', 'tcp 22', False)]}
    assert FilterModule().filters()['access_matrix'] is access_matrix


@pytest.mark.parametrize('args, message', [
    (('nope',), 'access_matrix: its input must be the list of policies that nms.overlay.policy_info returns'),
    (([1],), 'got list'),
    (([], {'name': 'x'}), 'access_matrix: option groups: must be the list of groups'),
    (([], [None]), 'access_matrix: option groups: each entry must be a group'),
])
def test_bad_input_fails_naming_the_rule(args, message):
    with pytest.raises(AnsibleError, match=re.escape(message)):
        access_matrix(*args)


# -- the templates -----------------------------------------------------------------------------------------------

def render(name, matrix, title='Access report'):
    """As the playbook renders the template (the access_report_text filter), with undefined values failing."""
    return access_report_text(matrix, {'access_report.md.j2': 'markdown', 'access_report.html.j2': 'html'}[name], title=title)


HOSTILE = [DEFAULT, policy('{{ lookup("env", "HOME") }}', rule([BOLD], [JINJA], protocol='udp', ports=['53'], name='*x* | `y`'))]


def test_markdown_escapes_names_and_keeps_the_table_shape():
    text = render('access_report.md.j2', access_matrix(HOSTILE, groups=[ALL, BOLD, JINJA, LONELY]), title='<i>t</i>')
    assert '<b>' not in text and '<i>' not in text and '{{' not in text and '{%' not in text
    assert '# &lt;i&gt;t&lt;/i&gt;' in text
    table = [line for line in text.splitlines() if line.startswith('|')][:6]
    # every row of the matrix has the header's number of cells: a | in a name is escaped
    assert {len(re.split(r'(?<!\\)\|', line)) for line in table} == {len(['', 'from'] + [1, 2, 3, 4] + [''])}
    assert table[0] == '| from ↓ to → | All | &lt;b&gt; | lonely | &#123;&#123; x &#125;&#125; |'
    assert '| **&lt;b&gt;** | all *(allow-all)* | all *(allow-all)* | all *(allow-all)* | udp 53; all *(allow-all)* |' in table
    assert '| **lonely** (0 peers) |' in text
    assert '| &#123;&#123; lookup("env", "HOME") &#125;&#125; | \\*x\\* \\| \\`y\\` | &lt;b&gt; |' in text
    assert '> **An allow-all policy is in force: Default.**' in text


class Tags(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.text, self.urls = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.urls.extend(value for key, value in attrs if key in ('src', 'href'))

    def handle_data(self, data):
        self.text.append(data)


def test_html_escapes_names_and_is_self_contained():
    page = render('access_report.html.j2', access_matrix(HOSTILE, groups=[ALL, BOLD, JINJA, LONELY]), title='<i>t</i>')
    parser = Tags()
    parser.feed(page)
    # the only tags are the template's own: a name's <b> or <i> is text
    assert 'i' not in parser.tags and parser.tags.count('b') == 7  # the 6 figures and the allow-all warning
    text = ''.join(parser.text)
    assert '<b>' in text and '{{ x }}' in text and '<i>t</i>' in text
    assert '{{' not in page and '{%' not in page
    assert 'title="to &lt;b&gt;"' in page
    # inline CSS only: nothing to load, no script
    assert parser.urls == [] and 'script' not in parser.tags and 'url(' not in page and '@import' not in page
    assert page.startswith('<!DOCTYPE html>') and page.count('<style>') == 1


@pytest.mark.parametrize('name', ['access_report.md.j2', 'access_report.html.j2'])
def test_templates_render_an_empty_account_and_every_kind_of_entry(name):
    assert 'None' in render(name, access_matrix([]))
    everything = access_matrix([
        DEFAULT, dict(DEFAULT, name='off', enabled=False),
        policy('ssh', rule([DEV], [SRV], ports=['22']), posture=[{'id': 'pc1', 'name': 'recent'}]),
        policy('deny', rule([DEV], [SRV], ports=['23'], action='drop')),
        policy('two', rule([OFFICE], [SRV], ports=['80'], name='a'), rule([], [SRV], ports=['81'], name='b')),
    ], groups=[ALL, DEV, SRV, OFFICE, LONELY, {'id': 'g9', 'name': 'one', 'peers_count': 1}])
    text = render(name, everything)
    assert 'posture' in text and 'drop' in text and 'allow-all' in text and 'fill no cell' in text
    assert '1 peer' in text and '1 peers' not in text


def test_names_from_the_server_are_never_templates():
    """Whatever the input was marked, every string of the result is data (the filter's result may be kept by set_fact)."""
    try:
        from ansible.template import is_trusted_as_template, trust_as_template  # ansible-core 2.19 and later
    except ImportError:
        from ansible.utils.unsafe_proxy import AnsibleUnsafe

        def is_trusted_as_template(value):
            return not isinstance(value, AnsibleUnsafe)

        def trust_as_template(value):
            return value

    name = trust_as_template('{{ x }}')
    hostile = {'id': trust_as_template('g9'), 'name': name}
    matrix = access_matrix([policy('p', rule([hostile], [SRV], ports=['22'], name=trust_as_template('{{ r }}')))], groups=[hostile])
    strings = []

    def collect(value):
        if isinstance(value, dict):
            for key, item in value.items():
                collect(key)
                collect(item)
        elif isinstance(value, list):
            for item in value:
                collect(item)
        elif isinstance(value, str):
            strings.append(value)

    collect(matrix)
    assert {'{{ x }}', '{{ r }}', 'p / {{ r }}', 'g9'} <= set(strings)
    assert [s for s in strings if is_trusted_as_template(s)] == []


# -- the built-in All group, not any group of that name (issue "Safe by default", 6) ------------------------------

BUILT_IN = dict(ALL, issued='api', peers_count=3)
RENAMED = {'id': 'g7', 'name': 'All', 'issued': 'api', 'peers_count': 1}  # a group renamed All by a user
SYNCED = {'id': 'g8', 'name': 'All', 'issued': 'jwt', 'peers_count': 3}   # a group of that name from an identity provider


@pytest.mark.parametrize('other', [RENAMED, SYNCED], ids=['renamed', 'synced'])
def test_a_group_merely_named_all_is_neither_allow_all_nor_every_group(other):
    among = policy('team only', rule([other], [other], protocol='all', bidirectional=True, name='team'))
    matrix = access_matrix([among], groups=[BUILT_IN, other, dict(SRV, peers_count=0)])
    assert matrix['all_groups'] == ['g0']
    assert matrix['allow_all'] == [] and [line['allow_all'] for line in matrix['in_force']] == [False]
    # its rule fills its own cell only, not every group's row and column
    assert [(row['source_id'], cell['destination_id']) for row in matrix['rows'] for cell in row['cells'] if cell['entries']] == [
        ('g7' if other is RENAMED else 'g8',) * 2]
    assert [g['id'] for g in matrix['groups']][0] == 'g0'  # the built-in one first
    # the built-in All group's own allow-all is still found
    assert access_matrix([DEFAULT, among], groups=[BUILT_IN, other])['allow_all'] == ['Default']


def test_groups_named_all_that_cannot_be_told_apart_are_each_taken_for_it_and_said():
    twin = dict(RENAMED, peers_count=3)
    matrix = access_matrix([policy('team only', rule([twin], [twin], protocol='all', bidirectional=True))],
                           groups=[BUILT_IN, twin])
    assert matrix['all_groups'] == ['g0', 'g7'] and matrix['allow_all'] == ['team only']
    for name in ('access_report.md.j2', 'access_report.html.j2'):
        assert 'cannot be told from the others' in render(name, matrix)
    assert 'cannot be told' not in render('access_report.md.j2', access_matrix([], groups=[BUILT_IN, RENAMED]))


def test_without_the_groups_list_a_group_named_all_is_taken_for_it():
    assert access_matrix([DEFAULT])['allow_all'] == ['Default']
    assert access_matrix([DEFAULT], groups=['All', 'servers'])['allow_all'] == ['Default']


# -- the size of the result and of the report (issue "Safe by default", 8) -----------------------------------------

def large_account(count):
    """The built-in All group, ``count`` other groups, the Default policy and one policy per group to the next."""
    groups = [BUILT_IN] + [{'id': 'n%04d' % i, 'name': 'group-%04d' % i, 'issued': 'api', 'peers_count': 1} for i in range(count)]
    policies = [DEFAULT] + [policy('p%04d' % i, rule([groups[i + 1]], [groups[(i + 1) % count + 1]], ports=['22'], name='ssh'))
                            for i in range(count)]
    return policies, groups


def size(value):
    """The number of values in a result (dicts, lists and their scalars): the work the filter did to build it."""
    if isinstance(value, dict):
        return 1 + sum(size(item) for item in value.values())
    if isinstance(value, (list, tuple)):
        return 1 + sum(size(item) for item in value)
    return 1


@pytest.mark.parametrize('count', [200, 1000])
def test_a_large_account_grows_with_its_rules_not_the_square_of_its_groups(count, monkeypatch):
    import ansible_collections.nms.overlay.plugins.filter.access_matrix as module
    calls = []
    real = module._add_entry
    monkeypatch.setattr(module, '_add_entry', lambda *args: calls.append(1) or real(*args))
    policies, groups = large_account(count)
    matrix = access_matrix(policies, groups)
    assert matrix['rows'] == [] and matrix['rows_omitted'] is True and matrix['matrix_limit'] == 50
    # one pair per rule (the Default policy's All to All once, both ways being the same pair), All not spread
    assert len(matrix['reaches']) == count + 1
    assert matrix['reaches'][0]['source'] == matrix['reaches'][0]['destination'] == 'All'
    assert matrix['reaches'][0]['entries'][0]['allow_all'] is True
    assert matrix['reaches'][1]['source'] == 'group-0000' and matrix['reaches'][1]['destination'] == 'group-0001'
    rules = count + 1
    assert len(calls) <= 3 * rules  # at most: each side of a rule filled once, each pair merged once
    assert size(matrix) <= 120 * rules  # was 40 per cell: 40 million values for 1,000 groups
    for name, most in (('access_report.md.j2', 120), ('access_report.html.j2', 400)):
        text = render(name, matrix)
        assert len(text.encode('utf-8')) <= most * rules + 20000, (name, len(text))  # was 21 MB for 400 groups
        assert 'listed pair by pair' in text and 'from ↓ to →' not in text
    table = [line for line in render('access_report.md.j2', matrix).splitlines() if line.startswith('| **')]
    assert len(table) == rules  # one line per pair, none per cell


def test_the_matrix_is_built_up_to_its_limit_and_the_limit_is_checked():
    policies, groups = large_account(9)  # 10 groups with All
    matrix = access_matrix(policies, groups, matrix_limit=10)
    assert matrix['rows_omitted'] is False and sum(len(row['cells']) for row in matrix['rows']) == 100
    assert all(cell['entries'] for row in matrix['rows'] for cell in row['cells'])  # the Default policy fills them all
    assert access_matrix(policies, groups, matrix_limit=9)['rows'] == []
    assert access_matrix(policies, groups, matrix_limit='12')['rows_omitted'] is False
    for bad in (-1, 'many', None):
        with pytest.raises(AnsibleError, match=re.escape('access_matrix: option matrix_limit: must be a whole number, 0 or more')):
            access_matrix(policies, groups, matrix_limit=bad)


# -- the network map of each peer (connects) and the posture checks the API lets judge ------------------------------

WEB, DB, OPS, LAB = ({'id': 'g-' + n, 'name': n} for n in ('web', 'db', 'ops', 'lab'))
RECENT = {'id': 'pc1', 'name': 'recent', 'checks': {'nb_version_check': {'min_version': '0.28.0'}}}
OS_CHECK = {'id': 'pc2', 'name': 'kernel', 'checks': {'os_version_check': {'linux': {'min_kernel_version': '9.0'}}}}


def a_peer(name, group, version='0.77.1'):
    return {'id': 'id-' + name, 'name': name, 'ip': '100.64.0.%d' % (len(name) + ord(name[0])), 'version': version, 'groups': [group]}


def network_map(matrix):
    """{peer: {other peer: traffic}} of every peer's connects."""
    return {row['name']: {item['name']: item['traffic'] for item in row['connects']} for row in matrix['peers']}


def test_connects_is_the_network_map_one_way_rules_both_ends_drop_rules_too_posture_failures_left_out():
    peers = [a_peer('old', WEB, '0.27.6'), a_peer('new', WEB), a_peer('db', DB), a_peer('ops', OPS), a_peer('dev', OPS, 'development')]
    policies = [policy('web to db', rule([WEB], [DB], ports=['5432'])),
                policy('web and ops', rule([WEB], [OPS], protocol='all', bidirectional=True), posture=[{'id': 'pc1', 'name': 'recent'}]),
                policy('drop', rule([DB], [OPS], ports=['9'], action='drop')),
                policy('off', rule([DB], [WEB], protocol='all', bidirectional=True), enabled=False)]
    matrix = access_matrix(policies, [WEB, DB, OPS], peers=peers, posture_checks=[RECENT, OS_CHECK])
    assert network_map(matrix) == {
        'old': {'db': True},  # fails "recent": out of the policy "web and ops" both ways
        'new': {'db': True, 'ops': True, 'dev': True},
        'db': {'old': True, 'new': True, 'ops': False, 'dev': False},  # the one-way rule both ends; the drop rule alone
        'ops': {'new': True, 'db': False},
        'dev': {'new': True, 'db': False},  # a development build is not judged: taken as passing, marked
    }
    rows = {row['name']: row for row in matrix['peers']}
    assert [row['posture_failed'] for row in matrix['peers']] == [[], [], [], ['recent'], []]  # db, dev, new, old, ops
    assert rows['old']['posture_failed'] == ['recent'] and rows['dev']['posture_failed'] == []
    assert [item['name'] for item in rows['old']['reaches']] == ['db']
    assert [(item['name'], item['posture_checks']) for item in rows['ops']['reaches']] == [('new', ['recent'])]
    assert [(item['name'], item['rules']) for item in rows['db']['connects']] == [
        ('dev', ['drop / r']), ('new', ['web to db / r']), ('old', ['web to db / r']), ('ops', ['drop / r'])]
    # without the checks' definitions nothing is judged
    unjudged = access_matrix(policies, [WEB, DB, OPS], peers=peers)
    assert network_map(unjudged)['old'] == {'db': True, 'ops': True, 'dev': True}


def test_a_networks_routing_peer_and_the_peers_that_reach_its_resources_are_in_each_others_map():
    peers = [a_peer('ops', OPS), a_peer('gw', OPS), a_peer('web', WEB)]
    networks = [{'id': 'n1', 'name': 'lab', 'routers': [{'id': 'r1', 'peer': 'id-gw', 'enabled': True}],
                 'resources': [{'id': 'res1', 'name': 'lab-db', 'address': '10.98.0.0/24', 'enabled': True, 'groups': [LAB]}]}]
    lab = dict(LAB, peers=[], resources=[{'id': 'res1', 'type': 'subnet'}])
    matrix = access_matrix([policy('ops to lab', rule([OPS], [LAB], ports=['443']))], [OPS, WEB, lab], peers=peers, networks=networks)
    assert network_map(matrix) == {'ops': {'gw': False}, 'gw': {'ops': False}, 'web': {}}
    rows = {row['name']: row for row in matrix['peers']}
    assert rows['ops']['connects'][0]['rules'] == ['routing peer of lab (ops to lab / r)']
    assert [(item['kind'], item['name']) for item in rows['ops']['reaches']] == [('resource', 'lab-db')]


@pytest.mark.parametrize('name', ['access_report.md.j2', 'access_report.html.j2'])
def test_the_reports_name_posture_failures_and_links_with_nothing_through(name):
    peers = [a_peer('old', WEB, '0.27.6'), a_peer('db', DB), a_peer('ops', OPS)]
    policies = [policy('web and ops', rule([WEB], [OPS], protocol='all', bidirectional=True), posture=[{'id': 'pc1', 'name': 'recent'}]),
                policy('no tcp 9', rule([DB], [OPS], ports=['9'], action='drop'))]
    text = render(name, access_matrix(policies, [WEB, DB, OPS], peers=peers, posture_checks=[RECENT]))
    assert re.search(r'Failing posture checks .*\n?.*old.{0,20} \(recent\)', text), text
    assert re.search(r'with nothing getting through:\s*\S*db\S* and \S*ops\S* \(no tcp 9 / r\)\.', text), text
    bare = render(name, access_matrix(policies[1:], [WEB, DB, OPS], peers=peers[1:], posture_checks=[]))
    assert 'Failing posture checks' not in bare and 'nothing getting through' in bare
