# -*- coding: utf-8 -*-
"""docs/compatibility.md lists every module and option with the server generations that have them (issue 20)."""

from __future__ import annotations

import os
import re

import pytest

from tests.support import compatibility
from tests.support.modules import documentation

PAGE = os.path.join(os.path.dirname(compatibility.MODULES_DIR), '..', 'docs', 'compatibility.md')


def test_the_page_is_the_one_the_modules_give():
    page = compatibility.render()
    if os.environ.get('NMS_WRITE_COMPATIBILITY'):
        with open(PAGE, 'w', encoding='utf-8') as handle:
            handle.write(page)
    with open(PAGE, encoding='utf-8') as handle:
        written = handle.read()
    if not os.path.isfile(compatibility.SPEC):  # without the reference OpenAPI file, the modules' part only
        written = written.split(compatibility.COVERAGE_HEADING, 1)[0]
    assert written == page, 'docs/compatibility.md is out of date: NMS_WRITE_COMPATIBILITY=1 pytest %s' % __file__


def test_every_note_names_a_module_and_option_that_exist():
    for module, option in compatibility.NOTES:
        assert module in compatibility.module_names(), module
        if option is not None:
            names = [name for name, dummy in compatibility.options(documentation(module, connection=False).get('options'))]
            assert option in names, (module, option)


def test_every_module_and_option_has_a_row():
    page = compatibility.render()
    for module in compatibility.module_names():
        assert '| `nms.overlay.%s` |' % module in page
        for name, dummy in compatibility.options(documentation(module, connection=False).get('options')):
            assert '| | `%s` |' % name in page


def test_a_module_of_todays_servers_is_marked_v077_only():
    assert compatibility.requires('group') is None and compatibility.requires('network_state') is None
    page = compatibility.render(requires_of=lambda module: 'Networks' if module == 'group' else None)
    assert ('| `nms.overlay.group` | | no | yes | Networks came with NetBird v0.35.0: on an older server (v0.27 among them) '
            'the task fails after one request, the version probe, before any other. |') in page
    assert '| | `peers` | no | yes |  |' in page
    assert '| `nms.overlay.group_info` | | yes | yes |  |' in page


# -- the releases (issue 31) -------------------------------------------------------------------------------------------


def test_every_release_of_the_tables_has_its_row_with_the_same_release():
    from ansible_collections.nms.overlay.plugins.module_utils._server import FEATURE_RELEASES, OPTION_RELEASES
    rows = {key: release for dummy, dummy_api, key, release, dummy_commit, dummy_subject in compatibility.RELEASE_ROWS if key}
    tables = {**FEATURE_RELEASES, **OPTION_RELEASES}
    assert rows == tables


def test_the_page_names_each_release_and_its_commit():
    page = compatibility.render()
    assert '| Agent Network | `/api/agent-network/...` (all 29 operations) | v0.74.0 | `92a66cdd2` ' in page
    assert '| The version probe | `GET /api/instance/version` | v0.64.2 | `7d791620a` ' in page
    assert ('| `nms.overlay.agent_network_provider` | | no | yes | Agent Network resources came with NetBird v0.74.0: on an '
            'older server') in page
    assert '| | `skip_auto_apply` | no | yes | From v0.55.0 on: an older server' in page


def test_each_commit_came_first_with_its_release():
    """Against NetBird's own history, where it is at hand: the first release tag holding each commit."""
    import subprocess
    if not os.path.isdir(compatibility.NETBIRD_GIT):
        pytest.skip('no NetBird repository at %s (set NMS_NETBIRD_GIT)' % compatibility.NETBIRD_GIT)

    def key(tag):
        return tuple(int(part) for part in tag[1:].split('.'))
    for what, dummy_api, dummy_key, release, commit, subject in compatibility.RELEASE_ROWS:
        tags = subprocess.run(['git', '-C', compatibility.NETBIRD_GIT, 'tag', '--contains', commit], capture_output=True,
                              text=True, check=True).stdout.split()
        releases = sorted((tag for tag in tags if re.fullmatch(r'v\d+\.\d+\.\d+', tag)), key=key)
        assert releases and releases[0] == release, (what, commit, releases[:1])
        found = subprocess.run(['git', '-C', compatibility.NETBIRD_GIT, 'log', '-1', '--format=%s', commit], capture_output=True,
                               text=True, check=True).stdout.strip()
        assert found == subject, (commit, found)


# -- the API coverage (issue 31) ---------------------------------------------------------------------------------------


@pytest.fixture(name='operations')
def fixture_operations():
    if not os.path.isfile(compatibility.SPEC):
        pytest.skip('no reference OpenAPI file at %s (set %s)' % (compatibility.SPEC, compatibility.SPEC_VARIABLE))
    return compatibility.spec_operations()


def test_the_self_hosted_operations_are_those_not_marked_cloud_only(operations):
    assert len(operations) == 144 and len(set(operations)) == 144
    assert 'GET /api/events/proxy' in operations and 'POST /api/setup' in operations
    # cloud-only on the operation itself, and through its tag
    assert 'GET /api/events/network-traffic' not in operations
    assert not [operation for operation in operations if '/integrations/' in operation or '/ingress/' in operation]


def test_cloud_only_is_read_from_the_operation_and_from_its_tag(tmp_path):
    spec = tmp_path / 'spec.yml'
    spec.write_text('tags: [{name: Billing, x-cloud-only: true}, {name: Peers}]\n'
                    'paths:\n'
                    '  /api/peers: {get: {tags: [Peers]}, post: {tags: [Peers], x-cloud-only: true}, parameters: []}\n'
                    '  /api/bill: {get: {tags: [Billing]}}\n', encoding='utf-8')
    assert compatibility.spec_operations(str(spec)) == ('GET /api/peers',)


def test_operations_match_by_shape_whatever_their_parameters_are_called():
    assert compatibility.shape('GET /api/peers/{peerId}/jobs/{jobId}') == compatibility.shape('GET /api/peers/{id}/jobs/{x}')
    assert compatibility.shape('GET /api/peers/{peerId}') != compatibility.shape('GET /api/peers')


def test_a_kinds_operations_follow_from_its_descriptor():
    from ansible_collections.nms.overlay.plugins.module_utils._resources.account_settings import AccountSettingsModule
    from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_record import DnsRecordModule
    from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_settings import DnsSettingsModule
    from ansible_collections.nms.overlay.plugins.module_utils._resources.peer import PeerModule
    from ansible_collections.nms.overlay.plugins.module_utils._resources.user import UserModule
    ops = compatibility.kind_operations
    # a singleton: read and updated; deleted where the kind says how that is confirmed, under its id
    assert ops(DnsSettingsModule) == {'GET /api/dns/settings', 'PUT /api/dns/settings'}
    assert ops(AccountSettingsModule) == {'GET /api/accounts', 'PUT /api/accounts/{}', 'DELETE /api/accounts/{}'}
    # the API cannot create peers; the peer module writes its groups' member lists
    # (and before a deletion reads what links the peer: routers, their networks, reverse-proxy services)
    assert ops(PeerModule) == {'GET /api/peers', 'GET /api/peers/{}', 'PUT /api/peers/{}', 'DELETE /api/peers/{}', 'PUT /api/groups/{}',
                               'GET /api/networks/routers', 'GET /api/networks', 'GET /api/reverse-proxies/services'}
    # found in the list only (no GET by id), and what it declares beyond its path
    assert 'GET /api/users/{}' not in ops(UserModule) and 'POST /api/users/{}/approve' in ops(UserModule)
    # under its parent (the zone), by the parent's path and its own sub_path
    assert ops(DnsRecordModule) == {'GET /api/dns/zones/{}/records', 'POST /api/dns/zones/{}/records', 'GET /api/dns/zones/{}/records/{}',
                                    'PUT /api/dns/zones/{}/records/{}', 'DELETE /api/dns/zones/{}/records/{}'}


def test_a_kind_whose_fields_are_all_fixed_at_creation_is_never_updated():
    from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
    from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule

    class Fixed(ResourceModule):
        path = '/fixed'
        what = 'fixed thing'
        fields = dict(name=Field(immutable=True))

    assert compatibility.kind_operations(Fixed) == {'GET /api/fixed', 'GET /api/fixed/{}', 'POST /api/fixed', 'DELETE /api/fixed/{}'}
    Fixed.fields = dict(name=Field(immutable=True), note=Field())
    assert 'PUT /api/fixed/{}' in compatibility.kind_operations(Fixed)


def test_an_info_modules_reads_follow_from_its_kind():
    assert compatibility.module_operations('network_info') == {'GET /api/networks', 'GET /api/networks/{}'}
    # list-only kinds are read in their list; the module's own reads are declared
    assert compatibility.module_operations('network_router_info') == {'GET /api/networks/{}/routers', 'GET /api/networks/routers'}
    assert compatibility.module_operations('user_info') == {'GET /api/users', 'GET /api/users/current'}
    assert compatibility.module_operations('dns_settings_info') == {'GET /api/dns/settings'}


def test_every_declared_operation_is_in_the_spec(operations):
    assert compatibility.declared_outside_spec(operations) == {}


def test_no_module_calls_an_operation_of_todays_servers_that_the_spec_lacks(operations):
    """What the derivation gives beyond the spec is only what the spec of v0.77.1 does not serve on purpose."""
    shapes = set(compatibility.shape(operation) for operation in operations)
    extra = sorted(set(found for module in compatibility.module_names() for found in compatibility.module_operations(module)) - shapes)
    assert extra == [], extra


def test_the_not_yet_list_is_exactly_what_no_module_covers(operations):
    covered, left_out, missing = compatibility.coverage(operations)
    listed = set(compatibility.NOT_YET)
    assert len(listed) == len(compatibility.NOT_YET), 'NOT_YET names an operation twice'
    assert not listed - set(operations), 'NOT_YET names operations the spec does not have: %s' % sorted(listed - set(operations))
    now_covered = sorted(listed & set(covered))
    assert not now_covered, 'modules cover these now: remove them from NOT_YET (tests/support/compatibility.py): %s' % now_covered
    unlisted = sorted(set(missing) - listed)
    assert not unlisted, 'no module covers these: add them to NOT_YET or LEFT_OUT (with the reason): %s' % unlisted


def test_what_is_left_out_is_in_the_spec_and_not_covered(operations):
    covered = compatibility.covering_modules(operations)
    for operation, reason in compatibility.LEFT_OUT.items():
        assert operation in operations, operation
        assert operation not in covered, '%s is covered by %s: remove it from LEFT_OUT' % (operation, covered[operation])
        assert reason.endswith('.') and len(reason) > 20


def test_the_page_states_the_counts_its_table_has(operations):
    page = compatibility.render()
    covered, left_out, missing = compatibility.coverage(operations)
    rows = [line for line in page.split('## API coverage', 1)[1].splitlines() if line.startswith('| `')]
    statuses = [row.rsplit('|', 2)[1].strip() for row in rows]
    assert len(rows) == len(operations) == 144
    assert statuses.count('covered') == len(covered)
    assert sum(1 for status in statuses if status.startswith('left out: ')) == len(left_out) == len(compatibility.LEFT_OUT)
    assert statuses.count('not covered yet') == len(missing) == len(compatibility.NOT_YET)
    assert ('**%d** in all. Modules call **%d** of them, **%d** are left out on purpose and **%d** are not covered yet'
            % (len(operations), len(covered), len(left_out), len(missing))) in page
    # the operations as the spec writes them, each once, in its order
    assert [row.split('`')[1] for row in rows] == list(operations)


def test_each_covered_operation_names_the_modules_that_call_it(operations):
    page = compatibility.render()
    assert '| `GET /api/users/current` | `nms.overlay.user_info`, `nms.overlay.user_password` | covered |' in page
    assert '| `GET /api/networks/routers` | `nms.overlay.network_router_info`, `nms.overlay.peer` | covered |' in page
    assert '| `GET /api/events/proxy` | `nms.overlay.event_info` | covered |' in page
    assert '| `GET /api/instance/version` | the version probe | covered |' in page
    assert '| `POST /api/users/invites/{token}/accept` | | left out: The invitee' in page


def test_each_proof_with_real_agents_names_a_test_that_exists():
    """The page's "Proven with real agents" rows (issue 42, 8) name real-server tests that are there to run."""
    integration = os.path.join(os.path.dirname(compatibility.MODULES_DIR), '..', 'tests', 'integration')
    for what, dummy_old, dummy_new, test in compatibility.REAL_AGENT_PROOFS:
        path, dummy, name = test.partition('::')
        with open(os.path.join(integration, path), encoding='utf-8') as handle:
            source = handle.read()
        assert '\ndef %s(' % name in source, (what, test)
        assert 'Agents(' in source, '%s starts no real agent' % test
