# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The password of the user the task acts as (the user_password module): PUT /api/users/{id}/password, on servers
with the embedded identity provider; an action of the engine's action strategy (_strategy_action.py).

Servers never show a password, and refuse a change to the current password before they check the old one ("new
password must be different"), so nothing tells whether the password already is the new one without changing it.
What a re-run does is therefore the task's choice (update_password): ``once`` takes the server's refusal of
old_password as "changed already" (no change, a warning); ``always`` fails on it.
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._strategy_action import Action


class UserPasswordModule(Action):
    """Change the password of the token's own user (servers let nobody change another user's)."""

    api_operations = ('GET /api/users/current', 'PUT /api/users/{userId}/password')
    requires = 'password changes (PUT /api/users/{id}/password, with the embedded identity provider)'
    what = 'password'
    result_key = None         # servers answer nothing to show
    parent = ('users', None)
    parent_read = '/users/current'
    sub_path = '/password'
    method = 'PUT'
    fields = dict(
        password=Field(dict(type='str', required=True, no_log=True)),
        old_password=Field(dict(type='str', required=True, no_log=True)),
    )
    sent_as = dict(password='new_password')
    once_option = 'update_password'
    done_answers = {422: 'current password is incorrect'}
    done_warning = ('the server refused old_password as the current password of the user {parent}, so nothing was changed: an '
                    'earlier run changed it already, or old_password is wrong (servers cannot tell which without a change)')
    done_refusal = ('{error}: old_password is not the password of the user {parent} (if an earlier run changed it to password '
                    'already, update_password: once makes such a re-run no change)')
    parent_shown = ('user', ('id', 'email', 'name'))
    taken_flag = 'password_changed'
    model = 'identity.UserPasswordOptions'  # both given, not the same
