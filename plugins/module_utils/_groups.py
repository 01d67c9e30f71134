# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The group resource (used by the group module and by network_state)."""

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
    kind = 'groups'
    result_key = 'group'
    read_only = ('id', 'peers_count', 'issued')
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
    # whether a delete first checks what uses the group (network_state checks that itself, before its first write)
    check_usage = True

    def before_write(self, current_obj, state):
        if current_obj and current_obj.get('name') == ALL_GROUP:
            raise TaskError('the All group holds every peer and cannot be changed or deleted')
        if state is None and current_obj is not None and self.check_usage:
            # also in check mode, and also for a route's peer_groups, which the server does not check;
            # imported here, so that a task that deletes nothing does not load it
            from ansible_collections.nms.overlay.plugins.module_utils._usage import current_sources, in_use_message, users_of
            users = users_of(self.kind, ref_id(current_obj), current_sources(self.kind, self.resolver))
            if users:
                raise TaskError(in_use_message(self.what, current_obj, users))

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

    def create(self, desired):
        result = super().create(desired)
        if self.module.check_mode:
            result[self.result_key] = self.to_result(result[self.result_key])
        return result
