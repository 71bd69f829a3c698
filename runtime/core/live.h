/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * live.h - the check mode's (core/check.h) list of the objects the
 * program made and has not freed, reported at MPI_Finalize.  MPI-3.1
 * 8.7: "The call to MPI_FINALIZE does not free objects created by MPI
 * calls; these objects are freed using MPI_XXX_FREE calls."  Left over,
 * one is a leak another MPI may not forgive, and on a cluster holds
 * memory and resources on every node.  An object freed while an
 * operation still uses it is freed for the program (4.1.9, 6.4.3): its
 * free removes it here whatever the library still holds.
 *
 * The rooms call shmpi_core_live_made where the program gets the handle
 * of a new object and shmpi_core_live_freed where its free ends it, both
 * only behind shmpi_core_checking(): nothing is kept outside the mode.
 * Objects the library makes for itself are never added, predefined ones
 * neither.  An object is one entry per handle the program got, keyed by
 * its address: a group handed out twice (MPI_Comm_group of two
 * communicators that share their group) is two entries, and each
 * MPI_Group_free removes one.  Who adds what:
 *   windows              rma/win_new.c (made and destroyed)
 *   persistent requests  pt2pt/persistent.c, pt2pt/part.c,
 *                        coll/persistent.c (made), pt2pt/completion.c
 *                        (MPI_Request_free)
 *   communicators        comm/comm.h's shmpi_comm_handed, called
 *                        where a constructor gives the program its
 *                        handle (comm/); MPI_Comm_free
 *   datatypes            datatypes/build.c (shmpi_dt_make: every
 *                        constructor but the MPI_Type_create_f90_*
 *                        ones, whose types are predefined),
 *                        datatypes/type.c (MPI_Type_free)
 *   groups               comm/group.c, comm/intercomm_query.c,
 *                        rma/win_name.c (made: not MPI_GROUP_EMPTY, nor
 *                        MPI_COMM_WORLD's and MPI_COMM_SELF's groups,
 *                        which live as long as those communicators),
 *                        comm/group.c (MPI_Group_free)
 *   generalized requests pt2pt/greq.c (MPI_Grequest_start; gone when
 *                        MPI_Wait & co. complete it or MPI_Request_free
 *                        frees it)
 */
#ifndef SHMPI_CORE_LIVE_H
#define SHMPI_CORE_LIVE_H

enum shmpi_core_live_kind {
    SHMPI_LIVE_WIN,
    SHMPI_LIVE_PREQ,
    SHMPI_LIVE_COMM,
    SHMPI_LIVE_TYPE,
    SHMPI_LIVE_GROUP,
    SHMPI_LIVE_GREQ,
    SHMPI_LIVE_KINDS
};

/* obj of kind made by fn; name: the object's name buffer (filled by
   MPI_*_set_name, read at MPI_Finalize), or NULL if it has none.  Any
   thread; fn and name must outlive the object. */
void shmpi_core_live_made(enum shmpi_core_live_kind kind, const void *obj,
                          const char *fn, const char *name)
    __attribute__((cold));
/* The same for an object known by its size (a group: its number of
   processes), which the report gives instead of a name. */
void shmpi_core_live_made_sized(enum shmpi_core_live_kind kind,
                                const void *obj, const char *fn, int size)
    __attribute__((cold));
/* obj freed (nothing if it was never added). */
void shmpi_core_live_freed(enum shmpi_core_live_kind kind, const void *obj)
    __attribute__((cold));
/* MPI_Finalize, in check mode: one report per kind with objects left,
   with their number, how many each call made (the first few calls, in
   the order they first made one), and the oldest's name or size; then
   forgets them. */
void shmpi_core_live_report(void);

#endif
