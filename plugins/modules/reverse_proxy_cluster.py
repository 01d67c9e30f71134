#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: reverse_proxy_cluster
short_description: Remove a self-hosted proxy cluster's registrations
version_added: 1.0.0
description:
  - Removes the registrations of the account's own (self-hosted) NetBird proxies that serve an address
    (C(DELETE /api/reverse-proxies/clusters/{address})). A proxy that is still running registers again with its
    proxy token; revoke the token (M(nms.overlay.reverse_proxy_token)) to keep it out.
  - Proxies connect by themselves, so a cluster cannot be created; the only state is V(absent). A shared cluster
    (one NetBird operates for many accounts) cannot be removed and fails before any write.
options:
  address:
    description:
      - The address the cluster serves (what custom domains point their CNAME at).
    type: str
    required: true
  state:
    description:
      - V(absent) removes the cluster's registrations; nothing else.
    type: str
    choices: [absent]
    default: absent
seealso:
  - module: nms.overlay.reverse_proxy_cluster_info
  - module: nms.overlay.reverse_proxy_token
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: Retire the old office proxies (connection from NMS_API_URL and NMS_API_TOKEN)
  nms.overlay.reverse_proxy_cluster:
    address: proxy.office.example.com
    state: absent
'''

RETURN = r'''
reverse_proxy_cluster:
  description:
    - The removed cluster as it was listed; empty when there was nothing to remove.
  returned: always
  type: dict
  contains:
    id:
      description: Id of one proxy of the cluster.
      type: str
      sample: chlfq4q5r8kc73b0qjpg
    address:
      description: The address the cluster serves.
      type: str
      sample: proxy.office.example.com
    type:
      description: V(account) for the account's own proxies, V(shared) for one NetBird operates.
      type: str
      sample: account
    online:
      description: Whether a proxy of the cluster has reported recently.
      type: bool
      sample: true
    connected_proxies:
      description: How many proxies of the cluster are connected.
      type: int
      sample: 1
    supports_custom_ports:
      description: Whether the cluster binds any TCP or UDP port.
      type: bool
      sample: true
    require_subdomain:
      description: Whether services on the cluster need a subdomain label.
      type: bool
      sample: false
    supports_crowdsec:
      description: Whether every proxy of the cluster has CrowdSec configured.
      type: bool
      sample: false
    private:
      description: Whether a proxy of the cluster runs embedded in a NetBird client.
      type: bool
      sample: false
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy_cluster import ReverseProxyClusterModule


if __name__ == '__main__':
    ReverseProxyClusterModule.main()
