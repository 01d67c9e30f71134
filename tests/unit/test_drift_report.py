# -*- coding: utf-8 -*-
"""The nms.overlay.drift_report and drift_value filters on network_state results, and the drift report's Markdown
template rendered from them (the playbook against a server: tests/integration/test_drift_report.py)."""

from __future__ import annotations

import json
import os

import jinja2
import pytest
from ansible.errors import AnsibleError

from ansible_collections.nms.overlay.plugins.filter.drift_report import KIND_ORDER, FilterModule, bare_url, differences, drift_report
from ansible_collections.nms.overlay.plugins.filter.markdown_text import markdown_text
from ansible_collections.nms.overlay.plugins.filter.drift_value import FilterModule as ValueFilters, drift_value
from ansible_collections.nms.overlay.plugins.module_utils._network_plan import ORDER

TEMPLATES = os.path.join(os.path.dirname(__file__), '..', '..', 'playbooks', 'templates')

SSH_BEFORE = {'description': 'old', 'rules': [{'name': 'ssh', 'ports': ['22', '2200'], 'protocol': 'tcp'},
                                              {'name': 'web', 'ports': ['443'], 'protocol': 'tcp'}]}
SSH_AFTER = {'description': 'new', 'rules': [{'name': 'ssh', 'ports': ['22'], 'protocol': 'tcp'},
                                             {'name': 'web', 'ports': ['443'], 'protocol': 'tcp'}]}


def check_result(*pairs, summary=None):
    """A network_state result in check mode: changes and diffs from (change, before, after) triples."""
    changes, diffs = [], []
    for change, before, after in pairs:
        changes.append(dict(dict(pruned=False), **change))
        header = '%s %s' % (change['kind'], change['name'])
        diffs.append(dict(before_header=header, after_header=header, before=before, after=after))
    return dict(changed=bool(changes), changes=changes, diff=diffs, summary=summary or {}, msg='check mode, nothing was changed: ...')


def test_the_kind_order_is_the_module_s():
    assert KIND_ORDER == tuple(kind for kind, dummy_cls in ORDER)


def test_the_filters_are_registered():
    assert FilterModule().filters() == {'drift_report': drift_report}
    assert ValueFilters().filters() == {'drift_value': drift_value}


def test_differences_name_the_field_inside_named_items():
    assert differences(SSH_BEFORE, SSH_AFTER) == [
        dict(field='description', before='old', after='new'),
        dict(field='rules[ssh].ports', before=['22', '2200'], after=['22'])]
    assert differences(SSH_AFTER, SSH_AFTER) == []


def test_differences_of_items_without_names_go_by_position():
    before = {'nameservers': [{'ip': '10.0.0.1', 'port': 53}]}
    after = {'nameservers': [{'ip': '10.0.0.2', 'port': 53}, {'ip': '10.0.0.3', 'port': 53}]}
    assert differences(before, after) == [
        dict(field='nameservers[0].ip', before='10.0.0.1', after='10.0.0.2'),
        dict(field='nameservers[1].ip', after='10.0.0.3'), dict(field='nameservers[1].port', after=53)]


def test_a_rule_added_or_removed_shows_field_by_field():
    before = {'rules': [{'name': 'ssh', 'ports': ['22']}]}
    after = {'rules': [{'name': 'ssh', 'ports': ['22']}, {'name': 'web', 'ports': ['443']}]}
    assert differences(before, after) == [dict(field='rules[web].name', after='web'), dict(field='rules[web].ports', after=['443'])]
    assert differences(after, before) == [dict(field='rules[web].name', before='web'), dict(field='rules[web].ports', before=['443'])]
    # from no rule at all
    assert differences({'rules': []}, {'rules': [{'name': 'ssh'}]}) == [dict(field='rules[ssh].name', after='ssh')]


def test_created_and_deleted_resources_show_every_field():
    group = {'name': 'extra', 'peers': [], 'checks': {'nb_version_check': {'min_version': '0.28.0'}}, 'meta': {}}
    assert differences({}, group) == [
        dict(field='name', after='extra'), dict(field='peers', after=[]),
        dict(field='checks.nb_version_check.min_version', after='0.28.0'), dict(field='meta', after={})]
    assert differences(group, {}) == [
        dict(field='name', before='extra'), dict(field='peers', before=[]),
        dict(field='checks.nb_version_check.min_version', before='0.28.0'), dict(field='meta', before={})]


def test_scalars_and_type_changes_compare_whole():
    assert differences({'a': [1, 2]}, {'a': [2, 1]}) == [dict(field='a', before=[1, 2], after=[2, 1])]
    assert differences({'a': None}, {'a': ''}) == [dict(field='a', before=None, after='')]
    assert differences({'a': {'x': 1}}, {'a': 'x'}) == [dict(field='a', before={'x': 1}, after='x')]
    assert differences('a', 'b') == [dict(field='(value)', before='a', after='b')]


def test_no_drift():
    summary = {'policies': {'would_create': 0, 'would_update': 0, 'would_delete': 0, 'unchanged': 1},
               'groups': {'would_create': 0, 'would_update': 0, 'would_delete': 0, 'unchanged': 2}}
    report = drift_report(check_result(summary=summary), server='https://nms.example.com/api')
    assert report['drift'] is False and report['error'] is None and report['changes_count'] == 0
    assert report['changes'] == [] and report['diff'] == [] and report['kinds'] == []
    assert list(report['summary']) == ['groups', 'policies']  # in the module's order
    assert report['totals'] == dict(would_create=0, would_update=0, would_delete=0, would_revoke=0)
    assert report['message'] == 'No drift: the network is as described'
    assert report['server'] == 'https://nms.example.com/api' and report['prune'] is False
    assert 'generated_at' not in report


def drifted(reverse=False):
    pairs = [
        (dict(kind='policies', name='ssh', action='updated', id='p1'), SSH_BEFORE, SSH_AFTER),
        (dict(kind='groups', name='zeta', action='deleted', id='g9', pruned=True), {'name': 'zeta', 'peers': []}, {}),
        (dict(kind='groups', name='new', action='created', id='(new group new)'), {}, {'name': 'new', 'peers': []}),
        (dict(kind='groups', name='alpha', action='deleted', id='g1', pruned=True), {'name': 'alpha', 'peers': []}, {}),
        (dict(kind='setup_keys', name='old', action='revoked', id='k1', pruned=True),
         {'revoked': False, 'key': 'A616****'}, {'revoked': True, 'key': 'A616****'}),
    ]
    return check_result(*(reversed(pairs) if reverse else pairs))


def test_drift_is_sorted_whatever_order_the_server_listed():
    report = drift_report(drifted(), prune=True)
    assert report == drift_report(drifted(reverse=True), prune=True)
    assert [(c['kind'], c['action'], c['name']) for c in report['changes']] == [
        ('groups', 'created', 'new'), ('groups', 'deleted', 'alpha'), ('groups', 'deleted', 'zeta'),
        ('policies', 'updated', 'ssh'), ('setup_keys', 'revoked', 'old')]
    # the diffs follow their changes
    assert [d['before_header'] for d in report['diff']] == ['groups new', 'groups alpha', 'groups zeta', 'policies ssh', 'setup_keys old']
    assert report['kinds'] == ['groups', 'policies', 'setup_keys']
    assert report['totals'] == dict(would_create=1, would_update=1, would_delete=2, would_revoke=1)
    assert report['drift'] is True and report['changes_count'] == 5 and report['prune'] is True
    assert report['message'] == ('Drift: 5 changes, in groups (would create 1: new; would delete 2: alpha, zeta), '
                                 'policies (would update 1: ssh) and setup_keys (would revoke 1: old)')


def test_a_change_keeps_what_network_state_says_and_gets_its_differences():
    report = drift_report(drifted())
    new, alpha, ssh = report['changes'][0], report['changes'][1], report['changes'][3]
    assert 'id' not in new  # a placeholder of check mode is no id
    assert alpha == dict(kind='groups', name='alpha', action='deleted', pruned=True, id='g1', differences=[
        dict(field='name', before='alpha'), dict(field='peers', before=[])])
    assert ssh['differences'] == [dict(field='description', before='old', after='new'),
                                  dict(field='rules[ssh].ports', before=['22', '2200'], after=['22'])]


def test_secret_values_are_hidden():
    report = drift_report(drifted())
    text = json.dumps(report)
    assert 'A616' not in text
    assert report['diff'][-1]['before']['key'] == '(hidden)'
    key = report['changes'][-1]
    assert key['differences'] == [dict(field='revoked', before=False, after=True)]  # hidden on both sides: no difference


def test_a_failed_check_is_an_error_not_drift():
    report = drift_report({}, server='http://u:p@h:1/api?x=1', error='network_state: policies[0] (ssh): unknown group.')
    assert report['drift'] is None and report['error'] == 'network_state: policies[0] (ssh): unknown group.'
    assert report['message'] == ('The comparison could not be made, so whether the network drifted is not known: '
                                 'network_state: policies[0] (ssh): unknown group')
    assert report['server'] == 'http://h:1/api' and report['changes'] == [] and report['changes_count'] == 0
    with pytest.raises(AnsibleError, match='give the reason as error='):
        drift_report({'failed': True, 'msg': 'boom'})
    with pytest.raises(AnsibleError, match='registered result'):
        drift_report(['x'])
    with pytest.raises(AnsibleError, match='2 changes but 1 diffs'):
        drift_report(dict(changes=[{'kind': 'groups'}, {'kind': 'groups'}], diff=[{}]))


@pytest.mark.parametrize('url, bare', [
    ('https://nms.example.com', 'https://nms.example.com'),
    ('https://user:secret@nms.example.com:8443/api?token=x#f', 'https://nms.example.com:8443/api'),
    ('http://[::1]:33073/api', 'http://[::1]:33073/api'),
    ('nms.example.com/api?token=x', 'nms.example.com/api'),
    ('', ''), (None, ''),
])
def test_the_server_url_never_carries_credentials(url, bare):
    assert bare_url(url) == bare


def test_generated_at_only_when_given():
    assert drift_report(check_result(), generated_at='2026-01-02T03:04:05Z')['generated_at'] == '2026-01-02T03:04:05Z'
    assert 'generated_at' not in drift_report(check_result(), generated_at='')


@pytest.mark.parametrize('value, text', [
    ('office', 'office'), ('', '""'), (None, 'null'), (True, 'true'), (False, 'false'), (53, '53'), (1.5, '1.5'),
    (['22', '2222'], '22, 2222'), ([], '[]'), ({'ip': '10.0.0.1', 'port': 53}, '{"ip": "10.0.0.1", "port": 53}'),
    ([{'b': 1, 'a': 'é'}], '[{"a": "é", "b": 1}]'), ('two\nlines', 'two lines'), ({}, '{}'),
])
def test_drift_value(value, text):
    assert drift_value(value) == text


def render(report, title='Drift report'):
    """As ansible.builtin.template renders (trim_blocks), with undefined values failing."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), trim_blocks=True, undefined=jinja2.StrictUndefined,
                             keep_trailing_newline=True)
    env.filters['nms.overlay.drift_value'] = drift_value
    env.filters['nms.overlay.markdown_text'] = markdown_text
    return env.get_template('drift_report.md.j2').render(nms_drift=report, nms_drift_report_title=title)


def test_markdown_of_drift():
    summary = {'groups': {'would_create': 1, 'would_update': 0, 'would_delete': 2, 'unchanged': 3},
               'setup_keys': {'would_create': 0, 'would_update': 0, 'would_delete': 0, 'would_revoke': 1, 'unchanged': 0}}
    result = drifted()
    result['summary'] = summary
    text = render(drift_report(result, server='https://nms.example.com', prune=True))
    assert '**Drift: 5 changes.**' in text
    assert '| Kind | Would create | Would update | Would delete | Would revoke | Unchanged |' in text
    assert '| groups | 1 | 0 | 2 | 0 | 3 |' in text and '| setup\\_keys | 0 | 0 | 0 | 1 | 0 |' in text
    assert '### policies: ssh\n\nWould update, id p1.' in text
    assert '| rules\\[ssh\\].ports | 22, 2200 | 22 |' in text
    assert '### groups: alpha\n\nWould delete (prune: the description does not name it), id g1.' in text
    assert '| name | alpha | — |' in text and '| name | new | — |' not in text and '| name | — | new |' in text
    assert 'Prune: yes' in text and 'Server: https://nms.example.com' in text
    assert 'Generated' not in text


def test_markdown_of_no_drift_and_of_an_error():
    summary = {'groups': {'would_create': 0, 'would_update': 0, 'would_delete': 0, 'unchanged': 3}}
    text = render(drift_report(check_result(summary=summary)))
    assert '**No drift.**' in text and '| groups | 0 | 0 | 0 | 3 |' in text and 'Revoke' not in text
    assert '## Changes' not in text and 'Server: (not known)' in text
    text = render(drift_report({}, error='Read the description file: Could not find or access "x.yml"'))
    assert '**The comparison could not be made**' in text and 'Could not find or access "x.yml"' in text
    assert '| Kind |' not in text


def test_markdown_escapes_names_and_values():
    hostile = check_result((dict(kind='groups', name='<b>|{{ x }}', action='updated', id='g1'),
                            {'description': '*a* `b` {% c %}'}, {'description': '[d](e)'}))
    text = render(drift_report(hostile), title='{{ t }} <i>')
    assert '<b>' not in text and '<i>' not in text and '{{' not in text and '{%' not in text
    assert '### groups: &lt;b&gt;\\|&#123;&#123; x &#125;&#125;' in text
    assert '| description | \\*a\\* \\`b\\` &#123;% c %&#125; | \\[d\\](e) |' in text
