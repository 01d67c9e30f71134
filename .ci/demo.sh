#!/usr/bin/env bash
# `make demo`: start the API emulator with a fresh token, run playbooks/demo.yml twice against it
# (the second run must report changed=0), then stop the emulator.
# Runs from the repository root with the virtualenv's bin/ first on PATH (the Makefile does that).
set -euo pipefail

cd "$(dirname "$0")/.."
repo=$(pwd)
python=$(command -v python)
dialect=${DEMO_DIALECT:-netbird}
playbook=${DEMO_PLAYBOOK:-playbooks/demo.yml}

if [ ! -f "$playbook" ]; then
  echo "demo: $playbook does not exist yet" >&2
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/nms-overlay-demo.XXXXXX")
emulator_pid=
cleanup() {
  if [ -n "$emulator_pid" ] && kill -0 "$emulator_pid" 2>/dev/null; then
    echo "demo: stopping the emulator (pid $emulator_pid)"
    kill "$emulator_pid" 2>/dev/null || true
    wait "$emulator_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# the collection, as Ansible expects to find it
mkdir -p "$work/collections/ansible_collections/nms"
ln -s "$repo" "$work/collections/ansible_collections/nms/overlay"

token=$("$python" -c 'from tests.emulator.tokens import make_token; print(make_token())')
echo "demo: starting the emulator (dialect $dialect)"
"$python" -m tests.emulator --port 0 --token "$token" --dialect "$dialect" \
  >"$work/emulator.out" 2>"$work/emulator.err" &
emulator_pid=$!

url=
for _ in $(seq 1 300); do
  url=$(sed -n 's/^ready \(.*\)$/\1/p' "$work/emulator.out" | head -n 1)
  [ -n "$url" ] && break
  if ! kill -0 "$emulator_pid" 2>/dev/null; then
    echo "demo: the emulator exited early:" >&2
    cat "$work/emulator.err" >&2
    exit 1
  fi
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "demo: the emulator printed no 'ready URL' line within 30s" >&2
  cat "$work/emulator.err" >&2
  exit 1
fi
echo "demo: emulator ready at $url"

export NMS_API_URL=$url
export NMS_API_TOKEN=$token
export ANSIBLE_COLLECTIONS_PATH="$work/collections"
export ANSIBLE_PYTHON_INTERPRETER="$python"
export ANSIBLE_LOCALHOST_WARNING=False
export ANSIBLE_INVENTORY_UNPARSED_WARNING=False

for pass in 1 2; do
  echo
  echo "demo: run $pass: ansible-playbook $playbook"
  ansible-playbook "$playbook" -e "ansible_python_interpreter=$python" "$@" | tee "$work/run$pass.log"
done

recap=$(sed -n '/^PLAY RECAP/,$p' "$work/run2.log")
if echo "$recap" | grep -Eq 'changed=[1-9]'; then
  echo "demo: FAILED: the second run changed something (it must be idempotent):" >&2
  echo "$recap" >&2
  exit 1
fi
echo
echo "demo: second run reported changed=0: done"
