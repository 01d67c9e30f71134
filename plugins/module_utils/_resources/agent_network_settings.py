# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The account's Agent Network settings (agent_network_settings and its info module): a singleton that servers
answer with defaults and an empty endpoint until it is bootstrapped (POST), then update (PUT, every field) and delete.

What real v0.77.1 servers do (tested in tests/integration/test_real_agent_network.py): GET answers the defaults
before the bootstrap (endpoint ""); PUT and DELETE then answer 404; POST wants exactly one of proxy_address
(the server allocates a label beneath it) and endpoint (422 otherwise), a second one answers 409 "already
bootstrapped" (so do all but one of ten sent at once): a task that meets it reads the settings again and reconciles
with them, as a create that meets "already exists" does; PUT must carry the assigned endpoint and proxy address
unchanged (422); DELETE is refused (412) while any provider exists.
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._client import FLAG, TEXT
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network import AGENT_NETWORK, BASE

ADDRESSES = ('proxy_address', 'endpoint')
TOGGLES = ('enable_log_collection', 'enable_prompt_collection', 'redact_pii', 'access_log_retention_days')
PROVIDERS = BASE + '/providers'


def bootstrapped(settings):
    """Whether the account's settings exist (servers answer defaults with an empty endpoint before)."""
    return isinstance(settings, dict) and bool(settings.get('endpoint'))


class AgentNetworkSettingsModule(ResourceModule):
    """The Agent Network gateway settings: bootstrapped once (its endpoint fixed then), updated, deleted."""

    path = BASE + '/settings'
    what = 'Agent Network settings'
    result_key = 'agent_network_settings'
    section = 'agent_network_settings'
    singleton = True
    has_id = False
    required_on_create = ()
    requires = AGENT_NETWORK
    model = 'proxies.AgentNetworkSettingsOptions'  # one of proxy_address and endpoint
    # the kind's CRUD is its path's GET, POST (the bootstrap), PUT and DELETE; a deletion first lists the providers
    api_operations = ('GET /api/agent-network/settings', 'POST /api/agent-network/settings', 'PUT /api/agent-network/settings',
                      'DELETE /api/agent-network/settings', 'GET /api/agent-network/providers')
    answers = dict(dedicated=FLAG, created_at=TEXT, updated_at=TEXT)
    fields = dict(
        # assigned by the bootstrap, fixed then: a difference is a warning (delete the settings and bootstrap again)
        proxy_address=Field(immutable=True),
        endpoint=Field(immutable=True),
        enable_log_collection=Field('bool'),
        enable_prompt_collection=Field('bool'),
        redact_pii=Field('bool'),
        access_log_retention_days=Field('int'),
    )
    options = dict(state=dict(type='str', default='present', choices=['present', 'absent']))
    task_state = dict(bootstrap=None)  # the options a bootstrap sends (None: the settings exist)

    def read_answer(self, data):
        """The settings; with state=absent, none before the bootstrap (nothing to delete)."""
        if not isinstance(data, dict):
            raise self.client.answer_error('GET', self.path, 'the answer is not an object')
        if self.params.get('state') == 'absent' and not bootstrapped(data):
            return None
        return data

    def prepare_update(self, obj, desired):
        """Before the bootstrap nothing is updated: the bootstrap (a follow-up) sends the options."""
        self.bootstrap = None
        if bootstrapped(obj):
            return desired
        if not any(desired.get(name) for name in ADDRESSES):
            raise TaskError('the %s are not bootstrapped yet: option proxy_address or endpoint is required to bootstrap '
                            'them (the endpoint is fixed then)' % self.what)
        self.bootstrap = desired
        return {}

    def follow_ups(self, before, state, obj):
        if self.bootstrap is None:
            return []
        wanted = dict(self.bootstrap)
        expect = dict(obj, **wanted)
        if not wanted.get('endpoint'):
            expect['endpoint'] = '(allocated beneath %s)' % wanted['proxy_address']
        else:
            expect.update(proxy_address=wanted['endpoint'], dedicated=True)
        # another run bootstrapped them since this task read them (the server's 409): read them again and reconcile
        return [dict(method='POST', path=self.path, body=wanted, expect=expect, exists={409: 'already bootstrapped'},
                     before={name: obj.get(name) for name in wanted}, after=wanted)]

    def described(self, options, obj, name_of):
        """What network_state's export describes: nothing before the bootstrap (the section is left out, as applying
        it could not bootstrap); after it, the one address the bootstrap takes (a dedicated endpoint, or the proxy
        address the endpoint was allocated beneath) with the toggles."""
        if not bootstrapped(obj):
            return None
        options.pop('proxy_address' if obj.get('dedicated') else 'endpoint', None)
        return options

    def before_write(self, current_obj, state):
        if state is not None:
            return
        providers = self.client.get_list(PROVIDERS)  # servers refuse the deletion while one exists (412)
        if providers:
            raise TaskError('the %s cannot be deleted while %d Agent Network provider(s) exist (%s): delete them first'
                            % (self.what, len(providers), ', '.join(sorted(str(item.get('name')) for item in providers))))
