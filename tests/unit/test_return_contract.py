# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The checker that holds every integration result to its module's RETURN (tests/integration/return_contract.py)."""

from __future__ import annotations

from tests.integration import return_contract


def group_result(**extra):
    record = {
        'action': 'nms.overlay.group', 'task': 't', 'changed': False, 'invocation': {}, 'diff': None,
        'group': {'id': 'g1', 'name': 'web', 'peers_count': 1, 'peers': [{'id': 'p1', 'name': 'web-1'}]},
    }
    record.update(extra)
    return record


def test_a_result_that_keeps_return_has_no_violation():
    assert return_contract.violations(group_result()) == []


def test_an_undocumented_top_level_key_is_reported():
    problems = return_contract.violations(group_result(surprise=1))
    assert problems == ["group (task 't'): surprise is returned but not documented"]


def test_an_undocumented_key_inside_a_documented_dict_is_reported():
    record = group_result()
    record['group']['secret_flag'] = True
    assert return_contract.violations(record) == [
        "group (task 't'): group.secret_flag is returned but not documented"]


def test_an_undocumented_key_inside_a_documented_list_element_is_reported():
    record = {'action': 'nms.overlay.group_info', 'task': 'i', 'changed': False,
              'groups': [{'id': 'g1', 'name': 'web'}, {'id': 'g2', 'name': 'db', 'secret_flag': True}]}
    assert return_contract.violations(record) == [
        "group_info (task 'i'): groups[1].secret_flag is returned but not documented"]


def test_a_key_documented_as_always_returned_must_be_there():
    record = group_result()
    del record['group']
    assert return_contract.violations(record) == [
        "group (task 't'): group is documented as returned always but missing"]


def test_loop_results_are_checked_item_by_item():
    item = group_result(surprise=2)
    del item['action']
    record = {'action': 'nms.overlay.group', 'task': 'loop', 'changed': False, 'results': [group_result(), item]}
    assert return_contract.violations(record) == [
        "group (task 'loop'): surprise is returned but not documented"]


def test_failed_skipped_censored_and_foreign_results_are_not_checked():
    assert return_contract.violations(group_result(surprise=1, failed=True)) == []
    assert return_contract.violations(group_result(surprise=1, skipped=True)) == []
    assert return_contract.violations({'action': 'nms.overlay.group', 'censored': 'hidden'}) == []
    assert return_contract.violations({'action': 'ansible.builtin.debug', 'msg': 'x', 'surprise': 1}) == []
    accepted_failure = {'action': 'nms.overlay.group', 'msg': 'no group', 'failed_when_result': False}
    assert return_contract.violations(accepted_failure) == []


def test_keys_that_ansible_adds_are_not_the_modules():
    assert return_contract.violations(group_result(failed_when_result=False, attempts=1)) == []


def test_async_keys_are_ansibles_only_in_an_async_result():
    async_keys = dict(ansible_job_id='j1', started=1, finished=1, results_file='/tmp/j1', stdout='', stdout_lines=[])
    assert return_contract.violations(group_result(**async_keys)) == []
    assert return_contract.violations(group_result(stdout='')) == ["group (task 't'): stdout is returned but not documented"]
