# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Invite links of today's servers with the embedded identity provider (the user_invite module and user_invite_info):
the operator's side only. The invitee's side (GET /api/users/invites/{token}, POST .../accept) is run by the invitee,
with the link, not by the operator: no module has it."""

from __future__ import annotations

import datetime

from ansible_collections.nms.overlay.plugins.module_utils._client import FLAG, TEXT
from ansible_collections.nms.overlay.plugins.module_utils._compare import lower, ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._strategy_secret import SecretOnCreate
from ansible_collections.nms.overlay.plugins.module_utils._time import iso_time, now
from ansible_collections.nms.overlay.plugins.module_utils._resources.user import CURRENT_ROLES, ROLES

INVITE_LINKS = 'invite links'  # what a v0.27 server lacks (named when it refuses these modules)
TOKEN = 'invite_token'
# servers refuse an invite for the owner role (422 "can't invite a user with owner role")
INVITE_ROLES = tuple(role for role in ROLES + CURRENT_ROLES if role != 'owner')
DEFAULT_EXPIRES_IN = 72 * 3600   # what servers give an invite when the request says nothing


def public_invite(item):
    """An invite as returned to the user: the link's token only where the task made it (see SecretOnCreate)."""
    if not isinstance(item, dict):
        return item
    return {key: value for key, value in item.items() if key != TOKEN}


def regenerate_answer(item):
    """Whether an answer is a regenerate's ({invite_token, invite_expires_at}), not an invite."""
    return isinstance(item, dict) and 'invite_expires_at' in item and 'id' not in item


def joined_user(user):
    """The user an accepted invite made, as the result names it."""
    return {key: user.get(key) for key in ('id', 'email', 'name', 'role', 'status')}


class UserInviteModule(SecretOnCreate):
    """An invite link for a new user (email, name, role, auto groups): created (its token shown once), regenerated
    on request, deleted. Servers have no update: what differs from an existing invite is a warning."""

    path = '/users/invites'
    what = 'user invite'
    natural_key = 'email'
    requires = INVITE_LINKS
    # every operation the modules call; there is no GET of one invite and no PUT
    api_operations = ('GET /api/users/invites', 'POST /api/users/invites', 'DELETE /api/users/invites/{inviteId}',
                      'POST /api/users/invites/{inviteId}/regenerate')
    list_only = True
    cache_list = True        # the list is read once per task (again only after a create)
    unique_names = True      # one invite per email (409 "invite already exists for this email")
    exists_answers = {409: 'invite already exists'}
    secret_at = ('object', TOKEN)
    secret_section = 'user_invites'
    on_lost_value = 'fail'
    value_hint = 'run the task again with regenerate: true to get a new link (the old one stops working)'
    answers = dict(id=None, expires_at=TEXT, created_at=TEXT, expired=FLAG, invite_token=TEXT, invite_expires_at=TEXT)
    required_on_create = ('email', 'name', 'role')
    fields = dict(
        email=Field(norm=lower, immutable=True),
        name=Field(immutable=True),
        role=Field(dict(type='str', choices=list(INVITE_ROLES)), norm=lower, immutable=True),
        auto_groups=Field('list', ref='groups', many=True, initial=[], immutable=True),
    )
    options = dict(
        expires_in=dict(type='int'),
        regenerate=dict(type='bool', default=False),
    )
    shape = staticmethod(public_invite)
    required_one_of = (('id', 'email'),)
    # an email that looks like one (real v0.77.1 invites 'nobody'), a lifetime of at least an hour
    model = 'identity.UserInviteOptions'
    # the user an accepted invite made (no invite is left then), and the invite a regenerate renews
    task_state = dict(_joined=None, _renewed=None)

    def matches(self, item):
        return lower(item.get('email')) == lower(self.params.get('email'))

    def choose(self, found):
        """The invite of the email; with none, for a task that wants one, the user of that email when there is one:
        the invite was accepted (or the user made otherwise), and nothing is left to invite."""
        if len(found) > 1:  # servers keep one invite per email: only a differently written email could repeat
            raise TaskError('%s matches %d invites (ids: %s); give the id to choose one'
                            % (self.identity_text(), len(found), ', '.join(sorted(ref_id(item) for item in found))))
        if found or self.params.get('state') == 'absent':
            return found[0] if found else None
        users = [user for user in self.resolver.items('users') if self.matches(user)]
        if users:
            self._joined = users[0]
            return {}
        return None

    def prepare_update(self, obj, desired):
        if self._joined is not None:
            return {}  # an accepted invite: nothing to compare
        if obj.get('expired') and not self.params.get('regenerate'):
            self.warn('the invite for %s expired at %s and its link no longer works; regenerate: true makes a new link'
                      % (self.shown(obj.get('email'), '%s'), obj.get('expires_at')))
        return desired

    def request_body(self, state, current_obj):
        body = {name: state.get(name) for name in self.fields}
        body['auto_groups'] = body['auto_groups'] or []
        if current_obj is None and self.params.get('expires_in') is not None:
            body['expires_in'] = self.params['expires_in']
        return body

    def follow_ups(self, before, state, obj):
        """A new link for an existing invite when the task asks (regenerate): a new token, the old one void."""
        if before is None or not self.params.get('regenerate'):
            return []
        if self._joined is not None:
            self.warn('no invite is left for %s to regenerate: a user of that email exists (id %s)'
                      % (self.shown(self.params.get('email'), '%s'), ref_id(self._joined)))
            return []
        self._renewed = obj
        expires_in = self.params.get('expires_in')
        body = {} if expires_in is None else {'expires_in': expires_in}
        expires_at = iso_time(now() + datetime.timedelta(seconds=expires_in or DEFAULT_EXPIRES_IN))
        return [dict(method='POST', path='%s/%s/regenerate' % (self.path, ref_id(obj)), body=body,
                     expect=dict(obj, expires_at=expires_at, expired=False),
                     before={'expires_at': obj.get('expires_at')}, after={'expires_at': expires_at})]

    def to_result(self, obj):
        if self._joined is not None:
            return {}
        if regenerate_answer(obj) and self._renewed is not None:
            # the new link, kept aside as a create's value is, to be put into the result at the end (SecretOnCreate)
            self.created_secret = (ref_id(self._renewed), obj.get(TOKEN))
            obj = dict(self._renewed, expires_at=obj.get('invite_expires_at'), expired=False)
        return self.result_shape(obj)

    def finish(self, obj, result):
        if self._joined is not None:
            result['user'] = joined_user(self._joined)
        return result

    def secret_name(self, obj):
        """Kept under the invitee's email in created_secrets_file."""
        return obj.get('email')
