#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: reverse_proxy_service_info
short_description: List the reverse-proxy services of the account
version_added: 1.0.0
description:
  - Returns all reverse-proxy services, or the one with a given O(id) or O(name). Sign-in secrets are never answered.
seealso:
  - module: nms.overlay.reverse_proxy_service
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module, nms.overlay.module.by_id_or_name, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: List the services
  nms.overlay.reverse_proxy_service_info:
  register: services

- name: Show their domains
  ansible.builtin.debug:
    msg: "{{ services.reverse_proxy_services | map(attribute='domain') | list }}"
'''

RETURN = r'''
reverse_proxy_services:
  description: The services found, also when filtered to one. Empty when nothing matches.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description:
        - Id of the service.
      type: str
      sample: cs8i4ug6lnn4g9hqv7mg
    name:
      description: Name of the service.
      type: str
      sample: grafana
    domain:
      description: The domain the service is published under.
      type: str
      sample: grafana.apps.example.com
    mode:
      description: V(http), V(tcp), V(udp) or V(tls).
      type: str
      sample: http
    listen_port:
      description: The port the proxy listens on (L4 and TLS services; V(0) otherwise).
      type: int
      sample: 0
    port_auto_assigned:
      description: Whether the server chose the listen port.
      type: bool
      sample: false
    proxy_cluster:
      description: The proxy cluster that serves the service (derived from its domain).
      type: str
      sample: proxy.example.com
    targets:
      description: The backends, with the ids of the peers and network resources they name.
      type: list
      elements: dict
      sample: [{target_id: chacdk86lnnboviihd70, target_type: peer, protocol: http, port: 3000, enabled: true}]
    enabled:
      description: Whether the service is enabled.
      type: bool
      sample: true
    terminated:
      description: Whether NetBird terminated the service (it cannot be updated then).
      type: bool
      sample: false
    pass_host_header:
      description: Whether the client's Host header is passed to the backend.
      type: bool
      sample: false
    rewrite_redirects:
      description: Whether redirects of the backend are rewritten to the public domain.
      type: bool
      sample: false
    auth:
      description: The sign-in methods, their secrets empty (as servers answer them).
      type: dict
      sample: {password_auth: {enabled: true, password: ""}}
    access_restrictions:
      description: The access restrictions by address and country.
      type: dict
      sample: {allowed_countries: [DE]}
    private:
      description: Whether the service is reachable only through NetBird.
      type: bool
      sample: false
    access_groups:
      description: Ids of the groups whose peers may reach a private service.
      type: list
      elements: str
      sample: []
    meta:
      description: The server's status of the service (C(created_at), C(status), C(certificate_issued_at)).
      type: dict
      sample: {created_at: "2026-05-03T10:00:00Z", status: active}
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy_service import ReverseProxyServiceModule


class ReverseProxyServiceInfoModule(InfoModule):
    resource = ReverseProxyServiceModule
    plural = 'reverse_proxy_services'


if __name__ == '__main__':
    ReverseProxyServiceInfoModule.main()
