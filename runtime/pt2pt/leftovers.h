/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * leftovers.h - the check mode at MPI_Finalize (core/check.h): what a
 * program left of its point-to-point communication (MPI-3.1 8.7: every
 * communication must be complete before MPI_Finalize).
 */
#ifndef SHMPI_P2P_LEFTOVERS_H
#define SHMPI_P2P_LEFTOVERS_H

/* MPI_Finalize, after the barrier every rank enters once its own sends
   are out (init/init.c): one line per kind of leftover - messages that
   arrived and were never received, receives posted and never matched,
   nonblocking sends neither completed nor freed - with their count and
   the first one. */
void shmpi_p2p_check_leftovers(void) __attribute__((cold));

#endif
