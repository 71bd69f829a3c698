/* rma_win_dynamic_churn_ext: the table of attached regions under concurrent change - rank 0 attaches and detaches regions without pause until the others are done (cells between long-lived ones, so every change moves table entries that others are searching; and whole pages of cells, so their memory files come and go), while the other ranks read the long-lived cells and the coming-and-going ones with MPI_Get: a long-lived cell always answers with its exact contents, a changing one with its exact contents or MPI_ERR_RMA_RANGE, never anything else. ext: it targets memory while it is being attached and detached, which MPI calls erroneous; the table's sequence lock must keep it harmless. */
/* shmpi-test: np=2,3,4 timeout=120 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

#define CELLS 1024             /* 64-byte cells: 16 pages */
#define READS 150000           /* by each other rank */
#define DONE_TAG 7

struct cell {
    long v[8];
};

static _Alignas(4096) struct cell cells[CELLS];
static int me, np;

/* Cells of the first half alternate: even ones stay attached, odd ones
   come and go; cells of the second half all come and go (whole pages
   of them, so their memory files are let go of and made again). */
static int lasting(int i) { return i < CELLS / 2 && i % 2 == 0; }

static long content(int i, int j) { return (long)i * 1000 + j; }

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Attaches and detaches until every reader is done. */
static void churn(MPI_Win win)
{
    static char attached[CELLS];
    for (int i = 0; i < CELLS; i++)
        attached[i] = (char)lasting(i);
    MPI_Request *done = malloc((size_t)np * sizeof *done);
    CHECK(done, "malloc");
    for (int r = 1; r < np; r++)
        CHECK_MPI(MPI_Irecv(NULL, 0, MPI_INT, r, DONE_TAG, MPI_COMM_WORLD,
                            &done[r - 1]));
    for (int all = 0; !all;) {
        CHECK_MPI(MPI_Testall(np - 1, done, &all, MPI_STATUSES_IGNORE));
        int i = (int)(next_rand() % CELLS);
        if (lasting(i))
            continue;
        if (attached[i])
            CHECK_MPI(MPI_Win_detach(win, &cells[i]));
        else
            CHECK_MPI(MPI_Win_attach(win, &cells[i], sizeof cells[i]));
        attached[i] ^= 1;
    }
    for (int i = 0; i < CELLS; i++)
        if (attached[i] && !lasting(i))
            CHECK_MPI(MPI_Win_detach(win, &cells[i]));
    free(done);
}

/* READS reads of rank 0's cells while it changes them; then says done. */
static void read_cells(MPI_Win win, MPI_Aint base)
{
    CHECK_MPI(MPI_Win_lock_all(0, win));
    long found = 0, missing = 0, lasting_reads = 0;
    for (int n = 0; n < READS; n++) {
        int i = (int)(next_rand() % CELLS), j = (int)(next_rand() % 8);
        long got = -1;
        MPI_Aint at = MPI_Aint_add(base, (MPI_Aint)(i * sizeof(struct cell) +
                                                    j * sizeof(long)));
        int rc = MPI_Get(&got, 1, MPI_LONG, 0, at, 1, MPI_LONG, win);
        if (rc == MPI_SUCCESS) {
            CHECK_MPI(MPI_Win_flush(0, win));
            CHECK(got == content(i, j), "cell %d long %d read %ld", i, j,
                  got);
            found++;
            lasting_reads += lasting(i);
        } else {
            int cls;
            CHECK_MPI(MPI_Error_class(rc, &cls));
            CHECK(cls == MPI_ERR_RMA_RANGE && !lasting(i), "cell %d (%s): "
                  "MPI_Get failed with class %d", i,
                  lasting(i) ? "always attached" : "coming and going", cls);
            missing++;
        }
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, 0, DONE_TAG, MPI_COMM_WORLD));
    CHECK(lasting_reads > 0 && missing > 0, "only %ld reads of lasting "
          "cells and %ld of detached ones (of %ld)", lasting_reads, missing,
          found + missing);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &np));
    rng += (uint64_t)me * 7919;
    for (int i = 0; i < CELLS; i++)
        for (int j = 0; j < 8; j++)
            cells[i].v[j] = content(i, j);
    MPI_Win win;
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    if (me == 0)
        for (int i = 0; i < CELLS; i++)
            if (lasting(i))
                CHECK_MPI(MPI_Win_attach(win, &cells[i], sizeof cells[i]));
    MPI_Aint base;
    CHECK_MPI(MPI_Get_address(cells, &base));
    CHECK_MPI(MPI_Bcast(&base, 1, MPI_AINT, 0, MPI_COMM_WORLD));
    if (me == 0)
        churn(win);
    else
        read_cells(win, base);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (me == 0)
        for (int i = 0; i < CELLS; i++)
            if (lasting(i))
                CHECK_MPI(MPI_Win_detach(win, &cells[i]));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
