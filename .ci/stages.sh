#!/usr/bin/env bash
# Runs `make STAGE` for each stage given, printing when each starts and how long it took, then a
# summary table. Every stage runs even when one fails; the exit status is non-zero if any failed.
set -uo pipefail
declare -a summary=()
failed=0
total_start=$(date +%s)
count=$#
index=0
for stage in "$@"; do
  index=$((index + 1))
  echo "=== stage $index/$count: make $stage (started $(date -u +%H:%M:%S), $(( $(date +%s) - total_start ))s into the run)"
  start=$(date +%s)
  if make --no-print-directory "$stage"; then
    result=passed
  else
    result="FAILED (exit $?)"
    failed=1
  fi
  seconds=$(( $(date +%s) - start ))
  echo "=== stage $index/$count: make $stage $result in ${seconds}s"
  summary+=("$(printf '%-12s %-18s %5ss' "$stage" "$result" "$seconds")")
done
echo
echo "stage        result              time"
printf '%s\n' "${summary[@]}"
echo "total: $(( $(date +%s) - total_start ))s"
if [ "$failed" -ne 0 ]; then
  echo "make test: FAILED" >&2
  exit 1
fi
echo "make test: all checks passed"
