# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 46, item 1: NMS_API_CA_PATH, ca_path's fallback, follows the one rule of the controller's relative paths: a
relative one is taken in the directory ansible-playbook runs in, also when the module runs as a module process (which
ansible-core starts in the playbook's directory)."""

from __future__ import annotations

from tests.unit.plugins.plugin_utils.test_in_process import make_action


def test_a_relative_ca_path_from_the_environment_is_taken_where_ansible_playbook_runs(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv('NMS_API_CA_PATH', 'ca.pem')
    assert make_action().controller_paths({}) == {'ca_path': str(tmp_path / 'ca.pem')}
    assert make_action().controller_paths({'ca_path': ''}) == {'ca_path': str(tmp_path / 'ca.pem')}  # '' is unset
    assert make_action().controller_paths({'ca_path': 'other.pem'}) == {'ca_path': str(tmp_path / 'other.pem')}  # the option first
    assert make_action(transport='ssh').controller_paths({}) == {}  # on another host the path is that host's
    monkeypatch.setenv('NMS_API_CA_PATH', '/etc/ca.pem')
    assert make_action().controller_paths({}) == {}  # absolute: the module takes it as it is
    monkeypatch.delenv('NMS_API_CA_PATH')
    assert make_action().controller_paths({}) == {}
