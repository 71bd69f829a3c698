/* alloc_mem_limits: MPI_Alloc_mem of more than RLIMIT_AS allows gives MPI_ERR_NO_MEM through MPI_COMM_WORLD's handler and the rank goes on; 4 GiB takes no time and is usable at its first and last byte. */
/* shmpi-test: np=1,2 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <inttypes.h>
#include <stdint.h>
#include <sys/resource.h>

#define GIB ((MPI_Aint)1 << 30)

static int handler_calls, handler_class;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    handler_calls++;
    MPI_Error_class(*code, &handler_class);
    (void)comm;
}

static uint64_t vm_size(void)
{
    unsigned long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    CHECK(f && fscanf(f, "%lu", &pages) == 1, "cannot read /proc/self/statm");
    fclose(f);
    return (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* Memory still usable, as far as a test can see simply: the machine's
   MemAvailable + SwapFree, and the limit of the process's own memory
   cgroup (v2 or v1 at the usual mount points). */
static uint64_t room_guess(void)
{
    uint64_t room = 0, kb;
    char line[4096], key[64];
    FILE *f = fopen("/proc/meminfo", "r");
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "%63s %" SCNu64, key, &kb) == 2 &&
            (!strcmp(key, "MemAvailable:") || !strcmp(key, "SwapFree:")))
            room += kb * 1024;
    if (f)
        fclose(f);
    f = fopen("/proc/self/cgroup", "r");
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *path = strrchr(line, ':'), file[4200];
        if (!path)
            continue;
        if (!strncmp(line, "0::", 3))
            snprintf(file, sizeof file, "/sys/fs/cgroup%s/memory.max", path + 1);
        else if (strstr(line, "memory"))
            snprintf(file, sizeof file,
                     "/sys/fs/cgroup/memory%s/memory.limit_in_bytes", path + 1);
        else
            continue;
        FILE *g = fopen(file, "r");
        uint64_t lim;
        if (g && fscanf(g, "%" SCNu64, &lim) == 1 && lim < room)
            room = lim;
        if (g)
            fclose(g);
    }
    if (f)
        fclose(f);
    return room;
}

/* A request the address-space limit cannot hold: MPI_ERR_NO_MEM, and
   the rank still allocates, communicates and frees. */
static void past_rlimit_as(int rank)
{
    struct rlimit old, lim;
    CHECK(getrlimit(RLIMIT_AS, &old) == 0, "getrlimit: %s", strerror(errno));
    lim = old;
    lim.rlim_cur = vm_size() + GIB / 2;
    if (old.rlim_max != RLIM_INFINITY && old.rlim_max < lim.rlim_cur) {
        printf("rank %d: skipped RLIMIT_AS: its hard limit is too low\n", rank);
        return;
    }
    CHECK(setrlimit(RLIMIT_AS, &lim) == 0, "setrlimit: %s", strerror(errno));

    void *p = &p;
    int rc = MPI_Alloc_mem(2 * GIB, MPI_INFO_NULL, &p);
    CHECK_CLASS(rc, MPI_ERR_NO_MEM);
    CHECK(p == &p, "a failed MPI_Alloc_mem changed baseptr");
    CHECK(handler_calls == 1 && handler_class == MPI_ERR_NO_MEM,
          "MPI_COMM_WORLD's handler ran %d times, class %d", handler_calls,
          handler_class);

    unsigned char *q = NULL;
    CHECK_MPI(MPI_Alloc_mem(1 << 20, MPI_INFO_NULL, &q));
    memset(q, 0x5a, 1 << 20);
    CHECK(q[0] == 0x5a && q[(1 << 20) - 1] == 0x5a, "1 MiB not usable");
    CHECK_MPI(MPI_Free_mem(q));
    CHECK(setrlimit(RLIMIT_AS, &old) == 0, "setrlimit: %s", strerror(errno));
}

static double seconds_since(double t) { return MPI_Wtime() - t; }

/* 4 GiB on rank 0 when the machine and the cgroup leave room for it. */
static void four_gib(int rank)
{
    if (rank != 0)
        return;
    uint64_t room = room_guess();
    if (room < (uint64_t)5 * GIB) {
        printf("skipped 4 GiB: about %" PRIu64 " MiB usable here\n",
               room >> 20);
        return;
    }
    unsigned char *p = NULL;
    double t = MPI_Wtime();
    CHECK_MPI(MPI_Alloc_mem(4 * GIB, MPI_INFO_NULL, &p));
    double took = seconds_since(t);
    /* reserving the pages up front took 3-6 s here */
    CHECK(took < 0.5, "MPI_Alloc_mem of 4 GiB took %.2f s", took);
    p[0] = 1;
    p[4 * GIB - 1] = 2;
    CHECK(p[0] == 1 && p[4 * GIB - 1] == 2 && p[GIB] == 0,
          "4 GiB: first, last or middle byte wrong");
    t = MPI_Wtime();
    CHECK_MPI(MPI_Free_mem(p));
    took = seconds_since(t);
    CHECK(took < 0.5, "MPI_Free_mem of 4 GiB took %.2f s", took);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    int rank, np;
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &np));
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_create_errhandler(count_errors, &eh));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));

    past_rlimit_as(rank);
    int sum = 0, one = 1;
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == np, "allreduce after MPI_ERR_NO_MEM: %d", sum);
    four_gib(rank);

    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
