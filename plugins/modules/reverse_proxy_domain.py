#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: reverse_proxy_domain
short_description: Manage the custom domains reverse-proxy services are published under
version_added: 1.0.0
description:
  - Creates and deletes a custom domain of the account (C(/api/reverse-proxies/domains)), and asks the server to
    validate it. Services are then published under it (M(nms.overlay.reverse_proxy_service)).
  - A domain is validated against a proxy cluster (O(target_cluster)). The domain (a wildcard under it) must have a
    CNAME record pointing at the cluster's address. The server checks it when the domain is created and again on
    request (O(validate)), in the background.
  - The server needs a connected NetBird proxy. Without one it refuses to create a domain
    (C(500 internal server error); its log says C(target cluster ... is not available)). See the collection's
    guide C(docs/reverse-proxy.md).
  - A domain is found by O(id) when given, otherwise by O(domain). Servers cannot change a domain.
options:
  id:
    description:
      - Id of the domain.
    type: str
  domain:
    description:
      - The domain name, such as V(apps.example.com). Required to create one.
      - A DNS name (dot-separated labels of letters, digits, hyphens and underscores), checked before any request
        (servers take any text).
      - Fixed once created (a different value for the domain found by O(id) is a warning).
    type: str
  target_cluster:
    description:
      - The address of the proxy cluster the domain is validated against (see M(nms.overlay.reverse_proxy_cluster_info)).
        Required to create one. A DNS name, as O(domain).
      - Fixed once created (a different value is a warning); delete the domain and create it again to change it.
    type: str
  validate:
    description:
      - Ask the server to check the domain's CNAME again while it is not validated. Reports C(changed) when it asks,
        so on every run until the domain is validated; a validated domain is left alone.
      - The check runs in the background; a later run or M(nms.overlay.reverse_proxy_domain_info) shows the outcome.
    type: bool
    default: false
  state:
    description:
      - V(present) creates the domain when there is none of that name; V(absent) deletes it (a cluster's free domain
        cannot be deleted, and fails before any write).
    type: str
    choices: [present, absent]
    default: present
seealso:
  - module: nms.overlay.reverse_proxy_domain_info
  - module: nms.overlay.reverse_proxy_service
  - module: nms.overlay.reverse_proxy_cluster_info
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: Publish services under apps.example.com (connection from NMS_API_URL and NMS_API_TOKEN)
  nms.overlay.reverse_proxy_domain:
    domain: apps.example.com
    target_cluster: proxy.example.com

- name: Check the CNAME again once DNS is set up
  nms.overlay.reverse_proxy_domain:
    domain: apps.example.com
    validate: true

- name: Remove the domain
  nms.overlay.reverse_proxy_domain:
    domain: apps.example.com
    state: absent
'''

RETURN = r'''
reverse_proxy_domain:
  description:
    - The domain after the change. In check mode, the domain as it would be.
    - Empty after O(state=absent) when there was nothing to delete; otherwise the deleted domain.
  returned: always
  type: dict
  contains:
    id:
      description: Id of the domain.
      type: str
      sample: ds8i4ug6lnn4g9hqv7mg
    domain:
      description: The domain name.
      type: str
      sample: apps.example.com
    type:
      description: V(custom) for a domain of the account, V(free) for the one a proxy cluster brings.
      type: str
      sample: custom
    target_cluster:
      description: The proxy cluster a custom domain is validated against.
      type: str
      sample: proxy.example.com
    validated:
      description: Whether the server has found the domain's CNAME pointing at its cluster.
      type: bool
      sample: true
    supports_custom_ports:
      description: Whether the cluster binds any TCP or UDP port.
      type: bool
      sample: true
    require_subdomain:
      description: Whether services need a subdomain label in front of the domain.
      type: bool
      sample: false
    supports_crowdsec:
      description: Whether the cluster has CrowdSec configured.
      type: bool
      sample: false
    supports_private:
      description: Whether the cluster can serve NetBird-only (private) services.
      type: bool
      sample: false
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy_domain import ReverseProxyDomainModule


if __name__ == '__main__':
    ReverseProxyDomainModule.main()
