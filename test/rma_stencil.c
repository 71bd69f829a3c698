/* rma_stencil: a 1-D Jacobi stencil whose halo goes by MPI_Put between fences on an MPI_Win_allocate window, the compute loop storing into the window's own memory in the next epoch; every value equals the serial computation's. */
/* shmpi-test: np=1,2,4 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define N 4096     /* interior points of a rank: eight pages of doubles */
#define STEPS 500

/* One step of the stencil over in[0..n+1] (ghosts at 0 and n+1). */
static void step(const double *in, double *out, int n)
{
    for (int i = 1; i <= n; i++)
        out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0;
}

int main(int argc, char **argv)
{
    int rank, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    double *u, *tmp = malloc((N + 2) * sizeof *tmp);
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate((N + 2) * sizeof(double), sizeof(double),
                               MPI_INFO_NULL, MPI_COMM_WORLD, &u, &win));
    CHECK(tmp, "no memory");
    for (int i = 0; i < N + 2; i++)
        u[i] = 0;
    for (int i = 1; i <= N; i++)
        u[i] = (double)((rank * N + i) % 97);
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int right = rank < np - 1 ? rank + 1 : MPI_PROC_NULL;
    for (int s = 0; s < STEPS; s++) {
        /* the halo: my edge values into my neighbours' ghost cells */
        CHECK_MPI(MPI_Win_fence(0, win));
        CHECK_MPI(MPI_Put(&u[1], 1, MPI_DOUBLE, left, N + 1, 1, MPI_DOUBLE,
                          win));
        CHECK_MPI(MPI_Put(&u[N], 1, MPI_DOUBLE, right, 0, 1, MPI_DOUBLE,
                          win));
        CHECK_MPI(MPI_Win_fence(0, win));
        /* the compute: loads and stores of the window's own memory */
        step(u, tmp, N);
        for (int i = 1; i <= N; i++)
            u[i] = tmp[i];
    }
    /* the same steps over the whole line, serially */
    int total = np * N;
    double *g = calloc((size_t)total + 2, sizeof *g);
    double *h = calloc((size_t)total + 2, sizeof *h);
    CHECK(g && h, "no memory");
    for (int i = 1; i <= total; i++)
        g[i] = (double)(i % 97);
    for (int s = 0; s < STEPS; s++) {
        step(g, h, total);
        double *t = g;
        g = h;
        h = t;
    }
    for (int i = 1; i <= N; i++)
        CHECK(u[i] == g[rank * N + i], "point %d: %g, serially %g", i, u[i],
              g[rank * N + i]);
    free(g);
    free(h);
    free(tmp);
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Finalize();
    return 0;
}
