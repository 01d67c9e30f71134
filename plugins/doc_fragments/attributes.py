# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    """Attributes of the collection's modules."""

    # Resource modules: full check mode and diff.
    DOCUMENTATION = r'''
attributes:
  check_mode:
    description: Can run in check mode and return the changes it would make, without sending any write.
    support: full
  diff_mode:
    description: Returns the managed fields before and after the change when run with C(--diff).
    support: full
  action_group:
    description: Use C(group/nms.overlay.all) in C(module_defaults) to set the connection options.
    support: full
    membership:
      - nms.overlay.all
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
  action_group:
    description: Use C(group/nms.overlay.all) in C(module_defaults) to set the connection options.
    support: full
    membership:
      - nms.overlay.all
'''
