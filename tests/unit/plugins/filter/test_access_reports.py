# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The access reports as the playbook writes them: nms.overlay.access_reports works out the matrix and renders each
report in one call, the same texts as access_matrix then access_report_text (and the JSON as to_nice_json writes it);
bad options fail naming the option, and every text is data that is never templated again."""

from __future__ import annotations

import json
import re

import pytest
from ansible.errors import AnsibleError
from ansible.plugins.filter.core import to_nice_json
from ansible.utils.unsafe_proxy import wrap_var

from ansible_collections.nms.overlay.plugins.filter.access_matrix import access_matrix
from ansible_collections.nms.overlay.plugins.filter.access_report_text import FilterModule as TextFilters, access_report_text
from ansible_collections.nms.overlay.plugins.filter.access_reports import FilterModule, access_reports

from .test_access_matrix import ALL, BOLD, DEV, HOSTILE, JINJA, LONELY, SRV, policy, rule

GROUPS = [ALL, BOLD, JINJA, LONELY, DEV, SRV]
POLICIES = HOSTILE + [policy('ssh', rule([DEV], [SRV], ports=['22'])), dict(policy('off', rule([DEV], [SRV])), enabled=False)]


def test_every_report_is_the_one_the_two_filters_make():
    reports = access_reports(POLICIES, GROUPS, formats=['markdown', 'html', 'json'], title='<i>t</i>')
    matrix = access_matrix(POLICIES, GROUPS)
    for name in ('markdown', 'html', 'json'):
        assert reports[name] == access_report_text(matrix, name, title='<i>t</i>'), name
    assert reports['json'] == to_nice_json(matrix, sort_keys=True) + '\n'  # what the playbook wrote before
    assert json.loads(reports['json']) == json.loads(json.dumps(matrix))
    assert reports['summary'] == dict(groups=len(matrix['groups']), in_force=len(matrix['in_force']),
                                      not_in_force=len(matrix['not_in_force']), allow_all=['Default'],
                                      peer_count=matrix['peer_count'], routes=len(matrix['routes']))
    assert reports['summary']['not_in_force'] == 1 and reports['summary']['in_force'] == 3


def test_only_the_formats_asked_for_and_the_limits_reach_the_matrix():
    reports = access_reports(POLICIES, GROUPS, formats=['html'])
    assert sorted(reports) == ['html', 'summary']
    assert sorted(access_reports(POLICIES, GROUPS)) == ['html', 'markdown', 'summary']  # the default
    listed = access_reports(POLICIES, GROUPS, matrix_limit=2, formats=['json'])
    assert json.loads(listed['json'])['rows_omitted'] is True
    assert json.loads(access_reports(POLICIES, GROUPS, formats=['json'])['json'])['rows_omitted'] is False


@pytest.mark.parametrize('formats, shown', [('markdown', "'markdown'"), (['pdf'], "['pdf']"), ([None], '[None]')])
def test_bad_formats_fail_naming_the_option(formats, shown):
    expected = r'access_reports: option formats: must be a list of markdown, html, json, got %s' % re.escape(shown)
    with pytest.raises(AnsibleError, match=expected):
        access_reports(POLICIES, GROUPS, formats=formats)


def test_a_bad_report_format_or_input_fails_naming_it():
    with pytest.raises(AnsibleError, match=r"access_report_text: report_format must be one of markdown, html, json, not 'pdf'"):
        access_report_text(access_matrix(POLICIES), 'pdf')
    expected = r'access_report_text: its input must be what nms.overlay.access_matrix returns \(a mapping\), not list'
    with pytest.raises(AnsibleError, match=expected):
        access_report_text(POLICIES, 'markdown')
    with pytest.raises(AnsibleError, match=r'access_report_text: its input lacks what the report needs .*allow_all'):
        access_report_text({'groups': []}, 'markdown')


def test_the_texts_are_never_templates():
    """A name such as {{ x }} is in the JSON as it is: the result must stay data wherever it is kept (set_fact)."""
    reports = access_reports(POLICIES, GROUPS, formats=['markdown', 'html', 'json'])
    assert '{{ x }}' in reports['json'] and '{{' not in reports['markdown'] and '{{' not in reports['html']
    for name in ('markdown', 'html', 'json'):
        assert wrap_var(reports[name]) == reports[name] and type(wrap_var(reports[name])) is type(reports[name])  # pylint: disable=unidiomatic-typecheck


def test_the_filters_are_registered_by_their_names():
    assert FilterModule().filters() == {'access_reports': access_reports}
    assert TextFilters().filters() == {'access_report_text': access_report_text}
