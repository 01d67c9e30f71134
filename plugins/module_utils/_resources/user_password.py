# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The password of the user the task acts as (the user_password module): PUT /api/users/{id}/password, on servers
with the embedded identity provider.

Servers never show a password, and refuse a change to the current password before they check the old one ("new
password must be different"), so nothing tells whether the password already is the new one without changing it.
What a re-run does is therefore the task's choice (update_password): ``once`` takes the server's refusal of
old_password as "changed already" (no change, a warning); ``always`` fails on it.
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import OptionsError, TaskError
from ansible_collections.nms.overlay.plugins.module_utils._task import NmsModule

CURRENT_USER_PATH = '/users/current'
INCORRECT = 'current password is incorrect'


class UserPasswordModule(NmsModule):
    """Change the password of the token's own user (servers let nobody change another user's)."""

    api_operations = ('GET /api/users/current', 'PUT /api/users/{userId}/password')
    requires = 'password changes (PUT /api/users/{id}/password, with the embedded identity provider)'
    argument_spec = dict(
        password=dict(type='str', required=True, no_log=True),
        old_password=dict(type='str', required=True, no_log=True),
        update_password=dict(type='str', choices=['once', 'always'], default='once'),
    )

    def check_options(self):
        problems = []
        for name in ('password', 'old_password'):
            if not self.params[name]:
                problems.append('option %s: must not be empty' % name)
        if self.params['password'] and self.params['password'] == self.params['old_password']:
            problems.append('options password and old_password: must differ (servers refuse a change to the same password)')
        if problems:
            raise OptionsError('; '.join(problems))

    def run(self):
        self.check_options()
        self.check_generation()
        user = self.client.get_object(CURRENT_USER_PATH)
        shown = {key: user.get(key) for key in ('id', 'email', 'name')}
        path = '/users/%s/password' % ref_id(user)
        if self.module.check_mode:  # nothing can tell without a change whether it is done already
            return {'changed': True, 'user': shown, 'password_changed': True}
        try:
            self.client.put(path, dict(old_password=self.params['old_password'], new_password=self.params['password']))
        except ApiError as exc:
            if exc.status != 422 or INCORRECT not in str(exc.message).lower():
                raise
            if self.params['update_password'] == 'always':
                raise TaskError('%s: old_password is not the password of the user %s (if an earlier run changed it to '
                                'password already, update_password: once makes such a re-run no change)'
                                % (exc, user.get('email') or ref_id(user))) from None
            self.warn('the server refused old_password as the current password of the user %s, so nothing was changed: '
                      'an earlier run changed it already, or old_password is wrong (servers cannot tell which without a '
                      'change)' % (user.get('email') or ref_id(user)))
            return {'changed': False, 'user': shown, 'password_changed': False}
        return {'changed': True, 'user': shown, 'password_changed': True}
