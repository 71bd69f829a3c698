/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tool.c - the ABI's tool information interface (MPI-4.1 chapter 15):
 * control and performance variables, their enumerations, sessions and
 * handles, and categories (abi.h).
 *
 * Handles.  An enumeration, a control variable's handle, a performance
 * variable's session and handle are shmpi's pointers, passed as they
 * are: the null handles are 0 in both, MPI_T_PVAR_ALL_HANDLES 1.
 *
 * Constants.  The ABI numbers verbosities 0x09 .. 0x24 (a bit for the
 * audience, one for the detail), bindings, scopes and performance
 * classes from 1; shmpi numbers them all from 0 (verbosities from 1).
 * A variable's datatype is a datatype handle; a thread level and the
 * return codes (MPI_T_ERR_... 1001 ..) go through the layer's tables.
 *
 * The object a handle is bound to comes to MPI_T_cvar_handle_alloc and
 * MPI_T_pvar_handle_alloc as a pointer to the program's handle: the
 * variable's binding, asked of shmpi first, says which kind it is.
 *
 * Events and event sources (MPI_T_event_..., MPI_T_source_...) are in
 * tool_event.c.
 */
#include "abi/tool.h"

/* ABI values, indexed by shmpi's. */
static const int verbosity_abi[] = {
    [MPI_T_VERBOSITY_USER_BASIC] = 0x09,  [MPI_T_VERBOSITY_USER_DETAIL] = 0x0a,
    [MPI_T_VERBOSITY_USER_ALL] = 0x0c,    [MPI_T_VERBOSITY_TUNER_BASIC] = 0x11,
    [MPI_T_VERBOSITY_TUNER_DETAIL] = 0x12, [MPI_T_VERBOSITY_TUNER_ALL] = 0x14,
    [MPI_T_VERBOSITY_MPIDEV_BASIC] = 0x21,
    [MPI_T_VERBOSITY_MPIDEV_DETAIL] = 0x22,
    [MPI_T_VERBOSITY_MPIDEV_ALL] = 0x24,
};
#define ABI_T_PVAR_CLASS_FIRST 1      /* MPI_T_PVAR_CLASS_STATE */
#define ABI_T_PVAR_CLASS_LAST  10     /* MPI_T_PVAR_CLASS_GENERIC */
_Static_assert(MPI_T_BIND_NO_OBJECT == 0 && MPI_T_BIND_MPI_INFO == 10 &&
               MPI_T_SCOPE_CONSTANT == 0 && MPI_T_SCOPE_ALL_EQ == 6 &&
               MPI_T_PVAR_CLASS_STATE == 0 && MPI_T_PVAR_CLASS_GENERIC == 9,
               "shmpi's bindings, scopes and classes from 0, in the ABI's order");

void shmpi_abi_verbosity_out(int *v)
{
    if (v && *v > 0 && *v < (int)(sizeof verbosity_abi / sizeof *verbosity_abi))
        *v = verbosity_abi[*v];
}

static int class_in(int c)
{
    return c >= ABI_T_PVAR_CLASS_FIRST && c <= ABI_T_PVAR_CLASS_LAST
               ? c - ABI_T_PVAR_CLASS_FIRST + MPI_T_PVAR_CLASS_STATE
               : -1;                     /* no class: shmpi rejects it */
}

void *shmpi_abi_bound_in(int bind, void *obj, union shmpi_abi_bound *u)
{
    if (!obj)
        return obj;
    switch (bind) {
    case MPI_T_BIND_MPI_COMM: u->comm = comm_in(*(abi_Comm *)obj); return &u->comm;
    case MPI_T_BIND_MPI_DATATYPE: u->dt = dt_in(*(abi_Datatype *)obj); return &u->dt;
    case MPI_T_BIND_MPI_ERRHANDLER: u->eh = eh_in(*(abi_Errhandler *)obj); return &u->eh;
    case MPI_T_BIND_MPI_GROUP: u->group = group_in(*(abi_Group *)obj); return &u->group;
    case MPI_T_BIND_MPI_OP: u->op = op_in(*(abi_Op *)obj); return &u->op;
    case MPI_T_BIND_MPI_REQUEST: u->req = req_in(*(abi_Request *)obj); return &u->req;
    case MPI_T_BIND_MPI_WIN: u->win = win_in(*(abi_Win *)obj); return &u->win;
    case MPI_T_BIND_MPI_MESSAGE: u->msg = msg_in(*(abi_Message *)obj); return &u->msg;
    case MPI_T_BIND_MPI_INFO: u->info = info_in(*(abi_Info *)obj); return &u->info;
    default: return obj;
    }
}

/* A datatype shmpi gave, as the ABI's. */
static void dt_out(MPI_Datatype dt, abi_Datatype *out)
{
    if (out)
        *out = ABI_OUT(abi_Datatype, dt, DATATYPE);
}

ABI_FN(int, T_init_thread, (int required, int *provided))
{
    return shmpi_abi_t_init(required, provided);
}

ABI_FN(int, T_finalize, (void))
{
    return shmpi_abi_t_finalize();
}

ABI_FN(int, T_enum_get_info, (MPI_T_enum enumtype, int *num, char *name,
                              int *name_len))
{
    return PMPI_T_enum_get_info(enumtype, num, name, name_len);
}

ABI_FN(int, T_enum_get_item, (MPI_T_enum enumtype, int index, int *value,
                              char *name, int *name_len))
{
    return PMPI_T_enum_get_item(enumtype, index, value, name,
                                name_len);
}

ABI_FN(int, T_cvar_get_num, (int *num_cvar))
{
    return PMPI_T_cvar_get_num(num_cvar);
}

ABI_FN(int, T_cvar_get_info, (int cvar_index, char *name, int *name_len,
                              int *verbosity, abi_Datatype *datatype,
                              MPI_T_enum *enumtype, char *desc,
                              int *desc_len, int *bind, int *scope))
{
    MPI_Datatype dt;
    int rc = PMPI_T_cvar_get_info(cvar_index, name, name_len, verbosity,
                                  datatype ? &dt : NULL, enumtype, desc,
                                  desc_len, bind, scope);
    if (rc != MPI_SUCCESS)
        return rc;
    shmpi_abi_verbosity_out(verbosity);
    dt_out(dt, datatype);
    plus_one(bind);
    plus_one(scope);
    return MPI_SUCCESS;
}

ABI_FN(int, T_cvar_get_index, (const char *name, int *cvar_index))
{
    return PMPI_T_cvar_get_index(name, cvar_index);
}

ABI_FN(int, T_cvar_handle_alloc, (int cvar_index, void *obj_handle,
                                  MPI_T_cvar_handle *handle, int *count))
{
    int bind = MPI_T_BIND_NO_OBJECT;
    union shmpi_abi_bound u;
    PMPI_T_cvar_get_info(cvar_index, NULL, NULL, NULL, NULL, NULL, NULL,
                         NULL, &bind, NULL);  /* a bad index: just below */
    void *obj = shmpi_abi_bound_in(bind, obj_handle, &u);
    return PMPI_T_cvar_handle_alloc(cvar_index, obj, handle, count);
}

ABI_FN(int, T_cvar_handle_free, (MPI_T_cvar_handle *handle))
{
    return PMPI_T_cvar_handle_free(handle);
}

ABI_FN(int, T_cvar_read, (MPI_T_cvar_handle handle, void *buf))
{
    return PMPI_T_cvar_read(handle, buf);
}

ABI_FN(int, T_cvar_write, (MPI_T_cvar_handle handle, const void *buf))
{
    return PMPI_T_cvar_write(handle, buf);
}

ABI_FN(int, T_pvar_get_num, (int *num_pvar))
{
    return PMPI_T_pvar_get_num(num_pvar);
}

ABI_FN(int, T_pvar_get_info, (int pvar_index, char *name, int *name_len,
                              int *verbosity, int *var_class,
                              abi_Datatype *datatype, MPI_T_enum *enumtype,
                              char *desc, int *desc_len, int *bind,
                              int *readonly, int *continuous, int *atomic))
{
    MPI_Datatype dt;
    int rc = PMPI_T_pvar_get_info(pvar_index, name, name_len, verbosity,
                                  var_class, datatype ? &dt : NULL, enumtype,
                                  desc, desc_len, bind, readonly, continuous,
                                  atomic);
    if (rc != MPI_SUCCESS)
        return rc;
    shmpi_abi_verbosity_out(verbosity);
    plus_one(var_class);
    dt_out(dt, datatype);
    plus_one(bind);
    return MPI_SUCCESS;
}

ABI_FN(int, T_pvar_get_index, (const char *name, int var_class,
                               int *pvar_index))
{
    return PMPI_T_pvar_get_index(name, class_in(var_class),
                                 pvar_index);
}

ABI_FN(int, T_pvar_session_create, (MPI_T_pvar_session *session))
{
    return PMPI_T_pvar_session_create(session);
}

ABI_FN(int, T_pvar_session_free, (MPI_T_pvar_session *session))
{
    return PMPI_T_pvar_session_free(session);
}

ABI_FN(int, T_pvar_handle_alloc, (MPI_T_pvar_session session,
                                  int pvar_index, void *obj_handle,
                                  MPI_T_pvar_handle *handle, int *count))
{
    int bind = MPI_T_BIND_NO_OBJECT;
    union shmpi_abi_bound u;
    PMPI_T_pvar_get_info(pvar_index, NULL, NULL, NULL, NULL, NULL, NULL,
                         NULL, NULL, &bind, NULL, NULL, NULL);
    void *obj = shmpi_abi_bound_in(bind, obj_handle, &u);
    return PMPI_T_pvar_handle_alloc(session, pvar_index, obj, handle,
                                    count);
}

ABI_FN(int, T_pvar_handle_free, (MPI_T_pvar_session session,
                                 MPI_T_pvar_handle *handle))
{
    return PMPI_T_pvar_handle_free(session, handle);
}

/* MPI_T_pvar_start, _stop, _reset: a session and a handle. */
#define ABI_PVAR_OP(name)                                                  \
    ABI_FN(int, name, (MPI_T_pvar_session session,                         \
                       MPI_T_pvar_handle handle))                          \
    {                                                                      \
        return PMPI_##name(session, handle);                               \
    }
ABI_PVAR_OP(T_pvar_start)
ABI_PVAR_OP(T_pvar_stop)
ABI_PVAR_OP(T_pvar_reset)

ABI_FN(int, T_pvar_read, (MPI_T_pvar_session session,
                          MPI_T_pvar_handle handle, void *buf))
{
    return PMPI_T_pvar_read(session, handle, buf);
}

ABI_FN(int, T_pvar_readreset, (MPI_T_pvar_session session,
                               MPI_T_pvar_handle handle, void *buf))
{
    return PMPI_T_pvar_readreset(session, handle, buf);
}

ABI_FN(int, T_pvar_write, (MPI_T_pvar_session session,
                           MPI_T_pvar_handle handle, const void *buf))
{
    return PMPI_T_pvar_write(session, handle, buf);
}

ABI_FN(int, T_category_get_num, (int *num_cat))
{
    return PMPI_T_category_get_num(num_cat);
}

ABI_FN(int, T_category_get_info, (int cat_index, char *name, int *name_len,
                                  char *desc, int *desc_len, int *num_cvars,
                                  int *num_pvars, int *num_categories))
{
    return PMPI_T_category_get_info(cat_index, name, name_len, desc,
                                    desc_len, num_cvars, num_pvars,
                                    num_categories);
}

ABI_FN(int, T_category_get_index, (const char *name, int *cat_index))
{
    return PMPI_T_category_get_index(name, cat_index);
}

/* MPI_T_category_get_cvars, _pvars, _categories, _events: indices. */
#define ABI_CATEGORY_LIST(name)                                            \
    ABI_FN(int, name, (int cat_index, int len, int indices[]))             \
    {                                                                      \
        return PMPI_##name(cat_index, len, indices);                       \
    }
ABI_CATEGORY_LIST(T_category_get_cvars)
ABI_CATEGORY_LIST(T_category_get_pvars)
ABI_CATEGORY_LIST(T_category_get_categories)
ABI_CATEGORY_LIST(T_category_get_events)

ABI_FN(int, T_category_get_num_events, (int cat_index, int *num_events))
{
    return PMPI_T_category_get_num_events(cat_index, num_events);
}

ABI_FN(int, T_category_changed, (int *stamp))
{
    return PMPI_T_category_changed(stamp);
}
