"""The decision of .ci/next_rc.py (make next-rc): is there an ansible-core newer than the one the next stage tests?"""

import importlib.util
import os

import pytest

SCRIPT = os.path.join(os.path.dirname(__file__), '..', '..', '.ci', 'next_rc.py')
spec = importlib.util.spec_from_file_location('next_rc', SCRIPT)
next_rc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(next_rc)

TODAY = ['2.22.0rc1', '2.22.0b2', '2.22.0b1', '2.21.5', '2.21.5rc1', '2.21.4', '2.20.10']


def test_nothing_newer_than_the_pinned_candidate():
    assert next_rc.newer_than('2.22.0rc1', TODAY) is None


def test_a_second_candidate_or_the_release_is_newer():
    assert next_rc.newer_than('2.22.0rc1', ['2.22.0rc2'] + TODAY) == '2.22.0rc2'
    assert next_rc.newer_than('2.22.0rc1', ['2.22.0', '2.22.0rc2'] + TODAY) == '2.22.0'


def test_a_release_is_newer_than_its_candidates_and_a_patch_release_than_the_release():
    assert next_rc.newer_than('2.22.0rc3', ['2.22.0'] + TODAY) == '2.22.0'
    assert next_rc.newer_than('2.22.0', ['2.22.1rc1', '2.22.0']) == '2.22.1rc1'


def test_alphas_betas_and_junk_are_not_candidates():
    assert next_rc.newer_than('2.22.0rc1', ['2.23.0b1', '2.23.0a1', '0.0.1a1', 'garbage', '2.23'] + TODAY) is None
    assert next_rc.newer_than('2.21.5', TODAY) == '2.22.0rc1'


def test_the_order_is_numeric_not_textual():
    assert next_rc.newer_than('2.9.0', ['2.10.0']) == '2.10.0'
    assert next_rc.newer_than('2.22.0rc9', ['2.22.0rc10']) == '2.22.0rc10'


def test_pip_output_is_read_and_a_bad_pin_or_output_fails_clearly():
    output = 'ansible-core (2.22.0rc1)\nAvailable versions: 2.22.0rc1, 2.21.5\n  INSTALLED: 2.21.5\n'
    assert next_rc.parse_index(output) == ['2.22.0rc1', '2.21.5']
    with pytest.raises(ValueError, match='Available versions'):
        next_rc.parse_index('ERROR: No matching distribution found for ansible-core')
    with pytest.raises(ValueError, match='not an ansible-core version'):
        next_rc.newer_than('latest', TODAY)
