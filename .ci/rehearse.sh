#!/usr/bin/env bash
# make rehearse: what CI does, here: a fresh clone of HEAD (committed work only) with the real servers' kit linked
# where CI has it (../shared/servers beside the clone), then .ci/run in it, as CI runs it. It catches what a warm
# checkout hides: virtualenvs that two lanes build at once on a clean clone, files only the working tree has,
# caches. The clone is kept for its logs.
#   .ci/rehearse.sh [DIR]    DIR: where to clone (default: a new directory under /tmp)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
base=${1:-$(mktemp -d /tmp/nms-rehearse.XXXXXX)}
clone="$base/ci/main"
mkdir -p "$base/ci"
git clone --quiet "$repo" "$clone"
if [ -d "$repo/../shared/servers" ]; then
  mkdir -p "$base/ci/shared"
  ln -s "$(cd "$repo/../shared/servers" && pwd)" "$base/ci/shared/servers"
fi
echo "rehearse: $(git -C "$clone" log --oneline -1 | cut -c1-100) in $clone"
if [ -n "$(git status --porcelain)" ]; then
  echo "rehearse: the working tree has uncommitted changes: they are not in the rehearsal"
fi
rc=0
(cd "$clone" && CI=true bash .ci/run) || rc=$?
echo "rehearse: .ci/run exited $rc; the stages' logs are in $clone/.build/stages/"
exit "$rc"
