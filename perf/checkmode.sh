#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# checkmode.sh - what the check mode (mpirun --check, SHMPI_CHECK=1)
# costs the test suite: the suite's programs and shell tests run by
# test/run-tests in chunks, each chunk twice in a row, once as it is and
# once with TEST_CHECK=1, the order alternating from chunk to chunk, so
# that both modes see the same load of a shared machine.  Only shmpi: the
# peers have no such mode (MUST and its kin are separate tools).
#
#   CHECKMODE_CHUNK=12 TEST_MAX_NP=2 perf/checkmode.sh [NAME...]
#
# A chunk's programs are built once (TEST_KEEP_BUILD=1): its time is the
# sum of its runs' times as run-tests prints them (the builds left out), "×" the check mode's
# over the plain one.  Runs that failed in either mode are named and
# left out of both sums.  Knobs: CHECKMODE_CHUNK (tests a chunk, 12),
# TEST_MAX_NP (2; see test/run-tests), TEST_TIMEOUT_SCALE (2).
# Raw figures: perf/bin/checkmode.tsv (MODE CHUNK TEST NP SECONDS STATUS).
set -u
. "$(dirname "$0")/common.sh"
unset SHMPI_NP SHMPI_RANK SHMPI_SIZE SHMPI_ARENA_FD SHMPI_CHECK

: "${CHECKMODE_CHUNK:=12}" "${TEST_MAX_NP:=2}" "${TEST_TIMEOUT_SCALE:=2}"
export TEST_MAX_NP TEST_TIMEOUT_SCALE
raw=$BIN/checkmode.tsv
: >"$raw"

cd "$ROOT" || exit 1
if [ $# -gt 0 ]; then
    names=("$@")
else
    mapfile -t names < <(ls test/*.c test/*.sh | sed 's|^test/||; s/\.[a-z]*$//' |
        LC_ALL=C sort -u)
fi

# one MODE CHUNK NAME...: run-tests over the names, its lines into $raw
one() {
    local mode=$1 chunk=$2
    shift 2
    local env=()
    [ "$mode" = check ] && env=(TEST_CHECK=1)
    env "${env[@]}" TEST_KEEP_BUILD=1 test/run-tests "$@" 2>&1 |
        sed -nE -e 's/^(PASS|FAIL) ([^ ]+) np=([0-9]+) \(([0-9.]+) s\).*/\1 \2 \3 \4/p' \
            -e 's/^(PASS|FAIL) ([^ ]+) \(([0-9.]+) s\).*/\1 \2 - \3/p' |
        while read -r st name np secs; do
            printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$mode" "$chunk" "$name" "$np" "$secs" "$st"
        done >>"$raw"
}

note "checkmode: ${#names[@]} tests in chunks of $CHECKMODE_CHUNK, up to $TEST_MAX_NP ranks; $(uptime | sed 's/.*load/load/')"
chunk=0
for ((i = 0; i < ${#names[@]}; i += CHECKMODE_CHUNK)); do
    part=("${names[@]:i:CHECKMODE_CHUNK}")
    if ((chunk % 2 == 0)); then
        one plain "$chunk" "${part[@]}"; one check "$chunk" "${part[@]}"
    else
        one check "$chunk" "${part[@]}"; one plain "$chunk" "${part[@]}"
    fi
    note "checkmode: chunk $chunk done ($(date -u +%H:%M:%S), $(uptime | sed 's/.*average: //'))"
    chunk=$((chunk + 1))
done

echo "### check mode: the test suite's run time, plain and TEST_CHECK=1 (up to $TEST_MAX_NP ranks)"
echo
echo "$(uname -n); $(nproc) CPUs; $(uptime | sed 's/.*load/load/'); $(date -u '+%Y-%m-%d %H:%M UTC')"
echo
awk -F'\t' '
{ k = $2 SUBSEP $3 SUBSEP $4; t[$1, k] = $5; s[$1, k] = $6; keys[k] = $2 }
END {
    for (k in keys) {
        if (s["plain", k] != "PASS" || s["check", k] != "PASS") {
            split(k, f, SUBSEP); bad = bad " " f[2] "(" f[3] ")"; continue
        }
        c = keys[k]; p[c] += t["plain", k]; q[c] += t["check", k]; n[c]++
        tp += t["plain", k]; tq += t["check", k]; tn++
        split(k, f, SUBSEP); r = t["check", k] / (t["plain", k] > 0.01 ? t["plain", k] : 0.01)
        if (r > worst[1] || worst[1] == "") { worst[1] = r; worst[2] = f[2] " np=" f[3] }
    }
    print "| chunk | runs | plain s | check s | × |"
    print "| ---: | ---: | ---: | ---: | ---: |"
    for (c = 0; c in n; c++)
        printf "| %d | %d | %.1f | %.1f | %.2f |\n", c, n[c], p[c], q[c], q[c] / p[c]
    printf "| all | %d | %.1f | %.1f | **%.2f** |\n", tn, tp, tq, tq / tp
    print ""
    printf "largest ratio of one run: %.1f× (%s)\n", worst[1], worst[2]
    if (bad != "") print "failed in a mode, left out:" bad
}' "$raw"
