# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The instance's first setup: its owner and the owner's first personal access token (the instance module).

Not in _kinds.RESOURCES: nothing refers to it, network_state does not describe it, and its answer's
``personal_access_token`` is the token itself (a string), where a token create's is the token's record (an object).
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._client import FLAG, TEXT
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._strategy_setup import OneTimeSetup

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
    lost_value = ('the server is set up and its owner %s exists, but the owner\'s personal access token, which only that '
                  'answer carried, was not received, and no run can get it again')
    lost_hint = ('To recover, sign in to the dashboard as %s with the password and create a personal access token there '
                 '(a re-run of this task changes nothing: the server is set up)')
    model = 'identity.InstanceOptions'  # email, name, password and pat_expire_in, after their types (strict_texts)
    strict_texts = True
    answers = dict(setup_required=FLAG, user_id=TEXT, email=TEXT, personal_access_token=TEXT)
    fields = dict(
        email=Field(),
        name=Field(),
        password=Field(dict(type='str', no_log=True)),
        create_pat=Field(dict(type='bool', default=True)),
        pat_expire_in=Field('int'),
    )
    required_together = (('email', 'name', 'password'),)

    def secret_name(self, obj):
        """Kept as tokens.<owner email>/setup-token in created_secrets_file, as the token module keeps <user>/<name>."""
        return '%s/%s' % (obj.get('email'), SETUP_TOKEN)
