# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Where a relative path on the controller is: the one rule of the collection (the action plugins' created_secrets_file
and ca_path, the filter nms.overlay.controller_path that the shipped playbooks resolve their file variables with)."""

from __future__ import annotations

import os


def controller_path(path):
    """``path`` with variables and ``~`` expanded (as AnsibleModule expands an option of type path), and a relative one
    taken in the directory ansible-playbook runs in: the controller's working directory, which ansible-core never
    changes. Not the playbook's directory (where ansible-core starts a local module process, and where
    ``lookup('file')`` looks first), nor ``$PWD`` (what a shell says; a process started by another program may lack it
    or carry its parent's). An empty path or None is returned as it is."""
    if not path:
        return path
    return os.path.join(os.getcwd(), expanded(path))  # (an absolute one as it is)


def expanded(path):
    """``path`` with variables, then ``~`` expanded."""
    return os.path.expanduser(os.path.expandvars(path))
