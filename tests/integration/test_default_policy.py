# -*- coding: utf-8 -*-
"""The account-wide allow-all policy (default_policy), the check-mode wording and the progress of network_state
(issue 21, points 1 and 4), through ansible-playbook against the emulator in both dialects."""

from __future__ import annotations

import copy
import json

import pytest

from tests.support.emulator import writes_of as writes
from tests.support.modules import example_network

WARNING = 'grants every peer access to every other peer'
GROUPS = [{'name': 'developers'}, {'name': 'servers'}]
SSH = {'name': 'developers to servers (ssh)', 'enabled': True,
       'rules': [{'name': 'ssh', 'action': 'accept', 'bidirectional': False, 'protocol': 'tcp', 'ports': ['22'],
                  'sources': ['developers'], 'destinations': ['servers']}]}
DESCRIPTION = {'groups': GROUPS, 'policies': [SSH]}


def state_task(description, name='network', **extra):
    return {'name': name, 'nms.overlay.network_state': dict(copy.deepcopy(description), **extra)}


def role(description, **extra):
    return {'roles': [{'role': 'nms.overlay.network', 'vars': dict(network_description=copy.deepcopy(description), **extra)}]}


def policies(emulator):
    status, items = emulator.api('GET', '/api/policies')
    assert status == 200, items
    return {policy['name']: policy for policy in items}


def comparable(policy):
    """A policy as stored, apart from enabled: null lists as [], group summaries as ids, rules by name."""
    def refs(values):
        return sorted(v['id'] if isinstance(v, dict) else v for v in values or [])
    rules = [dict(rule, sources=refs(rule.get('sources')), destinations=refs(rule.get('destinations')),
                  ports=rule.get('ports') or []) for rule in policy['rules']]
    return dict(policy, enabled=None, rules=sorted(rules, key=lambda r: r['name']),
                source_posture_checks=policy.get('source_posture_checks') or [])


def test_disable_is_one_write_keeps_every_other_field_and_a_rerun_writes_nothing(emulator, run):
    default = policies(emulator)['Default']
    assert default['enabled'] is True
    built = run([state_task(DESCRIPTION, default_policy='disable')], ansible=True)  # the output is checked
    result = built['network']
    assert built.rc == 0 and result['changed'] is True, built
    policy_writes = [w for w in writes(emulator) if 'policies' in w]
    assert policy_writes == ['POST /api/policies', 'PUT /api/policies/%s' % default['id']]
    after = policies(emulator)['Default']
    assert after['enabled'] is False
    assert comparable(after) == comparable(default)
    assert [c for c in result['changes'] if c.get('default_policy')] == [
        dict(kind='policies', name='Default', action='updated', pruned=False, default_policy=True, id=default['id'])]
    assert WARNING not in built.text
    emulator.clear_log()
    again = run([state_task(DESCRIPTION, default_policy='disable')])
    assert again['network']['changed'] is False, again['network']['changes']
    assert writes(emulator) == []
    assert policies(emulator)['Default']['enabled'] is False


def test_remove_deletes_it_and_keep_leaves_it(emulator, run):
    default = policies(emulator)['Default']
    kept = run([state_task(DESCRIPTION, default_policy='keep')])
    assert kept.rc == 0, kept
    assert [w for w in writes(emulator) if 'policies' in w] == ['POST /api/policies']
    assert policies(emulator)['Default']['enabled'] is True
    emulator.clear_log()
    removed = run([state_task(DESCRIPTION, default_policy='remove')])
    assert removed.rc == 0, removed
    assert writes(emulator) == ['DELETE /api/policies/%s' % default['id']]
    assert sorted(policies(emulator)) == ['developers to servers (ssh)']
    assert [(c['name'], c['action'], c.get('default_policy')) for c in removed['network']['changes']] == [
        ('Default', 'deleted', True)]
    emulator.clear_log()
    assert run([state_task(DESCRIPTION, default_policy='remove')])['network']['changed'] is False
    assert writes(emulator) == []


def test_the_role_warns_while_the_allow_all_stays_enabled_and_not_once_it_is_disabled(emulator, run):
    warned = run([], play=role(DESCRIPTION))
    assert warned.rc == 0, warned
    assert ("policies: the policy 'Default' (All to All, accept) grants every peer access to every other peer; the "
            "policies described here restrict nothing until it is disabled (default_policy: disable)") in warned.text
    quiet = run([], play=role(dict(DESCRIPTION, default_policy='disable')))
    assert quiet.rc == 0, quiet
    assert WARNING not in quiet.text
    assert policies(emulator)['Default']['enabled'] is False


def test_check_mode_speaks_in_the_conditional_and_sends_no_write(emulator, run):
    run([state_task(DESCRIPTION)])
    emulator.clear_log()
    preview = run([], play=role(dict(DESCRIPTION, groups=GROUPS[:1] + [{'name': 'office'}], policies=[]),
                                network_prune=True), check=True)
    assert preview.rc == 0, preview
    assert writes(emulator) == []
    shown = preview['nms.overlay.network : Show what changed (in check mode, what would change)']['msg']
    assert shown == ('check mode, nothing was changed: groups: would create 1 (office), would delete 1 (servers), '
                     '1 unchanged; policies: would delete 2 (Default, developers to servers (ssh))'), shown
    assert 'deleted' not in shown
    summary = preview['nms.overlay.network : Reconcile the network with its description']['summary']
    assert summary['policies'] == dict(would_create=0, would_update=0, would_delete=2, unchanged=0)


def test_the_example_playbook_disables_the_allow_all_policy(emulator, run):
    built = run([], playbook='nms.overlay.build_network')
    assert built.rc == 0, built
    assert policies(emulator)['Default']['enabled'] is False
    assert WARNING not in built.text
    # a teardown of the example says nothing of default_policy: the allow-all stays as the build left it
    example = example_network(emulator.dialect)  # as built on this server (an office Network on a v0.77 one)
    assert example['default_policy'] == 'disable'
    teardown = {kind: [dict(item, state='absent') for item in items] for kind, items in example.items() if isinstance(items, list)}
    down = run([], playbook='nms.overlay.build_network', extra_vars={'nms_network_override': teardown})
    assert down.rc == 0, down
    assert [(name, policy['enabled']) for name, policy in policies(emulator).items()] == [('Default', False)]


def progress_lines(stdout):
    return [line.strip() for line in stdout.splitlines() if line.strip().startswith('network_state: ')]


# Where the module runs decides what the output shows while it runs: in the controller's worker (the default for a
# local task) each progress line as it happens; a module process (as on a remote host) nothing until its result.
WAYS = pytest.mark.parametrize('in_process', [True, False], ids=['in-controller', 'as-process'])


def as_process_on_netbird_only(emulator, in_process):
    if not in_process and emulator.dialect != 'netbird':
        pytest.skip('what a module process shows does not depend on the server: once, against the netbird dialect')


@WAYS
def test_progress_at_v_kind_by_kind_in_order(emulator, run, in_process):
    as_process_on_netbird_only(emulator, in_process)
    run([state_task({'groups': GROUPS[:1]})])
    done = run([state_task(DESCRIPTION, default_policy='disable')], verbosity=1, ansible=True,
               extra_vars={'nms_overlay_in_process': in_process})  # ansible=True: the output is checked
    assert done.rc == 0, done
    expected = ['network_state: description checked: 4 resources in 2 kinds, every reference found',
                'network_state: groups: created 1 (servers), 1 unchanged',
                'network_state: policies: created 1 (developers to servers (ssh)), updated 1 (Default)']
    assert done['network']['progress'] == expected
    if in_process:
        # in the controller's worker: each line shown as it happens, before the task's result
        assert progress_lines(done.stdout.split('changed: [localhost]')[0]) == expected, done.stdout
    else:
        # a module process shows nothing while it runs: the same steps come back in its result
        assert progress_lines(done.stdout) == []


@WAYS
def test_a_retry_wait_says_why_while_it_waits(emulator, run, in_process):
    as_process_on_netbird_only(emulator, in_process)
    emulator.set_faults({'queue': [{'status': 429, 'retry_after': 1}]})
    done = run([state_task({'groups': GROUPS})], verbosity=1, ansible=True,
               extra_vars={'nms_overlay_in_process': in_process})  # ansible=True: the output is checked
    assert done.rc == 0, done
    steps = done['network']['progress']
    assert len(steps) == 3 and steps[2].startswith('network_state: groups: created 2'), steps
    step = steps[1]  # the first request is the groups' list, once the description is checked
    assert 'HTTP 429' in step and 'waiting 1 s as the server asked (Retry-After)' in step, step
    before_result = done.stdout.split('changed: [localhost]')[0]
    lines = [line.strip() for line in before_result.splitlines()]
    if in_process:
        # in the controller's worker the wait is shown while it happens, as a line of its own
        assert any('waiting 1 s as the server asked' in line and not line.startswith('[WARNING]') for line in lines), \
            done.stdout
        assert step in lines, done.stdout
    else:
        # a module process shows nothing while it runs (its warning, shown once it ended, is no such line)
        assert step not in lines, done.stdout


# -- the built-in All group is the one the server made, not any group of that name (issue "Safe by default", 6) -----

def groups_named(emulator, name):
    status, items = emulator.api('GET', '/api/groups')
    assert status == 200, items
    return [group for group in items if group['name'] == name]


def group_renamed_all(emulator, peers=()):
    """A group made as 'team' and renamed All (servers refuse a new group of that name, not a rename)."""
    team = emulator.ok('POST', '/api/groups', {'name': 'team', 'peers': list(peers)})
    renamed = emulator.ok('PUT', '/api/groups/%s' % team['id'], {'name': 'All', 'peers': list(peers)})
    assert renamed['name'] == 'All' and len(groups_named(emulator, 'All')) == 2
    return renamed


def among_peers_of(emulator, group_id, name='team only'):
    """A restrictive policy: the peers of this group reach one another, nobody else is concerned."""
    return emulator.ok('POST', '/api/policies', {
        'name': name, 'description': '', 'enabled': True, 'rules': [
            {'name': name, 'description': '', 'enabled': True, 'action': 'accept', 'bidirectional': True,
             'protocol': 'all', 'sources': [group_id], 'destinations': [group_id]}]})


@pytest.mark.parametrize('mode', ['remove', 'disable'])
def test_a_group_renamed_all_is_not_the_built_in_all_group(emulator, run, mode):
    ids = emulator.add_peers(count=3)['ids']  # every peer joins the built-in All group
    fake = group_renamed_all(emulator, ids[:1])
    among_peers_of(emulator, fake['id'])
    default = policies(emulator)['Default']
    emulator.clear_log()
    done = run([state_task(DESCRIPTION, default_policy=mode)])
    assert done.rc == 0, done
    policy_writes = [w for w in writes(emulator) if 'policies/' in w]
    assert policy_writes == ['%s /api/policies/%s' % ('DELETE' if mode == 'remove' else 'PUT', default['id'])]
    left = policies(emulator)
    assert left['team only']['enabled'] is True  # the restrictive policy is neither deleted nor disabled
    assert [c['name'] for c in done['network']['changes'] if c.get('default_policy')] == ['Default']
    emulator.clear_log()
    assert run([state_task(DESCRIPTION, default_policy=mode)])['network']['changed'] is False
    assert writes(emulator) == []


def test_groups_named_all_that_cannot_be_told_apart_make_disable_and_remove_fail_before_any_write(emulator, run):
    fake = group_renamed_all(emulator)  # no peers: the built-in All group holds as many (none) as this one
    among_peers_of(emulator, fake['id'])
    emulator.clear_log()
    for mode in ('remove', 'disable'):
        failed = run([dict(state_task(DESCRIPTION, default_policy=mode), ignore_errors=True)], check=mode == 'disable')
        result = failed['network']
        assert result['failed'] is True
        assert result['msg'].startswith('option default_policy: %s: the groups ' % mode), result['msg']
        assert "cannot be told from the others" in result['msg'] and "'Default', 'team only'" in result['msg'], result['msg']
        assert writes(emulator) == []
    assert sorted(policies(emulator)) == ['Default', 'team only']
    kept = run([state_task(DESCRIPTION, default_policy='keep')])  # keep decides nothing: no need to tell them apart
    assert kept.rc == 0, kept
    assert policies(emulator)['team only']['enabled'] is True


# -- v0.27 answers a second allow-all rule without its sources (issue "Safe by default", 7) ---------------------------

@pytest.mark.parametrize('mode', ['disable', 'remove'])
def test_an_allow_all_policy_of_two_rules_is_found_and_no_warning_asks_for_the_option_given(emulator, run, mode):
    default = policies(emulator)['Default']
    all_id = default['rules'][0]['sources'][0]['id']
    rule = {'description': '', 'enabled': True, 'action': 'accept', 'bidirectional': True, 'protocol': 'all',
            'sources': [all_id], 'destinations': [all_id]}
    emulator.ok('PUT', '/api/policies/%s' % default['id'], {
        'name': 'Default', 'description': default['description'], 'enabled': True,
        'rules': [dict(rule, name='Default'), dict(rule, name='Default again')]})
    answered = policies(emulator)['Default']['rules']
    if emulator.dialect == 'netbird':  # v0.27 leaves out of the second rule's sources the All group the first lists
        assert [r['sources'] for r in answered][1] is None, answered
    emulator.clear_log()
    done = run([state_task(DESCRIPTION, default_policy=mode)], ansible=True)  # the warnings' text is checked
    assert done.rc == 0, done['network']
    assert [w for w in writes(emulator) if 'policies/' in w] == ['%s /api/policies/%s' % (
        'PUT' if mode == 'disable' else 'DELETE', default['id'])]
    assert WARNING not in done.text
    if mode == 'remove':
        assert 'Default' not in policies(emulator)
        return
    assert policies(emulator)['Default']['enabled'] is False
    stored = next(p for p in emulator.state()['policies'] if p['id'] == default['id'])['rules']  # held, not answered
    assert [(r['name'], r['sources'], r['destinations']) for r in stored] == [
        (name, [all_id], [all_id]) for name in ('Default', 'Default again')][:len(stored)]
    emulator.clear_log()
    assert run([state_task(DESCRIPTION, default_policy=mode)])['network']['changed'] is False
    assert writes(emulator) == []


def test_a_policy_with_more_than_an_allow_all_rule_stays_and_the_warning_does_not_ask_for_the_option_given(emulator, run):
    if emulator.dialect == 'current':
        pytest.skip('v0.77 keeps only the first rule of a policy: no policy holds an allow-all rule and another')
    made = run([state_task({'groups': GROUPS})])
    assert made.rc == 0, made
    groups = {g['name']: g['id'] for g in emulator.api('GET', '/api/groups')[1]}
    default = policies(emulator)['Default']
    all_id = default['rules'][0]['sources'][0]['id']
    emulator.ok('PUT', '/api/policies/%s' % default['id'], {
        'name': 'Default', 'description': '', 'enabled': True, 'rules': [
            {'name': 'Default', 'description': '', 'enabled': True, 'action': 'accept', 'bidirectional': True,
             'protocol': 'all', 'sources': [all_id], 'destinations': [all_id]},
            {'name': 'no telnet', 'description': '', 'enabled': True, 'action': 'drop', 'bidirectional': False,
             'protocol': 'tcp', 'ports': ['23'], 'sources': [groups['developers']], 'destinations': [groups['servers']]}]})
    emulator.clear_log()
    done = run([state_task(DESCRIPTION, default_policy='disable')], ansible=True)  # the warnings' text is checked
    assert done.rc == 0, done
    assert [w for w in writes(emulator) if 'policies/' in w] == []  # its drop rule would be lost with it
    assert policies(emulator)['Default']['enabled'] is True
    text = ' '.join(done.text.split())
    assert "the policy 'Default' (All to All, accept) grants every peer access to every other peer" in text, text
    assert 'default_policy: disable leaves it, since it also has rules or posture checks' in text, text
    assert 'until it is disabled (default_policy: disable)' not in text, text


# -- a hostile answer: allow-all policies without ids (issue 44, 16) ---------------------------------------------------

@pytest.mark.parametrize('mode', ['disable', 'remove'])
def test_allow_all_policies_answered_without_ids_fail_saying_what_the_server_answered_before_any_write(emulator, run, mode):
    default = policies(emulator)['Default']
    unnamed = dict(copy.deepcopy(default), name='')  # a second allow-all policy, without a name either
    answer = [dict(policy, rules=[{k: v for k, v in rule.items() if k != 'id'} for rule in policy['rules']])
              for policy in (default, unnamed)]
    for policy in answer:
        del policy['id']
    emulator.clear_log()
    emulator.set_faults({'queue': [{'path': '/api/policies', 'status': 200, 'body': json.dumps(answer),
                                    'content_type': 'application/json'}]})
    failed = run([dict(state_task(DESCRIPTION, default_policy=mode), ignore_errors=True)])
    result = failed['network']
    assert result['failed'] is True, result
    assert result['msg'] == (
        "option default_policy: %s: the server answered GET %s/api/policies with 2 allow-all policies ('Default', one "
        "without a name) without an id, where every policy has one: a policy without its id cannot be %s. Nothing was "
        "changed; check the server (or a proxy in front of it), or use default_policy: keep"
        % (mode, emulator.url, 'disabled' if mode == 'disable' else 'deleted')), result['msg']
    assert 'None' not in result['msg']
    log = emulator.requests()
    assert [(e['method'], e['path']) for e in log] == [('GET', '/api/groups'), ('GET', '/api/policies')], log
    assert log[1]['fault'] == '200'  # the hostile answer was the one read
    assert writes(emulator) == [] and policies(emulator)['Default'] == default
