#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# trace.sh - what mpirun --trace and --profile cost a program: the halo
# exchange of perf/halo.c, built once with `mpicc -shared-mpi` (the
# wrappers of --trace are preloaded, which a static program cannot take),
# run as it is, under --profile and under --trace FILE, and timed per
# iteration as halo.sh times it.  Only shmpi: the peers have no such
# modes of their own (their tools are separate installs).
#
#   ./mpirun -np 2 --bind-to core [--profile | --trace F] halo-so -S SCHEME
#
# Rounds are interleaved: per round and scheme the three modes one after
# the other, order rotated; PERF_WARMUP uncounted rounds (1), then
# TRACE_RUNS counted ones (PERF_RUNS, else 5).  A cell is the median over
# the timed batches of all counted runs in one state of the VM's cache
# line (near, far: halo.sh, perf/limits.c), and "×" is a mode's cell over
# the plain run's.  The trace of every run is written and merged, as a
# user's is; a trace's size is printed beside it (the last run's file).
# A run during which other processes took more than PERF_NOISE_PCT (10)
# percent of the machine is run again, as in halo.sh.
#
# Knobs: TRACE_RUNS, TRACE_SCHEMES (default isend,counters,fence),
# TRACE_SIZES (default 8,4K,64K), TRACE_TARGET_MS (per cell, default 100:
# a trace holds every call of the run), HALO_NEAR_NS (150).
# Raw figures: perf/bin/trace.tsv; run outputs: perf/bin/trace.out/.
set -u
. "$(dirname "$0")/common.sh"
. "$PERFDIR/pt2pt-lib.sh"
unset SHMPI_NP SHMPI_RANK SHMPI_SIZE SHMPI_ARENA_FD

: "${TRACE_RUNS:=${PERF_RUNS:-5}}" "${PERF_WARMUP:=1}" "${TRACE_TARGET_MS:=100}"
: "${TRACE_SCHEMES:=isend,counters,fence}" "${TRACE_SIZES:=8,4K,64K}" "${HALO_NEAR_NS:=150}"
TMO=${PERF_TIMEOUT:-300} NOISE_PCT=${PERF_NOISE_PCT:-10}
QUIET_WAIT=${PERF_QUIET_WAIT:-20} RETRIES=${PERF_RETRIES:-2}
out=$BIN/trace.out raw=$BIN/trace.tsv
modes=(plain profile trace)

# run MODE ROUND SCHEME: one run, its batches appended to $raw as
#   MODE ROUND SCHEME SIZE US STATE
run() {
    local mode=$1 round=$2 s=$3 f=$out/$1-$3-$2 flags=()
    case $mode in
        profile) flags=(--profile) ;;
        trace)   flags=(--trace "$out/$s.json") ;;
    esac
    noisy_run "$f.txt" "$f.err" "${SHMPI_RUN[@]}" -np 2 --bind-to core "${flags[@]}" \
        "$BIN/halo-so" -S "$s" -g ring -s "$TRACE_SIZES" -T "$TRACE_TARGET_MS" -b 9 \
        -P "$HALO_NEAR_NS"
    if [ "$RUN_RC" -ne 0 ]; then
        note "trace: $mode, $s, round $round failed (status $RUN_RC; $f.err)"
        return
    fi
    [ "$round" = warm ] && return
    awk -v OFS='\t' -v m="$mode" -v r="$round" \
        '$1 == "batch" && NF == 9 { print m, r, $2, $5, $6, $7 }' "$f.txt" >>"$raw"
}

"$ROOT/mpicc" -shared-mpi $PERF_CFLAGS "$PERFDIR/halo.c" -o "$BIN/halo-so" ||
    { note "trace: cannot build halo-so (run 'make' first)"; exit 1; }
pt2pt_lock trace
rm -rf "$out"; mkdir -p "$out"; : >"$raw"
echo "runs: $TRACE_RUNS counted rounds after $PERF_WARMUP warm-up; np=2, ranks pinned (rank i on CPU i); ring of 2 neighbours; each cell $TRACE_TARGET_MS ms in 9 batches, each labelled near or far by the cache-line probes around it; a cell is the median of the batches of all counted runs in one state"
k=0
for ((r = 1 - PERF_WARMUP; r <= TRACE_RUNS; r++)); do
    round=$r; [ $r -le 0 ] && round=warm
    note "trace: round $round"
    for s in ${TRACE_SCHEMES//,/ }; do
        for ((j = 0; j < 3; j++)); do run "${modes[(j + k) % 3]}" "$round" "$s"; done
        k=$((k + 1))
    done
done
for s in ${TRACE_SCHEMES//,/ }; do
    [ -f "$out/$s.json" ] && echo "trace of $s (last run): $(du -h "$out/$s.json" | cut -f1)"
done
echo
awk -F'\t' "$STATS_AWK"'
{ k = $1 SUBSEP $3 SUBSEP $4 SUBSEP $6; v[k, ++n[k]] = $5; cell[$3 SUBSEP $4] = 1; st[$6] = 1 }
function med(k,    a, i) { for (i = 1; i <= n[k]; i++) a[i] = v[k, i]; return n[k] ? median(a, n[k]) : "" }
END {
    print "| scheme | size | state | plain µs/iter | --profile | × | --trace | × | batches |"
    print "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    split("near far", S, " ")
    for (q in cell) order[++m] = q
    for (i = 2; i <= m; i++) for (j = i; j > 1 && order[j-1] > order[j]; j--) { t = order[j]; order[j] = order[j-1]; order[j-1] = t }
    for (i = 1; i <= m; i++) for (x = 1; x <= 2; x++) {
        split(order[i], cc, SUBSEP); s = S[x]
        p = med("plain" SUBSEP order[i] SUBSEP s)
        if (p == "") continue
        f = med("profile" SUBSEP order[i] SUBSEP s); t = med("trace" SUBSEP order[i] SUBSEP s)
        printf "| %s | %s B | %s | %s | %s | %s | %s | %s | %d/%d/%d |\n", cc[1], cc[2], s, sig(p),
            f == "" ? "–" : sig(f), f == "" ? "–" : sprintf("%.2f", f / p),
            t == "" ? "–" : sig(t), t == "" ? "–" : sprintf("%.2f", t / p),
            n["plain" SUBSEP order[i] SUBSEP s], n["profile" SUBSEP order[i] SUBSEP s],
            n["trace" SUBSEP order[i] SUBSEP s]
    }
}' "$raw"
