/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bind.c - which CPUs each rank may run on.
 *
 * The job runs inside the launcher's own affinity mask (taskset, cgroup
 * cpusets and batch systems all narrow it), so that mask, not the
 * machine, is the pool.  Its CPUs are grouped into cores through sysfs
 * (topology/core_cpus_list, or thread_siblings_list on older kernels; a
 * CPU without either is a core of its own), reading one file per core,
 * not per CPU, and only when binding or reporting needs cores at all.
 * Rank i gets core i % ncores: with more ranks than cores the cores are
 * shared round-robin (oversubscription is allowed), and a rank bound to
 * a core may use all of its hardware threads.  Binding itself happens in
 * the child between clone and exec (spawn.c), so a rank never runs, nor
 * allocates memory, on a CPU it is not bound to.  libnuma only names the
 * NUMA node of each core for --report-bindings.
 */
#include <fcntl.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/affinity.h"
#include "launcher/job.h"

#define SYSCPU "/sys/devices/system/cpu/cpu%d/topology/%s"

static int cpu_limit(const struct shmpi_ln_topo *t)
{
    return (int)(t->setsize * 8);
}

/* The calling thread's affinity (core/affinity.h). */
int shmpi_ln_topo_read(struct shmpi_ln_topo *t)
{
    t->allowed = shmpi_core_affinity(&t->setsize, &t->ncpus);
    return t->allowed ? 0 : -1;
}

static int read_small_file(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    return 0;
}

/* Parses a sysfs CPU list ("0-3,8,10-11") into set. */
static void parse_cpu_list(const char *s, cpu_set_t *set, size_t size)
{
    while (*s >= '0' && *s <= '9') {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (*end == '-')
            b = strtol(end + 1, &end, 10);
        for (long c = a; c <= b && c < (long)size * 8; c++)
            CPU_SET_S((size_t)c, size, set);
        s = *end == ',' ? end + 1 : end;
    }
}

/* The allowed CPUs sharing a core with cpu (at least cpu itself). */
static cpu_set_t *core_of(const struct shmpi_ln_topo *t, int cpu)
{
    cpu_set_t *core = CPU_ALLOC((size_t)cpu_limit(t));
    if (!core)
        return NULL;
    CPU_ZERO_S(t->setsize, core);
    char path[128], buf[4096];
    snprintf(path, sizeof path, SYSCPU, cpu, "core_cpus_list");
    if (read_small_file(path, buf, sizeof buf) == 0) {
        parse_cpu_list(buf, core, t->setsize);
    } else {
        snprintf(path, sizeof path, SYSCPU, cpu, "thread_siblings_list");
        if (read_small_file(path, buf, sizeof buf) == 0)
            parse_cpu_list(buf, core, t->setsize);
    }
    CPU_AND_S(t->setsize, core, core, t->allowed);
    CPU_SET_S((size_t)cpu, t->setsize, core);
    return core;
}

int shmpi_ln_topo_cores(struct shmpi_ln_topo *t)
{
    t->cores = calloc((size_t)t->ncpus, sizeof *t->cores);
    cpu_set_t *seen = CPU_ALLOC((size_t)cpu_limit(t));
    if (!t->cores || !seen) {
        CPU_FREE(seen);
        return -1;
    }
    CPU_ZERO_S(t->setsize, seen);
    for (int c = 0; c < cpu_limit(t) && t->ncores < t->ncpus; c++) {
        if (!CPU_ISSET_S((size_t)c, t->setsize, t->allowed) ||
            CPU_ISSET_S((size_t)c, t->setsize, seen))
            continue;
        cpu_set_t *core = core_of(t, c);
        if (!core)
            break;
        CPU_OR_S(t->setsize, seen, seen, core);
        t->cores[t->ncores++] = core;
    }
    CPU_FREE(seen);
    return t->ncores > 0 ? 0 : -1;
}

void shmpi_ln_topo_plan(struct shmpi_ln_topo *t, enum shmpi_bind b, int np)
{
    t->bind = t->ncores > 0 && (b == SHMPI_BIND_CORE ||
                                (b == SHMPI_BIND_AUTO && np <= t->ncores));
}

const cpu_set_t *shmpi_ln_topo_rank_cpus(const struct shmpi_ln_topo *t,
                                         int rank)
{
    return t->bind ? t->cores[rank % t->ncores] : NULL;
}

/* "0-3,8" for set, cut with "..." if it does not fit. */
static void format_cpus(const struct shmpi_ln_topo *t, const cpu_set_t *set,
                        char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int c = 0; c < cpu_limit(t); c++) {
        if (!CPU_ISSET_S((size_t)c, t->setsize, set))
            continue;
        int last = c;
        while (last + 1 < cpu_limit(t) &&
               CPU_ISSET_S((size_t)last + 1, t->setsize, set))
            last++;
        int w = last > c ? snprintf(buf + n, size - n, "%s%d-%d", n ? "," : "",
                                    c, last)
                         : snprintf(buf + n, size - n, "%s%d", n ? "," : "", c);
        if (w < 0 || (size_t)w >= size - n) {
            snprintf(buf + (size > 4 ? size - 4 : 0), 4, "...");
            return;
        }
        n += (size_t)w;
        c = last;
    }
}

static int first_cpu(const struct shmpi_ln_topo *t, const cpu_set_t *set)
{
    for (int c = 0; c < cpu_limit(t); c++)
        if (CPU_ISSET_S((size_t)c, t->setsize, set))
            return c;
    return 0;
}

void shmpi_ln_topo_report(const struct shmpi_ln_topo *t, int np,
                          const char *tool)
{
    char cpus[160];
    bool numa = numa_available() >= 0;
    for (int r = 0; r < np; r++) {
        const cpu_set_t *set = shmpi_ln_topo_rank_cpus(t, r);
        if (!set) {
            format_cpus(t, t->allowed, cpus, sizeof cpus);
            shmpi_ln_say(tool, "rank %d not bound (cpus %s)", r, cpus);
            continue;
        }
        format_cpus(t, set, cpus, sizeof cpus);
        int node = numa ? numa_node_of_cpu(first_cpu(t, set)) : -1;
        char nodestr[16] = "unknown";
        if (node >= 0)
            snprintf(nodestr, sizeof nodestr, "%d", node);
        shmpi_ln_say(tool, "rank %d bound to core %d (cpus %s) numa node %s", r,
                     r % t->ncores, cpus, nodestr);
    }
}

void shmpi_ln_topo_free(struct shmpi_ln_topo *t)
{
    for (int i = 0; i < t->ncores; i++)
        CPU_FREE(t->cores[i]);
    free(t->cores);
    if (t->allowed)
        CPU_FREE(t->allowed);
    memset(t, 0, sizeof *t);
}
