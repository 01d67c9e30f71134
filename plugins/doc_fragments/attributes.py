# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    """Attributes of the collection's modules: every module has these, plus RESOURCE or INFO_MODULE."""

    DOCUMENTATION = r'''
attributes:
  action:
    description: >-
      Has an action plugin. When the task runs on the controller with the controller's own Python
      (C(hosts: localhost) or C(delegate_to: localhost)), the module runs inside the controller's task
      worker instead of a new process, which saves most of a task's cost. Set the variable
      C(nms_overlay_in_process) to C(false) to always run it as a process.
    support: full
    details: >-
      Another connection or interpreter, C(become), C(async) and C(ANSIBLE_KEEP_REMOTE_FILES) run the
      module as a process, as usual.
  action_group:
    description: Use C(group/nms.overlay.all) in C(module_defaults) to set the connection options.
    support: full
    membership:
      - nms.overlay.all
'''

    # Resource modules: full check mode and diff.
    RESOURCE = r'''
attributes:
  check_mode:
    description: Can run in check mode and return the changes it would make, without sending any write.
    support: full
  diff_mode:
    description: Returns the managed fields before and after the change when run with C(--diff).
    support: full
'''

    # Info modules: read only.
    INFO_MODULE = r'''
attributes:
  check_mode:
    description: Reads only, so it runs the same in check mode.
    support: full
    details: This is an information module; it never changes anything.
  diff_mode:
    description: Nothing changes, so there is no diff.
    support: N/A
'''
