# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The one lifecycle engine: find, compare, create/update/delete, check mode and diff, and its strategies.

A resource kind is a declaration (plugins/module_utils/_resources/<kind>.py) on ResourceModule (plain CRUD) or
one of the strategies at the end (UpdateOnly, Settings, SecretOnCreate); an info module is an InfoModule naming
its kind. How a module meets Ansible (options, the running task, NmsModule) is in _task.py.
"""

from __future__ import annotations

import copy

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError, describe_shape
from ansible_collections.nms.overlay.plugins.module_utils._compare import (
    id_set, ref_id,
)
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resolve import find_unique, kind_table, plural
from ansible_collections.nms.overlay.plugins.module_utils._secrets import OPTION as SECRETS_FILE
from ansible_collections.nms.overlay.plugins.module_utils._secrets import check_secrets_file, keep_created_secret, secrets_file_options
from ansible_collections.nms.overlay.plugins.module_utils._task import NmsModule, connection_argument_spec, refuse_newer_options
from ansible_collections.nms.overlay.plugins.module_utils._time import monotonic, sleep

MISSING = object()
# at most this many seconds to wait for a concurrent run's write to land before reading back (see converge)
MAX_SETTLE = 3.0
# how often a list is read again while concurrent runs converge on one copy (see matching_items)
SETTLE_STEP = 1.0


def kept_fields(obj, body, managed, read_only=(), item_fields=None):
    """An update body that keeps what the task does not manage: every field of the server object ``obj``
    that is not ``managed`` (the module's fields, which ``body`` carries in the request's shape or leaves out
    on purpose) and not ``read_only`` (answer-only fields), unchanged, then ``body``.

    PUT replaces the whole object on today's servers, which reset every field a body leaves out (a route's
    keep_route, a group's resources, a peer's inactivity_expiration_enabled). ``item_fields`` ({field:
    (known keys, match key)}) does the same inside lists of objects (a policy's rules): each item of the body
    keeps the unknown keys of the server item it continues (the one with the same match key, else the one at
    its position) and inside objects ({field: (known keys, None)}): their unknown members are kept.
    """
    if not isinstance(obj, dict):
        return body
    merged = {key: copy.deepcopy(value) for key, value in obj.items() if key not in managed and key not in read_only}
    merged.update(body)
    for name, (known, match) in (item_fields or {}).items():
        old, new = obj.get(name), merged.get(name)
        if isinstance(old, dict) and isinstance(new, dict):
            merged[name] = dict({k: copy.deepcopy(v) for k, v in old.items() if k not in known}, **new)
        elif isinstance(old, list) and isinstance(new, list):
            merged[name] = _continued_items(old, new, known, match)
    return merged


def _continued_items(old_items, new_items, known, match):
    """The items of a body, each with the unknown keys of the server item it continues: the one server item with
    the same match key, else the server item at its position that no other item continues."""
    olds = [old if isinstance(old, dict) else {} for old in old_items]
    bases = []
    for item in new_items:
        same = [index for index, old in enumerate(olds) if match and isinstance(item, dict) and old.get(match) == item.get(match)]
        bases.append(same[0] if len(same) == 1 else None)
    claimed = set(base for base in bases if base is not None)
    result = []
    for index, item in enumerate(new_items):
        base = bases[index]
        if base is None and index < len(olds) and index not in claimed and not (
                match and isinstance(item, dict) and any(old.get(match) == item.get(match) for old in olds)):
            base = index
        if base is None or not isinstance(item, dict):
            result.append(item)
            continue
        result.append(dict({k: copy.deepcopy(v) for k, v in olds[base].items() if k not in known}, **item))
    return result


def lost_value_message(what, option_hint, answer_lost, unreadable=None):
    """Why a created secret cannot be shown: its create answer was lost, could not be read (``unreadable``, the
    client's error) or carried no value."""
    if unreadable is not None:
        how = 'the answer to the creation request (which carries the value) could not be read (%s)' % unreadable.message
    elif answer_lost:
        how = 'the connection was lost after the creation request was sent, so its answer (which carries the value) never arrived'
    else:
        how = 'the answer to the creation request did not carry the value'
    return '%s; %s, and the value is only ever shown in that answer; %s' % (what, how, option_hint)


def create_may_repeat(exc):
    """Whether a failed create may be sent again once a read proves it absent: the server did not act on it
    (429, too many requests) or it is unknown whether it did (no answer, a gateway or server error)."""
    return exc.status is None or exc.status in (429, 500, 502, 503, 504)


def id_order(value):
    """A sort key of ids: numbers by value, before other ids by text (the same order in every run)."""
    text = str(value)
    return (0, int(text), '') if text.isdigit() else (1, 0, text)


def answer_unreadable(exc):
    """Whether a call was answered with success but the answer could not be read (cut off, not JSON): the
    server acted on it, and what it answered is unknown."""
    return exc.status is not None and 200 <= exc.status < 300


class Field:
    """One request field of a resource: its option (the argument spec entry), how to normalise it and what it
    refers to.

    ``ref`` names a resolver kind: the user may give names or ids, the engine sends ids.
    ``many`` marks a list (returned as [] rather than null), of references compared as a set when ``ref`` is set. ``immutable`` fields cannot change
    after creation: a difference is a warning, never a change. ``initial`` is sent on create
    when the user did not set the option. ``item_refs`` ({key: kind}) marks a list of objects (or one
    object) whose keys hold references, such as a policy's rules with their sources and destinations:
    the diff shows those by name too. A reference (``ref``, ``item_refs``) is a use of the object it names,
    which then cannot be deleted (see _usage), unless ``in_use`` is false (a membership, such as a group's peers).
    ``requires`` names the server generation that has the field ('v0.77'): a task that sets it is refused by an older
    server before any write.
    """

    def __init__(self, option='str', norm=None, ref=None, many=False, immutable=False, initial=MISSING, item_refs=None, in_use=True,
                 requires=None):
        self.option = option
        self.requires = requires
        self.ref = ref
        self.in_use = in_use
        self.many = many
        self.immutable = immutable
        self.initial = initial
        self.item_refs = dict(item_refs or {})
        if norm is None and ref:
            norm = id_set if many else ref_id
        self.norm = norm

    @property
    def spec(self):
        """The argument spec entry: ``option`` is one (a dict), a type name, or 'list' (a list of strings)."""
        if isinstance(self.option, dict):
            return copy.deepcopy(self.option)
        if self.option == 'list':
            return dict(type='list', elements='str')
        return dict(type=self.option)

    def normalise(self, value):
        if self.norm is None:
            return value
        return self.norm(value)


def display_name(item, keys):
    """The first non-empty text among ``keys`` of an object or a task's options (its name in messages), or None."""
    if not isinstance(item, dict):
        return None
    for key in keys:
        if isinstance(item.get(key), str) and item[key]:
            return item[key]
    return None


def kind_name(kind, item):
    """The display name of an object of a resolver kind (users: email, else name), or None."""
    table = kind_table()
    return display_name(item, table[kind][2] if kind in table else ('name',))


class ReferenceNames:
    """Names for the ids of referenced objects, for --diff, from what a task already holds (never a request).

    Names come from the lists the resolver read (to resolve names, or to find the resource) and from
    summaries embedded in the server object (a group's ``peers: [{id, name}]``, a policy rule's groups).
    An id shows as its name; a name that several known objects of the kind share shows as ``name (id)``;
    an id whose name is unknown shows as the id.
    """

    def __init__(self, resolver):
        self.resolver = resolver
        self._seen = {}
        self._tables = {}

    def learn(self, kind, values):
        """Remember the names of summaries ({id, name}) in a value or a list of them."""
        for value in values if isinstance(values, list) else [values]:
            name = kind_name(kind, value)
            if name and ref_id(value) not in (None, ''):
                self._seen.setdefault(kind, {})[ref_id(value)] = name

    def _table(self, kind):
        if kind not in self._tables:
            table = dict(self._seen.get(kind, {}))
            for item in (self.resolver.cached(kind) if self.resolver is not None else None) or []:
                name = kind_name(kind, item)
                if name and ref_id(item) not in (None, ''):
                    table[ref_id(item)] = name
            counts = {}
            for name in table.values():
                counts[name] = counts.get(name, 0) + 1
            self._tables[kind] = (table, counts)
        return self._tables[kind]

    def show(self, kind, value):
        """One reference as shown in a diff (values that are no id, such as '' or None, unchanged)."""
        if not isinstance(value, (str, int)) or isinstance(value, bool) or value == '':
            return value
        table, counts = self._table(kind)
        name = table.get(str(value))
        if not name:
            return value
        return name if counts[name] == 1 else '%s (%s)' % (name, value)

    def show_many(self, kind, values):
        """Set-like references as shown in a diff: each shown, sorted as shown."""
        if not isinstance(values, list):
            return self.show(kind, values)
        return sorted((self.show(kind, value) for value in values), key=str)


class ResourceModule(NmsModule):
    """Ensures one resource is present with the given options, or absent.

    A resource kind is declared once, by a subclass in ``_resources/<kind>.py`` whose attributes below are its
    descriptor; the registry (``_kinds.py``) derives the resolver's table, the usage table and
    network_state's order from them. Options left unset keep the server's value.
    """

    path = None
    what = None
    result_key = None
    kind = None              # resolver kind of this resource (references to it are resolved by name), and its list
    section = None           # its key in a network_state description (None: kind, or not described there)
    # a kind that lives under a parent object: (the parent's section, the key of the parent's entry that lists it, the
    # option that names the parent), such as a network's resources; None for a top-level kind
    nested_in = None
    lookup = None            # the fields a reference to it may match after the id (None: the natural key)
    natural_key = 'name'
    fields = {}
    options = {}             # options that are no request fields (state and id are added)
    model = None             # a function returning the pydantic options model (imported lazily)
    has_id = True
    list_only = False        # no GET by id: find by id in the list
    singleton = False        # one object at ``path``: read and update only
    required_on_create = ('name',)
    unique_names = False     # whether the server keeps the natural key unique (a rename onto a taken one is refused)
    usage_checked = False    # whether a delete first checks what refers to it (servers refuse, or leave dangling ids)
    states = ('present', 'absent')
    replacing = None         # the object a replacement of the same name is being created for (rotate, replace)
    read_only = ('id',)      # fields of the server's answers that are no request fields (left out of update bodies)
    item_fields = {}         # {field: (known keys, match key)}: unknown keys kept inside lists or objects (see kept_fields)
    unreadable_answer = None  # the ApiError of a create the server answered with success but unreadably
    # the answers to a create that mean "one of that natural key exists already" ({status: words of the message,
    # or None for any}): the create is then reconciled with the existing object, as another run made it meanwhile
    exists_answers = {409: None}
    shape = None             # a function giving an object of the kind as returned to the user (shared with its info module)

    def __init__(self, module=None, client=None, resolver=None, found_in_list=False, usage_known=False):
        """``found_in_list``: find by id in the list the task read (network_state read it), not with a GET;
        ``usage_known``: the caller checked, before its first write, that nothing refers to what it deletes."""
        super().__init__(module, client, resolver)
        self.find_in_list = self.list_only or found_in_list
        self.usage_known = usage_known

    @classmethod
    def full_argument_spec(cls):
        spec = connection_argument_spec()
        spec.update((name, field.spec) for name, field in cls.fields.items())
        spec.update(copy.deepcopy(cls.options))
        spec.update(copy.deepcopy(cls.argument_spec))
        if not cls.singleton:
            spec.setdefault('state', dict(type='str', default='present', choices=list(cls.states)))
            if cls.has_id:
                spec.setdefault('id', dict(type='str'))
        return spec

    # -- hooks a module may override ---------------------------------------------------------------
    def validate_options(self):
        """Check the user's options before any request.

        Names and references must not be blank (checked here, for every module); a module whose options
        have further rules has a pydantic model, imported only then (pydantic costs about 0.1 s a task).
        """
        problems = []
        for name, field in self.fields.items():
            value = self.params.get(name)
            if value is None or not (field.ref or name == self.natural_key):
                continue
            for where, item in ([(name, value)] if not isinstance(value, list) else
                                [('%s[%d]' % (name, index), item) for index, item in enumerate(value)]):
                if isinstance(item, str) and not item.strip():
                    problems.append('option %s: must not be empty' % where)
        if problems:
            from ansible_collections.nms.overlay.plugins.module_utils._models import OptionsError
            raise OptionsError('; '.join(problems))
        if self.model is None:
            return
        data = {name: self.params[name] for name in self.fields if self.params.get(name) is not None}
        from ansible_collections.nms.overlay.plugins.module_utils._models import validate
        validate(self.model(), data)

    def check_server_accepts(self):
        """Refuse, before any write, options this server cannot take (a module asks ``self.resolver.server``, which
        costs one request per task, only when its options depend on it). network_state calls it for every described
        resource before its first write. Here: the fields of today's servers (Field ``requires``) the task sets."""
        refuse_newer_options(self, {name: field.requires for name, field in self.fields.items() if field.requires})

    def same(self, name, current, desired):
        """Whether a field's normalised server value already is the desired one (a hook for answers that show a
        stored value differently)."""
        return current == desired

    def matches(self, item):
        return item.get(self.natural_key) == self.params.get(self.natural_key)

    def identity_text(self):
        if self.params.get('id'):
            return "id '%s'" % self.params['id']
        return "%s '%s'" % (self.natural_key, self.params.get(self.natural_key))

    def from_server(self, obj):
        """The server object as request fields, normalised like desired values."""
        return {name: field.normalise(obj.get(name)) for name, field in self.fields.items()}

    def resolve(self, name, field, value):
        """A user value with names turned into ids (for fields with a ref)."""
        if field.ref is None or value is None:
            return value
        if field.many:
            return self.resolver.to_ids(field.ref, value, name)
        return self.resolver.to_id(field.ref, value, name)

    def references(self):
        """(kind, name or id, option) for every reference in the options, to check them up front."""
        for name, field in self.fields.items():
            value = self.params.get(name)
            if value is None:
                continue
            for item in (value if field.many else [value]) if field.ref else ():
                yield field.ref, item, name
            for index, entry in enumerate(value if field.item_refs and isinstance(value, list) else ()):
                for key, kind in field.item_refs.items():
                    for item in (entry.get(key) or []) if isinstance(entry, dict) else ():
                        yield kind, item, '%s[%d].%s' % (name, index, key)

    def desired(self):
        """The options the user set, resolved to ids and normalised."""
        wanted = {}
        for name, field in self.fields.items():
            value = self.params.get(name)
            if value is None:
                continue
            wanted[name] = field.normalise(self.resolve(name, field, value))
        return wanted

    def request_body(self, state, current_obj):
        """The JSON body of a POST or PUT for the complete state (current merged with desired)."""
        return dict(state)

    def update_body(self, state, current_obj):
        """The body of a PUT: the module's request body over every field of the server object it does not manage
        (see kept_fields), so that an update never resets what the task did not ask to change."""
        body = self.request_body(state, current_obj)
        return kept_fields(self.server_fields(current_obj), body, self.fields, self.read_only, self.item_fields)

    @classmethod
    def list_path(cls, task):
        """The path of the kind's list for a task (a module or an info module) with these options: ``path``, or for a
        kind that lives under a parent object, under the one the task names."""
        return cls.path

    def unknown_to_server(self, obj, desired):
        """The fields of today's servers (Field ``requires``) an update leaves out: those the task does not set and the
        server's object does not carry, so that an older server is never sent them (not even as null or [])."""
        carried = self.server_fields(obj)
        carried = carried if isinstance(carried, dict) else {}
        return [name for name, field in self.fields.items() if field.requires and name not in desired and name not in carried]

    def server_fields(self, obj):
        """The server object whose fields an update keeps (a module whose object is wrapped unwraps it)."""
        return obj

    def before_write(self, current_obj, state):
        """Last check of the merged state before a write; raise TaskError to refuse it."""

    def check_unused(self, obj):
        """Refuse to delete an object that others refer to (kinds with ``usage_checked``), naming each of them."""
        # imported here: the usage table derives from the declarations, which import this file
        from ansible_collections.nms.overlay.plugins.module_utils._usage import current_sources, in_use_message, users_of
        users = users_of(self.kind, ref_id(obj), current_sources(self.kind, self.resolver))
        if users:
            raise TaskError(in_use_message(self.what, obj, users))

    @classmethod
    def result_shape(cls, obj):
        """An object of the kind as the user gets it, from a module or its info module: as ``shape`` makes it, and
        every list field (``many``) a list, never null or missing."""
        result = cls.shape(obj) if cls.shape is not None and isinstance(obj, dict) else obj
        if not isinstance(result, dict) or not result:
            return result
        result = dict(result)
        for name, field in cls.fields.items():
            if field.many and result.get(name) is None:
                result[name] = []
        return result

    def to_result(self, obj):
        """The resource as returned to the user (a hook: see result_shape)."""
        return self.result_shape(obj)

    def remember(self, obj):
        """Keep the shared list (or singleton) current after a write, so later tasks of one run resolve it."""
        if self.singleton and isinstance(obj, dict):
            self.resolver.keep_settings(self.path, obj)
        if self.kind and isinstance(obj, dict) and obj.get('id') is not None:
            self.resolver.replace(self.kind, obj)

    def delete(self, obj):
        try:
            self.client.delete('%s/%s' % (self.path, ref_id(obj)))
        except ApiError as exc:
            # a retried DELETE whose first answer was lost finds it gone: that is the goal
            if exc.status != 404:
                raise

    # -- finding -------------------------------------------------------------------------------------
    def list_items(self):
        """All resources of this kind, listed once per task and shared with name resolution."""
        if self.kind:
            return self.resolver.items(self.kind)
        return self.client.get_list(self.path)

    def get_by_id(self, item_id):
        if self.find_in_list:
            return find_unique(self.list_items(), item_id, (), self.what, 'id')
        try:
            return self.client.get_object('%s/%s' % (self.path, item_id))
        except ApiError as exc:
            if exc.status == 404:
                return None
            raise

    def find(self):
        if self.singleton:
            return self.resolver.settings(self.path)
        if self.params.get('id'):
            return self.get_by_id(self.params['id'])
        return self.only_one(self.matching_items())

    def matching_items(self, live=None):
        """The listed objects that match the natural key (and ``live``, a filter, when given).

        Where the server lets objects share the natural key, several matches may be copies that concurrent runs
        are converging on one (see converge): each such run removes its own copy at most MAX_SETTLE s after its
        create. So the list is read again every SETTLE_STEP s until one match is left, or the same matches have
        stayed longer than a run needs to remove its copy (they are real duplicates), at most 3 * MAX_SETTLE s."""
        keep = live or (lambda item: True)

        def listed():
            return [item for item in self.list_items() if self.matches(item) and keep(item)]

        found = listed()
        if len(found) > 1 and not self.natural_key_is_unique():
            waited = unchanged_for = 0.0
            while len(found) > 1 and waited < 3 * MAX_SETTLE and unchanged_for <= MAX_SETTLE + 2 * SETTLE_STEP:
                sleep(SETTLE_STEP)
                waited += SETTLE_STEP
                if self.kind:
                    self.resolver.forget(self.kind)
                again = listed()
                same = sorted(str(ref_id(item)) for item in again) == sorted(str(ref_id(item)) for item in found)
                unchanged_for = unchanged_for + SETTLE_STEP if same else 0.0
                found = again
        return found

    def only_one(self, found):
        if len(found) > 1:
            raise TaskError('%s matches %d %s (ids: %s); give the id to choose one' % (
                self.identity_text(), len(found), plural(self.what), ', '.join(sorted(ref_id(i) for i in found))))
        return found[0] if found else None

    # -- the lifecycle ---------------------------------------------------------------------------------
    def run(self):
        self.started = monotonic()
        try:
            return self.reconcile()
        except ApiError as exc:
            # a 403 that states a rule about the request is no missing permission: say the rule
            from ansible_collections.nms.overlay.plugins.module_utils._server import explain_forbidden
            raise explain_forbidden(exc) from None

    def reconcile(self):
        self.validate_options()
        self.check_generation()
        absent = self.params.get('state') == 'absent'
        if not absent:
            self.check_server_accepts()
        obj = self.find()
        result = self.ensure_absent(obj) if absent else self.ensure_present(obj)
        return self.name_references(self.finish(obj, result), obj)

    # -- names in the diff -----------------------------------------------------------------------------
    def name_references(self, result, obj):
        """The result with the references in its diff shown by name (see ReferenceNames); the rest unchanged."""
        diff = result.get('diff') if isinstance(result, dict) else None
        if not isinstance(diff, dict) or not any(f.ref or f.item_refs for f in self.fields.values()):
            return result
        names = ReferenceNames(self._resolver)  # only the lists already read: never a request
        for source in (obj, result.get(self.result_key)):
            self.learn_names(names, source)
        shown = dict(diff)
        for side in ('before', 'after'):
            if isinstance(diff.get(side), dict):
                shown[side] = self.diff_view(diff[side], names)
        result = dict(result)
        result['diff'] = shown
        return result

    def learn_names(self, names, obj):
        """Learn the names of the summaries a server object (or a result) embeds in its reference fields."""
        if not isinstance(obj, dict):
            return
        for name, field in self.fields.items():
            if field.ref:
                names.learn(field.ref, obj.get(name))
            for item in self._items_of(obj.get(name)) if field.item_refs else ():
                for key, kind in field.item_refs.items():
                    names.learn(kind, item.get(key))

    @staticmethod
    def _items_of(value):
        if isinstance(value, dict):
            return [value]
        return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []

    def diff_view(self, values, names):
        """A copy of one side of a diff with reference fields shown by name."""
        shown = {}
        for key, value in values.items():
            field = self.fields.get(key)
            if field is not None and field.ref:
                value = names.show_many(field.ref, value) if field.many else names.show(field.ref, value)
            elif field is not None and field.item_refs and isinstance(value, (dict, list)):
                items = []
                for item in value if isinstance(value, list) else [value]:
                    if isinstance(item, dict):
                        item = dict(item)
                        for ref_key, kind in field.item_refs.items():
                            if ref_key in item:
                                item[ref_key] = names.show_many(kind, item[ref_key])
                    items.append(item)
                value = items if isinstance(value, list) else items[0]
            shown[key] = copy.deepcopy(value)
        return shown

    # -- unique names ----------------------------------------------------------------------------------
    def natural_key_is_unique(self):
        return self.unique_names

    def check_rename(self, obj, new_value):
        """Refuse, before any write, to give this object the natural key another object of its kind has.

        Servers check names only on create (a PUT may rename a group onto another group's name), so
        the engine checks: one list read of the own kind (shared with name resolution), and only when
        a task renames.
        """
        if not self.natural_key_is_unique() or new_value in (None, ''):
            return
        others = [item for item in self.list_items()
                  if item.get(self.natural_key) == new_value and ref_id(item) != ref_id(obj)]
        if others:
            raise TaskError("option %s: cannot rename the %s '%s' (id %s) to '%s': the %s with %s %s already %s that %s, "
                            "and %s %ss must be unique" % (
                                self.natural_key, self.what, obj.get(self.natural_key), ref_id(obj), new_value,
                                plural(self.what, len(others)), 'id' if len(others) == 1 else 'ids',
                                ', '.join(sorted(ref_id(item) for item in others)),
                                'has' if len(others) == 1 else 'have', self.natural_key, self.what, self.natural_key))

    def ensure_absent(self, obj):
        result = {'changed': False, self.result_key: {}}
        if obj is None:
            return result
        current = self.from_server(obj)
        self.before_write(obj, None)
        if self.usage_checked and not self.usage_known:
            self.check_unused(obj)  # also in check mode
        if not self.module.check_mode:
            self.delete(obj)
        if self.kind:
            self.resolver.drop(self.kind, ref_id(obj))
        result.update(changed=True, diff=dict(before=current, after={}))
        result[self.result_key] = self.to_result(obj)
        return result

    def ensure_present(self, obj):
        desired = self.desired()
        if obj is None:
            if self.singleton:
                raise TaskError('the server returned no %s' % self.what)
            if self.params.get('id'):
                raise TaskError('no %s with id %s exists; ids are given by the server, so create it by %s instead'
                                % (self.what, self.params['id'], self.natural_key))
            return self.create(desired)
        return self.update_object(obj, desired)

    # -- hooks of the lifecycle --------------------------------------------------------------------------
    def new_state(self, desired):
        """The values of a new object: the fields' create defaults under the user's options. A kind with create
        rules beyond its required options checks them here (raise TaskError)."""
        missing = [name for name in self.required_on_create if desired.get(name) in (None, '')]
        if missing:
            raise TaskError('%s required to create the %s %s' % (
                ' and '.join('option %s is' % m for m in missing), self.what, self.identity_text()))
        state = {name: copy.deepcopy(field.initial) for name, field in self.fields.items()
                 if field.initial is not MISSING}
        state.update(desired)
        return state

    def predict(self, planned, current_obj):
        """The object a write would leave (check mode), from the request body over the current object: a hook for
        kinds whose server reshapes what it stores (a policy's rule ids)."""
        return planned

    def prepare_update(self, obj, desired):
        """The desired values for an update of ``obj``: a hook for options a server would ignore or cannot change
        (they are left out, with a warning)."""
        return desired

    def after_update(self, obj, result):
        """What an update does beyond the object's own PUT (a peer's group memberships); returns the result."""
        return result

    def finish(self, obj, result):
        """The task's result with what the kind reports besides the object (a created secret, an invitation)."""
        return result

    def placeholder(self, state):
        """The id check mode gives a planned object: later tasks of the same run (network_state) refer to it by name."""
        return '(new %s %s)' % (self.what, display_name(state, (self.natural_key, 'name')))

    # -- create and update -------------------------------------------------------------------------------
    def create(self, desired):
        state = self.new_state(desired)
        self.before_write(None, state)
        body = self.request_body(state, None)
        result = {'changed': True, 'diff': dict(before={}, after=state)}
        if self.module.check_mode:
            planned = self.predict(dict(body, id=self.placeholder(state)), None)
            self.remember(planned)
            result[self.result_key] = self.to_result(planned)
            return result
        created = self.post_once(body)
        if created is None:
            return self.update_object(self.find(), desired)
        created = self.after_create(created, state)
        winner = self.converge(created)
        if winner is not None:
            return self.update_object(winner, desired)
        self.remember(created)
        result[self.result_key] = self.to_result(created)
        return result

    def post_once(self, body):
        """Create, never twice: after a failed create that the server may not have applied (429, 5xx, no
        answer), read the list again; only when the read proves it absent is the create sent again, after
        the wait the server asked for (Retry-After) or a backoff.
        A success answer that cannot be read (cut off, not JSON) means the server made it: it is read back
        like a lost answer, never sent again; ``unreadable_answer`` then holds that error (a created secret's
        value, which only that answer carried, is lost).
        Returns the created object, or None when someone else created it first (an "already exists" answer)."""
        attempts = max(int(self.params.get('retries') or 0), 0) + 1
        self.unreadable_answer = None
        for attempt in range(1, attempts + 1):
            try:
                created = self.client.post(self.path, body)
            except ApiError as exc:
                applied = answer_unreadable(exc)
                exists = self.already_exists(exc)
                if not exists and not applied and not create_may_repeat(exc):
                    raise
                if applied:
                    self.unreadable_answer = exc
                found = self.find_again()
                if found is not None:
                    # "already exists": someone else made it, reconcile with theirs; otherwise it is ours, made by this create
                    return None if exists else found
                if exists or applied or attempt == attempts:
                    raise
                self.client.pause(attempt, exc.retry_after, cause=exc)
                continue
            return created if isinstance(created, dict) and created else self.read_back_create(created)
        return None  # not reached: the loop returns or raises

    # -- concurrent creates of a name the server lets several objects share -------------------------------
    def converge(self, created):
        """After a create of a kind whose natural key the server does not keep unique, list again: when other runs
        created the same natural key at the same time, all of them converge on one object, the one with the lowest
        id. Returns None when the created object is that one; otherwise this run's copy is discarded
        (``discard_copy``) and the one kept is returned, to be reconciled with the task's options.

        The list is read once a concurrent run's window has likely passed (twice as long as this task took from its
        start to its create, at most MAX_SETTLE s), so that its create, if any, is in the list too."""
        if self.natural_key_is_unique() or self.singleton or not isinstance(created, dict) or ref_id(created) in (None, ''):
            return None
        sleep(min(2 * (monotonic() - getattr(self, 'started', monotonic())), MAX_SETTLE))
        if self.kind:
            self.resolver.forget(self.kind)
        old = ref_id(self.replacing) if self.replacing is not None else None
        copies = [item for item in self.list_items() if self.matches(item) and ref_id(item) != old and self.may_replace(item)]
        if ref_id(created) not in [ref_id(item) for item in copies]:
            copies.append(created)
        if len(copies) < 2:
            return None
        kept = min(copies, key=lambda item: id_order(ref_id(item)))
        if ref_id(kept) == ref_id(created):
            return None
        discarded = self.discard_copy(created)
        if self.kind:
            self.resolver.drop(self.kind, ref_id(created))
        self.warn('another run created the %s %s at the same time (ids: %s); the one with the lowest id, %s, is kept '
                  'and this run\'s copy (id %s) was %s' % (self.what, self.shown(self.identity_text(), '%s'),
                                                           ', '.join(sorted((ref_id(item) for item in copies), key=id_order)),
                                                           ref_id(kept), ref_id(created), discarded))
        return kept

    def discard_copy(self, obj):
        """Remove this run's own copy of a concurrently created object (a hook: see SecretOnCreate's); returns what
        was done to it, for the warning."""
        self.delete(obj)
        return 'deleted'

    def already_exists(self, exc):
        """Whether a create's error says that an object of that natural key exists (``exists_answers``)."""
        if exc.status not in self.exists_answers:
            return False
        words = self.exists_answers[exc.status]
        return words is None or words.lower() in (exc.message or '').lower()

    def find_again(self):
        """Find the resource with a fresh read (the cached list may predate a create). While a replacement
        is being created under the name of the object it replaces, that object is not the one sought."""
        if self.kind:
            self.resolver.forget(self.kind)
        old = self.replacing
        if old is None:
            return self.find()
        return self.only_one([item for item in self.list_items() if ref_id(item) != ref_id(old)
                              and item.get(self.natural_key) == old.get(self.natural_key) and self.may_replace(item)])

    def may_replace(self, item):
        """Whether item can be the replacement of self.replacing (a hook: e.g. not a revoked setup key)."""
        return True

    def read_back_create(self, answer):
        """The object a create made when the server's success answer did not carry it (empty or not an object)."""
        found = self.find_again()
        if found is None:
            raise self.client.answer_error('POST', self.path, 'the answer is %s, not the created %s, and a read finds '
                                           'no %s with %s' % ('empty' if answer in ({}, None, '') else describe_shape(answer),
                                                              self.what, self.what, self.identity_text()))
        return found

    def after_create(self, created, state):
        """Hook for modules whose create needs a follow-up call (returns the final object)."""
        return created

    def merge_desired(self, current, desired):
        """Hook for options that are merged into the current value (e.g. one member of a dict)."""
        return desired

    def update_object(self, obj, desired):
        """Bring the server object ``obj`` to the desired values (PUT, or the plan of one in check mode)."""
        return self.after_update(obj, self.update_fields(obj, self.prepare_update(obj, dict(desired))))

    def update_fields(self, obj, desired):
        current = self.from_server(obj)
        desired = self.merge_desired(current, dict(desired))
        for name in [n for n in desired if self.fields[n].immutable]:
            if current.get(name) != desired[name]:
                self.warn('%s cannot change after the %s is created: the existing value %s is kept, not %s; '
                          'replace the %s to change it' % (name, self.what, self.shown(current.get(name)),
                                                           self.shown(desired[name]), self.what))
            del desired[name]
        changed_keys = [name for name in desired if not self.same(name, current.get(name), desired[name])]
        result = {'changed': False, self.result_key: self.to_result(obj)}
        if not changed_keys:
            return result
        if self.natural_key in changed_keys and not self.singleton:
            self.check_rename(obj, desired[self.natural_key])
        state = dict(current)
        state.update(desired)
        for name in self.unknown_to_server(obj, desired):
            del state[name]
        self.before_write(obj, state)
        result['changed'] = True
        result['diff'] = dict(before={k: current.get(k) for k in changed_keys},
                              after={k: desired[k] for k in changed_keys})
        body = self.update_body(state, obj)
        if self.module.check_mode:
            predicted = self.predict(dict(obj, **body), obj)
            self.remember(predicted)  # later tasks of one run (network_state) see it as it would be
            result[self.result_key] = self.to_result(predicted)
            return result
        updated = self.client.put(self.update_path(obj), body)
        updated = updated if isinstance(updated, dict) and updated else dict(obj, **body)
        self.remember(updated)
        result[self.result_key] = self.to_result(updated)
        return result

    def update_path(self, obj):
        if self.singleton:
            return self.path
        return '%s/%s' % (self.path, ref_id(obj))


class UpdateOnly(ResourceModule):
    """The strategy of kinds the API cannot create (peers join with setup keys): found, then updated or deleted."""

    not_creatable = ''       # why, and how one comes to exist (for the message)

    def ensure_present(self, obj):
        if obj is None:
            raise TaskError('no %s with %s exists. %s' % (self.what, self.identity_text(), self.not_creatable))
        return self.update_object(obj, self.desired())


class Settings(ResourceModule):
    """The strategy of a singleton (DNS settings, account settings): read and updated; ``state: absent`` deletes
    it only where the kind says how it is confirmed (``confirm_delete``)."""

    singleton = True
    read_only = ()
    required_on_create = ()

    def confirm_delete(self, obj):
        """Refuse (raise TaskError) a deletion the task has not confirmed."""
        raise TaskError('the %s cannot be deleted' % self.what)

    def ensure_absent(self, obj):
        self.confirm_delete(obj)
        result = {'changed': True, self.result_key: self.to_result(obj), 'diff': dict(before=self.from_server(obj), after={})}
        if not self.module.check_mode:
            self.client.delete(self.update_path(obj))
        return result


class SecretOnCreate(ResourceModule):
    """The strategy of kinds whose value the server shows once, in the answer to the create that makes it (setup
    keys, personal access tokens). A new one replaces an existing one under the same name when the task asks
    (``replacement_wanted``: a token's rotate, an invalid setup key's replace_invalid), and the old one is retired
    (``replace``). Where the server cannot delete one (``can_delete``: setup keys on v0.27), state absent sets
    the ``retired`` values instead (revoked, holding no group)."""

    retired = {}
    retired_as = 'retired'  # what retiring one is called, for the warning (a setup key: revoked)
    # where a create's value is in the result: in the result's object ('object', a setup key's key) or beside it
    # ('result', a token's plain_token), under which member; and the created_secrets_file section it is kept under
    secret_at = ('object', None)
    secret_section = None

    @classmethod
    def full_argument_spec(cls):
        spec = super().full_argument_spec()
        spec.update(secrets_file_options())
        return spec

    def own_task(self):
        """Whether this is the task's own module (network_state describes its keys without the secrets options)."""
        return SECRETS_FILE in self.params

    def validate_options(self):
        super().validate_options()
        if self.own_task():
            check_secrets_file(self.params.get(SECRETS_FILE))  # before anything is made, check mode too

    def reconcile(self):
        result = super().reconcile()
        obj, holder, member = self.created_value(result)
        if self.own_task() and holder is not None:
            keep_created_secret(self, holder, member, self.what, self.secret_section, self.secret_name(obj), ref_id(obj))
        return result

    @classmethod
    def created_value(cls, result):
        """(the result's object, the dict holding a created value, its member), or (object, None, None) without one."""
        obj = result.get(cls.result_key)
        container, member = cls.secret_at
        holder = obj if container == 'object' else result
        if isinstance(obj, dict) and isinstance(holder, dict) and holder.get(member):
            return obj, holder, member
        return obj, None, None

    @classmethod
    def holds_created_secret(cls, result):
        return cls.created_value(result)[1] is not None

    def secret_name(self, obj):
        """The name a created value is kept under in created_secrets_file."""
        return obj.get('name')

    def replacement_wanted(self, obj):
        return False

    def replace(self, old):
        raise NotImplementedError

    def can_delete(self, obj):
        return True

    def ensure_present(self, obj):
        if obj is not None and self.replacement_wanted(obj):
            return self.replace(obj)
        return super().ensure_present(obj)

    def ensure_absent(self, obj):
        if obj is None or self.can_delete(obj):
            return super().ensure_absent(obj)
        result = self.update_object(obj, copy.deepcopy(self.retired))
        result['revoked_only'] = True
        return result

    def discard_copy(self, obj):
        """This run's own copy of a concurrently created object goes as state=absent makes it go: deleted where the
        server can, else retired."""
        if self.can_delete(obj):
            return super().discard_copy(obj)
        state = dict(self.from_server(obj), **copy.deepcopy(self.retired))
        self.client.put(self.update_path(obj), self.update_body(state, obj))
        return self.retired_as


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
