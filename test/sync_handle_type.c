/* sync_handle_type: MPI_HANDLE_SYNC moves MPI_Sync values as 4-byte elements through point-to-point calls, MPI_Pack and the non-reduction collectives, and is refused (MPI_ERR_TYPE) by the derived datatype constructors, the reductions and RMA. */
/* shmpi-test: np=1,2,3 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The values are plain ints: the datatype engine does not look at them,
 * so no counter is allocated here (shmpi_sync(7) has the counters).
 *
 * Not psync: what it checks is shmpi's datatype engine, beyond what
 * portable/sync gives - there MPI_HANDLE_SYNC is a duplicate of MPI_INT
 * made at run time (MPI_COMBINER_DUP, not NAMED), and the MPI's own
 * constructors, reductions and RMA calls take it like any int.
 */
#include "check.h"

enum { N = 5 };                 /* handles per message */

static int rank, size;

/* The handle a rank sends as its i-th: distinct per rank and index. */
static MPI_Sync handle(int from, int i)
{
    return (MPI_Sync)(1000 * (from + 1) + i);
}

static void fill(MPI_Sync *h, int from, int n)
{
    for (int i = 0; i < n; i++)
        h[i] = handle(from, i);
}

static void expect(const MPI_Sync *h, int from, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        CHECK(h[i] == handle(from, i), "%s: handle %d from rank %d is %d, "
              "expected %d", what, i, from, h[i], handle(from, i));
}

/* A named type of 4 bytes, born committed, that cannot be freed. */
static void queries(void)
{
    int sz, ni, na, nt, combiner, len;
    MPI_Aint lb, extent;
    char name[MPI_MAX_OBJECT_NAME];
    CHECK(sizeof(MPI_Sync) == 4, "sizeof(MPI_Sync) is %zu",
          sizeof(MPI_Sync));
    CHECK_MPI(MPI_Type_size(MPI_HANDLE_SYNC, &sz));
    CHECK(sz == 4, "MPI_Type_size gave %d", sz);
    CHECK_MPI(MPI_Type_get_extent(MPI_HANDLE_SYNC, &lb, &extent));
    CHECK(lb == 0 && extent == 4, "lb %ld, extent %ld", (long)lb,
          (long)extent);
    CHECK_MPI(MPI_Type_get_envelope(MPI_HANDLE_SYNC, &ni, &na, &nt,
                                    &combiner));
    CHECK(combiner == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nt == 0,
          "envelope: combiner %d, %d %d %d", combiner, ni, na, nt);
    CHECK_MPI(MPI_Type_get_name(MPI_HANDLE_SYNC, name, &len));
    CHECK(strcmp(name, "MPI_HANDLE_SYNC") == 0 && len == 15,
          "name \"%s\" (%d)", name, len);
    MPI_Datatype t = MPI_HANDLE_SYNC;
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_CLASS(MPI_Type_free(&t), MPI_ERR_TYPE);
    CHECK(t == MPI_HANDLE_SYNC, "MPI_Type_free changed the handle");
}

/* MPI_Pack and MPI_Unpack move the 4 bytes of each handle. */
static void pack(void)
{
    MPI_Sync in[N], out[N];
    char buf[64];
    int bytes, pos = 0;
    fill(in, rank, N);
    CHECK_MPI(MPI_Pack_size(N, MPI_HANDLE_SYNC, MPI_COMM_WORLD, &bytes));
    CHECK(bytes == 4 * N, "MPI_Pack_size gave %d", bytes);
    CHECK_MPI(MPI_Pack(in, N, MPI_HANDLE_SYNC, buf, sizeof buf, &pos,
                       MPI_COMM_WORLD));
    CHECK(pos == 4 * N, "MPI_Pack advanced to %d", pos);
    pos = 0;
    CHECK_MPI(MPI_Unpack(buf, sizeof buf, &pos, out, N, MPI_HANDLE_SYNC,
                         MPI_COMM_WORLD));
    expect(out, rank, N, "MPI_Unpack");
}

static void check_count(const MPI_Status *st, int n, const char *what)
{
    int count, elements;
    CHECK_MPI(MPI_Get_count(st, MPI_HANDLE_SYNC, &count));
    CHECK_MPI(MPI_Get_elements(st, MPI_HANDLE_SYNC, &elements));
    CHECK(count == n && elements == n, "%s: count %d, elements %d, "
          "expected %d", what, count, elements, n);
}

/* Rank 0 sends to rank 1 (probed first), which answers synchronously. */
static void send_recv(void)
{
    MPI_Sync h[2 * N];
    MPI_Status st;
    if (size < 2)
        return;
    if (rank == 0) {
        fill(h, 0, N);
        CHECK_MPI(MPI_Send(h, N, MPI_HANDLE_SYNC, 1, 7, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(h, 2 * N, MPI_HANDLE_SYNC, 1, 8, MPI_COMM_WORLD,
                           &st));
        check_count(&st, N - 1, "MPI_Recv of MPI_Ssend");
        expect(h, 1, N - 1, "MPI_Recv of MPI_Ssend");
    } else if (rank == 1) {
        CHECK_MPI(MPI_Probe(0, 7, MPI_COMM_WORLD, &st));
        check_count(&st, N, "MPI_Probe");
        CHECK_MPI(MPI_Recv(h, 2 * N, MPI_HANDLE_SYNC, 0, 7, MPI_COMM_WORLD,
                           &st));
        check_count(&st, N, "MPI_Recv");
        expect(h, 0, N, "MPI_Recv");
        fill(h, 1, N - 1);
        CHECK_MPI(MPI_Ssend(h, N - 1, MPI_HANDLE_SYNC, 0, 8,
                            MPI_COMM_WORLD));
    }
}

/* Around the ring: nonblocking, then with MPI_Sendrecv. */
static void ring(void)
{
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Sync out[N], in[N];
    MPI_Request req[2];
    MPI_Status st[2];
    fill(out, rank, N);
    CHECK_MPI(MPI_Irecv(in, N, MPI_HANDLE_SYNC, prev, 9, MPI_COMM_WORLD,
                        &req[0]));
    CHECK_MPI(MPI_Isend(out, N, MPI_HANDLE_SYNC, next, 9, MPI_COMM_WORLD,
                        &req[1]));
    CHECK_MPI(MPI_Waitall(2, req, st));
    check_count(&st[0], N, "MPI_Irecv");
    expect(in, prev, N, "MPI_Irecv");

    memset(in, 0, sizeof in);
    CHECK_MPI(MPI_Sendrecv(out, N, MPI_HANDLE_SYNC, next, 10, in, N,
                           MPI_HANDLE_SYNC, prev, 10, MPI_COMM_WORLD,
                           &st[0]));
    check_count(&st[0], N, "MPI_Sendrecv");
    expect(in, prev, N, "MPI_Sendrecv");
}

static void bcasts(void)
{
    int root = size - 1;
    MPI_Sync h[N] = {0};
    if (rank == root)
        fill(h, root, N);
    CHECK_MPI(MPI_Bcast(h, N, MPI_HANDLE_SYNC, root, MPI_COMM_WORLD));
    expect(h, root, N, "MPI_Bcast");

    MPI_Request req;
    memset(h, 0, sizeof h);
    if (rank == 0)
        fill(h, 0, N);
    CHECK_MPI(MPI_Ibcast(h, N, MPI_HANDLE_SYNC, 0, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    expect(h, 0, N, "MPI_Ibcast");
}

/* Every rank's handles everywhere, and each pair's block. */
static void exchanges(void)
{
    MPI_Sync mine[N], *all = calloc((size_t)(size * N), sizeof *all);
    CHECK(all, "out of memory");
    fill(mine, rank, N);
    CHECK_MPI(MPI_Allgather(mine, N, MPI_HANDLE_SYNC, all, N,
                            MPI_HANDLE_SYNC, MPI_COMM_WORLD));
    for (int r = 0; r < size; r++)
        expect(all + r * N, r, N, "MPI_Allgather");

    /* rank r's block for rank d: handle(r, d * N + i) */
    MPI_Sync *out = malloc((size_t)(size * N) * sizeof *out);
    CHECK(out, "out of memory");
    fill(out, rank, size * N);
    CHECK_MPI(MPI_Alltoall(out, N, MPI_HANDLE_SYNC, all, N, MPI_HANDLE_SYNC,
                           MPI_COMM_WORLD));
    for (int r = 0; r < size; r++)
        for (int i = 0; i < N; i++)
            CHECK(all[r * N + i] == handle(r, rank * N + i),
                  "MPI_Alltoall: handle %d from rank %d is %d", i, r,
                  all[r * N + i]);
    free(out);
    free(all);
}

/* Rank r sends r + 1 handles; the root gets them packed end to end. */
static void gatherv(void)
{
    int root = size / 2;
    int *counts = malloc((size_t)size * sizeof *counts);
    int *displs = malloc((size_t)size * sizeof *displs);
    MPI_Sync mine[N + 3], *all = calloc((size_t)(size * (size + 1) / 2),
                                        sizeof *all);
    CHECK(counts && displs && all, "out of memory");
    for (int r = 0, at = 0; r < size; at += ++r) {
        counts[r] = r + 1;
        displs[r] = at;
    }
    fill(mine, rank, rank + 1);
    CHECK_MPI(MPI_Gatherv(mine, rank + 1, MPI_HANDLE_SYNC, all, counts,
                          displs, MPI_HANDLE_SYNC, root, MPI_COMM_WORLD));
    if (rank == root)
        for (int r = 0; r < size; r++)
            expect(all + displs[r], r, r + 1, "MPI_Gatherv");
    free(all);
    free(displs);
    free(counts);
}

/* ------------------------------------------------------- refusals */

static void constructors(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, types[2] = {MPI_INT,
                                                    MPI_HANDLE_SYNC};
    int lens[2] = {1, 1}, disps[2] = {0, 2}, one = 1, zero = 0;
    int block = MPI_DISTRIBUTE_BLOCK, dflt = MPI_DISTRIBUTE_DFLT_DARG;
    MPI_Aint hdisps[2] = {0, 8};
    CHECK_CLASS(MPI_Type_contiguous(2, MPI_HANDLE_SYNC, &t), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_vector(2, 1, 2, MPI_HANDLE_SYNC, &t), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_create_hvector(2, 1, 8, MPI_HANDLE_SYNC, &t),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_indexed(2, lens, disps, MPI_HANDLE_SYNC, &t),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_create_hindexed(2, lens, hdisps, MPI_HANDLE_SYNC,
                                         &t),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_create_indexed_block(2, 1, disps, MPI_HANDLE_SYNC,
                                              &t),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_create_hindexed_block(2, 1, hdisps,
                                               MPI_HANDLE_SYNC, &t),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_create_struct(2, lens, hdisps, types, &t),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_create_subarray(1, &one, &one, &zero, MPI_ORDER_C,
                                         MPI_HANDLE_SYNC, &t),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_create_darray(1, 0, 1, &one, &block, &dflt, &one,
                                       MPI_ORDER_C, MPI_HANDLE_SYNC, &t),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_create_resized(MPI_HANDLE_SYNC, 0, 8, &t),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_dup(MPI_HANDLE_SYNC, &t), MPI_ERR_TYPE);
    CHECK(t == MPI_DATATYPE_NULL, "a refused constructor made a type");
}

static void any_op(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)in, (void)inout, (void)len, (void)t;
    CHECK(0, "a user op was applied to MPI_HANDLE_SYNC");
}

/* Whatever the op: predefined, or user-defined (which takes any type). */
static void reductions(void)
{
    MPI_Sync a[N], *b = malloc((size_t)(size * N) * sizeof *b);
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Op user;
    CHECK(b, "out of memory");
    fill(a, rank, N);
    CHECK_MPI(MPI_Op_create(any_op, 1, &user));
    CHECK_CLASS(MPI_Reduce(a, b, N, MPI_HANDLE_SYNC, MPI_SUM, 0,
                           MPI_COMM_WORLD),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Allreduce(a, b, N, MPI_HANDLE_SYNC, MPI_BOR,
                              MPI_COMM_WORLD),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Allreduce(a, b, N, MPI_HANDLE_SYNC, user,
                              MPI_COMM_WORLD),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Iallreduce(a, b, N, MPI_HANDLE_SYNC, MPI_MAX,
                               MPI_COMM_WORLD, &req),
                MPI_ERR_TYPE);
    CHECK(req == MPI_REQUEST_NULL, "a refused MPI_Iallreduce made a request");
    CHECK_CLASS(MPI_Scan(a, b, N, MPI_HANDLE_SYNC, MPI_SUM, MPI_COMM_WORLD),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Exscan(a, b, N, MPI_HANDLE_SYNC, user, MPI_COMM_WORLD),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Reduce_scatter_block(b, a, N, MPI_HANDLE_SYNC, MPI_SUM,
                                         MPI_COMM_WORLD),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Reduce_local(a, b, N, MPI_HANDLE_SYNC, MPI_SUM),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Reduce_local(a, b, N, MPI_HANDLE_SYNC, user),
                MPI_ERR_TYPE);
    CHECK_MPI(MPI_Op_free(&user));
    free(b);
}

/* Origin, target and result types, on a window of this job. */
static void rma(void)
{
    MPI_Sync *base, h[N], r[N];
    MPI_Win win;
    int target = (rank + 1) % size;
    fill(h, rank, N);
    CHECK_MPI(MPI_Win_allocate(N * sizeof(MPI_Sync), sizeof(MPI_Sync),
                               MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_CLASS(MPI_Put(h, N, MPI_HANDLE_SYNC, target, 0, N, MPI_INT, win),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Put(h, N, MPI_INT, target, 0, N, MPI_HANDLE_SYNC, win),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Get(r, N, MPI_HANDLE_SYNC, target, 0, N, MPI_INT, win),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Get(r, N, MPI_INT, target, 0, N, MPI_HANDLE_SYNC, win),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Accumulate(h, N, MPI_HANDLE_SYNC, target, 0, N,
                               MPI_HANDLE_SYNC, MPI_REPLACE, win),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Get_accumulate(h, N, MPI_INT, r, N, MPI_HANDLE_SYNC,
                                   target, 0, N, MPI_INT, MPI_SUM, win),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Fetch_and_op(h, r, MPI_HANDLE_SYNC, target, 0,
                                 MPI_NO_OP, win),
                MPI_ERR_TYPE);
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    /* the refusals return their class; CHECK_MPI catches the rest */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    queries();
    pack();
    send_recv();
    ring();
    bcasts();
    exchanges();
    gatherv();
    constructors();
    reductions();
    rma();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
