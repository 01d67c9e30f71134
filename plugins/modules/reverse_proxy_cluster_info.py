#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: reverse_proxy_cluster_info
short_description: List the proxy clusters connected to the server
version_added: 1.0.0
description:
  - Returns the proxy clusters (the NetBird proxies connected to the server, by the address they serve), all or the
    one with a given O(address) or O(id). A server no proxy has connected to lists none.
options:
  id:
    description:
      - Return only the cluster with this id (the id of one of its proxies).
      - Mutually exclusive with O(address).
    type: str
  address:
    description:
      - Return only the cluster that serves this address.
      - Mutually exclusive with O(id).
    type: str
seealso:
  - module: nms.overlay.reverse_proxy_cluster
  - module: nms.overlay.reverse_proxy_domain
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: List the proxy clusters
  nms.overlay.reverse_proxy_cluster_info:
  register: clusters

- name: Fail unless a proxy is online
  ansible.builtin.assert:
    that: clusters.reverse_proxy_clusters | selectattr('online') | list | length > 0
'''

RETURN = r'''
reverse_proxy_clusters:
  description: The clusters found, also when filtered to one. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
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

from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy_cluster import ReverseProxyClusterModule


class ReverseProxyClusterInfoModule(InfoModule):
    resource = ReverseProxyClusterModule
    plural = 'reverse_proxy_clusters'


if __name__ == '__main__':
    ReverseProxyClusterInfoModule.main()
