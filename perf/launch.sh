#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# launch.sh - launch cost: the wall time of a whole job of perf/hello.c
# (Init, rank/size, one line from rank 0, Finalize) as the user sees it,
# from fork of the launcher to its exit, for np = 2, 8, 64:
#   shmpi      ./mpirun -np N perf/bin/hello-shmpi
#   ompi       mpirun.openmpi --allow-run-as-root --oversubscribe -np N hello-ompi
#   mpich      mpiexec.mpich -launcher fork -np N hello-mpich
#   shmpi-lib  SHMPI_NP=N hello-shmpi (the in-library launch, no mpirun)
# and the machine's floor, N processes forked, exec'd and reaped at once:
#   floor-true    N x /bin/true
#   floor-single  N x hello-shmpi as singletons (each its own size-1 job)
# All cells of one np run interleaved (A B C ... A B C ...), PERF_WARMUP
# warm-up rounds (default 1) then PERF_RUNS counted ones (default 10);
# the table gives median (min-max) in ms.  Nothing is pinned: placing the
# ranks is part of each launcher's job.  A cell any of whose runs exits
# non-zero, dies or times out shows FAIL and why, never a time.
# Rounds during which other processes took more than PERF_NOISE_PCT
# (default 10) percent of the machine are run again, after waiting up to
# PERF_QUIET_WAIT (10) s for a quiet moment, at most PERF_RETRIES (2) times
# (see perf/walltime.c); the output says how much others took.
# PERF_LAUNCH_NP overrides the list of np values.  Raw figures:
# perf/bin/launch.tsv.
set -u
. "$(dirname "$0")/common.sh"
unset SHMPI_NP SHMPI_RANK SHMPI_SIZE SHMPI_ARENA_FD

runs=${PERF_RUNS:-10}
warm=${PERF_WARMUP:-1}
nps=${PERF_LAUNCH_NP:-2 8 64}

build_walltime || exit 1
build_mpi "$PERFDIR/hello.c" hello

raw=$BIN/launch.tsv
: >"$raw"
echo "machine: $(machine_line)"
echo "runs: $runs counted after $warm warm-up, interleaved; times in ms, median (min-max)"
for n in $nps; do
    cells=() labels=()
    add() { [ ${#cells[@]} -gt 0 ] && cells+=(:::); cells+=("$@"); labels+=("$1"); }
    skip() { printf '%s\t%s\tSKIP\t%s\n' "$n" "$1" "$2" >>"$raw"; }
    if have shmpi; then
        add shmpi 1 "${SHMPI_RUN[@]}" -np "$n" "$BIN/hello-shmpi"
    else
        skip shmpi "not built"; skip shmpi-lib "not built"; skip floor-single "not built"
    fi
    if have ompi; then
        add ompi 1 "${OMPI_RUN[@]}" -np "$n" "$BIN/hello-ompi"
    else
        skip ompi "not installed"
    fi
    if have mpich; then
        add mpich 1 "${MPICH_RUN[@]}" -np "$n" "$BIN/hello-mpich"
    else
        skip mpich "not installed"
    fi
    have shmpi && add shmpi-lib 1 "SHMPI_NP=$n" "$BIN/hello-shmpi"
    add floor-true "$n" /bin/true
    have shmpi && add floor-single "$n" "$BIN/hello-shmpi"
    note "np=$n: timing ${labels[*]}"
    "$BIN/walltime" -r "$runs" -w "$warm" -t "${PERF_TIMEOUT:-120}" \
        -n "${PERF_NOISE_PCT:-10}" -q "${PERF_QUIET_WAIT:-10}" -R "${PERF_RETRIES:-2}" \
        "${cells[@]}" |
        sed "s/^/$n\t/" >>"$raw"
done

# ------------------------------------------------------------ the table
awk -F'\t' '
function ms(s) { s *= 1000; return s < 10 ? sprintf("%.2f", s) : s < 1000 ? sprintf("%.1f", s) : sprintf("%.0f", s) }
function ok(n, l) { return ((n, l) in st) && st[n, l] == "ok" }
function cell(n, l) {
    if (!((n, l) in st)) return "not run";
    if (st[n, l] == "SKIP") return reason[n, l];
    if (st[n, l] != "ok") return "FAIL: " reason[n, l];
    return ms(med[n, l]) " (" ms(lo[n, l]) "–" ms(hi[n, l]) ")";
}
{
    n = $1; l = $2
    if (l == "#others") { oth[n] = sprintf("np=%s: median %s%%, max %s%% (%s rounds re-run)", n, $3, $4, $5); next }
    st[n, l] = $3
    if (!(n in seen)) { seen[n] = 1; order[++k] = n }
    if ($3 == "ok") { med[n, l] = $4; lo[n, l] = $5; hi[n, l] = $6 } else reason[n, l] = $4
}
END {
    print ""
    print "| np | shmpi mpirun | Open MPI mpirun | MPICH mpiexec | shmpi / best peer | shmpi in-library (SHMPI_NP) | floor: np × /bin/true | floor: np × singleton hello-shmpi |"
    print "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    for (i = 1; i <= k; i++) {
        n = order[i]; best = ""
        if (ok(n, "ompi")) best = med[n, "ompi"]
        if (ok(n, "mpich") && (best == "" || med[n, "mpich"] < best)) best = med[n, "mpich"]
        r = (ok(n, "shmpi") && best != "") ? med[n, "shmpi"] / best : ""
        if (n == 8) { goal = r; have8 = 1 }
        printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", n, cell(n, "shmpi"), cell(n, "ompi"),
            cell(n, "mpich"), r == "" ? "n/a" : sprintf("%.3f×", r), cell(n, "shmpi-lib"),
            cell(n, "floor-true"), cell(n, "floor-single")
    }
    print ""
    line = ""
    for (i = 1; i <= k; i++) if (order[i] in oth) line = line (line == "" ? "" : "; ") oth[order[i]]
    if (line != "") { print "Other processes'"'"' share of the machine during the kept rounds: " line; print "" }
    if (have8 && goal == "")
        verdict = "cannot tell (no shmpi time or no peer time at np=8)"
    else if (have8)
        verdict = sprintf("%.3f× -> %s", goal, goal <= 0.05 ? "met" : "NOT met")
    if (have8)
        print "goal: np=8 launch at most 0.05× the better of Open MPI and MPICH: " verdict
}' "$raw"
