#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# pcoll.sh - persistent collectives against their blocking forms
# (perf/pcoll.c): MPI_Allreduce_init against MPI_Allreduce, and
# MPI_Neighbor_alltoall_init against MPI_Neighbor_alltoall on a periodic
# 1-D cart communicator, shmpi side by side with MPICH 4.0, at np=2 (one
# rank per core, pinned).  Open MPI 4.1 has neither init call: it is not
# run (the script says so).
#
#   One run per MPI and operation (all sizes in that run):
#     shmpi   ./mpirun -np 2 --bind-to core pcoll-shmpi -o OP
#     mpich   mpiexec.mpich -launcher fork -np 2 -bind-to core pcoll-mpich -o OP
#   OP: allreduce, allreduce_init, neighbor, neighbor_init.
#
# Each run checks every cell once before timing it and exits 3 on a wrong
# result (its cells then read FAIL).  Inside a run each cell is calibrated
# and timed in PCOLL_BATCHES (5) batches of PCOLL_TARGET_MS (30) /
# PCOLL_BATCHES ms, a batch's time the slowest rank's per operation, and a
# run reports its median batch; a persistent request is made once per cell,
# outside the timed batches.  Rounds are interleaved (per round, per
# operation, the MPIs one after the other, order rotated): PERF_WARMUP
# uncounted rounds (default 1), then PCOLL_RUNS counted ones (default
# PERF_RUNS, else 5); a cell of the table is the median over the counted
# runs, in microseconds.  Runs are guarded against other people's work
# like coll's (perf/pt2pt-lib.sh; PCOLL_NOISE_PCT, default PERF_NOISE_PCT,
# else 10) and share its lock.
#
# The goal (README): shmpi's persistent form at most 0.8x shmpi's own
# blocking form at 8 B.  The 8 B Allreduce's batches carry the state of
# the VM and the floor measured after each (pcoll.c); a second table pools
# them by state (perf/README.md, "pcoll").
#
# Knobs: PCOLL_RUNS, PCOLL_TARGET_MS, PCOLL_BATCHES, PCOLL_SIZES (comma
# list with K/M suffixes, default 8,1K), PCOLL_ONLY (subset of "shmpi
# mpich").  PERF_BASELINE is ignored.  Raw figures: perf/bin/pcoll.tsv; run
# outputs: perf/bin/pcoll.out/.
set -u
. "$(dirname "$0")/common.sh"
. "$PERFDIR/pt2pt-lib.sh"
unset SHMPI_NP SHMPI_RANK SHMPI_SIZE SHMPI_ARENA_FD

runs=${PCOLL_RUNS:-${PERF_RUNS:-5}}
warm=${PERF_WARMUP:-1}
TMO=${PERF_TIMEOUT:-120}
NOISE_PCT=${PCOLL_NOISE_PCT:-${PERF_NOISE_PCT:-10}}
QUIET_WAIT=${PERF_QUIET_WAIT:-20}
RETRIES=${PERF_RETRIES:-2}
target=${PCOLL_TARGET_MS:-30}
batches=${PCOLL_BATCHES:-5}
sizes=${PCOLL_SIZES:-8,1K}
only=${PCOLL_ONLY:-shmpi mpich}
ops=(allreduce allreduce_init neighbor neighbor_init)
out=$BIN/pcoll.out
raw=$BIN/pcoll.tsv
wanted() { [[ " $only " == *" $1 "* ]]; }

pt2pt_lock pcoll
[ -n "${PERF_BASELINE:-}" ] && note "pcoll: runs no baseline; PERF_BASELINE ignored"
mkdir -p "$BIN"
# Open MPI 4.1 cannot build it (no MPI_Allreduce_init): its errors, and any
# other's, go to the log
build_mpi "$PERFDIR/pcoll.c" pcoll 2>"$BIN/pcoll.build.log"
note "pcoll: Open MPI 4.1 has no persistent collectives: not run"
for m in shmpi mpich; do
    wanted $m && ! have $m && note "pcoll: pcoll-$m did not build; see $BIN/pcoll.build.log"
done
rm -rf "$out"; mkdir -p "$out"
: >"$raw"

command_of() {
    case $1 in
        shmpi) CMD=("${SHMPI_RUN[@]}" -np 2 --bind-to core "$BIN/pcoll-shmpi") ;;
        mpich) CMD=("${MPICH_RUN[@]}" -np 2 -bind-to core "$BIN/pcoll-mpich") ;;
    esac
}

declare -A failed
# run IMPL ROUND OP; appended to $raw:
#   IMPL ROUND OP SIZE US     a figure
#   IMPL ROUND NOISE OP OTHERS% TRIES
#   IMPL ROUND BATCH OP US FLOOR_US STATE   a batch of the 8 B Allreduce
#   IMPL ROUND FAIL OP WHY
run() {
    local impl=$1 round=$2 op=$3 why f=$out/$1-$2-$3
    [ -n "${failed[$impl-$op]:-}" ] && return
    command_of "$impl"
    noisy_run "$f.txt" "$f.err" "${CMD[@]}" -o "$op" -s "$sizes" \
        -T "$target" -b "$batches"
    [ "$round" = warm ] && [ $RUN_RC -eq 0 ] && return
    if [ "$round" != warm ]; then
        awk -v OFS='\t' -v i="$impl" -v r="$round" '
            /^#/ { next }
            $1 == "batch" && NF == 9 { print i, r, "BATCH", $2, $5, $6, $7; next }
            NF == 8 { print i, r, $1, $2, $6 }' "$f.txt" >>"$raw"
        printf '%s\t%s\tNOISE\t%s\t%s\t%s\n' "$impl" "$round" "$op" "$RUN_OTHERS" "$RUN_TRIES" >>"$raw"
    fi
    if [ $RUN_RC -ne 0 ]; then
        case $RUN_RC in
            3) why="wrong result: $(grep -m1 'wrong result' "$f.err")" ;;
            124|137) why="timed out after ${TMO}s" ;;
            *) why="exit status $RUN_RC" ;;
        esac
        failed[$impl-$op]=1
        printf '%s\t%s\tFAIL\t%s\t%s\n' "$impl" "$round" "$op" "$why" >>"$raw"
        note "pcoll: $impl ($op, round $round) failed: $why; last output:"
        tail -n 5 "$f.err" "$f.txt" >&2
    fi
}

echo "machine: $(machine_line)"
[ -f "$ROOT/lib/libmpi.a" ] && echo "shmpi: lib/libmpi.a of $(date -u -r "$ROOT/lib/libmpi.a" '+%Y-%m-%d %H:%M:%S UTC')"
echo "runs: $runs counted rounds after $warm warm-up; np=2 pinned one rank per core; one run per MPI and operation, interleaved; each cell timed in $batches batches (${target} ms in all) of the slowest rank's time per operation, a run reports its median batch, the table the median over runs"
impls=()
for m in shmpi mpich; do wanted $m && have $m && impls+=("$m"); done
rounds=()
for ((i = 1; i <= warm; i++)); do rounds+=(warm); done
for ((i = 1; i <= runs; i++)); do rounds+=("$i"); done
k=0
for r in "${rounds[@]}"; do
    note "pcoll: round $r"
    for o in "${ops[@]}"; do
        n=${#impls[@]}
        for ((j = 0; j < n; j++)); do run "${impls[$(((j + k) % n))]}" "$r" "$o"; done
        k=$((k + 1))
    done
done

awk -F'\t' "$STATS_AWK"'
function hsize(s) { return s >= 1048576 ? s/1048576 " MiB" : s >= 1024 ? s/1024 " KiB" : s " B" }
function get(i, o, s,    k, c, a, j) {
    if ((i SUBSEP o) in failed) return "FAIL"
    k = i SUBSEP o SUBSEP s; c = cnt[k]
    if (c == 0) return ""
    for (j = 1; j <= c; j++) a[j] = val[k, j]
    return median(a, c)
}
function show(x) { return x == "" ? "–" : x == "FAIL" ? "FAIL" : sig(x) }
function ratio(a, b) { return num(a) && num(b) && b > 0 ? sprintf("%.2f×", a / b) : "–" }
$3 == "FAIL" { failed[$1, $4] = $5; why[$1 " " $4] = $5; next }
$3 == "NOISE" { nz[$1, ++nn[$1]] = $5; next }
$3 == "BATCH" {
    k = $1 SUBSEP $4 SUBSEP $7; bt[k, ++bn[k]] = $5
    f = $7; fv[f, ++fn[f]] = $6; next
}
{ k = $1 SUBSEP $3 SUBSEP $4; val[k, ++cnt[k]] = $5; if (!(($3, $4) in seen)) { seen[$3, $4] = 1; sz[$4] = 1 } }
function bmed(i, o, st,    k, c, a, j) {
    k = i SUBSEP o SUBSEP st; c = bn[k]
    if (c == 0) return ""
    for (j = 1; j <= c; j++) a[j] = bt[k, j]
    return median(a, c)
}
# The 8 B Allreduce by the VM state its batches ran in, against the floor
# measured after each batch (pcoll.c, bench_exchange).  The goal, 0.8x the
# blocking form, is met outright, or - where 0.8x the blocking time lies
# below the floor, which no library goes under - when the persistent form
# comes within 10 % of the floor.
function floors(    x, st, c, a, j, fl, sb, sp, mb, mp, g) {
    split("near far", ST, " ")
    for (x = 1; x <= 2; x++) if (fn[ST[x]]) break
    if (x > 2) return
    print ""
    print "8 B Allreduce by the state of the VM (batches pooled over the runs, medians); floor: two cache lines crossing at once with no MPI call, polled at the fastest of four rhythms (bench_exchange), run after each batch."
    print ""
    print "| state | batches | floor | shmpi blocking | shmpi persistent | persistent / blocking | persistent / floor | blocking / floor | MPICH persistent / floor | goal (≤ 0.8× blocking, or within 10 % of the floor where 0.8× lies below it) |"
    print "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
    for (x = 1; x <= 2; x++) {
        st = ST[x]; c = fn[st]; if (c == 0) continue
        for (j = 1; j <= c; j++) a[j] = fv[st, j]
        fl = median(a, c)
        sb = bmed("shmpi", "allreduce", st); sp = bmed("shmpi", "allreduce_init", st)
        mp = bmed("mpich", "allreduce_init", st)
        g = "cannot tell"
        if (num(sb) && num(sp)) {
            if (sp <= 0.8 * sb) g = "met"
            else if (0.8 * sb < fl) g = sp <= 1.1 * fl ? "met at the floor" : "**not met** (0.8× is below the floor)"
            else g = "**not met**"
        }
        printf "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", st, c, sig(fl), show(sb), show(sp),
            ratio(sp, sb), ratio(sp, fl), ratio(sb, fl), ratio(mp, fl), g
    }
}
END {
    split("allreduce neighbor", B, " ")
    n = 0; for (s in sz) S[++n] = s + 0; sortv(S, n)
    print ""
    print "µs per operation at np=2 (slowest rank, median batch of a run, median over runs); persistent = MPI_Start + MPI_Wait on a request made once."
    print ""
    print "| collective | size | shmpi blocking | shmpi persistent | shmpi persistent / blocking | MPICH blocking | MPICH persistent | MPICH persistent / blocking | shmpi persistent / MPICH persistent | goal (8 B: ≤ 0.8× shmpi blocking) |"
    print "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
    for (x = 1; x <= 2; x++) for (y = 1; y <= n; y++) {
        o = B[x]; s = S[y]
        sb = get("shmpi", o, s); sp = get("shmpi", o "_init", s)
        mb = get("mpich", o, s); mp = get("mpich", o "_init", s)
        g = ""
        if (s == 8) g = num(sp) && num(sb) ? (sp / sb <= 0.8 ? "met" : (o == "allreduce" ? "not by the ratio (the floor: below)" : "**not met**")) : "cannot tell"
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", o, hsize(s), show(sb), show(sp), ratio(sp, sb),
            show(mb), show(mp), ratio(mp, mb), ratio(sp, mp), g
    }
    floors()
    line = ""
    split("shmpi mpich", I, " ")
    for (x = 1; x <= 2; x++) {
        c = nn[I[x]] + 0; if (c == 0) continue
        for (j = 1; j <= c; j++) a[j] = nz[I[x], j] + 0
        sortv(a, c)
        line = line sprintf("%s%s %d%% (max %d%%)", line == "" ? "" : "; ", I[x], a[int((c+1)/2)], a[c])
    }
    if (line != "") { print ""; print "Other processes'"'"' share of the machine during the kept runs, median: " line }
    for (k in why) print "FAIL: " k ": " why[k]
}' "$raw"
