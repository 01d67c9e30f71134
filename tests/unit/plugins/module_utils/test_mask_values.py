"""mask_values masks a result as ansible-core's remove_values() does (which 2.22 deprecates), without calling it."""

from __future__ import annotations

import warnings

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._secrets import mask_values

SECRETS = {'s3cr3t', 'nbp_abc', '4711'}

CASES = [
    's3cr3t',
    'the key is s3cr3t, the token nbp_abcdef',
    {'key': 's3cr3t', 'nested': [{'msg': 'x nbp_abc y'}, ('s3cr3t', 'fine')], 'n': 4711, 'big': 947110, 'f': 1.5},
    {'s3cr3t': 'as a key', 'ok': True, 'off': False, 'none': None, 'empty': '', 'list': []},
    [1, 2, 'nothing here'],
    b'bytes with s3cr3t',
]


@pytest.mark.parametrize('value', CASES, ids=range(len(CASES)))
def test_as_ansible_cores_remove_values(value):
    try:
        from ansible.module_utils.common.parameters import remove_values
    except ImportError:  # a later ansible-core that removed it: what it did is written in the test below
        pytest.skip('ansible-core has no remove_values()')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        expected = remove_values(value, SECRETS)
    assert mask_values(value, SECRETS) == expected


def test_what_it_masks():
    masked = mask_values(CASES[2], SECRETS)
    assert masked == {'key': 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER', 'nested': [{'msg': 'x ******** y'},
                      ['VALUE_SPECIFIED_IN_NO_LOG_PARAMETER', 'fine']], 'n': 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER',
                      'big': 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER', 'f': 1.5}
    assert mask_values({'s3cr3t-x': 1}, SECRETS) == {'s3cr3t-x': 1}  # keys as remove_values() leaves them
    assert mask_values('nothing', set()) == 'nothing'
    original = {'a': ['s3cr3t']}
    mask_values(original, SECRETS)
    assert original == {'a': ['s3cr3t']}  # a copy: the result it was given is left as it was
