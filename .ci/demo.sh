#!/usr/bin/env bash
# `make demo`: start the API emulator, build the example network (nms.overlay.build_network), enroll
# three simulated hosts (nms.overlay.enroll_hosts), build the network again (must report changed=0),
# write an audit report and the peers inventory, then stop the emulator. With DEMO_KEEP=1 the emulator
# stays running after a successful run, to explore (.build/demo/env.sh has the exports; the last lines say
# how to stop it).
# Runs in a small virtualenv of its own, .build/demo-venv (DEMO_VENV), with only requirements-demo.txt (ansible-core
# and the collection's runtime requirements), not the development tooling of .venv: made here with $PYTHON (the
# Makefile's, else Python 3.13 or 3.12) when it is missing or requirements-demo.txt changed, reused otherwise.
set -euo pipefail

cd "$(dirname "$0")/.."
repo=$(pwd)

venv=${DEMO_VENV:-$repo/.build/demo-venv}
requirements="$repo/requirements-demo.txt"
mkdir -p "$(dirname "$venv")"
exec 8>"$venv.lock"
flock 8  # two demos started at once build it one at a time
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import ansible, requests, pydantic' >/dev/null 2>&1 \
    && cmp -s "$requirements" "$venv/.requirements.txt"; then
  echo "demo: $venv is up to date with requirements-demo.txt"
else
  start=$(date +%s)
  base=${PYTHON:-$(.ci/python.sh 3.13 2>/dev/null || .ci/python.sh 3.12)}
  echo "demo: creating $venv with $("$base" --version 2>&1) and requirements-demo.txt only (ansible-core, requests, pydantic)"
  rm -rf "$venv"
  "$base" -m venv "$venv"
  "$venv/bin/python" -m pip install --disable-pip-version-check --quiet -r "$requirements"
  cp "$requirements" "$venv/.requirements.txt"
  echo "demo: $venv installed in $(( $(date +%s) - start ))s ($(du -sh "$venv" | cut -f1))"
fi
exec 8>&-
export PATH="$venv/bin:$PATH"
python="$venv/bin/python"
dialect=${DEMO_DIALECT:-netbird}
keep=${DEMO_KEEP:-0}
out="$repo/.build/demo"
# everything the outputs point at (collection link, agents' state, emulator output) stays under $out
work="$out/run"

emulator_pid=
cleanup() {
  if [ -n "$emulator_pid" ] && kill -0 "$emulator_pid" 2>/dev/null; then
    echo "demo: stopping the emulator (pid $emulator_pid)"
    kill "$emulator_pid" 2>/dev/null || true
    wait "$emulator_pid" 2>/dev/null || true
  fi
}
trap cleanup EXIT
# the emulator an earlier DEMO_KEEP=1 run left running is stopped before its directory goes
if [ -f "$out/emulator.pid" ]; then
  old_pid=$(cat "$out/emulator.pid")
  # only if that pid is still the emulator (a pid is reused once its process has ended)
  if kill -0 "$old_pid" 2>/dev/null && tr '\0' ' ' <"/proc/$old_pid/cmdline" 2>/dev/null | grep -q 'tests.emulator'; then
    echo "demo: stopping the emulator the last DEMO_KEEP=1 run left running (pid $old_pid)"
    kill "$old_pid" 2>/dev/null || true
  fi
fi
rm -rf "$out"
mkdir -p "$work"

# the collection, as Ansible expects to find it
mkdir -p "$work/collections/ansible_collections/nms"
ln -s "$repo" "$work/collections/ansible_collections/nms/overlay"

token=$("$python" -c 'from tests.emulator.tokens import make_token; print(make_token())')
echo "demo: starting the emulator (dialect $dialect)"
# made here, so that the wait below can read them before the background job has opened them
: >"$work/emulator.out"
: >"$work/emulator.err"
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
export ANSIBLE_NOCOLOR=${ANSIBLE_NOCOLOR:-1}

# three simulated hosts: the emulator's fake agent stands in for the real one
cat >"$out/hosts.yml" <<EOF
nms_enroll:
  hosts:
    demo-web-1: {}
    demo-web-2: {}
    demo-db-1: {}
  vars:
    ansible_connection: local
    ansible_become: false
    ansible_python_interpreter: $python
    enroll_install_agent: false
    enroll_agent_command: [$python, -m, tests.emulator.agent]
    enroll_agent_args: [--state-dir, "$work/agents/{{ inventory_hostname }}"]
    enroll_agent_environment: {PYTHONPATH: "$repo"}
    enroll_groups: [servers]
EOF
cat >"$out/demo.nms.yml" <<EOF
plugin: nms.overlay.peers
hostname_source: name
EOF

step() {
  local name=$1
  shift
  echo
  echo "demo: $name: $*"
  "$@" | tee "$out/$name.log"
}

# the created setup key's value goes to a private file (mode 0600), never to the output
secrets="$out/created-secrets.json"
step build-1 ansible-playbook nms.overlay.build_network -e "network_secrets_file=$secrets"
step enroll ansible-playbook -i "$out/hosts.yml" nms.overlay.enroll_hosts
step build-2 ansible-playbook nms.overlay.build_network -e "network_secrets_file=$secrets"
step audit ansible-playbook nms.overlay.audit_report -e "nms_audit_report=$out/audit-report.json"
echo
echo "demo: ansible-inventory -i $out/demo.nms.yml --graph"
ansible-inventory -i "$out/demo.nms.yml" --list >"$out/inventory.json"
ansible-inventory -i "$out/demo.nms.yml" --graph

# The picture of who reaches whom (nms.overlay.access_report), as a Markdown table and an HTML page.
step access ansible-playbook nms.overlay.access_report \
  -e "nms_access_report_markdown=$out/access-report.md" -e "nms_access_report_html=$out/access-report.html"

recap=$(sed -n '/^PLAY RECAP/,$p' "$out/build-2.log")
if ! echo "$recap" | grep -q 'changed=0' || echo "$recap" | grep -Eq 'changed=[1-9]'; then
  echo "demo: FAILED: the second build_network run changed something (it must be idempotent):" >&2
  echo "$recap" >&2
  exit 1
fi
echo
echo "demo: the second build_network run reported changed=0"
echo "demo: audit report:      $out/audit-report.json"
echo "demo: peers inventory:   $out/inventory.json (from $out/demo.nms.yml)"
echo "demo: access report:     $out/access-report.md"
echo "demo:                    $out/access-report.html (open it in a browser)"
echo "demo: created key value: $secrets (mode 0600)"
echo "demo: playbook logs:     $out/*.log"

if [ "$keep" = 1 ]; then
  # the exports, for the user's shell (and for .ci/demo-kept.sh, which checks and stops the kept emulator)
  cat >"$out/env.sh" <<EOF
export NMS_API_URL=$url
export NMS_API_TOKEN=$token
export ANSIBLE_COLLECTIONS_PATH=$work/collections
export PATH=$(dirname "$python"):\$PATH
EOF
  echo "$emulator_pid" >"$out/emulator.pid"
  echo
  echo "demo: DEMO_KEEP=1: the emulator keeps running at $url (pid $emulator_pid). Explore it:"
  echo "  source $out/env.sh"
  echo "  ansible-inventory -i $out/demo.nms.yml --graph"
  echo "  ansible localhost -m nms.overlay.policy_info"
  echo "demo: stop it with: kill \$(cat $out/emulator.pid) && rm $out/emulator.pid"
  emulator_pid=  # so that the EXIT trap leaves it running
fi
