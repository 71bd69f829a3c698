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
 * process-global word and one branch predicted not taken; every check's
 * work is behind it, in functions of their own marked cold.
 */
#ifndef SHMPI_CORE_CHECK_H
#define SHMPI_CORE_CHECK_H

#include <stdatomic.h>
#include <stdbool.h>

struct shmpi_tun_set;

/* 1 while the mode is on: set once in MPI_Init, before any check can
   run in any thread of the process, and never changed after (relaxed:
   the threads that read it were started after the store, or synchronize
   with MPI_Init's return). */
extern _Atomic int shmpi_core_check_on;

static inline bool shmpi_core_checking(void)
{
    return __builtin_expect(
        atomic_load_explicit(&shmpi_core_check_on, memory_order_relaxed), 0);
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
