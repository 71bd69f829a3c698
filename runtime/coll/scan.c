/*
 * scan.c - MPI_Scan and MPI_Exscan: member i gets x0 op ... op xi
 * (Exscan: up to x(i-1); member 0's recvbuf is left alone).  reduce.c
 * has the algorithms.
 */
#include "coll/check.h"
#include "coll/reduce.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "datatypes/datatype.h"

SHMPI_WEAK_ALIAS(Scan)
SHMPI_WEAK_ALIAS(Exscan)

static int scan(const char *fn, const void *sendbuf, void *recvbuf,
                int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                enum shmpi_red_kind kind)
{
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc != MPI_SUCCESS)
        return rc;
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
        rc = shmpi_coll_check_op(fn, comm, op, datatype);
    if (rc == MPI_SUCCESS && !in_place && recv)
        rc = shmpi_coll_check_alias(fn, comm, sendbuf, recvbuf,
                                    count > 0 && datatype->size > 0);
    if (rc != MPI_SUCCESS || count == 0 || datatype->size == 0)
        return rc;
    struct shmpi_coll_red x = {.kind = kind,
                               .sbuf = in_place ? recvbuf : sendbuf,
                               .rbuf = recvbuf, .count = count,
                               .type = datatype, .op = op};
    return shmpi_coll_reduction(comm, &x, fn);
}

int PMPI_Scan(const void *sendbuf, void *recvbuf, int count,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    SHMPI_REQUIRE_INIT("MPI_Scan");
    return scan("MPI_Scan", sendbuf, recvbuf, count, datatype, op, comm,
                SHMPI_RED_SCAN);
}

int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count,
                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    SHMPI_REQUIRE_INIT("MPI_Exscan");
    return scan("MPI_Exscan", sendbuf, recvbuf, count, datatype, op, comm,
                SHMPI_RED_EXSCAN);
}
