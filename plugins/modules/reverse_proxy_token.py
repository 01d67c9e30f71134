#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: reverse_proxy_token
short_description: Manage the proxy tokens self-hosted NetBird proxies register with
version_added: 1.0.0
description:
  - Creates, rotates and revokes a proxy token of the account (C(/api/reverse-proxies/proxy-tokens)), which a
    self-hosted NetBird proxy uses to register with the server. Servers cannot change a token.
  - A token is found by O(id) when given, otherwise by O(name) among the tokens not revoked. A name shared by several
    such tokens fails and lists their ids. Servers keep a revoked token in their list; it counts as gone. A name
    whose tokens are all revoked gets a new token, and O(state=absent) does nothing to a revoked token. O(id) of a
    revoked token with O(state=present) fails before any write.
  - The plain token is shown once, in the answer to the create; the module returns it only in the result of the task
    that created the token (see O(return_created_secrets)). No later task, diff or warning shows it.
options:
  id:
    description:
      - Id of the token.
    type: str
  name:
    description:
      - Name of the token. Required to create one.
    type: str
  expires_in:
    description:
      - Lifetime of a token to create, in seconds; V(0) or unset, it never expires. Not negative.
      - "A token cannot change: a different value for an existing token is a warning. Use O(rotate) to replace it."
    type: int
  rotate:
    description:
      - Create a new token under the same name and revoke the old one. Reports C(changed) every time.
    type: bool
    default: false
  state:
    description:
      - V(present) creates the token when there is none of that name that is not revoked; V(absent) revokes it.
    type: str
    choices: [present, absent]
    default: present
seealso:
  - module: nms.overlay.reverse_proxy_token_info
  - module: nms.overlay.reverse_proxy_cluster_info
extends_documentation_fragment:
  - nms.overlay.module
  - nms.overlay.module.resource
  - nms.overlay.module.converge
  - nms.overlay.module.current_servers
  - nms.overlay.module.created_secrets
'''

EXAMPLES = r'''
- name: A token for the office proxy (connection from NMS_API_URL and NMS_API_TOKEN)
  nms.overlay.reverse_proxy_token:
    name: office-proxy
    created_secrets_file: proxy-tokens.json  # only you can read it; in the directory ansible-playbook runs in
  register: proxy_token

- name: Revoke it
  nms.overlay.reverse_proxy_token:
    name: office-proxy
    state: absent
'''

RETURN = r'''
reverse_proxy_token:
  description:
    - The token record (never its value). In check mode, the token as it would be.
    - Empty after O(state=absent) when there was nothing to revoke; otherwise the revoked token.
  returned: always
  type: dict
  contains:
    id:
      description:
        - Id of the token.
        - In check mode, a token that would be created has the placeholder C((new reverse proxy token <name>)).
      type: str
      sample: d1gk3ub6lnn4g9hqv7n0
    name:
      description: Name of the token.
      type: str
      sample: office-proxy
    created_at:
      description: When the token was created (not predicted in check mode).
      type: str
      sample: "2026-05-03T10:00:00Z"
    expires_at:
      description: When the token expires; absent when it never does.
      type: str
      sample: "2026-06-03T10:00:00Z"
    last_used:
      description: When a proxy last used the token; absent when never.
      type: str
      sample: "2026-05-04T08:00:00Z"
    revoked:
      description: Whether the token is revoked.
      type: bool
      sample: false
    expires_in:
      description: In check mode only, the lifetime the token would be created with (seconds).
      type: int
      sample: 0
plain_token:
  description:
    - The token value, for the proxy's configuration.
    - Only in the result of the task that created the token (including a rotation), unless
      O(return_created_secrets=false). That result is hidden from Ansible's output; C(register) gets it.
  returned: when the task created the token
  type: str
  sample: nbx_9999EUDNdkeusjentDLSJEn1902u84390W6W
replaced_id:
  description: Id of the token that O(rotate) revoked.
  returned: when a token was rotated
  type: str
  sample: d1gk3ub6lnn4g9hqv7m0
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy_token import ReverseProxyTokenModule


if __name__ == '__main__':
    ReverseProxyTokenModule.main()
