# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
name: description_yaml
short_description: A network description as YAML that Ansible loads back unchanged
version_added: 1.0.0
author:
  - nms.overlay contributors (@nms-overlay)
description:
  - Writes data (the description C(nms.overlay.network_state) gathers, for example) as block YAML, keys in the order
    they come, lists indented under their key.
  - A text that Ansible would take for a template (it holds C({{), C({%) or C({#)) is tagged C(!unsafe), so that loading
    the file with C(-e @file), C(vars_files) or C(include_vars) gives that text as it is, instead of rendering it. A
    policy whose description mentions C({{ name }}) is then applied back unchanged.
  - Unlike C(ansible.builtin.to_nice_yaml), which writes such a text plain, and Ansible then renders it when loading.
options:
  _input:
    description: The data.
    type: raw
    required: true
  width:
    description: Where long texts are folded.
    type: int
    default: 160
seealso:
  - module: nms.overlay.network_state
'''

EXAMPLES = r'''
- name: Read the network
  nms.overlay.network_state:
    state: gathered
  register: live

- name: Keep it in a file that applies back as it is
  ansible.builtin.copy:
    content: "{{ {'network_description': live.gathered} | nms.overlay.description_yaml }}"
    dest: network.yml
    mode: "0644"
'''

RETURN = r'''
_value:
  description: The YAML text.
  type: str
  sample: |
    network_description:
      policies:
        - name: templates
          description: !unsafe 'how {{ name }} is used'
'''

import yaml

from ansible.errors import AnsibleError

from ansible_collections.nms.overlay.plugins.plugin_utils._plain import plain_data

TEMPLATE_MARKS = ('{{', '{%', '{#')
# characters YAML 1.1 reads as line breaks besides \n and \r: PyYAML writes them as they are in a plain or single-quoted
# text, where loading folds them into a space (NEL) or could; in double quotes they are escaped (\N, \L, \P)
LINE_BREAKS = ('\x85', '\u2028', '\u2029')


class DescriptionDumper(yaml.SafeDumper):
    """Block YAML with lists indented under their key, and the texts Ansible would render tagged !unsafe."""

    def increase_indent(self, flow=False, indentless=False):
        return super().increase_indent(flow, False)


def _text(dumper, value):
    breaks = any(mark in value for mark in LINE_BREAKS)
    if any(mark in value for mark in TEMPLATE_MARKS):
        return dumper.represent_scalar('!unsafe', value, style='"' if breaks else "'")
    if breaks:
        return dumper.represent_scalar('tag:yaml.org,2002:str', value, style='"')
    return dumper.represent_str(value)


DescriptionDumper.add_representer(str, _text)


def _not_yaml(value):
    raise AnsibleError('description_yaml: %s cannot be written as YAML' % type(value).__name__)


def description_yaml(data, width=160):
    try:
        return yaml.dump(plain_data(data, _not_yaml), Dumper=DescriptionDumper, sort_keys=False, default_flow_style=False, allow_unicode=True,
                         width=int(width), indent=2)
    except (yaml.YAMLError, TypeError, ValueError) as exc:
        raise AnsibleError('description_yaml: %s' % exc) from exc


class FilterModule:
    def filters(self):
        return {'description_yaml': description_yaml}
