# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
name: markdown_text
short_description: A text made safe to show in a Markdown table cell or heading
version_added: 1.0.0
author:
  - nms.overlay contributors (@nms-overlay)
description:
  - Escapes a text (any value, as the C(string) filter makes it one) so that Markdown and the HTML it may hold show it
    as it is, on one line, also inside a table cell, for the reports of the playbooks C(nms.overlay.access_report) and
    C(nms.overlay.drift_report).
  - C(\), C(|), C(*), C(_), C(`), C([), C(]) and C(#) get a backslash before them; C(&), C(<), C(>), C({) and C(})
    become HTML character references (so a name such as C({{ x }}) is never templated again); line breaks become
    spaces.
  - One call where a chain of C(replace) filters made 17 (a report of thousands of names spent most of its time there).
options:
  _input:
    description: The text.
    type: raw
    required: true
seealso:
  - plugin: nms.overlay.access_matrix
    plugin_type: filter
'''

EXAMPLES = r'''
- name: A group's name as a Markdown table cell
  ansible.builtin.debug:
    msg: "| {{ 'ops|dev *' | nms.overlay.markdown_text }} |"
'''

RETURN = r'''
_value:
  description:
    - The escaped text, for example C(ops\|dev \*) for C(ops|dev *).
  type: str
'''

ESCAPED = str.maketrans({
    '\\': '\\\\', '&': '&amp;', '<': '&lt;', '>': '&gt;', '|': '\\|', '*': '\\*', '_': '\\_', '`': '\\`', '[': '\\[',
    ']': '\\]', '#': '\\#', '{': '&#123;', '}': '&#125;', '\r': ' ', '\n': ' ',
})


def markdown_text(value):
    return str(value).translate(ESCAPED)


class FilterModule:
    """nms.overlay's Markdown escaping filter."""

    def filters(self):
        return {'markdown_text': markdown_text}
