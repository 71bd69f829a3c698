#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# rma.sh - one-sided communication (perf/rma.c, OSU style): put and get
# latency and bandwidth under lock/unlock, flush, fence and PSCW, the
# fence and PSCW epochs alone, accumulate, fetch_and_op and
# compare_and_swap latency, on MPI_Win_allocate and MPI_Win_create
# windows; shmpi side by side with Open MPI (its default one-sided
# component, and osc sm) and MPICH.  np=2: rank 0 the origin, rank 1 the
# target, pinned one per core.
#
#   One run per MPI, window and test (all sizes in that run):
#     shmpi    ./mpirun -np 2 --bind-to core rma-shmpi -t TEST -w WIN
#     ompi     mpirun.openmpi --allow-run-as-root -np 2 --bind-to core
#                  rma-ompi -t TEST -w WIN
#     ompi-sm  the same with --mca osc sm: Open MPI's fastest shared-memory
#                  component, which users must ask for; it cannot make
#                  MPI_Win_create windows, so its create cells read "–"
#     mpich    mpiexec.mpich -launcher fork -np 2 -bind-to core
#                  rma-mpich -t TEST -w WIN
#
# Each run checks every cell once before timing it (rma.c) and exits 3 on
# a wrong result, 4 when that MPI cannot make that kind of window: that
# MPI's cells of that test and window then read FAIL (unsupported: "–"),
# never a time, and it is not run for them again.  Inside a run each cell
# is calibrated and timed in RMA_BATCHES (5) batches of RMA_TARGET_MS (30)
# / RMA_BATCHES ms; a batch's time is the slowest rank's, per iteration,
# and a run reports its median batch.  Rounds are interleaved: per round,
# per window and test, the four MPIs one after the other (order rotated);
# PERF_WARMUP uncounted rounds (default 1), then RMA_RUNS counted ones
# (default PERF_RUNS, else 5).  A cell of the table is the median over the
# counted runs: µs per iteration, or GB/s (10^9 B/s) for the bandwidth
# tests (*_bw*).
#
# Runs are guarded against other people's work like pt2pt's
# (perf/pt2pt-lib.sh): a run during which other processes took more than
# RMA_NOISE_PCT (default PERF_NOISE_PCT, else 10) percent of the machine
# is run again after waiting up to PERF_QUIET_WAIT (20) s for a quiet
# moment, at most PERF_RETRIES (2) times; the output says how much others
# took.  It shares pt2pt's lock, so no two of these benchmarks run at once.
#
# Knobs: RMA_RUNS, RMA_TARGET_MS, RMA_BATCHES, RMA_TESTS (comma list,
# default all twenty-one of rma.c), RMA_WINDOWS (default allocate,create),
# RMA_SIZES (comma list with K/M suffixes, default 8,64,1K,16K,256K,1M,4M),
# RMA_ONLY (subset of "shmpi ompi ompi-sm mpich").  Raw figures:
# perf/bin/rma.tsv; run outputs: perf/bin/rma.out/.  RMA_TABLES_ONLY=1
# runs nothing and prints the table of the raw file again (RMA_RAW names
# another one).
set -u
. "$(dirname "$0")/common.sh"
. "$PERFDIR/pt2pt-lib.sh"
unset SHMPI_NP SHMPI_RANK SHMPI_SIZE SHMPI_ARENA_FD

: "${RMA_RUNS:=${PERF_RUNS:-5}}" "${PERF_WARMUP:=1}" "${RMA_TARGET_MS:=30}" "${RMA_BATCHES:=5}"
: "${RMA_TESTS:=put_lock,get_lock,put_flush,get_flush,put_fence,get_fence,fence,pscw,get_pscw,pscw_empty,put_bw,get_bw,put_bw_lock,get_bw_lock,put_bw_fence,get_bw_fence,put_bw_pscw,get_bw_pscw,acc_flush,fop,cas}"
: "${RMA_WINDOWS:=allocate,create}" "${RMA_SIZES:=8,64,1K,16K,256K,1M,4M}"
: "${RMA_ONLY:=shmpi ompi ompi-sm mpich}" "${RMA_TABLES_ONLY:=}" "${RMA_RAW:=$BIN/rma.tsv}"
# the noise guard's settings (pt2pt-lib.sh)
TMO=${PERF_TIMEOUT:-120} NOISE_PCT=${RMA_NOISE_PCT:-${PERF_NOISE_PCT:-10}}
QUIET_WAIT=${PERF_QUIET_WAIT:-20} RETRIES=${PERF_RETRIES:-2}
out=$BIN/rma.out raw=$RMA_RAW

# The command line of MPI $1 (CMD); false when it is not to be run.
command_of() {
    [[ " $RMA_ONLY " == *" $1 "* ]] || return 1
    case $1 in
        shmpi)   have shmpi && CMD=("${SHMPI_RUN[@]}" -np 2 --bind-to core "$BIN/rma-shmpi") ;;
        ompi)    have ompi && CMD=(mpirun.openmpi --allow-run-as-root -np 2 --bind-to core "$BIN/rma-ompi") ;;
        ompi-sm) have ompi && CMD=(mpirun.openmpi --allow-run-as-root -np 2 --bind-to core --mca osc sm "$BIN/rma-ompi") ;;
        mpich)   have mpich && CMD=("${MPICH_RUN[@]}" -np 2 -bind-to core "$BIN/rma-mpich") ;;
        *) return 1 ;;
    esac
}

# run IMPL ROUND TEST WINDOW: one run under noisy_run.  Appended to $raw:
#   IMPL ROUND TEST WINDOW SIZE US GBPS     a figure (the run's median batch)
#   IMPL ROUND NOISE TEST WINDOW OTHERS% TRIES
#   IMPL ROUND FAIL|UNSUP TEST WINDOW WHY   a failed run (UNSUP: exit 4)
run() {
    local impl=$1 round=$2 t=$3 w=$4
    local f=$out/$impl-$w-$t-$round
    [ -n "${given_up[$impl-$w-$t]:-}" ] && return
    command_of "$impl" || return
    noisy_run "$f.txt" "$f.err" "${CMD[@]}" -t "$t" -w "$w" -s "$RMA_SIZES" \
        -T "$RMA_TARGET_MS" -b "$RMA_BATCHES"
    [ "$round" != warm ] && awk -v OFS='\t' -v i="$impl" -v r="$round" '
        !/^#/ && NF == 10 { print i, r, $1, $2, $3, $7, $10 }' "$f.txt" >>"$raw"
    run_ended rma "$f" "$impl" "$round" "$t" "$w" "$impl-$w-$t" "$t, $w window"
}

# Build, then run every round (the warm-up ones first).
run_rounds() {
    local r round w t j m impls=() n k=0
    pt2pt_lock rma
    build_mpi "$PERFDIR/rma.c" rma
    rm -rf "$out"; mkdir -p "$out"
    printf 'sizes\t%s\n' "$RMA_SIZES" >"$raw"
    [ -f "$ROOT/lib/libmpi.a" ] && echo "shmpi: lib/libmpi.a of $(date -u -r "$ROOT/lib/libmpi.a" '+%Y-%m-%d %H:%M:%S UTC')"
    echo "shmpi tunables in the environment: $(env | grep -E '^SHMPI_' | sort | tr '\n' ' ' | grep . || echo 'none (library defaults)')"
    echo "runs: $RMA_RUNS counted rounds after $PERF_WARMUP warm-up; np=2, pinned one rank per core; one run per MPI, window and test, interleaved; each cell timed in $RMA_BATCHES batches ($RMA_TARGET_MS ms in all) of the slowest rank's time per iteration, a run reports its median batch, the table the median over runs; a run during which other processes took more than ${NOISE_PCT}% of the machine is run again (at most $RETRIES times)"
    for m in shmpi ompi ompi-sm mpich; do command_of $m && impls+=("$m"); done
    n=${#impls[@]}
    for ((r = 1 - PERF_WARMUP; r <= RMA_RUNS; r++)); do
        round=$r; [ $r -le 0 ] && round=warm
        note "rma: round $round"
        for w in ${RMA_WINDOWS//,/ }; do
            for t in ${RMA_TESTS//,/ }; do
                for ((j = 0; j < n; j++)); do run "${impls[(j + k) % n]}" $round "$t" "$w"; done
                k=$((k + 1))
            done
        done
    done
}

# The table of the raw file $1.
print_table() {
    awk -F'\t' '
function sort_numbers(a, n,    i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t } }
# the median of the numbers in a space separated list; "" when empty
function median(list,    a, n) {
    n = split(list, a, " ")
    if (n == 0) return ""
    sort_numbers(a, n)
    return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
}
function sig(x) { return sprintf(x >= 100 ? "%.0f" : x >= 10 ? "%.1f" : x >= 1 ? "%.2f" : "%.3f", x) }
function size_name(s) { return s == 0 ? "–" : s >= 1048576 ? s/1048576 " MiB" : s >= 1024 ? s/1024 " KiB" : s " B" }
# impl i in cell c: its median, or FAIL, or "" (not run, unsupported)
function value(i, c,    k) {
    split(c, k, SUBSEP)
    if (state[i, k[1], k[2]] == "FAIL") return "FAIL"
    return median(figs[i, c])
}
function shown(v) { return v == "" ? "–" : v == "FAIL" ? v : sig(v) }
# the goal of a cell: its limit on shmpi / best peer, 0 for none
function goal(t, w, s) {
    if (t == "put_flush" && s == 8) return w == "allocate" ? 0.8 : 0.1
    if (t == "fop" && w == "allocate") return 0.8
    if (t == "fence" || t == "pscw_empty") return 0.5
    if (t == "acc_flush" && s == 1048576) return 0.5
    return 0
}
$1 == "sizes" { next }
$3 == "NOISE" { others[$1] = others[$1] " " $6; reruns[$1] += $7 - 1; next }
$3 == "FAIL" || $3 == "UNSUP" {
    state[$1, $4, $5] = $3
    why[$3 == "FAIL" ? "FAIL: " $1 ", " $5 " window, " $4 : "–: " $1 ", " $5 " windows"] = $6
    next
}
{
    c = $3 SUBSEP $4 SUBSEP $5
    if (!(c in seen)) { seen[c] = 1; sizes[$3, $4] = sizes[$3, $4] " " $5 }
    bw = $7 != "-"
    figs[$1, c] = figs[$1, c] " " (bw ? $7 : $6)
    gbps[$3] = bw
}
END {
    nt = split("put_lock get_lock put_flush get_flush put_fence get_fence fence pscw get_pscw pscw_empty " \
        "put_bw get_bw put_bw_lock get_bw_lock put_bw_fence get_bw_fence put_bw_pscw get_bw_pscw acc_flush fop cas", T, " ")
    split("shmpi ompi ompi-sm mpich", I, " ")
    print ""
    print "µs per iteration (the *_bw* tests: GB/s), slowest rank, median batch of a run, median over runs; best peer = the best of the three peer columns in that cell; shmpi / best peer is a ratio of times (< 1: shmpi is faster), for the *_bw* tests too."
    print ""
    print "| test | window | size | shmpi | Open MPI | Open MPI osc sm | MPICH | shmpi / best peer | goal | met? |"
    print "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"
    rows = 0
    for (x = 1; x <= nt; x++) for (y = 1; y <= 2; y++) {
        t = T[x]; w = y == 1 ? "allocate" : "create"
        ns = split(sizes[t, w], S, " ")
        sort_numbers(S, ns)
        for (z = 1; z <= ns; z++) {
            s = S[z]; c = t SUBSEP w SUBSEP s; rows++
            for (j = 1; j <= 4; j++) v[j] = value(I[j], c)
            best = ""
            for (j = 2; j <= 4; j++)
                if (v[j] != "" && v[j] != "FAIL" && (best == "" || (gbps[t] ? v[j] > best : v[j] < best))) best = v[j]
            r = ""
            if (best != "" && v[1] != "" && v[1] != "FAIL" && v[1] > 0) r = gbps[t] ? best / v[1] : v[1] / best
            lim = goal(t, w, s); g = met = ""
            if (lim) {
                g = sprintf("≤ %g× best%s", lim, lim == 0.5 && t == "acc_flush" ? " (2× faster)" : "")
                met = r == "" ? "cannot tell" : r <= lim ? "yes" : "**no**"
                goals++; if (r != "" && r <= lim) nmet++
                summary = summary sprintf("\n- %s, %s window%s: %s; %s", t, w, s ? ", " size_name(s) : "", g,
                    r == "" ? "cannot tell" : sprintf("%.2f× — %s", r, r <= lim ? "met" : "NOT met"))
            }
            printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", t, w, size_name(s),
                shown(v[1]), shown(v[2]), shown(v[3]), shown(v[4]), r == "" ? "–" : sprintf("%.2f×", r), g, met
        }
    }
    if (rows == 0) { print "no figures (see the errors above)"; exit }
    line = ""
    for (j = 1; j <= 4; j++) {
        if (!(I[j] in others)) continue
        n = split(others[I[j]], a, " "); sort_numbers(a, n)
        line = line sprintf("%s%s %d%% (max %d%%%s)", line == "" ? "" : "; ", I[j], median(others[I[j]]), a[n],
            reruns[I[j]] ? ", " reruns[I[j]] " re-runs" : "")
    }
    if (line != "") { print ""; print "Other processes'"'"' share of the machine during the kept runs, median: " line }
    print ""
    for (k in why) print k ": " why[k]
    printf "\nGoals (measured, not asserted): met in %d of %d cells.%s\n", nmet, goals, summary
}' "$1"
}

echo "machine: $(machine_line)"
if [ -n "$RMA_TABLES_ONLY" ]; then
    echo "tables of $raw"
else
    run_rounds
fi
print_table "$raw"
