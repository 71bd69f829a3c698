/* rma_win_attrs_info: window attributes (the predefined ones of every flavor; keyvals with copy and delete callbacks, MPI_Win_free deleting what is left, a freed keyval's attribute), names, MPI_Win_get_group, and hints through MPI_Win_get_info/MPI_Win_set_info. */
/* shmpi-test: np=1,2,3 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static int rank, size;

/* What the delete callback saw, in order. */
static struct {
    int calls;
    void *values[8];
    MPI_Win wins[8];
    void *extra[8];
} deleted;

static int on_delete(MPI_Win win, int keyval, void *value, void *extra)
{
    (void)keyval;
    CHECK(deleted.calls < 8, "too many delete calls");
    deleted.values[deleted.calls] = value;
    deleted.wins[deleted.calls] = win;
    deleted.extra[deleted.calls++] = extra;
    return MPI_SUCCESS;
}

static int never_copied(MPI_Win win, int keyval, void *extra, void *in,
                        void *out, int *flag)
{
    (void)win, (void)keyval, (void)extra, (void)in, (void)out, (void)flag;
    CHECK(0, "a window attribute was copied: windows are never duplicated");
    return MPI_SUCCESS;
}

static void predefined(MPI_Win win, int flavor, void *base, MPI_Aint bytes,
                       int unit)
{
    void *b;
    MPI_Aint *sz;
    int *du, *fl, *model, flag;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &b, &flag));
    CHECK(flag && b == base, "flavor %d: MPI_WIN_BASE %p, not %p", flavor,
          b, base);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &sz, &flag));
    CHECK(flag && *sz == bytes, "flavor %d: size %ld", flavor, (long)*sz);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &du, &flag));
    CHECK(flag && *du == unit, "flavor %d: disp_unit %d", flavor, *du);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &fl, &flag));
    CHECK(flag && *fl == flavor, "flavor %d reported as %d", flavor, *fl);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag));
    CHECK(flag && *model == MPI_WIN_UNIFIED, "model %d", *model);
}

static void every_flavor(void)
{
    double mem[10], *base;
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(mem, sizeof mem, sizeof(double), MPI_INFO_NULL,
                             MPI_COMM_WORLD, &win));
    predefined(win, MPI_WIN_FLAVOR_CREATE, mem, sizeof mem, sizeof(double));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Win_allocate(24, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                               &win));
    predefined(win, MPI_WIN_FLAVOR_ALLOCATE, base, 24, 8);
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Win_allocate_shared(16, 4, MPI_INFO_NULL, MPI_COMM_WORLD,
                                      &base, &win));
    predefined(win, MPI_WIN_FLAVOR_SHARED, base, 16, 4);
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    predefined(win, MPI_WIN_FLAVOR_DYNAMIC, MPI_BOTTOM, 0, 1);
    CHECK_MPI(MPI_Win_free(&win));
}

static void keyvals(void)
{
    int extra_a = 1, extra_b = 2, key_a, key_b, key_c, flag;
    static int va1, va2, vb, vc;
    void *v;
    CHECK_MPI(MPI_Win_create_keyval(never_copied, on_delete, &key_a,
                                    &extra_a));
    CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_DUP_FN, on_delete, &key_b,
                                    &extra_b));
    CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN,
                                    MPI_WIN_NULL_DELETE_FN, &key_c, NULL));
    MPI_Win win;
    char mem[8];
    CHECK_MPI(MPI_Win_create(mem, sizeof mem, 1, MPI_INFO_NULL,
                             MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_get_attr(win, key_a, &v, &flag));
    CHECK(!flag, "an attribute that was never set");

    CHECK_MPI(MPI_Win_set_attr(win, key_a, &va1));
    CHECK_MPI(MPI_Win_get_attr(win, key_a, &v, &flag));
    CHECK(flag && v == &va1, "get after set");
    CHECK_MPI(MPI_Win_set_attr(win, key_a, &va2)); /* replaces: deletes */
    CHECK(deleted.calls == 1 && deleted.values[0] == &va1 &&
              deleted.wins[0] == win && deleted.extra[0] == &extra_a,
          "replacing a value calls the delete callback on the old one");
    CHECK_MPI(MPI_Win_delete_attr(win, key_a));
    CHECK(deleted.calls == 2 && deleted.values[1] == &va2, "delete_attr");
    CHECK_MPI(MPI_Win_get_attr(win, key_a, &v, &flag));
    CHECK(!flag, "a deleted attribute is gone");

    CHECK_MPI(MPI_Win_set_attr(win, key_a, &va1));
    CHECK_MPI(MPI_Win_set_attr(win, key_b, &vb));
    CHECK_MPI(MPI_Win_set_attr(win, key_c, &vc));
    CHECK_MPI(MPI_Win_free_keyval(&key_b)); /* the attribute stays */
    CHECK(key_b == MPI_KEYVAL_INVALID, "free_keyval leaves the key");
    CHECK_MPI(MPI_Win_free(&win));
    CHECK(deleted.calls == 4, "MPI_Win_free deletes what is left: %d calls",
          deleted.calls);
    int saw_a = 0, saw_b = 0;
    for (int i = 2; i < 4; i++) {
        saw_a |= deleted.values[i] == &va1 && deleted.extra[i] == &extra_a;
        saw_b |= deleted.values[i] == &vb && deleted.extra[i] == &extra_b;
    }
    CHECK(saw_a && saw_b, "MPI_Win_free: the callbacks got their values");
    CHECK_MPI(MPI_Win_free_keyval(&key_a));
    CHECK_MPI(MPI_Win_free_keyval(&key_c));
}

static void names_and_group(void)
{
    MPI_Win win;
    char mem[4], name[MPI_MAX_OBJECT_NAME];
    int len = -1, cmp;
    CHECK_MPI(MPI_Win_create(mem, sizeof mem, 1, MPI_INFO_NULL,
                             MPI_COMM_WORLD, &win));
    /* a new window's name: empty, says 6.8 - but Open MPI names its
       own ("rdma window 3"), so rma_win_errors_ext checks it */
    CHECK_MPI(MPI_Win_set_name(win, "halo exchange"));
    CHECK_MPI(MPI_Win_get_name(win, name, &len));
    CHECK(len == 13 && !strcmp(name, "halo exchange"), "name \"%s\"", name);
    char longer[2 * MPI_MAX_OBJECT_NAME];
    memset(longer, 'w', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    CHECK_MPI(MPI_Win_set_name(win, longer));
    CHECK_MPI(MPI_Win_get_name(win, name, &len));
    CHECK(len <= MPI_MAX_OBJECT_NAME - 1 && (int)strlen(name) == len,
          "a long name is cut to fit: %d", len);

    MPI_Group wg, cg;
    CHECK_MPI(MPI_Win_get_group(win, &wg));
    MPI_Comm_group(MPI_COMM_WORLD, &cg);
    MPI_Group_compare(wg, cg, &cmp);
    CHECK(cmp == MPI_IDENT, "the window's group is not the comm's");
    MPI_Group_free(&wg);
    MPI_Group_free(&cg);
    CHECK_MPI(MPI_Win_free(&win));

    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
    void *base;
    CHECK_MPI(MPI_Win_allocate(4, 1, MPI_INFO_NULL, half, &base, &win));
    CHECK_MPI(MPI_Win_get_group(win, &wg));
    MPI_Comm_group(half, &cg);
    MPI_Group_compare(wg, cg, &cmp);
    CHECK(cmp == MPI_IDENT, "the window's group is not the split's");
    MPI_Group_free(&wg);
    MPI_Group_free(&cg);
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Comm_free(&half);
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

static void hints(void)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "true");
    MPI_Info_set(info, "accumulate_ordering", "none");
    MPI_Info_set(info, "accumulate_ops", "same_op");
    MPI_Win win;
    void *base;
    CHECK_MPI(MPI_Win_allocate(64, 1, info, MPI_COMM_WORLD, &base, &win));
    MPI_Info_free(&info);
    expect_hint(win, "no_locks", "true");
    expect_hint(win, "accumulate_ordering", "none");
    expect_hint(win, "accumulate_ops", "same_op");

    MPI_Info_create(&info);
    MPI_Info_set(info, "accumulate_ops", "same_op_no_op");
    CHECK_MPI(MPI_Win_set_info(win, info));
    MPI_Info_free(&info);
    /* what get_info says after set_info is left open by 11.2.7 (Open MPI
       forgets the hint): rma_win_errors_ext checks shmpi's answer */
    MPI_Info used;
    CHECK_MPI(MPI_Win_get_info(win, &used));
    MPI_Info_free(&used);
    CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    every_flavor();
    keyvals();
    names_and_group();
    hints();
    MPI_Finalize();
    if (rank == 0)
        printf("rma_win_attrs_info: ok\n");
    return 0;
}
