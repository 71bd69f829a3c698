/* dt_attr: attributes on datatypes: copy callbacks at MPI_Type_dup (kept or dropped by their flag), delete callbacks at overwrite, delete and free, and keyvals freed while in use. */
/* shmpi-test: np=1,2 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

/* What the callbacks saw: one record per keyval, as its extra_state. */
struct seen {
    int copies, deletes;
    int keyval;
    MPI_Datatype last_type;
    intptr_t last_value;
    int copy_flag;          /* what the copy callback answers */
    int copy_rc;            /* and returns */
};

static int copy_fn(MPI_Datatype oldtype, int keyval, void *extra_state,
                   void *in, void *out, int *flag)
{
    struct seen *s = extra_state;
    s->copies++;
    s->keyval = keyval;
    s->last_type = oldtype;
    s->last_value = (intptr_t)in;
    *(void **)out = (void *)((intptr_t)in + 1);  /* copies are value + 1 */
    *flag = s->copy_flag;
    return s->copy_rc;
}

static int delete_fn(MPI_Datatype type, int keyval, void *value,
                     void *extra_state)
{
    struct seen *s = extra_state;
    s->deletes++;
    s->keyval = keyval;
    s->last_type = type;
    s->last_value = (intptr_t)value;
    return MPI_SUCCESS;
}

static intptr_t get(MPI_Datatype t, int keyval, int *flag)
{
    void *value = NULL;
    CHECK_MPI(MPI_Type_get_attr(t, keyval, &value, flag));
    return (intptr_t)value;
}

static void expect_attr(MPI_Datatype t, int keyval, int want_flag,
                        intptr_t want_value, const char *what)
{
    int flag;
    intptr_t v = get(t, keyval, &flag);
    CHECK(!!flag == want_flag, "%s: flag %d, expected %d", what, flag,
          want_flag);
    CHECK(!flag || v == want_value, "%s: value %ld, expected %ld", what,
          (long)v, (long)want_value);
}

static void copy_at_dup(void)
{
    struct seen keep = {.copy_flag = 1}, drop = {.copy_flag = 0};
    int kkeep, kdrop, knull, kdup;
    MPI_Datatype t, d;
    CHECK_MPI(MPI_Type_create_keyval(copy_fn, delete_fn, &kkeep, &keep));
    CHECK_MPI(MPI_Type_create_keyval(copy_fn, delete_fn, &kdrop, &drop));
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN,
                                     MPI_TYPE_NULL_DELETE_FN, &knull, NULL));
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN,
                                     MPI_TYPE_NULL_DELETE_FN, &kdup, NULL));
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
    expect_attr(t, kkeep, 0, 0, "before set");
    CHECK_MPI(MPI_Type_set_attr(t, kkeep, (void *)10));
    CHECK_MPI(MPI_Type_set_attr(t, kdrop, (void *)20));
    CHECK_MPI(MPI_Type_set_attr(t, knull, (void *)30));
    CHECK_MPI(MPI_Type_set_attr(t, kdup, (void *)40));
    expect_attr(t, kkeep, 1, 10, "after set");

    CHECK_MPI(MPI_Type_dup(t, &d));
    CHECK(keep.copies == 1 && keep.last_type == t && keep.keyval == kkeep &&
          keep.last_value == 10, "copy callback: %d calls, type/keyval/"
          "value wrong", keep.copies);
    CHECK(drop.copies == 1, "copy callback (flag 0): %d calls", drop.copies);
    expect_attr(d, kkeep, 1, 11, "dup, flag 1");
    expect_attr(d, kdrop, 0, 0, "dup, flag 0");
    expect_attr(d, knull, 0, 0, "dup, MPI_TYPE_NULL_COPY_FN");
    expect_attr(d, kdup, 1, 40, "dup, MPI_TYPE_DUP_FN");
    expect_attr(t, kkeep, 1, 10, "original after dup");
    CHECK(keep.deletes == 0 && drop.deletes == 0, "delete at dup");

    /* freeing the dup deletes its own (copied) attribute only */
    CHECK_MPI(MPI_Type_free(&d));
    CHECK(keep.deletes == 1 && keep.last_value == 11,
          "free of dup: %d deletes, value %ld", keep.deletes,
          (long)keep.last_value);
    CHECK(drop.deletes == 0, "free of dup deleted an attribute it lacks");
    CHECK_MPI(MPI_Type_free(&t));
    CHECK(keep.deletes == 2 && keep.last_value == 10 && drop.deletes == 1 &&
          drop.last_value == 20, "free: deletes %d/%d", keep.deletes,
          drop.deletes);
    CHECK_MPI(MPI_Type_free_keyval(&kkeep));
    CHECK_MPI(MPI_Type_free_keyval(&kdrop));
    CHECK_MPI(MPI_Type_free_keyval(&knull));
    CHECK_MPI(MPI_Type_free_keyval(&kdup));
    CHECK(kkeep == MPI_KEYVAL_INVALID, "free_keyval did not reset it");
}

static void overwrite_and_delete(void)
{
    struct seen s = {.copy_flag = 1};
    int k;
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_create_keyval(copy_fn, delete_fn, &k, &s));
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &t));
    CHECK_MPI(MPI_Type_set_attr(t, k, (void *)1));
    CHECK_MPI(MPI_Type_set_attr(t, k, (void *)2));
    CHECK(s.deletes == 1 && s.last_value == 1 && s.last_type == t,
          "overwrite: %d deletes, value %ld", s.deletes, (long)s.last_value);
    expect_attr(t, k, 1, 2, "after overwrite");
    CHECK_MPI(MPI_Type_delete_attr(t, k));
    CHECK(s.deletes == 2 && s.last_value == 2, "delete_attr: %d deletes",
          s.deletes);
    expect_attr(t, k, 0, 0, "after delete_attr");
    CHECK_MPI(MPI_Type_free(&t));
    CHECK(s.deletes == 2, "free called delete for a deleted attribute");
    CHECK_MPI(MPI_Type_free_keyval(&k));
}

static void free_keyval_in_use(void)
{
    struct seen s = {.copy_flag = 1};
    int k, k_saved;
    MPI_Datatype t, d;
    CHECK_MPI(MPI_Type_create_keyval(copy_fn, delete_fn, &k, &s));
    k_saved = k;
    CHECK_MPI(MPI_Type_contiguous(1, MPI_INT, &t));
    CHECK_MPI(MPI_Type_set_attr(t, k, (void *)5));
    CHECK_MPI(MPI_Type_free_keyval(&k));
    CHECK(k == MPI_KEYVAL_INVALID, "free_keyval did not reset it");
    /* the attribute lives on: copied at dup, deleted at free */
    CHECK_MPI(MPI_Type_dup(t, &d));
    CHECK(s.copies == 1, "copy callback of a freed keyval: %d calls",
          s.copies);
    CHECK_MPI(MPI_Type_free(&d));
    CHECK(s.deletes == 1 && s.last_value == 6 && s.keyval == k_saved,
          "delete callback of a freed keyval (dup): %d calls", s.deletes);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK(s.deletes == 2 && s.last_value == 5 && s.keyval == k_saved,
          "delete callback of a freed keyval: %d calls", s.deletes);
}

static void predefined_types(void)
{
    int k;
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN,
                                     MPI_TYPE_NULL_DELETE_FN, &k, NULL));
    CHECK_MPI(MPI_Type_set_attr(MPI_INT, k, (void *)7));
    expect_attr(MPI_INT, k, 1, 7, "on MPI_INT");
    expect_attr(MPI_DOUBLE, k, 0, 0, "not on MPI_DOUBLE");
    MPI_Datatype d;
    CHECK_MPI(MPI_Type_dup(MPI_INT, &d));
    expect_attr(d, k, 1, 7, "dup of MPI_INT");
    CHECK_MPI(MPI_Type_free(&d));
    CHECK_MPI(MPI_Type_delete_attr(MPI_INT, k));
    expect_attr(MPI_INT, k, 0, 0, "deleted from MPI_INT");
    CHECK_MPI(MPI_Type_free_keyval(&k));
}

static void failing_copy(void)
{
    struct seen s = {.copy_flag = 1, .copy_rc = MPI_ERR_OTHER};
    int k;
    MPI_Datatype t, d;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Type_create_keyval(copy_fn, delete_fn, &k, &s));
    CHECK_MPI(MPI_Type_contiguous(1, MPI_INT, &t));
    CHECK_MPI(MPI_Type_set_attr(t, k, (void *)1));
    /* the dup fails (6.7.2); the class it reports is the library's */
    CHECK(MPI_Type_dup(t, &d) != MPI_SUCCESS, "dup succeeded although a "
          "copy callback failed");
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_free_keyval(&k));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    copy_at_dup();
    overwrite_and_delete();
    free_keyval_in_use();
    predefined_types();
    failing_copy();
    MPI_Finalize();
    return 0;
}
