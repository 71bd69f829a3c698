#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# growth.sh - how costs grow with the number of ranks: the 8 B ring
# (perf/pt2pt.c -t ring) and MPI_Barrier (perf/coll.c -o barrier) at
# np = 2, 16, 64, 256, and the launch of perf/hello.c (launch.sh's method)
# at np = 256 and 1024, shmpi side by side with Open MPI and MPICH.
#
#   ring and barrier, one run per MPI, np and test:
#   np=2 (pinned, one rank per core)
#     shmpi   ./mpirun -np 2 --bind-to core pt2pt-shmpi -t ring | coll-shmpi -o barrier
#     ompi    mpirun.openmpi --allow-run-as-root -np 2 --bind-to core
#                 --mca btl self,vader pt2pt-ompi -t ring | coll-ompi -o barrier
#     mpich   mpiexec.mpich -launcher fork -np 2 -bind-to core ...
#   np>2 (oversubscribed on the 2 cores, not pinned)
#     shmpi   ./mpirun -np N ...
#     ompi    mpirun.openmpi --allow-run-as-root --oversubscribe -np N
#                 --bind-to none --mca btl self,vader ...
#     mpich   mpiexec.mpich -launcher fork -np N ...
#   launch, timed by perf/walltime.c from fork of the launcher to the
#   reaping of its last process, cells interleaved:
#     ./mpirun -np N hello-shmpi; mpirun.openmpi --allow-run-as-root
#     --oversubscribe -np N hello-ompi; mpiexec.mpich -launcher fork -np N
#     hello-mpich
#   With PERF_BASELINE=REV (any git revision), a second shmpi built from REV
#   (perf/common.sh: exported and built once per commit under
#   perf/bin/baseline/) runs as one more MPI, "shmpi@<short hash>", in
#   every cell, with its own ./mpirun and exactly shmpi's options
#   (BASE/mpirun -np 2 --bind-to core ...-base, BASE/mpirun -np N
#   ...-base, BASE/mpirun -np N hello-base), interleaved with the others
#   under the same noise guard; the tables gain its rows and a "shmpi /
#   baseline" row.  Unset: nothing of it is built, run or printed.
#
# Each ring or barrier run calibrates and times its test inside (pt2pt.c,
# coll.c: batches, a run reports its median batch; GROWTH_MS, default
# 300 ms of timed batches, at least 3 batches of one iteration when one
# iteration takes longer); a cell is the median over its runs.  Rounds are
# interleaved (per round, per np and test, the MPIs one after the other,
# order rotated).  Oversubscribed jobs are slow to start and to run (256
# ranks of a peer take seconds to launch, and a peer whose ranks poll takes
# milliseconds per ring step), so the whole benchmark is kept to ~10
# minutes by running fewer rounds at the big np: GROWTH_RUNS (default 3)
# counted rounds after GROWTH_WARMUP (1) at np < 64, GROWTH_BIG_RUNS
# (default 1) and no warm-up at np >= 64 and for every launch cell.  One
# run of Open MPI's ring at np=256 took 112 s and MPICH's 173 s, MPICH's
# ring and Barrier at np=64 about 19 s each (2026-11-29, busy machine),
# nearly all of it starting, checking and stopping ranks that poll.  A
# run that fails (non-zero exit, signal, PERF_TIMEOUT, default 240 s here;
# GROWTH_LAUNCH_TIMEOUT, default 60 s, for a launch) is a FAIL cell with
# its reason, never a time, and is not run again.
#
# Runs are guarded against other people's work like pt2pt's
# (perf/pt2pt-lib.sh, GROWTH_NOISE_PCT, else PERF_NOISE_PCT, else 10), and
# the launch rounds like launch.sh's (walltime); the output says how much
# others took.  At np >= 64 a run is not run again (it waits for a quiet
# moment first, as every run does): one takes up to minutes, and its
# ranks fill both cores, so others get little of the machine anyway.  It
# shares pt2pt's lock.
#
# Knobs: GROWTH_RUNS, GROWTH_BIG_RUNS, GROWTH_WARMUP, GROWTH_NP ("2 16 64
# 256"), GROWTH_LAUNCH_NP ("256 1024"; empty skips the launch),
# GROWTH_LAUNCH_TIMEOUT (60), GROWTH_MS,
# GROWTH_TESTS ("ring barrier"), GROWTH_ONLY (subset of "shmpi base ompi
# mpich"), PERF_BASELINE (above).  Raw figures: perf/bin/growth.tsv; run outputs:
# perf/bin/growth.out/.  GROWTH_TABLES_ONLY=1 runs nothing and prints the
# tables of the raw file again (GROWTH_RAW names another one).
set -u
. "$(dirname "$0")/common.sh"
. "$PERFDIR/pt2pt-lib.sh"
unset SHMPI_NP SHMPI_RANK SHMPI_SIZE SHMPI_ARENA_FD

runs=${GROWTH_RUNS:-3}
big_runs=${GROWTH_BIG_RUNS:-1}
warm=${GROWTH_WARMUP:-1}
TMO=${PERF_TIMEOUT:-240}
launch_tmo=${GROWTH_LAUNCH_TIMEOUT:-60}
NOISE_PCT=${GROWTH_NOISE_PCT:-${PERF_NOISE_PCT:-10}}
QUIET_WAIT=${PERF_QUIET_WAIT:-10}
RETRIES=${PERF_RETRIES:-2}
np_list=${GROWTH_NP:-2 16 64 256}
launch_np=${GROWTH_LAUNCH_NP-256 1024}
ms=${GROWTH_MS:-300}
tests=${GROWTH_TESTS:-ring barrier}
only=${GROWTH_ONLY:-shmpi base ompi mpich}
tables_only=${GROWTH_TABLES_ONLY:-}

out=$BIN/growth.out
raw=${GROWTH_RAW:-$BIN/growth.tsv}
wanted() { [[ " $only " == *" $1 "* ]]; }
big() { [ "$1" -ge 64 ]; }

declare -A built
if [ -z "$tables_only" ]; then
    pt2pt_lock growth
    build_walltime || exit 1
    use_baseline
    for p in pt2pt coll hello; do
        build_mpi "$PERFDIR/$p.c" "$p"
        for m in shmpi base ompi mpich; do have $m && built[$p-$m]=1; done
    done
    rm -rf "$out"; mkdir -p "$out"
    : >"$raw"
    [ -n "${built[hello-base]:-}" ] && printf 'baseline\t%s\n' "$BASE_LABEL" >>"$raw"
fi

# The command line of test $1 for MPI $2 at np $3 (CMD).
command_of() {
    local prog args
    case $1 in
        ring)    prog=pt2pt; args=(-t ring -T "$ms") ;;
        barrier) prog=coll; args=(-o barrier -T "$ms") ;;
    esac
    case $2-$3 in
        shmpi-2|base-2) launcher_of "$2"; CMD=("${LAUNCHER[@]}" -np 2 --bind-to core) ;;
        shmpi-*|base-*) launcher_of "$2"; CMD=("${LAUNCHER[@]}" -np "$3") ;;
        ompi-2)  CMD=(mpirun.openmpi --allow-run-as-root -np 2 --bind-to core) ;;
        ompi-*)  CMD=("${OMPI_RUN[@]}" -np "$3" --bind-to none) ;;
        mpich-2) CMD=("${MPICH_RUN[@]}" -np 2 -bind-to core) ;;
        mpich-*) CMD=("${MPICH_RUN[@]}" -np "$3") ;;
    esac
    # pt2pt's Open MPI cells name the shared-memory transport (pt2pt.sh)
    [ "$1-$2" = ring-ompi ] && CMD+=(--mca btl self,vader)
    CMD+=("$BIN/$prog-$2" "${args[@]}")
}

declare -A failed
# run TEST IMPL NP ROUND: one run under noisy_run.  Appended to $raw:
#   TEST IMPL NP ROUND US             a figure (the run's median batch, µs)
#   TEST IMPL NP ROUND NOISE OTHERS% TRIES
#   TEST IMPL NP ROUND FAIL WHY
run() {
    local t=$1 impl=$2 np=$3 round=$4 f=$out/$1-$2-$3-$4 why cause
    [ -n "${failed[$t-$impl-$np]:-}" ] && return
    command_of "$t" "$impl" "$np"
    if big "$np"; then
        [ "$NOISE_PCT" -ge 0 ] && wait_quiet
        RETRIES=0 noisy_run "$f.txt" "$f.err" "${CMD[@]}"
    else
        noisy_run "$f.txt" "$f.err" "${CMD[@]}"
    fi
    [ "$round" = warm ] && [ $RUN_RC -eq 0 ] && return
    if [ "$round" != warm ]; then
        awk -v OFS='\t' -v t="$t" -v i="$impl" -v n="$np" -v r="$round" '
            t == "ring" && $1 == "ring" && NF == 12 { print t, i, n, r, $5 }
            t == "barrier" && $1 == "barrier" && NF == 8 { print t, i, n, r, $6 }' "$f.txt" >>"$raw"
        printf '%s\t%s\t%s\t%s\tNOISE\t%s\t%s\n' "$t" "$impl" "$np" "$round" "$RUN_OTHERS" "$RUN_TRIES" >>"$raw"
    fi
    if [ $RUN_RC -ne 0 ]; then
        why=$(run_failure "$f.err" $RUN_RC "$t")
        cause=$(failure_cause "$f.err" "$f.txt")
        why="$why${cause:+: $cause}"
        failed[$t-$impl-$np]=1
        printf '%s\t%s\t%s\t%s\tFAIL\t%s\n' "$t" "$impl" "$np" "$round" "$why" >>"$raw"
        note "growth: $impl ($t, np=$np, round $round) failed: $why; last output:"
        tail -n 5 "$f.err" "$f.txt" >&2
    fi
}

# launch N: launch.sh's cells at np N, timed by walltime.  Appended to
# $raw: launch IMPL N - ok MEDIAN_S | launch IMPL N - FAIL WHY |
# launch #others N - ...
launch() {
    local n=$1 cells=() m label st a b c d cause
    for m in shmpi base ompi mpich; do
        wanted $m && [ -n "${built[hello-$m]:-}" ] || continue
        [ ${#cells[@]} -gt 0 ] && cells+=(:::)
        launcher_of $m
        cells+=("$m" 1 "${LAUNCHER[@]}" -np "$n" "$BIN/hello-$m")
    done
    [ ${#cells[@]} -eq 0 ] && return
    note "growth: launch np=$n, $big_runs rounds"
    mkdir -p "$out/launch-$n"
    "$BIN/walltime" -r "$big_runs" -w 0 -t "$launch_tmo" -l "$out/launch-$n" \
        -n "$NOISE_PCT" -q "$QUIET_WAIT" -R 0 "${cells[@]}" |
        while IFS=$'\t' read -r label st a b c d; do
            case $st in
                ok) printf 'launch\t%s\t%s\t-\tok\t%s\t%s\n' "$label" "$n" "$a" "$d" ;;
                FAIL) cause=$(failure_cause "$out/launch-$n/$label.log")
                      printf 'launch\t%s\t%s\t-\tFAIL\t%s%s\n' "$label" "$n" "$a" "${cause:+: $cause}" ;;
                *) [ "$label" = "#others" ] &&
                      printf 'launch\t#others\t%s\t-\t%s\t%s\t%s\n' "$n" "$st" "$a" "$b" ;;
            esac
        done >>"$raw"
}

echo "machine: $(machine_line)"
if [ -z "$tables_only" ]; then
    [ -f "$ROOT/lib/libmpi.a" ] && echo "shmpi: lib/libmpi.a of $(date -u -r "$ROOT/lib/libmpi.a" '+%Y-%m-%d %H:%M:%S UTC')"
    tun=$(env | grep -E '^SHMPI_' | sort | tr '\n' ' ')
    baseline_line
    echo "shmpi tunables in the environment: ${tun:-none (library defaults)}"
    echo "runs: ring and barrier $runs counted rounds after $warm warm-up at np < 64, $big_runs and no warm-up at np >= 64; launch $big_runs rounds, no warm-up, ${launch_tmo} s at most; ${ms} ms timed per run; a run during which other processes took more than ${NOISE_PCT}% of the machine is run again (at most $RETRIES times)"
    start=$SECONDS
    for np in $np_list; do
        rounds=()
        n=$runs
        big "$np" && n=$big_runs
        if ! big "$np"; then
            for ((i = 1; i <= warm; i++)); do rounds+=(warm); done
        fi
        for ((i = 1; i <= n; i++)); do rounds+=("$i"); done
        k=0
        for r in "${rounds[@]}"; do
            note "growth: np=$np, round $r ($((SECONDS - start)) s so far)"
            for t in $tests; do
                p=pt2pt; [ "$t" = barrier ] && p=coll
                impls=()
                for m in shmpi base ompi mpich; do
                    wanted $m && [ -n "${built[$p-$m]:-}" ] && impls+=("$m")
                done
                n=${#impls[@]}
                for ((j = 0; j < n; j++)); do run "$t" "${impls[$(((j + k) % n))]}" "$np" "$r"; done
                k=$((k + 1))
            done
        done
    done
    for n in $launch_np; do launch "$n"; done
    note "growth: done in $((SECONDS - start)) s"
else
    echo "tables of $raw"
fi

# ---------------------------------------------------------- the tables
awk -F'\t' -v nplist="$np_list" -v lnlist="$launch_np" "$STATS_AWK"'
function get(t, i, n,    k, c, a, j) {
    if ((t SUBSEP i SUBSEP n) in fail) return "FAIL"
    k = t SUBSEP i SUBSEP n; c = cnt[k]
    if (c == 0) return ""
    for (j = 1; j <= c; j++) a[j] = val[k, j]
    RUNS = c
    return median(a, c)
}
function show(t, i, n, x) { return x == "FAIL" ? "FAIL: " fail[t, i, n] : x == "" ? "–" : sig(x) }
function ratio(a, b) { return num(a) && num(b) && b > 0 ? sig(a / b) "×" : "–" }
$1 == "baseline" { blabel = $2; next }
$1 == "launch" && $2 == "#others" { loth[$3] = sprintf("np=%s: median %s%%, max %s%% (%s rounds re-run)", $3, $5, $6, $7); next }
$1 == "launch" && $5 == "ok" { val["launch", $2, $3, 1] = $6 * 1000; cnt["launch", $2, $3] = 1; lruns[$3] = $7; next }
$1 == "launch" { fail["launch", $2, $3] = $6; next }
$5 == "FAIL" { fail[$1, $2, $3] = $6; next }
$5 == "NOISE" { k = $1 " " $2; nz[k, ++nn[k]] = $6; if ($7 > 1) rerun[k] += $7 - 1; next }
{ k = $1 SUBSEP $2 SUBSEP $3; val[k, ++cnt[k]] = $5 }
END {
    # the MPIs, then the peers among them (I[PEER1..4])
    split("shmpi base ompi mpich", I, " "); split("shmpi|" blabel "|Open MPI|MPICH", IN, "|"); PEER1 = 3
    nnp = split(nplist, NP, " ")
    hdr = "| what | MPI |"; sep = "| --- | --- |"
    for (x = 1; x <= nnp; x++) { hdr = hdr " np=" NP[x] " |"; sep = sep " ---: |" }
    lo = hi = ""
    for (x = 1; x <= nnp; x++) { if (NP[x] == 16) lo = 16; if (NP[x] == 256) hi = 256 }
    if (lo == "") lo = NP[1]
    if (hi == "") hi = NP[nnp]
    hdr = hdr " np=" hi " / np=" lo " |"; sep = sep " ---: |"
    print ""
    print "Latency per iteration, µs: 8 B ring (MPI_Sendrecv to the right, from the left; rank 0) and MPI_Barrier (slowest rank); each run'"'"'s median batch, median over runs. np=2 pinned one rank per core; above, oversubscribed on the 2 cores."
    print ""
    print hdr; print sep
    split("ring|barrier", T, "|"); split("8 B ring, µs|Barrier, µs", TN, "|")
    for (x = 1; x <= 2; x++) {
        t = T[x]
        for (y = 1; y <= 4; y++) {
            line = "| " TN[x] " | " IN[y] " |"; any = 0
            for (z = 1; z <= nnp; z++) {
                v = get(t, I[y], NP[z]); if (v != "") any = 1
                line = line " " show(t, I[y], NP[z], v) " |"
            }
            if (!any) continue
            line = line " " ratio(get(t, I[y], hi), get(t, I[y], lo)) " |"
            print line
        }
        line = "| " TN[x] " | shmpi / best peer |"; anyb = 0
        for (z = 1; z <= nnp; z++) {
            s = get(t, "shmpi", NP[z]); b = ""
            for (y = PEER1; y <= 4; y++) { v = get(t, I[y], NP[z]); if (num(v) && (b == "" || v < b)) b = v }
            if (b != "") anyb = 1
            line = line " " ratio(s, b) " |"
        }
        if (anyb) print line " – |"
        if (blabel != "") {
            line = "| " TN[x] " | shmpi / baseline |"
            for (z = 1; z <= nnp; z++) line = line " " ratio(get(t, "shmpi", NP[z]), get(t, "base", NP[z])) " |"
            print line " – |"
        }
    }
    nl = split(lnlist, LN, " ")
    if (nl > 0) {
        print ""
        print "Launch of hello (MPI_Init, rank and size, one line, MPI_Finalize), ms from fork of the launcher to the reaping of its last process; median of " lruns[LN[1]] " run(s):"
        print ""
        hdr = "| MPI |"; sep = "| --- |"
        for (z = 1; z <= nl; z++) { hdr = hdr " np=" LN[z] " |"; sep = sep " ---: |" }
        if (nl > 1) { hdr = hdr " np=" LN[nl] " / np=" LN[1] " |"; sep = sep " ---: |" }
        print hdr; print sep
        for (y = 1; y <= 4; y++) {
            line = "| " IN[y] " |"; any = 0
            for (z = 1; z <= nl; z++) {
                v = get("launch", I[y], LN[z]); if (v != "") any = 1
                line = line " " show("launch", I[y], LN[z], v) " |"
            }
            if (!any) continue
            if (nl > 1) line = line " " ratio(get("launch", I[y], LN[nl]), get("launch", I[y], LN[1])) " |"
            print line
        }
        line = "| shmpi / best peer |"; anyb = 0
        for (z = 1; z <= nl; z++) {
            s = get("launch", "shmpi", LN[z]); b = ""
            for (y = PEER1; y <= 4; y++) { v = get("launch", I[y], LN[z]); if (num(v) && (b == "" || v < b)) b = v }
            if (b != "") anyb = 1
            line = line " " ratio(s, b) " |"
        }
        if (anyb) print line (nl > 1 ? " – |" : "")
        if (blabel != "") {
            line = "| shmpi / baseline |"
            for (z = 1; z <= nl; z++) line = line " " ratio(get("launch", "shmpi", LN[z]), get("launch", "base", LN[z])) " |"
            print line (nl > 1 ? " – |" : "")
        }
    }
    line = ""
    for (y = 1; y <= 4; y++) for (x = 1; x <= 2; x++) {
        k = T[x] " " I[y]; c = nn[k] + 0
        if (c == 0) continue
        for (j = 1; j <= c; j++) a[j] = nz[k, j] + 0
        sortv(a, c)
        line = line sprintf("%s%s %s %d%% (max %d%%%s)", line == "" ? "" : "; ", I[y] == "base" ? blabel : I[y], T[x], a[int((c+1)/2)], a[c],
            rerun[k] ? ", " rerun[k] " re-runs" : "")
    }
    for (z = 1; z <= nl; z++) if (LN[z] in loth) line = line (line == "" ? "" : "; ") "launch " loth[LN[z]]
    if (line != "") { print ""; print "Other processes'"'"' share of the machine during the kept runs, median: " line }
}' "$raw"
