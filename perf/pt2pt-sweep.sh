#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# pt2pt-sweep.sh - shmpi's point-to-point tunables, swept, to choose their
# defaults by measurement.  Not in run-perf's default list (it takes ~15
# minutes); run it as  perf/run-perf pt2pt-sweep  or  bash perf/pt2pt-sweep.sh
#
# perf/pt2pt.c (lat and bw, 2 ranks, ./mpirun --bind-to core) is run under
# one setting of the environment tunables at a time, one factor changed
# from the library's defaults per configuration, plus a few combinations:
#   SHMPI_EAGER_LIMIT  4/8/16/32 KiB   (runtime/pt2pt/conn.c)
#   SHMPI_CHUNK        8/16/32/64 KiB  (runtime/pt2pt/conn.c)
#   SHMPI_RING_KB      64/256/1024     (runtime/shm_arena/arena.c)
#   SHMPI_SPIN_US      10/100/1000     (runtime/core/wait.c)
# at sizes 4 KiB .. 16 MiB (8 and 32 KiB included so that every eager
# limit has a size just above it).  Open MPI and MPICH run alongside as
# reference rows (SWEEP_PEERS=0 leaves them out).  One run per
# configuration and size; per round, for each size, all configurations one
# after the other (order rotated), so that every configuration is measured
# within seconds of the others at that size.  PERF_WARMUP uncounted rounds
# (default 1) then SWEEP_RUNS counted (default PERF_RUNS if set, else 5).
#
# As in pt2pt.sh, every timed batch is labelled by the cache-line probes
# around it ("near": < SWEEP_NEAR_NS, default 150, on both sides; "far":
# >= on both sides), because this VM's two vCPUs flip between ~50 ns and
# ~230 ns apart every few seconds (perf/limits.c) and everything flips with them.  Tables,
# per state: medians over the batches of all runs, per configuration and
# size; the same divided by the defaults' median (same state); the best
# configuration per size.
#
# Runs are guarded against other people's work as in pt2pt.sh
# (perf/pt2pt-lib.sh; SWEEP_NOISE_PCT, SWEEP_QUIET_WAIT, SWEEP_RETRIES,
# defaulting to PERF_NOISE_PCT, PERF_QUIET_WAIT, PERF_RETRIES, else 10 %,
# 20 s, 1).
# Knobs: SWEEP_RUNS, SWEEP_TARGET_MS (default 100), SWEEP_SIZES,
# SWEEP_CONFIGS (a list of "label:VAR=V,VAR=V" words replacing the built-in
# one; "defaults:" is always added).  Raw: perf/bin/pt2pt-sweep.tsv;
# SWEEP_TABLES_ONLY=1 prints the tables of it again.  One pt2pt benchmark
# at a time (perf/bin/.pt2pt.lock).
set -u
. "$(dirname "$0")/common.sh"
. "$PERFDIR/pt2pt-lib.sh"
unset SHMPI_NP SHMPI_RANK SHMPI_SIZE SHMPI_ARENA_FD
for v in $(env | sed -n 's/^\(SHMPI_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done

runs=${SWEEP_RUNS:-${PERF_RUNS:-5}}
warm=${PERF_WARMUP:-1}
TMO=${PERF_TIMEOUT:-120}
NOISE_PCT=${SWEEP_NOISE_PCT:-${PERF_NOISE_PCT:-10}}
QUIET_WAIT=${SWEEP_QUIET_WAIT:-${PERF_QUIET_WAIT:-20}}
RETRIES=${SWEEP_RETRIES:-${PERF_RETRIES:-1}}
target=${SWEEP_TARGET_MS:-100}
near_ns=${SWEEP_NEAR_NS:-150}
sizes=${SWEEP_SIZES:-4K,8K,16K,32K,64K,256K,1M,4M,16M}
peers=${SWEEP_PEERS:-1}
tables_only=${SWEEP_TABLES_ONLY:-}

configs=(defaults:)
if [ -n "${SWEEP_CONFIGS:-}" ]; then
    read -r -a more <<<"$SWEEP_CONFIGS"
else
    more=(
        eager4K:SHMPI_EAGER_LIMIT=4096 eager8K:SHMPI_EAGER_LIMIT=8192
        eager16K:SHMPI_EAGER_LIMIT=16384 eager32K:SHMPI_EAGER_LIMIT=32768
        chunk8K:SHMPI_CHUNK=8192 chunk16K:SHMPI_CHUNK=16384
        chunk32K:SHMPI_CHUNK=32768 chunk64K:SHMPI_CHUNK=65536
        ring64K:SHMPI_RING_KB=64 ring256K:SHMPI_RING_KB=256 ring1M:SHMPI_RING_KB=1024
        ring1M+chunk64K:SHMPI_RING_KB=1024,SHMPI_CHUNK=65536
        ring1M+chunk16K:SHMPI_RING_KB=1024,SHMPI_CHUNK=16384
        ring64K+chunk8K:SHMPI_RING_KB=64,SHMPI_CHUNK=8192
        spin10:SHMPI_SPIN_US=10 spin1000:SHMPI_SPIN_US=1000
    )
fi
for c in "${more[@]}"; do [ "${c%%:*}" != defaults ] && configs+=("$c"); done

out=$BIN/pt2pt-sweep.out
raw=$BIN/pt2pt-sweep.tsv
cells=("${configs[@]}")
if [ -z "$tables_only" ]; then
    pt2pt_lock pt2pt-sweep
    if [ ! -x "$ROOT/mpirun" ] || [ ! -f "$ROOT/lib/libmpi.a" ]; then
        note "pt2pt-sweep: shmpi not built (run 'make')"; exit 1
    fi
    "$ROOT/mpicc" $PERF_CFLAGS "$PERFDIR/pt2pt.c" -o "$BIN/pt2pt-sweep-shmpi" || exit 1
    if [ "$peers" = 1 ]; then
        command -v mpicc.openmpi >/dev/null &&
            mpicc.openmpi $PERF_CFLAGS "$PERFDIR/pt2pt.c" -o "$BIN/pt2pt-sweep-ompi" 2>/dev/null &&
            cells+=("Open MPI:")
        command -v mpicc.mpich >/dev/null &&
            mpicc.mpich $PERF_CFLAGS "$PERFDIR/pt2pt.c" -o "$BIN/pt2pt-sweep-mpich" 2>/dev/null &&
            cells+=("MPICH:")
    fi
    rm -rf "$out"; mkdir -p "$out"
    : >"$raw"
fi
declare -A failed

# run_cell CELL ROUND SIZE; appends to $raw
#   CONFIG ROUND TEST SIZE VALUE STATE      one per timed batch
#   CONFIG ROUND NOISE SIZE OTHERS% TRIES   the noise of the run
#   CONFIG ROUND FAIL SIZE WHY -            a failed run
run_cell() {
    local label=${1%%:*} vars=${1#*:} round=$2 size=$3 f
    local -a envs=() cmd
    [ -n "${failed[$label-$size]:-}" ] && return
    [ -n "$vars" ] && IFS=, read -r -a envs <<<"$vars"
    case $label in
        "Open MPI") cmd=(mpirun.openmpi --allow-run-as-root -np 2 --bind-to core
                         --mca btl self,vader "$BIN/pt2pt-sweep-ompi") ;;
        MPICH)      cmd=("${MPICH_RUN[@]}" -np 2 -bind-to core "$BIN/pt2pt-sweep-mpich") ;;
        *)          cmd=("${SHMPI_RUN[@]}" -np 2 --bind-to core "$BIN/pt2pt-sweep-shmpi") ;;
    esac
    f="$out/${label// /_}-$round-$size"
    noisy_run "$f.txt" "$f.err" env "${envs[@]}" "${cmd[@]}" -s "$size" -T "$target" -P "$near_ns"
    if [ "$round" != warm ]; then
        awk -v OFS='\t' -v c="$label" -v r="$round" \
            '$1 == "batch" && NF == 8 { print c, r, $2, $3, $4, $6 }' "$f.txt" >>"$raw"
        printf '%s\t%s\tNOISE\t%s\t%s\t%s\n' "$label" "$round" "$size" "$RUN_OTHERS" "$RUN_TRIES" >>"$raw"
    fi
    if [ $RUN_RC -ne 0 ]; then
        failed[$label-$size]=1
        printf '%s\t%s\tFAIL\t%s\texit status %s\t-\n' "$label" "$round" "$size" "$RUN_RC" >>"$raw"
        note "pt2pt-sweep: $label failed at $size (status $RUN_RC) in round $round; last output:"
        tail -n 5 "$f.err" "$f.txt" >&2
    fi
}

echo "machine: $(machine_line)"
if [ -z "$tables_only" ]; then
    echo "shmpi: lib/libmpi.a of $(date -u -r "$ROOT/lib/libmpi.a" '+%Y-%m-%d %H:%M:%S UTC')"
    echo "sweep: sizes $sizes; $runs counted rounds after $warm warm-up; one run per configuration and size, interleaved; 9 timed batches per size and test (${target} ms in all); figures are medians over the batches of all runs in one state"
    rounds=()
    for ((i = 1; i <= warm; i++)); do rounds+=(warm); done
    for ((i = 1; i <= runs; i++)); do rounds+=("$i"); done
    IFS=, read -r -a size_list <<<"$sizes"
    k=0
    for r in "${rounds[@]}"; do
        note "pt2pt-sweep: round $r (${#cells[@]} configurations x ${#size_list[@]} sizes)"
        for s in "${size_list[@]}"; do
            n=${#cells[@]}
            for ((j = 0; j < n; j++)); do run_cell "${cells[$(((j + k) % n))]}" "$r" "$s"; done
            k=$((k + 1))
        done
    done
else
    echo "tables of $raw"
fi

awk -F'\t' "$STATS_AWK"'
function hsize(s) { return s >= 1048576 ? s/1048576 "M" : s >= 1024 ? s/1024 "K" : s }
function seen_cfg(c) { if (!(c in cseen)) { cseen[c] = 1; corder[++nc] = c } }
$3 == "NOISE" { nzs[++nnz] = $5 + 0; if ($6 > 1) reruns += $6 - 1; next }
$3 == "FAIL" { fail[$1, $4] = $5; failmsg[$1 " at " $4] = $5; seen_cfg($1); next }
{
    seen_cfg($1)
    if (!($4 in sseen)) { sseen[$4] = 1; sorder[++ns] = $4 }
    k = $1 SUBSEP $3 SUBSEP $4 SUBSEP $6
    v[k, ++cnt[k]] = $5
    nb[$1, $6]++
}
# median over the batches of config c, test t, size s, state st
function med(c, t, s, st,    k, n, a, j) {
    k = c SUBSEP t SUBSEP s SUBSEP st
    if ((c SUBSEP s) in fail) return "FAIL"
    n = cnt[k] + 0
    if (n == 0) return ""
    for (j = 1; j <= n; j++) a[j] = v[k, j]
    return median(a, n)
}
function header(    j, line) {
    line = "| configuration |"; for (j = 1; j <= ns; j++) line = line " " hsize(sorder[j]) " |"; print line
    line = "| --- |"; for (j = 1; j <= ns; j++) line = line " ---: |"; print line
}
function abs_table(t, st, scale, title,    i, j, c, x, line) {
    print ""; print title; print ""; header()
    for (i = 1; i <= nc; i++) {
        c = corder[i]; line = "| " c " |"
        for (j = 1; j <= ns; j++) {
            x = med(c, t, sorder[j], st)
            line = line " " (x == "" ? "–" : x == "FAIL" ? "FAIL" : sig(x * scale)) " |"
        }
        print line
    }
}
function ratio_table(t, st, title,    i, j, c, s, x, d, line) {
    print ""; print title; print ""; header()
    for (i = 1; i <= nc; i++) {
        c = corder[i]; if (c == "defaults") continue
        line = "| " c " |"
        for (j = 1; j <= ns; j++) {
            s = sorder[j]; x = med(c, t, s, st); d = med("defaults", t, s, st)
            if (x == "" || x == "FAIL" || d == "" || d == "FAIL" || d <= 0) { line = line " " (x == "FAIL" ? "FAIL" : "–") " |"; continue }
            rat[c, t, s, st] = x / d
            line = line " " sprintf("%.2f", x / d) " |"
        }
        print line
    }
}
function best_table(st, title,    j, i, s, c, bl, rl, bb, rb) {
    print ""; print title; print ""
    print "| size | lat: best | lat ratio | bw: best | bw ratio |"; print "| ---: | --- | ---: | --- | ---: |"
    for (j = 1; j <= ns; j++) {
        s = sorder[j]; bl = "defaults"; rl = 1; bb = "defaults"; rb = 1
        for (i = 1; i <= nc; i++) {
            c = corder[i]; if (c == "Open MPI" || c == "MPICH" || c == "defaults") continue
            if (((c SUBSEP "lat" SUBSEP s SUBSEP st) in rat) && rat[c, "lat", s, st] < rl) { rl = rat[c, "lat", s, st]; bl = c }
            if (((c SUBSEP "bw" SUBSEP s SUBSEP st) in rat) && rat[c, "bw", s, st] > rb) { rb = rat[c, "bw", s, st]; bb = c }
        }
        printf "| %s | %s | %.2f | %s | %.2f |\n", hsize(s), bl, rl, bb, rb
    }
}
END {
    line = ""
    for (i = 1; i <= nc; i++) line = line sprintf("%s%s %d/%d", i > 1 ? "; " : "", corder[i], nb[corder[i], "near"], nb[corder[i], "far"])
    print ""; print "Timed batches near/far per configuration: " line
    split("near far", S, " ")
    for (x = 1; x <= 2; x++) {
        st = S[x]
        abs_table("lat", st, 1, "Latency, half round trip, µs, " st " state (median over batches):")
        abs_table("bw", st, 0.001, "Bandwidth, osu_bw window 64, GB/s, " st " state (median over batches):")
        ratio_table("lat", st, "Latency / the defaults'"'"' latency, " st " state (< 1 is faster):")
        ratio_table("bw", st, "Bandwidth / the defaults'"'"' bandwidth, " st " state (> 1 is faster):")
        best_table(st, "Best shmpi configuration per size, " st " state (ratio to the defaults):")
    }
    for (m in failmsg) print "FAIL: " m ": " failmsg[m]
    if (nnz) { sortv(nzs, nnz); printf "\nOther processes'"'"' share of the machine during the kept runs: median %d%%, max %d%% (%d re-runs)\n", nzs[int((nnz+1)/2)], nzs[nnz], reruns }
}' "$raw"
