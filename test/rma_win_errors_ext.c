/* rma_win_errors_ext: every argument error of the window calls with shmpi's class (MPI_ERR_WIN, SIZE, DISP, ARG, INFO, COMM, BASE, RANK, KEYVAL, RMA_FLAVOR, RMA_ATTACH, RMA_SYNC), a bad member failing the creation for all, and shmpi's answers where the standard leaves room: a new window's empty name, the hints MPI_Win_get_info reports, page-aligned noncontiguous shared parts. */
/* shmpi-test: np=1,2,3 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

static int rank, size;

static void constructors(void)
{
    MPI_Win win = MPI_WIN_NULL;
    char mem[64], *base;
    MPI_Info bad_info = (MPI_Info)(void *)MPI_COMM_WORLD; /* not an info */
    MPI_Comm w = MPI_COMM_WORLD;
    CHECK_CLASS(MPI_Win_allocate(-1, 1, MPI_INFO_NULL, w, &base, &win),
                MPI_ERR_SIZE);
    CHECK_CLASS(MPI_Win_allocate(8, 0, MPI_INFO_NULL, w, &base, &win),
                MPI_ERR_DISP);
    CHECK_CLASS(MPI_Win_allocate(8, 1, bad_info, w, &base, &win),
                MPI_ERR_INFO);
    CHECK_CLASS(MPI_Win_allocate(8, 1, MPI_INFO_NULL, w, NULL, &win),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Win_allocate(8, 1, MPI_INFO_NULL, w, &base, NULL),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_NULL, &base,
                                 &win), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Win_allocate_shared(-1, 1, MPI_INFO_NULL, w, &base,
                                        &win), MPI_ERR_SIZE);
    CHECK_CLASS(MPI_Win_allocate_shared(8, -1, MPI_INFO_NULL, w, &base,
                                        &win), MPI_ERR_DISP);
    CHECK_CLASS(MPI_Win_create(mem, -1, 1, MPI_INFO_NULL, w, &win),
                MPI_ERR_SIZE);
    CHECK_CLASS(MPI_Win_create(mem, 8, 0, MPI_INFO_NULL, w, &win),
                MPI_ERR_DISP);
    CHECK_CLASS(MPI_Win_create(mem, 8, 1, MPI_INFO_NULL, w, NULL),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Win_create_dynamic(bad_info, w, &win), MPI_ERR_INFO);
    CHECK_CLASS(MPI_Win_create_dynamic(MPI_INFO_NULL, w, NULL), MPI_ERR_ARG);
    /* rank 0's memory is not mapped: the window fails on every member */
    void *nowhere = (void *)(uintptr_t)4096;
    CHECK_CLASS(MPI_Win_create(rank == 0 ? nowhere : mem, 64, 1,
                               MPI_INFO_NULL, w, &win), MPI_ERR_BASE);
    CHECK(win == MPI_WIN_NULL, "a failed call made a window");
}

static void bad_handles(void)
{
    MPI_Win win = MPI_WIN_NULL;
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    CHECK_CLASS(MPI_Win_free(&win), MPI_ERR_WIN);
    CHECK_CLASS(MPI_Win_free(NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Win_set_name(win, "x"), MPI_ERR_WIN);
    CHECK_CLASS(MPI_Win_get_name(win, name, &len), MPI_ERR_WIN);
    CHECK_CLASS(MPI_Win_attach(win, name, 1), MPI_ERR_WIN);
    MPI_Group g;
    CHECK_CLASS(MPI_Win_get_group(win, &g), MPI_ERR_WIN);
}

/* Errors raised on a window, under MPI_ERRORS_RETURN. */
static void on_windows(void)
{
    MPI_Win alloc, shared, dyn;
    char *base, mem[256];
    CHECK_MPI(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                               &alloc));
    CHECK_MPI(MPI_Win_allocate_shared(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                                      &base, &shared));
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dyn));
    MPI_Win all[] = {alloc, shared, dyn};
    for (int i = 0; i < 3; i++)
        CHECK_MPI(MPI_Win_set_errhandler(all[i], MPI_ERRORS_RETURN));
    MPI_Aint sz;
    int unit;
    CHECK_CLASS(MPI_Win_shared_query(dyn, 0, &sz, &unit, &base),
                MPI_ERR_RMA_FLAVOR);
    CHECK_CLASS(MPI_Win_shared_query(alloc, size, &sz, &unit, &base),
                MPI_ERR_RANK);
    CHECK_CLASS(MPI_Win_shared_query(shared, size, &sz, &unit, &base),
                MPI_ERR_RANK);
    CHECK_CLASS(MPI_Win_shared_query(shared, -5, &sz, &unit, &base),
                MPI_ERR_RANK);
    CHECK_CLASS(MPI_Win_shared_query(shared, 0, NULL, &unit, &base),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Win_attach(alloc, mem, 8), MPI_ERR_RMA_FLAVOR);
    CHECK_CLASS(MPI_Win_detach(shared, mem), MPI_ERR_RMA_FLAVOR);
    CHECK_CLASS(MPI_Win_attach(dyn, mem, -1), MPI_ERR_SIZE);
    CHECK_CLASS(MPI_Win_attach(dyn, (void *)(uintptr_t)4096, 8),
                MPI_ERR_RMA_ATTACH);
    CHECK_CLASS(MPI_Win_detach(dyn, mem), MPI_ERR_RMA_ATTACH);
    /* regions may touch but not overlap; many per process (no cap of
       64 any more: rma_win_dynamic_many_ext attaches thousands) */
    int n = 200;
    for (int i = n - 1; i >= 0; i -= 2) /* out of order */
        CHECK_MPI(MPI_Win_attach(dyn, mem + i, 1));
    for (int i = 0; i < n; i += 2)
        CHECK_MPI(MPI_Win_attach(dyn, mem + i, 1));
    CHECK_CLASS(MPI_Win_attach(dyn, mem + 7, 2), MPI_ERR_RMA_ATTACH);
    CHECK_CLASS(MPI_Win_attach(dyn, mem + n - 1, 2), MPI_ERR_RMA_ATTACH);
    CHECK_CLASS(MPI_Win_detach(dyn, mem + n), MPI_ERR_RMA_ATTACH);
    for (int i = 0; i < n; i++)
        CHECK_MPI(MPI_Win_detach(dyn, mem + i));
    CHECK_CLASS(MPI_Win_detach(dyn, mem), MPI_ERR_RMA_ATTACH);

    CHECK_CLASS(MPI_Win_set_info(alloc, MPI_INFO_NULL), MPI_ERR_INFO);
    CHECK_CLASS(MPI_Win_get_info(alloc, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Win_set_name(alloc, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Win_get_name(alloc, NULL, &unit), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Win_get_group(alloc, NULL), MPI_ERR_ARG);

    /* MPI_Win_free inside a passive-target epoch */
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, alloc));
    CHECK_CLASS(MPI_Win_free(&alloc), MPI_ERR_RMA_SYNC);
    CHECK(alloc != MPI_WIN_NULL, "a failed free freed the window");
    CHECK_MPI(MPI_Win_unlock(0, alloc));
    for (int i = 0; i < 3; i++)
        CHECK_MPI(MPI_Win_free(&all[i]));
}

static void keys_and_handlers(void)
{
    MPI_Win win;
    char *base;
    CHECK_MPI(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                               &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    int comm_key, x, flag;
    void *v;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN,
                           &comm_key, NULL);
    CHECK_CLASS(MPI_Win_set_attr(win, MPI_WIN_BASE, &x), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Win_delete_attr(win, MPI_WIN_SIZE), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Win_set_attr(win, comm_key, &x), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Win_get_attr(win, comm_key, &v, &flag), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Win_get_attr(win, MPI_WIN_BASE, &v, NULL), MPI_ERR_ARG);
    int key = comm_key;
    CHECK_CLASS(MPI_Win_free_keyval(&key), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN,
                                      MPI_WIN_NULL_DELETE_FN, NULL, NULL),
                MPI_ERR_ARG);
    MPI_Comm_free_keyval(&comm_key);

    MPI_Errhandler ceh, weh;
    MPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)(void *)
                                   MPI_Abort, &ceh);
    CHECK_CLASS(MPI_Win_set_errhandler(win, ceh), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Win_set_errhandler(win, MPI_ERRHANDLER_NULL),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Win_create_errhandler(NULL, &weh), MPI_ERR_ARG);
    CHECK_MPI(MPI_Win_create_errhandler(
        (MPI_Win_errhandler_function *)(void *)MPI_Abort, &weh));
    CHECK_CLASS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, weh), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Win_get_errhandler(win, NULL), MPI_ERR_ARG);
    MPI_Errhandler_free(&ceh);
    MPI_Errhandler_free(&weh);
    CHECK_MPI(MPI_Win_free(&win));
}

static void expect_hint(MPI_Win win, const char *key, const char *want)
{
    MPI_Info used;
    char value[MPI_MAX_INFO_VAL];
    int flag;
    CHECK_MPI(MPI_Win_get_info(win, &used));
    CHECK_MPI(MPI_Info_get(used, key, MPI_MAX_INFO_VAL - 1, value, &flag));
    CHECK(flag && !strcmp(value, want), "hint %s is \"%s\", not \"%s\"",
          key, flag ? value : "(unset)", want);
    MPI_Info_free(&used);
}

/* Where the standard leaves room, what shmpi answers. */
static void answers(void)
{
    MPI_Win win;
    char *base, name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    MPI_Info_set(info, "accumulate_ordering", "rar,waw");
    MPI_Info_set(info, "no_locks", "maybe"); /* unreadable: ignored */
    CHECK_MPI(MPI_Win_allocate_shared(100 + rank, 1, info, MPI_COMM_WORLD,
                                      &base, &win));
    MPI_Info_free(&info);
    CHECK_MPI(MPI_Win_get_name(win, name, &len));
    CHECK(len == 0 && !name[0], "a new window is named \"%s\"", name);
    CHECK(((uintptr_t)base & 4095) == 0, "noncontig part at %p", base);
    expect_hint(win, "alloc_shared_noncontig", "true");
    expect_hint(win, "accumulate_ordering", "rar,waw");
    expect_hint(win, "no_locks", "false");
    expect_hint(win, "accumulate_ops", "same_op_no_op");
    expect_hint(win, "same_size", "false");
    expect_hint(win, "same_disp_unit", "false");
    MPI_Info_create(&info);
    MPI_Info_set(info, "accumulate_ops", "same_op");
    MPI_Info_set(info, "accumulate_ordering", "none");
    MPI_Info_set(info, "same_size", "true");
    CHECK_MPI(MPI_Win_set_info(win, info));
    MPI_Info_free(&info);
    expect_hint(win, "accumulate_ops", "same_op");
    expect_hint(win, "accumulate_ordering", "none");
    expect_hint(win, "same_size", "true");
    CHECK_MPI(MPI_Win_free(&win));
}

/* Attaching memory that overlaps an attached region (11.2.4 makes it
   erroneous; Open MPI 4.1 accepts it). */
static void attach_overlaps(void)
{
    MPI_Win win;
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    char buf[256];
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Win_attach(win, buf, 100));
    CHECK_CLASS(MPI_Win_attach(win, buf + 50, 100), MPI_ERR_RMA_ATTACH);
    CHECK_CLASS(MPI_Win_attach(win, buf, 100), MPI_ERR_RMA_ATTACH);
    CHECK_CLASS(MPI_Win_attach(win, buf + 20, 10), MPI_ERR_RMA_ATTACH);
    CHECK_MPI(MPI_Win_attach(win, buf + 100, 100)); /* adjacent is fine */
    CHECK_MPI(MPI_Win_detach(win, buf + 100));
    CHECK_MPI(MPI_Win_detach(win, buf));
    CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    constructors();
    bad_handles();
    on_windows();
    keys_and_handlers();
    answers();
    attach_overlaps();
    MPI_Finalize();
    if (rank == 0)
        printf("rma_win_errors_ext: ok\n");
    return 0;
}
