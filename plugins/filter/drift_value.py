# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
name: drift_value
short_description: A field's value from a drift report as one short line of text
version_added: 1.0.0
author:
  - nms.overlay contributors (@nms-overlay)
description:
  - Shows a value of RV(nms.overlay.drift_report#filter:_value.changes[].differences) as people read it, for the
    Markdown report of the playbook C(nms.overlay.drift_report).
  - A string as it is (an empty one as C("")), a number as it is, C(true), C(false) and C(null) as in JSON, a list of
    such values as the values joined with commas (an empty list as C([])), anything else (a dictionary, a list holding
    one) as compact JSON with sorted keys. Line breaks become spaces.
  - The text is not escaped for Markdown or HTML; the template escapes it.
options:
  _input:
    description: The value.
    type: raw
    required: true
seealso:
  - plugin: nms.overlay.drift_report
    plugin_type: filter
'''

EXAMPLES = r'''
- name: Show the first difference of the first change
  ansible.builtin.debug:
    msg: "{{ item.field }}: {{ item.before | default(none) | nms.overlay.drift_value }} -> {{ item.after | default(none) | nms.overlay.drift_value }}"
  loop: "{{ (preview | nms.overlay.drift_report).changes[0].differences }}"
'''

RETURN = r'''
_value:
  description:
    - >-
      The value as one line of text, for example C(22, 2222), C(""), C(true), C({"ip": "192.168.10.53", "port": 53}).
  type: str
'''

import json


def _is_list(value):
    return isinstance(value, (list, tuple))


def _scalar(value):
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return value if value else '""'
    return None


def _plain(value):
    """The value as JSON-compatible plain data (Ansible's wrapped strings and other sequences as str and list)."""
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if _is_list(value):
        return [_plain(item) for item in value]
    if isinstance(value, str):
        return str(value)
    return value


def drift_value(value):
    text = _scalar(value)
    if text is None and _is_list(value):
        items = [_scalar(item) for item in value]
        if not items:
            text = '[]'
        elif None not in items:
            text = ', '.join(items)
    if text is None:
        text = json.dumps(_plain(value), sort_keys=True, ensure_ascii=False, default=str)
    return ' '.join(text.splitlines()) if '\n' in text or '\r' in text else text


class FilterModule:
    """nms.overlay's drift value filter."""

    def filters(self):
        return {'drift_value': drift_value}
