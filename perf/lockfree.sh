#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# lockfree.sh - what one operation of each lock-free structure of the
# runtime costs (perf/lockfree.c): ring, mailbox and outbox, claim words,
# RMA lock words, accumulate lock and leases, doorbell, sync counters.  Not in the
# default list (no peers: these are shmpi's internals):
#     perf/run-perf lockfree
# One run, pinned to CPUs 0 and 1 by taskset; each row is the median of
# 7 batches, in ns per operation.  Rows of one process: uncontended (the
# lines in this CPU's cache); of two: a line crossing between CPUs.  The
# machine line says how loaded the machine was: on a shared 2-CPU VM the
# two-process rows mean little unless its load average is below 2.
. "$(dirname "$0")/common.sh"
# internal functions: the runtime's objects as they are, as mpirun links them
${CC:-cc} -std=c11 -D_GNU_SOURCE -I"$ROOT" -I"$ROOT/runtime" -I"$ROOT/test" \
    $PERF_CFLAGS -Wall -Wextra -o "$BIN/lockfree" "$PERFDIR/lockfree.c" \
    "$ROOT/build/opt/internal.a" -luring -lnuma -lpthread ||
    { note "perf: lockfree could not be built (run 'make' first)"; exit 1; }
machine_line
echo
taskset -c 0,1 "$BIN/lockfree"
