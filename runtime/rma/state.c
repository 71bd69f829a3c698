/*
 * state.c - shmpi_proc.rma, made at MPI_Init (state.h), and the wait of
 * every blocking RMA call (shmpi_rma_wait).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>

#include "core/proc.h"
#include "core/wait.h"
#include "pt2pt/progress.h"
#include "rma/state.h"

int shmpi_rma_init(void)
{
    shmpi_proc.rma = calloc(1, sizeof *shmpi_proc.rma);
    return shmpi_proc.rma ? 0 : -1;
}

struct rma_wait {
    int (*ready)(void *);
    void *arg;
    int progress;
};

static int ready_or_progress(void *p)
{
    struct rma_wait *w = p;
    if (w->ready(w->arg))
        return 1;
    if (w->progress)
        shmpi_p2p_progress();
    return 0;
}

/* The pt2pt engine is safe to turn from several threads (a lane
   another thread holds is skipped: pt2pt/lane.h), and the wait loop
   keeps threads of one rank from spinning against each other
   (core/wait.c), so every thread's RMA wait is the plain one. */
void shmpi_rma_progress(void)
{
    shmpi_p2p_progress();
}

void shmpi_rma_wait(int (*ready)(void *), void *arg, int progress)
{
    struct rma_wait w = {ready, arg, progress};
    shmpi_core_wait_until(ready_or_progress, &w);
}
