#!/usr/bin/env bash
# make rehearse: what CI does, here: a fresh clone of HEAD (committed work only) with the real servers' kit and the
# reference files linked where CI has them (beside the clone), then .ci/run in it, as CI runs it. It catches what a warm
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
if [ -d "$repo/../shared/servers" ]; then
  mkdir -p "$base/ci/shared"
  kit=$(cd "$repo/../shared/servers" && pwd)
  ln -s "$kit" "$base/ci/shared/servers"
  # and the reference files beside the kit, as CI has them (the endpoint shapes scenario reads the OpenAPI file)
  [ ! -d "$(dirname "$kit")/reference" ] || ln -s "$(dirname "$kit")/reference" "$base/ci/shared/"
fi
echo "rehearse: $(git -C "$clone" log --oneline -1 | cut -c1-100) in $clone"
if [ -n "$(git status --porcelain)" ]; then
  echo "rehearse: the working tree has uncommitted changes: they are not in the rehearsal"
fi
rc=0
(cd "$clone" && CI=true bash .ci/run) || rc=$?
echo "rehearse: .ci/run exited $rc; the stages' logs are in $clone/.build/stages/"
exit "$rc"
