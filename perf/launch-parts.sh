#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# launch-parts.sh - where shmpi's launch time goes (not run by default:
# perf/run-perf launch-parts).  For each np (PERF_LAUNCH_NP, default
# "1 8 64"), interleaved as in launch.sh (perf/walltime.c), medians of
# PERF_RUNS (10) after PERF_WARMUP (1), with the same noise guard:
#   hello          ./mpirun -np N hello-shmpi          (as in launch.sh)
#   hello-static   ./mpirun -np N hello-shmpi-static   (./mpicc -static)
#   empty-static   ./mpirun -np N empty-static         (no MPI at all)
#   floor-static   N x empty-static forked at once     (no launcher)
#   floor-dyn      N x empty, dynamic (libc only)
#   floor-dynlibs  N x empty, dynamic with liburing and libnuma (what
#                  ./mpicc links), --no-as-needed so they are loaded
# and the differences, each a median minus a median (so only a guide):
#   launcher       empty-static - floor-static
#   MPI in ranks   hello-static - empty-static
#   dyn. linking   hello - hello-static
#   uring+numa     floor-dynlibs - floor-dyn (the two libraries' load and
#                  constructors, N processes)
set -u
. "$(dirname "$0")/common.sh"
unset SHMPI_NP SHMPI_RANK SHMPI_SIZE SHMPI_ARENA_FD

runs=${PERF_RUNS:-10}
warm=${PERF_WARMUP:-1}
nps=${PERF_LAUNCH_NP:-1 8 64}

build_walltime || exit 1
[ -x "$ROOT/mpirun" ] && [ -f "$ROOT/lib/libmpi.a" ] ||
    { note "launch-parts: build shmpi first (make)"; exit 1; }
"$ROOT/mpicc" $PERF_CFLAGS "$PERFDIR/hello.c" -o "$BIN/hello-shmpi" &&
"$ROOT/mpicc" $PERF_CFLAGS -static "$PERFDIR/hello.c" -o "$BIN/hello-shmpi-static" 2>/dev/null &&
"$CC" -O2 -static "$PERFDIR/empty.c" -o "$BIN/empty-static" &&
"$CC" -O2 "$PERFDIR/empty.c" -o "$BIN/empty-dyn" &&
"$CC" -O2 "$PERFDIR/empty.c" -o "$BIN/empty-dynlibs" -Wl,--no-as-needed -luring -lnuma ||
    { note "launch-parts: cannot build the programs"; exit 1; }

raw=$BIN/launch-parts.tsv
: >"$raw"
echo "machine: $(machine_line)"
echo "runs: $runs counted after $warm warm-up, interleaved; times in ms, medians"
for n in $nps; do
    note "np=$n: timing"
    "$BIN/walltime" -r "$runs" -w "$warm" -t "${PERF_TIMEOUT:-120}" \
        -n "${PERF_NOISE_PCT:-10}" -q "${PERF_QUIET_WAIT:-10}" -R "${PERF_RETRIES:-2}" \
        hello 1 "${SHMPI_RUN[@]}" -np "$n" "$BIN/hello-shmpi" ::: \
        hello-static 1 "${SHMPI_RUN[@]}" -np "$n" "$BIN/hello-shmpi-static" ::: \
        empty-static 1 "${SHMPI_RUN[@]}" -np "$n" "$BIN/empty-static" ::: \
        floor-static "$n" "$BIN/empty-static" ::: \
        floor-dyn "$n" "$BIN/empty-dyn" ::: \
        floor-dynlibs "$n" "$BIN/empty-dynlibs" | sed "s/^/$n\t/" >>"$raw"
done

awk -F'\t' '
function ms(s) { s *= 1000; return s < 10 ? sprintf("%.2f", s) : s < 1000 ? sprintf("%.1f", s) : sprintf("%.0f", s) }
function v(n, l) { return ((n, l) in st) && st[n, l] == "ok" ? ms(med[n, l]) : "FAIL" }
function d(n, a, b) { return (st[n, a] == "ok" && st[n, b] == "ok") ? ms(med[n, a] - med[n, b]) : "n/a" }
{
    n = $1; l = $2
    if (l == "#others") { oth[n] = sprintf("np=%s: median %s%%, max %s%% (%s re-run)", n, $3, $4, $5); next }
    st[n, l] = $3; if ($3 == "ok") med[n, l] = $4
    if (!(n in seen)) { seen[n] = 1; order[++k] = n }
}
END {
    print ""
    print "| np | mpirun hello | mpirun hello static | mpirun empty static | floor static | floor dyn | floor dyn+uring+numa | launcher | MPI in ranks | dyn. linking | uring+numa load |"
    print "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    for (i = 1; i <= k; i++) {
        n = order[i]
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", n, v(n, "hello"),
            v(n, "hello-static"), v(n, "empty-static"), v(n, "floor-static"), v(n, "floor-dyn"),
            v(n, "floor-dynlibs"), d(n, "empty-static", "floor-static"), d(n, "hello-static", "empty-static"),
            d(n, "hello", "hello-static"), d(n, "floor-dynlibs", "floor-dyn")
    }
    line = ""
    for (i = 1; i <= k; i++) if (order[i] in oth) line = line (line == "" ? "" : "; ") oth[order[i]]
    if (line != "") { print ""; print "Other processes'"'"' share of the machine during the kept rounds: " line }
}' "$raw"
