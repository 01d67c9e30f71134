#!/usr/bin/env bash
# `make ee`: the build context of the execution environment (execution-environment.yml) in .build/ee.
#
#   bash .ci/ee.sh VENV_BIN          (VENV_BIN has ansible-builder: requirements-dev.txt)
#
# The image installs the collection from the artifact of `make build` for galaxy.yml's version. Without
# it, ansible-builder would write a build context that lacks the collection and still exit 0: so this
# fails first, naming the missing file. The artifact is copied under a name without the version
# (.build/ee-collection/nms-overlay.tar.gz), which is what execution-environment.yml refers to, so that
# the version is written in galaxy.yml only.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 VENV_BIN" >&2
  exit 2
fi
venv_bin=$1
cd "$(dirname "$0")/.."
version=$(bash .ci/version.sh)
artifact=.build/dist/nms-overlay-$version.tar.gz
context=.build/ee
if [ ! -f "$artifact" ]; then
  echo "ee: $artifact is missing (galaxy.yml's version is $version): run make build first; the execution environment installs the collection from it" >&2
  exit 1
fi
mkdir -p .build/ee-collection
cp "$artifact" .build/ee-collection/nms-overlay.tar.gz
"$venv_bin/ansible-builder" create --file execution-environment.yml --context "$context" --output-filename Containerfile
if [ ! -f "$context/_build/collections/nms-overlay.tar.gz" ]; then
  echo "ee: $context lacks the collection artifact: see execution-environment.yml's additional_build_files" >&2
  exit 1
fi
echo "ee: build context $context with $artifact"
echo "ee: build the image with: ansible-builder build --context $context --tag nms-overlay-ee:$version   (podman or docker)"
