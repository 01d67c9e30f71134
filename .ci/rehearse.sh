#!/usr/bin/env bash
# make rehearse: what CI does, here: a fresh clone of HEAD (committed work only) with the shared kit linked beside
# it, then .ci/run in it, as CI runs it. It catches what a warm checkout hides: virtualenvs that two lanes build at
# once on a clean clone, files only the working tree has, caches. The clone is kept for its logs.
#   .ci/rehearse.sh [DIR]    DIR: where to clone (default: a new directory under /tmp)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
base=${1:-$(mktemp -d /tmp/nms-rehearse.XXXXXX)}
mkdir -p "$base/work"
git clone --quiet "$repo" "$base/work/main"
if [ -d "$repo/../shared" ]; then
  ln -s "$(cd "$repo/../shared" && pwd)" "$base/work/shared"
fi
echo "rehearse: $(git -C "$base/work/main" log --oneline -1 | cut -c1-100) in $base/work/main"
if [ -n "$(git status --porcelain)" ]; then
  echo "rehearse: the working tree has uncommitted changes: they are not in the rehearsal"
fi
rc=0
(cd "$base/work/main" && CI=true bash .ci/run) || rc=$?
echo "rehearse: .ci/run exited $rc; the stages' logs are in $base/work/main/.build/stages/"
exit "$rc"
