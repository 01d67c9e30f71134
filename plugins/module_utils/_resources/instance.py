# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The instance's first setup: its owner and the owner's first personal access token (the instance module).

Not in _kinds.RESOURCES: nothing refers to it, network_state does not describe it, and its answer's
``personal_access_token`` is the token itself (a string), where a token create's is the token's record (an object).
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._client import FLAG, TEXT
from ansible_collections.nms.overlay.plugins.module_utils._errors import OptionsError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._strategy_setup import OneTimeSetup

PASSWORD_LENGTH = (8, 72)   # what v0.77 accepts (422 otherwise)
PAT_DAYS = (1, 365)
SETUP_TOKEN = 'setup-token'  # the name servers give the owner's token


class InstanceModule(OneTimeSetup):
    """A freshly installed server's setup: GET /api/instance tells whether it is required, POST /api/setup creates the
    owner (and, asked with create_pat on a server run with NB_SETUP_PAT_ENABLED=true, its token)."""

    api_operations = ('GET /api/instance', 'POST /api/setup')
    path = '/instance'
    action_path = '/setup'
    what = 'instance'
    requires = 'instance setup (GET /api/instance and POST /api/setup)'  # with the embedded identity provider
    natural_key = 'email'
    pending_member = 'setup_required'
    answer_key = 'owner'
    secret_member = 'personal_access_token'
    secret_section = 'tokens'
    value_wanted_by = 'create_pat'
    value_hint = ('the server returned no personal access token: it gives one only when it runs with '
                  'NB_SETUP_PAT_ENABLED=true; log in to the dashboard as the owner (with the password) and create one there')
    answers = dict(setup_required=FLAG, user_id=TEXT, email=TEXT, personal_access_token=TEXT)
    fields = dict(
        email=Field(),
        name=Field(),
        password=Field(dict(type='str', no_log=True)),
        create_pat=Field(dict(type='bool', default=True)),
        pat_expire_in=Field('int'),
    )
    required_together = (('email', 'name', 'password'),)

    def check_options(self):
        """The server's own rules, before any request (none of them shows the password)."""
        super().check_options()
        params, problems = self.params, []
        if params.get('name') is not None and not params['name'].strip():
            problems.append('option name: must not be empty')
        if params.get('email') is not None and '@' not in params['email']:
            problems.append('option email: must be an email address (name@domain)')
        password = params.get('password')
        if password is not None and not PASSWORD_LENGTH[0] <= len(password) <= PASSWORD_LENGTH[1]:
            problems.append('option password: must be %d to %d characters long' % PASSWORD_LENGTH)
        days = params.get('pat_expire_in')
        if days is not None and not PAT_DAYS[0] <= days <= PAT_DAYS[1]:
            problems.append('option pat_expire_in: must be from %d to %d (days)' % PAT_DAYS)
        if problems:
            raise OptionsError('; '.join(problems))

    def secret_name(self, obj):
        """Kept as tokens.<owner email>/setup-token in created_secrets_file, as the token module keeps <user>/<name>."""
        return '%s/%s' % (obj.get('email'), SETUP_TOKEN)
