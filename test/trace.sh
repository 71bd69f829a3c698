#!/usr/bin/env bash
# trace: mpirun --trace FILE and --profile on 2 and 4 ranks write valid JSON with each rank's calls as slices (a window's on a track of its own) and each message as an arrow from its send to its receive, and a profile whose call counts are the program's; a failing rank leaves nothing in the temporary directory or /dev/shm; a program linked with libmpi.a is refused in one line; polls that found nothing in a row are one slice with their count; a slice longer than 2^32 counter ticks and a count beyond 32 bits are kept whole; a freed receive has no arrow and the next one has its own, a receive from MPI_ANY_SOURCE on a communicator freed before its wait has its arrow from the sender's world rank, a completion call of more requests than the wrappers keep on their stack has an arrow for each receive, a job of the Sessions Model alone is traced, and a handle that is no request is refused by the library, not read by the wrappers; the records of two threads of a rank, more than a chunk each, are all kept, written as they fill to a directory on the disk and on tmpfs, each thread on its own track, with the arrow of a receive one thread posted and another completed.
# shmpi-test: timeout=120
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

prog=$TEST_TMPDIR/tracejob
# shellcheck disable=SC2086
"$SHMPI_ROOT/mpicc" -shared-mpi ${SANFLAGS:-} -O1 -g -o "$prog" \
    "$SHMPI_ROOT/test/helpers/tracejob.c" || fail "cannot build $prog"
export TMPDIR=$TEST_TMPDIR/tmp
mkdir -p "$TMPDIR"
trace=$TEST_TMPDIR/trace.json

# job ARGS...: mpirun ARGS, its output in $OUT and $ERR, STATUS set
job() {
    "$MPIRUN" "$@" >"$OUT" 2>"$ERR"
    STATUS=$?
}
# profile_calls FUNCTION: the calls column of the aggregated row
profile_calls() {
    awk -v f="$1" '/^function / { t = 1; next } /^$/ { t = 0 }
                   t && $1 == f { print $2 }' "$ERR"
}
# rank_calls RANK FUNCTION: the calls column of that rank's own table
rank_calls() {
    awk -v r="rank $1:" -v f="$2" 'index($0, r) == 1 { t = 1; next }
                   /^$/ { t = 0 } t && $1 == f { print $2 }' "$ERR"
}

for np in 2 4; do
    rm -f "$trace"
    job -np $np --trace "$trace" --profile "$prog"
    expect_status 0
    python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$trace" ||
        fail "np=$np: $trace is not JSON"
    python3 "$SHMPI_ROOT/test/helpers/trace-check.py" "$trace" $np ||
        fail "np=$np: the trace is not the program's"
    expect_lines "$ERR" "^mpirun: --trace: .*: $((np * 35)) calls, $((np * 7)) messages\$"
    for fc in MPI_Init:1 MPI_Isend:3 MPI_Recv:4 MPI_Send:3 MPI_Irecv:2 \
              MPI_Waitall:2 MPI_Sendrecv:1 MPI_Barrier:2 MPI_Allreduce:4 \
              MPI_Gather:1 MPI_Finalize:1; do
        f=${fc%:*} n=${fc#*:}
        [ "$(profile_calls $f)" = $((n * np)) ] ||
            fail "np=$np: profile says $f was called '$(profile_calls $f)' times, not $((n * np))"
        for ((r = 0; r < np; r++)); do
            [ "$(rank_calls $r $f)" = "$n" ] ||
                fail "np=$np: rank $r's profile: $f '$(rank_calls $r $f)' calls, not $n"
        done
    done
    [ -z "$(ls -A "$TMPDIR")" ] || fail "np=$np: left in TMPDIR: $(ls -A "$TMPDIR")"
done

# A rank fails: the job's status is its own, the others' records still
# make a trace, and the directory is gone.
rm -f "$trace"
job -np 4 --trace "$trace" --profile "$prog" fail
expect_status 3
expect_lines "$ERR" '^mpirun: --trace: [1-4] of 4 ranks left no record'
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$trace" ||
    fail "the failed job's $trace is not JSON"
[ -z "$(ls -A "$TMPDIR")" ] || fail "failed job: left in TMPDIR: $(ls -A "$TMPDIR")"
expect_shm_clean

# The preload reaches every process of a rank's tree: a shell that runs
# the program loads the wrappers without libmpi.so, and must not fail.
# Not in a check-tsan build: its wrappers need ThreadSanitizer's runtime,
# which only an instrumented program carries (a shell stops at the
# preload: undefined symbol __tsan_init).
if [ ! -e "$SHMPI_ROOT/lib/.flavor-tsan" ]; then
    job -np 2 --profile sh -c 'exec "$0"' "$prog"
    expect_status 0
    [ "$(profile_calls MPI_Allreduce)" = 8 ] || fail "through sh: no table"
fi

# Polls that found nothing, one after another, are one slice with their
# count; the profile counts each call.
rm -f "$trace"
job -np 2 --trace "$trace" --profile "$prog" poll
expect_status 0
python3 - "$trace" <<'EOF' || fail "poll: the polls are not coalesced"
import json, sys
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"]
      if e["ph"] == "X" and e["pid"] == 0]
got = [(e["name"], e["args"].get("polls")) for e in ev
       if e["name"] in ("MPI_Test", "MPI_Iprobe", "MPI_Send", "MPI_Wait")]
want = [("MPI_Test", 3), ("MPI_Iprobe", 2), ("MPI_Send", None),
        ("MPI_Wait", None)]
if got != want:
    sys.exit("rank 0's slices: %s, expected %s" % (got, want))
EOF
[ "$(rank_calls 0 MPI_Test)" = 3 ] && [ "$(rank_calls 0 MPI_Iprobe)" = 2 ] ||
    fail "poll: rank 0's profile: MPI_Test '$(rank_calls 0 MPI_Test)', MPI_Iprobe '$(rank_calls 0 MPI_Iprobe)' calls, not 3 and 2"

# A freed receive: no arrow, and the next receive's arrow is drawn;
# handles that are no request reach the library, which refuses them.
rm -f "$trace"
job -np 2 --trace "$trace" "$prog" free
expect_status 0
python3 - "$trace" <<'EOF' || fail "free: the trace is not the program's"
import collections, json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
got = collections.Counter(e["name"] for e in ev if e["ph"] == "X" and e["pid"] == 0)
bad = []
for f, n in (("MPI_Irecv", 2), ("MPI_Request_free", 1), ("MPI_Wait", 1)):
    if got[f] != n:
        bad.append("rank 0: %d %s, not %d" % (got[f], f, n))
ends = [e for e in ev if e["ph"] == "f"]
if len(ends) != 1:
    bad.append("%d arrows, not 1" % len(ends))
sys.exit("\n".join(bad) if bad else 0)
EOF

# arrows WHAT WANT: each arrow of $trace as (its sender's pid, the slice
# around its start, its receiver's pid, the slice around its end),
# sorted, is the list the Python expression WANT makes; else WHAT fails.
arrows() {
    python3 - "$trace" "$2" <<'EOF' || fail "$1: the arrows are not the program's"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
x = [e for e in ev if e["ph"] == "X"]
def around(e):
    return next((s["name"] for s in x if s["pid"] == e["pid"] and
                 s["ts"] <= e["ts"] <= s["ts"] + s["dur"]), None)
fl = {}
for e in ev:
    if e["ph"] in "sf":
        fl.setdefault(e["id"], {})[e["ph"]] = e
got = sorted((a["s"]["pid"], around(a["s"]), a["f"]["pid"], around(a["f"]))
             for a in fl.values() if set(a) == {"s", "f"})
want = sorted(eval(sys.argv[2]))
sys.exit("arrows %s, expected %s" % (got, want) if got != want else 0)
EOF
}

# A receive from MPI_ANY_SOURCE on a communicator that orders the ranks
# the other way, freed before the wait: each arrow starts at the
# sender's MPI_Send (world rank w receives from w + 1 mod 3, its left
# neighbour in that communicator) and ends in the receiver's MPI_Wait.
rm -f "$trace"
job -np 3 --trace "$trace" "$prog" any
expect_status 0
arrows any '[((w + 1) % 3, "MPI_Send", w, "MPI_Wait") for w in range(3)]'

# Completion calls of more requests than the wrappers keep on their
# stack: the one of sends draws nothing, the one of receives an arrow
# from each MPI_Isend into it.
rm -f "$trace"
job -np 2 --trace "$trace" "$prog" many
expect_status 0
arrows many '[(1 - r, "MPI_Isend", r, "MPI_Waitall") for r in range(2)] * 20'

# The Sessions Model alone: the records are written at the last
# MPI_Session_finalize, the job's time starts at the first
# MPI_Session_init, and the message has its arrow.
rm -f "$trace"
job -np 2 --trace "$trace" --profile "$prog" session
expect_status 0
expect_lines "$ERR" "^mpirun: --trace: .*: 16 calls, 1 messages\$"
for f in MPI_Session_init MPI_Session_finalize MPI_Comm_create_from_group; do
    [ "$(profile_calls $f)" = 2 ] ||
        fail "session: profile says $f was called '$(profile_calls $f)' times, not 2"
done
grep -q '^MPI profile: 2 ranks, job time [0-9.]* s' "$ERR" ||
    fail "session: no profile header for 2 ranks"

# Values too wide for a record's 32-bit fields (a slice of 3 s, a count
# of 3e9) come out whole.
rm -f "$trace"
job -np 2 --trace "$trace" "$prog" wide
expect_status 0
python3 - "$trace" <<'EOF' || fail "wide: the wide values are not kept"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
x = {(e["pid"], e["name"]): e for e in ev if e["ph"] == "X"}
bad = []
if x[(0, "MPI_Barrier")]["dur"] < 2.5e6:
    bad.append("rank 0's MPI_Barrier: %s" % x[(0, "MPI_Barrier")])
for r, f in ((0, "MPI_Send_c"), (1, "MPI_Recv_c")):
    a = x[(r, f)]["args"]
    if a.get("count") != 3000000000 or a.get("bytes") != 0 or \
       a.get("peer_world") != 1 - r:
        bad.append("rank %d's %s: %s" % (r, f, a))
sys.exit("\n".join(bad) if bad else 0)
EOF

# Threads: each thread's records on a track of its own, all kept across
# chunks (4N records a thread), and an arrow to a receive one thread
# posted and another completed (test/helpers/tracethreads.c, N = 20000).
tprog=$TEST_TMPDIR/tracethreads
# shellcheck disable=SC2086
"$SHMPI_ROOT/mpicc" -shared-mpi ${SANFLAGS:-} -O1 -g -pthread -o "$tprog" \
    "$SHMPI_ROOT/test/helpers/tracethreads.c" || fail "cannot build $tprog"
# The chunks go to the file through the writer thread as they fill:
# with TMPDIR on the disk (O_DIRECT) and on tmpfs.
shmdir=$(mktemp -d /dev/shm/shmpi-trace-test.XXXXXX) || fail "mktemp in /dev/shm"
trap 'rm -rf "$shmdir"; cleanup' EXIT
for tmpdir in "$TMPDIR" "$shmdir"; do
rm -f "$trace"
TMPDIR=$tmpdir job -np 2 --trace "$trace" "$tprog"
expect_status 0
expect_lines "$ERR" "^mpirun: --trace: .*: $((2 * (6 * 20000 + 6))) calls, $((2 * (2 * 20000 + 1))) messages\$"
python3 - "$trace" <<'EOF' || fail "threads, TMPDIR=$tmpdir: the trace is not the program's"
import collections, json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
n = 20000
got = collections.Counter((e["pid"], e["tid"], e["name"]) for e in ev
                          if e["ph"] == "X")
bad = []
for r in range(2):
    mine = {k: v for k, v in got.items() if k[0] == r}
    # threads are numbered in the order of their first call: the one
    # that posted the last receive is 1 or 2, the other sent and waited
    ok = False
    for post, wait in ((1, 2), (2, 1)):
        want = {(r, 0, "MPI_Init_thread"): 1, (r, 0, "MPI_Comm_rank"): 1,
                (r, 0, "MPI_Finalize"): 1, (r, wait, "MPI_Send"): 1,
                (r, wait, "MPI_Wait"): 1}
        for t in (1, 2):
            for f in ("MPI_Irecv", "MPI_Isend", "MPI_Waitall"):
                want[(r, t, f)] = n + (t == post and f == "MPI_Irecv")
        ok = ok or mine == want
    if not ok:
        bad.append("rank %d's slices: %s" % (r, sorted(mine.items())))
flows = collections.Counter(e["ph"] for e in ev if e["ph"] in ("s", "f"))
if flows != {"s": 2 * (2 * n + 1), "f": 2 * (2 * n + 1)}:
    bad.append("arrows: %s" % dict(flows))
sys.exit("\n".join(bad) if bad else 0)
EOF
[ -z "$(ls -A "$tmpdir")" ] || fail "threads: left in $tmpdir: $(ls -A "$tmpdir")"
done
rmdir "$shmdir"

# --profile alone: the table, no trace file
job -np 2 --profile "$prog"
expect_status 0
[ "$(profile_calls MPI_Allreduce)" = 8 ] || fail "--profile alone: no table"
expect_no_lines "$ERR" '^mpirun: --trace'

# A static program (test/helpers/ are built with libmpi.a) is refused
# before any rank starts.
job -np 2 --trace "$trace" "$TEST_BIN/tracejob"
expect_status 2
expect_lines "$ERR" "^mpirun: --trace: .*tracejob is linked with libmpi.a: .*mpicc -shared-mpi"
[ ! -s "$OUT" ] || fail "a rank ran"
[ -z "$(ls -A "$TMPDIR")" ] || fail "static: left in TMPDIR: $(ls -A "$TMPDIR")"

# A trace that cannot be written is refused before the job; a program
# not found leaves no trace and no directory.
job -np 2 --trace "$TEST_TMPDIR/no/such/dir.json" "$prog"
expect_status 2
expect_lines "$ERR" "^mpirun: --trace: $TEST_TMPDIR/no/such/dir.json: No such file or directory\$"
rm -f "$trace"
job -np 2 --trace "$trace" "$TEST_TMPDIR/nonexistent"
expect_status 127
expect_no_lines "$ERR" '^mpirun: --trace'
[ ! -e "$trace" ] || fail "a job that did not run left $trace"
[ -z "$(ls -A "$TMPDIR")" ] || fail "not found: left in TMPDIR: $(ls -A "$TMPDIR")"
pass
