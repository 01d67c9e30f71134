#!/usr/bin/env bash
# Build the nms.overlay documentation site, offline, failing on any warning.
#
#   bash .ci/docs.sh VENV_BIN OUTPUT_DIR        (what `make docs` runs)
#
# VENV_BIN is the bin/ directory of a virtualenv with ansible-core, antsibull-docs, sphinx,
# sphinx-ansible-theme and myst-parser (see requirements-dev.txt). OUTPUT_DIR receives the HTML
# site (OUTPUT_DIR/index.html); it is emptied first.
#
# 1. The working tree (tracked and untracked, not ignored, files: .ci/stage.py) is staged as
#    WORK/collections/ansible_collections/nms/overlay, and only that directory is on
#    ANSIBLE_COLLECTIONS_PATH, so the docs show exactly this tree.
# 2. antsibull-docs lint-collection-docs --plugin-docs checks every module's, plugin's and role's
#    documentation (markup, references such as M(...) and O(...), schema).
# 3. antsibull-docs collection writes one RST page per module, plugin and role (with options,
#    return values and examples), plus the collection and plugin indexes.
# 4. The changelog page: CHANGELOG.rst as `make changelog` wrote it at the last release; before the first
#    release (no CHANGELOG.rst yet), what antsibull-changelog would write for galaxy.yml's version from
#    the fragments, made in the staged copy only.
# 5. The root page and the Markdown guides from docs/ are added, and sphinx-build -W --keep-going
#    renders the site with docs/site/conf.py: any warning fails the build (after all are shown).
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 VENV_BIN OUTPUT_DIR" >&2
  exit 2
fi
venv_bin=$(cd "$1" && pwd)
output=$2
repo=$(cd "$(dirname "$0")/.." && pwd)
# every guide of docs/ (a list here forgot a new one); docs/site/index.rst's toctree orders them
guides=()
for guide in "$repo"/docs/*.md; do guides+=("$(basename "$guide")"); done

for tool in python ansible-doc antsibull-docs antsibull-changelog sphinx-build; do
  if [ ! -x "$venv_bin/$tool" ]; then
    echo "docs: $venv_bin/$tool not found: install the docs tooling of requirements-dev.txt" >&2
    exit 2
  fi
done

start=$(date +%s)
work=$(mktemp -d "${TMPDIR:-/tmp}/nms-overlay-docs.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Only the venv's tools, only the staged collection, no ~/.ansible or site-packages collections.
export PATH="$venv_bin:$PATH"
export ANSIBLE_COLLECTIONS_PATH="$work/collections"
export ANSIBLE_COLLECTIONS_SCAN_SYS_PATH=false
export ANSIBLE_HOME="$work/ansible-home"
export ANSIBLE_NOCOLOR=1

collection=$(cd "$repo" && "$venv_bin/python" .ci/stage.py "$work/collections" 2>/dev/null)
echo "docs: staged the working tree as $collection"

echo "docs: antsibull-docs lint-collection-docs --plugin-docs"
antsibull-docs lint-collection-docs --plugin-docs "$collection"

echo "docs: antsibull-docs collection (one page per module, plugin and role)"
src="$work/rst"
mkdir -m 700 "$src"  # antsibull-docs writes only into a directory no one else can write to
antsibull-docs --config-file "$repo/docs/site/antsibull-docs.cfg" collection \
  --use-current --fail-on-error --cleanup everything --dest-dir "$src" nms.overlay >"$work/antsibull-docs.log" \
  || { cat "$work/antsibull-docs.log" >&2; exit 1; }

if [ ! -f "$collection/CHANGELOG.rst" ]; then
  echo "docs: no CHANGELOG.rst yet: the changelog page shows what make changelog would write"
  (cd "$collection" && antsibull-changelog release --date "$(date -u +%Y-%m-%d)" >"$work/antsibull-changelog.log" 2>&1) \
    || { cat "$work/antsibull-changelog.log" >&2; exit 1; }
fi
cp "$collection/CHANGELOG.rst" "$src/changelog.rst"

cp "$repo/docs/site/index.rst" "$src/index.rst"
for guide in "${guides[@]}"; do
  cp "$repo/docs/$guide" "$src/$guide"
done

echo "docs: sphinx-build -W (warnings are errors)"
rm -rf "$output"
mkdir -p "$output"
sphinx-build -b html -W --keep-going -q -j auto -c "$repo/docs/site" -d "$work/doctrees" "$src" "$output"

pages=$(find "$output" -name '*.html' | wc -l)
echo "docs: $pages HTML pages in $(( $(date +%s) - start ))s; open $(cd "$output" && pwd)/index.html"
