# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A whole network description reconciled in one task (the network_state module).

Each described resource is handled by the same class its own module uses, constructed with a small
stand-in for AnsibleModule, so that the lifecycle (compare, create, update, delete, check mode, diff)
exists once. All of them share one client and one resolver: every kind is listed at most once.
"""

from __future__ import annotations

from ansible.module_utils.common.arg_spec import ArgumentSpecValidator

from ansible_collections.nms.overlay.plugins.module_utils._access import (
    allow_all_rules_as_held, builtin_all_group, grants_everything, is_allow_all_policy,
)
from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resolve import ResolveError, Resolver, find_unique, kind_table
from ansible_collections.nms.overlay.plugins.module_utils._resource import display_name
from ansible_collections.nms.overlay.plugins.module_utils._secrets import (
    check_secrets_file, keep_created_secret, secrets_file_options,
)
from ansible_collections.nms.overlay.plugins.module_utils._task import NmsModule, connection_argument_spec, shape_problem
from ansible_collections.nms.overlay.plugins.module_utils._kinds import all_sections, nested_in, nested_sections, sections
from ansible_collections.nms.overlay.plugins.module_utils._resources.group import ALL_GROUP
from ansible_collections.nms.overlay.plugins.module_utils._resources.network import planned
from ansible_collections.nms.overlay.plugins.module_utils._resources.policy import PolicyModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.setup_key import setup_key_valid
from ansible_collections.nms.overlay.plugins.module_utils._usage import current_sources, referring_kinds, users_of


# The description's keys, in the order they are applied (a kind only refers to kinds before it): the declarations'.
KINDS = sections()
# Every kind the run applies, the ones described inside another's entries (a network's resources and routers, a DNS
# zone's records) after their parent: the order of creates and updates, reversed for deletions.
ORDER = all_sections()
SINGLETONS = tuple(kind for kind, cls in KINDS if cls.singleton)
# kinds whose deletion a reference blocks (checked before the first write)
REFERENCED = tuple(kind for kind, cls in KINDS if cls.usage_checked)
CONNECTION_OPTIONS = tuple(connection_argument_spec())
# what default_policy does to the account-wide allow-all policies (see allow_all_policies)
DEFAULT_POLICY_CHOICES = ('keep', 'disable', 'remove')
# what a change is called in the summary and the progress lines: (done, in check mode)
ACTION_WORDS = dict(created=('created', 'would create'), updated=('updated', 'would update'),
                    deleted=('deleted', 'would delete'), revoked=('revoked', 'would revoke'))
# names shown per action in a summary line, then "..."
SHOWN_NAMES = 5


class _TaskModule:
    """What a resource class needs of AnsibleModule, for one described resource."""

    def __init__(self, params, check_mode, warn, no_log=False):
        self.params = params
        self.check_mode = check_mode
        self.warn = warn
        self.no_log = no_log  # the task's: its warnings quote no values

    @staticmethod
    def fail_json(msg, **dummy_extra):
        raise TaskError(msg)


class _Entry:
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

    @property
    def where(self):
        if self.place:
            return '%s (%s)' % (self.place, self.label)
        if self.origin:
            return '%s (%s)' % (self.origin, self.label)
        if self.index is None:
            return '%s (%s)' % (self.kind, self.label) if self.label else self.kind
        return '%s[%s] (%s)' % (self.kind, self.index, self.label)


def _label(cls, params):
    """What names a described resource or a server object of the kind in messages (a network router without a
    routing peer: its peer groups)."""
    groups = params.get('peer_groups')
    return (display_name(params, (cls.natural_key, 'name', 'email', 'network_id')) or
            (', '.join(str(group) for group in groups) if isinstance(groups, list) and groups else None) or
            display_name(params, ('id',)) or '?')


class _PlanResolver(Resolver):
    """The run's lists (read once, shared), plus a placeholder for each group or posture check the
    description creates, so that the state a run leaves can be worked out before its first write."""

    def __init__(self, main, declared):
        super().__init__(main.client)
        self.main = main
        self.declared = declared

    def items(self, kind):
        if kind not in self._items:
            items = list(self.main.items(kind))
            dummy_path, what, fields = kind_table()[kind]
            for name in sorted(self.declared.get(kind, ())) if kind in REFERENCED else ():
                try:
                    known = find_unique(items, name, fields, what, kind)
                except ResolveError:
                    continue
                if known is None:
                    items.append({'id': '(new %s %s)' % (what, name), fields[0]: name})
            self._items[kind] = items
        return self._items[kind]

    def settings(self, path):
        return self.main.settings(path)

    @property
    def server(self):
        return self.main.server


def is_absent(entry):
    return entry.kind not in SINGLETONS and entry.resource.params.get('state') == 'absent'


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
    if nested_in(cls):
        spec.pop(nested_in(cls)[2])
    return spec


def parent_reference(entry):
    """How a nested entry's option names the parent it is described in: the parent's id, else its natural key."""
    params = entry.resource.params
    return params.get('id') or params.get(entry.resource.natural_key)


class NetworkStateModule(NmsModule):
    """Reconciles every kind given in the description, in dependency order, then prunes if asked."""

    argument_spec = dict(
        prune=dict(type='bool', default=False),
        **{kind: dict(type='dict') if kind in SINGLETONS else dict(type='list', elements='dict') for kind, dummy_cls in KINDS}
    )
    # descriptions of setup keys, not key values (validate-modules suspects any option named like a key)
    argument_spec['setup_keys']['no_log'] = False
    # where created setup key values go (the file's path and a switch are no secrets themselves)
    argument_spec.update(secrets_file_options())
    argument_spec['default_policy'] = dict(type='str', choices=list(DEFAULT_POLICY_CHOICES))
    # the sections of kinds only today's servers have, with the generation that has them: for the compatibility page;
    # the described kinds themselves refuse a v0.27 server (check_references), so that empty sections pass
    options_requiring = {kind: 'v0.77' for kind, cls in KINDS if cls.requires}

    @classmethod
    def preload(cls):
        for dummy_kind, resource_cls in ORDER:
            resource_cls.preload()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.entries = []
        self.report = Report(keep_secret=self.keep_secret, check_mode=bool(self.module.check_mode),
                             hide_names=bool(getattr(self.module, 'no_log', False)))
        self.verified = set()  # (kind, id) of deletions checked before the first write
        self.kept_allow_all = set()  # ids of the allow-all policies default_policy=keep protects from prune

    def keep_secret(self, change):
        """Where a created setup key's value goes (created_secrets_file, the result): as the setup_key module's, called
        as each change is recorded, so a run that fails later keeps it."""
        keep_created_secret(self, change, 'key', 'setup key', change['kind'], change['name'], change.get('id'),
                            keep_hint="created_secrets_file (the network role's network_secrets_file, for example "
                                      "-e network_secrets_file=created-secrets.json)")

    # -- reading the description ---------------------------------------------------------------------
    def described_kinds(self):
        return [(kind, cls) for kind, cls in KINDS if self.params.get(kind) is not None]

    def build_entries(self):
        """Every described resource checked against its module's options, before any request; the entries nested in
        a parent's entry (a network's resources and routers, a zone's records) too, each naming its parent."""
        problems = []
        for kind, cls in self.described_kinds():
            value = self.params[kind]
            items = [(None, value)] if kind in SINGLETONS else list(enumerate(value))
            for parent in self.checked_entries(kind, cls, items, problems):
                self.entries.append(parent)
                for key, child_cls in nested_sections(kind):
                    if parent.nested.get(key) is None:
                        continue
                    children = self.checked_entries(
                        child_cls.section, child_cls, list(enumerate(parent.nested[key])), problems, parent=parent,
                        place='%s[%s].%s' % (kind, parent.index, key))
                    if parent.resource.params.get('state') != 'absent':
                        self.entries.extend(children)  # deleting a network or a zone deletes what is in it
        if problems:
            raise TaskError('the network description is invalid, nothing was changed: ' + '; '.join(problems))
        self.check_duplicates()

    def checked_entries(self, kind, cls, items, problems, parent=None, place=None):
        """The entries of the items [(index, item)] of one kind, each checked as its module checks its options (what
        is wrong goes to ``problems``). ``parent``: the entry they are nested in, under its key ``place``."""
        entries = []
        connection = {name: self.params[name] for name in CONNECTION_OPTIONS}
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
            if parent is not None and nested_in(cls)[2] in item:
                problems.append('%s: option %s: not given here, the %s is the entry this one is nested in'
                                % (where, nested_in(cls)[2], parent.resource.what))
                continue
            shape = shape_problem(spec, item, where + '.')  # as the single modules check first
            if shape:
                problems.append(shape)
                continue
            checked = validator.validate(item)
            if checked.error_messages:
                problems.extend('%s: %s' % (where, message) for message in checked.error_messages)
                continue
            params = dict(checked.validated_parameters, **connection)
            nested = {key: params.pop(key) for key in nested_keys}
            if parent is not None:
                params[nested_in(cls)[2]] = parent_reference(parent)
            entry = _Entry(kind, index, '' if index is None else _label(cls, params), None,
                           place=where if parent is not None else None)
            entry.parent = parent
            entry.nested = nested
            # the deletion of a described group or posture check is checked before the first write (check_deletions)
            entry.resource = self.resource(cls, params, entry,
                                           usage_known=kind in REFERENCED and params.get('state') == 'absent')
            entries.append(entry)
        return entries

    def resource(self, cls, params, entry, found_in_list=False, usage_known=False):
        def warn(message):
            # a task with no_log gets the place of the entry, never its name
            where = entry.where if not getattr(self.module, 'no_log', False) else (
                entry.kind if entry.index is None else '%s[%s]' % (entry.place or entry.kind, entry.index))
            self.warn('%s: %s' % (where, message))

        return cls(_TaskModule(params, self.module.check_mode, warn, getattr(self.module, 'no_log', False)),
                   client=self.client, resolver=self.resolver, found_in_list=found_in_list, usage_known=usage_known)

    def check_duplicates(self):
        seen = {}
        for entry in self.entries:
            if entry.index is None:
                continue
            params = entry.resource.params
            key = (entry.kind, params.get('id') or entry.resource.identity_text())
            if key in seen:
                raise TaskError('%s and %s describe the same %s (%s); describe each resource once' % (
                    seen[key], entry.where, entry.resource.what, key[1]))
            seen[key] = entry.where

    def declared_names(self):
        """Names the description creates, per resolver kind (references to them are valid)."""
        names = {}
        for entry in self.entries:
            params = entry.resource.params
            if entry.index is None or params.get('state') == 'absent' or not entry.resource.kind:
                continue
            for key in ('name', 'email', 'network_id'):
                if params.get(key):
                    names.setdefault(entry.resource.kind, set()).add(params[key])
        return names

    def check_references(self):
        """Every name the description refers to exists on the server or in the description."""
        # every entry's options first, so that invalid input fails before any request
        refuse_any(self.entries, lambda entry: entry.resource.validate_options())
        # kinds a v0.27 server does not have (Networks, DNS zones): refused with their modules' message (one request);
        # what is nested in a network or zone needs what its parent needs, which says it once
        refuse_any([entry for entry in self.entries if entry.parent is None], lambda entry: entry.resource.check_generation())
        refuse_any([entry for entry in self.entries if entry.index is None or entry.resource.params.get('state') != 'absent'],
                   lambda entry: entry.resource.check_server_accepts())
        problems = []
        declared = self.declared_names()
        for entry in self.entries:
            if is_absent(entry):
                continue  # deleted or already gone: what it referred to does not matter (as in its own module)
            try:
                references = list(entry.resource.references())
            except TaskError as exc:
                problems.append('%s: %s' % (entry.where, exc))
                continue
            for kind, value, option in references:
                if str(value) in declared.get(kind, ()):
                    continue
                try:
                    self.resolver.to_id(kind, value, option)
                except ResolveError as exc:
                    problems.append('%s: %s' % (entry.where, exc))
        if problems:
            raise TaskError('nothing was changed: ' + '; '.join(problems))

    # -- deletions that references would block -------------------------------------------------------
    def check_deletions(self):
        """Before the first write (also in check mode): refuse the run when it would delete a group or posture
        check (described as absent, or pruned) that something would still use: a described resource as the run
        leaves it, or a resource that stays on the server. The server checks most of these itself, but only when
        the run gets there, after other writes; it does not check a route's peer_groups at all."""
        prune = self.params['prune']
        described = dict(self.described_kinds())
        absent = [e for e in self.entries if e.kind in REFERENCED and e.resource.params.get('state') == 'absent']
        pruned = [kind for kind in REFERENCED if prune and kind in described]
        if not absent and not pruned:
            return
        plan = _PlanResolver(self.resolver, self.declared_names())
        doomed = []  # (where, kind, object, whether the run's final state judges it)
        matched = {}
        for entry in self.entries:
            if entry.kind not in pruned and entry not in absent:
                continue
            obj = self.plan(entry, plan, find_only=True)[0]
            if obj is not None:
                matched.setdefault(entry.kind, set()).add(ref_id(obj))
                if entry in absent:
                    # deleted after every described resource is applied, in reverse dependency order: what the run
                    # leaves counts (a route or policy described absent no longer uses it)
                    doomed.append((entry.where, entry.kind, obj, True))
        for kind in pruned:
            for obj in self.resolver.items(kind):
                if ref_id(obj) not in matched.get(kind, ()) and not self.protected(kind, obj):
                    doomed.append(('%s (%s)' % (kind, _label(described[kind], obj)), kind, obj, True))
        blocked, finals = [], {}
        for where, kind, obj, final in doomed:
            if final and kind not in finals:
                finals[kind] = self.final_sources(kind, plan)
            users = users_of(kind, ref_id(obj), finals[kind] if final else current_sources(kind, self.resolver))
            if users:
                blocked.append('%s (id %s) is used by %s' % (where, ref_id(obj), ', '.join(users)))
            self.verified.add((kind, ref_id(obj)))
        if blocked:
            raise TaskError('nothing was changed: %s would fail, because %s; remove the reference from what uses %s (on the '
                            'server, or in the description), or describe that with state: absent too' % (
                                'this deletion' if len(blocked) == 1 else 'these deletions', '; '.join(blocked),
                                'it' if len(blocked) == 1 else 'them'))

    def plan(self, entry, plan, find_only=False):
        """(the server object an entry describes or None, the objects it leaves on the server), without a request
        beyond the lists the run reads anyway."""
        # by id in the list the run read, not with a GET
        resource = type(entry.resource)(_TaskModule(entry.resource.params, True, lambda message: None),
                                        client=self.client, resolver=plan, found_in_list=True)
        try:
            obj = resource.find()
            if find_only:
                return obj, None
            params = resource.params
            if not resource.singleton and params.get('state') == 'absent':
                # a setup key a v0.27 server cannot delete stays, revoked and without auto groups (with the other keys of
                # its name, which the task removes too)
                return obj, [dict(item, auto_groups=[]) for item in [obj] + list(getattr(resource, '_others', []))] \
                    if obj is not None and entry.kind == 'setup_keys' else []
            desired = resource.desired()
            if obj is None:
                return None, [desired]
            after = dict(obj)
            after.update(resource.merge_desired(resource.from_server(obj), dict(desired)))
            if entry.kind == 'setup_keys' and params.get('replace_invalid') and not setup_key_valid(obj):
                return obj, [after, obj]  # replaced: the old key stays, revoked
            return obj, [after]
        except ApiError as exc:
            raise TaskError('%s: %s' % (entry.where, exc), status=exc.status, method=exc.method, path=exc.path) from exc
        except TaskError as exc:
            raise TaskError('nothing was changed: %s: %s' % (entry.where, exc)) from exc

    def final_sources(self, kind, plan):
        """What can refer to a resource of ``kind`` once the run is done: the described resources as the run leaves
        them, and the resources it does not touch (pruning deletes the undescribed ones of a described kind, except
        the protected ones and setup keys, which it revokes)."""
        described = dict(self.described_kinds())
        sources = {}
        for source in referring_kinds(kind):
            entries = [entry for entry in self.entries if entry.kind == source]
            if source in SINGLETONS:
                sources[source] = self.plan(entries[0], plan)[1] if entries else [self.resolver.settings(dict(KINDS)[source].path)]
                continue
            objs, seen = [], set()
            for entry in entries:
                obj, after = self.plan(entry, plan)
                if obj is not None:
                    seen.add(ref_id(obj))
                seen.update(ref_id(item) for item in after if isinstance(item, dict) and item.get('id') is not None)
                objs.extend(after)
            pruned = self.params['prune'] and source in described
            for obj in self.resolver.items(source):
                if ref_id(obj) in seen:
                    continue
                if pruned and not self.protected(source, obj):
                    continue  # deleted, or (a setup key) revoked without auto groups
                objs.append(obj)
            sources[source] = objs
        return sources

    # -- the account-wide allow-all policy (default_policy) ----------------------------------------------
    def all_group_ids(self):
        """The id of the account's built-in All group (builtin_all_group: a group merely named All is not it); several
        when groups named All cannot be told apart (see allow_all_policies)."""
        return builtin_all_group(self.resolver.items('groups'))[0]

    def described_policy_ids(self):
        """Server ids of the policies the description names (the description decides what happens to them)."""
        found = set()
        for entry in self.entries:
            if entry.kind == 'policies' and not entry.origin:
                obj = self.plan(entry, self.resolver, find_only=True)[0]
                if obj is not None:
                    found.add(ref_id(obj))
        return found

    def allow_all_policies(self):
        """The account-wide allow-all policies default_policy acts on: every policy on the server that the
        description does not name and that is an allow-all and nothing else (is_allow_all_policy), whatever its name:
        a renamed Default policy is found, a policy named Default that now restricts something is not."""
        all_ids, ambiguous = builtin_all_group(self.resolver.items('groups'))
        described = self.described_policy_ids()
        found = [policy for policy in self.resolver.items('policies')
                 if ref_id(policy) not in described and is_allow_all_policy(policy, all_ids)]
        if ambiguous and found and self.params.get('default_policy') in ('disable', 'remove'):
            raise TaskError(
                "option default_policy: %s: the groups %s are all named All, issued by the API and hold as many peers, so "
                "the account's built-in All group (the one every peer is added to) cannot be told from the others, nor an "
                "allow-all policy from a policy between the peers of another group named All (%s). Rename the groups named "
                "All that are not the built-in one, or use default_policy: keep" % (
                    self.params['default_policy'], ', '.join(sorted(all_ids)),
                    ', '.join(self.shown(policy.get('name') or ref_id(policy), "'%s'") for policy in found)))
        return found

    def add_default_policy_entries(self):
        """Entries for default_policy: disable updates each allow-all policy (enabled false, every other field as
        the server has it) after the described policies are applied; remove deletes it with the other deletions."""
        mode = self.params.get('default_policy')
        if mode not in DEFAULT_POLICY_CHOICES:
            return
        targets = self.allow_all_policies()
        if mode == 'keep':
            self.kept_allow_all = {ref_id(policy) for policy in targets}
            return
        connection = {name: self.params[name] for name in CONNECTION_OPTIONS}
        order = [kind for kind, dummy_cls in ORDER]
        position = len([e for e in self.entries if order.index(e.kind) <= order.index('policies')])
        for policy in targets:
            params = dict(item_spec_defaults(PolicyModule), id=ref_id(policy), **connection)
            if mode == 'disable':
                params['enabled'] = False
                # a later rule a v0.27 server answers without its sources gets them back (the All group)
                params['rules'] = allow_all_rules_as_held(policy, self.all_group_ids())
            else:
                params['state'] = 'absent'
            entry = _Entry('policies', None, policy.get('name') or ref_id(policy), None, origin='default_policy')
            entry.resource = self.resource(PolicyModule, params, entry, found_in_list=True)  # in the list just read
            self.entries.insert(position, entry)
            position += 1

    def warn_about_allow_all(self):
        """Warn when the run builds restrictive policies while an allow-all policy stays enabled: that one grants
        every peer access to every other, so the restrictive ones change nothing. Judged on the state the run
        leaves (before its first write, so check mode warns too)."""
        described = [e for e in self.entries if e.kind == 'policies' and not e.origin and not is_absent(e)]
        if not described:
            return
        plan = _PlanResolver(self.resolver, self.declared_names())
        all_ids = self.all_group_ids()
        leaves, seen = [], set()
        restrictive = False
        for entry in [e for e in self.entries if e.kind == 'policies']:
            obj, after = self.plan(entry, plan)
            if obj is not None:
                seen.add(ref_id(obj))
            for policy in after:
                final = dict({'enabled': True}, **policy)  # a policy created without the option is enabled
                if grants_everything(final, all_ids):
                    leaves.append(final)
                elif entry in described:
                    restrictive = True
        prune = self.params['prune'] and 'policies' in dict(self.described_kinds())
        for policy in self.resolver.items('policies'):
            if ref_id(policy) in seen or (prune and ref_id(policy) not in self.kept_allow_all):
                continue
            if grants_everything(policy, all_ids):
                leaves.append(policy)
        if not restrictive:
            return
        mode = self.params.get('default_policy')
        for policy in leaves:
            if mode in ('disable', 'remove'):
                # default_policy acts only on a policy that is an allow-all and nothing else: this one holds more
                why = ("default_policy: %s leaves it, since it also has rules or posture checks that grant or deny "
                       "something else; disable it, or remove its allow-all rule, with nms.overlay.policy" % mode)
            else:
                why = "until it is disabled (default_policy: disable)"
            self.warn("policies: the policy %s (All to All, accept) grants every peer access to every other peer; the "
                      "policies described here restrict nothing %s" % (self.shown(policy.get('name'), "'%s'"), why))

    # -- applying -------------------------------------------------------------------------------------
    def applied_kinds(self):
        """The kinds the run handles, in dependency order: the described ones, policies for default_policy, and the
        nested kinds described (or to prune) in a parent's entry."""
        return [(kind, cls) for kind, cls in ORDER if self.params.get(kind) is not None or any(e.kind == kind for e in self.entries)
                or self.pruned_parents(cls)]

    def pruned_parents(self, cls):
        """The parent entries whose nested list of the kind ``cls`` is given, when pruning (those lists are complete:
        what else is in the parent goes)."""
        if not self.params['prune'] or not nested_in(cls):
            return []
        parent_kind, key, dummy_option = nested_in(cls)
        return [entry for entry in self.entries if entry.kind == parent_kind and not is_absent(entry)
                and entry.nested.get(key) is not None]

    def run(self):
        if self.params['prune'] and not any(self.params.get(kind) for kind, dummy_cls in KINDS):
            raise TaskError('prune is refused for an empty network description: it would delete every resource')
        check_secrets_file(self.params.get('created_secrets_file'))  # before anything is made, check mode too
        self.build_entries()
        self.check_references()
        self.add_default_policy_entries()
        self.warn_about_allow_all()
        self.check_deletions()
        self.progress('network_state: description checked: %d %s in %d %s, every reference found' % (
            len(self.entries), 'resource' if len(self.entries) == 1 else 'resources', len(self.described_kinds()),
            'kind' if len(self.described_kinds()) == 1 else 'kinds'))
        report = self.report
        kept = {'policies': set(self.kept_allow_all)}
        for kind, dummy_cls in self.applied_kinds():
            applied = [entry for entry in self.entries if entry.kind == kind and not is_absent(entry)]
            for entry in applied:
                result = self.apply(entry, entry.resource.run)
                report.add(entry, result)
                obj = result.get(entry.resource.result_key) or {}
                if isinstance(obj, dict) and obj.get('id') is not None:
                    kept.setdefault(entry.kind, set()).add(ref_id(obj))
                    entry.server_id = ref_id(obj)
            if applied:
                self.progress('network_state: %s' % report.kind_line(kind))
        # Deletions last, in reverse dependency order (a route before the groups it uses, setup keys before their
        # auto groups), so one description with every item absent tears a whole network down.
        described = dict(self.described_kinds())
        for kind, cls in reversed(self.applied_kinds()):
            absent = [e for e in self.entries if e.kind == kind and is_absent(e)]
            for entry in absent:
                report.add(entry, self.apply(entry, entry.resource.run))
            pruning = self.params['prune'] and kind in described and kind not in SINGLETONS
            if pruning:
                self.prune(kind, cls, kept.get(kind, set()), report)
            for parent in self.pruned_parents(cls):
                pruning = True
                self.prune(kind, cls, kept.get(kind, set()), report, parent=parent)
            if absent or pruning:
                self.progress('network_state: %s (deletions%s)' % (report.kind_line(kind), ', prune' if pruning else ''))
        return dict(report.result(), progress=list(self.steps))

    def apply(self, entry, action):
        try:
            return action()
        except ApiError as exc:
            raise TaskError('%s: %s' % (entry.where, exc), status=exc.status, method=exc.method, path=exc.path,
                            **self.report.so_far()) from exc
        except TaskError as exc:
            raise TaskError('%s: %s' % (entry.where, exc), **self.report.so_far()) from exc

    @classmethod
    def holds_created_secret(cls, result):
        return any(isinstance(change, dict) and change.get('key') for change in result.get('changes') or ())

    def prune(self, kind, cls, kept, report, parent=None):
        """Delete what the description does not name: of the kind, or (``parent``) of the kind in that parent."""
        connection = {name: self.params[name] for name in CONNECTION_OPTIONS}
        if parent is not None:
            if parent.server_id is None or planned(parent.server_id):
                return  # a parent check mode only plans holds nothing yet
            connection[nested_in(cls)[2]] = parent.server_id
        elif cls.requires and not self.resolver.server.current:
            return  # an empty list of a kind a v0.27 server does not have: there is none to prune
        probe = self.resource(cls, dict(connection), _Entry(kind, None, '', None))
        for obj in list(probe.list_items()):
            if ref_id(obj) in kept or self.protected(kind, obj):
                continue
            params = dict(item_spec_defaults(cls), id=ref_id(obj), state='absent', **connection)
            entry = _Entry(kind, None, _label(cls, obj), None)
            # found in the list just read; its usage was checked before the first write, against the state now reached
            entry.resource = self.resource(cls, params, entry, found_in_list=True,
                                           usage_known=(kind, ref_id(obj)) in self.verified)
            report.add(entry, self.apply(entry, entry.resource.run), pruned=True)

    @staticmethod
    def protected(kind, obj):
        """Resources prune never removes: the All group, owners and the calling user, revoked keys."""
        if kind == 'groups':
            return obj.get('name') == ALL_GROUP or obj.get('issued') not in (None, 'api')
        if kind == 'users':
            return bool(obj.get('is_current')) or obj.get('role') == 'owner'
        if kind == 'setup_keys':
            return bool(obj.get('revoked')) and not obj.get('auto_groups')  # revoked and holding no group: nothing left to do
        return False


def item_spec_defaults(cls):
    return {name: option.get('default') for name, option in item_spec(cls).items()}


class Report:
    """What the run changed: a list of changes, one diff per changed resource, counts per kind."""

    def __init__(self, keep_secret=None, check_mode=False, hide_names=False):
        self.keep_secret = keep_secret  # told of each change that carries a created secret (key)
        self.check_mode = check_mode
        self.hide_names = hide_names  # a task with no_log: its progress lines (shown live) give counts only
        self.changes = []
        self.diffs = []
        self.summary = {}

    def add(self, entry, result, pruned=False):
        counts = self.summary.setdefault(entry.kind, dict(created=0, updated=0, deleted=0, unchanged=0))
        if entry.kind == 'setup_keys':
            counts.setdefault('revoked', 0)
        if not result.get('changed'):
            counts['unchanged'] += 1
            return
        diff = result.get('diff') or {}
        before, after = diff.get('before'), diff.get('after')
        if not before:
            action = 'created'
        elif result.get('revoked_only'):
            action = 'revoked'  # a v0.27 server cannot delete setup keys
        elif not after or (entry.resource.params.get('state') == 'absent'):
            action = 'deleted'
        else:
            action = 'updated'
        counts[action] += 1
        obj = result.get(entry.resource.result_key) or {}
        change = dict(kind=entry.kind, name=entry.label, action=action, pruned=pruned)
        if entry.origin:
            change['default_policy'] = True
        if isinstance(obj, dict) and obj.get('id') is not None:
            change['id'] = ref_id(obj)
        if entry.kind == 'setup_keys' and isinstance(obj, dict) and action == 'created' and obj.get('key'):
            change['key'] = obj['key']  # returned once, by the create, like nms.overlay.setup_key does
            if self.keep_secret is not None:
                self.keep_secret(change)
        self.changes.append(change)
        header = '%s %s' % (entry.resource.what, entry.label)
        self.diffs.append(dict(before_header=header, after_header=header, before=before or {}, after=after or {}))

    def counts(self):
        """The counts per kind, in check mode under would_create, would_update, ... (nothing was done)."""
        if not self.check_mode:
            return self.summary
        return {kind: {(key if key == 'unchanged' else 'would_' + ACTION_WORDS[key][1].split()[-1]): value
                       for key, value in counts.items()} for kind, counts in self.summary.items()}

    def kind_line(self, kind):
        """One kind's counts in words, naming what changed: 'groups: created 2 (office, servers), 1 unchanged';
        in check mode 'would create 2 (...)'."""
        counts = self.summary.get(kind, {})
        parts = []
        for action, words in ACTION_WORDS.items():
            names = [str(c['name']) for c in self.changes if c['kind'] == kind and c['action'] == action]
            if names:
                shown = names[:SHOWN_NAMES] + (['...'] if len(names) > SHOWN_NAMES else [])
                parts.append('%s %d' % (words[1 if self.check_mode else 0], len(names))
                             + ('' if self.hide_names else ' (%s)' % ', '.join(shown)))
        if counts.get('unchanged'):
            parts.append('%d unchanged' % counts['unchanged'])
        return '%s: %s' % (kind, ', '.join(parts) or 'nothing to do')

    def message(self):
        order = [kind for kind, dummy_cls in ORDER]
        kinds = sorted(self.summary, key=order.index)
        text = '; '.join(self.kind_line(kind) for kind in kinds) or 'nothing described'
        if self.check_mode:
            return 'check mode, nothing was changed: ' + text
        return text

    def result(self):
        return dict(changed=bool(self.changes), changes=self.changes, summary=self.counts(), diff=self.diffs,
                    msg=self.message())

    def so_far(self):
        """What a failed run had already changed, for its failure result (Ansible prints that in full,
        so a created setup key's value is left out: revoke or delete that key)."""
        if not self.changes:
            return {}
        changes = [dict((k, v) for k, v in change.items() if k != 'key') for change in self.changes]
        return dict(changed=True, changes=changes, summary=self.counts())
