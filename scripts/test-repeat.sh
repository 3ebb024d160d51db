#!/usr/bin/env bash
# Runs `make test` N times in a row and says how many passed and how long the slowest took:
#   scripts/test-repeat.sh 10          # on an idle machine
#   scripts/test-repeat.sh --load 3    # with a busy loop per core beside it, started and ended here
# Each run's output goes to .build/test-repeat/run-K.log; the exit status is 0 only when every run passed.
set -uo pipefail
cd "$(dirname "$0")/.."

load=0
if [ "${1:-}" = "--load" ]; then
    load=1
    shift
fi
runs=${1:-10}
case "$runs" in '' | *[!0-9]*) echo "usage: scripts/test-repeat.sh [--load] N" >&2; exit 2 ;; esac

logs=.build/test-repeat
mkdir -p "$logs"
busy=()
current=""
stop_load() {
    [ ${#busy[@]} -gt 0 ] && kill "${busy[@]}" 2>/dev/null
    busy=()
}
# Stopped midway, the run under way stops too: each step's runner then ends what its step started.
stop_run() {
    if [ -n "$current" ]; then
        pkill -TERM -P "$current" 2>/dev/null
        kill "$current" 2>/dev/null
        wait "$current" 2>/dev/null
    fi
    exit 130
}
trap stop_load EXIT
trap stop_run INT TERM
if [ "$load" = 1 ]; then
    for _ in $(seq "$(nproc)"); do
        sh -c 'while :; do :; done' &
        busy+=($!)
    done
    echo "load: ${#busy[@]} busy loops (pids ${busy[*]})"
fi

passed=0
slowest=0
slowest_run=0
for run in $(seq "$runs"); do
    started=$(date +%s%N)
    make test > "$logs/run-$run.log" 2>&1 &
    current=$!
    if wait "$current"; then
        result=passed
        passed=$((passed + 1))
    else
        result="FAILED (see $logs/run-$run.log)"
    fi
    milliseconds=$((($(date +%s%N) - started) / 1000000))
    if [ "$milliseconds" -gt "$slowest" ]; then
        slowest=$milliseconds
        slowest_run=$run
    fi
    steps=$(grep -o "test step '[a-z-]*': exit [0-9]* after [0-9.]* s" "$logs/run-$run.log" | sed -E "s/test step '([a-z-]*)': exit ([0-9]*) after ([0-9.]*) s/\1 \3 s (exit \2)/" | paste -sd, -)
    printf 'run %d: %s in %d.%d s (%s)\n' "$run" "$result" $((milliseconds / 1000)) $((milliseconds % 1000 / 100)) "$steps"
done
printf '%d of %d runs passed%s; slowest: run %d, %d.%d s\n' "$passed" "$runs" "$([ "$load" = 1 ] && echo ' under load')" \
    "$slowest_run" $((slowest / 1000)) $((slowest % 1000 / 100))
[ "$passed" -eq "$runs" ]
