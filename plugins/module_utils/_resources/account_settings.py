# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The account's settings, and the deletion of the account (the account_settings module and network_state)."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._client import NUMBER, OBJECT, describe_shape
from ansible_collections.nms.overlay.plugins.module_utils._compare import known_bool, ref_id, str_set, the_account, unwrap_items
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._resource import Settings
from ansible_collections.nms.overlay.plugins.module_utils._time import duration_norm


def _text(value):
    return value or ''


ACCOUNT_SETTINGS = ('peer_login_expiration_enabled', 'peer_login_expiration', 'regular_users_view_blocked',
                    'groups_propagation_enabled', 'jwt_groups_enabled', 'jwt_groups_claim_name', 'jwt_allow_groups')
# the settings of today's servers (v0.77) the module manages: sent only when set (the body otherwise carries the
# server's own values, as it read them); user_approval_required is a member of settings.extra
CURRENT_SETTINGS = ('peer_inactivity_expiration_enabled', 'peer_inactivity_expiration', 'routing_peer_dns_resolution_enabled',
                    'dns_domain', 'lazy_connection_enabled', 'network_range', 'network_range_v6', 'ipv6_enabled_groups',
                    'peer_expose_enabled', 'peer_expose_groups', 'auto_update_version', 'auto_update_always',
                    'metrics_push_enabled', 'local_mfa_enabled')
# v0.77.1's settings the module leaves to the server, and why (docs/compatibility.md; the module's notes):
# embedded_idp_enabled and local_auth_disabled are read-only; agent_network_only and dashboard_features shape only
# NetBird's dashboard (netbird.ai sign-ups), no overlay; extra's network_traffic_logs_enabled,
# network_traffic_logs_groups and network_traffic_packet_counter_enabled are cloud-only traffic logging, which
# open-source servers keep and never act on. They are sent back as the server answered them.
LEFT_TO_THE_SERVER = ('embedded_idp_enabled', 'local_auth_disabled', 'agent_network_only', 'dashboard_features',
                      'network_traffic_logs_enabled', 'network_traffic_logs_groups', 'network_traffic_packet_counter_enabled')
EXTRA_SETTINGS = ('peer_approval_enabled', 'user_approval_required')


def _optional_text(value):
    return None if value is None else str(value)


class AccountSettingsModule(Settings):
    """The settings of the one account (PUT replaces them all), or the deletion of the account."""

    path = '/accounts'
    what = 'account'
    result_key = 'account_settings'
    section = 'account_settings'
    has_id = True            # its updates and its deletion go to /accounts/{id}
    answers = dict(id=None, settings=OBJECT, extra=OBJECT)  # the settings are in its member settings, some in extra
    model = 'identity.AccountSettingsOptions'
    fields = dict(
        peer_login_expiration_enabled=Field('bool', norm=bool),
        peer_login_expiration=Field('raw', norm=duration_norm, answer=NUMBER),
        regular_users_view_blocked=Field('bool', norm=bool),
        groups_propagation_enabled=Field('bool', norm=bool),
        jwt_groups_enabled=Field('bool', norm=bool),
        jwt_groups_claim_name=Field(norm=_text),
        jwt_allow_groups=Field('list', norm=str_set),
        peer_approval_enabled=Field('bool', norm=bool),
        peer_inactivity_expiration_enabled=Field('bool', norm=known_bool, requires='v0.77'),
        # 0 (an account stored without NetBird's defaults, such as the seeded real servers of the tests) is no duration
        # the option takes (a positive one): left out of an export
        peer_inactivity_expiration=Field('raw', norm=duration_norm, requires='v0.77', answer=NUMBER, server_default=0),
        routing_peer_dns_resolution_enabled=Field('bool', norm=known_bool, requires='v0.77'),
        dns_domain=Field(norm=_optional_text, requires='v0.77'),
        lazy_connection_enabled=Field('bool', norm=known_bool, requires='v0.77'),
        user_approval_required=Field('bool', norm=known_bool, requires='v0.77'),
        # the overlay's address ranges (the server moves every peer into a new one) and who gets an IPv6 address
        network_range=Field(norm=_optional_text, requires='v0.77'),
        network_range_v6=Field(norm=_optional_text, requires='v0.77'),
        ipv6_enabled_groups=Field('list', ref='groups', many=True, in_use=False, requires='v0.77'),
        peer_expose_enabled=Field('bool', norm=known_bool, requires='v0.77'),
        peer_expose_groups=Field('list', ref='groups', many=True, in_use=False, requires='v0.77'),
        auto_update_version=Field(norm=_optional_text, requires='v0.77'),
        auto_update_always=Field('bool', norm=known_bool, requires='v0.77'),
        metrics_push_enabled=Field('bool', norm=known_bool, requires='v0.77'),
        local_mfa_enabled=Field('bool', norm=known_bool, requires='v0.77'),
    )
    options = dict(
        confirm_account_id=dict(type='str'),
        state=dict(type='str', default='present', choices=['present', 'absent']),
    )

    def check_options(self):
        super().check_options()
        if self.params.get('state') == 'absent' and not self.params.get('confirm_account_id'):
            raise TaskError('option confirm_account_id is required with state=absent: deleting the account removes '
                            'everything in it; give the account id (see nms.overlay.account_info) to confirm')

    def read_answer(self, data):
        """The one account of the answer to GET /accounts (a list of one)."""
        account = the_account(data)
        if account is None:
            data = unwrap_items(data)
            what = 'a list of %d items' % len(data) if isinstance(data, list) else describe_shape(data)
            raise self.client.answer_error('GET', self.path, 'the answer is %s where exactly one account was expected' % what)
        return account

    def from_server(self, obj):
        settings = dict(obj.get('settings') or {})
        for name in EXTRA_SETTINGS:
            settings[name] = (settings.get('extra') or {}).get(name)
        return {name: field.norm(settings.get(name)) for name, field in self.fields.items()}

    def request_body(self, state, current_obj):
        settings = dict((current_obj or {}).get('settings') or {})  # keeps members this module does not know
        for name in ACCOUNT_SETTINGS:
            settings[name] = state.get(name)
        for name in CURRENT_SETTINGS:
            if state.get(name) is not None:
                settings[name] = state[name]
        settings['jwt_allow_groups'] = list(settings.get('jwt_allow_groups') or [])
        if 'extra' in settings or any(self.params.get(name) is not None for name in EXTRA_SETTINGS):
            extra = dict(settings.get('extra') or {})  # keeps the members this module does not know
            extra['peer_approval_enabled'] = bool(state.get('peer_approval_enabled'))  # never send extra without it
            if state.get('user_approval_required') is not None:
                extra['user_approval_required'] = state['user_approval_required']
            settings['extra'] = extra
        return {'settings': settings}

    def to_result(self, obj):
        settings = dict((obj or {}).get('settings') or {})
        settings['jwt_allow_groups'] = list(settings.get('jwt_allow_groups') or [])
        return settings

    def finish(self, obj, result):
        result['account_id'] = ref_id(obj)
        return result

    def confirm_delete(self, obj):
        if self.params['confirm_account_id'] != ref_id(obj):
            raise TaskError("option confirm_account_id: '%s' is not the id of this account; nothing was deleted"
                            % self.params['confirm_account_id'])


def account_of(task):
    """The task's account (None when the answer holds not exactly one), read at most once per task and shared with the
    account_settings kind (what other kinds' rules read: its DNS domain, approval and view settings)."""
    return task.resolver.settings(AccountSettingsModule.path, the_account)
