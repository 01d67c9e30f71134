#!/usr/bin/env bash
# The release procedure (docs/dev/release.md, CONTRIBUTING.md "Releasing").
#
#   bash .ci/release.sh            `make release`: every step below, in order
#   bash .ci/release.sh changelog  steps 1 and 2 only (the changelog commit)
#   bash .ci/release.sh smoke      steps 3 and 5 only, on the working tree as it is (no checks of git, no certify):
#                                  what tests/integration/test_release.py runs in make test so the procedure cannot rot
#
# 1. check: the working tree is clean (nothing modified, nothing untracked), galaxy.yml's version is X.Y.Z, is not
#    older than the last release of changelogs/changelog.yaml, every version_added of plugins/ and roles/ is X.Y.Z or
#    an earlier release, and a tag vX.Y.Z, if there is one, is on HEAD.
# 2. changelog: unless changelog.yaml already has galaxy.yml's version, antsibull-changelog release turns the
#    fragments into the release's entry of changelogs/changelog.yaml and CHANGELOG.rst (the fragments go), and the
#    result is committed (RELEASE_COMMIT=0 leaves it uncommitted, to look at first).
# 3. build: make build, the artifact nms-overlay-X.Y.Z.tar.gz.
# 4. certify: galaxy-importer checks the artifact as Galaxy and Automation Hub would import it (make certify).
# 5. smoke: a new virtualenv with only requirements-dev.txt's ansible-core and the collection's runtime requirements
#    (requirements.txt, at requirements-dev.txt's pins), the artifact installed with ansible-galaxy collection install
#    into a scratch path (the only collection path), and a smoke play against the bundled API emulator: the
#    installed collection's build_network playbook twice (the second run must change nothing), a module and its
#    info module, the inventory plugin and ansible-doc of a module and a filter, all from the installed copy.
#
# Environment: RELEASE_OUT (scratch directory, default .build/release), PYTHON (the interpreter of the new venv),
# RELEASE_COMMIT (1), VENV_BIN (the development venv's bin, default .venv/bin: antsibull-changelog and uv).
set -euo pipefail

cd "$(dirname "$0")/.."
repo=$(pwd)
mode=${1:-all}
case $mode in
  all | changelog | smoke) ;;
  *) echo "usage: $0 [all|changelog|smoke]" >&2; exit 2 ;;
esac
out=${RELEASE_OUT:-$repo/.build/release}
venv_bin=${VENV_BIN:-$repo/.venv/bin}
version=$(bash .ci/version.sh)
say() { echo "release: $*"; }
fail() { echo "release: FAILED: $*" >&2; exit 1; }

# the versions changelogs/changelog.yaml has released, one a line
released_versions() {
  "$venv_bin/python" -c 'import sys, yaml; print("\n".join(sorted((yaml.safe_load(open(sys.argv[1])) or {}).get("releases") or {})))' \
    changelogs/changelog.yaml
}

check() {
  [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "galaxy.yml's version $version is not X.Y.Z"
  local dirty
  dirty=$(git status --porcelain --untracked-files=normal)
  [ -z "$dirty" ] || fail "the working tree is not clean (commit or remove these first):
$dirty"
  local last
  last=$(released_versions | sort -V | tail -n 1)
  if [ -n "$last" ] && [ "$last" != "$version" ] && [ "$(printf '%s\n%s\n' "$last" "$version" | sort -V | tail -n 1)" != "$version" ]; then
    fail "galaxy.yml's version $version is older than the last release $last of changelogs/changelog.yaml"
  fi
  # antsibull-changelog lists as new only the modules and plugins whose version_added is the release's version: a
  # version_added that no release has and that is not this one (0.1.0 before a first release 1.0.0) would leave them
  # out of the changelog and date them to a release that never was
  local unreleased
  unreleased=$(grep -rnoE "version_added: *['\"]?[0-9][0-9.]*" plugins roles | sed -E "s/version_added: *['\"]?//" \
    | awk -F: -v known="$(released_versions | tr '\n' ' ') $version" 'BEGIN { n = split(known, k, " "); for (i = 1; i <= n; i++) ok[k[i]] = 1 }
      !($3 in ok) { print $1 ":" $2 ": version_added " $3 }')
  [ -z "$unreleased" ] || fail "$(echo "$unreleased" | wc -l) version_added values are neither $version nor a release of changelogs/changelog.yaml (the first is $(echo "$unreleased" | head -n 1)): set them to $version"
  if git rev-parse -q --verify "refs/tags/v$version" >/dev/null; then
    [ "$(git rev-parse "v$version^{commit}")" = "$(git rev-parse HEAD)" ] \
      || fail "the tag v$version exists and is not on HEAD: galaxy.yml's version was released from another commit"
  fi
  say "the working tree is clean at $(git rev-parse --short HEAD), galaxy.yml's version is $version${last:+ (last release: $last)}"
}

changelog() {
  if released_versions | grep -qxF "$version"; then
    grep -q "^v${version//./\\.}$" CHANGELOG.rst 2>/dev/null \
      || fail "changelogs/changelog.yaml has $version but CHANGELOG.rst has no v$version section: run antsibull-changelog generate"
    say "changelog: $version is already released in changelogs/changelog.yaml: nothing to do"
    return
  fi
  say "changelog: antsibull-changelog release (version $version, from $(find changelogs/fragments -name '*.yml' | wc -l) fragments)"
  PATH="$venv_bin:$PATH" "$venv_bin/antsibull-changelog" lint
  # --reload-plugins: the plugin cache (changelogs/.plugin-cache.yaml, not in git) may predate the version_added values
  PATH="$venv_bin:$PATH" "$venv_bin/antsibull-changelog" release --reload-plugins
  released_versions | grep -qxF "$version" || fail "antsibull-changelog release did not record $version"
  grep -q "^v${version//./\\.}$" CHANGELOG.rst || fail "CHANGELOG.rst has no v$version section"
  if [ "${RELEASE_COMMIT:-1}" = 1 ]; then
    git add -A CHANGELOG.rst changelogs
    git commit -q -m "Release $version: CHANGELOG.rst and changelogs/changelog.yaml from the fragments (antsibull-changelog release)"
    say "changelog: committed $(git rev-parse --short HEAD); tag it when the release is done: git tag v$version"
  else
    say "changelog: RELEASE_COMMIT=0: CHANGELOG.rst and changelogs/ are left uncommitted"
  fi
}

build() {
  local build_dir=$1
  make build BUILD="$build_dir"
  artifact="$build_dir/dist/nms-overlay-$version.tar.gz"
  [ -f "$artifact" ] || fail "make build wrote no $artifact"
  say "build: $artifact ($(du -h "$artifact" | cut -f1))"
}

certify() {
  make certify ARTIFACT="$artifact"  # galaxy-importer with ansible-lint on the artifact (.ci/certify.sh)
}

# a new virtualenv with only ansible-core and the runtime requirements, in seconds with uv (requirements-dev.txt)
clean_venv() {
  local venv=$1 core
  core=$(grep -E '^ansible-core==' requirements-dev.txt) || fail "requirements-dev.txt pins no ansible-core"
  rm -rf "$venv"
  local start
  start=$(date +%s)
  if [ -x "$venv_bin/uv" ]; then
    "$venv_bin/uv" venv --quiet --python "$python" "$venv"
    "$venv_bin/uv" pip install --quiet --python "$venv/bin/python" -c requirements-dev.txt "$core" -r requirements.txt
  else
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --disable-pip-version-check --quiet -c requirements-dev.txt "$core" -r requirements.txt
  fi
  say "smoke: $venv with $core and requirements.txt in $(( $(date +%s) - start ))s: $("$venv/bin/python" -c 'import ansible.release, pydantic, requests; print("ansible-core", ansible.release.__version__, "pydantic", pydantic.VERSION, "requests", requests.__version__)')"
}

smoke() {
  local venv="$out/venv" collections="$out/collections" play="$out/play"
  rm -rf "$collections" "$play"
  mkdir -p "$play"
  clean_venv "$venv"
  "$venv/bin/ansible-galaxy" collection install --force -p "$collections" "$artifact" >"$out/install.log" 2>&1 \
    || { cat "$out/install.log" >&2; fail "ansible-galaxy collection install $artifact"; }
  [ -f "$collections/ansible_collections/nms/overlay/MANIFEST.json" ] && [ ! -L "$collections/ansible_collections/nms/overlay" ] \
    || fail "the artifact did not install into $collections"

  # only the installed copy: no other collection path, no ~/.ansible, and the play runs outside the repository
  export ANSIBLE_COLLECTIONS_PATH="$collections" ANSIBLE_COLLECTIONS_SCAN_SYS_PATH=false ANSIBLE_HOME="$out/ansible-home"
  export ANSIBLE_PYTHON_INTERPRETER="$venv/bin/python" ANSIBLE_LOCALHOST_WARNING=False ANSIBLE_INVENTORY_UNPARSED_WARNING=False
  export ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0
  local listed
  listed=$(cd "$play" && "$venv/bin/ansible-galaxy" collection list nms.overlay 2>&1)
  echo "$listed" | grep -Eq "^nms\.overlay +$version *$" || fail "ansible-galaxy collection list does not show nms.overlay $version:
$listed"
  echo "$listed" | grep -qF "$collections" || fail "nms.overlay is not listed under $collections:
$listed"

  # the bundled emulator (a test tool of the repository, not of the artifact: it needs only the standard library)
  local token url='' emulator_pid
  token=$(cd "$repo" && "$venv/bin/python" -c 'from tests.emulator.tokens import make_token; print(make_token())')
  : >"$out/emulator.out"
  (cd "$repo" && exec "$venv/bin/python" -m tests.emulator --port 0 --token "$token" --dialect netbird) \
    >"$out/emulator.out" 2>"$out/emulator.err" &
  emulator_pid=$!
  # shellcheck disable=SC2064  # the pid now, not at exit
  trap "kill $emulator_pid 2>/dev/null || true" EXIT
  for _ in $(seq 1 300); do
    url=$(sed -n 's/^ready \(.*\)$/\1/p' "$out/emulator.out" | head -n 1)
    [ -n "$url" ] && break
    kill -0 "$emulator_pid" 2>/dev/null || { cat "$out/emulator.err" >&2; fail "the emulator exited early"; }
    sleep 0.1
  done
  [ -n "$url" ] || { cat "$out/emulator.err" >&2; fail "the emulator printed no 'ready URL' line within 30s"; }
  export NMS_API_URL=$url NMS_API_TOKEN=$token
  say "smoke: emulator at $url; plays run in $play with only $collections"

  cat >"$play/smoke.yml" <<'EOF'
---
- name: Smoke play of the installed nms.overlay
  hosts: localhost
  gather_facts: false
  tasks:
    - name: Create a group
      nms.overlay.group:
        name: release-smoke
      register: created
    - name: Create it again
      nms.overlay.group:
        name: release-smoke
      register: again
    - name: Read the groups
      nms.overlay.group_info:
      register: found
    - name: The module changed once, the info module sees the group beside build_network's
      ansible.builtin.assert:
        that:
          - created is changed
          - again is not changed
          - "'release-smoke' in (found.groups | map(attribute='name'))"
          - found.groups | length > 1
        quiet: true
EOF
  cat >"$play/smoke.nms.yml" <<'EOF'
plugin: nms.overlay.peers
EOF
  local run
  for run in 1 2; do
    (cd "$play" && "$venv/bin/ansible-playbook" nms.overlay.build_network -e "network_secrets_file=$play/secrets.json") \
      >"$out/build-$run.log" 2>&1 || { cat "$out/build-$run.log" >&2; fail "ansible-playbook nms.overlay.build_network (run $run)"; }
  done
  grep -Eq 'localhost +: ok=[0-9]+ +changed=[1-9]' "$out/build-1.log" || fail "the first build_network run changed nothing ($out/build-1.log)"
  grep -Eq 'localhost +: ok=[0-9]+ +changed=0 ' "$out/build-2.log" || fail "the second build_network run changed something ($out/build-2.log)"
  (cd "$play" && "$venv/bin/ansible-playbook" smoke.yml) >"$out/smoke.log" 2>&1 \
    || { cat "$out/smoke.log" >&2; fail "the smoke play"; }
  (cd "$play" && "$venv/bin/ansible-inventory" -i smoke.nms.yml --list) >"$out/inventory.json" 2>"$out/inventory.err" \
    || { cat "$out/inventory.err" >&2; fail "ansible-inventory with nms.overlay.peers"; }
  (cd "$play" && "$venv/bin/ansible-doc" nms.overlay.group && "$venv/bin/ansible-doc" -t filter nms.overlay.access_matrix) \
    >"$out/ansible-doc.txt" 2>&1 || { cat "$out/ansible-doc.txt" >&2; fail "ansible-doc of nms.overlay.group and nms.overlay.access_matrix"; }
  kill "$emulator_pid" 2>/dev/null || true
  wait "$emulator_pid" 2>/dev/null || true
  trap - EXIT
  say "smoke: passed: build_network changed then changed=0, the smoke play, the peers inventory and ansible-doc, from $collections"
}

python=${PYTHON:-$(.ci/python.sh 3.13 2>/dev/null || .ci/python.sh 3.12)}
mkdir -p "$out"
start=$(date +%s)
case $mode in
  changelog)
    check
    changelog
    ;;
  smoke)
    build "$out/build"
    smoke
    ;;
  all)
    check
    changelog
    build "$repo/.build"
    certify
    smoke
    say "nms.overlay $version is ready: $artifact (tag the release commit: git tag v$version)"
    ;;
esac
say "$mode finished in $(( $(date +%s) - start ))s"
