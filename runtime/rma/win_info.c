/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * win_info.c - window hints (MPI-3.1 11.2.1, 11.2.7): read at creation
 * and by MPI_Win_set_info, reported by MPI_Win_get_info.
 *
 * The keys shmpi knows are parsed into the window's fields; the others
 * are ignored (9), and so is a value it cannot read, which leaves the
 * hint as it was.  What they change here:
 *   no_locks               the synchronization code may refuse
 *                          MPI_Win_lock (the program promised not to)
 *   accumulate_ordering    "none" or a comma list of rar,raw,war,waw;
 *                          accumulates complete when their call returns,
 *                          so every ordering holds anyway
 *   accumulate_ops         "same_op" or "same_op_no_op"
 *   same_size, same_disp_unit
 *                          promises; nothing is saved by them yet
 *   alloc_shared_noncontig the shared flavor's layout: read at creation
 *                          only (memory already laid out cannot move)
 * MPI_Win_get_info reports the value in use of each of them, the
 * defaults included, as MPICH does: a learner sees what the window does.
 */
#include <string.h>

#include "core/error.h"
#include "core/info.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "rma/win_impl.h"

SHMPI_WEAK_ALIAS(Win_set_info)
SHMPI_WEAK_ALIAS(Win_get_info)

static const char *const orderings[] = {"rar", "raw", "war", "waw"};
#define ORDER_ALL 0xf

/* "none" -> 0, a list of rar/raw/war/waw -> their bits, else -1. */
static int parse_ordering(const char *value)
{
    if (!strcmp(value, "none"))
        return 0;
    int bits = 0;
    const char *p = value;
    while (*p) {
        size_t len = strcspn(p, ",");
        int found = -1;
        for (int i = 0; i < 4; i++)
            if (len == 3 && !strncmp(p, orderings[i], 3))
                found = i;
        if (found < 0)
            return -1;
        bits |= 1 << found;
        p += len + (p[len] == ',');
    }
    return bits ? bits : -1;
}

static void read_hints(MPI_Win w, MPI_Info info)
{
    w->no_locks = shmpi_info_get_bool(info, "no_locks", w->no_locks);
    w->same_size = shmpi_info_get_bool(info, "same_size", w->same_size);
    w->same_disp_unit =
        shmpi_info_get_bool(info, "same_disp_unit", w->same_disp_unit);
    const char *v = shmpi_info_get(info, "accumulate_ordering");
    int bits = v ? parse_ordering(v) : -1;
    if (bits >= 0) {
        w->acc_ordering = bits;
        w->acc_ordering_none = bits == 0;
    }
    v = shmpi_info_get(info, "accumulate_ops");
    if (v && !strcmp(v, "same_op"))
        w->acc_same_op = 1;
    else if (v && !strcmp(v, "same_op_no_op"))
        w->acc_same_op = 0;
}

void shmpi_win_read_info(MPI_Win w, MPI_Info info)
{
    w->acc_ordering = ORDER_ALL;
    read_hints(w, info);
    w->alloc_shared_noncontig =
        shmpi_info_get_bool(info, "alloc_shared_noncontig", 0);
}

int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    static const char *fn = "MPI_Win_set_info";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_win_ok(win))
        return shmpi_win_raise_bad(win, fn);
    if (!shmpi_info_ok(info))
        return shmpi_win_raise(win, MPI_ERR_INFO, fn, "info is %s",
                               info == MPI_INFO_NULL
                                   ? "MPI_INFO_NULL"
                                   : "not a valid info object");
    read_hints(win, info);
    return MPI_SUCCESS;
}

static const char *boolean(int b) { return b ? "true" : "false"; }

static int report(MPI_Win w, struct shmpi_info *info)
{
    char order[20] = "";
    for (int i = 0; i < 4; i++)
        if (w->acc_ordering & (1 << i)) {
            if (order[0])
                strcat(order, ",");
            strcat(order, orderings[i]);
        }
    int rc = shmpi_info_set(info, "no_locks", boolean(w->no_locks));
    if (rc == MPI_SUCCESS)
        rc = shmpi_info_set(info, "accumulate_ordering",
                            order[0] ? order : "none");
    if (rc == MPI_SUCCESS)
        rc = shmpi_info_set(info, "accumulate_ops",
                            w->acc_same_op ? "same_op" : "same_op_no_op");
    if (rc == MPI_SUCCESS)
        rc = shmpi_info_set(info, "same_size", boolean(w->same_size));
    if (rc == MPI_SUCCESS)
        rc = shmpi_info_set(info, "same_disp_unit",
                            boolean(w->same_disp_unit));
    if (rc == MPI_SUCCESS && w->flavor == MPI_WIN_FLAVOR_SHARED)
        rc = shmpi_info_set(info, "alloc_shared_noncontig",
                            boolean(w->alloc_shared_noncontig));
    return rc;
}

int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
    static const char *fn = "MPI_Win_get_info";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_win_ok(win))
        return shmpi_win_raise_bad(win, fn);
    if (!info_used)
        return shmpi_win_raise(win, MPI_ERR_ARG, fn, "info_used is NULL");
    struct shmpi_info *info = shmpi_info_new();
    if (!info || report(win, info) != MPI_SUCCESS) {
        if (info)
            shmpi_info_destroy(info);
        return shmpi_win_raise(win, MPI_ERR_NO_MEM, fn,
                               "no memory for an info object");
    }
    *info_used = info;
    return MPI_SUCCESS;
}
