# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A whole network description reconciled in one task (the network_state module).

Each described resource is handled by the same class its own module uses, constructed with a small
stand-in for AnsibleModule, so that the lifecycle (compare, create, update, delete, check mode, diff)
exists once. All of them share one client and one resolver: every kind is listed at most once.
The description is read and checked before the first write in _network_plan.py; this file applies it
and reports what changed.
"""

from __future__ import annotations

import copy

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._create import Settling
from ansible_collections.nms.overlay.plugins.module_utils._kind import Kind, planned
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._export import gathered
from ansible_collections.nms.overlay.plugins.module_utils._network_plan import (
    DEFAULT_POLICY_CHOICES, KINDS, MEMBERSHIP_SPEC, MEMBERSHIPS, ORDER, SINGLETONS, Entry, check_description, connection, described_kinds, described_secrets,
    entry_label, entry_resource, is_absent, item_spec_defaults, protected,
)
from ansible_collections.nms.overlay.plugins.module_utils._reach import plan_reach, reach_diff, reach_result
from ansible_collections.nms.overlay.plugins.module_utils._rendered import NEWEST_RELEASE, OfflineAccount, request_text, server_release
from ansible_collections.nms.overlay.plugins.module_utils._secrets import (
    check_secrets_file, keep_created_secret, secrets_file_options,
)
from ansible_collections.nms.overlay.plugins.module_utils._task import NmsModule


# what a change is called in the summary and the progress lines: (done, in check mode)
ACTION_WORDS = dict(created=('created', 'would create'), updated=('updated', 'would update'),
                    deleted=('deleted', 'would delete'), revoked=('revoked', 'would revoke'))
# names shown per action in a summary line, then "..."
SHOWN_NAMES = 5


def refers_to(cls):
    """The resolver kinds a kind's entries may name, or None for any (a kind whose desired hook resolves references of
    its own, see hook_reference_problems): those must have converged before it runs, so that it names the copy kept."""
    if cls.desired is not Kind.desired:
        return None
    kinds = {field.ref for field in cls.fields.values() if field.ref}
    kinds.update(kind for field in cls.fields.values() for kind in (field.item_refs or {}).values())
    if cls.nested_in:
        kinds.add(cls.nested_in[0])  # its parent, by the id the parent's entry got
    return kinds


class NetworkStateModule(NmsModule):
    """Reconciles every kind given in the description, in dependency order, then prunes if asked."""

    few_names = False  # a description names many objects: each kind's whole list is read once
    argument_spec = dict(
        prune=dict(type='bool', default=False),
        **{kind: dict(type='dict') if kind in SINGLETONS else dict(type='list', elements='dict') for kind, dummy_cls in KINDS}
    )
    # descriptions of setup keys, not key values (validate-modules suspects any option named like a key)
    argument_spec['setup_keys']['no_log'] = False
    # where created setup key values go (the file's path and a switch are no secrets themselves)
    argument_spec.update(secrets_file_options())
    argument_spec['default_policy'] = dict(type='str', choices=list(DEFAULT_POLICY_CHOICES))
    argument_spec[MEMBERSHIPS] = dict(type='list', elements='dict', options=copy.deepcopy(MEMBERSHIP_SPEC))
    argument_spec['state'] = dict(type='str', default='present', choices=['present', 'gathered', 'rendered'])
    # state=rendered: the release whose empty account the requests are rendered for (_rendered.py)
    argument_spec['server_version'] = dict(type='str')
    # who gains and who loses reach (_reach.py)
    argument_spec.update(reach=dict(type='bool', default=True), reach_peer_limit=dict(type='int', default=250))
    # the sections of kinds only today's servers have, with the generation that has them: for the compatibility page;
    # the described kinds themselves refuse a v0.27 server (check_references), so that empty sections pass
    options_requiring = {kind: 'v0.77' for kind, cls in KINDS if cls.requires}

    @classmethod
    def secret_values(cls, params):
        """The values to mask in the task's result and invocation besides those of its no_log options: the secrets of
        the description's entries (see described_secrets)."""
        return described_secrets(params)

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
        self.settling = Settling()  # the creates still converging, together after the last one a later kind allows
        self.held = []  # (entry, result) not reported yet: reported once the creates held converged
        self.applied = 0  # entries applied so far (a rate limit's wait names the rest: work_left)
        self.rendered = self.params.get('state') == 'rendered'
        if self.rendered:
            # check mode's plan, talking to an empty account in memory: no client is made, nothing is sent
            self._client = OfflineAccount(server_release(self.params.get('server_version') or NEWEST_RELEASE))
            self.module.check_mode = True
            self.report.check_mode = True

    def keep_secret(self, change):
        """Where a created setup key's value goes (created_secrets_file, the result): as the setup_key module's, called
        as each change is recorded, so a run that fails later keeps it."""
        keep_created_secret(self, change, 'key', 'setup key', change['kind'], change['name'], change.get('id'),
                            keep_hint="created_secrets_file (the network role's network_secrets_file, for example "
                                      "-e network_secrets_file=created-secrets.json)")

    def applied_kinds(self):
        """The kinds the run handles, in dependency order: the described ones, policies for default_policy, and the
        nested kinds described (or to prune) in a parent's entry."""
        return [(kind, cls) for kind, cls in ORDER if self.params.get(kind) is not None or any(e.kind == kind for e in self.entries)
                or self.pruned_parents(cls)]

    def pruned_parents(self, cls):
        """The parent entries whose nested list of the kind ``cls`` is given, when pruning (those lists are complete:
        what else is in the parent goes)."""
        if not self.params['prune'] or not cls.nested_in:
            return []
        parent_kind, key, dummy_option = cls.nested_in
        return [entry for entry in self.entries if entry.kind == parent_kind and not is_absent(entry)
                and entry.nested.get(key) is not None]

    def run(self):
        if self.params.get('server_version') is not None and not self.rendered:
            raise TaskError('option server_version: only with state=rendered (a server tells its own release)')
        if self.params.get('state') == 'gathered':
            return self.gather()
        if self.params['prune'] and not any(self.params.get(kind) for kind, dummy_cls in KINDS):
            raise TaskError('prune is refused for an empty network description: it would delete every resource')
        if not self.rendered:
            check_secrets_file(self.params)  # before anything is made, check mode too (rendered makes nothing)
        check_description(self)
        described = dict(described_kinds(self))
        self.progress('network_state: description checked: %d %s in %d %s, every reference found' % (
            len(self.entries), 'resource' if len(self.entries) == 1 else 'resources', len(described),
            'kind' if len(described) == 1 else 'kinds'))
        planned = plan_reach(self) if not self.rendered else None  # before the first write
        if hasattr(self.client, 'rate_limit'):  # (a test's fake client has none)
            self.client.rate_limit.work_left = self.work_left
        report = self.report
        kept = {'policies': set(self.kept_allow_all)}
        for kind, cls in self.applied_kinds():
            if self.settling.waits_for(refers_to(cls)):
                self.settle_held(kept)  # this kind may name what converges still: it must name the copy kept
            self.hold_kind([entry for entry in self.entries if entry.kind == kind and not is_absent(entry)])
            if not self.settling.pending:
                self.settle_held(kept)  # nothing converges: reported now, with no wait
        self.settle_held(kept)  # one wait for every kind still converging, after the last create
        # Deletions last, in reverse dependency order (a route before the groups it uses, setup keys before their
        # auto groups), so one description with every item absent tears a whole network down.
        for kind, cls in reversed(self.applied_kinds()):
            absent = [e for e in self.entries if e.kind == kind and is_absent(e)]
            for entry in absent:
                report.add(entry, self.apply(entry))
            pruning = self.params['prune'] and kind in described and kind not in SINGLETONS
            if pruning:
                self.prune(kind, cls, kept.get(kind, set()))
            for parent in self.pruned_parents(cls):
                pruning = True
                self.prune(kind, cls, kept.get(kind, set()), parent=parent)
            if absent or pruning:
                self.progress('network_state: %s (deletions%s)' % (report.kind_line(kind), ', prune' if pruning else ''))
        if self.rendered:
            return self.rendered_result(report.result())
        result = dict(report.result(), **reach_result(self, planned, report.changes))
        if result.get('reach_changes'):
            result['diff'].append(reach_diff(result['reach_changes']))
        return dict(result, progress=list(self.steps))

    def rendered_result(self, planned):
        """state=rendered: the requests the plan would send to the empty account, in the order it sends them, with the
        plan's summary; the diff is the requests as text (nothing changed)."""
        account = self.client
        requests = account.requests
        text = request_text(requests)
        msg = 'rendered %d %s for %s, nothing sent: %s' % (
            len(requests), 'request' if len(requests) == 1 else 'requests', account.describe(),
            planned['msg'].split(': ', 1)[-1])
        for request in requests if not self.report.hide_names else ():  # one line each (a no_log task: none; bodies: the result)
            self.progress('network_state: would send %s %s (%s)' % (request['method'], request['path'], request['resource']))
        self.progress('network_state: %s' % msg.split(':', 1)[0])
        diff = [dict(before_header='%s (no request)' % account.describe(), after_header='the requests network_state would send',
                     before='', after=text)]
        return dict(changed=False, requests=requests, rendered=text, server_version=account.release,
                    summary=planned['summary'], msg=msg, diff=diff, progress=list(self.steps))

    def gather(self):
        """state=gathered: the server's network as a description (see _export), nothing written."""
        given = [name for name, dummy_cls in KINDS if self.params.get(name) is not None]
        given += [name for name in ('default_policy', 'created_secrets_file', MEMBERSHIPS) if self.params.get(name) is not None]
        given += ['prune'] if self.params['prune'] else []
        if given:
            raise TaskError('state=gathered reads the network and takes no description: remove %s' % ', '.join(
                'option %s' % name for name in given))
        description = gathered(self)
        counts = {kind: len(value) for kind, value in description.items() if isinstance(value, list)}
        return dict(changed=False, gathered=description, progress=list(self.steps), msg='gathered %s' % (', '.join(
            '%d %s' % (count, kind) for kind, count in counts.items()) or 'an empty network'))

    def hold_kind(self, entries):
        """Apply the entries of one kind; their results are held until their creates of names servers do not keep unique
        converged with concurrent runs' copies (see Settling and settle_held)."""
        for entry in entries:
            entry.resource.settling = self.settling
            self.held.append((entry, self.apply(entry)))

    def settle_held(self, kept=None):
        """Converge the held creates (one wait and one list per kind for all of them, see Settling) and report the held
        results, each reconciled with the copy kept where that is another run's; what was held is reported also when
        converging fails (a created setup key's value kept). ``kept``: the ids the run keeps per kind (for prune), and
        each kind's progress line, once its results are final."""
        held, self.held = self.held, []
        try:
            try:
                # an entry whose copy was discarded runs again: it finds the copy kept (the only one left in the run's
                # list) and reconciles with it, as a create converging by itself does
                discarded = {id(task) for task, copy in self.settling.settle() if copy is not None}
            except (ApiError, TaskError) as exc:
                raise self.failure('%s: converging the created ones with concurrent copies' % ', '.join(
                    self.settling.kinds_of(held)), exc) from exc
            held = [(entry, entry.resource.run() if id(entry.resource) in discarded else result) for entry, result in held]
        finally:
            for entry, result in held:
                self.report.add(entry, result)
        if kept is None:
            return held  # a failure's: the entry's failure tells the rest
        for entry, result in held:
            obj = result.get(entry.resource.result_key) or {}
            if isinstance(obj, dict) and obj.get('id') is not None:
                kept.setdefault(entry.kind, set()).add(ref_id(obj))
                entry.server_id = ref_id(obj)
        for kind in dict.fromkeys(entry.kind for entry, dummy in held):
            self.progress('network_state: %s' % self.report.kind_line(kind))
        return held

    def apply(self, entry):
        """Run the entry's resource (its whole lifecycle); a failure names the entry and what the run changed so far
        (the creates of its kind made before it converged first)."""
        self.applied += 1
        try:
            return entry.resource.run()
        except (ApiError, TaskError) as exc:
            self.settle_before_failing()
            raise self.failure(entry.where, exc) from exc

    def work_left(self):
        return 'network_state: %d of %d resources left' % (len(self.entries) - self.applied + 1, len(self.entries))

    def failure(self, where, exc):
        """The task's failure for an ApiError or TaskError met at ``where``, with what the run changed so far."""
        details = dict(status=exc.status, method=exc.method, path=exc.path) if isinstance(exc, ApiError) else {}
        return TaskError('%s: %s' % (where, exc), **dict(details, **self.report.so_far()))

    def settle_before_failing(self):
        """An entry failed: the creates held so far still converge and are reported (the failure is the entry's)."""
        try:
            self.settle_held()
        except (ApiError, TaskError):
            pass  # reported all the same (settle_held); the entry's failure is the one to tell

    @classmethod
    def holds_created_secret(cls, result):
        return any(isinstance(change, dict) and change.get('key') for change in result.get('changes') or ())

    def prune(self, kind, cls, kept, parent=None):
        """Delete what the description does not name: of the kind, or (``parent``) of the kind in that parent."""
        shared = connection(self)
        if parent is not None:
            if parent.server_id is None or planned(parent.server_id):
                return  # a parent check mode only plans holds nothing yet
            shared[cls.nested_in[2]] = parent.server_id
        elif cls.requires and not self.resolver.server.current:
            return  # an empty list of a kind a v0.27 server does not have: there is none to prune
        probe = entry_resource(self, cls, dict(shared), Entry(kind, None, '', None))
        for obj in list(probe.list_items()):
            if ref_id(obj) in kept or protected(kind, obj):
                continue
            params = dict(item_spec_defaults(cls), id=ref_id(obj), state='absent', **shared)
            entry = Entry(kind, None, entry_label(cls, obj), None)
            # found in the list just read; its usage was checked before the first write, against the state now reached
            entry.resource = entry_resource(self, cls, params, entry, found_in_list=True,
                                            usage_known=(kind, ref_id(obj)) in self.verified)
            self.report.add(entry, self.apply(entry), pruned=True)


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
                             + ('' if self.hide_names or not any(names) else ' (%s)' % ', '.join(shown)))
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
