/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * scan.c - MPI_Scan and MPI_Exscan, and their argument checks
 * (reduce_args.h), which MPI_Iscan and MPI_Iexscan share: member i gets
 * x0 op ... op xi (Exscan: up to x(i-1); member 0's recvbuf is left
 * alone).  reduce.c has the algorithms.  Neither is defined on an
 * intercommunicator (5.11): MPI_ERR_COMM.
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * counts MPI_Count, displacements MPI_Aint), on the same checks and
 * path; count arrays are read as given (coll/vec.h).
 */
#include "coll/check.h"
#include "coll/reduce_args.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "datatypes/datatype.h"

SHMPI_WEAK_ALIAS(Scan)
SHMPI_WEAK_ALIAS(Scan_c)
SHMPI_WEAK_ALIAS(Exscan)
SHMPI_WEAK_ALIAS(Exscan_c)

int shmpi_coll_red_args_scan(const char *fn, const void *sendbuf,
                             void *recvbuf, MPI_Count count,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                             enum shmpi_red_kind kind,
                             struct shmpi_coll_red *x)
{
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc == MPI_SUCCESS && comm->is_inter)
        rc = shmpi_raise(comm, MPI_ERR_COMM, fn,
                         "not defined on an intercommunicator");
    if (rc != MPI_SUCCESS)
        return shmpi_coll_order(fn, comm, rc, SHMPI_ORDER_NO_ROOT, op, 0,
                                NULL);
    int in_place = sendbuf == MPI_IN_PLACE;
    /* Exscan's recvbuf means nothing on member 0 but as MPI_IN_PLACE's
       send buffer */
    int recv = kind == SHMPI_RED_SCAN || comm->rank > 0;
    rc = shmpi_coll_check_data(fn, comm, in_place ? recvbuf : sendbuf, count,
                               datatype, in_place ? "recvbuf" : "sendbuf");
    if (rc == MPI_SUCCESS && !in_place && recv)
        rc = shmpi_coll_check_data(fn, comm, recvbuf, count, datatype,
                                   "recvbuf");
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_op(fn, comm, op, datatype, count);
    if (rc == MPI_SUCCESS && !in_place && recv)
        rc = shmpi_coll_check_alias(fn, comm, sendbuf, recvbuf,
                                    count > 0 && datatype->size > 0);
    *x = (struct shmpi_coll_red){.kind = kind,
                                 .sbuf = in_place ? recvbuf : sendbuf,
                                 .rbuf = recvbuf, .count = count,
                                 .type = datatype, .op = op};
    return shmpi_coll_order(fn, comm, rc, SHMPI_ORDER_NO_ROOT, op, count,
                            datatype);
}

/* The four calls: MPI_Scan, MPI_Exscan (kind) and their _c forms. */
static int scan_call(const char *fn, const void *sendbuf, void *recvbuf,
                     MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm, enum shmpi_red_kind kind)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_scan(fn, sendbuf, recvbuf, count, datatype,
                                      op, comm, kind, &x);
    if (rc != MPI_SUCCESS)
        return shmpi_coll_refuse_call(comm, rc, 0);
    return shmpi_coll_red_run(fn, comm, &x);
}

int PMPI_Scan(const void *sendbuf, void *recvbuf, int count,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return scan_call("MPI_Scan", sendbuf, recvbuf, count, datatype, op, comm,
                     SHMPI_RED_SCAN);
}

int PMPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return scan_call("MPI_Scan_c", sendbuf, recvbuf, count, datatype, op,
                     comm, SHMPI_RED_SCAN);
}

int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count,
                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return scan_call("MPI_Exscan", sendbuf, recvbuf, count, datatype, op,
                     comm, SHMPI_RED_EXSCAN);
}

int PMPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return scan_call("MPI_Exscan_c", sendbuf, recvbuf, count, datatype, op,
                     comm, SHMPI_RED_EXSCAN);
}
