/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * type_attr.c - attributes cached on datatypes (MPI-3.1 6.7.4): keyvals,
 * set/get/delete, and the predefined callbacks MPI_TYPE_NULL_COPY_FN,
 * MPI_TYPE_DUP_FN and MPI_TYPE_NULL_DELETE_FN.  The machinery is
 * core/attr.c's; MPI_Type_dup copies (constructors.c) and the type's
 * destruction deletes (type.c).
 *
 * Attributes may be set on predefined types too; those are never freed,
 * so their attributes are never deleted.
 */
#include "core/attr.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "datatypes/derived.h"

SHMPI_WEAK_ALIAS(Type_create_keyval)
SHMPI_WEAK_ALIAS(Type_free_keyval)
SHMPI_WEAK_ALIAS(Type_set_attr)
SHMPI_WEAK_ALIAS(Type_get_attr)
SHMPI_WEAK_ALIAS(Type_delete_attr)

int MPI_TYPE_NULL_COPY_FN(MPI_Datatype oldtype, int type_keyval,
                          void *extra_state, void *attribute_val_in,
                          void *attribute_val_out, int *flag)
{
    *flag = 0;
    return MPI_SUCCESS;
}

int MPI_TYPE_DUP_FN(MPI_Datatype oldtype, int type_keyval,
                    void *extra_state, void *attribute_val_in,
                    void *attribute_val_out, int *flag)
{
    *(void **)attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

int MPI_TYPE_NULL_DELETE_FN(MPI_Datatype datatype, int type_keyval,
                            void *attribute_val, void *extra_state)
{
    return MPI_SUCCESS;
}

int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                            MPI_Type_delete_attr_function *type_delete_attr_fn,
                            int *type_keyval, void *extra_state)
{
    static const char fn[] = "MPI_Type_create_keyval";
    SHMPI_REQUIRE_INIT(fn);
    if (!type_keyval)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "type_keyval is NULL");
    int rc = shmpi_attr_keyval_create(
        SHMPI_ATTR_TYPE, (union shmpi_attr_copy_fn){.type = type_copy_attr_fn},
        (union shmpi_attr_delete_fn){.type = type_delete_attr_fn},
        extra_state, type_keyval);
    if (rc != MPI_SUCCESS)
        return shmpi_raise(MPI_COMM_NULL, rc, fn, "out of memory");
    return MPI_SUCCESS;
}

static int raise_keyval(const char *fn, int keyval)
{
    return shmpi_raise(MPI_COMM_NULL, MPI_ERR_KEYVAL, fn,
                       "%d is not a datatype keyval (freed, never created, "
                       "or made for communicators or windows)", keyval);
}

int PMPI_Type_free_keyval(int *type_keyval)
{
    static const char fn[] = "MPI_Type_free_keyval";
    SHMPI_REQUIRE_INIT(fn);
    if (!type_keyval)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "type_keyval is NULL");
    if (shmpi_attr_keyval_free(type_keyval, SHMPI_ATTR_TYPE) != MPI_SUCCESS)
        return raise_keyval(fn, *type_keyval);
    return MPI_SUCCESS;
}

/* The datatype and the keyval every attribute call starts with. */
static int check_attr_args(const char *fn, MPI_Datatype datatype,
                           int keyval)
{
    int rc = shmpi_dt_check_arg(datatype, fn, "datatype");
    if (rc == MPI_SUCCESS &&
        shmpi_attr_keyval_check(keyval, SHMPI_ATTR_TYPE) != MPI_SUCCESS)
        rc = raise_keyval(fn, keyval);
    return rc;
}

static int raise_callback(const char *fn, int rc)
{
    if (rc == MPI_ERR_NO_MEM)
        return shmpi_raise(MPI_COMM_NULL, rc, fn, "out of memory");
    return shmpi_raise(MPI_COMM_NULL, rc, fn,
                       "the attribute delete callback returned %d", rc);
}

int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval,
                       void *attribute_val)
{
    static const char fn[] = "MPI_Type_set_attr";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_attr_args(fn, datatype, type_keyval);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = shmpi_attr_set(&datatype->attrs, datatype, type_keyval,
                        attribute_val);
    return rc == MPI_SUCCESS ? rc : raise_callback(fn, rc);
}

int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval,
                       void *attribute_val, int *flag)
{
    static const char fn[] = "MPI_Type_get_attr";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_attr_args(fn, datatype, type_keyval);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!attribute_val || !flag)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "attribute_val or flag is NULL");
    *flag = shmpi_attr_get(&datatype->attrs, type_keyval,
                           (void **)attribute_val);
    return MPI_SUCCESS;
}

int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval)
{
    static const char fn[] = "MPI_Type_delete_attr";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_attr_args(fn, datatype, type_keyval);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = shmpi_attr_delete(&datatype->attrs, datatype, type_keyval);
    return rc == MPI_SUCCESS ? rc : raise_callback(fn, rc);
}
