/* alloc_mem_ext: shmpi's error classes for MPI_Alloc_mem/MPI_Free_mem misuse (negative size, NULL baseptr, a pointer that did not come from MPI_Alloc_mem, double free). */
/* shmpi-test: np=1 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    void *p = NULL;
    CHECK_CLASS(MPI_Alloc_mem(-1, MPI_INFO_NULL, &p), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Alloc_mem(16, MPI_INFO_NULL, NULL), MPI_ERR_ARG);

    int on_stack;
    CHECK_CLASS(MPI_Free_mem(&on_stack), MPI_ERR_BASE);
    char *q = NULL;
    CHECK_MPI(MPI_Alloc_mem(100, MPI_INFO_NULL, &q));
    CHECK_CLASS(MPI_Free_mem(q + 1), MPI_ERR_BASE);
    CHECK_MPI(MPI_Free_mem(q));
    CHECK_CLASS(MPI_Free_mem(q), MPI_ERR_BASE);

    /* The error goes through MPI_COMM_WORLD's handler. */
    MPI_Errhandler got;
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    CHECK(got == MPI_ERRORS_RETURN, "handler changed");
    CHECK_MPI(MPI_Errhandler_free(&got));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
