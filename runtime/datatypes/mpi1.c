/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mpi1.c - the datatype calls of MPI-1 that MPI-3.0 removed (MPI-3.1
 * 16.2), as MPI-2.2 defines them (4.1.2, 4.1.5, 4.1.6): MPI_Address,
 * MPI_Type_extent, MPI_Type_lb, MPI_Type_ub, MPI_Type_hvector,
 * MPI_Type_hindexed, MPI_Type_struct.  mpi.h keeps them for old programs,
 * each with a deprecation warning naming its replacement.
 *
 * In C each is its MPI-2 replacement under another name (MPI-2.2 2.6.1:
 * "the new functions are equivalent to the old functions"): the same
 * arguments, MPI_Aint where addresses and byte displacements go, and
 * the same combiners (MPI-2.2 4.1.13: MPI_COMBINER_HVECTOR, _HINDEXED,
 * _STRUCT for the C calls; the _INTEGER ones are the Fortran calls').
 * So they are the code of constructors.c and queries.c, which take the
 * name to report errors under.  The queries are MPI_Type_get_extent cut
 * in three: MPI_Type_ub is lb + extent.
 *
 * The bound markers MPI_LB and MPI_UB, which MPI_Type_struct (and every
 * other constructor) takes like any type, are predefined types
 * (predefined.c) whose bounds layout.c accounts.
 */
#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "datatypes/derived.h"

SHMPI_WEAK_ALIAS(Address)
SHMPI_WEAK_ALIAS(Type_extent)
SHMPI_WEAK_ALIAS(Type_lb)
SHMPI_WEAK_ALIAS(Type_ub)
SHMPI_WEAK_ALIAS(Type_hvector)
SHMPI_WEAK_ALIAS(Type_hindexed)
SHMPI_WEAK_ALIAS(Type_struct)

int PMPI_Address(void *location, MPI_Aint *address)
{
    static const char fn[] = "MPI_Address";
    SHMPI_REQUIRE_INIT(fn);
    return shmpi_dt_address(fn, location, address);
}

int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)
{
    static const char fn[] = "MPI_Type_extent";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_dt_check_query(fn, datatype, extent, extent);
    if (rc == MPI_SUCCESS)
        *extent = datatype->extent;
    return rc;
}

int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
{
    static const char fn[] = "MPI_Type_lb";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_dt_check_query(fn, datatype, displacement, displacement);
    if (rc == MPI_SUCCESS)
        *displacement = datatype->lb;
    return rc;
}

int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
{
    static const char fn[] = "MPI_Type_ub";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_dt_check_query(fn, datatype, displacement, displacement);
    if (rc == MPI_SUCCESS)
        *displacement = datatype->ub;
    return rc;
}

int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride,
                      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_hvector";
    SHMPI_REQUIRE_INIT(fn);
    return shmpi_dt_hvector(fn, count, blocklength, stride, oldtype,
                            newtype);
}

int PMPI_Type_hindexed(int count, int array_of_blocklengths[],
                       MPI_Aint array_of_displacements[],
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_hindexed";
    SHMPI_REQUIRE_INIT(fn);
    return shmpi_dt_hindexed(fn, count, array_of_blocklengths,
                             array_of_displacements, oldtype, newtype);
}

int PMPI_Type_struct(int count, int array_of_blocklengths[],
                     MPI_Aint array_of_displacements[],
                     MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_struct";
    SHMPI_REQUIRE_INIT(fn);
    return shmpi_dt_struct(fn, count, array_of_blocklengths,
                           array_of_displacements, array_of_types, newtype);
}
