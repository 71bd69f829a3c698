# SPDX-License-Identifier: BSD-3-Clause
# lib.sh - sourced by the shell tests (test/*.sh).
# shellcheck shell=bash disable=SC2034
#
# Runs standalone too: `bash test/fail-segv.sh` from the repo builds what
# it needs.  Provides:
#   MPIRUN, VICTIM           ./mpirun and the helper program
#   start_job CMD...         run CMD in the background (own process
#                            group, signals at their defaults); its
#                            stdout/stderr go to $OUT and $ERR
#   wait_ready               wait until every rank of the victim is in place
#   finish_job               wait for the job; sets STATUS and END (time)
#   event_time               when the victim's rank acted (seconds)
#   teardown_time            END - event_time, in seconds
#   rank_pids                the pids the victim's ranks wrote
#   ranks_gone [S]           every rank process has ended within S seconds
#   pids_gone S PID...       every PID (any program) has ended within S s
#   expect_status N          STATUS must be N
#   expect_fast [S]          teardown_time < S (default 1)
#   expect_lines FILE RE [N] exactly N (default 1) lines of FILE match RE
#   expect_no_lines FILE RE  no line of FILE matches RE
#   expect_shm_clean         no new entry in /dev/shm since the start
#   run_quiet ARGS...        mpirun ARGS: status 0, no check report
#   check_helper H N ...     a check mode helper's N reports, its twin's none
#   fail MSG                 print MSG (and the job's output), exit 1
#   pass                     print PASS line, exit 0
#   tree_flavor              make's arguments for the flavor lib/ holds
set -u

SHMPI_ROOT=${SHMPI_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
TEST_BIN=${TEST_BIN:-$SHMPI_ROOT/test/bin/helpers}
MPIRUN=$SHMPI_ROOT/mpirun
VICTIM=$TEST_BIN/victim
TEST_NAME=$(basename "$0" .sh)

own_tmp=
if [ -z "${TEST_TMPDIR:-}" ]; then
    TEST_TMPDIR=$(mktemp -d /tmp/shmpi-sh.XXXXXX)
    own_tmp=$TEST_TMPDIR
fi
export TEST_TMPDIR
OUT=$TEST_TMPDIR/job.out
ERR=$TEST_TMPDIR/job.err

for src in "$SHMPI_ROOT"/test/helpers/*.c; do
    bin=$TEST_BIN/$(basename "$src" .c)
    if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ] ||
        [ "$SHMPI_ROOT/lib/libmpi.a" -nt "$bin" ]; then
        mkdir -p "$TEST_BIN"
        # shellcheck disable=SC2086
        "$SHMPI_ROOT/mpicc" ${SANFLAGS:-} -O1 -g -Wall -Wextra -o "$bin" \
            "$src" || { echo "cannot build $bin"; exit 1; }
    fi
done

# make's arguments for the flavor lib/ holds (make SANITIZE=1, make
# check-tsan), for a test that runs `make install`: with other ones, make
# would relink lib/ and ./mpirun as another flavor under the tests still
# to run, and rebuild the helpers above against it.
tree_flavor() {
    if [ -e "$SHMPI_ROOT/lib/.flavor-san" ]; then
        echo SANITIZE=1
    elif [ -e "$SHMPI_ROOT/lib/.flavor-tsan" ]; then
        echo SANITIZE=thread CC=clang
    fi
}

shm_start=$(ls -A /dev/shm | LC_ALL=C sort)
job_pid=
STATUS=
END=

now() { echo "$EPOCHREALTIME"; }

cleanup() {
    if [ -n "$job_pid" ] && kill -0 "$job_pid" 2>/dev/null; then
        kill -KILL -- "-$job_pid" 2>/dev/null
        kill -KILL "$job_pid" 2>/dev/null
    fi
    for p in $(rank_pids); do
        alive "$p" && kill -KILL "$p" 2>/dev/null
    done
    for p in $(cat "$TEST_TMPDIR"/helper.* 2>/dev/null); do
        kill -KILL "$p" 2>/dev/null
    done
    [ -n "$own_tmp" ] && rm -rf "$own_tmp"
}
trap cleanup EXIT

fail() {
    echo "FAIL: $TEST_NAME: $*"
    if [ -s "$OUT" ]; then echo "--- stdout (last 15 lines)"; tail -n 15 "$OUT"; fi
    if [ -s "$ERR" ]; then echo "--- stderr (last 15 lines)"; tail -n 15 "$ERR"; fi
    exit 1
}

pass() {
    echo "ok: $TEST_NAME${*:+: $*}"
    exit 0
}

# Runs a command in the background, in its own process group, with
# SIGINT and SIGQUIT at their defaults (bash ignores them in background
# jobs of a script).  The files an earlier job of the test wrote go
# first: a wait for this job's pid file must not be satisfied by that
# job's (the setsid helper of the previous job would be killed again
# instead of this one, which escapes the kill -9 of the launcher).
start_job() {
    rm -f "$TEST_TMPDIR"/pid.* "$TEST_TMPDIR"/helper.* \
        "$TEST_TMPDIR/ready" "$TEST_TMPDIR/event"
    setsid env --default-signal=INT,QUIT "$@" >"$OUT" 2>"$ERR" </dev/null &
    job_pid=$!
}

wait_ready() { # [timeout s]
    local i n=$(( ${1:-20} * 20 ))
    for ((i = 0; i < n; i++)); do
        [ -e "$TEST_TMPDIR/ready" ] && return 0
        kill -0 "$job_pid" 2>/dev/null || fail "the job ended before all ranks were in place"
        sleep 0.05
    done
    fail "the ranks were not in place after ${1:-20} s"
}

finish_job() {
    # (the braces keep bash's "Killed" job report out of the log)
    { wait "$job_pid"; STATUS=$?; } 2>/dev/null
    END=$(now)
    job_pid_done=$job_pid
    job_pid=
}

# Kill the job's launcher from outside: records the time of the event.
signal_launcher() { # SIG
    date +%s.%N >"$TEST_TMPDIR/event"
    kill -"$1" "$job_pid"
}

event_time() {
    [ -s "$TEST_TMPDIR/event" ] || fail "no event time was recorded"
    cat "$TEST_TMPDIR/event"
}

teardown_time() {
    awk -v a="$(event_time)" -v b="$END" 'BEGIN { printf "%.3f", b - a }'
}

rank_pids() {
    local f
    for f in "$TEST_TMPDIR"/pid.*; do
        [ -e "$f" ] && cat "$f"
    done
}

# A process is alive when it exists, is no zombie and is still the victim.
alive() { # pid
    local st
    st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
    [ "$st" = Z ] && return 1
    grep -qa victim "/proc/$1/cmdline" 2>/dev/null
}

ranks_gone() { # [seconds]
    local i n p left
    n=$(awk -v s="${1:-1}" 'BEGIN { printf "%d", s * 100 }')
    for ((i = 0; i <= n; i++)); do
        left=
        for p in $(rank_pids); do alive "$p" && left="$left $p"; done
        if [ -z "$left" ]; then
            [ $i -gt 0 ] && echo "ranks gone after about $((i * 10)) ms"
            return 0
        fi
        sleep 0.01
    done
    fail "rank processes still alive ${1:-1} s later:$left"
}

# Any process, not only the victim: a zombie counts as gone.
pids_gone() { # seconds pid...
    local i n p left s=$1
    shift
    n=$(awk -v s="$s" 'BEGIN { printf "%d", s * 100 }')
    for ((i = 0; i <= n; i++)); do
        left=
        for p in "$@"; do
            st=$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null) || continue
            [ "$st" = Z ] || left="$left $p"
        done
        [ -z "$left" ] && return 0
        sleep 0.01
    done
    fail "still alive $s s later:$left ($(ps -o pid=,args= -p "${left# }" 2>/dev/null | head -3 | tr '\n' ';'))"
}

expect_status() {
    [ "$STATUS" = "$1" ] || fail "exit status $STATUS, expected $1"
}

expect_fast() { # [bound s]
    local t
    t=$(teardown_time)
    awk -v t="$t" -v b="${1:-1}" 'BEGIN { exit !(t < b) }' ||
        fail "the job took $t s to end after the event (bound ${1:-1} s)"
    echo "teardown: $t s"
}

expect_lines() { # file regex [count]
    local n
    n=$(grep -Ec -- "$2" "$1")
    [ "$n" = "${3:-1}" ] ||
        fail "$(basename "$1"): $n lines match /$2/, expected ${3:-1}"
}

expect_no_lines() { # file regex
    local n
    n=$(grep -Ec -- "$2" "$1")
    [ "$n" = 0 ] || fail "$(basename "$1"): $n lines match /$2/, expected none"
}

# The job ended because rank RANK was killed by SIGSEGV: status 139, the
# one line that names it (under mpirun, the only line of mpirun's), fast,
# no rank left.  WHO: "mpirun" or "embedded" (the in-library launch).
expect_segv_end() { # rank who
    local line="rank $1 \(pid [0-9]+\) was killed by signal 11 \(Segmentation fault.*\); job aborted\$"
    finish_job
    expect_status 139
    if [ "$2" = mpirun ]; then
        expect_lines "$ERR" '^mpirun: '
        line="^mpirun: $line"
    fi
    expect_lines "$ERR" "$line"
    expect_fast 1
    ranks_gone 0.2
}

# Open MPI's and MPICH's files (jobs somebody else runs meanwhile) are
# never shmpi's: its segments have no name.
foreign_shm='^(vader_segment|sm_segment|open_mpi|ompi|pmix|psm2|mpich|hydra)'

new_shm() {
    comm -13 <(echo "$shm_start") <(ls -A /dev/shm | LC_ALL=C sort) |
        grep -Ev "$foreign_shm"
}

# mpirun ARGS...: a job the check mode has nothing to say of (a correct
# program under --check, or any without it): status 0, no report
run_quiet() {
    start_job "$MPIRUN" "$@"
    finish_job
    expect_status 0
    expect_no_lines "$ERR" 'shmpi check:|--check reported'
    expect_shm_clean
}

# HELPER PROBLEMS [REGEX COUNT]...: a check mode test's erroneous helper
# under --check (at np NP, default 2) prints PROBLEMS "shmpi check:"
# lines, each REGEX's COUNT times, and ends with 123; its twin ("ok")
# under --check and itself without it say nothing and end with 0
check_helper() {
    local h=$1 n=$2 np=${NP:-2}
    shift 2
    start_job "$MPIRUN" --check -np "$np" "$TEST_BIN/$h"
    finish_job
    expect_status 123
    expect_lines "$ERR" '^shmpi check: rank [0-9]+: ' "$n"
    expect_lines "$ERR" "^mpirun: --check reported $n problems?\$"
    for ((; $# >= 2; )); do
        expect_lines "$ERR" "$1" "$2"
        shift 2
    done
    expect_shm_clean
    for args in "--check -np $np $TEST_BIN/$h ok" "-np $np $TEST_BIN/$h"; do
        # shellcheck disable=SC2086
        run_quiet $args
    done
}

expect_shm_clean() {
    local new
    new=$(new_shm)
    [ -z "$new" ] && return 0
    sleep 0.5
    new=$(new_shm | grep -Fx -f <(echo "$new"))
    [ -z "$new" ] || fail "left in /dev/shm: $(echo $new)"
}
