# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""nms.overlay.html_text escapes exactly as the chain of replace filters the HTML report's template had (one call where
it made 8): the chain, rendered by Jinja, is the reference, on every character it escapes and on odd texts."""

from __future__ import annotations

import jinja2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ansible_collections.nms.overlay.plugins.filter.html_text import FilterModule, html_text

CHAIN = jinja2.Environment().from_string(
    "{{ text | string | replace('&', '&amp;') | replace('<', '&lt;') | replace('>', '&gt;') | replace('\"', '&quot;')"
    " | replace(\"'\", '&#39;') | replace('{', '&#123;') | replace('}', '&#125;') }}")


@pytest.mark.parametrize('text', ['<b>ops</b> & "dev"', '{{ lookup("pipe", "id") }}', "it's a|b*c\\d", 'line\r\nbreak', '',
                                  None, 42, 'ünïcode 名前', '&amp; already'])
def test_the_filter_escapes_as_the_chain(text):
    assert html_text(text) == CHAIN.render(text=text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('&<>"\'{}#;ab é\n'))))
def test_any_text_of_the_escaped_characters_is_escaped_as_the_chain(text):
    assert html_text(text) == CHAIN.render(text=text)


def test_the_filter_is_registered_by_its_name():
    assert FilterModule().filters() == {'html_text': html_text}
    assert html_text('<b>ops</b> & "dev"') == '&lt;b&gt;ops&lt;/b&gt; &amp; &quot;dev&quot;'
    assert html_text('&amp;') == '&amp;amp;'  # escaped again, as the text it is
