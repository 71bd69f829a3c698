/* rma_win_allocate: MPI_Win_allocate/MPI_Win_free - memory of every size (0 included), its attributes, windows on world, self and a split, many at once freed in any order (the argument errors: rma_win_errors_ext). */
/* shmpi-test: np=1,2,3,4,8 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

static int rank, size;

static void check_attrs(MPI_Win win, void *base, MPI_Aint bytes, int unit)
{
    void *b = NULL;
    MPI_Aint *sz = NULL;
    int *du = NULL, *flavor = NULL, *model = NULL, flag = 0;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &b, &flag));
    CHECK(flag && b == base, "MPI_WIN_BASE %p, expected %p", b, base);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &sz, &flag));
    CHECK(flag && *sz == bytes, "MPI_WIN_SIZE %ld, expected %ld",
          (long)*sz, (long)bytes);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &du, &flag));
    CHECK(flag && *du == unit, "MPI_WIN_DISP_UNIT %d, expected %d", *du,
          unit);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
    CHECK(flag && *flavor == MPI_WIN_FLAVOR_ALLOCATE, "flavor %d", *flavor);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag));
    CHECK(flag && *model == MPI_WIN_UNIFIED, "model %d", *model);
}

/* Every size a member may ask for: nothing, a few bytes, many pages. */
static MPI_Aint bytes_of(int r, int round)
{
    switch ((r + round) % 4) {
    case 0: return 0;
    case 1: return 3;
    case 2: return 4096 + 8;
    default: return (MPI_Aint)(r + 1) * 100000;
    }
}

/* A window on comm: attributes, and memory that holds what is written. */
static void one_window(MPI_Comm comm, int round)
{
    int r;
    MPI_Comm_rank(comm, &r);
    MPI_Aint bytes = bytes_of(r, round);
    unsigned char *base = NULL;
    MPI_Win win = MPI_WIN_NULL;
    CHECK_MPI(MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, comm, &base, &win));
    CHECK(win != MPI_WIN_NULL, "no window");
    CHECK(bytes == 0 || base != NULL, "no memory for %ld bytes",
          (long)bytes);
    check_attrs(win, base, bytes, 1);
    for (MPI_Aint i = 0; i < bytes; i++)
        base[i] = (unsigned char)(i * 7 + r);
    MPI_Barrier(comm);
    for (MPI_Aint i = 0; i < bytes; i++)
        CHECK(base[i] == (unsigned char)(i * 7 + r), "byte %ld changed",
              (long)i);
    CHECK_MPI(MPI_Win_free(&win));
    CHECK(win == MPI_WIN_NULL, "MPI_Win_free left the handle");
}

/* Several windows alive at once, with a disp_unit and hints, freed in
   an order other than creation's. */
static void many_windows(void)
{
    enum { N = 6 };
    MPI_Win win[N];
    double *base[N];
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "true");
    MPI_Info_set(info, "same_disp_unit", "true");
    for (int i = 0; i < N; i++) {
        MPI_Aint bytes = (MPI_Aint)((i + rank) % 3) * 10 * sizeof(double);
        CHECK_MPI(MPI_Win_allocate(bytes, sizeof(double),
                                   i % 2 ? info : MPI_INFO_NULL,
                                   MPI_COMM_WORLD, &base[i], &win[i]));
        check_attrs(win[i], base[i], bytes, sizeof(double));
        for (MPI_Aint k = 0; k < bytes / (MPI_Aint)sizeof(double); k++)
            base[i][k] = i * 1000.0 + k;
    }
    MPI_Info_free(&info);
    for (int i = 0; i < N; i++) {
        MPI_Aint n = (MPI_Aint)((i + rank) % 3) * 10;
        for (MPI_Aint k = 0; k < n; k++)
            CHECK(base[i][k] == i * 1000.0 + k, "window %d: %g", i,
                  base[i][k]);
    }
    for (int i = N - 1; i >= 0; i -= 2)
        CHECK_MPI(MPI_Win_free(&win[i]));
    for (int i = 0; i < N; i += 2)
        CHECK_MPI(MPI_Win_free(&win[i]));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int round = 0; round < 4; round++) {
        one_window(MPI_COMM_WORLD, round);
        one_window(MPI_COMM_SELF, round);
    }
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);
    one_window(half, 1);
    MPI_Comm_free(&half);
    many_windows();
    MPI_Finalize();
    if (rank == 0)
        printf("rma_win_allocate: ok\n");
    return 0;
}
