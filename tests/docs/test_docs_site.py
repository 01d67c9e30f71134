# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The built documentation site (make docs runs this after .ci/docs.sh; NMS_DOCS_SITE names the site, default
.build/docs): the index, a module page and a guide page as headless Chromium renders them have their sections and no
link inside the site that leads nowhere, and every module, plugin and role has a page that renders."""

from __future__ import annotations

import os

import pytest

from tests.support import docs_site

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SITE = os.path.abspath(os.environ.get('NMS_DOCS_SITE', os.path.join(REPO, '.build', 'docs')))
GUIDE = 'getting-started'


@pytest.fixture(scope='module')
def site():
    if not os.path.isfile(os.path.join(SITE, 'index.html')):
        if os.environ.get('CI') == 'true':
            pytest.fail('no documentation site at %s: make docs builds it' % SITE)
        pytest.skip('no documentation site at %s: run make docs' % SITE)
    return SITE


def chromium():
    if os.path.exists(docs_site.CHROMIUM):
        return docs_site.CHROMIUM
    if os.environ.get('CI') == 'true':
        pytest.fail('%s is missing: the site cannot be checked in a browser (apt-get install -y chromium)' % docs_site.CHROMIUM)
    pytest.skip('no %s here (in CI it is required)' % docs_site.CHROMIUM)


def rendered(site, relative, tmp_path):
    chromium()
    path = os.path.join(site, relative)
    return path, docs_site.parse(docs_site.rendered_dom(path, tmp_path / 'chromium-profile'))


def index_headings():
    """The title of docs/site/index.rst and the captions of its toctrees."""
    with open(os.path.join(REPO, 'docs', 'site', 'index.rst'), encoding='utf-8') as handle:
        lines = handle.read().splitlines()
    titles = [line for line, under in zip(lines, lines[1:]) if line.strip() and set(under) == {'='} and len(under) >= len(line)]
    return titles + [line.split(':caption:')[1].strip() for line in lines if ':caption:' in line]


PAGES = {
    'index': ('index.html', index_headings),
    'module': ('collections/nms/overlay/group_module.html',
               lambda: ['nms.overlay.group module – Manage groups of peers'] + list(docs_site.MODULE_SECTIONS)),
    'guide': ('%s.html' % GUIDE, lambda: docs_site.markdown_headings(os.path.join(REPO, 'docs', GUIDE + '.md'))),
}


@pytest.mark.parametrize('kind', sorted(PAGES))
def test_a_page_in_chromium_has_its_sections_and_no_broken_link(site, kind, tmp_path):
    relative, expected = PAGES[kind]
    path, page = rendered(site, relative, tmp_path)
    wanted = expected()
    assert len(wanted) >= 3, wanted
    assert docs_site.missing_sections(page, wanted) == [], page.headings
    inside = [href for href in page.links if '://' not in href or href.startswith('file:')]
    assert len(inside) >= 10, page.links  # the navigation alone links to every guide
    assert docs_site.broken_links(site, path, page, {os.path.realpath(path): page}) == []


def test_the_index_leads_to_the_guides_and_the_collection_index(site, tmp_path):
    path, page = rendered(site, 'index.html', tmp_path)
    targets = {href.split('#')[0] for href in page.links}
    assert {'%s.html' % GUIDE, 'changelog.html', 'collections/index.html'} <= targets, sorted(targets)


def test_every_module_plugin_and_role_has_a_page_that_renders(site):
    pages = docs_site.expected_pages(REPO)
    assert sum(name.endswith('(module)') for name in pages) >= 20 and any(name.endswith('(inventory)') for name in pages)
    assert docs_site.unrendered_pages(site, REPO) == {}
