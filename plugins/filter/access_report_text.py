# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
name: access_report_text
short_description: The access report of the playbook nms.overlay.access_report, as Markdown, an HTML page or JSON
version_added: 1.1.0
author:
  - nms.overlay contributors (@nms-overlay)
description:
  - Renders the result of the filter P(nms.overlay.access_matrix#filter) as the playbook C(nms.overlay.access_report)
    writes it, with the collection's templates C(playbooks/templates/access_report.md.j2) and
    C(access_report.html.j2), or as the JSON the playbook writes (sorted keys, indented by 4, as
    C(to_nice_json)).
  - Every name and text from the server is escaped (P(nms.overlay.markdown_text#filter), P(nms.overlay.html_text#filter)),
    so that a group called C(<b>), C(|) or C({{ x }}) shows as it is and is never templated.
  - The templates are rendered once with Jinja, not by ansible-core's templating, which spends about 40 microseconds on
    each filter call and each value it hands out; a report of 1,000 groups and 2,000 policies makes hundreds of
    thousands of them (about 15 seconds of the template module's time against one second here).
  - On ansible-core 2.19 and later, a filter is handed its input through lazy containers, and reading the whole of a
    big one costs about as much as rendering it did (3 to 4 seconds for the matrix of 1,000 groups);
    P(nms.overlay.access_reports#filter) works out the matrix and writes every report in one call instead.
options:
  _input:
    description: What P(nms.overlay.access_matrix#filter) returns.
    type: dict
    required: true
  report_format:
    description: The report's format.
    type: str
    choices: [markdown, html, json]
    required: true
  title:
    description: The report's title (escaped as the names are).
    type: str
    default: Access report
seealso:
  - plugin: nms.overlay.access_matrix
    plugin_type: filter
  - plugin: nms.overlay.access_reports
    plugin_type: filter
'''

EXAMPLES = r'''
- name: Write the access report as Markdown
  ansible.builtin.copy:
    content: "{{ nms_access | nms.overlay.access_report_text('markdown', title='Who reaches what') }}"
    dest: access-report.md
    mode: "0644"
  vars:
    nms_access: "{{ policies.policies | nms.overlay.access_matrix(groups.groups) }}"
'''

RETURN = r'''
_value:
  description:
    - The report, as the template module would write it from the same template (for C(json), as C(to_nice_json)
      with a line break at the end).
  type: str
'''

import functools
import json
import os

import jinja2

from ansible.errors import AnsibleError
from ansible.utils.unsafe_proxy import wrap_var

from ansible_collections.nms.overlay.plugins.filter.html_text import html_text
from ansible_collections.nms.overlay.plugins.filter.markdown_text import markdown_text

TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'playbooks', 'templates')
TEMPLATE_OF = {'markdown': 'access_report.md.j2', 'html': 'access_report.html.j2'}
FORMATS = ('markdown', 'html', 'json')


@functools.lru_cache(maxsize=None)
def _environment():
    """Jinja as ansible.builtin.template renders (trim_blocks, the trailing newline kept), with the collection's escaping
    filters; undefined names fail (a report must not silently lose a part). Made once per process."""
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), trim_blocks=True, keep_trailing_newline=True,
                                     undefined=jinja2.StrictUndefined, autoescape=False)
    environment.filters['nms.overlay.markdown_text'] = markdown_text
    environment.filters['nms.overlay.html_text'] = html_text
    return environment


def _plain(value):
    """The value as plain dicts, lists, texts and numbers: ansible-core 2.19 and later hand a filter lazy containers,
    whose every access templates; walked once here, the template reads plain data."""
    if hasattr(value, 'items'):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def render(access, report_format, title='Access report'):
    """The report of ``access`` (what access_matrix returns, as plain data) in ``report_format``."""
    if report_format not in FORMATS:
        raise AnsibleError('report_format must be one of %s, not %r' % (', '.join(FORMATS), report_format))
    if not hasattr(access, 'items'):
        raise AnsibleError('its input must be what nms.overlay.access_matrix returns (a mapping), not %s'
                           % type(access).__name__)
    if report_format == 'json':
        return json.dumps(access, indent=4, sort_keys=True, separators=(',', ': ')) + '\n'
    try:
        return _environment().get_template(TEMPLATE_OF[report_format]).render(
            nms_access=access, nms_access_report_title=str(title))
    except jinja2.UndefinedError as exc:
        raise AnsibleError('its input lacks what the report needs (is it what nms.overlay.access_matrix '
                           'returns?): %s' % exc) from exc


def access_report_text(access, report_format, title='Access report'):
    try:
        text = render(_plain(access), report_format, title)
    except AnsibleError as exc:
        raise AnsibleError('access_report_text: %s' % exc) from exc
    return wrap_var(text)  # made of server data: never templated again (ansible-core before 2.19)


class FilterModule:
    """nms.overlay's access report renderer."""

    def filters(self):
        return {'access_report_text': access_report_text}
