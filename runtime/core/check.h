/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check.h - the check mode (SHMPI_CHECK=1, mpirun --check;
 * man/man7/shmpi_check.7): erroneous programs that shared memory
 * forgives, reported at the moment they happen.
 *
 * The rooms own their checks, next to the code they check (a send
 * buffer's hash: pt2pt/bufcheck.c; what is left at MPI_Finalize:
 * pt2pt/leftovers.c, called by init/init.c; an op on a type outside its
 * group: datatypes/reduce_kernels.c, called by shmpi_op_check); this
 * file is what they share: whether the mode is on, and the one line a
 * problem is reported in.
 *
 * The cost when off: shmpi_core_checking() is one relaxed load of a
 * word of shmpi_proc and one branch predicted not taken, off the fast
 * way of the hottest calls (below); every check's work is behind it, in
 * functions of their own marked cold.
 */
#ifndef SHMPI_CORE_CHECK_H
#define SHMPI_CORE_CHECK_H

#include <stdbool.h>

#include "core/proc.h"

struct shmpi_tun_set;

/* Whether the mode is on: SHMPI_WATCH_CHECK in shmpi_proc.watch.on
   (core/proc.h), set once in MPI_Init, before any check can run in any
   thread of the process, and never changed after (relaxed: the threads
   that read it were started after the store, or synchronize with
   MPI_Init's return).  A word of shmpi_proc, whose address the hooks'
   callers mostly hold already, rather than a global of its own.
   The hottest hooks do not test it on their fast way at all: MPI_Isend
   tests it only once the send was not sent at once (no pair turns hot in
   the mode, pt2pt/conn.c), and MPI_Wait, _Test and _Waitany test the
   request's own bufcheck pointer, on a line they read anyway.
   2026-11-30, MPI_Isend + MPI_Wait of one MPI_INT with the mode off,
   instructions per round on the sender, 2000 rounds, the receiver
   replying after each (/tmp program; mpirun -np 2 valgrind -q
   --tool=callgrind --collect-atstart=no --toggle-collect=PMPI_Isend
   --toggle-collect=PMPI_Wait): without the mode 302.0 (Isend 51.1,
   Wait 36.0 of it), the mode's hooks on a global of their own 310.7
   (54.0, 38.0), as now 304.1 (51.2, 38.0: the two instructions of
   the bufcheck test). */
static inline bool shmpi_core_checking(void)
{
    return shmpi_core_watching(SHMPI_WATCH_CHECK);
}

/* MPI_Init: the mode as SHMPI_CHECK says (s: the tunables in effect). */
void shmpi_core_check_configure(const struct shmpi_tun_set *s);

/* One problem, one line on stderr, written with one write(2) so that
   lines of several threads or ranks never mix:
     shmpi check: rank R: WHAT (MPI-3.1 SECTION): CALLS; fix: FIX
   CALLS (printf format) names the calls involved with the arguments
   that matter.  Counted in the rank's arena slot, for the launcher's
   status 123. */
void shmpi_core_check_report(const char *what, const char *section,
                             const char *fix, const char *calls, ...)
    __attribute__((cold, format(printf, 4, 5)));

#endif
