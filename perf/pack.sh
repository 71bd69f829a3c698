#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# pack.sh - MPI_Pack / MPI_Unpack throughput of derived datatypes
# (perf/pack.c), shmpi side by side with Open MPI and MPICH, with memcpy of
# the same bytes (the machine's limit) and a hand-written C loop for each
# layout (the ideal for it).
#
#   One process, pinned to CPU PACK_CPU (default 1) by taskset, one run per
#   MPI and type (both sizes, pack and unpack, in that run):
#     shmpi   taskset -c 1 ./mpirun -np 1 pack-shmpi -t TYPE
#     ompi    taskset -c 1 mpirun.openmpi --allow-run-as-root -np 1
#                 --cpu-set 1 --bind-to core pack-ompi -t TYPE
#     mpich   taskset -c 1 mpiexec.mpich -launcher fork -np 1 pack-mpich -t TYPE
#     ref     the same Open MPI command (else MPICH's, else shmpi's) with
#                 -o memcpy,gather,scatter: memcpy and the hand loops, which
#                 do not depend on the MPI, once per round
#   (Open MPI's --bind-to core alone binds rank 0 to CPU 0 whatever taskset
#   said; --cpu-set keeps it on the CPU asked for.  Every run prints the
#   CPUs it may use and the script warns when that is not PACK_CPU.)
#
# Each run first checks every type it is given (MPI_Pack's output against
# the hand gather, MPI_Unpack's against the hand scatter) and exits 3 on a
# mismatch: that MPI's cells of that type then read FAIL, never a speed,
# and it is not run for that type again.
#
# Inside a run each cell is calibrated and timed in PACK_BATCHES (5)
# batches of PACK_TARGET_MS / PACK_BATCHES (60 ms in all); a run reports
# the median batch.  Rounds are interleaved: per round, per type, the MPIs
# and ref one after the other (order rotated); PERF_WARMUP uncounted rounds
# (default 1), then PACK_RUNS counted ones (default PERF_RUNS, else 5).  A
# cell of the table is the median over the counted runs, in GB/s (10^9 B/s)
# of packed data.
#
# Runs are guarded against other people's work like pt2pt's
# (perf/pt2pt-lib.sh): a run during which other processes took more than
# PACK_NOISE_PCT (default PERF_NOISE_PCT, else 10) percent of the machine
# is run again after waiting up to PERF_QUIET_WAIT (20) s for a quiet
# moment, at most PERF_RETRIES (2) times; the output says how much others
# took.  It shares pt2pt's lock, so no two pinned benchmarks run at once.
#
# Knobs: PACK_RUNS, PACK_TARGET_MS, PACK_BATCHES, PACK_CPU, PACK_TYPES
# (comma list, default all eight), PACK_SIZES (comma list with K/M
# suffixes, default 64K,8M), PACK_ONLY (subset of "shmpi ompi mpich ref").
# Raw figures: perf/bin/pack.tsv; run outputs: perf/bin/pack.out/.
# PACK_TABLES_ONLY=1 runs nothing and prints the tables of the raw file
# again (PACK_RAW names another one).
set -u
. "$(dirname "$0")/common.sh"
. "$PERFDIR/pt2pt-lib.sh"
unset SHMPI_NP SHMPI_RANK SHMPI_SIZE SHMPI_ARENA_FD

runs=${PACK_RUNS:-${PERF_RUNS:-5}}
warm=${PERF_WARMUP:-1}
TMO=${PERF_TIMEOUT:-120}
NOISE_PCT=${PACK_NOISE_PCT:-${PERF_NOISE_PCT:-10}}
QUIET_WAIT=${PERF_QUIET_WAIT:-20}
RETRIES=${PERF_RETRIES:-2}
target=${PACK_TARGET_MS:-60}
batches=${PACK_BATCHES:-5}
cpu=${PACK_CPU:-1}
types=${PACK_TYPES:-contig,vec8,vec256,vec4k,indexed,idxblock,struct,subarray}
sizes=${PACK_SIZES:-64K,8M}
only=${PACK_ONLY:-shmpi ompi mpich ref}
tables_only=${PACK_TABLES_ONLY:-}

out=$BIN/pack.out
raw=${PACK_RAW:-$BIN/pack.tsv}
wanted() { [[ " $only " == *" $1 "* ]]; }

if [ -z "$tables_only" ]; then
    pt2pt_lock pack
    # -O3: the hand loops are the ideal, so let the compiler vectorize
    # them (vec8's gather doubles); the libraries are as they were built.
    build_mpi "$PERFDIR/pack.c" pack -O3
    rm -rf "$out"; mkdir -p "$out"
    : >"$raw"
fi

# The command line of flavour $1 (shmpi, ompi, mpich), pinned.
command_of() {
    case $1 in
        shmpi) CMD=(taskset -c "$cpu" "${SHMPI_RUN[@]}" -np 1 "$BIN/pack-shmpi") ;;
        ompi)  CMD=(taskset -c "$cpu" mpirun.openmpi --allow-run-as-root -np 1
                    --cpu-set "$cpu" --bind-to core "$BIN/pack-ompi") ;;
        mpich) CMD=(taskset -c "$cpu" "${MPICH_RUN[@]}" -np 1 "$BIN/pack-mpich") ;;
    esac
}
ref_flavour=
for m in ompi mpich shmpi; do
    if [ -z "$ref_flavour" ] && have "$m"; then ref_flavour=$m; fi
done

declare -A failed
# run IMPL ROUND TYPE: one run under noisy_run.  Appended to $raw:
#   IMPL ROUND OP TYPE SIZE PACKED GBPS    a figure (the run's median batch)
#   IMPL ROUND NOISE TYPE - OTHERS% TRIES  the noise of a run
#   IMPL ROUND PIN TYPE - CPUS -           the CPUs the run was allowed
#   IMPL ROUND FAIL TYPE - WHY -           a failed run
run() {
    local impl=$1 round=$2 type=$3 flavour=$1 ops=pack,unpack why
    local f=$out/$impl-$round-$type
    [ -n "${failed[$impl-$type]:-}" ] && return
    if [ "$impl" = ref ]; then flavour=$ref_flavour ops=memcpy,gather,scatter; fi
    command_of "$flavour"
    noisy_run "$f.txt" "$f.err" "${CMD[@]}" -o "$ops" -t "$type" -s "$sizes" \
        -T "$target" -b "$batches"
    [ "$round" = warm ] && [ $RUN_RC -eq 0 ] && return
    if [ "$round" != warm ]; then
        awk -v OFS='\t' -v i="$impl" -v r="$round" -v t="$type" '
            $1 == "#" && $2 == "cpus_allowed" { print i, r, "PIN", t, "-", $3, "-"; next }
            /^#/ { next }
            NF == 10 { print i, r, $1, $2, $3, $4, $7 }' "$f.txt" >>"$raw"
        printf '%s\t%s\tNOISE\t%s\t-\t%s\t%s\n' "$impl" "$round" "$type" "$RUN_OTHERS" "$RUN_TRIES" >>"$raw"
    fi
    if [ $RUN_RC -ne 0 ]; then
        case $RUN_RC in
            3) why="wrong result: $(grep -m1 '^pack:' "$f.err" | tr '\t' ' ')" ;;
            124|137) why="timed out after ${TMO}s" ;;
            1[3-9][0-9]) why="killed by signal $((RUN_RC - 128))" ;;
            *) why="exit status $RUN_RC" ;;
        esac
        failed[$impl-$type]=1
        printf '%s\t%s\tFAIL\t%s\t-\t%s\t-\n' "$impl" "$round" "$type" "$why" >>"$raw"
        note "pack: $impl ($type, round $round) failed: $why; last output:"
        tail -n 5 "$f.err" "$f.txt" >&2
    fi
}

echo "machine: $(machine_line)"
if [ -z "$tables_only" ]; then
    [ -f "$ROOT/lib/libmpi.a" ] && echo "shmpi: lib/libmpi.a of $(date -u -r "$ROOT/lib/libmpi.a" '+%Y-%m-%d %H:%M:%S UTC')"
    echo "runs: $runs counted rounds after $warm warm-up; one process pinned to CPU $cpu per MPI and type, interleaved; each cell timed in $batches batches (${target} ms in all), a run reports its median batch, the table the median over runs; memcpy and the hand loops run with the $ref_flavour build; a run during which other processes took more than ${NOISE_PCT}% of the machine is run again (at most $RETRIES times)"
    rounds=()
    for ((i = 1; i <= warm; i++)); do rounds+=(warm); done
    for ((i = 1; i <= runs; i++)); do rounds+=("$i"); done
    impls=()
    for m in shmpi ompi mpich; do wanted $m && have $m && impls+=("$m"); done
    wanted ref && [ -n "$ref_flavour" ] && impls+=(ref)
    IFS=, read -r -a type_list <<<"$types"
    k=0
    for r in "${rounds[@]}"; do
        note "pack: round $r"
        for t in "${type_list[@]}"; do
            n=${#impls[@]}
            for ((j = 0; j < n; j++)); do
                run "${impls[$(((j + k) % n))]}" "$r" "$t"
            done
            k=$((k + 1))
        done
    done
else
    echo "tables of $raw"
fi

# ---------------------------------------------------------- the tables
awk -F'\t' -v cpu="$cpu" "$STATS_AWK"'
function hsize(s) { return s >= 1048576 ? sig(s/1048576) " MiB" : s >= 1024 ? sig(s/1024) " KiB" : s " B" }
function show(x) { return x == "" ? "–" : x == "FAIL" ? "FAIL" : sig(x) }
function ratio(a, b) { return num(a) && num(b) && b > 0 ? sprintf("%.2f×", a / b) : "–" }
# median over runs of impl i, op o, type t, size s; "" when none, FAIL
# when a run of that impl and type failed
function get(i, o, t, s,    k, n, a, j) {
    if ((i SUBSEP t) in failed) return "FAIL"
    k = i SUBSEP o SUBSEP t SUBSEP s
    n = cnt[k]
    if (n == 0) return ""
    for (j = 1; j <= n; j++) a[j] = val[k, j]
    sortv(a, n)
    return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
}
function better(a, b) { return !num(a) ? (num(b) ? b : "") : !num(b) ? a : (a > b ? a : b) }
$3 == "FAIL" { failed[$1, $4] = $6; failrun[$1 " " $4] = $6; next }
$3 == "NOISE" { nz[$1, ++nn[$1]] = $6; if ($7 > 1) rerun[$1] += $7 - 1; next }
$3 == "PIN" { if ($6 != cpu) badpin[$1] = badpin[$1] " " $6 " (" $4 ")"; next }
{
    k = $1 SUBSEP $3 SUBSEP $4 SUBSEP $5
    val[k, ++cnt[k]] = $7
    packed[$4, $5] = $6
    if (!($4 in tseen)) { tseen[$4] = 1; torder[++nt] = $4 }
    if (!($5 in sseen)) { sseen[$5] = 1; sorder[++nsz] = $5 }
}
END {
    if (nt == 0) { print "no figures (see the errors above)"; exit }
    print ""
    print "GB/s of packed data, medians over runs; hand loop: the C gather (pack) or scatter (unpack) written for that layout; memcpy: the packed size, one contiguous buffer to another."
    print ""
    print "| type | size | op | shmpi GB/s | Open MPI GB/s | MPICH GB/s | hand loop GB/s | memcpy GB/s | shmpi / best peer | shmpi / memcpy |"
    print "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    split("pack unpack", OP, " ")
    for (si = 1; si <= nsz; si++) for (ti = 1; ti <= nt; ti++) for (oi = 1; oi <= 2; oi++) {
        s = sorder[si]; t = torder[ti]; o = OP[oi]
        if (!((t, s) in packed)) continue
        vs = get("shmpi", o, t, s); vo = get("ompi", o, t, s); vm = get("mpich", o, t, s)
        vh = get("ref", o == "pack" ? "gather" : "scatter", t, s); vc = get("ref", "memcpy", t, s)
        bp = better(vo, vm)
        rp[t, s, o] = num(vs) && num(bp) && bp > 0 ? vs / bp : ""
        rc[t, s, o] = num(vs) && num(vc) && vc > 0 ? vs / vc : ""
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", t, hsize(packed[t, s]), o,
            show(vs), show(vo), show(vm), show(vh), show(vc), ratio(vs, bp), ratio(vs, vc)
    }
    # how much other processes took, and the pinning
    split("shmpi ompi mpich ref", I, " "); line = ""
    for (x = 1; x <= 4; x++) {
        n = nn[I[x]] + 0
        if (n == 0) continue
        for (j = 1; j <= n; j++) a[j] = nz[I[x], j] + 0
        sortv(a, n)
        line = line sprintf("%s%s %d%% (max %d%%%s)", line == "" ? "" : "; ", I[x], a[int((n+1)/2)], a[n],
            rerun[I[x]] ? ", " rerun[I[x]] " re-runs" : "")
    }
    if (line != "") { print ""; print "Other processes'"'"' share of the machine during the kept runs, median: " line }
    for (k in badpin) print "WARNING: " k " ran on CPUs" badpin[k] ", not on CPU " cpu " alone"
    for (k in failrun) print "FAIL: " k ": " failrun[k]
    # goals (reported, never asserted)
    print ""
    print "Goals (measured, not asserted):"
    goal("≥ 1.5× the better peer, vector and indexed types", "vec8 vec256 vec4k indexed idxblock", rp, 1.5)
    goal("≥ 0.8× memcpy, vectors with blocks ≥ 256 B", "vec256 vec4k", rc, 0.8)
}
function goal(what, tl, r, lim,    T, nT, x, si, oi, k, cells, met, all, worst, wk) {
    nT = split(tl, T, " "); cells = ""; met = 0; all = 0; worst = ""
    for (x = 1; x <= nT; x++) for (si = 1; si <= nsz; si++) for (oi = 1; oi <= 2; oi++) {
        k = T[x] SUBSEP sorder[si] SUBSEP OP[oi]
        if (!(k in r) || r[k] == "") continue
        all++; if (r[k] >= lim) met++
        if (worst == "" || r[k] < worst) { worst = r[k]; wk = T[x] " " hsize(packed[T[x], sorder[si]]) " " OP[oi] }
        cells = cells sprintf("%s%s %s %s %.2f×", cells == "" ? "" : ", ", T[x], hsize(packed[T[x], sorder[si]]), OP[oi], r[k])
    }
    if (all == 0) { printf "- %s: cannot tell (no cell with shmpi and the reference both measured)\n", what; return }
    printf "- %s: %s (met in %d of %d cells; lowest: %s %.2f×). %s\n", what, met == all ? "met" : "NOT met", met, all, wk, worst, cells
}' "$raw"
