/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check.c - the check mode's switch and its one report line (check.h).
 */
#include "core/check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/proc.h"
#include "core/tunables.h"

void shmpi_core_check_configure(const struct shmpi_tun_set *s)
{
    if (s->value[SHMPI_TUN_CHECK])
        atomic_fetch_or_explicit(&shmpi_proc.watch.on, SHMPI_WATCH_CHECK,
                                 memory_order_relaxed);
    else
        atomic_fetch_and_explicit(&shmpi_proc.watch.on, ~SHMPI_WATCH_CHECK,
                                  memory_order_relaxed);
}

/* The launcher reads the count after the rank exited (the exit orders
   it after this store, shm_arena/arena.h); a singleton has a slot too. */
static void count_report(void)
{
    if (shmpi_proc.slot)
        atomic_fetch_add_explicit(&shmpi_proc.slot->check_reports, 1,
                                  memory_order_relaxed);
}

void shmpi_core_check_report(const char *what, const char *section,
                             const char *fix, const char *calls, ...)
{
    char line[1024];
    int n = snprintf(line, sizeof line, "shmpi check: rank %d: %s (MPI-3.1 "
                     "%s): ", shmpi_proc.rank, what, section);
    va_list ap;
    va_start(ap, calls);
    if (n > 0 && (size_t)n < sizeof line)
        n += vsnprintf(line + n, sizeof line - (size_t)n, calls, ap);
    va_end(ap);
    if (n > 0 && (size_t)n < sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, "; fix: %s", fix);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof line - 1 ? (size_t)n
                                                        : sizeof line - 2;
    line[len++] = '\n';
    /* one write: the line whole, whatever the stdio buffering */
    ssize_t w = write(2, line, len);
    (void)w;
    count_report();
}
