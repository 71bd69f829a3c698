#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# threads.sh - small-message rate with 1, 2 and 4 threads per rank under
# MPI_THREAD_MULTIPLE, one communicator per thread ("dup") or all threads
# on MPI_COMM_WORLD with a tag each ("world"), and 8 B latency with one
# thread at MPI_THREAD_SINGLE and at MPI_THREAD_MULTIPLE (perf/threads.c),
# shmpi side by side with Open MPI and MPICH.
#
#   2 ranks, each bound to one core (THREADS_BIND=core, the default), so a
#   rank's threads share its core; two runs per MPI and round:
#     shmpi   ./mpirun -np 2 --bind-to core threads-shmpi -l multiple -n 1,2,4
#             ./mpirun -np 2 --bind-to core threads-shmpi -l single -n 1
#     ompi    mpirun.openmpi --allow-run-as-root -np 2 --bind-to core
#                 --mca btl self,vader threads-ompi -l ...
#     mpich   mpiexec.mpich -launcher fork -np 2 -bind-to core threads-mpich -l ...
#   THREADS_BIND=none runs every MPI unbound (--bind-to none, -bind-to
#   none) and lets the kernel place the threads.
#   With PERF_BASELINE=REV a second shmpi built from REV (perf/common.sh)
#   runs with exactly shmpi's options as one more MPI, "shmpi@<hash>".
#
# The machine has 2 cores: 2 ranks x 2 threads already oversubscribe it,
# and 4 threads per rank do so twice over, pinned or not.  Those rows
# measure how an MPI's waiting threads give the core to the thread that
# has work (spinning, yielding, sleeping), not how its paths scale; the
# tables say so.  A library that does not provide MPI_THREAD_MULTIPLE runs
# only the one-thread rows; its other cells read "not run: provided ...".
#
# Rounds are interleaved: per round the MPIs one after the other, the order
# rotated; PERF_WARMUP uncounted rounds (default 1), then THREADS_RUNS
# counted ones (default PERF_RUNS, else 5).  Each run times every cell in
# 9 batches (THREADS_TARGET_MS, 200 ms per cell) labelled "near", "far" or
# "mixed" by the cache-line probe (perf/bench.h); a run's figure for a
# cell is its median batch, a table cell the median of those over the
# runs, with min-max; a second table gives medians over the near batches
# and over the far batches of all runs, where the VM's state matters most
# (one thread).  A run that fails (non-zero exit, signal, PERF_TIMEOUT,
# default 120 s; a wrong result is exit 3) marks that MPI's cells of that
# level FAIL and is not run again.  Runs are guarded against other
# people's work like pt2pt's (perf/pt2pt-lib.sh: THREADS_NOISE_PCT, else
# PERF_NOISE_PCT, 10 %; PERF_QUIET_WAIT, 20 s; PERF_RETRIES, 2) and take
# pt2pt's lock.
#
# Knobs: THREADS_RUNS, THREADS_TARGET_MS, THREADS_LIST (1,2,4),
# THREADS_BIND (core or none), THREADS_NEAR_NS (150), THREADS_ONLY (subset
# of "shmpi base ompi mpich"), PERF_BASELINE.  Raw figures:
# perf/bin/threads.tsv; run outputs: perf/bin/threads.out/.
# THREADS_TABLES_ONLY=1 runs nothing and prints the tables again
# (THREADS_RAW names another raw file).
set -u
. "$(dirname "$0")/common.sh"
. "$PERFDIR/pt2pt-lib.sh"
unset SHMPI_NP SHMPI_RANK SHMPI_SIZE SHMPI_ARENA_FD

runs=${THREADS_RUNS:-${PERF_RUNS:-5}}
warm=${PERF_WARMUP:-1}
TMO=${PERF_TIMEOUT:-120}
NOISE_PCT=${THREADS_NOISE_PCT:-${PERF_NOISE_PCT:-10}}
QUIET_WAIT=${PERF_QUIET_WAIT:-20}
RETRIES=${PERF_RETRIES:-2}
target=${THREADS_TARGET_MS:-200}
tlist=${THREADS_LIST:-1,2,4}
bind=${THREADS_BIND:-core}
near_ns=${THREADS_NEAR_NS:-150}
only=${THREADS_ONLY:-shmpi base ompi mpich}
tables_only=${THREADS_TABLES_ONLY:-}
case $bind in
    core|none) ;;
    *) note "threads: THREADS_BIND='$bind' is neither core nor none"; exit 2 ;;
esac

out=$BIN/threads.out
raw=${THREADS_RAW:-$BIN/threads.tsv}
wanted() { [[ " $only " == *" $1 "* ]]; }

if [ -z "$tables_only" ]; then
    pt2pt_lock threads
    use_baseline
    build_mpi "$PERFDIR/threads.c" threads -pthread
    rm -rf "$out"; mkdir -p "$out"
    : >"$raw"
    have base && printf 'baseline\t%s\n' "$BASE_LABEL" >>"$raw"
    printf 'bind\t%s\n' "$bind" >>"$raw"
fi

# The command line of MPI $1 (CMD), bound as THREADS_BIND says.
command_of() {
    case $1 in
        shmpi|base) launcher_of "$1"; CMD=("${LAUNCHER[@]}" -np 2 --bind-to "$bind") ;;
        ompi)  CMD=(mpirun.openmpi --allow-run-as-root -np 2 --bind-to "$bind" --mca btl self,vader) ;;
        mpich) CMD=("${MPICH_RUN[@]}" -np 2 -bind-to "$bind") ;;
    esac
    CMD+=("$BIN/threads-$1")
}

declare -A failed
# run IMPL ROUND LEVEL: one run under noisy_run.  Appended to $raw:
#   IMPL ROUND batch TEST MODE T LEVEL VALUE STATE   a timed batch
#   IMPL ROUND cell TEST MODE T LEVEL MEDIAN         the run's median batch
#   IMPL ROUND provided LEVEL PROVIDED               what Init_thread gave
#   IMPL ROUND unsup TEST MODE T LEVEL PROVIDED      a row not run
#   IMPL ROUND NOISE LEVEL OTHERS% TRIES             the noise of a run
#   IMPL ROUND FAIL LEVEL WHY                        a failed run
run() {
    local impl=$1 round=$2 level=$3 why n
    local f=$out/$impl-$round-$level
    [ -n "${failed[$impl-$level]:-}" ] && return
    n=$tlist
    [ "$level" = single ] && n=1
    command_of "$impl"
    noisy_run "$f.txt" "$f.err" "${CMD[@]}" -l "$level" -n "$n" -T "$target" -P "$near_ns"
    [ "$round" = warm ] && [ $RUN_RC -eq 0 ] && return
    if [ "$round" != warm ]; then
        awk -v OFS='\t' -v i="$impl" -v r="$round" -v l="$level" '
            $1 == "batch" && NF == 10 { print i, r, "batch", $2, $3, $4, $5, $6, $8 }
            $1 == "cell" && NF == 9 { print i, r, "cell", $2, $3, $4, $5, $8 }
            $1 == "provided" { print i, r, "provided", l, $2 }
            $1 == "unsup" { print i, r, "unsup", $2, $3, $4, $5, $6 }' "$f.txt" >>"$raw"
        printf '%s\t%s\tNOISE\t%s\t%s\t%s\n' "$impl" "$round" "$level" "$RUN_OTHERS" "$RUN_TRIES" >>"$raw"
    fi
    if [ $RUN_RC -ne 0 ]; then
        case $RUN_RC in
            3) why="wrong result: $(grep -m1 'wrong result' "$f.err")" ;;
            124|137) why="timed out after ${TMO}s" ;;
            1[3-9][0-9]) why="killed by signal $((RUN_RC - 128))" ;;
            *) why="exit status $RUN_RC" ;;
        esac
        failed[$impl-$level]=1
        printf '%s\t%s\tFAIL\t%s\t%s\n' "$impl" "$round" "$level" "$why" >>"$raw"
        note "threads: $impl (level $level, round $round) failed: $why; last output:"
        tail -n 5 "$f.err" "$f.txt" >&2
    fi
}

echo "machine: $(machine_line)"
if [ -z "$tables_only" ]; then
    [ -f "$ROOT/lib/libmpi.a" ] && echo "shmpi: lib/libmpi.a of $(date -u -r "$ROOT/lib/libmpi.a" '+%Y-%m-%d %H:%M:%S UTC')"
    tun=$(env | grep -E '^SHMPI_' | sort | tr '\n' ' ')
    baseline_line
    echo "shmpi tunables in the environment: ${tun:-none (library defaults)}"
    echo "runs: $runs counted rounds after $warm warm-up; per round and MPI one run at MPI_THREAD_MULTIPLE (threads $tlist) and one at MPI_THREAD_SINGLE (one thread), interleaved; each cell timed in 9 batches (${target} ms in all); binding: $bind; a run during which other processes took more than ${NOISE_PCT}% of the machine is run again (at most $RETRIES times)"
    rounds=()
    for ((i = 1; i <= warm; i++)); do rounds+=(warm); done
    for ((i = 1; i <= runs; i++)); do rounds+=("$i"); done
    impls=()
    for m in shmpi base ompi mpich; do wanted $m && have $m && impls+=("$m"); done
    k=0
    for r in "${rounds[@]}"; do
        note "threads: round $r"
        n=${#impls[@]}
        for ((j = 0; j < n; j++)); do
            m=${impls[$(((j + k) % n))]}
            run "$m" "$r" multiple
            run "$m" "$r" single
        done
        k=$((k + 1))
    done
else
    echo "tables of $raw"
fi

# ---------------------------------------------------------- the tables
awk -F'\t' -v thr="$near_ns" "$STATS_AWK"'
function label(i) { return i == "shmpi" ? "shmpi" : i == "base" ? blabel : i == "ompi" ? "Open MPI" : "MPICH" }
function lname(l) { return l == "single" ? "SINGLE" : "MULTIPLE" }
function pname(p) { sub(/^MPI_THREAD_/, "", p); return p }
# a figure: msg/s in millions, µs as they are
function fig(t, x) { return t == "rate" ? sig(x / 1e6) : sig(x) }
# median over the runs of impl i, row k; sets LO, HI, N
function runs_med(i, k,    n, a, j) {
    n = rc[i, k] + 0
    if (n == 0) return ""
    for (j = 1; j <= n; j++) a[j] = rv[i, k, j]
    sortv(a, n); LO = a[1]; HI = a[n]; N = n
    return median(a, n)
}
# median over the batches of impl i, row k in state st; sets N
function state_med(i, k, st,    n, a, j) {
    n = 0
    for (j = 1; j <= bc[i, k]; j++) if (bs[i, k, j] == st) a[++n] = bv[i, k, j]
    N = n
    return n ? median(a, n) : ""
}
# why impl i has no figure for row k
function missing(i, k, l) {
    if ((i, l) in failed) return "FAIL"
    if ((i, k) in unsup) return "not run: provided " pname(unsup[i, k])
    return "–"
}
$1 == "baseline" { blabel = $2; next }
$1 == "bind" { bind = $2; next }
$3 == "FAIL" { failed[$1, $4] = $5; failrun[label($1) " " lname($4)] = $5; next }
$3 == "NOISE" { nz[$1, ++nn[$1]] = $5; if ($6 > 1) rerun[$1] += $6 - 1; next }
$3 == "provided" { prov[$1, $4] = $5; seen_i[$1] = 1; next }
$3 == "unsup" { unsup[$1, $4 SUBSEP $5 SUBSEP $6 SUBSEP $7] = $8; next }
$3 == "cell" { k = $4 SUBSEP $5 SUBSEP $6 SUBSEP $7; rv[$1, k, ++rc[$1, k]] = $8; next }
$3 == "batch" {
    k = $4 SUBSEP $5 SUBSEP $6 SUBSEP $7; j = ++bc[$1, k]
    bv[$1, k, j] = $8; bs[$1, k, j] = $9; ns[$1, $9]++
}
function rowname(t, m, n, l,    s) {
    s = t == "lat" ? "8 B latency, µs" : "8 B rate, " m ", M msg/s"
    s = s " | " n " | " lname(l)
    if (n > 1) s = s " (" 2 * n " threads on 2 cores: **oversubscribed**)"
    return s
}
END {
    split("shmpi base ompi mpich", I, " ")
    ni = 0
    for (x = 1; x <= 4; x++) if (I[x] in seen_i) C[++ni] = I[x]
    if (ni == 0) { print "no figures (see the errors above)"; exit }
    # rows: latency at both levels, one-thread rates at both levels, then
    # the threaded rates
    nr = 0
    R[++nr] = "lat" SUBSEP "-" SUBSEP 1 SUBSEP "single"
    R[++nr] = "lat" SUBSEP "-" SUBSEP 1 SUBSEP "multiple"
    split("dup world", M, " ")
    for (y = 1; y <= 2; y++) R[++nr] = "rate" SUBSEP M[y] SUBSEP 1 SUBSEP "single"
    for (y = 1; y <= 2; y++) for (n = 1; n <= 64; n++) {
        k = "rate" SUBSEP M[y] SUBSEP n SUBSEP "multiple"
        for (x = 1; x <= ni; x++) if (rc[C[x], k] || ((C[x], k) in unsup) || (n == 1 && (C[x], "multiple") in failed)) { R[++nr] = k; break }
    }
    print ""
    line = ""
    for (x = 1; x <= ni; x++)
        line = line sprintf("%s%s: asked MULTIPLE, provided %s; asked SINGLE, provided %s", x > 1 ? "; " : "", label(C[x]),
            (C[x], "multiple") in prov ? pname(prov[C[x], "multiple"]) : "?", (C[x], "single") in prov ? pname(prov[C[x], "single"]) : "?")
    print "Levels: " line "."
    print "Binding: " (bind == "none" ? "none (the kernel places every thread)" : "each rank bound to one core; its threads share that core") "."
    print ""
    print "Median over the runs of each run'"'"'s median batch (min–max over the runs); rate: messages per second per rank, summed over its threads, in millions; latency: half the round trip, µs."
    print ""
    hdr = "| test | threads per rank | level asked |"; sep = "| --- | ---: | --- |"
    for (x = 1; x <= ni; x++) { hdr = hdr " " label(C[x]) " |"; sep = sep " ---: |" }
    print hdr; print sep
    for (r = 1; r <= nr; r++) {
        split(R[r], f, SUBSEP); out = "| " rowname(f[1], f[2], f[3], f[4]) " |"
        for (x = 1; x <= ni; x++) {
            v = runs_med(C[x], R[r])
            out = out " " (v == "" ? missing(C[x], R[r], f[4]) : fig(f[1], v) " (" fig(f[1], LO) "–" fig(f[1], HI) ")") " |"
        }
        print out
    }
    print ""
    print "By the VM'"'"'s state (cache-line probe < " thr " ns before and after a batch: near; ≥ both: far): medians over those batches of all runs, near / far (batches near / far):"
    print ""
    print hdr; print sep
    for (r = 1; r <= nr; r++) {
        split(R[r], f, SUBSEP); out = "| " rowname(f[1], f[2], f[3], f[4]) " |"
        for (x = 1; x <= ni; x++) {
            a = state_med(C[x], R[r], "near"); na = N; b = state_med(C[x], R[r], "far"); nb = N
            if (na + nb == 0) { out = out " " (bc[C[x], R[r]] ? "mixed only" : missing(C[x], R[r], f[4])) " |"; continue }
            out = out sprintf(" %s / %s (%d / %d) |", a == "" ? "–" : fig(f[1], a), b == "" ? "–" : fig(f[1], b), na, nb)
        }
        print out
    }
    # MULTIPLE with one thread against SINGLE, per MPI and state
    print ""
    print "One thread, MULTIPLE over SINGLE (same MPI, same state; latency above 1 and rate below 1 are costs of MULTIPLE):"
    print ""
    kl1 = "lat" SUBSEP "-" SUBSEP 1 SUBSEP "single"; kl2 = "lat" SUBSEP "-" SUBSEP 1 SUBSEP "multiple"
    for (x = 1; x <= ni; x++) {
        line = ""
        split("near far", S, " ")
        for (s = 1; s <= 2; s++) {
            a = state_med(C[x], kl1, S[s]); b = state_med(C[x], kl2, S[s])
            if (num(a) && num(b) && a > 0) line = line sprintf("%s%s %.3f×", line == "" ? "" : ", ", S[s], b / a)
        }
        d1 = runs_med(C[x], "rate" SUBSEP "world" SUBSEP 1 SUBSEP "single"); d2 = runs_med(C[x], "rate" SUBSEP "world" SUBSEP 1 SUBSEP "multiple")
        pm = (C[x], "multiple") in prov ? pname(prov[C[x], "multiple"]) : "MULTIPLE"
        printf "- %s%s: 8 B latency %s; rate (world, median over runs) %s\n", label(C[x]),
            pm == "MULTIPLE" ? "" : " (asked MULTIPLE, provided " pm ": not yet a cost of MULTIPLE)", line == "" ? "cannot tell (no state with both)" : line,
            (num(d1) && num(d2) && d1 > 0 ? sprintf("%.3f×", d2 / d1) : "cannot tell")
    }
    line = ""
    for (x = 1; x <= ni; x++) {
        c = nn[C[x]] + 0
        if (c == 0) continue
        for (j = 1; j <= c; j++) a_[j] = nz[C[x], j] + 0
        sortv(a_, c)
        line = line sprintf("%s%s %d%% (max %d%%%s)", line == "" ? "" : "; ", label(C[x]), a_[int((c+1)/2)], a_[c],
            rerun[C[x]] ? ", " rerun[C[x]] " re-runs" : "")
    }
    counts = ""
    for (x = 1; x <= ni; x++)
        counts = counts sprintf("%s%s %d near, %d far, %d mixed", x > 1 ? "; " : "", label(C[x]), ns[C[x], "near"], ns[C[x], "far"], ns[C[x], "mixed"])
    print ""; print "Timed batches per state: " counts
    if (line != "") print "Other processes'"'"' share of the machine during the kept runs, median: " line
    for (k in failrun) print "FAIL: " k ": " failrun[k]
}' "$raw"
