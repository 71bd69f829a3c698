#!/usr/bin/env bash
# tunables-doc: every variable of mpirun --show-tunables is documented in the ENVIRONMENT sections of shmpi(7) and mpirun(1), and every SHMPI_ variable the man pages or README name is in that table (the launcher-to-rank plumbing and mpicc's own variables excepted by name).
# shmpi-test: timeout=60
# shmpi-test-skip san tsan: it reads the tree, the man pages and the symbol tables the build made, where a sanitizer has nothing to look at; step 2 runs it
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

# Not tunables, on purpose: set by the launcher (or the rank's program)
# for the ranks, and read by the mpicc script rather than the library.
plumbing="SHMPI_RANK SHMPI_SIZE SHMPI_ARENA_FD SHMPI_RANK_PID"
wrapper="SHMPI_CC SHMPI_CXX"

env -u SHMPI_RING_KB "$MPIRUN" --show-tunables >"$OUT" 2>"$ERR"
STATUS=$?
expect_status 0
[ ! -s "$ERR" ] || fail "--show-tunables wrote on stderr"
tunables=$(sed -n 's/^\([A-Z_][A-Z0-9_]*\) = .*/\1/p' "$OUT")
n=$(echo "$tunables" | wc -w)
[ "$n" -ge 17 ] || fail "--show-tunables lists only $n tunables"
shown_plumbing=$(sed -n 's/^  \(SHMPI_[A-Z0-9_]*\): .*/\1/p' "$OUT" | xargs)
[ "$shown_plumbing" = "$plumbing" ] ||
    fail "--show-tunables lists '$shown_plumbing' apart, expected '$plumbing'"

man=$SHMPI_ROOT/man
environment() { # page -> its ENVIRONMENT section
    awk '/^\.SH ENVIRONMENT/ { f = 1; next } /^\.SH / { f = 0 } f' "$1"
}
words() { grep -oE '\<(SHMPI_[A-Z0-9_]+|MPIEXEC_TIMEOUT)\>' | sort -u; }

# table -> pages
for page in man7/shmpi.7 man1/mpirun.1; do
    env_words=$(environment "$man/$page" | words)
    for t in $tunables $plumbing; do
        grep -qx "$t" <<<"$env_words" ||
            fail "$t is not documented in $page, ENVIRONMENT"
    done
done

# pages -> table: in an ENVIRONMENT section only variables; elsewhere
# also the macros that mpi.h and the runtime define or test
known=$(printf '%s\n' $tunables $plumbing $wrapper)
for page in "$man"/man1/*.1 "$man"/man7/*.7; do
    for w in $(environment "$page" | words); do
        grep -qx "$w" <<<"$known" ||
            fail "$(basename "$page") documents $w in ENVIRONMENT, which is not in the table"
    done
done
macros=$(grep -rhoE '(^# *(define|ifdef|ifndef) +|defined\()SHMPI_[A-Z0-9_]+' \
    "$SHMPI_ROOT/mpi.h" "$SHMPI_ROOT/runtime" | grep -oE 'SHMPI_[A-Z0-9_]+')
known=$(printf '%s\n' $tunables $plumbing $wrapper $macros)
unknown=$(awk 'NR == FNR { known[$1]; next }
    /^\.TH / { next }
    {
        s = $0
        while (match(s, /SHMPI_[A-Z0-9_]+/)) {
            w = substr(s, RSTART, RLENGTH)
            if (!(w in known)) print FILENAME ": " w
            s = substr(s, RSTART + RLENGTH)
        }
    }' <(echo "$known") "$man"/man*/*.[137] "$SHMPI_ROOT/README" | sort -u)
[ -z "$unknown" ] ||
    fail "named, but neither a tunable nor plumbing nor a macro: $(echo $unknown)"
pass "$n tunables, all documented"
