#!/usr/bin/env bash
# Runs `make STAGE` for each stage given, printing when each starts and how long it took (wall and CPU seconds),
# then a summary table. Every stage runs even when one fails; the exit status is non-zero if any failed.
#
#   .ci/stages.sh unit integration ...              the stages one after the other, their output as it comes
#   .ci/stages.sh unit integration -- sanity lint   two lanes at once (make test: the single-threaded stages such
#                                                   as sanity use the core the pytest stages leave idle); each lane
#                                                   runs its stages in order, and a stage's output is printed whole
#                                                   when it ends (it is kept in .build/stages/STAGE.log)
set -uo pipefail
total_start=$(date +%s)
logs=.build/stages
mkdir -p "$logs"
rm -f "$logs"/*.result

lanes=()
current=""
for arg in "$@"; do
  if [ "$arg" = "--" ]; then
    lanes+=("$current")
    current=""
  else
    current="$current $arg"
  fi
done
lanes+=("$current")

# run_stage STAGE BUFFERED: runs it, writes "STAGE RESULT WALL CPU" to $logs/STAGE.result
run_stage() {
  local stage=$1 buffered=$2 start seconds result cpu log="$logs/$1.log" times="$logs/$1.times"
  echo "=== make $stage started $(date -u +%H:%M:%S), $(( $(date +%s) - total_start ))s into the run"
  start=$(date +%s)
  local status=0
  if [ "$buffered" = yes ]; then
    { TIMEFORMAT='%U %S'; time make --no-print-directory "$stage" >"$log" 2>&1; } 2>"$times" || status=$?
  else
    { TIMEFORMAT='%U %S'; time make --no-print-directory "$stage" 2>&1 | tee "$log"; } 2>"$times" || status=$?
  fi
  seconds=$(( $(date +%s) - start ))
  cpu=$(awk '{ printf "%d", $1 + $2 }' "$times" 2>/dev/null || echo "?")
  if [ "$status" -eq 0 ]; then result=passed; else result="FAILED (exit $status)"; fi
  if [ "$buffered" = yes ]; then
    # one stage's output at a time (the other lane may end a stage at the same moment)
    (
      flock 9
      echo "=== make $stage output ($log):"
      cat "$log"
      echo "=== make $stage $result in ${seconds}s (CPU ${cpu}s)"
    ) 9>"$logs/.print.lock"
  else
    echo "=== make $stage $result in ${seconds}s (CPU ${cpu}s)"
  fi
  printf '%s|%s|%s|%s\n' "$stage" "$result" "$seconds" "$cpu" >"$logs/$stage.result"
}

run_lane() {
  local buffered=$1 stage
  shift
  for stage in "$@"; do
    run_stage "$stage" "$buffered"
  done
}

if [ "${#lanes[@]}" -eq 1 ]; then
  # shellcheck disable=SC2086 # a lane is a list of stage names
  run_lane no ${lanes[0]}
else
  pids=()
  for lane in "${lanes[@]}"; do
    # shellcheck disable=SC2086 # a lane is a list of stage names
    run_lane yes $lane &
    pids+=("$!")
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
fi

echo
echo "stage              result              time    CPU"
failed=0
for lane in "${lanes[@]}"; do
  for stage in $lane; do
    if [ -f "$logs/$stage.result" ]; then
      IFS='|' read -r name result seconds cpu <"$logs/$stage.result"
    else
      name=$stage result="FAILED (no result)" seconds="?" cpu="?"
    fi
    [ "$result" = passed ] || failed=1
    printf '%-18s %-18s %5ss %5ss\n' "$name" "$result" "$seconds" "$cpu"
  done
done
echo "total: $(( $(date +%s) - total_start ))s$([ "${#lanes[@]}" -gt 1 ] && echo " (${#lanes[@]} lanes at once)")"
if [ "$failed" -ne 0 ]; then
  echo "stages: FAILED" >&2
  exit 1
fi
echo "stages: all passed"
