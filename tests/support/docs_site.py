# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Checks of the built documentation site (`make docs`, .ci/docs.sh): the sections a page must have, links inside
the site that lead nowhere, and modules or plugins without a page. tests/docs/test_docs_site.py runs them on the
site as headless Chromium renders it; tests/unit/test_docs_site_checks.py shows that each can fail."""

from __future__ import annotations

import html.parser
import os
import re
import shutil
import subprocess
import urllib.parse

import yaml

CHROMIUM = '/usr/bin/chromium'
# what every module page has (antsibull-docs' section ids), by its heading
MODULE_SECTIONS = ('Synopsis', 'Parameters', 'Attributes', 'Examples', 'Return Values')
# a plugin directory of the collection and the page suffix antsibull-docs gives its plugins
PAGE_KINDS = {'modules': 'module', 'inventory': 'inventory', 'filter': 'filter', 'lookup': 'lookup', 'callback': 'callback',
              'connection': 'connection', 'test': 'test', 'become': 'become', 'cache': 'cache', 'vars': 'vars'}
PLUGIN_PAGES = 'collections/nms/overlay'


class Page:
    """What the checks read of an HTML page: its headings (text), the ids of its elements and its links."""

    def __init__(self, headings, ids, links, title, top=()):
        self.headings = headings
        self.top = list(top)  # the h1 headings: the page's own title (the navigation's captions come first)
        self.ids = ids
        self.links = links
        self.title = title


class _Reader(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.headings, self.ids, self.links, self.title, self.top = [], set(), [], '', []
        self._heading = None  # the text of the heading being read
        self._heading_tag = None
        self._skip = 0  # inside a heading's permalink (its text is a pilcrow, not the title)
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ('id', 'name'):
            if attrs.get(key) and (key == 'id' or tag == 'a'):
                self.ids.add(attrs[key])
        if tag == 'a' and attrs.get('href') is not None:
            self.links.append(attrs['href'])
        if re.fullmatch(r'h[1-6]', tag) or attrs.get('role') == 'heading':  # a toctree's caption is a heading too
            self._heading = []
            self._heading_tag = tag
        elif self._heading is not None and tag == 'a' and 'headerlink' in (attrs.get('class') or ''):
            self._skip += 1
        if tag == 'title':
            self._in_title = True

    def handle_endtag(self, tag):
        if self._heading is not None and tag == self._heading_tag:
            self.headings.append(' '.join(''.join(self._heading).split()))
            if tag == 'h1':
                self.top.append(self.headings[-1])
            self._heading = None
        elif tag == 'a' and self._skip:
            self._skip -= 1
        elif tag == 'title':
            self._in_title = False

    def handle_data(self, data):
        if self._heading is not None and not self._skip:
            self._heading.append(data)
        if self._in_title:
            self.title += data


def parse(text):
    reader = _Reader()
    reader.feed(text)
    reader.close()
    return Page(reader.headings, reader.ids, reader.links, ' '.join(reader.title.split()), reader.top)


def read_page(path):
    with open(path, encoding='utf-8') as handle:
        return parse(handle.read())


def missing_sections(page, expected):
    """The expected headings (exact text) that the page lacks."""
    return [heading for heading in expected if heading not in page.headings]


def markdown_headings(path):
    """The headings of a Markdown guide, as the site shows them (inline code and emphasis marks dropped)."""
    with open(path, encoding='utf-8') as handle:
        text = handle.read()
    text = re.sub(r'^```.*?^```', '', text, flags=re.MULTILINE | re.DOTALL)  # no '#' comment of a code block
    headings = []
    for match in re.finditer(r'^#{1,6} +(.+?) *#* *$', text, re.MULTILINE):
        heading = re.sub(r'\[([^]]*)\]\([^)]*\)', r'\1', match.group(1))
        headings.append(' '.join(re.sub(r'[`*]', '', heading).split()))
    return headings


def broken_links(site, page_path, page, pages=None):
    """The links of ``page`` (the file ``page_path`` of the site in the directory ``site``) that point inside the site
    and lead nowhere: a missing file, or an anchor that the target page lacks. ``pages`` maps a site file to its
    already-read Page (the rendered ones); other targets are read from their files. Returns [(href, why)]."""
    pages = dict(pages or {})
    root = os.path.realpath(site)
    broken = []
    for href in sorted(set(page.links)):
        parts = urllib.parse.urlsplit(href)
        if parts.scheme == 'file':
            target = urllib.parse.unquote(parts.path)
        elif parts.scheme or parts.netloc or href.startswith(('//', 'mailto:', 'javascript:')):
            continue  # outside the site
        elif parts.path:
            target = os.path.join(os.path.dirname(page_path), urllib.parse.unquote(parts.path))
        else:
            target = page_path
        target = os.path.realpath(target)
        if os.path.commonpath([root, target]) != root:
            broken.append((href, 'outside the site'))
            continue
        if os.path.isdir(target):
            target = os.path.join(target, 'index.html')
        if not os.path.isfile(target):
            broken.append((href, 'no file %s' % os.path.relpath(target, root)))
            continue
        fragment = urllib.parse.unquote(parts.fragment)
        if fragment and target.endswith('.html'):
            if target not in pages:
                pages[target] = read_page(target)
            if fragment not in pages[target].ids:
                broken.append((href, 'no anchor #%s in %s' % (fragment, os.path.relpath(target, root))))
    return broken


def expected_pages(repo):
    """Every module, plugin and role of the collection and the site file of its page: {name: relative path}.
    The modules are those of plugins/modules/ and of meta/runtime.yml's action group (both must have a page)."""
    wanted = {}
    plugins = os.path.join(repo, 'plugins')
    for directory, kind in PAGE_KINDS.items():
        path = os.path.join(plugins, directory)
        if not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            if name.endswith('.py') and not name.startswith('_'):
                wanted['nms.overlay.%s (%s)' % (name[:-3], kind)] = '%s/%s_%s.html' % (PLUGIN_PAGES, name[:-3], kind)
    with open(os.path.join(repo, 'meta', 'runtime.yml'), encoding='utf-8') as handle:
        runtime = yaml.safe_load(handle)
    for group in (runtime.get('action_groups') or {}).values():
        for name in group:
            if isinstance(name, str):
                wanted['nms.overlay.%s (module)' % name.split('.')[-1]] = '%s/%s_module.html' % (PLUGIN_PAGES, name.split('.')[-1])
    roles = os.path.join(repo, 'roles')
    for name in sorted(os.listdir(roles)) if os.path.isdir(roles) else ():
        if os.path.isfile(os.path.join(roles, name, 'meta', 'argument_specs.yml')):
            wanted['nms.overlay.%s (role)' % name] = '%s/%s_role.html' % (PLUGIN_PAGES, name)
    return wanted


def unrendered_pages(site, repo):
    """The modules, plugins and roles whose page is missing or does not show their name and, for a module, every
    section of MODULE_SECTIONS: {name: why}."""
    problems = {}
    for name, relative in expected_pages(repo).items():
        path = os.path.join(site, relative)
        if not os.path.isfile(path):
            problems[name] = 'no page %s' % relative
            continue
        page = read_page(path)
        full_name = name.split(' ')[0]
        if len(page.top) != 1 or not page.top[0].startswith(full_name + ' '):
            problems[name] = '%s: its title (h1) is %r' % (relative, page.top)
        elif relative.endswith('_module.html') and missing_sections(page, MODULE_SECTIONS):
            problems[name] = '%s lacks %s' % (relative, ', '.join(missing_sections(page, MODULE_SECTIONS)))
    return problems


def rendered_dom(page_path, profile):
    """The page's DOM after headless Chromium has loaded it and run its scripts (--dump-dom)."""
    command = [CHROMIUM, '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
               '--disable-background-networking', '--disable-component-update', '--disable-sync',
               '--user-data-dir=%s' % profile, '--dump-dom', 'file://%s' % os.path.abspath(page_path)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    if done.returncode != 0 or '<html' not in done.stdout:
        raise AssertionError('chromium could not render %s (exit %d): %s' % (page_path, done.returncode, done.stderr[-2000:]))
    return done.stdout
