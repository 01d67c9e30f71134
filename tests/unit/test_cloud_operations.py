"""NetBird Cloud (issue 46, item 5): docs/compatibility.md says what is known and what is not, the README points to
it, and no module calls an operation NetBird's OpenAPI file marks x-cloud-only (a self-hosted server has none)."""

import os
import re

import pytest

from tests.support import compatibility

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')


def read(*parts):
    with open(os.path.join(ROOT, *parts), encoding='utf-8') as handle:
        return handle.read()


@pytest.mark.skipif(not os.path.isfile(compatibility.SPEC), reason='no reference OpenAPI file')
def test_no_module_calls_a_cloud_only_operation():
    cloud = compatibility.spec_operations(cloud=True)
    assert len(cloud) > 50 and 'GET /api/ingress/peers' in cloud and 'GET /api/events/network-traffic' in cloud
    assert not set(cloud) & set(compatibility.spec_operations())
    assert compatibility.covering_modules(cloud) == {}


def test_the_page_and_the_readme_state_the_clouds_support():
    page = read('docs', 'compatibility.md')
    assert compatibility.CLOUD_HEADING + '\n' in page and '(#netbird-cloud)' in page
    section = page.split(compatibility.CLOUD_HEADING, 1)[1].split('\n## ', 1)[0]
    assert 'not tested' in section and '127.0.0.1' in section and 'unknown' in section
    assert 'test_cloud_url.py' in section and os.path.isfile(
        os.path.join(ROOT, 'tests', 'unit', 'plugins', 'module_utils', 'test_cloud_url.py'))
    assert re.search(r'NetBird Cloud[^\n]*compatibility\.md#netbird-cloud', read('README.md'))
