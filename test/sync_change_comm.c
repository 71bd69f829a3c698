/* sync_change_comm: MPI_Win_change_comm - a window of the even ranks, of each flavor, joined by the odd ranks (each passing a one-process dynamic window of its own) to MPI_COMM_WORLD, directly and in two steps: the group, put/get to every old member under fence and lock_all (and loads on the shared flavor), the newcomers' size 0, an attach by a newcomer on the dynamic window, name/attribute/error handler kept, sync counters (a newcomer's too) and an inactive sync_ops request carried over, MPI_Win_free; and the errors every caller returns (peer_rank, a newcomer with memory, an epoch open, a member missing, new_comm invalid). */
/* shmpi-test: np=2,3,4,5 timeout=60 ext psync */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

enum {
    N = 16,                    /* ints of each old member's memory */
    FIRST = 0,                 /* [FIRST, FIRST + 4): initial values */
    PUT = 4,                   /* [PUT, PUT + 8): one per world rank */
    SIGNALLED = 15,            /* put under the sync_ops epoch */
};

static int rank, size;
static MPI_Comm evens;         /* the old members, or MPI_COMM_NULL */
static int keyval;

static int is_old(int r) { return r % 2 == 0; }
static int initial(int r, int i) { return 1000 * r + i; }

/* The window and its memory at one process. */
struct win {
    MPI_Win win;
    int flavor;
    int *mem;                  /* old members: N ints; newcomers: NULL */
    void *owned;               /* malloc'd by the test: freed after */
    MPI_Aint *addr;            /* dynamic: [size] each rank's memory */
};

static void fill(int *mem)
{
    for (int i = 0; i < N; i++)
        mem[i] = i < PUT ? initial(rank, i) : -1;
}

/* The old members' window of `flavor` over evens. */
static struct win make_old(int flavor)
{
    struct win w = {MPI_WIN_NULL, flavor, NULL, NULL, NULL};
    MPI_Aint bytes = N * sizeof(int);
    switch (flavor) {
    case MPI_WIN_FLAVOR_CREATE:
        w.mem = w.owned = malloc(bytes);
        CHECK(w.mem, "malloc");
        CHECK_MPI(MPI_Win_create(w.mem, bytes, sizeof(int), MPI_INFO_NULL,
                                 evens, &w.win));
        break;
    case MPI_WIN_FLAVOR_ALLOCATE:
        CHECK_MPI(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, evens,
                                   &w.mem, &w.win));
        break;
    case MPI_WIN_FLAVOR_SHARED:
        CHECK_MPI(MPI_Win_allocate_shared(bytes, sizeof(int), MPI_INFO_NULL,
                                          evens, &w.mem, &w.win));
        break;
    default:
        CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, evens, &w.win));
        w.mem = w.owned = malloc(bytes);
        CHECK(w.mem, "malloc");
        CHECK_MPI(MPI_Win_attach(w.win, w.mem, bytes));
    }
    fill(w.mem);
    CHECK_MPI(MPI_Win_set_name(w.win, "evens"));
    CHECK_MPI(MPI_Win_set_attr(w.win, keyval, &evens));
    return w;
}

/* A newcomer's window: one process, no memory. */
static struct win make_newcomer(int flavor)
{
    struct win w = {MPI_WIN_NULL, flavor, NULL, NULL, NULL};
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_SELF, &w.win));
    CHECK_MPI(MPI_Win_set_name(w.win, "newcomer"));
    return w;
}

static struct win make(int flavor)
{
    struct win w = is_old(rank) ? make_old(flavor) : make_newcomer(flavor);
    CHECK_MPI(MPI_Win_set_errhandler(w.win, MPI_ERRORS_RETURN));
    return w;
}

static void release(struct win *w)
{
    CHECK_MPI(MPI_Win_free(&w->win));
    CHECK(w->win == MPI_WIN_NULL, "MPI_Win_free left the handle");
    free(w->owned);
    free(w->addr);
}

/* The displacement of int i of target's memory. */
static MPI_Aint disp(const struct win *w, int target, int i)
{
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return i;
    return w->addr[target] + (MPI_Aint)(i * sizeof(int));
}

/* ------------------------------------------------------------------ */
/* The joined window, as every caller sees it                          */
/* ------------------------------------------------------------------ */

static void check_handle(const struct win *w)
{
    MPI_Group g, world;
    int cmp, flag, *flavor;
    CHECK_MPI(MPI_Win_get_group(w->win, &g));
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_MPI(MPI_Group_compare(g, world, &cmp));
    CHECK(cmp == MPI_IDENT, "the joined window's group is not world's (%d)",
          cmp);
    MPI_Group_free(&g);
    MPI_Group_free(&world);
    CHECK_MPI(MPI_Win_get_attr(w->win, MPI_WIN_CREATE_FLAVOR, &flavor,
                               &flag));
    CHECK(flag && *flavor == w->flavor, "flavor %d, not %d", *flavor,
          w->flavor);
    MPI_Aint *bytes;
    CHECK_MPI(MPI_Win_get_attr(w->win, MPI_WIN_SIZE, &bytes, &flag));
    MPI_Aint want = is_old(rank) && w->flavor != MPI_WIN_FLAVOR_DYNAMIC
                        ? N * (MPI_Aint)sizeof(int) : 0;
    CHECK(flag && *bytes == want, "MPI_WIN_SIZE %ld, not %ld", (long)*bytes,
          (long)want);
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    CHECK_MPI(MPI_Win_get_name(w->win, name, &len));
    CHECK(!strcmp(name, is_old(rank) ? "evens" : "newcomer"),
          "the name is \"%s\"", name);
    MPI_Comm *val;
    CHECK_MPI(MPI_Win_get_attr(w->win, keyval, &val, &flag));
    CHECK(flag == is_old(rank) && (!flag || val == &evens),
          "the attribute did not stay with the handle");
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Win_get_errhandler(w->win, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "the error handler changed");
    MPI_Errhandler_free(&eh);
}

/* Every rank gets the initial values of every old member, then puts its
   own value into each: under fence. */
static void check_fence(const struct win *w)
{
    int got[4], put[8]; /* a put's origin stays as it is until the fence */
    CHECK_MPI(MPI_Win_fence(0, w->win));
    for (int o = 0; o < size; o += 2) {
        CHECK_MPI(MPI_Get(got, 4, MPI_INT, o, disp(w, o, FIRST), 4, MPI_INT,
                          w->win));
        CHECK_MPI(MPI_Win_fence(0, w->win));
        for (int i = 0; i < 4; i++)
            CHECK(got[i] == initial(o, FIRST + i),
                  "got %d from rank %d's [%d], not %d", got[i], o, i,
                  initial(o, FIRST + i));
        put[o] = 100 * rank + o;
        CHECK_MPI(MPI_Put(&put[o], 1, MPI_INT, o, disp(w, o, PUT + rank), 1,
                          MPI_INT, w->win));
    }
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, w->win));
    for (int r = 0; is_old(rank) && r < size; r++)
        CHECK(w->mem[PUT + r] == 100 * r + rank,
              "rank %d put %d here, not %d", r, w->mem[PUT + r],
              100 * r + rank);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* checked before lock_all */
}

/* Under lock_all: every rank reads back what it put, adds one. */
static void check_lock_all(const struct win *w)
{
    int v[8]; /* one per target: a put's origin stays until unlock_all */
    CHECK_MPI(MPI_Win_lock_all(0, w->win));
    for (int o = 0; o < size; o += 2) {
        CHECK_MPI(MPI_Get(&v[o], 1, MPI_INT, o, disp(w, o, PUT + rank), 1,
                          MPI_INT, w->win));
        CHECK_MPI(MPI_Win_flush(o, w->win));
        CHECK(v[o] == 100 * rank + o, "read back %d from rank %d", v[o], o);
        v[o]++;
        CHECK_MPI(MPI_Put(&v[o], 1, MPI_INT, o, disp(w, o, PUT + rank), 1,
                          MPI_INT, w->win));
    }
    CHECK_MPI(MPI_Win_unlock_all(w->win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int r = 0; is_old(rank) && r < size; r++)
        CHECK(w->mem[PUT + r] == 100 * r + rank + 1,
              "rank %d's lock_all put: %d", r, w->mem[PUT + r]);
}

/* The shared flavor: every rank loads every old member's memory. */
static void check_loads(const struct win *w)
{
    if (w->flavor != MPI_WIN_FLAVOR_SHARED)
        return;
    for (int r = 0; r < size; r++) {
        MPI_Aint bytes;
        int unit, *base;
#ifdef MPI_SYNC_PORTABLE
        /* portable/sync: a newcomer reaches the members' memory by RMA
           only (shmpi_sync(7), BUILDING WITH ANOTHER MPI) */
        if (!is_old(rank) && is_old(r)) {
            CHECK_CLASS(MPI_Win_shared_query(w->win, r, &bytes, &unit, &base),
                        MPI_ERR_RMA_FLAVOR);
            continue;
        }
#endif
        CHECK_MPI(MPI_Win_shared_query(w->win, r, &bytes, &unit, &base));
        CHECK(bytes == (is_old(r) ? N * (MPI_Aint)sizeof(int) : 0),
              "rank %d's part is %ld bytes", r, (long)bytes);
        if (is_old(r))
            CHECK(base[FIRST + 1] == initial(r, FIRST + 1) &&
                      base[PUT + rank] == 100 * rank + r + 1,
                  "loads from rank %d: %d %d", r, base[FIRST + 1],
                  base[PUT + rank]);
        if (r == rank && is_old(r))
            CHECK(base == w->mem, "my memory moved: %p, not %p",
                  (void *)base, (void *)w->mem);
    }
}

/* The dynamic flavor: each newcomer attaches memory, every other rank
   puts into it. */
static void check_attach(const struct win *w)
{
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return;
    int mine[8] = {0};
    MPI_Aint at = 0, all[8];
    if (!is_old(rank)) {
        CHECK_MPI(MPI_Win_attach(w->win, mine, sizeof mine));
        CHECK_MPI(MPI_Get_address(mine, &at));
    }
    CHECK_MPI(MPI_Allgather(&at, 1, MPI_AINT, all, 1, MPI_AINT,
                            MPI_COMM_WORLD));
    int v = 50 + rank; /* the origin of every put, until unlock_all */
    CHECK_MPI(MPI_Win_lock_all(0, w->win));
    for (int t = 1; t < size; t += 2)
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, t, all[t] + rank * sizeof(int), 1,
                          MPI_INT, w->win));
    CHECK_MPI(MPI_Win_unlock_all(w->win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int r = 0; !is_old(rank) && r < size; r++)
        CHECK(mine[r] == 50 + r, "rank %d put %d into my attached memory",
              r, mine[r]);
    if (!is_old(rank))
        CHECK_MPI(MPI_Win_detach(w->win, mine));
}

/* ------------------------------------------------------------------ */
/* Sync counters across the change                                     */
/* ------------------------------------------------------------------ */

/* Before: each old member has a counter and an inactive sync_ops
   request to the next old member (old ranks). */
struct carried {
    MPI_Sync counter;
    MPI_Request ops;
    int next;                  /* world rank of the next old member */
};

static struct carried sync_before(const struct win *w)
{
    struct carried s = {MPI_SYNC_NULL, MPI_REQUEST_NULL, -1};
    if (!is_old(rank)) { /* a counter of its placeholder goes with it */
        CHECK_MPI(MPI_Win_alloc_sync_objects(1, &s.counter, w->win,
                                             MPI_INFO_NULL));
        return s;
    }
    int me, m;
    MPI_Comm_rank(evens, &me);
    MPI_Comm_size(evens, &m);
    MPI_Sync *all = malloc((size_t)m * sizeof *all);
    CHECK(all, "malloc");
    CHECK_MPI(MPI_Win_alloc_sync_objects(1, &s.counter, w->win,
                                         MPI_INFO_NULL));
    CHECK_MPI(MPI_Allgather(&s.counter, 1, MPI_HANDLE_SYNC, all, 1,
                            MPI_HANDLE_SYNC, evens));
    int next = (me + 1) % m;
    CHECK_MPI(MPI_Win_sync_ops_init(next, MPI_MODE_WIN_PUT, all[next],
                                    w->win, MPI_INFO_NULL, &s.ops));
    s.next = 2 * next;
    free(all);
    return s;
}

/* After: the request now targets the next member's new rank; its put
   needs no other epoch, and its completion signals that member. */
/* A newcomer's counter, allocated on its placeholder, is one of the
   joined window: rank 0 signals it, and the newcomer frees it there. */
static void newcomer_counters(const struct win *w, struct carried *s)
{
    MPI_Request r;
    if (rank == 0) {
        for (int n = 1; n < size; n += 2) {
            MPI_Sync theirs;
            CHECK_MPI(MPI_Recv(&theirs, 1, MPI_HANDLE_SYNC, n, 0,
                               MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Win_sync_ops_init(n, 0, theirs, w->win,
                                            MPI_INFO_NULL, &r));
            CHECK_MPI(MPI_Start(&r));
            CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Request_free(&r));
        }
    } else if (!is_old(rank)) {
        CHECK_MPI(MPI_Win_sync_object_init(s->counter, 1, w->win,
                                           MPI_INFO_NULL, &r));
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Send(&s->counter, 1, MPI_HANDLE_SYNC, 0, 0,
                           MPI_COMM_WORLD));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Request_free(&r));
        CHECK_MPI(MPI_Win_free_sync_objects(1, &s->counter, w->win));
    }
}

static void sync_after(const struct win *w, struct carried *s)
{
    newcomer_counters(w, s);
    if (!is_old(rank))
        return;
    MPI_Request arrived;
    CHECK_MPI(MPI_Win_sync_object_init(s->counter, 1, w->win, MPI_INFO_NULL,
                                       &arrived));
    CHECK_MPI(MPI_Start(&arrived));
    CHECK_MPI(MPI_Start(&s->ops));
    int v = 7000 + rank;
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, s->next, disp(w, s->next, SIGNALLED),
                      1, MPI_INT, w->win));
    CHECK_MPI(MPI_Wait(&s->ops, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&arrived, MPI_STATUS_IGNORE));
    int m;
    MPI_Comm_size(evens, &m);
    int prev = (rank - 2 + 2 * m) % (2 * m);
    CHECK(w->mem[SIGNALLED] == 7000 + prev,
          "the signalled put from rank %d: %d", prev, w->mem[SIGNALLED]);
    CHECK_MPI(MPI_Request_free(&arrived));
    CHECK_MPI(MPI_Request_free(&s->ops));
    CHECK_MPI(MPI_Barrier(evens)); /* nobody signals my counter any more */
    CHECK_MPI(MPI_Win_free_sync_objects(1, &s->counter, w->win));
}

/* ------------------------------------------------------------------ */
/* The runs                                                            */
/* ------------------------------------------------------------------ */

static void exchange_addresses(struct win *w)
{
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return;
    MPI_Aint at = 0;
    if (w->mem)
        CHECK_MPI(MPI_Get_address(w->mem, &at));
    w->addr = malloc((size_t)size * sizeof *w->addr);
    CHECK(w->addr, "malloc");
    CHECK_MPI(MPI_Allgather(&at, 1, MPI_AINT, w->addr, 1, MPI_AINT,
                            MPI_COMM_WORLD));
}

/* The evens' window joined by the odd ranks: in one step, or first by
   rank 1 alone (a communicator of the evens and rank 1) then by the rest
   (at np=2 the second step adds nobody). */
static void run(int flavor, int two_steps)
{
    struct win w = make(flavor);
    struct carried s = sync_before(&w);
    MPI_Win before = w.win;
    if (two_steps) {
        MPI_Comm first;
        int in = is_old(rank) || rank == 1;
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, in ? 0 : MPI_UNDEFINED,
                                 rank, &first));
        if (in) {
            CHECK_MPI(MPI_Win_change_comm(first, 0, w.win));
            MPI_Comm_free(&first);
        }
    }
    CHECK_MPI(MPI_Win_change_comm(MPI_COMM_WORLD, 0, w.win));
    CHECK(w.win == before, "the handle changed");
    exchange_addresses(&w);
    check_handle(&w);
    check_fence(&w);
    check_lock_all(&w);
    check_loads(&w);
    check_attach(&w);
    sync_after(&w, &s);
    release(&w);
}

/* ------------------------------------------------------------------ */
/* Errors: every caller returns one, and the windows stay as they were */
/* ------------------------------------------------------------------ */

static void check_unchanged(const struct win *w)
{
    MPI_Group g;
    int n;
    CHECK_MPI(MPI_Win_get_group(w->win, &g));
    MPI_Group_size(g, &n);
    MPI_Group_free(&g);
    int want = 1;
    if (is_old(rank))
        MPI_Comm_size(evens, &want);
    CHECK(n == want, "the failed call changed the group (%d members)", n);
}

static void errors(void)
{
    struct win w = make(MPI_WIN_FLAVOR_ALLOCATE);

    CHECK_CLASS(MPI_Win_change_comm(MPI_COMM_WORLD, size, w.win),
                MPI_ERR_RANK);
    CHECK_CLASS(MPI_Win_change_comm(MPI_COMM_WORLD, -1, w.win),
                MPI_ERR_RANK);
    CHECK_CLASS(MPI_Win_change_comm(MPI_COMM_NULL, 0, w.win), MPI_ERR_COMM);
    check_unchanged(&w);

    /* an epoch open at rank 0 only */
    if (rank == 0)
        CHECK_MPI(MPI_Win_lock_all(0, w.win));
    CHECK_CLASS(MPI_Win_change_comm(MPI_COMM_WORLD, 0, w.win),
                MPI_ERR_RMA_SYNC);
    if (rank == 0)
        CHECK_MPI(MPI_Win_unlock_all(w.win));
    check_unchanged(&w);

    /* a newcomer whose window has memory */
    MPI_Win mem_win = MPI_WIN_NULL;
    void *base;
    if (!is_old(rank)) {
        CHECK_MPI(MPI_Win_allocate(sizeof(int), 1, MPI_INFO_NULL,
                                   MPI_COMM_SELF, &base, &mem_win));
        CHECK_MPI(MPI_Win_set_errhandler(mem_win, MPI_ERRORS_RETURN));
    }
    CHECK_CLASS(MPI_Win_change_comm(MPI_COMM_WORLD, 0,
                                    is_old(rank) ? w.win : mem_win),
                MPI_ERR_WIN);
    if (mem_win != MPI_WIN_NULL)
        CHECK_MPI(MPI_Win_free(&mem_win));
    check_unchanged(&w);

    /* a member left out: {0, 1} and the rest, each with its own peer */
    if (size >= 3) {
        MPI_Comm part;
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank < 2, rank, &part));
        CHECK_CLASS(MPI_Win_change_comm(part, 0, w.win), MPI_ERR_GROUP);
        MPI_Comm_free(&part);
        check_unchanged(&w);
    }
    release(&w);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size <= 8, "PUT holds one int per rank, for up to 8 ranks");
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD,
                             is_old(rank) ? 0 : MPI_UNDEFINED, rank,
                             &evens));
    CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN,
                                    MPI_WIN_NULL_DELETE_FN, &keyval, NULL));
    static const int flavors[] = {MPI_WIN_FLAVOR_CREATE,
                                  MPI_WIN_FLAVOR_ALLOCATE,
                                  MPI_WIN_FLAVOR_SHARED,
                                  MPI_WIN_FLAVOR_DYNAMIC};
    for (int f = 0; f < 4; f++)
        for (int two_steps = 0; two_steps < 2; two_steps++)
            run(flavors[f], two_steps);
    errors();
    MPI_Win_free_keyval(&keyval);
    if (evens != MPI_COMM_NULL)
        MPI_Comm_free(&evens);
    MPI_Finalize();
    return 0;
}
