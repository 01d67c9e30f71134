# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 46, item 2: a documented command never loses a secret. build_network (also applying an export to another
server) keeps every value it creates in a secrets file by default (mode 0600, in the directory ansible-playbook runs
in), and never shows it (bootstrap_server: test_playbook_bootstrap_secrets.py, on a fresh server). Item 5: an unchanged
drift report's recap says changed=0.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import stat

import pytest

from tests.integration.test_playbook_paths import decoy, workdir_of  # noqa: F401  (decoy: a fixture)  pylint: disable=unused-import

pytestmark = pytest.mark.dialects('current')


def created_keys(emulator, token=None):
    """``{name: value}`` of every setup key the server holds (the emulator keeps the values)."""
    return {key['name']: key['key'] for key in emulator.state()['setup_keys'] if key.get('key')}


def kept_file(result, name, where=None):
    where = where or workdir_of(result)
    path = os.path.join(where, name)
    assert os.path.isfile(path), (path, os.listdir(where))
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    with open(path, encoding='utf-8') as handle:
        return json.load(handle)


def recap_changed(result):
    return int(re.search(r'changed=(\d+)', result.stdout.split('PLAY RECAP')[-1]).group(1))


def test_build_network_and_an_export_applied_to_another_server_keep_their_setup_keys(emulator, run, decoy, tmp_path):  # noqa: F811
    """``ansible-playbook nms.overlay.build_network`` with nothing set, then the export applied to an empty server
    (``-e @network.yml``): each run's new key goes to nms-created-secrets.json where ansible-playbook runs."""
    built = run([], playbook='nms.overlay.build_network', env=decoy)
    assert built.rc == 0, built
    made = created_keys(emulator)
    kept = kept_file(built, 'nms-created-secrets.json', where=str(tmp_path / 'run1'))  # each run's own directory
    assert {name: entry['key'] for name, entry in kept['setup_keys'].items()} == {'servers': made['servers']}
    assert made['servers'] not in built.stdout and 'is lost' not in built.stdout

    export = run([], playbook='nms.overlay.export_network', env=decoy)
    assert export.rc == 0, export
    exported = str(tmp_path / 'run2' / 'network.yml')

    emulator.reset()  # another server: none of the exported keys exists there
    assert 'servers' not in created_keys(emulator)
    emulator.clear_log()
    applied = run([], playbook='nms.overlay.build_network', env=decoy, extra_vars=pathlib.Path(exported))
    assert applied.rc == 0, applied
    made_there = created_keys(emulator)  # (the emulator makes the same values after a reset: the file is the new one)
    assert 'POST /api/setup-keys' in ['%s %s' % (w['method'], w['path']) for w in emulator.writes()]
    kept_there = kept_file(applied, 'nms-created-secrets.json', where=str(tmp_path / 'run3'))  # the third run's
    assert {name: entry['key'] for name, entry in kept_there['setup_keys'].items()} == {'servers': made_there['servers']}
    assert made_there['servers'] not in applied.stdout and 'is lost' not in applied.stdout


def test_an_unchanged_drift_report_says_changed_0(emulator, run, decoy, tmp_path):  # noqa: F811
    """The comparison changes nothing on the server: the recap counts the report files only, when their content
    changes: 2 on the first run, 0 on a re-run with the same result, with drift and without."""
    assert run([], playbook='nms.overlay.build_network', env=decoy).rc == 0
    assert run([], playbook='nms.overlay.export_network', env=decoy).rc == 0
    description = '../run2/network.yml'  # the export's, from each later run's own directory
    variables = {'nms_drift_description_file': description, 'nms_drift_report_markdown': '../drift.md',
                 'nms_drift_report_json': '../drift.json'}
    first = run([], playbook='nms.overlay.drift_report', env=decoy, extra_vars=variables)
    assert first.rc == 0 and recap_changed(first) == 2, first
    again = run([], playbook='nms.overlay.drift_report', env=decoy, extra_vars=variables)
    assert again.rc == 0 and recap_changed(again) == 0, again

    emulator.ok('POST', '/groups', body={'name': 'stray'})
    emulator.clear_log()
    drifted = run([], playbook='nms.overlay.drift_report', env=decoy, extra_vars=dict(variables, network_prune=True))
    assert drifted.rc != 0 and 'drift' in drifted.stdout, drifted
    assert recap_changed(drifted) == 2, drifted  # the two reports now say what drifted
    drifted_again = run([], playbook='nms.overlay.drift_report', env=decoy, extra_vars=dict(variables, network_prune=True))
    assert drifted_again.rc != 0 and recap_changed(drifted_again) == 0, drifted_again
    assert emulator.writes() == []
