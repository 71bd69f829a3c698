/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * split_hw.c - the hardware levels of MPI_Comm_split_type (MPI-4.0
 * 7.4.2): MPI_COMM_TYPE_HW_GUIDED and MPI_COMM_TYPE_HW_UNGUIDED; and
 * MPI-4.1's MPI_Get_hw_resource_info, which names them.
 *
 * A process belongs to one instance of a level (one NUMA node, one L3
 * cache, one core...) when every CPU of its affinity mask is in that
 * instance: the launcher's binding (launcher/bind.c, --bind-to) decides
 * it, a rank bound to a core is in one core, one L2 cache, ... and an
 * unbound rank (--bind-to none) is in no instance of any level below
 * the machine.  The instances come from sysfs and libnuma, named by a
 * number the whole machine agrees on (a CPU number, a NUMA node, a
 * package id), so the processes of one instance compute the same color
 * on their own, and the split itself is MPI_Comm_split's:
 *
 *   level       value of "mpi_hw_resource_type" (any case; also with
 *               the "hwloc://" prefix MPI-4.1 examples use)   instance id
 *   machine     mpi_shared_memory, machine, node              0
 *   package     package, socket                 topology/physical_package_id
 *   NUMA node   numanode, numa                  numa_node_of_cpu()
 *   L3, L2, L1  l3cache, l2cache, l1cache (and l3ucache, l1dcache ...)
 *                                               first CPU of the data or
 *                                               unified cache's
 *                                               shared_cpu_list
 *   core        core                            first CPU of core_cpus_list
 *                                               (thread_siblings_list)
 *   hwthread    hwthread, pu                    the CPU
 *
 * HW_GUIDED: the level named by the info key; a process in no instance
 * of it, MPI_INFO_NULL, an info without the key or a value not in the
 * table give MPI_COMM_NULL (the standard's cases).  HW_UNGUIDED: the
 * largest level below the machine, in the order of the table, that
 * splits comm into strict subsets - one allreduce finds it - and its
 * value is set in info (unless MPI_INFO_NULL) at the processes that get
 * a communicator.  Both work on intracommunicators; HW_UNGUIDED's
 * search cannot see both groups of an intercommunicator, so it refuses
 * one (MPI_ERR_COMM) where HW_GUIDED splits each side as SHARED does.
 *
 * MPI_Get_hw_resource_info: one key per level sysfs describes, in the
 * URI form "hwloc://Type" with hwloc's type names (the form MPI-4.1's
 * examples use, and a value HW_GUIDED accepts as it is), "true" when
 * this process is in one instance of it - HW_GUIDED of that value gives
 * it a communicator - and "false" when its CPUs lie in several.
 */
#include <limits.h>
#include <numa.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "comm/comm.h"
#include "core/affinity.h"
#include "core/error.h"
#include "core/info.h"
#include "core/pmpi.h"
#include "core/proc.h"

SHMPI_WEAK_ALIAS(Get_hw_resource_info)

#define SYSCPU "/sys/devices/system/cpu/cpu%d/"

enum level { LV_MACHINE, LV_PACKAGE, LV_NUMA, LV_L3, LV_L2, LV_L1, LV_CORE,
             LV_HWTHREAD, NLEVELS };

static const struct {
    const char *name;          /* the value HW_UNGUIDED reports */
    const char *also[4];       /* other values HW_GUIDED accepts */
    const char *hwloc;         /* MPI_Get_hw_resource_info's key */
} levels[NLEVELS] = {
    [LV_MACHINE] = {"mpi_shared_memory", {"machine", "node"},
                    "hwloc://Machine"},
    [LV_PACKAGE] = {"package", {"socket"}, "hwloc://Package"},
    [LV_NUMA] = {"numanode", {"numa"}, "hwloc://NUMANode"},
    [LV_L3] = {"l3cache", {"l3ucache", "l3dcache"}, "hwloc://L3Cache"},
    [LV_L2] = {"l2cache", {"l2ucache", "l2dcache"}, "hwloc://L2Cache"},
    [LV_L1] = {"l1cache", {"l1ucache", "l1dcache"}, "hwloc://L1Cache"},
    [LV_CORE] = {"core", {0}, "hwloc://Core"},
    [LV_HWTHREAD] = {"hwthread", {"pu"}, "hwloc://PU"},
};

/* The level a value names, or -1. */
static int level_named(const char *value)
{
    if (!strncasecmp(value, "hwloc://", 8))
        value += 8;
    for (int l = 0; l < NLEVELS; l++) {
        if (!strcasecmp(value, levels[l].name))
            return l;
        for (int a = 0; a < 4 && levels[l].also[a]; a++)
            if (!strcasecmp(value, levels[l].also[a]))
                return l;
    }
    return -1;
}

/* The first number of a sysfs file ("3", or a list "3-5,8"), or -1. */
static int read_first_int(const char *path)
{
    FILE *f = fopen(path, "re");
    int v = -1;
    if (f) {
        if (fscanf(f, "%d", &v) != 1)
            v = -1;
        fclose(f);
    }
    return v;
}

static int cpu_file_int(int cpu, const char *file)
{
    char path[128];
    snprintf(path, sizeof path, SYSCPU "%s", cpu, file);
    return read_first_int(path);
}

/* The first CPU sharing cpu's data or unified cache of `level`, or -1. */
static int cache_id(int cpu, int level)
{
    char path[128], type[16];
    for (int i = 0; i < 16; i++) {
        snprintf(path, sizeof path, SYSCPU "cache/index%d/level", cpu, i);
        int lv = read_first_int(path);
        if (lv < 0)
            return -1; /* no more caches */
        if (lv != level)
            continue;
        snprintf(path, sizeof path, SYSCPU "cache/index%d/type", cpu, i);
        FILE *f = fopen(path, "re");
        int got = f && fscanf(f, "%15s", type) == 1;
        if (f)
            fclose(f);
        if (!got || !strcmp(type, "Instruction"))
            continue;
        snprintf(path, sizeof path, SYSCPU "cache/index%d/shared_cpu_list",
                 cpu, i);
        return read_first_int(path);
    }
    return -1;
}

/* The instance of level l that holds cpu, or -1 if sysfs does not say. */
static int instance_of(int cpu, int l)
{
    switch ((enum level)l) {
    case LV_MACHINE:
        return 0;
    case LV_PACKAGE:
        return cpu_file_int(cpu, "topology/physical_package_id");
    case LV_NUMA:
        /* without NUMA support the machine is one node */
        return numa_available() < 0 ? 0 : numa_node_of_cpu(cpu);
    case LV_L3:
        return cache_id(cpu, 3);
    case LV_L2:
        return cache_id(cpu, 2);
    case LV_L1:
        return cache_id(cpu, 1);
    case LV_CORE: {
        int first = cpu_file_int(cpu, "topology/core_cpus_list");
        return first >= 0 ? first
                          : cpu_file_int(cpu, "topology/thread_siblings_list");
    }
    case LV_HWTHREAD:
    case NLEVELS:
        break;
    }
    return cpu;
}

/* This process's instance of every level: -2 where its CPUs lie in
   several instances, -1 where sysfs does not tell.  0, or -1 without
   memory or affinity. */
static int my_instances(int inst[NLEVELS])
{
    size_t size;
    int ncpus;
    cpu_set_t *set = shmpi_core_affinity(&size, &ncpus);
    if (!set)
        return -1;
    for (int l = 0; l < NLEVELS; l++)
        inst[l] = INT_MIN; /* no CPU seen yet */
    for (int cpu = 0; ncpus > 0 && cpu < (int)size * 8; cpu++) {
        if (!CPU_ISSET_S((size_t)cpu, size, set))
            continue;
        ncpus--;
        for (int l = 0; l < NLEVELS; l++) {
            if (inst[l] != INT_MIN && inst[l] < 0)
                continue; /* decided */
            int id = instance_of(cpu, l);
            inst[l] = id < 0 ? -1 : inst[l] == INT_MIN || inst[l] == id ? id
                                                                        : -2;
        }
    }
    CPU_FREE(set);
    for (int l = 0; l < NLEVELS; l++)
        if (inst[l] == INT_MIN)
            inst[l] = -1;
    return 0;
}

/* MPI_COMM_TYPE_HW_GUIDED: this process's color. */
int shmpi_comm_hw_guided_color(MPI_Info info)
{
    const char *value = shmpi_info_get(info, "mpi_hw_resource_type");
    int inst[NLEVELS];
    int l = value ? level_named(value) : -1;
    if (l < 0 || my_instances(inst) != 0 || inst[l] < 0)
        return MPI_UNDEFINED;
    return inst[l];
}

/* MPI_COMM_TYPE_HW_UNGUIDED: the level (or -1) and this process's color
   in it, agreed on over comm (an intracommunicator): per level, MIN of
   {-restricted, restricted, lowest id, -highest id}. */
int shmpi_comm_hw_unguided_color(MPI_Comm comm, int *color, int *level,
                                 const char *fn)
{
    int inst[NLEVELS], v[4 * NLEVELS], all[4 * NLEVELS];
    if (my_instances(inst) != 0)
        for (int l = 0; l < NLEVELS; l++)
            inst[l] = -1; /* takes part, in no instance */
    for (int l = 0; l < NLEVELS; l++) {
        int in = inst[l] >= 0;
        v[4 * l] = -in;
        v[4 * l + 1] = in;
        v[4 * l + 2] = in ? inst[l] : INT_MAX;
        v[4 * l + 3] = in ? -inst[l] : INT_MAX;
    }
    int rc = PMPI_Allreduce(v, all, 4 * NLEVELS, MPI_INT, MPI_MIN, comm);
    if (rc != MPI_SUCCESS)
        return shmpi_raise(comm, rc, fn, "the processes could not agree on "
                           "a hardware level");
    *level = -1;
    for (int l = LV_MACHINE + 1; l < NLEVELS && *level < 0; l++) {
        int any = -all[4 * l], every = all[4 * l + 1];
        int one = all[4 * l + 2] == -all[4 * l + 3];
        if (any && !(every && one)) /* strict subsets of comm */
            *level = l;
    }
    *color = *level >= 0 && inst[*level] >= 0 ? inst[*level] : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

/* The value naming a level (for the info of HW_UNGUIDED). */
const char *shmpi_comm_hw_level_name(int level)
{
    return levels[level].name;
}

int PMPI_Get_hw_resource_info(MPI_Info *hw_info)
{
    static const char fn[] = "MPI_Get_hw_resource_info";
    SHMPI_REQUIRE_INIT(fn);
    if (!hw_info)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "hw_info is NULL");
    int inst[NLEVELS];
    struct shmpi_info *info = shmpi_info_new();
    int rc = info && my_instances(inst) == 0 ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (int l = 0; l < NLEVELS && rc == MPI_SUCCESS; l++)
        if (inst[l] != -1) /* a level sysfs describes */
            rc = shmpi_info_set(info, levels[l].hwloc,
                                inst[l] >= 0 ? "true" : "false");
    if (rc != MPI_SUCCESS) {
        if (info)
            shmpi_info_destroy(info);
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn,
                           "no memory for the info object, or no affinity");
    }
    *hw_info = info;
    return MPI_SUCCESS;
}
