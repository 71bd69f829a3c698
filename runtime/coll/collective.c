/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * collective.c - a data collective's schedule from its checked
 * arguments to a started request, or run to its end for a blocking call
 * on an intercommunicator (data.h).
 */
#include "coll/check.h"
#include "coll/data.h"

struct data_call {
    shmpi_nbc_data_fn *build;
    const struct shmpi_coll_args *a;
};

static int build_data(struct shmpi_nbc *s, MPI_Comm comm, const void *arg)
{
    const struct data_call *d = arg;
    return d->build(s, comm, d->a);
}

int shmpi_nbc_icollective(MPI_Comm comm, int rc, shmpi_nbc_data_fn *build,
                          const struct shmpi_coll_args *a,
                          MPI_Request *request, const char *fn)
{
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_request(fn, comm, request);
    if (rc != MPI_SUCCESS)
        return shmpi_nbc_refuse_call(comm, rc);
    struct data_call d = {build, a};
    return shmpi_nbc_launch(comm, build_data, &d, request, fn);
}

int shmpi_nbc_pcollective(MPI_Comm comm, shmpi_nbc_data_fn *build,
                          const struct shmpi_coll_args *a,
                          MPI_Request *request, const char *fn)
{
    struct data_call d = {build, a};
    return shmpi_nbc_plan(comm, build_data, &d, request, fn);
}

int shmpi_nbc_blocking(MPI_Comm comm, shmpi_nbc_data_fn *build,
                       const struct shmpi_coll_args *a, const char *fn)
{
    struct data_call d = {build, a};
    return shmpi_nbc_launch(comm, build_data, &d, NULL, fn);
}
