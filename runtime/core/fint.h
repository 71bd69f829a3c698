/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fint.h - the Fortran integers of handles (MPI-3.1 17.2.4): what
 * MPI_Comm_c2f and MPI_Comm_f2c, and their twins for every other kind
 * of handle, convert between.
 *
 * A C handle is a pointer (mpi.h), a Fortran handle an MPI_Fint, so
 * each kind of handle has a table from numbers to objects, and each
 * object keeps its own number in its `fint` field (0 until first asked),
 * which makes both directions O(1):
 *
 *   0                   the null handle (MPI_COMM_NULL, ...), always;
 *                       as MPI_SYNC_NULL is 0 for the sync counters,
 *                       whose handles are integers already
 *   1 .. npredefined-1  the predefined handles, in a fixed order (the
 *                       kind's list, below): the same numbers in every
 *                       process and every run
 *   npredefined ..      the program's objects, numbered at their first
 *                       c2f, lowest free number first, and the number is
 *                       given back when the object dies (shmpi_fint_drop
 *                       where its magic is cleared), so a program that
 *                       converts each request it makes keeps a table as
 *                       large as the requests alive at once
 *
 * f2c of a number that names no live object of the kind (negative, too
 * large, given back) returns the kind's invalid handle: a zeroed object
 * whose magic matches no kind, which every call rejects with the class
 * it gives a freed handle.  The standard says only that the result is
 * "an invalid handle" (17.2.4); the null handle would have been one that
 * MPI_Wait or MPI_Info_* accept silently.
 *
 * The tables are per process (struct shmpi_proc), freed at MPI_Finalize.
 * Threads (MPI_THREAD_MULTIPLE): each table has its lock, which c2f,
 * f2c and the giving back take (a table grows by realloc, so even a
 * lookup needs it); under mt, c2f takes it even for a handle already
 * numbered, since its `fint` is written under the lock by whichever
 * thread numbered it first.
 */
#ifndef SHMPI_FINT_H
#define SHMPI_FINT_H

#include "core/lock_type.h"
#include "mpi.h"

enum shmpi_fint_kind_id {
    SHMPI_FINT_COMM, SHMPI_FINT_GROUP, SHMPI_FINT_DATATYPE,
    SHMPI_FINT_REQUEST, SHMPI_FINT_OP, SHMPI_FINT_ERRHANDLER,
    SHMPI_FINT_INFO, SHMPI_FINT_WIN, SHMPI_FINT_MESSAGE, SHMPI_FINT_SESSION,
    SHMPI_FINT_KINDS
};

/* One kind of handle: its table, and its null and predefined handles
   (predefined[0] is the null handle, NULL). */
struct shmpi_fint_kind {
    enum shmpi_fint_kind_id id;
    int npredefined;
    void *const *predefined;
    void *invalid;             /* what f2c returns for a bad number */
};

/* The program's objects of one kind (struct shmpi_proc.fint[id]):
   obj[i] has number npredefined + i, or is NULL when i is free. */
struct shmpi_fint_table {
    struct shmpi_core_lock lock; /* under mt, the members below */
    void **obj;
    int base;                  /* the kind's npredefined, once used */
    int n, cap;                /* numbers handed out so far, allocated */
    int *free;                 /* given-back indices, a stack */
    int nfree;
};

/* The number of obj, a valid non-null handle of kind k whose object
   keeps *fint (numbered now if it has none); fn names the call for the
   out-of-memory error, after which the result is -1.  Under
   MPI_THREAD_MULTIPLE, *fint is read under the table's lock: the
   thread that numbers an object writes it there. */
MPI_Fint shmpi_fint_of(const struct shmpi_fint_kind *k, void *obj,
                       int *fint, const char *fn);

/* The handle numbered f: the null handle for 0, k->invalid for a number
   that names no live object. */
void *shmpi_fint_object(const struct shmpi_fint_kind *k, MPI_Fint f);

/* c2f of a handle that is neither null nor valid: raises class on
   MPI_COMM_WORLD, and the call returns -1, a number of no handle. */
MPI_Fint shmpi_fint_raise_bad(int class, const char *fn, const char *what);

/* Where an object of kind id dies: its number goes back to the table. */
void shmpi_fint_forget(enum shmpi_fint_kind_id id, int *fint);

static inline void shmpi_fint_drop(enum shmpi_fint_kind_id id, int *fint)
{
    if (*fint)
        shmpi_fint_forget(id, fint);
}

/* MPI_Finalize: the tables go. */
void shmpi_fint_finalize(void);

#endif
