# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Release packaging: the Galaxy artifact, the execution environment definition, the changelog.

The artifact is built twice: from a copy of the working tree with decoy virtualenvs, build
outputs and caches planted in it (so that galaxy.yml's build_ignore is proven to leave them out
whatever the local checkout holds), and from the working tree itself, as `make build` does.
"""

from __future__ import annotations

import os
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
        if FORBIDDEN_PARTS.intersection(parts) or name.startswith(FORBIDDEN_PREFIXES) or name.endswith(('.pyc', '.tar.gz')):
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
    tarball = 'nms-overlay-%s.tar.gz' % galaxy_version()
    assert [c['name'].rsplit('/', 1)[-1] for c in deps['galaxy']['collections']] == [tarball]
    assert [c.get('type') for c in deps['galaxy']['collections']] == ['file']
    assert [f['src'] for f in ee['additional_build_files']] == ['.build/dist/' + tarball]
    # the collection-level file names the same requirements
    assert load_yaml('meta/execution-environment.yml')['dependencies']['python'] == 'requirements.txt'


@pytest.mark.tooling
def test_ansible_builder_create_makes_a_build_context_offline(built_copy, tmp_path):
    pytest.importorskip('ansible_builder', reason='ansible-builder is not installed (requirements-dev.txt)')
    artifact, _names = built_copy
    project = tmp_path / 'project'
    (project / '.build' / 'dist').mkdir(parents=True)
    shutil.copy2(artifact, project / '.build' / 'dist')
    for rel in ('execution-environment.yml', 'requirements.txt'):
        shutil.copy2(os.path.join(REPO, rel), project / rel)
    context = tmp_path / 'context'
    result = subprocess.run(
        [os.path.join(BIN, 'ansible-builder'), 'create', '--file', 'execution-environment.yml', '--context', str(context),
         '--output-filename', 'Containerfile'],
        cwd=project, capture_output=True, text=True, check=False, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (context / '_build' / 'collections' / os.path.basename(artifact)).is_file()
    assert 'requests' in (context / '_build' / 'requirements.txt').read_text(encoding='utf-8')
    containerfile = (context / 'Containerfile').read_text(encoding='utf-8')
    assert 'ansible-galaxy collection install' in containerfile
    requirements = yaml.safe_load((context / '_build' / 'requirements.yml').read_text(encoding='utf-8'))
    assert requirements['collections'][0]['name'].endswith(os.path.basename(artifact))


CHANGELOG_TOOL = os.path.join(BIN, 'antsibull-changelog')


@pytest.mark.tooling
def test_changelog_fragments_pass_antsibull_changelog_lint():
    assert os.path.exists(CHANGELOG_TOOL), 'antsibull-changelog is not installed (requirements-dev.txt)'
    result = subprocess.run([CHANGELOG_TOOL, 'lint'], cwd=REPO, capture_output=True, text=True, check=False, timeout=120)
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout + result.stderr
    fragments = [name for name in os.listdir(os.path.join(REPO, 'changelogs', 'fragments')) if name.endswith('.yml')]
    assert fragments, 'no changelog fragment'


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
