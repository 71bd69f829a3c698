/* sync_halo: the proposal's Example A halo exchange made correct - A1 (a barrier frees the halos, counters say the puts are done), A2 (zero-byte messages free them), A3 (counters both ways) - on a 1-D ring and a 2-D periodic grid, over MPI_Win_allocate and MPI_Win_create windows, every halo value checked every iteration. */
/* shmpi-test: np=2,4,9 timeout=60 ext psync */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Each rank owns an (H+2) x (W+2) grid of ints, all of it window memory:
 * an H x W interior and a one-cell halo around it (corners unused).  In
 * iteration `it` the interior holds cell_value(rank, it, i, j); each rank
 * MPI_Puts its boundary rows / columns into its neighbours' halos (rows
 * contiguous, columns a vector type) and, once its my_halos_updated
 * request completes, checks every halo cell against what that neighbour
 * must have sent in this iteration.  A halo overwritten before it was
 * read, a put not yet visible when the counter said so, or a signal
 * lost or counted twice makes some cell wrong or the run hang.
 *
 * The ring exchanges west / east only, the grid (MPI_Dims_create) all
 * four directions.  Neighbours may repeat: at np=2 the grid is 2 x 1, so
 * north and south are the same rank and west and east are the rank
 * itself; a repeated neighbour then sends one signal per direction, as
 * every request is per direction and every count is the number of
 * directions.
 *
 * The proposal's loops start the requests at the top of each iteration
 * but never wait for them; here every iteration waits for its put
 * requests (that is what signals) and for my_halos_updated, and A3 also
 * waits for its free_req notifications, which signal only when they
 * complete.  In A3 a neighbour may send its "free" signal for the next
 * iteration before this rank has started dest_halos_free_req again:
 * MPI_Start adds count to the counter, so that early signal is kept.
 */
#include "check.h"
#include "rma_win.h"
#include "sync_test.h"

#define H 6
#define W 5
#define ROWS (H + 2)
#define COLS (W + 2)
#define HANDLE_TAG 1
#define FREE_HANDLE_TAG 2
#define SYNCTAG 3

enum dir { NORTH, SOUTH, WEST, EAST, NDIRS };
static const char *const dir_names[NDIRS] = {"north", "south", "west",
                                             "east"};

/* What a rank sends in one direction: `len` cells from (si, sj) of its
   own grid to (di, dj) of the neighbour's, along a row or a column. */
struct edge {
    int si, sj, di, dj, along_row;
};
static const struct edge edges[NDIRS] = {
    [NORTH] = {1, 1, H + 1, 1, 1}, /* my top row -> its bottom halo */
    [SOUTH] = {H, 1, 0, 1, 1},     /* my bottom row -> its top halo */
    [WEST] = {1, 1, 1, W + 1, 0},  /* my left column -> its right halo */
    [EAST] = {1, W, 1, 0, 0},      /* my right column -> its left halo */
};
static const enum dir opposite[NDIRS] = {SOUTH, NORTH, EAST, WEST};

struct topo {
    const char *name;
    int ndirs;
    enum dir dirs[NDIRS];      /* the directions exchanged */
    int nb[NDIRS];             /* the neighbour in each direction */
};

/* One variant's run: the window, its grid and the two put types. */
struct halo {
    const struct topo *t;
    struct twin w;
    int (*g)[COLS];
    MPI_Datatype row_t, col_t;
    const char *variant;
};

static int rank, size;

static int cell_value(int r, int it, int i, int j)
{
    return ((r * 1000 + it) * ROWS + i) * COLS + j + 1;
}

static void ring_topo(struct topo *t)
{
    *t = (struct topo){.name = "ring", .ndirs = 2, .dirs = {WEST, EAST}};
    t->nb[WEST] = (rank + size - 1) % size;
    t->nb[EAST] = (rank + 1) % size;
}

static void grid_topo(struct topo *t)
{
    int dims[2] = {0, 0};
    CHECK_MPI(MPI_Dims_create(size, 2, dims));
    int row = rank / dims[1], col = rank % dims[1];
    *t = (struct topo){.name = "grid", .ndirs = 4,
                       .dirs = {NORTH, SOUTH, WEST, EAST}};
    t->nb[NORTH] = (row + dims[0] - 1) % dims[0] * dims[1] + col;
    t->nb[SOUTH] = (row + 1) % dims[0] * dims[1] + col;
    t->nb[WEST] = row * dims[1] + (col + dims[1] - 1) % dims[1];
    t->nb[EAST] = row * dims[1] + (col + 1) % dims[1];
}

static void update(struct halo *h, int it)
{
    for (int i = 1; i <= H; i++)
        for (int j = 1; j <= W; j++)
            h->g[i][j] = cell_value(rank, it, i, j);
}

/* My boundary in direction d into the halo of neighbour nb[d]. */
static void put_boundary(struct halo *h, enum dir d)
{
    const struct edge *e = &edges[d];
    MPI_Datatype type = e->along_row ? h->row_t : h->col_t;
    int target = h->t->nb[d];
    MPI_Aint disp = twin_disp(&h->w, target,
                              (MPI_Aint)((e->di * COLS + e->dj) *
                                         (int)sizeof(int)));
    CHECK_MPI(MPI_Put(&h->g[e->si][e->sj], 1, type, target, disp, 1, type,
                      h->w.win));
}

/* Every cell of the halo of each exchanged direction d must hold what
   nb[d] sent towards me (direction opposite[d]) in iteration it. */
static void check_halos(const struct halo *h, int it)
{
    for (int k = 0; k < h->t->ndirs; k++) {
        enum dir d = h->t->dirs[k];
        const struct edge *e = &edges[opposite[d]];
        int from = h->t->nb[d], len = e->along_row ? W : H;
        for (int c = 0; c < len; c++) {
            int di = e->di + (e->along_row ? 0 : c);
            int dj = e->dj + (e->along_row ? c : 0);
            int si = e->si + (e->along_row ? 0 : c);
            int sj = e->sj + (e->along_row ? c : 0);
            int want = cell_value(from, it, si, sj);
            CHECK(h->g[di][dj] == want,
                  "%s %s (%s) iteration %d: %s halo cell (%d,%d) is %d, "
                  "expected %d from rank %d", h->variant, h->t->name,
                  twin_names[h->w.flavor], it, dir_names[d], di, dj,
                  h->g[di][dj], want, from);
        }
    }
}

/* The proposal's handle exchange: my counter to every neighbour, each
   neighbour's counter into theirs[k] (a repeated neighbour sends the
   same handle each time, so which message matches which does not
   matter). */
static void exchange_handles(const struct topo *t, MPI_Sync mine,
                             MPI_Sync *theirs, int tag)
{
    MPI_Request r[2 * NDIRS];
    for (int k = 0; k < t->ndirs; k++) {
        int n = t->nb[t->dirs[k]];
        CHECK_MPI(MPI_Irecv(&theirs[k], 1, MPI_HANDLE_SYNC, n, tag,
                            MPI_COMM_WORLD, &r[k]));
        CHECK_MPI(MPI_Isend(&mine, 1, MPI_HANDLE_SYNC, n, tag,
                            MPI_COMM_WORLD, &r[t->ndirs + k]));
    }
    CHECK_MPI(MPI_Waitall(2 * t->ndirs, r, MPI_STATUSES_IGNORE));
    for (int k = 0; k < t->ndirs; k++)
        CHECK(theirs[k] != MPI_SYNC_NULL, "received MPI_SYNC_NULL");
}

/* put_req[k]: PUT mode to the neighbour of direction k, on its counter */
static void init_put_reqs(struct halo *h, const MPI_Sync *to_updated,
                          MPI_Request *put_req)
{
    for (int k = 0; k < h->t->ndirs; k++)
        CHECK_MPI(MPI_Win_sync_ops_init(h->t->nb[h->t->dirs[k]],
                                        MPI_MODE_WIN_PUT, to_updated[k],
                                        h->w.win, MPI_INFO_NULL,
                                        &put_req[k]));
}

/* A1 and A2: one counter of mine, which the neighbours' puts signal
   (count: a signal per direction), and my put requests to theirs. */
static void setup_updated(struct halo *h, MPI_Sync *my_counters,
                          MPI_Request *put_req, MPI_Request *updated_req)
{
    const struct topo *t = h->t;
    MPI_Sync to_updated[NDIRS];
    CHECK_MPI(MPI_Win_alloc_sync_objects(1, my_counters, h->w.win,
                                         MPI_INFO_NULL));
    exchange_handles(t, my_counters[0], to_updated, HANDLE_TAG);
    CHECK_MPI(MPI_Win_sync_object_init(my_counters[0], t->ndirs, h->w.win,
                                       MPI_INFO_NULL, updated_req));
    init_put_reqs(h, to_updated, put_req);
}

static void free_reqs(int n, MPI_Request *reqs)
{
    for (int k = 0; k < n; k++) {
        CHECK_MPI(MPI_Request_free(&reqs[k]));
        CHECK(reqs[k] == MPI_REQUEST_NULL, "request not nulled by free");
    }
}

static void free_counters(struct halo *h, int n, MPI_Sync *counters)
{
    /* every signal of the run has come once all are here */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int k = 0; k < n; k++)
        sync_expect_balanced(h->w.win, counters[k], h->variant);
    CHECK_MPI(MPI_Win_free_sync_objects(n, counters, h->w.win));
    for (int k = 0; k < n; k++)
        CHECK(counters[k] == MPI_SYNC_NULL, "counter %d not nulled", k);
}

static void wait_updated(struct halo *h, MPI_Request *updated_req, int it)
{
    MPI_Status st;
    CHECK_MPI(MPI_Wait(updated_req, &st));
    CHECK(*updated_req != MPI_REQUEST_NULL, "persistent request nulled");
    check_halos(h, it);
}

/* A1: a barrier says every halo has been read, counters say the puts
   into mine are done. */
static void variant_barrier(struct halo *h, int iters)
{
    const struct topo *t = h->t;
    MPI_Sync my_counters[1];
    MPI_Request put_req[NDIRS], updated_req;
    setup_updated(h, my_counters, put_req, &updated_req);

    for (int it = 0; it < iters; it++) {
        CHECK_MPI(MPI_Startall(t->ndirs, put_req));
        CHECK_MPI(MPI_Start(&updated_req));
        update(h, it);
        /* every rank has checked its halos of it - 1: they are free */
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        for (int k = 0; k < t->ndirs; k++)
            put_boundary(h, t->dirs[k]);
        CHECK_MPI(MPI_Waitall(t->ndirs, put_req, MPI_STATUSES_IGNORE));
        wait_updated(h, &updated_req, it);
    }
    free_reqs(t->ndirs, put_req);
    free_reqs(1, &updated_req);
    free_counters(h, 1, my_counters);
}

/* A2: a zero-byte message from each neighbour says its halo is free. */
static void variant_messages(struct halo *h, int iters)
{
    const struct topo *t = h->t;
    MPI_Sync my_counters[1];
    MPI_Request put_req[NDIRS], updated_req;
    MPI_Request send_req[NDIRS], recv_req[NDIRS];
    int dummy_buf[1] = {0};
    setup_updated(h, my_counters, put_req, &updated_req);

    for (int it = 0; it < iters; it++) {
        CHECK_MPI(MPI_Startall(t->ndirs, put_req));
        CHECK_MPI(MPI_Start(&updated_req));
        update(h, it);
        /* my halos were checked (end of it - 1): tell the neighbours */
        for (int k = 0; k < t->ndirs; k++) {
            int n = t->nb[t->dirs[k]];
            CHECK_MPI(MPI_Irecv(dummy_buf, 0, MPI_INT, n, SYNCTAG,
                                MPI_COMM_WORLD, &recv_req[k]));
            CHECK_MPI(MPI_Isend(dummy_buf, 0, MPI_INT, n, SYNCTAG,
                                MPI_COMM_WORLD, &send_req[k]));
        }
        /* any message of this iteration from a neighbour means all of
           its halos are free (a repeated neighbour sends one per
           direction, all after its check) */
        int done[NDIRS] = {0};
        for (int c = 0; c < t->ndirs; c++) {
            int index = -1;
            CHECK_MPI(MPI_Waitany(t->ndirs, recv_req, &index,
                                  MPI_STATUS_IGNORE));
            CHECK(index >= 0 && index < t->ndirs && !done[index],
                  "Waitany gave index %d", index);
            done[index] = 1;
            put_boundary(h, t->dirs[index]);
        }
        CHECK_MPI(MPI_Waitall(t->ndirs, put_req, MPI_STATUSES_IGNORE));
        CHECK_MPI(MPI_Waitall(t->ndirs, send_req, MPI_STATUSES_IGNORE));
        wait_updated(h, &updated_req, it);
    }
    free_reqs(t->ndirs, put_req);
    free_reqs(1, &updated_req);
    free_counters(h, 1, my_counters);
}

/* A3: counters both ways - dest_halos_free counts the neighbours whose
   halos I may now fill (their sync_mode 0 notifications),
   my_halos_updated the neighbours that filled mine. */
static void variant_counters(struct halo *h, int iters)
{
    const struct topo *t = h->t;
    enum { UPDATED, FREE };
    MPI_Sync my_counters[2], to_updated[NDIRS], to_free[NDIRS];
    MPI_Request put_req[NDIRS], free_req[NDIRS];
    MPI_Request updated_req, dest_free_req;
    CHECK_MPI(MPI_Win_alloc_sync_objects(2, my_counters, h->w.win,
                                         MPI_INFO_NULL));
    CHECK(my_counters[UPDATED] != my_counters[FREE], "one handle twice");
    exchange_handles(t, my_counters[UPDATED], to_updated, HANDLE_TAG);
    exchange_handles(t, my_counters[FREE], to_free, FREE_HANDLE_TAG);
    CHECK_MPI(MPI_Win_sync_object_init(my_counters[UPDATED], t->ndirs,
                                       h->w.win, MPI_INFO_NULL,
                                       &updated_req));
    CHECK_MPI(MPI_Win_sync_object_init(my_counters[FREE], t->ndirs,
                                       h->w.win, MPI_INFO_NULL,
                                       &dest_free_req));
    init_put_reqs(h, to_updated, put_req);
    for (int k = 0; k < t->ndirs; k++)
        CHECK_MPI(MPI_Win_sync_ops_init(t->nb[t->dirs[k]], 0, to_free[k],
                                        h->w.win, MPI_INFO_NULL,
                                        &free_req[k]));

    for (int it = 0; it < iters; it++) {
        CHECK_MPI(MPI_Startall(t->ndirs, put_req));
        CHECK_MPI(MPI_Start(&updated_req));
        CHECK_MPI(MPI_Start(&dest_free_req));
        update(h, it);
        /* my halos were checked (end of it - 1): notify; the
           notifications signal when they complete */
        CHECK_MPI(MPI_Startall(t->ndirs, free_req));
        CHECK_MPI(MPI_Waitall(t->ndirs, free_req, MPI_STATUSES_IGNORE));
        CHECK_MPI(MPI_Wait(&dest_free_req, MPI_STATUS_IGNORE));
        for (int k = 0; k < t->ndirs; k++)
            put_boundary(h, t->dirs[k]);
        CHECK_MPI(MPI_Waitall(t->ndirs, put_req, MPI_STATUSES_IGNORE));
        wait_updated(h, &updated_req, it);
    }
    free_reqs(t->ndirs, put_req);
    free_reqs(t->ndirs, free_req);
    free_reqs(1, &updated_req);
    free_reqs(1, &dest_free_req);
    free_counters(h, 2, my_counters);
}

static void run(const struct topo *t, enum twin_flavor flavor,
                const char *variant, void (*body)(struct halo *, int),
                int iters)
{
    struct halo h = {.t = t, .variant = variant};
    twin_open(&h.w, flavor, (MPI_Aint)(ROWS * COLS * sizeof(int)),
              (int)sizeof(int), NULL);
    h.g = (int (*)[COLS])(void *)h.w.base;
    CHECK_MPI(MPI_Type_contiguous(W, MPI_INT, &h.row_t));
    CHECK_MPI(MPI_Type_vector(H, 1, COLS, MPI_INT, &h.col_t));
    CHECK_MPI(MPI_Type_commit(&h.row_t));
    CHECK_MPI(MPI_Type_commit(&h.col_t));
    body(&h, iters);
    /* everybody is done with this window's counters and tags */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Type_free(&h.row_t));
    CHECK_MPI(MPI_Type_free(&h.col_t));
    twin_close(&h.w);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int iters = 500;
    struct topo topos[2];
    ring_topo(&topos[0]);
    grid_topo(&topos[1]);
    static const enum twin_flavor flavors[] = {TW_ALLOCATE, TW_CREATE_HEAP};
    static const struct {
        const char *name;
        void (*body)(struct halo *, int);
    } variants[] = {
        {"A1 (barrier)", variant_barrier},
        {"A2 (zero-byte messages)", variant_messages},
        {"A3 (counters both ways)", variant_counters},
    };
    for (int v = 0; v < 3; v++)
        for (int t = 0; t < 2; t++)
            for (int f = 0; f < 2; f++)
                run(&topos[t], flavors[f], variants[v].name, variants[v].body,
                    iters);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
