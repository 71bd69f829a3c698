/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rma.c - the ABI's one-sided communication (abi.h): windows, their
 * epochs and the RMA calls.  MPI_WIN_NULL is 0x110; target ranks, and
 * MPI_PROC_NULL, and the assertion bits (MPI_MODE_NOCHECK 1024 ...
 * MPI_MODE_NOSUCCEED 16384) have one value in both and pass as they
 * are; the lock types (the ABI's 301, 302) are translated.
 */
#include "abi/abi.h"

static inline abi_Win win_out(MPI_Win w)
{
    return w ? (abi_Win)(void *)w : (abi_Win)ABI_WIN_FIRST;
}

static int lock_type_in(int t)
{
    return t == 301 ? MPI_LOCK_EXCLUSIVE : t == 302 ? MPI_LOCK_SHARED : -1;
}

/* ---- windows ---- */
/* Each window constructor, and its large-count (_c) form: D is the type
   of the displacement unit. */
#define ABI_WIN_CREATE(name, D)                                            \
    ABI_FN(int, name, (void *base, MPI_Aint size, D disp_unit,             \
                       abi_Info info, abi_Comm comm, abi_Win *win))        \
    {                                                                      \
        MPI_Win w;                                                         \
        int rc = PMPI_##name(base, size, disp_unit, info_in(info),         \
                             comm_in(comm), win ? &w : NULL);              \
        if (rc == MPI_SUCCESS)                                             \
            *win = win_out(w);                                             \
        return rc;                                                         \
    }
ABI_WIN_CREATE(Win_create, int)
ABI_WIN_CREATE(Win_create_c, MPI_Aint)

/* MPI_Win_allocate and _allocate_shared. */
#define ABI_WIN_ALLOCATE(name, D)                                          \
    ABI_FN(int, name, (MPI_Aint size, D disp_unit, abi_Info info,          \
                       abi_Comm comm, void *baseptr, abi_Win *win))        \
    {                                                                      \
        MPI_Win w;                                                         \
        int rc = PMPI_##name(size, disp_unit, info_in(info),               \
                             comm_in(comm), baseptr, win ? &w : NULL);     \
        if (rc == MPI_SUCCESS)                                             \
            *win = win_out(w);                                             \
        return rc;                                                         \
    }
ABI_WIN_ALLOCATE(Win_allocate, int)
ABI_WIN_ALLOCATE(Win_allocate_c, MPI_Aint)
ABI_WIN_ALLOCATE(Win_allocate_shared, int)
ABI_WIN_ALLOCATE(Win_allocate_shared_c, MPI_Aint)

ABI_FN(int, Win_create_dynamic, (abi_Info info, abi_Comm comm,
                                 abi_Win *win))
{
    MPI_Win w;
    int rc = PMPI_Win_create_dynamic(info_in(info), comm_in(comm),
                                     win ? &w : NULL);
    if (rc == MPI_SUCCESS)
        *win = win_out(w);
    return rc;
}

#define ABI_SHARED_QUERY(name, D)                                          \
    ABI_FN(int, name, (abi_Win win, int rank, MPI_Aint *size,              \
                       D *disp_unit, void *baseptr))                       \
    {                                                                      \
        return PMPI_##name(win_in(win), rank, size,                        \
                           disp_unit, baseptr);                            \
    }
ABI_SHARED_QUERY(Win_shared_query, int)
ABI_SHARED_QUERY(Win_shared_query_c, MPI_Aint)

ABI_FN(int, Win_attach, (abi_Win win, void *base, MPI_Aint size))
{
    return PMPI_Win_attach(win_in(win), base, size);
}

ABI_FN(int, Win_detach, (abi_Win win, const void *base))
{
    return PMPI_Win_detach(win_in(win), base);
}

ABI_FN(int, Win_free, (abi_Win *win))
{
    MPI_Win w = win ? win_in(*win) : NULL;
    int rc = PMPI_Win_free(win ? &w : NULL);
    if (win)
        *win = win_out(w);
    return rc;
}

ABI_FN(int, Win_get_group, (abi_Win win, abi_Group *group))
{
    MPI_Group g;
    int rc = PMPI_Win_get_group(win_in(win), group ? &g : NULL);
    MADE(rc, group, g, abi_Group, GROUP);
    return rc;
}

ABI_FN(int, Win_set_name, (abi_Win win, const char *win_name))
{
    return PMPI_Win_set_name(win_in(win), win_name);
}

ABI_FN(int, Win_get_name, (abi_Win win, char *win_name, int *resultlen))
{
    return PMPI_Win_get_name(win_in(win), win_name, resultlen);
}

ABI_FN(int, Win_set_info, (abi_Win win, abi_Info info))
{
    return PMPI_Win_set_info(win_in(win), info_in(info));
}

ABI_FN(int, Win_get_info, (abi_Win win, abi_Info *info_used))
{
    MPI_Info in;
    int rc = PMPI_Win_get_info(win_in(win), info_used ? &in : NULL);
    MADE(rc, info_used, in, abi_Info, INFO);
    return rc;
}

/* ---- epochs ---- */
ABI_FN(int, Win_fence, (int assert, abi_Win win))
{
    return PMPI_Win_fence(assert, win_in(win));
}

ABI_FN(int, Win_lock, (int lock_type, int rank, int assert, abi_Win win))
{
    return PMPI_Win_lock(lock_type_in(lock_type), rank, assert, win_in(win));
}

ABI_FN(int, Win_lock_all, (int assert, abi_Win win))
{
    return PMPI_Win_lock_all(assert, win_in(win));
}

/* The calls on a window and a rank. */
#define ABI_WIN_RANK(name)                                                 \
    ABI_FN(int, name, (int rank, abi_Win win))                             \
    {                                                                      \
        return PMPI_##name(rank, win_in(win));                             \
    }
ABI_WIN_RANK(Win_unlock)
ABI_WIN_RANK(Win_flush)
ABI_WIN_RANK(Win_flush_local)

/* The calls on a window alone. */
#define ABI_WIN_ONLY(name)                                                 \
    ABI_FN(int, name, (abi_Win win))                                       \
    {                                                                      \
        return PMPI_##name(win_in(win));                                   \
    }
ABI_WIN_ONLY(Win_unlock_all)
ABI_WIN_ONLY(Win_flush_all)
ABI_WIN_ONLY(Win_flush_local_all)
ABI_WIN_ONLY(Win_sync)
ABI_WIN_ONLY(Win_complete)
ABI_WIN_ONLY(Win_wait)

/* MPI_Win_post and _start, on a group. */
#define ABI_WIN_GROUP(name)                                                \
    ABI_FN(int, name, (abi_Group group, int assert, abi_Win win))          \
    {                                                                      \
        return PMPI_##name(group_in(group), assert, win_in(win));          \
    }
ABI_WIN_GROUP(Win_post)
ABI_WIN_GROUP(Win_start)

ABI_FN(int, Win_test, (abi_Win win, int *flag))
{
    return PMPI_Win_test(win_in(win), flag);
}

/* ---- the RMA calls ---- */

/* Each RMA call below is made with int counts (C) and as its
   large-count (_c) form. */

/* Put and Get, and their request forms Rput and Rget. */
#define ABI_RMA(name, Rname, origin_t, C)                                  \
    ABI_FN(int, name, (origin_t origin, C origin_count,                    \
                       abi_Datatype origin_dt, int target_rank,            \
                       MPI_Aint target_disp, C target_count,               \
                       abi_Datatype target_dt, abi_Win win))               \
    {                                                                      \
        return PMPI_##name(origin, origin_count, dt_in(origin_dt),         \
                           target_rank, target_disp,                       \
                           target_count, dt_in(target_dt),                 \
                           win_in(win));                                   \
    }                                                                      \
    ABI_FN(int, Rname, (origin_t origin, C origin_count,                   \
                        abi_Datatype origin_dt, int target_rank,           \
                        MPI_Aint target_disp, C target_count,              \
                        abi_Datatype target_dt, abi_Win win,               \
                        abi_Request *request))                             \
    {                                                                      \
        return PMPI_##Rname(origin, origin_count, dt_in(origin_dt),        \
                            target_rank, target_disp, target_count,        \
                            dt_in(target_dt), win_in(win),                 \
                            reqp_in(request));                             \
    }
ABI_RMA(Put, Rput, const void *, int)
ABI_RMA(Put_c, Rput_c, const void *, MPI_Count)
ABI_RMA(Get, Rget, void *, int)
ABI_RMA(Get_c, Rget_c, void *, MPI_Count)

/* Accumulate and Raccumulate. */
#define ABI_ACC(name, Rname, C)                                            \
    ABI_FN(int, name, (const void *origin, C origin_count,                 \
                       abi_Datatype origin_dt, int target_rank,            \
                       MPI_Aint target_disp, C target_count,               \
                       abi_Datatype target_dt, abi_Op op, abi_Win win))    \
    {                                                                      \
        return PMPI_##name(origin, origin_count, dt_in(origin_dt),         \
                           target_rank, target_disp,                       \
                           target_count, dt_in(target_dt),                 \
                           op_in(op), win_in(win));                        \
    }                                                                      \
    ABI_FN(int, Rname, (const void *origin, C origin_count,                \
                        abi_Datatype origin_dt, int target_rank,           \
                        MPI_Aint target_disp, C target_count,              \
                        abi_Datatype target_dt, abi_Op op, abi_Win win,    \
                        abi_Request *request))                             \
    {                                                                      \
        return PMPI_##Rname(origin, origin_count, dt_in(origin_dt),        \
                            target_rank, target_disp, target_count,        \
                            dt_in(target_dt), op_in(op), win_in(win),      \
                            reqp_in(request));                             \
    }
ABI_ACC(Accumulate, Raccumulate, int)
ABI_ACC(Accumulate_c, Raccumulate_c, MPI_Count)

/* Get_accumulate and Rget_accumulate. */
#define ABI_GET_ACC(name, Rname, C)                                        \
    ABI_FN(int, name, (const void *origin, C origin_count,                 \
                       abi_Datatype origin_dt, void *result,               \
                       C result_count, abi_Datatype result_dt,             \
                       int target_rank, MPI_Aint target_disp,              \
                       C target_count, abi_Datatype target_dt, abi_Op op,  \
                       abi_Win win))                                       \
    {                                                                      \
        return PMPI_##name(origin, origin_count, dt_in(origin_dt), result, \
                           result_count, dt_in(result_dt), target_rank,    \
                           target_disp, target_count, dt_in(target_dt),    \
                           op_in(op), win_in(win));                        \
    }                                                                      \
    ABI_FN(int, Rname, (const void *origin, C origin_count,                \
                        abi_Datatype origin_dt, void *result,              \
                        C result_count, abi_Datatype result_dt,            \
                        int target_rank, MPI_Aint target_disp,             \
                        C target_count, abi_Datatype target_dt, abi_Op op, \
                        abi_Win win, abi_Request *request))                \
    {                                                                      \
        return PMPI_##Rname(origin, origin_count, dt_in(origin_dt),        \
                            result, result_count, dt_in(result_dt),        \
                            target_rank, target_disp, target_count,        \
                            dt_in(target_dt), op_in(op), win_in(win),      \
                            reqp_in(request));                             \
    }
ABI_GET_ACC(Get_accumulate, Rget_accumulate, int)
ABI_GET_ACC(Get_accumulate_c, Rget_accumulate_c, MPI_Count)

ABI_FN(int, Fetch_and_op, (const void *origin, void *result,
                           abi_Datatype dt, int target_rank,
                           MPI_Aint target_disp, abi_Op op, abi_Win win))
{
    return PMPI_Fetch_and_op(origin, result, dt_in(dt),
                             target_rank, target_disp,
                             op_in(op), win_in(win));
}

ABI_FN(int, Compare_and_swap, (const void *origin, const void *compare,
                               void *result, abi_Datatype dt,
                               int target_rank, MPI_Aint target_disp,
                               abi_Win win))
{
    return PMPI_Compare_and_swap(origin, compare, result, dt_in(dt),
                                 target_rank, target_disp,
                                 win_in(win));
}
