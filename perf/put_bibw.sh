#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# put_bibw.sh - osu_put_bibw's pattern (perf/put_bibw.c): both ranks put
# 64 messages per epoch into each other, a new window per message size
# (1 B to PUT_BIBW_MAX), for every window kind (MPI_Win_create,
# MPI_Win_allocate, MPI_Win_create_dynamic) and synchronization (fence,
# PSCW); shmpi side by side with Open MPI and MPICH.  np=2, pinned one
# rank per core.
#
#   One run per MPI, window and sync (all sizes in that run):
#     shmpi    ./mpirun -np 2 --bind-to core put_bibw-shmpi -w WIN -s SYNC
#     ompi     mpirun.openmpi --allow-run-as-root -np 2 --bind-to core
#                  put_bibw-ompi -w WIN -s SYNC
#     mpich    mpiexec.mpich -launcher fork -np 2 -bind-to core
#                  put_bibw-mpich -w WIN -s SYNC
#
# A run checks the data its puts left (put_bibw.c) and exits 3 on a wrong
# result: that MPI's cells of that window and sync then read FAIL, never
# a figure, and it is not run for them again.  Rounds are interleaved:
# per round, per window and sync, the three MPIs one after the other
# (order rotated); PERF_WARMUP uncounted rounds (default 1), then
# PUT_BIBW_RUNS counted ones (default PERF_RUNS, else 3).  A cell of the
# table is the median over the counted runs of the run's whole time (the
# program's MPI_Init to its last size, what a user waits for: windows
# made and freed included) and of the bandwidth at some sizes (OSU's
# figure, MB/s of both directions, the timed iterations only).
#
# Runs are guarded against other people's work like pt2pt's
# (perf/pt2pt-lib.sh), with PUT_BIBW_NOISE_PCT (default PERF_NOISE_PCT,
# else 10), and share pt2pt's lock.
#
# Knobs: PUT_BIBW_RUNS, PUT_BIBW_MAX (largest size, default 4M),
# PUT_BIBW_WINDOWS (default create,allocate,dynamic), PUT_BIBW_SYNCS
# (default fence,pscw), PUT_BIBW_SIZES (the sizes whose bandwidth the
# table shows, default 64,8192,1048576,4194304), PUT_BIBW_ONLY (subset of
# "shmpi ompi mpich").  Raw figures: perf/bin/put_bibw.tsv; run outputs:
# perf/bin/put_bibw.out/.  PUT_BIBW_TABLES_ONLY=1 runs nothing and prints
# the table of the raw file again (PUT_BIBW_RAW names another one).
set -u
. "$(dirname "$0")/common.sh"
. "$PERFDIR/pt2pt-lib.sh"
unset SHMPI_NP SHMPI_RANK SHMPI_SIZE SHMPI_ARENA_FD

: "${PUT_BIBW_RUNS:=${PERF_RUNS:-3}}" "${PERF_WARMUP:=1}" "${PUT_BIBW_MAX:=4M}"
: "${PUT_BIBW_WINDOWS:=create,allocate,dynamic}" "${PUT_BIBW_SYNCS:=fence,pscw}"
: "${PUT_BIBW_SIZES:=64,8192,1048576,4194304}" "${PUT_BIBW_ONLY:=shmpi ompi mpich}"
: "${PUT_BIBW_TABLES_ONLY:=}" "${PUT_BIBW_RAW:=$BIN/put_bibw.tsv}"
# the noise guard's settings (pt2pt-lib.sh)
TMO=${PERF_TIMEOUT:-600} NOISE_PCT=${PUT_BIBW_NOISE_PCT:-${PERF_NOISE_PCT:-10}}
QUIET_WAIT=${PERF_QUIET_WAIT:-20} RETRIES=${PERF_RETRIES:-2}
out=$BIN/put_bibw.out raw=$PUT_BIBW_RAW

# The command line of MPI $1 (CMD); false when it is not to be run.
command_of() {
    [[ " $PUT_BIBW_ONLY " == *" $1 "* ]] || return 1
    case $1 in
        shmpi) have shmpi && CMD=("${SHMPI_RUN[@]}" -np 2 --bind-to core "$BIN/put_bibw-shmpi") ;;
        ompi)  have ompi && CMD=(mpirun.openmpi --allow-run-as-root -np 2 --bind-to core "$BIN/put_bibw-ompi") ;;
        mpich) have mpich && CMD=("${MPICH_RUN[@]}" -np 2 -bind-to core "$BIN/put_bibw-mpich") ;;
        *) return 1 ;;
    esac
}

# run IMPL ROUND WINDOW SYNC: one run under noisy_run.  Appended to $raw:
#   IMPL ROUND WINDOW SYNC SIZE MBPS SECONDS MAKE FREE
#                                               one size (SECONDS: its
#                                               window made, used, freed;
#                                               MAKE, FREE: made, freed)
#   IMPL ROUND WINDOW SYNC total - SECONDS       the whole run
#   IMPL ROUND NOISE WINDOW SYNC OTHERS% TRIES
#   IMPL ROUND FAIL WINDOW SYNC WHY              a failed run
run() {
    local impl=$1 round=$2 w=$3 s=$4
    local f=$out/$impl-$w-$s-$round
    [ -n "${given_up[$impl-$w-$s]:-}" ] && return
    command_of "$impl" || return
    noisy_run "$f.txt" "$f.err" "${CMD[@]}" -w "$w" -s "$s" -m "$PUT_BIBW_MAX"
    [ "$round" != warm ] && [ $RUN_RC -eq 0 ] && awk -v OFS='\t' -v i="$impl" -v r="$round" '
        $1 == "total" { print i, r, $2, $3, "total", "-", $4; next }
        !/^#/ && NF == 8 { print i, r, $1, $2, $3, $5, $6, $7, $8 }' "$f.txt" >>"$raw"
    run_ended put_bibw "$f" "$impl" "$round" "$w" "$s" "$impl-$w-$s" "$w window, $s"
}

# Build, then run every round (the warm-up ones first).
run_rounds() {
    local r round w s j m impls=() n k=0
    pt2pt_lock put_bibw
    build_mpi "$PERFDIR/put_bibw.c" put_bibw
    rm -rf "$out"; mkdir -p "$out"
    printf 'max\t%s\n' "$PUT_BIBW_MAX" >"$raw"
    [ -f "$ROOT/lib/libmpi.a" ] && echo "shmpi: lib/libmpi.a of $(date -u -r "$ROOT/lib/libmpi.a" '+%Y-%m-%d %H:%M:%S UTC')"
    echo "shmpi tunables in the environment: $(env | grep -E '^SHMPI_' | sort | tr '\n' ' ' | grep . || echo 'none (library defaults)')"
    echo "runs: $PUT_BIBW_RUNS counted rounds after $PERF_WARMUP warm-up; np=2, pinned one rank per core; sizes 1 B to $PUT_BIBW_MAX; one run per MPI, window and sync, interleaved; a run during which other processes took more than ${NOISE_PCT}% of the machine is run again (at most $RETRIES times)"
    for m in shmpi ompi mpich; do command_of $m && impls+=("$m"); done
    n=${#impls[@]}
    for ((r = 1 - PERF_WARMUP; r <= PUT_BIBW_RUNS; r++)); do
        round=$r; [ $r -le 0 ] && round=warm
        note "put_bibw: round $round"
        for w in ${PUT_BIBW_WINDOWS//,/ }; do
            for s in ${PUT_BIBW_SYNCS//,/ }; do
                for ((j = 0; j < n; j++)); do run "${impls[(j + k) % n]}" $round "$w" "$s"; done
                k=$((k + 1))
            done
        done
    done
}

# The table of the raw file $1.
print_table() {
    awk -F'\t' -v shown="$PUT_BIBW_SIZES" "$STATS_AWK"'
# the median of a space separated list of numbers; "" when empty
function med(list,    a, n) {
    n = split(list, a, " ")
    return n == 0 ? "" : median(a, n)
}
function size_name(s) { return s >= 1048576 ? s/1048576 " MiB" : s >= 1024 ? s/1024 " KiB" : s " B" }
# impl i in cell c (window SUBSEP sync SUBSEP size): median, FAIL or ""
function value(i, w, s, z) {
    if ((i, w, s) in failed) return "FAIL"
    return med(figs[i, w, s, z])
}
function shown_v(v) { return v == "" ? "–" : v == "FAIL" ? v : sig(v) }
$1 == "max" { next }
$3 == "NOISE" { others[$1] = others[$1] " " $6; reruns[$1] += $7 - 1; next }
$3 == "FAIL" { failed[$1, $4, $5] = 1; why["FAIL: " $1 ", " $4 " window, " $5] = $6; next }
{
    figs[$1, $3, $4, $5] = figs[$1, $3, $4, $5] " " ($5 == "total" ? $7 : $6)
    if ($5 == "total") next
    if ($5 + 0 > largest) largest = $5 + 0
    figs[$1, $3, $4, "make", $5] = figs[$1, $3, $4, "make", $5] " " $8
    figs[$1, $3, $4, "free", $5] = figs[$1, $3, $4, "free", $5] " " $9
}
END {
    split("shmpi ompi mpich", I, " ")
    nw = split("create allocate dynamic", W, " ")
    split("fence pscw", S, " ")
    nz = split(shown, Z, ",")
    print ""
    print "Whole run: seconds from MPI_Init to the last size (every window made, used and freed), median over runs; shmpi / best peer is a ratio of times (< 1: shmpi is faster)."
    print ""
    print "| window | sync | shmpi s | Open MPI s | MPICH s | shmpi / best peer |"
    print "| --- | --- | ---: | ---: | ---: | ---: |"
    for (x = 1; x <= nw; x++) for (y = 1; y <= 2; y++) {
        best = ""
        for (j = 1; j <= 3; j++) {
            v[j] = value(I[j], W[x], S[y], "total")
            if (j > 1 && num(v[j]) && (best == "" || v[j] < best)) best = v[j]
        }
        if (v[1] == "" && v[2] == "" && v[3] == "") continue
        r = best != "" && num(v[1]) ? sig(v[1] / best) "×" : "–"
        printf "| %s | %s | %s | %s | %s | %s |\n", W[x], S[y], shown_v(v[1]), shown_v(v[2]), shown_v(v[3]), r
    }
    print ""
    print "Bandwidth of the timed iterations, MB/s (10^6 B/s, both directions, OSU'"'"'s figure), median over runs; shmpi / best peer is the best peer'"'"'s MB/s over shmpi'"'"'s (< 1: shmpi is faster)."
    print ""
    print "| window | sync | size | shmpi | Open MPI | MPICH | shmpi / best peer |"
    print "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
    for (x = 1; x <= nw; x++) for (y = 1; y <= 2; y++) for (q = 1; q <= nz; q++) {
        best = ""
        for (j = 1; j <= 3; j++) {
            v[j] = value(I[j], W[x], S[y], Z[q])
            if (j > 1 && num(v[j]) && (best == "" || v[j] > best)) best = v[j]
        }
        if (v[1] == "" && v[2] == "" && v[3] == "") continue
        r = best != "" && num(v[1]) && v[1] > 0 ? sig(best / v[1]) "×" : "–"
        printf "| %s | %s | %s | %s | %s | %s | %s |\n", W[x], S[y], size_name(Z[q]), shown_v(v[1]), shown_v(v[2]), shown_v(v[3]), r
    }
    print ""
    printf "The largest size'"'"'s window (%s of messages, 64 × that per rank): seconds to make it (to the barrier after it) and to free it (from a barrier before), median over runs.\n", size_name(largest)
    print ""
    print "| window | sync | shmpi make | shmpi free | Open MPI make | Open MPI free | MPICH make | MPICH free |"
    print "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    for (x = 1; x <= nw; x++) for (y = 1; y <= 2; y++) {
        row = ""; any = 0
        for (j = 1; j <= 3; j++) for (q = 1; q <= 2; q++) {
            c = value(I[j], W[x], S[y], (q == 1 ? "make" : "free") SUBSEP largest)
            any = any || c != ""
            row = row " " shown_v(c) " |"
        }
        if (any) printf "| %s | %s |%s\n", W[x], S[y], row
    }
    line = ""
    for (j = 1; j <= 3; j++) {
        if (!(I[j] in others)) continue
        n = split(others[I[j]], a, " "); sortv(a, n)
        line = line sprintf("%s%s %d%% (max %d%%%s)", line == "" ? "" : "; ", I[j], med(others[I[j]]), a[n],
            reruns[I[j]] ? ", " reruns[I[j]] " re-runs" : "")
    }
    if (line != "") { print ""; print "Other processes'"'"' share of the machine during the kept runs, median: " line }
    for (k in why) print k ": " why[k]
}' "$1"
}

echo "machine: $(machine_line)"
if [ -n "$PUT_BIBW_TABLES_ONLY" ]; then
    echo "tables of $raw"
else
    run_rounds
fi
print_table "$raw"
