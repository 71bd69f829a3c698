/*
 * state.c - shmpi_proc.rma, made at MPI_Init (state.h), and the wait of
 * every blocking RMA call (shmpi_rma_wait).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
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
    const struct shmpi_rma_waitfor *what;
    void *arg;
    int progress;
};

static int ready_or_progress(void *p)
{
    struct rma_wait *w = p;
    if (w->what->ready(w->arg))
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

/* For the launcher's wait-for graph (core/wait.h): the wait's own line. */
static int describe_rma(void *arg, char *buf, size_t len)
{
    struct rma_wait *w = arg;
    if (w->what->describe)
        return w->what->describe(w->arg, buf, len);
    snprintf(buf, len, "an RMA synchronization");
    return -1;
}

static const struct shmpi_core_waitfor rma_waitfor = {ready_or_progress,
                                                      describe_rma};

void shmpi_rma_wait(const struct shmpi_rma_waitfor *what, void *arg,
                    int progress)
{
    struct rma_wait w = {what, arg, progress};
    shmpi_core_wait_for(&rma_waitfor, &w, SHMPI_WAIT_ALL_LANES);
}
