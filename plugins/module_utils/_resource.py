# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The one lifecycle engine: find -> plan -> write -> report, and its strategies.

A resource kind is a declaration (plugins/module_utils/_resources/<kind>.py, see _kind.py) on ResourceModule (plain
CRUD, with converging creates for kinds whose natural key servers do not keep unique) or one of the strategies at the
end (UpdateOnly, Settings) or in _strategy_*.py (SecretOnCreate, OneTimeSetup, Action, CreateOnly); write-only values
are fields the kind marks (see _kind.Field); an info module is an InfoModule naming its kind.
"""

from __future__ import annotations

import copy

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._create import CreateOnce, exists_answer
from ansible_collections.nms.overlay.plugins.module_utils._diff import name_references
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Kind, display_name, keeps_unique, masked_write_only, placeholder_id, without_held_secrets
from ansible_collections.nms.overlay.plugins.module_utils._resolve import INDEXED_FROM, find_unique, plural
from ansible_collections.nms.overlay.plugins.module_utils._server import explain_forbidden
from ansible_collections.nms.overlay.plugins.module_utils._store import MAX_SETTLE, delete_path, planned, put_object, send, write_membership
from ansible_collections.nms.overlay.plugins.module_utils import _time
from ansible_collections.nms.overlay.plugins.module_utils._usage import refuse_used

# how often a list is read again while concurrent runs converge on one copy (see matching)
SETTLE_STEP = 1.0


def created_correction(task, before, state, obj):
    """After a create, the follow-up that gives the object what the task asks where servers create it otherwise
    (``created_as``: a router asked disabled, a key asked revoked): the update body, PUT at once; else none."""
    if before is not None or not task.created_as or not isinstance(obj, dict):
        return []
    asked = {name: state[name] for name, made in task.created_as.items()
             if state.get(name) is not None and state[name] != (made if obj.get(name) is None else obj[name])}
    if not asked:
        return []
    return [dict(method='PUT', path=task.object_path(obj), body=task.update_body(state, obj), expect=dict(obj, **asked))]


class ResourceModule(CreateOnce):
    """Ensures one resource is present with the given options, or absent: ``run`` is the whole lifecycle."""

    # what a strategy declares for the steps below, which none redefines (UpdateOnly, Settings, _strategy_*.py)
    not_creatable = None     # None: a missing object is created; else the failure, a template of {what}, {identity}, {name}
    updatable = True         # False: nothing is ever sent to change an object, a difference is a warning (see unchangeable)
    never_answered = ()      # fields no answer holds (a peer's public key): sent on create only, neither compared nor shown
    linked_through = None    # a resolver list the kind's ``choose`` reads, read again with the kind's own after a create
    retired = {}             # what a deletion sets where the server cannot delete (``can_delete``: setup keys on v0.27)
    retired_as = 'retired'   # what retiring one is called, for the warning (a setup key: revoked)
    absent_takes_namesakes = False  # state=absent found by name removes the other objects of the name (see with_namesakes)
    replace = None           # (old) -> the result of a new object replacing it, where the kind's ``replacement_wanted``
    replacement_converges = True  # whether a replacement's create converges with concurrent copies as a create does
    take_created = None      # (answer, body) -> the created object out of a create's answer (its value kept aside)
    create_failed = None     # (exc, body) -> a failed create as the strategy words it (raises; returning, exc is raised)
    report = None            # (result) -> the task's result as the strategy completes it, once its diff is masked

    def __init__(self, module=None, client=None, resolver=None, found_in_list=False, usage_known=False):
        """``found_in_list``: find by id in the list the task read (network_state read it), not with a GET;
        ``usage_known``: the caller checked, before its first write, that nothing refers to what it deletes."""
        super().__init__(module, client, resolver)
        for name, value in self.task_state.items():
            setattr(self, name, copy.deepcopy(value))
        self.find_in_list = self.list_only or found_in_list
        self.usage_known = usage_known
        self.replacing = None       # the object a replacement of the same name is being created for
        self.read_back = None       # why a create's object had to be read: 'lost', 'empty' or 'unreadable' answer
        self.read_absent = False    # whether the last read after a failed create found nothing (not: the read failed)
        self.unreadable_answer = None  # the ApiError of a create the server answered with success but unreadably
        self.started = _time.CLOCK.monotonic()
        self.listed = None          # the kind's list under its parent, read once per task (``cache_list``)

    def run(self):
        """find -> plan and write (the strategy's present or absent; in check mode only planned) -> report."""
        try:
            self.check_options()
            if self.requires or self.options_requiring:
                self.check_generation()
            absent = self.params.get('state') == 'absent'
            if not absent:
                self.check_server()
                self.resolver.will_resolve({field.ref for name, field in self.fields.items() if field.ref and self.params.get(name)})
            obj = self.find()
            if obj is not None and self.deleted_stays and not self.live(obj):  # found by id: deleted already
                obj = None if absent else refuse_deleted(self, obj)
            result = self.absent(obj) if absent else self.present(obj)
            result = self.finish(obj, result) if self.finish else result
            if 'diff' in result:
                result['diff'] = masked_write_only(result['diff'], self.write_only, self.secret_paths)
                result = name_references(self, result, obj)
            return self.report(result) if self.report else result
        except ApiError as exc:
            raise explain_forbidden(exc) from None  # a 403 that states a rule about the request: say the rule

    def find(self, fresh=False):
        """The object the task names: the singleton, by id (a GET, or in the list), else by natural key (the one, or
        "ambiguous, give the id"). ``fresh``: read the list again (it may predate a create); while a replacement is
        being created under the name of the object it replaces, that object is not the one sought."""
        if self.singleton:
            if fresh:
                self.resolver.forget(self.path)
            return self.resolver.settings(self.path, self.read_answer)
        if self.without_parent and self.without_parent():
            return None
        if fresh:
            for kind in (self.kind, self.linked_through):
                self.resolver.forget(kind)
            self.listed = None
        item_id, old = self.params.get('id'), self.replacing if fresh else None
        if old is not None:
            found = [item for item in self.list_items() if ref_id(item) != ref_id(old)
                     and item.get(self.natural_key) == old.get(self.natural_key) and self.may_replace(item)]
        elif item_id and self.find_in_list:
            return find_unique(self.list_items(), item_id, (), self.what, 'id')
        elif item_id:
            try:
                return self.client.get_object('%s/%s' % (self.path, item_id))
            except ApiError as exc:
                if exc.status == 404:
                    return None
                raise
        else:
            found = self.matching(self.live)
        if self.choose:
            return self.choose(found)
        if len(found) > 1:
            raise TaskError('%s matches %d %s (ids: %s); give the id to choose one' % (
                self.identity_text(), len(found), plural(self.what), ', '.join(sorted(ref_id(i) for i in found))))
        return found[0] if found else None

    def list_items(self, matching=False):
        """All objects of the kind, listed once per task and shared with name resolution (a kind under a parent: its list
        there, once per task where it says ``cache_list``, also held by the account-wide list; none when check mode plans).
        ``matching``: only those ``matches`` may take; of a long list, the few its index gives for the natural key (where
        the kind matches on that key alone), so that a run converging a thousand creates scans no list."""
        if self.kind:
            items, key = self.resolver.items(self.kind), self.params.get(self.natural_key)
            if matching and len(items) >= INDEXED_FROM and isinstance(key, str) and type(self).matches is Kind.matches:
                return self.resolver.narrowed(self.kind, items, key, (self.natural_key,))
            return items
        if self.listed is None or not self.cache_list:
            self.listed = self.client.get_list(self.path) if self.path is not None else []
            self.resolver.hold_current(self.also_listed, self.listed)
        return self.listed

    def matching(self, live=None):
        """The listed objects the task names (and ``live`` keeps). Where servers let objects share the natural key,
        several may be copies concurrent runs are converging on one (see converge): the list is read again every
        SETTLE_STEP s until one is left or the same ones stayed longer than a run needs to remove its copy."""
        waited = unchanged_for = 0.0
        found = None
        while found is None or (len(found) > 1 and not keeps_unique(self) and waited < 3 * MAX_SETTLE
                                and unchanged_for <= MAX_SETTLE + 2 * SETTLE_STEP):
            if found is not None:
                _time.CLOCK.sleep(SETTLE_STEP)
                waited += SETTLE_STEP
                self.resolver.forget(self.kind)
                self.listed = None
            again = [item for item in self.list_items(matching=True) if self.matches(item) and (live is None or live(item))]
            if found is None:
                found = again
                continue
            same = sorted(ref_id(item) for item in again) == sorted(ref_id(item) for item in found)
            unchanged_for = unchanged_for + SETTLE_STEP if same else 0.0
            found = again
        return found

    def present(self, obj):
        """Plan and write the object the options describe: created when missing (where the API creates one), else
        updated, or replaced by a new one where the strategy replaces and the kind wants it."""
        if obj is not None:
            return self.replace(obj) if self.replace and self.replacement_wanted(obj) else self.update(obj, self.desired())
        if self.not_creatable is not None:
            raise TaskError(self.not_creatable.format(what=self.what, identity=self.identity_text(), name=self.params.get(self.natural_key)))
        if self.singleton:
            raise TaskError('the server returned no %s' % self.what)
        if self.params.get('id'):
            raise TaskError('no %s with id %s exists; ids are given by the server, so create it by %s instead'
                            % (self.what, self.params['id'], self.natural_key))
        return self.create(self.desired())

    def absent(self, obj, namesake=False):
        """Plan and write the deletion of the object, when there is one (``confirm_delete`` passed); where the server
        cannot delete it (``can_delete``) it is retired: updated to the kind's ``retired`` values. Found by name, the
        other objects of the name go too where the kind says so (see with_namesakes)."""
        result = {'changed': False, self.result_key: {}}
        if obj is None:
            return result
        if self.absent_takes_namesakes and not namesake:  # (none taken when the task names the id: see namesakes)
            return with_namesakes(self, obj)
        if self.confirm_delete:
            self.confirm_delete(obj)
        if not self.can_delete(obj):
            return dict(self.update(obj, copy.deepcopy(self.retired)), revoked_only=True)
        kept = self.kept_from_delete(obj) if self.kept_from_delete else None
        if kept:  # the task's condition on the object, judged on the read just made (also in check mode)
            return dict(result, kept_because=kept, msg=kept, **{self.result_key: self.to_result(obj)})
        self.before_write(obj, None)
        if self.usage_checked and not self.usage_known:
            refuse_used(self, obj)  # also in check mode
        if not self.module.check_mode or not planned(self, 'DELETE', self.object_path(obj)):
            self.delete(obj)
        if self.kind or self.also_listed:
            self.resolver.drop(self.kind or self.also_listed, ref_id(obj))
        result.update(changed=True, diff=dict(before=self.from_server(obj), after={}))
        result[self.result_key] = self.to_result(obj)
        return result

    def create(self, desired):
        """POST the new object (never twice, see post_once), then its follow-ups; concurrent copies converge."""
        state = self.new_state(desired)
        self.before_write(None, state)
        body = self.request_body(state, None)
        result = {'changed': True, 'diff': dict(before={}, after={k: v for k, v in state.items() if k not in self.never_answered})}
        if self.module.check_mode and planned(self, 'POST', self.path, body):
            created = self.predict(dict(body, id=placeholder_id(self.what, display_name(state, (self.natural_key, 'name'))), **self.created_as), None)
        else:
            try:
                created = self.post_once(body)
            except ApiError as exc:
                if self.create_failed:
                    self.create_failed(exc, body)
                raise
            if created is None:  # "already exists": another run made it meanwhile; reconcile with theirs
                return self.update(self.find(), desired)
            created = self.take_created(created, body) if self.take_created else created
        created = self.follow(None, state, created, result)
        winner = None if self.module.check_mode or keeps_unique(self) else self.converge(created)
        if winner is not None:
            return self.update(winner, desired)
        self.remember(created)  # (a create the run's Settling converges later: run again then, if ours was discarded)
        result[self.result_key] = self.to_result(created)
        return result

    def update(self, obj, desired, again=False):
        """Compare the server object with the desired values; PUT what differs (keeping every field the task does not
        manage, see kept_fields), then the follow-ups; when one meets another run's write (follow), read and go again."""
        if not self.updatable:
            return unchangeable(self, obj, desired)
        original, current, wanted = obj, self.from_server(obj), desired
        desired = self.prepare_update(obj, dict(desired)) if self.prepare_update else dict(desired)
        if self.params.get('update_secret') != 'always':
            for name in self.write_only:  # cannot be compared: sent on create, on an update only when asked
                desired.pop(name, None)
            for name in [n for n in self.secret_paths if n in desired]:  # and members: also where their holder is turned on
                desired[name] = without_held_secrets(desired[name], obj.get(name) if isinstance(obj, dict) else None, self.secret_paths[name])
        desired = self.merge_desired(current, desired) if self.merge_desired else desired
        for name in [n for n in desired if self.fields[n].immutable]:
            if current.get(name) != desired[name]:
                self.warn('%s cannot change after the %s is created: the existing value %s is kept, not %s; replace the %s '
                          'to change it' % (name, self.what, self.shown(current.get(name)), self.shown(desired[name]), self.what))
            del desired[name]
        changed = [name for name in desired if not (self.same(name, current.get(name), desired[name]) if self.same
                                                    else current.get(name) == desired[name])]
        state = dict(current, **desired)
        result = {'changed': bool(changed), 'diff': dict(before={k: current.get(k) for k in changed}, after={k: desired[k] for k in changed})}
        if changed:
            if self.natural_key in changed and not self.singleton and self.rename_checked:
                self.check_rename(obj, desired[self.natural_key])
            carried = obj if isinstance(obj, dict) else {}
            for name in [n for n, field in self.fields.items() if field.requires and n not in desired and n not in carried]:
                del state[name]  # a field of today's servers neither set nor carried: an older server never gets it
            self.before_write(obj, state)
            obj = put_object(self, obj, self.update_body(state, obj))
        updated = self.follow(original, state, obj, result, again) if self.follow_ups else obj  # no call an unchanged task can spare
        if updated is None:
            return self.update(self.find(fresh=True), wanted, again=True)
        if result['changed']:
            self.remember(updated)
        if not any(result['diff'].values()):
            result.pop('diff')
        result[self.result_key] = self.to_result(updated)
        return result

    def follow(self, before, state, obj, result, again=False):
        """Send a created object's correction (created_correction) and the kind's follow-ups for a written (or planned)
        object; returns it as they leave it, or None when a step answers ``exists`` (another run's singleton; once: ``again``)."""
        for step in [*created_correction(self, before, state, obj), *(self.follow_ups(before, state, obj) if self.follow_ups else ())]:
            if self.module.check_mode and planned(self, step=step):
                answer = None
            elif 'member' in step:  # the membership strategy: a whole member list written safely (see _store.write_members)
                answer = write_membership(self, **step['member'])
            elif step['method'] == 'GET':
                answer = self.client.get_object(step['path'])
            else:
                try:
                    answer = send(self, step['method'], step['path'], step.get('body'))
                except ApiError as exc:
                    if again or not exists_answer(step.get('exists'), exc):
                        raise
                    return None
            obj = answer if isinstance(answer, dict) and answer and step.get('use_answer', True) else step.get('expect', obj)
            result['changed'] = True
            for side in ('before', 'after'):
                if step.get(side):
                    result.setdefault('diff', {}).setdefault(side, {}).update(step[side])
        return obj

    def delete(self, obj):
        """Delete the object, or retire it where the server cannot (see absent); returns what was done, for a warning."""
        if not self.can_delete(obj):
            put_values(self, obj, self.retired)
            return self.retired_as
        delete_path(self, self.object_path(obj))
        return 'deleted'

    def remember(self, obj):
        """Keep the shared list (or singleton) current after a write, so later tasks of one run see it."""
        if self.singleton and isinstance(obj, dict):
            self.resolver.keep_settings(self.path, obj)
        if (self.kind or self.also_listed) and isinstance(obj, dict) and obj.get('id') is not None:
            self.resolver.replace(self.kind or self.also_listed, obj)

    def check_rename(self, obj, new_value):
        """Refuse, before any write, to give this object a natural key another object of its kind has, where servers
        keep it unique: they check names only on create (a PUT may rename a group onto another's name)."""
        if not keeps_unique(self) or new_value in (None, ''):
            return
        others = sorted(ref_id(item) for item in self.list_items() if item.get(self.natural_key) == new_value and ref_id(item) != ref_id(obj))
        if others:
            raise TaskError("option %s: cannot rename the %s '%s' (id %s) to '%s': the %s with %s %s already %s that %s, and %s %ss "
                            "must be unique" % (self.natural_key, self.what, obj.get(self.natural_key), ref_id(obj), new_value,
                                                plural(self.what, len(others)), 'id' if len(others) == 1 else 'ids', ', '.join(others),
                                                'has' if len(others) == 1 else 'have', self.natural_key, self.what, self.natural_key))


class UpdateOnly(ResourceModule):
    """The strategy of kinds the API cannot create (peers join with setup keys): found, then updated or deleted."""

    not_creatable = 'no {what} with {identity} exists'  # a kind adds why, and how one comes to exist


class Settings(ResourceModule):
    """The strategy of a singleton (DNS settings, account settings): read and updated; ``state: absent`` deletes it
    only where the kind says how it is confirmed (``confirm_delete``)."""

    singleton = True
    has_id = False
    answers = {}
    required_on_create = ()


def unchangeable(task, obj, desired):
    """The update of a kind whose objects servers cannot change: nothing to send; what the task wants otherwise is a
    warning, the object as it is the result."""
    current = task.from_server(obj)
    for name, value in desired.items():
        field, have = task.fields[name], current.get(name)
        if name in task.never_answered or (sorted(have or []) == sorted(value) if field.many else have == value):
            continue
        text, them = ((lambda values: ', '.join(values or [])), 'them') if field.many else (str, 'it')
        task.warn('the %s %s keeps its %s %s, not %s: servers cannot change %s; delete it (state: absent) and create it '
                  'again to change %s' % (task.what, task.shown(obj.get(task.natural_key)), name, text(have), text(value), them, them))
    return {'changed': False, task.result_key: task.to_result(obj)}


def namesakes(task, obj):
    """The other objects of the name state=absent removes with ``obj`` (none unless ``absent_takes_namesakes``, or
    when the task names the id)."""
    if obj is None or not task.absent_takes_namesakes or task.params.get('id'):
        return []
    return [item for item in task.list_items() if task.matches(item) and ref_id(item) != ref_id(obj)]


def with_namesakes(task, obj):
    """state=absent of ``obj`` and of the other objects of its name (revoked setup keys of the name stay listed): one
    result, whose diff headers name every object removed."""
    others = namesakes(task, obj)
    result = task.absent(obj, namesake=True)
    removed = []
    for other in others:
        done = task.absent(other, namesake=True)
        if done.get('changed'):
            removed.append(ref_id(other))
            if not result.get('changed'):
                result.update(changed=True, diff=done.get('diff'))
    if removed and isinstance(result.get('diff'), dict):
        header = "%s '%s' (ids %s)" % (plural(task.what), task.params.get(task.natural_key), ', '.join(sorted([ref_id(obj)] + removed)))
        result['diff'] = dict(result['diff'], before_header=header, after_header=header)
    return result


def put_values(task, obj, values):
    """PUT the object with these values over its own (what the task does not manage kept): a retired or replaced
    object's new values."""
    return send(task, 'PUT', task.object_path(obj), task.update_body(dict(task.from_server(obj), **copy.deepcopy(values)), obj))


def refuse_deleted(task, obj):
    """A kind whose deleted objects stay listed (``deleted_stays``: a revoked token) cannot bring one back: refuse
    ``state: present`` on such an id, naming how to make a new one."""
    raise TaskError('the %s with id %s is %s, and a %s %s cannot be used again; create a new one by %s instead'
                    % (task.what, ref_id(obj), task.deleted_stays, task.deleted_stays, task.what, task.natural_key))
