/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * env.c - the ABI's environment functions (abi.h): start and end, the
 * versions, and the three MPI_Abi_ functions of MPI-5.0 20.4.
 */
#include <stddef.h>
#include <stdio.h>

#include "abi/abi.h"

_Static_assert(offsetof(MPI_Status, MPI_SOURCE) == offsetof(abi_Status, MPI_SOURCE) &&
               offsetof(MPI_Status, MPI_TAG) == offsetof(abi_Status, MPI_TAG) &&
               offsetof(MPI_Status, MPI_ERROR) == offsetof(abi_Status, MPI_ERROR),
               "shmpi's status has the ABI's public fields where the ABI has them");

ABI_FN(int, Init, (int *argc, char ***argv))
{
    return PMPI_Init(argc, argv);
}

ABI_FN(int, Init_thread, (int *argc, char ***argv, int required,
                          int *provided))
{
    return PMPI_Init_thread(argc, argv, required, provided);
}

ABI_FN(int, Query_thread, (int *provided))
{
    return PMPI_Query_thread(provided);
}

ABI_FN(int, Finalize, (void)) { return PMPI_Finalize(); }
ABI_FN(int, Initialized, (int *flag)) { return PMPI_Initialized(flag); }
ABI_FN(int, Finalized, (int *flag)) { return PMPI_Finalized(flag); }

ABI_FN(int, Abort, (abi_Comm comm, int errorcode))
{
    return PMPI_Abort(comm_in(comm), errorcode);
}

ABI_FN(int, Get_version, (int *version, int *subversion))
{
    return PMPI_Get_version(version, subversion);
}

ABI_FN(int, Get_library_version, (char *version, int *resultlen))
{
    return PMPI_Get_library_version(version, resultlen);
}

ABI_FN(int, Get_processor_name, (char *name, int *resultlen))
{
    return PMPI_Get_processor_name(name, resultlen);
}

ABI_FN(double, Wtime, (void)) { return PMPI_Wtime(); }
ABI_FN(double, Wtick, (void)) { return PMPI_Wtick(); }

/* MPI-5.0 20.4: the version of the ABI the library implements, 1.0. */
ABI_FN(int, Abi_get_version, (int *abi_major, int *abi_minor))
{
    if (!abi_major || !abi_minor)
        return PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_ARG);
    *abi_major = 1;
    *abi_minor = 0;
    return MPI_SUCCESS;
}

/* A new info object: the sizes in bytes of MPI_Aint, MPI_Count and
   MPI_Offset, under the keys the standard names. */
ABI_FN(int, Abi_get_info, (abi_Info *info))
{
    static const struct { const char *key; size_t size; } sizes[] = {
        { "mpi_aint_size", sizeof(intptr_t) },
        { "mpi_count_size", sizeof(int64_t) },
        { "mpi_offset_size", sizeof(int64_t) },
    };
    if (!info)
        return PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_ARG);
    MPI_Info in;
    int rc = PMPI_Info_create(&in);
    for (size_t i = 0; rc == MPI_SUCCESS && i < sizeof sizes / sizeof sizes[0]; i++) {
        char v[24];
        snprintf(v, sizeof v, "%zu", sizes[i].size);
        rc = PMPI_Info_set(in, sizes[i].key, v);
    }
    if (rc == MPI_SUCCESS)
        *info = ABI_OUT(abi_Info, in, INFO);
    return rc;
}

/* shmpi has no Fortran bindings: there is no Fortran ABI to describe,
   and the info is the null handle. */
ABI_FN(int, Abi_get_fortran_info, (abi_Info *info))
{
    if (!info)
        return PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_ARG);
    *info = (abi_Info)ABI_INFO_FIRST;
    return MPI_SUCCESS;
}

ABI_FN(int, Is_thread_main, (int *flag))
{
    return PMPI_Is_thread_main(flag);
}

/* The level only: shmpi's MPI_Pcontrol reads no more arguments. */
ABI_FN(int, Pcontrol, (const int level, ...))
{
    return PMPI_Pcontrol(level);
}

ABI_FN(int, Alloc_mem, (MPI_Aint size, abi_Info info, void *baseptr))
{
    return PMPI_Alloc_mem(size, info_in(info), baseptr);
}

ABI_FN(int, Free_mem, (void *base))
{
    return PMPI_Free_mem(base);
}

/* MPI-4.1: a new info naming the hardware resource types the process
   runs on. */
ABI_FN(int, Get_hw_resource_info, (abi_Info *hw_info))
{
    MPI_Info in;
    int rc = PMPI_Get_hw_resource_info(hw_info ? &in : NULL);
    MADE(rc, hw_info, in, abi_Info, INFO);
    return rc;
}
