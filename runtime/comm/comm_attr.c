/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * comm_attr.c - attributes cached on communicators (MPI-3.1 6.7.2,
 * 6.7.3): keyvals, set/get/delete, the predefined callbacks
 * MPI_COMM_NULL_COPY_FN, MPI_COMM_DUP_FN and MPI_COMM_NULL_DELETE_FN, the
 * copying that MPI_Comm_dup does and the deleting that MPI_Comm_free and
 * MPI_Finalize do (comm_create.c and init/init.c call in here).  The
 * machinery is core/attr.c's, shared with datatypes and windows.
 *
 * The predefined attributes (MPI_TAG_UB, MPI_HOST, MPI_IO,
 * MPI_WTIME_IS_GLOBAL: 8.1.2; MPI_LASTUSEDCODE: 8.5; MPI_UNIVERSE_SIZE,
 * MPI_APPNUM: 10.5) are cached on MPI_COMM_WORLD, says the standard, and
 * the program may not set, delete or free them.  It does not say what a
 * dup does with them.  shmpi answers them as if they were attributes of
 * MPI_COMM_WORLD whose copy callback is MPI_COMM_DUP_FN, but for
 * MPI_LASTUSEDCODE, which stays on MPI_COMM_WORLD: so the dups of world,
 * and their dups, have them (comm->env_attrs), and MPI_COMM_SELF and the
 * communicators of split, create and create_group do not.  That is what
 * Open MPI does; MPICH answers on every communicator.  A program that
 * finds one here finds it there too.  They are not in the attribute
 * list: their values live here, the pointers handed out point at them.
 *
 * The MPI-1 names of these calls (MPI_Keyval_create, MPI_Keyval_free,
 * MPI_Attr_put, MPI_Attr_get, MPI_Attr_delete, and the callbacks
 * MPI_NULL_COPY_FN, MPI_DUP_FN, MPI_NULL_DELETE_FN: deprecated since
 * MPI-2.0, still in MPI-3.1 15.1) are the same code: the standard gives
 * them the same meaning on communicators, and an error is reported under
 * the name the program called.
 *
 * Order: MPI_Comm_dup copies oldest first; a free deletes newest first,
 * which for MPI_COMM_SELF at MPI_Finalize is what 8.7.1 requires ("in
 * the reverse order that they were set", the order in which each key was
 * first set: replacing a value keeps its place, as in MPICH).
 */
#include <limits.h>

#include "comm/comm.h"
#include "core/attr.h"
#include "core/error.h"
#include "core/pmpi.h"

SHMPI_WEAK_ALIAS(Comm_create_keyval)
SHMPI_WEAK_ALIAS(Comm_free_keyval)
SHMPI_WEAK_ALIAS(Comm_set_attr)
SHMPI_WEAK_ALIAS(Comm_get_attr)
SHMPI_WEAK_ALIAS(Comm_delete_attr)
SHMPI_WEAK_ALIAS(Keyval_create)
SHMPI_WEAK_ALIAS(Keyval_free)
SHMPI_WEAK_ALIAS(Attr_put)
SHMPI_WEAK_ALIAS(Attr_get)
SHMPI_WEAK_ALIAS(Attr_delete)

int MPI_COMM_NULL_COPY_FN(MPI_Comm oldcomm, int comm_keyval,
                          void *extra_state, void *attribute_val_in,
                          void *attribute_val_out, int *flag)
{
    *flag = 0;
    return MPI_SUCCESS;
}

int MPI_COMM_DUP_FN(MPI_Comm oldcomm, int comm_keyval, void *extra_state,
                    void *attribute_val_in, void *attribute_val_out,
                    int *flag)
{
    *(void **)attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

int MPI_COMM_NULL_DELETE_FN(MPI_Comm comm, int comm_keyval,
                            void *attribute_val, void *extra_state)
{
    return MPI_SUCCESS;
}

/* The MPI-1 names of the three: the same functions. */
int MPI_NULL_COPY_FN(MPI_Comm, int, void *, void *, void *, int *)
    __attribute__((alias("MPI_COMM_NULL_COPY_FN")));
int MPI_DUP_FN(MPI_Comm, int, void *, void *, void *, int *)
    __attribute__((alias("MPI_COMM_DUP_FN")));
int MPI_NULL_DELETE_FN(MPI_Comm, int, void *, void *)
    __attribute__((alias("MPI_COMM_NULL_DELETE_FN")));

/* ------------------------------------------------------------------ */
/* The predefined attributes                                           */
/* ------------------------------------------------------------------ */

/* The name of a predefined communicator key; NULL for any other. */
static const char *predefined_name(int keyval)
{
    switch (keyval) {
    case MPI_TAG_UB: return "MPI_TAG_UB";
    case MPI_HOST: return "MPI_HOST";
    case MPI_IO: return "MPI_IO";
    case MPI_WTIME_IS_GLOBAL: return "MPI_WTIME_IS_GLOBAL";
    case MPI_UNIVERSE_SIZE: return "MPI_UNIVERSE_SIZE";
    case MPI_LASTUSEDCODE: return "MPI_LASTUSEDCODE";
    case MPI_APPNUM: return "MPI_APPNUM";
    default: return NULL;
    }
}

/* MPI_LASTUSEDCODE's value, brought up to date.  Relaxed: the int is
   its own message (the program reads it as a plain int; an _Atomic int
   has int's size and representation here, lock-free). */
static int *last_used_code(struct shmpi_comm_state *st)
{
    int now = shmpi_core_last_used_code();
    if (atomic_load_explicit(&st->env.lastusedcode, memory_order_relaxed) !=
        now)
        atomic_store_explicit(&st->env.lastusedcode, now,
                              memory_order_relaxed);
    return (int *)&st->env.lastusedcode;
}

/* The value of predefined key `keyval` on comm, or NULL if comm does not
   carry it. */
static int *predefined_value(MPI_Comm comm, int keyval)
{
    if (!comm->env_attrs)
        return NULL;
    struct shmpi_comm_state *st = shmpi_proc.comm;
    switch (keyval) {
    case MPI_TAG_UB: return &st->env.tag_ub;
    case MPI_HOST: return &st->env.host;
    case MPI_IO: return &st->env.io;
    case MPI_WTIME_IS_GLOBAL: return &st->env.wtime_is_global;
    case MPI_UNIVERSE_SIZE: return &st->env.universe_size;
    case MPI_LASTUSEDCODE:
        if (comm != MPI_COMM_WORLD)
            return NULL;
        return last_used_code(st);
    case MPI_APPNUM: return &st->env.appnum;
    default: return NULL;
    }
}

/* ------------------------------------------------------------------ */
/* Keyvals                                                             */
/* ------------------------------------------------------------------ */

/* arg: the name of the keyval argument, for the message. */
static int create_keyval(const char *fn, const char *arg,
                         MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                         MPI_Comm_delete_attr_function *comm_delete_attr_fn,
                         int *comm_keyval, void *extra_state)
{
    SHMPI_REQUIRE_INIT(fn);
    if (!comm_keyval)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn, "%s is NULL",
                           arg);
    int rc = shmpi_attr_keyval_create(
        SHMPI_ATTR_COMM, (union shmpi_attr_copy_fn){.comm = comm_copy_attr_fn},
        (union shmpi_attr_delete_fn){.comm = comm_delete_attr_fn},
        extra_state, comm_keyval);
    if (rc != MPI_SUCCESS)
        return shmpi_raise(MPI_COMM_NULL, rc, fn, "out of memory");
    return MPI_SUCCESS;
}

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function *comm_delete_attr_fn,
                            int *comm_keyval, void *extra_state)
{
    return create_keyval("MPI_Comm_create_keyval", "comm_keyval",
                         comm_copy_attr_fn, comm_delete_attr_fn, comm_keyval,
                         extra_state);
}

int PMPI_Keyval_create(MPI_Copy_function *copy_fn,
                       MPI_Delete_function *delete_fn, int *keyval,
                       void *extra_state)
{
    return create_keyval("MPI_Keyval_create", "keyval", copy_fn, delete_fn,
                         keyval, extra_state);
}

/* A key the program cannot use with this call on comm: a predefined one
   (which it may only read), or no live communicator key. */
static int raise_keyval(MPI_Comm comm, const char *fn, int keyval)
{
    const char *name = predefined_name(keyval);
    if (name)
        return shmpi_raise(comm, MPI_ERR_KEYVAL, fn,
                           "%s is predefined: the program may read it, "
                           "never set, delete or free it", name);
    return shmpi_raise(comm, MPI_ERR_KEYVAL, fn,
                       "%d is not a communicator keyval (freed, never "
                       "created, or made for datatypes or windows)",
                       keyval);
}

static int free_keyval(const char *fn, const char *arg, int *comm_keyval)
{
    SHMPI_REQUIRE_INIT(fn);
    if (!comm_keyval)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn, "%s is NULL",
                           arg);
    if (shmpi_attr_keyval_free(comm_keyval, SHMPI_ATTR_COMM) != MPI_SUCCESS)
        return raise_keyval(MPI_COMM_NULL, fn, *comm_keyval);
    return MPI_SUCCESS;
}

int PMPI_Comm_free_keyval(int *comm_keyval)
{
    return free_keyval("MPI_Comm_free_keyval", "comm_keyval", comm_keyval);
}

int PMPI_Keyval_free(int *keyval)
{
    return free_keyval("MPI_Keyval_free", "keyval", keyval);
}

/* ------------------------------------------------------------------ */
/* Attributes                                                          */
/* ------------------------------------------------------------------ */

/* comm, and a key the program may set or delete. */
static int check_attr_args(const char *fn, MPI_Comm comm, int keyval)
{
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    if (shmpi_attr_keyval_check(keyval, SHMPI_ATTR_COMM) != MPI_SUCCESS)
        return raise_keyval(comm, fn, keyval);
    return MPI_SUCCESS;
}

static int raise_callback(MPI_Comm comm, const char *fn, const char *which,
                          int rc)
{
    if (rc == MPI_ERR_NO_MEM)
        return shmpi_raise(comm, rc, fn, "out of memory");
    return shmpi_raise(comm, rc, fn, "an attribute %s callback returned %d",
                       which, rc);
}

static int set_attr(const char *fn, MPI_Comm comm, int comm_keyval,
                    void *attribute_val)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_attr_args(fn, comm, comm_keyval);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = shmpi_attr_set(&comm->attrs, comm, comm_keyval, attribute_val);
    return rc == MPI_SUCCESS ? rc : raise_callback(comm, fn, "delete", rc);
}

int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    return set_attr("MPI_Comm_set_attr", comm, comm_keyval, attribute_val);
}

int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    return set_attr("MPI_Attr_put", comm, keyval, attribute_val);
}

static int get_attr(const char *fn, MPI_Comm comm, int comm_keyval,
                    void *attribute_val, int *flag)
{
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    if (!attribute_val || !flag)
        return shmpi_raise(comm, MPI_ERR_ARG, fn,
                           "attribute_val or flag is NULL");
    if (predefined_name(comm_keyval)) {
        int *value = predefined_value(comm, comm_keyval);
        if (value)
            *(int **)attribute_val = value;
        *flag = value != NULL;
        return MPI_SUCCESS;
    }
    if (shmpi_attr_keyval_check(comm_keyval, SHMPI_ATTR_COMM) != MPI_SUCCESS)
        return raise_keyval(comm, fn, comm_keyval);
    *flag = shmpi_attr_get(&comm->attrs, comm_keyval, (void **)attribute_val);
    return MPI_SUCCESS;
}

int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val,
                       int *flag)
{
    return get_attr("MPI_Comm_get_attr", comm, comm_keyval, attribute_val,
                    flag);
}

int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    return get_attr("MPI_Attr_get", comm, keyval, attribute_val, flag);
}

static int delete_attr(const char *fn, MPI_Comm comm, int comm_keyval)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_attr_args(fn, comm, comm_keyval);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = shmpi_attr_delete(&comm->attrs, comm, comm_keyval);
    return rc == MPI_SUCCESS ? rc : raise_callback(comm, fn, "delete", rc);
}

int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
    return delete_attr("MPI_Comm_delete_attr", comm, comm_keyval);
}

int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
    return delete_attr("MPI_Attr_delete", comm, keyval);
}

/* ------------------------------------------------------------------ */
/* At dup, free and MPI_Finalize                                       */
/* ------------------------------------------------------------------ */

int shmpi_comm_copy_attrs(MPI_Comm oldcomm, MPI_Comm newcomm, const char *fn)
{
    newcomm->env_attrs = oldcomm->env_attrs;
    int rc = shmpi_attr_copy_all(&oldcomm->attrs, oldcomm, &newcomm->attrs);
    if (rc == MPI_SUCCESS)
        return rc;
    /* the new communicator never reaches the program: what was copied
       onto it goes again, through the delete callbacks */
    shmpi_attr_delete_all(&newcomm->attrs, newcomm);
    return raise_callback(oldcomm, fn, "copy", rc);
}

int shmpi_comm_delete_attrs(MPI_Comm comm, const char *fn)
{
    int rc = shmpi_attr_delete_all(&comm->attrs, comm);
    if (rc == MPI_SUCCESS)
        return rc;
    return shmpi_raise(comm, rc, fn,
                       "an attribute delete callback returned %d (every "
                       "attribute is deleted all the same)", rc);
}
