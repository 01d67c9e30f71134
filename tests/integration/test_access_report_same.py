# -*- coding: utf-8 -*-
"""Issue 43, item 5: the access report, the export and the drift report of a mid-size network stay what they were
before the work on their speed (tests/bench/access_report.py seeds the network from a fixed seed with a bare requests
loop).

The expected digests (tests/integration/golden/access_report_same.json) were made by main's code before that work:
``NMS_WRITE_GOLDEN=1 pytest tests/integration/test_access_report_same.py`` writes them again. Ids and addresses the
emulator draws are replaced by the names of their objects before hashing, so that the digests do not depend on the
order the tests run in."""

from __future__ import annotations

import hashlib
import json
import os

import pytest

from ansible_collections.nms.overlay.plugins.filter.access_matrix import access_matrix
from ansible_collections.nms.overlay.plugins.filter.description_yaml import description_yaml
from ansible_collections.nms.overlay.plugins.filter.drift_report import drift_report
from tests.bench.access_report import drift, seed
from tests.support.inprocess import run_module

pytestmark = pytest.mark.dialects('netbird')

SIZES = dict(groups=40, policies=80, peers=30, routes=6, posture_checks=3)
GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'golden', 'access_report_same.json')
LISTS = (('policy_info', 'policies'), ('group_info', 'groups'), ('peer_info', 'peers'), ('route_info', 'routes'),
         ('posture_check_info', 'posture_checks'))


def _named(value, names):
    """``value`` with every text that is an id or address of a listed object replaced by a name for it."""
    if isinstance(value, dict):
        return {_named(key, names): _named(item, names) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_named(item, names) for item in value]
    if isinstance(value, str):
        for known, name in names.items():
            if known in value:
                value = value.replace(known, name)
    return value


def _digest(value, names):
    return hashlib.sha256(json.dumps(_named(value, names), sort_keys=True).encode('utf-8')).hexdigest()


def test_the_access_report_export_and_drift_report_are_unchanged(emulator):
    seed(emulator, SIZES)
    env = {'NMS_API_URL': emulator.url, 'NMS_API_TOKEN': emulator.token}
    lists = {}
    for module, key in LISTS:
        result = run_module(module, {}, environment=env)
        assert not result.get('failed'), result
        lists[key] = result[key]
    names = {}
    for key, items in lists.items():
        for item in items:
            names[item['id']] = '<%s %s>' % (key, item.get('name') or item.get('network_id'))
            if item.get('ip'):
                names[item['ip']] = '<ip of %s>' % item['name']
    found = {}
    access = access_matrix(lists['policies'], lists['groups'], peers=lists['peers'], routes=lists['routes'], networks=[],
                           posture_checks=lists['posture_checks'], peer_limit=SIZES['peers'])
    found['access_report'] = _digest(access, names)
    found['access_report_default_limits'] = _digest(access_matrix(lists['policies'], lists['groups'], peers=lists['peers'],
                                                                  routes=lists['routes'], posture_checks=lists['posture_checks'],
                                                                  matrix_limit=50, peer_limit=10), names)
    exported = run_module('network_state', {'state': 'gathered'}, environment=env)
    assert not exported.get('failed'), exported
    found['export'] = _digest(description_yaml({'network_description': exported['gathered']}), names)
    drift(emulator, count=4)
    description = exported['gathered']
    checked = run_module('network_state', dict({key: description[key] for key in description if description[key] not in (None, [], {})},
                                               prune=False, reach=True, return_created_secrets=False),
                         check_mode=True, diff=True, environment=env)
    assert not checked.get('failed'), checked
    assert checked['changed'] and checked['reach_changes'], checked
    found['drift_report'] = _digest(drift_report(checked, server='https://netbird.example.com', prune=False, generated_at=''), names)
    if os.environ.get('NMS_WRITE_GOLDEN'):
        os.makedirs(os.path.dirname(GOLDEN), exist_ok=True)
        with open(GOLDEN, 'w', encoding='utf-8') as handle:
            json.dump(found, handle, indent=1, sort_keys=True)
            handle.write('\n')
    with open(GOLDEN, encoding='utf-8') as handle:
        assert found == json.load(handle)
