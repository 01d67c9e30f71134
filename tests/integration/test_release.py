# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The release procedure's artifact part (.ci/release.sh smoke, what make release runs after the changelog): the
artifact of make build, installed with ansible-galaxy into a new venv with only ansible-core and requirements.txt,
runs build_network twice (changed, then unchanged), a module, the inventory plugin and ansible-doc against the
emulator, from the installed copy alone. Here so that the procedure cannot rot between releases."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.tooling
@pytest.mark.slow
def test_the_built_artifact_installs_in_a_new_venv_and_runs_a_smoke_play(tmp_path):
    out = tmp_path / 'release'
    env = dict(os.environ, RELEASE_OUT=str(out), VENV_BIN=os.path.join(REPO, '.venv', 'bin'))
    for name in [name for name in env if name.startswith('ANSIBLE_')]:
        del env[name]  # the tests' own collection path must not reach the installed copy's plays
    done = subprocess.run(['bash', os.path.join(REPO, '.ci', 'release.sh'), 'smoke'], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=540, check=False)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert 'release: smoke: passed' in done.stdout, done.stdout
    with open(os.path.join(REPO, 'galaxy.yml'), encoding='utf-8') as handle:
        version = [line.split(':', 1)[1].strip() for line in handle if line.startswith('version:')][0]
    installed = out / 'collections' / 'ansible_collections' / 'nms' / 'overlay'
    manifest = json.loads((installed / 'MANIFEST.json').read_text(encoding='utf-8'))
    assert manifest['collection_info']['version'] == version
    assert not installed.is_symlink() and (installed / 'playbooks' / 'build_network.yml').is_file()
    assert not (installed / 'tests' / 'output').exists() and not (installed / '.build').exists()
    # (.ci/release.sh checks that ansible-galaxy lists nms.overlay under the scratch path only)
    second = (out / 'build-2.log').read_text(encoding='utf-8')
    assert 'changed=0' in second and 'failed=0' in second, second[-2000:]
    assert 'nms.overlay.group' in (out / 'ansible-doc.txt').read_text(encoding='utf-8')
    inventory = json.loads((out / 'inventory.json').read_text(encoding='utf-8'))
    assert '_meta' in inventory
    assert (out / 'venv' / 'bin' / 'ansible-playbook').exists() and not (out / 'venv' / 'bin' / 'pytest').exists()
