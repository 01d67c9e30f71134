# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The group resource (used by the group module and by network_state)."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resource import Field, ResourceModule

ALL_GROUP = 'All'


class GroupModule(ResourceModule):
    path = '/groups'
    what = 'group'
    kind = 'groups'
    result_key = 'group'
    # name and peers are checked by the engine (not blank): nothing here needs a pydantic model
    fields = dict(
        name=Field(),
        peers=Field(ref='peers', many=True, initial=[]),
    )
    argument_spec = dict(
        name=dict(type='str'),
        peers=dict(type='list', elements='str'),
    )
    required_one_of = (('id', 'name'),)

    def before_write(self, current_obj, state):
        if current_obj and current_obj.get('name') == ALL_GROUP:
            raise TaskError('the All group holds every peer and cannot be changed or deleted')
