# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 46, items 1 and 2: bootstrap_server's documented command, on a fresh server, keeps the owner's token and every
setup key the build creates in its token file (mode 0600, taken in the directory ansible-playbook runs in, $PWD a
decoy), shows none of them, and its re-run from another directory, naming the file relative to that one, changes
nothing.
"""

from __future__ import annotations

import os

import pytest

from tests.integration.conftest import ScannedEmulator
from tests.integration.test_instance import OWNER, PASSWORD
from tests.integration.test_playbook_paths import decoy, workdir_of  # noqa: F401  (decoy: a fixture)  pylint: disable=unused-import
from tests.integration.test_playbook_secrets import created_keys, kept_file, recap_changed

pytestmark = pytest.mark.dialects('current')


@pytest.fixture(scope='session', params=['current'])
def emulator_process(request, emulators):
    """A server before its setup (no account; a reset returns there), as test_instance.py's."""
    return emulators.get(request.param, extra_args=['--idp', '--fresh'], cls=ScannedEmulator)


def test_bootstrap_servers_documented_command_keeps_the_token_and_every_setup_key(emulator, run, decoy):  # noqa: F811
    """``-e bootstrap_token_file=owner-token.json`` as docs/bootstrap-server.md shows it: the token and the build's
    setup key go to that file; the re-run from another directory, naming it relative to that one, changes nothing."""
    before = set(created_keys(emulator))
    variables = {'bootstrap_owner_email': OWNER['email'], 'bootstrap_owner_name': OWNER['name'],
                 'bootstrap_owner_password': PASSWORD, 'bootstrap_token_file': 'owner-token.json'}
    env = dict(decoy, NMS_API_TOKEN=None)
    first = run([], playbook='nms.overlay.bootstrap_server', env=env, extra_vars=variables)
    assert first.rc == 0, first
    kept = kept_file(first, 'owner-token.json')
    made = {name: value for name, value in created_keys(emulator).items() if name not in before}
    assert made and set(made) == {'servers'}, made
    assert {name: entry['key'] for name, entry in kept['setup_keys'].items()} == made
    assert kept['tokens']['owner@example.com/setup-token']['key'].startswith('nbp_')
    for value in list(made.values()) + [kept['tokens']['owner@example.com/setup-token']['key']]:
        assert value not in first.stdout
    assert 'is lost' not in first.stdout, first

    emulator.clear_log()
    again = run([], playbook='nms.overlay.bootstrap_server', env=env, extra_vars=dict(
        variables, bootstrap_token_file='../%s/owner-token.json' % os.path.basename(workdir_of(first))))
    assert again.rc == 0, again
    assert recap_changed(again) == 0 and emulator.writes() == [], again
    assert not os.path.exists(os.path.join(workdir_of(again), 'nms-created-secrets.json'))
