# -*- coding: utf-8 -*-
"""The nms.overlay.access_report playbook against the emulator, both dialects: the Markdown table and the HTML
matrix it writes are parsed back and checked cell by cell against the policies the test made."""

from __future__ import annotations

import html
import os
import re
from html.parser import HTMLParser

from tests.integration.conftest import REPO_ROOT

PLAYBOOK = 'nms.overlay.access_report'
GROUPS = ['developers', 'servers', 'office', 'lonely', '<b>', '{{ x }}']


def make_groups(emulator):
    ids = {}
    for name in GROUPS:
        status, body = emulator.api('POST', '/api/groups', {'name': name})
        assert status == 200, body
        ids[name] = body['id']
    ids['All'] = next(g['id'] for g in emulator.api('GET', '/api/groups')[1] if g['name'] == 'All')
    return ids


def make_policy(emulator, ids, name, rules, enabled=True):
    """A policy of these rules; on a v0.77 server (which keeps only a policy's first rule) one policy per rule, all of
    that name, which the report shows alike."""
    if emulator.dialect == 'current' and len(rules) > 1:
        for rule in rules:
            make_policy(emulator, ids, name, [rule], enabled)
        return
    body = {'name': name, 'description': '', 'enabled': enabled, 'rules': [
        dict(ranged(emulator, rule), description='', enabled=rule.get('enabled', True), action=rule.get('action', 'accept'),
             sources=[ids[g] for g in rule['sources']], destinations=[ids[g] for g in rule['destinations']])
        for rule in rules]}
    status, answer = emulator.api('POST', '/api/policies', body)
    assert status == 200, answer


def ranged(emulator, rule):
    """A rule as the server takes it: a v0.77 server holds a rule with a port range in port_ranges, every port there
    (single ports or ranges, not both)."""
    if emulator.dialect != 'current' or not any('-' in port for port in rule.get('ports') or []):
        return rule
    ranges = []
    for port in rule['ports']:
        start, dummy, end = port.partition('-')
        ranges.append({'start': int(start), 'end': int(end or start)})
    return dict({key: value for key, value in rule.items() if key != 'ports'}, port_ranges=ranges)


def disable_default(emulator):
    policy = next(p for p in emulator.api('GET', '/api/policies')[1] if p['name'] == 'Default')

    def ref(refs):
        return [r['id'] if isinstance(r, dict) else r for r in refs or []]

    rules = [dict(rule, ports=rule.get('ports') or [], sources=ref(rule['sources']), destinations=ref(rule['destinations']))
             for rule in policy['rules']]
    status, answer = emulator.api('PUT', '/api/policies/%s' % policy['id'], dict(policy, enabled=False, rules=rules))
    assert status == 200, answer


def md_unescape(text):
    return html.unescape(re.sub(r'\\(.)', r'\1', text.strip()))


def md_matrix(text):
    """{(source, destination): {(action, traffic, allow_all, posture)}} from the report's first table."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('| from'))
    table = []
    for line in lines[start:]:
        if not line.startswith('|'):
            break
        table.append(re.split(r'(?<!\\)\|', line)[1:-1])
    header = [md_unescape(cell) for cell in table[0][1:]]
    assert set(table[1]) == {'---'}
    cells = {}
    for row in table[2:]:
        source = md_unescape(re.sub(r'^ \*\*(.*)\*\*( \(\d+ peers?\))? $', r'\1', row[0]))
        for destination, cell in zip(header, row[1:]):
            entries = set()
            if cell.strip() != '—':
                for entry in cell.strip().split('; '):
                    drop = entry.startswith('**drop** ')
                    allow_all, posture = ' *(allow-all)*' in entry, ' *(posture)*' in entry
                    traffic = entry.replace('**drop** ', '').replace(' *(allow-all)*', '').replace(' *(posture)*', '')
                    entries.add(('drop' if drop else 'accept', md_unescape(traffic), allow_all, posture))
            cells[(source, destination)] = entries
    return header, cells


class MatrixParser(HTMLParser):
    """The matrix of the HTML page: column names, row names, and each cell's entries with their classes."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.in_matrix = False
        self.columns, self.rows = [], []
        self.where = None  # 'column', 'row', 'entry', 'count'
        self.text = []
        self.classes = None
        self.spans = []  # the classes of the open spans: an entry's span holds a span per port

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == 'table' and 'matrix' in (attrs.get('class') or '').split():
            self.in_matrix = True
        if not self.in_matrix:
            return
        classes = (attrs.get('class') or '').split()
        if tag == 'span':
            self.spans.append(classes)
        if tag == 'th' and 'to' in classes:
            self.where, self.text = 'column', []
        elif tag == 'th' and attrs.get('scope') == 'row':
            self.rows.append([None, []])
            self.where, self.text = 'row', []
        elif tag == 'td':
            self.rows[-1][1].append([])
        elif tag == 'span' and 'e' in classes:
            self.where, self.text, self.classes = 'entry', [], classes
        elif tag == 'span' and 'count' in classes:
            self.where = 'count'
        elif tag not in ('table', 'tr', 'thead', 'tbody', 'th', 'span'):
            raise AssertionError('unexpected <%s> in the matrix: markup from a name?' % tag)

    def handle_endtag(self, tag):
        if not self.in_matrix:
            return
        if tag == 'table':
            self.in_matrix = False
        elif tag == 'th':
            if self.where == 'column':
                self.columns.append(''.join(self.text))
            elif self.where in ('row', 'count'):
                self.rows[-1][0] = ''.join(self.text)
            self.where = None
        elif tag == 'span' and 'e' in self.spans.pop() and self.where == 'entry':
            self.rows[-1][1][-1].append((''.join(self.text), set(self.classes)))
            self.where = None

    def handle_data(self, data):
        if self.in_matrix and self.where in ('column', 'row', 'entry'):
            self.text.append(data)


def html_matrix(text):
    parser = MatrixParser()
    parser.feed(text)
    parser.close()
    cells = {}
    for source, row in parser.rows:
        assert len(row) == len(parser.columns)
        for destination, entries in zip(parser.columns, row):
            cells[(source, destination)] = {
                ('drop' if 'drop' in classes else 'accept', entry, 'allow-all' in classes, 'posture' in classes)
                for entry, classes in entries}
    return parser.columns, cells


def expected(groups, rules):
    """The oracle: (source, destination) -> entries, from (sources, destinations, bidirectional, entry) tuples."""
    cells = {(s, d): set() for s in groups for d in groups}
    for sources, destinations, bidirectional, entry in rules:
        for source in sources:
            for destination in destinations:
                cells[(source, destination)].add(entry)
                if bidirectional:
                    cells[(destination, source)].add(entry)
    return cells


def report(emulator, run, tmp_path, name):
    markdown, page = tmp_path / ('%s.md' % name), tmp_path / ('%s.html' % name)
    result = run([], playbook=PLAYBOOK, extra_vars={'nms_access_report_markdown': str(markdown),
                                                    'nms_access_report_html': str(page)})
    assert result.rc == 0, result
    return result, markdown.read_text(encoding='utf-8'), page.read_text(encoding='utf-8')


def test_access_report_matrix_matches_the_policies(emulator, run, tmp_path):
    ids = make_groups(emulator)
    # v0.27 servers take no port ranges; v0.77 ones hold them in port_ranges (a range in ports, as the spec has it:
    # tests/reliability/test_seed_conformance.py)
    range_port = ['8000-8100'] if emulator.dialect == 'current' else []
    make_policy(emulator, ids, 'dev ssh', [dict(name='ssh', bidirectional=False, protocol='tcp', ports=['22'],
                                                sources=['developers'], destinations=['servers'])])
    make_policy(emulator, ids, 'office web', [dict(name='web', bidirectional=True, protocol='tcp',
                                                   ports=['443', '80'] + range_port,
                                                   sources=['office'], destinations=['servers'])])
    make_policy(emulator, ids, 'odd names', [
        dict(name='dns', bidirectional=False, protocol='udp', ports=['53'], sources=['<b>'], destinations=['{{ x }}']),
        # not the same source as the first rule: v0.27 would answer it with no sources (reference/real-servers.md)
        dict(name='off', enabled=False, bidirectional=True, protocol='icmp', ports=[], sources=['lonely'],
             destinations=['<b>'])])
    make_policy(emulator, ids, 'paused', [dict(name='all', bidirectional=True, protocol='all', ports=[],
                                               sources=['lonely'], destinations=['servers'])], enabled=False)
    everyone = ['All'] + GROUPS
    web = ('accept', 'tcp ' + ', '.join(['80', '443'] + range_port), False, False)
    own = [(['developers'], ['servers'], False, ('accept', 'tcp 22', False, False)),
           (['office'], ['servers'], True, web),
           (['<b>'], ['{{ x }}'], False, ('accept', 'udp 53', False, False))]

    # the account's Default policy (All to All, everything) is in force: every cell holds it, marked
    result, markdown, page = report(emulator, run, tmp_path, 'with-default')
    allow_all = [(everyone, everyone, True, ('accept', 'all', True, False))]
    for header, cells in (md_matrix(markdown), html_matrix(page)):
        assert sorted(header) == sorted(everyone)
        assert cells == expected(everyone, own + allow_all)
    assert 'An allow-all policy is in force: Default.' in markdown
    assert 'allow-all: Default' in result['Say where the reports are']['msg']

    # without it, only the policies' own access: one-way, both ways, nothing for lonely, disabled ones apart
    disable_default(emulator)
    result, markdown, page = report(emulator, run, tmp_path, 'restricted')
    for header, cells in (md_matrix(markdown), html_matrix(page)):
        assert cells == expected(everyone, own)
        assert all(not cells[('lonely', g)] and not cells[(g, 'lonely')] for g in everyone)
    assert 'allow-all policy is in force' not in markdown and 'allow-all policy is in force' not in page
    not_in_force = markdown.split('## Not in force')[1]
    for line in ('| Default | Default | policy disabled | All | All | both ways | all |',
                 '| paused | all | policy disabled | lonely | servers | both ways | all |',
                 '| odd names | off | rule disabled | lonely | &lt;b&gt; | both ways | icmp |'):
        assert line in not_in_force, not_in_force
    assert 'dev ssh' not in not_in_force

    # names are data: escaped in both files, never templated (a template would fail on the undefined x)
    assert '<b>' not in markdown and '{{' not in markdown and '{{' not in page
    assert '&lt;b&gt;' in page and '&#123;&#123; x &#125;&#125;' in page

    # a second run reads only, and writes files that are already right
    emulator.clear_log()
    again, markdown_again, page_again = report(emulator, run, tmp_path, 'restricted')
    assert [again[task]['changed'] for task in ('Write the Markdown report', 'Write the HTML report')] == [False, False]
    assert (markdown_again, page_again) == (markdown, page)
    assert emulator.writes() == []


def test_access_report_skips_a_file_whose_path_is_empty(emulator, run, tmp_path):
    page = tmp_path / 'only.html'
    result = run([], playbook=PLAYBOOK, extra_vars={'nms_access_report_markdown': '', 'nms_access_report_html': str(page)})
    assert result.rc == 0, result
    assert result['Write the Markdown report'].get('skipped') is True
    assert page.read_text(encoding='utf-8').startswith('<!DOCTYPE html>')
    assert 'written to %s' % page in result.text


def test_relative_report_paths_are_taken_from_where_ansible_playbook_runs(emulator, run, tmp_path):
    """Not from the playbook's directory inside the installed collection (the run fixture starts
    ansible-playbook in a directory under tmp_path)."""
    result = run([], playbook=PLAYBOOK, extra_vars={'nms_access_report_markdown': 'access.md',
                                                    'nms_access_report_html': 'access.html'})
    assert result.rc == 0, result
    written = re.search(r'written to (\S+) and (\S+?)"', result.stdout)
    assert written, result
    for path, name in zip(written.groups(), ('access.md', 'access.html')):
        assert os.path.basename(path) == name and path.startswith(str(tmp_path) + os.sep), (path, tmp_path)
        assert os.path.isfile(path), path
    assert not os.path.exists(os.path.join(REPO_ROOT, 'playbooks', 'access.md'))


def test_a_group_renamed_all_is_not_taken_for_the_built_in_one(emulator, run, tmp_path):
    """Issue "Safe by default", 6: only the group the server made is All; a policy among the peers of a group renamed
    All is neither allow-all nor every group's access."""
    peers = emulator.add_peers(count=3)['ids']  # every peer joins the built-in All group
    ids = make_groups(emulator)
    renamed = emulator.ok('PUT', '/api/groups/%s' % ids['lonely'], {'name': 'All', 'peers': peers[:1]})
    assert renamed['name'] == 'All'
    emulator.ok('POST', '/api/policies', {'name': 'team only', 'description': '', 'enabled': True, 'rules': [
        {'name': 'team', 'description': '', 'enabled': True, 'action': 'accept', 'bidirectional': True, 'protocol': 'all',
         'sources': [ids['lonely']], 'destinations': [ids['lonely']]}]})
    disable_default(emulator)
    result, markdown, page = report(emulator, run, tmp_path, 'renamed')
    # the run's summary names no allow-all policy (its output also holds the HTML page, whose CSS has a class allow-all)
    assert 'allow-all' not in result['Say where the reports are']['msg'] and 'allow-all policy is in force' not in markdown
    assert '*(allow-all)*' not in markdown.split('Legend:')[0] + markdown.split('## Rules in force')[1]
    assert '| team only | team | All | All | both ways | all |' in markdown
    rows = {line.split('|')[1].strip(): line for line in markdown.splitlines() if line.startswith('| **')}
    # the built-in All group heads the table (3 peers); the renamed one fills its own cell only
    assert list(rows)[0] == '**All** (3 peers)', list(rows)
    assert rows['**All** (1 peer)'].count('| all |') == 1, rows
    for name in ('developers', 'servers', '&lt;b&gt;'):
        assert ' all ' not in rows['**%s** (0 peers)' % name], rows


def test_a_large_account_is_reported_pair_by_pair_in_files_that_grow_with_the_rules(emulator, run, tmp_path):
    """Issue "Safe by default", 8: 300 groups and a policy from each to the next, the Default policy in force. The
    matrix would have 90,000 cells (12 MB of HTML); the report lists the 301 pairs the rules name."""
    count = 300
    ids = [emulator.ok('POST', '/api/groups', {'name': 'group-%04d' % i})['id'] for i in range(count)]
    for i in range(count):
        emulator.ok('POST', '/api/policies', {'name': 'p%04d' % i, 'description': '', 'enabled': True, 'rules': [
            {'name': 'ssh', 'description': '', 'enabled': True, 'action': 'accept', 'bidirectional': False,
             'protocol': 'tcp', 'ports': ['22'], 'sources': [ids[i]], 'destinations': [ids[(i + 1) % count]]}]})
    result, markdown, page = report(emulator, run, tmp_path, 'large')
    assert '%d groups, %d rules in force' % (count + 1, count + 1) in ' '.join(result.text.split())
    pairs = [line for line in markdown.splitlines() if line.startswith('| **')]
    assert len(pairs) == count + 1 and pairs[0] == '| **All** | All | all *(allow-all)* |', pairs[:2]
    assert '| **group-0000** | group-0001 | tcp 22 |' in pairs
    assert 'listed pair by pair' in markdown and 'from ↓ to →' not in markdown and '<table class="matrix' not in page
    assert len(markdown.encode()) < 60 * 1000 and len(page.encode()) < 250 * 1000, (len(markdown), len(page))
    assert page.count('<tr>') == count + 1 + 1 + (count + 1) + 1  # pairs and rules in force, with their heads
