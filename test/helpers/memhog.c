/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * memhog - MPI_Alloc_mem against a memory limit, for the shell tests of
 * the limits (test/alloc-mem-*.sh).
 *
 *   memhog TOO_MUCH_MIB FITS_MIB [CHUNK_KIB]
 *
 * Under MPI_ERRORS_RETURN, each rank asks MPI_Alloc_mem for TOO_MUCH_MIB
 * (skipped when 0): it must fail with MPI_ERR_NO_MEM ("no-mem" is
 * printed); if it succeeds, every page is written - where a process over
 * its limit gets killed - and the rank exits 3.  Then FITS_MIB must be
 * allocated, every page written and read back, and freed.  With
 * CHUNK_KIB, blocks of that size are then allocated and written one
 * after the other until MPI_Alloc_mem says MPI_ERR_NO_MEM ("rank R: N
 * MiB in chunks, then no-mem"), and freed.  Each rank prints "rank R ok"
 * and exits 0 (anything wrong: a message, exit 1).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"

/* Blocks of `size` until MPI_ERR_NO_MEM (at most 1 TiB of them). */
static void chunks(int rank, MPI_Aint size)
{
    size_t n = 0, cap = (size_t)((MPI_Aint)1 << 40) / (size_t)size;
    unsigned char **got = malloc(cap * sizeof *got);
    int rc = MPI_SUCCESS, cls;
    if (!got)
        die(rank, "malloc", MPI_ERR_NO_MEM);
    while (n < cap &&
           (rc = MPI_Alloc_mem(size, MPI_INFO_NULL, &got[n])) == MPI_SUCCESS)
        memset(got[n++], 0x3c, (size_t)size);
    MPI_Error_class(rc, &cls);
    if (cls != MPI_ERR_NO_MEM)
        die(rank, "chunks: not MPI_ERR_NO_MEM", rc);
    printf("rank %d: %ld MiB in chunks, then no-mem\n", rank,
           (long)((MPI_Aint)n * size >> 20));
    while (n > 0)
        if ((rc = MPI_Free_mem(got[--n])) != MPI_SUCCESS)
            die(rank, "MPI_Free_mem of a chunk", rc);
    free(got);
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: memhog TOO_MUCH_MIB FITS_MIB [CHUNK_KIB]\n");
        return 2;
    }
    MPI_Aint too_much = (MPI_Aint)atol(argv[1]) << 20;
    MPI_Aint fits = (MPI_Aint)atol(argv[2]) << 20;
    MPI_Init(&argc, &argv);
    int rank, rc, cls;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    unsigned char *p = NULL;
    if (too_much > 0) {
        rc = MPI_Alloc_mem(too_much, MPI_INFO_NULL, &p);
        if (rc == MPI_SUCCESS) {
            printf("rank %d: %s MiB allocated; touching it\n", rank, argv[1]);
            fflush(stdout);
            memset(p, 1, (size_t)too_much);
            return 3;
        }
        MPI_Error_class(rc, &cls);
        if (cls != MPI_ERR_NO_MEM)
            die(rank, "too much: not MPI_ERR_NO_MEM", rc);
        printf("rank %d: no-mem\n", rank);
    }
    if ((rc = MPI_Alloc_mem(fits, MPI_INFO_NULL, &p)) != MPI_SUCCESS)
        die(rank, "MPI_Alloc_mem of what fits", rc);
    memset(p, 0xa5, (size_t)fits);
    for (MPI_Aint i = 0; i < fits; i += 4096)
        if (p[i] != 0xa5) {
            fprintf(stderr, "rank %d: byte %ld lost\n", rank, (long)i);
            return 1;
        }
    if ((rc = MPI_Free_mem(p)) != MPI_SUCCESS)
        die(rank, "MPI_Free_mem", rc);
    if (argc > 3)
        chunks(rank, (MPI_Aint)atol(argv[3]) << 10);
    if ((rc = MPI_Barrier(MPI_COMM_WORLD)) != MPI_SUCCESS)
        die(rank, "MPI_Barrier", rc);
    printf("rank %d ok\n", rank);
    MPI_Finalize();
    return 0;
}
