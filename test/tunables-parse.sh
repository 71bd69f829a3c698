#!/usr/bin/env bash
# tunables-parse: sizes with suffixes are accepted; garbage in a tunable (empty, not a number, trailing junk, out of range, overflow) stops mpirun, the in-library launch and a singleton with one line naming the variable, the value and what it accepts; a job-wide tunable set differently in one rank stops the job with one line naming both values.
# shmpi-test: timeout=120
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

# The value --show-tunables reports for one variable, given env settings.
shown() { # NAME [VAR=VALUE...]
    env "${@:2}" "$MPIRUN" --show-tunables | sed -n "s/^$1 = //p"
}

expect_shown() { # NAME "value (from..." VAR=VALUE...
    local got
    got=$(shown "$1" "${@:3}")
    [[ $got == "$2"* ]] || fail "${*:3}: --show-tunables says '$got', expected '$2...'"
}

# suffixes, case, and the variable's own unit for plain numbers
expect_shown SHMPI_RING_KB "128 KiB (default" -u SHMPI_RING_KB
expect_shown SHMPI_RING_KB "64 KiB (environment" SHMPI_RING_KB=64
expect_shown SHMPI_RING_KB "1024 KiB (environment" SHMPI_RING_KB=1M
expect_shown SHMPI_RING_KB "1024 KiB (environment" SHMPI_RING_KB=1m
expect_shown SHMPI_RING_KB "16 KiB (environment" SHMPI_RING_KB=16KiB
expect_shown SHMPI_RING_KB "1048576 KiB (environment" SHMPI_RING_KB=1G
expect_shown SHMPI_EAGER_LIMIT "4096 bytes (environment" SHMPI_EAGER_LIMIT=4k
expect_shown SHMPI_PULL_LIMIT_MB "2048 MiB (environment" SHMPI_PULL_LIMIT_MB=2g
expect_shown SHMPI_PULL_LIMIT_MB "2097152 MiB (environment" SHMPI_PULL_LIMIT_MB=2T
expect_shown SHMPI_COLL_BARRIER "counter (environment" SHMPI_COLL_BARRIER=Counter
expect_shown SHMPI_TAG_OUTPUT "yes (environment" SHMPI_TAG_OUTPUT=on
expect_shown MPIEXEC_TIMEOUT "2.5 s (environment" MPIEXEC_TIMEOUT=2.5
# -x given before --show-tunables is what the ranks will get
got=$("$MPIRUN" -x SHMPI_CHUNK=8k --show-tunables | sed -n 's/^SHMPI_CHUNK = //p')
[[ $got == "8192 bytes (environment"* ]] || fail "-x SHMPI_CHUNK=8k: shown as '$got'"

# garbage: mpirun says one line naming it, exit 2, no rank started
bad_mpirun() { # VAR=VALUE what-the-line-says
    local name=${1%%=*} value=${1#*=}
    start_job env "$1" "$MPIRUN" -np 2 "$VICTIM" info
    finish_job
    expect_status 2
    [ ! -s "$OUT" ] || fail "$1: a rank ran"
    [ "$(wc -l <"$ERR")" = 1 ] || fail "$1: $(wc -l <"$ERR") lines on stderr"
    expect_lines "$ERR" "^mpirun: $name='$value': $2; it accepts "
}
bad_mpirun SHMPI_RING_KB= 'set but empty \(unset it for the default\)'
bad_mpirun SHMPI_RING_KB=abc 'not a whole number'
bad_mpirun SHMPI_RING_KB=12x 'not a size'
bad_mpirun SHMPI_RING_KB=1MB2 'not a size'
bad_mpirun SHMPI_RING_KB=8 'out of range'
bad_mpirun SHMPI_RING_KB=2G 'out of range'
bad_mpirun SHMPI_RING_KB=-1 'not a whole number'
bad_mpirun SHMPI_EAGER_LIMIT=99999999999999999999999 'too large'
bad_mpirun SHMPI_EAGER_LIMIT=18014398509481984k 'too large'
bad_mpirun SHMPI_SPIN_US=10us 'junk after the number'
bad_mpirun SHMPI_YIELDS=' 4' 'not a whole number'
bad_mpirun SHMPI_COLL_AREAS=1025 'out of range'
bad_mpirun SHMPI_SYNC_COUNTERS=0 'out of range'
bad_mpirun SHMPI_COLL_BARRIER=tree 'not one of these'
bad_mpirun SHMPI_KILL_GRACE_MS=1e3 'junk after the number'
bad_mpirun MPIEXEC_TIMEOUT=inf 'not a number'
bad_mpirun MPIEXEC_TIMEOUT=-1 'not a number'
expect_lines "$ERR" 'accepts a number of seconds'
# -x is checked like mpirun's own environment
start_job "$MPIRUN" -np 2 -x SHMPI_CHUNK=lots "$VICTIM" info
finish_job
expect_status 2
expect_lines "$ERR" "^mpirun: SHMPI_CHUNK='lots': not a whole number; it accepts "
# --show-tunables names each bad one and exits 2
env SHMPI_CHUNK=x SHMPI_YIELDS=y "$MPIRUN" --show-tunables >"$OUT" 2>"$ERR"
STATUS=$?
expect_status 2
expect_lines "$ERR" '^mpirun: SHMPI_(CHUNK|YIELDS)=' 2

# garbage without mpirun: MPI_Init's fatal error, one line
for how in singleton embedded; do
    if [ $how = singleton ]; then
        start_job env -u SHMPI_NP SHMPI_COLL_FOLD_MAX=16q "$VICTIM" info
    else
        start_job env SHMPI_NP=2 SHMPI_COLL_FOLD_MAX=16q "$VICTIM" info
    fi
    finish_job
    [ "$STATUS" != 0 ] || fail "$how: SHMPI_COLL_FOLD_MAX=16q was accepted"
    expect_lines "$ERR" "SHMPI_COLL_FOLD_MAX='16q': not a size; it accepts "
    [ "$(wc -l <"$ERR")" = 1 ] || fail "$how: $(wc -l <"$ERR") lines on stderr"
done
start_job env SHMPI_NP=2x "$VICTIM" info
finish_job
expect_status 16
expect_lines "$ERR" "^shmpi: rank 0: MPI_Init: SHMPI_NP='2x': junk after the number; it accepts a whole number of ranks from 1 to 1000000 \(MPI_ERR_OTHER\)$"

# one rank's environment differs from the job's (a wrapper sets it for
# rank 1 only): the job ends, and one line names both values
wrapper=$TEST_TMPDIR/wrap.sh
cat >"$wrapper" <<'SH'
#!/bin/sh
[ "$SHMPI_RANK" = 1 ] && export "$WRAP_SET"
exec "$@"
SH
chmod +x "$wrapper"
mismatch() { # VAR=VALUE-for-rank-1 expected-line [launcher env...]
    start_job env WRAP_SET="$1" "${@:3}" "$MPIRUN" -np 3 "$wrapper" "$VICTIM" info
    finish_job
    expect_status 16
    expect_lines "$ERR" "^shmpi: rank 1: MPI_Init: $2: it must be the same in every rank \(MPI_ERR_OTHER\)$"
    expect_lines "$ERR" '^mpirun: rank 1 hit a fatal MPI error \(MPI_Init: MPI_ERR_OTHER\); job aborted$'
}
mismatch SHMPI_EAGER_LIMIT=4k "SHMPI_EAGER_LIMIT is 4096 bytes in this rank's environment but 16384 bytes in the job \(the default, unset in the launcher's environment\)"
mismatch SHMPI_RING_KB=64 "SHMPI_RING_KB is 64 KiB in this rank's environment but 1024 KiB in the job \(from the launcher's environment\)" SHMPI_RING_KB=1M
mismatch SHMPI_COLL_BARRIER=counter "SHMPI_COLL_BARRIER is counter in this rank's environment but dissemination in the job \(from the launcher's environment\)" SHMPI_COLL_BARRIER=dissemination
# the same value, spelt another way, is the same value; a rank's own
# tunable (SHMPI_SPIN_US) may differ
start_job env WRAP_SET=SHMPI_RING_KB=1024 SHMPI_RING_KB=1M "$MPIRUN" -np 3 "$wrapper" "$VICTIM" info
finish_job
expect_status 0
start_job env WRAP_SET=SHMPI_SPIN_US=7 "$MPIRUN" -np 3 "$wrapper" "$VICTIM" info
finish_job
expect_status 0
# -x sets a job-wide tunable for the launcher and the ranks alike
start_job "$MPIRUN" -np 3 -x SHMPI_RING_KB=64 -x SHMPI_COLL_AREAS=0 "$VICTIM" info
finish_job
expect_status 0
expect_lines "$OUT" '^rank [0-2] of 3$' 3
expect_shm_clean
pass
