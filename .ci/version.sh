#!/usr/bin/env bash
# Print the collection's version: galaxy.yml is the only place it is written.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^version:[[:space:]]*["'\'']\{0,1\}\([^"'\''[:space:]#]*\).*$/\1/p' galaxy.yml | head -n 1)
if [ -z "$version" ]; then
  echo "version.sh: galaxy.yml has no version: line" >&2
  exit 1
fi
echo "$version"
