# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 44, item 11: every relative path a shipped playbook takes (a secrets file, an output file, a description file)
is taken in the directory ansible-playbook runs in, one rule for all (nms.overlay.controller_path, the action plugins'):
not in the playbook's directory (where ``lookup('file')`` looks and ansible-core starts a local module process), not in
``$PWD`` (here a decoy directory, as a process started by another program may carry its parent's). Each run's working
directory is its own (the ``run`` fixture's), so a file of an earlier run is named relative to the new one
(``../run1/network.yml``). bootstrap_server's token file is tested in test_instance.py (a fresh server).
"""

from __future__ import annotations

import json
import os

import pytest
import yaml

from tests.integration.test_network import DESCRIPTION, state_task

pytestmark = pytest.mark.dialects('current')


def workdir_of(result):
    """The directory the run's ansible-playbook ran in (its extra variables are written there)."""
    return os.path.dirname(result.command[result.command.index('-e') + 1][1:])


@pytest.fixture
def decoy(tmp_path):
    """The $PWD of every run: a directory nothing may be written to or read from."""
    path = tmp_path / 'decoy-pwd'
    path.mkdir()
    yield {'PWD': str(path)}
    assert sorted(os.listdir(path)) == [], 'written where $PWD said, not where ansible-playbook ran'


def test_the_reports_and_the_export_land_in_the_directory_ansible_playbook_runs_in(emulator, run, decoy):
    assert run([state_task(dict(DESCRIPTION, default_policy='keep'))]).rc == 0

    export = run([], playbook='nms.overlay.export_network', env=decoy, extra_vars={'nms_export_file': 'network.yml'})
    assert export.rc == 0, export
    here = workdir_of(export)
    description = yaml.safe_load(open(os.path.join(here, 'network.yml'), encoding='utf-8'))
    assert 'network_description' in description

    # the description file of an earlier run, named relative to this run's directory; the reports' defaults relative too
    drift = run([], playbook='nms.overlay.drift_report', env=decoy, verbosity=0, extra_vars={
        'nms_drift_description_file': '../%s/network.yml' % os.path.basename(here),
        'nms_drift_report_json': 'drift.json'})
    assert drift.rc == 0, drift
    there = workdir_of(drift)
    assert json.load(open(os.path.join(there, 'drift.json'), encoding='utf-8'))['drift'] is False
    assert os.path.isfile(os.path.join(there, 'nms-drift-report.md'))
    assert drift['Say that there is no drift']['msg'].endswith('Written to %s/nms-drift-report.md and %s/drift.json.'
                                                               % (there, there)), drift['Say that there is no drift']

    access = run([], playbook='nms.overlay.access_report', env=decoy, extra_vars={'nms_access_report_json': 'access.json'})
    assert access.rc == 0, access
    assert sorted(name for name in os.listdir(workdir_of(access)) if name.startswith(('nms-', 'access'))) == [
        'access.json', 'nms-access-report.html', 'nms-access-report.md']

    audit = run([], playbook='nms.overlay.audit_report', env=decoy, extra_vars={'nms_audit_since': '-1d'})
    assert audit.rc == 0, audit
    assert 'events' in json.load(open(os.path.join(workdir_of(audit), 'nms-audit-report.json'), encoding='utf-8'))


@pytest.mark.parametrize('in_process', [True, False], ids=['in-process', 'module-process'])
def test_build_networks_secrets_file_lands_in_the_directory_ansible_playbook_runs_in(emulator, run, decoy, in_process):
    """network_secrets_file goes to the module as created_secrets_file: the action plugin takes it in the same directory
    whether the module runs in the controller or as a module process (which ansible-core starts in the playbook's)."""
    built = run([], playbook='nms.overlay.build_network', env=decoy, extra_vars={
        'network_secrets_file': 'created-secrets.json', 'nms_overlay_in_process': in_process})
    assert built.rc == 0, built
    kept = json.load(open(os.path.join(workdir_of(built), 'created-secrets.json'), encoding='utf-8'))
    assert kept['setup_keys'], kept
