# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The action strategy of the engine: a request the task sends when it runs (a job for a peer's agent, a password
change), not a state to converge on; and UnderParent, the path under a parent the task names, which the create-only
strategy (_strategy_create_only.py) shares. What differs between actions is data the kind declares (see Action's
attributes); the lifecycle is here:

the options checked -> a server that lacks it refused (the version probe) -> the parent -> the same request still
pending under it: reported, nothing sent -> check mode: the plan, nothing sent -> the request (an answer that means it
was taken already: no change, or a failure where the task says ``always``) -> optionally, the outcome waited for.
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils import _time
from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import OptionsError, TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import MISSING, Kind, display_name, placeholder_id
from ansible_collections.nms.overlay.plugins.module_utils._store import send
from ansible_collections.nms.overlay.plugins.module_utils._tables import RESOLVER_TABLE

ONCE_CHOICES = ('once', 'always')


def value_at(obj, place):
    """The value a dotted ``place`` ('workload.parameters.anonymize') holds in an object, else MISSING."""
    for key in place.split('.'):
        if not isinstance(obj, dict) or key not in obj:
            return MISSING
        obj = obj[key]
    return obj


def has_values(obj, values):
    """Whether an object holds all of ``values`` ({member: value}); never with no values."""
    return bool(values) and isinstance(obj, dict) and all(obj.get(name) == value for name, value in values.items())


class UnderParent:
    """A kind whose requests go under one object of another kind (``parent``: its resolver kind, and the option that
    names it by name or id; with no option, the one object ``parent_read`` answers, such as the token's own user), at
    ``sub_path`` below it. The parent is found once per task; a module or an info module of the kind shares this."""

    parent = (None, None)    # (resolver kind, option naming it) or (resolver kind, None) with parent_read
    parent_read = None       # the path of the one parent a task has (GET), where no option names it
    sub_path = ''

    @classmethod
    def full_argument_spec(cls):
        spec = super().full_argument_spec()
        if cls.parent[1]:
            spec.setdefault(cls.parent[1], dict(type='str', required=True))
        return spec

    @classmethod
    def parent_object(cls, task):
        """The parent as far as the task knows it: the object read (parent_read), else its id."""
        found = getattr(task, 'found_parent', None)
        if found is None:
            kind, option = cls.parent
            if cls.parent_read:
                found = task.client.get_object(cls.parent_read)
            else:
                found = {'id': task.resolver.to_id(kind, task.params[option], option)}
            task.found_parent = found
        return found

    @classmethod
    def parent_text(cls, task):
        """The parent in a message: as the task names it, else by the name of the object read, else its id."""
        kind, option = cls.parent
        if option:
            return task.params[option]
        found = cls.parent_object(task)
        return display_name(found, RESOLVER_TABLE[kind][2]) or ref_id(found)

    @classmethod
    def list_path(cls, task):
        return '%s/%s%s' % (RESOLVER_TABLE[cls.parent[0]][0], ref_id(cls.parent_object(task)), cls.sub_path)

    @property
    def path(self):
        return self.list_path(self)


class Action(UnderParent, Kind):
    """The strategy of a request taken when the task runs. Its body is the kind's fields, each where ``sent_as`` says
    (default: its name). Where the parent's path lists earlier requests, ``pending`` ({member: value}) marks those not
    run yet: one with the same body is the task's, reported without a second request (the oldest by
    ``oldest_first_by``). ``done_answers`` ({status: words of the message}) are answers that mean the request was taken
    already, which nothing can read beforehand: no change with ``done_warning``, or, where the task sets
    ``once_option`` to always, a failure with ``done_refusal`` (templates of {error} and {parent}). With
    ``poll_every`` the task may wait (options wait, wait_timeout) until the request is no longer pending: ``failed``
    ({member: value}) fails the task with the ``failed_reason`` member.

    The result holds the request's answer under ``result_key`` (none: the answer is not shown), the parent under
    ``parent_shown`` (result key, members), and whether this task took the action under ``taken_flag``."""

    singleton = True         # one request per task: no id, no state option
    has_id = False
    required_on_create = ()
    answers = {}
    method = 'POST'
    sent_as = {}
    pending = None
    oldest_first_by = None
    failed = None
    failed_reason = None
    poll_every = None
    wait_limit = 300         # the default of wait_timeout
    pending_hint = ''        # who takes a pending request, for the message of a wait that timed out
    info_module = None       # the module that reads the request later
    once_option = None
    done_answers = {}
    done_warning = ''
    done_refusal = ''
    parent_shown = None
    taken_flag = None

    @classmethod
    def full_argument_spec(cls):
        spec = super().full_argument_spec()
        if cls.poll_every:
            spec.update(wait=dict(type='bool', default=False), wait_timeout=dict(type='int', default=cls.wait_limit))
        if cls.once_option:
            spec[cls.once_option] = dict(type='str', choices=list(ONCE_CHOICES), default=ONCE_CHOICES[0])
        return spec

    def check_options(self):
        super().check_options()
        if self.poll_every and self.params['wait_timeout'] < 1:
            raise OptionsError('option wait_timeout: must be at least 1 (seconds)')

    def request_body(self, state, current_obj):
        body = {}
        for name, value in state.items():
            place = body
            keys = self.sent_as.get(name, name).split('.')
            for key in keys[:-1]:
                place = place.setdefault(key, {})
            place[keys[-1]] = value
        return body

    def run(self):
        """options -> server -> parent -> (pending copy | plan | request) -> outcome; every check before a request."""
        self.check_options()
        if self.requires or self.options_requiring:
            self.check_generation()
        self.check_server()
        parent = self.parent_object(self)
        state = self.new_state(self.desired())
        body = self.request_body(state, None)
        obj = self.pending_copy(state)
        took = obj is None
        if took and self.module.check_mode and self.result_key:
            obj = self.predict(dict(body, id=placeholder_id(self.what, state.get(self.natural_key)), **(self.pending or {})), None)
        elif took and not self.module.check_mode:
            took, obj = self.act(body)
        if took is not None and self.poll_every and self.params['wait'] and not self.module.check_mode:
            obj = self.outcome_of(obj, took)
        result = {'changed': bool(took)}
        if self.result_key:
            result[self.result_key] = self.to_result(obj) if obj is not None else {}
        if self.parent_shown:
            key, members = self.parent_shown
            result[key] = {member: parent.get(member) for member in members}
        if self.taken_flag:
            result[self.taken_flag] = bool(took)
        return result

    def pending_copy(self, state):
        """The request still pending under the parent with the same values, or None (and None where nothing is listed)."""
        if self.pending is None:
            return None
        same = [item for item in self.client.get_list(self.path) if has_values(item, self.pending)
                and all(value_at(item, self.sent_as.get(name, name)) == value for name, value in state.items())]
        if self.oldest_first_by:
            same.sort(key=lambda item: str(item.get(self.oldest_first_by) or ''))
        return same[0] if same else None

    def act(self, body):
        """The request: (True, its answer), or (None, None) when the server answers that it was taken already."""
        try:
            answer = send(self, self.method, self.path, body)
        except ApiError as exc:
            words = self.done_answers.get(exc.status, '')
            if exc.status not in self.done_answers or (words is not None and words not in str(exc.message).lower()):
                raise
            told = dict(error=exc, parent=self.parent_text(self))
            if self.once_option and self.params.get(self.once_option) == 'always':
                raise TaskError(self.done_refusal.format(**told)) from None
            self.warn(self.done_warning.format(**told))
            return None, None
        if self.result_key and not (isinstance(answer, dict) and answer.get('id')):
            raise self.client.answer_error(self.method, self.path, 'the answer is not the created %s' % self.what)
        return True, answer

    def outcome_of(self, obj, took):
        """Read the request until it is no longer pending, at most wait_timeout seconds; a failed one fails the task."""
        timeout = self.params['wait_timeout']
        deadline = _time.CLOCK.monotonic() + timeout
        path = '%s/%s' % (self.path, ref_id(obj))
        where = 'the %s %s on the %s %s' % (self.what, ref_id(obj), RESOLVER_TABLE[self.parent[0]][1], self.parent_text(self))
        while has_values(obj, self.pending):
            if _time.CLOCK.monotonic() >= deadline:
                raise TaskError('%s is still pending after %d seconds (%s); read it later with nms.overlay.%s'
                                % (where, timeout, self.pending_hint, self.info_module), changed=took,
                                **{self.result_key: self.to_result(obj)})
            _time.CLOCK.sleep(self.poll_every)
            obj = self.client.get_object(path)
        if has_values(obj, self.failed):
            raise TaskError('%s failed: %s' % (where, obj.get(self.failed_reason) or '(the server gives no reason)'),
                            changed=took, **{self.result_key: self.to_result(obj)})
        return obj
