# -*- coding: utf-8 -*-
"""nms.overlay.policy, posture_check and their info modules through ansible-playbook and real HTTP, in both dialects."""

from __future__ import annotations

from tests.support import emulator as support
from tests.support.emulator import writes_of as writes
from tests.support.modules import examples_of


def make_group(emulator, name):
    return support.make_group(emulator, name)['id']


def make_groups(emulator, *names):
    return {name: make_group(emulator, name) for name in names}


def make_check(emulator, name, checks=None):
    status, check = emulator.api('POST', '/api/posture-checks', {
        'name': name, 'description': '', 'checks': checks or {'nb_version_check': {'min_version': '0.25.0'}}})
    assert status == 200, check
    return check['id']


def policies_named(emulator, name):
    status, policies = emulator.api('GET', '/api/policies')
    assert status == 200
    return [p for p in policies if p['name'] == name]


def checks_named(emulator, name):
    status, checks = emulator.api('GET', '/api/posture-checks')
    assert status == 200
    return [c for c in checks if c['name'] == name]


def paths(emulator):
    return sorted(r['method'] + ' ' + r['path'] for r in emulator.requests())


def ids_of(refs):
    return sorted(ref['id'] for ref in refs or [])


def names_of(refs):
    return sorted(ref['name'] for ref in refs or [])


def todays_options(task):
    """Whether an example task sets an option that only servers after v0.27 have."""
    text = repr(task)
    return any(option in text for option in ('process_check', 'source_resource', 'destination_resource', 'authorized_groups'))


HTTPS_RULE = {'name': 'https', 'protocol': 'tcp', 'ports': ['443', '8080'],
              'sources': ['developers', 'ops'], 'destinations': ['web']}


# -- policy --------------------------------------------------------------------------------------------
def test_policy_create_rerun_edit_delete(emulator, run):
    groups = make_groups(emulator, 'developers', 'ops', 'web', 'db')
    emulator.clear_log()
    task = {'name': 'policy', 'nms.overlay.policy': {'name': 'dev-to-web', 'description': 'HTTPS', 'rules': [HTTPS_RULE]}}
    first = run([task])
    assert first.rc == 0, first
    assert first['policy']['changed'] is True
    created = first['policy']['policy']
    assert created['name'] == 'dev-to-web' and created['enabled'] is True
    assert created['source_posture_checks'] == []
    rule = created['rules'][0]
    assert names_of(rule['sources']) == ['developers', 'ops']
    assert rule['destinations'] == [{'id': groups['web'], 'name': 'web'}] or names_of(rule['destinations']) == ['web']
    assert sorted(rule['ports']) == ['443', '8080']
    assert writes(emulator) == ['POST /api/policies']
    body = emulator.writes()[0]['body']
    assert body['source_posture_checks'] == []
    assert body['rules'][0]['sources'] == sorted([groups['developers'], groups['ops']])
    assert body['rules'][0]['destinations'] == [groups['web']]
    assert body['rules'][0]['action'] == 'accept' and body['rules'][0]['bidirectional'] is True
    assert 'id' not in body['rules'][0]
    policy_id = created['id']

    # The same rules with group names reordered, one group given by id and the ports reordered: no write.
    emulator.clear_log()
    same = dict(HTTPS_RULE, sources=['ops', groups['developers']], ports=['8080', '443'])
    again = run([{'name': 'policy', 'nms.overlay.policy': {'name': 'dev-to-web', 'description': 'HTTPS', 'rules': [same]}}])
    assert again.rc == 0, again
    assert again['policy']['changed'] is False
    assert emulator.writes() == []
    assert paths(emulator) == ['GET /api/groups', 'GET /api/policies']  # one list per kind

    # A task without rules never touches them: one request.
    emulator.clear_log()
    keep = run([{'name': 'keep', 'nms.overlay.policy': {'name': 'dev-to-web'}}])
    assert keep['keep']['changed'] is False
    assert paths(emulator) == ['GET /api/policies']

    # A rule edit with --diff: only the ports change; the description and the other rule options are kept.
    emulator.clear_log()
    edit = dict(HTTPS_RULE, ports=['443'])
    del edit['protocol']
    edited = run([{'name': 'edit', 'nms.overlay.policy': {'name': 'dev-to-web', 'rules': [edit]}}], diff=True)
    assert edited['edit']['changed'] is True
    diff = edited['edit']['diff']
    assert list(diff['before']) == ['rules'] and list(diff['after']) == ['rules']
    assert diff['before']['rules'][0]['ports'] == ['443', '8080']
    assert diff['after']['rules'][0]['ports'] == ['443']
    assert diff['after']['rules'][0]['protocol'] == 'tcp'
    # groups by name in the diff (before: the summaries in the policy; after: the group list read to resolve them)
    assert diff['before']['rules'][0]['sources'] == ['developers', 'ops']
    assert diff['after']['rules'][0]['sources'] == ['developers', 'ops']
    assert diff['after']['rules'][0]['destinations'] == ['web']
    assert paths(emulator) == ['GET /api/groups', 'GET /api/policies', 'PUT /api/policies/%s' % policy_id]
    assert writes(emulator) == ['PUT /api/policies/%s' % policy_id]
    stored = policies_named(emulator, 'dev-to-web')[0]
    assert stored['description'] == 'HTTPS'
    assert stored['rules'][0]['ports'] == ['443']
    assert stored['rules'][0]['protocol'] == 'tcp'

    if emulator.dialect == 'current':
        # v0.77 keeps only the first rule of a policy: a second rule is refused before any write, naming the server
        emulator.clear_log()
        refused = run([{'name': 'two', 'ignore_errors': True, 'nms.overlay.policy': {
            'name': 'dev-to-web', 'enabled': False, 'rules': [
                {'name': 'https', 'protocol': 'all'},
                {'name': 'db', 'protocol': 'tcp', 'ports': ['5432'], 'bidirectional': False, 'sources': ['web'], 'destinations': ['db']},
            ]}}])
        assert refused['two']['failed'] is True
        assert refused['two']['msg'].startswith('option rules: this server (0.77.1) keeps only the first rule of a policy')
        assert emulator.writes() == []
        # switching to protocol all clears the ports and keeps the groups
        one = run([{'name': 'one', 'nms.overlay.policy': {'name': 'dev-to-web', 'enabled': False,
                                                          'rules': [{'name': 'https', 'protocol': 'all'}]}}])
        assert one['one']['changed'] is True
        rules = one['one']['policy']['rules']
        assert [r['name'] for r in rules] == ['https']
        assert rules[0]['protocol'] == 'all' and rules[0]['ports'] == []
        assert names_of(rules[0]['sources']) == ['developers', 'ops']
        assert one['one']['policy']['enabled'] is False
    else:
        # Switching to protocol all clears the ports and keeps the groups; a second rule is added.
        emulator.clear_log()
        two = run([{'name': 'two', 'nms.overlay.policy': {'name': 'dev-to-web', 'enabled': False, 'rules': [
            {'name': 'https', 'protocol': 'all'},
            {'name': 'db', 'protocol': 'tcp', 'ports': ['5432'], 'bidirectional': False, 'sources': ['web'], 'destinations': ['db']},
        ]}}])
        assert two.rc == 0, two
        assert two['two']['changed'] is True
        rules = two['two']['policy']['rules']
        assert [r['name'] for r in rules] == ['https', 'db']
        assert rules[0]['protocol'] == 'all' and rules[0]['ports'] == []
        assert names_of(rules[0]['sources']) == ['developers', 'ops']
        assert rules[1]['bidirectional'] is False and rules[1]['ports'] == ['5432']
        assert two['two']['policy']['enabled'] is False

        # The same two rules in the other order: rules are ordered, so that is a change. v0.27 answers db without its
        # source web, which the first rule lists (as a destination): moved first, its sources must be given
        emulator.clear_log()
        refused = run([{'name': 'swap', 'ignore_errors': True, 'nms.overlay.policy': {'name': 'dev-to-web', 'rules': [
            {'name': 'db'}, {'name': 'https'}]}}])
        assert refused['swap']['msg'].startswith("option rules[0].sources is required to update the policy 'dev-to-web'")
        assert emulator.writes() == []
        swapped = run([{'name': 'swap', 'nms.overlay.policy': {'name': 'dev-to-web', 'rules': [
            {'name': 'db', 'sources': ['web']}, {'name': 'https'}]}}])
        assert swapped['swap']['changed'] is True
        assert [r['name'] for r in swapped['swap']['policy']['rules']] == ['db', 'https']
        emulator.clear_log()
        same_order = run([{'name': 'swap', 'nms.overlay.policy': {'name': 'dev-to-web', 'rules': [
            {'name': 'db', 'sources': ['web']}, {'name': 'https', 'destinations': ['web']}]}}])
        assert same_order['swap']['changed'] is False
        assert emulator.writes() == []

    # Rename by id.
    renamed = run([{'name': 'rename', 'nms.overlay.policy': {'id': policy_id, 'name': 'renamed'}}])
    assert renamed['rename']['changed'] is True
    assert renamed['rename']['policy']['name'] == 'renamed'

    # Delete, then delete again.
    emulator.clear_log()
    gone = run([
        {'name': 'delete', 'nms.overlay.policy': {'name': 'renamed', 'state': 'absent'}},
        {'name': 'delete again', 'nms.overlay.policy': {'name': 'renamed', 'state': 'absent'}},
    ], diff=True)
    assert gone['delete']['changed'] is True
    assert gone['delete']['diff']['after'] == {}
    assert gone['delete again']['changed'] is False
    assert writes(emulator) == ['DELETE /api/policies/%s' % policy_id]
    assert policies_named(emulator, 'renamed') == []


def test_policy_posture_checks_by_name_and_id(emulator, run):
    make_groups(emulator, 'developers', 'ops', 'web')
    recent = make_check(emulator, 'recent-client')
    office = make_check(emulator, 'office', {'peer_network_range_check': {'action': 'allow', 'ranges': ['10.0.0.0/8']}})
    emulator.clear_log()
    task = {'name': 'p', 'nms.overlay.policy': {'name': 'gated', 'rules': [HTTPS_RULE],
                                                'source_posture_checks': ['recent-client', office]}}
    first = run([task])
    assert first.rc == 0, first
    assert sorted(first['p']['policy']['source_posture_checks'], key=lambda r: r['name']) == [
        {'id': office, 'name': 'office'}, {'id': recent, 'name': 'recent-client'}]
    assert sorted(emulator.writes()[0]['body']['source_posture_checks']) == sorted([recent, office])

    emulator.clear_log()
    again = run([{'name': 'p', 'nms.overlay.policy': {'name': 'gated', 'rules': [HTTPS_RULE],
                                                      'source_posture_checks': [office, 'recent-client']}}])
    assert again['p']['changed'] is False
    assert emulator.writes() == []
    assert paths(emulator) == ['GET /api/groups', 'GET /api/policies', 'GET /api/posture-checks']

    # Keeping the rules while dropping one posture check sends them all again (PUT replaces the policy).
    emulator.clear_log()
    fewer = run([{'name': 'p', 'nms.overlay.policy': {'name': 'gated', 'source_posture_checks': ['office']}}], diff=True)
    assert fewer['p']['changed'] is True
    # the diff names the posture checks (the list read to resolve 'office'); the result keeps {id, name}
    assert fewer['p']['diff'] == {'before': {'source_posture_checks': ['office', 'recent-client']},
                                  'after': {'source_posture_checks': ['office']}}
    body = emulator.writes()[0]['body']
    assert body['source_posture_checks'] == [office]
    assert body['rules'][0]['name'] == 'https' and body['rules'][0]['ports'] == ['443', '8080']

    # A task that does not mention posture checks keeps them (the PUT must still send them).
    emulator.clear_log()
    run([{'name': 'p', 'nms.overlay.policy': {'name': 'gated', 'description': 'now with a description'}}])
    assert emulator.writes()[0]['body']['source_posture_checks'] == [office]
    assert ids_of([{'id': c} for c in policies_named(emulator, 'gated')[0]['source_posture_checks']]) == [office]


def test_policy_check_mode_sends_no_write(emulator, run):
    make_groups(emulator, 'developers', 'ops', 'web')
    status, existing = emulator.api('POST', '/api/policies', {
        'name': 'existing', 'description': '', 'enabled': True, 'rules': [{
            'name': 'r', 'enabled': True, 'action': 'accept', 'bidirectional': True, 'protocol': 'all',
            'sources': [make_group(emulator, 'a')], 'destinations': [make_group(emulator, 'b')]}]})
    assert status == 200, existing
    emulator.clear_log()
    result = run([
        {'name': 'create', 'nms.overlay.policy': {'name': 'new', 'rules': [HTTPS_RULE]}},
        {'name': 'update', 'nms.overlay.policy': {'name': 'existing', 'rules': [{'name': 'r', 'sources': ['developers']}]}},
        {'name': 'delete', 'nms.overlay.policy': {'name': 'existing', 'state': 'absent'}},
    ], check=True, diff=True)
    assert result.rc == 0, result
    assert [result[n]['changed'] for n in ('create', 'update', 'delete')] == [True, True, True]
    assert result['create']['diff']['before'] == {}
    assert result['create']['diff']['after']['name'] == 'new'
    assert names_of(result['create']['policy']['rules'][0]['sources']) == ['developers', 'ops']
    assert names_of(result['update']['policy']['rules'][0]['sources']) == ['developers']
    # rule ids as RETURN documents them: kept for a kept rule, the placeholder policy id for a new policy
    assert [rule['id'] for rule in result['update']['policy']['rules']] == [existing['id']]
    assert [rule['id'] for rule in result['create']['policy']['rules']] == ['(new policy new)']
    assert result['create']['policy']['id'] == '(new policy new)'
    assert result['update']['diff']['before']['rules'][0]['sources'] == ['a']
    assert result['update']['diff']['after']['rules'][0]['sources'] == ['developers']
    assert result['delete']['diff']['after'] == {}
    assert emulator.writes() == []
    assert policies_named(emulator, 'new') == []


def test_renaming_onto_a_name_in_use_fails_before_any_write(emulator, run):
    """Servers check group and posture check names on create only: a rename onto another's name is refused here."""
    groups = make_groups(emulator, 'alpha', 'beta')
    checks = {name: make_check(emulator, name) for name in ('alpha-check', 'beta-check')}
    cases = [
        ('nms.overlay.group', groups, 'group', 'alpha', 'beta', '/api/groups'),
        ('nms.overlay.posture_check', checks, 'posture check', 'alpha-check', 'beta-check', '/api/posture-checks'),
    ]
    for module, ids, what, taken, renamed, path in cases:
        for check in (True, False):
            emulator.clear_log()
            result = run([{'name': 'rename', module: {'id': ids[renamed], 'name': taken}, 'ignore_errors': True}],
                         check=check)
            assert result['rename']['failed'] is True, (module, check)
            assert result['rename']['msg'] == (
                "option name: cannot rename the %s '%s' (id %s) to '%s': the %s with id %s already has that name, and "
                "%s names must be unique" % (what, renamed, ids[renamed], taken, what, ids[taken], what))
            assert emulator.writes() == []
            assert paths(emulator) == sorted(['GET %s/%s' % (path, ids[renamed]), 'GET %s' % path])
        # a free name: one list read for the rename, then the PUT; the same task again reads only the object
        emulator.clear_log()
        free = run([{'name': 'rename', module: {'id': ids[renamed], 'name': renamed + '-2'}}])
        assert free['rename']['changed'] is True, free
        assert paths(emulator) == sorted(['GET %s/%s' % (path, ids[renamed]), 'GET %s' % path, 'PUT %s/%s' % (path, ids[renamed])])
        emulator.clear_log()
        same = run([{'name': 'rename', module: {'id': ids[renamed], 'name': renamed + '-2'}}])
        assert same['rename']['changed'] is False
        assert paths(emulator) == ['GET %s/%s' % (path, ids[renamed])]
    status, listed = emulator.api('GET', '/api/groups')
    assert sorted(g['name'] for g in listed if g['name'].startswith(('alpha', 'beta'))) == ['alpha', 'beta-2']


def test_policies_may_share_a_name_and_twins_say_policies(emulator, run):
    groups = make_groups(emulator, 'developers', 'web')
    ids = []
    for name in ('twin', 'twin', 'single'):
        status, policy = emulator.api('POST', '/api/policies', {
            'name': name, 'description': '', 'enabled': True, 'rules': [{
                'name': 'r', 'enabled': True, 'action': 'accept', 'bidirectional': True, 'protocol': 'all',
                'sources': [groups['developers']], 'destinations': [groups['web']]}]})
        assert status == 200, policy
        ids.append(policy['id'])
    emulator.clear_log()
    result = run([
        {'name': 'ambiguous', 'nms.overlay.policy': {'name': 'twin', 'enabled': False}, 'ignore_errors': True},
        {'name': 'info', 'nms.overlay.policy_info': {'name': 'twin'}},
        {'name': 'rename', 'nms.overlay.policy': {'id': ids[2], 'name': 'twin'}},
    ])
    assert result['ambiguous']['msg'] == ("name 'twin' matches 2 policies (ids: %s); give the id to choose one"
                                          % ', '.join(sorted(ids[:2])))
    assert len(result['info']['policies']) == 2
    # policy names need not be unique (the server and the spec say so): a rename onto one is no error
    assert result['rename']['changed'] is True
    assert len(policies_named(emulator, 'twin')) == 3


def test_diff_shows_references_by_name_without_extra_requests(emulator, run):
    from tests.support.emulator import make_peers  # pylint: disable=import-outside-toplevel
    peers = make_peers(emulator, 'laptop', 'db-1', 'db-2')
    status, group = emulator.api('POST', '/api/groups', {'name': 'servers', 'peers': [peers['laptop'], peers['db-1']]})
    assert status == 200, group
    emulator.clear_log()
    result = run([{'name': 'members', 'nms.overlay.group': {'name': 'servers', 'peers': ['db-1', peers['db-2']]}}],
                 check=True, diff=True)
    assert result['members']['diff'] == {'before': {'peers': ['db-1', 'laptop']}, 'after': {'peers': ['db-1', 'db-2']}}
    # the result is not the diff: it keeps the ids
    assert sorted(p['id'] if isinstance(p, dict) else p for p in result['members']['group']['peers']) == sorted(
        [peers['db-1'], peers['db-2']])
    assert paths(emulator) == ['GET /api/groups', 'GET /api/peers']  # as without --diff
    emulator.clear_log()
    gone = run([{'name': 'gone', 'nms.overlay.group': {'name': 'servers', 'state': 'absent'}}], check=True, diff=True)
    # the names of the members come from the group itself: no peer list read
    assert gone['gone']['diff']['before']['peers'] == ['db-1', 'laptop']
    assert 'GET /api/peers' not in paths(emulator)


def test_unknown_names_fail_before_any_write_naming_them(emulator, run):
    make_groups(emulator, 'developers', 'web')
    make_check(emulator, 'recent-client')
    emulator.clear_log()
    rules = [{'name': 'one', 'sources': ['developers', 'ghosts'], 'destinations': ['web']},
             {'name': 'two', 'protocol': 'tcp', 'ports': ['22'], 'sources': ['developers'], 'destinations': ['nowhere']}]
    last = 'rules[1]'
    if emulator.dialect == 'current':
        # v0.77 keeps one rule per policy, and two rules are refused before names are resolved
        # (test_two_rules_sharing_a_source_group_settle): one rule names the three unknowns
        rules, last = [dict(rules[0], destinations=['web', 'nowhere'])], 'rules[0]'
    result = run([{'name': 'bad', 'nms.overlay.policy': {
        'name': 'p', 'source_posture_checks': ['recent-client', 'no-such-check'], 'rules': rules}}])
    assert result.rc != 0
    msg = result['bad']['msg']
    assert "source_posture_checks: no posture check with the id or name 'no-such-check'" in msg
    assert "rules[0].sources: no group with the id or name 'ghosts'" in msg
    assert "%s.destinations: no group with the id or name 'nowhere'" % last in msg
    assert emulator.writes() == []

    # The same for an existing policy.
    status, dummy = emulator.api('POST', '/api/policies', {
        'name': 'p', 'description': '', 'enabled': True, 'rules': [{
            'name': 'one', 'enabled': True, 'action': 'accept', 'bidirectional': True, 'protocol': 'all',
            'sources': [], 'destinations': []}]})
    emulator.clear_log()
    result = run([{'name': 'bad', 'nms.overlay.policy': {'name': 'p', 'rules': [{'name': 'one', 'sources': ['ghosts']}]}}])
    assert result['bad']['msg'] == "rules[0].sources: no group with the id or name 'ghosts'"
    assert emulator.writes() == []


def test_invalid_rules_fail_naming_the_option_before_any_request(emulator, run):
    emulator.clear_log()
    base = {'name': 'r', 'sources': ['a'], 'destinations': ['b']}
    result = run([
        {'name': 'ports with all', 'nms.overlay.policy': {'name': 'p', 'rules': [dict(base, protocol='all', ports=['80'])]},
         'ignore_errors': True},
        {'name': 'port range', 'nms.overlay.policy': {'name': 'p', 'rules': [dict(base, protocol='tcp', ports=['80', '9000-70000'])]},
         'ignore_errors': True},
        {'name': 'one-way icmp', 'nms.overlay.policy': {'name': 'p', 'rules': [base, dict(base, protocol='icmp', bidirectional=False)]},
         'ignore_errors': True},
        {'name': 'one-way tcp', 'nms.overlay.policy': {'name': 'p', 'rules': [dict(base, protocol='tcp', bidirectional=False, ports=[])]},
         'ignore_errors': True},
        {'name': 'no rules', 'nms.overlay.policy': {'name': 'p', 'rules': []}, 'ignore_errors': True},
        {'name': 'bad protocol', 'nms.overlay.policy': {'name': 'p', 'rules': [dict(base, protocol='sctp')]}, 'ignore_errors': True},
    ])
    assert result['ports with all']['msg'].startswith('option rules[0].ports: not allowed with protocol all')
    assert result['port range']['msg'] == (
        "option rules[0].ports[1]: '9000-70000' is not a port in 1..65535 or a range of them like 8000-8100")
    assert result['one-way icmp']['msg'] == 'option rules[1].bidirectional: must be true with protocol icmp'
    assert result['one-way tcp']['msg'] == (
        'option rules[0].ports: a one-way (bidirectional false) tcp rule needs at least one port')
    assert result['no rules']['msg'].startswith('option rules: give at least one rule')
    assert 'protocol' in result['bad protocol']['msg'] and 'sctp' in result['bad protocol']['msg']
    assert all(r['failed'] for r in result.results)
    assert emulator.requests() == []

    # Shapes ansible-core itself trips over: a clean failure naming the option, the token masked.
    shapes = run([
        {'name': 'rules', 'nms.overlay.policy': {'name': 'p', 'rules': ['a', 'list']}, 'ignore_errors': True},
        {'name': 'checks', 'nms.overlay.posture_check': {'name': 'c', 'checks': [1, 2]}, 'ignore_errors': True},
        # a module process fails to log a NUL character to syslog, naming nothing: refused first, both ways
        {'name': 'nul here', 'nms.overlay.policy': {'name': 'p', 'rules': [dict(base, sources=['a\x00'])]},
         'ignore_errors': True},
        {'name': 'nul as process', 'nms.overlay.policy': {'name': 'p\x00', 'rules': [base]}, 'ignore_errors': True,
         'vars': {'nms_overlay_in_process': False}},
    ], verbosity=4)
    assert shapes['rules']['msg'].startswith("option rules[0]: must be a dictionary of its suboptions (action, ")
    assert shapes['checks']['msg'].startswith('option checks: must be a dictionary of its suboptions (geo_location_check, ')
    assert shapes['nul here']['msg'] == 'option rules[0].sources[0]: must not contain a NUL character (\\x00)'
    assert shapes['nul as process']['msg'] == 'option name: must not contain a NUL character (\\x00)'
    assert emulator.token not in shapes.stdout
    assert emulator.requests() == []


def test_new_rule_needs_groups(emulator, run):
    make_groups(emulator, 'web')
    emulator.clear_log()
    result = run([{'name': 'bad', 'nms.overlay.policy': {'name': 'p', 'rules': [{'name': 'r', 'destinations': ['web']}]}}])
    assert result['bad']['msg'] == 'option rules[0] (r): sources is required for a new rule'
    assert emulator.writes() == []


# -- posture check ---------------------------------------------------------------------------------------
def test_posture_check_create_merge_replace_delete(emulator, run):
    emulator.clear_log()
    task = {'name': 'pc', 'nms.overlay.posture_check': {'name': 'recent', 'checks': {
        'nb_version_check': {'min_version': '0.25.0'},
        'peer_network_range_check': {'action': 'allow', 'ranges': ['192.168.0.0/16', '10.1.2.3/8']},
    }}}
    first = run([task])
    assert first.rc == 0, first
    assert first['pc']['changed'] is True
    created = first['pc']['posture_check']
    assert created['checks']['nb_version_check'] == {'min_version': '0.25.0'}
    assert sorted(created['checks']['peer_network_range_check']['ranges']) == ['10.0.0.0/8', '192.168.0.0/16']
    assert created['description'] == ''
    assert writes(emulator) == ['POST /api/posture-checks']
    check_id = created['id']

    # Again with the ranges in another order and written differently: no write, one request.
    emulator.clear_log()
    again = run([{'name': 'pc', 'nms.overlay.posture_check': {'name': 'recent', 'checks': {
        'nb_version_check': {'min_version': '0.25.0'},
        'peer_network_range_check': {'action': 'allow', 'ranges': ['10.0.0.0/8', '192.168.0.0/16']},
    }}}])
    assert again['pc']['changed'] is False
    assert emulator.writes() == []
    assert paths(emulator) == ['GET /api/posture-checks']

    # Merge: a new member is added, the others stay; the country code is sent upper-case.
    emulator.clear_log()
    merged = run([{'name': 'pc', 'nms.overlay.posture_check': {'name': 'recent', 'checks': {
        'geo_location_check': {'action': 'deny', 'locations': [{'country_code': 'de', 'city_name': 'Berlin'}]},
    }}}], diff=True)
    assert merged['pc']['changed'] is True
    assert merged['pc']['diff']['before'] == {'checks': {
        'nb_version_check': {'min_version': '0.25.0'},
        'peer_network_range_check': {'action': 'allow', 'ranges': ['10.0.0.0/8', '192.168.0.0/16']}}}
    assert merged['pc']['diff']['after']['checks']['geo_location_check'] == {
        'action': 'deny', 'locations': [{'country_code': 'DE', 'city_name': 'Berlin'}]}
    body = emulator.writes()[0]['body']
    assert body['checks']['geo_location_check']['locations'] == [{'country_code': 'DE', 'city_name': 'Berlin'}]
    assert set(body['checks']) == {'nb_version_check', 'peer_network_range_check', 'geo_location_check'}
    assert isinstance(body['checks']['peer_network_range_check']['ranges'][0], str)  # sent flat
    stored = checks_named(emulator, 'recent')[0]
    assert set(stored['checks']) == {'nb_version_check', 'peer_network_range_check', 'geo_location_check'}

    # The same code in upper case: unchanged.
    emulator.clear_log()
    same = run([{'name': 'pc', 'nms.overlay.posture_check': {'name': 'recent', 'checks': {
        'geo_location_check': {'action': 'deny', 'locations': [{'country_code': 'DE', 'city_name': 'Berlin'}]}}}}])
    assert same['pc']['changed'] is False and emulator.writes() == []

    # Replace: only the given member remains.
    emulator.clear_log()
    replaced = run([{'name': 'pc', 'nms.overlay.posture_check': {'name': 'recent', 'checks_mode': 'replace', 'checks': {
        'os_version_check': {'linux': {'min_kernel_version': '5.10.0'}, 'windows': {'min_kernel_version': '10.0.19045'}}}}}])
    assert replaced['pc']['changed'] is True
    assert replaced['pc']['posture_check']['checks'] == {'os_version_check': {
        'linux': {'min_kernel_version': '5.10.0'}, 'windows': {'min_kernel_version': '10.0.19045'}}}
    assert checks_named(emulator, 'recent')[0]['checks'] == replaced['pc']['posture_check']['checks']

    # Check mode: nothing is written.
    emulator.clear_log()
    checked = run([
        {'name': 'update', 'nms.overlay.posture_check': {'name': 'recent', 'description': 'x'}},
        {'name': 'create', 'nms.overlay.posture_check': {'name': 'other', 'checks': {'nb_version_check': {'min_version': '1'}}}},
        {'name': 'delete', 'nms.overlay.posture_check': {'name': 'recent', 'state': 'absent'}},
    ], check=True)
    assert [checked[n]['changed'] for n in ('update', 'create', 'delete')] == [True, True, True]
    assert emulator.writes() == []

    # Delete, delete again.
    emulator.clear_log()
    gone = run([
        {'name': 'delete', 'nms.overlay.posture_check': {'name': 'recent', 'state': 'absent'}},
        {'name': 'delete again', 'nms.overlay.posture_check': {'name': 'recent', 'state': 'absent'}},
    ])
    assert gone['delete']['changed'] is True
    assert gone['delete again']['changed'] is False
    assert writes(emulator) == ['DELETE /api/posture-checks/%s' % check_id]


def test_posture_check_used_by_a_policy_cannot_be_deleted(emulator, run):
    groups = make_groups(emulator, 'a')
    check_id = make_check(emulator, 'gate')
    status, policy = emulator.api('POST', '/api/policies', {
        'name': 'Uses-Gate', 'description': '', 'enabled': True, 'source_posture_checks': [check_id], 'rules': [{
            'name': 'r', 'enabled': True, 'action': 'accept', 'bidirectional': True, 'protocol': 'all',
            'sources': [groups['a']], 'destinations': [groups['a']]}]})
    assert status == 200, policy
    emulator.clear_log()
    result = run([{'name': 'delete', 'nms.overlay.posture_check': {'name': 'gate', 'state': 'absent'}}])
    assert result['delete']['failed'] is True
    assert result['delete']['msg'] == (
        "the posture check 'gate' (id %s) is used by the policy 'Uses-Gate' (id %s); remove it from their "
        "source_posture_checks first" % (check_id, policy['id']))
    assert emulator.writes() == []
    assert len(checks_named(emulator, 'gate')) == 1

    # Once the policy lets go of it (one run, two tasks), the delete works.
    emulator.clear_log()
    result = run([
        {'name': 'release', 'nms.overlay.policy': {'name': 'Uses-Gate', 'source_posture_checks': []}},
        {'name': 'delete', 'nms.overlay.posture_check': {'name': 'gate', 'state': 'absent'}},
    ])
    assert result.rc == 0, result
    assert writes(emulator) == ['PUT /api/policies/%s' % policy['id'], 'DELETE /api/posture-checks/%s' % check_id]


def test_posture_check_invalid_values_fail_before_any_request(emulator, run):
    emulator.clear_log()
    result = run([
        {'name': 'version', 'nms.overlay.posture_check': {'name': 'x', 'checks': {'nb_version_check': {'min_version': 'abc'}}},
         'ignore_errors': True},
        {'name': 'country', 'nms.overlay.posture_check': {'name': 'x', 'checks': {'geo_location_check': {
            'action': 'allow', 'locations': [{'country_code': 'DEU'}]}}}, 'ignore_errors': True},
        {'name': 'cidr', 'nms.overlay.posture_check': {'name': 'x', 'checks': {'peer_network_range_check': {
            'action': 'deny', 'ranges': ['10.0.0.0/8', '10.0.0.1']}}}, 'ignore_errors': True},
        {'name': 'action', 'nms.overlay.posture_check': {'name': 'x', 'checks': {'peer_network_range_check': {
            'action': 'block', 'ranges': ['10.0.0.0/8']}}}, 'ignore_errors': True},
        {'name': 'no os', 'nms.overlay.posture_check': {'name': 'x', 'checks': {'os_version_check': {}}}, 'ignore_errors': True},
        {'name': 'empty', 'nms.overlay.posture_check': {'name': 'x', 'checks': {}}, 'ignore_errors': True},
        {'name': 'kernel', 'nms.overlay.posture_check': {'name': 'x', 'checks': {'os_version_check': {
            'linux': {'min_kernel_version': '5.x'}}}}, 'ignore_errors': True},
    ])
    msgs = {r['task']: r['msg'] for r in result.results}
    assert msgs['version'] == "option checks.nb_version_check.min_version: 'abc' is not a version (examples: 0.25.0, v1.2.3, 6.5.11-rc1)"
    assert msgs['country'].startswith("option checks.geo_location_check.locations[0].country_code: 'DEU' is not a 2-letter")
    assert msgs['cidr'].startswith("option checks.peer_network_range_check.ranges[1]: '10.0.0.1' is not a CIDR range")
    assert 'action' in msgs['action'] and 'block' in msgs['action']
    assert msgs['no os'].startswith('option checks.os_version_check: give the minimum version of at least one of')
    assert msgs['empty'].startswith('option checks: give at least one of nb_version_check')
    assert msgs['kernel'].startswith("option checks.os_version_check.linux.min_kernel_version: '5.x' is not a version")
    assert emulator.requests() == []


def test_posture_check_ranges_read_nested_or_flat(emulator, run):
    # Deployed servers send the ranges flat; the spec's sample nests them on read, which compares alike too
    # (tests/reliability/test_seed_conformance.py).
    make_check(emulator, 'nets', {'peer_network_range_check': {'action': 'allow', 'ranges': ['10.0.0.0/8', '172.16.0.0/12']}})
    status, raw = emulator.api('GET', '/api/posture-checks')
    nested = isinstance(raw[0]['checks']['peer_network_range_check']['ranges'][0], list)
    assert nested == (emulator.dialect == 'seed')
    emulator.clear_log()
    result = run([
        {'name': 'pc', 'nms.overlay.posture_check': {'name': 'nets', 'checks': {
            'peer_network_range_check': {'action': 'allow', 'ranges': ['172.16.0.0/12', '10.0.0.0/8']}}}},
        {'name': 'info', 'nms.overlay.posture_check_info': {'name': 'nets'}},
    ])
    assert result['pc']['changed'] is False
    assert emulator.writes() == []
    assert result['pc']['posture_check']['checks']['peer_network_range_check']['ranges'] == ['10.0.0.0/8', '172.16.0.0/12']
    assert result['info']['posture_checks'][0]['checks']['peer_network_range_check']['ranges'] == ['10.0.0.0/8', '172.16.0.0/12']


# -- info modules ----------------------------------------------------------------------------------------
def test_posture_check_info(emulator, run):
    first = make_check(emulator, 'one')
    make_check(emulator, 'two', {'os_version_check': {'linux': {'min_kernel_version': '5.10'}}})
    result = run([{'name': how, 'nms.overlay.posture_check_info': args} for how, args in (
        ('all', {}), ('name', {'name': 'one'}), ('id', {'id': first}), ('unknown', {'name': 'nope'}), ('unknown id', {'id': 'nope'}))])
    assert result.rc == 0, result
    assert sorted(c['name'] for c in result['all']['posture_checks']) == ['one', 'two']
    assert result['unknown']['posture_checks'] == [] and result['unknown id']['posture_checks'] == []
    for how in ('name', 'id'):
        found = result[how]['posture_checks']
        assert [c['id'] for c in found] == [first]
        assert found[0]['checks'] == {'nb_version_check': {'min_version': '0.25.0'}}


def test_policy_info_with_group_names(emulator, run):
    groups = make_groups(emulator, 'developers', 'ops', 'web')
    gate = make_check(emulator, 'gate')
    status, policy = emulator.api('POST', '/api/policies', {
        'name': 'p1', 'description': 'd', 'enabled': True, 'source_posture_checks': [gate], 'rules': [{
            'name': 'r', 'enabled': True, 'action': 'accept', 'bidirectional': False, 'protocol': 'tcp', 'ports': ['443'],
            'sources': [groups['developers'], groups['ops']], 'destinations': [groups['web']]}]})
    assert status == 200, policy
    emulator.clear_log()
    result = run([{'name': how, 'nms.overlay.policy_info': args} for how, args in (
        ('all', {}), ('name', {'name': 'p1'}), ('id', {'id': policy['id']}), ('unknown', {'name': 'nope'}), ('unknown id', {'id': 'nope'}))])
    assert result.rc == 0, result
    assert all('access' not in r for r in result.results)
    assert result['unknown']['policies'] == [] and result['unknown id']['policies'] == []
    found = result['all']['policies']
    assert sorted(p['name'] for p in found) == ['Default', 'p1']
    default = [p for p in found if p['name'] == 'Default'][0]
    assert default['source_posture_checks'] == []
    assert default['rules'][0]['ports'] == []
    assert names_of(default['rules'][0]['sources']) == ['All']
    for how in ('all', 'name', 'id'):
        mine = [p for p in result[how]['policies'] if p['name'] == 'p1']
        assert len(mine) == 1 and (how == 'all' or len(result[how]['policies']) == 1)
        assert mine[0]['source_posture_checks'] == [{'id': gate, 'name': 'gate'}]
        rule = mine[0]['rules'][0]
        assert sorted((g['id'], g['name']) for g in rule['sources']) == sorted(
            [(groups['developers'], 'developers'), (groups['ops'], 'ops')])
        assert [(g['id'], g['name']) for g in rule['destinations']] == [(groups['web'], 'web')]
        assert rule['ports'] == ['443']
    # 'all': one list of policies and one of posture checks (for the names), nothing else
    status_paths = [r['method'] + ' ' + r['path'] for r in emulator.requests()]
    assert status_paths.count('GET /api/groups') == 0


def test_policy_info_access_view(emulator, run):
    groups = make_groups(emulator, 'developers', 'ops', 'web', 'db')

    def rule(name, sources, destinations, **extra):
        values = {'name': name, 'enabled': True, 'action': 'accept', 'bidirectional': True, 'protocol': 'all',
                  'sources': [groups[s] for s in sources], 'destinations': [groups[d] for d in destinations]}
        values.update(extra)
        return values

    def policy(name, rules, enabled=True):
        status, created = emulator.api('POST', '/api/policies', {'name': name, 'description': '', 'enabled': enabled, 'rules': rules})
        assert status == 200, created

    emulator.api('DELETE', '/api/policies/%s' % policies_named(emulator, 'Default')[0]['id'])
    policy('web', [rule('https', ['developers', 'ops'], ['web'], protocol='tcp', ports=['8443', '443'], bidirectional=False)])
    policy('db', [rule('sql', ['web'], ['db'], protocol='tcp', ports=['5432'])])
    policy('ops-off', [rule('ssh', ['ops'], ['db'], protocol='tcp', ports=['22'])], enabled=False)
    policy('icmp-off', [rule('ping', ['ops'], ['web'], protocol='icmp', enabled=False)])
    result = run([
        {'name': 'access', 'nms.overlay.policy_info': {'view': 'access'}},
        {'name': 'one', 'nms.overlay.policy_info': {'name': 'db', 'view': 'access'}},
    ])
    assert result.rc == 0, result
    rows = result['access']['access']
    table = [(r['source'], r['destination'], r['protocol'], r['ports'], r['action'], r['policy'], r['rule']) for r in rows]
    assert table == [
        ('db', 'web', 'tcp', ['5432'], 'accept', 'db', 'sql'),
        ('developers', 'web', 'tcp', ['443', '8443'], 'accept', 'web', 'https'),
        ('ops', 'web', 'tcp', ['443', '8443'], 'accept', 'web', 'https'),
        ('web', 'db', 'tcp', ['5432'], 'accept', 'db', 'sql'),
    ]
    assert len(result['access']['policies']) == 4
    assert [(r['source'], r['destination']) for r in result['one']['access']] == [('db', 'web'), ('web', 'db')]


# -- examples -------------------------------------------------------------------------------------------
def test_examples_run_unchanged(emulator, run):
    """Every task of the four modules' EXAMPLES runs against the emulator as written, in this order (options of
    today's servers only on the current dialect: their refusal by v0.27 is tested with each)."""
    if emulator.dialect == 'current':  # the network resource a policy example names
        office = emulator.ok('POST', '/api/networks', {'name': 'office', 'description': ''})
        emulator.ok('POST', '/api/networks/%s/resources' % office['id'],
                    {'name': 'office-lan', 'address': '192.168.10.0/24', 'enabled': True, 'groups': []})
    tasks = []
    for module in ('posture_check', 'policy', 'policy_info', 'posture_check_info'):
        tasks.extend(task for task in examples_of(module) if emulator.dialect == 'current' or not todays_options(task))
    result = run(tasks)
    assert result.rc == 0, result
    assert not result.failed
    # And a second time: only the tasks that create and then delete the same thing change again.
    again = run(tasks)
    assert again.rc == 0, again
    changed = sorted(r['task'] for r in again.results if r.get('changed'))
    assert changed == sorted([
        'Only office networks, nothing else', 'Delete a posture check (fails while a policy uses it)',
        'A one-way rule that drops DNS traffic from developers to the web servers', 'Remove a policy']), changed


# -- what the server accepts (real v0.27.6: ranges refused, a shared source left out of later rules) -----------
def test_a_port_range_fails_before_any_write_naming_the_option_and_the_server_limit(emulator, run):
    make_groups(emulator, 'developers', 'ops', 'web')
    emulator.clear_log()
    if emulator.dialect == 'current':
        return a_port_range_goes_in_port_ranges(emulator, run)
    result = run([{'name': 'p', 'nms.overlay.policy': {'name': 'ranged', 'rules': [dict(HTTPS_RULE, ports=['443', '8000-8100'])]},
                   'ignore_errors': True}])
    assert result['p']['failed'] is True
    assert result['p']['msg'] == (
        "option rules[0].ports: '8000-8100' is a port range, and this server (v0.27: it has no GET /api/instance/version) "
        "takes single ports only (each in 1..65535); list the ports one by one")
    assert emulator.writes() == []
    assert 'GET /api/instance/version' in paths(emulator)
    # the same through network_state: refused before the groups it would create
    emulator.clear_log()
    state = run([{'name': 'n', 'ignore_errors': True, 'nms.overlay.network_state': {
        'groups': [{'name': 'new-group'}],
        'policies': [{'name': 'ranged', 'rules': [dict(HTTPS_RULE, ports=['8000-8100'], sources=['new-group'])]}]}}])
    assert state['n']['failed'] is True and "policies[0] (ranged): option rules[0].ports: '8000-8100'" in state['n']['msg']
    assert emulator.writes() == []


def a_port_range_goes_in_port_ranges(emulator, run):
    """v0.77 takes ranges in a rule's port_ranges, and single ports or ranges, not both: every port of the rule goes there."""
    task = {'name': 'p', 'nms.overlay.policy': {'name': 'ranged', 'rules': [dict(HTTPS_RULE, ports=['443', '8000-8100'])]}}
    result = run([task])
    assert result['p']['changed'] is True, result['p'].get('msg')
    (post,) = emulator.writes()
    assert 'ports' not in post['body']['rules'][0]
    assert post['body']['rules'][0]['port_ranges'] == [{'start': 443, 'end': 443}, {'start': 8000, 'end': 8100}]
    assert result['p']['policy']['rules'][0]['ports'] == ['443', '8000-8100']
    emulator.clear_log()
    assert run([task])['p']['changed'] is False
    assert emulator.writes() == []
    # the same through network_state, with a group it creates
    state = run([{'name': 'n', 'nms.overlay.network_state': {
        'groups': [{'name': 'new-group'}],
        'policies': [{'name': 'ranged too', 'rules': [dict(HTTPS_RULE, ports=['8000-8100'], sources=['new-group'])]}]}}])
    assert state['n']['changed'] is True, state['n'].get('msg')
    assert policies_named(emulator, 'ranged too')[0]['rules'][0]['port_ranges'] == [{'start': 8000, 'end': 8100}]


def test_two_rules_sharing_a_source_group_settle(emulator, run):
    make_groups(emulator, 'developers', 'ops', 'web', 'db')
    rules = [{'name': 'web', 'protocol': 'tcp', 'ports': ['443'], 'sources': ['developers'], 'destinations': ['web']},
             {'name': 'db', 'protocol': 'tcp', 'ports': ['5432'], 'sources': ['developers', 'ops'], 'destinations': ['db']}]
    task = {'name': 'p', 'nms.overlay.policy': {'name': 'two rules', 'rules': rules}}
    if emulator.dialect == 'current':
        # v0.77 keeps only the first rule of a policy: refused before any write, naming the server; network_state too
        emulator.clear_log()
        refused = run([dict(task, ignore_errors=True),
                       {'name': 'n', 'ignore_errors': True, 'nms.overlay.network_state': {
                           'groups': [{'name': 'new-group'}], 'policies': [{'name': 'two rules', 'rules': rules}]}}])
        for name in ('p', 'n'):
            assert refused[name]['failed'] is True
            assert 'option rules: this server (0.77.1) keeps only the first rule of a policy' in refused[name]['msg']
        assert emulator.writes() == []
        return
    first = run([task])
    assert first['p']['changed'] is True, first
    shown = [names_of(rule['sources']) for rule in policies_named(emulator, 'two rules')[0]['rules']]
    # netbird (v0.27.6) answers the second rule without developers, which the first rule lists
    assert shown == ([['developers'], ['ops']] if emulator.dialect == 'netbird' else [['developers'], ['developers', 'ops']])
    emulator.clear_log()
    again = run([task], diff=True)
    assert again['p']['changed'] is False, again['p'].get('diff')
    assert emulator.writes() == []
    assert 'GET /api/instance/version' in paths(emulator)  # several rules: the server is asked, once
    # a later rule the answer shows without sources is not sent back as answered (that would drop the hidden source)
    single = [rules[0], dict(rules[1], sources=['developers'])]
    assert run([{'name': 'p', 'nms.overlay.policy': {'name': 'two rules', 'rules': single}}])['p']['changed'] is True
    emulator.clear_log()
    renamed = run([{'name': 'p', 'ignore_errors': True, 'nms.overlay.policy': {'name': 'two rules', 'description': 'x'}}])
    if emulator.dialect == 'netbird':
        assert renamed['p']['failed'] is True and 'option rules[1].sources is required' in renamed['p']['msg']
        assert emulator.writes() == []
    else:
        assert renamed['p']['changed'] is True


# -- a posture check's process_check (v0.77) ----------------------------------------------------------
AGENT = {'linux_path': '/usr/bin/netbird', 'mac_path': '/Applications/NetBird.app/Contents/MacOS/netbird'}


def test_posture_check_process_check_of_todays_servers(emulator, run):
    """v0.77: created, a re-run with the processes in another order sends no write, check mode none either, the diff
    shows the change, and another member's update keeps it; v0.27: refused after one GET /instance/version."""
    task = {'name': 'pc', 'nms.overlay.posture_check': {'name': 'agent-running', 'checks': {
        'process_check': {'processes': [AGENT, {'windows_path': 'C:\\ProgramData\\NetBird\\netbird.exe'}]}}}}
    emulator.clear_log()
    if emulator.dialect != 'current':
        refused = run([dict(task, ignore_errors=True)])
        assert refused['pc']['failed'] is True
        assert refused['pc']['msg'] == ('option checks.process_check: this server (v0.27: it has no GET '
                                        '/api/instance/version) does not have it (servers have it from v0.28.0 on)')
        assert paths(emulator) == ['GET /api/instance/version']
        return
    first = run([task])
    assert first.rc == 0, first
    assert first['pc']['changed'] is True and writes(emulator) == ['POST /api/posture-checks']
    processes = first['pc']['posture_check']['checks']['process_check']['processes']
    assert sorted(p['linux_path'] for p in processes) == ['', '/usr/bin/netbird']  # the server answers "" for no path

    emulator.clear_log()
    again = run([{'name': 'pc', 'nms.overlay.posture_check': {'name': 'agent-running', 'checks': {
        'process_check': {'processes': [{'windows_path': 'C:\\ProgramData\\NetBird\\netbird.exe'}, AGENT]}}}}])
    assert again['pc']['changed'] is False and emulator.writes() == []

    emulator.clear_log()
    check = run([{'name': 'pc', 'nms.overlay.posture_check': {'name': 'agent-running', 'checks': {
        'process_check': {'processes': [{'linux_path': '/usr/sbin/sshd'}]}}}}], check=True, diff=True)
    assert check['pc']['changed'] is True and emulator.writes() == []
    assert check['pc']['diff']['after']['checks']['process_check'] == {'processes': [{'linux_path': '/usr/sbin/sshd'}]}

    emulator.clear_log()
    other = run([{'name': 'pc', 'nms.overlay.posture_check': {'name': 'agent-running', 'checks': {
        'nb_version_check': {'min_version': '0.30.0'}}}}])
    assert other['pc']['changed'] is True
    (put,) = emulator.writes()
    assert len(put['body']['checks']['process_check']['processes']) == 2
    assert len(checks_named(emulator, 'agent-running')[0]['checks']['process_check']['processes']) == 2


# -- a rule's source and destination resources (v0.77) -----------------------------------------------------
def test_policy_rule_resources_of_todays_servers(emulator, run):
    """v0.77: a destination resource in place of the destinations, by name; a re-run and check mode send no write; an
    update that leaves it unset keeps it (without the empty destinations v0.77 refuses beside it); destinations given
    replace it. v0.27: refused after one GET /instance/version, naming rules[0].destination_resource."""
    groups = make_groups(emulator, 'developers')
    rule = {'name': 'lan', 'protocol': 'all', 'sources': ['developers'], 'destination_resource': 'office-lan'}
    task = {'name': 'p', 'nms.overlay.policy': {'name': 'to-lan', 'rules': [rule]}}
    emulator.clear_log()
    if emulator.dialect != 'current':
        refused = run([dict(task, ignore_errors=True)])
        assert refused['p']['failed'] is True
        assert refused['p']['msg'] == ('option rules[0].destination_resource: this server (v0.27: it has no GET '
                                       '/api/instance/version) does not have it (servers have it from v0.35.0 on)')
        assert paths(emulator) == ['GET /api/instance/version']
        return
    peer = support.make_peers(emulator, 'laptop')['laptop']
    office = emulator.ok('POST', '/api/networks', {'name': 'office', 'description': ''})
    lan = emulator.ok('POST', '/api/networks/%s/resources' % office['id'],
                      {'name': 'office-lan', 'address': '192.168.10.0/24', 'enabled': True, 'groups': []})
    emulator.clear_log()
    first = run([task])
    assert first.rc == 0, first
    (post,) = emulator.writes()
    sent = post['body']['rules'][0]
    assert sent['destinationResource'] == {'id': lan['id'], 'type': 'subnet'} and 'destinations' not in sent
    assert first['p']['policy']['rules'][0]['destinationResource'] == {'id': lan['id'], 'type': 'subnet'}

    emulator.clear_log()
    again = run([task])
    assert again['p']['changed'] is False and emulator.writes() == []

    emulator.clear_log()
    check = run([{'name': 'p', 'nms.overlay.policy': {'name': 'to-lan', 'rules': [dict(rule, destination_resource='laptop')]}}],
                check=True)
    assert check['p']['changed'] is True and emulator.writes() == []
    assert check['p']['policy']['rules'][0]['destinationResource'] == {'id': peer, 'type': 'peer'}

    emulator.clear_log()
    described = run([{'name': 'p', 'nms.overlay.policy': {'name': 'to-lan', 'description': 'office LAN'}}])
    assert described['p']['changed'] is True, described['p'].get('msg')
    (put,) = emulator.writes()
    assert put['body']['rules'][0]['destinationResource'] == {'id': lan['id'], 'type': 'subnet'}
    assert 'destinations' not in put['body']['rules'][0]

    emulator.clear_log()
    grouped = run([{'name': 'p', 'nms.overlay.policy': {'name': 'to-lan', 'rules': [{'name': 'lan', 'destinations': ['developers']}]}}])
    assert grouped['p']['changed'] is True, grouped['p'].get('msg')
    stored = policies_named(emulator, 'to-lan')[0]['rules'][0]
    assert 'destinationResource' not in stored and ids_of(stored['destinations']) == [groups['developers']]
