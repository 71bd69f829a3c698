/* abi_rma: one-sided communication through the standard ABI: windows of every flavor, fence/lock/PSCW epochs with the ABI's assertion bits and lock types, put/get/accumulate, their request and large-count forms, atomics, window attributes and keyvals. */
/* shmpi-test: np=1,2,3 timeout=60 ext abi */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Built against include/abi/mpi.h: MPI_MODE_NOPRECEDE is 2048,
 * MPI_LOCK_SHARED 302, MPI_WIN_FLAVOR_ALLOCATE 312, MPI_WIN_UNIFIED 321,
 * MPI_WIN_BASE 601, MPI_WIN_NULL 0x110; shmpi's values (8, 2, 2, 2, 8, 0)
 * fail the calls or the checks.
 */
#include "check.h"

#include <stdint.h>

static int rank, size, next, prev;
static int deletes;
static MPI_Win deleted_on;

static int win_delete(MPI_Win win, int keyval, void *value, void *extra)
{
    (void)keyval;
    (void)value;
    (void)extra;
    deletes++;
    deleted_on = win;
    return MPI_SUCCESS;
}

static MPI_Win handled_win;
static int handled_code;

static void win_handler(MPI_Win *win, int *code, ...)
{
    handled_win = *win;
    handled_code = *code;
}

static void check_fence_and_ops(void)
{
    int *base = NULL;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &base, &win));
    CHECK(win != MPI_WIN_NULL && (uintptr_t)win >= 0x1000, "a window");
    int i = MPI_Win_toint(win);
    CHECK(i >= 0x1000 && MPI_Win_fromint(i) == win, "Win toint/fromint");
    for (int k = 0; k < 4; k++)
        base[k] = -1;
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    int v = rank * 10;
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, next, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Accumulate(&v, 1, MPI_INT, next, 1, 1, MPI_INT, MPI_SUM, win));
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSTORE, win));
    CHECK(base[0] == prev * 10 && base[1] == prev * 10 - 1, "fence: %d %d",
          base[0], base[1]);
    int got = -1;
    CHECK_MPI(MPI_Get(&got, 1, MPI_INT, prev, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK(got == ((prev + size - 1) % size) * 10, "Get %d", got);

    /* passive target, with the ABI's lock types */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, next, MPI_MODE_NOCHECK, win));
    int one = 1, old = -1, cmp = -1, swapped = -1;
    CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_INT, next, 2, MPI_SUM, win));
    CHECK_MPI(MPI_Compare_and_swap(&v, &cmp, &swapped, MPI_INT, next, 3, win));
    CHECK_MPI(MPI_Win_unlock(next, win));
    CHECK(old == -1 && swapped == -1, "atomics %d %d", old, swapped);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock_all(0, win));
    MPI_Request r[2];
    int a = -5, b = -5;
    CHECK_MPI(MPI_Rget(&a, 1, MPI_INT, rank, 2, 1, MPI_INT, win, &r[0]));
    CHECK_MPI(MPI_Rget_accumulate(&one, 1, MPI_INT, &b, 1, MPI_INT, rank, 3, 1,
                                  MPI_INT, MPI_NO_OP, win, &r[1]));
    CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    CHECK_MPI(MPI_Win_flush_all(win));
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK(a == 0 && b == prev * 10, "Rget %d, Rget_accumulate %d", a, b);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    CHECK_MPI(MPI_Rput(&one, 1, MPI_INT, rank, 2, 1, MPI_INT, win, &r[0]));
    CHECK_MPI(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    /* the wait completed the put at the origin only: a put and an
       accumulate on the same bytes need the flush between (11.7.1) */
    CHECK_MPI(MPI_Win_flush(rank, win));
    CHECK_MPI(MPI_Raccumulate(&one, 1, MPI_INT, rank, 2, 1, MPI_INT, MPI_SUM,
                              win, &r[0]));
    CHECK_MPI(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_flush(rank, win));
    CHECK_MPI(MPI_Get_accumulate(&one, 1, MPI_INT, &a, 1, MPI_INT, rank, 2, 1,
                                 MPI_INT, MPI_REPLACE, win));
    CHECK_MPI(MPI_Win_flush_local(rank, win));
    CHECK_MPI(MPI_Win_unlock(rank, win));
    CHECK(a == 2, "Rput then Raccumulate: %d", a);

    /* attributes, with the ABI's values */
    void *wbase = NULL;
    int *ip = NULL, flag = 0;
    MPI_Aint *sz = NULL;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &wbase, &flag));
    CHECK(flag && wbase == base, "MPI_WIN_BASE");
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &sz, &flag));
    CHECK(flag && *sz == 4 * (MPI_Aint)sizeof(int), "MPI_WIN_SIZE");
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &ip, &flag));
    CHECK(flag && *ip == (int)sizeof(int), "MPI_WIN_DISP_UNIT");
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &ip, &flag));
    CHECK(flag && *ip == MPI_WIN_FLAVOR_ALLOCATE, "flavor %d", *ip);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &ip, &flag));
    CHECK(flag && (*ip == MPI_WIN_UNIFIED || *ip == MPI_WIN_SEPARATE),
          "model %d", *ip);

    int k = 0;
    CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, &k, NULL));
    CHECK_MPI(MPI_Win_set_attr(win, k, &one));
    CHECK_MPI(MPI_Win_get_attr(win, k, &ip, &flag));
    CHECK(flag && ip == &one, "a window attribute");
    CHECK_MPI(MPI_Win_delete_attr(win, k));
    CHECK(deletes == 1 && deleted_on == win, "the delete callback got the window");
    CHECK_MPI(MPI_Win_free_keyval(&k));

    MPI_Group g;
    CHECK_MPI(MPI_Win_get_group(win, &g));
    int gs = -1;
    CHECK_MPI(MPI_Group_size(g, &gs));
    CHECK(gs == size, "Win_get_group %d", gs);
    CHECK_MPI(MPI_Group_free(&g));
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    CHECK_MPI(MPI_Win_set_name(win, "abi window"));
    CHECK_MPI(MPI_Win_get_name(win, name, &len));
    CHECK(strcmp(name, "abi window") == 0, "name '%s'", name);
    MPI_Info info;
    CHECK_MPI(MPI_Win_get_info(win, &info));
    CHECK_MPI(MPI_Win_set_info(win, info));
    CHECK_MPI(MPI_Info_free(&info));

    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Win_get_errhandler(win, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "window errhandler");
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_CLASS(MPI_Win_fence(1, win), MPI_ERR_ASSERT);   /* no assertion */
    CHECK_CLASS(MPI_Win_lock(1, rank, 0, win), MPI_ERR_LOCKTYPE);
    CHECK_MPI(MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
    CHECK_MPI(MPI_Win_create_errhandler(win_handler, &eh));
    CHECK_MPI(MPI_Win_set_errhandler(win, eh));
    CHECK_MPI(MPI_Errhandler_free(&eh));
    MPI_Win_fence(1, win);                 /* 1: no assertion of the ABI */
    CHECK(handled_win == win && handled_code != MPI_SUCCESS,
          "the window's handler got the window");
    int cls = -1;
    CHECK_MPI(MPI_Error_class(handled_code, &cls));
    CHECK(cls == MPI_ERR_ASSERT, "and the ABI's class %d", cls);
    CHECK_MPI(MPI_Win_free(&win));
    CHECK(win == MPI_WIN_NULL, "freed window is MPI_WIN_NULL");
}

static void check_other_flavors(void)
{
    /* PSCW on a window of the program's memory: each rank exposes to all */
    int mem[2] = { -1, -1 };
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL,
                             MPI_COMM_WORLD, &win));
    int *ip = NULL, flag = 0;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &ip, &flag));
    CHECK(flag && *ip == MPI_WIN_FLAVOR_CREATE, "flavor %d", *ip);
    MPI_Group world;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_MPI(MPI_Win_post(world, MPI_MODE_NOSTORE, win));
    CHECK_MPI(MPI_Win_start(world, 0, win));
    CHECK_MPI(MPI_Put(&rank, 1, MPI_INT, next, 1, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_complete(win));
    flag = 0;
    while (!flag)
        CHECK_MPI(MPI_Win_test(win, &flag));
    CHECK(mem[1] == prev, "PSCW put %d", mem[1]);
    CHECK_MPI(MPI_Win_post(world, 0, win));
    CHECK_MPI(MPI_Win_start(world, 0, win));
    CHECK_MPI(MPI_Win_complete(win));
    CHECK_MPI(MPI_Win_wait(win));
    CHECK_MPI(MPI_Group_free(&world));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    CHECK_MPI(MPI_Win_sync(win));
    CHECK_MPI(MPI_Win_unlock(rank, win));
    CHECK_MPI(MPI_Win_free(&win));

    /* dynamic: memory attached after the window */
    long cell = 0;
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_attach(win, &cell, sizeof cell));
    MPI_Aint addr;
    CHECK_MPI(MPI_Get_address(&cell, &addr));
    MPI_Aint *addrs = malloc((size_t)size * sizeof *addrs);
    CHECK(addrs != NULL, "malloc");
    CHECK_MPI(MPI_Allgather(&addr, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD));
    long add = rank + 1;
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Accumulate(&add, 1, MPI_LONG, next, addrs[next], 1, MPI_LONG,
                             MPI_SUM, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK(cell == prev + 1, "dynamic window %ld", cell);
    CHECK_MPI(MPI_Win_detach(win, &cell));
    CHECK_MPI(MPI_Win_free(&win));
    free(addrs);

    /* shared: each rank's segment seen by the others */
    int *mine = NULL;
    CHECK_MPI(MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL,
                                      MPI_COMM_WORLD, &mine, &win));
    *mine = rank + 100;
    CHECK_MPI(MPI_Win_fence(0, win));
    MPI_Aint ssz = -1;
    int du = -1, *theirs = NULL;
    CHECK_MPI(MPI_Win_shared_query(win, next, &ssz, &du, &theirs));
    CHECK(ssz == (MPI_Aint)sizeof(int) && du == (int)sizeof(int) &&
          *theirs == next + 100, "shared_query %d", theirs ? *theirs : -1);
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Win_free(&win));
}

/* the _c forms: MPI_Aint displacement units, MPI_Count counts */
static void check_large_count(void)
{
    long *base = NULL;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate_c(2 * sizeof(long), (MPI_Aint)sizeof(long),
                                 MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    base[0] = base[1] = 0;
    long v[2] = { rank + 1, 10 * (rank + 1) }, got[2] = { -1, -1 };
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put_c(v, (MPI_Count)1, MPI_LONG, next, 0, (MPI_Count)1,
                        MPI_LONG, win));
    CHECK_MPI(MPI_Accumulate_c(&v[1], (MPI_Count)1, MPI_LONG, next, 1,
                               (MPI_Count)1, MPI_LONG, MPI_SUM, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Get_c(got, (MPI_Count)2, MPI_LONG, rank, 0, (MPI_Count)2,
                        MPI_LONG, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK(got[0] == prev + 1 && got[1] == 10 * (prev + 1), "_c RMA %ld %ld",
          got[0], got[1]);
    CHECK_MPI(MPI_Win_free(&win));
    long *mine = NULL, *theirs = NULL;
    CHECK_MPI(MPI_Win_allocate_shared_c(sizeof(long), (MPI_Aint)sizeof(long),
                                        MPI_INFO_NULL, MPI_COMM_WORLD, &mine,
                                        &win));
    *mine = rank;
    CHECK_MPI(MPI_Win_fence(0, win));
    MPI_Aint sz = -1, du = -1;
    CHECK_MPI(MPI_Win_shared_query_c(win, next, &sz, &du, &theirs));
    CHECK(du == (MPI_Aint)sizeof(long) && *theirs == next, "shared_query_c");
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;
    check_fence_and_ops();
    check_other_flavors();
    check_large_count();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
