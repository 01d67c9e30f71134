# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
name: peers
short_description: Peers of the overlay network as Ansible hosts
version_added: 1.0.0
description:
  - Reads the peers of the overlay network from the management API (one request) and makes one host
    per peer, with C(ansible_host) set to the peer's overlay address, an Ansible group per peer group,
    and the peer's fields as host variables.
  - "The inventory file must contain C(plugin: nms.overlay.peers) (a line of its own, at its start) and be named
    C(*.yml) or C(*.yaml); names ending in C(.nms.yml) or C(.nms.yaml) are the convention. ansible-core does not hand
    a file of another name (C(peers.json), C(peers)) to this plugin, and warns that it could not parse it."
  - Connection options come from the file or from the environment (E(NMS_API_URL), E(NMS_API_TOKEN)),
    like for the collection's modules. The token is never printed, also not in error messages.
  - A wrong URL or token fails the inventory with the method, full URL and status of the failed request;
    it never yields an empty inventory. Nor does a typo in O(include_groups) or O(exclude_groups); a
    name there that is no group on the server fails the inventory, naming it. Ansible then stops with that
    message and exit code 1, whatever its settings for sources that cannot be parsed (by default only a warning,
    after which plays would match no host).
  - >-
    Every other error fails the inventory in the same way, never only a warning: an option in the file
    that the plugin does not have (a typo such as C(hostname_sourc), named with the list of options), a
    wrong value of an option (named with the values it accepts), and a server answer the plugin cannot use
    (a peer field of the wrong type such as C(groups) being a number, or JSON nested too deeply), named
    with the method, full URL, the peer and the field.
  - "As an AWX or Automation Controller inventory source: choose I(Sourced from a Project), point
    I(Inventory file) at the C(.nms.yml) file in the project (for example C(inventory/production.nms.yml)),
    and attach a credential of a custom credential type that injects the environment variables
    E(NMS_API_URL) and E(NMS_API_TOKEN) (mark the token field secret). The execution environment needs
    the collection and the Python library C(requests)."
author:
  - nms.overlay contributors (@nms-overlay)
requirements:
  - requests
extends_documentation_fragment:
  - constructed
  - inventory_cache
  - nms.overlay.plugin
options:
  plugin:
    description: Marks the file as an inventory source of this plugin.
    type: str
    required: true
    choices: [nms.overlay.peers]
  hostname_source:
    description:
      - Which peer field names the host. V(dns_label) is the peer's DNS name in the overlay network
        (a bare label or a fully qualified name, as the server sends it); V(name) is the peer's name.
      - A peer whose field is empty is named by its other field. When two peers would get the same
        host name, the later one (by id) gets its id appended and a warning is shown.
      - A host is never named like a group (an Ansible group made from a peer group, C(all), C(ungrouped), or a
        group of an inventory source read before), because Ansible would take the name for the group, and a play on
        that group would miss its peers. Such a peer gets its id appended (for example C(web_<id>)) and a warning names
        the peer and the group. A group made by O(compose), O(groups) or O(keyed_groups) with the name of a host
        fails the inventory, naming both.
    type: str
    choices: [dns_label, name]
    default: dns_label
  ansible_host_source:
    description:
      - Which address becomes C(ansible_host). V(ip) is the peer's address inside the overlay network;
        V(connection_ip) is the public address the peer connected from (C(ansible_host) is not set when
        the server knows none).
    type: str
    choices: [ip, connection_ip]
    default: ip
  group_prefix:
    description:
      - Text put before every Ansible group made from a peer group. Group names are made safe for
        Ansible (characters other than letters, digits and C(_) become C(_)).
      - When several peer groups become the same Ansible group (for example C(web-servers) and
        C(web servers) both become C(web_servers)), that Ansible group holds the peers of all of them and
        a warning names the peer groups.
    type: str
    default: ''
  include_all_group:
    description:
      - Whether the built-in C(All) group, which holds every peer, becomes an Ansible group too.
    type: bool
    default: true
  vars_prefix:
    description:
      - Text put before the name of every host variable made from a peer field, for example
        C(nms_os), C(nms_connected), C(nms_groups). Must not be empty, so that peer fields such as
        C(groups) never overwrite Ansible's own variables.
    type: str
    default: nms_
  peer_fields:
    description:
      - Which peer fields become host variables (named without O(vars_prefix)), for example
        V(id), V(os), V(connected), V(groups). Unset makes every field of the peer a host variable.
      - With tens of thousands of peers, fewer fields make the inventory noticeably faster, because
        Ansible handles every host variable of every host on each run.
      - C(ansible_host) is set either way. A field the server does not send for a peer is left out.
      - Servers from v0.77 on send more fields than v0.27 servers, for example V(inactivity_expiration_enabled),
        V(created_at), V(ephemeral), V(extra_dns_labels), V(local_flags) (the agent's own settings),
        V(disapproval_reason) and, where IPv6 is on, V(ipv6); on a v0.27 server these host variables are
        left out, so use them with a C(default) in O(compose), O(groups) and O(keyed_groups) when both
        generations serve the inventory.
      - A field nested deeper than 16 levels of lists and objects fails the inventory, naming the peer and the field.
    type: list
    elements: str
    version_added: 1.0.0
  connected_only:
    description: Whether only peers connected now become hosts.
    type: bool
    default: false
  include_groups:
    description:
      - Only peers in at least one of these peer groups (names or ids) become hosts. Unset keeps every peer.
      - A name or id that is no group on the server (a typo) fails the inventory, naming it. A group that
        exists but holds no peer is no error.
    type: list
    elements: str
  exclude_groups:
    description:
      - Peers in any of these peer groups (names or ids) do not become hosts.
      - A name or id that is no group on the server fails the inventory, naming it, as for O(include_groups).
    type: list
    elements: str
notes:
  - >-
    The host variables are the peer's fields as the server sends them, under O(vars_prefix); C(groups) is
    a list of group summaries with C(id) and C(name), never null. C(connection_ip) is null when the server knows
    no address for the peer (a peer that never connected, for which servers send C(<nil>), Go's nil address, or an
    empty text).
  - >-
    A peer group whose Ansible group would be C(all) or C(ungrouped), Ansible's own groups (of every host, and of
    hosts in no other group), becomes the Ansible group C(all_group) or C(ungrouped_group) instead (with
    O(group_prefix) before it, as every group), and a warning names it.
  - >-
    Peer data is chosen by the machines that join (names, hostnames, operating system texts). Every text
    that could be a template (it contains C({), C(%) or C(#jinja2:)), in host names and host variables, is
    marked unsafe and never templated; a peer called C({{ 7 * 6 }}) is the host C({{ 7 * 6 }}).
    Other values are imported as they are, so C(ansible-inventory --list) prints C(ansible_host) as
    C("100.64.0.11"), not as C({"__ansible_unsafe": "100.64.0.11"}), and AWX imports plain values.
  - The plugin sends one request (the list of peers). Only when a name or id in O(include_groups) or
    O(exclude_groups) is in no peer's groups does it also read the list of groups, to tell a group
    without peers from a name that is no group.
  - With O(cache=true), a second run within O(cache_timeout) sends no request to the server. Run
    C(ansible-playbook --flush-cache), or C(ansible-inventory --flush-cache) on ansible-core 2.19 and later, to read
    fresh data.
seealso:
  - module: nms.overlay.peer_info
  - module: nms.overlay.peer
'''

EXAMPLES = r'''
# inventory/production.nms.yml: every peer, grouped by its groups; connection from
# NMS_API_URL and NMS_API_TOKEN.
plugin: nms.overlay.peers
---
# inventory/servers.nms.yml: connected Linux servers, named by peer name, cached for 10 minutes
plugin: nms.overlay.peers
api_url: https://nms.example.com
hostname_source: name
connected_only: true
peer_fields: [id, os, connected, ssh_enabled, groups]
include_groups:
  - servers
include_all_group: false
group_prefix: nms_
cache: true
cache_plugin: ansible.builtin.jsonfile
cache_connection: ~/.cache/nms-inventory
cache_timeout: 600
compose:
  ansible_user: "'admin'"
keyed_groups:
  - key: nms_os | lower | regex_replace(' .*', '')
    prefix: os
groups:
  ssh_ready: nms_ssh_enabled
'''

import hashlib
import os
import re
from collections.abc import Mapping

from ansible.inventory.group import to_safe_group_name
from ansible.plugins.inventory import BaseInventoryPlugin, Cacheable, Constructable
from ansible.utils.display import Display
from ansible.utils.unsafe_proxy import wrap_var

from ansible_collections.nms.overlay.plugins.module_utils._names import builtin_all_group
from ansible_collections.nms.overlay.plugins.module_utils._client import (
    HAS_REQUESTS, ApiError, Client, api_roots,
)
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resources.group import GroupModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.peer import PeerModule
from ansible_collections.nms.overlay.plugins.module_utils._tables import ANSWER_TYPES
from ansible_collections.nms.overlay.plugins.module_utils._peers import (
    NO_ADDRESS, describe_peer, group_matches, in_any_group, normalise_peer, peer_groups, peer_shape_problem,
)

try:  # ansible-core 2.19 and later: strings from a plugin are never templated unless marked trusted
    from ansible.template import trust_as_template
except ImportError:  # earlier: every string is templated unless marked unsafe
    trust_as_template = None

# What a string needs to hold to be a template: a Jinja start string ({{ {% {#}, or the #jinja2: header that
# redefines them.
TEMPLATE_MARKS = ('{', '%', '#jinja2:')

# Peer fields are flat or hold summaries; anything nested deeper is not a peer as servers send it.
MAX_DEPTH = 16

# Ansible's own groups: a peer group whose Ansible name would be one of them becomes <name>_group instead
# (adding hosts to 'all' would silently drop the group; to 'ungrouped', misplace them)
RESERVED_GROUPS = ('all', 'ungrouped')
RESERVED_SUFFIX = '_group'

# The inventory file: any name ending in .nms.yml / .nms.yaml, or any .yml / .yaml file whose plugin key names this
# plugin (found without parsing the whole file)
NMS_SUFFIXES = ('.nms.yml', '.nms.yaml')
YAML_SUFFIXES = ('.yml', '.yaml')
PLUGIN_KEY_RE = re.compile(r'''^plugin:[ \t]*(['"]?)nms\.overlay\.peers\1[ \t]*(?:#.*)?\r?$''', re.MULTILINE)


class SourceFailed(SystemExit):
    """This source cannot be read; raised only through fail().

    ansible-core turns every Exception an inventory plugin raises into a warning, and with its default
    settings the plays then match no host and the run ends with rc 0. A SystemExit is the one kind of
    error ansible-core lets through: the run stops with rc 1, whatever the settings, once fail() has
    shown the message the way ansible-core shows errors.
    """

    def __init__(self, message):
        super().__init__(1)
        self.message = message

    def __str__(self):
        return self.message


class TooDeep(ValueError):
    """A peer field nested deeper than MAX_DEPTH."""


def fail(message):
    """Stop the run: a source that cannot be read must never yield an empty inventory."""
    Display().error(message, wrap_text=False)  # one line, so that log searches find it
    raise SourceFailed(message)


def could_be_template(text):
    # spelt out rather than any() over TEMPLATE_MARKS: it runs for every text of every peer
    return '{' in text or '%' in text or '#jinja2:' in text


def clean_text(text):
    if could_be_template(text):
        return wrap_var(text)
    return trust_as_template(text) if trust_as_template else text


def clean(value, depth=0, texts=None):
    """A value from the server as a host variable: a string that could be a template is marked unsafe,
    so that peer data (chosen by the machines that join) is never templated; any other string is a
    plain string, so that ansible-inventory prints it as it is (AWX imports it as such).

    ``texts`` (a dict) keeps the result for each plain ``str`` seen, so that a text shared by many peers (an os,
    a version, a group's id) is checked and marked once: marked texts are immutable, and ansible-core copies every
    value it is given.
    """
    if isinstance(value, str):
        if texts is None or type(value) is not str:  # pylint: disable=unidiomatic-typecheck
            return clean_text(value)
        cleaned = texts.get(value)
        if cleaned is None:
            cleaned = texts[value] = clean_text(value)
        return cleaned
    if depth >= MAX_DEPTH and isinstance(value, (dict, list)):
        raise TooDeep('nested deeper than %d levels' % MAX_DEPTH)
    if isinstance(value, dict):
        return {(wrap_var(key) if isinstance(key, str) and could_be_template(key) else key): clean(item, depth + 1, texts)
                for key, item in value.items()}
    if isinstance(value, list):
        return [clean(item, depth + 1, texts) for item in value]
    return value


class InventoryModule(BaseInventoryPlugin, Constructable, Cacheable):
    """One host per peer, one group per peer group."""

    NAME = 'nms.overlay.peers'

    def verify_file(self, path):
        """A file named *.nms.yml or *.nms.yaml, or any other *.yml or *.yaml file with plugin: nms.overlay.peers
        (as the auto inventory plugin hands such files over: it hands over no other)."""
        if not super().verify_file(path):
            return False
        if path.endswith(NMS_SUFFIXES):
            return True
        if not path.endswith(YAML_SUFFIXES):
            return False
        try:
            with open(path, 'rb') as stream:
                head = stream.read(65536).decode('utf-8', errors='replace')
        except OSError:
            return False
        return bool(PLUGIN_KEY_RE.search(head))

    # -- reading ----------------------------------------------------------------------------------------
    def _client(self):
        if not HAS_REQUESTS:
            fail('the nms.overlay.peers inventory needs the Python library requests')
        if not self.get_option('validate_certs'):
            self.display.warning('nms.overlay.peers: validate_certs is false: the server certificate is not verified')
        try:
            return Client(self.get_option('api_url'), self.get_option('api_token'),
                          validate_certs=self.get_option('validate_certs'), ca_path=self.ca_path(),
                          timeout=self.get_option('timeout'), retries=self.get_option('retries'),
                          notify=lambda message: self.display.warning('nms.overlay.peers: %s' % message),
                          answer_types=ANSWER_TYPES)
        except TaskError as exc:  # a connection option that cannot work (or is not set), named in the message
            return fail('nms.overlay.peers: %s' % exc)

    def ca_path(self):
        # Not an env: entry of the option: Ansible would turn the empty value that AWX injects for a credential
        # without a CA certificate into the current directory.
        return self.get_option('ca_path') or os.path.expanduser(os.environ.get('NMS_API_CA_PATH', '')) or None

    def fetch(self, path, what):
        client = self._client()
        try:
            items = client.get_list(path)
        except ApiError as exc:
            error = str(exc)
        else:
            error = None
        if error is not None:
            fail('nms.overlay.peers: cannot read the %s: %s' % (what, error))
        return items

    def fetch_peers(self):
        return self.fetch(PeerModule.path, PeerModule.kind)

    def cache_key(self, path):
        # The file alone does not fix the server or the account: URL and token may come from the
        # environment. Only a short digest of them goes into the key, never the token itself.
        identity = '%s\n%s' % (self.get_option('api_url'), self.get_option('api_token'))
        server = hashlib.sha256(identity.encode('utf-8')).hexdigest()[:12]
        return '%s_%s' % (self.get_cache_key(path), server)

    def cached(self, key, cache, read):
        use_cache = self.get_option('cache') and cache
        update_cache = self.get_option('cache') and not cache
        if use_cache:
            try:
                return self._cache[key]
            except KeyError:
                update_cache = True
        items = read()
        if update_cache:
            self._cache[key] = items
        return items

    def peers(self, path, cache):
        """The peers, sorted by id; a peer whose fields have the wrong type fails the source, naming it."""
        peers = self.cached(self.cache_key(path), cache, self.fetch_peers)
        if not isinstance(peers, list) or not all(isinstance(peer, dict) for peer in peers):
            fail('nms.overlay.peers: the cached answer of GET /peers is no list of objects; run ansible-playbook '
                 '--flush-cache')
        for peer in peers:
            problem = peer_shape_problem(peer)
            if problem:
                self.fail_peer(peer, *problem)
        return sorted(peers, key=ref_id)

    def fail_peer(self, peer, field, what):
        """Fail on a peer of the answer (fresh or cached) that the plugin cannot use, as on a bad answer."""
        url = '%s/api%s' % (api_roots(self.get_option('api_url'))[1], PeerModule.path)
        error = ApiError('GET', PeerModule.path, 200, '%s: %s is %s' % (describe_peer(peer), field, what), url=url)
        fail('nms.overlay.peers: cannot read the peers: %s' % error)

    def groups(self, path, cache):
        return self.cached(self.cache_key(path) + '_groups', cache, lambda: self.fetch(GroupModule.path, GroupModule.kind))

    def check_group_filters(self, peers, path, cache):
        """Fail naming every include_groups / exclude_groups entry that is no group on the server.

        The groups of the peers answer for most names without a request; only names found in no peer's
        groups need the list of groups (a group may exist and hold no peer).
        """
        wanted = [(option, ref) for option in ('include_groups', 'exclude_groups') for ref in self.get_option(option) or []]
        seen = [summary for peer in peers for summary in peer_groups(peer)]
        unknown = [(option, ref) for option, ref in wanted if not any(group_matches(summary, ref) for summary in seen)]
        if not unknown:
            return
        groups = [group for group in self.groups(path, cache) or [] if isinstance(group, dict)]
        unknown = [(option, ref) for option, ref in unknown if not any(group_matches(group, ref) for group in groups)]
        if unknown:
            fail('nms.overlay.peers: %s' % '; '.join(
                "%s: no group '%s' (by name or id) on the server" % item for item in unknown))

    # -- building -----------------------------------------------------------------------------------------
    def keep(self, peer):
        if self.get_option('connected_only') and not peer.get('connected'):
            return False
        include = self.get_option('include_groups')
        if include and not in_any_group(peer, include):
            return False
        exclude = self.get_option('exclude_groups')
        return not (exclude and in_any_group(peer, exclude))

    def host_name(self, peer, taken, groups=frozenset()):
        """The peer's host name: never one another peer has, never the name of a group (ansible-core would
        then take the host for the group). Either way the peer's id is appended and a warning names both."""
        first, second = ('dns_label', 'name') if self.get_option('hostname_source') == 'dns_label' else ('name', 'dns_label')
        name = peer.get(first) or peer.get(second) or ref_id(peer)
        if name not in taken and name not in groups:
            taken.add(name)
            return name
        unique = '%s_%s' % (name, ref_id(peer))
        number = 1
        while unique in taken or unique in groups:
            number += 1
            unique = '%s_%s_%d' % (name, ref_id(peer), number)
        if name in groups:
            self.display.warning("nms.overlay.peers: the peer %s is called '%s' like the Ansible group '%s'; a host "
                                 "is never named like a group, so it is the host '%s'"
                                 % (ref_id(peer), name, name, unique))
        else:
            self.display.warning("nms.overlay.peers: several peers are called '%s'; the peer %s is the host '%s'"
                                 % (name, ref_id(peer), unique))
        taken.add(unique)
        return unique

    def group_names(self, peer, origins=None):
        """The Ansible groups of a peer. ``origins`` maps each Ansible group made so far to the peer groups
        it came from (id -> name); a second peer group that becomes the same Ansible group is warned about once."""
        names = []
        builtin_all = getattr(self, 'builtin_all', None)
        if builtin_all is None:  # not parsing a whole listing: this peer's groups tell
            builtin_all = builtin_all_group(peer_groups(peer))[0]
        for summary in peer_groups(peer):
            name = summary.get('name') or ref_id(summary)
            if ref_id(summary) in builtin_all and not self.get_option('include_all_group'):
                continue
            safe = to_safe_group_name('%s%s' % (self.get_option('group_prefix') or '', name), force=True, silent=True)
            if safe in RESERVED_GROUPS:
                renamed = '%s%s' % (safe, RESERVED_SUFFIX)
                if origins is not None and renamed not in origins:
                    self.display.warning("nms.overlay.peers: the peer group '%s' would be the Ansible group '%s', which is "
                                         "Ansible's own group (of every host, or of hosts in no other group); its peers "
                                         "are in the group '%s' instead" % (name, safe, renamed))
                safe = renamed
            if origins is not None:
                self.note_origin(origins, safe, ref_id(summary) or name, name)
            names.append(safe)
        return names

    def note_origin(self, origins, safe, group_id, name):
        sources = origins.setdefault(safe, {})
        if group_id in sources:
            return
        if sources:
            first_id, first_name = next(iter(sources.items()))
            if first_name == name:
                both = "'%s' (id %s) and '%s' (id %s)" % (first_name, first_id, name, group_id)
            else:
                both = "'%s' and '%s'" % (first_name, name)
            self.display.warning("nms.overlay.peers: the peer groups %s both become the Ansible group '%s', which "
                                 "holds the peers of both" % (both, safe))
        sources[group_id] = name

    def address(self, peer):
        value = peer.get(self.get_option('ansible_host_source'))
        return None if value in NO_ADDRESS else str(value).split('/', 1)[0]

    def add_peer(self, peer, name, groups, prefix, fields, texts=None):
        """Add the peer as the host ``name`` to its Ansible ``groups``; any failure names the peer and the field.
        ``texts``: see clean()."""
        field = 'name'
        inventory = self.inventory
        set_variable = inventory.set_variable
        try:
            host = inventory.add_host(wrap_var(name) if could_be_template(name) else name)
            field = 'groups'
            for group in groups:
                inventory.add_group(group)
                inventory.add_child(group, host)
            for key, value in normalise_peer(peer).items():
                if fields is None or key in fields:
                    field = key
                    if key == 'connection_ip' and value in NO_ADDRESS:
                        value = None  # no address known: servers print Go's nil IP as <nil>
                    set_variable(host, prefix + key, clean(value, texts=texts))
            field = self.get_option('ansible_host_source')
            address = self.address(peer)
            if address:
                set_variable(host, 'ansible_host', clean(address, texts=texts))
        except TooDeep as exc:
            self.fail_peer(peer, field, str(exc))
        except Exception as exc:  # pylint: disable=broad-exception-caught
            self.fail_peer(peer, field, self.unexpected(exc))
        return host

    @staticmethod
    def unexpected(exc):
        return 'not usable (%s: %s)' % (type(exc).__name__, exc)

    def construct(self, peer, host, strict):
        compose, groups, keyed_groups = (self.get_option(name) for name in ('compose', 'groups', 'keyed_groups'))
        if not (compose or groups or keyed_groups):
            return  # reading every host's variables only to construct nothing costs seconds at 25,000 hosts
        try:
            hostvars = self.inventory.get_host(host).get_vars()
            self._set_composite_vars(compose, hostvars, host, strict=strict)
            self._add_host_to_composed_groups(groups, hostvars, host, strict=strict)
            self._add_host_to_keyed_groups(keyed_groups, hostvars, host, strict=strict)
        except Exception as exc:  # pylint: disable=broad-exception-caught
            fail('nms.overlay.peers: compose, groups or keyed_groups for the host %s (%s): %s'
                 % (host, describe_peer(peer), exc))

    def check_options(self, path, config):
        unknown = sorted(str(key) for key in config if key not in self.option_definitions)
        if unknown:
            fail('nms.overlay.peers: %s: unknown option%s %s; the options are %s'
                 % (path, 's' if len(unknown) > 1 else '', ', '.join(unknown), ', '.join(sorted(self.option_definitions))))
        if not self.get_option('vars_prefix'):
            fail('nms.overlay.peers: vars_prefix must not be empty, so that peer fields such as groups do not '
                 'overwrite Ansible variables')

    def parse(self, inventory, loader, path, cache=True):
        super().parse(inventory, loader, path, cache)
        try:
            self.read_source(path, cache)
        except Exception as exc:  # pylint: disable=broad-exception-caught
            # Whatever else goes wrong fails the source too: an inventory that silently lacks peers is worse.
            fail('nms.overlay.peers: %s: %s' % (path, self.unexpected(exc)))

    def read_config(self, path):
        try:
            return self._read_config_data(path)
        except Exception as exc:  # pylint: disable=broad-exception-caught
            # ansible-core names a wrong value of an option but not what the option accepts
            message = str(exc).rstrip('.')
            hints = ['%s must be one of %s' % (name, ', '.join(str(choice) for choice in definition['choices']))
                     for name, definition in sorted(self.option_definitions.items())
                     if definition.get('choices') and re.search(r'\b%s\b' % name, message)]
            fail('nms.overlay.peers: %s: %s' % (path, '; '.join([message] + hints)))

    def read_source(self, path, cache):
        config = self.read_config(path)
        self.check_options(path, config if isinstance(config, Mapping) else {})
        prefix = self.get_option('vars_prefix')
        strict = self.get_option('strict')
        fields = self.get_option('peer_fields')
        fields = None if fields is None else frozenset(fields)
        peers = self.peers(path, cache)
        self.check_group_filters(peers, path, cache)
        origins = {}
        # the built-in All group by what the server shows of it, not by its name (any group may be called All)
        summaries = {ref_id(summary): summary for peer in peers for summary in peer_groups(peer)}
        self.builtin_all = builtin_all_group(list(summaries.values()))[0]
        kept = [(peer, self.group_names(peer, origins)) for peer in peers if self.keep(peer)]
        # Host names are chosen knowing every group, so that none of them is also a group's name.
        groups = set(self.inventory.groups).union(*(names for dummy, names in kept))
        taken = set()
        texts = {}
        hosts = [(peer, self.add_peer(peer, self.host_name(peer, taken, groups), names, prefix, fields, texts))
                 for peer, names in kept]
        for peer, host in hosts:
            self.construct(peer, host, strict)
        grouped = [(peer, host) for peer, host in hosts if host in self.inventory.groups]
        if grouped:
            peer, host = grouped[0]
            fail("nms.overlay.peers: compose, groups or keyed_groups made the group '%s', which is also the name of the "
                 "host of %s; change the group's name (for example with a prefix)" % (host, describe_peer(peer)))
