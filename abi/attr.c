/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * attr.c - the ABI's keyvals and attributes on communicators, datatypes
 * and windows (abi.h).
 *
 * Keyvals.  The ABI fixes MPI_KEYVAL_INVALID (0) and the predefined keys
 * (MPI_TAG_UB 501 ... MPI_LASTUSEDCODE 507, MPI_WIN_BASE 601 ...
 * MPI_WIN_MODEL 605); shmpi numbers its own
 * predefined keys from 1 and the program's keyvals from 64, never
 * reusing one.  A keyval of the program's is given as shmpi's number
 * plus ABI_KEYVAL_BASE, above every fixed value; a predefined key is
 * translated by table; any other value becomes -1, no keyval of shmpi's.
 *
 * Values.  The predefined attributes are pointers to ints: MPI_HOST and
 * MPI_IO hold a rank or MPI_PROC_NULL, MPI_LASTUSEDCODE an error code,
 * of one value in both; MPI_WIN_CREATE_FLAVOR and MPI_WIN_MODEL are
 * given as a pointer to the ABI's value, kept per thread.
 *
 * Callbacks.  A copy or delete function of the program's expects the
 * ABI's handle, keyval and error codes: the keyval is created with
 * shmpi's callbacks here and an extra_state of the layer's (struct cb),
 * which holds the program's functions and extra_state.  shmpi keeps a
 * freed keyval alive for the attributes that still use it and drops it
 * with the last, which the layer is not told of: a struct cb lives until
 * the process ends, on the list `cbs` (under cb_lock).  The
 * ABI's MPI_COMM_NULL_COPY_FN (0), MPI_COMM_DUP_FN (1) and
 * MPI_COMM_NULL_DELETE_FN (0), and their datatype forms, are shmpi's
 * functions of those names.
 */
#include <pthread.h>
#include <stdlib.h>

/* The MPI-1 calls below are shmpi's deprecated ones, called on purpose. */
#define SHMPI_NO_DEPRECATION_WARNINGS
#include "abi/abi.h"

#define ABI_KEYVAL_INVALID 0
#define ABI_KEYVAL_BASE    0x1000
#define ABI_TAG_UB         501
#define ABI_LASTUSEDCODE   507
#define ABI_WIN_BASE       601
#define ABI_WIN_MODEL      605
#define ABI_DUP_FN         ((void *)1)

/* shmpi's predefined communicator keys, by the ABI's 501 .. 507. */
static const int predefined[] = {
    MPI_TAG_UB, MPI_IO, MPI_HOST, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE,
    MPI_APPNUM, MPI_LASTUSEDCODE,
};

/* shmpi's predefined window keys, by the ABI's 601 .. 605. */
static const int win_predefined[] = {
    MPI_WIN_BASE, MPI_WIN_DISP_UNIT, MPI_WIN_SIZE, MPI_WIN_CREATE_FLAVOR,
    MPI_WIN_MODEL,
};

#define NKEYS(a) ((int)(sizeof a / sizeof a[0]))

static int keyval_in(int k)
{
    if (k >= ABI_KEYVAL_BASE)
        return k - ABI_KEYVAL_BASE;
    if (k >= ABI_TAG_UB && k <= ABI_LASTUSEDCODE)
        return predefined[k - ABI_TAG_UB];
    if (k >= ABI_WIN_BASE && k <= ABI_WIN_MODEL)
        return win_predefined[k - ABI_WIN_BASE];
    return MPI_KEYVAL_INVALID;
}

static int keyval_out(int k)
{
    if (k == MPI_KEYVAL_INVALID)
        return ABI_KEYVAL_INVALID;
    for (int i = 0; i < NKEYS(predefined); i++)
        if (predefined[i] == k)
            return ABI_TAG_UB + i;
    for (int i = 0; i < NKEYS(win_predefined); i++)
        if (win_predefined[i] == k)
            return ABI_WIN_BASE + i;
    return k + ABI_KEYVAL_BASE;
}

typedef int abi_copy_fn(void *old, int keyval, void *extra, void *in,
                        void *out, int *flag);
typedef int abi_delete_fn(void *obj, int keyval, void *value, void *extra);

struct cb {
    abi_copy_fn *copy;
    abi_delete_fn *del;
    void *extra;
    struct cb *next;
};
static struct cb *cbs;
static pthread_mutex_t cb_lock = PTHREAD_MUTEX_INITIALIZER;

/* A keyval's callbacks for shmpi: shmpi's predefined ones, or the
   trampolines given *cb (NULL when none is the program's). */
static int callbacks(void *copy, void *del, void *extra, struct cb **cb)
{
    *cb = NULL;
    if ((uintptr_t)copy <= (uintptr_t)ABI_DUP_FN && !del)
        return MPI_SUCCESS;
    if (!(*cb = malloc(sizeof **cb)))
        return PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
    pthread_mutex_lock(&cb_lock);
    **cb = (struct cb){ (abi_copy_fn *)copy, (abi_delete_fn *)del, extra,
                        cbs };
    cbs = *cb;
    pthread_mutex_unlock(&cb_lock);
    return MPI_SUCCESS;
}

/* The trampolines of one kind of object: handle translation KIND. */
#define ABI_ATTR_TRAMPOLINES(kind, mtype, atype, KIND)                     \
    static int kind##_copy(mtype old, int keyval, void *extra, void *in,   \
                           void *out, int *flag)                           \
    {                                                                      \
        struct cb *cb = extra;                                             \
        return cb->copy(ABI_OUT(atype, old, KIND),                         \
                        keyval_out(keyval), cb->extra,                     \
                        in, out, flag);                                    \
    }                                                                      \
    static int kind##_delete(mtype obj, int keyval, void *value,           \
                             void *extra)                                  \
    {                                                                      \
        struct cb *cb = extra;                                             \
        return cb->del(ABI_OUT(atype, obj, KIND),                          \
                       keyval_out(keyval), value,                          \
                       cb->extra);                                         \
    }

/* MPI_<Kind>_create_keyval, _free_keyval, _set_attr, _delete_attr. */
#define ABI_KEYVALS(Kind, kind, mtype, atype, in, NULL_COPY, DUP,          \
                    NULL_DELETE)                                           \
    ABI_FN(int, Kind##_create_keyval, (void *copy, void *del, int *keyval, \
                                       void *extra))                       \
    {                                                                      \
        struct cb *cb;                                                     \
        int rc = callbacks(copy, del, extra, &cb);                         \
        if (rc != MPI_SUCCESS)                                             \
            return rc;                                                     \
        int k;                                                             \
        rc = PMPI_##Kind##_create_keyval(                                  \
            !copy ? NULL_COPY : copy == ABI_DUP_FN ? DUP                   \
                  : kind##_copy,                                           \
            !del ? NULL_DELETE : kind##_delete, keyval ? &k : NULL,        \
            cb ? cb : extra);                                              \
        if (rc == MPI_SUCCESS)                                             \
            *keyval = keyval_out(k);                                       \
        return rc;                                                         \
    }                                                                      \
    ABI_FN(int, Kind##_free_keyval, (int *keyval))                         \
    {                                                                      \
        int k = keyval ? keyval_in(*keyval) : 0;                           \
        int rc = PMPI_##Kind##_free_keyval(keyval ? &k : NULL);            \
        if (rc == MPI_SUCCESS)                                             \
            *keyval = keyval_out(k);                                       \
        return rc;                                                         \
    }                                                                      \
    ABI_FN(int, Kind##_set_attr, (atype obj, int keyval, void *value))     \
    {                                                                      \
        return PMPI_##Kind##_set_attr(in(obj), keyval_in(keyval),          \
                                      value);                              \
    }                                                                      \
    ABI_FN(int, Kind##_delete_attr, (atype obj, int keyval))               \
    {                                                                      \
        return PMPI_##Kind##_delete_attr(in(obj),                          \
                                         keyval_in(keyval));               \
    }

ABI_ATTR_TRAMPOLINES(comm, MPI_Comm, abi_Comm, COMM)
ABI_ATTR_TRAMPOLINES(type, MPI_Datatype, abi_Datatype, DATATYPE)
ABI_ATTR_TRAMPOLINES(win, MPI_Win, abi_Win, WIN)
ABI_KEYVALS(Comm, comm, MPI_Comm, abi_Comm, comm_in, MPI_COMM_NULL_COPY_FN,
            MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN)
ABI_KEYVALS(Type, type, MPI_Datatype, abi_Datatype, dt_in,
            MPI_TYPE_NULL_COPY_FN, MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN)
ABI_KEYVALS(Win, win, MPI_Win, abi_Win, win_in, MPI_WIN_NULL_COPY_FN,
            MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN)

/* The values of the predefined attributes (MPI_HOST, MPI_IO: a rank or
   MPI_PROC_NULL; MPI_LASTUSEDCODE) are the same in both. */
ABI_FN(int, Comm_get_attr, (abi_Comm comm, int keyval, void *value,
                            int *flag))
{
    return PMPI_Comm_get_attr(comm_in(comm), keyval_in(keyval), value, flag);
}

/* The MPI-1 attribute calls (deprecated since MPI-2.0, in the ABI's
   header all the same): MPI_Comm_create_keyval ... under their old
   names, which shmpi's errors name. */
ABI_FN(int, Keyval_create, (void *copy, void *del, int *keyval,
                            void *extra))
{
    struct cb *cb;
    int rc = callbacks(copy, del, extra, &cb);
    if (rc != MPI_SUCCESS)
        return rc;
    int k;
    rc = PMPI_Keyval_create(!copy ? MPI_NULL_COPY_FN
                            : copy == ABI_DUP_FN ? MPI_DUP_FN : comm_copy,
                            !del ? MPI_NULL_DELETE_FN : comm_delete,
                            keyval ? &k : NULL, cb ? cb : extra);
    if (rc == MPI_SUCCESS)
        *keyval = keyval_out(k);
    return rc;
}

ABI_FN(int, Keyval_free, (int *keyval))
{
    int k = keyval ? keyval_in(*keyval) : 0;
    int rc = PMPI_Keyval_free(keyval ? &k : NULL);
    if (rc == MPI_SUCCESS)
        *keyval = keyval_out(k);
    return rc;
}

ABI_FN(int, Attr_put, (abi_Comm comm, int keyval, void *value))
{
    return PMPI_Attr_put(comm_in(comm), keyval_in(keyval), value);
}

ABI_FN(int, Attr_get, (abi_Comm comm, int keyval, void *value, int *flag))
{
    return PMPI_Attr_get(comm_in(comm), keyval_in(keyval), value, flag);
}

ABI_FN(int, Attr_delete, (abi_Comm comm, int keyval))
{
    return PMPI_Attr_delete(comm_in(comm), keyval_in(keyval));
}

ABI_FN(int, Type_get_attr, (abi_Datatype dt, int keyval, void *value,
                            int *flag))
{
    return PMPI_Type_get_attr(dt_in(dt), keyval_in(keyval), value,
                              flag);
}

/* The ABI's values of MPI_WIN_CREATE_FLAVOR (311 ..) and MPI_WIN_MODEL
   (MPI_WIN_UNIFIED 321, MPI_WIN_SEPARATE 322), as for MPI_HOST above. */
static _Thread_local int flavor, model;

ABI_FN(int, Win_get_attr, (abi_Win win, int keyval, void *value, int *flag))
{
    int k = keyval_in(keyval);
    int rc = PMPI_Win_get_attr(win_in(win), k, value, flag);
    if (rc != MPI_SUCCESS || !*flag)
        return rc;
    int **v = value;
    if (k == MPI_WIN_CREATE_FLAVOR) {
        flavor = 310 + **v - MPI_WIN_FLAVOR_CREATE + 1;
        *v = &flavor;
    } else if (k == MPI_WIN_MODEL) {
        model = **v == MPI_WIN_UNIFIED ? 321 : 322;
        *v = &model;
    }
    return MPI_SUCCESS;
}
