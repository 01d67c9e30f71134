# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""nms.overlay.markdown_text escapes exactly as the chain of replace filters the report templates had (one call where
they made 17): the chain, rendered by Jinja, is the reference, on every character it escapes and on odd texts."""

from __future__ import annotations

import jinja2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ansible_collections.nms.overlay.plugins.filter.markdown_text import FilterModule, markdown_text

CHAIN = jinja2.Environment().from_string(
    "{{ text | string | replace('\\\\', '\\\\\\\\') | replace('&', '&amp;') | replace('<', '&lt;') | replace('>', '&gt;')"
    " | replace('|', '\\\\|') | replace('*', '\\\\*') | replace('_', '\\\\_') | replace('`', '\\\\`') | replace('[', '\\\\[')"
    " | replace(']', '\\\\]') | replace('#', '\\\\#') | replace('{', '&#123;') | replace('}', '&#125;') | replace('\\r', ' ')"
    " | replace('\\n', ' ') }}")


@pytest.mark.parametrize('text', ['ops|dev *', '{{ lookup("pipe", "id") }}', 'a\\b&c<d>e_f`g[h]i#j', 'line\r\nbreak', '', None, 42,
                                  'ünïcode 名前'])
def test_the_filter_escapes_as_the_chain(text):
    assert markdown_text(text) == CHAIN.render(text=text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('\\&<>|*_`[]#{}\r\nab é'))))
def test_any_text_of_the_escaped_characters_is_escaped_as_the_chain(text):
    assert markdown_text(text) == CHAIN.render(text=text)


def test_the_filter_is_registered_by_its_name():
    assert FilterModule().filters() == {'markdown_text': markdown_text}
    assert markdown_text('ops|dev *') == 'ops\\|dev \\*'
