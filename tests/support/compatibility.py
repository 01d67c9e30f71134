# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""docs/compatibility.md, written from the modules themselves: every module and option, and which server generation
has it. A module whose engine names ``requires`` (what of today's servers it manages) is v0.77 only; every other
option works on both, with the differences below. tests/unit/test_compatibility.py keeps the page equal to this;
``NMS_WRITE_COMPATIBILITY=1 pytest tests/unit/test_compatibility.py`` writes it.
"""

from __future__ import annotations

import functools
import os
import re

import yaml

from tests.support.emulator import REPO_ROOT
from tests.support.modules import MODULES_DIR, documentation, engine_of

# What differs between the generations for one option (module, option) or a whole module (module, None), in words a
# user acts on. Facts: what real v0.27.6 and v0.77.1 servers do, and how the collection meets each.
NOTES = {
    ('policy', 'rules'): 'v0.27: a policy may have several rules (its answers leave a shared source group out of later '
                         'rules; the module settles). v0.77 stores only the first rule of a policy: several rules are '
                         'refused before any write; describe one policy per rule.',
    ('policy', 'rules.ports'): 'A range such as 8000-8100: v0.77 only (sent as port_ranges); v0.27 takes single ports '
                               'and a range is refused before any write.',
    ('setup_key', 'state'): 'absent: v0.77 deletes the key; v0.27 cannot, so the key is revoked and its auto_groups '
                            'cleared (revoked_only in the result).',
    ('setup_key', None): 'v0.77 shows a key value only in the answer to its create (masked on every read), as the '
                         'module returns it anyway.',
    ('peer', 'approval_required'): 'Applied only by servers that use peer approval (cloud servers with '
                                   'peer_approval_enabled); open-source servers of both generations ignore it.',
    ('peer', 'ip'): 'Alone, it finds the peer on both. With id or hostname it gives the peer that address: v0.77 only '
                    '(a v0.27 server refuses such a task before any write).',
    ('route', 'domains'): 'A domain route (v0.77) has no network of its own: the server shows the placeholder '
                          '192.0.2.0/32 and the module never sends it back.',
    ('peer_info', None): 'v0.77 answers a single peer without accessible_peers: for one peer they are read from '
                         'GET /api/peers/{id}/accessible-peers (one more request).',
    ('user', 'email'): 'Inviting a regular user needs an identity provider on the server (412 otherwise), on both.',
    ('user', 'role'): 'owner, admin and user on both; network_admin, auditor and billing_admin from v0.77 on (a v0.27 '
                      'server refuses them before any write). The module refuses the caller\'s own role change and a '
                      'service user as owner before any write (both servers refuse them).',
    ('account_settings', 'peer_approval_enabled'): 'A cloud feature (settings.extra); open-source servers ignore it.',
    ('route', None): 'v0.77 deprecates routes in favour of Networks; the route endpoints still work, and a non-Linux '
                     'routing peer is accepted there (v0.27 refuses one).',
    ('peer_job', None): 'Experimental on the server. v0.77 takes a job only for an agent of v0.64.0 or later (412 '
                        'otherwise; the test servers\' peers are v0.27.6 agents, so no job runs there).',
    ('peer_temporary_access', 'rules'): 'A rule v0.77 cannot read is answered with a bare 500 after the peer is made: '
                                        'the module refuses it before any request.',
    ('user_password', None): 'Needs the embedded identity provider (412 otherwise) and a user it knows; only the '
                             'token\'s own user.',
    ('event_info', None): 'v0.77 serves the audit log at /api/events/audit and keeps /api/events as its alias.',
    ('event_info', 'log'): 'audit on both; proxy (the reverse proxy\'s access log, GET /api/events/proxy) from v0.77 on: '
                           'a v0.27 server refuses it after the version probe, before any other request.',
    ('user_info', 'current'): 'true: from v0.77 on (GET /api/users/current); a v0.27 server refuses it after the version '
                              'probe, before any other request.',
    ('network_router_info', 'network'): 'Unset: every network\'s routers, from GET /api/networks/routers (one request).',
}
COMMON = ('Every update sends back every field the server returned that the task does not change, including fields '
          'of today\'s servers that no option manages yet (a route\'s keep_route, a peer\'s '
          'inactivity expiration), so nothing a task did not ask for is reset.')


def module_names():
    return sorted(name[:-3] for name in os.listdir(MODULES_DIR) if name.endswith('.py') and not name.startswith('_'))


def requires(module):
    """What of today's servers the module manages (its engine class's ``requires``), or None."""
    return engine_of(module).requires


def option_requires(module):
    """{option: the generation that has it} for the options of today's servers (a Field's ``requires``, and the
    engine's ``options_requiring`` for options that are no request field)."""
    engine = engine_of(module)
    fields = getattr(engine, 'fields', None) or {}
    found = {name: field.requires for name, field in fields.items() if field.requires}
    found.update(getattr(engine, 'options_requiring', None) or {})
    return found


def options(spec, prefix=''):
    """(dotted option name, option) of a module's options, suboptions after their option, in documentation order."""
    for name, option in (spec or {}).items():
        yield prefix + name, option
        yield from options(option.get('suboptions'), prefix + name + '.')


def since_of(newer, name):
    """The release (else the generation) that brought an option (dotted name): its own, else the nearest enclosing
    option's (_server.OPTION_RELEASES)."""
    from ansible_collections.nms.overlay.plugins.module_utils._server import option_release
    parts = name.split('.')
    for end in range(len(parts), 0, -1):
        key = '.'.join(parts[:end])
        if key in newer:
            return option_release(key, newer[key]) or newer[key]
    return None


def feature_release(feature):
    from ansible_collections.nms.overlay.plugins.module_utils._server import FEATURE_RELEASES
    return FEATURE_RELEASES.get(feature)


def render(requires_of=requires, operations=None):
    """The whole page: the modules and options, then the API coverage (``operations``: the self-hosted operations of
    the reference OpenAPI file, read from it by default; the section is left out where there is no such file)."""
    if operations is None:
        operations = spec_operations() if os.path.isfile(SPEC) else None
    page = render_modules(requires_of) + render_cloud() + render_releases() + render_real_agents()
    if operations is None:
        return page
    return page + render_coverage(operations, spec_operations(cloud=True) if os.path.isfile(SPEC) else ())


def render_modules(requires_of=requires):
    lines = [
        '# Server compatibility',
        '',
        'Which NetBird management server generation has each module and option: **v0.27** (the API as first '
        'published, v0.27.6 tested) and **v0.77** (today\'s, v0.77.1 tested). The collection learns which one '
        'answers, and its release, with at most one request per task (`GET /api/instance/version`), and only when an '
        'option depends on it. A feature or option newer than the server\'s release is refused by name, with the '
        'release that brought it ([Releases](#releases) below).',
        '',
        'Tested on self-hosted servers only: NetBird Cloud (`https://api.netbird.io`) is untested, see '
        '[NetBird Cloud](#netbird-cloud) below.',
        '',
        COMMON,
        '',
        'This page is written from the modules themselves (`tests/support/compatibility.py`); a unit test keeps it '
        'current.',
        '',
        '| Module | Option | v0.27 | v0.77 | Notes |',
        '|---|---|---|---|---|',
    ]
    for module in module_names():
        feature = requires_of(module)
        old = 'no' if feature else 'yes'
        note = NOTES.get((module, None), '')
        if feature:
            note = ('%s came with NetBird %s: on an older server (v0.27 among them) the task fails after one request, '
                    'the version probe, before any other. %s' % (feature, feature_release(feature) or 'v0.77', note)).strip()
        lines.append('| `nms.overlay.%s` | | %s | yes | %s |' % (module, old, note))
        newer = option_requires(module)
        for name, dummy_option in options(documentation(module, connection=False).get('options')):
            since = since_of(newer, name)
            note = NOTES.get((module, name), '')
            if since:
                note = ('From %s on: an older server (v0.27 among them) refuses a task that sets it, before any write. %s'
                        % (since, note)).strip()
            lines.append('| | `%s` | %s | yes | %s |' % (name, 'no' if since else old, note))
    lines.append('')
    return '\n'.join(lines)


# -- NetBird Cloud -------------------------------------------------------------------------------------------------------
# What is known of NetBird Cloud (the reference files handed to the project: the OpenAPI file's server and x-cloud-only marks, the spec's
# "cloud only" fields) and what is not: no test reaches it (every server the tests use listens on 127.0.0.1), so each
# claim below is either read from those files or from the collection's own code, or it says "unknown".
CLOUD_HEADING = '\n## NetBird Cloud'
CLOUD = (
    'NetBird Cloud is NetBird\'s hosted management server; NetBird\'s OpenAPI file (v0.77.1) names '
    '`https://api.netbird.io` as its server. **It is not tested and not supported as a tested target**: every test of '
    'this collection talks to servers on 127.0.0.1 (the emulator and the real self-hosted v0.27.6 and v0.77.1 '
    'servers), never to api.netbird.io. What is known:',
    '',
    '- **Connecting.** `api_url: https://api.netbird.io` (with or without `/api`) and `api_token:` a personal access '
    'token (`nbp_...`) are all it takes: the collection sends the token as '
    '`Authorization: Token <token>`, as it does to a self-hosted server, checks the public certificate (no `ca_path` '
    'needed), follows no redirect, and names `https://api.netbird.io:443/api/...`, the method and the status in its '
    'errors, never the token. `tests/unit/plugins/module_utils/test_cloud_url.py` proves this with a fake transport, '
    'without a network.',
    '- **Same API, more of it.** The OpenAPI file whose server is the Cloud documents the operations the modules use, '
    'and marks more `x-cloud-only` (ingress ports, billing, MSP tenants, identity-provider and EDR integrations, event '
    'streaming, notifications, network traffic events): no module calls any of them ([API coverage](#api-coverage) '
    'counts them; a unit test fails when a module would).',
    '- **Cloud-only fields.** `nms.overlay.account_settings` `peer_approval_enabled` and `nms.overlay.peer` '
    '`approval_required` are the spec\'s "cloud only" settings; the open-source servers the tests use ignore them, '
    'so what the Cloud does with them is untested.',
    '- **Self-hosted only.** `nms.overlay.instance` and the `bootstrap_server` playbook set up a fresh self-hosted '
    'server with the embedded identity provider (its owner and first token): they are not meant for the Cloud. '
    'What api.netbird.io answers to `GET /api/instance` is unknown; should it answer 404, the module\'s message '
    'would name v0.27, which does not apply to the Cloud.',
    '- **Unknown.** Whether the Cloud serves `GET /api/instance/version` (the version probe, asked only when an '
    'option depends on the server\'s release; answered 404, the collection takes the server for v0.27 and refuses '
    'newer options by name, before any write), and which release its answers match; whether it serves the '
    'identity-provider and local-password operations (`nms.overlay.identity_provider`, `nms.overlay.user_password`), '
    'the reverse proxy and Agent Network; and its rate limits. On a 429 the collection waits as on a rate-limited '
    'self-hosted server ([rate limits](rate-limits.md)), whatever the server.',
    '',
    'Reports of what the Cloud answers are welcome as issues; until one of its answers is known, the emulator imitates '
    'none of them.',
)


def render_cloud():
    return '\n'.join((CLOUD_HEADING, '') + CLOUD + ('',))


# -- releases -----------------------------------------------------------------------------------------------------------
# The first release that served each feature and option, found in NetBird's history: the commit that added it to the
# management server's OpenAPI file (management/server/http/api/openapi.yml, shared/management/http/api/openapi.yml from
# v0.55 on) and the first release tag holding that commit (`git tag --contains`). ``table`` is the key of the feature
# (FEATURE_RELEASES) or option (OPTION_RELEASES) in plugins/module_utils/_server.py, None where the release gates
# nothing there (the server's own check, or a generation check in the module). A unit test holds the tables to these
# rows, and with NetBird's repository at hand (NMS_NETBIRD_GIT) each commit to its release.
NETBIRD_GIT = os.environ.get('NMS_NETBIRD_GIT') or os.path.join(os.path.dirname(REPO_ROOT), '.mirror', 'netbirdio+netbird', 'repo')
RELEASE_ROWS = (
    # (what, its API, table key or None, release, commit, the commit's subject)
    ('The version probe', '`GET /api/instance/version`', None, 'v0.64.2', '7d791620a',
     'Add user invite link feature for embedded IdP (#5157)'),
    ('Networks', '`/api/networks`, its resources and routers', 'Networks', 'v0.35.0', 'ddc365f7a',
     '[client, management] Add new network concept (#3047)'),
    ('Temporary access to peers', '`POST /api/peers/{peerId}/temporary-access`', 'temporary access to peers', 'v0.59.0',
     'b5daec3b5', '[client,signal,management] Add browser client support (#4415)'),
    ('Identity providers', '`/api/identity-providers`', 'identity providers', 'v0.62.0', 'e586c20e3',
     '[management, infrastructure, idp] Simplified IdP Management - Embedded IdP (#5008)'),
    ('Instance setup', '`GET /api/instance`, `POST /api/setup`',
     'instance setup (GET /api/instance and POST /api/setup)',
     'v0.62.0', 'e586c20e3', '[management, infrastructure, idp] Simplified IdP Management - Embedded IdP (#5008)'),
    ('DNS zones', '`/api/dns/zones` and their records', 'DNS zones', 'v0.63.0', '067c77e49',
     '[management] Add custom dns zones (#4849)'),
    ('Jobs on peers', '`/api/peers/{peerId}/jobs`', 'remote jobs on peers', 'v0.64.0', '58daa674e',
     '[Management/Client] Trigger debug bundle runs from API/Dashboard (#4592) (#4832)'),
    ('Password change', '`PUT /api/users/{userId}/password`',
     'password changes (PUT /api/users/{id}/password, with the embedded identity provider)', 'v0.64.0', 'a0b0b664b',
     'Local user password change (embedded IdP) (#5132)'),
    ('Invite links', '`/api/users/invites`', 'invite links', 'v0.64.2', '7d791620a',
     'Add user invite link feature for embedded IdP (#5157)'),
    ('Reverse proxy services, domains, clusters', '`/api/reverse-proxies/services`, `domains`, `clusters`', 'reverse proxies',
     'v0.65.0', 'f53155562', '[management, reverse proxy] Add reverse proxy feature (#5291)'),
    ("The reverse proxy's access log", '`GET /api/events/proxy`', "the reverse proxy's access log", 'v0.65.0', 'f53155562',
     '[management, reverse proxy] Add reverse proxy feature (#5291)'),
    ('Reverse proxy tokens', '`/api/reverse-proxies/proxy-tokens`', 'reverse proxy tokens', 'v0.71.0', '07cbfdbed',
     '[proxy] feature: bring your own proxy (#5627)'),
    ('Agent Network', '`/api/agent-network/...` (all 29 operations)', 'Agent Network resources', 'v0.74.0', '92a66cdd2',
     '[management,proxy,client] 0.74.0 version (#6563)'),
    ('The current user', '`GET /api/users/current` (`user_info` `current`)', 'current', 'v0.41.1', '75bdd47df',
     '[management] get current user endpoint (#3666)'),
    ("Every network's routers", '`GET /api/networks/routers`', None, 'v0.45.2', '684501fd3',
     '[management] Prevent deletion of peers linked to network routers (#3881)'),
    ('User approval', '`POST /api/users/{userId}/approve` (`user` `approval`)', 'approval', 'v0.56.0', 'd39fcfd62',
     '[management] Add user approval (#4411)'),
    ('Port ranges in policy rules', '`port_ranges` of a rule (`policy` `rules.ports` ranges)', None, 'v0.30.0', 'ff7863785',
     '[management, client] Add access control support to network routes (#2100)'),
    ('Resources in policy rules', '`sourceResource`, `destinationResource`', 'rules.source_resource', 'v0.35.0', 'ddc365f7a',
     '[client, management] Add new network concept (#3047)'),
    ('', '', 'rules.destination_resource', 'v0.35.0', 'ddc365f7a', '[client, management] Add new network concept (#3047)'),
    ('Route domains, keep_route', '`domains`, `keep_route` of a route', 'domains', 'v0.28.0', '4fec709bb',
     'Release 0.28.0 (#2092)'),
    ('', '', 'keep_route', 'v0.28.0', '4fec709bb', 'Release 0.28.0 (#2092)'),
    ('Process posture check', '`checks.process_check`', 'checks.process_check', 'v0.28.0', '4fec709bb', 'Release 0.28.0 (#2092)'),
    ('Route access control groups', '`access_control_groups` of a route', 'access_control_groups', 'v0.30.0', 'ff7863785',
     '[management, client] Add access control support to network routes (#2100)'),
    ('Peer inactivity expiration', '`peer_inactivity_expiration(_enabled)` (settings), `inactivity_expiration_enabled` (peer)',
     'peer_inactivity_expiration_enabled', 'v0.30.2', '49e65109d', 'Add session expire functionality based on inactivity (#2326)'),
    ('', '', 'peer_inactivity_expiration', 'v0.30.2', '49e65109d', 'Add session expire functionality based on inactivity (#2326)'),
    ('', '', 'inactivity_expiration_enabled', 'v0.30.2', '49e65109d', 'Add session expire functionality based on inactivity (#2326)'),
    ('Routing peer DNS resolution', '`routing_peer_dns_resolution_enabled` (settings)', 'routing_peer_dns_resolution_enabled',
     'v0.35.0', 'ddc365f7a', '[client, management] Add new network concept (#3047)'),
    ('Group resources', '`resources` of a group', 'resources', 'v0.35.0', 'ddc365f7a',
     '[client, management] Add new network concept (#3047)'),
    ('Extra DNS labels', '`allow_extra_dns_labels` (setup key)', 'allow_extra_dns_labels', 'v0.37.0', '39986b0e9',
     '[client, management] Support DNS Labels for Peer Addressing (#3252)'),
    ('Custom DNS domain', '`dns_domain` (settings)', 'dns_domain', 'v0.42.0', '312bfd9bd',
     '[management] support custom domains per account (#3726)'),
    ('Roles network_admin, auditor', '`role` of a user', None, 'v0.43.0', 'dbf81a145', '[management] network admin role (#3720)'),
    ('Lazy connections', '`lazy_connection_enabled` (settings)', 'lazy_connection_enabled', 'v0.45.2', 'c03435061',
     '[management] lazy connection account setting (#3855)'),
    ("A peer's address", '`ip` of `PUT /api/peers/{peerId}`', None, 'v0.53.0', 'beb66208a',
     '[management, client] Add API to change the network range (#4177)'),
    ('Exit node auto-apply', '`skip_auto_apply` of a route', 'skip_auto_apply', 'v0.55.0', '533d93eb1',
     '[management,client] Feat/exit node auto apply (#4272)'),
    ('User approval required', '`user_approval_required` (settings, `extra`)', 'user_approval_required', 'v0.56.0', 'd39fcfd62',
     '[management] Add user approval (#4411)'),
    ('A network range of its own', '`network_range` (settings)', 'network_range', 'v0.53.0', 'beb66208a',
     '[management, client] Add API to change the network range (#4177)'),
    ('Agent auto-update', '`auto_update_version` (settings)', 'auto_update_version', 'v0.61.0', '011cc8167',
     '[client, management] auto-update (#4732)'),
    ('SSH access in policy rules', '`authorized_groups` and protocol `netbird-ssh` of a rule', 'rules.authorized_groups', 'v0.61.0',
     '67f7b2404', '[client, management] Feature/ssh fine grained access (#4969)'),
    ('Peers exposing services', '`peer_expose_enabled` (settings)', 'peer_expose_enabled', 'v0.66.0', '63c83aa8d',
     '[client,management] Feature/client service expose (#5411)'),
    ('Peers exposing services, by group', '`peer_expose_groups` (settings)', 'peer_expose_groups', 'v0.66.0', '63c83aa8d',
     '[client,management] Feature/client service expose (#5411)'),
    ('Background agent updates', '`auto_update_always` (settings)', 'auto_update_always', 'v0.67.0', 'fe9b84451',
     '[client] refactor auto update workflow (#5448)'),
    ('The IPv6 overlay range', '`network_range_v6` (settings)', 'network_range_v6', 'v0.71.0', '205ebcfda',
     '[management, client] Add IPv6 overlay support (#5631)'),
    ('The IPv6 overlay groups', '`ipv6_enabled_groups` (settings)', 'ipv6_enabled_groups', 'v0.71.0', '205ebcfda',
     '[management, client] Add IPv6 overlay support (#5631)'),
    ('Local users with TOTP', '`local_mfa_enabled` (settings)', 'local_mfa_enabled', 'v0.71.0', 'e89aad09f',
     '[management] Enable MFA for local users (#5804)'),
    ('Client metrics push', '`metrics_push_enabled` (settings)', 'metrics_push_enabled', 'v0.74.0', '980598ed4',
     '[management, client] Add management-controlled client metrics push (#5886)'),
    ("A peer's IPv6 overlay address", '`ipv6` of `PUT /api/peers/{peerId}`', 'ipv6', 'v0.71.0', '205ebcfda',
     '[management, client] Add IPv6 overlay support (#5631)'),
    ("A peer's deletion refused while a network router routes through it (412)", '`DELETE /api/peers/{peerId}`', None,
     'v0.45.2', '684501fd3', '[management] Prevent deletion of peers linked to network routers (#3881)'),
    ("A peer's deletion refused while a reverse-proxy service targets it (412)", '`DELETE /api/peers/{peerId}`', None,
     'v0.65.0', 'f53155562', '[management, reverse proxy] Add reverse proxy feature (#5291)'),
)
RELEASES_HEADING = '\n## Releases'


def render_releases():
    from ansible_collections.nms.overlay.plugins.module_utils._server import PROBE_RELEASE
    lines = [
        RELEASES_HEADING,
        '',
        'The first NetBird release that served each feature and option of today\'s servers, as NetBird\'s history shows '
        'it: the commit that added it to the management server\'s OpenAPI file, and the first release tag that holds '
        'the commit. Before a module calls anything else it asks the server\'s release (the version probe, one request) '
        'and refuses a feature the release lacks, naming the feature and this release; an option likewise, before any '
        'write. A server without the probe (releases before %s) is taken for v0.27: upgrade it to %s or later to use '
        'anything newer than v0.27, whatever the feature\'s own release. A version that is no release (a development '
        'build) is taken to have everything.' % (PROBE_RELEASE, PROBE_RELEASE),
        '',
        '| Feature or option | API | First release | Commit |',
        '|---|---|---|---|',
    ]
    for what, api, dummy_key, release, commit, subject in RELEASE_ROWS:
        if what:
            lines.append('| %s | %s | %s | `%s` %s |' % (what, api, release, commit, subject.replace('|', '\\|')))
    lines.append('')
    return '\n'.join(lines)


# -- API coverage ------------------------------------------------------------------------------------------------------
# Which operations of today's self-hosted server the modules call, derived from their engines: a kind's own path
# (list, create, read, update, delete as its descriptor allows), an info module's reads of its kind, and what an engine
# declares it calls beyond those (``api_operations``, written as the OpenAPI file writes them).

SPEC_VARIABLE = 'NMS_OPENAPI'
SPEC = os.environ.get(SPEC_VARIABLE) or os.path.join(os.path.dirname(REPO_ROOT), 'shared', 'reference', 'openapi-v0.77.1.yml')
SPEC_RELEASE = 'v0.77.1'
METHODS = ('get', 'post', 'put', 'delete', 'patch')
# GET /api/instance/version: asked by every module whose task depends on the server's generation (_server.py)
PROBE = 'the version probe'
REAL_AGENTS_HEADING = '\n## Proven with real agents'
# What the real-server stage proves with real NetBird agents (../shared/servers/realagent.py: the agent of v0.27.6 or
# v0.77.1, built from its tag, joins a real server with a setup key and connects to the others peer to peer), as
# (what, on v0.27.6, on v0.77.1, test file::test): a unit test holds each test to the file that has it.
REAL_AGENT_PROOFS = (
    ('`enroll_hosts` (the `enroll` role) enrols 4 hosts at once (forks), each with a one-off key of its own; each peer '
     'has its name and groups and is connected; a re-run is `changed=0` and makes no key; a host whose peer was deleted '
     'joins again', 'yes', 'yes',
     'test_real_enroll.py::test_hosts_join_rerun_changes_nothing_and_a_deleted_peer_joins_again'),
    ('Used one-off keys do not pile up: removed after the join', 'revoked, its groups cleared (v0.27 cannot delete a '
     'key)', 'deleted', 'test_real_enroll.py::test_hosts_join_rerun_changes_nothing_and_a_deleted_peer_joins_again'),
    ('A used, revoked or unknown key given to the role fails before the agent starts, naming the host and the key; no '
     'unused key is left; no key value at `-vvvv`, in the key file or in the agent\'s files', 'yes (the key matched by '
     'its value)', 'yes (by its first 5 characters, all the server shows; a look-alike is cut off by '
     '`enroll_join_timeout`)', 'test_real_enroll.py::test_a_bad_given_key_fails_fast_naming_the_host_and_the_key'),
    ('The fake agent of the emulator tests prints what the real agent prints (status, errors) in about the same time',
     'yes', 'yes', 'test_real_enroll.py::test_the_fake_agent_prints_what_the_real_one_does'),
    ('The inventory plugin lists the joined agents, connected, left or stopped, with address, OS, agent version and '
     'groups', 'yes', 'yes', 'test_real_inventory.py::test_the_inventory_lists_the_joined_agents_connected_or_not'),
    ('The access report: the peers each agent\'s `netbird status --json` lists are exactly the peers the report says '
     'it connects with (a one-way rule, a bidirectional one, a port rule, a disabled policy and rule, a drop rule, a '
     'posture check that the v0.27.6 agent fails, Default disabled; 5 agents of both releases)', 'yes', 'yes',
     'test_real_access_agents.py::test_every_agent_lists_exactly_the_peers_the_report_says_it_connects_with'),
    ('The access report: a route reaches exactly the agents the report names; a Network resource too (v0.77.1)',
     'yes (the route seen in the agent\'s log: an agent without a device cannot install it)', 'yes',
     'test_real_access_agents.py::test_the_route_and_the_resource_reach_the_agents_the_report_names'),
    ('The access report: an allowed port connects through the agent (SOCKS5), a shut or dropped port and a one-way '
     'rule\'s way back do not', '- (a v0.27.6 agent forwards nothing)', 'yes',
     'test_real_access_agents.py::test_ports_the_report_opens_connect_through_the_agents_and_the_shut_ones_do_not'),
    ('`network_state` in check mode says who gains and who loses reach (`reach_changes`); after the run the agents\' '
     'network maps change by exactly that', 'yes', 'yes',
     'test_real_reach.py::test_the_predicted_reach_is_what_the_agents_network_maps_then_show'),
    ('Stale peers: `peer_info inactive_for` and `cleanup_stale_peers` find the stopped agents\' peers, never a '
     'connected one; an agent back before the confirmed run is never deleted', 'yes', 'yes',
     'test_real_stale_peers.py::test_cleanup_deletes_the_stopped_agents_peers_and_keeps_one_that_comes_back'),
    ('The peer module with `only_if_inactive_for` reads the peer right before its DELETE and keeps an agent that '
     'connected again', 'yes', 'yes',
     'test_real_stale_peers.py::test_a_peer_whose_agent_connects_again_after_the_list_is_not_deleted'),
    ('Audit events of real joins: one per join (`setupkey.peer.add`, v0.39 on `peer.setupkey.add`); '
     '`nms.overlay.audit_events` delivers each once, across a restart from its state file', 'yes', 'yes',
     'test_real_eda.py::test_each_join_of_real_agents_is_one_event_delivered_once_across_a_restart'),
    ('The example rulebooks `group_new_peers` and `name_new_peers` react to a real join once (ansible-rulebook)',
     'yes (group_new_peers)', 'yes (both)', 'test_real_eda.py::test_rulebooks_group_and_name_real_agents_that_join'),
    ('`nms.overlay.peer_status` reports a real agent that joins as connected once and, stopped, as disconnected once; '
     'nothing again after a restart from its state file', 'yes', 'yes',
     'test_real_eda.py::test_peer_status_tells_a_real_agent_that_joins_and_one_that_stops_once'),
    ('The example rulebook `report_peer_status` reports a real agent that joins, then stops, once each (ansible-rulebook)',
     '-', 'yes', 'test_real_eda.py::test_report_peer_status_tells_a_real_agent_that_joins_then_stops_once'),
    ('After a real join the emulator answers like the server: peers, the peer, setup keys (used_times, last_used, '
     'state), the join\'s event, groups (peers_count)', 'yes', 'yes',
     '../scenarios/test_endpoint_shapes.py::test_a_joined_agent_shows_alike'),
)


def render_real_agents():
    lines = [
        REAL_AGENTS_HEADING,
        '',
        'What `make test`\'s real stage (`make real`, and `make eda` for the event source) proves against the real '
        'servers with real NetBird agents that join with setup keys the collection makes, on v0.27.6 and v0.77.1 '
        'servers (the kit in `../shared/servers`; the README\'s "Real servers and real agents" says how to run them). '
        'Each row names its test in '
        '`tests/integration/`.',
        '',
        '| What | v0.27.6 | v0.77.1 | Test |',
        '|---|---|---|---|',
    ]
    lines += ['| %s | %s | %s | `%s` |' % row for row in REAL_AGENT_PROOFS]
    lines.append('')
    return '\n'.join(lines)


COVERAGE_HEADING = '\n## API coverage'

# Operations no module will call, and why (as the OpenAPI file writes them).
LEFT_OUT = {
    'GET /api/users/invites/{token}': 'The invitee\'s side of an invite link: what the link\'s holder reads before '
                                      'accepting, authorised by the link itself, not by an administrator\'s token.',
    'GET /api/networks/{networkId}/resources/{resourceId}': (
        'Found in the network\'s list instead: one request either way, and the list answers correctly for an id of another '
        'network, where this read answers a bare 500.'),
    'GET /api/networks/{networkId}/routers/{routerId}': (
        'Found in the network\'s list instead: one request either way, and the list answers correctly for an id of another '
        'network, where this read answers a bare 500.'),
    'POST /api/users/invites/{token}/accept': 'The invitee\'s side of an invite link: accepting sets the new user\'s '
                                              'password, which only the invited person should choose.',
}

# Operations that no module calls yet but that modules are to cover (issue 31): the page says so, and a unit test
# holds this list to exactly the operations that are neither covered nor left out.
NOT_YET = (
)


def shape(operation):
    """An operation with its path parameters unnamed ('GET /api/peers/{}'): the spec names one parameter differently
    in different places ({peerId}, {id}), and a module's declaration may too."""
    return re.sub(r'\{[^}/]*\}', '{}', operation)


def is_cloud_only(operation, cloud_tags):
    return bool(operation.get('x-cloud-only')) or any(tag in cloud_tags for tag in operation.get('tags') or ())


@functools.lru_cache(maxsize=None)
def spec_operations(path=None, cloud=False):
    """The operations a self-hosted server serves, as the OpenAPI file writes them ('GET /api/peers/{peerId}'), in its
    order: those not marked ``x-cloud-only``, on the operation or on one of its tags (``cloud``: those marked so)."""
    with open(path or SPEC, encoding='utf-8') as handle:
        spec = yaml.load(handle, Loader=getattr(yaml, 'CSafeLoader', yaml.SafeLoader))
    cloud_tags = {tag['name'] for tag in spec.get('tags') or () if tag.get('x-cloud-only')}
    return tuple('%s %s' % (method.upper(), route) for route, item in spec['paths'].items() for method, operation in item.items()
                 if method in METHODS and is_cloud_only(operation, cloud_tags) == bool(cloud))


def kind_path(cls):
    """The API path of a kind's list ('/api/networks/{}/resources'), or None where its declaration does not give one
    (a kind whose path a task computes declares its operations in ``api_operations``)."""
    if isinstance(cls.path, str):
        return '/api' + cls.path
    sub_path = getattr(cls, 'sub_path', None)
    if cls.nested_in and sub_path:
        from ansible_collections.nms.overlay.plugins.module_utils._kinds import ALL_SECTIONS
        parent = dict(ALL_SECTIONS)[cls.nested_in[0]]
        return '%s/{}%s' % (kind_path(parent), sub_path)
    return None


def kind_operations(cls):
    """The operations (by shape) a resource module's engine calls: a singleton is read and updated (and deleted where
    it says how that is confirmed); any other kind is listed, read by id (unless it is found in its list only), created
    (unless the API cannot create it), updated (unless every field is fixed at creation) and deleted (where ``absent``
    is a state); then its ``api_operations``. A kind on a strategy other than the resource lifecycle (the instance's
    one-time setup) calls what it declares."""
    from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule, UpdateOnly
    found = set(shape(operation) for operation in getattr(cls, 'api_operations', ()))
    path = kind_path(cls)
    if path is None or not issubclass(cls, ResourceModule):
        return found
    item = path + '/{}' if not cls.singleton or cls.has_id else path
    found.add('GET ' + path)
    if any(not field.immutable for field in cls.fields.values()):
        found.add('PUT ' + item)
    if cls.singleton:
        if cls.confirm_delete is not None:
            found.add('DELETE ' + item)
        return found
    if not cls.list_only:
        found.add('GET ' + item)
    if not issubclass(cls, UpdateOnly):
        found.add('POST ' + path)
    if 'absent' in cls.states:
        found.add('DELETE ' + item)
    return found


def info_operations(cls):
    """The operations (by shape) an info module's engine calls: its kind's list (or singleton), the kind's object by id
    where the module takes an id and the kind has such a read, then its ``api_operations``."""
    found = set(shape(operation) for operation in getattr(cls, 'api_operations', ()))
    declared = cls.resource
    path = kind_path(declared)
    if path is not None:
        found.add('GET ' + path)
        if 'id' in cls.full_argument_spec() and not declared.singleton and not declared.list_only:
            found.add('GET %s/{}' % path)
    return found


def module_operations(module):
    """The operations (by shape) a module calls, derived from its engine class."""
    from ansible_collections.nms.overlay.plugins.module_utils._info import InfoModule
    from ansible_collections.nms.overlay.plugins.module_utils._kind import Kind
    engine = engine_of(module)
    if isinstance(engine, type) and issubclass(engine, Kind):
        return kind_operations(engine)
    if isinstance(engine, type) and issubclass(engine, InfoModule):
        return info_operations(engine)
    return set(shape(operation) for operation in getattr(engine, 'api_operations', ()))


def covering_modules(operations):
    """{operation as the spec writes it: the modules that call it, sorted} for the spec's operations; the version
    probe stands for every module (PROBE)."""
    from ansible_collections.nms.overlay.plugins.module_utils._server import VERSION_PATH
    by_shape = {}
    for module in module_names():
        for found in module_operations(module):
            by_shape.setdefault(found, []).append(module)
    by_shape.setdefault('GET /api' + VERSION_PATH, []).append(PROBE)
    return {operation: by_shape[shape(operation)] for operation in operations if shape(operation) in by_shape}


def declared_outside_spec(operations):
    """The operations modules declare (``api_operations``) that the spec does not have, by module: a typo, or a path
    of another server generation (which a declaration leaves out)."""
    shapes = set(shape(operation) for operation in operations)
    wrong = {}
    for module in module_names():
        engine = engine_of(module)
        for cls in (engine, getattr(engine, 'resource', None)):
            for operation in getattr(cls, 'api_operations', ()) if cls is not None else ():
                if shape(operation) not in shapes:
                    wrong.setdefault(module, []).append(operation)
    return wrong


def coverage(operations):
    """(covered {operation: modules}, left out {operation: reason}, not yet [operation]) of the spec's operations."""
    covered = covering_modules(operations)
    left_out = {operation: reason for operation, reason in LEFT_OUT.items() if operation not in covered}
    missing = [operation for operation in operations if operation not in covered and operation not in left_out]
    return covered, left_out, missing


def render_coverage(operations, cloud_operations=()):
    covered, left_out, missing = coverage(operations)
    lines = [
        COVERAGE_HEADING,
        '',
        'The operations a self-hosted %s server serves: every operation of its OpenAPI file that is not marked '
        '`x-cloud-only` (on itself or on its tag), **%d** in all. Modules call **%d** of them, **%d** are left out on '
        'purpose and **%d** are not covered yet. The modules of each operation are derived from their engines (a '
        'kind\'s path and descriptor, an info module\'s kind, and the operations an engine declares beyond those); '
        '`nms.overlay.network_state` uses the operations of the kinds it describes.'
        % (SPEC_RELEASE, len(operations), len(covered), len(left_out), len(missing)),
        '',
        '| Operation | Modules | Status |',
        '|---|---|---|',
    ]
    for operation in operations:
        if operation in covered:
            names = ', '.join(name if name == PROBE else '`nms.overlay.%s`' % name for name in covered[operation])
            lines.append('| `%s` | %s | covered |' % (operation, names))
        elif operation in left_out:
            lines.append('| `%s` | | left out: %s |' % (operation, left_out[operation]))
        else:
            lines.append('| `%s` | | not covered yet |' % operation)
    lines.append('')
    if cloud_operations:
        lines += ['The OpenAPI file marks **%d** more operations `x-cloud-only` ([NetBird Cloud](#netbird-cloud)); modules '
                  'call **%d** of them.' % (len(cloud_operations), len(covering_modules(cloud_operations))), '']
    return '\n'.join(lines)
