/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * blocked.h - the per-rank "blocked in" record: which threads of a rank
 * sleep in an MPI call, since when, and, on request, what for.
 *
 * Written by the rank (core/blocked.c) only on the slow path of a wait,
 * around its futex sleep on the doorbell (core/wait.c): a call that
 * completes while spinning or yielding never touches it.  Read by the
 * launcher (launcher/deadlock.c), which maps the slots, to tell a
 * deadlock - every rank asleep in MPI, nothing moving - from a job that
 * is only slow, and to print the wait-for graph.
 *
 * Protocol (who publishes what):
 *   asleep  threads of the rank between blocked_enter and blocked_leave,
 *           that is in or about to enter futex_wait on the doorbell
 *           (relaxed: a count the launcher compares over an interval,
 *           together with gen, never a publication of data)
 *   gen     + 1 at every enter and every leave (relaxed; same), so two
 *           equal readings of asleep and gen an interval apart mean no
 *           thread of the rank slept or woke in between
 *   since_ns CLOCK_MONOTONIC when the rank's current wait first slept, 0
 *           when no wait of it sleeps (the hang report's clock)
 *   ask/told the launcher stores ntext = 0 then ask + 1 (release) and
 *           rings the doorbell; each thread that wakes with ask !=
 *           the ask it last answered (acquire) takes an index of text[]
 *           by fetch_add on ntext, writes its line (and the rank of
 *           MPI_COMM_WORLD it waits for) there, then adds 1 to
 *           told (release); the launcher reads told (acquire) before the
 *           lines.
 */
#ifndef SHMPI_BLOCKED_H
#define SHMPI_BLOCKED_H

#include <stdatomic.h>
#include <stdint.h>

#define SHMPI_BLOCKED_THREADS 4   /* lines kept per rank (threads) */
#define SHMPI_BLOCKED_TEXT 240    /* one line: call, what for */

struct shmpi_arena_blocked {
    _Alignas(64) _Atomic uint32_t asleep;
    _Atomic uint32_t gen;
    _Atomic uint64_t since_ns;
    _Atomic uint32_t ask;
    _Atomic uint32_t ntext;
    _Atomic uint32_t told;
    _Atomic uint32_t finalizing; /* 1 once the rank is in MPI_Finalize
                                    (relaxed: read with the lines, after
                                    told's acquire) */
    int32_t waits_for[SHMPI_BLOCKED_THREADS]; /* world rank, -1: unknown */
    char text[SHMPI_BLOCKED_THREADS][SHMPI_BLOCKED_TEXT];
};

#endif
