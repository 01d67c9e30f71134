# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The one-time setup strategy of the engine: an action a server takes once in its life, without authentication
(nothing to authenticate with exists yet), whose answer carries a value shown only there (the instance's first owner
and that owner's personal access token). What differs between such actions is data the kind declares (see
OneTimeSetup's attributes); the lifecycle is here.

read the status (the one probe: a server without it is refused) -> done already: changed=false, nothing sent ->
check mode: the plan, nothing sent -> the action, once (an answer that says another run was first is "done"; an
answer that was lost is told apart by reading the status again) -> the value kept aside, written to
created_secrets_file, returned unless return_created_secrets=false (the action plugin then hides the result).
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Kind, placeholder_id
from ansible_collections.nms.overlay.plugins.module_utils._server import feature_release
from ansible_collections.nms.overlay.plugins.module_utils._secrets import check_secrets_file, keep_created_secret, secrets_file_options
from ansible_collections.nms.overlay.plugins.module_utils._store import send


class OneTimeSetup(Kind):
    """The strategy of an unauthenticated one-shot action with a secret answer (the instance's setup).

    ``path`` is read (GET) for the status, whose ``pending_member`` is true while the action is still to be taken;
    ``action_path`` takes it (POST, the kind's fields as its body). The task takes it only when it sets the
    ``required_together`` options (otherwise it reports the status). ``done_answers`` ({status: words or None}) are
    the action's answers that mean it was taken already (by another run since the status was read): done, not a
    failure. The answer's ``secret_member`` is the value shown once: it goes to the result under that member (hidden
    by the action plugin), to created_secrets_file under ``secret_section`` and ``secret_name``; the rest of the answer
    is the result's ``answer_key``. ``value_wanted_by`` names the option that asks for the value; an answer without
    one then warns with ``value_hint``. ``requires`` names the feature for the refusal of a server that lacks it (one
    that answers the status read with 404 or 405: v0.27).
    """

    authenticated = False   # nothing to authenticate with exists before the action
    singleton = True        # one per server: no id, no state option
    has_id = False
    required_on_create = ()
    answers = {}
    action_path = None
    pending_member = None
    done_answers = {412: None}
    answer_key = None
    secret_member = None
    secret_section = None
    value_wanted_by = None
    value_hint = ''
    lost_value = ''   # what is lost with an answer that never came or could not be read (%s: the natural key's value)
    lost_hint = ''    # how to recover from it (%s: the natural key's value)

    @classmethod
    def full_argument_spec(cls):
        spec = super().full_argument_spec()
        spec.update(secrets_file_options())
        return spec

    @classmethod
    def holds_created_secret(cls, result):
        return bool(isinstance(result, dict) and result.get(cls.secret_member))

    def run(self):
        """status -> (done | report | plan | the action) -> the value kept; every check before the first request."""
        self.check_options()
        check_secrets_file(self.params)
        acting = all(self.params.get(name) is not None for group in self.required_together for name in group)
        state = self.new_state(self.desired()) if acting else None
        if not self.pending():
            return {'changed': False, self.result_key: {self.pending_member: False}}
        if state is None:  # asked for the status only
            return {'changed': False, self.result_key: {self.pending_member: True}}
        shown = {name: value for name, value in state.items() if not self.fields[name].spec.get('no_log')}
        result = {'changed': True, self.result_key: {self.pending_member: False},
                  'diff': dict(before={self.pending_member: True}, after=dict(shown, **{self.pending_member: False}))}
        if self.module.check_mode:
            natural = state.get(self.natural_key)
            result[self.answer_key] = {self.natural_key: natural, 'user_id': placeholder_id('user', natural)}
            return result
        answer = self.act(self.request_body(state, None))
        if answer is None:  # another run was first: done, and its value is not ours
            return {'changed': False, self.result_key: {self.pending_member: False}}
        value = answer.pop(self.secret_member, None)
        result[self.answer_key] = self.to_result(answer)
        if value:
            result[self.secret_member] = value
            keep_created_secret(self, result, self.secret_member, 'token', self.secret_section, self.secret_name(state),
                                answer.get('user_id'))
        elif self.value_wanted_by and state.get(self.value_wanted_by):
            self.warn(self.value_hint)
        return result

    def pending(self):
        """Whether the action is still to be taken: the status read, the task's one probe of the server (a v0.27
        server, which lacks it, is refused here, before any other request)."""
        try:
            status = self.client.get_object(self.path)
        except ApiError as exc:
            if exc.status in (404, 405):
                release = feature_release(self.requires)
                raise TaskError('this server (v0.27: it has no GET /api%s) does not have %s, which came with NetBird %s; '
                                'upgrade the server to %s or later to set it up this way' % (self.path, self.requires, release, release)) from None
            raise
        flag = status.get(self.pending_member)
        if not isinstance(flag, bool):
            raise self.client.answer_error('GET', self.path, 'the answer has no %s (true or false)' % self.pending_member)
        return flag

    def act(self, body):
        """The action, sent once: its answer (an object), or None when the server says it was taken already. An answer
        that came cut off or unreadable (a success status) means the action was taken and its value lost; one that never
        came (or a server failure) is told apart by the status: still pending, nothing happened (the error stands, a
        re-run is safe); no longer pending, the action was taken and its value is lost. The action is never sent again:
        a second one would only be answered that it was taken already."""
        try:
            answer = send(self, 'POST', self.action_path, body)
        except ApiError as exc:
            words = self.done_answers.get(exc.status, '')
            if exc.status in self.done_answers and (words is None or words in str(exc.message).lower()):
                self.warn('%s: the server answered that it was done already (another run was first since this task '
                          'read GET %s); nothing was changed' % (exc, self.client.url_for(self.path)))
                return None
            taken = exc.status is not None and 200 <= exc.status < 300  # answered with success, then cut off
            if not taken and (exc.status is not None and exc.status < 500 or self.pending()):
                raise
            return self.lost_answer(exc, body)
        if not isinstance(answer, dict):
            raise self.client.answer_error('POST', self.action_path, 'the answer is not an object')
        return answer

    def lost_answer(self, exc, body):
        """The action was taken but its answer is lost: a failure that reports the change when the task asked for the
        value (the answer alone carried it), else a warning (the result then lacks what only the answer held)."""
        # what the client says of the answer, never its text (a cut-off answer may hold part of the value)
        how = exc.message if exc.status is None or 'not valid JSON' not in exc.message else 'the answer is not valid JSON'
        what = 'POST %s %s (%s)' % (self.client.url_for(self.action_path), 'was answered, but the answer could not be read'
                                    if exc.status else 'got no answer', how)
        natural = body.get(self.natural_key)
        if self.value_wanted_by and body.get(self.value_wanted_by):
            raise TaskError('%s; yet the action was taken: %s. %s' % (what, self.lost_value % natural, self.lost_hint % natural),
                            changed=True, status=exc.status, method='POST', path=self.action_path) from None
        self.warn('%s; the action was taken all the same (the result lacks what only the answer held)' % what)
        return {self.natural_key: natural}
