/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * order_check.h - the check mode's comparison of the collectives the
 * members of a communicator call (MPI-3.1 5.1, 5.12; MPI-4.0
 * 6.13): the same collectives in the same order, with the same root, op
 * and amounts (order_check.c says what is compared and how).
 *
 * Called once per collective call by the argument checks the blocking,
 * nonblocking and persistent forms share (coll/args.h, reduce_args.h,
 * the barriers), after them: rc is what they returned, so that a member
 * whose arguments were wrong still takes its place in the order.
 */
#ifndef SHMPI_COLL_ORDER_CHECK_H
#define SHMPI_COLL_ORDER_CHECK_H

#include "core/check.h"
#include "core/objects.h"

#define SHMPI_ORDER_NO_ROOT (-1)       /* a collective without a root */

/* MPI_Init, in the mode: the records' area taken and mapped
   (order_check.c: THE RINGS). */
void shmpi_coll_order_open(void);

void shmpi_coll_order_check(const char *fn, MPI_Comm comm, int rc, int root,
                            MPI_Op op, MPI_Count count, MPI_Datatype type)
    __attribute__((cold));

/* The hook: off the check mode, one predicted-not-taken test; returns rc
   so that an argument check can end with it.  root: SHMPI_ORDER_NO_ROOT
   or the root given; op: MPI_OP_NULL for none; count x type the amount
   compared (type NULL: none).  comm may be invalid when rc is not
   MPI_SUCCESS; op, count and type are read only when it is. */
static inline int shmpi_coll_order(const char *fn, MPI_Comm comm, int rc,
                                   int root, MPI_Op op, MPI_Count count,
                                   MPI_Datatype type)
{
    if (__builtin_expect(shmpi_core_checking(), 0))
        shmpi_coll_order_check(fn, comm, rc, root, op, count, type);
    return rc;
}

#endif
