#!/usr/bin/env bash
# make matrix: for every CORE:PYTHON pair given, a virtualenv with that ansible-core on that Python
# (.build/matrix/<core>-py<python>, kept while its requirements stay the same), then one pytest run of
# tests/integration/test_matrix.py over all of them: every module built, re-run with changed=0 and no
# write, check mode with no write (in the controller's worker: the module-process variant of that
# play runs in the whole suites on the oldest and newest), loops and hostile server data (both ways).
# Usage: .ci/matrix.sh PYTEST_PYTHON CORE:PYTHON...
set -euo pipefail
pytest_python=$1
shift
cd "$(dirname "$0")/.."
root=.build/matrix
mkdir -p "$root"
# the collection's runtime requirements, pinned as in requirements-dev.txt
runtime=$(grep -E '^(requests|pydantic)==' requirements-dev.txt | tr '\n' ' ')
pythons=()
for pair in "$@"; do
  core=${pair%%:*}
  version=${pair##*:}
  venv="$root/$core-py$version"
  wanted="ansible-core==$core $runtime"
  if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.requirements" 2>/dev/null)" = "$wanted" ]; then
    echo "matrix: $venv is ready"
  else
    start=$(date +%s)
    interpreter=$(.ci/python.sh "$version")
    rm -rf "$venv"
    # uv (requirements-dev.txt, on PATH from .venv) makes a venv and installs in seconds; pip as a fallback
    if command -v uv >/dev/null 2>&1; then
      uv venv --quiet --python "$interpreter" "$venv"
      # shellcheck disable=SC2086 # $wanted is a list of requirement specifiers
      uv pip install --quiet --python "$venv/bin/python" $wanted
    else
      "$interpreter" -m venv "$venv"
      # shellcheck disable=SC2086 # $wanted is a list of requirement specifiers
      "$venv/bin/python" -m pip install --disable-pip-version-check --quiet $wanted
    fi
    echo "$wanted" > "$venv/.requirements"
    echo "matrix: $venv installed in $(( $(date +%s) - start ))s"
  fi
  pythons+=("$(cd "$venv/bin" && pwd)/python")
done
joined=$(IFS=:; echo "${pythons[*]}")
echo "matrix: tests/integration/test_matrix.py on ${#pythons[@]} ansible-core / Python pairs"
rc=0
NMS_MATRIX_PYTHONS="$joined" NMS_EMULATOR_DIALECTS=netbird \
  "$pytest_python" -m pytest tests/integration/test_matrix.py -n 4 --dist load -p no:cacheprovider \
  -k "not (every_module and as-process)" || rc=$?
if [ "$rc" -eq 5 ]; then echo "ERROR: the matrix run collected no tests" >&2; fi
exit "$rc"
