/* comm_attr_ext: shmpi's own choices for communicator attributes: MPI_ERR_KEYVAL for predefined, freed and foreign keys, the communicators that carry the predefined attributes and their values, callback order at dup and free, a failing delete callback at free and at overwrite. */
/* shmpi-test: np=1,2,3,4,7,16 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <limits.h>
#include <stdint.h>

static int rank, size;

/* The keyvals the ordered callbacks log, in call order. */
static struct {
    int n;
    int keyval[8];
    char what[8];           /* 'c' copy, 'd' delete */
} calls;

static int logging_copy(MPI_Comm oldcomm, int keyval, void *extra_state,
                        void *in, void *out, int *flag)
{
    (void)oldcomm;
    (void)extra_state;
    calls.what[calls.n] = 'c';
    calls.keyval[calls.n++] = keyval;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int logging_delete(MPI_Comm comm, int keyval, void *value,
                          void *extra_state)
{
    (void)comm;
    (void)value;
    calls.what[calls.n] = 'd';
    calls.keyval[calls.n++] = keyval;
    return extra_state ? *(int *)extra_state : MPI_SUCCESS;
}

static void expect_calls(char what, int n, const int *keyvals,
                         const char *when)
{
    CHECK(calls.n == n, "%s: %d callbacks, expected %d", when, calls.n, n);
    for (int i = 0; i < n; i++)
        CHECK(calls.what[i] == what && calls.keyval[i] == keyvals[i],
              "%s: callback %d was %c on %d, expected %c on %d", when, i,
              calls.what[i], calls.keyval[i], what, keyvals[i]);
    calls.n = 0;
}

/* Copied oldest first, deleted newest first; a key set again keeps the
   place of its first setting. */
static void order(void)
{
    int k[3];
    MPI_Comm c, d;
    for (int i = 0; i < 3; i++)
        CHECK_MPI(MPI_Comm_create_keyval(logging_copy, logging_delete, &k[i],
                                         NULL));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK_MPI(MPI_Comm_set_attr(c, k[2], NULL));
    CHECK_MPI(MPI_Comm_set_attr(c, k[0], NULL));
    CHECK_MPI(MPI_Comm_set_attr(c, k[1], NULL));
    CHECK_MPI(MPI_Comm_set_attr(c, k[2], NULL)); /* replaced: deleted */
    expect_calls('d', 1, (int[]){k[2]}, "overwrite");
    CHECK_MPI(MPI_Comm_dup(c, &d));
    expect_calls('c', 3, (int[]){k[2], k[0], k[1]}, "dup");
    CHECK_MPI(MPI_Comm_free(&d));
    expect_calls('d', 3, (int[]){k[1], k[0], k[2]}, "free");
    CHECK_MPI(MPI_Comm_free(&c));
    expect_calls('d', 3, (int[]){k[1], k[0], k[2]}, "free of the original");
    for (int i = 0; i < 3; i++)
        CHECK_MPI(MPI_Comm_free_keyval(&k[i]));
}

/* A delete callback that fails: MPI_Comm_free reports it, runs the other
   callbacks and frees the communicator all the same; a failed overwrite
   keeps the old value. */
static void failing_delete(void)
{
    int fail = MPI_ERR_OTHER, k[2];
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_create_keyval(logging_copy, logging_delete, &k[0],
                                     NULL));
    CHECK_MPI(MPI_Comm_create_keyval(logging_copy, logging_delete, &k[1],
                                     &fail));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK_MPI(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_attr(c, k[0], (void *)1));
    CHECK_MPI(MPI_Comm_set_attr(c, k[1], (void *)2));
    CHECK_CLASS(MPI_Comm_set_attr(c, k[1], (void *)3), MPI_ERR_OTHER);
    void *v = NULL;
    int flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(c, k[1], &v, &flag));
    CHECK(flag && v == (void *)2, "a failed overwrite changed the value");
    CHECK_CLASS(MPI_Comm_delete_attr(c, k[1]), MPI_ERR_OTHER);
    CHECK_MPI(MPI_Comm_get_attr(c, k[1], &v, &flag));
    CHECK(flag && v == (void *)2, "a failed delete removed the attribute");
    calls.n = 0;
    CHECK_CLASS(MPI_Comm_free(&c), MPI_ERR_OTHER);
    CHECK(c == MPI_COMM_NULL, "the communicator was not freed");
    expect_calls('d', 2, (int[]){k[1], k[0]}, "failing free");
    CHECK_MPI(MPI_Comm_free_keyval(&k[0]));
    CHECK_MPI(MPI_Comm_free_keyval(&k[1]));
}

static int has(MPI_Comm c, int key, int *value)
{
    int *v = NULL, flag = -1;
    CHECK_MPI(MPI_Comm_get_attr(c, key, &v, &flag));
    if (flag && value)
        *value = *v;
    return flag;
}

/* World has them all, its dups all but MPI_LASTUSEDCODE, other
   communicators none. */
static void predefined(void)
{
    int v = 0;
    CHECK(has(MPI_COMM_WORLD, MPI_TAG_UB, &v) && v == INT_MAX, "MPI_TAG_UB");
    CHECK(has(MPI_COMM_WORLD, MPI_HOST, &v) && v == MPI_PROC_NULL,
          "MPI_HOST");
    CHECK(has(MPI_COMM_WORLD, MPI_IO, &v) && v == MPI_ANY_SOURCE, "MPI_IO");
    CHECK(has(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &v) && v == 1,
          "MPI_WTIME_IS_GLOBAL");
    CHECK(has(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &v) && v == size,
          "MPI_UNIVERSE_SIZE");
    CHECK(has(MPI_COMM_WORLD, MPI_APPNUM, &v) && v == 0, "MPI_APPNUM");
    int last = 0, cls;
    CHECK(has(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last), "MPI_LASTUSEDCODE");
    CHECK_MPI(MPI_Add_error_class(&cls));
    CHECK(has(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v) && v == cls && v > last,
          "MPI_LASTUSEDCODE %d after adding class %d", v, cls);

    MPI_Comm d, dd, s;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    CHECK_MPI(MPI_Comm_dup(d, &dd));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &s));
    int keys[] = {MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL,
                  MPI_UNIVERSE_SIZE, MPI_APPNUM};
    for (int i = 0; i < 6; i++) {
        CHECK(has(d, keys[i], NULL) && has(dd, keys[i], NULL),
              "key %d not on the dups of world", keys[i]);
        CHECK(!has(s, keys[i], NULL) && !has(MPI_COMM_SELF, keys[i], NULL),
              "key %d on a split or on MPI_COMM_SELF", keys[i]);
    }
    CHECK(!has(d, MPI_LASTUSEDCODE, NULL), "MPI_LASTUSEDCODE on a dup");
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK_MPI(MPI_Comm_free(&dd));
    CHECK_MPI(MPI_Comm_free(&s));
}

static void errors(void)
{
    int k, saved, tk, flag, pre = MPI_TAG_UB;
    void *v;
    MPI_Comm w = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Comm_set_attr(w, MPI_TAG_UB, NULL), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Comm_delete_attr(w, MPI_APPNUM), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Comm_free_keyval(&pre), MPI_ERR_KEYVAL);
    CHECK(pre == MPI_TAG_UB, "a failed free_keyval changed the key");
    CHECK_CLASS(MPI_Comm_get_attr(w, MPI_WIN_BASE, &v, &flag),
                MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Comm_get_attr(w, 12345, &v, &flag), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Comm_get_attr(w, MPI_TAG_UB, NULL, &flag), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_get_attr(w, MPI_TAG_UB, &v, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_free_keyval(NULL), MPI_ERR_ARG);

    /* keys of the other kind */
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN,
                                     MPI_TYPE_NULL_DELETE_FN, &tk, NULL));
    CHECK_CLASS(MPI_Comm_set_attr(w, tk, NULL), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Comm_get_attr(w, tk, &v, &flag), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Comm_delete_attr(w, tk), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Comm_free_keyval(&tk), MPI_ERR_KEYVAL);
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN,
                                     MPI_COMM_NULL_DELETE_FN, &k, NULL));
    CHECK_CLASS(MPI_Type_set_attr(MPI_INT, k, NULL), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Type_free_keyval(&k), MPI_ERR_KEYVAL);
    CHECK_MPI(MPI_Type_free_keyval(&tk));

    /* deleting a key that is not set is no error */
    CHECK_MPI(MPI_Comm_delete_attr(w, k));
    /* a freed key is no key any more, attributes or not */
    CHECK_MPI(MPI_Comm_set_attr(w, k, NULL));
    saved = k;
    CHECK_MPI(MPI_Comm_free_keyval(&k));
    CHECK_CLASS(MPI_Comm_free_keyval(&saved), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Comm_get_attr(w, saved, &v, &flag), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Comm_set_attr(w, saved, NULL), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Comm_delete_attr(w, saved), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Comm_free_keyval(&k), MPI_ERR_KEYVAL); /* INVALID */
    CHECK_MPI(MPI_Comm_set_errhandler(w, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    order();
    failing_delete();
    predefined();
    errors();
    if (rank == 0)
        printf("comm_attr_ext at np=%d: ok\n", size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
