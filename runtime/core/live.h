/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * live.h - the check mode's (core/check.h) list of the objects the
 * program made and has not freed, reported at MPI_Finalize (MPI-3.1
 * 8.7: a program frees what it made; left over, it is a leak another
 * MPI may not forgive, and on a cluster holds memory and resources on
 * every node).
 *
 * The rooms call shmpi_core_live_made where the program gets the handle
 * of a new object and shmpi_core_live_freed where its free ends it, both
 * only behind shmpi_core_checking(): nothing is kept outside the mode.
 * Objects the library makes for itself are never added, predefined ones
 * neither.  Who adds what:
 *   windows              rma/win_new.c (made and destroyed)
 *   persistent requests  pt2pt/persistent.c, pt2pt/part.c,
 *                        coll/persistent.c (made), pt2pt/completion.c
 *                        (MPI_Request_free)
 */
#ifndef SHMPI_CORE_LIVE_H
#define SHMPI_CORE_LIVE_H

enum shmpi_core_live_kind {
    SHMPI_LIVE_WIN,
    SHMPI_LIVE_PREQ,
    SHMPI_LIVE_KINDS
};

/* obj of kind made by fn; name: the object's name buffer (filled by
   MPI_*_set_name, read at MPI_Finalize), or NULL if it has none.  Any
   thread; fn and name must outlive the object. */
void shmpi_core_live_made(enum shmpi_core_live_kind kind, const void *obj,
                          const char *fn, const char *name)
    __attribute__((cold));
/* obj freed (nothing if it was never added). */
void shmpi_core_live_freed(enum shmpi_core_live_kind kind, const void *obj)
    __attribute__((cold));
/* MPI_Finalize, in check mode: one report per kind with objects left,
   with their number and the oldest's name or maker; then forgets them. */
void shmpi_core_live_report(void);

#endif
