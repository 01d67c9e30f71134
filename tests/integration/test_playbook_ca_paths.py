# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 46, item 1: the shipped playbooks that take no file of their own (cleanup_stale_peers, offboard_user) still
take one path, the private CA of the server (NMS_API_CA_PATH): a relative one is taken in the directory
ansible-playbook runs in, as every path the shipped playbooks take, whether the modules run in the controller or as
module processes (which ansible-core starts in the playbook's directory). $PWD is a decoy.
"""

from __future__ import annotations

import shutil

import pytest

from tests.integration.test_network import REPO, enroll_inventory
from tests.integration.test_lookup import https_emulator, pki  # noqa: F401  (fixtures)  pylint: disable=unused-import
from tests.integration.test_playbook_paths import decoy  # noqa: F401  (a fixture)  pylint: disable=unused-import


@pytest.mark.parametrize('in_process', [True, False], ids=['in-process', 'module-process'])
def test_a_relative_ca_path_is_taken_where_ansible_playbook_runs(run, https_emulator, pki, decoy, tmp_path,  # noqa: F811
                                                                  in_process):
    https_emulator.reset()
    env = dict(decoy, NMS_API_URL=https_emulator.url, NMS_API_TOKEN=https_emulator.token, NMS_API_CA_PATH='ca.pem')
    for number in (1, 2):  # each run's own directory holds the CA, relative to it
        (tmp_path / ('run%d' % number)).mkdir()
        shutil.copy(pki['ca_cert'], str(tmp_path / ('run%d' % number) / 'ca.pem'))
    cleanup = run([], playbook='nms.overlay.cleanup_stale_peers', env=env,
                  extra_vars={'nms_stale_inactive_for': '3650d', 'nms_overlay_in_process': in_process})
    assert cleanup.rc == 0, cleanup
    assert 'nothing to delete' in cleanup.stdout or 'Nothing was deleted' in cleanup.stdout, cleanup
    offboard = run([], playbook='nms.overlay.offboard_user', env=env,
                   extra_vars={'nms_offboard_user': 'nobody@example.com', 'nms_overlay_in_process': in_process})
    assert offboard.rc != 0 and 'no user nobody@example.com' in offboard.stdout, offboard
    assert 'certificate' not in offboard.stdout.lower(), offboard


@pytest.mark.parametrize('variable', ['NMS_API_CA_PATH', 'enroll_ca_path'])
def test_enroll_hosts_takes_a_relative_ca_path_where_ansible_playbook_runs(run, https_emulator, pki, decoy,  # noqa: F811
                                                                           tmp_path, variable):
    """The enroll role checks a shared key with ansible.builtin.uri, which would look for a relative CA file beside
    the playbook: the key check, the API tasks and the join all verify the server with the run directory's CA."""
    https_emulator.reset()
    status, key = https_emulator.api('POST', '/api/setup-keys', {
        'name': 'shared', 'type': 'reusable', 'expires_in': 86400, 'auto_groups': [], 'usage_limit': 0})
    assert status == 200, key
    value = [k['key'] for k in https_emulator.state()['setup_keys'] if k['name'] == 'shared'][0]
    (tmp_path / 'run1').mkdir()  # the directory of the first run (the run fixture's numbering)
    shutil.copy(pki['ca_cert'], str(tmp_path / 'run1' / 'ca.pem'))
    env = dict(decoy, NMS_API_URL=https_emulator.url, NMS_API_TOKEN=https_emulator.token)
    extra = {'enroll_setup_key': value}
    if variable == 'NMS_API_CA_PATH':
        env[variable] = 'ca.pem'
    else:
        extra[variable] = 'ca.pem'
    # the agent (the fake one) verifies the server with the CA it is given, as a real agent with the system's CAs
    inventory = enroll_inventory(tmp_path, ['web-1', 'web-2'], enroll_agent_environment={
        'PYTHONPATH': REPO, 'NMS_FAKE_AGENT_TIME_SCALE': '0.05', 'SSL_CERT_FILE': pki['ca_cert']}, **extra)
    result = run([], playbook='nms.overlay.enroll_hosts', inventory=inventory, env=env)
    assert result.rc == 0, result
    assert 'certificate' not in result.stdout.lower(), result
    assert sorted(peer['name'] for peer in https_emulator.api('GET', '/api/peers')[1]) == ['web-1', 'web-2']
    assert [(k['name'], k['used_times']) for k in https_emulator.api('GET', '/api/setup-keys')[1]] == [('shared', 2)]
    assert value not in result.stdout
