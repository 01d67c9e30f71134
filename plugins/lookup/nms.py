# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
name: nms
short_description: Read objects of the overlay network, or their ids by name, inside templates
version_added: 1.0.0
description:
  - Reads objects from the management API while a template is rendered, so a task can use the id of a group, a peer
    or a policy it knows by name, or every object of a kind, without a separate C(*_info) task and C(register).
  - Each term is a kind, such as V(groups), for every object of that kind, or V(KIND/NAME), such as V(groups/ops),
    for the one object whose name (or id) is NAME. Everything after the first C(/) is the name, so a name may hold
    C(/) itself (V(groups/site/berlin) is the group C(site/berlin)). O(name) gives the names as an option instead.
  - >-
    The kinds are those the info modules list account-wide, with the field a name is matched on:
    V(groups), V(peers), V(posture_checks), V(networks), V(network_resources), V(policies), V(setup_keys),
    V(nameserver_groups), V(identity_providers), V(reverse_proxy_services) and the Agent Network kinds
    (V(agent_network_providers), V(agent_network_guardrails), V(agent_network_policies),
    V(agent_network_budget_rules)) by C(name); V(users) and V(user_invites) by C(email) (any case; users by C(name)
    too); V(dns_zones) by C(domain) or C(name); V(reverse_proxy_domains) by C(domain); V(reverse_proxy_clusters) by
    C(address); V(reverse_proxy_tokens) by C(name); V(routes) by C(network_id). An unknown kind fails, listing them.
  - Each kind is read with one request (its list), however many terms name it. A kind that only servers after v0.27
    have sends C(GET /api/instance/version) first and fails, naming the release, on a server without it.
  - The objects are shaped as the kind's info module returns them (ids as text, list fields never null, values the
    server shows only once, such as a setup key's, removed), but references to groups stay the ids the server sends.
  - Connection options are those of the collection's modules, with the same environment variables (E(NMS_API_URL),
    E(NMS_API_TOKEN), E(NMS_API_CA_PATH)), the same TLS checks, retries and error messages. Lookups run in the
    controller, so C(module_defaults) does not reach them; set the environment variables, or pass the options.
author:
  - nms.overlay contributors (@nms-overlay)
requirements:
  - requests
extends_documentation_fragment:
  - nms.overlay.plugin
options:
  _terms:
    description:
      - What to read, each V(KIND) (every object of the kind) or V(KIND/NAME) (the one object of that name or id).
    type: list
    elements: str
    required: true
  name:
    description:
      - Names (or ids) to read from each term that is a bare V(KIND); one object per name, in this order.
      - A name or a list of names. A name is taken as it is, commas included.
      - A term of the form V(KIND/NAME) names its object already; giving O(name) with such a term fails.
    type: raw
  result:
    description:
      - What each object found becomes in the lookup's answer. V(object) is the whole object, as the kind's info
        module returns it; V(id) is only its id, for a module option that takes an id.
    type: str
    choices: [object, id]
    default: object
  on_missing:
    description:
      - What a name that matches nothing does. V(error) fails the template, naming the kind, the name and the
        closest existing names; V(skip) gives nothing for it; V(warn) gives nothing for it and warns.
      - A name that matches several objects always fails, listing their ids, whatever this option says.
    type: str
    choices: [error, skip, warn]
    default: error
notes:
  - >-
    Ansible's C(lookup) joins a list of texts with commas unless given C(wantlist=true); C(query) (or C(q)) always
    answers a list. So C(lookup(..., 'groups/ops', result='id')) is the id itself, and
    C(query(..., 'groups/ops', 'groups/dev', result='id')) the list of both ids, in the order of the terms.
  - >-
    A failed request names the method, the full URL and the HTTP status, never the token. Redirects are never
    followed, so the token is only ever sent to O(api_url). A proxy is used as for the modules (E(HTTPS_PROXY),
    E(NO_PROXY)).
  - >-
    Objects the lookup returns are never templated again (ansible-core marks a lookup's answer so), so a name such as
    C({{ x }}) arrives as it is.
  - >-
    Every lookup reads the server anew, so a template used in a loop reads once per item. Read once into a variable
    (C(ansible.builtin.set_fact)) to use the answer many times.
seealso:
  - module: nms.overlay.group_info
  - module: nms.overlay.peer_info
  - plugin: nms.overlay.peers
    plugin_type: inventory
'''

EXAMPLES = r'''
- name: The ids of two groups, for a tool or an API call that takes ids (the collection's modules take names too)
  ansible.builtin.set_fact:
    team_group_ids: "{{ query('nms.overlay.nms', 'groups', name=['admins', 'servers'], result='id') }}"

- name: The id of one group (lookup answers the text itself for one id)
  ansible.builtin.debug:
    msg: "{{ lookup('nms.overlay.nms', 'groups/ops', result='id') }}"

- name: Every peer's name, one request
  ansible.builtin.debug:
    msg: "{{ query('nms.overlay.nms', 'peers') | map(attribute='name') | list }}"

- name: A name with a slash or spaces is everything after the first slash
  ansible.builtin.set_fact:
    berlin: "{{ lookup('nms.overlay.nms', 'groups/site/berlin office') }}"

- name: A setup key if it exists, else nothing
  ansible.builtin.set_fact:
    ci_key: "{{ query('nms.overlay.nms', 'setup_keys/ci', on_missing='skip') | first | default(None) }}"

- name: Another server, with a private CA
  ansible.builtin.debug:
    msg: >-
      {{ query('nms.overlay.nms', 'users/admin@example.com', api_url='https://nms.example.com',
               ca_path='/etc/ssl/nms-ca.pem') }}
'''

RETURN = r'''
_list:
  description:
    - For each term in order, the objects it names (O(result=object)) or their ids (O(result=id)). A V(KIND) term gives
      every object of the kind; a V(KIND/NAME) term, or each of O(name), the one object found, or nothing where it
      matches nothing and O(on_missing) is V(skip) or V(warn).
    - The objects are those of the kind's info module (for example C(groups) of M(nms.overlay.group_info)).
  type: list
  elements: raw
'''

import os

from ansible.errors import AnsibleLookupError
from ansible.plugins.lookup import LookupBase
from ansible.utils.display import Display

from ansible_collections.nms.overlay.plugins.module_utils._client import HAS_REQUESTS, ApiError, Client
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._lookup import TermError, lookup_kinds, parse_terms
from ansible_collections.nms.overlay.plugins.module_utils._resolve import find_unique, plural, suggestions
from ansible_collections.nms.overlay.plugins.module_utils._server import ServerInfo
from ansible_collections.nms.overlay.plugins.module_utils._tables import ANSWER_TYPES

display = Display()

PREFIX = 'nms.overlay.nms'


class LookupModule(LookupBase):

    def run(self, terms, variables=None, **kwargs):
        self.set_options(var_options=variables, direct=kwargs)
        kinds = lookup_kinds()
        try:
            wanted = parse_terms(terms, self.get_option('name'), kinds)
        except TermError as exc:
            raise AnsibleLookupError(str(exc)) from None
        reader = _Reader(self._client(), kinds)
        answer = []
        try:
            for term, kind, name in wanted:
                answer.extend(self._answer(reader, term, kinds[kind], name))
        except (ApiError, TaskError) as exc:
            raise AnsibleLookupError(str(exc)) from None
        return answer

    def _answer(self, reader, term, kind, name):
        items = reader.items(kind)
        if name is None:
            found = items
        else:
            where = "term '%s'" % term if term != kind.name else "term '%s', name '%s'" % (term, name)
            item = find_unique(items, name, kind.fields, kind.what, where)
            if item is None:
                close = suggestions(items, [name], kind.fields)
                message = "%s: no %s with the id or %s '%s'%s" % (
                    where, kind.what, ' or '.join(kind.fields), name,
                    '; did you mean %s?' % ' or '.join("'%s'" % other for other in close) if close else '')
                if self.get_option('on_missing') == 'error':
                    raise TaskError(message)
                if self.get_option('on_missing') == 'warn':
                    display.warning('%s: %s' % (PREFIX, message))
                found = []
            else:
                found = [item]
        if self.get_option('result') == 'id':
            return [ref_id(item) for item in found]
        return [kind.declaration.result_shape(item) for item in found]

    def _client(self):
        if not HAS_REQUESTS:
            raise AnsibleLookupError('%s: the lookup needs the Python library requests' % PREFIX)
        validate_certs = self.get_option('validate_certs')
        if not validate_certs:
            display.warning('%s: validate_certs is false: the server certificate is not verified' % PREFIX)
        # Not an env: entry of ca_path: Ansible would turn the empty value that AWX injects for a credential without a
        # CA certificate into the current directory.
        ca_path = self.get_option('ca_path') or os.path.expanduser(os.environ.get('NMS_API_CA_PATH', '')) or None
        try:
            return Client(self.get_option('api_url'), self.get_option('api_token'), validate_certs=validate_certs,
                          ca_path=ca_path, timeout=self.get_option('timeout'), retries=self.get_option('retries'),
                          notify=lambda message: display.warning('%s: %s' % (PREFIX, message)),
                          answer_types=ANSWER_TYPES)
        except TaskError as exc:  # a connection option that cannot work (or is not set), named in the message
            raise AnsibleLookupError(str(exc)) from None


class _Reader:
    """Each kind's list, read at most once per lookup; a kind of today's servers only is refused on older ones first."""

    def __init__(self, client, kinds):
        self.client = client
        self.kinds = kinds
        self.lists = {}
        self.server = None

    def items(self, kind):
        if kind.name not in self.lists:
            requires = kind.declaration.requires
            if requires:
                self.server = self.server or ServerInfo(self.client)
                refusal = self.server.lacks(requires)
                if refusal:
                    raise TaskError('cannot read the %s: %s' % (plural(kind.what), refusal))
            self.lists[kind.name] = self.client.get_list(kind.path)
        return self.lists[kind.name]
