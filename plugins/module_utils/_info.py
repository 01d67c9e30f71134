# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Info modules: the objects of one kind, all or one by id or by its natural key, with optional filters."""

from __future__ import annotations

import copy

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._task import NmsModule, connection_argument_spec


class InfoModule(NmsModule):
    """Lists resources of one kind, all or one by id or by its natural key, with optional filters.

    ``resource`` is the kind's declaration (a ResourceModule class): path, nouns, natural key, list-only, the
    result shape and the default options (id, natural key) come from it.
    """

    resource = None
    plural = None            # the result's key (None: the resource's kind)
    argument_spec = None     # None: id and the natural key (one of them), the filters and the parent's option
    filters = ()             # further options that keep the items whose field of that name equals them
    mutually_exclusive = None  # None: id with the natural key and with each filter

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # what of today's servers the kind needs, the info module needs too (unless it says otherwise)
        if 'requires' not in vars(cls) and cls.resource is not None:
            cls.requires = cls.resource.requires

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        declared = self.resource
        self.what = declared.what
        self.kind = declared.kind
        self.natural_key = declared.natural_key
        self.list_only = declared.list_only
        self.plural = self.plural or declared.kind or declared.result_key + 's'

    @property
    def path(self):
        return self.resource.list_path(self)

    @classmethod
    def full_argument_spec(cls):
        spec = connection_argument_spec()
        if cls.argument_spec is not None:
            spec.update(copy.deepcopy(cls.argument_spec))
            return spec
        declared = cls.resource
        if declared.nested_in:  # the option that names the parent (a resource's network), as the kind's module has it
            parent_option = declared.nested_in[2]
            spec[parent_option] = copy.deepcopy(declared.options[parent_option])
        spec.update(id=dict(type='str'), **{declared.natural_key: dict(type='str')})
        for name in cls.filters:
            spec[name] = dict(declared.fields[name].spec, required=False)
        return spec

    @classmethod
    def validation(cls):
        checks = super().validation()
        if cls.mutually_exclusive is None:  # an id finds one item: no other filter may narrow it
            spec = checks['argument_spec']
            narrowing = (cls.resource.natural_key,) + tuple(cls.filters)
            checks['mutually_exclusive'] = [['id', name] for name in narrowing if 'id' in spec and name in spec]
        return checks

    def fetch(self):
        if self.params.get('id') and not self.list_only:
            try:
                return [self.client.get_object('%s/%s' % (self.path, self.params['id']))]
            except ApiError as exc:
                if exc.status == 404:
                    return []
                raise
        items = self.client.get_list(self.path, query=self.query())
        if self.kind:
            self.resolver.seed(self.kind, items)
        return items

    def query(self):
        return None

    def keep(self, item):
        """Whether an item passes the module's filters (id and name by default)."""
        if self.params.get('id') and ref_id(item) != self.params['id']:
            return False
        for name in (self.natural_key,) + tuple(self.filters):
            wanted = self.params.get(name)
            if wanted is not None and item.get(name) != wanted:
                return False
        return True

    def to_result(self, item):
        return self.resource.result_shape(item)

    def run(self):
        self.check_generation()
        items = [self.to_result(item) for item in self.fetch() if self.keep(item)]
        return {'changed': False, self.plural: items}
