/* attr_mpi1: the MPI-1 attribute calls (deprecated, MPI-3.1 15.1): MPI_Keyval_create/free, MPI_Attr_put/get/delete, copy at MPI_Comm_dup through a program's callback, MPI_DUP_FN and MPI_NULL_COPY_FN, delete callbacks at overwrite, MPI_Attr_delete and MPI_Comm_free, keys shared with the MPI-2 calls, and their errors. */
/* shmpi-test: np=1,2,4 timeout=30 */
/* SPDX-License-Identifier: BSD-3-Clause */
/* The calls under test are deprecated: their warnings are expected. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include "check.h"

#include <stdint.h>

static int rank;

/* What the callbacks of one keyval saw; the keyval's extra_state. */
struct seen {
    int copies, deletes, keyval;
    MPI_Comm last_comm;
    intptr_t last_value;
};

static int copy_fn(MPI_Comm oldcomm, int keyval, void *extra_state,
                   void *in, void *out, int *flag)
{
    struct seen *s = extra_state;
    s->copies++;
    s->keyval = keyval;
    s->last_comm = oldcomm;
    s->last_value = (intptr_t)in;
    *(void **)out = (void *)((intptr_t)in * 10);  /* copies are value * 10 */
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm comm, int keyval, void *value,
                     void *extra_state)
{
    struct seen *s = extra_state;
    s->deletes++;
    s->keyval = keyval;
    s->last_comm = comm;
    s->last_value = (intptr_t)value;
    return MPI_SUCCESS;
}

static void expect_attr(MPI_Comm c, int keyval, int want_flag,
                        intptr_t want_value, const char *what)
{
    int flag = -1;
    void *value = NULL;
    CHECK_MPI(MPI_Attr_get(c, keyval, &value, &flag));
    CHECK(!!flag == want_flag, "%s: flag %d, expected %d", what, flag,
          want_flag);
    CHECK(!flag || (intptr_t)value == want_value,
          "%s: value %ld, expected %ld", what, (long)(intptr_t)value,
          (long)want_value);
}

static void put_get_delete(void)
{
    struct seen s = {0};
    int k;
    CHECK_MPI(MPI_Keyval_create(copy_fn, delete_fn, &k, &s));
    CHECK(k != MPI_KEYVAL_INVALID, "MPI_Keyval_create gave no keyval");
    expect_attr(MPI_COMM_WORLD, k, 0, 0, "before put");
    CHECK_MPI(MPI_Attr_put(MPI_COMM_WORLD, k, (void *)(intptr_t)(5 + rank)));
    expect_attr(MPI_COMM_WORLD, k, 1, 5 + rank, "after put");
    /* a new value replaces the old one through the delete callback */
    CHECK_MPI(MPI_Attr_put(MPI_COMM_WORLD, k, (void *)7));
    CHECK(s.deletes == 1 && s.last_value == 5 + rank && s.keyval == k &&
          s.last_comm == MPI_COMM_WORLD,
          "overwrite: %d deletes, value %ld", s.deletes, (long)s.last_value);
    expect_attr(MPI_COMM_WORLD, k, 1, 7, "after overwrite");
    CHECK_MPI(MPI_Attr_delete(MPI_COMM_WORLD, k));
    CHECK(s.deletes == 2 && s.last_value == 7,
          "MPI_Attr_delete: %d deletes, value %ld", s.deletes,
          (long)s.last_value);
    expect_attr(MPI_COMM_WORLD, k, 0, 0, "after MPI_Attr_delete");
    CHECK(s.copies == 0, "copy callback with no dup");
    CHECK_MPI(MPI_Keyval_free(&k));
    CHECK(k == MPI_KEYVAL_INVALID, "MPI_Keyval_free did not reset it");
}

/* Copy at MPI_Comm_dup: the program's callback, MPI_DUP_FN,
   MPI_NULL_COPY_FN; delete callbacks at MPI_Comm_free. */
static void copy_at_dup(void)
{
    struct seen mine = {0}, dup_seen = {0};
    int kmine, kdup, knull, knodel;
    CHECK_MPI(MPI_Keyval_create(copy_fn, delete_fn, &kmine, &mine));
    CHECK_MPI(MPI_Keyval_create(MPI_DUP_FN, delete_fn, &kdup, &dup_seen));
    CHECK_MPI(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN,
                                &knull, NULL));
    CHECK_MPI(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &knodel,
                                NULL));
    CHECK(kmine != kdup && kdup != knull && knull != knodel &&
          kmine != knodel, "two keyvals are the same");
    MPI_Comm c, d;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK_MPI(MPI_Attr_put(c, kmine, (void *)(intptr_t)(3 + rank)));
    CHECK_MPI(MPI_Attr_put(c, kdup, (void *)40));
    CHECK_MPI(MPI_Attr_put(c, knull, (void *)50));
    CHECK_MPI(MPI_Attr_put(c, knodel, (void *)60));

    CHECK_MPI(MPI_Comm_dup(c, &d));
    CHECK(mine.copies == 1 && mine.last_comm == c && mine.keyval == kmine &&
          mine.last_value == 3 + rank, "copy callback: %d calls",
          mine.copies);
    expect_attr(d, kmine, 1, 10 * (3 + rank), "dup, the program's copy");
    expect_attr(d, kdup, 1, 40, "dup, MPI_DUP_FN");
    expect_attr(d, knull, 0, 0, "dup, MPI_NULL_COPY_FN");
    expect_attr(d, knodel, 1, 60, "dup, MPI_DUP_FN with MPI_NULL_DELETE_FN");
    expect_attr(c, kmine, 1, 3 + rank, "original after dup");
    CHECK(mine.deletes == 0 && dup_seen.deletes == 0, "delete at dup");

    MPI_Comm was = d;
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK(mine.deletes == 1 && mine.last_comm == was &&
          mine.last_value == 10 * (3 + rank),
          "free of the dup: %d deletes, value %ld", mine.deletes,
          (long)mine.last_value);
    CHECK(dup_seen.deletes == 1 && dup_seen.last_value == 40,
          "free of the dup, MPI_DUP_FN key: %d deletes", dup_seen.deletes);
    was = c;
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK(mine.deletes == 2 && mine.last_comm == was &&
          mine.last_value == 3 + rank, "free: %d deletes", mine.deletes);
    CHECK(dup_seen.deletes == 2, "free, MPI_DUP_FN key: %d deletes",
          dup_seen.deletes);
    CHECK_MPI(MPI_Keyval_free(&kmine));
    CHECK_MPI(MPI_Keyval_free(&kdup));
    CHECK_MPI(MPI_Keyval_free(&knull));
    CHECK_MPI(MPI_Keyval_free(&knodel));
}

/* The old and new calls name the same keys and attributes. */
static void mixed_with_mpi2(void)
{
    struct seen s = {0};
    int kold, knew;
    CHECK_MPI(MPI_Keyval_create(copy_fn, delete_fn, &kold, &s));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN,
                                     &knew, NULL));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, kold, (void *)11));
    expect_attr(MPI_COMM_WORLD, kold, 1, 11, "set by MPI_Comm_set_attr");
    CHECK_MPI(MPI_Attr_put(MPI_COMM_WORLD, knew, (void *)12));
    int flag = 0;
    void *v = NULL;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, knew, &v, &flag));
    CHECK(flag && (intptr_t)v == 12, "MPI_Comm_get_attr of MPI_Attr_put's "
          "value: flag %d, value %ld", flag, (long)(intptr_t)v);
    CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, kold));
    CHECK(s.deletes == 1 && s.last_value == 11,
          "MPI_Comm_delete_attr ran the MPI-1 delete callback %d times",
          s.deletes);
    CHECK_MPI(MPI_Attr_delete(MPI_COMM_WORLD, knew));
    expect_attr(MPI_COMM_WORLD, knew, 0, 0, "after MPI_Attr_delete");
    CHECK_MPI(MPI_Comm_free_keyval(&kold));
    CHECK_MPI(MPI_Keyval_free(&knew));
    CHECK(kold == MPI_KEYVAL_INVALID && knew == MPI_KEYVAL_INVALID,
          "keyvals not reset by their free");
    /* the predefined attributes read through MPI_Attr_get */
    int *tag_ub = NULL;
    CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag));
    CHECK(flag && tag_ub && *tag_ub >= 32767, "MPI_TAG_UB through "
          "MPI_Attr_get: flag %d, value %d", flag, tag_ub ? *tag_ub : -1);
}

/* (MPI_Attr_get on MPI_COMM_NULL is left out: Open MPI 4.1 answers it
   with MPI_SUCCESS; the classes for bad keys are shmpi's choice, in
   attr_mpi1_ext.) */
static void errors(void)
{
    int k;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &k,
                                NULL));
    CHECK_CLASS(MPI_Attr_put(MPI_COMM_NULL, k, (void *)1), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Attr_delete(MPI_COMM_NULL, k), MPI_ERR_COMM);
    CHECK_MPI(MPI_Keyval_free(&k));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    put_get_delete();
    copy_at_dup();
    mixed_with_mpi2();
    errors();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
