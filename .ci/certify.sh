#!/usr/bin/env bash
# make certify: galaxy-importer (as Galaxy and Automation Hub run it on an upload) on the artifact of make build,
# with ansible-lint on and ansible-test off (it needs a container or the network). Fails on any ERROR or WARNING line.
#   .ci/certify.sh VENV_BIN
set -euo pipefail
bin=${1:?usage: .ci/certify.sh VENV_BIN}
scratch=.build/certify
rm -rf "$scratch"; mkdir -p "$scratch/dist"
make --no-print-directory build BUILD="$scratch" >/dev/null
artifact=$(ls "$scratch"/dist/*.tar.gz)
cat >"$scratch/galaxy-importer.cfg" <<'CFG'
[galaxy-importer]
run_ansible_lint = True
offline_ansible_lint = True
run_ansible_test = False
check_changelog = True
CFG
echo "certify: $("$bin/python" -m pip show galaxy-importer 2>/dev/null | grep '^Version' ) on $artifact"
rc=0
# from inside the scratch directory: the importer writes importer_result.json into its working directory
(cd "$scratch" && GALAXY_IMPORTER_CONFIG=galaxy-importer.cfg PATH="$bin:$PATH" "$bin/python" -m galaxy_importer.main \
  "dist/$(basename "$artifact")" >import.log 2>&1) || rc=$?
cat "$scratch/import.log"
if [ "$rc" -ne 0 ] || grep -E '^(ERROR|WARNING)' "$scratch/import.log" >/dev/null; then
  echo "certify: FAILED: galaxy-importer exited $rc or reported the ERROR/WARNING lines above" >&2
  exit 1
fi
echo "certify: passed (no ERROR or WARNING)"
