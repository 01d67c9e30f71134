# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What a newcomer meets in the first hour agrees with itself (issue "Safe by default", First hour): the supported
ansible-core range in meta/runtime.yml and the README, the demo's own small virtualenv, a documentation page for
every playbook, and a first changelog entry of a release summary and features."""

from __future__ import annotations

import os
import re

import yaml

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def read(rel):
    with open(os.path.join(REPO, rel), encoding='utf-8') as stream:
        return stream.read()


def pins(rel):
    """{distribution: 'name==version'} of a requirements file."""
    found = {}
    for line in read(rel).splitlines():
        line = line.split('#', 1)[0].strip()
        if line:
            found[re.split(r'[<>=!~ ]', line, maxsplit=1)[0].lower()] = line
    return found


def test_requires_ansible_and_the_readme_agree():
    requires = yaml.safe_load(read('meta/runtime.yml'))['requires_ansible']
    found = re.fullmatch(r'>=(\d+)\.(\d+)\.0,<(\d+)\.(\d+)', requires)
    assert found, 'requires_ansible %r is not ">=X.Y.0,<X.Z" (a closed range: later releases are not tested)' % requires
    low, high = (int(found.group(1)), int(found.group(2))), (int(found.group(3)), int(found.group(4)) - 1)
    readme = ' '.join(read('README.md').split())
    assert '- ansible-core %d.%d to %d.%d (`meta/runtime.yml`)' % (low + high) in readme
    # the README says what the upper bound means, quoting it, and never that later releases are expected to work
    assert '`requires_ansible: "%s"` in `meta/runtime.yml`' % requires in readme
    assert 'releases after %d.%d are not tested' % high in readme
    assert 'expected to work' not in readme
    # the support table of the README has one row per release of the range
    rows = re.findall(r'^ *\| (\d+)\.(\d+) \|', read('README.md'), re.MULTILINE)
    assert [(int(a), int(b)) for a, b in rows] == [(low[0], minor) for minor in range(low[1], high[1] + 1)]
    # the site's root page says the same range
    assert 'ansible-core %d.%d to %d.%d' % (low + high) in ' '.join(read('docs/site/index.rst').split())


def test_the_demo_venv_has_only_the_runtime_requirements_pinned_as_for_make_test():
    demo, dev = pins('requirements-demo.txt'), pins('requirements-dev.txt')
    assert sorted(demo) == ['ansible-core', 'pydantic', 'requests'], demo
    assert {name: dev[name] for name in demo} == demo, 'requirements-demo.txt pins differ from requirements-dev.txt'
    # the collection's runtime requirements are all there
    assert set(pins('requirements.txt')) <= set(demo)
    # make demo does not build the development venv: .ci/demo.sh makes its own from requirements-demo.txt
    makefile = read('Makefile')
    for target in ('demo', 'demo-kept'):
        rule = re.search(r'^%s:(.*)$' % target, makefile, re.MULTILINE)
        assert rule and 'venv' not in rule.group(1), 'make %s depends on the development venv' % target
    script = read('.ci/demo.sh')
    assert 'requirements-demo.txt' in script and 'requirements-dev.txt' not in script


# playbooks whose documentation is a section of a guide (the job templates of docs/awx.md, getting-started.md)
IN_GUIDES = {'build_network': 'getting-started.md', 'enroll_hosts': 'awx.md'}


def test_every_playbook_has_a_page_on_the_documentation_site():
    # the site takes every guide of docs/ (a fixed list once forgot one); each is in the toctree, in the order it gives
    assert 'for guide in "$repo"/docs/*.md; do' in read('.ci/docs.sh')
    toctree = read('docs/site/index.rst')
    guides = sorted(name for name in os.listdir(os.path.join(REPO, 'docs')) if name.endswith('.md'))
    assert [page for page in guides if not re.search(r'^   %s$' % page[:-3], toctree, re.MULTILINE)] == []
    playbooks = sorted(name[:-4] for name in os.listdir(os.path.join(REPO, 'playbooks')) if name.endswith('.yml'))
    assert {'offboard_user', 'audit_report', 'access_report'} <= set(playbooks)
    for name in playbooks:
        if name in IN_GUIDES:
            assert 'nms.overlay.%s' % name in read(os.path.join('docs', IN_GUIDES[name])), name
            continue
        page = '%s.md' % name.replace('_', '-')
        assert os.path.isfile(os.path.join(REPO, 'docs', page)), 'playbook %s has no page docs/%s' % (name, page)
        text = read(os.path.join('docs', page))
        assert text.startswith('(%s)=\n# ' % name), 'docs/%s does not start with its label and title' % page
        assert 'ansible-playbook nms.overlay.%s' % name in text
        # every variable the playbook reads is on its page
        variables = set(re.findall(r'\b(nms_%s\w*)' % name.split('_')[-1][:5], read('playbooks/%s.yml' % name)))
        assert sorted(var for var in variables if '`%s`' % var not in text and not var.endswith('_file')) == [], page
        assert re.search(r'^   %s$' % page[:-3], toctree, re.MULTILINE), 'docs/site/index.rst does not list %s' % page


FIRST_RELEASE_SECTIONS = {'release_summary', 'major_changes', 'minor_changes', 'trivial'}


def test_the_first_release_is_a_summary_and_features():
    """Until the first release, no fragment speaks of fixes or breaking changes: a collection never released has
    no earlier release to break or fix (changelogs/config.yaml says so to whoever writes a fragment)."""
    changes = yaml.safe_load(read('changelogs/changelog.yaml'))
    config = yaml.safe_load(read('changelogs/config.yaml'))
    assert config['prelude_section_name'] == 'release_summary' and config['trivial_section_name'] == 'trivial'
    sections = {name for name, dummy in config['sections']} | {'release_summary', 'trivial'}
    assert FIRST_RELEASE_SECTIONS <= sections
    if changes.get('releases'):
        return  # released: fragments of later releases use every section
    directory = os.path.join(REPO, 'changelogs', 'fragments')
    fragments = {name: yaml.safe_load(read(os.path.join('changelogs', 'fragments', name)))
                 for name in sorted(os.listdir(directory)) if name.endswith(('.yml', '.yaml'))}
    wrong = {name: sorted(set(data) - FIRST_RELEASE_SECTIONS) for name, data in fragments.items()
             if set(data) - FIRST_RELEASE_SECTIONS}
    assert wrong == {}, ('before the first release a fragment uses only %s (a fix of behaviour no release had is '
                         'trivial): %s' % (', '.join(sorted(FIRST_RELEASE_SECTIONS)), wrong))
    summaries = [name for name, data in fragments.items() if 'release_summary' in data]
    assert len(summaries) == 1, summaries
