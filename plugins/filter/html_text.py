# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
name: html_text
short_description: A text made safe to show in HTML, also inside an attribute
version_added: 1.1.0
author:
  - nms.overlay contributors (@nms-overlay)
description:
  - Escapes a text (any value, as the C(string) filter makes it one) so that an HTML page shows it as it is, in an
    element or a quoted attribute, for the HTML report of the playbook C(nms.overlay.access_report).
  - C(&), C(<), C(>), C(") and C(') become HTML character references, and so do C({) and C(}) (so a name such as
    C({{ x }}) is never templated again).
  - Its result is a plain text, unlike Jinja's C(escape) filter, whose result a later filter would escape again when
    autoescaping is on.
  - One call where a chain of C(replace) filters made 8 (a report of thousands of names spent most of its time there).
options:
  _input:
    description: The text.
    type: raw
    required: true
seealso:
  - plugin: nms.overlay.markdown_text
    plugin_type: filter
  - plugin: nms.overlay.access_matrix
    plugin_type: filter
'''

EXAMPLES = r'''
- name: A group's name in an HTML table cell
  ansible.builtin.debug:
    msg: "<td>{{ '<b>ops</b> & \"dev\"' | nms.overlay.html_text }}</td>"
'''

RETURN = r'''
_value:
  description:
    - The escaped text, for example C(&lt;b&gt;ops&lt;/b&gt; &amp; &quot;dev&quot;) for C(<b>ops</b> & "dev").
  type: str
'''

ESCAPED = str.maketrans({
    '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '{': '&#123;', '}': '&#125;',
})


def html_text(value):
    return str(value).translate(ESCAPED)


class FilterModule:
    """nms.overlay's HTML escaping filter."""

    def filters(self):
        return {'html_text': html_text}
