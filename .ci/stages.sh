#!/usr/bin/env bash
# Runs `make STAGE` for each stage given, printing when each starts and how long it took (wall and CPU seconds),
# then a summary table. Every stage runs even when one fails; the exit status is non-zero if any failed.
#
#   .ci/stages.sh unit integration ...        the stages one after the other, in that order, their output as it comes
#   .ci/stages.sh -j 2 unit integration ...   two lanes at once (make test: the single-threaded stages such as sanity
#                                             use the core a pytest stage leaves idle). The lanes share one queue:
#                                             each lane, when free, takes the longest stage still waiting (by the
#                                             ESTIMATES below, or this checkout's last run of it), so the run ends
#                                             near (sum of the stages' times) / 2 instead of at the longer fixed
#                                             lane. A stage's output is printed whole when it ends (it is kept in
#                                             .build/stages/STAGE.log).
set -uo pipefail
total_start=$(date +%s)
logs=.build/stages
mkdir -p "$logs"

jobs=1
if [ "${1:-}" = "-j" ]; then
  jobs=$2
  shift 2
fi
stages=("$@")

# Seconds each stage took in CI (2 cores, two stages at once), the order in which a lane takes them: the longest first,
# so that short ones fill the end of both lanes. A stage not listed counts as 60 s; a stage this checkout ran before
# counts as long as it took then (.build/stages/STAGE.result). From the CI run of 2,927 s (lane 1 = unit integration
# real reliability, about 3,100 s; lane 2 = the rest), each stage's share estimated.
declare -A ESTIMATES=(
  [oldest]=1700 [next]=1600 [integration]=1500 [real]=800 [reliability]=500 [matrix]=400
  [unit]=300 [sanity]=300 [eda]=300 [lint]=150 [certify]=100 [docs]=100 [demo-kept]=60
)
estimate() {
  local stage=$1 name result seconds cpu
  if [ -f "$logs/$stage.result" ]; then
    IFS='|' read -r name result seconds cpu <"$logs/$stage.result"
    if [[ "$seconds" =~ ^[0-9]+$ ]]; then echo "$seconds"; return; fi
  fi
  echo "${ESTIMATES[$stage]:-60}"
}
queue="$logs/.queue"
if [ "$jobs" -gt 1 ]; then
  for stage in "${stages[@]}"; do printf '%s %s\n' "$(estimate "$stage")" "$stage"; done \
    | sort -s -k1,1nr | awk '{ print $2 }' >"$queue"
fi
rm -f "$logs"/*.result

# run_stage STAGE BUFFERED: runs it, writes "STAGE RESULT WALL CPU" to $logs/STAGE.result
run_stage() {
  local stage=$1 buffered=$2 start seconds result cpu log="$logs/$1.log" times="$logs/$1.times"
  echo "=== make $stage started $(date -u +%H:%M:%S), $(( $(date +%s) - total_start ))s into the run${3:+ ($3)}"
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

# take: prints the first stage of the queue and removes it (nothing when it is empty), under the queue's lock
take() {
  (
    flock 8
    local first
    first=$(head -n 1 "$queue")
    if [ -n "$first" ]; then
      tail -n +2 "$queue" >"$queue.new" && mv "$queue.new" "$queue"
      echo "$first"
    fi
  ) 8>"$queue.lock"
}

run_lane() {
  local lane=$1 stage
  while stage=$(take) && [ -n "$stage" ]; do
    run_stage "$stage" yes "lane $lane"
  done
}

if [ "$jobs" -le 1 ]; then
  for stage in "${stages[@]}"; do run_stage "$stage" no; done
else
  echo "=== ${#stages[@]} stages in $jobs lanes, the longest first: $(tr '\n' ' ' <"$queue")"
  pids=()
  for lane in $(seq 1 "$jobs"); do
    run_lane "$lane" &
    pids+=("$!")
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
  rm -f "$queue" "$queue.lock"
fi

echo
echo "stage              result              time    CPU"
failed=0
for stage in "${stages[@]}"; do
  if [ -f "$logs/$stage.result" ]; then
    IFS='|' read -r name result seconds cpu <"$logs/$stage.result"
  else
    name=$stage result="FAILED (no result)" seconds="?" cpu="?"
  fi
  [ "$result" = passed ] || failed=1
  printf '%-18s %-18s %5ss %5ss\n' "$name" "$result" "$seconds" "$cpu"
done
echo "total: $(( $(date +%s) - total_start ))s$([ "$jobs" -gt 1 ] && echo " ($jobs lanes at once, one queue)")"
if [ "$failed" -ne 0 ]; then
  echo "stages: FAILED" >&2
  exit 1
fi
echo "stages: all passed"
