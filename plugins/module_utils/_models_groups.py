# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Options model for groups."""

from __future__ import annotations

from typing import List, Optional

from ansible_collections.nms.overlay.plugins.module_utils._models import NonEmptyStr, Options


class GroupOptions(Options):
    """A group needs a non-empty name; its peers are non-empty names or ids."""

    name: Optional[NonEmptyStr] = None
    peers: Optional[List[NonEmptyStr]] = None
