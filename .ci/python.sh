#!/usr/bin/env bash
# Prints the path of a Python X.Y interpreter (the argument, e.g. 3.13): pythonX.Y on PATH when it runs,
# else the newest X.Y that pyenv installed. Fails naming what it looked for.
set -euo pipefail
want=${1:?usage: .ci/python.sh X.Y}
if command -v "python$want" >/dev/null 2>&1 && "python$want" -c 'import sys' >/dev/null 2>&1; then
  command -v "python$want"
  exit 0
fi
root=$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")
found=$(find "$root/versions" -maxdepth 3 -path "*/versions/$want.*/bin/python$want" 2>/dev/null | sort -V | tail -n 1)
if [ -n "$found" ] && "$found" -c 'import sys' >/dev/null 2>&1; then
  echo "$found"
  exit 0
fi
echo "error: no Python $want: neither python$want on PATH nor $root/versions/$want.*/bin/python$want" >&2
exit 1
