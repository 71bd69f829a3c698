/* comm_attr: attributes on communicators: keyvals, copy callbacks at MPI_Comm_dup and MPI_Comm_dup_with_info (kept or dropped by their flag, failing), delete callbacks at overwrite, delete and free, extra_state, keyvals freed while in use, the predefined attributes, errors, and MPI_Finalize deleting MPI_COMM_SELF's attributes newest first. */
/* shmpi-test: np=1,2,3,4,7,16 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

static int rank, size;

/* What the callbacks of one keyval saw; the keyval's extra_state. */
struct seen {
    int copies, deletes;
    int keyval;
    MPI_Comm last_comm;
    intptr_t last_value;
    int copy_flag;          /* what the copy callback answers */
    int copy_rc;            /* and returns */
    int delete_rc;          /* what the delete callback returns */
};

static int copy_fn(MPI_Comm oldcomm, int keyval, void *extra_state,
                   void *in, void *out, int *flag)
{
    struct seen *s = extra_state;
    s->copies++;
    s->keyval = keyval;
    s->last_comm = oldcomm;
    s->last_value = (intptr_t)in;
    *(void **)out = (void *)((intptr_t)in + 1);  /* copies are value + 1 */
    *flag = s->copy_flag;
    return s->copy_rc;
}

static int delete_fn(MPI_Comm comm, int keyval, void *value,
                     void *extra_state)
{
    struct seen *s = extra_state;
    s->deletes++;
    s->keyval = keyval;
    s->last_comm = comm;
    s->last_value = (intptr_t)value;
    return s->delete_rc;
}

static void expect_attr(MPI_Comm c, int keyval, int want_flag,
                        intptr_t want_value, const char *what)
{
    int flag = -1;
    void *value = NULL;
    CHECK_MPI(MPI_Comm_get_attr(c, keyval, &value, &flag));
    CHECK(!!flag == want_flag, "%s: flag %d, expected %d", what, flag,
          want_flag);
    CHECK(!flag || (intptr_t)value == want_value,
          "%s: value %ld, expected %ld", what, (long)(intptr_t)value,
          (long)want_value);
}

static void copy_at_dup(void)
{
    struct seen keep = {.copy_flag = 1}, drop = {.copy_flag = 0};
    int kkeep, kdrop, knull, kdup;
    MPI_Comm c, d, e;
    CHECK_MPI(MPI_Comm_create_keyval(copy_fn, delete_fn, &kkeep, &keep));
    CHECK_MPI(MPI_Comm_create_keyval(copy_fn, delete_fn, &kdrop, &drop));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN,
                                     MPI_COMM_NULL_DELETE_FN, &knull, NULL));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN,
                                     MPI_COMM_NULL_DELETE_FN, &kdup, NULL));
    CHECK(kkeep != kdrop && kkeep != knull && kdrop != kdup,
          "two keyvals are the same");
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    expect_attr(c, kkeep, 0, 0, "before set");
    CHECK_MPI(MPI_Comm_set_attr(c, kkeep, (void *)(intptr_t)(10 + rank)));
    CHECK_MPI(MPI_Comm_set_attr(c, kdrop, (void *)20));
    CHECK_MPI(MPI_Comm_set_attr(c, knull, (void *)30));
    CHECK_MPI(MPI_Comm_set_attr(c, kdup, (void *)40));
    expect_attr(c, kkeep, 1, 10 + rank, "after set");

    CHECK_MPI(MPI_Comm_dup(c, &d));
    CHECK(keep.copies == 1 && keep.last_comm == c && keep.keyval == kkeep &&
          keep.last_value == 10 + rank, "copy callback: %d calls, comm/"
          "keyval/value wrong", keep.copies);
    CHECK(drop.copies == 1, "copy callback (flag 0): %d calls", drop.copies);
    expect_attr(d, kkeep, 1, 11 + rank, "dup, flag 1");
    expect_attr(d, kdrop, 0, 0, "dup, flag 0");
    expect_attr(d, knull, 0, 0, "dup, MPI_COMM_NULL_COPY_FN");
    expect_attr(d, kdup, 1, 40, "dup, MPI_COMM_DUP_FN");
    expect_attr(c, kkeep, 1, 10 + rank, "original after dup");
    CHECK(keep.deletes == 0 && drop.deletes == 0, "delete at dup");

    /* the copies of a copy, through MPI_Comm_dup_with_info */
    CHECK_MPI(MPI_Comm_dup_with_info(d, MPI_INFO_NULL, &e));
    CHECK(keep.copies == 2 && keep.last_comm == d &&
          keep.last_value == 11 + rank, "dup_with_info: copy callback");
    CHECK(drop.copies == 1, "dup_with_info copied an attribute d lacks");
    expect_attr(e, kkeep, 1, 12 + rank, "dup_with_info, flag 1");
    expect_attr(e, kdup, 1, 40, "dup_with_info, MPI_COMM_DUP_FN");

    /* freeing a dup deletes its own (copied) attributes only */
    MPI_Comm was = e;
    CHECK_MPI(MPI_Comm_free(&e));
    CHECK(e == MPI_COMM_NULL, "free did not reset the handle");
    CHECK(keep.deletes == 1 && keep.last_value == 12 + rank &&
          keep.last_comm == was && keep.keyval == kkeep,
          "free of a dup: %d deletes, value %ld", keep.deletes,
          (long)keep.last_value);
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK(keep.deletes == 2 && keep.last_value == 11 + rank,
          "free of dup: %d deletes", keep.deletes);
    CHECK(drop.deletes == 0, "free of dup deleted an attribute it lacks");
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK(keep.deletes == 3 && keep.last_value == 10 + rank &&
          drop.deletes == 1 && drop.last_value == 20,
          "free: deletes %d/%d", keep.deletes, drop.deletes);
    CHECK_MPI(MPI_Comm_free_keyval(&kkeep));
    CHECK_MPI(MPI_Comm_free_keyval(&kdrop));
    CHECK_MPI(MPI_Comm_free_keyval(&knull));
    CHECK_MPI(MPI_Comm_free_keyval(&kdup));
    CHECK(kkeep == MPI_KEYVAL_INVALID, "free_keyval did not reset it");
}

static void overwrite_and_delete(void)
{
    struct seen s = {.copy_flag = 1};
    int k;
    CHECK_MPI(MPI_Comm_create_keyval(copy_fn, delete_fn, &k, &s));
    /* on MPI_COMM_WORLD itself */
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k, (void *)1));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k, (void *)2));
    CHECK(s.deletes == 1 && s.last_value == 1 &&
          s.last_comm == MPI_COMM_WORLD && s.keyval == k,
          "overwrite: %d deletes, value %ld", s.deletes, (long)s.last_value);
    expect_attr(MPI_COMM_WORLD, k, 1, 2, "after overwrite");
    CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, k));
    CHECK(s.deletes == 2 && s.last_value == 2, "delete_attr: %d deletes",
          s.deletes);
    expect_attr(MPI_COMM_WORLD, k, 0, 0, "after delete_attr");
    /* one keyval, a different value on each of several communicators */
    MPI_Comm a, b;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &b));
    CHECK_MPI(MPI_Comm_set_attr(a, k, (void *)100));
    CHECK_MPI(MPI_Comm_set_attr(b, k, (void *)200));
    expect_attr(a, k, 1, 100, "a");
    expect_attr(b, k, 1, 200, "b");
    expect_attr(MPI_COMM_WORLD, k, 0, 0, "world, with a and b set");
    MPI_Comm was = b;
    CHECK_MPI(MPI_Comm_free(&b));
    CHECK(s.deletes == 3 && s.last_value == 200 && s.last_comm == was,
          "free b: %d deletes, value %ld", s.deletes, (long)s.last_value);
    expect_attr(a, k, 1, 100, "a after freeing b");
    CHECK_MPI(MPI_Comm_free(&a));
    CHECK(s.deletes == 4 && s.last_value == 100, "free a");
    CHECK(s.copies == 0, "copy callback with no dup");
    CHECK_MPI(MPI_Comm_free_keyval(&k));
}

/* A keyval freed while attributes use it: those keep their callbacks. */
static void free_keyval_in_use(void)
{
    struct seen s = {.copy_flag = 1};
    int k, saved;
    MPI_Comm c, d;
    CHECK_MPI(MPI_Comm_create_keyval(copy_fn, delete_fn, &k, &s));
    saved = k;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK_MPI(MPI_Comm_set_attr(c, k, (void *)7));
    CHECK_MPI(MPI_Comm_free_keyval(&k));
    CHECK(k == MPI_KEYVAL_INVALID, "free_keyval did not reset it");
    CHECK_MPI(MPI_Comm_dup(c, &d));    /* still copied */
    CHECK(s.copies == 1 && s.keyval == saved, "copy after free_keyval");
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK(s.deletes == 1 && s.last_value == 8 && s.keyval == saved,
          "delete after free_keyval: %d deletes, value %ld", s.deletes,
          (long)s.last_value);
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK(s.deletes == 2 && s.last_value == 7, "delete at the last free");
}

/* Failing callbacks make the call fail, with the callback's code. */
static void failing_callbacks(void)
{
    struct seen s = {.copy_flag = 1, .copy_rc = MPI_ERR_OTHER};
    int k;
    MPI_Comm c, d = MPI_COMM_NULL;
    CHECK_MPI(MPI_Comm_create_keyval(copy_fn, delete_fn, &k, &s));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK_MPI(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_attr(c, k, (void *)5));
    CHECK_CLASS(MPI_Comm_dup(c, &d), MPI_ERR_OTHER);
    CHECK(s.copies == 1, "failing copy: %d calls", s.copies);
    s.copy_rc = MPI_SUCCESS;
    s.delete_rc = MPI_ERR_OTHER;
    CHECK_CLASS(MPI_Comm_delete_attr(c, k), MPI_ERR_OTHER);
    CHECK(s.deletes == 1, "failing delete: %d calls", s.deletes);
    s.delete_rc = MPI_SUCCESS;
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Comm_free_keyval(&k));
}

/* The predefined attributes, cached on MPI_COMM_WORLD (8.1.2, 8.5,
   10.5.1, 10.5.3); every implementation copies them to dups of world
   but MPI_LASTUSEDCODE. */
static void predefined(void)
{
    static const struct { int key; const char *name; } keys[] = {
        {MPI_TAG_UB, "MPI_TAG_UB"},
        {MPI_HOST, "MPI_HOST"},
        {MPI_IO, "MPI_IO"},
        {MPI_WTIME_IS_GLOBAL, "MPI_WTIME_IS_GLOBAL"},
        {MPI_UNIVERSE_SIZE, "MPI_UNIVERSE_SIZE"},
        {MPI_LASTUSEDCODE, "MPI_LASTUSEDCODE"},
        {MPI_APPNUM, "MPI_APPNUM"},
    };
    int value[7];
    for (int i = 0; i < 7; i++) {
        int *v = NULL, flag = 0;
        CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, keys[i].key, &v, &flag));
        CHECK(flag && v, "%s is not set on MPI_COMM_WORLD", keys[i].name);
        value[i] = *v;
    }
    CHECK(value[0] >= 32767, "MPI_TAG_UB is %d", value[0]);
    CHECK(value[1] == MPI_PROC_NULL || (value[1] >= 0 && value[1] < size),
          "MPI_HOST is %d", value[1]);
    CHECK(value[2] == MPI_PROC_NULL || value[2] == MPI_ANY_SOURCE ||
              (value[2] >= 0 && value[2] < size), "MPI_IO is %d", value[2]);
    CHECK(value[3] == 0 || value[3] == 1, "MPI_WTIME_IS_GLOBAL is %d",
          value[3]);
    CHECK(value[4] > 0, "MPI_UNIVERSE_SIZE is %d", value[4]);
    CHECK(value[5] >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE is %d", value[5]);
    CHECK(value[6] == 0, "MPI_APPNUM is %d", value[6]);

    /* the largest tag works */
    int got = -1, me = rank;
    CHECK_MPI(MPI_Sendrecv(&me, 1, MPI_INT, rank, value[0], &got, 1, MPI_INT,
                           rank, value[0], MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(got == rank, "send to self with tag MPI_TAG_UB");

    MPI_Comm d;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    int *v = NULL, flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(d, MPI_TAG_UB, &v, &flag));
    CHECK(flag && *v == value[0], "MPI_TAG_UB on a dup of world");
    CHECK_MPI(MPI_Comm_free(&d));
}

/* Errors every implementation reports with the same class; the others
   are in comm_attr_ext.c. */
static void errors(void)
{
    int k, flag;
    void *v;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN,
                                       MPI_COMM_NULL_DELETE_FN, NULL, NULL),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &v,
                                  &flag), MPI_ERR_KEYVAL);
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN,
                                     MPI_COMM_NULL_DELETE_FN, &k, NULL));
    CHECK_CLASS(MPI_Comm_set_attr(MPI_COMM_NULL, k, NULL), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_get_attr(MPI_COMM_NULL, k, &v, &flag),
                MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_delete_attr(MPI_COMM_NULL, k), MPI_ERR_COMM);
    CHECK_MPI(MPI_Comm_free_keyval(&k));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

/*
 * MPI_Finalize first frees MPI_COMM_SELF, running the delete callbacks of
 * its attributes in the reverse order they were set (8.7.1), while MPI
 * still works (MPI_Finalized says false).  The callbacks log here; main
 * checks the log after MPI_Finalize returns.
 */
static struct {
    int n;
    int keyval[4];
    int finalized;          /* MPI_Finalized inside a callback: 0 */
    int world_size;         /* an MPI call inside a callback */
} at_finalize = {.finalized = -1};
static int self_keys[3];

static int finalize_delete(MPI_Comm comm, int keyval, void *value,
                           void *extra_state)
{
    if (at_finalize.n < 4)
        at_finalize.keyval[at_finalize.n] = keyval;
    at_finalize.n++;
    MPI_Finalized(&at_finalize.finalized);
    MPI_Comm_size(MPI_COMM_WORLD, &at_finalize.world_size);
    return comm == MPI_COMM_SELF && value == extra_state ? MPI_SUCCESS
                                                         : MPI_ERR_OTHER;
}

static void set_self_attrs(void)
{
    static int tokens[3];
    for (int i = 0; i < 3; i++)
        CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN,
                                         finalize_delete, &self_keys[i],
                                         &tokens[i]));
    /* set in the order 1, 0, 2: deleted 2, 0, 1 */
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, self_keys[1], &tokens[1]));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, self_keys[0], &tokens[0]));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, self_keys[2], &tokens[2]));
    int k = self_keys[1];
    CHECK_MPI(MPI_Comm_free_keyval(&k)); /* still deleted at finalize */
    CHECK(at_finalize.n == 0, "a delete callback ran before MPI_Finalize");
}

static void check_finalize_log(void)
{
    CHECK(at_finalize.n == 3, "MPI_Finalize ran %d delete callbacks on "
          "MPI_COMM_SELF, expected 3", at_finalize.n);
    CHECK(at_finalize.keyval[0] == self_keys[2] &&
              at_finalize.keyval[1] == self_keys[0] &&
              at_finalize.keyval[2] == self_keys[1],
          "MPI_Finalize deleted MPI_COMM_SELF's attributes in the order "
          "%d %d %d, expected %d %d %d", at_finalize.keyval[0],
          at_finalize.keyval[1], at_finalize.keyval[2], self_keys[2],
          self_keys[0], self_keys[1]);
    CHECK(at_finalize.finalized == 0,
          "MPI_Finalized said %d in a delete callback", at_finalize.finalized);
    CHECK(at_finalize.world_size == size, "MPI_Comm_size in a delete "
          "callback gave %d", at_finalize.world_size);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    copy_at_dup();
    overwrite_and_delete();
    free_keyval_in_use();
    failing_callbacks();
    predefined();
    errors();
    set_self_attrs();
    CHECK_MPI(MPI_Finalize());
    check_finalize_log();
    if (rank == 0)
        printf("comm_attr at np=%d: ok\n", size);
    return 0;
}
