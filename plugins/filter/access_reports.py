# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
name: access_reports
short_description: Who reaches what, worked out and written as each access report in one call
version_added: 1.1.0
author:
  - nms.overlay contributors (@nms-overlay)
description:
  - Works out the access as P(nms.overlay.access_matrix#filter) does, from the same input and options, and writes it
    as each report of O(formats) as P(nms.overlay.access_report_text#filter) does; returns the texts and a short
    summary, not the matrix.
  - The playbook C(nms.overlay.access_report) uses it. The matrix never goes through ansible-core's templating, which on
    ansible-core 2.19 and later reads a filter's input and a fact through lazy containers, each value at a cost (for
    1,000 groups and 2,000 policies every step that read the whole matrix (the fact holding it, each report) took 3 to
    4 seconds, this whole call about one).
positional: groups
options:
  _input:
    description:
      - The list RV(nms.overlay.policy_info#module:policies), as for P(nms.overlay.access_matrix#filter).
    type: raw
    required: true
  groups:
    description: As for P(nms.overlay.access_matrix#filter).
    type: list
    elements: raw
  peers:
    description: As for P(nms.overlay.access_matrix#filter).
    type: list
    elements: dict
  routes:
    description: As for P(nms.overlay.access_matrix#filter).
    type: list
    elements: dict
  networks:
    description: As for P(nms.overlay.access_matrix#filter).
    type: list
    elements: dict
  posture_checks:
    description: As for P(nms.overlay.access_matrix#filter).
    type: list
    elements: dict
  peer_limit:
    description: As for P(nms.overlay.access_matrix#filter).
    type: int
    default: 250
  matrix_limit:
    description: As for P(nms.overlay.access_matrix#filter).
    type: int
    default: 50
  formats:
    description: The reports to write.
    type: list
    elements: str
    choices: [markdown, html, json]
    default: [markdown, html]
  title:
    description: The reports' title.
    type: str
    default: Access report
seealso:
  - plugin: nms.overlay.access_matrix
    plugin_type: filter
  - plugin: nms.overlay.access_report_text
    plugin_type: filter
'''

EXAMPLES = r'''
- name: Read the policies
  nms.overlay.policy_info:
  register: policy_list

- name: Read the groups
  nms.overlay.group_info:
  register: group_list

- name: Work out who reaches what, as Markdown
  ansible.builtin.set_fact:
    access: "{{ policy_list.policies | nms.overlay.access_reports(group_list.groups, formats=['markdown']) }}"

- name: Write it
  ansible.builtin.copy:
    content: "{{ access.markdown }}"
    dest: access-report.md
    mode: "0644"

- name: Say how much is in force
  ansible.builtin.debug:
    msg: "{{ access.summary.in_force }} rules in force in {{ access.summary.groups }} groups"
'''

RETURN = r'''
_value:
  description: Each report of O(formats) by its format, and the summary.
  type: dict
  contains:
    markdown:
      description: The Markdown report, when asked for.
      type: str
    html:
      description: The HTML page, when asked for.
      type: str
    json:
      description: The matrix as JSON (sorted keys, indented by 4, a line break at the end), when asked for.
      type: str
    summary:
      description: How much the matrix holds.
      type: dict
      contains:
        groups:
          description: The number of groups shown.
          type: int
        in_force:
          description: The number of rules in force.
          type: int
        not_in_force:
          description: The number of rules not in force.
          type: int
        allow_all:
          description: The names of the allow-all policies in force.
          type: list
          elements: str
        peer_count:
          description: The number of peers.
          type: int
        routes:
          description: The number of routes and network resources listed.
          type: int
'''

from ansible.errors import AnsibleError
from ansible.utils.unsafe_proxy import wrap_var

from ansible_collections.nms.overlay.plugins.filter.access_matrix import MATRIX_LIMIT, PEER_LIMIT, access_matrix
from ansible_collections.nms.overlay.plugins.filter.access_report_text import FORMATS, render

DEFAULT_FORMATS = ('markdown', 'html')


def access_reports(policies, groups=None, matrix_limit=MATRIX_LIMIT, peers=None, routes=None, networks=None,
                   posture_checks=None, peer_limit=PEER_LIMIT, formats=DEFAULT_FORMATS, title='Access report'):
    if isinstance(formats, str) or not all(isinstance(name, str) and name in FORMATS for name in formats or ()):
        raise AnsibleError('access_reports: option formats: must be a list of %s, got %r' % (', '.join(FORMATS), formats))
    access = access_matrix(policies, groups, matrix_limit=matrix_limit, peers=peers, routes=routes, networks=networks,
                           posture_checks=posture_checks, peer_limit=peer_limit)
    reports = {name: render(access, name, title) for name in formats}
    reports['summary'] = dict(groups=len(access['groups']), in_force=len(access['in_force']),
                              not_in_force=len(access['not_in_force']), allow_all=list(access['allow_all']),
                              peer_count=access['peer_count'], routes=len(access['routes']))
    return wrap_var(reports)  # made of server data: never templated again (ansible-core before 2.19)


class FilterModule:
    """nms.overlay's access reports in one call."""

    def filters(self):
        return {'access_reports': access_reports}
