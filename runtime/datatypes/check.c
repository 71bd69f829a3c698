/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check.c - the checks of check.h: every bad argument is reported with
 * the class the standard names for it, and a message that says which
 * argument and why.
 */
#include "core/error.h"
#include "core/objects.h"
#include "datatypes/check.h"
#include "datatypes/datatype.h"

int shmpi_dt_check_count_type(const char *fn, MPI_Comm comm, MPI_Count count,
                              MPI_Datatype datatype)
{
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    if (count < 0)
        return shmpi_raise(comm, MPI_ERR_COUNT, fn, "count %lld is negative",
                           (long long)count);
    if (!shmpi_datatype_ok(datatype))
        return shmpi_raise(comm, MPI_ERR_TYPE, fn, "invalid datatype");
    if (!datatype->committed)
        return shmpi_raise(comm, MPI_ERR_TYPE, fn,
                           "datatype is not committed (MPI_Type_commit)");
    return MPI_SUCCESS;
}

int shmpi_dt_check_buffer(const char *fn, MPI_Comm comm, const void *buf,
                          MPI_Count count, MPI_Datatype datatype)
{
    int rc = shmpi_dt_check_count_type(fn, comm, count, datatype);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Count bytes;
    if (__builtin_mul_overflow(count, datatype->size, &bytes))
        return shmpi_raise(comm, MPI_ERR_COUNT, fn,
                           "count %lld times the datatype's size (%lld "
                           "bytes) overflows MPI_Count", (long long)count,
                           (long long)datatype->size);
    if (!shmpi_buffer_ok(buf, count, datatype))
        return shmpi_raise(comm, MPI_ERR_BUFFER, fn, "buffer %s, but count "
                           "is %lld", buf ? "is not a valid address"
                                        : "is NULL (MPI_BOTTOM) and the "
                                          "datatype has no absolute "
                                          "addresses", (long long)count);
    return MPI_SUCCESS;
}
