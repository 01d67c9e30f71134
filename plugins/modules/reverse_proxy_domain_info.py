#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: reverse_proxy_domain_info
short_description: List the domains reverse-proxy services can be published under
version_added: 1.0.0
description:
  - Returns the account's custom domains and the free domain of each connected proxy cluster, all or the one with a
    given O(id) or O(domain).
options:
  id:
    description:
      - Return only the domain with this id.
      - Mutually exclusive with O(domain).
    type: str
  domain:
    description:
      - Return only the domain of this name.
      - Mutually exclusive with O(id).
    type: str
seealso:
  - module: nms.overlay.reverse_proxy_domain
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: List the domains
  nms.overlay.reverse_proxy_domain_info:
  register: domains

- name: Show those still waiting for their CNAME
  ansible.builtin.debug:
    msg: "{{ domains.reverse_proxy_domains | rejectattr('validated') | map(attribute='domain') | list }}"
'''

RETURN = r'''
reverse_proxy_domains:
  description: The domains found, also when filtered to one. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
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

from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy_domain import ReverseProxyDomainModule


class ReverseProxyDomainInfoModule(InfoModule):
    resource = ReverseProxyDomainModule
    plural = 'reverse_proxy_domains'


if __name__ == '__main__':
    ReverseProxyDomainInfoModule.main()
