#!/usr/bin/env bash
# make test's demo stage, after `DEMO_KEEP=1 .ci/demo.sh`: the emulator it left running answers with the
# exports of .build/demo/env.sh (the inventory of the demo lists the enrolled hosts), and the stop command
# the demo printed stops it.
set -euo pipefail

cd "$(dirname "$0")/.."
out="$(pwd)/.build/demo"
for file in env.sh emulator.pid demo.nms.yml; do
  [ -f "$out/$file" ] || { echo "demo-kept: $out/$file is missing: did the demo run with DEMO_KEEP=1?" >&2; exit 1; }
done
pid=$(cat "$out/emulator.pid")
# a failed check still stops the kept emulator
trap 'kill "$pid" 2>/dev/null || true' EXIT
kill -0 "$pid" 2>/dev/null || { echo "demo-kept: the kept emulator (pid $pid) is not running" >&2; exit 1; }

# shellcheck disable=SC1091
source "$out/env.sh"
graph=$(ANSIBLE_NOCOLOR=1 ansible-inventory -i "$out/demo.nms.yml" --graph)
for host in demo-web-1 demo-web-2 demo-db-1; do
  grep -q -- "--$host\$" <<<"$graph" || { echo "demo-kept: $host is not in the kept emulator's inventory:" >&2; echo "$graph" >&2; exit 1; }
done
echo "demo-kept: the kept emulator at $NMS_API_URL answers with the exports of $out/env.sh"

# the stop command the demo printed
kill "$(cat "$out/emulator.pid")"
for _ in $(seq 1 100); do
  kill -0 "$pid" 2>/dev/null || { echo "demo-kept: stopped with kill \$(cat $out/emulator.pid)"; trap - EXIT; exit 0; }
  sleep 0.1
done
echo "demo-kept: the kept emulator (pid $pid) did not stop within 10 s of SIGTERM" >&2
exit 1
