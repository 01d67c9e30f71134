#!/usr/bin/env bash
# make rehearse: what CI does, here: a fresh clone of HEAD (committed work only) with ../shared linked where CI has it
# (beside the clone: the real servers' kit, the reference files), then .ci/run in it, as CI runs it. It catches what a warm
# checkout hides: virtualenvs that two lanes build at once on a clean clone, files only the working tree has,
# caches. The clone is kept for its logs.
#   .ci/rehearse.sh [DIR]    DIR: where to clone (default: a new directory under /tmp)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
base=${1:-$(mktemp -d /tmp/nms-rehearse.XXXXXX)}
# mktemp makes it 0700; CI's checkout is readable by every user, which test_sandbox's run as nobody needs
chmod 755 "$base"
clone="$base/ci/main"
mkdir -p "$base/ci"
git clone --quiet "$repo" "$clone"
if [ -d "$repo/../shared" ]; then  # all of it, as CI has it: the kit, and the reference files some tests read
  ln -s "$(cd "$repo/../shared" && pwd)" "$base/ci/shared"
fi
echo "rehearse: $(git -C "$clone" log --oneline -1 | cut -c1-100) in $clone"
if [ -n "$(git status --porcelain)" ]; then
  echo "rehearse: the working tree has uncommitted changes: they are not in the rehearsal"
fi
rc=0
(cd "$clone" && CI=true bash .ci/run) || rc=$?
echo "rehearse: .ci/run exited $rc; the stages' logs are in $clone/.build/stages/"
exit "$rc"
