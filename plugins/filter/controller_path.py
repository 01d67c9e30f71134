# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
name: controller_path
short_description: A path on the controller, a relative one taken in the directory ansible-playbook runs in
version_added: 1.0.0
author:
  - nms.overlay contributors (@nms-overlay)
description:
  - Makes a path absolute the way the collection's modules take O(nms.overlay.instance#module:created_secrets_file) and
    O(nms.overlay.group#module:ca_path) when they run on the controller, so that a playbook resolves each of its file
    variables once and every task, test and lookup then sees the same file.
  - Environment variables and C(~) are expanded. A relative path is taken in the directory C(ansible-playbook) runs in
    (the controller's working directory, which ansible-core never changes), not in the playbook's directory (where
    C(lookup('ansible.builtin.file')) looks first and where ansible-core starts a module process on the controller),
    nor in C($PWD) (which a process started by another program, such as a CI runner or C(make -C), may lack or
    inherit from its parent).
  - An empty string (a file the playbook skips) stays empty.
options:
  _input:
    description: The path.
    type: str
    required: true
seealso:
  - module: nms.overlay.instance
'''

EXAMPLES = r'''
- name: Read a token file given relative to the directory ansible-playbook runs in
  ansible.builtin.set_fact:
    token: "{{ (lookup('ansible.builtin.file', token_file | nms.overlay.controller_path) | from_json).tokens }}"
  vars:
    token_file: owner-token.json
'''

RETURN = r'''
_value:
  description: The absolute path (or the empty string given).
  type: str
'''

from ansible.errors import AnsibleError

from ansible_collections.nms.overlay.plugins.plugin_utils._paths import controller_path as _controller_path


def controller_path(path):
    if path is None:
        return ''
    if not isinstance(path, str):
        raise AnsibleError('nms.overlay.controller_path: a path must be a string, not %s' % type(path).__name__)
    return _controller_path(path)


class FilterModule:
    """nms.overlay's controller path filter."""

    def filters(self):
        return {'controller_path': controller_path}
