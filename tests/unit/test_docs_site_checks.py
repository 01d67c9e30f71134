# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The checks of the built documentation site (tests/support/docs_site.py) report what is wrong: a module page
without a section, a link to a missing page or anchor, a module without a page; and make docs runs them."""

from __future__ import annotations

import os

from tests.support import docs_site

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MODULE_PAGE = '''<html><head><title>nms.overlay.group</title></head><body id="top">
<h1>nms.overlay.group module<a class="headerlink" href="#top">¶</a></h1>
<section id="synopsis"><h2><a class="toc-backref" href="#top">Synopsis</a></h2></section>
<section id="parameters"><h2>Parameters</h2><a href="../../../getting-started.html#connect">connect</a></section>
<section id="examples"><h2>Examples</h2><a href="#synopsis">up</a> <a href="https://example.org/x">out</a></section>
<section id="return-values"><h2>Return   Values</h2><a href="../../../missing.html">gone</a>
<a href="../../../getting-started.html#nowhere">no anchor</a> <a href="#attributes">no section</a></section>
</body></html>'''


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w', encoding='utf-8') as handle:
        handle.write(text)


def test_a_module_page_without_a_section_is_reported():
    page = docs_site.parse(MODULE_PAGE)
    assert page.headings == ['nms.overlay.group module', 'Synopsis', 'Parameters', 'Examples', 'Return Values']
    assert docs_site.missing_sections(page, docs_site.MODULE_SECTIONS) == ['Attributes']


def test_links_to_a_missing_page_or_anchor_are_reported_and_good_ones_are_not(tmp_path):
    site = tmp_path / 'site'
    write(str(site / 'getting-started.html'), '<html><body><section id="connect"><h2>Connect</h2></section></body></html>')
    path = str(site / 'collections' / 'nms' / 'overlay' / 'group_module.html')
    write(path, MODULE_PAGE)
    broken = docs_site.broken_links(str(site), path, docs_site.parse(MODULE_PAGE))
    assert broken == [('#attributes', 'no anchor #attributes in collections/nms/overlay/group_module.html'),
                      ('../../../getting-started.html#nowhere', 'no anchor #nowhere in getting-started.html'),
                      ('../../../missing.html', 'no file missing.html')]
    outside = docs_site.parse('<a href="../../../../../etc/passwd">x</a>')
    assert docs_site.broken_links(str(site), path, outside) == [('../../../../../etc/passwd', 'outside the site')]


def test_a_module_without_a_page_or_with_a_page_lacking_a_section_is_reported(tmp_path):
    pages = docs_site.expected_pages(REPO)
    assert pages['nms.overlay.group (module)'] == 'collections/nms/overlay/group_module.html'
    assert pages['nms.overlay.peers (inventory)'] == 'collections/nms/overlay/peers_inventory.html'
    assert pages['nms.overlay.network (role)'] == 'collections/nms/overlay/network_role.html'
    site = tmp_path / 'site'
    write(str(site / pages['nms.overlay.group (module)']), MODULE_PAGE)
    write(str(site / pages['nms.overlay.group_info (module)']), MODULE_PAGE.replace('Return   Values', 'Return Values</h2><h2>Attributes'))
    problems = docs_site.unrendered_pages(str(site), REPO)
    assert problems['nms.overlay.group (module)'] == 'collections/nms/overlay/group_module.html lacks Attributes'
    # every section, but the title of another module's page
    assert problems['nms.overlay.group_info (module)'] == (
        "collections/nms/overlay/group_info_module.html: its title (h1) is ['nms.overlay.group module']")
    assert problems['nms.overlay.peers (inventory)'] == 'no page collections/nms/overlay/peers_inventory.html'
    assert len(problems) == len(pages)


def test_a_guide_s_headings_are_read_from_its_markdown(tmp_path):
    guide = tmp_path / 'guide.md'
    guide.write_text('(guide)=\n# A `title`\n\n```yaml\n# not a heading\n```\n## See [the index](index.md)\n', encoding='utf-8')
    assert docs_site.markdown_headings(str(guide)) == ['A title', 'See the index']


def test_make_docs_runs_the_site_checks_after_the_build():
    with open(os.path.join(REPO, 'Makefile'), encoding='utf-8') as handle:
        makefile = handle.read()
    recipe = makefile.split('\ndocs: ')[1].split('\n\n')[0]
    checks = makefile.split('\n_docs-site: ')[1].split('\n\n')[0]
    assert '.ci/docs.sh' in recipe and '_docs-site' in recipe and 'tests/docs' in checks, (recipe, checks)
