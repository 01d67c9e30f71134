# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""network_state before its first write: the description read into entries (each checked as its own module checks
its options), every reference found, and the deletions and allow-all policies judged on the state the run leaves.

The functions taking ``task`` take the running NetworkStateModule (_network.py): its options, entries, client and
resolver. Nothing here writes.
"""

from __future__ import annotations

from ansible.module_utils.common.arg_spec import ArgumentSpecValidator

from ansible_collections.nms.overlay.plugins.module_utils._access import (
    allow_all_rules_as_held, grants_everything, is_allow_all_policy,
)
from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Kind, display_name, placeholder_id
from ansible_collections.nms.overlay.plugins.module_utils._kinds import ALL_SECTIONS, SECTIONS, nested_sections
from ansible_collections.nms.overlay.plugins.module_utils._names import ALL_GROUP, builtin_all_group
from ansible_collections.nms.overlay.plugins.module_utils._resolve import ListIndex, ResolveError, Resolver, find_unique
from ansible_collections.nms.overlay.plugins.module_utils._resource import namesakes
from ansible_collections.nms.overlay.plugins.module_utils._resources.group import GroupMembership
from ansible_collections.nms.overlay.plugins.module_utils._resources.policy import PolicyModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy_domain import CUSTOM as CUSTOM_DOMAIN
from ansible_collections.nms.overlay.plugins.module_utils._resources.setup_key import setup_key_valid
from ansible_collections.nms.overlay.plugins.module_utils._secrets import no_log_values, secrets_file_options
from ansible_collections.nms.overlay.plugins.module_utils._tables import RESOLVER_TABLE
from ansible_collections.nms.overlay.plugins.module_utils._task import connection_argument_spec, shape_problem, unknown_option
from ansible_collections.nms.overlay.plugins.module_utils._usage import current_sources, referring_kinds, users_of


# The description's keys, in the order they are applied (a kind only refers to kinds before it): the declarations'.
KINDS = SECTIONS
# Every kind the run applies, the ones described inside another's entries (a network's resources and routers, a DNS
# zone's records) after their parent: the order of creates and updates, reversed for deletions.
ORDER = ALL_SECTIONS
SINGLETONS = tuple(kind for kind, cls in KINDS if cls.singleton)
# kinds whose deletion a reference blocks (checked before the first write)
REFERENCED = tuple(kind for kind, cls in KINDS if cls.usage_checked)
CONNECTION_OPTIONS = tuple(connection_argument_spec())
# the description's peers added to (or taken out of) groups it does not own: each item's options
MEMBERSHIPS = 'group_memberships'
MEMBERSHIP_SPEC = dict(group=dict(type='str', required=True), peers=dict(type='list', elements='str', required=True),
                       mode=dict(type='str', default='add', choices=['add', 'remove']))
# what default_policy does to the account-wide allow-all policies (see allow_all_policies)
DEFAULT_POLICY_CHOICES = ('keep', 'disable', 'remove')


class TaskModule:
    """What a resource class needs of AnsibleModule, for one described resource."""

    def __init__(self, params, check_mode, warn, no_log=False):
        self.params = params
        self.check_mode = check_mode
        self.warn = warn
        self.no_log = no_log  # the task's: its warnings quote no values

    @staticmethod
    def fail_json(msg, **dummy_extra):
        raise TaskError(msg)


class Entry:
    """One described resource: where it is in the description and the object handling it. ``origin`` names the
    option that made an entry the description does not list (default_policy)."""

    def __init__(self, kind, index, label, resource, origin=None, place=None):
        self.kind = kind
        self.index = index
        self.label = label
        self.resource = resource
        self.origin = origin
        self.place = place    # where a nested entry is in the description: networks[0].resources[1]
        self.parent = None    # the entry a nested entry is described in
        self.nested = {}      # a parent's nested lists as given ({'resources': [...]}), checked as entries of their own
        self.server_id = None  # the id of the object it left (a placeholder in check mode), once applied
        self.section = kind   # the description's key it is described under (group_memberships for a membership)

    @property
    def where(self):
        if self.place:
            return '%s (%s)' % (self.place, self.label)
        if self.origin:
            return '%s (%s)' % (self.origin, self.label)
        if self.index is None:
            return '%s (%s)' % (self.kind, self.label) if self.label else self.kind
        return '%s[%s] (%s)' % (self.kind, self.index, self.label)


def entry_label(cls, params):
    """What names a described resource or a server object of the kind in messages (a network router without a
    routing peer: its peer groups)."""
    groups = params.get('peer_groups')
    return (display_name(params, (cls.natural_key, 'name', 'email', 'network_id')) or
            (', '.join(str(group) for group in groups) if isinstance(groups, list) and groups else None) or
            display_name(params, ('id',)) or '?')


class PlanResolver(Resolver):
    """The run's lists (read once, shared), plus a placeholder for each object the description creates (a group, a
    posture check, a network resource a policy's rule names), so that the state a run leaves can be worked out before
    its first write."""

    def __init__(self, main, declared):
        super().__init__(main.client)
        self.main = main
        self.declared = declared

    def items(self, kind):
        if kind not in self._items:
            items = list(self.main.items(kind))
            dummy_path, what, fields = RESOLVER_TABLE[kind]
            # each name's few candidates from an index that follows the placeholders, not a scan of thousands of objects
            # for each of thousands of names
            index = ListIndex(items)
            for name in sorted(self.declared.get(kind, ())):
                try:
                    known = find_unique(index.candidates(str(name), fields), name, fields, what, kind)
                except ResolveError:
                    continue
                if known is None:
                    placeholder = {'id': placeholder_id(what, name), fields[0]: name}
                    items.append(placeholder)
                    index.follow(items, (), (placeholder,))
            self._items[kind] = items
        return self._items[kind]

    def settings(self, path, read=None):
        return self.main.settings(path, read)

    @property
    def server(self):
        return self.main.server


def is_absent(entry):
    """Whether an entry is a deletion (run with the others, in reverse order): an item, or a singleton that can be
    deleted (the Agent Network settings, once its providers are gone), described with state absent."""
    return entry.resource.params.get('state') == 'absent'


def refuse_any(entries, check):
    """Run check(entry) for every entry; when any raised TaskError, fail naming each of them (nothing written yet)."""
    problems = []
    for entry in entries:
        try:
            check(entry)
        except TaskError as exc:
            problems.append('%s: %s' % (entry.where, exc))
    if problems:
        raise TaskError('nothing was changed: ' + '; '.join(problems))


def item_spec(cls):
    """The options one described resource takes: its module's, without the connection options; a parent's entry also
    takes its nested lists, and a nested entry does not name its parent (the entry it is in does)."""
    spec = cls.full_argument_spec()
    for name in CONNECTION_OPTIONS + tuple(secrets_file_options()):
        spec.pop(name, None)
    for key, dummy_child in nested_sections(cls.section):
        spec[key] = dict(type='list', elements='dict')
    if cls.nested_in:
        spec.pop(cls.nested_in[2])
    return spec


def described_secrets(params):
    """The secrets a description holds (a provider's api_key, a service's password): the values its entries' options
    mark no_log, which Ansible cannot mask by itself, the sections being lists of dictionaries without suboptions."""
    found = set()
    for kind, cls in KINDS:
        if params.get(kind):
            spec = item_spec(cls)
            for key, child in nested_sections(kind):
                spec[key] = dict(spec[key], options=item_spec(child))
            found |= no_log_values(spec, params[kind])
    return found


def item_spec_defaults(cls):
    return {name: option.get('default') for name, option in item_spec(cls).items()}


def connection(task):
    """The task's connection options, which every described resource shares."""
    return {name: task.params[name] for name in CONNECTION_OPTIONS}


def parent_reference(entry):
    """How a nested entry's option names the parent it is described in: the parent's id, else its natural key."""
    params = entry.resource.params
    return params.get('id') or params.get(entry.resource.natural_key)


def described_references(fields, params):
    """(kind, name or id, option) for every reference in a described resource's options (``fields``: its kind's),
    to check them all before the first write."""
    for name, field in fields.items():
        value = params.get(name)
        if value is None:
            continue
        for item in (value if field.many else [value]) if field.ref else ():
            yield field.ref, item, name
        for index, element in enumerate(value if field.item_refs and isinstance(value, list) else ()):
            for key, kind in field.item_refs.items():
                for item in (element.get(key) or []) if isinstance(element, dict) else ():
                    yield kind, item, '%s[%d].%s' % (name, index, key)


def protected(kind, obj):
    """Resources prune never removes: the All group, owners and the calling user, revoked keys, the free domain a
    proxy cluster brings."""
    if kind == 'groups':
        return obj.get('name') == ALL_GROUP or obj.get('issued') not in (None, 'api')
    if kind == 'users':
        return bool(obj.get('is_current')) or obj.get('role') == 'owner'
    if kind == 'setup_keys':
        return bool(obj.get('revoked')) and not obj.get('auto_groups')  # revoked and holding no group: nothing left to do
    if kind == 'reverse_proxy_domains':
        return obj.get('type', CUSTOM_DOMAIN) != CUSTOM_DOMAIN
    return False


def entry_resource(task, cls, params, entry, found_in_list=False, usage_known=False):
    """The object of the kind ``cls`` that handles one entry, sharing the task's client and resolver."""
    def warn(message):
        # a task with no_log gets the place of the entry, never its name
        where = entry.where if not getattr(task.module, 'no_log', False) else (
            entry.kind if entry.index is None else '%s[%s]' % (entry.place or entry.kind, entry.index))
        task.warn('%s: %s' % (where, message))

    return cls(TaskModule(params, task.module.check_mode, warn, getattr(task.module, 'no_log', False)),
               client=task.client, resolver=task.resolver, found_in_list=found_in_list, usage_known=usage_known)


# -- reading the description ---------------------------------------------------------------------
def described_kinds(task):
    return [(kind, cls) for kind, cls in KINDS if task.params.get(kind) is not None]


def check_description(task):
    """Read the description into ``task.entries`` and check it all (also in check mode), before the first write."""
    build_entries(task)
    if getattr(task, 'rendered', False):  # state=rendered: the empty account has what the description only names
        task.client.assume(*assumed_existing(task))
    check_references(task)
    check_memberships(task)
    add_default_policy_entries(task)
    warn_about_allow_all(task)
    check_deletions(task)


def assumed_existing(task):
    """(peer names, group names) the description refers to but cannot create, which state=rendered takes the empty
    account to have: the peers its entries name (peers join with setup keys), a policy rule's resource that no
    described network resource is, a reverse proxy target of type peer; and the groups of group_memberships."""
    declared = declared_names(task.entries)
    peers, groups = set(), set()
    for entry in [entry for entry in task.entries if not is_absent(entry)]:
        params = entry.resource.params
        if entry.section == MEMBERSHIPS:
            groups.add(params['name'])
        peers.update(str(value) for kind, value, dummy in described_references(entry.resource.fields, params) if kind == 'peers')
        for rule in (params.get('rules') or ()) if entry.kind == 'policies' else ():
            for key in ('source_resource', 'destination_resource'):
                value = rule.get(key) if isinstance(rule, dict) else None
                if value and str(value) not in declared.get('network_resources', ()):
                    peers.add(str(value))
        for target in (params.get('targets') or ()) if entry.kind == 'reverse_proxy_services' else ():
            if isinstance(target, dict) and target.get('target_type') == 'peer' and target.get('target_id'):
                peers.add(str(target['target_id']))
    return peers, groups


def build_entries(task):
    """Every described resource checked against its module's options, before any request; the entries nested in
    a parent's entry (a network's resources and routers, a zone's records) too, each naming its parent."""
    problems = []
    for kind, cls in described_kinds(task):
        value = task.params[kind]
        # an empty singleton describes nothing (as an empty list), also on a server that lacks its kind
        items = ([(None, value)] if value else []) if kind in SINGLETONS else list(enumerate(value))
        for parent in checked_entries(task, kind, cls, items, problems):
            task.entries.append(parent)
            for key, child_cls in nested_sections(kind):
                if parent.nested.get(key) is None:
                    continue
                children = checked_entries(
                    task, child_cls.section, child_cls, list(enumerate(parent.nested[key])), problems, parent=parent,
                    place='%s[%s].%s' % (kind, parent.index, key))
                if parent.resource.params.get('state') != 'absent':
                    task.entries.extend(children)  # deleting a network or a zone deletes what is in it
    task.entries.extend(membership_entries(task, problems))
    if problems:
        raise TaskError('the network description is invalid, nothing was changed: ' + '; '.join(problems))
    check_duplicates(task.entries)


def membership_entries(task, problems):
    """The entries of group_memberships: each a group the description does not own, whose peers it adds or takes out
    (applied after the described groups, as a group entry with peers_mode; never created, deleted or pruned)."""
    entries = []
    validator = ArgumentSpecValidator(MEMBERSHIP_SPEC)
    defaults = item_spec_defaults(GroupMembership)
    for index, item in enumerate(task.params.get(MEMBERSHIPS) or ()):
        where = '%s[%d]' % (MEMBERSHIPS, index)
        if not isinstance(item, dict):
            problems.append('%s: must be a dictionary of the options group, peers and mode' % where)
            continue
        shape = unknown_option(MEMBERSHIP_SPEC, item, where) or shape_problem(MEMBERSHIP_SPEC, item, where + '.')
        checked = None if shape else validator.validate(item)
        if shape or checked.error_messages:
            problems.extend([shape] if shape else ['%s: %s' % (where, message) for message in checked.error_messages])
            continue
        values = checked.validated_parameters
        params = dict(defaults, name=values['group'], peers=values['peers'], peers_mode=values['mode'], **connection(task))
        entry = Entry('groups', index, values['group'], None, place=where)
        entry.section = MEMBERSHIPS
        entry.resource = entry_resource(task, GroupMembership, params, entry)
        entries.append(entry)
    return entries


def check_memberships(task):
    """A membership's group is one the description does not own (describe its peers there instead) and that exists
    on the server (the run does not create it): before the first write."""
    owned = {entry.resource.params.get('name') for entry in task.entries if entry.section == 'groups'}
    problems = []
    for entry in [entry for entry in task.entries if entry.section == MEMBERSHIPS]:
        name = entry.resource.params['name']
        if name in owned:
            problems.append("%s: the group '%s' is described under groups, which owns it: set its peers there" % (entry.where, name))
            continue
        if not [group for group in task.resolver.items('groups') if group.get('name') == name]:
            problems.append("%s: no group named '%s' exists; group_memberships changes the members of an existing "
                            "group only (describe the group under groups to create it)" % (entry.where, name))
    if problems:
        raise TaskError('nothing was changed: ' + '; '.join(problems))


def checked_entries(task, kind, cls, items, problems, parent=None, place=None):
    """The entries of the items [(index, item)] of one kind, each checked as its module checks its options (what
    is wrong goes to ``problems``). ``parent``: the entry they are nested in, under its key ``place``."""
    entries = []
    shared = connection(task)
    spec = item_spec(cls)
    validator = ArgumentSpecValidator(
        spec, mutually_exclusive=list(cls.mutually_exclusive), required_one_of=list(cls.required_one_of),
        required_if=list(cls.required_if), required_together=list(cls.required_together))
    nested_keys = [key for key, dummy_child in nested_sections(kind)]
    for index, item in items:
        where = kind if index is None else '%s[%s]' % (place or kind, index)
        if not isinstance(item, dict):
            problems.append('%s: must be a dictionary of %s options' % (where, kind))
            continue
        if parent is not None and cls.nested_in[2] in item:
            problems.append('%s: option %s: not given here, the %s is the entry this one is nested in'
                            % (where, cls.nested_in[2], parent.resource.what))
            continue
        shape = unknown_option(spec, item, where) or shape_problem(spec, item, where + '.')  # as single modules check
        if shape:
            problems.append(shape)
            continue
        checked = validator.validate(item)
        if checked.error_messages:
            problems.extend('%s: %s' % (where, message) for message in checked.error_messages)
            continue
        params = dict(checked.validated_parameters, **shared)
        nested = {key: params.pop(key) for key in nested_keys}
        if parent is not None:
            params[cls.nested_in[2]] = parent_reference(parent)
        entry = Entry(kind, index, '' if index is None else entry_label(cls, params), None,
                      place=where if parent is not None else None)
        entry.parent = parent
        entry.nested = nested
        # the deletion of a described group or posture check is checked before the first write (check_deletions)
        entry.resource = entry_resource(task, cls, params, entry,
                                        usage_known=kind in REFERENCED and params.get('state') == 'absent')
        entries.append(entry)
    return entries


def check_duplicates(entries):
    seen = {}
    for entry in entries:
        if entry.index is None:
            continue
        params = entry.resource.params
        key = (entry.section, params.get('id') or entry.resource.identity_text())
        if key in seen:
            raise TaskError('%s and %s describe the same %s (%s); describe each resource once' % (
                seen[key], entry.where, entry.resource.what, key[1]))
        seen[key] = entry.where


def declared_names(entries):
    """Names the description creates, per resolver kind (references to them are valid)."""
    names = {}
    for entry in entries:
        params = entry.resource.params
        kind = entry.resource.kind or entry.resource.also_listed
        if entry.index is None or params.get('state') == 'absent' or not kind or entry.section == MEMBERSHIPS:
            continue  # (a membership's group is the server's, not made by the run)
        for key in ('name', 'email', 'network_id'):
            if params.get(key):
                names.setdefault(kind, set()).add(params[key])
    return names


def check_references(task):
    """Every name the description refers to exists on the server or in the description."""
    entries = task.entries
    # every entry's options first, so that invalid input fails before any request
    refuse_any(entries, lambda entry: entry.resource.check_options())
    # kinds a v0.27 server does not have (Networks, DNS zones): refused with their modules' message (one request);
    # what is nested in a network or zone needs what its parent needs, which says it once
    refuse_any([entry for entry in entries if entry.parent is None], lambda entry: entry.resource.check_generation())
    refuse_any([entry for entry in entries if entry.index is None or entry.resource.params.get('state') != 'absent'],
               lambda entry: entry.resource.check_server())
    problems = []
    declared = declared_names(entries)
    for entry in entries:
        if is_absent(entry):
            continue  # deleted or already gone: what it referred to does not matter (as in its own module)
        for kind, value, option in described_references(entry.resource.fields, entry.resource.params):
            if str(value) in declared.get(kind, ()):
                continue
            try:
                task.resolver.to_id(kind, value, option)
            except ResolveError as exc:
                problems.append('%s: %s' % (entry.where, exc))
    if not problems:
        problems = hook_reference_problems(task, declared)
    if problems:
        raise TaskError('nothing was changed: ' + '; '.join(problems))


def hook_reference_problems(task, declared):
    """The references a kind resolves in its own desired hook beyond what its fields declare (a reverse proxy service's
    targets, a peer or a network resource by their type), resolved as the run will: against the lists it reads and
    what the description creates."""
    plan = None
    problems = []
    for entry in task.entries:
        cls = type(entry.resource)
        if is_absent(entry) or cls.desired is Kind.desired:
            continue
        plan = plan or PlanResolver(task.resolver, declared)
        resource = cls(TaskModule(entry.resource.params, True, lambda message: None), client=task.client, resolver=plan,
                       found_in_list=True)
        try:
            resource.desired()
        except ResolveError as exc:
            problems.append('%s: %s' % (entry.where, exc))
        except TaskError:
            pass  # not a reference: the entry's own run says it, in its place
    return problems


# -- deletions that references would block -------------------------------------------------------
def check_deletions(task):
    """Before the first write (also in check mode): refuse the run when it would delete a group or posture
    check (described as absent, or pruned) that something would still use: a described resource as the run
    leaves it, or a resource that stays on the server. The server checks most of these itself, but only when
    the run gets there, after other writes; it does not check a route's peer_groups at all."""
    prune = task.params['prune']
    described = dict(described_kinds(task))
    absent = [e for e in task.entries if e.kind in REFERENCED and e.resource.params.get('state') == 'absent']
    pruned = [kind for kind in REFERENCED if prune and kind in described]
    if not absent and not pruned:
        return
    plan = PlanResolver(task.resolver, declared_names(task.entries))
    doomed = []  # (where, kind, object, whether the run's final state judges it)
    matched = {}
    for entry in task.entries:
        if entry.kind not in pruned and entry not in absent:
            continue
        obj = plan_entry(task, entry, plan, find_only=True)[0]
        if obj is not None:
            matched.setdefault(entry.kind, set()).add(ref_id(obj))
            if entry in absent:
                # deleted after every described resource is applied, in reverse dependency order: what the run
                # leaves counts (a route or policy described absent no longer uses it)
                doomed.append((entry.where, entry.kind, obj, True))
    for kind in pruned:
        for obj in task.resolver.items(kind):
            if ref_id(obj) not in matched.get(kind, ()) and not protected(kind, obj):
                doomed.append(('%s (%s)' % (kind, entry_label(described[kind], obj)), kind, obj, True))
    blocked, finals = [], {}
    for where, kind, obj, final in doomed:
        if final and kind not in finals:
            finals[kind] = final_sources(task, kind, plan)
        users = users_of(kind, ref_id(obj), finals[kind] if final else current_sources(kind, task.resolver))
        if users:
            blocked.append('%s (id %s) is used by %s' % (where, ref_id(obj), ', '.join(users)))
        task.verified.add((kind, ref_id(obj)))
    if blocked:
        raise TaskError('nothing was changed: %s would fail, because %s; remove the reference from what uses %s (on the '
                        'server, or in the description), or describe that with state: absent too' % (
                            'this deletion' if len(blocked) == 1 else 'these deletions', '; '.join(blocked),
                            'it' if len(blocked) == 1 else 'them'))


def plan_entry(task, entry, resolver, find_only=False):
    """(the server object an entry describes or None, the objects it leaves on the server), without a request
    beyond the lists the run reads anyway (``resolver``: the run's, or a PlanResolver)."""
    # by id in the list the run read, not with a GET
    resource = type(entry.resource)(TaskModule(entry.resource.params, True, lambda message: None),
                                    client=task.client, resolver=resolver, found_in_list=True)
    try:
        obj = resource.find()
        if find_only:
            return obj, None
        params = resource.params
        if not resource.singleton and params.get('state') == 'absent':
            # a setup key a v0.27 server cannot delete stays, revoked and without auto groups (with the other keys of
            # its name, which the task removes too: SecretOnCreate's namesakes)
            return obj, [dict(item, auto_groups=[]) for item in [obj] + namesakes(resource, obj)] \
                if obj is not None and entry.kind == 'setup_keys' else []
        desired = resource.desired()
        merge = resource.merge_desired  # a hook a kind may leave out (None: the options as they are)
        if obj is None:  # a new object: what a merge with nothing gives (a policy's rules with their create defaults)
            return None, [merge({}, dict(desired)) if merge else desired]
        after = dict(obj)
        after.update(merge(resource.from_server(obj), dict(desired)) if merge else desired)
        if entry.kind == 'setup_keys' and params.get('replace_invalid') and not setup_key_valid(obj):
            return obj, [after, obj]  # replaced: the old key stays, revoked
        return obj, [after]
    except ApiError as exc:
        raise TaskError('%s: %s' % (entry.where, exc), status=exc.status, method=exc.method, path=exc.path) from exc
    except TaskError as exc:
        raise TaskError('nothing was changed: %s: %s' % (entry.where, exc)) from exc


def final_sources(task, kind, plan):
    """What can refer to a resource of ``kind`` once the run is done: the described resources as the run leaves
    them, and the resources it does not touch (pruning deletes the undescribed ones of a described kind, except
    the protected ones and setup keys, which it revokes)."""
    sources = {}
    for source in referring_kinds(kind):
        entries = [entry for entry in task.entries if entry.kind == source]
        if source in SINGLETONS:
            sources[source] = plan_entry(task, entries[0], plan)[1] if entries else [task.resolver.settings(dict(KINDS)[source].path)]
            continue
        sources[source] = final_objects(task, source, plan)
    return sources


def final_objects(task, kind, plan, placeholders=False):
    """The objects of a listed kind once the run is done (before its first write): each entry's as it leaves it, and
    the server's others, less what pruning deletes (or, a setup key, revokes without auto groups). ``placeholders``:
    an object the run creates gets the placeholder id references to it resolve to (see PlanResolver)."""
    objs, seen = [], set()
    for entry in [entry for entry in task.entries if entry.kind == kind]:
        obj, after = plan_entry(task, entry, plan)
        if obj is not None:
            seen.add(ref_id(obj))
        seen.update(ref_id(item) for item in after if isinstance(item, dict) and item.get('id') is not None)
        if placeholders and obj is None:
            what, fields = RESOLVER_TABLE[kind][1:]
            after = [dict(item, id=placeholder_id(what, item.get(fields[0]))) if item.get('id') is None else item for item in after]
        objs.extend(after)
    pruned = task.params['prune'] and kind in dict(described_kinds(task))
    kept = task.kept_allow_all if kind == 'policies' else ()
    for obj in task.resolver.items(kind):
        if ref_id(obj) in seen:
            continue
        if pruned and not protected(kind, obj) and ref_id(obj) not in kept:
            continue  # deleted, or (a setup key) revoked without auto groups
        objs.append(obj)
    return objs


# -- the account-wide allow-all policy (default_policy) ----------------------------------------------
def all_group_ids(task):
    """The id of the account's built-in All group (builtin_all_group: a group merely named All is not it); several
    when groups named All cannot be told apart (see allow_all_policies)."""
    return builtin_all_group(task.resolver.items('groups'))[0]


def described_policy_ids(task):
    """Server ids of the policies the description names (the description decides what happens to them)."""
    found = set()
    for entry in task.entries:
        if entry.kind == 'policies' and not entry.origin:
            obj = plan_entry(task, entry, task.resolver, find_only=True)[0]
            if obj is not None:
                found.add(ref_id(obj))
    return found


def allow_all_policies(task):
    """The account-wide allow-all policies default_policy acts on: every policy on the server that the
    description does not name and that is an allow-all and nothing else (is_allow_all_policy), whatever its name:
    a renamed Default policy is found, a policy named Default that now restricts something is not."""
    all_ids, ambiguous = builtin_all_group(task.resolver.items('groups'))
    described = described_policy_ids(task)
    found = [policy for policy in task.resolver.items('policies')
             if ref_id(policy) not in described and is_allow_all_policy(policy, all_ids)]
    if ambiguous and found and task.params.get('default_policy') in ('disable', 'remove'):
        raise TaskError(
            "option default_policy: %s: the groups %s are all named All, issued by the API and hold as many peers, so "
            "the account's built-in All group (the one every peer is added to) cannot be told from the others, nor an "
            "allow-all policy from a policy between the peers of another group named All (%s). Rename the groups named "
            "All that are not the built-in one, or use default_policy: keep" % (
                task.params['default_policy'], ', '.join(sorted(all_ids)),
                ', '.join(task.shown(policy.get('name') or ref_id(policy), "'%s'") for policy in found)))
    return found


def add_default_policy_entries(task):
    """Entries for default_policy: disable updates each allow-all policy (enabled false, every other field as
    the server has it) after the described policies are applied; remove deletes it with the other deletions."""
    mode = task.params.get('default_policy')
    if mode not in DEFAULT_POLICY_CHOICES:
        return
    targets = allow_all_policies(task)
    if mode == 'keep':
        task.kept_allow_all = {ref_id(policy) for policy in targets}
        return
    refuse_policies_without_id(task, mode, targets)
    shared = connection(task)
    order = [kind for kind, dummy_cls in ORDER]
    position = len([e for e in task.entries if order.index(e.kind) <= order.index('policies')])
    for policy in targets:
        params = dict(item_spec_defaults(PolicyModule), id=ref_id(policy), **shared)
        if mode == 'disable':
            params['enabled'] = False
            # a later rule a v0.27 server answers without its sources gets them back (the All group)
            params['rules'] = allow_all_rules_as_held(policy, all_group_ids(task))
        else:
            params['state'] = 'absent'
        entry = Entry('policies', None, policy.get('name') or ref_id(policy), None, origin='default_policy')
        entry.resource = entry_resource(task, PolicyModule, params, entry, found_in_list=True)  # in the list just read
        task.entries.insert(position, entry)
        position += 1


def refuse_policies_without_id(task, mode, targets):
    """Fail, before any write, when the server answered allow-all policies without an id: such a policy cannot be
    updated or deleted (a PUT or DELETE names the id), and a policy entry without one would be created instead."""
    without = [policy for policy in targets if ref_id(policy) in (None, '')]
    if not without:
        return
    named = ', '.join(task.shown(policy['name'], "'%s'") if isinstance(policy.get('name'), str) and policy['name']
                      else 'one without a name' for policy in without)
    raise TaskError(
        "option default_policy: %s: the server answered GET %s with %s (%s) without an id, where every policy has "
        "one: a policy without its id cannot be %s. Nothing was changed; check the server (or a proxy in front of "
        "it), or use default_policy: keep" % (
            mode, task.client.url_for(PolicyModule.path),
            'an allow-all policy' if len(without) == 1 else '%d allow-all policies' % len(without), named,
            'disabled' if mode == 'disable' else 'deleted'))


def warn_about_allow_all(task):
    """Warn when the run builds restrictive policies while an allow-all policy stays enabled: that one grants
    every peer access to every other, so the restrictive ones change nothing. Judged on the state the run
    leaves (before its first write, so check mode warns too)."""
    described = [e for e in task.entries if e.kind == 'policies' and not e.origin and not is_absent(e)]
    if not described:
        return
    plan = PlanResolver(task.resolver, declared_names(task.entries))
    all_ids = all_group_ids(task)
    leaves, seen = [], set()
    restrictive = False
    for entry in [e for e in task.entries if e.kind == 'policies']:
        obj, after = plan_entry(task, entry, plan)
        if obj is not None:
            seen.add(ref_id(obj))
        for policy in after:
            final = dict({'enabled': True}, **policy)  # a policy created without the option is enabled
            if grants_everything(final, all_ids):
                leaves.append(final)
            elif entry in described:
                restrictive = True
    prune = task.params['prune'] and 'policies' in dict(described_kinds(task))
    for policy in task.resolver.items('policies'):
        if ref_id(policy) in seen or (prune and ref_id(policy) not in task.kept_allow_all):
            continue
        if grants_everything(policy, all_ids):
            leaves.append(policy)
    if not restrictive:
        return
    mode = task.params.get('default_policy')
    for policy in leaves:
        if mode in ('disable', 'remove'):
            # default_policy acts only on a policy that is an allow-all and nothing else: this one holds more
            why = ("default_policy: %s leaves it, since it also has rules or posture checks that grant or deny "
                   "something else; disable it, or remove its allow-all rule, with nms.overlay.policy" % mode)
        else:
            why = "until it is disabled (default_policy: disable)"
        task.warn("policies: the policy %s (All to All, accept) grants every peer access to every other peer; the "
                  "policies described here restrict nothing %s" % (task.shown(policy.get('name'), "'%s'"), why))
