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

from ansible_collections.nms.overlay.plugins.module_utils._access import PolicyModule, PostureCheckModule
from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._groups import ALL_GROUP, GroupModule
from ansible_collections.nms.overlay.plugins.module_utils._identity import (
    AccountSettingsModule, SetupKeyModule, UserModule,
)
from ansible_collections.nms.overlay.plugins.module_utils._resolve import ResolveError
from ansible_collections.nms.overlay.plugins.module_utils._resource import NmsModule, connection_argument_spec
from ansible_collections.nms.overlay.plugins.module_utils._routing import (
    DnsSettingsModule, NameserverGroupModule, RouteModule,
)

# The description's keys, in the order they are applied: a kind only refers to kinds before it.
KINDS = (
    ('groups', GroupModule),
    ('posture_checks', PostureCheckModule),
    ('policies', PolicyModule),
    ('routes', RouteModule),
    ('nameserver_groups', NameserverGroupModule),
    ('dns_settings', DnsSettingsModule),
    ('setup_keys', SetupKeyModule),
    ('users', UserModule),
    ('account_settings', AccountSettingsModule),
)
SINGLETONS = ('dns_settings', 'account_settings')
CONNECTION_OPTIONS = tuple(connection_argument_spec())


class _TaskModule:
    """What a resource class needs of AnsibleModule, for one described resource."""

    def __init__(self, params, check_mode, warn):
        self.params = params
        self.check_mode = check_mode
        self.warn = warn

    @staticmethod
    def fail_json(msg, **dummy_extra):
        raise TaskError(msg)


class _Entry:
    """One described resource: where it is in the description and the object handling it."""

    def __init__(self, kind, index, label, resource):
        self.kind = kind
        self.index = index
        self.label = label
        self.resource = resource

    @property
    def where(self):
        if self.index is None:
            return '%s (%s)' % (self.kind, self.label) if self.label else self.kind
        return '%s[%s] (%s)' % (self.kind, self.index, self.label)


def _label(cls, params):
    for key in (cls.natural_key, 'name', 'email', 'network_id', 'id'):
        if params.get(key):
            return params[key]
    return '?'


def item_spec(cls):
    """The options one described resource takes: its module's, without the connection options."""
    spec = cls.full_argument_spec()
    for name in CONNECTION_OPTIONS:
        spec.pop(name, None)
    return spec


class NetworkStateModule(NmsModule):
    """Reconciles every kind given in the description, in dependency order, then prunes if asked."""

    argument_spec = dict(
        prune=dict(type='bool', default=False),
        **{kind: dict(type='dict') if kind in SINGLETONS else dict(type='list', elements='dict') for kind, dummy_cls in KINDS}
    )
    # descriptions of setup keys, not key values (validate-modules suspects any option named like a key)
    argument_spec['setup_keys']['no_log'] = False

    def __init__(self, module=None):
        super().__init__(module)
        self.entries = []
        self.report = Report()

    # -- reading the description ---------------------------------------------------------------------
    def described_kinds(self):
        return [(kind, cls) for kind, cls in KINDS if self.params.get(kind) is not None]

    def build_entries(self):
        """Every described resource checked against its module's options, before any request."""
        problems = []
        connection = {name: self.params[name] for name in CONNECTION_OPTIONS}
        for kind, cls in self.described_kinds():
            value = self.params[kind]
            items = [(None, value)] if kind in SINGLETONS else list(enumerate(value))
            validator = ArgumentSpecValidator(
                item_spec(cls), mutually_exclusive=list(cls.mutually_exclusive), required_one_of=list(cls.required_one_of),
                required_if=list(cls.required_if), required_together=list(cls.required_together))
            for index, item in items:
                where = kind if index is None else '%s[%s]' % (kind, index)
                if not isinstance(item, dict):
                    problems.append('%s: must be a dictionary of %s options' % (where, kind))
                    continue
                checked = validator.validate(item)
                if checked.error_messages:
                    problems.extend('%s: %s' % (where, message) for message in checked.error_messages)
                    continue
                params = dict(checked.validated_parameters, **connection)
                entry = _Entry(kind, index, '' if index is None else _label(cls, params), None)
                entry.resource = self.resource(cls, params, entry)
                self.entries.append(entry)
        if problems:
            raise TaskError('the network description is invalid, nothing was changed: ' + '; '.join(problems))
        self.check_duplicates()

    def resource(self, cls, params, entry):
        def warn(message):
            self.warn('%s: %s' % (entry.where, message))

        resource = cls(module=_TaskModule(params, self.module.check_mode, warn))
        resource._client = self.client  # pylint: disable=protected-access
        resource._resolver = self.resolver  # pylint: disable=protected-access
        return resource

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
        problems = []
        # every entry's options first, so that invalid input fails before any request
        for entry in self.entries:
            try:
                entry.resource.validate_options()
            except TaskError as exc:
                problems.append('%s: %s' % (entry.where, exc))
        if problems:
            raise TaskError('nothing was changed: ' + '; '.join(problems))
        declared = self.declared_names()
        for entry in self.entries:
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

    # -- applying -------------------------------------------------------------------------------------
    def run(self):
        if self.params['prune'] and not any(self.params.get(kind) for kind, dummy_cls in KINDS):
            raise TaskError('prune is refused for an empty network description: it would delete every resource')
        self.build_entries()
        self.check_references()
        report = self.report
        kept = {}
        for entry in self.entries:
            result = self.apply(entry, entry.resource.run)
            report.add(entry, result)
            obj = result.get(entry.resource.result_key) or {}
            if isinstance(obj, dict) and obj.get('id') is not None:
                kept.setdefault(entry.kind, set()).add(ref_id(obj))
        if self.params['prune']:
            for kind, cls in reversed(self.described_kinds()):
                if kind not in SINGLETONS:
                    self.prune(kind, cls, kept.get(kind, set()), report)
        return report.result()

    def apply(self, entry, action):
        try:
            return action()
        except ApiError as exc:
            raise TaskError('%s: %s' % (entry.where, exc), status=exc.status, method=exc.method, path=exc.path,
                            **self.report.so_far()) from exc
        except TaskError as exc:
            raise TaskError('%s: %s' % (entry.where, exc), **self.report.so_far()) from exc

    def prune(self, kind, cls, kept, report):
        connection = {name: self.params[name] for name in CONNECTION_OPTIONS}
        probe = self.resource(cls, dict(connection), _Entry(kind, None, '', None))
        for obj in list(probe.list_items()):
            if ref_id(obj) in kept or self.protected(kind, obj):
                continue
            params = dict(item_spec_defaults(cls), id=ref_id(obj), state='absent', **connection)
            entry = _Entry(kind, None, _label(cls, obj), None)
            entry.resource = self.resource(cls, params, entry)
            report.add(entry, self.apply(entry, entry.resource.run), pruned=True)

    @staticmethod
    def protected(kind, obj):
        """Resources prune never removes: the All group, owners and the calling user, revoked keys."""
        if kind == 'groups':
            return obj.get('name') == ALL_GROUP or obj.get('issued') not in (None, 'api')
        if kind == 'users':
            return bool(obj.get('is_current')) or obj.get('role') == 'owner'
        if kind == 'setup_keys':
            return bool(obj.get('revoked'))
        return False


def item_spec_defaults(cls):
    return {name: option.get('default') for name, option in item_spec(cls).items()}


class Report:
    """What the run changed: a list of changes, one diff per changed resource, counts per kind."""

    def __init__(self):
        self.changes = []
        self.diffs = []
        self.summary = {}

    def add(self, entry, result, pruned=False):
        counts = self.summary.setdefault(entry.kind, dict(created=0, updated=0, deleted=0, unchanged=0))
        if not result.get('changed'):
            counts['unchanged'] += 1
            return
        diff = result.get('diff') or {}
        before, after = diff.get('before'), diff.get('after')
        if not before:
            action = 'created'
        elif not after or (entry.resource.params.get('state') == 'absent'):
            action = 'deleted'
        else:
            action = 'updated'
        counts[action] += 1
        obj = result.get(entry.resource.result_key) or {}
        change = dict(kind=entry.kind, name=entry.label, action=action, pruned=pruned)
        if isinstance(obj, dict) and obj.get('id') is not None:
            change['id'] = ref_id(obj)
        if entry.kind == 'setup_keys' and isinstance(obj, dict) and action == 'created' and obj.get('key'):
            change['key'] = obj['key']  # returned once, by the create, like nms.overlay.setup_key does
        self.changes.append(change)
        header = '%s %s' % (entry.resource.what, entry.label)
        self.diffs.append(dict(before_header=header, after_header=header, before=before or {}, after=after or {}))

    def result(self):
        return dict(changed=bool(self.changes), changes=self.changes, summary=self.summary, diff=self.diffs)

    def so_far(self):
        """What a failed run had already changed, for its failure result (Ansible prints that in full,
        so a created setup key's value is left out: revoke or delete that key)."""
        if not self.changes:
            return {}
        changes = [dict((k, v) for k, v in change.items() if k != 'key') for change in self.changes]
        return dict(changed=True, changes=changes, summary=self.summary)
