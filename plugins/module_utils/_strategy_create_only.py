# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The create-only strategy of the engine: objects a server makes through a request under a parent and never changes
(a peer's temporary access), which then live in another kind's list. What differs between such kinds is data they
declare and one hook, ``linked`` (see CreateOnly); creating (never twice) and deleting them is the engine's."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Kind, placeholder_id
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._strategy_action import UnderParent
from ansible_collections.nms.overlay.plugins.module_utils._tables import RESOLVER_TABLE


class CreateOnly(UnderParent, ResourceModule):
    """The strategy of an object created by a POST to ``sub_path`` under the parent the task names, found among the
    objects of ``kind`` (its list, shared with name resolution) by the natural key and the ``linked`` hook, deleted at
    that kind's path. Nothing of it can change: a field whose value differs is a warning, never a request. The fields
    answers never hold (``never_answered``, such as a peer's public key) are sent on create only: neither compared nor
    shown. The result shows the parent's id under the parent's option."""

    HOOKS = Kind.HOOKS + ('linked',)
    has_id = False
    updatable = False        # a difference is a warning (the engine's unchangeable), never a request
    # concurrent creates leave no copies to converge: the server refuses a second one of what makes it (a peer's key)
    unique_names = True
    exists_answers = {}
    # the failure when several objects of the natural key are linked to the parent: a template of {identity} (the
    # natural key and its value), {name} (the value), {count}, {parent} (as the task names it) and {ids}
    ambiguous_text = '{identity} matches {count} objects under {parent} (ids: {ids})'
    # (item) -> the object as the kind shows it, when the listed item of the natural key is one made under the parent
    # (the parent's id: self.parent_object(self)), else None
    linked = None

    def choose(self, found):
        """The one object of the name made under the parent, as the kind shows it (``linked``), of those listed."""
        parent_id = ref_id(self.parent_object(self))  # an unknown parent fails here, state absent too
        shown = [shown for shown in (self.linked(item) for item in found if ref_id(item) != parent_id) if shown is not None]
        if len(shown) > 1:
            raise TaskError(self.ambiguous_text.format(
                identity=self.identity_text(), name=self.params.get(self.natural_key), count=len(shown), parent=self.parent_text(self),
                ids=', '.join(sorted(ref_id(item) for item in shown))))
        return shown[0] if shown else None

    def from_server(self, obj):
        return {name: value for name, value in super().from_server(obj).items() if name not in self.never_answered}

    def predict(self, planned, current_obj):
        """A planned object as answers show one: an id naming the object of ``kind`` it makes, no never-answered field."""
        shown = {name: value for name, value in planned.items() if name not in self.never_answered}
        return dict(shown, id=placeholder_id(RESOLVER_TABLE[self.kind][1], planned.get(self.natural_key)))

    def to_result(self, obj):
        shown = self.result_shape(obj)
        if not isinstance(shown, dict) or not shown:
            return shown
        return dict(shown, **{self.parent[1]: ref_id(self.parent_object(self))})

    def object_path(self, obj):
        return '%s/%s' % (RESOLVER_TABLE[self.kind][0], ref_id(obj))
