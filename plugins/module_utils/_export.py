# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""network_state with ``state: gathered``: the live network read into exactly the description network_state takes.

Each kind's objects go through the kind's own ``from_server`` (the values a task compares), then its references are
named. Every field the kind manages is written, defaults and empty values too, so that the export pins the whole
state (a field a description leaves out is not managed: a change made by hand to it would be no drift); left out are
answer-only fields (not fields of the kind), the fields a kind marks ``described=False``, fields an older server does
not have, a reference to nothing, and an empty or default value the kind's own check of options refuses (a service
user's empty email); write-only fields (an API key, a client secret) are never answered, so never described. What
prune keeps (the All group, groups an identity provider issues, owners and the calling user, the free domains of proxy
clusters) and setup keys that admit no peer any more are not described. An object whose natural key does not name it
alone, and a reference whose name does not, are given by id, with a warning.
Nothing here writes.
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Kind
from ansible_collections.nms.overlay.plugins.module_utils._kinds import SECTIONS, nested_sections
from ansible_collections.nms.overlay.plugins.module_utils._network_plan import (
    Entry, TaskModule, connection, entry_label, entry_resource, item_spec_defaults, protected,
)
from ansible_collections.nms.overlay.plugins.module_utils._tables import RESOLVER_TABLE


def skipped(kind, obj):
    """Objects an export leaves out: what prune never removes, and setup keys that admit no peer any more (revoked,
    expired or used up), which applied elsewhere would create keys that do."""
    return protected(kind, obj) or (kind == 'setup_keys' and (bool(obj.get('revoked')) or obj.get('valid') is False))


class Namer:
    """Names for ids, from the lists the task reads once; an id whose object a name does not identify alone stays an
    id, with one warning per object."""

    def __init__(self, task):
        self.task = task
        self.warned = set()
        self.indexes = {}

    def index(self, kind):
        """(the objects of a kind by id, how many objects each id or name stands for): made once per kind, so that an
        export of many references reads each list once and looks each reference up directly."""
        if kind not in self.indexes:
            fields = RESOLVER_TABLE[kind][2]
            items = [item for item in self.task.resolver.items(kind) if isinstance(item, dict)]
            uses = {}
            for item in items:
                for value in {ref_id(item)} | {item.get(key) for key in fields}:
                    uses[value] = uses.get(value, 0) + 1
            self.indexes[kind] = ({ref_id(item): item for item in items}, uses)
        return self.indexes[kind]

    def name(self, kind, item_id, where):
        dummy_path, what, fields = RESOLVER_TABLE[kind]
        by_id, uses = self.index(kind)
        item = by_id.get(str(item_id))
        if item is None:
            self.warn((kind, item_id), '%s refers to the %s with id %s, which the server does not list: kept as an id' % (
                where, what, item_id))
            return item_id
        for field in fields:
            value = item.get(field)
            if isinstance(value, str) and value and uses.get(value) == 1:
                return value
        self.warn((kind, item_id), "%s refers to the %s with id %s by id: its name '%s' is not unique" % (
            where, what, item_id, item.get(fields[0])))
        return item_id

    def names(self, kind, ids, where):
        named = [self.name(kind, item_id, where) for item_id in ids or ()]
        return sorted(named, key=str)

    def warn(self, key, message):
        if key not in self.warned:
            self.warned.add(key)
            self.task.warn(message)


def described_value(field, value, namer, where):
    """One field's value as a description gives it, references named."""
    if field.ref:
        return namer.names(field.ref, value, where) if field.many else namer.name(field.ref, value, where)
    if field.item_refs and isinstance(value, list):
        return [dict(item, **{key: namer.names(kind, item.get(key), where) for key, kind in field.item_refs.items()
                              if isinstance(item.get(key), list)}) if isinstance(item, dict) else item for item in value]
    return value


REFUSED = {}  # {(kind, option, value): whether the kind's check of options refuses the value}, see refused


def refused(resource, name, value):
    """Whether the kind's own check of options refuses ``value`` for option ``name`` (an empty text or list an option
    cannot take, as a user's email: the server's empty value is then not described), judged once per kind and value."""
    key = (type(resource), name, repr(value))
    if key not in REFUSED:
        def fails(params):
            probe = type(resource)(TaskModule(params, True, lambda message: None), client=resource.client,
                                   resolver=resource.resolver, found_in_list=True)
            try:
                probe.check_options()
            except TaskError:
                return True
            return False
        REFUSED[key] = not fails(resource.params) and fails(dict(resource.params, **{name: value}))
    return REFUSED[key]


def describe(resource, obj, namer, where):
    """The options of one server object (``resource``: a task of its kind, for its hooks), every field it can manage
    (defaults and empty values too, so that applying the description pins them); None when its kind's ``described``
    hook says there is nothing to describe (Agent Network settings not bootstrapped yet)."""
    state = resource.from_server(obj)
    older = None
    options = {}
    for name, field in resource.fields.items():
        value = state.get(name)
        if not field.described or value is None:
            continue
        if field.requires:
            older = (not resource.resolver.server.current) if older is None else older
            if older:
                continue  # what an older server lacks: its empty value (from the field's norm) is no option there
        if value in ('', [], {}) and (name == resource.natural_key or field.ref and not field.many):
            continue  # a reference to nothing (a router without its peer)
        if (value in ('', [], {}) or value == field.server_default or value == field.initial) and refused(resource, name, value):
            continue  # an empty or default value the option refuses (a user's empty email, an inactivity expiration of 0)
        options[name] = described_value(field, value, namer, '%s (%s)' % (where, name))
    for exclusive in resource.mutually_exclusive:
        if sum(name in options for name in exclusive) > 1:
            # options that exclude each other: the empty one beside the one in use (a route's peer_groups beside its peer)
            for name in [name for name in exclusive if options.get(name, 0) in ('', [], {})]:
                del options[name]
    if resource.described is not None:
        options = resource.described(options, obj, lambda kind, item_id: namer.name(kind, item_id, where))
    return options


def _by_natural_key(cls, listed):
    """The listed objects by the value of the kind's natural key, in the list's order; None when the kind finds its
    object otherwise (its own ``matches``: routes by network and routing peer, users by email...) or a value is no
    key. With it, each object of a long list is identified among the few of its key, not by matching the whole list."""
    if cls.matches is not Kind.matches:
        return None
    found = {}
    try:
        for item in listed:
            if isinstance(item, dict):
                found.setdefault(item.get(cls.natural_key), []).append(item)
    except TypeError:  # an unhashable value: matched against the whole list
        return None
    return found


def identify(task, cls, params, obj, options, listed, namer, where, by_key=None):
    """The options with ``id`` first when the natural key does not find this object alone (servers let routes, DNS
    records, service users... share it): found as the kind's own task would find it. ``params``: the kind's option
    defaults under the shared options; ``by_key``: the list by natural key (_by_natural_key), when the kind has one."""
    params = dict(params)
    params.update((name, value) for name, value in options.items() if name in params)
    probe = entry_resource(task, cls, params, Entry(cls.section, None, where, None))
    candidates = listed
    if by_key is not None:
        try:
            candidates = by_key.get(probe.params.get(cls.natural_key), [])
        except TypeError:
            candidates = listed
    found = [item for item in candidates if probe.matches(item) and (probe.live is None or probe.live(item))]
    if len(found) == 1 and ref_id(found[0]) == ref_id(obj):
        return options
    key = next((key for key in (cls.natural_key, 'name', 'email', 'network_id') if obj.get(key)), cls.natural_key)
    namer.warn((cls.section, ref_id(obj)), '%s: described by id (%s): its %s does not identify it alone' % (where, ref_id(obj), key))
    return dict(id=ref_id(obj), **options)


def described_items(task, namer, kind, cls, shared, parent_where=None):
    """Every object of a kind (under a parent: ``shared`` names it) as description entries, in a stable order."""
    params = dict(item_spec_defaults(cls), **shared)  # the kind's option spec once, not once per object
    resource = entry_resource(task, cls, dict(params), Entry(kind, None, '', None))
    listed = list(resource.list_items())
    by_key = _by_natural_key(cls, listed)
    entries = []
    for obj in listed:
        if not isinstance(obj, dict) or skipped(kind, obj):
            continue
        where = '%s%s %s' % (parent_where + ': ' if parent_where else '', cls.what, entry_label(cls, obj))
        options = identify(task, cls, params, obj, describe(resource, obj, namer, where), listed, namer, where, by_key)
        for key, child in nested_sections(cls.section):
            options[key] = described_items(task, namer, child.section, child, dict(shared, **{child.nested_in[2]: ref_id(obj)}), where)
        entries.append((str(options.get(cls.natural_key) or ''), ref_id(obj), options))
    return [options for dummy_key, dummy_id, options in sorted(entries, key=lambda entry: (entry[0], str(entry[1])))]


def gathered(task):
    """The description of the network the task's server holds: every section the server has, in network_state's order
    (a singleton with nothing to describe left out)."""
    namer = Namer(task)
    shared = connection(task)
    description = {}
    for kind, cls in SECTIONS:
        if cls.requires and not task.resolver.server.current:
            continue  # a v0.27 server has no Networks nor DNS zones
        if cls.singleton:
            resource = entry_resource(task, cls, dict(item_spec_defaults(cls), **shared), Entry(kind, None, '', None))
            described = describe(resource, resource.find(), namer, cls.what)
            if described is not None:
                description[kind] = described
        else:
            description[kind] = described_items(task, namer, kind, cls, shared)
    return description
