# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 46, 5: an option that only newer servers take names, in the page ansible-doc shows, the release the task
holds it to (_server.OPTION_RELEASES, which also writes the compatibility page and the README's list): ansible-doc
nms.overlay.route said "from v0.77 on" for options a v0.28.0 server takes."""

from __future__ import annotations

import re

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._server import OPTION_RELEASES
from tests.support.compatibility import module_names
from tests.support.modules import documentation

SENTENCE = re.compile(r'(?:[Ss]ervers have it|[Nn]eeds a server) from (v\d+\.\d+(?:\.\d+)?) on')


def documented_releases():
    """(module, option path, release named in its own description) for every such sentence of every module."""
    found = []
    for module in module_names():
        pending = [((), documentation(module, connection=False).get('options') or {})]
        while pending:
            path, options = pending.pop()
            for name, option in options.items():
                text = option.get('description')
                text = ' '.join(text) if isinstance(text, list) else text or ''
                found.extend((module, '.'.join(path + (name,)), release) for release in SENTENCE.findall(text))
                pending.append((path + (name,), option.get('suboptions') or {}))
    return found


@pytest.mark.parametrize('module, option, release', documented_releases())
def test_a_documented_release_of_an_option_is_the_one_the_task_holds_it_to(module, option, release):
    held = OPTION_RELEASES.get(option) or OPTION_RELEASES.get(option.rsplit('.', 1)[-1])
    if held is None:
        pytest.skip('%s %s: no release of its own in OPTION_RELEASES (a kind-wide or server-generation note)'
                    % (module, option))
    assert release == held, '%s option %s: the docs say %s, the task refuses it below %s' % (module, option, release, held)


def test_every_option_release_of_the_table_is_documented_somewhere():
    named = {option.rsplit('.', 1)[-1] for dummy, option, dummy_release in documented_releases()} | {
        option for dummy, option, dummy_release in documented_releases()}
    assert sorted(option for option in OPTION_RELEASES if option not in named) == []
