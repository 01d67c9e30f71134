# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Groups of peers (the group module, group_info and network_state)."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resource import Field, ResourceModule, kept_fields

ALL_GROUP = 'All'


def group_body(group, peer_ids):
    """The PUT body that sets a group's peers and keeps everything else it has (today's resources)."""
    return kept_fields(group, dict(name=group.get('name'), peers=list(peer_ids)), GroupModule.fields, GroupModule.read_only)


class GroupModule(ResourceModule):
    path = '/groups'
    what = 'group'
    kind = section = 'groups'
    result_key = 'group'
    unique_names = True      # servers refuse a second group of a name on create (409)
    usage_checked = True     # also for a route's peer_groups, which servers do not check
    read_only = ('id', 'peers_count', 'issued', 'resources_count')
    # name and peers are checked by the engine (not blank): nothing here needs a pydantic model
    fields = dict(
        name=Field(),
        peers=Field('list', ref='peers', many=True, initial=[], in_use=False),
    )
    required_one_of = (('id', 'name'),)

    def before_write(self, current_obj, state):
        if current_obj and current_obj.get('name') == ALL_GROUP:
            raise TaskError('the All group holds every peer and cannot be changed or deleted')
        super().before_write(current_obj, state)

    def to_result(self, obj):
        """Peers as {id, name} also in check mode (where the planned group holds the ids it would send)."""
        result = super().to_result(obj)
        if not isinstance(result, dict) or not result or not isinstance(result.get('peers'), list):
            return result
        planned = [peer for peer in result['peers'] if not isinstance(peer, dict)]
        if planned:
            result['peers'] = [peer if isinstance(peer, dict) else dict(id=ref_id(peer), name=self.resolver.name_of('peers', peer))
                               for peer in result['peers']]
        if planned or 'peers_count' not in result:
            result['peers_count'] = len(result['peers'])
        return result
