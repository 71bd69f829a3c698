#!/usr/bin/env bash
# output: 8 ranks printing many long lines in small pieces: every line arrives whole, none torn or mixed with another, each rank's lines in order, stdout and stderr kept apart; nothing lost to a slow reader; a reader that goes away (| head) does not stop the job.
# shmpi-test: timeout=120
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

check_stream() { # file tag lines-per-rank np len
    awk -v tag="$2" -v want="$3" -v np="$4" -v len="$5" '
    {
        if (length($0) != len) { printf "line %d: length %d, expected %d\n", NR, length($0), len; bad = 1; exit 1 }
        if ($1 != tag || $2 !~ /^r[0-9]+$/ || $3 !~ /^l[0-9]+$/) { printf "line %d: bad prefix: %.60s\n", NR, $0; bad = 1; exit 1 }
        r = substr($2, 2) + 0; l = substr($3, 2) + 0
        if (l != next_l[r] + 0) { printf "line %d: rank %d line %d after line %d\n", NR, r, l, next_l[r] - 1; bad = 1; exit 1 }
        next_l[r] = l + 1
        i = (tag == "ERR") ? l + want * 4 : l
        c = sprintf("%c", 97 + (r * 7 + i) % 26)
        body = $4
        if (body !~ ("^" c "+\\.$")) { printf "line %d: rank %d line %d: torn or mixed payload\n", NR, r, l; bad = 1; exit 1 }
    }
    END {
        if (bad) exit 1
        for (r = 0; r < np; r++)
            if (next_l[r] + 0 != want) { printf "rank %d: %d lines, expected %d\n", r, next_l[r], want; exit 1 }
    }' "$1"
}

# lines longer than PIPE_BUF (4096), written 97 bytes at a time
np=8; lines=400; len=5000
start_job "$MPIRUN" -np $np "$VICTIM" print $lines $len
finish_job
expect_status 0
msg=$(check_stream "$OUT" OUT $lines $np $len) || fail "stdout: $msg"
msg=$(check_stream "$ERR" ERR $((lines / 4)) $np $len) || fail "stderr: $msg"

# many short lines from many ranks
np=16; lines=2000; len=60
start_job "$MPIRUN" -np $np "$VICTIM" print $lines $len
finish_job
expect_status 0
msg=$(check_stream "$OUT" OUT $lines $np $len) || fail "stdout: $msg"
msg=$(check_stream "$ERR" ERR $((lines / 4)) $np $len) || fail "stderr: $msg"
# a slow reader: the ranks end while lines wait in their pipes and the
# output queue; every line still arrives
np=16; lines=1500; len=60
"$MPIRUN" -np $np "$VICTIM" print $lines $len 2>"$ERR" </dev/null |
    (sleep 1; cat) >"$OUT"
msg=$(check_stream "$OUT" OUT $lines $np $len) || fail "slow reader, stdout: $msg"
# our stdout closed early: that output is dropped, the job goes on
set -o pipefail
"$MPIRUN" -np 4 "$VICTIM" print 2000 100 2>"$ERR" </dev/null | head -n 3 >"$OUT"
st=("${PIPESTATUS[@]}")
[ "${st[0]}" = 0 ] || fail "mpirun exited with ${st[0]} when its reader went away"
[ "$(wc -l <"$OUT")" = 3 ] || fail "head got $(wc -l <"$OUT") lines"
expect_lines "$ERR" '^ERR ' 2000
expect_shm_clean
pass
