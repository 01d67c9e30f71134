#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: instance
short_description: Set up a freshly installed server (its first owner and token)
version_added: 1.0.0
description:
  - Reports whether a freshly installed self-hosted server still needs its initial setup, and performs it. The setup
    creates the owner (the first user, with O(email), O(name) and O(password)) and, with O(create_pat=true), returns
    the owner's first personal access token, for the tasks that build the network.
  - This is what the dashboard's first screen does. It needs no O(api_token) (none exists before setup) and sends
    none, whatever O(api_token) or E(NMS_API_TOKEN) hold; the server answers these two calls to anyone, and
    only once.
  - Idempotent. On a server that is set up already (C(GET /api/instance) answers C(setup_required=false)) the task
    changes nothing and sends nothing else, whatever the options say. If another run sets the server up between this
    task's read and its setup request, the server answers C(412 setup already completed), which counts as done too
    (V(changed=false), with a warning).
  - Without O(email), O(name) and O(password) the task only reports whether setup is required (RV(instance)).
  - Types are checked before content, before any request. Every text option (O(email), O(name), O(password),
    O(api_url), O(created_secrets_file), ...) must be given a string. A list, a dictionary, a number or a boolean
    is refused, naming the option and the type given (never the value). Ansible would otherwise turn it into its
    Python text, so that the list C([a@example.com]) given as O(email) would be sent as C(['a@example.com']).
    Quote a password that YAML reads as a number.
  - The token is returned only by the task that sets the server up, as RV(personal_access_token), and that result is
    hidden from Ansible's output (screen, log, AWX job events) while C(register) gets it whole (see
    O(return_created_secrets)). No later run can get it again. Register the result to use the value, or write it to
    O(created_secrets_file), where it is kept under C(tokens.<email>/setup-token) with the owner's user id as C(id).
  - The server returns the token only when it runs with C(NB_SETUP_PAT_ENABLED=true); otherwise the task warns, and
    the owner logs in to the dashboard with the password to create one.
options:
  email:
    description:
      - Email of the owner to create. It is also the owner's login on the server's embedded identity provider.
      - It must look like an email address (an C(@) with text on both sides), as the email of M(nms.overlay.user).
      - Required together with O(name) and O(password) to set the server up.
    type: str
  name:
    description:
      - Display name of the owner.
      - Required together with O(email) and O(password) to set the server up.
    type: str
  password:
    description:
      - Password of the owner, from 8 to 72 characters. Never shown in output or messages; keep it in a vault.
      - Required together with O(email) and O(name) to set the server up.
    type: str
  create_pat:
    description:
      - Whether the server creates a personal access token for the owner and returns it (RV(personal_access_token)).
      - Honoured only by a server that runs with C(NB_SETUP_PAT_ENABLED=true).
    type: bool
    default: true
  pat_expire_in:
    description:
      - Lifetime of the owner's token in days, from 1 to 365. The server's default is 1 day.
    type: int
notes:
  - "The server answers C(GET /api/instance) and C(POST /api/setup) without authentication. Setup is possible only on
    a server with the embedded identity provider and no account yet."
  - A v0.27 server has neither call; the task fails after its one request, C(GET /api/instance) (the version probe
    other modules make needs a token).
  - If the setup request's answer is lost, the token (which only that answer carried) is lost with it, and the setup
    request is never sent again (the server would answer C(412 setup already completed)). An answer that came with
    a success status but was cut off (the connection closed mid-body, or JSON cut short) means that the server is
    set up. A request that got no answer, or a server failure, is told apart by reading C(GET /api/instance)
    again. When the server is set up, the task fails with V(changed=true). Its message says that the server is
    set up and the owner exists, that the owner's token was not received, and how to recover (sign in to the
    dashboard as the owner with the password and create a personal access token there). A re-run changes nothing.
    With O(create_pat=false) nothing secret is lost; the task then reports V(changed=true) with a warning, and
    RV(owner) holds the email only.
seealso:
  - module: nms.overlay.token
  - module: nms.overlay.user
extends_documentation_fragment:
  - nms.overlay.module
  - nms.overlay.module.resource
  - nms.overlay.module.current_servers
  - nms.overlay.module.created_secrets
'''

EXAMPLES = r'''
- name: Set up the server, its owner's token kept in a file only you can read
  nms.overlay.instance:
    email: owner@example.com
    name: Owner
    password: "{{ vault_nms_owner_password }}"
    pat_expire_in: 30
    created_secrets_file: created-secrets.json  # in the directory ansible-playbook runs in
  register: setup

- name: Use the new token in a later task (api_token is never shown)
  nms.overlay.group:
    api_token: "{{ setup.personal_access_token }}"
    name: servers
  when: setup.personal_access_token is defined

- name: Only ask whether the server needs setup
  nms.overlay.instance:
  register: status
'''

RETURN = r'''
instance:
  description:
    - The server's status after the task (in check mode, as it would be).
  returned: always
  type: dict
  contains:
    setup_required:
      description: Whether the server still needs its initial setup.
      type: bool
      sample: false
owner:
  description:
    - The owner this task created (in check mode, the one it would create).
  returned: when the task set the server up
  type: dict
  contains:
    user_id:
      description:
        - Id of the owner.
        - In check mode, the placeholder C((new user <email>)).
        - Missing when the setup's answer was lost (with O(create_pat=false); otherwise the task fails).
      type: str
      sample: CiQ5ZjQ3YjM1Ni0wMjVmLTQ0ZDMtYjA0Zi1mNWY2ZDM3YjU1YmMSBWxvY2Fs
    email:
      description: Email of the owner.
      type: str
      sample: owner@example.com
personal_access_token:
  description:
    - "The owner's personal access token, to send as C(Authorization: Token <value>) (the O(api_token) of later
      tasks)."
    - Only in the result of the task that set the server up, with O(create_pat=true) on a server that runs with
      C(NB_SETUP_PAT_ENABLED=true), unless O(return_created_secrets=false). That result is hidden from Ansible's
      output; C(register) gets it.
  returned: when the task set the server up and the server returned a token
  type: str
  sample: nbp_9999EUDNdkeusjentDLSJEn1902u84390W6W
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.instance import InstanceModule


if __name__ == '__main__':
    InstanceModule.main()
