#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# coll.sh - latency of MPI_Barrier, MPI_Bcast, MPI_Allreduce and
# MPI_Alltoall (perf/coll.c, OSU style), shmpi side by side with Open MPI
# and MPICH, at np=2 (one rank per core, pinned) and np=8 (oversubscribed:
# 8 ranks on the 2 cores, not pinned).
#
#   One run per MPI, np and operation (all sizes in that run):
#   np=2
#     shmpi   ./mpirun -np 2 --bind-to core coll-shmpi -o OP
#     ompi    mpirun.openmpi --allow-run-as-root -np 2 --bind-to core coll-ompi -o OP
#     mpich   mpiexec.mpich -launcher fork -np 2 -bind-to core coll-mpich -o OP
#   np=8
#     shmpi   ./mpirun -np 8 coll-shmpi -o OP
#     ompi    mpirun.openmpi --allow-run-as-root --oversubscribe -np 8
#                 --bind-to none coll-ompi -o OP
#     mpich   mpiexec.mpich -launcher fork -np 8 coll-mpich -o OP -s 8
#   MPICH oversubscribed took 8-50 ms per operation (2026-11-22, this
#   script at np=8; its ranks spin and
#   yield to each other's time slices), so at np=8 it runs only the sizes
#   in COLL_MPICH_NP8_SIZES (default 8 B; empty skips it at np=8): its
#   other np=8 cells read "skipped".
#   With PERF_BASELINE=REV (any git revision), a second shmpi built from REV
#   (perf/common.sh: exported and built once per commit under
#   perf/bin/baseline/) runs as one more MPI, "shmpi@<short hash>", with its
#   own ./mpirun and exactly shmpi's options and sizes:
#     base    BASE/mpirun -np 2 --bind-to core coll-base -o OP
#             BASE/mpirun -np 8 coll-base -o OP
#   in the same rounds (rotated with the others) and noise guard; the table
#   gains its column and a "shmpi / baseline" column, and a summary of those
#   ratios per np.  Unset: nothing of it is built, run or printed.
#
# Each run checks every cell once before timing it (coll.c) and exits 3 on
# a wrong result: that MPI's cells of that operation and np then read FAIL,
# never a time, and it is not run for them again.  Inside a run each cell
# is calibrated and timed in COLL_BATCHES (5) batches of COLL_TARGET_MS
# (30) / COLL_BATCHES ms; a batch's time is the slowest rank's, per
# operation, and a run reports its median batch.  Rounds are interleaved:
# per round, per np and operation, the three MPIs one after the other
# (order rotated); PERF_WARMUP uncounted rounds (default 1), then COLL_RUNS
# counted ones (default PERF_RUNS, else 5).  A cell of the table is the
# median over the counted runs, in microseconds.
#
# Runs are guarded against other people's work like pt2pt's
# (perf/pt2pt-lib.sh): a run during which other processes took more than
# COLL_NOISE_PCT (default PERF_NOISE_PCT, else 10) percent of the machine
# is run again after waiting up to PERF_QUIET_WAIT (20) s for a quiet
# moment, at most PERF_RETRIES (2) times; the output says how much others
# took.  It shares pt2pt's lock, so no two of these benchmarks run at once.
#
# Knobs: COLL_RUNS, COLL_TARGET_MS, COLL_BATCHES, COLL_OPS (comma list,
# default barrier,bcast,allreduce,alltoall), COLL_SIZES (comma list with
# K/M suffixes, default 8,64,1K,16K,256K,1M,4M), COLL_NP (default "2 8"),
# COLL_MPICH_NP8_SIZES (default 8), COLL_ONLY (subset of "shmpi base ompi
# mpich"), PERF_BASELINE (above).  Raw figures: perf/bin/coll.tsv; run outputs: perf/bin/coll.out/.
# COLL_TABLES_ONLY=1 runs nothing and prints the table of the raw file
# again (COLL_RAW names another one).
set -u
. "$(dirname "$0")/common.sh"
. "$PERFDIR/pt2pt-lib.sh"
unset SHMPI_NP SHMPI_RANK SHMPI_SIZE SHMPI_ARENA_FD

runs=${COLL_RUNS:-${PERF_RUNS:-5}}
warm=${PERF_WARMUP:-1}
TMO=${PERF_TIMEOUT:-120}
NOISE_PCT=${COLL_NOISE_PCT:-${PERF_NOISE_PCT:-10}}
QUIET_WAIT=${PERF_QUIET_WAIT:-20}
RETRIES=${PERF_RETRIES:-2}
target=${COLL_TARGET_MS:-30}
batches=${COLL_BATCHES:-5}
ops=${COLL_OPS:-barrier,bcast,allreduce,alltoall}
sizes=${COLL_SIZES:-8,64,1K,16K,256K,1M,4M}
np_list=${COLL_NP:-2 8}
mpich_np8_sizes=${COLL_MPICH_NP8_SIZES-8}
only=${COLL_ONLY:-shmpi base ompi mpich}
tables_only=${COLL_TABLES_ONLY:-}

out=$BIN/coll.out
raw=${COLL_RAW:-$BIN/coll.tsv}
wanted() { [[ " $only " == *" $1 "* ]]; }

if [ -z "$tables_only" ]; then
    pt2pt_lock coll
    use_baseline
    build_mpi "$PERFDIR/coll.c" coll
    rm -rf "$out"; mkdir -p "$out"
    : >"$raw"
    have base && printf 'baseline\t%s\n' "$BASE_LABEL" >>"$raw"
fi

# The command line of MPI $1 at np $2 and the sizes it runs there (CMD,
# SIZES; SIZES empty: not run at that np).
command_of() {
    SIZES=$sizes
    case $1-$2 in
        shmpi-2|base-2) launcher_of "$1"; CMD=("${LAUNCHER[@]}" -np 2 --bind-to core "$BIN/coll-$1") ;;
        shmpi-*|base-*) launcher_of "$1"; CMD=("${LAUNCHER[@]}" -np "$2" "$BIN/coll-$1") ;;
        ompi-2)  CMD=(mpirun.openmpi --allow-run-as-root -np 2 --bind-to core "$BIN/coll-ompi") ;;
        ompi-*)  CMD=("${OMPI_RUN[@]}" -np "$2" --bind-to none "$BIN/coll-ompi") ;;
        mpich-2) CMD=("${MPICH_RUN[@]}" -np 2 -bind-to core "$BIN/coll-mpich") ;;
        mpich-*) CMD=("${MPICH_RUN[@]}" -np "$2" "$BIN/coll-mpich")
                 SIZES=$mpich_np8_sizes ;;
    esac
}

declare -A failed
# run IMPL NP ROUND OP: one run under noisy_run.  Appended to $raw:
#   IMPL NP ROUND OP SIZE US       a figure (the run's median batch)
#   IMPL NP ROUND NOISE OP OTHERS% TRIES   the noise of a run
#   IMPL NP ROUND FAIL OP WHY      a failed run
#   IMPL NP - SKIP OP SIZES        sizes this MPI runs at this np
run() {
    local impl=$1 np=$2 round=$3 op=$4 why
    local f=$out/$impl-$np-$round-$op
    [ -n "${failed[$impl-$np-$op]:-}" ] && return
    command_of "$impl" "$np"
    [ -z "$SIZES" ] && return
    noisy_run "$f.txt" "$f.err" "${CMD[@]}" -o "$op" -s "$SIZES" \
        -T "$target" -b "$batches"
    [ "$round" = warm ] && [ $RUN_RC -eq 0 ] && return
    if [ "$round" != warm ]; then
        awk -v OFS='\t' -v i="$impl" -v n="$np" -v r="$round" '
            /^#/ { next }
            NF == 8 { print i, n, r, $1, $2, $6 }' "$f.txt" >>"$raw"
        printf '%s\t%s\t%s\tNOISE\t%s\t%s\t%s\n' "$impl" "$np" "$round" "$op" "$RUN_OTHERS" "$RUN_TRIES" >>"$raw"
    fi
    if [ $RUN_RC -ne 0 ]; then
        case $RUN_RC in
            3) why="wrong result: $(grep -m1 'wrong result' "$f.err")" ;;
            124|137) why="timed out after ${TMO}s" ;;
            1[3-9][0-9]) why="killed by signal $((RUN_RC - 128))" ;;
            *) why="exit status $RUN_RC" ;;
        esac
        failed[$impl-$np-$op]=1
        printf '%s\t%s\t%s\tFAIL\t%s\t%s\n' "$impl" "$np" "$round" "$op" "$why" >>"$raw"
        note "coll: $impl (np=$np, $op, round $round) failed: $why; last output:"
        tail -n 5 "$f.err" "$f.txt" >&2
    fi
}

echo "machine: $(machine_line)"
if [ -z "$tables_only" ]; then
    [ -f "$ROOT/lib/libmpi.a" ] && echo "shmpi: lib/libmpi.a of $(date -u -r "$ROOT/lib/libmpi.a" '+%Y-%m-%d %H:%M:%S UTC')"
    tun=$(env | grep -E '^SHMPI_' | sort | tr '\n' ' ')
    baseline_line
    echo "shmpi tunables in the environment: ${tun:-none (library defaults)}"
    echo "runs: $runs counted rounds after $warm warm-up; one run per MPI, np and operation, interleaved; each cell timed in $batches batches (${target} ms in all) of the slowest rank's time per operation, a run reports its median batch, the table the median over runs; np=2 pinned one rank per core, np=8 not pinned; MPICH at np=8 runs sizes: ${mpich_np8_sizes:-none}; a run during which other processes took more than ${NOISE_PCT}% of the machine is run again (at most $RETRIES times)"
    printf 'sizes\t%s\n' "$sizes" >>"$raw"
    printf 'mpich8\t%s\n' "${mpich_np8_sizes:--}" >>"$raw"
    rounds=()
    for ((i = 1; i <= warm; i++)); do rounds+=(warm); done
    for ((i = 1; i <= runs; i++)); do rounds+=("$i"); done
    impls=()
    for m in shmpi base ompi mpich; do wanted $m && have $m && impls+=("$m"); done
    IFS=, read -r -a op_list <<<"$ops"
    k=0
    for r in "${rounds[@]}"; do
        for np in $np_list; do
            note "coll: round $r, np=$np"
            for o in "${op_list[@]}"; do
                n=${#impls[@]}
                for ((j = 0; j < n; j++)); do
                    run "${impls[$(((j + k) % n))]}" "$np" "$r" "$o"
                done
                k=$((k + 1))
            done
        done
    done
else
    echo "tables of $raw"
fi

# ---------------------------------------------------------- the table
awk -F'\t' "$STATS_AWK"'
function hsize(s) { return s == 0 ? "–" : s >= 1048576 ? s/1048576 " MiB" : s >= 1024 ? s/1024 " KiB" : s " B" }
function bytes(s) { return s ~ /[Kk]$/ ? s * 1024 : s ~ /[Mm]$/ ? s * 1048576 : s + 0 }
# median over runs of impl i at np n, op o, size s; "" when none, FAIL
# when a run of that impl, np and op failed
function get(i, n, o, s,    k, c, a, j) {
    if ((i SUBSEP n SUBSEP o) in failed) return "FAIL"
    k = i SUBSEP n SUBSEP o SUBSEP s
    c = cnt[k]
    if (c == 0) return ""
    for (j = 1; j <= c; j++) a[j] = val[k, j]
    sortv(a, c)
    return c % 2 ? a[(c+1)/2] : (a[c/2] + a[c/2+1]) / 2
}
function show(x, i, n, s) {
    if (x != "") return x == "FAIL" ? "FAIL" : sig(x)
    return (i == "mpich" && n > 2 && !(s in mpich8)) ? "skipped" : "–"
}
function ratio(a, b) { return num(a) && num(b) && b > 0 ? a / b : "" }
$1 == "sizes" { next }
$1 == "baseline" { blabel = $2; next }
$1 == "mpich8" { m = split($2, M, ","); for (j = 1; j <= m; j++) mpich8[bytes(M[j])] = 1; next }
$4 == "FAIL" { failed[$1, $2, $5] = $6; failrun[$1 " np=" $2 " " $5] = $6; next }
$4 == "NOISE" { nz[$1, ++nn[$1]] = $6; if ($7 > 1) rerun[$1] += $7 - 1; next }
{
    k = $1 SUBSEP $2 SUBSEP $4 SUBSEP $5
    val[k, ++cnt[k]] = $6
    if (!(($2, $4, $5) in seen)) { seen[$2, $4, $5] = 1; row[++nr] = $2 SUBSEP $4 SUBSEP $5 }
    npseen[$2] = 1
}
# the goal of a cell and the ratio it is judged by (GOAL, R); "" when none
function goal_of(n, o, s, vs, vo, best) {
    GOAL = ""; R = ""
    if (n == 2 && (o == "barrier" || (o == "allreduce" && s == 8))) { GOAL = "≤ 0.5× best"; LIM = 0.5; R = ratio(vs, best) }
    else if (n > 2 && (o == "barrier" || (o == "allreduce" && s == 8))) { GOAL = "≤ 0.35× Open MPI"; LIM = 0.35; R = ratio(vs, vo) }
    else if (o == "allreduce" && s >= 1048576) { GOAL = "≤ 0.67× best (1.5× faster)"; LIM = 1 / 1.5; R = ratio(vs, best) }
}
END {
    if (nr == 0) { print "no figures (see the errors above)"; exit }
    # rows in order: np, then op as first seen, then size
    split("barrier bcast allreduce alltoall", OPS, " ")
    print ""
    print "Latency per operation, µs (slowest rank, median batch of a run, median over runs); best = the faster of Open MPI and MPICH measured in that cell."
    print ""
    hb = blabel != ""
    print "| op | size | np | shmpi µs |" (hb ? " " blabel " µs |" : "") " Open MPI µs | MPICH µs | shmpi / best |" (hb ? " shmpi / baseline |" : "") " goal | met? |"
    print "| --- | ---: | ---: | ---: |" (hb ? " ---: | ---: |" : "") " ---: | ---: | ---: | --- | --- |"
    for (n = 2; n <= 1024; n++) {
        if (!(n in npseen)) continue
        for (x = 1; x <= 4; x++) {
            ns = 0
            for (r = 1; r <= nr; r++) { split(row[r], f, SUBSEP); if (f[1] == n && f[2] == OPS[x]) S[++ns] = f[3] + 0 }
            sortv(S, ns)
            for (y = 1; y <= ns; y++) {
                o = OPS[x]; s = S[y]
                vs = get("shmpi", n, o, s); vo = get("ompi", n, o, s); vm = get("mpich", n, o, s)
                vb = get("base", n, o, s); rbase = ratio(vs, vb)
                if (rbase != "") bl[n, ++nbl[n]] = rbase
                best = ""; if (num(vo)) best = vo; if (num(vm) && (best == "" || vm < best)) best = vm
                rb = ratio(vs, best)
                goal_of(n, o, s, vs, vo, best)
                met = ""
                if (GOAL != "") {
                    met = R == "" ? "cannot tell" : R <= LIM ? "yes" : "**no**"
                    if (R != "" && R != rb) met = met sprintf(" (%.2f× Open MPI)", R)
                    all++; if (R != "" && R <= LIM) nmet++
                    summary = summary sprintf("\n- %s %s np=%d, %s: %s", o, hsize(s), n, GOAL, R == "" ? "cannot tell" : sprintf("%.2f× — %s", R, R <= LIM ? "met" : "NOT met"))
                }
                printf "| %s | %s | %d | %s |%s %s | %s | %s |%s %s | %s |\n", o, hsize(s), n,
                    show(vs, "shmpi", n, s), hb ? " " show(vb, "base", n, s) " |" : "", show(vo, "ompi", n, s), show(vm, "mpich", n, s),
                    rb == "" ? "–" : sprintf("%.2f×", rb), hb ? " " (rbase == "" ? "–" : sprintf("%.2f×", rbase)) " |" : "", GOAL, met
            }
        }
    }
    split("shmpi base ompi mpich", I, " "); line = ""
    for (x = 1; x <= 4; x++) {
        c = nn[I[x]] + 0
        if (c == 0) continue
        for (j = 1; j <= c; j++) a[j] = nz[I[x], j] + 0
        sortv(a, c)
        line = line sprintf("%s%s %d%% (max %d%%%s)", line == "" ? "" : "; ", I[x] == "base" ? blabel : I[x], a[int((c+1)/2)], a[c],
            rerun[I[x]] ? ", " rerun[I[x]] " re-runs" : "")
    }
    if (line != "") { print ""; print "Other processes'"'"' share of the machine during the kept runs, median: " line }
    for (k in failrun) print "FAIL: " k ": " failrun[k]
    print ""
    printf "Goals (measured, not asserted): met in %d of %d cells.%s\n", nmet, all, summary
    if (hb) {
        print ""
        print "shmpi / baseline (" blabel "), per np (below 1: the working tree is faster):"
        for (n = 2; n <= 1024; n++) {
            if (!(n in nbl)) continue
            for (j = 1; j <= nbl[n]; j++) a[j] = bl[n, j]
            printf "- np=%d: median %.2f× over %d cells (%.2f× to %.2f×)\n", n, median(a, nbl[n]), nbl[n], a[1], a[nbl[n]]
        }
    }
}' "$raw"
