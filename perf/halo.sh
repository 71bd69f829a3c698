#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# halo.sh - a halo exchange timed per iteration (perf/halo.c) under five
# kinds of synchronization: shmpi's RMA synchronization counters (a shmpi
# extension), MPI_Win_fence, PSCW, lock_all + put + flush + flag words,
# and MPI_Isend/MPI_Irecv; counters and flags also double-buffered, with
# one synchronization per iteration (counters1, flag1; halo.c).  shmpi
# side by side with Open MPI (its default one-sided component, and osc
# sm) and MPICH, which run the standard schemes.  "Best counters" is the
# faster of counters and counters1 in each cell.  A 1-D ring (2 neighbours) and a 2-D periodic 5-point stencil
# (4 neighbours), halos of 8 B .. 64 KiB per neighbour, at np=2 (one rank
# per core) and np=4 (oversubscribed: two ranks per core), pinned: rank i
# on CPU i % 2.
#
#   One run per MPI, np and scheme (both topologies, all sizes in it):
#     shmpi    ./mpirun -np N --bind-to core halo-shmpi -S SCHEME
#     ompi     mpirun.openmpi --allow-run-as-root -np 2 --bind-to core
#                  halo-ompi -S SCHEME
#              (np=4: --oversubscribe -np 4 --bind-to core:overload-allowed)
#     ompi-sm  the same with --mca osc sm, Open MPI's fastest shared-memory
#                  one-sided component, which users must ask for (RMA
#                  schemes only: isend does not use it)
#     mpich    mpiexec.mpich -launcher fork -np N -bind-to core
#                  halo-mpich -S SCHEME
#     ompi-psync, mpich-psync
#              the counters schemes on Open MPI (as ompi) and MPICH (as
#                  mpich) through shmpi's portable library: halo.c built
#                  with -include portable/sync/mpi_sync.h and linked with
#                  mpi_sync.c (halo-ompi-psync, halo-mpich-psync), so that
#                  they stand beside that MPI's own fence and PSCW
#
# Each run checks every cell (halo.c: the first and the last iteration of
# a cell carry new data, compared byte for byte in every halo) and exits 3
# on a wrong result: that MPI's cells of that scheme and np then read
# FAIL, never a time, and it is not run for them again.  Inside a run each
# cell is calibrated and timed in HALO_BATCHES (9) batches of
# HALO_TARGET_MS (200) / HALO_BATCHES ms; a batch's figure is the slowest
# rank's time per iteration.  At np=2 the two ranks bounce a cache line
# before every batch and after the last (bench.h's probe, as pt2pt.c),
# and a batch is "near" or "far" (or "mixed") by what the probes around
# it read (HALO_NEAR_NS, default 150 ns one way): on this VM a crossing
# flips between ~50 and ~230 ns every few seconds (perf/limits.c), and every figure with
# it.  A table cell is the median over the timed batches of all counted
# runs in one state (np=2: near and far, separately; np=4: all batches).
# The probes also give the machine's floor for an exchange: two crossings
# (the data, and a signal back).  Rounds are interleaved: per round, per np
# and scheme, the MPIs one after the other (order rotated); PERF_WARMUP
# uncounted rounds (default 1), then HALO_RUNS counted ones (default
# PERF_RUNS, else 5).
#
# Runs are guarded against other people's work like pt2pt's
# (perf/pt2pt-lib.sh): a run during which other processes took more than
# HALO_NOISE_PCT (default PERF_NOISE_PCT, else 10) percent of the machine
# is run again after waiting up to PERF_QUIET_WAIT (20) s for a quiet
# moment, at most PERF_RETRIES (2) times; the output says how much others
# took.  It shares pt2pt's lock, so no two of these benchmarks run at once.
#
# Knobs: HALO_RUNS, HALO_TARGET_MS, HALO_BATCHES, HALO_SCHEMES (comma
# list, default counters,counters1,fence,pscw,flag,flag1,isend), HALO_TOPOS (default
# ring,grid), HALO_SIZES (default 8,64,512,4K,64K), HALO_NP (default
# "2 4"), HALO_NEAR_NS, HALO_ONLY (subset of
# "shmpi ompi ompi-sm mpich ompi-psync mpich-psync").
# Raw figures: perf/bin/halo.tsv; run outputs: perf/bin/halo.out/.
# HALO_TABLES_ONLY=1 runs nothing and prints the tables of the raw file
# again (HALO_RAW names another one).
set -u
. "$(dirname "$0")/common.sh"
. "$PERFDIR/pt2pt-lib.sh"
unset SHMPI_NP SHMPI_RANK SHMPI_SIZE SHMPI_ARENA_FD

: "${HALO_RUNS:=${PERF_RUNS:-5}}" "${PERF_WARMUP:=1}" "${HALO_TARGET_MS:=200}" "${HALO_BATCHES:=9}"
: "${HALO_SCHEMES:=counters,counters1,fence,pscw,flag,flag1,isend}" "${HALO_TOPOS:=ring,grid}"
: "${HALO_SIZES:=8,64,512,4K,64K}" "${HALO_NP:=2 4}" "${HALO_NEAR_NS:=150}"
: "${HALO_ONLY:=shmpi ompi ompi-sm mpich ompi-psync mpich-psync}" "${HALO_TABLES_ONLY:=}" "${HALO_RAW:=$BIN/halo.tsv}"
# the noise guard's settings (pt2pt-lib.sh)
TMO=${PERF_TIMEOUT:-120} NOISE_PCT=${HALO_NOISE_PCT:-${PERF_NOISE_PCT:-10}}
QUIET_WAIT=${PERF_QUIET_WAIT:-20} RETRIES=${PERF_RETRIES:-2}
out=$BIN/halo.out raw=$HALO_RAW

# The command line of MPI $1 for scheme $2 at np $3 (CMD); false when that
# MPI does not run that scheme.
command_of() {
    [[ " $HALO_ONLY " == *" $1 "* ]] || return 1
    case $1-$2 in
        *-psync-counters*) ;;
        *-psync-*|ompi*-counters*|mpich-counters*|ompi-sm-isend) return 1 ;;
    esac
    local ompi=(mpirun.openmpi --allow-run-as-root -np 2 --bind-to core)
    [ "$3" -gt 2 ] && ompi=("${OMPI_RUN[@]}" -np "$3" --bind-to core:overload-allowed)
    case $1 in
        shmpi)   have shmpi && CMD=("${SHMPI_RUN[@]}" -np "$3" --bind-to core "$BIN/halo-shmpi") ;;
        ompi)    have ompi && CMD=("${ompi[@]}" "$BIN/halo-ompi") ;;
        ompi-sm) have ompi && CMD=("${ompi[@]}" --mca osc sm "$BIN/halo-ompi") ;;
        mpich)   have mpich && CMD=("${MPICH_RUN[@]}" -np "$3" -bind-to core "$BIN/halo-mpich") ;;
        ompi-psync)  [ -x "$BIN/halo-ompi-psync" ] && CMD=("${ompi[@]}" "$BIN/halo-ompi-psync") ;;
        mpich-psync) [ -x "$BIN/halo-mpich-psync" ] &&
                         CMD=("${MPICH_RUN[@]}" -np "$3" -bind-to core "$BIN/halo-mpich-psync") ;;
        *) return 1 ;;
    esac
}

# run IMPL ROUND SCHEME NP: one run under noisy_run.  Appended to $raw:
#   IMPL ROUND SCHEME TOPO NP SIZE US STATE     a timed batch
#   probe IMPL ROUND NP NS                      the probe before a batch
#   IMPL ROUND NOISE SCHEME NP OTHERS% TRIES
#   IMPL ROUND FAIL|UNSUP SCHEME NP WHY         a failed run (UNSUP: exit 4)
run() {
    local impl=$1 round=$2 s=$3 np=$4
    local f=$out/$impl-$np-$s-$round
    [ -n "${given_up[$impl-$np-$s]:-}" ] && return
    command_of "$impl" "$s" "$np" || return
    noisy_run "$f.txt" "$f.err" "${CMD[@]}" -S "$s" -g "$HALO_TOPOS" -s "$HALO_SIZES" \
        -T "$HALO_TARGET_MS" -b "$HALO_BATCHES" -P "$HALO_NEAR_NS"
    [ "$round" != warm ] && awk -v OFS='\t' -v i="$impl" -v r="$round" '
        $1 == "batch" && NF == 9 {
            print i, r, $2, $3, $4, $5, $6, $7
            if ($8 >= 0) print "probe", i, r, $4, $8
        }' "$f.txt" >>"$raw"
    run_ended halo "$f" "$impl" "$round" "$s" "$np" "$impl-$np-$s" "$s, np=$np"
}

# halo.c on MPI $1 (ompi, mpich; its compiler $2) with the portable sync
# counters: BIN/halo-$1-psync, built as a program that uses them is.
build_psync() {
    rm -f "$BIN/halo-$1-psync"
    have "$1" || return 0
    "$2" $PERF_CFLAGS -c -o "$BIN/mpi_sync-$1.o" "$ROOT/portable/sync/mpi_sync.c" &&
        "$2" $PERF_CFLAGS "-I$ROOT/portable/sync" -include mpi_sync.h "$PERFDIR/halo.c" \
            "$BIN/mpi_sync-$1.o" -o "$BIN/halo-$1-psync" ||
        note "halo: halo-$1-psync could not be built"
}

# Build, then run every round (the warm-up ones first).
run_rounds() {
    local r round np s j m impls n k=0
    pt2pt_lock halo
    build_mpi "$PERFDIR/halo.c" halo
    build_psync ompi mpicc.openmpi
    build_psync mpich mpicc.mpich
    rm -rf "$out"; mkdir -p "$out"
    : >"$raw"
    [ -f "$ROOT/lib/libmpi.a" ] && echo "shmpi: lib/libmpi.a of $(date -u -r "$ROOT/lib/libmpi.a" '+%Y-%m-%d %H:%M:%S UTC')"
    echo "shmpi tunables in the environment: $(env | grep -E '^SHMPI_' | sort | tr '\n' ' ' | grep . || echo 'none (library defaults)')"
    echo "runs: $HALO_RUNS counted rounds after $PERF_WARMUP warm-up; one run per MPI, np and scheme (topologies $HALO_TOPOS, sizes $HALO_SIZES), interleaved; each cell timed in $HALO_BATCHES batches ($HALO_TARGET_MS ms in all) of the slowest rank's time per iteration, each batch labelled by the cache-line probes around it (np=2); a table cell is the median over the batches of all counted runs in one state; ranks pinned, rank i on CPU i % 2; a run during which other processes took more than ${NOISE_PCT}% of the machine is run again (at most $RETRIES times)"
    for ((r = 1 - PERF_WARMUP; r <= HALO_RUNS; r++)); do
        round=$r; [ $r -le 0 ] && round=warm
        for np in $HALO_NP; do
            note "halo: round $round, np=$np"
            for s in ${HALO_SCHEMES//,/ }; do
                impls=()
                for m in shmpi ompi ompi-sm mpich ompi-psync mpich-psync; do command_of $m "$s" "$np" && impls+=("$m"); done
                n=${#impls[@]}
                for ((j = 0; j < n; j++)); do run "${impls[(j + k) % n]}" "$round" "$s" "$np"; done
                k=$((k + 1))
            done
        done
    done
}

# The tables of the raw file $1.
print_tables() {
    awk -F'\t' -v thr="$HALO_NEAR_NS" "$STATS_AWK"'
function hsize(s) { return s >= 1048576 ? s/1048576 " MiB" : s >= 1024 ? s/1024 " KiB" : s " B" }
# the median of impl i, scheme c in cell (topo t, np n, size s) over the
# batches in state st ("all": any); "" when none, FAIL when its run failed
function get(i, c, t, n, s, st,    k, m, a, j) {
    if ((i SUBSEP c SUBSEP n) in failed) return "FAIL"
    k = i SUBSEP c SUBSEP t SUBSEP n SUBSEP s
    m = 0
    for (j = 1; j <= cnt[k]; j++) if (st == "all" || state[k, j] == st) a[++m] = val[k, j]
    return m ? median(a, m) : ""
}
function show(x) { return x == "" ? "–" : x == "FAIL" ? x : sig(x) }
function ratio(x, b, name) { return num(x) && num(b) && b > 0 ? sprintf("%.2f× (%s)", x / b, name) : "–" }
$1 == "probe" { pr[$4, ++npr[$4]] = $5; next }
$3 == "NOISE" { nz[$1, ++nn[$1]] = $6; if ($7 > 1) rerun[$1] += $7 - 1; next }
$3 == "FAIL" || $3 == "UNSUP" {
    if ($3 == "FAIL") failed[$1, $4, $5] = 1
    why[($3 == "FAIL" ? "FAIL: " : "–: ") $1 ", " $4 ", np=" $5] = $6
    next
}
{
    k = $1 SUBSEP $3 SUBSEP $4 SUBSEP $5 SUBSEP $6
    j = ++cnt[k]; val[k, j] = $7; state[k, j] = $8; nfig++
    if (!(($4, $5) in cases)) { cases[$4, $5] = 1; ncase[$5]++ }
    if (!(($4, $5, $6) in seen)) { seen[$4, $5, $6] = 1; sizes[$4, $5] = sizes[$4, $5] " " $6 }
    nstate[$5, $8]++
}
# The faster of the two counters schemes in a cell, or "".
function best_counters(t, n, s, st,    a, b) {
    a = get("shmpi", "counters", t, n, s, st); b = get("shmpi", "counters1", t, n, s, st)
    if (!num(a)) return b
    if (!num(b)) return a
    return a < b ? a : b
}
# The portable counters against the fence and PSCW of the same MPI: per MPI
# (ompi, mpich), topology, np, state and size, the faster of its psync
# counters and counters1 beside its fence and pscw.
function psync_table(    y, p, P, t, n, ns, S, z, s, ST, k, nst, q, a, b, f, w, c, any) {
    split("ompi mpich", P, " ")
    for (y = 1; y <= 2; y++) for (n = 1; n <= 1024; n++) for (q = 1; q <= 2; q++) {
        p = P[y]; t = q == 1 ? "ring" : "grid"
        if (!((t, n) in cases)) continue
        ns = split(sizes[t, n], S, " "); sortv(S, ns)
        nst = split(n == 2 ? "near far" : "all", ST, " ")
        for (k = 1; k <= nst; k++) for (z = 1; z <= ns; z++) {
            s = S[z]
            a = get(p "-psync", "counters", t, n, s, ST[k]); b = get(p "-psync", "counters1", t, n, s, ST[k])
            c = !num(a) ? b : !num(b) ? a : a < b ? a : b
            f = get(p, "fence", t, n, s, ST[k]); w = get(p, "pscw", t, n, s, ST[k])
            if (!num(c) && !num(f) && !num(w)) continue
            if (!any++) {
                print ""; print "The portable counters (portable/sync) against the same MPI'"'"'s fence and PSCW, µs per iteration (medians as above; best portable: the faster of counters and counters1):"
                print ""; print "| MPI | halo | np | state | size | best portable | fence | pscw | portable / fence | portable / pscw |"
                print "| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
            }
            printf "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", implname[p], t, n, ST[k], hsize(s), show(c), show(f), show(w),
                num(c) && num(f) ? sprintf("%.2f×", c / f) : "–", num(c) && num(w) ? sprintf("%.2f×", c / w) : "–"
        }
    }
}
# One table: topology t at np n, batches of state st.
function table(t, n, st, title,    S, ns, z, s, x, v, c, hdr, row, std, bstd, bstdn, bp, bpn, rs, rp) {
    print ""; print title; print ""
    hdr = "| halo"; row = "| ---:"
    for (x = 1; x <= ncol; x++) { hdr = hdr " | " CN[x]; row = row " | ---:" }
    print hdr " | best counters / shmpi best standard | best counters / best peer |"
    print row " | ---: | ---: |"
    ns = split(sizes[t, n], S, " "); sortv(S, ns)
    for (z = 1; z <= ns; z++) {
        s = S[z]; line = "| " hsize(s)
        bstd = ""; bp = ""
        for (x = 1; x <= ncol; x++) {
            v[x] = get(CI[x], CS[x], t, n, s, st)
            line = line " | " show(v[x])
            if (!num(v[x])) continue
            if (CI[x] == "shmpi" && CS[x] !~ /^counters/ && (bstd == "" || v[x] < bstd)) { bstd = v[x]; bstdn = CS[x] }
            if (CI[x] != "shmpi" && CI[x] !~ /psync/ && (bp == "" || v[x] < bp)) { bp = v[x]; bpn = CN[x] }
        }
        c = best_counters(t, n, s, st)
        rs = num(c) && num(bstd) ? c / bstd : ""; rp = num(c) && num(bp) ? c / bp : ""
        printf "%s | %s | %s |\n", line, ratio(c, bstd, bstdn), ratio(c, bp, bpn)
        if (s <= 64 && rs != "" && rp != "") {
            goals += 2; met += (rs <= 0.5) + (rp <= 0.4)
            summary = summary sprintf("\n- %s, np=%d, %s, %s: %.2f× shmpi best standard (%s), %.2f× best peer (%s); counters %s µs",
                t, n, st == "all" ? "all batches" : st, hsize(s), rs, rs <= 0.5 ? "met" : "NOT met",
                rp, rp <= 0.4 ? "met" : "NOT met", sig(c))
        }
    }
}
END {
    if (nfig == 0) { print "no figures (see the errors above)"; exit }
    nc = split("shmpi counters|shmpi counters1|shmpi fence|shmpi pscw|shmpi flag|shmpi flag1|shmpi isend|ompi fence|ompi pscw|ompi flag|ompi flag1|ompi isend|ompi-sm fence|ompi-sm pscw|ompi-sm flag|ompi-sm flag1|mpich fence|mpich pscw|mpich flag|mpich flag1|mpich isend|ompi-psync counters|ompi-psync counters1|mpich-psync counters|mpich-psync counters1", C, "|")
    split("shmpi ompi ompi-sm mpich ompi-psync mpich-psync", I, " ")
    split("shmpi|Open MPI|Open MPI osc sm|MPICH|Open MPI portable|MPICH portable", IN, "|")
    for (x = 1; x <= 6; x++) implname[I[x]] = IN[x]
    for (x = 1; x <= nc; x++) {
        split(C[x], f, " ")
        for (k in cnt) { split(k, q, SUBSEP); if (q[1] == f[1] && q[2] == f[2]) { has = 1; break } }
        if (!has && !((f[1], f[2], 2) in failed) && !((f[1], f[2], 4) in failed)) continue
        has = 0; ncol++; CI[ncol] = f[1]; CS[ncol] = f[2]; CN[ncol] = implname[f[1]] " " f[2]
    }
    print ""
    print "µs per iteration: the slowest rank'"'"'s time, median over the timed batches of all counted runs in one state; \"best peer\" is the fastest Open MPI, Open MPI osc sm or MPICH column of the row, whatever its scheme; ratios < 1: counters are faster."
    split("ring grid", T, " "); split("1-D ring (2 neighbours)|2-D 5-point stencil (4 neighbours)", TN, "|")
    for (n = 1; n <= 1024; n++) for (y = 1; y <= 2; y++) {
        t = T[y]
        if (!((t, n) in cases)) continue
        if (n == 2) {
            table(t, n, "near", sprintf("%s, np=2, one rank per core — near state (probe < %d ns before and after the batch):", TN[y], thr))
            table(t, n, "far", sprintf("%s, np=2, one rank per core — far state (probe ≥ %d ns before and after):", TN[y], thr))
        } else {
            table(t, n, "all", sprintf("%s, np=%d, OVERSUBSCRIBED ×%g (%d ranks on 2 cores, rank i on CPU i %% 2), all batches:", TN[y], n, n / 2, n))
        }
    }
    for (n in npr) {
        m1 = m2 = 0
        for (j = 1; j <= npr[n]; j++) if (pr[n, j] < thr) A1[++m1] = pr[n, j]; else A2[++m2] = pr[n, j]
        printf "\nFloor at np=%d (bench.h'"'"'s probe: one cache line bounced between ranks 0 and 1 with C11 atomics in a shared page, before every batch): %d of %d probes near, one crossing %s ns, so an exchange (data and a signal back, two crossings) ≥ %s µs; %d far, one crossing %s ns, ≥ %s µs.\n",
            n, m1, npr[n], m1 ? sig(median(A1, m1)) : "–", m1 ? sig(2 * median(A1, m1) / 1000) : "–",
            m2, m2 ? sig(median(A2, m2)) : "–", m2 ? sig(2 * median(A2, m2) / 1000) : "–"
    }
    line = ""
    for (n in ncase) if (n == 2) line = sprintf("np=2 timed batches: %d near, %d far, %d mixed", nstate[2, "near"], nstate[2, "far"], nstate[2, "mixed"])
    if (line != "") print "\n" line "."
    psync_table()
    line = ""
    for (x = 1; x <= 6; x++) {
        if (!(I[x] in nn)) continue
        for (j = 1; j <= nn[I[x]]; j++) a[j] = nz[I[x], j] + 0
        sortv(a, nn[I[x]])
        line = line sprintf("%s%s %d%% (max %d%%%s)", line == "" ? "" : "; ", I[x], median(a, nn[I[x]]), a[nn[I[x]]],
            rerun[I[x]] ? ", " rerun[I[x]] " re-runs" : "")
    }
    if (line != "") { print ""; print "Other processes'"'"' share of the machine during the kept runs, median: " line }
    for (k in why) { if (!nwhy++) print ""; print k ": " why[k] }
    printf "\nGoals (measured, not asserted) for small halos (8 B, 64 B): counters ≤ 0.5× shmpi'"'"'s best standard scheme and ≤ 0.4× the best peer: met %d of %d.%s\n", met, goals, summary
}' "$1"
}

echo "machine: $(machine_line)"
if [ -n "$HALO_TABLES_ONLY" ]; then
    echo "tables of $raw"
else
    run_rounds
fi
print_tables "$raw"
