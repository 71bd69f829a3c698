#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# memory.sh - what a job of many ranks costs in memory: peak /dev/shm,
# resident memory and address space of perf/memory.c (every pair of ranks
# exchanges 100 messages of 8 B and one of 64 KiB, both ways, payloads
# checked) at np = 16, 64 and 128 on the 2 cores, shmpi side by side with
# Open MPI and MPICH; and whether the np=64 job runs at all in a 64 MiB
# /dev/shm (a container's default).
#
#   One job per MPI and np (not pinned: the ranks share the 2 cores):
#     shmpi   ./mpirun -np N memory-shmpi
#     ompi    mpirun.openmpi --allow-run-as-root --oversubscribe -np N
#                 --bind-to none memory-ompi
#     mpich   mpiexec.mpich -launcher fork -np N memory-mpich
#   each inside
#     unshare -m -p -f --kill-child --mount-proc sh -c \
#         'mount -t tmpfs -o size=SIZE tmpfs /dev/shm && exec memwatch ... -- JOB'
#   a private mount namespace with a /dev/shm of its own (nothing else on
#   the machine writes there, and the job sees it empty) and a private PID
#   namespace (everything in it is the job; killing it kills all of it).
#   SIZE is MEMORY_SHM_SIZE (default 50% of RAM) for the figures and 64m
#   for the 64 MiB row.  Not root: unshare -r too (user namespaces).
#
# perf/memwatch.c samples, while the job runs, the used bytes of /dev/shm
# every 2 ms (statfs: the blocks tmpfs allocated, what a size= limit
# counts) and every 20 ms VmHWM of each of the job's processes (launcher
# and helpers included).  Figures: peak /dev/shm minus what it held
# before; the sum over the processes of their peak RSS (shared pages
# count in every process that touched them); VmPeak of one rank (the
# largest over the ranks, from /proc/self/status after the exchange);
# the exchange's wall time on rank 0 (informative: oversubscribed).
#
# These are amounts, not times: the machine's load does not change them,
# so there is no noise guard and, by default, one run per cell
# (MEMORY_RUNS; with more, the table gives medians).  A run that fails
# (non-zero exit, signal, PERF_TIMEOUT, default 300 s here) is a FAIL cell
# with its reason (the first error line it printed), never a figure.
#
# Knobs: MEMORY_RUNS (1), MEMORY_NP ("16 64 128"), MEMORY_SHM_SIZE (50%),
# MEMORY_SMALL_NP (64: the np of the 64 MiB row; empty skips the row),
# MEMORY_ONLY (subset of "shmpi ompi mpich").  Raw figures:
# perf/bin/memory.tsv; run outputs: perf/bin/memory.out/.
# MEMORY_TABLES_ONLY=1 runs nothing and prints the table of the raw file
# again (MEMORY_RAW names another one).
set -u
. "$(dirname "$0")/common.sh"
. "$PERFDIR/pt2pt-lib.sh"
unset SHMPI_NP SHMPI_RANK SHMPI_SIZE SHMPI_ARENA_FD

runs=${MEMORY_RUNS:-1}
TMO=${PERF_TIMEOUT:-300}
NOISE_PCT=-1   # amounts, not times: no guard (pt2pt-lib.sh's noisy_run)
np_list=${MEMORY_NP:-16 64 128}
shm_size=${MEMORY_SHM_SIZE:-50%}
small_np=${MEMORY_SMALL_NP-64}
only=${MEMORY_ONLY:-shmpi ompi mpich}
tables_only=${MEMORY_TABLES_ONLY:-}

out=$BIN/memory.out
raw=${MEMORY_RAW:-$BIN/memory.tsv}
wanted() { [[ " $only " == *" $1 "* ]]; }

# unshare as root needs no user namespace; as anyone else it maps root
ns=(unshare -m -p -f --kill-child --mount-proc)
[ "$(id -u)" -ne 0 ] && ns+=(-r)

if [ -z "$tables_only" ]; then
    pt2pt_lock memory
    if ! "${ns[@]}" sh -c 'mount -t tmpfs -o size=1m tmpfs /dev/shm' 2>/dev/null; then
        note "memory: cannot make a private /dev/shm (${ns[*]} and mount -t tmpfs: needs root or user namespaces); skipped"
        exit 0
    fi
    if [ ! -x "$BIN/memwatch" ] || [ "$PERFDIR/memwatch.c" -nt "$BIN/memwatch" ]; then
        "$CC" -std=c11 -O2 -Wall -Wextra -o "$BIN/memwatch" "$PERFDIR/memwatch.c" ||
            { note "perf: cannot build memwatch"; exit 1; }
    fi
    build_mpi "$PERFDIR/memory.c" memory
    rm -rf "$out"; mkdir -p "$out"
    : >"$raw"
fi

# The command line of MPI $1 at np $2 (CMD).
command_of() {
    case $1 in
        shmpi) CMD=("${SHMPI_RUN[@]}" -np "$2" "$BIN/memory-shmpi") ;;
        ompi)  CMD=("${OMPI_RUN[@]}" -np "$2" --bind-to none "$BIN/memory-ompi") ;;
        mpich) CMD=("${MPICH_RUN[@]}" -np "$2" "$BIN/memory-mpich") ;;
    esac
}

# Why a run failed: its exit status and the line of its output that says
# why (pt2pt-lib.sh).
why_failed() {
    local what cause
    what=$(run_failure "$1.err" "$2" memory)
    cause=$(failure_cause "$1.err" "$1.txt")
    printf '%s%s' "$what" "${cause:+: $cause}"
}

declare -A failed
# run IMPL NP ROUND SIZE CELL: one job.  Appended to $raw:
#   IMPL CELL ROUND KEY VALUE       a figure (shm_peak_bytes, rss_sum_kib,
#                                   vmpeak_max_kib, seconds, ...)
#   IMPL CELL ROUND FAIL WHY        a failed run
run() {
    local impl=$1 np=$2 round=$3 size=$4 cell=$5
    local f=$out/$impl-$cell-$round
    [ -n "${failed[$impl-$cell]:-}" ] && return
    command_of "$impl" "$np"
    noisy_run "$f.txt" "$f.err" "${ns[@]}" sh -c \
        'mount -t tmpfs -o "size=$1" tmpfs /dev/shm && shift && exec "$@"' sh "$size" \
        "$BIN/memwatch" -o "$f.mw" -- "${CMD[@]}"
    if [ -f "$f.mw" ]; then
        awk -v OFS='\t' -v i="$impl" -v c="$cell" -v r="$round" '{ print i, c, r, $1, $2 }' "$f.mw" >>"$raw"
    fi
    awk -v OFS='\t' -v i="$impl" -v c="$cell" -v r="$round" '
        $1 == "memory" && NF == 6 { print i, c, r, "seconds", $3; print i, c, r, "vmpeak_rank0_kib", $4
                                    print i, c, r, "vmpeak_max_kib", $5; print i, c, r, "vmhwm_ranks_kib", $6 }' \
        "$f.txt" >>"$raw"
    if [ $RUN_RC -ne 0 ]; then
        failed[$impl-$cell]=1
        printf '%s\t%s\t%s\tFAIL\t%s\n' "$impl" "$cell" "$round" "$(why_failed "$f" $RUN_RC)" >>"$raw"
        note "memory: $impl ($cell, round $round) failed; last output:"
        tail -n 5 "$f.err" "$f.txt" >&2
    fi
}

echo "machine: $(machine_line)"
if [ -z "$tables_only" ]; then
    [ -f "$ROOT/lib/libmpi.a" ] && echo "shmpi: lib/libmpi.a of $(date -u -r "$ROOT/lib/libmpi.a" '+%Y-%m-%d %H:%M:%S UTC')"
    tun=$(env | grep -E '^SHMPI_' | sort | tr '\n' ' ')
    echo "shmpi tunables in the environment: ${tun:-none (library defaults)}"
    echo "runs: $runs per MPI and np, interleaved; each job in a private mount and PID namespace with its own tmpfs on /dev/shm (size=$shm_size; the last row size=64m); /dev/shm sampled every 2 ms, the processes every 20 ms"
    rounds=()
    for ((i = 1; i <= runs; i++)); do rounds+=("$i"); done
    impls=()
    for m in shmpi ompi mpich; do wanted $m && have $m && impls+=("$m"); done
    k=0
    for r in "${rounds[@]}"; do
        for np in $np_list; do
            note "memory: round $r, np=$np"
            n=${#impls[@]}
            for ((j = 0; j < n; j++)); do
                run "${impls[$(((j + k) % n))]}" "$np" "$r" "$shm_size" "$np"
            done
            k=$((k + 1))
        done
        if [ -n "$small_np" ]; then
            note "memory: round $r, np=$small_np in a 64 MiB /dev/shm"
            for m in "${impls[@]}"; do run "$m" "$small_np" "$r" 64m "$small_np-64M"; done
        fi
    done
else
    echo "tables of $raw"
fi

# ---------------------------------------------------------- the table
awk -F'\t' "$STATS_AWK"'
function get(i, c, key,    k, n, a, j) {
    if ((i SUBSEP c) in fail) return "FAIL"
    k = i SUBSEP c SUBSEP key; n = cnt[k]
    if (n == 0) return ""
    for (j = 1; j <= n; j++) a[j] = val[k, j]
    return median(a, n)
}
function mib(x, scale) { return num(x) ? sig(x * scale / 1048576) : x }
# a failed cell gives its reason once, in the first row of its np
function show(i, c, x, first) { return x == "FAIL" ? (first ? "FAIL: " fail[i, c] : "FAIL") : x == "" ? "–" : x }
$4 == "FAIL" { fail[$1, $2] = $5; next }
{
    k = $1 SUBSEP $2 SUBSEP $4
    val[k, ++cnt[k]] = $5
    if (!($2 in seen)) { seen[$2] = 1; cells[++nc] = $2 }
}
END {
    if (nc == 0) { print "no figures (see the errors above)"; exit }
    split("shmpi ompi mpich", I, " ")
    split("shm_peak_bytes 1 peak /dev/shm, MiB|rss_sum_kib 1024 resident memory, sum of every process'"'"'s peak, MiB|vmpeak_max_kib 1024 address space (VmPeak) of one rank, the largest, MiB|seconds 0 the exchange, s (rank 0; oversubscribed)", W, "|")
    print ""
    print "| np | what | shmpi | Open MPI | MPICH | shmpi / best peer |"
    print "| ---: | --- | ---: | ---: | ---: | ---: |"
    for (x = 1; x <= nc; x++) {
        c = cells[x]
        if (c ~ /-64M$/) continue
        for (w = 1; w <= 4; w++) {
            split(W[w], f, " "); what = W[w]; sub(/^[^ ]+ [^ ]+ /, "", what)
            best = ""
            for (y = 1; y <= 3; y++) {
                v[y] = get(I[y], c, f[1])
                if (y > 1 && num(v[y]) && (best == "" || v[y] < best)) best = v[y]
                s[y] = f[2] > 0 ? mib(v[y], f[2]) : num(v[y]) ? sig(v[y]) : v[y]
                s[y] = show(I[y], c, s[y], w == 1)
            }
            r = num(v[1]) && best != "" && best > 0 ? sprintf("%.2f×", v[1] / best) : "–"
            printf "| %s | %s | %s | %s | %s | %s |\n", c, what, s[1], s[2], s[3], r
        }
    }
    for (x = 1; x <= nc; x++) {
        c = cells[x]
        if (c !~ /-64M$/) continue
        n = c; sub(/-64M$/, "", n)
        for (y = 1; y <= 3; y++) {
            p = get(I[y], c, "shm_peak_bytes")
            t[y] = p == "FAIL" ? "FAIL: " fail[I[y], c] : p == "" ? "–" : "runs (peak " mib(p, 1) " MiB)"
        }
        printf "| %s | in a 64 MiB /dev/shm | %s | %s | %s | – |\n", n, t[1], t[2], t[3]
    }
    # what the job left in /dev/shm after it ended (should be nothing)
    for (x = 1; x <= nc; x++) for (y = 1; y <= 3; y++) {
        l = get(I[y], cells[x], "shm_left_bytes"); lp = get(I[y], cells[x], "left_procs")
        if (num(l) && l > 0) print "\nleft in /dev/shm after the job: " I[y] " np=" cells[x] ": " mib(l, 1) " MiB"
        if (num(lp) && lp > 0) print "\nprocesses still running 10 s after the launcher exited (killed): " I[y] " np=" cells[x] ": " lp
    }
}' "$raw"
