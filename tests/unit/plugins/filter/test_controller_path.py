# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 44, item 11: the filter the shipped playbooks resolve their file variables with, the action plugins' rule."""

from __future__ import annotations

import pytest
from ansible.errors import AnsibleError

from ansible_collections.nms.overlay.plugins.filter.controller_path import FilterModule


def test_a_relative_path_is_taken_in_the_working_directory_not_pwd(monkeypatch, tmp_path):
    controller_path = FilterModule().filters()['controller_path']
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv('PWD', '/somewhere/else')  # what a parent process may leave behind
    monkeypatch.setenv('NMS_DIR', '/srv/nms')
    assert controller_path('owner-token.json') == str(tmp_path / 'owner-token.json')
    assert controller_path('../up/file.json') == str(tmp_path / '../up/file.json')
    assert controller_path('/abs/file.json') == '/abs/file.json'
    assert controller_path('$NMS_DIR/file.json') == '/srv/nms/file.json'
    assert controller_path('~/file.json').endswith('/file.json') and not controller_path('~/file.json').startswith('~')
    assert controller_path('') == '' and controller_path(None) == ''  # an empty path: the file is skipped
    with pytest.raises(AnsibleError, match='a path must be a string, not list'):
        controller_path(['a'])
