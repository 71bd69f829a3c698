/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * win_attr.c - attributes cached on windows (MPI-3.1 6.7.3, 11.2.6):
 * keyvals, set/get/delete, the predefined callbacks
 * MPI_WIN_NULL_COPY_FN, MPI_WIN_DUP_FN and MPI_WIN_NULL_DELETE_FN, and
 * the predefined window attributes.  The machinery is core/attr.c's;
 * MPI_Win_free runs the delete callbacks (win_free.c).  A window is never
 * duplicated, so copy callbacks are stored and never called.
 *
 * The predefined attributes (11.2.6) are not in the attribute list: they
 * are answered from the window's own fields, and the program may read
 * them, never set or delete them.  As the standard says for C, the value
 * of MPI_WIN_BASE is the base address itself; the others are pointers to
 * the value:
 *   MPI_WIN_BASE           base (MPI_BOTTOM for a dynamic window)
 *   MPI_WIN_SIZE           MPI_Aint *: size in bytes (0: dynamic)
 *   MPI_WIN_DISP_UNIT      int *
 *   MPI_WIN_CREATE_FLAVOR  int *: MPI_WIN_FLAVOR_CREATE, _ALLOCATE,
 *                          _DYNAMIC or _SHARED
 *   MPI_WIN_MODEL          int *: MPI_WIN_UNIFIED - every member sees
 *                          one copy of the memory, the one load/store
 *                          and RMA both use
 */
#include "core/attr.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "rma/win_impl.h"

SHMPI_WEAK_ALIAS(Win_create_keyval)
SHMPI_WEAK_ALIAS(Win_free_keyval)
SHMPI_WEAK_ALIAS(Win_set_attr)
SHMPI_WEAK_ALIAS(Win_get_attr)
SHMPI_WEAK_ALIAS(Win_delete_attr)

int MPI_WIN_NULL_COPY_FN(MPI_Win oldwin, int win_keyval, void *extra_state,
                         void *attribute_val_in, void *attribute_val_out,
                         int *flag)
{
    *flag = 0;
    return MPI_SUCCESS;
}

int MPI_WIN_DUP_FN(MPI_Win oldwin, int win_keyval, void *extra_state,
                   void *attribute_val_in, void *attribute_val_out,
                   int *flag)
{
    *(void **)attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

int MPI_WIN_NULL_DELETE_FN(MPI_Win win, int win_keyval, void *attribute_val,
                           void *extra_state)
{
    return MPI_SUCCESS;
}

static const char *predefined_name(int keyval)
{
    switch (keyval) {
    case MPI_WIN_BASE: return "MPI_WIN_BASE";
    case MPI_WIN_SIZE: return "MPI_WIN_SIZE";
    case MPI_WIN_DISP_UNIT: return "MPI_WIN_DISP_UNIT";
    case MPI_WIN_CREATE_FLAVOR: return "MPI_WIN_CREATE_FLAVOR";
    case MPI_WIN_MODEL: return "MPI_WIN_MODEL";
    default: return NULL;
    }
}

/* What MPI_Win_get_attr stores for a predefined key. */
static void *predefined_value(MPI_Win win, int keyval)
{
    static int unified = MPI_WIN_UNIFIED;
    switch (keyval) {
    case MPI_WIN_BASE: return win->base;
    case MPI_WIN_SIZE: return &win->size;
    case MPI_WIN_DISP_UNIT: return &win->disp_unit;
    case MPI_WIN_CREATE_FLAVOR: return &win->flavor;
    default: return &unified;
    }
}

int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                           MPI_Win_delete_attr_function *win_delete_attr_fn,
                           int *win_keyval, void *extra_state)
{
    static const char fn[] = "MPI_Win_create_keyval";
    SHMPI_REQUIRE_INIT(fn);
    if (!win_keyval)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "win_keyval is NULL");
    int rc = shmpi_attr_keyval_create(
        SHMPI_ATTR_WIN, (union shmpi_attr_copy_fn){.win = win_copy_attr_fn},
        (union shmpi_attr_delete_fn){.win = win_delete_attr_fn},
        extra_state, win_keyval);
    if (rc != MPI_SUCCESS)
        return shmpi_raise(MPI_COMM_WORLD, rc, fn, "out of memory");
    return MPI_SUCCESS;
}

/* A key the program cannot use with this call: predefined (read only)
   or no live window keyval.  win may be MPI_WIN_NULL (free_keyval). */
static int raise_keyval(MPI_Win win, const char *fn, int keyval)
{
    const char *name = predefined_name(keyval);
    if (name)
        return shmpi_win_raise(win, MPI_ERR_KEYVAL, fn,
                               "%s is predefined: the program may read it, "
                               "never set, delete or free it", name);
    return shmpi_win_raise(win, MPI_ERR_KEYVAL, fn,
                           "%d is not a window keyval (freed, never "
                           "created, or made for communicators or "
                           "datatypes)", keyval);
}

int PMPI_Win_free_keyval(int *win_keyval)
{
    static const char fn[] = "MPI_Win_free_keyval";
    SHMPI_REQUIRE_INIT(fn);
    if (!win_keyval)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "win_keyval is NULL");
    if (shmpi_attr_keyval_free(win_keyval, SHMPI_ATTR_WIN) != MPI_SUCCESS)
        return raise_keyval(MPI_WIN_NULL, fn, *win_keyval);
    return MPI_SUCCESS;
}

/* win, and a key the program may set or delete. */
static int check_attr_args(const char *fn, MPI_Win win, int keyval)
{
    if (!shmpi_win_ok(win))
        return shmpi_win_raise_bad(win, fn);
    if (shmpi_attr_keyval_check(keyval, SHMPI_ATTR_WIN) != MPI_SUCCESS)
        return raise_keyval(win, fn, keyval);
    return MPI_SUCCESS;
}

static int raise_callback(MPI_Win win, const char *fn, int rc)
{
    if (rc == MPI_ERR_NO_MEM)
        return shmpi_win_raise(win, rc, fn, "out of memory");
    return shmpi_win_raise(win, rc, fn,
                           "the attribute delete callback returned %d", rc);
}

int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val)
{
    static const char fn[] = "MPI_Win_set_attr";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_attr_args(fn, win, win_keyval);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = shmpi_attr_set(&win->attrs, win, win_keyval, attribute_val);
    return rc == MPI_SUCCESS ? rc : raise_callback(win, fn, rc);
}

int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val,
                      int *flag)
{
    static const char fn[] = "MPI_Win_get_attr";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_win_ok(win))
        return shmpi_win_raise_bad(win, fn);
    if (!attribute_val || !flag)
        return shmpi_win_raise(win, MPI_ERR_ARG, fn,
                               "attribute_val or flag is NULL");
    if (predefined_name(win_keyval)) {
        *(void **)attribute_val = predefined_value(win, win_keyval);
        *flag = 1;
        return MPI_SUCCESS;
    }
    if (shmpi_attr_keyval_check(win_keyval, SHMPI_ATTR_WIN) != MPI_SUCCESS)
        return raise_keyval(win, fn, win_keyval);
    *flag = shmpi_attr_get(&win->attrs, win_keyval, (void **)attribute_val);
    return MPI_SUCCESS;
}

int PMPI_Win_delete_attr(MPI_Win win, int win_keyval)
{
    static const char fn[] = "MPI_Win_delete_attr";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_attr_args(fn, win, win_keyval);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = shmpi_attr_delete(&win->attrs, win, win_keyval);
    return rc == MPI_SUCCESS ? rc : raise_callback(win, fn, rc);
}
