/*
 * allreduce.c - MPI_Reduce and MPI_Allreduce (reduce.c has the
 * algorithms; fallback.c the message versions).
 */
#include "coll/check.h"
#include "coll/reduce.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "datatypes/datatype.h"

SHMPI_WEAK_ALIAS(Reduce)
SHMPI_WEAK_ALIAS(Allreduce)

/* The send and receive sides of a reduction to every member (recv 1) or
   to the root only, with MPI_IN_PLACE allowed where `place_ok`. */
static int check_sides(const char *fn, MPI_Comm comm, const void *sendbuf,
                       void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, int recv, int place_ok)
{
    int in_place = sendbuf == MPI_IN_PLACE && place_ok;
    int rc = shmpi_coll_check_data(fn, comm, in_place ? recvbuf : sendbuf,
                                   count, datatype,
                                   in_place ? "recvbuf" : "sendbuf");
    if (rc == MPI_SUCCESS && recv && !in_place)
        rc = shmpi_coll_check_data(fn, comm, recvbuf, count, datatype,
                                   "recvbuf");
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_op(fn, comm, op, datatype);
    if (rc == MPI_SUCCESS && recv && !in_place)
        rc = shmpi_coll_check_alias(fn, comm, sendbuf, recvbuf,
                                    count > 0 && datatype->size > 0);
    return rc;
}

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count,
                MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
    static const char fn[] = "MPI_Reduce";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_root(fn, comm, root);
    int at_root = rc == MPI_SUCCESS && comm->rank == root;
    if (rc == MPI_SUCCESS)
        rc = check_sides(fn, comm, sendbuf, recvbuf, count, datatype, op,
                         at_root, at_root);
    if (rc != MPI_SUCCESS || count == 0 || datatype->size == 0)
        return rc;
    struct shmpi_coll_red x = {
        .kind = SHMPI_RED_REDUCE, .root = root,
        .sbuf = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf,
        .rbuf = recvbuf, .count = count, .type = datatype, .op = op};
    return shmpi_coll_reduction(comm, &x, fn);
}

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    static const char fn[] = "MPI_Allreduce";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc == MPI_SUCCESS)
        rc = check_sides(fn, comm, sendbuf, recvbuf, count, datatype, op, 1,
                         1);
    if (rc != MPI_SUCCESS || count == 0 || datatype->size == 0)
        return rc;
    struct shmpi_coll_red x = {
        .kind = SHMPI_RED_ALLREDUCE,
        .sbuf = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf,
        .rbuf = recvbuf, .count = count, .type = datatype, .op = op};
    return shmpi_coll_reduction(comm, &x, fn);
}
