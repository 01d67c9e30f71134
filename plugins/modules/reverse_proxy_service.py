#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: reverse_proxy_service
short_description: Publish an internal service through the account's NetBird proxy
version_added: 1.0.0
description:
  - Creates, updates and deletes a reverse-proxy service (C(/api/reverse-proxies/services)), which publishes peers
    or network resources under a domain through a connected NetBird proxy, with optional sign-in and access
    restrictions.
  - "The server needs a connected NetBird proxy, whose cluster it derives from the O(domain). Without one it refuses
    to create a service (C(412 could not derive cluster from domain ...: no proxy clusters available)), and the task
    fails with that message, the method and the full URL. See the collection's guide C(docs/reverse-proxy.md)."
  - A service is found by O(id) when given, otherwise by O(name). A name shared by several services fails and lists
    their ids. Options left unset keep the server's value.
  - The sign-in's password, PIN and header values are write-only, see O(auth) and O(update_secret).
options:
  id:
    description:
      - Id of the service. Needed to rename one; otherwise O(name) finds it.
    type: str
  name:
    description:
      - Name of the service. Required to create one.
    type: str
  domain:
    description:
      - The domain the service is published under, such as V(grafana.apps.example.com) (under a custom domain, see
        M(nms.overlay.reverse_proxy_domain), or a cluster's free domain). Required to create one.
      - A DNS name (dot-separated labels of letters, digits, hyphens and underscores), checked before any request.
    type: str
  mode:
    description:
      - V(http) (the server's default) proxies HTTP requests; V(tcp), V(udp) and V(tls) pass connections through.
    type: str
    choices: [http, tcp, udp, tls]
  listen_port:
    description:
      - The port the proxy listens on, for V(tcp), V(udp) and V(tls) services (V(0) lets the server choose).
      - From V(0) to V(65535), checked before any request (servers keep 16 bits of it, so V(70000) would be V(4464)).
    type: int
  targets:
    description:
      - The backends, in order. Required to create one. Compared in order, each as the options it sets.
    type: list
    elements: dict
    suboptions:
      target_id:
        description:
          - What the target is, by name or id. A peer for O(targets[].target_type=peer); a network resource for
            V(host), V(domain) and V(subnet); a proxy cluster's address for V(cluster). A name several peers or
            resources share fails and lists their ids.
        type: str
        required: true
      target_type:
        description:
          - The kind of target.
        type: str
        required: true
        choices: [peer, host, domain, subnet, cluster]
      protocol:
        description:
          - The protocol to the backend.
        type: str
        required: true
        choices: [http, https, tcp, udp]
      port:
        description:
          - The backend's port, from V(1) to V(65535) (checked before any request).
        type: int
        required: true
      host:
        description:
          - The backend's address inside a V(subnet) resource (required there; servers ignore it for other types,
            and so does the comparison).
        type: str
      path:
        description:
          - The URL path prefix the target serves (HTTP services).
        type: str
      enabled:
        description:
          - Whether the target is used.
        type: bool
        default: true
      options:
        description:
          - The target's further settings as the API names them (C(skip_tls_verify), C(request_timeout),
            C(path_rewrite), C(custom_headers), C(proxy_protocol), C(session_idle_timeout), C(direct_upstream)).
        type: dict
  enabled:
    description:
      - Whether the service is enabled. A service is created enabled unless this says otherwise.
    type: bool
  pass_host_header:
    description:
      - Pass the client's Host header to the backend instead of the backend's address.
    type: bool
  rewrite_redirects:
    description:
      - Rewrite the backend's redirects to the public domain.
    type: bool
  auth:
    description:
      - The sign-in in front of the service. Methods left out are off, and so are methods with C(enabled=false).
      - "Secrets are write-only: servers answer them empty, so they cannot be compared. A secret is sent when the
        service is created or its method is turned on (a header value: when its header is new, or its check is turned
        on); for a method that is on already only with O(update_secret=always), and otherwise the server keeps the
        value it holds. Never shown in the result (which holds it empty, as servers answer it), a diff (which says
        C((sent: not shown))) or a warning."
    type: dict
    suboptions:
      password_auth:
        description: A password.
        type: dict
        suboptions:
          enabled:
            description: Whether the method is on.
            type: bool
            required: true
          password:
            description: The password (write-only).
            type: str
      pin_auth:
        description: A PIN.
        type: dict
        suboptions:
          enabled:
            description: Whether the method is on.
            type: bool
            required: true
          pin:
            description: The PIN (write-only).
            type: str
      bearer_auth:
        description: Sign-in with the account's identity provider (SSO).
        type: dict
        suboptions:
          enabled:
            description: Whether the method is on.
            type: bool
            required: true
          distribution_groups:
            description: The groups (names or ids) whose users may sign in. Compared as a set.
            type: list
            elements: str
      link_auth:
        description: Sign-in with a link.
        type: dict
        suboptions:
          enabled:
            description: Whether the method is on.
            type: bool
            required: true
      header_auths:
        description: Requests must carry these header values.
        type: list
        elements: dict
        suboptions:
          enabled:
            description: Whether the check is on.
            type: bool
            default: true
          header:
            description: The header's name, such as C(X-API-Key).
            type: str
            required: true
          value:
            description: The value it must have (write-only).
            type: str
  access_restrictions:
    description:
      - Connection restrictions as the API names them (C(allowed_cidrs), C(blocked_cidrs), C(allowed_countries),
        C(blocked_countries), C(crowdsec_mode)).
    type: dict
  private:
    description:
      - Make the service reachable only through NetBird, by the peers of O(access_groups) (HTTP services).
    type: bool
  access_groups:
    description:
      - The groups (names or ids) whose peers may reach a private service. Compared as a set.
    type: list
    elements: str
  update_secret:
    description:
      - V(on_create) sends a secret of O(auth) only when the service is created or the secret's method is turned on,
        so that a re-run changes nothing.
      - V(always) sends every secret O(auth) gives on every run that finds the service, which then reports
        C(changed) every time (the server cannot tell whether it differs). Use it once to change a password, PIN or
        header value, or in a play that rotates them.
      - The same option as other modules with write-only values have (M(nms.overlay.identity_provider),
        M(nms.overlay.agent_network_provider)). Its alias C(update_secrets) is the name earlier releases of this
        module gave it.
    type: str
    choices: [always, on_create]
    default: on_create
    aliases: [update_secrets]
  state:
    description:
      - V(present) creates or updates the service; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
seealso:
  - module: nms.overlay.reverse_proxy_service_info
  - module: nms.overlay.reverse_proxy_domain
  - module: nms.overlay.network_resource
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource, nms.overlay.module.converge, nms.overlay.module.current_servers]
'''

EXAMPLES = r'''
- name: Publish Grafana on a peer behind a password (connection from NMS_API_URL and NMS_API_TOKEN)
  nms.overlay.reverse_proxy_service:
    name: grafana
    domain: grafana.apps.example.com
    targets:
      - target_id: monitoring-01
        target_type: peer
        protocol: http
        port: 3000
    auth:
      password_auth:
        enabled: true
        password: "{{ vault_grafana_password }}"

- name: Change Grafana's password (reports changed on every run with update_secret=always)
  nms.overlay.reverse_proxy_service:
    name: grafana
    auth:
      password_auth:
        enabled: true
        password: "{{ vault_grafana_new_password }}"
    update_secret: always

- name: Let only the admins' SSO sign-in reach the wiki, a network resource
  nms.overlay.reverse_proxy_service:
    name: wiki
    domain: wiki.apps.example.com
    targets:
      - target_id: wiki-server
        target_type: host
        protocol: https
        port: 443
    auth:
      bearer_auth:
        enabled: true
        distribution_groups: [admins]

- name: Remove the service
  nms.overlay.reverse_proxy_service:
    name: grafana
    state: absent
'''

RETURN = r'''
reverse_proxy_service:
  description:
    - The service after the change. In check mode, the service as it would be. Never holds a secret of its sign-in.
    - Empty after O(state=absent) when there was nothing to delete; otherwise the deleted service.
  returned: always
  type: dict
  contains:
    id:
      description:
        - Id of the service.
        - In check mode, a service that would be created has the placeholder C((new reverse proxy service <name>)).
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

from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy_service import ReverseProxyServiceModule


if __name__ == '__main__':
    ReverseProxyServiceModule.main()
