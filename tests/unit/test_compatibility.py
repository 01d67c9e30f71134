# -*- coding: utf-8 -*-
"""docs/compatibility.md lists every module and option with the server generations that have them (issue 20)."""

from __future__ import annotations

import os

from tests.support import compatibility
from tests.support.modules import documentation

PAGE = os.path.join(os.path.dirname(compatibility.MODULES_DIR), '..', 'docs', 'compatibility.md')


def test_the_page_is_the_one_the_modules_give():
    page = compatibility.render()
    if os.environ.get('NMS_WRITE_COMPATIBILITY'):
        with open(PAGE, 'w', encoding='utf-8') as handle:
            handle.write(page)
    with open(PAGE, encoding='utf-8') as handle:
        assert handle.read() == page, 'docs/compatibility.md is out of date: NMS_WRITE_COMPATIBILITY=1 pytest %s' % __file__


def test_every_note_names_a_module_and_option_that_exist():
    for module, option in compatibility.NOTES:
        assert module in compatibility.module_names(), module
        if option is not None:
            names = [name for name, dummy in compatibility.options(documentation(module, connection=False).get('options'))]
            assert option in names, (module, option)


def test_every_module_and_option_has_a_row():
    page = compatibility.render()
    for module in compatibility.module_names():
        assert '| `nms.overlay.%s` |' % module in page
        for name, dummy in compatibility.options(documentation(module, connection=False).get('options')):
            assert '| | `%s` |' % name in page


def test_a_module_of_todays_servers_is_marked_v077_only():
    assert compatibility.requires('group') is None and compatibility.requires('network_state') is None
    page = compatibility.render(requires_of=lambda module: 'Networks' if module == 'group' else None)
    assert ('| `nms.overlay.group` | | no | yes | Networks came after v0.27: on a v0.27 server the task fails after one '
            'request, before any other. |') in page
    assert '| | `peers` | no | yes |  |' in page
    assert '| `nms.overlay.group_info` | | yes | yes |  |' in page
