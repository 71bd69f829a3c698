/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * win_f2c.c - the Fortran integers of windows (MPI-3.1 17.2.4), on
 * core/fint.h's tables: MPI_WIN_NULL is 0, windows are numbered at their
 * first MPI_Win_c2f and give their number back at MPI_Win_free.
 */
#include "core/error.h"
#include "core/fint.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "rma/win.h"

SHMPI_WEAK_ALIAS(Win_c2f)
SHMPI_WEAK_ALIAS(Win_f2c)

static struct shmpi_win invalid_win;
static const struct shmpi_fint_kind wins = {
    SHMPI_FINT_WIN, 1, (void *const[]){MPI_WIN_NULL}, &invalid_win};

MPI_Fint PMPI_Win_c2f(MPI_Win win)
{
    static const char fn[] = "MPI_Win_c2f";
    SHMPI_REQUIRE_INIT(fn);
    if (win == MPI_WIN_NULL)
        return 0;
    if (!shmpi_win_ok(win))
        return shmpi_fint_raise_bad(MPI_ERR_WIN, fn,
                                    "win is not a valid window (freed, or "
                                    "never made)");
    return shmpi_fint_of(&wins, win, &win->fint, fn);
}

MPI_Win PMPI_Win_f2c(MPI_Fint win)
{
    SHMPI_REQUIRE_INIT("MPI_Win_f2c");
    return shmpi_fint_object(&wins, win);
}
