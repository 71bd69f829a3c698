/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * init.h - the runtime's life, shared by the World Model (init.c) and
 * the sessions (session.c): init.c's top comment says how.
 */
#ifndef SHMPI_INIT_H
#define SHMPI_INIT_H

/* One more user of the runtime, which is brought up (fn names the call,
   for its errors) if this is the first: 0, or -1 when the runtime was
   taken down already and cannot come up again. */
int shmpi_init_runtime_enter(const char *fn, int *argc, char ***argv,
                             int required);
/* One user less; the last takes the runtime down (collective over
   MPI_COMM_WORLD: every rank's last user takes part). */
void shmpi_init_runtime_leave(void);
/* The level granted for `required` (MPI_THREAD_*). */
int shmpi_init_thread_level(int required);

#endif
