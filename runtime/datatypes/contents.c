/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contents.c - what a derived type was made from: the constructor's
 * arguments, kept as given, and MPI_Type_get_envelope /
 * MPI_Type_get_contents (MPI-3.1 4.1.13, table 4.1).
 *
 * The types handed out by MPI_Type_get_contents are the very objects the
 * constructor was given, each with one more reference that the program
 * drops with MPI_Type_free; 4.1.13 leaves their committed state and
 * attributes undefined precisely so that this is allowed.
 */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "datatypes/derived.h"

SHMPI_WEAK_ALIAS(Type_get_envelope)
SHMPI_WEAK_ALIAS(Type_get_contents)

int shmpi_dt_set_contents(MPI_Datatype t, int nints, int naddrs, int ntypes,
                          const MPI_Datatype *types)
{
    /* One allocation; the arrays follow the header, widest first. */
    struct shmpi_dt_contents *c =
        malloc(sizeof *c + (size_t)naddrs * sizeof(MPI_Aint) +
               (size_t)ntypes * sizeof *types + (size_t)nints * sizeof(int));
    if (!c)
        return MPI_ERR_NO_MEM;
    c->nints = nints;
    c->naddrs = naddrs;
    c->ntypes = ntypes;
    c->addrs = (MPI_Aint *)(c + 1);
    c->types = (MPI_Datatype *)(c->addrs + naddrs);
    c->ints = (int *)(c->types + ntypes);
    for (int i = 0; i < ntypes; i++) {
        c->types[i] = types[i];
        shmpi_dt_retain(types[i]);
    }
    t->contents = c;
    return MPI_SUCCESS;
}

void shmpi_dt_free_contents(struct shmpi_dt_contents *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->ntypes; i++)
        shmpi_dt_release(c->types[i]);
    free(c);
}

int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers,
                           int *num_addresses, int *num_datatypes,
                           int *combiner)
{
    static const char fn[] = "MPI_Type_get_envelope";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_dt_check_arg(datatype, fn, "datatype");
    if (rc != MPI_SUCCESS)
        return rc;
    if (!num_integers || !num_addresses || !num_datatypes || !combiner)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "an output argument is NULL");
    const struct shmpi_dt_contents *c = datatype->contents;
    *num_integers = c ? c->nints : 0;
    *num_addresses = c ? c->naddrs : 0;
    *num_datatypes = c ? c->ntypes : 0;
    *combiner = datatype->combiner;
    return MPI_SUCCESS;
}

static int check_room(const char *fn, const char *what, int max, int n,
                      const void *array)
{
    if (max < n)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "max_%s is %d, the type has %d (see "
                           "MPI_Type_get_envelope)", what, max, n);
    if (n > 0 && !array)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "array_of_%s is NULL", what);
    return MPI_SUCCESS;
}

int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers,
                           int max_addresses, int max_datatypes,
                           int array_of_integers[],
                           MPI_Aint array_of_addresses[],
                           MPI_Datatype array_of_datatypes[])
{
    static const char fn[] = "MPI_Type_get_contents";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_dt_check_arg(datatype, fn, "datatype");
    if (rc != MPI_SUCCESS)
        return rc;
    const struct shmpi_dt_contents *c = datatype->contents;
    if (!c)                     /* 4.1.13: erroneous for a named type */
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_TYPE, fn,
                           "%s is a named predefined type: it has no "
                           "contents", datatype->name);
    if ((rc = check_room(fn, "integers", max_integers, c->nints,
                         array_of_integers)) != MPI_SUCCESS ||
        (rc = check_room(fn, "addresses", max_addresses, c->naddrs,
                         array_of_addresses)) != MPI_SUCCESS ||
        (rc = check_room(fn, "datatypes", max_datatypes, c->ntypes,
                         array_of_datatypes)) != MPI_SUCCESS)
        return rc;
    if (c->nints)
        memcpy(array_of_integers, c->ints, (size_t)c->nints * sizeof(int));
    if (c->naddrs)
        memcpy(array_of_addresses, c->addrs,
               (size_t)c->naddrs * sizeof(MPI_Aint));
    for (int i = 0; i < c->ntypes; i++) {
        array_of_datatypes[i] = c->types[i];
        shmpi_dt_retain(c->types[i]);
    }
    return MPI_SUCCESS;
}
