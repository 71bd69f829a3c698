/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contents.c - what a derived type was made from: the constructor's
 * arguments, kept as given, and MPI_Type_get_envelope /
 * MPI_Type_get_contents (MPI-3.1 4.1.13, table 4.1), and their
 * large-count forms (MPI-4.0): a type a _c constructor made keeps large
 * counts, which the int forms cannot return: they refuse it with
 * MPI_ERR_TYPE, naming the _c form (as MPICH 4 does).
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
SHMPI_WEAK_ALIAS(Type_get_envelope_c)
SHMPI_WEAK_ALIAS(Type_get_contents_c)

int shmpi_dt_set_contents(MPI_Datatype t, int nints, int naddrs,
                          int ncounts, int ntypes, const MPI_Datatype *types)
{
    /* One allocation; the arrays follow the header, widest first. */
    struct shmpi_dt_contents *c =
        malloc(sizeof *c + (size_t)naddrs * sizeof(MPI_Aint) +
               (size_t)ncounts * sizeof(MPI_Count) +
               (size_t)ntypes * sizeof *types + (size_t)nints * sizeof(int));
    if (!c)
        return MPI_ERR_NO_MEM;
    c->nints = nints;
    c->naddrs = naddrs;
    c->ncounts = ncounts;
    c->ntypes = ntypes;
    c->addrs = (MPI_Aint *)(c + 1);
    c->counts = (MPI_Count *)(c->addrs + naddrs);
    c->types = (MPI_Datatype *)(c->counts + ncounts);
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

/* The datatype and, for the int forms, that its arguments are ints. */
static int check_decoded(const char *fn, MPI_Datatype t, int large)
{
    int rc = shmpi_dt_check_arg(t, fn, "datatype");
    if (rc == MPI_SUCCESS && !large && t->contents && t->contents->ncounts)
        rc = shmpi_raise(MPI_COMM_NULL, MPI_ERR_TYPE, fn,
                         "the datatype was made by a large-count (_c) "
                         "constructor: decode it with %s_c", fn);
    return rc;
}

static int get_envelope(const char *fn, MPI_Datatype datatype,
                        MPI_Count n[4], int *combiner, int large)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_decoded(fn, datatype, large);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!combiner)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "an output argument is NULL");
    const struct shmpi_dt_contents *c = datatype->contents;
    n[0] = c ? c->nints : 0;
    n[1] = c ? c->naddrs : 0;
    n[2] = c ? c->ncounts : 0;
    n[3] = c ? c->ntypes : 0;
    *combiner = datatype->combiner;
    return MPI_SUCCESS;
}

int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers,
                           int *num_addresses, int *num_datatypes,
                           int *combiner)
{
    static const char fn[] = "MPI_Type_get_envelope";
    if (!num_integers || !num_addresses || !num_datatypes)
        combiner = NULL; /* reported as a NULL output */
    MPI_Count n[4];
    int rc = get_envelope(fn, datatype, n, combiner, 0);
    if (rc == MPI_SUCCESS) {
        *num_integers = (int)n[0];
        *num_addresses = (int)n[1];
        *num_datatypes = (int)n[3];
    }
    return rc;
}

int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers,
                             MPI_Count *num_addresses,
                             MPI_Count *num_large_counts,
                             MPI_Count *num_datatypes, int *combiner)
{
    static const char fn[] = "MPI_Type_get_envelope_c";
    if (!num_integers || !num_addresses || !num_large_counts ||
        !num_datatypes)
        combiner = NULL; /* reported as a NULL output */
    MPI_Count n[4];
    int rc = get_envelope(fn, datatype, n, combiner, 1);
    if (rc == MPI_SUCCESS) {
        *num_integers = n[0];
        *num_addresses = n[1];
        *num_large_counts = n[2];
        *num_datatypes = n[3];
    }
    return rc;
}

static int check_room(const char *fn, const char *what, MPI_Count max, int n,
                      const void *array)
{
    if (max < n)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "max_%s is %lld, the type has %d (see "
                           "MPI_Type_get_envelope)", what, (long long)max, n);
    if (n > 0 && !array)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "array_of_%s is NULL", what);
    return MPI_SUCCESS;
}

/* The room the caller gave: max_integers, _addresses, _large_counts,
   _datatypes, and the arrays. */
struct room {
    MPI_Count max[4];
    int *ints;
    MPI_Aint *addrs;
    MPI_Count *counts;
    MPI_Datatype *types;
};

static int check_rooms(const char *fn, const struct shmpi_dt_contents *c,
                       const struct room *r)
{
    int rc;
    if ((rc = check_room(fn, "integers", r->max[0], c->nints, r->ints)) !=
            MPI_SUCCESS ||
        (rc = check_room(fn, "addresses", r->max[1], c->naddrs,
                         r->addrs)) != MPI_SUCCESS ||
        (rc = check_room(fn, "large_counts", r->max[2], c->ncounts,
                         r->counts)) != MPI_SUCCESS ||
        (rc = check_room(fn, "datatypes", r->max[3], c->ntypes, r->types)) !=
            MPI_SUCCESS)
        return rc;
    return MPI_SUCCESS;
}

static int get_contents(const char *fn, MPI_Datatype datatype,
                        const struct room *r, int large)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_decoded(fn, datatype, large);
    if (rc != MPI_SUCCESS)
        return rc;
    const struct shmpi_dt_contents *c = datatype->contents;
    if (!c)                     /* 4.1.13: erroneous for a named type */
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_TYPE, fn,
                           "%s is a named predefined type: it has no "
                           "contents", datatype->name);
    if ((rc = check_rooms(fn, c, r)) != MPI_SUCCESS)
        return rc;
    if (c->nints)
        memcpy(r->ints, c->ints, (size_t)c->nints * sizeof(int));
    if (c->naddrs)
        memcpy(r->addrs, c->addrs, (size_t)c->naddrs * sizeof(MPI_Aint));
    if (c->ncounts)
        memcpy(r->counts, c->counts, (size_t)c->ncounts * sizeof(MPI_Count));
    for (int i = 0; i < c->ntypes; i++) {
        r->types[i] = c->types[i];
        shmpi_dt_retain(c->types[i]);
    }
    return MPI_SUCCESS;
}

int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers,
                           int max_addresses, int max_datatypes,
                           int array_of_integers[],
                           MPI_Aint array_of_addresses[],
                           MPI_Datatype array_of_datatypes[])
{
    struct room r = {{max_integers, max_addresses, 0, max_datatypes},
                     array_of_integers, array_of_addresses, NULL,
                     array_of_datatypes};
    return get_contents("MPI_Type_get_contents", datatype, &r, 0);
}

int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers,
                             MPI_Count max_addresses,
                             MPI_Count max_large_counts,
                             MPI_Count max_datatypes, int array_of_integers[],
                             MPI_Aint array_of_addresses[],
                             MPI_Count array_of_large_counts[],
                             MPI_Datatype array_of_datatypes[])
{
    struct room r = {{max_integers, max_addresses, max_large_counts,
                      max_datatypes},
                     array_of_integers, array_of_addresses,
                     array_of_large_counts, array_of_datatypes};
    return get_contents("MPI_Type_get_contents_c", datatype, &r, 1);
}
