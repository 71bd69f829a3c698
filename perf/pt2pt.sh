#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# pt2pt.sh - point-to-point latency and bandwidth (perf/pt2pt.c, OSU style),
# shmpi side by side with Open MPI and MPICH and with the machine's limits
# (perf/limits.c), then an oversubscribed ring at np=8 on the 2 cores.
#
#   2 ranks, pinned one per core, one run per message size:
#     shmpi   ./mpirun -np 2 --bind-to core pt2pt-shmpi -s SIZE
#     ompi    mpirun.openmpi --allow-run-as-root -np 2 --bind-to core
#                 --mca btl self,vader pt2pt-ompi -s SIZE
#     mpich   mpiexec.mpich -launcher fork -np 2 -bind-to core pt2pt-mpich -s SIZE
#     limits  perf/bin/limits (cache line, memcpy, process_vm_readv, and
#             the stream limit: 1 B .. 16 KiB records through a plain ring
#             between the two CPUs, each batch labelled near or far by the
#             same probe; its GB/s per state end each bw table as "ring
#             limit GB/s" and "shmpi / limit", and the goals say, per size
#             and state, how near shmpi came to it)
#   np=8 ring, 8 B Sendrecv to the right, from the left (not pinned: 8 ranks
#   share the 2 cores whatever the launcher does):
#     shmpi   ./mpirun -np 8 pt2pt-shmpi -t ring
#     ompi    mpirun.openmpi --allow-run-as-root --oversubscribe -np 8
#                 --mca btl self,vader pt2pt-ompi -t ring
#     mpich   mpiexec.mpich -launcher fork -np 8 pt2pt-mpich -t ring
#   With PERF_BASELINE=REV (any git revision), a second shmpi built from REV
#   (perf/common.sh: exported and built once per commit under
#   perf/bin/baseline/) runs as one more MPI, "shmpi@<short hash>", with its
#   own ./mpirun and exactly shmpi's options:
#     base    BASE/mpirun -np 2 --bind-to core pt2pt-base -s SIZE
#             BASE/mpirun -np 8 pt2pt-base -t ring
#   in the same rounds (rotated with the others), under the same probe and
#   noise guard; the tables gain its columns and "shmpi / baseline" ratios
#   (per state), and a summary of those ratios at 8 B latency, 1 and 16 MiB
#   bandwidth and the ring.  Unset: nothing of it is built, run or printed.
#
# The machine has two states.  On this VM one cache line crossing between
# the two vCPUs takes ~50 ns for a few seconds, then ~230 ns for a few
# seconds (the hypervisor places the vCPUs nearer or farther apart;
# perf/limits.c), and every MPI's small-message latency (x2.5) and
# bandwidth (x0.5) flips with it (2026-11-22, this script's tables) - more than the differences being measured.  So pt2pt.c bounces a
# cache line between its two ranks before and after every timed batch and
# labels the batch "near" (both probes below PT2PT_NEAR_NS, default 150),
# "far" (both at or above) or "mixed".  The tables give medians over all
# near batches of all runs, over all far batches, and over all batches; an
# implementation is only ever compared with another in the same state.
#
# Rounds are interleaved: per round, the limits, then for each size the
# three MPIs one after the other (the order rotated per size and round).
# PERF_WARMUP uncounted rounds (default 1), then PT2PT_RUNS counted ones
# (default PERF_RUNS if set, else 5).  A run that fails (non-zero exit,
# signal, PERF_TIMEOUT, default 120 s) is not a time: the cells it did not
# finish show FAIL and that MPI is not run at that size again.
#
# Runs are guarded against other people's work on this shared machine
# (perf/pt2pt-lib.sh): a run during which other processes took more than
# PT2PT_NOISE_PCT (default PERF_NOISE_PCT, else 10; negative: no guard)
# percent of the machine is run again, after waiting up to PT2PT_QUIET_WAIT
# (PERF_QUIET_WAIT, else 20) s for a quiet moment, at most PT2PT_RETRIES
# (PERF_RETRIES, else 2) times; the output says how much others took.
# Knobs: PT2PT_RUNS, PT2PT_TARGET_MS (timed ms per size and test inside
# one run, default 200), PT2PT_SIZES (comma list, K/M suffixes),
# PT2PT_NEAR_NS, PT2PT_RING_NP (default 8; empty skips the ring),
# PT2PT_RING_MS (default 1000), PT2PT_ONLY (subset of "shmpi base ompi
# mpich limits"), PERF_BASELINE (above).  SHMPI_* tunables in the environment reach shmpi's ranks (and
# are printed).
# Raw per-run figures: perf/bin/pt2pt.tsv; run outputs: perf/bin/pt2pt.out/.
# PT2PT_TABLES_ONLY=1 runs nothing and prints the tables of the raw file
# again (PT2PT_RAW names another one).  One pt2pt benchmark at a time: a
# second one (this or pt2pt-sweep.sh) waits on perf/bin/.pt2pt.lock.
set -u
. "$(dirname "$0")/common.sh"
. "$PERFDIR/pt2pt-lib.sh"
unset SHMPI_NP SHMPI_RANK SHMPI_SIZE SHMPI_ARENA_FD

runs=${PT2PT_RUNS:-${PERF_RUNS:-5}}
warm=${PERF_WARMUP:-1}
TMO=${PERF_TIMEOUT:-120}
NOISE_PCT=${PT2PT_NOISE_PCT:-${PERF_NOISE_PCT:-10}}
QUIET_WAIT=${PT2PT_QUIET_WAIT:-${PERF_QUIET_WAIT:-20}}
RETRIES=${PT2PT_RETRIES:-${PERF_RETRIES:-2}}
target=${PT2PT_TARGET_MS:-200}
near_ns=${PT2PT_NEAR_NS:-150}
ring_np=${PT2PT_RING_NP-8}
ring_ms=${PT2PT_RING_MS:-1000}
only=${PT2PT_ONLY:-shmpi base ompi mpich limits}
sizes=${PT2PT_SIZES:-0,1,8,64,256,1K,4K,16K,64K,256K,1M,4M,16M}
tables_only=${PT2PT_TABLES_ONLY:-}

out=$BIN/pt2pt.out
raw=${PT2PT_RAW:-$BIN/pt2pt.tsv}
if [ -z "$tables_only" ]; then
    pt2pt_lock pt2pt
    use_baseline
    build_mpi "$PERFDIR/pt2pt.c" pt2pt
    build_limits || exit 1
    rm -rf "$out"; mkdir -p "$out"
    : >"$raw"
    have base && printf 'baseline\t%s\n' "$BASE_LABEL" >>"$raw"
fi
wanted() { [[ " $only " == *" $1 "* ]]; }
declare -A failed

# run PHASE IMPL ROUND SIZE CMD... : one run under noisy_run; phase p2 runs
# are bracketed by the cache-line probe.  Appended to $raw:
#   PHASE IMPL ROUND TEST SIZE VALUE UNIT STATE   a figure
#   probe IMPL ROUND cacheline 64 NS ns pre|post  the probes of a p2 run
#   PHASE IMPL ROUND NOISE SIZE OTHERS% TRIES -   the noise of a run
#   PHASE IMPL ROUND FAIL SIZE WHY DONE -         a failed run (DONE: the
#                                                 tests it finished)
run() {
    local phase=$1 impl=$2 round=$3 size=$4; shift 4
    local f=$out/$phase-$impl-$round-$size why
    [ -n "${failed[$phase-$impl-$size]:-}" ] && return
    noisy_run "$f.txt" "$f.err" "$@"
    [ "$round" = warm ] && [ $RUN_RC -eq 0 ] && return
    # pt2pt and the stream limit: one row per timed batch (and its probe);
    # the other limits: one per figure
    [ "$round" != warm ] && awk -v OFS='\t' -v p="$phase" -v i="$impl" -v r="$round" '
        /^#/ { next }
        $1 == "batch" && NF == 8 { print p, i, r, $2, $3, $4, $5, $6; if ($7 >= 0) print "probe", i, r, "cacheline", 64, $7, "ns", "-"; next }
        p == "lim" && NF == 8 && $1 != "stream" { print p, i, r, $1, $2, $5, $8, "-" }' "$f.txt" >>"$raw"
    [ "$round" != warm ] &&
        printf '%s\t%s\t%s\tNOISE\t%s\t%s\t%s\t-\n' "$phase" "$impl" "$round" "$size" "$RUN_OTHERS" "$RUN_TRIES" >>"$raw"
    if [ $RUN_RC -ne 0 ]; then
        case $RUN_RC in
            124|137) why="timed out after ${TMO}s" ;;
            1[3-9][0-9]) why="killed by signal $((RUN_RC - 128))" ;;
            *) why="exit status $RUN_RC" ;;
        esac
        failed[$phase-$impl-$size]=1
        printf '%s\t%s\t%s\tFAIL\t%s\t%s\t%s\t-\n' "$phase" "$impl" "$round" "$size" "$why" \
            "$(awk '!/^#/ && NF == 12 { printf "%s,", $1 }' "$f.txt")" >>"$raw"
        note "pt2pt: $impl ($phase, size $size, round $round) failed: $why; last output:"
        tail -n 5 "$f.err" "$f.txt" >&2
    fi
}

echo "machine: $(machine_line)"
if [ -z "$tables_only" ]; then
    [ -f "$ROOT/lib/libmpi.a" ] && echo "shmpi: lib/libmpi.a of $(date -u -r "$ROOT/lib/libmpi.a" '+%Y-%m-%d %H:%M:%S UTC')"
    tun=$(env | grep -E '^SHMPI_' | sort | tr '\n' ' ')
    baseline_line
    echo "shmpi tunables in the environment: ${tun:-none (library defaults)}"
    echo "runs: $runs counted rounds after $warm warm-up; one run per MPI and size, interleaved; each run times 9 batches per size and test (${target} ms in all), each batch labelled by the cache-line probes around it; figures are medians over the batches of all runs; a run during which other processes took more than ${NOISE_PCT}% of the machine is run again (at most $RETRIES times)"
else
    echo "tables of $raw"
fi

rounds=()
if [ -z "$tables_only" ]; then
    for ((i = 1; i <= warm; i++)); do rounds+=(warm); done
    for ((i = 1; i <= runs; i++)); do rounds+=("$i"); done
fi
IFS=, read -r -a size_list <<<"$sizes"
impls=()
for m in shmpi base ompi mpich; do wanted $m && have $m && impls+=("$m"); done

# ---------------------------------------------------------- np=2, pinned
k=0
for r in "${rounds[@]}"; do
    note "pt2pt: round $r (np=2)"
    wanted limits && run lim limits "$r" all "$BIN/limits" -P "$near_ns"
    for s in "${size_list[@]}"; do
        n=${#impls[@]}
        for ((j = 0; j < n; j++)); do
            m=${impls[$(((j + k) % n))]}
            case $m in
                shmpi|base)
                       launcher_of $m
                       run p2 $m "$r" "$s" "${LAUNCHER[@]}" -np 2 --bind-to core \
                           "$BIN/pt2pt-$m" -s "$s" -T "$target" -P "$near_ns" ;;
                ompi)  run p2 ompi "$r" "$s" mpirun.openmpi --allow-run-as-root -np 2 \
                           --bind-to core --mca btl self,vader "$BIN/pt2pt-ompi" -s "$s" -T "$target" -P "$near_ns" ;;
                mpich) run p2 mpich "$r" "$s" "${MPICH_RUN[@]}" -np 2 -bind-to core \
                           "$BIN/pt2pt-mpich" -s "$s" -T "$target" -P "$near_ns" ;;
            esac
        done
        k=$((k + 1))
    done
done

# ---------------------------------------------------------- np=8 ring
if [ -n "$ring_np" ] && [ -z "$tables_only" ]; then
    for r in "${rounds[@]}"; do
        note "pt2pt: round $r (ring np=$ring_np)"
        wanted shmpi && have shmpi && run ring shmpi "$r" 8 \
            "${SHMPI_RUN[@]}" -np "$ring_np" "$BIN/pt2pt-shmpi" -t ring -T "$ring_ms"
        wanted base && have base && run ring base "$r" 8 \
            "${BASE_RUN[@]}" -np "$ring_np" "$BIN/pt2pt-base" -t ring -T "$ring_ms"
        wanted ompi && have ompi && run ring ompi "$r" 8 \
            "${OMPI_RUN[@]}" -np "$ring_np" --mca btl self,vader "$BIN/pt2pt-ompi" -t ring -T "$ring_ms"
        wanted mpich && have mpich && run ring mpich "$r" 8 \
            "${MPICH_RUN[@]}" -np "$ring_np" "$BIN/pt2pt-mpich" -t ring -T "$ring_ms"
    done
fi

# ---------------------------------------------------------- the tables
awk -F'\t' -v ring_np="$ring_np" -v thr="$near_ns" "$STATS_AWK"'
function hsize(s) { return s >= 1048576 ? s/1048576 " MiB" : s >= 1024 ? s/1024 " KiB" : s " B" }
# median of the figures of phase p, impl i, test t, size s in state st
# ("all": every state); sets LO and HI; "" when none, FAIL when a failed
# run did not finish this test
function get(p, i, t, s, st,    k, n, a, j) {
    k = p SUBSEP i SUBSEP t SUBSEP s
    n = 0
    for (j = 1; j <= cnt[k]; j++) if (st == "all" || state[k, j] == st) a[++n] = val[k, j]
    if (((p SUBSEP i SUBSEP t SUBSEP s) in failed)) return "FAIL"
    if (n == 0) return ""
    sortv(a, n); LO = a[1]; HI = a[n]; N = n
    return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
}
function show(x, scale) { return x == "" ? "–" : x == "FAIL" ? "FAIL" : sig(x * scale) }
function times(r) { return r == "" ? "–" : sprintf("%.2f×", r) }
$1 == "baseline" { blabel = $2; next }
$4 == "FAIL" {
    # the tests the failed run did not finish are FAIL cells
    split("lat bw ring", T, " ")
    for (tq in T) if (index($7, T[tq] ",") == 0) failed[$1, $2, T[tq], $5] = $6
    failrun[$1 " " $2 " size " $5] = $6
    next
}
$4 == "NOISE" { nz[$1 " " $2, ++nn[$1 " " $2]] = $6; if ($7 > 1) rerun[$1 " " $2] += $7 - 1; next }
$1 == "probe" { pv[++np_] = $6; next }
{
    k = $1 SUBSEP $2 SUBSEP $4 SUBSEP $5
    j = ++cnt[k]; val[k, j] = $6; state[k, j] = $8
    if ($1 == "p2" && !(($5) in seen)) { seen[$5] = 1; order[++ns] = $5 }
    if ($1 == "p2") nstate[$2, $8]++
    if ($1 == "p2") nruns[$2]++
    if ($1 == "lim" && $4 == "stream") { hlim = 1; nstate["limits", $8]++ }
}
# With a baseline (blabel), its lat and bw columns follow those of shmpi, a
# "shmpi / baseline" column follows each "shmpi / best".
# With the stream limit (hlim), "ring limit GB/s" and "shmpi / limit" end
# each row.
function table(st, title,    n, s, ls, lo_, lm, bs, bo, bm, bl, bb, rl, rb, lb, bb_, rlb, rbb, hb, li, rli) {
    hb = blabel != ""
    print ""; print title; print ""
    printf "| size | shmpi lat µs |%s Open MPI lat µs | MPICH lat µs | shmpi / best lat |%s shmpi bw GB/s |%s Open MPI bw GB/s | MPICH bw GB/s | shmpi / best bw |%s%s\n",
        hb ? " " blabel " lat µs |" : "", hb ? " shmpi / baseline lat |" : "",
        hb ? " " blabel " bw GB/s |" : "", hb ? " shmpi / baseline bw |" : "",
        hlim ? " ring limit GB/s | shmpi / limit |" : ""
    print "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |" (hb ? " ---: | ---: | ---: | ---: |" : "") (hlim ? " ---: | ---: |" : "")
    for (n = 1; n <= ns; n++) {
        s = order[n]
        ls = get("p2", "shmpi", "lat", s, st); lo_ = get("p2", "ompi", "lat", s, st); lm = get("p2", "mpich", "lat", s, st)
        bs = get("p2", "shmpi", "bw", s, st);  bo = get("p2", "ompi", "bw", s, st);  bm = get("p2", "mpich", "bw", s, st)
        lb = get("p2", "base", "lat", s, st);  bb_ = get("p2", "base", "bw", s, st)
        bl = ""; if (num(lo_)) bl = lo_; if (num(lm) && (bl == "" || lm < bl)) bl = lm
        bb = ""; if (num(bo)) bb = bo; if (num(bm) && (bb == "" || bm > bb)) bb = bm
        rl = num(ls) && bl > 0 ? ls / bl : ""; rb = num(bs) && bb > 0 && s > 0 ? bs / bb : ""
        rlb = num(ls) && num(lb) && lb > 0 ? ls / lb : ""; rbb = num(bs) && num(bb_) && bb_ > 0 && s > 0 ? bs / bb_ : ""
        li = get("lim", "limits", "stream", s, st); rli = num(bs) && num(li) && li > 0 ? bs * 0.001 / li : ""
        ratl[st, s] = rl; ratb[st, s] = rb; basel[st, s] = rlb; baseb[st, s] = rbb; ratlim[st, s] = rli
        printf "| %s | %s |%s %s | %s | %s |%s %s |%s %s | %s | %s |%s%s\n", hsize(s),
            show(ls, 1), hb ? " " show(lb, 1) " |" : "", show(lo_, 1), show(lm, 1), times(rl),
            hb ? " " times(rlb) " |" : "",
            (s > 0 ? show(bs, 0.001) : "–"), hb ? " " (s > 0 ? show(bb_, 0.001) : "–") " |" : "",
            (s > 0 ? show(bo, 0.001) : "–"), (s > 0 ? show(bm, 0.001) : "–"), times(rb),
            hb ? " " times(rbb) " |" : "", hlim ? " " show(li, 1) " | " times(rli) " |" : ""
    }
}
# the line of the baseline summary for NAME: the ratios in arr at size s
# per state
function vsbase(name, arr, s,    st, line, x, r) {
    line = ""
    split("near far", S, " ")
    for (x = 1; x <= 2; x++) {
        st = S[x]; r = arr == "lat" ? basel[st, s] : baseb[st, s]
        if (r != "") line = line (line == "" ? "" : "; ") sprintf("%s %.2f×", st, r)
    }
    printf "- %s: %s\n", name, line == "" ? "cannot tell (no state in which both were measured)" : line
}
# the streaming goal at size s: >= 1.3x the better peer, or, where that
# lies beyond the machine, shmpi within 10 % of the ring limit, per state
# (more than 10 % above it: the ring is no limit there, and proves nothing)
function streamgoal(s,    st, line, x, r, q, w) {
    line = ""
    split("near far", S, " ")
    for (x = 1; x <= 2; x++) {
        st = S[x]; r = ratb[st, s]; q = ratlim[st, s]
        if (r == "" && q == "") continue
        w = r == "" ? "" : sprintf("%.2f× the better peer", r)
        if (q != "") w = w (w == "" ? "" : ", ") (q > 1.1 ? sprintf("shmpi %.0f %% above the ring limit (so at this size the ring is no limit)", (q - 1) * 100) \
            : q >= 0.9 ? sprintf("shmpi within %.0f %% of the machine'"'"'s ring limit in that state", (q > 1 ? q - 1 : 1 - q) * 100) \
            : sprintf("shmpi %.0f %% below the machine'"'"'s ring limit in that state", (1 - q) * 100))
        line = line (line == "" ? "" : "; ") st " " w " (" ((r != "" && r >= 1.3) || (q != "" && q >= 0.9 && q <= 1.1) ? "met" : "NOT met") ")"
    }
    if (line != "") printf "- streaming at %s ≥ 1.3× the better peer, or within 10 %% of the ring limit: %s\n", hsize(s), line
}
function goal(what, r, cmp, lim, st) {
    if (r == "") return ""
    return sprintf("%s %.2f× (%s)", st, r, (cmp == "le" ? r <= lim : r >= lim) ? "met" : "NOT met")
}
function goals(name, arr_s, cmp, lim, t,    st, line, x) {
    line = ""
    split("near far", S, " ")
    for (x = 1; x <= 2; x++) {
        st = S[x]
        r = t == "lat" ? ratl[st, arr_s] : ratb[st, arr_s]
        if (r != "") line = line (line == "" ? "" : "; ") goal(name, r, cmp, lim, st)
    }
    printf "- %s: %s\n", name, line == "" ? "cannot tell (no state in which shmpi and a peer were both measured)" : line
}
END {
    if (ns > 0) {
        counts = ""
        split("shmpi base ompi mpich", I, " ")
        for (x = 1; x <= 4; x++) if (nruns[I[x]])
            counts = counts sprintf("%s%s %d near, %d far, %d mixed", counts == "" ? "" : "; ", I[x] == "base" ? blabel : I[x],
                nstate[I[x], "near"], nstate[I[x], "far"], nstate[I[x], "mixed"])
        print ""
        if (hlim) counts = counts sprintf("; ring limit %d near, %d far, %d mixed", nstate["limits", "near"], nstate["limits", "far"], nstate["limits", "mixed"])
        print "Timed batches per state: " counts
        table("near", "Near state (cache-line probe < " thr " ns before and after the batch): medians over those batches")
        table("far", "Far state (probe ≥ " thr " ns before and after the batch): medians over those batches")
        table("all", "All batches, whatever the state: medians (states mixed in different proportions per cell: not a comparison; shown to show why the states are separated)")
    }
    # limits
    nl = split("cacheline 64 ns one cache line crossing between the two cores (one way)|memcpy 8192 GB/s memcpy, one thread, 8 KiB|memcpy 65536 GB/s memcpy, one thread, 64 KiB|memcpy 1048576 GB/s memcpy, one thread, 1 MiB|memcpy 4194304 GB/s memcpy, one thread, 4 MiB|memcpy 16777216 GB/s memcpy, one thread, 16 MiB|memcpy 67108864 GB/s memcpy, one thread, 64 MiB|pvreadv 64 us process_vm_readv, one 64 B call (fixed cost)|pvreadv 1048576 GB/s process_vm_readv, 1 MiB per call|pvreadv 16777216 GB/s process_vm_readv, 16 MiB per call", L, "|")
    printed = 0
    for (i = 1; i <= nl; i++) {
        split(L[i], f, " "); what = L[i]; sub(/^[^ ]+ [^ ]+ [^ ]+ /, "", what)
        x = get("lim", "limits", f[1], f[2], "all")
        if (x == "") continue
        if (!printed) {
            print ""; print "Machine limits, same run (perf/bin/limits once per round):"; print ""
            print "| what | median | min–max over runs |"; print "| --- | ---: | ---: |"; printed = 1
        }
        printf "| %s | %s %s | %s |\n", what, show(x, 1), f[3], x == "FAIL" ? "" : sig(LO) "–" sig(HI)
    }
    if (np_ > 0) {
        nn1 = 0; nn2 = 0
        for (i = 1; i <= np_; i++) if (pv[i] < thr) A1[++nn1] = pv[i]; else A2[++nn2] = pv[i]
        sortv(A1, nn1); sortv(A2, nn2)
        printf "\nCache-line probes between the timed batches: %d of %d near (median %s ns), %d far (median %s ns).\n",
            nn1, np_, nn1 ? sig(A1[int((nn1+1)/2)]) : "–", nn2, nn2 ? sig(A2[int((nn2+1)/2)]) : "–"
    }
    # ring
    if (ring_np != "") {
        rs = get("ring", "shmpi", "ring", 8, "all"); rsl = LO; rsh = HI
        rb_ = get("ring", "base", "ring", 8, "all"); rbl = LO; rbh = HI
        ro = get("ring", "ompi", "ring", 8, "all"); rol = LO; roh = HI
        rm = get("ring", "mpich", "ring", 8, "all"); rml = LO; rmh = HI
        if (rs != "" || ro != "" || rm != "") {
            print ""
            print "Oversubscribed ring, np=" ring_np " on the 2 cores, 8 B MPI_Sendrecv right/left, µs per iteration (median over the timed batches of all runs):"
            print ""
            print "| MPI | median | min–max over batches | / Open MPI |"
            print "| --- | ---: | ---: | ---: |"
            printf "| shmpi | %s | %s | %s |\n", show(rs, 1), num(rs) ? sig(rsl) "–" sig(rsh) : "", num(rs) && num(ro) ? sprintf("%.3f×", rs / ro) : "–"
            if (blabel != "")
                printf "| %s | %s | %s | %s |\n", blabel, show(rb_, 1), num(rb_) ? sig(rbl) "–" sig(rbh) : "", num(rb_) && num(ro) ? sprintf("%.3f×", rb_ / ro) : "–"
            printf "| Open MPI | %s | %s | %s |\n", show(ro, 1), num(ro) ? sig(rol) "–" sig(roh) : "", num(ro) ? "1×" : "–"
            printf "| MPICH | %s | %s | %s |\n", show(rm, 1), num(rm) ? sig(rml) "–" sig(rmh) : "", num(rm) && num(ro) ? sprintf("%.3f×", rm / ro) : "–"
        }
    }
    # how much other processes took
    nlist = "p2 shmpi|p2 base|p2 ompi|p2 mpich|lim limits|ring shmpi|ring base|ring ompi|ring mpich"
    nn_ = split(nlist, NL, "|"); line = ""
    for (i = 1; i <= nn_; i++) {
        n = nn[NL[i]] + 0
        if (n == 0) continue
        split(NL[i], q, " ")
        for (j = 1; j <= n; j++) a[j] = nz[NL[i], j] + 0
        sortv(a, n)
        line = line sprintf("%s%s%s %d%% (max %d%%%s)", line == "" ? "" : "; ", q[2] == "base" ? blabel : q[2], q[1] == "ring" ? " ring" : "",
            a[int((n+1)/2)], a[n], rerun[NL[i]] ? ", " rerun[NL[i]] " re-runs" : "")
    }
    if (line != "") { print ""; print "Other processes'"'"' share of the machine during the kept runs, median: " line }
    for (k in failrun) print "FAIL: " k ": " failrun[k]
    # goals (reported, never asserted)
    print ""
    print "Goals (measured, not asserted; per state, never across states):"
    goals("8 B latency ≤ 0.7× the better peer", 8, "le", 0.7, "lat")
    goals("bandwidth at 1 MiB ≥ 1.2× the better peer", 1048576, "ge", 1.2, "bw")
    goals("bandwidth at 16 MiB ≥ 1.2× the better peer", 16777216, "ge", 1.2, "bw")
    if (hlim) for (n = 1; n <= ns; n++) if (order[n] > 0 && order[n] <= 16384) streamgoal(order[n])
    if (ring_np != "")
        printf "- np=%s ring ≤ 0.35× Open MPI: %s\n", ring_np, num(rs) && num(ro) ? sprintf("%.3f× (%s)", rs / ro, rs / ro <= 0.35 ? "met" : "NOT met") : "cannot tell"
    if (blabel != "") {
        print ""
        print "shmpi / baseline (" blabel "), per state (latency: below 1 is faster; bandwidth: above 1 is faster):"
        vsbase("8 B latency", "lat", 8)
        vsbase("bandwidth at 1 MiB", "bw", 1048576)
        vsbase("bandwidth at 16 MiB", "bw", 16777216)
        if (ring_np != "")
            printf "- np=%s ring: %s\n", ring_np, (num(rs) && num(rb_) && rb_ > 0 ? sprintf("%.3f×", rs / rb_) : "cannot tell")
    }
}' "$raw"
