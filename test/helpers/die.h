/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * die.h - what the hog helpers (collhog, lanehog, memhog, p2phog) do
 * with an MPI call that failed: one line naming the rank, the call and
 * the error string, then exit 1.  After <mpi.h>, <stdio.h>, <stdlib.h>.
 */
#ifndef SHMPI_TEST_HELPERS_DIE_H
#define SHMPI_TEST_HELPERS_DIE_H

static void die(int rank, const char *what, int rc)
{
    char s[MPI_MAX_ERROR_STRING];
    int n = 0;
    MPI_Error_string(rc, s, &n);
    fprintf(stderr, "rank %d: %s: %s\n", rank, what, s);
    exit(1);
}

#endif
