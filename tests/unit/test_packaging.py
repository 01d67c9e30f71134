# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Release packaging: the Galaxy artifact, the execution environment definition, the changelog.

The artifact is built twice: from a copy of the working tree with decoy virtualenvs, build
outputs and caches planted in it (so that galaxy.yml's build_ignore is proven to leave them out
whatever the local checkout holds), and from the working tree itself, as `make build` does.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile

import pytest
import yaml

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.dirname(sys.executable)

# Files or directories that must never be in the artifact, as planted into the copy.
DECOYS = [
    '.venv/bin/python',
    '.venv-oldest/bin/python',
    '.venv.lock',
    'venv/pyvenv.cfg',
    '.build/dist/nms-overlay-0.0.1.tar.gz',
    '.build/docs-venv/bin/python',
    'tests/output/junit/python3.11-modules.xml',
    'plugins/modules/__pycache__/group.cpython-311.pyc',
    'plugins/module_utils/__pycache__/_client.cpython-311.pyc',
    '.pytest_cache/v/cache/nodeids',
    '.hypothesis/examples/x',
    '.mypy_cache/3.11/x.json',
    '.ruff_cache/x',
    '.tox/py311/x',
    '.cache/pip/x',
    '.ansible/collections/x',
    'docs/_build/html/index.html',
    'context/Containerfile',
    'changelogs/.plugin-cache.yaml',
]
FORBIDDEN_PARTS = {'.venv', 'venv', '.build', '__pycache__', '.pytest_cache', '.hypothesis', '.mypy_cache',
                   '.ruff_cache', '.tox', '.cache', '.ansible', '.git', '_build'}
FORBIDDEN_PREFIXES = ('tests/output', 'context/', 'changelogs/.plugin-cache.yaml')
REQUIRED = ['MANIFEST.json', 'FILES.json', 'README.md', 'LICENSE', 'meta/runtime.yml', 'meta/execution-environment.yml',
            'requirements.txt', 'plugins/modules/group.py', 'plugins/module_utils/_resource.py',
            'plugins/inventory/peers.py', 'roles/network/meta/argument_specs.yml', 'playbooks/build_network.yml',
            'playbooks/access_report.yml', 'playbooks/templates/access_report.md.j2', 'playbooks/templates/access_report.html.j2',
            'plugins/filter/access_matrix.py',
            'changelogs/changelog.yaml']


def galaxy_version():
    with open(os.path.join(REPO, 'galaxy.yml'), encoding='utf-8') as stream:
        return yaml.safe_load(stream)['version']


def build(collection_dir, output_dir):
    """Run `ansible-galaxy collection build` (the one next to this interpreter); return the member names."""
    result = subprocess.run(
        [os.path.join(BIN, 'ansible-galaxy'), 'collection', 'build', '--force', '--output-path', str(output_dir),
         str(collection_dir)],
        capture_output=True, text=True, check=False, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    artifact = os.path.join(str(output_dir), 'nms-overlay-%s.tar.gz' % galaxy_version())
    assert os.path.isfile(artifact), result.stdout
    with tarfile.open(artifact) as tar:
        return artifact, [member.name[2:] if member.name.startswith('./') else member.name for member in tar.getmembers()]


def forbidden(names):
    bad = []
    for name in names:
        parts = name.rstrip('/').split('/')
        if (FORBIDDEN_PARTS.intersection(parts) or parts[0].startswith('.venv') or name.startswith(FORBIDDEN_PREFIXES)
                or name.endswith(('.pyc', '.tar.gz'))):
            bad.append(name)
    return bad


@pytest.fixture(scope='module')
def tree_copy(tmp_path_factory):
    """The files git would commit now (tracked and untracked, not ignored), plus the decoys."""
    dest = tmp_path_factory.mktemp('tree') / 'overlay'
    listing = subprocess.run(['git', 'ls-files', '-z', '-co', '--exclude-standard'], cwd=REPO, capture_output=True,
                             check=True).stdout
    for rel in sorted({item.decode('utf-8', 'surrogateescape') for item in listing.split(b'\0') if item}):
        src = os.path.join(REPO, rel)
        if not os.path.isfile(src):
            continue
        os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
        shutil.copy2(src, os.path.join(dest, rel))
    for rel in DECOYS:
        path = dest / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text('decoy\n', encoding='utf-8')
    return dest


@pytest.fixture(scope='module')
def built_copy(tree_copy, tmp_path_factory):
    return build(tree_copy, tmp_path_factory.mktemp('dist'))


def test_artifact_leaves_out_virtualenvs_build_outputs_and_caches(built_copy):
    _artifact, names = built_copy
    assert forbidden(names) == []
    for rel in DECOYS:
        assert rel not in names


def test_artifact_has_the_collection_content(built_copy):
    _artifact, names = built_copy
    missing = [rel for rel in REQUIRED if rel not in names]
    assert missing == []
    assert not [name for name in names if name.startswith(('.ci/', 'Makefile', 'requirements-dev.txt'))]


def test_artifact_of_the_working_tree_is_clean(tmp_path):
    """What `make build` ships from this checkout, with whatever caches and virtualenvs it holds."""
    _artifact, names = build(REPO, tmp_path)
    assert forbidden(names) == []
    assert 'plugins/modules/group.py' in names and 'meta/runtime.yml' in names


def load_yaml(rel):
    with open(os.path.join(REPO, rel), encoding='utf-8') as stream:
        return yaml.safe_load(stream)


def test_execution_environment_installs_the_artifact_and_requirements():
    ee = load_yaml('execution-environment.yml')
    assert ee['version'] == 3
    deps = ee['dependencies']
    assert deps['python'] == 'requirements.txt'
    assert os.path.isfile(os.path.join(REPO, deps['python']))
    # the copy .ci/ee.sh makes of the artifact, under a name without the version (galaxy.yml alone has it)
    assert [c['name'] for c in deps['galaxy']['collections']] == ['/build/collections/nms-overlay.tar.gz']
    assert [c.get('type') for c in deps['galaxy']['collections']] == ['file']
    assert ee['additional_build_files'] == [{'src': '.build/ee-collection/nms-overlay.tar.gz', 'dest': 'collections'}]
    # the collection-level file names the same requirements
    assert load_yaml('meta/execution-environment.yml')['dependencies']['python'] == 'requirements.txt'
    # ansible-core and ansible-runner pinned, to the releases requirements-dev.txt pins: two builds install the same
    with open(os.path.join(REPO, 'requirements-dev.txt'), encoding='utf-8') as stream:
        pins = {line.split('==')[0]: line.strip() for line in stream if '==' in line and not line.startswith('#')}
    assert deps['ansible_core'] == {'package_pip': pins['ansible-core']}, deps['ansible_core']
    assert deps['ansible_runner'] == {'package_pip': pins['ansible-runner']}, deps['ansible_runner']


def ee_project(tmp_path):
    """What `make ee` (.ci/ee.sh) needs of the repository, in a directory of its own."""
    project = tmp_path / 'project'
    for rel in ('execution-environment.yml', 'requirements.txt', 'galaxy.yml', '.ci/ee.sh', '.ci/version.sh'):
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(os.path.join(REPO, rel), project / rel)
    return project


def make_ee(project):
    return subprocess.run(['bash', '.ci/ee.sh', BIN], cwd=project, capture_output=True, text=True, check=False,
                          timeout=300)


@pytest.mark.tooling
def test_make_ee_fails_naming_the_artifact_when_it_was_not_built(tmp_path):
    """ansible-builder create alone exits 0 with a context that lacks the collection."""
    project = ee_project(tmp_path)
    result = make_ee(project)
    assert result.returncode == 1
    expected = 'ee: .build/dist/nms-overlay-%s.tar.gz is missing' % galaxy_version()
    assert result.stderr.startswith(expected) and 'run make build first' in result.stderr, result.stderr
    assert not (project / '.build' / 'ee').exists()


@pytest.mark.tooling
def test_ansible_builder_create_makes_a_build_context_offline(built_copy, tmp_path):
    pytest.importorskip('ansible_builder', reason='ansible-builder is not installed (requirements-dev.txt)')
    artifact, _names = built_copy
    project = ee_project(tmp_path)
    (project / '.build' / 'dist').mkdir(parents=True)
    shutil.copy2(artifact, project / '.build' / 'dist')
    result = make_ee(project)
    assert result.returncode == 0, result.stdout + result.stderr
    context = project / '.build' / 'ee'
    assert (context / '_build' / 'collections' / 'nms-overlay.tar.gz').read_bytes() == open(artifact, 'rb').read()
    assert 'requests' in (context / '_build' / 'requirements.txt').read_text(encoding='utf-8')
    containerfile = (context / 'Containerfile').read_text(encoding='utf-8')
    assert 'ansible-galaxy collection install' in containerfile
    requirements = yaml.safe_load((context / '_build' / 'requirements.yml').read_text(encoding='utf-8'))
    assert requirements['collections'][0]['name'] == '/build/collections/nms-overlay.tar.gz'
    assert 'nms-overlay-ee:%s' % galaxy_version() in result.stdout


CHANGELOG_TOOL = os.path.join(BIN, 'antsibull-changelog')


@pytest.mark.tooling
def test_changelog_fragments_pass_antsibull_changelog_lint():
    assert os.path.exists(CHANGELOG_TOOL), 'antsibull-changelog is not installed (requirements-dev.txt)'
    result = subprocess.run([CHANGELOG_TOOL, 'lint'], cwd=REPO, capture_output=True, text=True, check=False, timeout=120)
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout + result.stderr
    fragments = [name for name in os.listdir(os.path.join(REPO, 'changelogs', 'fragments')) if name.endswith('.yml')]
    # right after a release (antsibull-changelog release consumed them) there is none until the next change
    assert fragments or load_yaml('changelogs/changelog.yaml').get('releases'), 'no changelog fragment'


@pytest.mark.tooling
def test_the_changelog_is_generated_from_the_fragments(tmp_path):
    """What `make changelog` does at release time, in a copy: every module and plugin is in CHANGELOG.rst."""
    copy = tmp_path / 'ansible_collections' / 'nms' / 'overlay'
    for rel in ('galaxy.yml', 'changelogs', 'plugins', 'meta'):
        source = os.path.join(REPO, rel)
        if os.path.isdir(source):
            shutil.copytree(source, copy / rel, ignore=shutil.ignore_patterns('__pycache__', '.plugin-cache.yaml'))
        else:
            copy.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / rel)
    result = subprocess.run([CHANGELOG_TOOL, 'release', '--date', '2026-01-01'], cwd=copy, capture_output=True,
                            text=True, check=False, timeout=300, env=dict(os.environ, PATH=BIN + os.pathsep + os.environ['PATH']))
    assert result.returncode == 0, result.stdout + result.stderr
    text = (copy / 'CHANGELOG.rst').read_text(encoding='utf-8')
    assert 'v%s' % galaxy_version() in text
    assert 'First release of the ``nms.overlay`` collection' in text
    modules = sorted(name[:-3] for name in os.listdir(os.path.join(REPO, 'plugins', 'modules'))
                     if name.endswith('.py') and not name.startswith('_'))
    assert len(modules) >= 20
    missing = [name for name in modules + ['peers', 'access_matrix'] if '- nms.overlay.%s - ' % name not in text]
    assert missing == [], text
    # the first release (nothing released before it) is a summary and what the collection brings: nothing to fix
    # or break (tests/unit/test_first_hour.py names the fragments that say otherwise)
    if not load_yaml('changelogs/changelog.yaml').get('releases'):
        assert 'Release Summary' in text and 'Minor Changes' in text, text
        assert 'Bugfixes' not in text and 'Breaking Changes' not in text, text


# --- release hygiene (issue 21, point 6) ---------------------------------------------------------------
# The version is written in galaxy.yml only (the changelog records releases, version_added what came when);
# its public links (galaxy.yml) all lead to the one repository it is published from; nothing points at files
# outside the repository but the real NetBird servers' kit (../shared/servers, which the real-server stage uses
# where it exists: issue 27).
VERSION_ALLOWED = ('galaxy.yml', 'MANIFEST.json', 'FILES.json', 'CHANGELOG.rst', 'changelogs/')
OUTSIDE = re.compile(r'\.\./shared(?!/servers)|\bshared/(spec|reference|DESIGN)|/work/|example\.invalid|galaxy\.ansible\.com')


def hand_written_version(rel, text, version):
    """Lines of ``text`` that write ``version`` by hand (not as version_added, not in the changelog)."""
    if rel.startswith(VERSION_ALLOWED) or rel.endswith(VERSION_ALLOWED):
        return []
    pattern = re.compile(r'(?<![\d.])%s(?![\d.])' % re.escape(version))
    return ['%s: %s' % (rel, line.strip()) for line in text.splitlines()
            if pattern.search(line) and 'version_added' not in line]


def problems(files):
    """{relative path: text} -> what breaks the rules above."""
    version = galaxy_version()
    found = []
    for rel, text in sorted(files.items()):
        if rel == 'tests/unit/test_packaging.py':  # the patterns themselves
            continue
        found.extend('%s: points outside: %s' % (rel, match.group(0)) for match in OUTSIDE.finditer(text))
        found.extend(hand_written_version(rel, text, version))
    return found


def texts_of_tree():
    listing = subprocess.run(['git', 'ls-files', '-z', '-co', '--exclude-standard'], cwd=REPO, capture_output=True,
                             check=True).stdout
    files = {}
    for rel in {item.decode('utf-8', 'surrogateescape') for item in listing.split(b'\0') if item}:
        path = os.path.join(REPO, rel)
        if os.path.isfile(path):
            with open(path, 'rb') as stream:
                files[rel] = stream.read().decode('utf-8', 'replace')
    return files


def test_the_repository_writes_the_version_once_and_points_nowhere_outside():
    assert problems(texts_of_tree()) == []


def test_the_artifact_writes_the_version_once_and_points_nowhere_outside(built_copy):
    artifact, _names = built_copy
    files = {}
    with tarfile.open(artifact) as tar:
        for member in tar.getmembers():
            if member.isfile():
                files[member.name] = tar.extractfile(member).read().decode('utf-8', 'replace')
    assert problems(files) == []
    manifest = json.loads(files['MANIFEST.json'])['collection_info']
    assert manifest['version'] == galaxy_version()
    links = {key: manifest.get(key) for key in ('repository', 'documentation', 'homepage', 'issues')}
    assert links == {key: load_yaml('galaxy.yml')[key] for key in links}
    assert all(link.startswith(PUBLISHED + '/') or link == PUBLISHED for link in links.values()), links
    assert links['repository'] == PUBLISHED and links['issues'] == PUBLISHED + '/issues', links


# Galaxy and Automation Hub show README.md without the repository around it: a relative link would lead nowhere
PUBLISHED = 'https://github.com/nms-overlay/nms.overlay'
MARKDOWN_LINK = re.compile(r'\]\(([^)\s]+)\)')


def test_the_readme_links_only_absolute_addresses_and_anchors():
    with open(os.path.join(REPO, 'README.md'), encoding='utf-8') as stream:
        targets = MARKDOWN_LINK.findall(stream.read())
    assert targets, 'README.md has no link at all: the pattern is wrong'
    assert [target for target in targets if not target.startswith(('https://', '#'))] == []
    assert PUBLISHED + '/blob/main/CHANGELOG.rst' in targets


def test_the_user_agent_carries_galaxy_yml_s_version():
    from ansible_collections.nms.overlay.plugins.module_utils import _client  # pylint: disable=import-outside-toplevel
    assert _client.collection_version() == galaxy_version()
    assert _client.USER_AGENT == 'nms.overlay/%s (Ansible collection)' % galaxy_version()
