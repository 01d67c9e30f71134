#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: account_info
short_description: Read the account and its settings
version_added: 1.0.0
description:
  - Returns the account the token belongs to, with its id and settings.
  - The API always returns exactly one account; it is returned as a list of one.
  - Admins and service users may read the account; regular users may not.
seealso:
  - module: nms.overlay.account_settings
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module]
'''

EXAMPLES = r'''
- name: Read the account
  nms.overlay.account_info:
  register: account

- name: Show the account id and how long peer logins last
  ansible.builtin.debug:
    msg: "{{ account.accounts[0].id }}: {{ account.accounts[0].settings.peer_login_expiration }} seconds"
'''

RETURN = r'''
accounts:
  description: The account, as a list of one.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: Id of the account.
      type: str
      sample: ch8i4ug6lnn4g9hqv7kg
    domain:
      description: The account's domain.
      returned: by servers that have it (v0.77)
      type: str
      sample: netbird.selfhosted
    domain_category:
      description: What kind of domain it is (V(private) on a self-hosted server).
      returned: by servers that have it (v0.77)
      type: str
      sample: private
    created_at:
      description: When the account was created.
      returned: by servers that have it (v0.77)
      type: str
      sample: "2026-01-05T09:00:00.000000Z"
    created_by:
      description: Id of the user who created the account.
      returned: by servers that have it (v0.77)
      type: str
      sample: 73d7f12e-8b0b-4439-85f1-604d85d227da
    onboarding:
      description: Whether the dashboard's onboarding steps are still pending.
      returned: by servers that have it (v0.77)
      type: dict
      sample: {onboarding_flow_pending: false, signup_form_pending: false}
    settings:
      description:
        - The account settings; C(jwt_allow_groups) is never null, C(extra) only when the server has it.
        - Servers that have them (v0.77) add C(peer_inactivity_expiration_enabled), C(peer_inactivity_expiration),
          C(peer_expose_enabled), C(peer_expose_groups), C(routing_peer_dns_resolution_enabled),
          C(lazy_connection_enabled), C(dns_domain), C(network_range), C(ipv6_enabled_groups), C(auto_update_version),
          C(auto_update_always), C(metrics_push_enabled), C(agent_network_only), C(embedded_idp_enabled),
          C(local_auth_disabled) and C(local_mfa_enabled) (see M(nms.overlay.account_settings)).
      type: dict
      sample:
        peer_login_expiration_enabled: true
        peer_login_expiration: 86400
        regular_users_view_blocked: true
        groups_propagation_enabled: true
        jwt_groups_enabled: false
        jwt_groups_claim_name: ""
        jwt_allow_groups: []
        peer_inactivity_expiration_enabled: false
        peer_inactivity_expiration: 600
        peer_expose_enabled: false
        peer_expose_groups: []
        routing_peer_dns_resolution_enabled: true
        lazy_connection_enabled: false
        dns_domain: ""
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.account_settings import AccountSettingsModule


class AccountInfoModule(InfoModule):
    resource = AccountSettingsModule
    plural = 'accounts'
    argument_spec = {}

    def fetch(self):
        accounts = super().fetch()
        return [accounts] if isinstance(accounts, dict) else accounts

    def keep(self, item):
        return isinstance(item, dict)

    def to_result(self, item):
        item = dict(item)
        settings = dict(item.get('settings') or {})
        settings['jwt_allow_groups'] = settings.get('jwt_allow_groups') or []
        item['settings'] = settings
        return item


if __name__ == '__main__':
    AccountInfoModule.main()
