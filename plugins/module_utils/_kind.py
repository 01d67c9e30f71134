# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What a resource kind declares: its fields (Field), its descriptor (Kind's attributes) and the few hooks that shape
its data. The lifecycle that runs on a declaration is the engine's (_resource.py); a kind never overrides it.
"""

from __future__ import annotations

import copy

from ansible_collections.nms.overlay.plugins.module_utils._compare import id_set, ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import OptionsError, TaskError
from ansible_collections.nms.overlay.plugins.module_utils._tables import MODEL_OPTIONS
from ansible_collections.nms.overlay.plugins.module_utils._task import NmsModule, connection_argument_spec, refuse_newer_options

MISSING = object()
# what a diff shows of a write-only value (see Field): that one is sent, never its value
WRITE_ONLY_SHOWN = dict(before='(write-only: not readable)', after='(sent: not shown)')
UPDATE_SECRET_CHOICES = ('always', 'on_create')
# the option of every kind with write-only values (a kind may declare it itself to give it aliases)
UPDATE_SECRET_OPTION = dict(type='str', choices=list(UPDATE_SECRET_CHOICES), default='on_create')


def secret_path(text):
    """A write-only member's path inside its field's value, parsed: ``password_auth.password`` is the member
    ``password`` of the object ``password_auth``; ``header_auths[header].value`` the member ``value`` of each item of
    the list ``header_auths``, an item continuing the server's item with the same ``header`` (``[]``: the one at its
    position). Returns (steps to the holder, each (key, None for an object or the list's match key), the member)."""
    *keys, member = text.split('.')
    steps = []
    for key in keys:
        name, bracket, match = key.partition('[')
        steps.append((name, match.rstrip(']') if bracket else None))
    return tuple(steps), member


def paired_holders(value, held, steps):
    """(holder, the server's holder it continues or None) for each object of ``value`` that ``steps`` lead to."""
    if not steps:
        if isinstance(value, dict):
            yield value, held if isinstance(held, dict) else None
        return
    (key, match), rest = steps[0], steps[1:]
    if not isinstance(value, dict):
        return
    inner, old = value.get(key), held.get(key) if isinstance(held, dict) else None
    if match is None:
        yield from paired_holders(inner, old, rest)
        return
    olds = old if isinstance(old, list) else []
    for index, item in enumerate(inner if isinstance(inner, list) else []):
        if match:
            same = [o for o in olds if isinstance(o, dict) and isinstance(item, dict) and o.get(match) == item.get(match)]
            before = same[0] if len(same) == 1 else None
        else:
            before = olds[index] if index < len(olds) else None
        yield from paired_holders(item, before, rest)


def switched_on(holder):
    """Whether a holder of write-only members is in use: present, and not ``enabled: false`` (a sign-in method off)."""
    return isinstance(holder, dict) and bool(holder.get('enabled', True))


def without_held_secrets(value, held, paths):
    """A desired field value without the write-only members (``paths``, parsed) the server keeps: each is sent only
    where its holder is turned on by this write (new on the server, or off there); elsewhere it cannot be compared,
    and servers keep the value they hold for a member a request leaves out."""
    value = copy.deepcopy(value)
    for steps, member in paths:
        for holder, before in paired_holders(value, held, steps):
            if member in holder and not (switched_on(holder) and not switched_on(before)):
                del holder[member]
    return value


def blanked_secrets(value, paths, shown=''):
    """A field value whose write-only members (``paths``, parsed) that hold something read ``shown`` (default: empty,
    as servers answer them)."""
    value = copy.deepcopy(value)
    for steps, member in paths:
        for holder, dummy in paired_holders(value, None, steps):
            if holder.get(member) not in (None, ''):
                holder[member] = shown
    return value


def masked_write_only(diff, names, nested=None):
    """A diff whose write-only fields ``names`` and write-only members (``nested``: {field: parsed paths}) show as
    WRITE_ONLY_SHOWN says, never their values: a member sent shows as sent, and the server's holder it continues as
    unreadable."""
    if not isinstance(diff, dict) or not (names or nested):
        return diff
    masked = {side: dict(values, **{name: WRITE_ONLY_SHOWN[side] for name in names if name in values})
              if side in WRITE_ONLY_SHOWN and isinstance(values, dict) else values for side, values in diff.items()}
    before, after = masked.get('before'), masked.get('after')
    for name, paths in (nested or {}).items():
        old = before.get(name) if isinstance(before, dict) else None
        new = after.get(name) if isinstance(after, dict) else None
        if new is not None:
            new = after[name] = blanked_secrets(new, paths, WRITE_ONLY_SHOWN['after'])
        if old is not None:
            old = before[name] = blanked_secrets(old, paths, WRITE_ONLY_SHOWN['before'])
            for steps, member in paths:
                for holder, held in paired_holders(new, old, steps):
                    if holder.get(member) == WRITE_ONLY_SHOWN['after'] and switched_on(held):
                        held[member] = WRITE_ONLY_SHOWN['before']
    return masked


class Field:
    """One request field of a resource: its option (the argument spec entry), how to normalise it and what it
    refers to.

    ``ref`` names a resolver kind: the user may give names or ids, the engine sends ids. ``many`` marks a list
    (returned as [] rather than null), of references compared as a set when ``ref`` is set. ``immutable`` fields
    cannot change after creation: a difference is a warning, never a change. ``initial`` is sent on create when the
    user did not set the option. ``item_refs`` ({key: kind}) marks a list of objects (or one object) whose keys hold
    references, such as a policy's rules with their sources and destinations: the diff shows those by name too. A
    reference (``ref``, ``item_refs``) is a use of the object it names, which then cannot be deleted (see _usage),
    unless ``in_use`` is false (a membership, such as a group's peers). ``requires`` names the server generation that
    has the field ('v0.77'): a task that sets it is refused by an older server before any write. ``answer`` is the
    JSON type answers give it where its option's type does not say it (a duration, answered in seconds).
    ``write_only`` marks a secret servers take but never answer (an identity provider's client secret): it cannot be
    compared, so it is sent on create, and on an update only when the task says ``update_secret: always`` (an option
    every kind with such a field gets); it is never in a result, and a diff shows only that it is sent. Paths instead
    of True (``('password_auth.password', 'header_auths[header].value')``, see secret_path) mark write-only members
    inside the field's value, which servers answer empty: the field is compared without them, and a member is sent on
    create, on an update where its holder is turned on (new on the server, or off there), or with ``update_secret:
    always``; a result holds it empty, and a diff shows only that it is sent.
    ``server_default`` is what servers give an object when a create does not send the field: an export leaves it out
    (as it leaves out ``initial``). ``described`` false leaves the field out of what network_state's ``state: gathered`` describes (a relation another
    kind describes, such as a group's network resources, which each resource's groups give).
    """

    def __init__(self, option='str', norm=None, ref=None, many=False, immutable=False, initial=MISSING, item_refs=None, in_use=True,
                 requires=None, answer=None, described=True, server_default=None, write_only=False):
        self.option = option
        self.write_only = write_only is True
        self.secret_paths = () if isinstance(write_only, bool) else tuple(secret_path(path) for path in write_only)
        self.described = described
        self.server_default = server_default
        self.answer = answer
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
        # the argument spec entry: ``option`` is one (a dict), a type name, or 'list' (a list of strings)
        self.spec = (copy.deepcopy(option) if isinstance(option, dict) else
                     dict(type='list', elements='str') if option == 'list' else dict(type=option))


def load_model(name):
    """The options model (or rule) ``name``, written ``area.Name`` (``access.PolicyOptions`` is in _models_access.py),
    and the function that validates with a model.

    The one import inside a function of module_utils (docs/dev/architecture.md): the models import pydantic, a
    third-party library that costs a module process about half a ``ping``, which a task never loads unless it sets an
    option its kind's model has a rule for beyond non-empty text (check_with_model); and a task loads only its own
    area's models. One import statement
    per area, so that ansible-core packs each area into the payload of a module process (it reads import statements)."""
    area, dummy, attribute = name.partition('.')
    # pylint: disable=import-outside-toplevel
    if area == 'access':
        from ansible_collections.nms.overlay.plugins.module_utils import _models_access as models
    elif area == 'dns_zones':
        from ansible_collections.nms.overlay.plugins.module_utils import _models_dns_zones as models
    elif area == 'identity':
        from ansible_collections.nms.overlay.plugins.module_utils import _models_identity as models
    elif area == 'networks':
        from ansible_collections.nms.overlay.plugins.module_utils import _models_networks as models
    elif area == 'peers':
        from ansible_collections.nms.overlay.plugins.module_utils import _models_peers as models
    elif area == 'proxies':
        from ansible_collections.nms.overlay.plugins.module_utils import _models_proxies as models
    elif area == 'routing':
        from ansible_collections.nms.overlay.plugins.module_utils import _models_routing as models
    else:
        raise KeyError(name)
    from ansible_collections.nms.overlay.plugins.module_utils._models import validate
    return getattr(models, attribute), validate


def check_with_model(engine, names=None):
    """Check the options ``names`` of a task (by default its kind's fields, and those of its other options its model
    has): its natural key and its references must not be blank; then, when the task sets an option its kind's model
    has a rule for beyond non-empty text, every option of ``names`` it sets with the model, which reports all their
    problems at once; else the options the model holds to non-empty text only must not be blank either, as the model
    would say (MODEL_OPTIONS says which are which, in the model's order). pydantic costs a module process 40 ms or
    more to import, so a task that sets no option with a rule never loads it; the answer is the same, as no rule of the
    model reads a text option alone (Options.option_rules)."""
    table = MODEL_OPTIONS.get(engine.model)
    if names is None:  # the kind's fields, and its other options its model checks (an invite's expires_in)
        names = tuple(engine.fields) + tuple(name for name in sum(table or (), ())
                                             if name in engine.options and name not in engine.fields)
    # a model the table does not hold (make tables not run since it was added) has every option ruled: no rule skipped
    texts, ruled = table or ((), names if engine.model else ())
    with_rules = any(engine.params.get(name) is not None for name in ruled if name in names)
    checked = [name for name in names if name == engine.natural_key or getattr(engine.fields.get(name), 'ref', None)]
    if not with_rules:
        checked += [name for name in texts if name in names and name not in checked]
    problems = []
    for name in checked:
        value = engine.params.get(name)
        for index, item in enumerate(value if isinstance(value, list) else [value]):
            if isinstance(item, str) and not item.strip():
                problems.append('option %s: must not be empty' % (('%s[%d]' % (name, index)) if isinstance(value, list) else name))
    if problems:
        raise OptionsError('; '.join(problems))
    if with_rules:
        model, validate = load_model(engine.model)
        validate(model, {name: engine.params[name] for name in names if engine.params.get(name) is not None})


def model_has_rules(model):
    """Whether an options model has a rule beyond non-empty text (one the table does not hold yet counts as one)."""
    texts_and_ruled = MODEL_OPTIONS.get(model)
    return texts_and_ruled is None or bool(texts_and_ruled[1])


def display_name(item, keys):
    """The first non-empty text among ``keys`` of an object or a task's options (its name in messages), or None."""
    if not isinstance(item, dict):
        return None
    for key in keys:
        if isinstance(item.get(key), str) and item[key]:
            return item[key]
    return None


def kept_fields(obj, body, managed, read_only=(), item_fields=None):
    """An update body that keeps what the task does not manage: every field of the server object ``obj`` that is
    neither ``managed`` (the module's fields, which ``body`` carries or leaves out on purpose) nor ``read_only``
    (answer-only fields), unchanged, then ``body``.

    PUT replaces the whole object on today's servers, which reset every field a body leaves out (a route's
    keep_route, a group's resources). ``item_fields`` ({field: (known keys, match key)}) does the same inside lists
    of objects (a policy's rules): each item of the body keeps the unknown keys of the server item it continues (the
    one with the same match key, else the one at its position that no other continues), and inside objects
    ({field: (known keys, None)}): their unknown members are kept.
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
            olds = [item if isinstance(item, dict) else {} for item in old]
            same = [[index for index, item in enumerate(olds) if match and isinstance(entry, dict) and item.get(match) == entry.get(match)]
                    for entry in new]
            claimed = set(found[0] for found in same if len(found) == 1)
            items = []
            for index, entry in enumerate(new):
                base = same[index][0] if len(same[index]) == 1 else None
                if base is None and not same[index] and index < len(olds) and index not in claimed:
                    base = index
                keep = {k: copy.deepcopy(v) for k, v in olds[base].items() if k not in known} if base is not None else {}
                items.append(dict(keep, **entry) if isinstance(entry, dict) else entry)
            merged[name] = items
    return merged


def placeholder_id(what, name):
    """The id check mode gives an object it only plans: later tasks of the same run (network_state) refer to it by name."""
    return '(new %s %s)' % (what, name)


def planned(item_id):
    """Whether an id is a placeholder (see placeholder_id): nothing lives under such an object yet, and the server
    knows no such path."""
    return isinstance(item_id, str) and item_id.startswith('(new ')


def keeps_unique(task):
    """Whether servers keep the task's natural key unique (see Kind.unique_names)."""
    unique = task.unique_names
    return unique is True or bool(unique and task.params.get(unique))


class Kind(NmsModule):
    """The declaration of a resource kind: the attributes below are its descriptor, the methods the hooks a kind may
    redefine (``HOOKS``; each shapes data or checks it, none runs a step of the lifecycle). The registry
    (``_kinds.py``) derives the resolver's table, the usage table and network_state's order from the declarations.
    """

    HOOKS = ('check_options', 'check_server', 'matches', 'identity_text', 'live', 'choose', 'list_path', 'desired',
             'new_state', 'prepare_update', 'merge_desired', 'same', 'from_server', 'request_body', 'before_write',
             'predict', 'to_result', 'finish', 'read_answer', 'follow_ups', 'may_replace', 'replacement_wanted',
             'can_delete', 'secret_name', 'object_path', 'confirm_delete', 'without_parent', 'path', 'described',
             'kept_from_delete')

    path = None              # the API path of its list (a kind under a parent: see list_path)
    what = None              # its noun in messages
    kind = None              # resolver kind (references to it are resolved by name), and its shared list
    section = None           # its key in a network_state description (default: kind)
    result_key = None        # the key of the object in a task's result (default: the noun, with underscores)
    # a kind that lives under a parent object: (the parent's section, the key of the parent's entry that lists it, the
    # option that names the parent), such as a network's resources; None for a top-level kind
    nested_in = None
    # a kind listed under its parent only (no ``kind``), whose objects a list of the resolver also holds: that list's
    # kind, kept current by its writes (a network resource created by network_state, which a policy's rule then names)
    also_listed = None
    lookup = None            # the fields a reference to it may match after the id (None: the natural key)
    natural_key = 'name'
    fields = {}
    write_only = ()          # the fields marked write_only (derived)
    secret_paths = {}        # {field: its write-only members, parsed} (derived from write_only paths)
    options = {}             # options that are no request fields (state and id are added)
    model = None             # its pydantic options model, 'area.Name' (in _models_<area>.py), loaded when a task sets an option it has a rule for
    has_id = True
    list_only = False        # no GET by id: find by id in the list
    singleton = False        # one object at ``path``: read and update only
    required_on_create = ('name',)
    # whether servers keep the natural key unique (then a create's "exists" answer is reconciled, concurrent creates
    # leave no copies to converge, and a rename onto a taken key is refused): True, False, or the option that makes it
    # unique when the task gives it (a user's email; service users' names may repeat)
    unique_names = False
    rename_checked = True    # False where objects may share the natural key though creates are unique (DNS records)
    usage_checked = False    # whether a delete first checks what refers to it (servers refuse, or leave dangling ids)
    states = ('present', 'absent')
    # the fields of the server's answers that are no request fields, with their JSON types (_client.TEXT...; None: not
    # checked, such as ids, numbers on some servers): left out of update bodies (``read_only``, derived) and checked in
    # every answer of the task (see _kinds.answer_types)
    answers = {'id': None}
    read_only = ('id',)
    # what servers give a new object whatever its create asks (a router is created enabled): when the task asks
    # otherwise, the engine sends the update body right after the create (also planned in check mode and rendered)
    created_as = {}
    item_fields = {}         # {field: (known keys, match key)}: unknown keys kept inside lists or objects (see kept_fields)
    # the answers to a create that mean "one of that natural key exists already" ({status: words of the message,
    # or None for any}): the create is then reconciled with the existing object, as another run made it meanwhile
    exists_answers = {409: None}
    shape = None             # a function giving an object of the kind as returned to the user (shared with its info module)
    task_state = {}          # what a kind's hooks keep during one task ({attribute: initial value})
    cache_list = False       # a kind without a shared list (under a parent): read its list once per task
    live = None              # None, or a function of a listed object: whether it counts when finding (not a revoked key)
    # None, or what the server's delete leaves listed, not ``live`` (a proxy token: 'revoked'): gone as far as a task
    # goes (state=absent leaves it, state=present naming its id is refused)
    deleted_stays = None
    read_answer = None       # None, or a function of a singleton's GET answer giving the object (default: an object)
    confirm_delete = None    # None, or a check before a deletion that raises TaskError unless confirmed (a singleton: None, kept)
    # hooks that default to nothing (the engine skips them): a kind defines them as methods, never calling super()
    choose = None            # (found) -> the one object of those the natural key found, or None; raise when ambiguous
    without_parent = None    # () -> whether the parent the task names is missing (nothing under it to find)
    prepare_update = None    # (obj, desired) -> the desired values for an update (leave out what a server ignores)
    merge_desired = None     # (current, desired) -> options merged into the current value (one member of a dict)
    same = None              # (name, current, desired) -> whether a server value already is the desired one
    # (before, state, obj) -> requests that finish a write its own request cannot make: [{method, path, body, expect,
    # before, after, answers}], sent after it (before: None for a create); the result is then changed
    follow_ups = None
    finish = None            # (obj, result) -> the task's result with what the kind reports besides the object
    # (obj) -> why the object a deletion found (read right before its DELETE) is kept after all, a sentence for the
    # result's kept_because, or None: it is deleted (a peer no longer stale for only_if_inactive_for)
    kept_from_delete = None
    # (options, obj, name_of) -> the options network_state's state=gathered describes the server object with, from those
    # its fields gave (references named); name_of(kind, id) names a reference as the export does
    described = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if 'what' in vars(cls) and 'result_key' not in vars(cls):
            cls.result_key = cls.what.lower().replace(' ', '_')
        if 'section' not in vars(cls) and cls.section is None:
            cls.section = cls.kind
        if 'answers' in vars(cls):
            cls.read_only = tuple(cls.answers)
        # the fields that refer to groups: results may show them as [{id, name}] (see _resolve.named_result)
        cls.group_fields = tuple(name for name, field in cls.fields.items() if field.ref == 'groups')
        cls.write_only = tuple(name for name, field in cls.fields.items() if field.write_only)
        cls.secret_paths = {name: field.secret_paths for name, field in cls.fields.items() if field.secret_paths}

    @classmethod
    def full_argument_spec(cls):
        spec = connection_argument_spec()
        spec.update((name, copy.deepcopy(field.spec)) for name, field in cls.fields.items())
        spec.update(copy.deepcopy(cls.options))
        if cls.write_only or cls.secret_paths:
            spec.setdefault('update_secret', copy.deepcopy(UPDATE_SECRET_OPTION))
        spec.update(copy.deepcopy(cls.argument_spec))
        if not cls.singleton:
            spec.setdefault('state', dict(type='str', default='present', choices=list(cls.states)))
            if cls.has_id:
                spec.setdefault('id', dict(type='str'))
        return spec

    @classmethod
    def preload(cls):
        if cls.model is not None and model_has_rules(cls.model):
            load_model(cls.model)

    @classmethod
    def result_shape(cls, obj):  # also the default to_result hook
        """An object of the kind as the user gets it, from a module or its info module: as ``shape`` makes it, and
        every list field (``many``) a list, never null or missing."""
        result = cls.shape(obj) if cls.shape is not None and isinstance(obj, dict) else obj
        if not isinstance(result, dict) or not result:
            return result
        result = {key: value for key, value in result.items() if key not in cls.write_only}  # a predicted object holds it
        for name, paths in cls.secret_paths.items():
            if result.get(name) is not None:
                result[name] = blanked_secrets(result[name], paths)
        for name, field in cls.fields.items():
            if field.many and result.get(name) is None:
                result[name] = []
        return result

    to_result = result_shape  # the resource as returned to the user

    # -- the hooks (HOOKS) -------------------------------------------------------------------------------
    # Check the options before any request (see check_with_model); a kind adds its rules (raise TaskError).
    check_options = check_with_model

    def check_server(self):
        """Refuse, before any write, what this server cannot take (asking ``self.resolver.server`` costs one request
        per task, so only when an option depends on it). Here: the fields of today's servers the task sets."""
        requiring = {name: field.requires for name, field in self.fields.items() if field.requires and self.params.get(name) is not None}
        if requiring:
            refuse_newer_options(self, requiring)

    def matches(self, item):
        """Whether a listed object is the one the task names by its natural key."""
        return item.get(self.natural_key) == self.params.get(self.natural_key)

    def identity_text(self):
        if self.params.get('id'):
            return "id '%s'" % self.params['id']
        return "%s '%s'" % (self.natural_key, self.params.get(self.natural_key))

    @classmethod
    def list_path(cls, task):
        """The path of the kind's list for a task (a module or an info module) with these options."""
        return cls.path

    def desired(self):
        """The options the user set, resolved to ids and normalised."""
        wanted = {}
        for name, field in self.fields.items():
            value = self.params.get(name)
            if value is not None:
                if field.ref:
                    value = (self.resolver.to_ids(field.ref, value, name) if field.many
                             else self.resolver.to_id(field.ref, value, name))
                wanted[name] = field.norm(value) if field.norm is not None else value
        return wanted

    def new_state(self, desired):
        """The values of a new object: the fields' create defaults under the user's options."""
        missing = [name for name in self.required_on_create if desired.get(name) in (None, '')]
        if missing:
            raise TaskError('%s required to create the %s %s' % (
                'option %s is' % missing[0] if len(missing) == 1 else 'options %s are' % ' and '.join(missing),
                self.what, self.identity_text()))
        state = {name: copy.deepcopy(field.initial) for name, field in self.fields.items() if field.initial is not MISSING}
        state.update(desired)
        return state

    def from_server(self, obj):
        """The server object as request fields, normalised like desired values (write-only ones are never answered)."""
        return {name: field.norm(obj.get(name)) if field.norm is not None else obj.get(name) for name, field in self.fields.items()
                if not field.write_only}

    def request_body(self, state, current_obj):
        """The JSON body of a POST or PUT for the complete state (current merged with desired)."""
        return dict(state)

    def before_write(self, current_obj, state):
        """Last check of the merged state (None: a deletion) before a write; raise TaskError to refuse it."""

    def predict(self, planned, current_obj):
        """The object a write would leave (check mode), from the request body over the current object."""
        return planned

    def may_replace(self, item):
        """Whether a listed object can be the replacement being created, or a concurrent run's copy of a create: one
        ``live`` keeps (not a revoked setup key or proxy token)."""
        return self.live is None or bool(self.live(item))

    def replacement_wanted(self, obj):
        return False

    def can_delete(self, obj):
        """Whether the server deletes such an object (else state absent retires it: see SecretOnCreate)."""
        return True

    def secret_name(self, obj):
        """The name a created value is kept under in created_secrets_file."""
        return obj.get('name')

    def update_body(self, state, obj):
        """The body of a PUT that brings ``obj`` to ``state``: the kind's request body over every field of the server
        object it does not manage (see kept_fields). Not a hook: what the engine and the kinds' follow-ups send."""
        return kept_fields(obj, self.request_body(state, obj), self.fields, self.read_only, self.item_fields)

    def object_path(self, obj):
        """Where the object is read, updated and deleted (a singleton without an id: its path)."""
        return self.path if self.singleton and not self.has_id else '%s/%s' % (self.path, ref_id(obj))
