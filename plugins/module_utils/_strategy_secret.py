# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The secret-on-create strategy of the engine: kinds whose value the server shows once, in the answer to the create
that makes it (setup keys, personal access tokens). What differs between them is data they declare (see
SecretOnCreate's attributes)."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule, put_values
from ansible_collections.nms.overlay.plugins.module_utils._secrets import OPTION as SECRETS_FILE
from ansible_collections.nms.overlay.plugins.module_utils._secrets import check_secrets_file, keep_created_secret, secrets_file_options


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


def _any_value(value, read_back):
    return value or None


class SecretOnCreate(ResourceModule):
    """The strategy of kinds whose value the server shows once, in the answer to the create that makes it (setup
    keys, personal access tokens). The value is kept aside from the created object and put into the task's result
    at the end (``secret_at``), so that no other step ever shows it. A new one replaces an existing one under the
    same name when the task asks (``replacement_wanted``: a token's rotate, an invalid setup key's replace_invalid),
    and the old one is then deleted or set to ``replaced_values``. Where the server cannot delete one (``can_delete``:
    setup keys on v0.27), state absent sets the ``retired`` values instead (revoked, holding no group)."""

    # where a create's value is in the result: in the result's object ('object', a setup key's key) or beside it
    # ('result', a token's plain_token), under which member (the create's answer has it under that member too); and
    # the created_secrets_file section it is kept under
    secret_at = ('object', None)
    secret_section = None
    answer_member = None     # the member of a create's answer that holds the created object (None: the answer is it)
    # a function of (the value a create gave, whether the object was read back) giving the value as shown, or None
    # when there is none a client can use (it raises TaskError for a value of a shape no client can use)
    secret_value = staticmethod(_any_value)
    # what a create whose value is lost (an answer that did not come, or carried none) does: 'warn' (the object is the
    # result, without a value) or 'fail' (a TaskError that reports the change); ``value_hint`` says how to get one
    on_lost_value = 'warn'
    value_hint = ''
    replaced_values = None   # what becomes of the object a replacement replaces: None (deleted) or these values (revoked)
    status_of = None         # None, or a function of an object giving its status for the replacement's diff header

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.created_secret = None  # (id, value) of the object this task created and whose value it got

    @classmethod
    def full_argument_spec(cls):
        spec = super().full_argument_spec()
        spec.update(secrets_file_options())
        return spec

    def own_task(self):
        """Whether this is the task's own module (network_state describes its keys without the secrets options)."""
        return SECRETS_FILE in self.params

    def check_options(self):
        super().check_options()
        if self.own_task():
            check_secrets_file(self.params)  # before anything is made, check mode too

    def report(self, result):
        """The result with the value this task's create got, kept in created_secrets_file when the task asks."""
        result = self.with_created_secret(result)
        obj, holder, member = self.created_value(result)
        if self.own_task() and holder is not None:
            keep_created_secret(self, holder, member, self.what, self.secret_section, self.secret_name(obj), ref_id(obj))
        return result

    def with_created_secret(self, result):
        """The result with the value of the object it shows, when this task created that object and got its value."""
        obj = result.get(self.result_key)
        if self.created_secret is None or not isinstance(obj, dict) or ref_id(obj) != self.created_secret[0]:
            return result
        container, member = self.secret_at
        result = dict(result)
        if container == 'object':
            result[self.result_key] = dict(obj, **{member: self.created_secret[1]})
        else:
            result[member] = self.created_secret[1]
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

    # -- the create and its value --------------------------------------------------------------------
    def create_failed(self, exc, body):
        """When the answer was lost and the read that would tell whether the object was made failed too, a kind that
        fails on a lost value says that it may exist now."""
        if self.on_lost_value == 'fail' and self.read_back in ('lost', 'unreadable') and not self.read_absent:
            raise TaskError(lost_value_message(
                "the %s '%s' may exist now" % (self.what, body.get(self.natural_key)),
                'check with nms.overlay.%s_info; if it exists, %s' % (self.result_key, self.value_hint), True,
                self.unreadable_answer) + ' (%s)' % exc, status=exc.status, method=exc.method, path=exc.path) from None

    def take_created(self, answer, body):
        """The created object taken out of the create's answer, its value kept aside (``created_secret``)."""
        # why the object was read back (None: a create answered with it, a retried one too, after a read found none)
        read_back = None if self.read_absent else self.read_back
        obj = answer if read_back or self.answer_member is None else answer.get(self.answer_member)
        obj = obj if isinstance(obj, dict) else {}
        try:
            value = self.secret_value(answer.get(self.secret_at[1]), bool(read_back))
        except TaskError as exc:  # its message never shows the value
            if ref_id(obj) is None:
                raise
            raise TaskError('%s; the %s was created (id %s): %s' % (exc, self.what, ref_id(obj), self.value_hint),
                            changed=True, **{self.result_key: self.to_result(obj)}) from None
        if value is None:
            self.value_lost(obj, body, read_back)
        else:
            self.created_secret = (ref_id(obj), value)
        return obj

    def value_lost(self, obj, body, read_back):
        """A created object whose value this task did not get: a warning, or (``on_lost_value``) a failure that
        reports the change, after the object it replaces went as asked."""
        name, hint = body.get(self.natural_key), self.value_hint
        warn = self.on_lost_value == 'warn'  # a warning shows even for a task with no_log: the name only as it may
        what = "the %s %s was created (id %s)" % (self.what, self.shown(name, "'%s'") if warn else "'%s'" % name, ref_id(obj))
        if warn:
            self.warn(lost_value_message(what, hint, read_back == 'lost', self.unreadable_answer))
            return
        if self.replacing is not None:
            self.retire_replaced(self.replacing)
            hint = 'the old %s (id %s) is %s as asked; %s' % (self.what, ref_id(self.replacing), self.replaced_as(), hint)
        raise TaskError(lost_value_message(what, hint, read_back == 'lost', self.unreadable_answer),
                        changed=True, **{self.result_key: self.to_result(obj)})

    # -- replacing one -------------------------------------------------------------------------------
    def replace(self, old):
        """A new object under the old one's name, with its values unless the task says otherwise (``new_state`` may
        read ``replacing``), then the old one goes as ``replaced_values`` says. The diff shows the old one's values
        before the new one's, and headers that tell them apart."""
        current = {name: value for name, value in self.from_server(old).items() if value is not None}
        wanted = dict(current, **self.desired())
        self.replacing = old
        try:
            result = self.create(wanted)
        finally:
            self.replacing = None
        hidden = self.replaced_values or {}  # the header tells what becomes of the old one
        fate = self.replaced_fate(old)
        said = "(id %s, %s, %s)" % (ref_id(old), self.status_of(old), fate) if self.status_of else "(id %s), %s" % (ref_id(old), fate)
        after = (result.get('diff') or {}).get('after') or {}
        result['replaced_id'] = ref_id(old)
        result['diff'] = dict(before={k: v for k, v in current.items() if k not in hidden},
                              after={k: v for k, v in after.items() if k not in hidden},
                              before_header="%s '%s' %s" % (self.what, old.get(self.natural_key), said),
                              after_header="new %s '%s'" % (self.what, wanted.get(self.natural_key)))
        if not self.module.check_mode:
            self.retire_replaced(old)
        return result

    def replaced_as(self):
        return 'deleted' if self.replaced_values is None else self.retired_as

    def replaced_fate(self, old):
        """What becomes of a replaced object, for the diff header: so already, or by this task."""
        if self.replaced_values is not None and self.already(old, self.replaced_values):
            return 'already %s' % self.replaced_as()
        return '%s by this task' % self.replaced_as()

    def retire_replaced(self, old):
        if self.replaced_values is None:
            self.delete(old)
        elif not self.already(old, self.replaced_values):
            answer = put_values(self, old, self.replaced_values)
            if isinstance(answer, dict) and answer:
                self.remember(answer)

    @staticmethod
    def already(obj, values):
        return all(obj.get(name) == value for name, value in values.items())
