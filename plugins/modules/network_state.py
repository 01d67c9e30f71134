#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: network_state
short_description: Reconcile a whole network description in one task
version_added: 1.0.0
description:
  - Brings groups, posture checks, policies, routes, nameserver groups, DNS settings, DNS zones with their records,
    setup keys, users, account settings, networks with their resources and routers, identity providers, the reverse
    proxy's custom domains and services, and the Agent Network (settings, providers, guardrails, policies, budget rules)
    to the state one description gives, in a single task.
  - Each kind is listed once; only the writes that are needed are sent, in dependency order (groups first, account
    settings last). An unchanged network costs one list request per described kind and per referenced kind, and no write.
  - Every described resource takes exactly the options of its own module (without the connection options), and is
    handled by the same code as that module, so the rules of each module apply, for example options left unset keep
    the server's value.
  - Before the first write, every description item is validated and every reference (a group name in a policy rule,
    a posture check in a policy, a peer of a route, ...) is checked against the server and the description. One bad
    reference stops the run before anything changes, and the message says where it is.
  - The P(nms.overlay.network#role) role uses this module.
options:
  groups:
    description:
      - Groups, each with the options of M(nms.overlay.group) (O(nms.overlay.group#module:name), O(nms.overlay.group#module:peers),
        O(nms.overlay.group#module:state), ...).
    type: list
    elements: dict
  group_memberships:
    description:
      - Peers added to, or taken out of, groups the description does not own (a team's group, one made by hand or by
        another playbook). The description owns the groups it describes under O(groups), which it creates, updates,
        deletes and prunes; a group it only names here is the server's, and the run changes nothing of it but these
        peers. It is never created, renamed or deleted, and O(prune) keeps it.
      - The group must exist before the run, and must not be described under O(groups) too (set the peers of an owned
        group there, with O(nms.overlay.group#module:peers_mode) if only some of them are managed); each group is named
        here once. Both are checked, with the peers' names, before the first write.
      - Written as O(nms.overlay.group#module:peers_mode=add) or V(remove) writes it, after the described groups, that
        is only the change, applied to the members the server has right before the write and read back (peers others add
        or remove meanwhile stay as they leave them), and a re-run whose peers are already in (or out of) the group
        changes nothing. The diff of such a group shows only the peers that join (C(after)) and leave (C(before)).
    type: list
    elements: dict
    version_added: 1.0.0
    suboptions:
      group:
        description:
          - The name of the group.
        type: str
        required: true
      peers:
        description:
          - The peers to add or take out, by name or id. Every name must match exactly one peer.
        type: list
        elements: str
        required: true
      mode:
        description:
          - V(add) adds the peers (those already in the group are no change); V(remove) takes them out.
        type: str
        choices: [add, remove]
        default: add
  posture_checks:
    description:
      - Posture checks, each with the options of M(nms.overlay.posture_check).
    type: list
    elements: dict
  policies:
    description:
      - Access policies, each with the options of M(nms.overlay.policy). Rules refer to groups by name.
    type: list
    elements: dict
  routes:
    description:
      - Routes, each with the options of M(nms.overlay.route).
    type: list
    elements: dict
  nameserver_groups:
    description:
      - Nameserver groups, each with the options of M(nms.overlay.nameserver_group).
    type: list
    elements: dict
  dns_settings:
    description:
      - The DNS settings, with the options of M(nms.overlay.dns_settings).
    type: dict
  setup_keys:
    description:
      - Setup keys, each with the options of M(nms.overlay.setup_key).
      - A key created by this task has its value in RV(changes[].key), once, unless
        O(return_created_secrets=false); O(created_secrets_file) keeps it in a file instead. A result that holds a
        value is hidden from Ansible's output (see O(return_created_secrets)).
    type: list
    elements: dict
  users:
    description:
      - Users, each with the options of M(nms.overlay.user).
    type: list
    elements: dict
  account_settings:
    description:
      - The account settings, with the options of M(nms.overlay.account_settings). Deleting the account is not possible here.
    type: dict
  networks:
    description:
      - Networks, each with the options of M(nms.overlay.network), and two lists of what is in it.
      - C(resources), each with the options of M(nms.overlay.network_resource) but O(nms.overlay.network_resource#module:network),
        and C(routers), each with the options of M(nms.overlay.network_router) but O(nms.overlay.network_router#module:network).
        The network they belong to is the entry they are listed in (giving that option there is refused). They are found
        and created under that network's id, also when this task creates the network (in check mode, under its placeholder).
      - Servers from NetBird v0.35.0 on. An older server refuses a non-empty list before any write, as the modules do; an
        empty list is nothing to do there.
      - A network described with O(nms.overlay.network#module:state=absent) is deleted with everything in it (its resources
        and routers as listed are not looked at).
      - With O(prune), the resources (or routers) of a described network that its C(resources) (or C(routers)) do not
        list are deleted, when that list is given (an empty list removes them all); a network without the key keeps them.
    type: list
    elements: dict
  dns_zones:
    description:
      - Custom DNS zones, each with the options of M(nms.overlay.dns_zone), and C(records), each with the options of
        M(nms.overlay.dns_record) but O(nms.overlay.dns_record#module:zone). Their zone is the entry they are listed in.
      - Servers from NetBird v0.63.0 on; an older server refuses a list that is not empty before any write.
      - A zone described with O(nms.overlay.dns_zone#module:state=absent) is deleted with its records. With O(prune), the
        records of a described zone that its C(records) do not list are deleted, when C(records) is given.
    type: list
    elements: dict
  identity_providers:
    description:
      - Identity providers of a self-hosted server, each with the options of M(nms.overlay.identity_provider).
      - Servers from NetBird v0.62.0 on; an older server refuses a list that is not empty before any write.
      - A provider's client secret is never answered, so an export (O(state=gathered)) describes a provider without it;
        give it before applying the description to another server.
    type: list
    elements: dict
  reverse_proxy_domains:
    description:
      - Custom domains of the reverse proxy, each with the options of M(nms.overlay.reverse_proxy_domain).
      - Applied before O(reverse_proxy_services), so that a service can be published under a domain the same run adds.
      - The free domain each proxy cluster brings is not described, and O(prune) leaves it alone.
      - Servers from NetBird v0.65.0 on; an older server refuses a list that is not empty before any write.
    type: list
    elements: dict
  reverse_proxy_services:
    description:
      - Services the reverse proxy publishes, each with the options of M(nms.overlay.reverse_proxy_service). Targets
        name their peer or network resource (O(nms.overlay.reverse_proxy_service#module:targets[].target_id)) and
        O(nms.overlay.reverse_proxy_service#module:access_groups) their groups by name, which may be created by the
        same description; every such reference is checked before the first write.
      - A service needs a NetBird proxy connected to the server (a proxy cluster); without one the server refuses it.
      - Its sign-in secrets (a password, a PIN, header values) are write-only, as in the module. They are sent on
        create and when a sign-in method is turned on, otherwise only with the entry's
        O(nms.overlay.reverse_proxy_service#module:update_secret=always); they are never in the result or a diff.
        An export describes a service without them (the sign-in methods stay, enabled or not); give them before
        applying the description to another server.
      - Servers from NetBird v0.65.0 on; an older server refuses a list that is not empty before any write.
    type: list
    elements: dict
  agent_network_settings:
    description:
      - The Agent Network settings, with the options of M(nms.overlay.agent_network_settings). The first run that
        describes them bootstraps them (O(nms.overlay.agent_network_settings#module:proxy_address) or
        O(nms.overlay.agent_network_settings#module:endpoint)), later ones update them.
      - O(nms.overlay.agent_network_settings#module:state=absent) deletes them, with the other deletions, after the
        providers the description deletes (servers keep the settings while a provider exists).
      - Servers from NetBird v0.74.0 on; an older server refuses them before any write unless empty (C({}) describes nothing).
    type: dict
  agent_network_providers:
    description:
      - Agent Network providers, each with the options of M(nms.overlay.agent_network_provider).
      - The API key is write-only, as in the module. It is required to create a provider, and sent on an update only
        with the entry's O(nms.overlay.agent_network_provider#module:update_secret=always); it is never in the result
        or a diff. An export describes a provider without it, so a provider the export names can be applied again to
        the same server, but not created elsewhere until its C(api_key) is given.
      - Servers from NetBird v0.74.0 on; an older server refuses a list that is not empty before any write.
    type: list
    elements: dict
  agent_network_guardrails:
    description:
      - Agent Network guardrails, each with the options of M(nms.overlay.agent_network_guardrail).
      - A guardrail a policy still attaches is not deleted (the task fails, naming the policies); policies described
        absent or pruned are deleted first.
      - Servers from NetBird v0.74.0 on; an older server refuses a list that is not empty before any write.
    type: list
    elements: dict
  agent_network_policies:
    description:
      - Agent Network policies, each with the options of M(nms.overlay.agent_network_policy). Source groups,
        providers and guardrails are given by name, and may be created by the same description.
      - Servers from NetBird v0.74.0 on; an older server refuses a list that is not empty before any write.
    type: list
    elements: dict
  agent_network_budget_rules:
    description:
      - Agent Network budget rules, each with the options of M(nms.overlay.agent_network_budget_rule). Target groups
        and users are given by name (users by email, or a service user's name).
      - Servers from NetBird v0.74.0 on; an older server refuses a list that is not empty before any write.
    type: list
    elements: dict
  default_policy:
    description:
      - What happens to the account-wide allow-all policy. Every account starts with one, named C(Default), that
        accepts every protocol from the C(All) group to the C(All) group. While it is enabled, every peer reaches every other peer, and restrictive
        policies grant nothing new.
      - V(disable) sets C(enabled=false) on it and keeps every other field as the server has it, after the
        described policies are applied (so that access never drops to nothing in between). V(remove) deletes it,
        with the other deletions, at the end of the run. V(keep) leaves it as it is, and O(prune) does not delete
        it. Not given, it is treated like any other policy (left alone, and pruned when O(prune) is set and the
        description has O(policies)).
      - The allow-all policies are found by what they are, not by their name, so that a renamed C(Default) is found. They are
        every policy on the server that the description does not name, has no source posture check, and whose rules
        (at least one) all accept every protocol from the C(All) group to the C(All) group. A policy that grants or
        denies anything else (a policy named C(Default) that now allows only SSH, say) is never disabled or deleted
        here. When there is none, there is nothing to do. A policy the description names is handled as described.
      - The C(All) group here is the account's built-in one, not any group of that name (a renamed group, or one
        synced from an identity provider, may be called C(All) too). It is the group named C(All), issued by the API,
        that holds the most peers (servers add every peer to it). When several such groups hold as many peers,
        V(disable) and V(remove) fail rather than guess; so they do, before any write, when the server answers an
        allow-all policy without its id (a broken server or proxy), which nothing can update or delete. A v0.27
        server answers a later allow-all rule of a policy without its sources (the All group an earlier rule lists);
        such a rule counts as an allow-all rule.
      - Whatever this option says, the task warns when the description builds restrictive policies while an enabled
        policy with an allow-all rule (no source posture check) stays after the run.
      - A later run without the option (a teardown, say) leaves the policy as it is, so a disabled one stays disabled.
    type: str
    choices: [keep, disable, remove]
  state:
    description:
      - V(present) brings the network to the description.
      - V(gathered) reads the network instead, into RV(gathered), as exactly the description this module takes, to keep
        in a file (the C(nms.overlay.export_network) playbook does), review, and apply again. Nothing is written,
        and no description is taken (giving one, O(group_memberships), O(prune) or O(default_policy) is refused).
      - The export gives references by name, leaves out what servers answer but a description does not give (ids, counts,
        dates, setup key values and tokens; a setup key is described by its options, never its value, and by the lifetime
        it was created with as C(expires_in)). It writes every other field, defaults and empty values too (a policy's
        C(enabled=true), a rule's C(action=accept), a group's C(peers=[])), so that the export pins the whole state; a
        change made by hand to any of them is drift, and applying the export undoes it. Left out are only an empty or
        default value the option refuses (a service user's empty email) and fields the server does not have. Entries and
        lists are in a stable order (by name), so an unchanged network exports to the same text.
      - Left out as prune leaves them alone, the C(All) group, groups an identity provider or an integration issued,
        owners and the calling user; and setup keys that admit no peer any more (revoked, expired or used up), which
        applied to another server would create keys that do. O(prune) removes such keys when the export is applied.
      - An object its name (or email, network id, domain) does not identify alone, such as a second route of the same
        network id, is described with its C(id) too, and a reference whose name is not unique is given as an id; the task
        warns about each.
      - Applied to the server it was read from, an export changes nothing. Applied to another server, the peers it names
        must exist there (peers join with setup keys), and users other than service users must be able to be invited.
      - Sections of kinds the server does not have (Networks, DNS zones, the reverse proxy and the Agent Network on a
        v0.27 server) are not in the export, nor Agent Network settings that are not bootstrapped.
      - Write-only values are never answered, so never exported, an Agent Network provider's C(api_key), an identity
        provider's C(client_secret), a reverse proxy service's sign-in secrets. Applied to the same server, the export
        keeps the values the server holds; to create those objects on another server, add the values (from a vault)
        first, or the server refuses them.
      - V(rendered) checks the description and returns the requests it would send to an empty account (RV(requests)),
        for the review of a change in CI, with no server and no token. O(api_url), O(api_token) and the other
        connection options are not used when given, and no connection is made.
      - It is the plan of check mode, on an empty account of the release O(server_version) names, held in memory.
        Nothing is checked less than by a run, and a description a run refuses fails with the same message
        (an unknown key, an invalid option, a reference to a group or posture check that is neither described nor in
        a new account, a section that release does not have).
      - An empty account has the C(All) group and the allow-all C(Default) policy (what O(default_policy) and
        O(prune) act on), the account's, DNS and Agent Network settings as a new account has them, and nothing else.
        What a description names but cannot create is taken to exist, peers (they join with setup keys) and the groups of
        O(group_memberships).
      - References are rendered as placeholders where the server would put ids, V((new group servers)) for an object
        the requests create, V((existing group All)) or V((existing peer web-1)) for one the account has. An update
        sends back every field the server holds that the description does not set, rendered as a new account has them.
        Write-only values (an Agent Network provider's C(api_key), an identity provider's C(client_secret), sign-in
        secrets) show as V((write-only, sent, not shown)); setup key values are made by the server and never in a
        request.
      - Only the writes are rendered, in the order a run sends them; a run also reads one list per kind (and, for
        O(group_memberships), each group right before its write and after it); the PUT that a run sends after the create
        of a network router described C(enabled=false) or a setup key described C(revoked=true) (servers ignore both on
        create) is not rendered, as check mode does not plan it. Nothing is changed, so the task is
        never C(changed). With C(--diff) the requests are shown as text. O(created_secrets_file) is not used.
      - A separate C(validated) state is not needed, as V(rendered) is the check without a server, whether
        RV(requests) is read or not.
    type: str
    choices: [present, gathered, rendered]
    default: present
  server_version:
    description:
      - With O(state=rendered), the NetBird release whose empty account the requests are rendered for, such as
        V(0.77.1) or V(v0.27.6). The request shapes follow it as they follow a server of that release (for example a
        rule's port ranges, and the sections a release does not have are refused). A release before v0.64.2 is
        rendered as the v0.27 generation, which the collection cannot tell apart without a version probe.
      - Not given, the newest release the collection is tested with, V(0.77.1).
      - Refused with another O(state) (a server tells its own release).
    type: str
    version_added: 1.0.0
  prune:
    description:
      - Also remove resources of the described kinds that the description does not name.
      - Only the kinds given in the description are pruned; a kind that is left out is not touched.
      - For a described network or DNS zone, what is in it is pruned the same way, one list at a time (see O(networks)
        and O(dns_zones)).
      - Groups are deleted except the C(All) group and groups issued by an identity provider or an integration;
        setup keys are deleted, or on a v0.27 server (which cannot delete them) revoked with their auto groups cleared
        (revoked keys without auto groups are left alone); users are deleted except owners and the calling user;
        reverse proxy domains except the free domains of proxy clusters. The Agent Network settings are never pruned
        (describe them with C(state=absent) to delete them).
      - Refused when the description is empty.
      - Before the first write (also in check mode), the task fails and changes nothing when it would delete a group or
        a posture check that something would still use once the run is done, whether a described resource (as the
        description leaves it) or a resource that stays on the server (for example a revoked setup key that still lists
        the group, a user or the DNS settings when their kind is not described, or a route's peer groups, which
        the server itself does not check). The message lists each blocked deletion and what uses it.
      - A group or posture check described with O(nms.overlay.group#module:state=absent) is checked the same way.
    type: bool
    default: false
  reach:
    description:
      - Say peer by peer which reach the run adds and removes (RV(reach_changes)), for example C(laptop-ana loses db-1
        tcp 5432) and C(ops-1 gains web-1 all), what each peer reaches (other peers, routes) on which protocols and
        ports, worked out as the access report does (the filter P(nms.overlay.access_matrix#filter), see the collection's
        access report page) on the state the task read before its first write and on the state it leaves. Check mode
        predicts it; a run returns the same prediction, made before its first write.
      - Worked out only when the run changes (or in check mode would change) groups, policies or routes; what it needs
        and the run did not read is read then, once each, the peers, the routes and the groups (at most three requests).
        A run that changes none of them, an unchanged run for example, sends no request for it.
      - Posture checks are not evaluated (what holds only for peers passing them counts as reached, as in the access
        report); Networks' resources are not worked out (see the access report for them).
      - V(false) works nothing out and returns no RV(reach_changes).
    type: bool
    default: true
  reach_peer_limit:
    description:
      - The most peers (0 or more) for which O(reach) is worked out (the work grows with the square of the peers).
        With more, the task warns and returns no RV(reach_changes).
    type: int
    default: 250
notes:
  - Deletions (items described with C(state=absent), and pruning) happen after every other described resource was
    applied, in reverse dependency order (the Agent Network and the reverse proxy first, groups last), so one description
    with every item C(state=absent) removes a whole network in one run, and a policy or route deleted in the same
    run does not keep a group in use. References of an item described absent are not resolved, so running the
    same teardown again changes nothing.
  - The order is groups, posture checks, networks (each followed by its resources, then its routers, so that a policy's
    rule can name a resource the run creates), policies, routes, nameserver groups, DNS settings, DNS zones (each
    followed by its records), setup keys, users, account settings, identity providers, reverse proxy domains, reverse
    proxy services, Agent Network settings, providers, guardrails, policies and budget rules.
  - Not described here, as they hold no desired state, proxy tokens (a secret shown once, like a personal access
    token or a setup key's value, see M(nms.overlay.reverse_proxy_token)), proxy clusters (the proxies that connected
    with such a token, only removed, see M(nms.overlay.reverse_proxy_cluster)), peers (they join with setup keys),
    user invites, the Agent Network provider catalog and its reports (reads, see the info modules).
  - Write-only values in a description (an Agent Network provider's C(api_key), an identity provider's
    C(client_secret), a reverse proxy service's sign-in secrets) follow their modules' rules. Each entry takes its
    module's option for them (C(update_secret)), V(on_create) by default, so a re-run of the same description sends
    nothing; they never show in the result, the diff or the progress lines.
  - With C(--diff), every changed resource gets its own before and after, headed by its kind and name.
  - The task tells what it is doing as it goes (at the default verbosity), one line per kind once that kind is applied
    (for example the number of groups created and left unchanged, with their names), and each retry with the wait before
    it and why.
    Lines show at once when the module runs in the controller's process (the default for C(localhost), see the
    collection's docs on where modules run); a module process cannot show anything while it runs, so the same
    lines are always returned in RV(progress).
seealso:
  - module: nms.overlay.group
  - module: nms.overlay.policy
  - module: nms.overlay.route
  - module: nms.overlay.network
  - module: nms.overlay.dns_zone
  - module: nms.overlay.reverse_proxy_service
  - module: nms.overlay.agent_network_policy
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.resource, nms.overlay.module.created_secrets]
'''

EXAMPLES = r'''
- name: Describe the office network
  nms.overlay.network_state:
    groups:
      - name: office
      - name: servers
    policies:
      - name: office to servers
        enabled: true
        rules:
          - name: ssh
            action: accept
            protocol: tcp
            ports: ["22"]
            sources: [office]
            destinations: [servers]
    dns_settings:
      disabled_management_groups: []

- name: Build restrictive policies and switch the account's allow-all Default policy off
  nms.overlay.network_state:
    default_policy: disable
    groups:
      - name: developers
      - name: servers
    policies:
      - name: developers to servers
        rules:
          - name: ssh
            action: accept
            bidirectional: false
            protocol: tcp
            ports: ["22"]
            sources: [developers]
            destinations: [servers]

- name: Give the office LAN to the office through its gateways, with an internal zone (servers after v0.27)
  nms.overlay.network_state:
    groups:
      - name: office
      - name: office-routers
    networks:
      - name: office
        description: The office LAN
        resources:
          - name: office-lan
            address: 192.168.10.0/24
            groups: [office]
        routers:
          - peer_groups: [office-routers]
            metric: 100
            masquerade: true
    dns_zones:
      - name: Office
        domain: office.example.com
        distribution_groups: [office]
        records:
          - name: printer.office.example.com
            type: A
            content: 192.168.10.20
            ttl: 300
    prune: true

- name: Publish a dashboard through the reverse proxy and let engineering call OpenAI (servers from v0.74.0)
  nms.overlay.network_state:
    groups:
      - name: engineering
    reverse_proxy_domains:
      - domain: apps.example.com
        target_cluster: proxy.example.com
    reverse_proxy_services:
      - name: grafana
        domain: grafana.apps.example.com
        targets:
          - target_id: monitoring-01
            target_type: peer
            protocol: http
            port: 3000
        auth:
          bearer_auth:
            enabled: true
            distribution_groups: [engineering]
    agent_network_settings:
      proxy_address: eu.proxy.example.com
    agent_network_providers:
      - name: OpenAI
        provider_id: openai_api
        upstream_url: https://api.openai.com
        api_key: "{{ vault_openai_api_key }}"
        models:
          - id: gpt-5.4-mini
            input_per_1k: 0.00075
            output_per_1k: 0.0045
    agent_network_policies:
      - name: engineering to OpenAI
        source_groups: [engineering]
        destination_provider_ids: [OpenAI]
  no_log: true  # the API key is in the task's arguments

- name: Read the network into a description (see the export_network playbook)
  nms.overlay.network_state:
    state: gathered
  register: live

- name: Keep it in a file, to review and apply again
  ansible.builtin.copy:
    content: "{{ {'network_description': live.gathered} | nms.overlay.description_yaml }}"
    dest: network.yml
    mode: "0644"

- name: In CI, without a server or a token, render the requests a description sends to an empty account
  nms.overlay.network_state:
    state: rendered
    groups: "{{ network_description.groups | default(omit) }}"
    policies: "{{ network_description.policies | default(omit) }}"
    default_policy: disable
  register: rendered

- name: Keep them for the review of the change (a stable text, ids as placeholders)
  ansible.builtin.copy:
    content: "{{ rendered.rendered }}"
    dest: rendered-requests.txt
    mode: "0644"

- name: The same for a v0.27 server
  nms.overlay.network_state:
    state: rendered
    server_version: 0.27.6
    groups:
      - name: office
  register: rendered_v027

- name: Preview what a description would change, then apply it with pruning
  nms.overlay.network_state:
    groups:
      - name: office
      - name: servers
    prune: true
  check_mode: true
  register: preview
'''

RETURN = r'''
changes:
  description:
    - One entry per resource the task created, updated or deleted (or would, in check mode).
    - When the task fails part-way, the changes it made before the failure, so the run can be completed
      or undone; the failure result then also has C(changed=true). In a failure result (which Ansible prints
      in full) it never holds a setup key's value; revoke a key that a failed run created (unless
      O(created_secrets_file) kept its value).
  returned: when O(state=present) (the default), and on a failure after a change
  type: list
  elements: dict
  contains:
    kind:
      description:
        - The description key of the resource; for what is listed inside a network or a DNS zone, V(network_resources),
          V(network_routers) or V(dns_records).
      type: str
      sample: groups
    name:
      description:
        - Name (or email, or network id, or a DNS zone's domain) of the resource; a network router's routing peer, or
          its peer groups.
      type: str
      sample: servers
    action:
      description:
        - What happened to it, V(created), V(updated), V(deleted), or V(revoked) for a setup key that a v0.27 server
          cannot delete (revoked, its auto groups cleared).
      type: str
      sample: created
    pruned:
      description: Whether it was removed because O(prune) is set and the description does not name it.
      type: bool
      sample: false
    id:
      description: The resource's id (a placeholder for a resource created in check mode).
      type: str
      sample: ch8i4ug6lnn4g9hqv7m0
    default_policy:
      description: Present (V(true)) when the change is the account-wide allow-all policy that O(default_policy) disabled or removed.
      type: bool
      returned: when O(default_policy) changed the policy
      sample: true
    key:
      description:
        - The value of a setup key this task created, in the change that created it; returned only by the task that
          creates it (later runs, reads and diffs never show it), and not in a failure result.
      type: str
      returned: when the task succeeded and created a setup key (not in check mode), unless O(return_created_secrets=false)
      sample: A616097E-FCF0-48FA-9354-CA4A61142761
  sample:
    - kind: groups
      name: servers
      action: created
      pruned: false
      id: ch8i4ug6lnn4g9hqv7m0
reach_changes:
  description:
    - Who gains and who loses reach (see O(reach)), one item per peer, destination and way (losses first), sorted by
      peer name, then by destination (peers, then routes). The same in check mode as in the run.
    - An empty list when the run changes (or would change) no reach, also when it changes no group, policy or route.
    - With C(--diff), the reach of each such peer and destination before and after is one more diff, headed
      C(reach of the peers), and with C(-v) a progress line lists every item's RV(reach_changes[].line).
  returned: when O(state=present) (the default) and O(reach=true), unless the peers are more than O(reach_peer_limit)
  type: list
  elements: dict
  contains:
    line:
      description: The item in words, C(<peer> gains|loses <destination> <traffic>).
      type: str
      sample: laptop-ana loses db-1 tcp 5432
    peer:
      description: The name of the peer whose reach changes (the source of the traffic).
      type: str
      sample: laptop-ana
    peer_id:
      description: The id of that peer.
      type: str
      sample: ch8i4ug6lnn4g9hqv7m0
    change:
      description: V(gains) or V(loses).
      type: str
      sample: loses
    kind:
      description: What the peer reaches, V(peer) or V(route).
      type: str
      sample: peer
    target:
      description: The name of the peer reached, or a route's network id with its network (C(lan (10.1.0.0/16))).
      type: str
      sample: db-1
    target_id:
      description: Its id (a placeholder for a route the run creates in check mode).
      type: str
      sample: ch8i4ug6lnn4g9hqv7n0
    address:
      description: The peer's overlay address, or the route's network; empty when unknown.
      type: str
      sample: 100.64.0.12
    text:
      description: The traffic gained or lost in words, C(all), C(tcp 22, 443), C(udp 5432-5433), C(icmp),
        C(all except tcp 22).
      type: str
      sample: tcp 5432
    traffic:
      description: The same as data, C(tcp) and C(udp) port ranges (C(1-65535) for every port), C(icmp) and C(other)
        (protocols other than tcp, udp and icmp).
      type: dict
      sample: {tcp: ["5432"], udp: [], icmp: false, other: false}
    before:
      description: All that the peer reaches of the destination before the run, in words (C(nothing) when nothing).
      type: str
      sample: tcp 22, 5432
    after:
      description: All that it reaches of it after the run, in words.
      type: str
      sample: tcp 22
    posture_checks:
      description: Names of the posture checks a peer must pass for what it reaches after the run (not evaluated).
      type: list
      elements: str
      sample: []
  sample:
    - {line: laptop-ana loses db-1 tcp 5432, peer: laptop-ana, peer_id: ch8i4ug6lnn4g9hqv7m0, change: loses, kind: peer,
       target: db-1, target_id: ch8i4ug6lnn4g9hqv7n0, address: 100.64.0.12, text: tcp 5432,
       traffic: {tcp: ["5432"], udp: [], icmp: false, other: false}, before: tcp 5432, after: nothing, posture_checks: []}
summary:
  description:
    - For each described kind, how many resources were created, updated, deleted and left unchanged; setup keys also
      count the keys only revoked (C(revoked)). What is listed inside networks and DNS zones is counted under
      C(network_resources), C(network_routers) and C(dns_records).
    - In check mode nothing was done, and the counts say so, under C(would_create), C(would_update), C(would_delete)
      (and C(would_revoke)) besides C(unchanged).
    - RV(changes[].action) keeps the same words in both modes, so that a preview's changes can be compared with the
      run's.
  returned: when O(state=present) (the default) or O(state=rendered) (which counts as check mode does)
  type: dict
  sample:
    groups: {created: 1, updated: 0, deleted: 0, unchanged: 2}
requests:
  description:
    - With O(state=rendered), the writes the description would send to an empty account (see O(state)), in the order
      a run sends them; the same description renders the same list.
  returned: when O(state=rendered)
  type: list
  elements: dict
  contains:
    method:
      description: The HTTP method, V(POST), V(PUT) or V(DELETE).
      type: str
      sample: POST
    path:
      description: The request's path, ids as placeholders (V(/api/policies/(existing policy Default))).
      type: str
      sample: /api/groups
    resource:
      description: What the request writes, its noun and name.
      type: str
      sample: group servers
    body:
      description:
        - The JSON body as it would be sent, references as placeholders and write-only values masked; not there for a
          V(DELETE).
        - For a change of a group's members (O(group_memberships)), the peers it adds; see RV(requests[].note).
      type: dict
      returned: when the request has a body
      sample: {name: servers, peers: []}
    members:
      description: For a change of a group's members, the peers added (C(add)) and taken out (C(remove)).
      type: dict
      returned: for a change of a group's members
      sample: {add: ["(existing peer web-1)"], remove: []}
    note:
      description: For a change of a group's members, that the members sent are the server's at the time of the write,
        with RV(requests[].members) applied.
      type: str
      returned: for a change of a group's members
      sample: the peers the server holds right before the write (read then, and read back after), with members.add added
  sample:
    - method: POST
      path: /api/groups
      resource: group servers
      body: {name: servers, peers: []}
rendered:
  description:
    - With O(state=rendered), RV(requests) as text for a reviewer, each request's method and path, then its body as
      indented JSON with sorted keys (what C(--diff) shows).
  returned: when O(state=rendered)
  type: str
  sample: "POST /api/groups  # group servers\n{\n  \"name\": \"servers\",\n  \"peers\": []\n}\n"
server_version:
  description: With O(state=rendered), the release the requests were rendered for.
  returned: when O(state=rendered)
  type: str
  sample: 0.77.1
gathered:
  description:
    - With O(state=gathered), the network as a description this module takes, with a key per section the server has
      (lists sorted by name; C(dns_settings), C(account_settings) and C(agent_network_settings) objects), networks with
      their C(resources) and C(routers), DNS zones with their C(records). No write-only value (see O(state)).
  returned: when O(state=gathered)
  type: dict
  sample:
    groups:
      - name: developers
        peers: [laptop-ana]
      - name: servers
        peers: [db-1, web-1]
    policies:
      - name: developers to servers
        rules:
          - name: ssh
            bidirectional: false
            protocol: tcp
            ports: ["22"]
            sources: [developers]
            destinations: [servers]
    setup_keys:
      - name: servers
        type: reusable
        auto_groups: [servers]
    dns_settings:
      disabled_management_groups: []
msg:
  description:
    - The summary in words, kind by kind, naming what changed (up to five names per action); in check mode it
      begins with C(check mode, nothing was changed) and speaks in the conditional (C(would create)).
  returned: success
  type: str
  sample: "groups: created 1 (servers), 1 unchanged; policies: created 1 (ssh), updated 1 (Default)"
progress:
  description:
    - What the task did, in order, one line per kind (and one per retry, with its wait and cause), as shown
      while it runs in the controller's process.
  returned: success
  type: list
  elements: str
  sample:
    - "network_state: description checked: 3 resources in 2 kinds, every reference found"
    - "network_state: groups: created 1 (servers), 1 unchanged"
    - "network_state: policies: created 1 (ssh)"
method:
  description: HTTP method of the request that failed.
  returned: when the task failed on an API request
  type: str
  sample: PUT
path:
  description: API path of the request that failed (ids only, never a secret).
  returned: when the task failed on an API request
  type: str
  sample: /policies/ch8i4ug6lnn4g9hqv7m0
status:
  description: HTTP status of the failed request; null when no answer came (connection error, timeout).
  returned: when the task failed on an API request
  type: int
  sample: 422
'''

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._network import NetworkStateModule


if __name__ == '__main__':
    NetworkStateModule.main()
