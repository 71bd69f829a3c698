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
# Rounds are interleaved: per round and scheme the five modes (these
# three and the floor's two, below) one after the other, order rotated;
# PERF_WARMUP uncounted rounds (1), then TRACE_RUNS counted ones
# (PERF_RUNS, else 5).  A cell is the median over the timed batches of
# all counted runs in one state of the VM's cache line (near, far:
# halo.sh, perf/limits.c), and "×" is a mode's cell over the plain
# run's.  The trace of every run is written and merged, as a
# user's is; a trace's size is printed beside it (the last run's file).
# A run during which other processes took more than PERF_NOISE_PCT (10)
# percent of the machine is run again, as in halo.sh.
#
# The floor.  A tracer that draws each call as a slice reads the clock at
# its start and its end: 2 reads a call, which no in-process tracer
# avoids, and what they cost in place is measured, not assumed.  Each
# round and scheme also runs the halo under two preloaded wrapper
# libraries (perf/trace_floor.c): under "bare" each wrapper calls PMPI
# and nothing else, under "reads" it reads the clock on both sides of
# it.  A cell's floor is its plain time + (reads - bare): the reads in
# place, with none of the interposition's cost, which stays the
# tracer's own.  "--trace / floor" within 1.10 is as close as the clock
# allows.  Beside it, the read's cost in place (ns a read: (reads -
# bare) / (2 x calls)) and back to back on rank 0's CPU, once a round
# (perf/limits.c -t tsc: rdtsc where the TSC is invariant, else
# clock_gettime, as tools/trace/clock.c); the calls of an iteration are
# counted in each --trace run's file: rank 0's slices (a slice of merged
# polls counts as its "polls") between the MPI_Barrier and the
# MPI_Allreduce of halo.c's timed batches - the last BATCHES such
# stretches before the probe's MPI_Barrier and the verdict's
# MPI_Allreduce that end a cell - over those batches' iterations (the
# cell line's ITERS_PER_BATCH x BATCHES).
#
# Knobs: TRACE_RUNS, TRACE_SCHEMES (default isend,counters,fence),
# TRACE_SIZES (default 8,4K,64K), TRACE_TARGET_MS (per cell, default 100:
# a trace holds every call of the run), HALO_NEAR_NS (150).
# Raw figures: perf/bin/trace.tsv (MODE ROUND SCHEME SIZE VALUE STATE: a
# batch's µs/iter; "calls" rows the calls an iteration, "clock" rows ns a
# read); run outputs: perf/bin/trace.out/.
set -u
. "$(dirname "$0")/common.sh"
. "$PERFDIR/pt2pt-lib.sh"
unset SHMPI_NP SHMPI_RANK SHMPI_SIZE SHMPI_ARENA_FD

: "${TRACE_RUNS:=${PERF_RUNS:-5}}" "${PERF_WARMUP:=1}" "${TRACE_TARGET_MS:=100}"
: "${TRACE_SCHEMES:=isend,counters,fence}" "${TRACE_SIZES:=8,4K,64K}" "${HALO_NEAR_NS:=150}"
TMO=${PERF_TIMEOUT:-300} NOISE_PCT=${PERF_NOISE_PCT:-10}
QUIET_WAIT=${PERF_QUIET_WAIT:-20} RETRIES=${PERF_RETRIES:-2}
out=$BIN/trace.out raw=$BIN/trace.tsv
modes=(plain profile trace bare reads)

# run MODE ROUND SCHEME: one run, its batches appended to $raw as
#   MODE ROUND SCHEME SIZE US STATE
run() {
    local mode=$1 round=$2 s=$3 f=$out/$1-$3-$2 flags=() pre=()
    case $mode in
        profile) flags=(--profile) ;;
        trace)   flags=(--trace "$out/$s.json") ;;
        bare | reads) pre=(env LD_PRELOAD="$BIN/trace-floor-$mode.so") ;;
    esac
    noisy_run "$f.txt" "$f.err" "${pre[@]}" "${SHMPI_RUN[@]}" -np 2 --bind-to core "${flags[@]}" \
        "$BIN/halo-so" -S "$s" -g ring -s "$TRACE_SIZES" -T "$TRACE_TARGET_MS" -b 9 \
        -P "$HALO_NEAR_NS"
    if [ "$RUN_RC" -ne 0 ]; then
        note "trace: $mode, $s, round $round failed (status $RUN_RC; $f.err)"
        return
    fi
    [ "$round" = warm ] && return
    awk -v OFS='\t' -v m="$mode" -v r="$round" \
        '$1 == "batch" && NF == 9 { print m, r, $2, $5, $6, $7 }' "$f.txt" >>"$raw"
    if [ "$mode" = trace ]; then calls "$f.txt" "$out/$s.json" "$round" "$s"; fi
}

# calls TXT JSON ROUND SCHEME: per cell of halo's output TXT, rank 0's
# calls an iteration of the timed batches in the trace JSON (one event a
# line, a rank's calls in the order it made them: launcher/trace.c),
# appended to $raw as  calls ROUND SCHEME SIZE CALLS -
calls() {
    awk -v OFS='\t' -v r="$3" -v s="$4" '
    FNR == NR { if ($1 !~ /^(#|batch)/ && NF == 9) { nc++; sz[nc] = $4; it[nc] = $5 * $6; nb[nc] = $6 }; next }
    !/"ph":"X","pid":0,/ { next }
    /"name":"MPI_Barrier"/ { c = 0; next }
    /"name":"MPI_Allreduce"/ {
        if (c > 0) { seg[++ns] = c; c = 0; next }
        if (++cell <= nc && ns >= nb[cell]) {   # the end of a cell
            sum = 0
            for (k = ns - nb[cell] + 1; k <= ns; k++) sum += seg[k]
            print "calls", r, s, sz[cell], sprintf("%.3f", sum / it[cell]), "-"
        }
        ns = 0; next
    }
    { c += match($0, /"polls":[0-9]+/) ? substr($0, RSTART + 8, RLENGTH - 8) : 1 }
    ' "$1" "$2" >>"$raw"
}

# clock_read ROUND: one read of the tracer's clock on rank 0's CPU, appended to
# $raw as  clock ROUND - - NS -
clock_read() {
    "$BIN/limits" -t tsc -T 20 -b 5 | awk -v OFS='\t' -v r="$1" \
        '$1 == "tsc" { print "clock", r, "-", "-", $5, "-" }' >>"$raw"
}

"$ROOT/mpicc" -shared-mpi $PERF_CFLAGS "$PERFDIR/halo.c" -o "$BIN/halo-so" ||
    { note "trace: cannot build halo-so (run 'make' first)"; exit 1; }
# The floor's wrappers, bound lazily: mpirun, which has no PMPI_ functions,
# loads them too.
for m in bare:0 reads:1; do
    cc -O2 -fPIC -shared -I"$ROOT" -DFLOOR_CLOCK="${m#*:}" -Wl,-z,lazy \
        "$PERFDIR/trace_floor.c" -o "$BIN/trace-floor-${m%:*}.so" ||
        { note "trace: cannot build the floor's wrappers"; exit 1; }
done
build_limits || exit 1
pt2pt_lock trace
rm -rf "$out"; mkdir -p "$out"; : >"$raw"
echo "runs: $TRACE_RUNS counted rounds after $PERF_WARMUP warm-up; np=2, ranks pinned (rank i on CPU i); ring of 2 neighbours; each cell $TRACE_TARGET_MS ms in 9 batches, each labelled near or far by the cache-line probes around it; a cell is the median of the batches of all counted runs in one state"
k=0
for ((r = 1 - PERF_WARMUP; r <= TRACE_RUNS; r++)); do
    round=$r; [ $r -le 0 ] && round=warm
    note "trace: round $round"
    [ "$round" != warm ] && clock_read "$round"
    for s in ${TRACE_SCHEMES//,/ }; do
        for ((j = 0; j < 5; j++)); do run "${modes[(j + k) % 5]}" "$round" "$s"; done
        k=$((k + 1))
    done
done
for s in ${TRACE_SCHEMES//,/ }; do
    [ -f "$out/$s.json" ] && echo "trace of $s (last run): $(du -h "$out/$s.json" | cut -f1)"
done
echo
awk -F'\t' "$STATS_AWK"'
$1 == "clock" { clk[++nclk] = $5; next }
{ k = $1 SUBSEP $3 SUBSEP $4 SUBSEP $6; v[k, ++n[k]] = $5 }
$1 != "calls" { cell[$3 SUBSEP $4] = 1 }
function med(k,    a, i) { for (i = 1; i <= n[k]; i++) a[i] = v[k, i]; return n[k] ? median(a, n[k]) : "" }
END {
    ck = nclk ? median(clk, nclk) : ""
    if (ck != "")   # median() left clk sorted
        printf "clock read (perf/limits.c -t tsc on rank 0'"'"'s CPU, once a round): %s ns, median of %d rounds (%s-%s)\n\n", sig(ck), nclk, sig(clk[1]), sig(clk[nclk])
    print "| scheme | size | state | plain µs/iter | --profile | × | --trace | × | floor µs/iter | --trace / floor | calls/iter | read in place ns | batches |"
    print "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    split("near far", S, " ")
    for (q in cell) { split(q, cc, SUBSEP); order[++m] = sprintf("%s %012d", cc[1], cc[2]) SUBSEP q }
    sortv(order, m)   # by scheme, then size in bytes
    for (i = 1; i <= m; i++) sub(/^[^\034]*\034/, "", order[i])
    for (i = 1; i <= m; i++) for (x = 1; x <= 2; x++) {
        split(order[i], cc, SUBSEP); s = S[x]
        p = med("plain" SUBSEP order[i] SUBSEP s)
        if (p == "") continue
        f = med("profile" SUBSEP order[i] SUBSEP s); t = med("trace" SUBSEP order[i] SUBSEP s)
        e = med("bare" SUBSEP order[i] SUBSEP s); k = med("reads" SUBSEP order[i] SUBSEP s)
        c = med("calls" SUBSEP order[i] SUBSEP "-")
        fl = e == "" || k == "" ? "" : p + k - e
        rd = fl == "" || c == "" ? "" : (k - e) * 1000 / (2 * c)
        printf "| %s | %s B | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d/%d/%d/%d/%d |\n", cc[1], cc[2], s, sig(p),
            f == "" ? "–" : sig(f), f == "" ? "–" : sprintf("%.2f", f / p),
            t == "" ? "–" : sig(t), t == "" ? "–" : sprintf("%.2f", t / p),
            fl == "" ? "–" : sig(fl), t == "" || fl == "" ? "–" : sprintf("%.2f", t / fl),
            c == "" ? "–" : sprintf("%.2f", c), rd == "" ? "–" : sig(rd),
            n["plain" SUBSEP order[i] SUBSEP s], n["profile" SUBSEP order[i] SUBSEP s],
            n["trace" SUBSEP order[i] SUBSEP s], n["bare" SUBSEP order[i] SUBSEP s],
            n["reads" SUBSEP order[i] SUBSEP s]
    }
    print ""
    print "floor: plain + (reads - bare), the clock read on both sides of every call in place (perf/trace_floor.c), what a tracer that draws each call as a slice cannot go below; --trace / floor ≤ 1.10 is as close as the clock allows.  calls/iter: rank 0'"'"'s MPI calls an iteration of the timed batches, counted in the --trace file; read in place: (reads - bare) / (2 × calls/iter), against the clock read back to back above.  batches: plain/profile/trace/bare/reads."
}' "$raw"
