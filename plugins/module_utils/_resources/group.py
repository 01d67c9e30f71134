# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Groups of peers (the group module, group_info and network_state)."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._client import NUMBER, TEXT
from ansible_collections.nms.overlay.plugins.module_utils._names import ALL_GROUP
from ansible_collections.nms.overlay.plugins.module_utils._compare import id_list, ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._store import member_body, with_delta
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule


# how a task's peers are applied: the whole list, or only added to or taken out of what the group has
PEERS_MODES = ('exact', 'add', 'remove')


def group_body(group, peer_ids):
    """The PUT body that sets a group's peers and keeps everything else it has (today's resources)."""
    return member_body(group, 'peers', peer_ids, GroupModule.read_only)


def resource_refs(ids, known):
    """A group's resources as the API takes them ([{id, type}]) for their ids; each type from ``known`` (the group's
    own resources first, then the network resources listed), so a kept resource keeps the type the server gave it."""
    types = {}
    for item in known:
        if isinstance(item, dict) and ref_id(item) not in (None, '') and item.get('type'):
            types.setdefault(ref_id(item), item['type'])
    return [dict(id=item_id, type=types.get(item_id)) for item_id in ids]


class GroupModule(ResourceModule):
    path = '/groups'
    what = 'group'
    kind = 'groups'
    unique_names = True      # servers refuse a second group of a name on create (409)
    usage_checked = True     # also for a route's peer_groups, which servers do not check
    answers = dict(id=None, peers_count=NUMBER, issued=TEXT, resources_count=NUMBER)
    # name and peers are checked by the engine (not blank): nothing here needs a pydantic model
    fields = dict(
        name=Field(),
        peers=Field('list', ref='peers', many=True, initial=[], in_use=False),
        # today's servers keep a resource's groups in the groups (a resource's groups are the groups listing it)
        # described by each resource's groups (network_state creates the resources after the groups)
        resources=Field('list', ref='network_resources', many=True, in_use=False, requires='v0.77', described=False),
    )
    options = dict(peers_mode=dict(type='str', default='exact', choices=list(PEERS_MODES)))
    required_one_of = (('id', 'name'),)
    # with peers_mode add or remove: the peers (ids) the task adds and removes, written by a membership step
    task_state = dict(peers_delta=None)

    def new_state(self, desired):
        """A new group holds the peers given, with peers_mode=remove none."""
        if self.params.get('peers_mode') == 'remove' and 'peers' in desired:
            desired = dict(desired, peers=[])
        return super().new_state(desired)

    def prepare_update(self, obj, desired):
        """With peers_mode add or remove, peers is no whole list to compare: only the delta to the current members is
        kept (written by the membership step of follow_ups, on the list as the server has it right then). Without a
        delta the update needs neither hook (an unchanged task runs as few functions as it can)."""
        self.peers_delta = None
        if self.params.get('peers_mode', 'exact') != 'exact' and 'peers' in desired:
            desired = GroupModule.merge_desired(self, self.from_server(obj), desired)  # the members the delta leaves
            after = desired.pop('peers')
            current = id_list(obj.get('peers'))
            self.peers_delta = ([p for p in after if p not in current], [p for p in current if p not in after])
            if any(self.peers_delta) and obj.get('name') == ALL_GROUP:
                raise TaskError('the All group holds every peer and cannot be changed or deleted')
        if not any(self.peers_delta or ()):
            self.follow_ups = None
        else:
            vars(self).pop('follow_ups', None)  # (a second update of the task, after a create answered 409)
        self.merge_desired = None  # (peers, the only member it merges, is taken care of here)
        return desired

    def merge_desired(self, current, desired):
        """With peers_mode add or remove, the peers the group has with the task's added or taken out (what a plan of
        network_state takes for the group's members once the run is done)."""
        mode = self.params.get('peers_mode', 'exact')
        if mode == 'exact' or desired.get('peers') is None:
            return desired
        named = list(dict.fromkeys(desired['peers']))
        current = id_list(current.get('peers')) if isinstance(current, dict) else []
        return dict(desired, peers=with_delta(current, named, []) if mode == 'add' else with_delta(current, [], named))

    def follow_ups(self, before, state, obj):
        """The membership step of peers_mode add or remove (see _store.write_members); its diff shows only the
        peers that join (after) and leave (before)."""
        add, remove = self.peers_delta or ((), ())
        if before is None or not (add or remove):
            return ()
        after = with_delta(id_list(obj.get('peers')), add, remove)
        expect = dict(obj, peers=after, peers_count=len(after))
        return [dict(member=dict(path='%s/%s' % (self.path, ref_id(before)), key='peers', add=add, remove=remove,
                                 read_only=self.read_only, noun=self.what, kind=self.kind),
                     expect=expect, before=dict(peers=list(remove)), after=dict(peers=list(add)))]

    def before_write(self, current_obj, state):
        """The All group is never changed; today's servers also refuse to delete a group that holds network resources:
        said before any write."""
        if current_obj and current_obj.get('name') == ALL_GROUP:
            raise TaskError('the All group holds every peer and cannot be changed or deleted')
        # network_state deletes the networks (and their resources) first and says so with usage_known
        held = id_list(current_obj.get('resources')) if state is None and not self.usage_known else None
        if held:
            raise TaskError("the group '%s' (id %s) holds the network %s %s, and servers refuse to delete a group that "
                            "holds network resources; set its resources to [] first" % (
                                current_obj.get('name'), ref_id(current_obj), 'resource' if len(held) == 1 else 'resources', ', '.join(held)))

    def request_body(self, state, current_obj):
        """Resources as {id, type}; unset, the server's are sent back as they are, and none to a server without them."""
        body = dict(state)
        if 'resources' in body:  # (the engine leaves it out for a server without it)
            answered = current_obj.get('resources') if isinstance(current_obj, dict) else None
            listed = self.resolver.cached('network_resources') or []
            body['resources'] = resource_refs(body['resources'], list(answered or []) + list(listed))
        return body

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


class GroupMembership(GroupModule):
    """network_state's group_memberships: peers added to or taken out of a group the description does not own (it
    exists on the server; the run never creates, renames or deletes it)."""

    not_creatable = ("no group named '{name}' exists; group_memberships changes the members of an existing group only "
                     "(describe the group under groups to create it)")
