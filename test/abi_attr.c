/* abi_attr: keyvals and attributes on communicators and datatypes through the standard ABI: the predefined keys (MPI_TAG_UB 501...), copy and delete callbacks given the ABI's handles and keyvals, MPI_COMM_DUP_FN, MPI_KEYVAL_INVALID. */
/* shmpi-test: np=1,2 timeout=60 ext abi */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Built against include/abi/mpi.h: MPI_TAG_UB is 501, MPI_KEYVAL_INVALID
 * 0, MPI_COMM_DUP_FN (function pointer) 1, MPI_COMM_WORLD 0x101.  The
 * callbacks record what they were given, and the checks compare it with
 * the ABI's values.
 */
#include "check.h"

#include <stdint.h>

static int copies, deletes, last_keyval, error_from_copy;
static MPI_Comm last_comm;
static MPI_Datatype last_type;

static int comm_copy(MPI_Comm old, int keyval, void *extra, void *in,
                     void *out, int *flag)
{
    copies++;
    last_comm = old;
    last_keyval = keyval;
    if (error_from_copy)
        return MPI_ERR_OTHER;
    *(intptr_t *)out = (intptr_t)in + *(int *)extra;
    *flag = 1;
    return MPI_SUCCESS;
}

static int comm_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)value;
    (void)extra;
    deletes++;
    last_comm = comm;
    last_keyval = keyval;
    return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype t, int keyval, void *value, void *extra)
{
    (void)value;
    (void)extra;
    deletes++;
    last_type = t;
    last_keyval = keyval;
    return MPI_SUCCESS;
}

static void check_predefined(void)
{
    int *v = NULL, flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v, &flag));
    CHECK(flag && v && *v >= 32767, "MPI_TAG_UB (501)");
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &v, &flag));
    CHECK(flag && (*v == 0 || *v == 1), "MPI_WTIME_IS_GLOBAL");
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &v, &flag));
    CHECK(flag && (*v == MPI_PROC_NULL || *v >= 0), "MPI_HOST %d", *v);
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_IO, &v, &flag));
    CHECK(flag && (*v == MPI_ANY_SOURCE || *v == MPI_PROC_NULL || *v >= 0),
          "MPI_IO %d", *v);
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v, &flag));
    CHECK(flag && *v >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE %d", *v);
    CHECK_CLASS(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &v, &flag),
                MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, NULL),
                MPI_ERR_KEYVAL);
}

static void check_comm_keyvals(void)
{
    int k = MPI_KEYVAL_INVALID, add = 5;
    CHECK_MPI(MPI_Comm_create_keyval(comm_copy, comm_delete, &k, &add));
    CHECK(k != MPI_KEYVAL_INVALID && (k < 501 || k > 507) && (k < 601 || k > 605),
          "a keyval of the program's is none of the fixed values: %d", k);
    MPI_Comm dup, dup2;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_set_attr(dup, k, (void *)(intptr_t)37));
    CHECK_MPI(MPI_Comm_dup(dup, &dup2));
    CHECK(copies == 1 && last_comm == dup && last_keyval == k,
          "copy callback given %#lx, keyval %d", (unsigned long)(uintptr_t)last_comm,
          last_keyval);
    intptr_t got = 0;
    int flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(dup2, k, &got, &flag));
    CHECK(flag && got == 42, "copied value %ld", (long)got);
    CHECK_MPI(MPI_Comm_delete_attr(dup2, k));
    CHECK(deletes == 1 && last_comm == dup2 && last_keyval == k, "delete callback");
    CHECK_MPI(MPI_Comm_free(&dup2));
    CHECK(deletes == 1, "nothing left to delete");
    /* a copy callback's ABI error fails the dup with its class */
    CHECK_MPI(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));
    error_from_copy = 1;
    int rc = MPI_Comm_dup(dup, &dup2);
    int cls = -1;
    CHECK_MPI(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_OTHER, "dup with a failing copy: class %d", cls);
    error_from_copy = 0;
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, k, (void *)(intptr_t)1));
    CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_SELF, k));
    CHECK(last_comm == MPI_COMM_SELF, "callback given MPI_COMM_SELF (0x102)");
    CHECK_MPI(MPI_Comm_free_keyval(&k));
    CHECK(k == MPI_KEYVAL_INVALID, "freed keyval %d", k);
    deletes = 0;
    CHECK_MPI(MPI_Comm_free(&dup));     /* the attribute still deleted */
    CHECK(deletes == 1, "delete after the keyval was freed");

    /* the predefined callbacks */
    int kd = 0;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN,
                                     &kd, NULL));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_set_attr(dup, kd, (void *)(intptr_t)99));
    CHECK_MPI(MPI_Comm_dup(dup, &dup2));
    CHECK_MPI(MPI_Comm_get_attr(dup2, kd, &got, &flag));
    CHECK(flag && got == 99, "MPI_COMM_DUP_FN copied %ld", (long)got);
    int kn = 0;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN,
                                     MPI_COMM_NULL_DELETE_FN, &kn, NULL));
    CHECK_MPI(MPI_Comm_set_attr(dup, kn, (void *)(intptr_t)7));
    MPI_Comm dup3;
    CHECK_MPI(MPI_Comm_dup(dup, &dup3));
    CHECK_MPI(MPI_Comm_get_attr(dup3, kn, &got, &flag));
    CHECK(!flag, "MPI_COMM_NULL_COPY_FN copied nothing");
    CHECK_MPI(MPI_Comm_free(&dup3));
    CHECK_MPI(MPI_Comm_free(&dup2));
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Comm_free_keyval(&kd));
    CHECK_MPI(MPI_Comm_free_keyval(&kn));
}

static void check_type_keyvals(void)
{
    int k = 0;
    deletes = 0;
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_delete, &k, NULL));
    MPI_Datatype t, t2;
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &t));
    CHECK_MPI(MPI_Type_set_attr(t, k, (void *)(intptr_t)11));
    CHECK_MPI(MPI_Type_dup(t, &t2));
    intptr_t got = 0;
    int flag = 0;
    CHECK_MPI(MPI_Type_get_attr(t2, k, &got, &flag));
    CHECK(flag && got == 11, "type attribute copied %ld", (long)got);
    CHECK_MPI(MPI_Type_delete_attr(t2, k));
    CHECK(deletes == 1 && last_type == t2 && last_keyval == k,
          "type delete callback");
    CHECK_MPI(MPI_Type_set_attr(MPI_INT, k, (void *)(intptr_t)3));
    CHECK_MPI(MPI_Type_delete_attr(MPI_INT, k));
    CHECK(last_type == MPI_INT, "callback given MPI_INT (0x209)");
    CHECK_MPI(MPI_Type_free(&t2));
    CHECK_MPI(MPI_Type_free(&t));
    CHECK(deletes == 3, "deleted at the free: %d", deletes);
    CHECK_MPI(MPI_Type_free_keyval(&k));
    CHECK(k == MPI_KEYVAL_INVALID, "freed type keyval");
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    check_predefined();
    check_comm_keyvals();
    check_type_keyvals();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
