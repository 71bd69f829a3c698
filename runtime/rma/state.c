/*
 * state.c - shmpi_proc.rma, made at MPI_Init (state.h).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>

#include "core/proc.h"
#include "rma/state.h"

int shmpi_rma_init(void)
{
    shmpi_proc.rma = calloc(1, sizeof *shmpi_proc.rma);
    return shmpi_proc.rma ? 0 : -1;
}
