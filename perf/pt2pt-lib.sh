# SPDX-License-Identifier: BSD-3-Clause
# pt2pt-lib.sh - sourced by pt2pt.sh and pt2pt-sweep.sh (not a benchmark).
#
# This VM is shared: other people's builds and tests take CPU from a
# benchmark whose two ranks are pinned one per core, and a latency can
# then read ten times what it is.  So every run is measured for the CPU time that *other*
# processes used while it ran:
#     others = (machine busy ticks + steal) - (CPU ticks of our run's
#              processes, from our shell's cutime/cstime) over elapsed ticks
# as a percentage of the whole machine.  A run above NOISE_PCT is run again,
# after waiting (at most QUIET_WAIT s) for a quiet moment, up to RETRIES
# times; the last attempt is kept either way and its figure is recorded.
#
#   noisy_run OUTFILE ERRFILE CMD...   runs CMD (stdin /dev/null) under
#       `timeout -k 5 $TMO`; sets RUN_RC, RUN_OTHERS (percent), RUN_TRIES.
# Settings (set by the caller): TMO, NOISE_PCT (negative: no guard, no
# waiting), QUIET_WAIT, RETRIES.

_stat_ticks() {   # "busy total" for the whole machine, in clock ticks
    awk '$1 == "cpu" { busy = $2 + $3 + $4 + $7 + $8 + $9; print busy, busy + $5 + $6; exit }' /proc/stat
}
_child_ticks() {  # CPU ticks of this shell's reaped children (cutime + cstime)
    sed 's/.*) //' "/proc/$$/stat" | awk '{ print $14 + $15 }'
}

# Wait until other processes use less than NOISE_PCT of the machine over
# 0.3 s, for at most QUIET_WAIT seconds.
wait_quiet() {
    local t0 b0 b1 a deadline=$((SECONDS + ${QUIET_WAIT:-20}))
    while [ $SECONDS -lt $deadline ]; do
        read -r b0 t0 < <(_stat_ticks)
        sleep 0.3
        read -r b1 a < <(_stat_ticks)
        [ $((a - t0)) -gt 0 ] && [ $(((b1 - b0) * 100 / (a - t0))) -lt "${NOISE_PCT:-10}" ] && return 0
    done
    return 1
}

noisy_run() {
    local outf=$1 errf=$2; shift 2
    local b0 t0 c0 b1 t1 c1 try=0
    while :; do
        try=$((try + 1))
        [ "${NOISE_PCT:-10}" -ge 0 ] && [ "${RETRIES:-2}" -gt 0 ] && wait_quiet
        read -r b0 t0 < <(_stat_ticks); c0=$(_child_ticks)
        timeout -k 5 "${TMO:-120}" "$@" </dev/null >"$outf" 2>"$errf"
        RUN_RC=$?
        read -r b1 t1 < <(_stat_ticks); c1=$(_child_ticks)
        RUN_OTHERS=0
        if [ $((t1 - t0)) -gt 0 ]; then
            RUN_OTHERS=$(( ((b1 - b0) - (c1 - c0)) * 100 / (t1 - t0) ))
            [ "$RUN_OTHERS" -lt 0 ] && RUN_OTHERS=0
        fi
        RUN_TRIES=$try
        [ $RUN_RC -ne 0 ] && return
        [ "${NOISE_PCT:-10}" -lt 0 ] && return
        [ "$RUN_OTHERS" -le "${NOISE_PCT:-10}" ] && return
        [ $try -gt "${RETRIES:-2}" ] && return
        note "  (other processes took ${RUN_OTHERS}% of the machine during this run; running it again)"
    done
}

# Hold perf/bin/.pt2pt.lock for the rest of the script: two of these
# benchmarks at once would measure each other (and share perf/bin/ files),
# so a second one waits for the first.
pt2pt_lock() {
    exec 9>"$BIN/.pt2pt.lock"
    if ! flock -n 9; then
        note "$1: another pt2pt benchmark is running on this machine; waiting for it to finish"
        flock 9
    fi
}

# The end of run NAME FILE IMPL ROUND A B KEY WHAT: after a noisy_run of
# IMPL in ROUND for the cell (A, B) of benchmark NAME, whose outputs are
# FILE.txt and FILE.err, append to $raw its NOISE line (counted rounds),
# and if it failed its FAIL or UNSUP line (exit 4: unsupported); a failed
# cell is marked in given_up[KEY] and not run again, and a failure other
# than UNSUP is noted with WHAT and the run's last output.
declare -A given_up
run_ended() {
    local name=$1 f=$2 impl=$3 round=$4 a=$5 b=$6 key=$7 what=$8 tag=FAIL why
    [ "$round" != warm ] &&
        printf '%s\t%s\tNOISE\t%s\t%s\t%s\t%s\n' "$impl" "$round" "$a" "$b" "$RUN_OTHERS" "$RUN_TRIES" >>"$raw"
    [ $RUN_RC -eq 0 ] && return
    given_up[$key]=1
    [ $RUN_RC -eq 4 ] && tag=UNSUP
    why=$(run_failure "$f.err" $RUN_RC "$name")
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$impl" "$round" "$tag" "$a" "$b" "$why" >>"$raw"
    [ $tag = UNSUP ] && return
    note "$name: $impl ($what, round $round) failed: $why; last output:"
    tail -n 5 "$f.err" "$f.txt" >&2
}

# Why the run of benchmark NAME whose stderr is $1 failed, from its exit
# status $2 (3: a wrong result, 4: unsupported, as the benchmark says).
run_failure() {
    local rc=$2
    if [ "$rc" -eq 3 ] || [ "$rc" -eq 4 ]; then
        grep -m1 -E 'wrong result|unsupported' "$1" |
            sed "s/^$3: //; s/ on rank [0-9]*//"
    elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        echo "timed out after ${TMO}s"
    elif [ "$rc" -gt 128 ]; then
        echo "killed by signal $((rc - 128))"
    else
        echo "exit status $rc"
    fi
}

# The first line of the files given (a run's stderr and stdout) that names
# why it failed - running out of room or memory, a bus error, a wrong
# result, a rank that exited early (Open MPI says so over two lines: both
# are taken) - else the first that says something failed; blanks
# squeezed, "|" (a table's separator) made "/", at most 200 characters.
# Nothing when no line says.
failure_cause() {
    cat "$@" 2>/dev/null | awk '
        { l = tolower($0) }
        two { s = first " " $0; sub(/ There are .*/, "", s); print s; done = 1; exit }
        l ~ /exited due to/ { first = $0; two = 1; next }
        l ~ /no space|not enough|out of memory|bus error|wrong result|cannot/ { print; done = 1; exit }
        other == "" && l ~ /error|fail|could not|abort|killed|denied|unable|exceed/ { other = $0 }
        END { if (!done) print (two ? first : other) }' |
        sed 's/[[:space:]]\+/ /g; s/|/\//g; s/^ //' | cut -c1-200
}
