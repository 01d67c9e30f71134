# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Users: service users, and regular users invited by email (the user module, user_info and network_state)."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError, FLAG, OBJECT, TEXT
from ansible_collections.nms.overlay.plugins.module_utils._compare import lower, ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._server import refused_release
from ansible_collections.nms.overlay.plugins.module_utils._resources.account_settings import account_of


# the roles of v0.27 servers, and those today's servers (v0.77) add
ROLES = ('owner', 'admin', 'user')
CURRENT_ROLES = ('network_admin', 'auditor', 'billing_admin')
# the release that brought each (NetBird commits 208a2b716, dbf81a145, 39483f8ca; docs/compatibility.md)
ROLE_RELEASES = dict(network_admin='v0.43.0', auditor='v0.43.0', billing_admin='v0.30.1')
APPROVE, REJECT = 'approved', 'rejected'


def check_role_change(task, current_obj, role):
    """Refuse, before any write, the role changes servers refuse whatever the caller's permissions."""
    if role in (None, current_obj.get('role')):
        return
    if current_obj.get('is_current'):
        raise TaskError("option role: the user %s is the one this task acts as, and nobody can change their own role "
                        "(servers refuse it, for the owner too: \"admins can't change their role\"); to hand the "
                        "ownership over, give another user the role owner" % task.identity_text())
    if role == 'owner' and current_obj.get('is_service_user'):
        raise TaskError("option role: the user %s is a service user, and a service user cannot be the owner (servers "
                        "refuse it: \"can't update a service user with owner role\")" % task.identity_text())


def dashboard_view(task, user):
    """What the server reports as permissions.dashboard_view for this user: full for admins and owners; for role user,
    blocked or limited by the account's regular_users_view_blocked (read from another user of role user in the list
    the task read, else from the account)."""
    if user.get('role') in ('admin', 'owner'):
        return 'full'
    for other in task.resolver.cached('users') or []:
        view = (other.get('permissions') or {}).get('dashboard_view')
        if other.get('role') == 'user' and view in ('limited', 'blocked'):
            return view
    try:
        account = account_of(task)
    except ApiError:
        return ''
    settings = account.get('settings') if isinstance(account, dict) else None
    if not isinstance(settings, dict):
        return ''
    return 'blocked' if settings.get('regular_users_view_blocked') else 'limited'


def holds_generated_password(result):
    """Whether a user task's result holds the password a server generated for the user it created."""
    user = result.get('user') if isinstance(result, dict) else None
    return isinstance(user, dict) and bool(user.get('password'))


class UserModule(ResourceModule):
    """A service user, or a regular user invited by email; role, auto groups and blocked state."""

    path = '/users'
    what = 'user'
    kind = 'users'
    lookup = ('email', 'name')
    natural_key = 'email'
    # answer-only: pending_approval and idp_id come from today's servers (v0.77), which no PUT takes
    # permissions.dashboard_view: a member of an answer-only field, checked as the fields are
    answers = dict(id=None, status=TEXT, last_login=TEXT, is_current=FLAG, issued=TEXT, permissions=OBJECT, pending_approval=FLAG,
                   idp_id=TEXT, dashboard_view=TEXT)
    list_only = True       # the API has no GET /users/{id}
    created_as = dict(is_blocked=False)  # the create request has no is_blocked: a user asked blocked is then blocked by a PUT
    # beyond its own path: approval, a resent invitation (follow_ups), a pending user's rejection (object_path)
    api_operations = ('POST /api/users/{userId}/approve', 'POST /api/users/{userId}/invite', 'DELETE /api/users/{userId}/reject')
    required_on_create = ()
    model = 'identity.UserOptions'
    fields = dict(
        email=Field(norm=lower, immutable=True),
        name=Field(immutable=True),
        is_service_user=Field('bool', norm=bool, immutable=True, server_default=False),
        role=Field(dict(type='str', choices=list(ROLES + CURRENT_ROLES)), norm=lower),
        auto_groups=Field('list', ref='groups', many=True, initial=[]),
        is_blocked=Field('bool', norm=bool, initial=False),
    )
    options = dict(
        resend_invitation=dict(type='bool', default=False),
        approval=dict(type='str', choices=[APPROVE, REJECT]),
    )
    unique_names = 'email'  # servers refuse a second user of an email (409); service users' names may repeat
    task_state = dict(_invitation_sent=False)
    required_one_of = (('id', 'email', 'name'),)
    options_requiring = {'approval': 'v0.77'}  # refused by a v0.27 server for state absent too (check_generation)

    # a regular user created on a server with the embedded identity provider comes with the password it generated, in
    # the create's answer only: the result that holds it is hidden from Ansible's output (register it to use it)
    holds_created_secret = staticmethod(holds_generated_password)

    def check_options(self):
        super().check_options()
        params = self.params
        if params.get('is_service_user') and params.get('email'):
            raise TaskError('option email: service users have no email; find a service user by name or id')
        if params.get('is_service_user') is False and not params.get('email') and not params.get('id'):
            raise TaskError('option email: a regular user is found by email (or id), not by name; give email')
        approval = params.get('approval')
        if approval == REJECT and params.get('state') != 'absent':
            raise TaskError('option approval: rejected turns the user away, which deletes it; give state: absent with it')
        if approval == APPROVE and params.get('state') == 'absent':
            raise TaskError('option approval: approved lets the user in, which state: absent contradicts; to turn a '
                            'pending user away use approval: rejected')
        if approval == APPROVE and params.get('is_blocked'):
            raise TaskError('options approval: approved and is_blocked: true contradict each other: approving a user '
                            'unblocks it')

    def check_server(self):
        super().check_server()
        role = lower(self.params.get('role'))
        release = refused_release(self.resolver.server, ROLE_RELEASES[role]) if role in CURRENT_ROLES else None
        if release:
            raise TaskError("option role: %s does not have the role '%s' (servers have it from %s); its roles are %s"
                            % (self.resolver.server.describe(), role, release, ', '.join(ROLES)))

    def matches(self, item):
        email = self.params.get('email')
        if email:
            return bool(item.get('email')) and item['email'].lower() == email.lower()
        return bool(item.get('is_service_user')) and item.get('name') == self.params.get('name')

    def identity_text(self):
        if self.params.get('id'):
            return "id '%s'" % self.params['id']
        if self.params.get('email'):
            return "email '%s'" % self.params['email']
        return "service user name '%s'" % self.params.get('name')

    def new_state(self, desired):
        desired = dict(desired)
        service = desired.get('is_service_user')
        if service is None:
            if not desired.get('email'):
                raise TaskError('the user %s does not exist; to create a service user set is_service_user: true, '
                                'to invite a regular user give email' % self.identity_text())
            service = desired['is_service_user'] = False
        if not desired.get('role'):
            raise TaskError('option role is required to create the user %s' % self.identity_text())
        if not desired.get('name'):
            raise TaskError('option name is required to create the user %s' % self.identity_text())
        if not service and not desired.get('email'):
            raise TaskError('option email is required to invite the regular user %s' % self.identity_text())
        if desired['role'] == 'owner':
            raise TaskError('option role: a new user cannot be the owner; create it as admin and transfer the '
                            'ownership with a second task')
        return super().new_state(desired)

    def request_body(self, state, current_obj):
        if current_obj is None:
            body = dict(name=state.get('name') or '', role=state['role'], auto_groups=state.get('auto_groups') or [],
                        is_service_user=bool(state.get('is_service_user')))
            if not body['is_service_user']:
                body['email'] = state.get('email')
            return body
        return dict(role=state.get('role'), auto_groups=state.get('auto_groups') or [],
                    is_blocked=bool(state.get('is_blocked')))

    def before_write(self, current_obj, state):
        if current_obj is None:
            return
        if state is not None:
            check_role_change(self, current_obj, state.get('role'))
            return
        if self.params.get('approval') == REJECT and not current_obj.get('pending_approval'):
            raise TaskError('option approval: the user %s is not waiting for approval, so there is nothing to reject; '
                            'nothing was deleted (to delete the user, leave approval out)' % self.identity_text())
        if current_obj.get('role') == 'owner':
            raise TaskError('the user %s is the account owner and cannot be deleted; transfer the ownership first'
                            % self.identity_text())
        if current_obj.get('is_current'):
            raise TaskError('the user %s is the one this task acts as and cannot delete itself' % self.identity_text())

    def object_path(self, obj):
        if self.params.get('approval') == REJECT:
            return '%s/%s/reject' % (self.path, ref_id(obj))  # the server deletes a pending user by rejecting it
        return super().object_path(obj)

    def prepare_update(self, obj, desired):
        if self.params.get('approval') == APPROVE and obj.get('pending_approval'):
            desired.pop('is_blocked', None)  # approving unblocks the user (after the update, see follow_ups)
        return desired

    def follow_ups(self, before, state, obj):
        """What the user's own update cannot do: approval: approved lets a user who waits for approval in, after the
        update of its other fields (a user who waits for nothing is left as it is); resend_invitation sends an invited
        user who has not joined yet the invitation again (not in check mode, which reports no change for it)."""
        if before is None:
            return []  # a created user asked blocked is blocked by the engine (created_as)
        steps = []
        if self.params.get('approval') == APPROVE and before.get('pending_approval'):
            after = dict(pending_approval=False, is_blocked=False)
            approved = dict(obj, **after)
            if approved.get('status') == 'blocked':
                approved['status'] = 'active'  # what the server shows once the user is let in
            steps.append(dict(method='POST', path='%s/%s/approve' % (self.path, ref_id(before)), expect=approved, after=after,
                              before=dict(pending_approval=True, is_blocked=bool(before.get('is_blocked')))))
        self._invitation_sent = bool(self.params.get('resend_invitation') and not self.module.check_mode
                                     and not before.get('is_service_user') and not before.get('is_blocked')
                                     and before.get('status') == 'invited')
        if self._invitation_sent:
            steps.append(dict(method='POST', path='%s/%s/invite' % (self.path, ref_id(before)), use_answer=False))
        return steps

    def to_result(self, obj):
        result = super().to_result(obj)
        permissions = result.get('permissions') if isinstance(result, dict) else None
        if isinstance(permissions, dict) and not permissions.get('dashboard_view') and result.get('role'):
            # the server's create answer for a service user leaves it empty; a read says what it is
            result['permissions'] = dict(permissions, dashboard_view=dashboard_view(self, result))
        return result

    def finish(self, obj, result):
        result['invitation_sent'] = self._invitation_sent  # sent as a follow-up of the update
        return result
