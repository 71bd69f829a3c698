/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sig.c - the type signature of a prefix of a message (sig.h).
 *
 * The walker (typemap_walk.h) gives the runs of basic elements in
 * type-map order; consecutive runs of one basic type are one run here,
 * and each run goes into the hash as two words: the basic type's
 * number, the same in every process (its index in shmpi_dt_numbered,
 * predefined.c, which is also its Fortran number), and the run's
 * length.  Two signatures hash alike exactly when they are the same
 * sequence, but for collisions (odds 2^-64 per check).  The walk stops
 * once nbytes are covered, so a receive's signature is that of the
 * prefix its message fills (3.3.1: a receive may be longer than its
 * message).
 */
#include "datatypes/sig.h"

#include "datatypes/typemap_walk.h"

struct sig_walk {
    uint64_t left;             /* bytes still to cover */
    uint64_t h;
    MPI_Datatype run;          /* the basic type of the open run */
    uint64_t run_n;            /* its elements so far */
    enum shmpi_dt_sig_kind kind;
};

/* The number every process gives basic type b: its index among the
   numbered types; a basic type of its own not there (none today) gets
   one past them plus its size. */
static uint64_t basic_number(MPI_Datatype b)
{
    for (int i = 1; i < SHMPI_DT_NNUMBERED; i++)
        if (shmpi_dt_numbered[i] == b)
            return (uint64_t)i;
    return SHMPI_DT_NNUMBERED + (uint64_t)b->size;
}

static void close_run(struct sig_walk *w)
{
    if (!w->run_n)
        return;
    w->h = shmpi_dt_hash_mix(w->h, basic_number(w->run));
    w->h = shmpi_dt_hash_mix(w->h, w->run_n);
    w->run_n = 0;
}

static int visit(MPI_Datatype leaf, MPI_Aint disp, MPI_Count n, void *arg)
{
    (void)disp;
    struct sig_walk *w = arg;
    MPI_Datatype b = leaf; /* an f90 kind is a node over its base */
    if (b == MPI_BYTE || b == MPI_PACKED) {
        w->kind = SHMPI_DT_SIG_UNTYPED;
        return 1;
    }
    uint64_t size = (uint64_t)b->size, take = (uint64_t)n;
    if (take * size > w->left) {
        take = w->left / size;
        if (w->left % size)
            w->kind = SHMPI_DT_SIG_SPLIT;
    }
    if (b != w->run)
        close_run(w);
    w->run = b;
    w->run_n += take;
    w->left -= take * size;
    return w->left == 0 || w->kind != SHMPI_DT_SIG_TYPED;
}

enum shmpi_dt_sig_kind shmpi_dt_sig(MPI_Datatype t, MPI_Count count,
                                    uint64_t nbytes, uint64_t *hash)
{
    struct sig_walk w = {.left = nbytes, .h = 0x9e3779b97f4a7c15ull,
                         .kind = SHMPI_DT_SIG_TYPED};
    if (nbytes)
        shmpi_dt_typemap_walk(t, count, visit, &w);
    close_run(&w);
    *hash = shmpi_dt_hash_final(w.h ^ nbytes);
    return w.kind;
}
