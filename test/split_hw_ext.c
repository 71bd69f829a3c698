/* split_hw_ext: MPI_Comm_split_type with MPI_COMM_TYPE_HW_GUIDED (mpi_shared_memory as SHARED; hwthread and core groups checked against each rank's affinity and sysfs; levels nested; MPI_COMM_NULL without the key or for an unknown value) and MPI_COMM_TYPE_HW_UNGUIDED (strict subsets, the level reported in info and agreeing with HW_GUIDED, MPI_COMM_NULL when no level splits); Open MPI 4.1 lacks both. */
/* shmpi-test: np=1,2,3,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE
#include "check.h"

#include <sched.h>

static int rank, size;

/* The first number in a sysfs file, or -1. */
static int sys_int(const char *fmt, int cpu)
{
    char path[128];
    int v = -1;
    snprintf(path, sizeof path, fmt, cpu);
    FILE *f = fopen(path, "r");
    if (f) {
        if (fscanf(f, "%d", &v) != 1)
            v = -1;
        fclose(f);
    }
    return v;
}

/* This rank's single CPU (or -1 if it may run on several) and single
   core (the core's first CPU, or -1). */
static void my_cpu_core(int *cpu, int *core)
{
    cpu_set_t set;
    CHECK(sched_getaffinity(0, sizeof set, &set) == 0, "sched_getaffinity");
    *cpu = *core = -2;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, &set))
            continue;
        int k = sys_int("/sys/devices/system/cpu/cpu%d/topology/"
                        "core_cpus_list", c);
        if (k < 0)
            k = sys_int("/sys/devices/system/cpu/cpu%d/topology/"
                        "thread_siblings_list", c);
        *cpu = *cpu == -2 ? c : -1;
        *core = *core == -2 || *core == k ? k : -1;
    }
}

static MPI_Comm guided(const char *value)
{
    MPI_Info info;
    MPI_Comm c;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "mpi_hw_resource_type", value));
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank,
                                  info, &c));
    CHECK_MPI(MPI_Info_free(&info));
    return c;
}

/* My comm holds exactly the world ranks whose id equals mine, in world
   order; MPI_COMM_NULL when mine is -1. */
static void check_by_id(MPI_Comm c, int my_id, const char *what)
{
    int ids[size];
    CHECK_MPI(MPI_Allgather(&my_id, 1, MPI_INT, ids, 1, MPI_INT,
                            MPI_COMM_WORLD));
    if (my_id < 0) {
        CHECK(c == MPI_COMM_NULL, "%s: a communicator, but not restricted",
              what);
        return;
    }
    CHECK(c != MPI_COMM_NULL, "%s: MPI_COMM_NULL, restricted to %d", what,
          my_id);
    MPI_Group g, world;
    int n, i = 0;
    CHECK_MPI(MPI_Comm_group(c, &g));
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_MPI(MPI_Group_size(g, &n));
    for (int r = 0; r < size; r++) {
        if (ids[r] != my_id)
            continue;
        int in;
        CHECK(i < n, "%s: world rank %d missing", what, r);
        CHECK_MPI(MPI_Group_translate_ranks(g, 1, &i, world, &in));
        CHECK(in == r, "%s: rank %d is world %d, expected %d", what, i, in,
              r);
        i++;
    }
    CHECK(i == n, "%s: %d members, expected %d", what, n, i);
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Group_free(&world));
}

/* small is MPI_COMM_NULL, or a subset of big (not MPI_COMM_NULL). */
static void check_nested(MPI_Comm small, MPI_Comm big, const char *what)
{
    if (small == MPI_COMM_NULL)
        return;
    CHECK(big != MPI_COMM_NULL, "%s: inner level, but no outer", what);
    MPI_Group gs, gb, diff;
    CHECK_MPI(MPI_Comm_group(small, &gs));
    CHECK_MPI(MPI_Comm_group(big, &gb));
    CHECK_MPI(MPI_Group_difference(gs, gb, &diff));
    CHECK(diff == MPI_GROUP_EMPTY, "%s: not nested", what);
    CHECK_MPI(MPI_Group_free(&gs));
    CHECK_MPI(MPI_Group_free(&gb));
}

static void free_comm(MPI_Comm *c)
{
    if (*c != MPI_COMM_NULL)
        CHECK_MPI(MPI_Comm_free(c));
}

/* 1 if some process got a communicator smaller than world. */
static int splits_strictly(MPI_Comm c)
{
    int n = size, any;
    if (c != MPI_COMM_NULL)
        CHECK_MPI(MPI_Comm_size(c, &n));
    int mine = n < size;
    CHECK_MPI(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX,
                            MPI_COMM_WORLD));
    return any;
}

static const char *const levels[] = {"package", "numanode", "l3cache",
                                     "l2cache", "l1cache", "core",
                                     "hwthread"};
#define NLEVELS (int)(sizeof levels / sizeof levels[0])

static void guided_levels(void)
{
    int cpu, core, result;
    my_cpu_core(&cpu, &core);

    MPI_Comm shared, machine = guided("mpi_shared_memory");
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank,
                                  MPI_INFO_NULL, &shared));
    CHECK(machine != MPI_COMM_NULL, "mpi_shared_memory: MPI_COMM_NULL");
    CHECK_MPI(MPI_Comm_compare(machine, shared, &result));
    CHECK(result == MPI_CONGRUENT, "mpi_shared_memory is not SHARED");

    MPI_Comm c[NLEVELS];
    for (int l = 0; l < NLEVELS; l++)
        c[l] = guided(levels[l]);
    check_by_id(c[NLEVELS - 1], cpu, "hwthread");
    check_by_id(c[NLEVELS - 2], core, "core");
    /* the caches, the core and the hardware thread, each inside the
       nearest larger of them that the machine describes (a VM's sysfs
       may describe no cache at all: those levels are MPI_COMM_NULL) */
    for (int l = 3; l < NLEVELS; l++)
        for (int k = l - 1; k >= 2; k--)
            if (c[k] != MPI_COMM_NULL) {
                check_nested(c[l], c[k], levels[l]);
                break;
            }
    check_nested(c[NLEVELS - 2], c[0], "core in package");
    for (int l = 0; l < NLEVELS; l++)
        check_nested(c[l], machine, levels[l]);

    /* other spellings of the same levels */
    MPI_Comm a = guided("hwloc://Core"), b = guided("PU");
    check_by_id(a, core, "hwloc://Core");
    check_by_id(b, cpu, "PU");
    free_comm(&a);
    free_comm(&b);
    for (int l = 0; l < NLEVELS; l++)
        free_comm(&c[l]);
    free_comm(&machine);
    free_comm(&shared);
}

/* MPI_INFO_NULL, no key, a value no level has: MPI_COMM_NULL. */
static void guided_null(void)
{
    MPI_Comm c;
    MPI_Info info;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0,
                                  MPI_INFO_NULL, &c));
    CHECK(c == MPI_COMM_NULL, "MPI_INFO_NULL gave a communicator");
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "other_key", "core"));
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0,
                                  info, &c));
    CHECK(c == MPI_COMM_NULL, "an info without the key gave a communicator");
    CHECK_MPI(MPI_Info_free(&info));
    c = guided("quantum_entangler");
    CHECK(c == MPI_COMM_NULL, "an unknown value gave a communicator");
}

static void unguided_on(MPI_Comm parent, const char *what)
{
    int psize;
    MPI_Info info;
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_size(parent, &psize));
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Comm_split_type(parent, MPI_COMM_TYPE_HW_UNGUIDED, 0, info,
                                  &c));
    char v[MPI_MAX_INFO_VAL];
    int len = sizeof v, flag, n;
    CHECK_MPI(MPI_Info_get_string(info, "mpi_hw_resource_type", &len, v,
                                  &flag));
    CHECK_MPI(MPI_Info_free(&info));
    if (c == MPI_COMM_NULL) {
        CHECK(!flag, "%s: MPI_COMM_NULL, but level %s reported", what, v);
        return;
    }
    CHECK(flag, "%s: no level reported in info", what);
    CHECK_MPI(MPI_Comm_size(c, &n));
    CHECK(n < psize, "%s: %s gave %d of %d, not a strict subset", what, v, n,
          psize);
    unguided_on(c, "unguided of unguided"); /* goes further down */
    CHECK_MPI(MPI_Comm_free(&c));
}

static void unguided(void)
{
    MPI_Info info;
    MPI_Comm c;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, 0,
                                  info, &c));
    char v[MPI_MAX_INFO_VAL] = "";
    int len = sizeof v, flag, any = c != MPI_COMM_NULL, some;
    CHECK_MPI(MPI_Info_get_string(info, "mpi_hw_resource_type", &len, v,
                                  &flag));
    CHECK_MPI(MPI_Info_free(&info));
    CHECK_MPI(MPI_Allreduce(&any, &some, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    if (!some) { /* then no level splits the job into strict subsets */
        for (int l = 0; l < NLEVELS; l++) {
            MPI_Comm g = guided(levels[l]);
            CHECK(!splits_strictly(g), "HW_UNGUIDED found nothing, but %s "
                  "splits", levels[l]);
            free_comm(&g);
        }
        return;
    }
    /* the same level everywhere, and HW_GUIDED of it gives c */
    int idx = -1, lo, hi, result;
    for (int l = 0; l < NLEVELS; l++)
        if (c != MPI_COMM_NULL && !strcmp(v, levels[l]))
            idx = l;
    CHECK(c == MPI_COMM_NULL || idx >= 0, "unknown level \"%s\"", v);
    int a = idx < 0 ? NLEVELS : idx, b = idx < 0 ? -1 : idx;
    CHECK_MPI(MPI_Allreduce(&a, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Allreduce(&b, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    CHECK(lo == hi, "levels differ between processes");
    MPI_Comm g = guided(levels[lo]);
    CHECK((g == MPI_COMM_NULL) == (c == MPI_COMM_NULL),
          "HW_GUIDED %s and HW_UNGUIDED disagree", levels[lo]);
    if (c != MPI_COMM_NULL) {
        CHECK_MPI(MPI_Comm_compare(c, g, &result));
        CHECK(result == MPI_CONGRUENT, "HW_GUIDED %s differs", levels[lo]);
    }
    /* and no larger level of the order splits */
    for (int l = 0; l < lo; l++) {
        MPI_Comm h = guided(levels[l]);
        CHECK(!splits_strictly(h), "%s splits, before %s", levels[l],
              levels[lo]);
        free_comm(&h);
    }
    free_comm(&g);
    free_comm(&c);
    unguided_on(MPI_COMM_WORLD, "unguided");
}

static void errors(void)
{
    MPI_Comm c = MPI_COMM_NULL;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Comm_split_type(MPI_COMM_WORLD, 12345, 0, MPI_INFO_NULL,
                                    &c), MPI_ERR_ARG);
    if (size >= 2) { /* no HW_UNGUIDED over an intercommunicator */
        MPI_Comm half, inter;
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
        CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - rank % 2,
                                       7, &inter));
        CHECK_MPI(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
        CHECK_CLASS(MPI_Comm_split_type(inter, MPI_COMM_TYPE_HW_UNGUIDED, 0,
                                        MPI_INFO_NULL, &c), MPI_ERR_COMM);
        /* HW_GUIDED splits each side, as SHARED does */
        MPI_Info info;
        int flag, rsize;
        CHECK_MPI(MPI_Info_create(&info));
        CHECK_MPI(MPI_Info_set(info, "mpi_hw_resource_type", "machine"));
        CHECK_MPI(MPI_Comm_split_type(inter, MPI_COMM_TYPE_HW_GUIDED, 0, info,
                                      &c));
        CHECK_MPI(MPI_Info_free(&info));
        CHECK(c != MPI_COMM_NULL, "HW_GUIDED machine on an intercomm: NULL");
        CHECK_MPI(MPI_Comm_test_inter(c, &flag));
        CHECK_MPI(MPI_Comm_remote_size(c, &rsize));
        CHECK(flag && rsize == size / 2 + (rank % 2 ? size % 2 : 0),
              "intercomm split: inter %d, remote size %d", flag, rsize);
        CHECK_MPI(MPI_Comm_free(&c));
        CHECK_MPI(MPI_Comm_free(&inter));
        CHECK_MPI(MPI_Comm_free(&half));
    }
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    guided_levels();
    guided_null();
    unguided();
    errors();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
