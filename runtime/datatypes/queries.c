/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * queries.c - what a datatype measures, and addresses: MPI_Type_size(_x),
 * MPI_Type_get_extent(_x), MPI_Type_get_true_extent(_x) (MPI-3.1 4.1.5,
 * 4.1.7, 4.1.8) and their large-count forms (_c, MPI-4.0: the same
 * answers as the _x forms), MPI_Get_address, MPI_Aint_add, MPI_Aint_diff (4.1.5,
 * 4.1.12) and MPI_Type_match_size (17.1.9).
 */
#include <limits.h>
#include <stdint.h>

#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "datatypes/derived.h"

SHMPI_WEAK_ALIAS(Type_size)
SHMPI_WEAK_ALIAS(Type_size_x)
SHMPI_WEAK_ALIAS(Type_size_c)
SHMPI_WEAK_ALIAS(Type_get_extent)
SHMPI_WEAK_ALIAS(Type_get_extent_x)
SHMPI_WEAK_ALIAS(Type_get_extent_c)
SHMPI_WEAK_ALIAS(Type_get_true_extent)
SHMPI_WEAK_ALIAS(Type_get_true_extent_x)
SHMPI_WEAK_ALIAS(Type_get_true_extent_c)
SHMPI_WEAK_ALIAS(Get_address)
SHMPI_WEAK_ALIAS(Aint_add)
SHMPI_WEAK_ALIAS(Aint_diff)
SHMPI_WEAK_ALIAS(Type_match_size)

int shmpi_dt_check_query(const char *fn, MPI_Datatype t, const void *out1,
                         const void *out2)
{
    int rc = shmpi_dt_check_arg(t, fn, "datatype");
    if (rc == MPI_SUCCESS && (!out1 || !out2))
        rc = shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                         "an output argument is NULL");
    return rc;
}

int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
    static const char fn[] = "MPI_Type_size";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_dt_check_query(fn, datatype, size, size);
    if (rc == MPI_SUCCESS)   /* 4.1.5: MPI_UNDEFINED when it does not fit */
        *size = datatype->size > INT_MAX ? MPI_UNDEFINED
                                         : (int)datatype->size;
    return rc;
}

static int type_size_count(const char *fn, MPI_Datatype datatype,
                           MPI_Count *size)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_dt_check_query(fn, datatype, size, size);
    if (rc == MPI_SUCCESS)
        *size = datatype->size;
    return rc;
}

int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb,
                         MPI_Aint *extent)
{
    static const char fn[] = "MPI_Type_get_extent";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_dt_check_query(fn, datatype, lb, extent);
    if (rc == MPI_SUCCESS) {
        *lb = datatype->lb;
        *extent = datatype->extent;
    }
    return rc;
}

int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
    return type_size_count("MPI_Type_size_x", datatype, size);
}

int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size)
{
    return type_size_count("MPI_Type_size_c", datatype, size);
}

static int extent_count(const char *fn, MPI_Datatype datatype, MPI_Count *lb,
                        MPI_Count *extent)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_dt_check_query(fn, datatype, lb, extent);
    if (rc == MPI_SUCCESS) {
        *lb = datatype->lb;
        *extent = datatype->extent;
    }
    return rc;
}

int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb,
                              MPI_Aint *true_extent)
{
    static const char fn[] = "MPI_Type_get_true_extent";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_dt_check_query(fn, datatype, true_lb, true_extent);
    if (rc == MPI_SUCCESS) {
        *true_lb = datatype->true_lb;
        *true_extent = datatype->true_ub - datatype->true_lb;
    }
    return rc;
}

int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb,
                           MPI_Count *extent)
{
    return extent_count("MPI_Type_get_extent_x", datatype, lb, extent);
}

int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb,
                           MPI_Count *extent)
{
    return extent_count("MPI_Type_get_extent_c", datatype, lb, extent);
}

static int true_extent_count(const char *fn, MPI_Datatype datatype,
                             MPI_Count *true_lb, MPI_Count *true_extent)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_dt_check_query(fn, datatype, true_lb, true_extent);
    if (rc == MPI_SUCCESS) {
        *true_lb = datatype->true_lb;
        *true_extent = datatype->true_ub - datatype->true_lb;
    }
    return rc;
}

int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb,
                                MPI_Count *true_extent)
{
    return true_extent_count("MPI_Type_get_true_extent_x", datatype, true_lb,
                             true_extent);
}

int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb,
                                MPI_Count *true_extent)
{
    return true_extent_count("MPI_Type_get_true_extent_c", datatype, true_lb,
                             true_extent);
}

/* Addresses are the machine's: MPI_BOTTOM is 0 and an address is the
   pointer's value (4.1.12, advice to implementors). */
int shmpi_dt_address(const char *fn, const void *location,
                     MPI_Aint *address)
{
    if (!address)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "address is NULL");
    *address = (MPI_Aint)location;
    return MPI_SUCCESS;
}

int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    static const char fn[] = "MPI_Get_address";
    SHMPI_REQUIRE_INIT(fn);
    return shmpi_dt_address(fn, location, address);
}

/* Plain arithmetic, done unsigned so that no pair of arguments is
   undefined behaviour; callable any time, like the operators they
   stand for. */
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}

MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}

/* The standard's suggestion (17.1.9, advice to implementors): the sized
   Fortran types, which cover every C type of that class and size too. */
static MPI_Datatype match(int typeclass, int size)
{
    static const MPI_Datatype real[] = {MPI_REAL2, MPI_REAL4, MPI_REAL8,
                                        MPI_REAL16};
    static const MPI_Datatype integer[] = {MPI_INTEGER1, MPI_INTEGER2,
                                           MPI_INTEGER4, MPI_INTEGER8,
                                           MPI_INTEGER16};
    static const MPI_Datatype complex[] = {MPI_COMPLEX4, MPI_COMPLEX8,
                                           MPI_COMPLEX16, MPI_COMPLEX32};
    const MPI_Datatype *list;
    int n;
    switch (typeclass) {
    case MPI_TYPECLASS_REAL: list = real; n = 4; break;
    case MPI_TYPECLASS_INTEGER: list = integer; n = 5; break;
    case MPI_TYPECLASS_COMPLEX: list = complex; n = 4; break;
    default: return MPI_DATATYPE_NULL;
    }
    for (int i = 0; i < n; i++)
        if (list[i]->size == size)
            return list[i];
    return MPI_DATATYPE_NULL;
}

int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    static const char fn[] = "MPI_Type_match_size";
    SHMPI_REQUIRE_INIT(fn);
    if (!datatype)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "datatype is NULL");
    MPI_Datatype t = match(typeclass, size);
    if (t == MPI_DATATYPE_NULL)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "no predefined type of typeclass %d has size %d "
                           "(typeclasses: MPI_TYPECLASS_REAL, _INTEGER, "
                           "_COMPLEX)", typeclass, size);
    *datatype = t;
    return MPI_SUCCESS;
}
