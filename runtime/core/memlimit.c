/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * memlimit.c - how much memory this process may still take: the check
 * that comes before a memfd segment of memseg.c is mapped.
 *
 * The segments are sparse: a page is taken when it is first touched.
 * Reserving every page up front (posix_fallocate) made a 4 GiB
 * MPI_Alloc_mem cost 3.3-5.8 s and its MPI_Free_mem 2 s (2026-11-28,
 * `taskset -c 1 ./big 4`, a loop around one MPI_Alloc_mem), and it did
 * not even keep a process from being killed: past a memory cgroup's
 * limit the kernel's OOM killer answers the reservation itself.  So the
 * request is compared with each limit first, and refused with ENOMEM
 * when it does not fit:
 *   - RLIMIT_AS, less the address space in use (/proc/self/statm): mmap
 *     would fail anyway, but the message can then name the limit;
 *   - the memory cgroup of the process, v2 (memory.max, memory.current)
 *     and v1 (memory.limit_in_bytes, memory.usage_in_bytes), at its own
 *     level and every ancestor's up to the mount point: the limit less
 *     the usage, plus the page cache the kernel would reclaim first
 *     (active_file + inactive_file of memory.stat; tmpfs and memfd
 *     pages are not in them, they live on the anonymous lists), less a
 *     reserve of 1/32 of the limit (CGROUP_RESERVE);
 *   - the machine: MemAvailable + SwapFree of /proc/meminfo.
 * The pages of a memfd live in the kernel's internal tmpfs, which has
 * no size limit: how large /dev/shm is does not bound them.
 *
 * Reading those files costs about 1 ms (2026-11-28, 1000 MPI_Alloc_mem
 * of 64 KiB in a loop, `taskset -c 1 ./many`, 5 runs: 1.0-1.5 ms each
 * when every one was checked, 0.07 ms each with the old fallocate), so
 * small requests are counted, not checked: only a request of CHECK_FROM
 * or more, or one larger than what is left of the allowance, reads them.
 * The allowance is the room that the last check left, shared by the
 * job's ranks (which all run here, likely in the same cgroup) and halved,
 * at most UNCHECKED_MAX: far from every limit a check comes every
 * 64 MiB, and close to one every request is checked, so that small
 * requests of one rank never add up to more than the room either.
 * (With an allowance of half the room, not shared, two ranks taking
 * 64 KiB blocks until refused in a 512 MiB cgroup woke the OOM killer;
 * shared, they stop at 248 and 246 MiB.)  From CHECK_FROM on, the old
 * reservation cost more than the check does (fallocate took about
 * 0.8 ms per MiB above); the 64 KiB requests now take 0.014-0.021 ms.
 *
 * The check is of what is free at the moment of the call.  Memory that
 * others take afterwards, or requests of several ranks that each fit
 * alone, can still run out when the pages are touched - exactly as with
 * malloc: four ranks taking 1 MiB blocks until refused in a 512 MiB
 * cgroup each see the same last few MiB at the same moment, and the OOM
 * killer ends one.  The check keeps a request that cannot fit from ever
 * being made, and one rank alone from creeping past the limit.
 *
 * State: the allowance is shmpi_proc.mem_allowance (core/proc.h).
 */
#include <inttypes.h>
#include <stdatomic.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/proc.h"
#include "core/memseg.h"

struct room {
    uint64_t bytes;
    const char *limit;
};

static void lower(struct room *r, uint64_t bytes, const char *limit)
{
    if (bytes < r->bytes) {
        r->bytes = bytes;
        r->limit = limit;
    }
}

/* The number at the start of a file ("max": UINT64_MAX); 0 if none. */
static int read_u64(const char *dir, const char *file, uint64_t *v)
{
    char path[PATH_MAX], word[32] = "";
    if (snprintf(path, sizeof path, "%s/%s", dir, file) >= (int)sizeof path)
        return 0;
    FILE *f = fopen(path, "re");
    if (!f)
        return 0;
    int ok = fscanf(f, "%31s", word) == 1;
    fclose(f);
    if (ok && strcmp(word, "max") == 0)
        *v = UINT64_MAX;
    else if (ok)
        ok = sscanf(word, "%" SCNu64, v) == 1;
    return ok;
}

/* The sum of the values of the keys a and b in a file of lines
   "key value [unit]". */
static uint64_t keyed_sum(const char *path, const char *a, const char *b)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return 0;
    char line[256], key[64];
    uint64_t v, sum = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "%63s %" SCNu64, key, &v) == 2 &&
            (strcmp(key, a) == 0 || strcmp(key, b) == 0))
            sum += v;
    fclose(f);
    return sum;
}

struct cgroup_files {
    const char *max, *current, *file_a, *file_b, *phrase;
};

static const struct cgroup_files v2 = {
    "memory.max", "memory.current", "active_file", "inactive_file",
    "the memory cgroup's memory.max",
};
static const struct cgroup_files v1 = {
    "memory.limit_in_bytes", "memory.usage_in_bytes", "total_active_file",
    "total_inactive_file", "the memory cgroup's memory.limit_in_bytes",
};

/*
 * A cgroup's last 1/32 is not handed out: the processes in it (the rank,
 * its launcher, their heaps, stacks and output buffers) still need pages
 * after the last request that fits.  Without it, a rank taking 1 MiB
 * blocks until refused in a 512 MiB cgroup stopped at 494-495 MiB and was
 * then killed by the OOM killer in MPI_Free_mem or MPI_Finalize in 5 of 8
 * runs under ASan (2026-11-28, test/alloc-mem-cgroup's second job in a
 * loop).
 */
#define CGROUP_RESERVE 32

/* Room at dir and each ancestor down to (and with) mount. */
static void cgroup_room(char *dir, size_t mount_len,
                        const struct cgroup_files *c, struct room *r)
{
    for (;;) {
        uint64_t max, cur;
        if (read_u64(dir, c->max, &max) && max != UINT64_MAX &&
            read_u64(dir, c->current, &cur)) {
            char stat[PATH_MAX];
            snprintf(stat, sizeof stat, "%s/memory.stat", dir);
            uint64_t cache = keyed_sum(stat, c->file_a, c->file_b);
            uint64_t room = (max > cur ? max - cur : 0) + cache;
            lower(r, room > max / CGROUP_RESERVE ? room - max / CGROUP_RESERVE
                                                 : 0, c->phrase);
        }
        char *slash = strrchr(dir, '/');
        if (!slash || (size_t)(slash - dir) < mount_len)
            return;
        *slash = '\0';
    }
}

/* Is word one of the comma-separated items of list? */
static int has_item(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; p; p = strchr(p, ',')) {
        p += *p == ',';
        if (strncmp(p, word, n) == 0 && (p[n] == ',' || p[n] == '\0'))
            return 1;
    }
    return 0;
}

/* Mount point and root of the hierarchy: cgroup2, or v1 with memory. */
static int find_mount(int is_v2, char *mnt, char *root)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f)
        return 0;
    char line[4096], type[64], opts[1024];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        const char *dash = strstr(line, " - ");
        if (!dash || sscanf(line, "%*s %*s %*s %4095s %4095s", root, mnt) != 2 ||
            sscanf(dash, " - %63s %*s %1023s", type, opts) != 2)
            continue;
        found = is_v2 ? strcmp(type, "cgroup2") == 0
                      : strcmp(type, "cgroup") == 0 && has_item(opts, "memory");
    }
    fclose(f);
    return found;
}

/* The process's cgroups of /proc/self/cgroup: v2 ("0::path") and v1's
   memory hierarchy ("N:...,memory,...:path"). */
static void cgroups_room(struct room *r)
{
    FILE *f = fopen("/proc/self/cgroup", "re");
    if (!f)
        return;
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        *c2 = '\0';
        int is_v2 = strcmp(line, "0:") == 0;
        if (!is_v2 && !has_item(c1 + 1, "memory"))
            continue;
        char mnt[4096], root[4096], dir[PATH_MAX];
        const char *path = c2 + 1;
        if (!find_mount(is_v2, mnt, root))
            continue;
        size_t rl = strlen(root);
        if (strcmp(root, "/") != 0 && strncmp(path, root, rl) == 0)
            path += rl;
        if (snprintf(dir, sizeof dir, "%s%s", mnt, path) >= (int)sizeof dir)
            continue;
        size_t n = strlen(dir);
        while (n > strlen(mnt) && dir[n - 1] == '/')
            dir[--n] = '\0';
        cgroup_room(dir, strlen(mnt), is_v2 ? &v2 : &v1, r);
    }
    fclose(f);
}

static void address_space_room(struct room *r)
{
    struct rlimit rl;
    unsigned long pages;
    if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return;
    FILE *f = fopen("/proc/self/statm", "re");
    if (!f)
        return;
    int ok = fscanf(f, "%lu", &pages) == 1;
    fclose(f);
    uint64_t used = (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
    if (ok)
        lower(r, rl.rlim_cur > used ? rl.rlim_cur - used : 0,
              "RLIMIT_AS (ulimit -v)");
}

static void machine_room(struct room *r)
{
    uint64_t kb = keyed_sum("/proc/meminfo", "MemAvailable:", "SwapFree:");
    if (kb > 0)
        lower(r, kb * 1024, "the memory available on this machine "
                            "(MemAvailable + SwapFree)");
}

#define CHECK_FROM (16u << 20)
#define UNCHECKED_MAX (64u << 20)

/* The allowance, shmpi_proc.mem_allowance: bytes that may still be
   handed out unchecked; 0 at the start.  Under MPI_THREAD_MULTIPLE
   several threads may allocate at once, so a grant takes its bytes off
   with a compare-exchange that never lets the allowance go below 0 (a
   plain read-modify-write could hand the same bytes out twice).
   Relaxed: the word orders nothing else, it only has to be exact.  A
   refill stores what its own check found, relaxed too: two refills at
   once each store a room measured a moment ago, and either is a fair
   allowance.  No `mt` branch: every caller maps a segment, which costs
   microseconds, so the locked instruction is not worth avoiding. */
int shmpi_core_mem_grant(size_t bytes)
{
    _Atomic uint64_t *allowance = &shmpi_proc.mem_allowance;
    uint64_t left = atomic_load_explicit(allowance, memory_order_relaxed);
    while (bytes < CHECK_FROM && bytes <= left)
        if (atomic_compare_exchange_weak_explicit(allowance, &left,
                                                  left - bytes,
                                                  memory_order_relaxed,
                                                  memory_order_relaxed))
            return 1;
    uint64_t room = shmpi_core_mem_room(NULL);
    if (bytes > room)
        return 0;
    room = (room - bytes) / (2 * (uint64_t)(shmpi_proc.size > 1 ? shmpi_proc.size : 1));
    atomic_store_explicit(allowance,
                          room < UNCHECKED_MAX ? room : UNCHECKED_MAX,
                          memory_order_relaxed);
    return 1;
}

uint64_t shmpi_core_mem_room(const char **limit)
{
    struct room r = {UINT64_MAX, NULL};
    address_space_room(&r);
    cgroups_room(&r);
    machine_room(&r);
    if (limit)
        *limit = r.limit;
    return r.bytes;
}
