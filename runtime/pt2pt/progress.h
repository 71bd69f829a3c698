/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * progress.h - the progress engine: every blocked or polling MPI call
 * turns it so that messages move while the rank is inside MPI.  It runs
 * the progress hooks of the rooms above (core/hooks.h) after its own
 * work.
 */
#ifndef SHMPI_PROGRESS_H
#define SHMPI_PROGRESS_H

/* Drain the rings connected to this rank and push its backlog of sends;
   returns how many things happened (0: nothing to do). */
int shmpi_p2p_progress(void);

/* The stall hook of the wait loop (core/hooks.h; set by
   shmpi_p2p_init), called by a wait that spun and yielded with nothing
   moving: take in the large messages waiting for their receives
   (pull.c), which is what breaks a deadlock of crossed rendezvous sends.
   Returns how many. */
int shmpi_p2p_pull_stalled(void);

/* Block until every send this rank started is in its peer's ring. */
void shmpi_p2p_progress_flush_backlog(void);

#endif
