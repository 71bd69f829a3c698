/* topo_cart: MPI_Dims_create on the standard's examples, Cartesian communicators of 1 to 3 dimensions (rank, coordinates and shifts checked against a direct computation, periodic or not), a grid smaller than the job, MPI_Comm_dup keeping the grid, MPI_Cart_sub, MPI_Cart_map, and a 2-D halo exchange with MPI_Neighbor_alltoall checked value by value. */
/* shmpi-test: np=1,2,4,7,16 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static int rank, size;

static void expect_dims(int nnodes, int ndims, const int *given,
                        const int *want)
{
    int dims[8];
    for (int d = 0; d < ndims; d++)
        dims[d] = given[d];
    CHECK_MPI(MPI_Dims_create(nnodes, ndims, dims));
    for (int d = 0; d < ndims; d++)
        CHECK(dims[d] == want[d], "Dims_create(%d, %d): dims[%d] = %d, "
              "expected %d", nnodes, ndims, d, dims[d], want[d]);
}

static void dims_examples(void)
{
    /* MPI-3.1 7.5.2, the four examples */
    expect_dims(6, 2, (int[]){0, 0}, (int[]){3, 2});
    expect_dims(7, 2, (int[]){0, 0}, (int[]){7, 1});
    expect_dims(6, 3, (int[]){0, 3, 0}, (int[]){2, 3, 1});
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int bad[3] = {0, 3, 0};
    CHECK_CLASS(MPI_Dims_create(7, 3, bad), MPI_ERR_DIMS);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD,
                                      MPI_ERRORS_ARE_FATAL));
    /* more, where every balanced answer is the same */
    expect_dims(16, 3, (int[]){0, 0, 0}, (int[]){4, 2, 2});
    expect_dims(24, 3, (int[]){0, 0, 0}, (int[]){4, 3, 2});
    expect_dims(64, 3, (int[]){0, 0, 0}, (int[]){4, 4, 4});
    expect_dims(30, 3, (int[]){0, 0, 0}, (int[]){5, 3, 2});
    expect_dims(96, 4, (int[]){0, 0, 0, 0}, (int[]){4, 4, 3, 2});
    expect_dims(36, 2, (int[]){0, 0}, (int[]){6, 6});
    expect_dims(1, 3, (int[]){0, 0, 0}, (int[]){1, 1, 1});
    expect_dims(8, 2, (int[]){0, 2}, (int[]){4, 2});
    expect_dims(12, 3, (int[]){3, 0, 0}, (int[]){3, 2, 2});
    expect_dims(6, 2, (int[]){3, 2}, (int[]){3, 2});
    expect_dims(13, 1, (int[]){0}, (int[]){13});
}

/* Row-major coordinates of r in dims. */
static void coords_of(int r, int ndims, const int *dims, int *c)
{
    for (int d = ndims - 1; d >= 0; d--) {
        c[d] = r % dims[d];
        r /= dims[d];
    }
}

static int rank_of(int ndims, const int *dims, const int *c)
{
    int r = 0;
    for (int d = 0; d < ndims; d++)
        r = r * dims[d] + c[d];
    return r;
}

/* The rank disp steps along dimension dir from coordinates c, or
   MPI_PROC_NULL. */
static int shifted(int ndims, const int *dims, const int *periods,
                   const int *c, int dir, int disp)
{
    int m[8];
    for (int d = 0; d < ndims; d++)
        m[d] = c[d];
    int to = c[dir] + disp, n = dims[dir];
    if (to < 0 || to >= n) {
        if (!periods[dir])
            return MPI_PROC_NULL;
        to = ((to % n) + n) % n;
    }
    m[dir] = to;
    return rank_of(ndims, dims, m);
}

/* Everything the queries say about the grid, against the arithmetic. */
static void check_grid(MPI_Comm cart, int ndims, const int *dims,
                       const int *periods)
{
    int status, nd, csize, crank, n = 1;
    for (int d = 0; d < ndims; d++)
        n *= dims[d];
    CHECK_MPI(MPI_Topo_test(cart, &status));
    CHECK(status == MPI_CART, "Topo_test gave %d", status);
    CHECK_MPI(MPI_Cartdim_get(cart, &nd));
    CHECK(nd == ndims, "Cartdim_get gave %d, expected %d", nd, ndims);
    CHECK_MPI(MPI_Comm_size(cart, &csize));
    CHECK_MPI(MPI_Comm_rank(cart, &crank));
    CHECK(csize == n, "grid communicator of %d, expected %d", csize, n);
    int gd[8], gp[8], gc[8], mine[8];
    CHECK_MPI(MPI_Cart_get(cart, 8, gd, gp, gc));
    coords_of(crank, ndims, dims, mine);
    for (int d = 0; d < ndims; d++) {
        CHECK(gd[d] == dims[d], "Cart_get dims[%d] = %d", d, gd[d]);
        CHECK(!gp[d] == !periods[d], "Cart_get periods[%d] = %d", d, gp[d]);
        CHECK(gc[d] == mine[d], "Cart_get coords[%d] = %d, expected %d", d,
              gc[d], mine[d]);
    }
    for (int r = 0; r < n; r++) {
        int c[8], want[8], back;
        CHECK_MPI(MPI_Cart_coords(cart, r, ndims, c));
        coords_of(r, ndims, dims, want);
        for (int d = 0; d < ndims; d++)
            CHECK(c[d] == want[d], "Cart_coords(%d)[%d] = %d, expected %d",
                  r, d, c[d], want[d]);
        CHECK_MPI(MPI_Cart_rank(cart, c, &back));
        CHECK(back == r, "Cart_rank(Cart_coords(%d)) = %d", r, back);
        /* periodic dimensions wrap around, both ways */
        for (int d = 0; d < ndims; d++) {
            if (!periods[d])
                continue;
            int w[8];
            for (int e = 0; e < ndims; e++)
                w[e] = c[e];
            w[d] = c[d] + 3 * dims[d];
            CHECK_MPI(MPI_Cart_rank(cart, w, &back));
            CHECK(back == r, "wrapped up: %d, expected %d", back, r);
            w[d] = c[d] - 2 * dims[d];
            CHECK_MPI(MPI_Cart_rank(cart, w, &back));
            CHECK(back == r, "wrapped down: %d, expected %d", back, r);
        }
    }
    static const int disps[] = {-5, -2, -1, 0, 1, 2, 3, 7};
    for (int d = 0; d < ndims; d++)
        for (size_t k = 0; k < sizeof disps / sizeof *disps; k++) {
            int src, dst, disp = disps[k];
            CHECK_MPI(MPI_Cart_shift(cart, d, disp, &src, &dst));
            int wsrc = shifted(ndims, dims, periods, mine, d, -disp);
            int wdst = shifted(ndims, dims, periods, mine, d, disp);
            CHECK(src == wsrc && dst == wdst,
                  "Cart_shift(dir %d, disp %d) = (%d, %d), expected "
                  "(%d, %d)", d, disp, src, dst, wsrc, wdst);
        }
}

/* A grid of ndims (dims from MPI_Dims_create over the whole job), its
   checks, and those of its duplicate. */
static void grid(int ndims, const int *periods)
{
    int dims[8] = {0};
    CHECK_MPI(MPI_Dims_create(size, ndims, dims));
    MPI_Comm cart, dup;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0,
                              &cart));
    CHECK(cart != MPI_COMM_NULL, "every process is in the grid");
    int crank;
    CHECK_MPI(MPI_Comm_rank(cart, &crank));
    CHECK(crank == rank, "rank %d in the grid, expected %d (reorder is "
          "false)", crank, rank);
    check_grid(cart, ndims, dims, periods);
    CHECK_MPI(MPI_Comm_dup(cart, &dup));
    check_grid(dup, ndims, dims, periods);
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Comm_free(&cart));
}

/* A 1-D grid of size - 1: the last process is left out. */
static void smaller_grid(void)
{
    if (size < 2)
        return;
    int dims[1] = {size - 1}, periods[1] = {1};
    MPI_Comm cart;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 1, &cart));
    if (rank == size - 1) {
        CHECK(cart == MPI_COMM_NULL, "the last process is not in the grid");
        return;
    }
    check_grid(cart, 1, dims, periods);
    CHECK_MPI(MPI_Comm_free(&cart));
}

/* MPI_Cart_sub: rows of a 2-D grid, a 2-D slice of a 3-D grid, and no
   dimension at all. */
static void subgrids(void)
{
    int dims[3] = {0, 0}, periods[3] = {0, 1, 0}, c[3];
    CHECK_MPI(MPI_Dims_create(size, 2, dims));
    MPI_Comm cart, row;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    coords_of(rank, 2, dims, c);
    CHECK_MPI(MPI_Cart_sub(cart, (int[]){0, 1}, &row));
    check_grid(row, 1, &dims[1], &periods[1]);
    int rrank, rsize;
    CHECK_MPI(MPI_Comm_rank(row, &rrank));
    CHECK_MPI(MPI_Comm_size(row, &rsize));
    CHECK(rrank == c[1] && rsize == dims[1], "row rank %d of %d",
          rrank, rsize);
    /* the row really is the row: pass world ranks around it */
    int left = c[0] * dims[1] + (c[1] + dims[1] - 1) % dims[1], got = -1;
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, (rrank + 1) % rsize, 5, &got,
                           1, MPI_INT, (rrank + rsize - 1) % rsize, 5, row,
                           MPI_STATUS_IGNORE));
    CHECK(got == left, "got %d from the left in the row, expected %d", got,
          left);
    CHECK_MPI(MPI_Comm_free(&row));

    MPI_Comm point;
    CHECK_MPI(MPI_Cart_sub(cart, (int[]){0, 0}, &point));
    check_grid(point, 0, dims, periods);
    CHECK_MPI(MPI_Comm_free(&point));
    CHECK_MPI(MPI_Comm_free(&cart));

    int d3[3] = {0, 0, 0}, p3[3] = {1, 0, 1}, c3[3];
    CHECK_MPI(MPI_Dims_create(size, 3, d3));
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 3, d3, p3, 0, &cart));
    coords_of(rank, 3, d3, c3);
    MPI_Comm slice;
    CHECK_MPI(MPI_Cart_sub(cart, (int[]){1, 0, 1}, &slice));
    int sd[2] = {d3[0], d3[2]}, sp[2] = {p3[0], p3[2]}, got_d[2], got_p[2],
        got_c[2], srank;
    CHECK_MPI(MPI_Cart_get(slice, 2, got_d, got_p, got_c));
    CHECK_MPI(MPI_Comm_rank(slice, &srank));
    CHECK(got_d[0] == sd[0] && got_d[1] == sd[1] && got_c[0] == c3[0] &&
              got_c[1] == c3[2] && !got_p[0] == !sp[0] &&
              !got_p[1] == !sp[1] && srank == c3[0] * d3[2] + c3[2],
          "3-D slice: dims %dx%d coords (%d,%d) rank %d", got_d[0],
          got_d[1], got_c[0], got_c[1], srank);
    CHECK_MPI(MPI_Comm_free(&slice));
    CHECK_MPI(MPI_Comm_free(&cart));
}

/* MPI_Cart_map on a grid of the whole job: some rank of the grid (a
   process left out must get MPI_UNDEFINED, which Open MPI 4.1 does not
   do: topo_ext checks that) */
static void cart_map(void)
{
    int dims[2] = {0, 0}, periods[2] = {1, 0}, newrank;
    CHECK_MPI(MPI_Dims_create(size, 2, dims));
    CHECK_MPI(MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &newrank));
    CHECK(newrank >= 0 && newrank < size, "Cart_map gave %d", newrank);
}

/*
 * The halo exchange of a 2-D stencil: each process owns an N x N block
 * of a global array whose element (i, j) is 1000 i + j, sends its edge
 * rows and columns to its four neighbors and checks what came back.
 */
#define N 4

static int value(int i, int j) { return 1000 * i + j; }

static void halo(const int *periods)
{
    int dims[2] = {0, 0}, c[2];
    MPI_Comm cart;
    CHECK_MPI(MPI_Dims_create(size, 2, dims));
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    coords_of(rank, 2, dims, c);
    int gi = c[0] * N, gj = c[1] * N, rows = dims[0] * N, cols = dims[1] * N;
    int send[4][N], recv[4][N];
    for (int k = 0; k < N; k++) {
        send[0][k] = value(gi, gj + k);          /* first row, to -1 */
        send[1][k] = value(gi + N - 1, gj + k);  /* last row, to +1 */
        send[2][k] = value(gi + k, gj);          /* first column */
        send[3][k] = value(gi + k, gj + N - 1);  /* last column */
        for (int b = 0; b < 4; b++)
            recv[b][k] = -1;
    }
    CHECK_MPI(MPI_Neighbor_alltoall(send, N, MPI_INT, recv, N, MPI_INT,
                                    cart));
    /* what each block should hold: the neighbor's adjacent edge */
    int want[4][N];
    for (int k = 0; k < N; k++) {
        want[0][k] = value((gi - 1 + rows) % rows, gj + k);
        want[1][k] = value((gi + N) % rows, gj + k);
        want[2][k] = value(gi + k, (gj - 1 + cols) % cols);
        want[3][k] = value(gi + k, (gj + N) % cols);
    }
    for (int d = 0; d < 2; d++) {
        int src, dst;
        CHECK_MPI(MPI_Cart_shift(cart, d, 1, &src, &dst));
        /* a periodic dimension of 1 or 2 has one process on both sides,
           and still the edge sent down arrives from up (MPI-4.0 Annex
           B.1.1, an erratum of MPI-3.1) */
        for (int k = 0; k < N; k++) {
            int lo = recv[2 * d][k], hi = recv[2 * d + 1][k];
            int wlo = src == MPI_PROC_NULL ? -1 : want[2 * d][k];
            int whi = dst == MPI_PROC_NULL ? -1 : want[2 * d + 1][k];
            CHECK(lo == wlo && hi == whi,
                  "dim %d element %d: got (%d, %d), expected (%d, %d)",
                  d, k, lo, hi, wlo, whi);
        }
    }
    CHECK_MPI(MPI_Comm_free(&cart));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int status;
    CHECK_MPI(MPI_Topo_test(MPI_COMM_WORLD, &status));
    CHECK(status == MPI_UNDEFINED, "MPI_COMM_WORLD has topology %d", status);

    dims_examples();
    grid(1, (int[]){0});
    grid(1, (int[]){1});
    grid(2, (int[]){0, 0});
    grid(2, (int[]){1, 0});
    grid(3, (int[]){1, 1, 1});
    grid(3, (int[]){0, 1, 0});
    smaller_grid();
    subgrids();
    cart_map();
    halo((int[]){0, 0});
    halo((int[]){1, 1});
    halo((int[]){0, 1});

    CHECK_MPI(MPI_Finalize());
    return 0;
}
